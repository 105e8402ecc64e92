"""gamegraph.renderers.ur_board and .ur_figures: the board picture, the game graph's DOT,
and win probability by pieces borne off, each read back and checked against the rules
and the solved values (the borne-off map itself is tested in test_ur_analysis.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("graphviz")

from dot_source import parse_dot  # noqa: E402

from gamegraph import build, solve  # noqa: E402
from gamegraph.errors import InvalidArgumentError, OutputError, UnknownNameError  # noqa: E402
from gamegraph.games.ur import (  # noqa: E402
    Ur,
    UrState,
    format_position,
    parse_position,
    rule_set,
)
from gamegraph.games.ur.analysis import borne_off_map, solve_table  # noqa: E402
from gamegraph.renderers import dot, ur_board, ur_figures  # noqa: E402
from gamegraph.renderers._colours import BETTER  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"

# Tiles written out by hand from the rule sets' boards (lane x, row y).
FINKEL_TILES = (
    {(1, y) for y in (1, 2, 3, 4, 7, 8)}
    | {(2, y) for y in range(1, 9)}
    | {(3, y) for y in (1, 2, 3, 4, 7, 8)}
)
ASEB_TILES = (
    {(1, y) for y in range(1, 5)} | {(2, y) for y in range(1, 13)} | {(3, y) for y in range(1, 5)}
)
FINKEL_ROSETTES = {(1, 1), (1, 7), (2, 4), (3, 1), (3, 7)}
ASEB_ROSETTES = {(1, 1), (2, 4), (2, 8), (2, 12), (3, 1)}


def suptitle(figure) -> str:
    """The figure's suptitle text ("" without one); Figure.get_suptitle needs matplotlib 3.8."""
    return figure._suptitle.get_text() if figure._suptitle is not None else ""


@pytest.fixture(scope="module")
def finkel2():
    return solve_table("finkel", pieces=2)


@pytest.fixture(scope="module")
def one_piece():
    return solve(Ur("finkel", pieces=1).build_graph())


def svg_groups(path):
    """{id: <g> element} of an SVG file."""
    root = ET.parse(path).getroot()
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}


def group_text(group):
    return "".join(t.text or "" for t in group.iter(f"{SVG}text"))


def ids(groups, prefix):
    return {name for name in groups if name.startswith(prefix)}


# ---------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules, tiles, rosettes",
    [
        ("finkel", FINKEL_TILES, FINKEL_ROSETTES),
        ("masters", FINKEL_TILES, FINKEL_ROSETTES),
        ("blitz", FINKEL_TILES, FINKEL_ROSETTES),
        ("aseb", ASEB_TILES, ASEB_ROSETTES),
    ],
)
def test_board_tiles_are_both_paths(rules, tiles, rosettes):
    assert set(ur_board.board_tiles(rules)) == tiles
    layout = ur_board.board_layout(rules, "-/-")
    assert set(layout.rosettes) == rosettes
    assert layout.light == {} and layout.dark == {}
    assert layout.waiting == (rule_set(rules).pieces,) * 2 and layout.borne_off == (0, 0)


def test_svg_holds_tiles_rosettes_and_pieces(tmp_path):
    ruleset = rule_set("finkel", pieces=4)
    path = tmp_path / "board.svg"
    layout = ur_board.draw_board(ruleset, "2,4,9/2,10+1", path)
    groups = svg_groups(path)
    assert ids(groups, "tile-") == {f"tile-{x}-{y}" for x, y in FINKEL_TILES}
    assert ids(groups, "rosette-") == {f"rosette-{x}-{y}" for x, y in FINKEL_ROSETTES}
    assert ids(groups, "piece-light-") == {"piece-light-2", "piece-light-4", "piece-light-9"}
    assert ids(groups, "piece-dark-") == {"piece-dark-2", "piece-dark-10"}
    # Waiting and borne-off counts: light 1 and 0, dark 1 and 1.
    assert {
        name: group_text(groups[f"count-{name}"])
        for name in ("light-waiting", "light-off", "dark-waiting", "dark-off")
    } == {"light-waiting": "1", "light-off": "0", "dark-waiting": "1", "dark-off": "1"}
    assert "1 waiting, 1 borne off" in group_text(groups["summary-dark"])
    assert ids(groups, "move-") == set() and ids(groups, "value-") == set()
    assert layout.light == {2: (1, 3), 4: (1, 1), 9: (2, 5)}
    assert layout.dark == {2: (3, 3), 10: (2, 6)}


