"""Interactive outputs carry a static picture for readers outside Jupyter (issue 26).

Every interactive output (a plotly figure, the explorer page) displays in a notebook with
``image/png`` drawn by matplotlib beside its live forms, and its ``text/html`` loads
plotly.js from the installed package, never from the network.
"""

from __future__ import annotations

import base64
import re
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("plotly")
pytest.importorskip("matplotlib")
IPython = pytest.importorskip("IPython")
get_plotlyjs = pytest.importorskip("plotly.offline").get_plotlyjs

from gamegraph import Option, Outcome, Rules, build  # noqa: E402
from gamegraph.analysis import explore_graph  # noqa: E402
from gamegraph.renderers import static  # noqa: E402
from gamegraph.renderers.explorer import explore_figure  # noqa: E402
from gamegraph.renderers.interactive import InteractiveFigure  # noqa: E402

#: `make test-fast` leaves these out: static pictures of every interactive output.
pytestmark = pytest.mark.heavy

PNG = b"\x89PNG\r\n\x1a\n"
#: A script fetched from the network (plotly.js from its CDN, require.js, ...).
REMOTE_SCRIPT = re.compile(r"<script[^>]*\ssrc\s*=\s*[\"']?(https?:)?//", re.IGNORECASE)
CDN_LOADER = re.compile(r"cdn\.plot\.ly/plotly-|requirejs\.config", re.IGNORECASE)


class Coin(Rules):
    """Reach square 2 with three throws of a coin (heads: step 1)."""

    name = "coin"

    def start(self):
        return (0, 3)

    def terminal_value(self, state):
        square, left = state
        if square == 2:
            return Fraction(1)
        return Fraction(0) if left == 0 else None

    def outcomes(self, state):
        square, left = state
        return [
            Outcome(Fraction(1, 2), (Option((square + 1, left - 1), move=1),)),
            Outcome(Fraction(1, 2), (Option((square, left - 1), move=0),)),
        ]


def shown(obj) -> dict:
    """What IPython sends to the notebook for ``obj`` (as ``display(obj)`` does)."""
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(obj)
    return data


def png_size(text: str) -> tuple[int, int, int]:
    raw = base64.b64decode(text)
    assert raw.startswith(PNG)
    width, height = (int.from_bytes(raw[16 + 4 * k : 20 + 4 * k], "big") for k in (0, 1))
    return len(raw), width, height


def heatmaps() -> InteractiveFigure:
    figure = InteractiveFigure(
        data=[
            dict(
                type="heatmap",
                z=[[0, 1], [1, None]],
                x=[1, 2],
                y=[1, 2],
                zmin=0,
                zmax=1,
                colorscale=[[0, "#E69F00"], [0.5, "#E69F00"], [0.5, "#0072B2"], [1, "#0072B2"]],
                text=[["S", "R"], ["R", ""]],
                texttemplate="%{text}",
            ),
            dict(type="scatter", x=[1, 2], y=[2, 1], xaxis="x2", yaxis="y2", mode="lines"),
        ],  # fmt: skip
        layout=dict(
            title={"text": "two <b>panels</b><br>second line"},
            xaxis={"domain": [0, 0.45], "title": {"text": "across"}},
            xaxis2={"domain": [0.55, 1], "anchor": "y2"},
            yaxis2={"anchor": "x2"},
            sliders=[{"steps": [{"label": "1", "method": "skip", "args": []}]}],
        ),
    )
    return figure


def test_a_plotly_figure_displays_with_a_static_picture_and_plotlyjs_inline():
    data = shown(heatmaps())
    assert set(data) >= {"application/vnd.plotly.v1+json", "text/html", "image/png", "text/plain"}
    size, width, height = png_size(data["image/png"])
    assert size < 200_000 and width == 800 and height > 100
    page = data["text/html"]
    assert get_plotlyjs()[-500:] in page  # plotly.js from the installed package, inline
    assert not REMOTE_SCRIPT.search(page) and not CDN_LOADER.search(page)
    # The picture is in the HTML too, for readers that run no scripts.
    assert data["image/png"] in page and "-static" in page
    assert data["text/plain"].startswith("<InteractiveFigure 'two <b>panels</b>")
    assert data["application/vnd.plotly.v1+json"]["data"][0]["type"] == "heatmap"
    assert heatmaps()._repr_html_().startswith('<div class="gamegraph-figure"')


def test_include_and_exclude_pick_forms():
    figure = heatmaps()
    assert set(figure._repr_mimebundle_(include=["image/png"])) == {"image/png"}
    assert "image/png" not in figure._repr_mimebundle_(exclude=["image/png"])


