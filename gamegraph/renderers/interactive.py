"""Interactive plotly figures that save themselves as offline pages.

Interactive views return an :class:`InteractiveFigure`: a ``plotly.graph_objects.Figure``
(restyle it, ``show()`` it, and it displays itself in Jupyter) with a ``save(path)`` that
writes a self-contained ``.html`` page (plotly.js embedded, nothing fetched from the
network) or the figure's ``.json``, all-or-nothing.
"""

from __future__ import annotations

from .._extras import require
from .._files import check_output, write_atomic

go = require("plotly.graph_objects", "an interactive figure")

EXTENSIONS = (".html", ".json")


class InteractiveFigure(go.Figure):
    """A plotly Figure with :meth:`save` (``.html`` offline page or ``.json``)."""

    def __repr__(self) -> str:
        title = self.layout.title.text
        shown = f" {title!r}" if title else ""
        return f"<{type(self).__name__}{shown}: {len(self.data)} traces>"

    def save(self, path, *, post_script: str | None = None) -> None:
        """Write a self-contained page (``.html``) or the figure as JSON (``.json``).

        ``post_script`` is JavaScript run once the page has drawn (plotly's hook for
        behaviour its figures cannot express, such as highlighting on click).
        """
        path, extension = check_output(path, EXTENSIONS)
        if extension == ".json":
            write_atomic(path, self.to_json())
            return
        write_atomic(path, page_html(self, post_script=post_script))


def page_html(figure, *, post_script: str | None = None, div_id: str | None = None) -> str:
    """The figure as one offline HTML page (plotly.js inline, no CDN, no MathJax)."""
    return figure.to_html(
        include_plotlyjs=True,
        include_mathjax=False,
        full_html=True,
        post_script=post_script,
        div_id=div_id,
        config={"displaylogo": False, "responsive": True},
    )
