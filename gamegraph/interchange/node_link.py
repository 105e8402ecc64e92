"""Node-link JSON files (``networkx.node_link_data``'s layout): :func:`write_json` and
:func:`read_json`, a file of ours read back exactly and another program's read as networkx
reads it.
"""

from __future__ import annotations

import inspect
import json

import networkx as nx

from .._files import _shown, check_output, write_atomic
from ..errors import InvalidArgumentError
from .files import _directed, _first_line, _read_bytes
from .records import ENCODING, _as_digraph, _encode, _Records
from .restore import _restore


def _node_link_keyword() -> str:
    """The keyword naming the edges' key: ``edges=`` since networkx 3.4, ``link=`` before."""
    return "edges" if "edges" in inspect.signature(nx.node_link_graph).parameters else "link"


def write_json(graph_or_digraph, path) -> None:
    """Write a StateGraph, MarkovChain or DiGraph as node-link JSON, losslessly.

    The layout is that of ``networkx.node_link_data(g, edges="edges")`` (networkx 3.4 and
    later; ``link="edges"`` before), so ``networkx.node_link_graph`` reads it too; the
    attributes are written as for :func:`write_graphml`, except that ``outcomes`` is
    plain JSON rather than a string. Read it back with :func:`read_json`.

    Examples
    --------
    >>> import os, tempfile
    >>> from gamegraph.games.pig import Pig
    >>> from gamegraph import build
    >>> from gamegraph.interchange import from_networkx
    >>> path = os.path.join(tempfile.mkdtemp(), "pig.json")
    >>> graph = build(Pig(10))
    >>> write_json(graph, path)
    >>> again = from_networkx(read_json(path))
    >>> again.states == list(graph.states), again.states[again.start]
    (True, ('roll', 0, 0, 0))
    """
    check_output(path, (".json",))
    records = _encode(_as_digraph(graph_or_digraph), native_outcomes=True)
    data = {
        "directed": True,
        "multigraph": False,
        "graph": records.graph,
        "nodes": [{**attributes, "id": node} for node, attributes in records.nodes],
        "edges": [{**attributes, "source": u, "target": v} for u, v, attributes in records.edges],
    }
    write_atomic(path, json.dumps(data, separators=(",", ":")) + "\n")


def read_json(path, *, types=()) -> nx.DiGraph:
    """Read a node-link JSON file into a DiGraph (see :func:`read_graphml`).

    Edges may be under ``"edges"`` (networkx 3.4 and later) or ``"links"`` (earlier).
    Raises InvalidArgumentError, in one line, for a missing, damaged or foreign file.
    """
    text, source = _read_bytes(path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError is a ValueError
        raise InvalidArgumentError(f"{source} is not JSON: {_first_line(e)}") from None
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        raise InvalidArgumentError(
            f"{source} is not node-link JSON: it needs an object with 'nodes' and 'edges'"
        )
    graph = data.get("graph", {})
    if not isinstance(graph, dict):  # networkx would keep it as g.graph, which is a dict
        raise InvalidArgumentError(
            f"{source} is not node-link JSON: its 'graph' is {_shown(json.dumps(graph))}, "
            "not an object"
        )
    key = "links" if "links" in data and "edges" not in data else "edges"
    edges = data.setdefault(key, [])
    if ENCODING in graph and isinstance(edges, list):
        try:
            nodes = [(n.pop("id"), n) for n in data["nodes"]]
            links = [(e.pop("source"), e.pop("target"), e) for e in edges]
        except (KeyError, TypeError, AttributeError):
            raise InvalidArgumentError(
                f"{source}: every node needs an 'id' and every edge a 'source' and 'target'"
            ) from None
        if not data.get("directed", True) or data.get("multigraph", False):
            raise InvalidArgumentError(f"{source}: a gamegraph file holds one directed graph")
        return _restore(_Records(graph, nodes, links, None), source, types)
    try:
        h = nx.node_link_graph(data, **{_node_link_keyword(): key})
    except Exception as e:  # noqa: BLE001 - networkx raises KeyError, TypeError, ...
        raise InvalidArgumentError(
            f"{source} is not node-link JSON networkx can read: {_first_line(e)}"
        ) from None
    return _directed(h, source)