def test_pieces_stand_on_their_tiles():
    """Each drawn piece is centred on the tile its square names (light's path for the
    mover, the mirror image for the opponent), checked on the figure's patches."""
    ruleset = rule_set("masters", pieces=3)
    layout = ur_board.board_layout(ruleset, "12,16/2,13+1")
    figure = ur_board.board_figure(layout)
    patches = {p.get_gid(): p for p in figure.axes[0].patches if p.get_gid()}
    expected = {
        "piece-light-12": (3, 7),
        "piece-light-16": (1, 7),  # masters crosses lanes
        "piece-dark-2": (3, 3),
        "piece-dark-13": (1, 8),
    }
    for gid, (x, y) in expected.items():
        tile = patches[f"tile-{x}-{y}"]
        corner = tile.get_xy()
        centre = (corner[0] + tile.get_width() / 2, corner[1] + tile.get_height() / 2)
        assert patches[gid].center == pytest.approx(centre)
    assert len([g for g in patches if g.startswith("piece-")]) == 4
    import matplotlib.pyplot as plt

    plt.close(figure)


def test_aseb_board(tmp_path):
    path = tmp_path / "aseb.svg"
    ur_board.draw_board(rule_set("aseb", pieces=2), "3,16/12", path)
    groups = svg_groups(path)
    assert ids(groups, "tile-") == {f"tile-{x}-{y}" for x, y in ASEB_TILES}
    assert len(ids(groups, "piece-")) == 3


def test_board_into_callers_axes(finkel2):
    """With ax= the board goes into the caller's Axes, beside the caller's own panel,
    and the caller's figure comes back; without it, a StaticFigure that saves itself."""
    from matplotlib.figure import Figure

    from gamegraph.renderers.figures import StaticFigure

    layout = ur_board.board_layout(
        finkel2.ruleset, "4,6/5", throw=4, move_values=finkel2.move_values("4,6/5", 4)
    )
    figure = Figure()
    mine, board = figure.subplots(1, 2)
    mine.plot([0, 1], [0, 1])
    assert ur_board.board_figure(layout, ax=board) is figure
    assert len(figure.axes) == 2 and len(mine.patches) == 0 and len(mine.get_lines()) == 1
    gids = {p.get_gid() for p in board.patches if p.get_gid()}
    assert len([g for g in gids if g.startswith("tile-")]) == len(FINKEL_TILES)
    assert {"piece-light-4", "piece-light-6", "piece-dark-5"} <= gids
    assert {g for g in gids if g.startswith("move-")} == {
        f"move-{m[0]}-{m[1]}" for m, _ in finkel2.move_values("4,6/5", 4)
    }
    assert board.get_aspect() == 1.0 and not board.axison

    own = ur_board.board_figure(layout)
    assert isinstance(own, StaticFigure) and len(own.axes) == 1
    assert own._repr_png_().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("position, throw", [("1,9/6,10", 1), ("4,6/5", 4), ("4,6/5", 3)])
def test_move_annotations_are_the_tables_values(tmp_path, finkel2, position, throw):
    moves = finkel2.move_values(position, throw)
    path = tmp_path / "moves.svg"
    layout = ur_board.draw_board(finkel2.ruleset, position, path, throw=throw, move_values=moves)
    groups = svg_groups(path)
    assert group_text(groups["throw"]) == f"throw: {throw}"
    best = finkel2.best_move(position, throw)
    assert len(moves) >= 2
    for move, value in moves:
        key = f"{move[0]}-{move[1]}"
        assert group_text(groups[f"value-{key}"]) == f"{value:.4f}"
        arrow = ET.tostring(groups[f"move-{key}"]).decode()
        assert (BETTER.lower() in arrow) == (move == best)
    assert ids(groups, "value-") == {f"value-{m[0]}-{m[1]}" for m, _ in moves}
    assert [mark.move for mark in layout.moves if mark.best] == [best]


def test_move_routes_follow_the_path(finkel2):
    layout = ur_board.board_layout(
        finkel2.ruleset, "4,6/5", throw=4, move_values=finkel2.move_values("4,6/5", 4)
    )
    routes = {mark.move[:2]: mark.route for mark in layout.moves}
    # 4 -> 8: (1,1) up to the middle lane (2,1), then along it to (2,4); drawn (row, lane).
    assert routes[(4, 8)] == ((1.0, 1.0), (1.0, 2.0), (4.0, 2.0))
    # 6 -> 10: straight along the middle lane.
    assert routes[(6, 10)] == ((2.0, 2.0), (6.0, 2.0))


def test_entering_and_bearing_off_use_the_piles(finkel2):
    layout = ur_board.board_layout(
        finkel2.ruleset, "14/-", throw=1, move_values=finkel2.move_values("14/-", 1)
    )
    routes = {mark.move[:2]: mark.route for mark in layout.moves}
    assert routes[(0, 1)][0] == layout.piles[("light", "waiting")] == (5.0, 1.0)
    assert routes[(14, 15)][-1] == layout.piles[("light", "off")] == (6.0, 1.0)


