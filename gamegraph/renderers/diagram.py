"""A Graphviz diagram that shows itself in Jupyter (as SVG) and saves to any format.

Every function that draws a Graphviz diagram returns a :class:`Diagram`: the DOT source
plus how to lay it out. In a notebook it displays as SVG (IPython's display protocol,
``_repr_mimebundle_``); ``save(path)`` writes ``.dot``/``.gv`` text or a ``.png``,
``.svg`` or ``.pdf`` image, all-or-nothing.

:meth:`Diagram.at_width` fits a diagram to a width on the page (a column of a document,
``--width 16cm`` on the command line): the image is drawn exactly that wide, and refused
with :class:`DiagramTooNarrowError` when its smallest text would print below
:data:`MIN_PRINTED_PT` there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gamegraph.errors import InvalidArgumentError

from . import _graphviz as dot

#: The smallest text, in points, a diagram drawn at a requested width may print.
MIN_PRINTED_PT = 7.0
#: What a refused diagram suggests unless the caller names its own smaller views.
PRUNED_VIEWS = (
    "a part of the game: gamegraph.analysis.views.likely, threshold or around "
    "(selection=views.selection(chain, states, caption))"
)

_SVG_SIZE = re.compile(r'<svg width="([0-9.]+)pt" height="([0-9.]+)pt"')
_VIEW_BOX = re.compile(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ([0-9.]+)"')
_FONT_SIZE = re.compile(r'font-size="([0-9.]+)"')


class DiagramTooNarrowError(InvalidArgumentError):
    """A diagram's text would print below :data:`MIN_PRINTED_PT` at the width asked for.

    ``width`` is that width and ``needed`` the least width that keeps the text legible
    (inches); ``printed`` is the size its smallest text would print at (points).
    """

    def __init__(self, width: float, printed: float, needed: float, instead: str = ""):
        self.width = width
        self.printed = printed
        self.needed = needed
        super().__init__(
            f"at {_length(width)} this diagram's smallest text would print at {printed:.1f} pt "
            f"(at least {MIN_PRINTED_PT:g} pt is legible): it needs {_length(needed, up=True)}. "
            + (f"Draw it wider, or draw {instead}" if instead else "Draw it wider")
        )


def _length(inches: float, up: bool = False) -> str:
    """A width in cm and inches, for messages (``up``: rounded up, as a least width)."""
    import math

    cm = math.ceil(inches * 2.54 * 10) / 10 if up else round(inches * 2.54, 1)
    shown = math.ceil(inches * 100) / 100 if up else round(inches, 2)
    return f"{cm:g} cm ({shown:g} in)"


def layout_size(source) -> tuple[float, float, float]:
    """A DOT source laid out at its own size (any page ``size`` it sets ignored): its
    width and height in points, and the smallest font size in it, in points.

    >>> width, height, smallest = layout_size('digraph { a [fontsize=9] a -> b }')
    >>> smallest, width < height
    (9.0, True)
    """
    svg = dot.render_bytes(with_graph_attributes(source, size='""'), "svg").decode("utf-8")
    box = _VIEW_BOX.search(svg) or _SVG_SIZE.search(svg)
    fonts = [float(size) for size in _FONT_SIZE.findall(svg)]
    return float(box.group(1)), float(box.group(2)), min(fonts, default=14.0)


def with_graph_attributes(source, **attributes) -> str:
    """``source`` with root graph attributes set last, so that they win over earlier ones.

    Values are DOT as they are (quote them where DOT needs quotes).

    >>> print(with_graph_attributes("digraph { a }", size='"3,4!"'))
    digraph { a
    graph [size="3,4!"]
    }
    """
    source = str(source)
    end = source.rstrip().rfind("}")
    settings = " ".join(f"{name}={value}" for name, value in attributes.items())
    return f"{source[:end]}\ngraph [{settings}]\n{source[end:]}"


@dataclass(frozen=True, eq=False)
class Diagram:
    """DOT source with rich display.

    Attributes
    ----------
    source : str
        The DOT text (``str(diagram)`` gives it too).
    title : str
        A short description for ``repr``.

    Examples
    --------
    >>> diagram = Diagram('digraph g { a -> b }', title="two nodes")
    >>> diagram
    <Diagram 'two nodes': 1 line of DOT>
    >>> diagram.svg().startswith("<?xml")
    True
    """

    source: str
    title: str = ""

    def __str__(self) -> str:
        return self.source

    def __repr__(self) -> str:
        title = f" {self.title!r}" if self.title else ""
        lines = len(self.source.splitlines())
        return f"<Diagram{title}: {lines} line{'' if lines == 1 else 's'} of DOT>"

    def render(self, fmt: str) -> bytes:
        """The laid-out image as bytes: ``png``, ``svg`` or ``pdf``."""
        return dot.render_bytes(self.source, fmt)

    def svg(self) -> str:
        """The diagram as SVG text."""
        return self.render("svg").decode("utf-8")

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"image/svg+xml": self.svg(), "text/plain": repr(self)}

    def at_width(
        self, width: float, *, min_pt: float = MIN_PRINTED_PT, instead: str = PRUNED_VIEWS
    ) -> Diagram:
        """The diagram drawn ``width`` inches wide (scaled up or down, margins included),
        or :class:`DiagramTooNarrowError` when its smallest text would print below
        ``min_pt`` points there. ``instead`` names the smaller views the error suggests
        ("" for none).

        >>> diagram = Diagram('digraph g { a [fontsize=10] a -> b }').at_width(2.0)
        >>> round(float(re.search(r'<svg width="([0-9.]+)pt', diagram.svg()).group(1)))
        144
        >>> Diagram('digraph g { a [label="a long line of small text" fontsize=8] }').at_width(1)
        Traceback (most recent call last):
        ...
        gamegraph.renderers.diagram.DiagramTooNarrowError: at 2.5 cm (1 in) this diagram's ...
        """
        if not (isinstance(width, (int, float)) and 0 < width < float("inf")):
            raise InvalidArgumentError(f"width {width!r}: expected a positive number of inches")
        natural_width, natural_height, smallest = layout_size(self.source)
        scale = 72 * width / natural_width
        if smallest * scale < min_pt - 1e-9:
            needed = natural_width * min_pt / smallest / 72
            raise DiagramTooNarrowError(width, smallest * scale, needed, instead)
        # Graphviz fits the drawing into size (with "!", scaling up too); the height is
        # a little more than the scaled height, so that the width is what binds.
        height = natural_height * scale / 72 + 0.1
        source = with_graph_attributes(self.source, size=f'"{width:.4f},{height:.4f}!"', margin="0")
        return Diagram(source, title=self.title)

    def save(self, path) -> None:
        """Write the DOT text (``.dot``, ``.gv``) or the image (``.png``, ``.svg``, ``.pdf``)."""
        dot.write(self.source, path)
