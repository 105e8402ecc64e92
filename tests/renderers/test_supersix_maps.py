"""Super Six maps: the interactive plotly figure object, and the static panels for reports."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gamegraph import build, solve
from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.supersix import RULESETS, SuperSix, decision_table
from gamegraph.games.supersix.analysis import start_values, throw_chances, throw_values

#: `make test-fast` leaves these out: Super Six maps rendered and saved.
pytestmark = pytest.mark.heavy

HIGH = 12
LOW = 4


@pytest.fixture(scope="module")
def table():
    return decision_table(solve(build(SuperSix(pegs=HIGH))))


@pytest.fixture(scope="module")
def interactive(table):
    heatmap = pytest.importorskip("gamegraph.renderers.heatmap")
    starts = {rules: start_values(table, range(LOW, HIGH + 1), rules) for rules in RULESETS}
    return heatmap.figure(
        table,
        pegs=8,
        pegs_range=(LOW, HIGH),
        start_values=starts,
        rules_name="free",
        after_throws=throw_values(table),
    )


def _positions(table, lid, total):
    keep = (table.b == lid) & (table.b + table.c + table.o <= total)
    return table.c[keep], table.o[keep], np.flatnonzero(keep)


# ---------------------------------------------------------------------------
# the interactive figure
# ---------------------------------------------------------------------------
def test_six_panels_and_six_masks(interactive):
    from gamegraph.renderers.interactive import InteractiveFigure

    assert isinstance(interactive, InteractiveFigure)
    assert [trace.type for trace in interactive.data] == ["heatmap"] * 12
    panels, masks = interactive.data[:6], interactive.data[6:]
    assert [trace.xaxis for trace in panels] == ["x", "x2", "x3", "x4", "x5", "x6"]
    assert [trace.xaxis for trace in masks] == [trace.xaxis for trace in panels]
    # One shared colour axis: a colour means the same in every panel and at every total.
    assert {trace.coloraxis for trace in panels} == {"coloraxis"}
    assert all(trace.hoverinfo == "skip" for trace in masks)


def test_the_slider_moves_one_peg_at_a_time(interactive):
    # docs/games/supersix.md: "The slider moves one peg at a time".
    steps = interactive.layout.sliders[0].steps
    assert [int(step.value) for step in steps] == list(range(LOW, HIGH + 1))
    assert interactive.layout.sliders[0].active == 8 - LOW
    # No step touches the colour scale, so it stays fixed across totals.
    for step in steps:
        assert not any(key.startswith("coloraxis") for key in step.args[1])


def test_the_title_gives_each_totals_start_value(interactive):
    titles = interactive.layout.meta["titles"]
    for step in interactive.layout.sliders[0].steps:
        total = int(step.value)
        # The slider carries the titles of the rule set the figure was made with.
        assert step.args[1]["title.text"] == titles["free"][str(total)]
        for rules in RULESETS:
            game = SuperSix(hands=(total - total // 2, total // 2), rules=rules)
            title = titles[rules][str(total)]
            assert f"{100 * float(solve(build(game)).start_value):.3f} % from the start" in title
            assert f"({rules} rules), {total} pegs ({total - total // 2} + {total // 2})" in title
    assert interactive.layout.title.text == titles["free"]["8"]
    assert "only the start value differs" in titles["first-round"]["8"]


def test_one_button_per_rule_set(interactive):
    menu = interactive.layout.updatemenus[1]
    assert [button.name for button in menu.buttons] == list(RULESETS)
    assert menu.active == 0 and {button.method for button in menu.buttons} == {"skip"}
    assert interactive.layout.meta["rules"] == "free"
    assert set(interactive.layout.meta["start"]) == set(RULESETS)


def test_the_start_cell_is_outlined_and_labelled(interactive):
    from gamegraph.renderers.heatmap import START

    label = interactive.layout.annotations[START]
    outline = interactive.layout.shapes[0]
    assert label.text == "<b>start</b>" and label.showarrow and label.xref == "x"
    assert (outline.xref, outline.yref, outline.type) == ("x", "y", "rect")
    assert (label.x, label.y) == (4, 4)  # the figure opens at 8 pegs: 4 + 4
    assert (outline.x0, outline.x1, outline.y0, outline.y1) == (3.5, 4.5, 3.5, 4.5)
    for step in interactive.layout.sliders[0].steps:
        total = int(step.value)
        mine, theirs = total - total // 2, total // 2
        moved = step.args[1]
        assert (moved[f"annotations[{START}].x"], moved[f"annotations[{START}].y"]) == (
            mine,
            theirs,
        )
        assert (moved["shapes[0].x0"] + moved["shapes[0].x1"]) / 2 == mine
        assert (moved["shapes[0].y0"] + moved["shapes[0].y1"]) / 2 == theirs
    # Hovering a start cell says so, on the lid-0 panel.
    custom = interactive.data[0].customdata
    assert custom[3][4][7] == " · the start of a 9-peg game"  # 5 + 4 (rows: theirs)
    assert custom[3][3][7] == " · the start of a 8-peg game"
    assert custom[4][3][7] == custom[0][4][7] == ""  # 4 + 5: the first player holds the odd peg


def test_the_hover_gives_the_chance_of_each_throw(interactive, table):
    after = throw_values(table)
    for lid, trace in enumerate(interactive.data[:6]):
        template = trace.hovertemplate
        chances = throw_chances(lid)
        assert f"{chances['place'] * 6}/6 1–5 on an empty socket" in template or lid == 5
        assert f"{lid}/6 1–5 on a full socket" in template or lid == 0
        assert "1/6 6: a peg goes down the pit" in template
        assert ("empty socket" in template) == (lid < 5)
        assert ("full socket" in template) == (lid > 0)
    row = table.lookup(4, 1, 1)
    cell = interactive.data[4].customdata[0][0]
    assert cell[4:7] == [
        pytest.approx(after[name][row], abs=1e-6) for name in ("place", "take", "pit")
    ]
    assert interactive.data[0].customdata[0][0][5] is None  # nothing to take on an empty lid


def test_axis_ranges_cover_every_cell(interactive, table):
    for step in interactive.layout.sliders[0].steps:
        total = int(step.value)
        for lid in range(6):
            c, o, _ = _positions(table, lid, total)
            for name, values in (("xaxis", c), ("yaxis", o)):
                key = name if lid == 0 else f"{name}{lid + 1}"
                low, high = step.args[1][f"{key}.range"]
                assert low == 0.5  # half a cell below pegs = 1
                if len(values):
                    assert high == values.max() + 0.5  # half a cell above the largest
                # Ticks on whole pegs.
                assert float(step.args[1][f"{key}.dtick"]).is_integer()
    for lid in range(6):
        axis = interactive.layout["xaxis" if lid == 0 else f"xaxis{lid + 1}"]
        assert axis.tick0 == 0 and list(axis.range) == [0.5, 8 - lid - 1 + 0.5]


def test_masks_hide_exactly_the_positions_of_larger_games(interactive, table):
    for step in interactive.layout.sliders[0].steps:
        total = int(step.value)
        zmin, zmax = step.args[0]["zmin"][6:], step.args[0]["zmax"][6:]
        for lid, mask in enumerate(interactive.data[6:]):
            needed = np.array(mask.z)
            # The mask's colour scale turns opaque at its midpoint.
            opaque = needed > (zmin[lid] + zmax[lid]) / 2
            grid_c, grid_o = np.meshgrid(mask.x, mask.y)
            assert np.array_equal(opaque, lid + grid_c + grid_o > total)
    for mask in interactive.data[6:]:
        assert (mask.zmin, mask.zmax) == (8 - 0.5, 8 + 1.5)  # the figure opens at 8 pegs


@pytest.mark.parametrize("total", [7, 9])
def test_every_cell_of_an_odd_total_has_its_text(interactive, table, total):
    step = next(s for s in interactive.layout.sliders[0].steps if int(s.value) == total)
    assert step.args[0]["texttemplate"][:6] == ["%{text}"] * 6
    for button in interactive.layout.updatemenus[0].buttons:
        texts = button.args[0]["text"]
        for lid in range(6):
            c, o, _ = _positions(table, lid, total)
            shown = [texts[lid][row - 1][col - 1] for col, row in zip(c, o)]
            assert len(shown) == len(c) and all(shown), (button.name, lid)


def test_text_only_where_it_fits(interactive):
    from gamegraph.renderers.heatmap import TEXT_MAX_CELLS

    for step in interactive.layout.sliders[0].steps:
        total = int(step.value)
        expected = ["%{text}" if 0 < total - lid - 1 <= TEXT_MAX_CELLS else "" for lid in range(6)]
        assert step.args[0]["texttemplate"] == expected + [""] * 6


def test_buttons_carry_the_tables_values(interactive, table):
    buttons = {button.name: button for button in interactive.layout.updatemenus[0].buttons}
    assert list(buttons) == ["decision", "choice", "margin"]
    row = table.lookup(4, 1, 1)  # the paper: roll (0.524) rather than stop (0.476) at 6 pegs
    z = {name: button.args[0]["z"][4][0][0] for name, button in buttons.items()}
    assert z["decision"] == 1
    assert z["choice"] == pytest.approx(float(table.p_choice[row]), abs=1e-5)
    assert z["margin"] > 0
    custom = interactive.data[4].customdata[0][0]
    assert custom[0] == pytest.approx(float(table.p_roll[row]), abs=1e-8)
    assert custom[1] == pytest.approx(float(table.p_end[row]), abs=1e-8)
    assert custom[3] == "roll"
    # Colour limits are fixed per metric: 0..1, and the margin's largest size at HIGH pegs.
    margin = buttons["margin"].args[1]["coloraxis"]
    assert margin["cmin"] == -margin["cmax"] and margin["cmax"] > 0
    assert buttons["choice"].args[1]["coloraxis"]["cmin"] == 0


def test_each_position_is_held_once_per_metric(interactive, table):
    # The slider narrows axes; it does not repeat the data per total.
    for step in interactive.layout.sliders[0].steps:
        assert set(step.args[0]) == {"texttemplate", "zmin", "zmax", "xgap", "ygap"}
    cells = sum(
        1 for trace in interactive.data[:6] for row in trace.customdata for cell in row if cell
    )
    assert cells == len(table)


def test_the_page_and_the_json(interactive, tmp_path):
    from gamegraph.renderers.heatmap import HASH_SCRIPT

    interactive.save(tmp_path / "map.html")
    page = (tmp_path / "map.html").read_text()
    assert "URLSearchParams" in page and "history.replaceState" in HASH_SCRIPT
    interactive.save(tmp_path / "map.json")
    data = json.loads((tmp_path / "map.json").read_text())
    assert len(data["data"]) == 12 and len(data["layout"]["sliders"][0]["steps"]) == 9


def test_bad_ranges_are_refused(table):
    heatmap = pytest.importorskip("gamegraph.renderers.heatmap")
    starts = {"free": {}}
    with pytest.raises(InvalidArgumentError, match="must contain the total pegs 40"):
        heatmap.figure(table, pegs=40, pegs_range=(4, 30), start_values=starts, rules_name="free")
    with pytest.raises(InvalidArgumentError, match="does not cover 14 pegs"):
        heatmap.figure(table, pegs=8, pegs_range=(4, 14), start_values=starts, rules_name="free")
    with pytest.raises(InvalidArgumentError, match="has no start values; given: free"):
        heatmap.figure(table, pegs=8, pegs_range=(4, 8), start_values=starts, rules_name="x")
    # One rule set's values alone, as before both were on the page: one button.
    alone = heatmap.figure(
        table, pegs=8, pegs_range=(4, 8), start_values={8: 0.5}, rules_name="free"
    )
    assert [button.name for button in alone.layout.updatemenus[1].buttons] == ["free"]
    assert "50.000 % from the start" in alone.layout.title.text


def test_both_renderers_share_the_margin_scale():
    heatmap = pytest.importorskip("gamegraph.renderers.heatmap")
    figures = pytest.importorskip("gamegraph.renderers.figures")
    assert heatmap.MARGIN_LINEAR_BELOW == figures.MARGIN_LINEAR_BELOW
    assert heatmap.signed_log(np.array([-1e-4, 0, 1e-4])).tolist() == pytest.approx(
        [-np.log10(2), 0, np.log10(2)]
    )


# ---------------------------------------------------------------------------
# the static panels
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def maps():
    return pytest.importorskip("gamegraph.renderers.supersix_maps")


@pytest.mark.parametrize("metric", ["decision", "choice", "margin"])
def test_static_panels_show_every_cell(maps, table, metric):
    total = 9  # odd: hands 5 + 4, within the 12-peg table
    figure = maps.supersix_maps(table, total=total, metric=metric)
    from gamegraph.renderers.figures import StaticFigure

    assert isinstance(figure, StaticFigure)
    panels, bar = figure.axes[:6], figure.axes[6]
    assert bar.get_label() == "<colorbar>"
    for lid, ax in enumerate(panels):
        size = total - lid - 1
        assert ax.get_xlim() == (0.5, size + 0.5) and ax.get_ylim() == (0.5, size + 0.5)
        assert all(float(t).is_integer() and 1 <= t <= size for t in ax.get_xticks())
        image = ax.get_images()[0].get_array()
        c, o, rows = _positions(table, lid, total)
        # Every position of the game has its cell, and nothing else is coloured.
        assert int((~np.ma.getmaskarray(image) & ~np.isnan(image.filled(np.nan))).sum()) == len(
            rows
        )


def test_static_panels_draw_into_given_axes(maps, table):
    from matplotlib.figure import Figure

    mine = Figure(figsize=(9, 6))
    grid = mine.subplots(2, 3)
    assert maps.supersix_maps(table, total=8, axes=grid) is mine
    assert [ax.get_title() for ax in grid.ravel()] == [f"{lid} on the lid" for lid in range(6)]
    with pytest.raises(InvalidArgumentError, match="six matplotlib Axes"):
        maps.supersix_maps(table, total=8, axes=grid.ravel()[:4])
    with pytest.raises(UnknownNameError):
        maps.supersix_maps(table, total=8, metric="odds")


def test_static_panels_save_png_and_svg_at_a4_width(maps, table, tmp_path):
    figure = maps.supersix_maps(table, total=HIGH, metric="margin")
    figure.save(tmp_path / "map.png")
    figure.save(tmp_path / "map.svg")
    png = (tmp_path / "map.png").read_bytes()
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    # 150 dpi and about 6.8 in wide: an A4 page's text width, fonts near their size.
    assert 900 <= width <= 1100 and height < width
    svg = (tmp_path / "map.svg").read_text()
    assert "5 on the lid" in svg and "your pegs" in svg  # text stays text


def test_relative_error_maps_leave_exact_positions_blank(maps, table):
    error = np.where(table.b == 4, 1e-3, 0.0)
    figure = maps.relative_error_maps(
        table.b, table.c, table.o, error, total=HIGH, title="relative error"
    )
    for lid, ax in enumerate(figure.axes[:6]):
        image = ax.get_images()[0].get_array()
        coloured = int((~np.isnan(np.ma.filled(image, np.nan))).sum())
        assert coloured == (int((table.b == 4).sum()) if lid == 4 else 0)


def test_the_figure_states_what_it_shows(interactive, table):
    meta = interactive.layout.meta
    assert (meta["rules"], meta["pegs"], meta["range"]) == ("free", 8, [LOW, HIGH])
    assert meta["positions"] == len(table)
    assert sorted(meta["start"]["free"], key=int) == [str(n) for n in range(LOW, HIGH + 1)]
    assert meta["start"]["free"]["5"] == pytest.approx(45324 / 63919, abs=1e-12)  # Jehn
    assert meta["start"]["first-round"]["4"] == pytest.approx(3523 / 4428, abs=1e-12)
    assert "<title>Super Six: when to roll</title>" in interactive.to_page()


def test_the_interactive_figure_needs_the_table_alone(table, interactive):
    heatmap = pytest.importorskip("gamegraph.renderers.heatmap")
    fig = heatmap.figure(table)
    meta = fig.layout.meta
    # The slider runs from 4 to the most pegs the table covers; the rule sets and their
    # start values come from the table, and the page opens on the free rules.
    assert meta["range"] == [LOW, HIGH] and meta["pegs"] == HIGH and meta["rules"] == "free"
    assert set(meta["start"]) == set(RULESETS)
    for rules in RULESETS:
        expected = start_values(table, range(LOW, HIGH + 1), rules)
        assert meta["start"][rules] == {
            str(k): pytest.approx(float(v)) for k, v in expected.items()
        }
    # The same cells, hover and start values as the figure made with every argument given.
    assert fig.data[0].hovertemplate == interactive.data[0].hovertemplate
    assert meta["start"] == interactive.layout.meta["start"]
    assert [b.name for b in fig.layout.updatemenus[1].buttons] == list(RULESETS)


def test_plain_start_values_need_their_rule_set(table):
    heatmap = pytest.importorskip("gamegraph.renderers.heatmap")
    with pytest.raises(InvalidArgumentError, match="need rules_name"):
        heatmap.figure(table, start_values={8: 0.5}, pegs_range=(4, 8))
