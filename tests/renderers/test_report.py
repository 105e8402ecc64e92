"""The Report API (gamegraph.renderers.report) on a user-defined game: HTML and Markdown
output, escaping, figures of every kind, and all-or-nothing writes."""

from __future__ import annotations

import base64
import os
import re
import urllib.parse
from fractions import Fraction

import pytest
from pages import EXTERNAL, PNG

from gamegraph import build, solve
from gamegraph.analysis import policy_view
from gamegraph.errors import InvalidArgumentError, OutputError, UnknownNameError
from gamegraph.renderers import report as report_module
from gamegraph.renderers.diagram import Diagram
from gamegraph.renderers.dot import policy_dot
from gamegraph.renderers.figures import new_figure
from gamegraph.renderers.report import Report, check_report_output
from gamegraph.tables import Table

DATA_URI = re.compile(r'<img src="data:(image/[a-z+]+);base64,([A-Za-z0-9+/=]+)"')
MD_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
MD_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)#]+)\)")


def external_resources(page: str) -> list[str]:
    """Every place a page would fetch something from the network."""
    return EXTERNAL.findall(page)


def markdown_files(path) -> list[str]:
    """Every image or file a Markdown file references, relative to it."""
    text = open(path, encoding="utf-8").read()
    return MD_IMAGE.findall(text) + MD_LINK.findall(text)


def listing(folder):
    return sorted(os.listdir(folder))


class PngOnly:
    """A figure that can only make PNGs: the HTML falls back from SVG to PNG."""

    def __init__(self, data: bytes):
        self.data = data

    def save(self, path):
        if not str(path).endswith(".png"):
            raise UnknownNameError("output extension", os.path.splitext(str(path))[1], (".png",))
        with open(path, "wb") as stream:
            stream.write(self.data)


class Broken:
    """A figure whose save always fails."""

    def save(self, path):
        raise RuntimeError("the figure broke")


@pytest.fixture(scope="module")
def piglet(toys):
    graph = build(toys.Piglet())
    return graph, solve(graph, exact=True)


@pytest.fixture(scope="module")
def piglet_report(piglet):
    graph, solution = piglet
    figure, axes = new_figure(figsize=(4, 3))
    states = [str(s) for s in graph.states if s != "won"]
    axes.bar(
        range(len(states)),
        [float(solution.values[graph.state_number(s)]) for s in graph.states if s != "won"],
    )
    axes.set_xticks(range(len(states)), states, rotation=30, fontsize=6)
    diagram = policy_dot(policy_view(graph, solution.policy), title="Piglet, played optimally")
    report = Report("Piglet <to 2> & back", footer="Piglet: 7 states")
    report.heading("Values").text(
        "Heads adds a point; a *tail* loses the turn's points. See `solve(graph)` and "
        "[the bars](#fig-values); <script>alert(1)</script> stays text."
    )
    report.table(solution.summary()).table(solution.best_moves())
    report.figure(figure, caption="Win probability of every state", name="Values")
    report.figure(str(diagram), caption="The optimal policy's chain", name="chain")
    report.figure(diagram, caption="The same diagram again", name="chain")
    return report


def test_repr_is_short_and_counts_sections(piglet_report):
    assert repr(piglet_report) == (
        "<Report 'Piglet <to 2> & back': 7 sections (2 tables, 3 figures)>"
    )
    assert repr(Report("x")) == "<Report 'x': 0 sections (0 tables, 0 figures)>"


def test_html_is_one_self_contained_page(piglet_report, piglet, tmp_path):
    _, solution = piglet
    assert solution.start_value == Fraction(4, 7)
    path = piglet_report.save(tmp_path / "piglet.html")
    assert listing(tmp_path) == ["piglet.html"]  # one file, no temporary left behind
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert external_resources(page) == []
    assert "<script" not in page  # the paragraph's <script> is escaped
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<title>Piglet &lt;to 2&gt; &amp; back</title>" in page
    assert "<code>solve(graph)</code>" in page and '<a href="#fig-values">the bars</a>' in page
    assert '<td style="text-align:left">4/7</td>' in page  # the exact start value
    assert DATA_URI.findall(page) == []  # SVG inline: its text can be searched and selected
    assert page.count('<div class="svg" role="img"') == 3 and "<?xml" not in page
    assert "<text" in page  # the diagrams' labels, as text
    assert re.findall(r'<figure id="fig-([a-z0-9-]+)"', page) == ["values", "chain", "chain-2"]
    assert "Figure 3: The same diagram again" in page
    assert "Piglet: 7 states \u00b7 figures rendered in" in page


