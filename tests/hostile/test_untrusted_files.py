"""Graph files are data: reading one runs nothing it names (issue 24, items 1 and 6).

A JSON or GraphML file records its state types by name in ``gamegraph_types``. Before
this guard the reader imported whatever ``gamegraph.*`` path the file gave and called it
while parsing a state, so a 300-byte file could write any file
(``gamegraph._files.write_atomic``) or run the command line (``gamegraph.cli.main.main``).
Now only the names in :data:`gamegraph.interchange.OWN_STATE_TYPES` (and the caller's own
``types=``) can be constructed, attributes are read strictly by their declared type, and
numbers and states are bounded before any arithmetic.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import time
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamegraph import build, solve
from gamegraph import interchange as ic
from gamegraph.errors import InvalidArgumentError, InvalidRulesError
from gamegraph.games.supersix import SuperSix
from gamegraph.games.ur import Ur
from gamegraph.interchange import state_types
from gamegraph.interchange.graphml import _graphml_text
from gamegraph.interchange.records import _Records
from gamegraph.rules import Option, Outcome, Rules

ENCODING = {"edge": {"probability": "fraction"}, "graph": {}, "node": {"state": "python"}}

#: Callables a hostile file might name, and the call it would make with them.
HOSTILE = {
    "write_atomic": ("gamegraph._files.write_atomic", "write_atomic({target!r}, 'pwned')"),
    "main": ("gamegraph.cli.main.main", "main(['jackpot', 'graph', '-o', {target!r}])"),
    "__main__": ("gamegraph.__main__", "__main__()"),
    "system": ("gamegraph.os.system", "system('touch ' + {target!r})"),
    "SixState": ("gamegraph._files.write_atomic", "SixState({target!r}, 'pwned')"),
}


def node_link(types: dict, states: list[str], edges=(), encoding=ENCODING) -> dict:
    return {
        "directed": True,
        "multigraph": False,
        "graph": {"gamegraph_encoding": json.dumps(encoding), "gamegraph_types": json.dumps(types)},
        "nodes": [{"id": str(i), "state": s} for i, s in enumerate(states)],
        "edges": [dict(e) for e in edges],
    }


def graphml(types: dict, states: list[str]) -> str:
    """The GraphML write_graphml would give for these records."""
    g = _Records(
        {"gamegraph_encoding": json.dumps(ENCODING), "gamegraph_types": json.dumps(types)},
        [(str(i), {"state": s}) for i, s in enumerate(states)],
        [],
        {
            "graph": {"gamegraph_encoding": str, "gamegraph_types": str},
            "node": {"state": str},
            "edge": {},
        },
    )
    return _graphml_text(g)


@pytest.fixture
def imports(monkeypatch):
    """Every module the reader imports while the test runs (hypothesis imports its own)."""
    seen = []
    real = importlib.import_module

    def recording(name, *args, **kwargs):
        if sys._getframe(1).f_globals.get("__name__") == state_types.__name__:
            seen.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(state_types.importlib, "import_module", recording)
    return seen


@pytest.mark.parametrize("fmt", ["json", "graphml"])
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_file_naming_a_callable_is_refused_and_writes_nothing(tmp_path, imports, fmt, name):
    where, call = HOSTILE[name]
    target = str(tmp_path / "pwned.txt")
    state = call.format(target=target)
    path = tmp_path / f"hostile.{fmt}"
    if fmt == "json":
        path.write_text(json.dumps(node_link({name: where}, [state])))
        read = ic.read_json
    else:
        path.write_text(graphml({name: where}, [state]))
        read = ic.read_graphml
    with pytest.raises(InvalidArgumentError) as error:
        read(path)
    assert "\n" not in str(error.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]
    assert set(imports) <= set(ic.OWN_STATE_TYPES.values())


def test_own_types_are_found_by_name_not_by_the_files_path(tmp_path, imports):
    # a file that records SixState under another gamegraph path still gets SixState
    path = tmp_path / "six.json"
    path.write_text(
        json.dumps(
            node_link({"SixState": "gamegraph.elsewhere.SixState"}, ["SixState(1, 2, 3, 0)"])
        )
    )
    g = ic.read_json(path)
    assert [type(s).__name__ for s in g] == ["SixState"] and list(g)[0] == (1, 2, 3, 0)
    assert imports == ["gamegraph.games.supersix.state"]


def test_every_bundled_state_type_is_on_the_allow_list(tmp_path):
    # SuperSix and Ur states are the NamedTuples of the bundled games; both read back
    for rules in (SuperSix(pegs=6), Ur("finkel", pieces=1)):
        graph = build(rules)
        path = tmp_path / f"{type(graph.states[0]).__name__}.json"
        ic.write_json(graph, path)
        back = ic.from_networkx(ic.read_json(path))
        assert back.states == list(graph.states)


# ---- strict attributes from other tools' files ------------------------------------------
def foreign_graphml(tmp_path, **edge) -> str:
    """play -> good (value 1) with 3/4, play -> bad (value 0) with 1/4: worth 3/4."""
    g = nx.DiGraph(start="play")
    g.add_edge("play", "good", probability="3/4", **edge)
    g.add_edge("play", "bad", probability="1/4", **edge)
    g.nodes["good"]["value"] = 1
    path = tmp_path / "foreign.graphml"
    nx.write_graphml(g, path)
    return path


@pytest.mark.parametrize("passes", ["false", "False", " 0 ", "0"])
def test_booleans_written_as_text_are_read_as_written(tmp_path, passes):
    g = ic.read_graphml(foreign_graphml(tmp_path, passes=passes))
    assert g.edges["play", "good"]["passes"] == passes  # networkx reads it as text
    assert solve(ic.from_networkx(g), exact=True).start_value == Fraction(3, 4)


@pytest.mark.parametrize(
    "edge, message",
    [
        ({"passes": "nope"}, "passes is 'nope'; accepted: true or false"),
        ({"passes": 2}, "passes is 2; accepted"),
        ({"move": 2.7}, "move 2.7 is not a whole number"),
        ({"move": "abc"}, "move 'abc' is not a whole number"),
        ({"move": 2**40}, "does not fit in 32 bits"),
    ],
)
def test_attributes_that_are_not_what_they_say_are_refused(tmp_path, edge, message):
    g = ic.read_graphml(foreign_graphml(tmp_path, **edge))
    with pytest.raises(InvalidArgumentError, match=message) as error:
        ic.from_networkx(g)
    assert "\n" not in str(error.value)


def test_moves_as_whole_numbers_in_any_form_are_read(tmp_path):
    for move in (3, 3.0, "3", " 3 "):
        g = ic.read_graphml(foreign_graphml(tmp_path, move=move))
        assert set(ic.from_networkx(g).option_move.tolist()) == {3}


def test_graphml_booleans_of_our_own_files_are_strict(tmp_path):
    path = tmp_path / "coin.graphml"
    g = nx.DiGraph(start="a")
    g.add_edge("a", "b", probability="1/1", passes=False)
    ic.write_graphml(g, path)
    text = path.read_text()
    assert ">false<" in text
    path.write_text(text.replace(">false<", ">maybe<"))
    with pytest.raises(InvalidArgumentError, match="'maybe' is not true or false"):
        ic.read_graphml(path)


# ---- bounded costs ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text", ["1e-999999999", "1e-9999999", "1/" + "7" * 5000, "0." + "1" * 5000]
)
def test_huge_numbers_in_a_file_are_refused_at_once(tmp_path, text):
    path = tmp_path / "big.json"
    path.write_text(
        json.dumps(node_link({}, ["1", "2"], [{"source": "0", "target": "1", "probability": text}]))
    )
    # In a child process: before the guard, Fraction("1e-999999999") computed 10**999999999
    # in C, which no signal interrupts.
    reader = (
        "import sys; from gamegraph.interchange import read_json\n"
        "try:\n    read_json(sys.argv[1])\nexcept Exception as e:\n    print(e)"
    )
    done = subprocess.run(
        [sys.executable, "-c", reader, str(path)], capture_output=True, text=True, timeout=60
    )
    assert re.search("exponent beyond|more than 4300 digits", done.stdout), done
    assert done.stdout.count("\n") == 1


def test_a_huge_state_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(node_link({}, ["(" + "1, " * 2_000_000 + ")"])))
    started = time.perf_counter()
    with pytest.raises(InvalidArgumentError, match="state is 6,000,002 characters long; at most"):
        ic.read_json(path)
    assert time.perf_counter() - started < 2


def test_a_huge_layer_in_a_file_is_refused(tmp_path):
    g = nx.DiGraph(start="a", gamegraph=1)
    g.add_node("a", outcomes=[(Fraction(1), [("b", 0, False)])], layer=0)
    g.add_node("b", terminal=True, value=1, layer=10**30)
    with pytest.raises(
        InvalidArgumentError, match=r"node 'b': layer 1000\d+ is outside 0..1,000,000"
    ):
        ic.from_networkx(g)


class Tiny(Rules):
    """0 -> 1 (worth 1) with probability p, else 0 -> 2 (worth 0)."""

    name = "tiny"

    def __init__(self, p=Fraction(1, 2), layer=None):
        self.p, self._layer = p, layer

    def start(self):
        return 0

    def terminal_value(self, state):
        return {1: 1, 2: 0}.get(state)

    def outcomes(self, state):
        return [
            Outcome(self.p, (Option(1, 0, False),)),
            Outcome(1 - self.p, (Option(2, 0, False),)),
        ]

    def layer(self, state):
        return self._layer if state else 0


def test_a_probability_of_5000_digits_in_rules_gives_one_line():
    with pytest.raises(
        InvalidRulesError, match=r"denominator \(a multiple of 1000\d+\.\.\.0+ \(5,001 digits\)\)"
    ):
        build(Tiny(Fraction(1, 10**5000)))


def test_a_huge_layer_in_rules_gives_one_line():
    graph = build(Tiny(layer=10**30))
    with pytest.raises(InvalidRulesError, match="layer 1000000000000000000000000000000 is outside"):
        graph.layer_counts()
    with pytest.raises(InvalidRulesError, match="layer 'x' is not a whole number"):
        build(Tiny(layer="x")).layer_counts()


# ---- fuzzing ----------------------------------------------------------------------------
CALLABLE_PATHS = [
    "gamegraph._files.write_atomic",
    "gamegraph.cli.main.main",
    "gamegraph.__main__",
    "gamegraph.games.supersix.state.SixState",
    "gamegraph.games.ur.rules.UrState",
    "os.system",
    "builtins.eval",
    "",
]
NAMES = ["SixState", "UrState", "write_atomic", "main", "eval", "Fraction", "set", "x"]
ATOMS = ["1", "-2", "'a'", "None", "True", "'/tmp/x'", "1e-999999999", "10**10", "__import__('os')"]


@st.composite
def state_texts(draw, depth=0):
    if depth > 2 or draw(st.booleans()):
        return draw(st.sampled_from(ATOMS) | st.text(max_size=12))
    parts = draw(st.lists(state_texts(depth=depth + 1), max_size=4))
    name = draw(st.sampled_from(NAMES + ["", "frozenset", "float"]))
    return f"{name}({', '.join(parts)})"


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    types=st.dictionaries(
        st.sampled_from(NAMES) | st.text(max_size=8), st.sampled_from(CALLABLE_PATHS)
    ),
    states=st.lists(state_texts(), min_size=1, max_size=4),
    probability=st.sampled_from(["1/2", "1e-999999999", "0.5", "x", "1/0", "2"])
    | st.text(max_size=8),
    fmt=st.sampled_from(["json", "graphml"]),
)
@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_fuzzed_files_construct_nothing_beyond_the_allow_list(
    tmp_path_factory, imports, types, states, probability, fmt
):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / f"f.{fmt}"
    edges = [{"source": "0", "target": str(len(states) - 1), "probability": probability}]
    if fmt == "json":
        path.write_text(json.dumps(node_link(types, states, edges)))
        read = ic.read_json
    else:
        path.write_text(graphml(types, states))
        read = ic.read_graphml
    try:
        g = read(path)
    except InvalidArgumentError as e:
        assert "\n" not in str(e)
    else:
        for state in g:
            assert type(state).__module__ in ("builtins", "fractions") or type(state).__name__ in (
                ic.OWN_STATE_TYPES
            )
    assert set(imports) <= set(ic.OWN_STATE_TYPES.values())
    assert [p.name for p in folder.iterdir()] == [path.name]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_give_a_graph_or_one_line(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("bytes")
    for name, read in (("f.json", ic.read_json), ("f.graphml", ic.read_graphml)):
        path = folder / name
        path.write_bytes(data)
        try:
            read(path)
        except InvalidArgumentError as e:
            assert "\n" not in str(e)


# ---------------------------------------------------------------------------
# Rewards and objectives in another program's files
# ---------------------------------------------------------------------------
def test_rewards_written_as_text_by_another_program_are_read_exactly(tmp_path):
    path = foreign_graphml(tmp_path, reward="-1/3")
    g = ic.read_graphml(path)
    g.graph["objective"] = "score"  # a networkx GraphML file keeps graph attributes too
    # 3/4 (1 - 1/3) + 1/4 (0 - 1/3) = 5/12
    assert solve(ic.from_networkx(g), exact=True).start_value == Fraction(5, 12)


@pytest.mark.parametrize(
    ("edge", "objective", "message"),
    [
        ({"reward": "1e-999999999"}, "score", "reward '1e-999999999' has an exponent beyond"),
        ({"reward": "__import__('os')"}, "score", "reward .* is not a number"),
        ({"reward": "9" * 5000}, "margin", "has more than 4300 digits"),
        ({"reward": "1/2"}, None, 'reward 1/2, but the objective is "win"'),
        ({"rewrd": "1/2"}, "score", "the attribute 'rewrd', which from_networkx does not read"),
    ],
)
def test_rewards_in_another_programs_file_are_bounded_and_checked(
    tmp_path, edge, objective, message
):
    g = ic.read_graphml(foreign_graphml(tmp_path, **edge))
    if objective is not None:
        g.graph["objective"] = objective
    with pytest.raises(InvalidArgumentError, match=message) as error:
        ic.from_networkx(g)
    assert "\n" not in str(error.value) and len(str(error.value)) < 400


def test_edge_ids_of_another_programs_graphml_are_named_and_can_be_left_unread(tmp_path):
    # GraphML editors give edges ids, which networkx reads as an attribute "id".
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
        '  <key id="p" for="edge" attr.name="probability" attr.type="string"/>\n'
        '  <key id="v" for="node" attr.name="value" attr.type="double"/>\n'
        '  <graph edgedefault="directed">\n'
        '    <node id="s"/><node id="won"><data key="v">1.0</data></node>\n'
        '    <edge id="e0" source="s" target="won"><data key="p">1/5</data></edge>\n'
        "  </graph>\n</graphml>\n"
    )
    path = tmp_path / "editor.graphml"
    path.write_text(text)
    g = ic.read_graphml(path)
    with pytest.raises(InvalidArgumentError, match=r"edge 's' -> 'won' has the attribute 'id'"):
        ic.from_networkx(g, "s")
    assert solve(ic.from_networkx(g, "s", ignore=["id"]), exact=True).start_value == Fraction(1, 5)