def test_a_throw_without_a_move_shows_the_pass(tmp_path, finkel2):
    moves = finkel2.move_values("4/8", 4)
    assert moves[0][0] is None
    path = tmp_path / "pass.svg"
    ur_board.draw_board(finkel2.ruleset, "4/8", path, throw=4, move_values=moves)
    groups = svg_groups(path)
    value = 1 - finkel2.value(parse_position("4/8", finkel2.ruleset).flipped())
    assert group_text(groups["value-pass"]) == f"no move: the turn passes: {value:.4f} (best)"
    assert ids(groups, "move-") == set()


def test_png_output(tmp_path, finkel2):
    path = tmp_path / "board.png"
    ur_board.draw_board(
        finkel2.ruleset, "1,9/6,10", path, throw=1, move_values=finkel2.move_values("1,9/6,10", 1)
    )
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert int.from_bytes(data[16:20], "big") > 600


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(throw=5), "throw 5 is not possible"),
        (dict(move_values=[((0, 1, False), 0.5)]), "need the throw"),
        (dict(throw=1, move_values=[((0, 1, False), 0.5)]), "are not the legal moves"),
        (
            dict(throw=1, move_values=[((4, 5, True), 1.5), ((6, 7, False), 0.5)]),
            "not a probability",
        ),
    ],
)
def test_bad_annotations_are_refused(finkel2, kwargs, message):
    with pytest.raises(InvalidArgumentError, match=message):
        ur_board.board_layout(finkel2.ruleset, "4,6/5", **kwargs)


def test_bad_positions_are_refused(finkel2):
    with pytest.raises(InvalidArgumentError, match="two of the mover's pieces"):
        ur_board.board_layout(finkel2.ruleset, "5,5/-")
    with pytest.raises(InvalidArgumentError, match="write it as the mover's squares"):
        ur_board.board_layout(finkel2.ruleset, "WIN")
    with pytest.raises(InvalidArgumentError, match="must be an UrState"):
        ur_board.board_layout(finkel2.ruleset, (4, 6))


def test_board_output_checked_before_work(tmp_path):
    # The position is invalid too: the path must be refused first, and nothing written.
    with pytest.raises(UnknownNameError, match="'.gif'"):
        ur_board.draw_board("finkel", "5,5/-", tmp_path / "b.gif")
    with pytest.raises(OutputError, match="does not exist"):
        ur_board.draw_board("finkel", "5,5/-", tmp_path / "missing" / "b.svg")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------
# The game graph
# ---------------------------------------------------------------------------
def distinct_options(graph):
    """{source: {(target, passes)}} over every option of the graph."""
    out = defaultdict(set)
    sources = graph.outcome_state[graph.option_outcome]
    for s, t, p in zip(
        sources.tolist(), graph.option_target.tolist(), graph.option_passes.tolist()
    ):
        out[s].add((t, p))
    return out


def test_graph_dot_nodes_and_edges(one_piece):
    graph = one_piece.graph
    nodes, edges = parse_dot(ur_figures.graph_dot(one_piece, title="one piece"))
    assert len(nodes) == graph.n_states == 218
    for i in range(graph.n_states):
        label = nodes[f"n{i}"]["label"]
        state = graph.states[i]
        if state == "WIN":
            assert label == "WIN"
            continue
        text, value = label.split("\\n")
        assert text == format_position(state)
        assert value == f"{one_piece.values[i]:.3f}"
    options = distinct_options(graph)
    assert len(edges) == sum(len(v) for v in options.values()) == 992
    drawn = defaultdict(set)
    for source, target, _ in edges:
        drawn[int(source[1:])].add(int(target[1:]))
    for s, pairs in options.items():
        assert drawn[s] == {t for t, _ in pairs}
    # Each position's edges carry its throws: their chances add up to the whole.
    chance = defaultdict(int)
    for source, _, attributes in edges:
        chance[source] += int(re.search(r": (\d+)/16$", attributes["tooltip"]).group(1))
    assert set(chance.values()) == {16}
    # One piece never has a choice: nothing is dashed.
    assert not any("dashed" in a.get("style", "") for _, _, a in edges)


def test_graph_dot_marks_moves_the_optimum_does_not_take():
    """An endgame with choices: an edge is dashed exactly when no outcome's optimal
    choice takes it."""
    solution = solve(build(Ur("finkel", pieces=2, start="10,13/12,14")))
    graph = solution.graph
    taken = set()
    for k in range(len(graph.outcome_weight)):
        j = graph.option_ptr[k] + solution.policy.choice[k]
        taken.add(
            (int(graph.outcome_state[k]), int(graph.option_target[j]), bool(graph.option_passes[j]))
        )
    nodes, edges = parse_dot(ur_figures.graph_dot(solution))
    assert len(nodes) == graph.n_states
    dashed = {(int(s[1:]), int(t[1:])) for s, t, a in edges if a.get("style") == "dashed"}
    untaken = {
        (s, t)
        for s, pairs in distinct_options(graph).items()
        for t, p in pairs
        if (s, t, p) not in taken
    }
    assert untaken and dashed == untaken


