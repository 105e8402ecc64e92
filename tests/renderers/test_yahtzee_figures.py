"""Yahtzee figures: the score distributions' lines, bins, means and styles, and the box
grid's cells, blanks and scored marks, checked on the drawn artists.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from gamegraph.errors import InvalidArgumentError  # noqa: E402
from gamegraph.games.yahtzee.distribution import score_distribution  # noqa: E402
from gamegraph.games.yahtzee.scoring import scoring  # noqa: E402
from gamegraph.games.yahtzee.solver import solve_values  # noqa: E402
from gamegraph.renderers._colours import OPTIMAL, POLICY_CYCLE  # noqa: E402
from gamegraph.renderers.yahtzee_figures import (  # noqa: E402
    box_values_figure,
    score_distribution_figure,
)


@pytest.fixture(scope="module")
def distributions():
    """Exact distributions of a small version: two boxes, three dice."""
    rules = scoring("yahtzee", boxes=("fives", "chance"), dice=3)
    table = solve_values(rules)
    out = {"optimal": score_distribution(table)}
    for strategy in ("most of a kind", "greedy"):
        out[strategy] = score_distribution(rules, strategy)
    return out


def _line(ax, gid):
    return next(line for line in ax.get_lines() if line.get_gid() == gid)


def test_distribution_lines_bins_and_means(distributions):
    series = {name: d.probabilities for name, d in distributions.items()}
    figure = score_distribution_figure(series, bin_width=5, coverage=1.0)
    ax = figure.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [f"{name} (mean {d.mean:.2f})" for name, d in distributions.items()]
    for name, d in distributions.items():
        step = _line(ax, f"distribution-{name}")
        x, y = step.get_data()
        p = d.probabilities
        # Each bin's height is the chance of its five scores.
        for left, height in zip(x[:-1], y[:-1]):
            assert height == pytest.approx(p[int(left) : int(left) + 5].sum(), abs=1e-15)
        assert float(np.sum(y[:-1])) == pytest.approx(1.0, abs=1e-12)
        mean = _line(ax, f"mean-{name}")
        assert mean.get_xdata()[0] == pytest.approx(d.mean)
        assert mean.get_linestyle() == step.get_linestyle()
    styles = {name: _line(ax, f"distribution-{name}") for name in distributions}
    assert styles["optimal"].get_color() == OPTIMAL
    assert styles["optimal"].get_linestyle() == "-"
    others = [styles[n] for n in ("most of a kind", "greedy")]
    assert [s.get_color() for s in others] == list(POLICY_CYCLE[:2])
    assert len({s.get_linestyle() for s in styles.values()}) == 3  # not colour alone
    # The means' labels, one per player, each a line below the last.
    texts = {t.get_text(): t for t in ax.texts}
    assert set(texts) == {f"{d.mean:.1f}" for d in distributions.values()}
    assert ax.get_xlabel() == "final score"  # coverage 1: nothing cut off


def test_distribution_tail_cut_and_said():
    p = np.zeros(1000)
    p[100], p[900] = 0.9995, 0.0005
    figure = score_distribution_figure({"optimal": p}, coverage=0.999)
    ax = figure.axes[0]
    assert ax.get_xlim() == (0.0, 150.0)
    assert ax.get_xlabel() == "final score (above 150: chance below 0.1 % for each)"
    assert ax.get_ylabel() == "chance, per 5 points"


def test_distribution_draws_into_a_given_axes():
    from matplotlib.figure import Figure

    mine = Figure()
    ax = mine.subplots()
    assert score_distribution_figure({"greedy": [0.5, 0.5]}, bin_width=1, ax=ax) is mine
    assert ax.get_ylabel() == "chance of the score"


@pytest.mark.parametrize(
    "series, options, message",
    [
        ({}, {}, "at least one"),
        ({"optimal": [0.5, -0.1]}, {}, "0 or more"),
        ({"optimal": [[0.5]]}, {}, "one row"),
        ({"optimal": [1.0]}, {"bin_width": 0}, "bin_width"),
    ],
)
def test_distribution_refusals(series, options, message):
    with pytest.raises(InvalidArgumentError, match=message):
        score_distribution_figure(series, **options)


def test_box_grid_cells_blanks_and_marks():
    worth = np.array([[17.7, 17.4, np.nan], [38.1, 35.4, 31.5], [34.6, np.nan, np.nan]])
    figure = box_values_figure(
        ["aces", "sixes", "chance"],
        worth,
        scored=[(2, 1), None, (0, 23)],
        title="one game",
        colour_label="worth",
    )
    ax = figure.axes[0]
    texts = [t.get_text() for t in ax.texts]
    # Chance's worth at turn 1 is replaced by its mark; NaN cells have no text.
    assert texts == ["17.7", "17.4", "▸ 1", "38.1", "35.4", "31.5", "▸ 23"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["aces", "sixes", "chance"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3"]
    outlined = [p for p in ax.patches if not p.get_fill()]
    assert sorted(p.get_xy() for p in outlined) == [(-0.5, 1.5), (1.5, -0.5)]
    image = ax.get_images()[0]
    assert image.get_array().mask.sum() == 3  # the filled boxes are blank
    assert image.get_clim() == (0.0, 38.1)
    assert figure.axes[1].get_ylabel() == "worth"
    assert ax.get_title() == "one game"


def test_box_grid_refusals():
    with pytest.raises(InvalidArgumentError, match="one row per box"):
        box_values_figure(["aces"], np.zeros((2, 3)))
    with pytest.raises(InvalidArgumentError, match="one per box"):
        box_values_figure(["aces", "twos"], np.zeros((2, 3)), scored=[None])


def test_figures_print_text_at_7_points_or_more(distributions):
    series = {name: d.probabilities for name, d in distributions.items()}
    grid = box_values_figure(["a", "b"], [[1.0, 2.0], [3.0, np.nan]], scored=[(1, 5), None])
    for figure in (score_distribution_figure(series), grid):
        sizes = [t.get_fontsize() for t in figure.findobj(lambda a: hasattr(a, "get_fontsize"))]
        assert sizes and min(sizes) >= 7


def test_box_grid_with_chances():
    figure = box_values_figure(
        ["aces", "sixes"], [[17.7, np.nan], [38.1, 37.9]], chances=[[1.0, 0.0], [1.0, 0.904]]
    )
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert texts == ["17.7\n100 %", "38.1\n100 %", "37.9\n90 %"]
    with pytest.raises(InvalidArgumentError, match="shape of worth"):
        box_values_figure(["aces"], [[1.0, 2.0]], chances=[[1.0]])
