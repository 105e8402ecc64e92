"""gamegraph.renderers.figures: drawing into the caller's Axes, the layer summary figure,
and StaticFigure's saving and Jupyter display.

Each figure is checked on what it drew (bar widths, line data read back from the Axes)
against the results it was given, not on pixels.
"""

from __future__ import annotations

import io
import struct
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402

from gamegraph.analysis import compare_policies, layer_summary  # noqa: E402
from gamegraph.errors import InvalidArgumentError, UnknownNameError  # noqa: E402
from gamegraph.games.jackpot import AGENTS, PUBLISHED_PERCENT  # noqa: E402
from gamegraph.renderers import figures  # noqa: E402
from gamegraph.renderers.figures import StaticFigure  # noqa: E402

#: `make test-fast` leaves these out: matplotlib figures rendered and saved.
pytestmark = pytest.mark.heavy

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".svg": b"<?xml"}
NAMES = ("min", "last", "hilo", "optimal")


def suptitle(figure) -> str:
    """The figure's suptitle text ("" without one); Figure.get_suptitle needs matplotlib 3.8."""
    return figure._suptitle.get_text() if figure._suptitle is not None else ""


@pytest.fixture(scope="module")
def rows(jackpot_graph, jackpot_optimum):
    return compare_policies(jackpot_graph, AGENTS, exact=True, solution=jackpot_optimum)


@pytest.fixture(scope="module")
def summary(jackpot_graph, jackpot_policies, jackpot_optimum):
    policies = {name: jackpot_policies.get(name) for name in NAMES[:-1]}
    return layer_summary(jackpot_graph, {**policies, "optimal": jackpot_optimum.policy})


def caller_axes(*shape):
    figure = Figure()
    return figure, figure.subplots(*shape)


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(MAGIC[".png"])
    return struct.unpack(">II", data[16:24])


def lines_by_label(ax) -> dict:
    return {line.get_label(): line for line in ax.get_lines()}


# ---------------------------------------------------------------------------
# ax= everywhere
# ---------------------------------------------------------------------------
def test_policy_bars_into_callers_axes(rows):
    figure, ax = caller_axes()
    assert figures.policy_bars(rows, title="t", published=PUBLISHED_PERCENT, ax=ax) is figure
    assert len(figure.axes) == 1 and ax.get_title() == "t"
    widths = [bar.get_width() for bar in ax.patches]
    assert widths == pytest.approx([row.percent for row in rows])
    assert widths[-1] == pytest.approx(7.998740, abs=1e-6)  # optimal, drawn last
    assert len(ax.collections) == 1  # the published ticks


def test_layer_distribution_into_callers_axes(summary):
    figure, ax = caller_axes()
    ends = {name: summary.lost[name][:9] for name in NAMES}
    assert figures.layer_distribution(ends, title="t", xlabel="x", ax=ax) is figure
    drawn = lines_by_label(ax)
    assert list(drawn) == list(NAMES)
    assert list(drawn["hilo"].get_ydata()) == pytest.approx([float(v) for v in ends["hilo"]])


def test_own_figures_are_static_figures(rows, summary):
    made = [
        figures.policy_bars(rows, title="t"),
        figures.layer_distribution({"a": [0.5, 0.5]}, title="t", xlabel="x"),
        figures.layer_summary_figure(summary),
    ]
    assert all(isinstance(figure, StaticFigure) for figure in made)
    assert [figure.get_size_inches()[0] for figure in made] == [7, 7, 7]


# ---------------------------------------------------------------------------
# The layer summary figure
# ---------------------------------------------------------------------------
def test_summary_figure_draws_the_summary(summary):
    figure = figures.layer_summary_figure(summary)
    assert tuple(figure.get_size_inches()) == (7, 3.6)
    reach, loss = figure.axes
    for name in NAMES:
        label = next(lab for lab in lines_by_label(reach) if lab.startswith(f"{name} "))
        line = lines_by_label(reach)[label]
        assert list(line.get_xdata()) == list(range(10))
        assert list(line.get_ydata()) == pytest.approx(
            [100 * float(v) for v in summary.reach[name]]
        )
        lost = lines_by_label(loss)[label]
        assert list(lost.get_xdata()) == list(range(9))  # layer 9 only holds the win
        assert list(lost.get_ydata()) == pytest.approx(
            [100 * float(v) for v in summary.lost[name][:9]]
        )
    labels = list(lines_by_label(reach))
    assert "hilo (wins 7.986 %)" in labels and "optimal (wins 7.999 %)" in labels
    assert reach.get_xlabel() == loss.get_xlabel() == "cells flipped"
    assert suptitle(figure) == "Jackpot: where games go, by cells flipped"


