"""gamegraph.interchange: lossless round trips through networkx, GraphML and node-link JSON.

Every game the library builds (Jackpot, Super Six 20 pegs, Ur with 2 pieces, Pig to 20)
goes out and comes back with the same states, the same arrays and the same exact values;
bad files give one clean line.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import NamedTuple

import networkx as nx
import numpy as np
import pytest
from same_graph import assert_same_arrays

from gamegraph import (
    InvalidArgumentError,
    InvalidRulesError,
    Option,
    Outcome,
    Rules,
    build,
    evaluate,
    solve,
)
from gamegraph.errors import UnknownNameError
from gamegraph.games.pig import Pig
from gamegraph.games.supersix import SuperSix
from gamegraph.games.supersix.state import SixState
from gamegraph.games.ur import Ur
from gamegraph.interchange import (
    from_networkx,
    read_graphml,
    read_json,
    to_networkx,
    write_graphml,
    write_json,
)
from gamegraph.interchange.node_link import _node_link_keyword  # networkx 3.4 renamed it

#: `make test-fast` leaves these out: every game written and read back in both formats.
pytestmark = pytest.mark.heavy

JACKPOT_OPTIMUM = Fraction(14103327415, 176319369216)  # tests/test_solve.py
HILO_WIN = Fraction(660001525, 8264970432)  # tests/test_interchange.py
PIG_10 = Fraction(7776, 10961)  # gamegraph/games/pig.py
GAMES = ("jackpot", "supersix-20", "ur-2", "pig-20")
WRITERS = {"graphml": (write_graphml, read_graphml), "json": (write_json, read_json)}


@pytest.fixture(scope="module")
def graphs(jackpot_graph):
    return {
        "jackpot": jackpot_graph,
        "supersix-20": build(SuperSix(pegs=20)),
        "ur-2": build(Ur("finkel", pieces=2)),
        "pig-20": build(Pig(20)),
    }


@pytest.fixture(scope="module")
def exports(graphs):
    return {name: to_networkx(graph) for name, graph in graphs.items()}


@pytest.fixture(scope="module")
def files(exports, tmp_path_factory):
    """Every game written once in each format: {(game, format): path}."""
    folder = tmp_path_factory.mktemp("interchange")
    paths = {}
    for name, g in exports.items():
        for fmt, (write, _) in WRITERS.items():
            paths[name, fmt] = folder / f"{name}.{fmt}"
            write(g, paths[name, fmt])
    return paths


_SEEN: dict = {}


def _states_and_labels(graph):
    """A graph's states and labels, made once (Ur's are made on demand, and slowly)."""
    if id(graph) not in _SEEN:
        _SEEN[id(graph)] = (
            graph,
            list(graph.states),
            [graph.label(i) for i in range(graph.n_states)],
        )
    return _SEEN[id(graph)][1:]


def assert_same_graph(original, rebuilt):
    states, labels = _states_and_labels(original)
    assert rebuilt.states == states
    assert_same_arrays(original, rebuilt)
    assert all(type(v) is Fraction for v in rebuilt.terminal_exact.values())
    assert [rebuilt.label(i) for i in range(rebuilt.n_states)] == labels
    if original.layers is None:
        assert rebuilt.layers is None
    else:
        assert np.array_equal(rebuilt.layers, original.layers)
    assert rebuilt.rules.name == original.rules.name


def assert_same_digraph(a: nx.DiGraph, b: nx.DiGraph):
    assert list(a) == list(b)
    assert a.graph == b.graph
    assert all(a.nodes[n] == b.nodes[n] for n in a)
    assert list(a.edges(data=True)) == list(b.edges(data=True))


# ---------------------------------------------------------------------------
# networkx
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_networkx_round_trip_is_lossless(graphs, exports, game):
    assert_same_graph(graphs[game], from_networkx(exports[game]))


def test_export_keeps_the_outcome_structure(graphs, exports):
    # Ur: from many positions several outcomes lead to the same position (a throw of 0 and
    # a throw with no legal move both pass the turn), which one edge per pair cannot hold.
    g = exports["ur-2"]

    def targets(outcomes):
        return [option.target for o in outcomes for option in o.options]

    shared = [
        s
        for s, d in g.nodes(data=True)
        if len(set(targets(d.get("outcomes", ())))) < len(targets(d.get("outcomes", ())))
    ]
    assert len(shared) > 1000
    for state in shared[:50]:
        outcomes = g.nodes[state]["outcomes"]
        assert sum(o.probability for o in outcomes) == 1
        assert sorted(o.probability for o in outcomes)[-1] == Fraction(6, 16)  # a throw of 2
        # The edge holds the chance a throw offers the move, counting each outcome once.
        for t in set(targets(outcomes)):
            offered = sum(o.probability for o in outcomes if t in targets([o]))
            assert g.edges[state, t]["probability"] == offered
        assert sum(g.edges[e]["probability"] for e in g.out_edges(state)) > 1 or len(
            g.out_edges(state)
        ) < len(outcomes)
    # Jackpot: the roll (1, 1) offers cell 1 or cell 2 (the sum), in that order.
    first = exports["jackpot"].nodes[0]["outcomes"][0]
    assert first == Outcome(Fraction(1, 36), (Option(1, 1, False), Option(2, 2, False)))


def test_positions_the_start_cannot_reach_survive(graphs, exports):
    g = exports["supersix-20"]
    reachable = nx.descendants(g, g.graph["start"]) | {g.graph["start"]}
    assert len(reachable) < g.number_of_nodes() == graphs["supersix-20"].n_states == 876
    rebuilt = from_networkx(g)
    assert rebuilt.n_states == 876
    # The rebuilt graph's rules list every node as a root: build() over them agrees.
    again = build(rebuilt.rules)
    assert set(again.states) == set(rebuilt.states) and again.n_options == rebuilt.n_options
    # (numbered in another order, so the float solves agree to rounding only)
    assert abs(solve(again).start_value - solve(rebuilt).start_value) < 1e-12


def test_layers_only_where_the_game_has_them(graphs, exports):
    assert graphs["pig-20"].layers is None and graphs["ur-2"].layers is None
    assert all("layer" not in d for _, d in exports["pig-20"].nodes(data=True))
    assert exports["jackpot"].nodes[0b1011]["layer"] == 3
    assert graphs["jackpot"].layer_counts() == [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]
    with pytest.raises(InvalidArgumentError, match="no layers"):
        graphs["ur-2"].layer_counts()


def test_rules_giving_some_states_a_layer_are_refused():
    class Half(Rules):
        name = "half"

        def start(self):
            return 0

        def terminal_value(self, state):
            return Fraction(1) if state == 1 else None

        def outcomes(self, state):
            return [Outcome(Fraction(1), (Option(1),))]

        def layer(self, state):
            return 0 if state == 0 else None

    graph = build(Half())
    with pytest.raises(InvalidRulesError, match="gives some states a layer and '1' None"):
        _ = graph.layers


def test_exact_values_survive(graphs, exports):
    rebuilt = from_networkx(exports["jackpot"])
    assert solve(rebuilt, exact=True).start_value == JACKPOT_OPTIMUM
    # Super Six is cyclic: exact policy iteration on the rebuilt graph, floats on the built.
    exact = solve(from_networkx(exports["supersix-20"]), exact=True).values
    floats = solve(graphs["supersix-20"]).values
    assert all(type(v) is Fraction for v in exact)
    assert np.allclose(np.array(exact, dtype=float), floats, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", WRITERS)
@pytest.mark.parametrize("game", GAMES)
def test_file_round_trip_is_lossless(graphs, exports, files, game, fmt):
    read = WRITERS[fmt][1]
    g = read(files[game, fmt])
    assert_same_digraph(g, exports[game])
    assert_same_graph(graphs[game], from_networkx(g))


@pytest.mark.parametrize("fmt", WRITERS)
def test_files_keep_exact_numbers_as_text(files, fmt):
    text = files["jackpot", fmt].read_text()
    assert "1/36" in text and "7/18" in text
    six = files["supersix-20", fmt].read_text()
    assert "SixState(b=0, c=10, o=10, phase=0)" in six


@pytest.mark.parametrize("fmt", WRITERS)
def test_pig_to_ten_reads_back_to_its_exact_value(tmp_path, fmt):
    write, read = WRITERS[fmt]
    path = tmp_path / f"pig.{fmt}"
    write(build(Pig(10)), path)  # a StateGraph, exported on the way
    graph = from_networkx(read(path))
    assert graph.states[graph.start] == ("roll", 0, 0, 0)
    assert solve(graph, exact=True).start_value == PIG_10


@pytest.mark.parametrize("fmt", WRITERS)
def test_policy_chain_reads_back_to_its_value(jackpot_graph, jackpot_policies, tmp_path, fmt):
    write, read = WRITERS[fmt]
    chain = jackpot_policies["hilo"].chain(jackpot_graph)
    path = tmp_path / f"hilo.{fmt}"
    write(chain, path)
    g = read(path)
    assert_same_digraph(g, to_networkx(chain))
    assert g.nodes[511 - 256]["stuck"] == Fraction(32, 36)
    solution = solve(from_networkx(g), exact=True)
    assert solution.start_value == HILO_WIN
    direct = evaluate(jackpot_graph, jackpot_policies["hilo"], exact=True)
    assert all(solution.value(s) == direct.value(s) for s in range(0, 512, 37))


def test_networkx_reads_our_files(files, exports):
    # Other programs see plain GraphML and node-link JSON: ids "0", "1", ..., text values.
    g = nx.read_graphml(files["supersix-20", "graphml"])
    # The start is state 0.
    assert g.number_of_nodes() == 876
    assert g.nodes["0"]["state"] == "SixState(b=0, c=10, o=10, phase=0)"
    data = json.loads(files["jackpot", "json"].read_text())
    h = nx.node_link_graph(data, **{_node_link_keyword(): "edges"})  # 3.4 renamed link=
    ids = {d["state"]: n for n, d in h.nodes(data=True)}  # Jackpot's states are board numbers
    assert h.is_directed() and ids["0"] == "0"
    assert h.edges[ids["0"], ids["8"]]["probability"] == "7/18"


@pytest.mark.parametrize("fmt", WRITERS)
def test_plain_digraph_with_fractions(tmp_path, fmt):
    write, read = WRITERS[fmt]
    g = nx.DiGraph(name="coin")
    g.add_edge("play", "won", probability=Fraction(1, 4))
    g.add_edge("play", "play", probability=Fraction(3, 4), passes=True, note=None)
    g.nodes["won"]["value"] = 1
    g.nodes["play"]["where"] = ("table", 3)
    g.graph["start"] = "play"
    path = tmp_path / f"coin.{fmt}"
    write(g, path)
    back = read(path)
    assert_same_digraph(back, g)
    assert type(back.edges["play", "won"]["probability"]) is Fraction
    # "note" is the user's own: from_networkx is told to leave it unread, or refuses it.
    assert solve(from_networkx(back, ignore=["note"]), exact=True).start_value == Fraction(4, 7)
    with pytest.raises(InvalidArgumentError, match="attribute 'note'"):
        from_networkx(back)


class Cell(NamedTuple):
    row: int
    tiles: frozenset


@pytest.mark.parametrize("fmt", WRITERS)
def test_own_state_types_need_naming(tmp_path, fmt):
    write, read = WRITERS[fmt]
    g = nx.DiGraph()
    g.add_edge(Cell(0, frozenset({1, 2})), Cell(1, frozenset()), probability="1/2")
    path = tmp_path / f"cells.{fmt}"
    write(g, path)
    with pytest.raises(InvalidArgumentError, match=r"pass types=\[Cell\] to read them back"):
        read(path)
    back = read(path, types=[Cell])
    assert list(back) == [Cell(0, frozenset({1, 2})), Cell(1, frozenset())]
    assert back.edges[Cell(0, frozenset({1, 2})), Cell(1, frozenset())]["probability"] == "1/2"


def test_foreign_graphml_reads_as_networkx_reads_it(tmp_path):
    g = nx.DiGraph()
    g.add_edge("a", "b", probability=0.25)
    path = tmp_path / "foreign.graphml"
    nx.write_graphml(g, path)
    back = read_graphml(path)
    assert list(back.edges(data=True)) == [("a", "b", {"probability": 0.25})]
    assert from_networkx(back, "a").probability(0) == Fraction(1, 4)
    undirected = tmp_path / "undirected.graphml"
    nx.write_graphml(nx.path_graph(3), undirected)
    with pytest.raises(InvalidArgumentError, match="undirected graph"):
        read_graphml(undirected)


def test_old_node_link_files_with_links_read(tmp_path):
    data = {
        "directed": True,
        "multigraph": False,
        "graph": {},
        "nodes": [{"id": "s"}, {"id": "t"}],
        "links": [{"source": "s", "target": "t", "probability": 1}],
    }
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert list(read_json(path).edges(data=True)) == [("s", "t", {"probability": 1})]


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------
def damaged(files, game, fmt, old, new, tmp_path):
    text = files[game, fmt].read_text()
    assert old in text
    path = tmp_path / f"damaged.{fmt}"
    path.write_text(text.replace(old, new, 1))
    return path


def bad_file(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.graphml", "", "is not an XML file"),
        ("text.graphml", "hello", "is not an XML file"),
        ("other.graphml", "<svg xmlns='http://www.w3.org/2000/svg'/>", "XML but not GraphML"),
        ("picture.graphml", b"\x89PNG\r\n\x1a\n\x00\x00", "is not an XML file"),
        ("empty.json", "", "is not JSON"),
        ("list.json", "[1, 2]", "is not node-link JSON"),
        ("picture.json", b"\x89PNG\r\n\x1a\n\x00\x00", "is not JSON"),
        ("edges.json", '{"nodes": [{"id": 1}], "edges": [{"source": 1}]}', "node-link JSON"),
    ],
)
def test_foreign_files_give_one_clean_line(tmp_path, name, content, message):
    read = read_json if name.endswith(".json") else read_graphml
    with pytest.raises(InvalidArgumentError, match=message) as error:
        read(bad_file(tmp_path, name, content))
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("fmt", WRITERS)
def test_missing_paths(tmp_path, fmt):
    read = WRITERS[fmt][1]
    with pytest.raises(InvalidArgumentError, match="no such file"):
        read(tmp_path / f"nowhere.{fmt}")
    with pytest.raises(InvalidArgumentError, match="it is a folder"):
        read(tmp_path)


@pytest.mark.parametrize(
    "fmt, old, new, message",
    [
        ("json", "SixState(b=0, c=1, o=1, phase=0)", "__import__('os')", "unknown type"),
        ("json", "SixState(b=0, c=1, o=1, phase=0)", "SixState(b=0", "is damaged"),
        ("graphml", "SixState(b=0, c=1, o=1, phase=0)", "SixState(0, 10, 10, 0)", "two nodes"),
        ("json", '"1/36"', '"1/0"', "is damaged"),
        ("graphml", "gamegraph.games.supersix.state.SixState", "evil.SixState", "types="),
        (
            "graphml",
            '"SixState": "gamegraph.games.supersix.state.SixState"',
            '"X": "gamegraph.nope.X"',
            "not one of gamegraph's own",
        ),
        ("json", '"gamegraph_encoding":"{', '"gamegraph_encoding":"x{', "damaged"),
    ],
)
def test_damaged_files_give_one_clean_line(files, tmp_path, fmt, old, new, message):
    game = "jackpot" if "1/36" in old else "supersix-20"
    with pytest.raises(InvalidArgumentError, match=message) as error:
        WRITERS[fmt][1](damaged(files, game, fmt, old, new, tmp_path))
    assert "\n" not in str(error.value)


def test_outcomes_naming_a_missing_node(files, tmp_path):
    text = json.loads(files["supersix-20", "json"].read_text())
    node = next(n for n in text["nodes"] if "outcomes" in n)
    node["outcomes"][0][1][0][0] = 10**6
    path = bad_file(tmp_path, "bad.json", json.dumps(text))
    with pytest.raises(InvalidArgumentError, match="its outcomes name a node the file does not"):
        read_json(path)


def test_writers_check_the_path_and_values_first(tmp_path, exports):
    with pytest.raises(UnknownNameError, match="accepted: .graphml"):
        write_graphml(exports["jackpot"], tmp_path / "a.xml")
    with pytest.raises(UnknownNameError, match="accepted: .json"):
        write_json(exports["jackpot"], tmp_path / "a.graphml")
    g = nx.DiGraph()
    g.add_edge("s", "t", probability=object())
    with pytest.raises(InvalidArgumentError, match="cannot write <object"):
        write_json(g, tmp_path / "a.json")
    with pytest.raises(InvalidArgumentError, match="not list"):
        write_graphml([], tmp_path / "b.graphml")
    assert list(tmp_path.iterdir()) == []


def test_edited_exports_are_checked(exports):
    g = exports["supersix-20"].copy()
    state = SixState(0, 10, 10)
    outcomes = g.nodes[state]["outcomes"]
    g.nodes[state]["outcomes"] = outcomes[1:]
    with pytest.raises(InvalidArgumentError, match=r"outcomes sum to \d+/\d+, not 1"):
        from_networkx(g)
    g.nodes[state]["outcomes"] = [Outcome(outcomes[0].probability, (Option("nowhere"),))]
    g.nodes[state]["outcomes"] += outcomes[1:]
    with pytest.raises(InvalidArgumentError, match="leads to 'nowhere', which is not a node"):
        from_networkx(g)
    del g.nodes[state]["outcomes"]
    with pytest.raises(InvalidArgumentError, match="is not terminal and has no 'outcomes'"):
        from_networkx(g)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["nodes"][0].update(id=[1]), "is not an id with attributes"),
        (lambda d: d["edges"][0].update(source={"a": 1}), "is not two node ids"),
        (lambda d: d["edges"][0].update(target="nowhere"), "joins a node it does not hold"),
        (lambda d: d["nodes"][1].pop("state"), "node 1 has no 'state' text"),
        (lambda d: d["edges"].append(7), "every node needs an 'id'"),
    ],
)
def test_damaged_node_link_structure(files, tmp_path, change, message):
    data = json.loads(files["jackpot", "json"].read_text())
    change(data)
    with pytest.raises(InvalidArgumentError, match=message):
        read_json(bad_file(tmp_path, "bad.json", json.dumps(data)))


@pytest.mark.parametrize(("written", "read"), [("false", True), ("0", True), ("maybe", False)])
def test_a_terminal_flag_written_as_text_is_read_or_refused(tmp_path, written, read):
    """Another tool may write booleans as text: "false" is false (it read as true, and the
    node was refused as terminal with outcomes); text that is no boolean is refused."""
    graph = build(Pig(goal=6))
    write_json(graph, tmp_path / "p.json")
    data = json.loads((tmp_path / "p.json").read_text())
    node = next(n for n in data["nodes"] if n.get("terminal") is False)
    node["terminal"] = written
    (tmp_path / "q.json").write_text(json.dumps(data))
    if read:
        again = from_networkx(read_json(tmp_path / "q.json"))
        assert solve(again).start_value == pytest.approx(solve(graph).start_value, abs=1e-12)
    else:
        with pytest.raises(InvalidArgumentError, match="terminal is 'maybe'; accepted: true"):
            from_networkx(read_json(tmp_path / "q.json"))
