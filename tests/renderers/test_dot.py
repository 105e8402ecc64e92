"""gamegraph.renderers.dot: DOT source for a policy's chain, and rendering it.

The small boards are checked against counts worked out by hand from the rules: with
cells 1..3 a roll (a, b) offers a, b and a + b, each only if it is at most 3.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from fractions import Fraction

import pytest

pytest.importorskip("graphviz")

from dot_source import board, parse_dot  # noqa: E402

from gamegraph import Policy, build, evaluate, solve  # noqa: E402
from gamegraph.analysis import compare  # noqa: E402
from gamegraph.errors import RenderError, UnknownNameError  # noqa: E402
from gamegraph.games.jackpot import AGENTS, Jackpot  # noqa: E402
from gamegraph.propagate import propagate  # noqa: E402
from gamegraph.renderers import _colours as colours  # noqa: E402
from gamegraph.renderers import _graphviz, dot  # noqa: E402

# ---------------------------------------------------------------------------
# The 'max' agent on three cells, by hand.
#
# Rolls offering each cell (of 36): cell 1 appears on a die in 11 rolls; cell 2 on a die
# in 11, plus (1,1) = 12; cell 3 on a die in 11, plus (1,2), (2,1) = 13.
#
# From START 'max' flips 3 whenever it is offered (13 rolls); else 2: (1,1), (2,2) and
# (2,4..6), (4..6,2) = 8; else 1: (1,4..6), (4..6,1) = 6; the other 9 rolls (both dice
# 4..6) offer nothing.
# With 3 up (board 4) it flips 2 whenever offered (12), else 1: 11 less (1,1), (1,2),
# (2,1) = 8.  With 2 up (board 2): 3 (13), else 1: 11 less (1,2), (2,1), (1,3), (3,1)
# = 7.  With 1 up (board 1): 3 (13), else 2: 12 less (1,2), (2,1), (2,3), (3,2) = 8.
# With two cells up, the last cell is flipped whenever a roll offers it.
# ---------------------------------------------------------------------------
MAX3_EDGES = {  # (board from, board to): (cell flipped, rolls of 36)
    (0, 4): (3, 13),
    (0, 2): (2, 8),
    (0, 1): (1, 6),
    (4, 6): (2, 12),
    (4, 5): (1, 8),
    (2, 6): (3, 13),
    (2, 3): (1, 7),
    (1, 5): (3, 13),
    (1, 3): (2, 8),
    (3, 7): (3, 13),
    (5, 7): (2, 12),
    (6, 7): (1, 11),
}
# Reach probabilities, in 1296ths below the first layer: board 3 = 6*8 + 8*7 = 104,
# board 5 = 6*13 + 13*8 = 182, board 6 = 8*13 + 13*12 = 260; WIN, in 46656ths:
# 104*13 + 182*12 + 260*11 = 6396.
MAX3_WIN = Fraction(6396, 46656)


@pytest.fixture(scope="module")
def three():
    graph = build(Jackpot(cells=3))
    policy = Policy.from_agent(graph, AGENTS["max"], name="max")
    return graph, policy, policy.chain(graph)


def parse(source):
    """({node id: attributes}, {(source id, target id): [attributes, ...]}) of chain_dot output."""
    nodes, edge_list = parse_dot(source)
    edges = {}
    for s, t, a in edge_list:
        edges.setdefault((s, t), []).append(a)
    return nodes, edges


def by_board(source, full):
    """Edges keyed by (board from, board to), each a list of attribute dicts."""
    nodes, edges = parse(source)
    name = {i: board(a["label"], full) for i, a in nodes.items()}
    return nodes, {(name[s], name[t]): a for (s, t), a in edges.items()}


def test_moves_with_counts_match_the_hand_count(three):
    graph, _, chain = three
    source = dot.chain_dot(chain, style="moves", weights="count").source
    nodes, edges = by_board(source, 7)
    # Labels are the cells still open; the tooltip keeps the board index.
    assert {a["tooltip"]: a["label"] for a in nodes.values()} == {
        "START": "START",
        "1": "2 3",
        "2": "1 3",
        "4": "1 2",
        "3": "3",
        "5": "2",
        "6": "1",
        "WIN": "WIN",
    }
    assert set(nodes) == {f"n{i}" for i in range(8)}  # safe ids, one per position
    assert {k: [a["label"] for a in v] for k, v in edges.items()} == {
        k: [f"{cell} ({count}/36)"] for k, (cell, count) in MAX3_EDGES.items()
    }
    # Each edge is coloured by the cell it flips: one colour per cell, three in all.
    colour = {}
    for k, (cell, _) in MAX3_EDGES.items():
        colour.setdefault(cell, set()).add(edges[k][0]["color"])
    assert all(len(c) == 1 for c in colour.values()) and len(set.union(*colour.values())) == 3


def test_probability_weights_and_plain_layers(three):
    _, _, chain = three
    source = dot.chain_dot(chain, style="layers", weights="probability").source
    _, edges = by_board(source, 7)
    assert {k: v[0]["label"] for k, v in edges.items()} == {
        k: f"{count / 36:.3f}" for k, (_, count) in MAX3_EDGES.items()
    }
    assert edges[0, 4][0]["label"] == "0.361"
    plain = dot.chain_dot(chain)  # layers, no weights
    _, edges = by_board(plain, 7)
    assert set(edges) == set(MAX3_EDGES)
    assert all(a == [{}] for a in edges.values())  # no labels at all


def test_layer_clusters_hold_the_positions_of_their_layer(three):
    _, _, chain = three
    source = dot.chain_dot(chain, style="layers", title="three cells").source
    clusters = re.findall(r"subgraph (cluster_layer(\d)) \{\n(.*?)\n\t\}", source, re.S)
    assert [int(n) for _, n, _ in clusters] == [0, 1, 2, 3]
    for _, n, body in clusters:
        assert f'label="{n} flipped"' in body
    assert [sorted(re.findall(r"tooltip=(\w+)", body)) for _, _, body in clusters] == [
        ["START"],
        ["1", "2", "4"],
        ["3", "5", "6"],
        ["WIN"],
    ]
    assert ">three cells</FONT>" in source  # the title heads the legend


@pytest.fixture(scope="module")
def nine_first():
    """'first' on the full board: it flips die A whenever A is down, so at START it flips
    a cell 1..6 (6 rolls each) and never 7, 8 or 9, which need both dice cells up."""
    graph = build(Jackpot())
    policy = Policy.from_agent(graph, AGENTS["first"])
    return graph, policy, policy.chain(graph)


def test_clusters_only_show_states_the_policy_reaches(nine_first):
    graph, _, chain = nine_first
    source = dot.chain_dot(chain, style="layers", weights="count").source
    nodes, edges = by_board(source, 511)
    # Reachability worked out independently of gamegraph.renderers.dot, through networkx.
    import networkx as nx

    from gamegraph.interchange import to_networkx

    reached = {0} | nx.descendants(to_networkx(chain), 0)
    assert {board(a["label"], 511) for a in nodes.values()} == reached
    assert len(nodes) == len(reached) < 512
    layer1 = re.search(r"subgraph cluster_layer1 \{\n(.*?)\n\t\}", source, re.S).group(1)
    assert sorted(int(x) for x in re.findall(r"tooltip=(\d+)", layer1)) == [1, 2, 4, 8, 16, 32]
    assert {k: v[0]["label"] for k, v in edges.items() if k[0] == 0} == {
        (0, 1 << c): "6/36" for c in range(6)
    }
    assert dot.chain_dot(chain, style="moves").source.count("subgraph cluster_layer") == 10


def test_diff_draws_better_moves_into_unreached_positions_faded(nine_first):
    graph, policy, chain = nine_first
    comparison = compare(solve(graph, exact=True), policy)
    source = dot.chain_dot(chain, style="layers", comparison=comparison).source
    nodes, edges = by_board(source, 511)
    drawn = {graph.states[i] for i in dot.reachable_states(chain)}
    faded = {
        board(a["label"], 511) for a in nodes.values() if a.get("style") == "rounded,filled,dashed"
    }
    targets = {graph.states[t] for s, t, _ in comparison.better_moves() if graph.states[s] in drawn}
    assert faded == targets - drawn and faded
    assert {64, 128, 256} <= faded  # never reached by 'first' (see the fixture)
    green = {k for k, v in edges.items() if any(a.get("color") == colours.BETTER for a in v)}
    assert {t for _, t in green} == targets
    layer1 = re.search(r"subgraph cluster_layer1 \{\n(.*?)\n\t\}", source, re.S).group(1)
    assert re.search(r'style="rounded,filled,dashed" tooltip=256', layer1)


def test_reach_probabilities_in_labels(three):
    graph, policy, chain = three
    source = dot.chain_dot(chain, reach=propagate(graph, policy)).source
    nodes, _ = parse(source)
    shown = {board(a["label"], 7): a["label"].split("\n")[1] for a in nodes.values()}
    expected = {
        0: 1,
        4: 13 / 36,
        2: 8 / 36,
        1: 6 / 36,
        3: 104 / 1296,
        5: 182 / 1296,
        6: 260 / 1296,
        7: float(MAX3_WIN),
    }
    assert shown == {b: f"{p:.4f}" for b, p in expected.items()}
    assert evaluate(graph, policy, exact=True).start_value == MAX3_WIN


def test_diff_against_the_optimum_by_hand(three):
    """Optimal values on three cells: one cell left needs it offered: board 3 (cell 3
    down) 13/36, board 5 12/36, board 6 11/36. With 1 up, flipping 2 (to 3, 13/36) beats
    flipping 3 (to 5, 12/36); with 2 up, 1 (to 3) beats 3 (to 6); with 3 up, 1 (to 5)
    beats 2 (to 6). So from START flipping 1 is best, then 2, then 3, and 'max' gives
    value away at START, 1, 2 and 4, never with two cells up (no choice left)."""
    graph, policy, chain = three
    comparison = compare(solve(graph, exact=True), policy)
    source = dot.chain_dot(chain, style="moves", comparison=comparison).source
    nodes, edges = by_board(source, 7)
    red = {k for k, v in edges.items() if any(a.get("color") == colours.WORSE for a in v)}
    # The moves 'max' makes at some roll where a better one is offered.
    assert red == {(0, 4), (0, 2), (1, 5), (2, 6), (4, 6)}
    green = {k: [a for a in v if a.get("color") == colours.BETTER] for k, v in edges.items()}
    green = {k: v for k, v in green.items() if v}
    # The better moves: from START flip 1 (rolls offering 1 and more) or 2 ((2,3), (3,2));
    # then the hand comparisons above.
    assert set(green) == {(0, 1), (0, 2), (1, 3), (2, 3), (4, 5)}
    assert all(len(v) == 1 and v[0]["style"] == "dashed" for v in green.values())
    assert {k: v[0]["label"] for k, v in green.items()} == {
        (0, 1): "1",
        (0, 2): "2",
        (1, 3): "2",
        (2, 3): "1",
        (4, 5): "1",
    }
    boxed = {board(a["label"], 7) for a in nodes.values() if a.get("color") == colours.WORSE}
    assert boxed == {0, 1, 2, 4}


def test_unknown_style_or_weights(three):
    _, _, chain = three
    with pytest.raises(UnknownNameError, match="style 'boxes'; accepted: layers, moves"):
        dot.chain_dot(chain, style="boxes")
    with pytest.raises(UnknownNameError, match="weights 'odds'; accepted: count, probability"):
        dot.chain_dot(chain, weights="odds")


def test_render_bytes_rejects_unknown_formats():
    with pytest.raises(UnknownNameError, match="accepted: png, svg, pdf"):
        dot.render_bytes("digraph { a -> b }", "gif")


# ---------------------------------------------------------------------------
# writing and rendering
# ---------------------------------------------------------------------------
def test_write_dot_text(three, tmp_path):
    _, _, chain = three
    source = dot.chain_dot(chain).source
    dot.write(source, tmp_path / "g.gv")
    assert (tmp_path / "g.gv").read_text() == str(source)
    assert os.listdir(tmp_path) == ["g.gv"]


def test_write_is_atomic_when_rendering_fails(three, tmp_path, monkeypatch):
    _, _, chain = three

    def broken(source, fmt):
        raise RenderError("layout failed")

    monkeypatch.setattr(_graphviz, "render_bytes", broken)
    with pytest.raises(RenderError, match="layout failed"):
        dot.write(dot.chain_dot(chain), tmp_path / "new.png")
    assert os.listdir(tmp_path) == []
    old = tmp_path / "old.svg"
    old.write_text("<svg>old</svg>")
    with pytest.raises(RenderError):
        dot.write(dot.chain_dot(chain), old)
    assert os.listdir(tmp_path) == ["old.svg"] and old.read_text() == "<svg>old</svg>"


def test_write_checks_the_path_before_rendering(three, tmp_path, monkeypatch):
    _, _, chain = three
    calls = []
    monkeypatch.setattr(_graphviz, "render_bytes", lambda source, fmt: calls.append(fmt) or b"x")
    with pytest.raises(UnknownNameError):
        dot.write("digraph {}", tmp_path / "g.gif")
    with pytest.raises(Exception, match="does not exist"):
        dot.write("digraph {}", tmp_path / "missing" / "g.png")
    assert calls == [] and os.listdir(tmp_path) == []
    dot.write("digraph {}", tmp_path / "g.PDF")  # the extension picks the format
    assert calls == ["pdf"] and (tmp_path / "g.PDF").read_bytes() == b"x"


def svg_counts(svg: str):
    return svg.count('class="node"'), svg.count('class="edge"')


def test_renders_through_pygraphviz(three, monkeypatch, tmp_path):
    pytest.importorskip("pygraphviz")
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", "pygraphviz")
    assert dot.graphviz_engine() == "pygraphviz"
    _, _, chain = three
    source = dot.chain_dot(chain, style="moves", weights="count").source
    svg = dot.render_bytes(source, "svg").decode()
    assert svg_counts(svg) == (8, 12)  # nothing merged, nothing lost
    assert "<title>n0</title>" in svg and ">3 (13/36)<" in svg
    assert dot.render_bytes(source, "png").startswith(b"\x89PNG\r\n\x1a\n")
    assert dot.render_bytes(source, "pdf").startswith(b"%PDF-")
    dot.write(source, tmp_path / "g.svg")
    assert svg_counts((tmp_path / "g.svg").read_text()) == (8, 12)


def test_pygraphviz_reports_bad_dot_as_render_error(monkeypatch):
    pytest.importorskip("pygraphviz")
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", "pygraphviz")
    with pytest.raises(RenderError, match="pygraphviz failed"):
        dot.render_bytes("digraph { a -> ", "png")


@pytest.mark.skipif(shutil.which("dot") is None, reason="no system Graphviz 'dot' on PATH")
def test_renders_through_system_dot(three, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", "system")
    _, _, chain = three
    svg = dot.render_bytes(dot.chain_dot(chain, style="moves"), "svg").decode()
    assert svg_counts(svg) == (8, 12)


def fake_dot(folder, script):
    path = folder / "dot"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def test_engine_choice(monkeypatch, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("GAMEGRAPH_GRAPHVIZ", raising=False)
    assert dot.graphviz_engine() == "pygraphviz"  # no dot on PATH
    fake_dot(empty, "exit 0\n")
    assert dot.graphviz_engine() == "system"  # a dot on PATH wins
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", " PyGraphviz ")
    assert dot.graphviz_engine() == "pygraphviz"  # forced, case and space ignored
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", "bogus")
    assert dot.graphviz_engine() == "system"  # unknown values: automatic


def test_forcing_system_without_dot_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", "system")
    with pytest.raises(RenderError, match=r"GAMEGRAPH_GRAPHVIZ=system but no 'dot' program"):
        dot.render_bytes("digraph { a -> b }", "png")
    with pytest.raises(RenderError):
        dot.write("digraph { a -> b }", tmp_path / "g.png")
    assert sorted(os.listdir(tmp_path)) == []


def test_system_engine_pipes_source_to_dot(monkeypatch, tmp_path):
    """The system path, with a stand-in 'dot' that echoes its format and its input."""
    fake_dot(tmp_path, 'printf "%s|" "$1"; cat\n')
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", "system")
    assert dot.render_bytes("digraph { a -> b }", "svg") == b"-Tsvg|digraph { a -> b }"


def test_system_dot_failure_is_a_render_error(monkeypatch, tmp_path):
    fake_dot(tmp_path, 'cat >/dev/null; echo "Error: syntax error in line 1" >&2; exit 1\n')
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GAMEGRAPH_GRAPHVIZ", "system")
    with pytest.raises(RenderError, match="dot failed: Error: syntax error in line 1"):
        dot.write("digraph {", tmp_path / "g.png")
    assert sorted(os.listdir(tmp_path)) == ["dot"]


def test_policy_dot_titles_itself_from_the_view():
    from gamegraph import build, solve
    from gamegraph.analysis import policy_view
    from gamegraph.games.jackpot import AGENTS, Jackpot
    from gamegraph.renderers.dot import policy_dot

    graph = build(Jackpot(cells=4))
    view = policy_view(graph, AGENTS["hilo"], optimal=solve(graph))
    assert view.title in policy_dot(view).source  # no title= needed
    assert "Own title" in policy_dot(view, title="Own title").source
