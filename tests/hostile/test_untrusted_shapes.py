"""Graph files with JSON of the wrong shape: every one refused with InvalidArgumentError.

A node-link file is JSON, so any of its values can be a string, a list, a number, null or
an object where another type belongs: the graph's attributes, the encoding a file of ours
records, an edge's attributes. Each such file is refused in one line naming the problem,
never with AttributeError, TypeError or networkx's own errors, by the readers and by
:func:`~gamegraph.interchange.from_networkx` on what they read.
"""

from __future__ import annotations

import json
import re
import textwrap
import time

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamegraph import interchange as ic
from gamegraph.errors import InvalidArgumentError
from tests.cli_run import run

NOT_OBJECTS = ["x", [1], [], 3, 1.5, None, True]
_START = object()  # foreign()'s graph attributes by default: {"start": "a"}


def foreign(graph=_START, multigraph=False, **edge) -> dict:
    """Another program's node-link file: a -> b with probability 1 (and ``edge``)."""
    data = {
        "directed": True,
        "multigraph": multigraph,
        "graph": {"start": "a"} if graph is _START else graph,
        "nodes": [{"id": "a"}, {"id": "b", "value": 1}],
        "edges": [{"source": "a", "target": "b", "probability": 1, **edge}],
    }
    if multigraph:
        data["edges"][0]["key"] = 0
    return data