def test_summary_figure_text_is_at_least_8_points(summary):
    from matplotlib.text import Text

    figure = figures.layer_summary_figure(summary)
    figure.savefig(io.BytesIO(), format="png")  # lay out the tick labels
    sizes = [
        text.get_fontsize()
        for text in figure.findobj(Text)
        if text.get_text() and text.get_visible()
    ]
    assert len(sizes) > 30 and min(sizes) >= 8


def test_summary_figure_loss_into_one_axes(summary):
    figure, ax = caller_axes()
    assert figures.layer_summary_figure(summary, ax=ax) is figure
    assert len(figure.axes) == 1 and len(ax.get_lines()) == len(NAMES)
    assert ax.get_title() == "Jackpot: where games are lost"
    hilo = lines_by_label(ax)["hilo (wins 7.986 %)"]
    assert hilo.get_ydata()[1] == pytest.approx(100 / 324)


def test_summary_figure_into_two_axes(summary):
    figure, (left, right) = caller_axes(1, 2)
    assert figures.layer_summary_figure(summary, axes=(left, right)) is figure
    assert len(figure.axes) == 2
    assert len(left.get_lines()) == len(right.get_lines()) == len(NAMES)
    assert left.get_title() == "reach" and right.get_title() == "lost there"
    assert suptitle(figure) == ""  # the caller's figure keeps its own title


def test_summary_figure_bad_axes(summary):
    figure, (left, right) = caller_axes(1, 2)
    with pytest.raises(InvalidArgumentError, match="draws 2 panels; axes= holds 1"):
        figures.layer_summary_figure(summary, axes=[left])
    with pytest.raises(InvalidArgumentError, match="not both"):
        figures.layer_summary_figure(summary, ax=left, axes=(left, right))
    other, elsewhere = caller_axes()
    with pytest.raises(InvalidArgumentError, match="one figure"):
        figures.layer_summary_figure(summary, axes=(left, elsewhere))
    assert left.get_lines() == [] and elsewhere.get_lines() == []


# ---------------------------------------------------------------------------
# StaticFigure: save and display
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("extension", [".png", ".svg", ".pdf"])
def test_save_by_extension(summary, tmp_path, extension):
    path = tmp_path / f"layers{extension}"
    figures.layer_summary_figure(summary).save(path)
    data = path.read_bytes()
    assert data.startswith(MAGIC[extension])
    if extension == ".png":  # 150 dpi, cropped to the drawing: about 7 x 3.6 in
        width, height = png_size(data)
        assert 950 <= width <= 1100 and 480 <= height <= 560
    if extension == ".svg":
        assert "optimal (wins 7.999 %)" in data.decode()  # text kept as text


def test_save_refuses_other_formats(summary, tmp_path):
    with pytest.raises(UnknownNameError, match="accepted: .png, .svg, .pdf"):
        figures.layer_summary_figure(summary).save(tmp_path / "layers.jpg")
    assert list(tmp_path.iterdir()) == []


def test_repr_png(summary):
    figure = figures.layer_summary_figure(summary)
    width, height = png_size(figure._repr_png_())  # 100 dpi for notebooks
    assert 640 <= width <= 740 and 320 <= height <= 380
    assert repr(figure) == "<StaticFigure 7x3.6 in, 2 axes>"


def test_import_leaves_pyplot_alone():
    # The raw rcParams entry: matplotlib.get_backend() would itself import pyplot.
    code = (
        "import sys, matplotlib; backend = dict.__getitem__(matplotlib.rcParams, 'backend'); "
        "import gamegraph.renderers.figures, gamegraph.renderers.ur_board, "
        "gamegraph.renderers.ur_figures; "
        "assert 'matplotlib.pyplot' not in sys.modules; "
        "assert dict.__getitem__(matplotlib.rcParams, 'backend') == backend"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_same_figure_saves_the_same_file_every_time(tmp_path):
    # Constrained layout moves axes on each draw; save() lays out once and keeps it, so a
    # report saved as HTML and then as Markdown carries the same images.
    from gamegraph import build, solve
    from gamegraph.games.supersix import SuperSix, decision_table
    from gamegraph.renderers.supersix_maps import supersix_maps

    figure = supersix_maps(decision_table(solve(build(SuperSix(pegs=8)))), total=8)
    sizes = []
    for n in range(3):
        figure.save(tmp_path / f"map{n}.png")
        sizes.append((tmp_path / f"map{n}.png").read_bytes())
    figure.save(tmp_path / "map.svg")
    figure.save(tmp_path / "map3.png")
    assert sizes[0] == sizes[1] == sizes[2] == (tmp_path / "map3.png").read_bytes()
