"""Interactive plotly figures that save themselves as offline pages.

Interactive views return an :class:`InteractiveFigure`: a ``plotly.graph_objects.Figure``
(restyle it, ``show()`` it, and it displays itself in Jupyter) with a ``save(path)`` that
writes a self-contained ``.html`` page (plotly.js embedded, nothing fetched from the
network) or the figure's ``.json``, all-or-nothing.

In a notebook the figure displays as one output carrying several forms
(:meth:`InteractiveFigure._repr_mimebundle_`), and each reader shows the best it can:

* ``application/vnd.plotly.v1+json``: the live figure in JupyterLab (plotly's extension,
  installed with plotly) and VS Code;
* ``text/html``: the live figure with plotly.js inline from the installed plotly package
  (never a CDN, so it works offline: classic Notebook, ``jupyter nbconvert --to html``),
  over a static picture that stays where scripts do not run (GitHub, nbviewer);
* ``image/png``: that static picture, drawn by matplotlib
  (:func:`gamegraph.renderers.static.plotly_image`: kaleido would need a browser);
* ``text/plain``: the figure's one-line description.
"""

from __future__ import annotations

import base64
import html
import uuid

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

    # IPython asks _ipython_display_ before anything else, and plotly's sends the plotly
    # JSON alone; without it IPython shows _repr_mimebundle_ (an Out[] with every form).
    _ipython_display_ = None

    def static_image(self):
        """The matplotlib picture the notebook output carries (a ``StaticFigure``).

        By default :func:`gamegraph.renderers.static.plotly_image` of this figure's first
        view; a subclass with a better picture of its data overrides this.
        """
        from .static import plotly_image

        return plotly_image(self)

    def static_png(self) -> bytes:
        """:meth:`static_image` as PNG (100 dpi)."""
        from .static import png

        return png(self.static_image())

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs) -> dict:
        """Every form a notebook reader may show (see the module docstring)."""
        picture = base64.b64encode(self.static_png()).decode("ascii")
        bundle = {
            "application/vnd.plotly.v1+json": {
                **self.to_plotly_json(),
                "config": {"displaylogo": False, "responsive": True},
            },
            "text/html": inline_html(self, picture, alt=repr(self)),
            "image/png": picture,
            "text/plain": repr(self),
        }
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle

    def _repr_html_(self) -> str:
        return self._repr_mimebundle_(include=["text/html"])["text/html"]

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


def inline_html(figure, picture: str, *, alt: str) -> str:
    """A notebook's ``text/html`` for ``figure``: the live figure, plotly.js inline.

    ``picture`` (base64 PNG) shows first; once plotly has drawn, the script removes it.
    Where scripts do not run (GitHub, nbviewer, an untrusted notebook) the picture stays.
    """
    name = f"gg-{uuid.uuid4().hex[:12]}"
    live = figure.to_html(
        include_plotlyjs=True,
        include_mathjax=False,
        full_html=False,
        div_id=f"{name}-plot",
        post_script=f"var still = document.getElementById('{name}-static'); "
        "if (still) { still.remove(); }",
        config={"displaylogo": False, "responsive": True},
    )
    # The live part takes no room until a script runs (where none does, the picture alone).
    return (
        f'<div class="gamegraph-figure" id="{name}">'
        f'<img id="{name}-static" src="data:image/png;base64,{picture}" '
        f'alt="{html.escape(alt, quote=True)}" style="max-width:100%">'
        f'<div id="{name}-live" style="height:0;overflow:hidden">'
        f"<script>document.getElementById('{name}-live').removeAttribute('style');</script>"
        f"{live}</div></div>"
    )