def test_markdown_with_images_beside_it(piglet_report, tmp_path):
    path = piglet_report.save(tmp_path / "piglet.md")
    assert listing(tmp_path) == ["piglet.md", "piglet_files"]
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Piglet \\<to 2\\> & back\n")
    assert "a *tail* loses" in text and "`solve(graph)`" in text
    referenced = markdown_files(path)
    assert referenced == [
        "piglet_files/values.png",
        "piglet_files/chain.png",
        "piglet_files/chain-2.png",
        "piglet_files/values.svg",
        "piglet_files/chain.svg",
        "piglet_files/chain-2.svg",
    ]
    for name in referenced:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(PNG) if name.endswith(".png") else b"<svg" in data
    assert sorted(os.listdir(tmp_path / "piglet_files")) == sorted(
        os.path.basename(n) for n in referenced
    )
    assert "| start value | 4/7 |" in text


def test_markdown_links_work_for_a_name_with_spaces(piglet_report, tmp_path):
    # A Markdown link cannot hold a bare space: the links are percent-encoded.
    path = piglet_report.save(tmp_path / "my piglet.md")
    referenced = markdown_files(path)
    assert referenced and all(name.startswith("my%20piglet_files/") for name in referenced)
    for name in referenced:
        assert (tmp_path / urllib.parse.unquote(name)).is_file()


def test_html_falls_back_to_png_and_markdown_skips_the_svg(tmp_path):
    png = PNG + b"not really an image"
    report = Report("PNG only").figure(PngOnly(png), caption="raster")
    page = report.to_html()
    assert DATA_URI.findall(page) == [("image/png", base64.b64encode(png).decode())]
    report.save(tmp_path / "r.md")
    assert os.listdir(tmp_path / "r_files") == ["figure-1.png"]
    assert "[SVG]" not in (tmp_path / "r.md").read_text()


def test_a_figure_that_fails_leaves_nothing(tmp_path):
    report = Report("broken").text("fine").figure(Broken())
    with pytest.raises(RuntimeError, match="the figure broke"):
        report.save(tmp_path / "r.md")
    with pytest.raises(RuntimeError, match="the figure broke"):
        report.save(tmp_path / "r.html")
    assert listing(tmp_path) == []


def test_a_failed_write_removes_the_images_it_made(tmp_path, monkeypatch):
    report = Report("two").figure(PngOnly(PNG), name="a").figure(PngOnly(PNG), name="b")
    real = report_module.write_atomic

    def failing(path, data):
        if str(path).endswith(".md"):
            raise OutputError(f"cannot write {path}: disk full")
        return real(path, data)

    monkeypatch.setattr(report_module, "write_atomic", failing)
    with pytest.raises(OutputError, match="disk full"):
        report.save(tmp_path / "r.md")
    assert listing(tmp_path) == []  # the folder this call created is gone
    # An images folder that was there before stays, with its own files, minus the new ones.
    (tmp_path / "r_files").mkdir()
    (tmp_path / "r_files" / "mine.txt").write_text("keep me")
    (tmp_path / "r_files" / "a.png").write_bytes(b"old")
    with pytest.raises(OutputError, match="disk full"):
        report.save(tmp_path / "r.md")
    assert listing(tmp_path / "r_files") == ["a.png", "mine.txt"]
    assert (tmp_path / "r_files" / "mine.txt").read_text() == "keep me"


def test_bad_paths_fail_before_any_drawing(tmp_path):
    report = Report("x").figure(Broken())  # drawing would raise RuntimeError
    with pytest.raises(UnknownNameError, match="accepted: .html, .md"):
        report.save(tmp_path / "r.pdf")
    with pytest.raises(OutputError, match="does not exist"):
        report.save(tmp_path / "missing" / "r.html")
    (tmp_path / "r_files").write_text("a file where the images folder goes")
    with pytest.raises(OutputError, match="is not a folder"):
        report.save(tmp_path / "r.md")
    with pytest.raises(OutputError, match="is not a folder"):
        check_report_output(tmp_path / "r.md")
    assert listing(tmp_path) == ["r_files"]


