"""Reports: headings, text, tables and figures saved as one HTML file or as Markdown.

A :class:`Report` is a title and a list of sections, added in order:

* :meth:`Report.heading` -- a heading (level 2 by default; the title is level 1);
* :meth:`Report.text` -- a paragraph of plain text, with ```code``` spans and
  ``[label](target)`` links as its only markup (links to http(s) or relative targets
  only: any other stays plain text);
* :meth:`Report.table` -- a :class:`gamegraph.tables.Table`, or anything with
  ``to_html()`` and ``to_markdown()``;
* :meth:`Report.figure` -- a :class:`~gamegraph.renderers.diagram.Diagram` (or DOT text),
  a matplotlib Figure, or anything whose ``save(path)`` writes ``.png`` and ``.svg``.

:meth:`Report.save` writes

``.html``
    one self-contained file: figures inline, as SVG markup where the figure can make SVG
    (its text stays text: searchable and selectable; an SVG holding anything active goes
    behind an ``<img>`` instead), else as PNG ``data:`` URIs; a small embedded stylesheet
    with system fonts, no script, and nothing fetched from the network;
``.md``
    Markdown with its images in a folder beside it, named after the file
    (``report.md`` -> ``report_files/``), referenced relatively: a PNG for every figure
    (shown inline) and an SVG next to it when the figure can make one (linked).

The output path is checked before anything is drawn; figures are rendered in memory, then
written, the page last, each file atomically. If writing fails, the files made so far are
removed again (the images folder too, when this call created it).

Every text a report is given (title, headings, paragraphs, captions, footer, and the cells,
title and notes of a :class:`~gamegraph.tables.Table`) is escaped for its output by
:mod:`gamegraph._escape`: no raw HTML, event handler or ``javascript:`` link survives,
and control characters show as escapes (``\\x1b``). A table of another kind writes its
own HTML and Markdown, which the report includes as they are.

In Jupyter a report displays itself (``_repr_html_``); its ``repr`` is one line.

Examples
--------
>>> from gamegraph.tables import Table
>>> from gamegraph.renderers.diagram import Diagram
>>> report = Report("Two nodes")
>>> report.heading("The graph").text("A `digraph` with [one edge](#fig-graph).")
<Report 'Two nodes': 2 sections (0 tables, 0 figures)>
>>> report.table(Table(("node", "value"), (("a", 0.5), ("b", 1))))
<Report 'Two nodes': 3 sections (1 table, 0 figures)>
>>> report.figure(Diagram("digraph g { a -> b }"), caption="a to b", name="graph")
<Report 'Two nodes': 4 sections (1 table, 1 figure)>
>>> page = report.to_html()
>>> "<code>digraph</code>" in page, '<div class="svg" role="img"' in page
(True, True)
>>> print(report.to_markdown()[0].split("\\n## ")[1])
The graph
<BLANKLINE>
A `digraph` with [one edge](#fig-graph).
<BLANKLINE>
| node | value |
| :--- | ---: |
| a | 0.5 |
| b | 1 |
<BLANKLINE>
![Figure 1: a to b](report_files/graph.png)
<BLANKLINE>
*Figure 1: a to b* ([SVG](report_files/graph.svg))
<BLANKLINE>
---
<BLANKLINE>
figures rendered in ... s; gamegraph ...
<BLANKLINE>
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from .._escape import html_text, markdown_text, one_line, safe_url
from .._files import check_name_length, check_output, cleanup_on_signals, write_atomic
from ..errors import InvalidArgumentError, OutputError

#: Extensions :meth:`Report.save` writes.
EXTENSIONS = (".html", ".md")
#: The images folder of ``name.md`` is ``name`` + this.
FOLDER_SUFFIX = "_files"

_MIME = {"svg": "image/svg+xml", "png": "image/png"}
_INLINE = re.compile(
    r"`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*\s](?:[^*]*[^*\s])?)\*\*"
    r"|\*([^*\s](?:[^*]*[^*\s])?)\*"
)
_SAFE_NAME = re.compile(r"[^a-z0-9_-]+")

_STYLE = """
.gamegraph-report{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,
sans-serif;line-height:1.45;color:#1d1d1f;max-width:60rem;margin:0 auto;padding:1rem 1.5rem}
.gamegraph-report h1{font-size:1.7rem;margin:.2rem 0 1rem}
.gamegraph-report h2{font-size:1.3rem;margin:1.8rem 0 .6rem;border-bottom:1px solid #ddd}
.gamegraph-report h3{font-size:1.1rem;margin:1.2rem 0 .5rem}
.gamegraph-report code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;
background:#f3f3f3;padding:0 .2em;border-radius:3px}
.gamegraph-report div.table{overflow-x:auto}
.gamegraph-report table.gamegraph-table{border-collapse:collapse;margin:.6rem 0;
font-size:.92rem;font-variant-numeric:tabular-nums}
.gamegraph-report table.gamegraph-table caption{text-align:left;font-weight:600;
padding:.2rem 0}
.gamegraph-report table.gamegraph-table th,.gamegraph-report table.gamegraph-table td{
border:1px solid #d0d0d0;padding:.2rem .55rem;overflow-wrap:anywhere}
.gamegraph-report table.gamegraph-table th{background:#f2f2f2}
.gamegraph-report figure{margin:1rem 0;text-align:center}
.gamegraph-report figure img{max-width:100%;height:auto}
.gamegraph-report figure div.svg svg{max-width:100%;height:auto}
.gamegraph-report figcaption{font-size:.9rem;color:#444;margin-top:.3rem}
.gamegraph-report footer{margin-top:2rem;padding-top:.5rem;border-top:1px solid #ddd;
font-size:.85rem;color:#555}
"""


@dataclass
class _Heading:
    text: str
    level: int


@dataclass
class _Text:
    text: str


@dataclass
class _Table:
    table: object


@dataclass
class _Figure:
    obj: object
    caption: str
    name: str
    number: int
    images: dict = field(default_factory=dict)  # format -> bytes, or the error if unsupported


def inline_html(text: str) -> str:
    """A paragraph as HTML: its text escaped, its ```code``` spans as ``<code>``, its
    ``[label](target)`` links live only when the target is http(s) or relative
    (:func:`gamegraph._escape.safe_url`); any other link stays plain text.

    >>> inline_html("`<b>` [ok](a.html) [no](javascript:alert(1))")
    '<code>&lt;b&gt;</code> <a href="a.html">ok</a> [no](javascript:alert(1))'
    """
    return _inline(
        text,
        html_text,
        lambda code: f"<code>{html_text(code)}</code>",
        lambda label, url: f'<a href="{html_text(url)}">{html_text(label)}</a>',
        lambda words: f"<strong>{words}</strong>",
        lambda words: f"<em>{words}</em>",
    )


def inline_markdown(text: str) -> str:
    """A paragraph as Markdown: the same code spans and links as :func:`inline_html`, all
    other text escaped (:func:`gamegraph._escape.markdown_text`), on one line.

    >>> print(inline_markdown("<b> `x` [ok](a<b>.html) [no](vbscript:x)"))
    \\<b\\> `x` [ok](a%3Cb%3E.html) \\[no\\](vbscript:x)
    """
    return _inline(
        text,
        markdown_text,
        lambda code: f"`{one_line(code)}`",
        lambda label, url: f"[{markdown_text(label)}]({url})",
        lambda words: f"**{words}**",
        lambda words: f"*{words}*",
    )


def _inline(text: str, plain, code, link, strong=None, emphasis=None) -> str:
    """``text`` with its code spans, links, ``**strong**`` and ``*emphasised*`` words, each
    part through its function (``link`` gets the label and the checked URL); a link to any
    other scheme is plain text.
    """
    parts, position = [], 0
    for match in _INLINE.finditer(text):
        parts.append(plain(text[position : match.start()]))
        span, label, target, bold, italic = match.groups()
        url = safe_url(target) if target is not None else None
        if bold is not None or italic is not None:
            words = plain(bold if bold is not None else italic)
            parts.append((strong if bold is not None else emphasis)(words))
        elif span is not None:
            parts.append(code(span))
        elif url is None:
            parts.append(plain(match.group(0)))
        else:
            parts.append(link(label, url))
        position = match.end()
    parts.append(plain(text[position:]))
    return "".join(parts)


def _is_table(obj) -> bool:
    return callable(getattr(obj, "to_html", None)) and callable(getattr(obj, "to_markdown", None))


def _as_table(obj):
    """``obj`` as a table (itself, or its ``table()`` / ``summary()``), or None."""
    if _is_table(obj):
        return obj
    for method in ("table", "summary"):
        make = getattr(obj, method, None)
        if callable(make):
            try:
                found = make()
            except TypeError:  # it needs arguments: not a result's own table
                continue
            if _is_table(found):
                return found
    return None


def _interactive(obj) -> bool:
    """A figure that is live in a browser: ours (``static_png``) or any plotly figure."""
    return callable(getattr(obj, "static_png", None)) or callable(
        getattr(obj, "to_plotly_json", None)
    )


def _live_page(obj) -> str:
    """An interactive figure as its own offline page (plotly.js inline)."""
    page = getattr(obj, "html", None)
    if callable(page):
        return page()
    from .interactive import page_html

    return page_html(obj)


def _render(obj, fmt: str) -> bytes | ValueError:
    """The figure as ``fmt`` bytes through its own ``save``, or the error saying why not;
    an interactive figure's static picture as PNG.
    """
    if _interactive(obj):
        if fmt != "png":
            return ValueError(f"an interactive figure has a static .png, not .{fmt}")
        static = getattr(obj, "static_png", None)
        if callable(static):
            return static()
        from .static import plotly_image, png

        return png(plotly_image(obj))
    if isinstance(obj, str):
        from .diagram import Diagram

        obj = Diagram(obj)
    save = getattr(obj, "save", None)
    if save is None:  # a plain matplotlib Figure
        from . import figures

        def save(path):
            figures.save(obj, path)

    with tempfile.TemporaryDirectory(prefix="gamegraph-report-") as folder:
        path = Path(folder) / f"figure.{fmt}"
        try:
            save(path)
        except ValueError as error:  # UnknownNameError too: it does not offer this format
            return error
        if not path.is_file():
            return ValueError(f"its save() wrote no .{fmt} file")
        return path.read_bytes()


_ACTIVE = re.compile(rb"<script|<foreignObject|\son[a-z]+\s*=|javascript:|<!ENTITY", re.I)


def _inline_svg(data: bytes) -> str | None:
    """An SVG image as markup to put inside HTML (no XML prolog), or None when it holds
    anything active (a script, an event handler, a ``javascript:`` link, an entity), which
    stays behind an ``<img>``, where no script runs.
    """
    if _ACTIVE.search(data):
        return None
    text = data.decode("utf-8", errors="replace")
    start = text.find("<svg")
    return text[start:] if start >= 0 else None


def _url(folder, name: str, fmt: str) -> str:
    """A relative link to an image, percent-encoded: a Markdown link cannot hold a space.
    The name's bytes are encoded, so a name that is not UTF-8 works too.

    >>> _url("my report_files", "board", "png"), _url(os.fsdecode(b"r\\xff_files"), "b", "png")
    ('my%20report_files/board.png', 'r%FF_files/b.png')
    """
    return urllib.parse.quote(os.fsencode(f"{folder}/{name}.{fmt}"))


def images_folder(path) -> Path:
    """Where the images of a Markdown report go: ``report.md`` -> ``report_files``.

    >>> images_folder("out/report.md").as_posix()
    'out/report_files'
    """
    path = Path(path)
    return path.with_name(path.stem + FOLDER_SUFFIX)


def check_report_output(path) -> tuple[Path, str]:
    """Check a report's output path before any work: the extension (``.html`` or ``.md``),
    the folder, and for Markdown the images folder beside it.

    >>> check_report_output("report.pdf")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown output extension '.pdf'; accepted: .html, .md
    """
    path, extension = check_output(path, EXTENSIONS)
    if extension == ".md":
        folder = images_folder(path)
        check_name_length(folder)  # report_files is longer than report.md
        if folder.exists() and not folder.is_dir():
            raise OutputError(f"cannot write the images of {path}: {folder} is not a folder")
        if folder.is_dir() and not _writable(folder):
            raise OutputError(f"cannot write the images of {path} into {folder}: permission denied")
    return path, extension


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK | os.X_OK)


class Report:
    """A titled report built from sections; saves as ``.html`` or ``.md``.

    Parameters
    ----------
    title : str
    footer : str, optional
        A line at the end (what was computed, sizes, time taken); the report adds the
        time it took to render its figures.

    Every section method returns the report, so calls chain.
    """

    def __init__(self, title: str, *, footer: str = ""):
        if not isinstance(title, str) or not title.strip():
            raise InvalidArgumentError(f"a report needs a title (a non-empty str), got {title!r}")
        self.title = title
        self.footer = footer
        self.sections: list = []
        self.render_seconds = 0.0

    # ---- building ----------------------------------------------------------
    def heading(self, text: str, level: int = 2) -> Report:
        """Add a heading; ``level`` 1 to 4 (the title is a level 1 heading too)."""
        if level not in (1, 2, 3, 4) or isinstance(level, bool):
            raise InvalidArgumentError(f"heading level {level!r}: accepted 1, 2, 3 or 4")
        self.sections.append(_Heading(str(text), level))
        return self

    def text(self, paragraph: str) -> Report:
        """Add a paragraph: plain text, ```code```, ``*emphasis*``, ``**strong**`` and
        ``[label](target)`` links (http(s) or relative targets; any other link stays plain
        text).
        """
        self.sections.append(_Text(str(paragraph)))
        return self

    def table(self, table) -> Report:
        """Add a table: a :class:`gamegraph.tables.Table`, anything with ``to_html()`` and
        ``to_markdown()`` (a pandas DataFrame with ``tabulate`` installed, say), or a result
        that has a table: its ``table()`` (``PolicyDiff``, ``LayerSummary``, ...) or
        ``summary()`` (``SuperSixSolve``). A table's title stays with it: the caption in
        HTML, a bold line above it in Markdown.
        """
        found = _as_table(table)
        if found is None:
            raise InvalidArgumentError(
                f"a report table needs to_html() and to_markdown(), got {type(table).__name__}; "
                "accepted: gamegraph.tables.Table, an object with both methods, or a result "
                "with table() or summary()"
            )
        self.sections.append(_Table(found))
        return self

    def figure(self, obj, *, caption: str = "", name: str | None = None) -> Report:
        """Add a figure: a Diagram or DOT text, a matplotlib Figure, an interactive figure
        (a plotly figure, the Super Six page, the graph explorer), or anything whose
        ``save(path)`` writes ``.png`` (and ideally ``.svg``).

        An interactive figure is live in an HTML report (its own page in a sandboxed
        frame: the report's page itself runs no script) and a static picture in Markdown
        (:mod:`gamegraph.renderers.static`, drawn with matplotlib).

        ``name`` is the file name of its images in a Markdown report (letters, digits,
        ``-`` and ``_``; ``figure-N`` by default) and the anchor ``#fig-name`` in HTML.
        """
        is_figure = isinstance(obj, str) or callable(getattr(obj, "save", None))
        is_figure = is_figure or callable(getattr(obj, "savefig", None)) or _interactive(obj)
        if not is_figure:
            raise InvalidArgumentError(
                f"cannot draw a {type(obj).__name__} in a report; accepted: a Diagram or DOT "
                "text, a matplotlib Figure, an interactive (plotly) figure, or an object "
                "with save(path) for .png/.svg"
            )
        number = sum(isinstance(s, _Figure) for s in self.sections) + 1
        stem = _SAFE_NAME.sub("-", (name or f"figure-{number}").lower()).strip("-")
        stem = stem or f"figure-{number}"
        taken = {s.name for s in self.sections if isinstance(s, _Figure)}
        unique, k = stem, 2
        while unique in taken:
            unique, k = f"{stem}-{k}", k + 1
        self.sections.append(_Figure(obj, str(caption), unique, number))
        return self

    # ---- display -----------------------------------------------------------
    def __repr__(self) -> str:
        tables = sum(isinstance(s, _Table) for s in self.sections)
        figures = sum(isinstance(s, _Figure) for s in self.sections)
        return (
            f"<Report {self.title!r}: {len(self.sections)} section"
            f"{'' if len(self.sections) == 1 else 's'} ({tables} table"
            f"{'' if tables == 1 else 's'}, {figures} figure{'' if figures == 1 else 's'})>"
        )

    def _repr_html_(self) -> str:
        return f"<style>{_STYLE}</style>{self._body_html()}"

    # ---- rendering ---------------------------------------------------------
    def _image(self, figure: _Figure, fmt: str) -> bytes | None:
        """The figure's image in ``fmt`` (rendered once, then kept), or None."""
        if fmt not in figure.images:
            started = time.perf_counter()
            figure.images[fmt] = _render(figure.obj, fmt)
            self.render_seconds += time.perf_counter() - started
        data = figure.images[fmt]
        return data if isinstance(data, bytes) else None

    def _need(self, figure: _Figure, formats) -> tuple[str, bytes]:
        for fmt in formats:
            data = self._image(figure, fmt)
            if data is not None:
                return fmt, data
        reasons = "; ".join(f".{fmt}: {figure.images[fmt]}" for fmt in formats)
        raise InvalidArgumentError(
            f"figure {figure.name!r} ({type(figure.obj).__name__}) could not be saved as "
            f"{' or '.join(formats)} ({reasons})"
        )

    def _caption(self, figure: _Figure) -> str:
        return f"Figure {figure.number}" + (f": {figure.caption}" if figure.caption else "")

    def _footer_text(self) -> str:
        from .. import __version__

        parts = [self.footer] if self.footer else []
        parts.append(f"figures rendered in {self.render_seconds:.1f} s; gamegraph {__version__}")
        return " \u00b7 ".join(parts)

    def _body_html(self) -> str:
        parts = ['<article class="gamegraph-report">', f"<h1>{html_text(self.title)}</h1>"]
        for section in self.sections:
            if isinstance(section, _Heading):
                level = section.level
                parts.append(f"<h{level}>{html_text(section.text)}</h{level}>")
            elif isinstance(section, _Text):
                parts.append(f"<p>{inline_html(section.text)}</p>")
            elif isinstance(section, _Table):
                parts.append(f'<div class="table">{section.table.to_html()}</div>')
            elif _interactive(section.obj):
                parts.append(self._live_figure_html(section))
            else:
                fmt, data = self._need(section, ("svg", "png"))
                caption = self._caption(section)
                svg = _inline_svg(data) if fmt == "svg" else None
                if svg is not None:  # its text stays text: searchable, selectable
                    picture = (
                        f'<div class="svg" role="img" aria-label="{html_text(caption)}">{svg}</div>'
                    )
                else:
                    encoded = base64.b64encode(data).decode("ascii")
                    picture = (
                        f'<img src="data:{_MIME[fmt]};base64,{encoded}" alt="{html_text(caption)}">'
                    )
                parts.append(
                    f'<figure id="fig-{section.name}">{picture}'
                    f"<figcaption>{html_text(caption)}</figcaption></figure>"
                )
        parts.append(f"<footer>{html_text(self._footer_text())}</footer></article>")
        return "\n".join(parts)

    def _live_figure_html(self, figure: _Figure) -> str:
        """An interactive figure: its page in a frame that may run scripts but not reach
        the report (``sandbox="allow-scripts"``), and its static picture where a browser
        runs no script at all.
        """
        caption = html_text(self._caption(figure))
        page = html_text(_live_page(figure.obj))
        still = base64.b64encode(self._need(figure, ("png",))[1]).decode("ascii")
        return (
            f'<figure id="fig-{figure.name}"><iframe sandbox="allow-scripts" title="{caption}" '
            f'style="width:100%;height:820px;border:0" srcdoc="{page}"></iframe>'
            f'<noscript><img src="data:image/png;base64,{still}" alt="{caption}"></noscript>'
            f"<figcaption>{caption}</figcaption></figure>"
        )

    def to_html(self) -> str:
        """The whole report as one self-contained HTML page."""
        body = self._body_html()
        return (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html_text(self.title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n"
        )

    def to_markdown(self, folder: str = "report" + FOLDER_SUFFIX) -> tuple[str, dict]:
        """The report as Markdown and its images: ``(text, {file name: bytes})``.

        Images are referenced as ``folder/name.png`` (and ``.svg``, linked), relative to
        the Markdown file.
        """
        lines = [f"# {markdown_text(self.title)}", ""]
        images = {}
        for section in self.sections:
            if isinstance(section, _Heading):
                lines += [f"{'#' * section.level} {markdown_text(section.text)}", ""]
            elif isinstance(section, _Text):
                lines += [inline_markdown(section.text).lstrip(" "), ""]
            elif isinstance(section, _Table):
                title = getattr(section.table, "title", "")
                if isinstance(title, str) and title.strip():  # GitHub shows no pandoc caption
                    lines += [f"**{markdown_text(one_line(title))}**", ""]
                lines += [section.table.to_markdown(), ""]
            else:
                fmt, data = self._need(section, ("png", "svg"))
                images[f"{section.name}.{fmt}"] = data
                caption = markdown_text(self._caption(section))
                lines += [f"![{caption}]({_url(folder, section.name, fmt)})", ""]
                svg = self._image(section, "svg") if fmt == "png" else None
                if svg:
                    images[f"{section.name}.svg"] = svg
                    lines += [f"*{caption}* ([SVG]({_url(folder, section.name, 'svg')}))", ""]
                else:
                    lines += [f"*{caption}*", ""]
        lines += ["---", "", markdown_text(self._footer_text()), ""]
        return "\n".join(lines), images

    def save(self, path) -> Path:
        """Write the report to ``path`` (``.html`` or ``.md``, see the module docstring).

        Returns the path written. Raises UnknownNameError for another extension and
        OutputError for a missing folder, a folder in the way or a write that fails.
        """
        path, extension = check_report_output(path)
        if extension == ".html":
            return write_atomic(path, self.to_html())
        folder = images_folder(path)
        text, images = self.to_markdown(folder.name)  # everything rendered before writing
        created_folder = images and not folder.exists()
        written = []
        # One guard for every file: SIGTERM/SIGINT/SIGHUP reach the cleanup below too.
        with cleanup_on_signals():
            try:
                if images:
                    try:
                        folder.mkdir(exist_ok=True)
                    except OSError as error:
                        raise OutputError(f"cannot create {folder}: {error.strerror}") from None
                for name, data in images.items():
                    target = folder / name
                    if not target.exists():
                        written.append(target)
                    write_atomic(target, data)
                write_atomic(path, text)
            except BaseException:
                if created_folder:
                    shutil.rmtree(folder, ignore_errors=True)
                else:
                    for target in written:
                        target.unlink(missing_ok=True)
                raise
        return path
