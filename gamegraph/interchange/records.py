"""A DiGraph as a file holds it (:class:`_Records`): node ids ``"0"``, ``"1"``, ... and every
attribute a plain bool, int, float or str, with how each was written recorded beside them
(:data:`ENCODING`, :data:`TYPES`). GraphML and node-link JSON write the same records.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from fractions import Fraction

import networkx as nx

from ..errors import InvalidArgumentError
from ..graph import StateGraph
from ..policy import MarkovChain
from .attributes import exact_number
from .export import to_networkx
from .python_text import _code
from .stored import _NO_REWARD

#: Graph attributes of a file recording how the other attributes were written.
ENCODING, TYPES = "gamegraph_encoding", "gamegraph_types"


def _as_digraph(graph_or_digraph) -> nx.DiGraph:
    if isinstance(graph_or_digraph, StateGraph | MarkovChain):
        return to_networkx(graph_or_digraph)
    if isinstance(graph_or_digraph, nx.DiGraph) and not graph_or_digraph.is_multigraph():
        return graph_or_digraph
    raise InvalidArgumentError(
        "write a StateGraph, a MarkovChain or a networkx DiGraph, not "
        f"{type(graph_or_digraph).__name__}"
    )


#: Characters XML 1.0 cannot hold, or changes on reading (a carriage return).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0d\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_PLAIN = (bool, int, float, str)


def _encoding(values: list) -> str | None:
    """How a key's values are written: None (as they are), 'fraction' or 'python'."""
    kinds = {type(v) for v in values}
    if len(kinds) == 1 and kinds <= set(_PLAIN):
        if kinds == {str} and any(_NOT_XML.search(v) for v in values):
            return "python"
        return None
    if kinds <= {Fraction, int}:
        return "fraction"
    return "python"


class _Records:
    """A DiGraph as a file holds it.

    Node ids are "0", "1", ...; every attribute is a plain bool, int, float or str
    (``outcomes`` a JSON structure or its text).
    """

    def __init__(self, graph, nodes, edges, kinds):
        self.graph = graph  # {key: value}
        self.nodes = nodes  # [(id, {key: value})]
        self.edges = edges  # [(source id, target id, {key: value})]
        self.kinds = kinds  # {scope: {key: python type}} of the plain values


def _encode(g: nx.DiGraph, native_outcomes: bool) -> _Records:
    ids = {node: str(i) for i, node in enumerate(g)}
    types: dict = {}
    encoding = {"graph": {}, "node": {"state": "python"}, "edge": {}}
    kinds = {"graph": {}, "node": {"state": str}, "edge": {}}
    scopes = {
        "graph": [g.graph],
        "node": [data for _, data in g.nodes(data=True)],
        "edge": [data for _, _, data in g.edges(data=True)],
    }
    for scope, items in scopes.items():
        keys = defaultdict(list)
        for data in items:
            for key, value in data.items():
                if not isinstance(key, str):
                    raise InvalidArgumentError(
                        f"{scope} attribute names must be strings, not {key!r}"
                    )
                keys[key].append(value)
        for key, values in keys.items():
            if scope == "node" and key == "state":
                raise InvalidArgumentError(
                    "nodes must not carry an attribute 'state': the file keeps each node's "
                    "state there"
                )
            if scope == "graph" and key in (ENCODING, TYPES):
                continue
            how = "outcomes" if scope == "node" and key == "outcomes" else _encoding(values)
            if how is not None:
                encoding[scope][key] = how
            kinds[scope][key] = type(values[0]) if how is None else str
    cache: dict = {}

    def code(value):
        if type(value) is list and all(type(v) is int for v in value):
            key = tuple(value)
            text = cache.get(key)
            if text is None:
                text = cache[key] = _code(value, types)
            return text
        return _code(value, types)

    converters = {
        "fraction": str,
        "python": code,
        "outcomes": lambda value: _outcomes_out(value, ids, native_outcomes),
    }
    if native_outcomes and "outcomes" in encoding["node"]:
        kinds["node"]["outcomes"] = list

    def writer(scope):
        convert = [(key, converters[how]) for key, how in encoding[scope].items()]

        def write(data):
            written = dict(data)
            for key, function in convert:
                if key in written:
                    written[key] = function(written[key])
            return written

        return write

    graph = {k: v for k, v in g.graph.items() if k not in (ENCODING, TYPES)}
    graph = writer("graph")(graph)
    write = writer("node")
    nodes = [(ids[node], write({"state": node, **data})) for node, data in g.nodes(data=True)]
    write = writer("edge")
    edges = [(ids[u], ids[v], write(data)) for u, v, data in g.edges(data=True)]
    graph[ENCODING] = json.dumps(encoding, sort_keys=True)
    graph[TYPES] = json.dumps(types, sort_keys=True)
    kinds["graph"][ENCODING] = kinds["graph"][TYPES] = str
    return _Records(graph, nodes, edges, kinds)


def _outcomes_out(outcomes, ids, native):
    """Outcomes as JSON: ``[[p, [[target id, move, passes], ...]], ...]``, an option with a
    reward other than 0 holding it fourth, as text (``"-1/2"``).
    """
    try:
        out = [
            [str(Fraction(p)), [_option_out(option, ids) for option in options]]
            for p, options in outcomes
        ]
    except (KeyError, TypeError, ValueError):
        raise InvalidArgumentError(
            f"cannot write the outcomes {str(outcomes)[:60]}...: give a list of (probability, "
            "[(target node, move, passes[, reward]), ...]) as to_networkx makes"
        ) from None
    return out if native else json.dumps(out, separators=(",", ":"))


def _option_out(option, ids) -> list:
    if len(option) == 4:
        t, m, passes, reward = option
        if reward is not _NO_REWARD and (reward := exact_number(reward)):
            return [int(ids[t]), int(m), bool(passes), str(reward)]
    else:
        t, m, passes = option
    return [int(ids[t]), int(m), bool(passes)]
