"""Lay out Graphviz DOT and render it: the system ``dot`` when present, else pygraphviz.

The engine under :mod:`gamegraph.renderers.dot` and :class:`~gamegraph.renderers.diagram.Diagram`
(both use it; :mod:`.dot` re-exports its names). ``GAMEGRAPH_GRAPHVIZ`` (``system`` or
``pygraphviz``) forces one engine. A PNG of a source that sets a page ``size`` is rendered at
the resolution that keeps its long side at most :data:`PNG_MAX_PIXELS`.
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
from .._files import check_output, write_atomic

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
        dot = shutil.which("dot")
        if dot is None:
            raise RenderError("GAMEGRAPH_GRAPHVIZ=system but no 'dot' program is on PATH")
        run = subprocess.run(
            [dot, f"-T{fmt}", *options], input=source.encode(), capture_output=True
        )
        if run.returncode != 0:
            raise RenderError(f"dot failed: {run.stderr.decode(errors='replace').strip()}")
        return run.stdout
    pygraphviz = require("pygraphviz", "rendering without a system Graphviz")
    with _quiet_fontconfig():
        try:
            return pygraphviz.AGraph(string=source).draw(
                format=fmt, prog="dot", args=" ".join(options)
            )
        except (OSError, ValueError) as error:
            raise RenderError(f"pygraphviz failed: {error}") from None


# The full view's boxes are deliberately as tall as the digits rather than the line.
_TIGHT = re.compile(r"^Warning: node '\w+', graph '\w+' size too small for label$")


@contextlib.contextmanager
def _quiet_fontconfig():
    """Drop the wheel's harmless 'Fontconfig warning' lines about the system's newer config,
    and the warnings about the full view's deliberately tight node boxes.

    The bundled Graphviz writes straight to file descriptor 2, so it is swapped for a
    temporary file and every other line is passed on.
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
                if not line.startswith("Fontconfig warning") and not _TIGHT.search(line):
                    sys.stderr.write(line)


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
