"""A Graphviz diagram that shows itself in Jupyter (as SVG) and saves to any format.

Every function that draws a Graphviz diagram returns a :class:`Diagram`: the DOT source
plus how to lay it out. In a notebook it displays as SVG (IPython's display protocol,
``_repr_mimebundle_``); ``save(path)`` writes ``.dot``/``.gv`` text or a ``.png``,
``.svg`` or ``.pdf`` image, all-or-nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _graphviz as dot


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

    def save(self, path) -> None:
        """Write the DOT text (``.dot``, ``.gv``) or the image (``.png``, ``.svg``, ``.pdf``)."""
        dot.write(self.source, path)
