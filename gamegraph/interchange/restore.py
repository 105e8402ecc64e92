"""The DiGraph a file of ours holds, read back from its records (:class:`_Restore`): states,
exact numbers and outcomes decoded without running code, every one bounded and checked,
and any damage refused in one line naming the file and the place.
"""

from __future__ import annotations

import json

import networkx as nx

from .._files import _shown
from ..errors import InvalidArgumentError
from ..rules import Option, Outcome
from .attributes import exact_number
from .files import _first_line
from .python_text import _UNREAD, _decode, _decode_all
from .records import _PLAIN, ENCODING, TYPES, _Records
from .state_types import _resolve_types

#: Characters a state (or any other value written as Python text) may have in a file:
#: real states take tens; a larger one would cost seconds and gigabytes to parse.
MAX_TEXT = 100_000
#: What decoding a damaged attribute raises (refused as damaged, naming the attribute).
_DAMAGED = (ValueError, TypeError, SyntaxError, ZeroDivisionError, RecursionError)


def _restore(records: _Records, source: str, types) -> nx.DiGraph:
    """The DiGraph a file of ours holds: states, exact numbers and structures read back."""
    return _Restore(records, source, types).digraph()


class _Restore:
    """One file's records read back into a DiGraph, step by step (:meth:`digraph`).

    ``source`` names the file in messages; ``types`` are the caller's NamedTuple classes.
    Decoded texts and numbers are kept for the whole file, which repeats them often.
    """

    def __init__(self, records: _Records, source: str, types):
        self.records = records
        self.source = source
        self.encoding, recorded = self._header()
        self.classes = _resolve_types(recorded, types)
        self.cache: dict = {}  # text -> a list or tuple of plain values
        self.fractions: dict = {}  # text -> Fraction
        self.converters = {
            "fraction": self.fraction,
            "python": self.decode,
            "outcomes": lambda value: value,
        }
        self.encoding["state"] = {"state": "python"}

    def _header(self) -> tuple[dict, dict]:
        """The file's :data:`ENCODING` and :data:`TYPES` attributes, checked."""
        try:
            encoding = json.loads(self.records.graph[ENCODING])
            recorded = json.loads(self.records.graph.get(TYPES, "{}"))
            if not isinstance(encoding, dict) or not isinstance(recorded, dict):
                raise ValueError
            for scope in ("graph", "node", "edge"):
                if not isinstance(encoding.setdefault(scope, {}), dict):
                    raise ValueError
        except (ValueError, TypeError, KeyError, RecursionError):  # KeyError: no graph data
            raise InvalidArgumentError(
                f"{self.source}: its {ENCODING} attribute is damaged"
            ) from None
        return encoding, recorded

    def decode(self, text):
        """A value written as Python text, at most :data:`MAX_TEXT` characters of it."""
        if type(text) is str and len(text) > MAX_TEXT:
            raise ValueError(f"{len(text):,} characters long; at most {MAX_TEXT:,} are read")
        cache = self.cache
        if text in cache:
            value = cache[text]
            return list(value) if type(value) is list else value
        value = _decode(text, self.classes)
        if type(value) in (list, tuple) and all(type(v) in _PLAIN for v in value):
            cache[text] = value
            return list(value) if type(value) is list else value
        return value

    def fraction(self, text):
        """An exact number written as text (read by :func:`exact_number`), once per text."""
        value = self.fractions.get(text)
        if value is None:
            value = self.fractions[text] = exact_number(text)
        return value

    def converters_of(self, scope: str) -> list:
        """How to read the attributes of ``scope``, as (key, function) pairs."""
        converters = self.converters
        convert = [
            (key, converters.get(how) if type(how) is str else None)  # a list cannot be looked up
            for key, how in self.encoding[scope].items()
        ]
        if any(function is None for _, function in convert):
            raise InvalidArgumentError(f"{self.source}: its {ENCODING} attribute is damaged")
        return convert

    def read(self, convert: list, data: dict, where) -> dict:
        """Convert ``data`` (the file's own dict) in place; ``where()`` names it."""
        for key, function in convert:
            if key in data:
                try:
                    data[key] = function(data[key])
                except _DAMAGED as e:
                    raise InvalidArgumentError(
                        f"{self.source}: {where()}: attribute {key!r} is damaged ({_first_line(e)})"
                    ) from None
        return data

    def digraph(self) -> nx.DiGraph:
        """The graph's attributes, then the nodes, the edges and the nodes' outcomes."""
        g = nx.DiGraph()
        graph = {k: v for k, v in self.records.graph.items() if k not in (ENCODING, TYPES)}
        g.graph.update(self.read(self.converters_of("graph"), graph, lambda: "the graph"))
        texts = self._state_texts()
        # States are decoded all at once (_decode_all), not as one node attribute each.
        self.encoding["node"].pop("state", None)
        order, states = self._add_nodes(g, texts)
        self._add_edges(g, states)
        self._read_outcomes(g, order)
        return g

    def _state_texts(self) -> list:
        """Each node's state text, taken out of its attributes; bounded, not yet read."""
        source = self.source
        texts = []
        for node, data in self.records.nodes:
            if type(node) not in (str, int) or type(data) is not dict:
                raise InvalidArgumentError(f"{source}: node {node!r} is not an id with attributes")
            if type(data.get("state")) is not str:
                raise InvalidArgumentError(
                    f"{source}: node {_shown(str(node))} has no 'state' text"
                )
            if len(data["state"]) > MAX_TEXT:
                raise InvalidArgumentError(
                    f"{source}: node {_shown(str(node))}'s state is {len(data['state']):,} "
                    f"characters long; at most {MAX_TEXT:,} are read"
                )
            texts.append(data.pop("state"))
        return texts

    def _add_nodes(self, g: nx.DiGraph, texts: list) -> tuple[list, dict]:
        """Add the nodes, keyed by their states; the states in node order, and by node id."""
        source = self.source
        read = self.converters_of("node")
        decode_state = self.converters_of("state")
        states = {}
        order = []
        nodes = []
        seen = set()
        decoded = _decode_all(texts, self.classes)
        for (node, data), state in zip(self.records.nodes, decoded, strict=True):
            if state is _UNREAD:
                state = self.read(
                    decode_state,
                    {"state": texts[len(order)]},
                    lambda node=node: f"node {_shown(str(node))}",
                )["state"]
            data = self.read(read, data, lambda node=node: f"node {_shown(str(node))}")
            if state is None:
                raise InvalidArgumentError(
                    f"{source}: node {_shown(str(node))}'s state is None, not a state"
                )
            try:
                known = state in seen
                seen.add(state)
            except TypeError:
                raise InvalidArgumentError(
                    f"{source}: node {_shown(str(node))}'s state {state!r} is not hashable"
                ) from None
            if known or node in states:
                raise InvalidArgumentError(f"{source}: two nodes hold the state {state!r}")
            states[node] = state
            order.append(state)
            nodes.append((state, data))
        g.add_nodes_from(nodes)
        return order, states

    def _add_edges(self, g: nx.DiGraph, states: dict) -> None:
        source = self.source
        read = self.converters_of("edge")
        edges = []
        for u, v, data in self.records.edges:
            if type(u) not in (str, int) or type(v) not in (str, int) or type(data) is not dict:
                raise InvalidArgumentError(f"{source}: edge {u!r} -> {v!r} is not two node ids")
            if u not in states or v not in states:
                raise InvalidArgumentError(
                    f"{source}: edge {_shown(str(u))} -> {_shown(str(v))} joins a node it does "
                    "not hold"
                )
            data = self.read(
                read, data, lambda u=u, v=v: f"edge {_shown(str(u))} -> {_shown(str(v))}"
            )
            edges.append((states[u], states[v], data))
        g.add_edges_from(edges)

    def _read_outcomes(self, g: nx.DiGraph, order: list) -> None:
        """Each node's ``outcomes`` as Outcomes and Options, targets numbered in ``order``."""
        source = self.source
        for state, data in g.nodes(data=True):
            if "outcomes" in data:
                try:
                    data["outcomes"] = _outcomes_in(data["outcomes"], order, self.fractions)
                except IndexError:
                    raise InvalidArgumentError(
                        f"{source}: node {state!r}: its outcomes name a node the file does not hold"
                    ) from None
                except (ValueError, TypeError, ZeroDivisionError, RecursionError) as e:
                    raise InvalidArgumentError(
                        f"{source}: node {state!r}: attribute 'outcomes' is damaged "
                        f"({_first_line(e)})"
                    ) from None


def _outcomes_in(value, order: list, fractions: dict) -> list:
    """``[[p, [[target number, move, passes], ...]], ...]`` as Outcomes and Options (an
    option may hold its reward fourth, as text).
    """
    if isinstance(value, str):
        value = json.loads(value)
    outcomes = []
    for p, options in value:
        read = []
        for option in options:
            t, m, passes, *reward = option
            if (
                type(t) is not int
                or t < 0
                or type(m) is not int
                or type(passes) is not bool
                or len(reward) > 1
                or reward
                and type(reward[0]) is not str
            ):
                raise ValueError(
                    f"option {_shown(repr(option))} is not [node, move, passes] or "
                    "[node, move, passes, reward text]"
                )
            if reward:
                read.append(Option(order[t], m, passes, exact_number(reward[0])))
            else:
                read.append(Option(order[t], m, passes))
        probability = fractions.get(p)
        if probability is None:
            probability = fractions[p] = exact_number(p)
        outcomes.append(Outcome(probability, tuple(read)))
    return outcomes