def test_the_picture_draws_what_the_figure_holds():
    picture = static.plotly_image(heatmaps())
    texts = [t.get_text() for t in picture.texts]
    assert "two panels\nsecond line" in texts  # markup gone, <br> a new line
    assert static.NOTE in texts  # a slider: the note says where it works
    panel = picture.axes[0]
    assert [t.get_text() for t in panel.texts] == ["S", "R", "R"]  # the blank cell has none
    assert panel.get_xlabel() == "across"
    image = panel.images[0].get_array()
    assert image.shape == (2, 2, 4) and image[1, 1, 3] == 0  # None stays transparent
    # A step colour scale: 0 draws the first colour, 1 the second.
    assert np.allclose(image[0, 0, :3], (0xE6 / 255, 0x9F / 255, 0))
    assert np.allclose(image[0, 1, :3], (0, 0x72 / 255, 0xB2 / 255))
    assert len(picture.axes[1].lines) == 1  # the scatter trace, in its own subplot


def test_colormap_reads_plotly_scales():
    steps = static.colormap(
        [[0, "rgb(255,0,0)"], [0.5, "rgb(255,0,0)"], [0.5, "blue"], [1, "blue"]]
    )
    assert np.allclose(steps(0.49)[:3], (1, 0, 0)) and np.allclose(steps(0.51)[:3], (0, 0, 1))
    clear = static.colormap([[0, "rgba(255,255,255,0)"], [1, "rgba(255,255,255,1)"]])
    assert clear(0.0)[3] == 0 and clear(1.0)[3] == 1
    assert static.colormap("RdBu", reverse=True)(0.0)[2] > 0.3  # reversed: blue first


def test_a_subclass_may_draw_its_own_picture():
    class Mine(InteractiveFigure):
        def static_image(self):
            from gamegraph.renderers.figures import new_figure

            figure, ax = new_figure(figsize=(2, 1))
            ax.set_title("mine")
            return figure

    _, width, height = png_size(Mine()._repr_mimebundle_()["image/png"])
    assert (width, height) == (200, 100)


def test_the_explorer_displays_with_its_overview():
    page = explore_figure(explore_graph(build(Coin())))
    data = shown(page)
    assert set(data) >= {"text/html", "image/png", "text/plain"}
    size, width, _ = png_size(data["image/png"])
    assert size < 200_000 and width == 800
    html = data["text/html"]
    assert "<iframe" in html and data["image/png"] in html
    assert not REMOTE_SCRIPT.search(html.split("<iframe")[0])
    assert page._repr_html_().startswith("<iframe")  # as before: the page alone
    picture = static.explorer_image(page.data)
    assert any("most likely states" in ax.get_title(loc="left") for ax in picture.axes)


def test_the_static_pictures_have_no_text_below_7_points():
    for picture in (
        static.plotly_image(heatmaps()),
        static.explorer_image(explore_graph(build(Coin()))),
    ):
        picture.draw_without_rendering()
        sizes = [t.get_fontsize() for t in picture.findobj(lambda a: hasattr(a, "get_fontsize"))]
        assert min(sizes) >= 7


def test_the_explorer_draws_in_its_notebook_frame_and_then_hides_the_picture(tmp_path):
    """In a notebook the page runs in a ``srcdoc`` iframe (origin ``null``), where it may
    not rewrite its address: it still draws, and the overview picture is taken away."""
    from pages import open_in_chromium

    shown_html = shown(explore_figure(explore_graph(build(Coin()))))["text/html"]
    report = (
        "<script>setTimeout(function () { var frame = document.querySelector('iframe');"
        " var inner = frame.contentDocument.body.dataset;"
        " document.body.dataset.rendered = inner.rendered || 'no';"
        " document.body.dataset.errors = inner.errors || '';"
        " document.body.dataset.pictures = document.querySelectorAll('img').length; }, 6000);"
        "</script>"
    )
    page = tmp_path / "notebook.html"
    page.write_text(f"<!DOCTYPE html><html><body>{shown_html}{report}</body></html>")
    loaded = open_in_chromium(page, tmp_path)
    assert loaded.data.get("rendered") == "yes", loaded.body
    assert loaded.data.get("errors") == "" and loaded.data.get("pictures") == "0"


def test_the_ur_borne_off_maps_carry_their_picture():
    from gamegraph.games.ur.analysis import BorneOffMap
    from gamegraph.renderers.ur_figures import borne_off_interactive

    grid = np.array([[0.5, 0.75], [0.25, 0.5]])
    figure = borne_off_interactive(BorneOffMap("finkel", 2, grid, grid, np.ones((2, 2), int)))
    data = shown(figure)
    size, width, _ = png_size(data["image/png"])
    assert size < 200_000 and width == 800
    picture = figure.static_image()
    panels = [ax for ax in picture.axes if ax.images]
    assert len(panels) == 2  # both maps, each in its subplot
    assert "0.750" in [t.get_text() for t in panels[0].texts]  # the cells' own text
