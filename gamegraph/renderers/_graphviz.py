"""Lay out Graphviz DOT and render it: the system ``dot`` when present, else pygraphviz.

The engine under :mod:`gamegraph.renderers.dot` and :class:`~gamegraph.renderers.diagram.Diagram`
(both use it; :mod:`.dot` re-exports its names). ``GAMEGRAPH_GRAPHVIZ`` (``system`` or
``pygraphviz``) forces one engine. A PNG of a source that sets a page ``size`` is rendered at
the resolution that keeps its long side at most :data:`PNG_MAX_PIXELS`. When Graphviz
cannot read a source, the error is one line naming the DOT line (or node) it objects to.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from gamegraph.errors import RenderError, UnknownNameError

from .._extras import require
from .._files import _shown, check_output, write_atomic

EXTENSIONS = (".dot", ".gv", ".png", ".svg", ".pdf")
IMAGE_FORMATS = ("png", "svg", "pdf")
#: Longest side of a PNG of a page-sized drawing, in pixels.
PNG_MAX_PIXELS = 4000
#: Inches Graphviz adds around a drawing (the ``margin`` the page-sized views set).
PAGE_MARGIN = 0.1


def graphviz_engine() -> str:
    """Which Graphviz renders: ``"system"`` (a ``dot`` on PATH) or ``"pygraphviz"``.

    The environment variable ``GAMEGRAPH_GRAPHVIZ`` (``system`` or ``pygraphviz``) forces one.
    """
    forced = os.environ.get("GAMEGRAPH_GRAPHVIZ", "").strip().lower()
    if forced in ("system", "pygraphviz"):
        return forced
    return "system" if shutil.which("dot") else "pygraphviz"


_SIZE = re.compile(r'\bsize="?(\d+(?:\.\d*)?),(\d+(?:\.\d*)?)')


def png_dpi(source) -> int | None:
    """PNG resolution for a DOT source that sets a page ``size``: the long side of the page
    at :data:`PNG_MAX_PIXELS` pixels; None (Graphviz's default) for sources without one.

    >>> png_dpi('digraph { graph [size="11.2,16"] a }'), png_dpi("digraph { a }")
    (246, None)
    """
    found = _SIZE.search(str(source))
    if found is None:
        return None
    longest = max(float(found.group(1)), float(found.group(2))) + 2 * PAGE_MARGIN
    return int(PNG_MAX_PIXELS // longest)


def render_bytes(source, fmt: str) -> bytes:
    """Lay out DOT ``source`` (text or a Diagram) and return the image in format ``fmt``
    (png, svg or pdf). A PNG of a page-sized source is rendered at :func:`png_dpi`.
    """
    source = str(source)
    if fmt not in IMAGE_FORMATS:
        raise UnknownNameError("image format", fmt, IMAGE_FORMATS)
    options = [f"-Gdpi={png_dpi(source)}"] if fmt == "png" and png_dpi(source) else []
    if graphviz_engine() == "system":
        return system_dot(source, [f"-T{fmt}", *options])
    return with_pygraphviz(
        source, lambda graph: graph.draw(format=fmt, prog="dot", args=" ".join(options))
    )


def system_dot(source: str, arguments) -> bytes:
    """The output of the system ``dot`` run with ``arguments`` on ``source``."""
    dot = shutil.which("dot")
    if dot is None:
        raise RenderError("GAMEGRAPH_GRAPHVIZ=system but no 'dot' program is on PATH")
    run = subprocess.run([dot, *arguments], input=source.encode(), capture_output=True)
    if run.returncode != 0:
        raise graphviz_error("dot", run.stderr.decode(errors="replace"), source)
    return run.stdout


def with_pygraphviz(source: str, action):
    """``action(graph)`` on the pygraphviz graph of ``source``, quietly (see
    :func:`_quiet_fontconfig`); Graphviz's own complaint goes into the error.
    """
    pygraphviz = require("pygraphviz", "rendering without a system Graphviz")
    tempfile.gettempdir()  # it draws through temporary files: none is said in one line (cli)
    said, failed = [], None
    with _quiet_fontconfig(said):
        try:
            result = action(pygraphviz.AGraph(string=source))
        except (OSError, ValueError) as error:
            failed = str(error)
    if failed is not None:
        raise graphviz_error("pygraphviz", "".join(said) or failed, source)
    sys.stderr.writelines(said)
    return result


def graphviz_error(engine: str, said: str, source: str) -> RenderError:
    """One line: what Graphviz said and the DOT it objects to, a node's line when it names
    a node (an HTML-like label it cannot read), else the line it names.

    >>> source = "digraph {\\n n0 [label=<b>x</b>]\\n}"
    >>> print(graphviz_error("dot", "Error: syntax error in line 2 near 'b'\\n", source))
    dot failed: Error: syntax error in line 2 near 'b' (line 2: n0 [label=<b>x</b>])
    """
    lines = source.splitlines()
    node = re.search(r"\bin label of (?:node|graph|edge) (\S+)", said)
    line = re.search(r"\bline (\d+)", said)
    shown = ""
    if node is not None:
        own = re.compile(rf"\s*{re.escape(node.group(1))}\s*\[")
        found = next((k for k, text in enumerate(lines, 1) if own.match(text)), None)
        if found is not None:
            shown = f" (line {found}: {_shown(lines[found - 1].strip())})"
    elif line is not None and 1 <= int(line.group(1)) <= len(lines):
        number = int(line.group(1))
        shown = f" (line {number}: {_shown(lines[number - 1].strip())})"
    return RenderError(f"{engine} failed: {' '.join(said.split())}{shown}")


# The full view's boxes are deliberately as tall as the digits rather than the line.
_TIGHT = re.compile(r"^Warning: node '\w+', graph '\w+' size too small for label$")


@contextlib.contextmanager
def _quiet_fontconfig(held: list | None = None):
    """Drop the wheel's harmless 'Fontconfig warning' lines about the system's newer config,
    and the warnings about the full view's deliberately tight node boxes.

    The bundled Graphviz writes straight to file descriptor 2, so it is swapped for a
    temporary file and every other line is passed on: to stderr, or into ``held``.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            for line in captured.read().decode(errors="replace").splitlines(keepends=True):
                if line.startswith("Fontconfig warning") or _TIGHT.search(line):
                    continue
                if held is None:
                    sys.stderr.write(line)
                else:
                    held.append(line)


def write(source, path) -> None:
    """Write DOT ``source`` (text or a Diagram) to ``path``: as text for .dot/.gv, else
    rendered by extension.

    Nothing is left at ``path`` if rendering fails.
    """
    path, extension = check_output(path, EXTENSIONS)
    source = str(source)
    if extension in (".dot", ".gv"):
        write_atomic(path, source)
    else:
        write_atomic(path, render_bytes(source, extension[1:]))