def test_graph_svg_has_every_node_and_edge(tmp_path, one_piece):
    if dot.graphviz_engine() == "pygraphviz":
        pytest.importorskip("pygraphviz")
    path = tmp_path / "graph.svg"
    ur_figures.draw_graph(one_piece, path)
    svg = path.read_text()
    assert svg.count('class="node"') == 218 and svg.count('class="edge"') == 992


def test_graph_refuses_other_games_and_bad_paths(tmp_path, one_piece):
    from gamegraph.games.jackpot import Jackpot

    with pytest.raises(InvalidArgumentError, match="draws Ur graphs"):
        ur_figures.graph_dot(solve(build(Jackpot(cells=3))))
    with pytest.raises(UnknownNameError, match="'.jpg'"):
        ur_figures.draw_graph(object(), tmp_path / "g.jpg")  # checked before any work
    with pytest.raises(OutputError, match="does not exist"):
        ur_figures.draw_graph(object(), tmp_path / "missing" / "g.svg")


# ---------------------------------------------------------------------------
# Win probability by pieces borne off
# ---------------------------------------------------------------------------
def test_borne_off_svg_texts(tmp_path, finkel2):
    path = tmp_path / "heat.svg"
    bmap = ur_figures.draw_borne_off(borne_off_map(finkel2), path)
    groups = svg_groups(path)
    for a in range(2):
        for b in range(2):
            assert (
                group_text(groups[f"empty-{a}-{b}"])
                == f"{finkel2.value(UrState((), a, (), b)):.3f}"
            )
            assert group_text(groups[f"mean-{a}-{b}"]) == f"{bmap.mean[a, b]:.3f}"
    path = tmp_path / "heat-one.svg"
    ur_figures.draw_borne_off(borne_off_map(finkel2), path, average=False)
    assert ids(svg_groups(path), "mean-") == set()


def test_borne_off_into_callers_axes(tmp_path, finkel2):
    from matplotlib.figure import Figure

    from gamegraph.renderers.figures import StaticFigure

    bmap = borne_off_map(finkel2)
    figure = Figure()
    left, right = figure.subplots(1, 2)
    assert ur_figures.borne_off_figure(bmap, axes=(left, right)) is figure
    assert len(figure.axes) == 3  # the two panels and their colour bar
    for ax, grid in ((left, bmap.empty), (right, bmap.mean)):
        assert np.allclose(ax.get_images()[0].get_array().T, grid)
        texts = {t.get_gid(): t.get_text() for t in ax.texts}
        assert len(texts) == 4
    assert suptitle(figure) == ""  # only with title=

    single = Figure()
    ur_figures.borne_off_figure(bmap, average=False, axes=[single.subplots()], title="mine")
    assert suptitle(single) == "mine"
    with pytest.raises(InvalidArgumentError, match="draws 2 panels; axes= holds 1"):
        ur_figures.borne_off_figure(bmap, axes=[Figure().subplots()])

    own = ur_figures.borne_off_figure(bmap)
    assert isinstance(own, StaticFigure)
    assert suptitle(own).startswith("Ur (finkel, 2 pieces)")
    own.save(tmp_path / "heat.pdf")
    assert (tmp_path / "heat.pdf").read_bytes().startswith(b"%PDF-")


def test_borne_off_page_is_offline(tmp_path, finkel2):
    path = tmp_path / "heat.html"
    bmap = ur_figures.write_borne_off_page(borne_off_map(finkel2), path)
    page = path.read_text()
    assert re.search(r"<script[^>]+src=", page) is None  # plotly.js is inside
    assert "Plotly.newPlot" in page
    z = re.search(r'"z":(\[\[[^]]*\],\[[^]]*\]\])', page).group(1)
    assert np.allclose(np.array(eval(z)).T, bmap.empty)  # the first panel's values


def test_borne_off_outputs_checked_before_work(tmp_path):
    with pytest.raises(UnknownNameError):
        ur_figures.draw_borne_off(object(), tmp_path / "h.html")
    with pytest.raises(UnknownNameError):
        ur_figures.write_borne_off_page(object(), tmp_path / "h.png")
    with pytest.raises(OutputError, match="does not exist"):
        ur_figures.draw_borne_off(object(), tmp_path / "missing" / "h.png")
    assert list(tmp_path.iterdir()) == []