def test_bad_sections_are_refused():
    report = Report("x")
    with pytest.raises(InvalidArgumentError, match="to_html"):
        report.table([[1, 2]])
    with pytest.raises(InvalidArgumentError, match="accepted: a Diagram"):
        report.figure(42)
    with pytest.raises(InvalidArgumentError, match="accepted 1, 2, 3 or 4"):
        report.heading("too small", level=5)
    with pytest.raises(InvalidArgumentError, match="title"):
        Report("  ")
    assert report.sections == []


def test_jupyter_display_is_a_styled_fragment():
    table = Table(("a", "b"), ((1, Fraction(1, 3)),), title="T")
    report = Report("Shown").table(table).figure(Diagram("digraph g { a -> b }"))
    shown = report._repr_html_()
    assert shown.startswith("<style>") and "<!DOCTYPE" not in shown
    assert '<article class="gamegraph-report">' in shown and "<td" in shown
    assert shown.count("<svg") == 1 and "data:image" not in shown


def test_svg_with_anything_active_stays_behind_an_img():
    class Active:
        def save(self, path):
            path = str(path)
            svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><text>x</text></svg>'
            with open(path, "w") as f:
                f.write(svg if path.endswith(".svg") else "")

    page = Report("a").figure(Active()).to_html()
    assert "onload" not in page and "data:image/svg+xml;base64," in page


def test_markdown_keeps_table_titles_and_takes_results_with_tables():
    class Result:  # a result that displays as its table (PolicyDiff, SuperSixSolve, ...)
        def summary(self):
            return Table(("a",), ((1,),), title="Summary of *it*")

    report = Report("t").table(Table(("a",), ((1,),), title="Wins by policy")).table(Result())
    text, _ = report.to_markdown()
    assert "**Wins by policy**\n\n| a |" in text
    assert "**Summary of \\*it\\***" in text
    assert "<caption>Wins by policy</caption>" in report.to_html()


def test_headings_one_to_four_and_emphasis():
    report = Report("h").heading("one", level=1).heading("four", level=4)
    report.text("*some* and **more**, not * this *")
    page = report.to_html()
    assert "<h1>one</h1>" in page and "<h4>four</h4>" in page
    assert "<em>some</em> and <strong>more</strong>, not * this *" in page
    text, _ = report.to_markdown()
    assert "\n# one\n" in text and "\n#### four\n" in text
    assert "*some* and **more**, not \\* this \\*" in text


def test_text_markup_escapes_markdown_and_keeps_links_safe():
    report = Report("m").text("a_b | c [x](javascript:alert(1)) [ok](notes.md) `x*y`")
    page = report.to_html()
    assert "javascript" not in re.findall(r'href="([^"]*)"', page)[0]
    assert '<a href="notes.md">ok</a>' in page and "<code>x*y</code>" in page
    text, images = report.to_markdown()
    assert "[x](javascript" not in text and "\\[x\\](javascript" in text
    assert "a\\_b \\| c" in text and "[ok](notes.md)" in text and "`x*y`" in text
    assert images == {}


def test_interactive_figures_live_in_html_and_still_in_markdown():
    pytest.importorskip("plotly")
    import plotly.graph_objects as go

    from gamegraph import build
    from gamegraph.analysis import explore_graph
    from gamegraph.games.jackpot import Jackpot
    from gamegraph.renderers.explorer import explore_figure

    report = Report("Live")
    report.figure(explore_figure(explore_graph(build(Jackpot(cells=3)))), caption="explorer")
    report.figure(go.Figure(go.Bar(x=[1, 2], y=[3, 4])), caption="bars")
    page = report.to_html()
    # Each in its own frame, which may run scripts but cannot reach the report's page.
    assert page.count('<iframe sandbox="allow-scripts"') == 2 and "<script" not in page
    assert page.count('<noscript><img src="data:image/png;base64,') == 2
    text, images = report.to_markdown()
    assert sorted(images) == ["figure-1.png", "figure-2.png"]
    assert all(data.startswith(b"\x89PNG") for data in images.values())
    with pytest.raises(InvalidArgumentError, match="cannot draw a object in a report"):
        Report("x").figure(object())
