"""GraphML files: :func:`write_graphml` and :func:`read_graphml`, a file of ours read back
exactly and another program's read as networkx reads it.
"""

from __future__ import annotations

from xml.etree import ElementTree
from xml.sax.saxutils import escape, quoteattr

import networkx as nx

from .._files import _shown, check_output, write_atomic
from ..errors import InvalidArgumentError
from .attributes import _flag, exact_number
from .files import _directed, _first_line, _read_bytes
from .records import ENCODING, _as_digraph, _encode, _Records
from .restore import _restore

_GRAPHML = "http://graphml.graphdrawing.org/xmlns"
_GRAPHML_HEAD = (
    "<?xml version='1.0' encoding='utf-8'?>\n"
    f'<graphml xmlns="{_GRAPHML}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    f'xsi:schemaLocation="{_GRAPHML} {_GRAPHML}/1.0/graphml.xsd">\n'
)
_GRAPHML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}
_FROM_GRAPHML = {
    "boolean": lambda text: _checked(_flag(text), text, "true or false"),
    "int": lambda text: _whole(text),
    "long": lambda text: _whole(text),
    "float": float,
    "double": float,
    "string": str,
}


def _whole(text: str) -> int:
    """GraphML ``int``/``long`` text as an int, bounded like :func:`exact_number`."""
    number = exact_number(text)
    if number.denominator != 1:
        raise ValueError(f"{_shown(text)} is not a whole number")
    return int(number)


def _checked(value, text: str, accepted: str):
    if value is None:
        raise ValueError(f"{_shown(repr(text))} is not {accepted}")
    return value


def _graphml_text(records: _Records) -> str:
    lines = [_GRAPHML_HEAD]
    ids = {}
    for scope in ("graph", "node", "edge"):
        for key, kind in records.kinds[scope].items():
            ids[scope, key] = name = f"d{len(ids)}"
            lines.append(
                f'  <key id="{name}" for="{scope}" attr.name={quoteattr(key)} '
                f'attr.type="{_GRAPHML_TYPES[kind]}"/>\n'
            )

    def data(scope, attributes):
        return "".join(
            f'<data key="{ids[scope, key]}">{_graphml_value(value)}</data>'
            for key, value in attributes.items()
        )

    lines.append('  <graph edgedefault="directed">\n')
    if records.graph:
        lines.append(f"    {data('graph', records.graph)}\n")
    lines.extend(
        f'    <node id="{node}">{data("node", attributes)}</node>\n'
        for node, attributes in records.nodes
    )
    lines.extend(
        f'    <edge source="{u}" target="{v}">{data("edge", attributes)}</edge>\n'
        for u, v, attributes in records.edges
    )
    lines.append("  </graph>\n</graphml>\n")
    return "".join(lines)


def _graphml_value(value) -> str:
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is str:
        return escape(value)
    return repr(value)


def _graphml_records(root, source: str) -> _Records | None:
    """The records of a GraphML file gamegraph wrote; None for another program's."""
    ns = f"{{{_GRAPHML}}}"
    keys = {}
    for key in root.iter(f"{ns}key"):
        keys[key.get("id")] = (key.get("attr.name"), _FROM_GRAPHML.get(key.get("attr.type")))
    if (ENCODING, _FROM_GRAPHML["string"]) not in keys.values():
        return None
    graphs = root.findall(f"{ns}graph")
    if len(graphs) != 1 or graphs[0].get("edgedefault") != "directed":
        raise InvalidArgumentError(f"{source}: a gamegraph file holds one directed graph")
    graph = graphs[0]

    def data(element, where):
        attributes = {}
        for item in element.findall(f"{ns}data"):
            name, convert = keys.get(item.get("key"), (None, None))
            if name is None or convert is None:
                raise InvalidArgumentError(
                    f"{source}: {_shown(where)} has data for the unknown key {item.get('key')!r}"
                )
            try:
                attributes[name] = convert(item.text or "")
            except ValueError as e:
                raise InvalidArgumentError(
                    f"{source}: {_shown(where)}: {_shown(name)} is damaged ({_first_line(e)})"
                ) from None
        return attributes

    nodes = [(n.get("id"), data(n, f"node {n.get('id')}")) for n in graph.iter(f"{ns}node")]
    edges = [
        (e.get("source"), e.get("target"), data(e, f"edge {e.get('source')}"))
        for e in graph.iter(f"{ns}edge")
    ]
    return _Records(data(graph, "the graph"), nodes, edges, None)


def write_graphml(graph_or_digraph, path) -> None:
    """Write a StateGraph, MarkovChain or DiGraph to a GraphML file, losslessly.

    A StateGraph or MarkovChain is exported with :func:`to_networkx` first. Node ids are
    ``"0"``, ``"1"``, ... in node order, each node's state is in its ``state``
    attribute, exact numbers are strings such as ``"1/36"`` (see
    :mod:`gamegraph.interchange`).
    The path is checked before any work and the file written all-or-nothing;
    ``networkx.read_graphml`` and other GraphML readers read it too.

    Examples
    --------
    >>> import os, tempfile
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import Jackpot
    >>> from gamegraph.interchange import from_networkx
    >>> path = os.path.join(tempfile.mkdtemp(), "jackpot.graphml")
    >>> write_graphml(build(Jackpot()), path)
    >>> g = read_graphml(path)
    >>> g.nodes[0]["outcomes"][0].probability, g.edges[0, 8]["probability"]
    (Fraction(1, 36), Fraction(7, 18))
    >>> solve(from_networkx(g), exact=True).start_value
    Fraction(14103327415, 176319369216)
    """
    check_output(path, (".graphml",))
    records = _encode(_as_digraph(graph_or_digraph), native_outcomes=False)
    write_atomic(path, _graphml_text(records))


def read_graphml(path, *, types=()) -> nx.DiGraph:
    """Read a GraphML file into a DiGraph: one :func:`write_graphml` wrote comes back as it
    was written (states, exact Fractions, outcomes); another program's as networkx reads it.

    Parameters
    ----------
    path : str or os.PathLike
    types : iterable of NamedTuple classes, optional
        The state types of your own game, to read its states back; gamegraph's own
        (Super Six's ``SixState``, Ur's ``UrState``) are found by themselves.

    Raises InvalidArgumentError, in one line, for a missing, damaged or foreign file.
    """
    text, source = _read_bytes(path)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as e:
        raise InvalidArgumentError(f"{source} is not an XML file: {_first_line(e)}") from None
    if root.tag != f"{{{_GRAPHML}}}graphml":
        raise InvalidArgumentError(f"{source} is XML but not GraphML (its root is {root.tag})")
    records = _graphml_records(root, source)
    if records is not None:
        return _restore(records, source, types)
    try:
        h = nx.parse_graphml(text, node_type=str)
    except Exception as e:  # noqa: BLE001 - networkx raises many types on odd GraphML
        raise InvalidArgumentError(
            f"{source} is not a GraphML file networkx can read: {_first_line(e)}"
        ) from None
    return _directed(h, source)