def written(tmp_path, data, name="shape.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def refused(path, message: str) -> str:
    """Read the file as a user would (read_json, then from_networkx): the one-line error."""
    with pytest.raises(InvalidArgumentError, match=message) as error:
        g = ic.read_json(path)
        ic.from_networkx(g, "a")
    assert "\n" not in str(error.value)
    return str(error.value)


@pytest.mark.parametrize("graph", NOT_OBJECTS, ids=repr)
def test_graph_attributes_that_are_not_an_object_are_refused(tmp_path, graph):
    # networkx kept them as g.graph, and from_networkx raised AttributeError on g.graph.get
    path = written(tmp_path, foreign(graph))
    assert str(path) in refused(path, "is not node-link JSON: its 'graph' is .*, not an object")


@pytest.mark.parametrize("graph", NOT_OBJECTS, ids=repr)
def test_a_multigraph_with_graph_attributes_not_an_object_is_refused(tmp_path, graph):
    # nx.DiGraph(g) of such a MultiDiGraph raised NetworkXError ("Input is not a correct
    # NetworkX graph") from update(g.graph)
    path = written(tmp_path, foreign(graph, multigraph=True))
    refused(path, "is not node-link JSON: its 'graph' is .*, not an object")


def test_a_file_without_graph_attributes_still_reads(tmp_path):
    data = foreign()
    del data["graph"]
    g = ic.read_json(written(tmp_path, data))
    assert g.graph == {} and list(g.edges) == [("a", "b")]


@pytest.mark.parametrize("how", [["python"], {"python": 1}, 3, None, True, "nope"], ids=repr)
def test_an_encoding_that_is_not_a_known_name_is_damaged(tmp_path, how):
    # an unhashable encoding raised TypeError from the dict lookup of its converter
    encoding = {"graph": {}, "node": {"label": how}, "edge": {}}
    data = {
        "graph": {"gamegraph_encoding": json.dumps(encoding), "gamegraph_types": "{}"},
        "nodes": [{"id": "0", "state": "1", "label": "x"}],
        "edges": [],
    }
    path = written(tmp_path, data)
    with pytest.raises(InvalidArgumentError, match="its gamegraph_encoding attribute is damaged"):
        ic.read_json(path)


@pytest.mark.parametrize("outcome", [[1, 2], {"a": 1}, [[1]]], ids=repr)
def test_an_outcome_key_that_cannot_name_an_outcome_is_refused(tmp_path, outcome):
    # networkx reads a JSON list or object as it is; from_networkx used it as a dict key
    path = written(tmp_path, foreign(outcome=outcome))
    refused(path, r"edge 'a' -> 'b': its outcome .* is not hashable")


@pytest.mark.parametrize("state", ["Fraction(1, 0)", "(Fraction(3, 0), 1)", "[Fraction(-1, 0)]"])
def test_a_state_dividing_by_zero_is_damaged(tmp_path, state):
    # the fast reading of states as JSON let ZeroDivisionError out of Fraction(1, 0)
    encoding = {"graph": {}, "node": {"state": "python"}, "edge": {}}
    data = {
        "graph": {"gamegraph_encoding": json.dumps(encoding)},
        "nodes": [{"id": "0", "state": "1"}, {"id": "1", "state": state}],
        "edges": [],
    }
    path = written(tmp_path, data)
    with pytest.raises(
        InvalidArgumentError, match=r"node 1: attribute 'state' is damaged \(Fraction"
    ):
        ic.read_json(path)


def test_graphml_declaring_the_encoding_without_giving_it_is_damaged(tmp_path):
    # a key named gamegraph_encoding marks the file as ours; without the graph's data for
    # it, reading the encoding raised KeyError
    g = nx.DiGraph(start="a")
    g.add_edge("a", "b", probability="1/1")
    path = tmp_path / "ours.graphml"
    ic.write_graphml(g, path)
    text = path.read_text()
    data = re.search(r'<data key="(d\d+)">\{[^<]*"edge"[^<]*</data>', text)
    assert data is not None
    path.write_text(text.replace(data.group(0), ""))
    with pytest.raises(InvalidArgumentError, match="its gamegraph_encoding attribute is damaged"):
        ic.read_graphml(path)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("attribute", ["gamegraph_encoding", "gamegraph_types"])
def test_a_deeply_nested_header_is_damaged(tmp_path, attribute):
    # JSON text inside the file's JSON, parsed on its own: json.loads raised RecursionError
    encoding = {"graph": {}, "node": {"state": "python"}, "edge": {}}
    graph = {"gamegraph_encoding": json.dumps(encoding), "gamegraph_types": "{}", attribute: DEEP}
    data = {"graph": graph, "nodes": [{"id": "0", "state": "1"}], "edges": []}
    with pytest.raises(InvalidArgumentError, match="its gamegraph_encoding attribute is damaged"):
        ic.read_json(written(tmp_path, data))


def test_deeply_nested_outcomes_in_graphml_are_damaged(tmp_path):
    # GraphML holds outcomes as JSON text, parsed on its own: json.loads raised RecursionError
    g = nx.DiGraph(start="a", gamegraph=1)
    g.add_node("a", outcomes=[(1, [("b", 0, False)])])
    g.add_node("b", terminal=True, value=1)
    path = tmp_path / "deep.graphml"
    ic.write_graphml(g, path)
    text = path.read_text()
    assert text.count("[[1,0,false]]") == 1
    path.write_text(re.sub(r'\[\["1",\[\[1,0,false\]\]\]\]', DEEP, text))
    with pytest.raises(InvalidArgumentError, match=r"node 'a': attribute 'outcomes' is damaged"):
        ic.read_graphml(path)


@pytest.mark.parametrize("where", ["state", "label"])
@pytest.mark.parametrize(
    "text", ["-" * 6000 + "1", "lambda: " * 3000 + "1"], ids=["minus", "lambda"]
)
def test_python_text_nested_too_deeply_is_damaged(tmp_path, where, text):
    # under MAX_TEXT, yet ast.parse overflowed its stack and raised MemoryError (which the
    # command line reports as running out of memory)
    encoding = {"graph": {}, "node": {"state": "python", "label": "python"}, "edge": {}}
    node = {"id": "1", "state": "2", where: text}
    data = {
        "graph": {"gamegraph_encoding": json.dumps(encoding)},
        "nodes": [{"id": "0", "state": "1"}, node],
        "edges": [],
    }
    with pytest.raises(
        InvalidArgumentError, match=f"node 1: attribute '{where}' is damaged \\(nested too deeply"
    ):
        ic.read_json(written(tmp_path, data))


def test_a_common_denominator_too_long_to_print_is_shown_short(tmp_path):
    # two probabilities of 4,001 digits each: their common denominator has 8,001, past what
    # str() of an int gives, so building the message raised ValueError
    a = 10**4000
    g = nx.DiGraph(start="s", gamegraph=1)
    for node, d in (("s", a), ("u", a + 1)):
        g.add_node(
            node, outcomes=[(f"1/{d}", [("t", 0, False)]), (f"{d - 1}/{d}", [("t", 1, False)])]
        )
    g.add_node("t", terminal=True, value=1)
    path = tmp_path / "long.json"
    ic.write_json(g, path)
    with pytest.raises(
        InvalidArgumentError,
        match=r"common denominator \(a multiple of 1000\d+\.\.\.\d+ \(4,001 digits\)\) does "
        "not fit in 62 bits",
    ):
        ic.from_networkx(ic.read_json(path))


def test_many_long_denominators_are_refused_at_once(tmp_path):
    # 300 probabilities of 3,900 digits (a 1 MB file): their whole lcm took half a minute,
    # and writing its million digits as many seconds again
    outcomes = [[f"1/{10**3900 + 2 * k + 1}", [[1, 0, False]]] for k in range(300)]
    encoding = json.dumps({"graph": {}, "node": {"state": "python"}, "edge": {}})
    data = {
        "graph": {"gamegraph_encoding": encoding, "gamegraph": 1, "start": 0},
        "nodes": [
            {"id": "0", "state": "0", "outcomes": outcomes},
            {"id": "1", "state": "1", "terminal": True, "value": 1},
        ],
        "edges": [],
    }
    g = ic.read_json(written(tmp_path, data))
    started = time.perf_counter()
    with pytest.raises(InvalidArgumentError, match=r"\(3,901 digits\)\) does not fit in 62 bits"):
        ic.from_networkx(g)
    assert time.perf_counter() - started < 2


UR_TYPES = json.dumps({"UrState": "gamegraph.games.ur.rules.UrState"})
BAD_UR = "UrState(5, 0, (), 0)"  # its squares are a number: UrState.__str__ cannot write it


def ur_file(tmp_path, export: bool):
    """A file of ours whose start is BAD_UR: a StateGraph export (its nodes terminal) or a
    plain probability graph (BAD_UR -> (), as a MarkovChain export reads)."""
    encoding = {"graph": {"start": "python"}, "node": {"state": "python"}, "edge": {}}
    graph = {"gamegraph_encoding": json.dumps(encoding), "gamegraph_types": UR_TYPES}
    graph["start"] = BAD_UR
    nodes = [{"id": "0", "state": BAD_UR}, {"id": "1", "state": "()", "value": 1}]
    edges = [{"source": "0", "target": "1", "probability": 1}]
    if export:
        graph["gamegraph"] = 1
        nodes[0].update(terminal=True, value=1)
        nodes[1]["terminal"] = True
        edges = []
    return written(tmp_path, {"graph": graph, "nodes": nodes, "edges": edges})


def test_a_state_its_type_cannot_write_is_refused_in_an_export(tmp_path):
    # the label of a node without one is str(state): UrState.__str__ raised TypeError
    g = ic.read_json(ur_file(tmp_path, export=True))
    with pytest.raises(
        InvalidArgumentError,
        match=r"node UrState\(mover=5, .*\) cannot be written as a label \(TypeError: ",
    ):
        ic.from_networkx(g)


def test_a_state_its_type_cannot_write_is_refused_in_a_plain_graph(tmp_path):
    graph = ic.from_networkx(ic.read_json(ur_file(tmp_path, export=False)))
    with pytest.raises(InvalidArgumentError, match=r"cannot be written as a label \(TypeError"):
        graph.label(graph.start)


NUMBERS = json.dumps({"graph": {}, "node": {"value": "fraction"}, "edge": {}})


@pytest.mark.parametrize(
    "nodes, edges, message",
    [
        ([{"id": "a\nb"}], [], r"node 'a\\nb' has no 'state' text"),
        ([{"id": "a\nb", "state": "1", "value": "x"}], [], r"node 'a\\nb': attribute 'value'"),
        ([{"id": "a\nb", "state": "None"}], [], r"node 'a\\nb''s state is None"),
        ([{"id": "a\nb", "state": "[1]"}], [], r"node 'a\\nb''s state \[1\] is not hashable"),
        ([{"id": "0", "state": "1"}], [{"source": "x\ny", "target": "0"}], r"edge 'x\\ny' -> 0"),
    ],
)
def test_node_ids_with_line_breaks_are_shown_on_one_line(tmp_path, nodes, edges, message):
    # the file's own ids were put in messages as they are, so one id could break the line
    data = {"graph": {"gamegraph_encoding": NUMBERS}, "nodes": nodes, "edges": edges}
    with pytest.raises(InvalidArgumentError, match=message) as error:
        ic.read_json(written(tmp_path, data))
    assert "\n" not in str(error.value)


def test_graphml_node_ids_with_line_breaks_are_shown_on_one_line(tmp_path):
    g = nx.DiGraph(start="a")
    g.add_node("a", value=1)
    path = tmp_path / "ids.graphml"
    ic.write_graphml(g, path)
    text = path.read_text()
    assert '<node id="0">' in text
    path.write_text(text.replace('<node id="0">', '<node id="a&#10;b">').replace(">1<", ">x<"))
    with pytest.raises(InvalidArgumentError, match=r"'node a\\nb': value is damaged") as error:
        ic.read_graphml(path)
    assert "\n" not in str(error.value)


# ---- fuzzing ----------------------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**63, -(2**70), 10**300, float("nan"), float("inf"), 1.5, -0.0])
    | st.text(max_size=6)
    | st.sampled_from(["1/0", "1/2", "(", "None", "[1]", "Fraction(1, 0)", "a\nb", "'x'"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def _places(value, path=()):
    """Every place in a JSON document, as the path of keys and indices leading to it."""
    yield path
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if type(value) is list
        else ()
    )
    for key, item in items:
        yield from _places(item, (*path, key))


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    """A node-link file of ours (an export with outcomes) and another program's."""
    g = nx.DiGraph(start="a", gamegraph=1)
    g.add_node("a", outcomes=[("1/2", [("b", 0, False)]), ("1/2", [("a", 1, True)])], layer=0)
    g.add_node("b", terminal=True, value=1, layer=1)
    path = tmp_path_factory.mktemp("documents") / "ours.json"
    ic.write_json(g, path)
    other = foreign(multigraph=False, move=2, passes=False, outcome="o")
    return [json.loads(path.read_text()), other]


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(which=st.integers(0, 1), where=st.integers(0, 10**6), value=JSON_VALUES, key=st.booleans())
def test_any_value_anywhere_gives_a_graph_or_one_line(
    tmp_path_factory, documents, which, where, value, key
):
    # one place of a good file replaced with any JSON value (or given a key of that name)
    data = json.loads(json.dumps(documents[which]))
    places = list(_places(data))
    path = places[where % len(places)]
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if not path:
        data = value
    elif key and isinstance(parent[path[-1]], dict):
        parent[path[-1]][str(value)[:8]] = value
    else:
        parent[path[-1]] = value
    file = tmp_path_factory.mktemp("fuzz") / "f.json"
    file.write_text(json.dumps(data))
    try:
        g = ic.read_json(file)
        start = g.graph.get("start")
        ic.from_networkx(g, start if isinstance(start, str) and start in g else next(iter(g), None))
    except InvalidArgumentError as e:
        assert "\n" not in str(e)


GRAPHML_PLACES = re.compile(
    r'<data key="\w+">([^<]*)</data>|attr\.type="(\w+)"|(?:id|source|target)="([^"]*)"'
)
GRAPHML_TEXTS = (
    st.text(max_size=8)
    | st.sampled_from(["", "nan", "-inf", "1e999", "1/0", "9" * 5000, "[[", "[null]", "{}"])
    | st.sampled_from(
        ['[["1",[[5,0,false]]]]', "[[1,[[0,0,false]]]]", "Fraction(1, 0)", "(1, [2])"]
    )
    | st.sampled_from(["boolean", "int", "long", "float", "double", "string", "x"])
    | st.just("[" * 3000 + "]" * 3000)
)


@pytest.fixture(scope="module")
def graphml_texts(tmp_path_factory):
    """A GraphML file of ours (an export with outcomes) and another program's."""
    folder = tmp_path_factory.mktemp("graphml")
    g = nx.DiGraph(start="a", gamegraph=1)
    g.add_node("a", outcomes=[("1/2", [("b", 0, False)]), ("1/2", [("a", 1, True)])], layer=0)
    g.add_node("b", terminal=True, value=1, layer=1)
    ic.write_graphml(g, folder / "ours.graphml")
    other = nx.DiGraph(start="a", objective="margin")
    other.add_edge("a", "b", probability="1/2", move=2, passes=True, reward=1, outcome="o")
    other.add_edge("a", "a", probability=0.5)
    other.nodes["b"]["value"] = -1
    nx.write_graphml(other, folder / "other.graphml")
    return [(folder / name).read_text() for name in ("ours.graphml", "other.graphml")]


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(which=st.integers(0, 1), where=st.integers(0, 10**6), text=GRAPHML_TEXTS)
def test_any_text_in_any_graphml_place_gives_a_graph_or_one_line(
    tmp_path_factory, graphml_texts, which, where, text
):
    # one value, attribute type or id of a good GraphML file replaced with other text
    document = graphml_texts[which]
    places = [m for m in GRAPHML_PLACES.finditer(document)]
    match = places[where % len(places)]
    group = next(k for k in (1, 2, 3) if match.group(k) is not None)
    text = "".join(c for c in text if c.isprintable() and c not in '&<>"')
    document = document[: match.start(group)] + text + document[match.end(group) :]
    file = tmp_path_factory.mktemp("fuzz") / "f.graphml"
    file.write_text(document)
    try:
        g = ic.read_graphml(file)
        start = g.graph.get("start")
        ic.from_networkx(g, start if isinstance(start, str) and start in g else next(iter(g), None))
    except InvalidArgumentError as e:
        assert "\n" not in str(e)


# ---- the command line ---------------------------------------------------------------------
FROM_FILE = '''
from gamegraph.interchange import from_networkx, read_json


class FromFile:
    """A game read from a node-link file (its path given as --arg path=...)."""

    def __init__(self, path):
        self.path = path
        self.name = "from a file"

    def build_graph(self):
        return from_networkx(read_json(self.path), "a")
'''


def test_the_command_line_gives_one_line_for_a_file_of_the_wrong_shape(tmp_path, capsys):
    # The command line reads graph files through a game of the user's own (SPEC file.py:Class)
    game = tmp_path / "from_file.py"
    game.write_text(textwrap.dedent(FROM_FILE))
    path = written(tmp_path, foreign("x"))
    argv = ["report", f"{game}:FromFile", "--arg", f"path={str(path)!r}"]
    status, stdout, stderr = run([*argv, "-o", tmp_path / "report.md"], capsys)
    assert status == 2 and stdout == "", stderr
    assert (
        stderr
        == f"gamegraph: error: {path} is not node-link JSON: its 'graph' is \"x\", not an object\n"
    )
    assert "Traceback" not in stderr
