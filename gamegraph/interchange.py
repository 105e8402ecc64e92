"""networkx, GraphML and node-link JSON as interchange formats, both ways and lossless.

:func:`to_networkx` turns a :class:`~gamegraph.StateGraph` (every legal move) or a
:class:`~gamegraph.MarkovChain` (the moves a policy takes, with their probabilities)
into a ``networkx.DiGraph`` whose nodes are the game's own state values (for Jackpot,
the board index). :func:`from_networkx` goes the other way.

What a StateGraph export holds
------------------------------
A DiGraph has one edge per pair of nodes, but a game can reach the same position through
several outcomes of one throw (in Ur a throw of 0 and a throw with no legal move both
pass the turn to the same position), so the structure the solver needs is kept on the
nodes, and the edges are a summary for people and networkx algorithms:

- graph: ``name``, ``start`` (a state), ``objective`` (``"win"``, ``"score"`` or
  ``"margin"``, see :mod:`gamegraph.values`) and ``gamegraph`` (the format number, 1),
  which marks the export.
- node: ``label``; ``layer`` when the game has layers; ``terminal``; for a terminal
  state its exact ``value`` (Fraction) for the player to move there; for any other state
  ``outcomes``, the list :meth:`Rules.outcomes <gamegraph.rules.Rules.outcomes>` would
  return: :class:`~gamegraph.rules.Outcome` (exact probability, options in order), each
  option an :class:`~gamegraph.rules.Option` (target state, move, passes, and its exact
  ``reward`` where it is not 0).
- edge ``s -> t``: ``probability``, the chance that a throw offers a move from s to t
  (offers overlap, so these do not sum to one), ``moves`` (the move numbers leading
  there, in increasing order) and ``passes`` (whether one of them passes the turn).

:func:`from_networkx` rebuilds such a graph exactly: the same states numbered in node
order, the same outcomes and options in the same order, the same exact probabilities,
terminal values, labels and layers, positions the start cannot reach included. The
``outcomes`` attribute is what counts; edges are not read, and an edge attribute other
than the three written is refused rather than left unread. A DiGraph without
``outcomes`` is read as a plain probability graph (see :func:`from_networkx`), which is
how a MarkovChain export reads back (its edges carry the ``reward`` the policy collects
along them, where it is not 0).

Rewards and objectives
----------------------
A game's objective and its options' rewards travel both ways, exactly. A plain DiGraph
declares its objective in ``g.graph["objective"]`` (``"win"`` by default) and a reward on
an edge (``reward=5``, ``"1/3"``); a reward other than 0 in a ``"win"`` graph, a
terminal ``value`` outside [0, 1] there, and any edge attribute :func:`from_networkx` does
not read are refused with the edge named (``ignore=`` leaves attributes of your own
unread on purpose).

Files
-----
:func:`write_graphml` / :func:`read_graphml` and :func:`write_json` / :func:`read_json`
(``networkx.node_link_data``'s layout) store any DiGraph. Node ids in the file are the node
numbers ``"0"``, ``"1"``, ... in node order; the state is the node attribute ``state``,
written as Python text (``"('roll', 3, 0, 0)"``, ``"SixState(b=4, c=1, o=1, phase=0)"``)
and read back without running code. Exact numbers are strings (``"1/36"``); lists,
tuples, sets, dicts and ``None`` are Python text; ``outcomes`` is JSON with targets as
node numbers, ``[["1/36", [[5, 2, false]]], ...]``, an option with a reward holding it
fourth (``[5, 2, false, "-1/2"]``), a string in GraphML. The graph
attribute ``gamegraph_encoding`` records how each attribute was written, and
``gamegraph_types`` where each NamedTuple state type comes from: gamegraph's own
(:data:`OWN_STATE_TYPES`) are found by name in a fixed table, others must be passed as
``types=``. A file is data: no path or name in it is imported or called. A GraphML or
node-link file written by another program reads as networkx reads it (string node ids);
:func:`from_networkx` then reads its attributes strictly (``"false"`` is false, ``2.7``
is not a move) and bounds every number before any arithmetic (:func:`exact_number`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import math
import os
import re
from collections import defaultdict
from fractions import Fraction
from math import lcm
from xml.etree import ElementTree
from xml.sax.saxutils import escape, quoteattr

import networkx as nx
import numpy as np

from ._files import _shown, check_output, write_atomic
from .build import build
from .csr import pointers
from .errors import InvalidArgumentError
from .graph import StateGraph, layer_problem, terminal_arrays
from .policy import MarkovChain
from .rules import Option, Outcome, Rules
from .values import check_objective

__all__ = [
    "from_networkx",
    "read_graphml",
    "read_json",
    "to_networkx",
    "write_graphml",
    "write_json",
]

#: The format number of a StateGraph export (graph attribute ``gamegraph``).
FORMAT = 1
#: Graph attributes of a file recording how the other attributes were written.
ENCODING, TYPES = "gamegraph_encoding", "gamegraph_types"


# ---------------------------------------------------------------------------
# StateGraph / MarkovChain -> DiGraph
# ---------------------------------------------------------------------------
def to_networkx(graph_or_chain) -> nx.DiGraph:
    """Export a StateGraph or MarkovChain as a networkx DiGraph.

    The graph carries ``name``, ``start`` and ``objective``. Nodes carry ``label``,
    ``layer`` (when the game has layers), ``terminal`` and, for terminal states,
    ``value``. For a StateGraph, nodes also carry ``outcomes`` (the exact outcome
    structure with the options' rewards, see the module docstring) and each edge carries
    ``moves`` (the move numbers leading there), ``passes`` and ``probability``, the chance
    that a throw offers it; for a MarkovChain, each edge carries ``probability`` (exact
    Fraction) that the policy takes it, ``move``, ``passes`` and, where it is not 0,
    ``reward`` (the exact mean reward collected along it), and nodes carry ``stuck``, the
    chance of having no option.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> g = to_networkx(build(Jackpot()))
    >>> g.number_of_nodes(), g.nodes[0]["label"], g.edges[0, 8]["probability"]
    (512, 'START', Fraction(7, 18))
    >>> roll = g.nodes[0]["outcomes"][0]  # a roll of (1, 1): flip cell 1 or cell 2
    >>> roll.probability, roll.options[1]
    (Fraction(1, 36), Option(target=2, move=2, passes=False))
    """
    if isinstance(graph_or_chain, MarkovChain):
        return _chain_to_networkx(graph_or_chain)
    if not isinstance(graph_or_chain, StateGraph):
        raise InvalidArgumentError(
            f"to_networkx takes a StateGraph or MarkovChain, not {type(graph_or_chain).__name__}"
        )
    graph = graph_or_chain
    states = list(graph.states)
    g = _nodes(graph, states)
    g.graph["gamegraph"] = FORMAT
    targets = graph.option_target.tolist()
    move_numbers = graph.option_move.tolist()
    passing = graph.option_passes.tolist()
    option_ptr = graph.option_ptr.tolist()
    weights = graph.outcome_weight.tolist()
    outcome_ptr = graph.outcome_ptr.tolist()
    fractions: dict = {}

    def fraction(weight):
        p = fractions.get(weight)
        if p is None:
            p = fractions[weight] = Fraction(weight, graph.denominator)
        return p

    rewards = graph.reward_exact

    def option(j):
        if j in rewards:
            return Option(states[targets[j]], move_numbers[j], passing[j], rewards[j])
        return Option(states[targets[j]], move_numbers[j], passing[j])

    if not rewards:  # the common case, without a call per option

        def option(j):
            return Option(states[targets[j]], move_numbers[j], passing[j])

    for s in np.flatnonzero(~graph.terminal).tolist():
        g.nodes[states[s]]["outcomes"] = [
            Outcome(
                fraction(weights[k]),
                tuple(map(option, range(option_ptr[k], option_ptr[k + 1]))),
            )
            for k in range(outcome_ptr[s], outcome_ptr[s + 1])
        ]
    g.add_edges_from(_offers(graph, states, fraction))
    return g


def _offers(graph: StateGraph, states: list, fraction):
    """One edge per (state, target) pair: the chance a throw offers it, moves, passes."""
    n = graph.n_states
    outcome = graph.option_outcome
    pair = graph.outcome_state[outcome] * n + graph.option_target
    # An outcome offering one target through several options counts once.
    _, first = np.unique(outcome * n + graph.option_target, return_index=True)
    pairs, inverse = np.unique(pair[first], return_inverse=True)
    offered = np.zeros(len(pairs), dtype=np.int64)
    np.add.at(offered, inverse.reshape(-1), graph.outcome_weight[outcome[first]])
    passes = np.zeros(len(pairs), dtype=bool)
    where = np.searchsorted(pairs, pair)
    np.logical_or.at(passes, where, graph.option_passes)
    # The distinct moves to each pair, in increasing order.
    moves = np.unique(np.stack([where, graph.option_move.astype(np.int64)]), axis=1)
    starts = np.searchsorted(moves[0], np.arange(len(pairs) + 1)).tolist()
    move_list = moves[1].tolist()
    for e, (p, weight, passing) in enumerate(
        zip(pairs.tolist(), offered.tolist(), passes.tolist(), strict=True)
    ):
        yield (
            states[p // n],
            states[p % n],
            {
                "probability": fraction(weight),
                "moves": move_list[starts[e] : starts[e + 1]],
                "passes": passing,
            },
        )


def _nodes(graph: StateGraph, states: list) -> nx.DiGraph:
    g = nx.DiGraph(name=graph.rules.name)
    layers = graph.layers
    label = graph.rules.label
    for i, state in enumerate(states):
        attributes = {"label": label(state)}
        if layers is not None:
            attributes["layer"] = int(layers[i])
        attributes["terminal"] = bool(graph.terminal[i])
        if graph.terminal[i]:
            attributes["value"] = graph.terminal_exact[i]
        g.add_node(state, **attributes)
    g.graph["start"] = states[graph.start]
    g.graph["objective"] = graph.objective
    return g


def _chain_to_networkx(chain: MarkovChain) -> nx.DiGraph:
    """One edge per (state, target): the chance the policy takes it, its move and passes,
    and the exact mean reward collected along it where that is not 0.

    Outcomes whose chosen options reach one target are one edge (their probabilities
    add, their rewards are averaged by probability, which keeps every expectation).
    """
    graph = chain.graph
    states = list(graph.states)
    g = _nodes(graph, states)
    for i in range(graph.n_states):
        g.nodes[states[i]]["stuck"] = Fraction(int(chain.stuck_weight[i]), graph.denominator)
    edges: dict = {}  # (source, target) number: [weight, move, passes]
    sources, targets = chain.edge_source.tolist(), chain.edge_target.tolist()
    for e, (u, v) in enumerate(zip(sources, targets, strict=True)):
        passes = bool(chain.edge_passes[e])
        edge = edges.setdefault((u, v), [0, int(chain.edge_move[e]), passes])
        if edge[2] != passes:
            raise InvalidArgumentError(
                f"cannot export this policy's chain as a DiGraph: from {graph.label(u)!r} it "
                f"reaches {graph.label(v)!r} both keeping and passing the turn, and a DiGraph "
                "holds one edge per pair; export the StateGraph instead"
            )
        edge[0] += int(chain.edge_weight[e])
    paid = _chain_rewards(chain)
    for (u, v), (weight, move, passes) in edges.items():
        data = {"probability": Fraction(weight, graph.denominator), "move": move, "passes": passes}
        if (u, v) in paid:
            data["reward"] = paid[u, v] / weight
        g.add_edge(states[u], states[v], **data)
    g.graph["policy"] = chain.policy.name
    return g


def _chain_rewards(chain: MarkovChain) -> dict:
    """(source, target) number: the sum of weight times exact reward of the options the
    policy takes there, for the pairs where it is not 0.
    """
    graph = chain.graph
    if not graph.reward_exact:
        return {}
    taken = chain.policy.chosen_option(graph)
    paying = np.flatnonzero(np.isin(taken, np.fromiter(graph.reward_exact, dtype=np.int64)))
    totals: dict = defaultdict(Fraction)
    for k in paying.tolist():
        j = int(taken[k])
        pair = (int(graph.outcome_state[k]), int(graph.option_target[j]))
        totals[pair] += int(graph.outcome_weight[k]) * graph.reward_exact[j]
    return {pair: total for pair, total in totals.items() if total}


# ---------------------------------------------------------------------------
# DiGraph -> StateGraph
# ---------------------------------------------------------------------------
#: The edge attributes :func:`from_networkx` reads on a plain DiGraph.
EDGE_ATTRIBUTES = ("probability", "outcome", "move", "passes", "reward")
#: The edge attributes of a StateGraph export (:func:`to_networkx`): a summary, not read.
SUMMARY_ATTRIBUTES = ("probability", "moves", "passes")


class NetworkxRules(Rules):
    """Rules read off a plain DiGraph (see :func:`from_networkx`).

    ``objective`` is the graph's (``g.graph["objective"]``, ``"win"`` by default);
    ``ignore`` the edge attributes left unread on purpose.
    """

    def __init__(self, g: nx.DiGraph, start, name: str, objective="win", ignore=frozenset()):
        self.g = g
        self._start = start
        self.name = name
        self.objective = objective
        self.ignore = ignore

    def start(self):
        return self._start

    def terminal_value(self, node):
        if self.g.out_degree(node) == 0:
            return _value(self.g.nodes[node].get("value", 0), node, self.objective)
        return None

    def outcomes(self, node):
        groups = defaultdict(list)
        probability = {}
        unread = ""  # the first edge attribute that is not read, reported below
        for _, target, data in self.g.out_edges(node, data=True):
            where = f"edge {node!r} -> {target!r}"
            if "probability" not in data:
                raise InvalidArgumentError(f"{where} has no 'probability'")
            if not unread:
                unread = _unread(data, EDGE_ATTRIBUTES, self.ignore, where)
            key = data.get("outcome", ("edge", target))
            p = _exact(data["probability"], (node, target))
            if probability.setdefault(key, p) != p:
                raise InvalidArgumentError(
                    f"edges of outcome {key!r} at {node!r} disagree on its probability"
                )
            passes = _flag_attribute(data.get("passes", False), where, "passes")
            if passes and self.objective == "score":
                raise InvalidArgumentError(
                    f'{where} passes the turn, but the graph\'s objective is "score" (one '
                    'player); set g.graph["objective"] = "margin" for two players who '
                    "trade points"
                )
            option = Option(target, _move_attribute(data.get("move", -1), where), passes)
            if "reward" in data:
                reward = _reward(data["reward"], where, self.objective)
                if reward:
                    option = option._replace(reward=reward)
            groups[key].append(option)
        result = [Outcome(probability[key], tuple(options)) for key, options in groups.items()]
        rest = 1 - sum(probability.values())
        if rest < 0:
            raise InvalidArgumentError(f"probabilities out of {node!r} sum to more than 1")
        if unread:
            raise InvalidArgumentError(unread)
        if rest > 0:
            result.append(Outcome(rest, ()))
        return result

    def label(self, node):
        return str(self.g.nodes[node].get("label", node))

    def move_label(self, move: int) -> str:
        """An edge without a ``move`` attribute (-1) is followed, not chosen: ``'go'``."""
        return "go" if move == -1 else str(move)

    def layer(self, node):
        return self.g.nodes[node].get("layer")


class StoredRules(Rules):
    """The rules a StateGraph export holds (see :func:`from_networkx`).

    Every node is a root, so :func:`gamegraph.build` over them gives the same states and
    moves too.
    """

    def __init__(self, name, start, states, outcomes, values, labels, layers, objective="win"):
        self.name = name
        self.objective = objective
        self._start = start
        self._states = states
        self._outcomes = outcomes
        self._values = values
        self._labels = labels
        self._layers = layers

    def start(self):
        return self._start

    def roots(self):
        return tuple(self._states)

    def terminal_value(self, state):
        return self._values.get(state)

    def outcomes(self, state):
        return self._outcomes[state]

    def label(self, state):
        return self._labels[state]

    def layer(self, state):
        return None if self._layers is None else self._layers[state]


#: Characters a state (or any other value written as Python text) may have in a file:
#: real states take tens; a larger one would cost seconds and gigabytes to parse.
MAX_TEXT = 100_000
#: Digits a number read as text may have in each part (numerator, denominator, the
#: digits of a decimal, its exponent's size): Python's own limit for int <-> str. Text past
#: it is refused before any arithmetic, so "1e-999999999" costs nothing.
MAX_DIGITS = 4300
_NUMBER_TEXT = re.compile(r"[+-]?(?:(\d+)/(\d+)|(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)")


def exact_number(value) -> Fraction:
    """``value`` (int, Fraction, float or text such as ``"1/36"``, ``"0.25"``, ``"1e-3"``)
    as an exact Fraction; a float is read as the decimal it prints as.

    Raises ValueError, saying why, for anything else: bools, text that is not a plain
    number (no underscores, no other scripts' digits), a zero denominator, and numbers
    with more than :data:`MAX_DIGITS` digits in a part.

    >>> exact_number("1/36"), exact_number(" 0.25 "), exact_number(0.1), exact_number(3)
    (Fraction(1, 36), Fraction(1, 4), Fraction(1, 10), Fraction(3, 1))
    >>> exact_number("1e-999999999")
    Traceback (most recent call last):
    ...
    ValueError: '1e-999999999' has an exponent beyond ±4300
    """
    kind = type(value)
    if kind is Fraction:
        return value
    if kind is bool or isinstance(value, np.bool_):
        raise ValueError(f"{value!r} is a bool, not a number")
    if kind is int or isinstance(value, np.integer):
        return Fraction(int(value))
    if isinstance(value, float | np.floating):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a finite number")
        return Fraction(repr(float(value)))
    if isinstance(value, Fraction):
        return Fraction(value.numerator, value.denominator)
    if not isinstance(value, str):
        raise ValueError(f"{_shown(repr(value))} is not a number")
    text = value.strip()
    match = _NUMBER_TEXT.fullmatch(text)
    shown = _shown(repr(text))
    if match is None or not any(match.group(k) for k in (1, 3, 4)):
        raise ValueError(f"{shown} is not a number (write it as 3, 1/36, 0.25 or 1e-3)")
    numerator, denominator, whole, decimals, exponent = match.groups()
    if (
        max(len(numerator or ""), len(denominator or ""), len(whole or "") + len(decimals or ""))
        > MAX_DIGITS
    ):
        raise ValueError(f"{shown} has more than {MAX_DIGITS} digits")
    if exponent is not None and (len(exponent.lstrip("+-")) > 5 or abs(int(exponent)) > MAX_DIGITS):
        raise ValueError(f"{shown} has an exponent beyond ±{MAX_DIGITS}")
    if denominator is not None and int(denominator) == 0:
        raise ValueError(f"{shown} divides by zero")
    return Fraction(text)


def _move_attribute(value, where: str) -> int:
    """An edge's ``move``: an int, a float or text holding a whole number, in 32 bits."""
    move = None
    if type(value) is int or isinstance(value, np.integer) and not isinstance(value, np.bool_):
        move = int(value)
    elif isinstance(value, float | np.floating) and float(value).is_integer():
        move = int(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,10}\s*", value):
        move = int(value)
    if move is None:
        raise InvalidArgumentError(f"{where}: move {_shown(repr(value))} is not a whole number")
    return _in_32_bits(move, where)


def _in_32_bits(move: int, where: str) -> int:
    """``move`` as an int, if the int32 the graph stores it in can hold it."""
    if not -(2**31) <= move < 2**31:
        raise InvalidArgumentError(f"{where}: move {move} does not fit in 32 bits")
    return int(move)


#: How booleans are written by tools that store them as text or numbers (GraphML's
#: ``attr.type="string"``, spreadsheets): anything else is refused, not read as true.
_FLAG_TEXT = {"true": True, "false": False, "1": True, "0": False}


def _flag(value):
    """``value`` as a bool, or None when it is not a recognised way of writing one."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if type(value) is int or isinstance(value, np.integer):
        return {0: False, 1: True}.get(int(value))
    if isinstance(value, str):
        return _FLAG_TEXT.get(value.strip().lower())
    return None


def _flag_attribute(value, where: str, name: str) -> bool:
    flag = _flag(value)
    if flag is None:
        raise InvalidArgumentError(
            f"{where}: {name} is {_shown(repr(value))}; accepted: true or false (or 1, 0)"
        )
    return flag


def _unread(data: dict, accepted: tuple, ignore, where: str) -> str:
    """A message naming the first attribute of ``data`` that is neither read (``accepted``)
    nor left unread on purpose (``ignore``); "" when there is none.
    """
    for key in data:
        if key not in accepted and key not in ignore:
            shown = _shown(repr(key))
            return (
                f"{where} has the attribute {shown}, which from_networkx does not read; "
                f"accepted: {', '.join(accepted)}; pass ignore=[{shown}] to leave it unread "
                "on purpose"
            )
    return ""


_WIN_HINT = (
    'set g.graph["objective"] to "score" (one player) or "margin" (two players, zero-sum) '
    "for values that are scores"
)


def _reward(value, where: str, objective: str) -> Fraction:
    """An edge's or option's ``reward`` as an exact number (read as :func:`exact_number`
    reads it); a reward other than 0 is refused in a ``"win"`` game.
    """
    try:
        reward = exact_number(value)
    except ValueError as e:
        raise InvalidArgumentError(f"{where}: its reward {e}") from None
    if reward and objective == "win":
        raise InvalidArgumentError(
            f'{where} has reward {reward}, but the objective is "win" (values are chances to '
            f"win, and moves pay nothing); {_WIN_HINT}"
        )
    return reward


def _exact(p, edge) -> Fraction:
    try:
        p = exact_number(p)
    except ValueError as e:
        raise InvalidArgumentError(f"edge {edge}: its probability {e}") from None
    if not 0 < p <= 1:
        raise InvalidArgumentError(f"edge {edge} has probability {p}, outside (0, 1]")
    return p


def from_networkx(g: nx.DiGraph, start=None, *, name: str | None = None, ignore=()) -> StateGraph:
    """Build a StateGraph from a DiGraph: a :func:`to_networkx` export, or any DiGraph
    with probability-weighted edges.

    A DiGraph whose nodes carry ``outcomes`` or whose graph attributes hold ``gamegraph``
    (a :func:`to_networkx` export of a StateGraph, or one read back from a file) is
    rebuilt exactly: states numbered in node order, outcomes and options in their order
    (with their rewards), exact probabilities, terminal values (``value``, default 0, on
    nodes with ``terminal`` true or without ``outcomes``), labels, layers and objective as
    stored; edges are a summary and not read, so an edge attribute other than
    ``probability``, ``moves`` and ``passes`` is refused.

    Any other DiGraph is read from its edges. Every edge needs ``probability`` (int,
    Fraction, string such as ``"1/36"``, or float, read as the decimal it prints as).
    Edges sharing an ``outcome`` key at a node are alternatives of one throw, between
    which the player chooses; other edges are separate outcomes. Probability missing from
    a node's total is the chance of being stuck (a loss in a ``"win"`` game; worth 0 more
    in the others). ``passes=True`` hands the turn over; ``move`` names the move;
    ``reward`` (a number read as ``probability`` is) is what the mover gains by it. A node
    without out-edges is terminal, worth its ``value`` attribute (default 0) to the player
    to move there. The graph holds the nodes reachable from the start.

    What the values mean is ``g.graph["objective"]``: ``"win"`` (the default; values in
    [0, 1], no rewards), ``"score"`` (one player; rewards and values any finite number,
    no edge passes) or ``"margin"`` (two players, zero-sum), see :mod:`gamegraph.values`.

    Parameters
    ----------
    g : networkx.DiGraph
    start : hashable, optional
        The start node; ``g.graph["start"]`` by default.
    name : str, optional
        The game's name; ``g.graph["name"]`` by default.
    ignore : iterable of str, optional
        Edge attributes of your own (``"weight"``, ``"color"``) to leave unread. Any other
        edge attribute that is not read is refused, naming it and the edge, so that a
        misspelt ``"reward"`` is never solved as if it were not there.

    Raises
    ------
    InvalidArgumentError
        For a graph that breaks these rules, naming the node or edge: a probability or
        value that is not a number or out of range, a reward in a ``"win"`` graph, an
        unknown objective, an edge attribute that is not read.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.DiGraph()
    >>> g.add_edge("play", "won", probability="1/4")
    >>> g.add_edge("play", "play", probability="3/4", passes=True)
    >>> g.nodes["won"]["value"] = 1
    >>> from gamegraph import solve
    >>> solve(from_networkx(g, "play"), exact=True).start_value
    Fraction(4, 7)

    A reward on an edge, in a score game: hold for 2, or roll a die that adds 3 (1/2)
    or ends the game (1/2); rolling is worth (3 + 2) / 2 + 0 / 2 = 5/2 at best.

    >>> g = nx.DiGraph(objective="score")
    >>> g.add_edge("turn", "end", probability=1, outcome="choice", reward=2)
    >>> g.add_edge("turn", "roll", probability=1, outcome="choice")
    >>> g.add_edge("roll", "rolled", probability="1/2", reward=3)
    >>> g.add_edge("rolled", "end", probability=1, reward=2)
    >>> g.add_edge("roll", "end", probability="1/2")
    >>> solve(from_networkx(g, "turn"), exact=True).start_value
    Fraction(5, 2)

    A built game goes through networkx and back unchanged:

    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot())
    >>> again = from_networkx(to_networkx(graph))
    >>> bool((again.option_target == graph.option_target).all()), again.denominator
    (True, 36)
    """
    if not isinstance(g, nx.DiGraph) or g.is_multigraph():
        raise InvalidArgumentError(
            f"from_networkx takes a networkx DiGraph, not {type(g).__name__}"
        )
    if start is None:
        start = g.graph.get("start")
    try:
        present = start in g
    except TypeError:  # an unhashable start
        present = False
    if not present:
        raise InvalidArgumentError(f"start node {start!r} is not in the graph")
    name = name or g.graph.get("name") or "networkx graph"
    if isinstance(ignore, str) or not all(isinstance(key, str) for key in _iterable(ignore)):
        raise InvalidArgumentError(
            f"ignore must be a list of edge attribute names, not {_shown(repr(ignore))}"
        )
    ignore = frozenset(ignore)
    objective = check_objective(g.graph.get("objective", "win"), 'g.graph["objective"]')
    if "gamegraph" in g.graph or any("outcomes" in data for _, data in g.nodes(data=True)):
        return _from_structure(g, start, str(name), objective, ignore)
    return build(NetworkxRules(g, start, name, objective, ignore))


def _iterable(value) -> list:
    try:
        return list(value)
    except TypeError:
        return [None]


def _from_structure(g: nx.DiGraph, start, name: str, objective="win", ignore=()) -> StateGraph:
    for u, v, data in g.edges(data=True):
        if len(data) > len(SUMMARY_ATTRIBUTES) or any(k not in SUMMARY_ATTRIBUTES for k in data):
            unread = _unread(data, SUMMARY_ATTRIBUTES, ignore, f"edge {u!r} -> {v!r}")
            if unread:
                raise InvalidArgumentError(
                    f"{unread}; the edges of a StateGraph export are a summary and the "
                    "nodes' outcomes are the game: give an option its reward there"
                )
    states = list(g)
    index = {state: i for i, state in enumerate(states)}
    n = len(states)
    counts = np.zeros(n, dtype=np.int64)
    option_counts = []
    probabilities = []
    targets, moves, passes = [], [], []
    rewards = {}  # option number: exact reward, where it is not 0
    values, labels, layers, outcomes_of = {}, {}, {}, {}
    for i, (state, data) in enumerate(g.nodes(data=True)):
        labels[state] = str(data.get("label", state))
        layers[state] = data.get("layer")
        if layers[state] is not None and (problem := layer_problem(layers[state])):
            raise InvalidArgumentError(f"node {state!r}: {problem}")
        outcomes = data.get("outcomes")
        if data.get("terminal", outcomes is None):
            if outcomes:
                raise InvalidArgumentError(f"node {state!r} is terminal but has outcomes")
            values[state] = _value(data.get("value", 0), state, objective)
            continue
        if outcomes is None:
            raise InvalidArgumentError(
                f"node {state!r} is not terminal and has no 'outcomes'; give every node "
                "of a StateGraph export its outcomes, or mark it terminal=True"
            )
        read = []
        for k, outcome in enumerate(_sequence(outcomes, state, "outcomes")):
            if type(outcome) not in _PAIRS or len(outcome) != 2:
                if not isinstance(outcome, list | tuple) or len(outcome) != 2:
                    raise InvalidArgumentError(
                        f"{_where(state, k)} is {outcome!r}; give (probability, options) pairs"
                    )
            p, listed = outcome
            if type(p) is not Fraction or not 0 < p.numerator <= p.denominator:
                p = _probability(p, _where(state, k))
            if type(listed) not in _PAIRS:
                listed = _sequence(listed, state, f"outcome {k}'s options")
            options = []
            for option in listed:
                try:
                    target, move, passing, reward = option
                    t = index.get(target)
                except (TypeError, ValueError):
                    t = None
                if t is None or type(move) is not int or type(passing) is not bool:
                    target, move, passing, reward = _option(option, index, _where(state, k))
                    t = index[target]
                elif not -(2**31) <= move < 2**31:  # inline: once per option of a graph
                    _in_32_bits(move, _where(state, k))
                if passing and objective == "score":
                    raise InvalidArgumentError(
                        f"{_where(state, k)}: an option passes the turn, but the objective is "
                        '"score" (one player); "margin" is for two players who trade points'
                    )
                if reward is _NO_REWARD or not (
                    reward := _reward(reward, f"{_where(state, k)}, an option", objective)
                ):
                    options.append(Option(target, move, passing))
                else:
                    rewards[len(targets)] = reward
                    options.append(Option(target, move, passing, reward))
                targets.append(t)
                moves.append(move)
                passes.append(passing)
            read.append(Outcome(p, tuple(options)))
            probabilities.append(p)
            option_counts.append(len(options))
        counts[i] = len(read)
        outcomes_of[state] = read
    denominator = lcm(*{p.denominator for p in probabilities}) if probabilities else 1
    if denominator >= 2**62:
        raise InvalidArgumentError(
            f"the probabilities' common denominator {denominator} does not fit in 62 bits"
        )
    weights = np.array(
        [p.numerator * (denominator // p.denominator) for p in probabilities], dtype=np.int64
    )
    outcome_ptr = pointers(counts)
    playing = np.flatnonzero(~np.isin(np.arange(n), [index[v] for v in values]))
    totals = np.zeros(n, dtype=np.int64)
    np.add.at(totals, np.repeat(np.arange(n), counts), weights)
    wrong = playing[totals[playing] != denominator]
    if len(wrong):
        state = states[wrong[0]]
        total = sum((o.probability for o in outcomes_of[state]), Fraction(0))
        raise InvalidArgumentError(
            f"the probabilities of node {state!r}'s outcomes sum to {total}, not 1"
        )
    missing = [state for state in states if layers[state] is None]
    if missing and len(missing) < n:
        raise InvalidArgumentError(
            f"node {missing[0]!r} has no 'layer' while others have one; give every node "
            "a layer, or none"
        )
    terminal_exact = {index[state]: value for state, value in values.items()}
    terminal, terminal_value = terminal_arrays(n, terminal_exact)
    rules = StoredRules(
        name, start, states, outcomes_of, values, labels, None if missing else layers, objective
    )
    return StateGraph(
        rules=rules,
        states=states,
        start=index[start],
        outcome_ptr=outcome_ptr,
        outcome_weight=weights,
        denominator=denominator,
        option_ptr=pointers(np.array(option_counts, dtype=np.int64)),
        option_target=np.array(targets, dtype=np.int64),
        option_move=np.array(moves, dtype=np.int32),
        option_passes=np.array(passes, dtype=bool),
        terminal=terminal,
        terminal_value=terminal_value,
        terminal_exact=terminal_exact,
        objective=objective,
        reward_exact=rewards,
    )


#: The reward of an option that names none (the object :class:`Option` defaults to).
_NO_REWARD = Option._field_defaults["reward"]
#: Sequence types read without further checks (anything else goes through isinstance).
_PAIRS = (Outcome, Option, tuple, list)


def _where(state, k) -> str:
    return f"node {state!r}, outcome {k}"


def _sequence(value, state, what):
    if not isinstance(value, list | tuple):
        raise InvalidArgumentError(f"node {state!r}: {what} is {value!r}, not a list")
    return value


def _probability(p, where) -> Fraction:
    try:
        p = exact_number(p)
    except ValueError as e:
        raise InvalidArgumentError(f"{where}: its probability {e}") from None
    if not 0 < p <= 1:
        raise InvalidArgumentError(f"{where} has probability {p}, outside (0, 1]")
    return p


def _value(value, state, objective="win") -> Fraction:
    """A terminal node's ``value``: in [0, 1] for ``"win"``, any finite number otherwise."""
    try:
        value = exact_number(value)
    except ValueError as e:
        raise InvalidArgumentError(f"node {state!r}: its value {e}") from None
    if objective == "win" and not 0 <= value <= 1:
        raise InvalidArgumentError(
            f'node {state!r} has value {value}, outside [0, 1] (the objective is "win"); '
            f"{_WIN_HINT}"
        )
    return value


def _option(option, index, where) -> Option:
    if not isinstance(option, list | tuple) or not 1 <= len(option) <= 4:
        raise InvalidArgumentError(
            f"{where}: option {option!r} is not a (target, move, passes[, reward]) tuple"
        )
    option = Option(*option)
    try:
        known = option.target in index
    except TypeError:
        known = False
    if not known:
        raise InvalidArgumentError(f"{where} leads to {option.target!r}, which is not a node")
    move, passes = option.move, option.passes
    if isinstance(move, bool) or not isinstance(move, int | np.integer):
        raise InvalidArgumentError(f"{where}: move {move!r} is not an integer")
    move = _in_32_bits(move, where)
    if not isinstance(passes, bool | np.bool_):
        raise InvalidArgumentError(f"{where}: passes is {passes!r}, not True or False")
    return Option(option.target, move, bool(passes), option.reward)


# ---------------------------------------------------------------------------
# Values as text: written by _code, read back by _decode without running code
# ---------------------------------------------------------------------------
def _code(value, types: dict) -> str:
    """Python text for ``value``; NamedTuple classes met are recorded in ``types``."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return repr(value)
    if kind is float:
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, np.generic):
        return _code(value.item(), types)
    if kind is Fraction:
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, tuple) and hasattr(kind, "_fields"):
        where = f"{kind.__module__}.{kind.__qualname__}"
        if types.setdefault(kind.__name__, where) != where:
            raise InvalidArgumentError(
                f"two state types are called {kind.__name__} ({types[kind.__name__]} and "
                f"{where}); rename one to write them to one file"
            )
        fields = ", ".join(f"{f}={_code(v, types)}" for f, v in zip(kind._fields, value))
        return f"{kind.__name__}({fields})"
    if kind is tuple:
        items = [_code(v, types) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if kind is list:
        return f"[{', '.join(_code(v, types) for v in value)}]"
    if kind in (set, frozenset):
        items = sorted(_code(v, types) for v in value)
        text = f"{{{', '.join(items)}}}" if items else ""
        return f"{kind.__name__}({text})"
    if kind is dict:
        items = (f"{_code(k, types)}: {_code(v, types)}" for k, v in value.items())
        return f"{{{', '.join(items)}}}"
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise InvalidArgumentError(
        f"cannot write {shown} (a {kind.__name__}) to a file; accepted: None, bool, int, "
        "float, str, Fraction, and tuples, NamedTuples, lists, sets, frozensets and dicts "
        "of them"
    )


def _decode(text: str, types: dict):
    """Read text written by :func:`_code`; ``types`` maps NamedTuple names to classes."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not text")
    return _literal(ast.parse(text.strip(), mode="eval").body, types)


def _literal(node, types):
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes | complex):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _literal(node.operand, types)
        if isinstance(operand, bool) or not isinstance(operand, int | float):
            raise ValueError("a sign before something that is not a number")
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Tuple):
        return tuple(_literal(e, types) for e in node.elts)
    if isinstance(node, ast.List):
        return [_literal(e, types) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_literal(e, types) for e in node.elts}
    if isinstance(node, ast.Dict):
        if None in node.keys:
            raise ValueError("** in a dict")
        return {_literal(k, types): _literal(v, types) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        args = [_literal(a, types) for a in node.args]
        keywords = {k.arg: _literal(k.value, types) for k in node.keywords if k.arg}
        if len(keywords) != len(node.keywords):
            raise ValueError("** in a call")
        if name == "Fraction" and len(args) == 2 and not keywords:
            if all(type(a) is int for a in args):
                return Fraction(*args)
        elif name in ("set", "frozenset") and len(args) <= 1 and not keywords:
            return {"set": set, "frozenset": frozenset}[name](*args)
        elif name == "float" and len(args) == 1 and isinstance(args[0], str) and not keywords:
            if args[0].lower() in ("nan", "inf", "-inf"):
                return float(args[0])
        elif name in types:
            return types[name](*args, **keywords)
        else:
            raise ValueError(f"unknown type {name}")
    raise ValueError(f"unexpected {ast.unparse(node)[:40]!r}")


#: gamegraph's own state types, by the name a file records: the only classes a file can
#: name without ``types=``. Each is looked up in this fixed table and imported from the
#: module written here, never from a path read from the file (a path would let a file
#: name any callable, such as a function that writes files).
OWN_STATE_TYPES = {
    "SixState": "gamegraph.games.supersix.state",
    "UrState": "gamegraph.games.ur.rules",
}


def _is_namedtuple_class(cls) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def _resolve_types(recorded: dict, given) -> dict:
    """NamedTuple classes by name: ``given`` first, then gamegraph's own
    (:data:`OWN_STATE_TYPES`); the file's recorded paths only say whose a type is.
    """
    classes = {}
    for cls in given:
        if not _is_namedtuple_class(cls):
            raise InvalidArgumentError(f"types must be NamedTuple classes, not {cls!r}")
        classes[cls.__name__] = cls
    for name, where in recorded.items():
        if name in classes:
            continue
        module = str(where).rpartition(".")[0]
        shown = _shown(str(name))
        if module != "gamegraph" and not module.startswith("gamegraph."):
            origin = _shown(module) if module else "an unknown module"
            raise InvalidArgumentError(
                f"states of type {shown} come from {origin}; pass types=[{shown}] to read them back"
            )
        if name not in OWN_STATE_TYPES:
            raise InvalidArgumentError(
                f"the state type {shown} is not one of gamegraph's own "
                f"({', '.join(sorted(OWN_STATE_TYPES))}); pass types=[{shown}] to read it back"
            )
        cls = getattr(importlib.import_module(OWN_STATE_TYPES[name]), name)
        assert _is_namedtuple_class(cls), cls  # OWN_STATE_TYPES names only such classes
        classes[name] = cls
    return classes


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------
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


def _restore(records: _Records, source: str, types) -> nx.DiGraph:
    """The DiGraph a file of ours holds: states, exact numbers and structures read back."""
    try:
        encoding = json.loads(records.graph[ENCODING])
        recorded = json.loads(records.graph.get(TYPES, "{}"))
        if not isinstance(encoding, dict) or not isinstance(recorded, dict):
            raise ValueError
        for scope in ("graph", "node", "edge"):
            if not isinstance(encoding.setdefault(scope, {}), dict):
                raise ValueError
    except (ValueError, TypeError):
        raise InvalidArgumentError(f"{source}: its {ENCODING} attribute is damaged") from None
    classes = _resolve_types(recorded, types)
    cache: dict = {}  # text -> a list or tuple of plain values
    fractions: dict = {}  # text -> Fraction

    def decode(text):
        if type(text) is str and len(text) > MAX_TEXT:
            raise ValueError(f"{len(text):,} characters long; at most {MAX_TEXT:,} are read")
        if text in cache:
            value = cache[text]
            return list(value) if type(value) is list else value
        value = _decode(text, classes)
        if type(value) in (list, tuple) and all(type(v) in _PLAIN for v in value):
            cache[text] = value
            return list(value) if type(value) is list else value
        return value

    def fraction(text):
        value = fractions.get(text)
        if value is None:
            value = fractions[text] = exact_number(text)
        return value

    converters = {"fraction": fraction, "python": decode, "outcomes": lambda value: value}

    encoding["state"] = {"state": "python"}

    def reader(scope):
        convert = [(key, converters.get(how)) for key, how in encoding[scope].items()]
        if any(function is None for _, function in convert):
            raise InvalidArgumentError(f"{source}: its {ENCODING} attribute is damaged")

        def read(data, where):
            """Convert ``data`` (the file's own dict) in place."""
            for key, function in convert:
                if key in data:
                    try:
                        data[key] = function(data[key])
                    except (
                        ValueError,
                        TypeError,
                        SyntaxError,
                        ZeroDivisionError,
                        RecursionError,
                    ) as e:
                        raise InvalidArgumentError(
                            f"{source}: {where()}: attribute {key!r} is damaged ({_first_line(e)})"
                        ) from None
            return data

        return read

    g = nx.DiGraph()
    graph = {k: v for k, v in records.graph.items() if k not in (ENCODING, TYPES)}
    g.graph.update(reader("graph")(graph, lambda: "the graph"))
    states = {}
    order = []
    texts = []
    nodes = []
    seen = set()
    for node, data in records.nodes:
        if type(node) not in (str, int) or type(data) is not dict:
            raise InvalidArgumentError(f"{source}: node {node!r} is not an id with attributes")
        if type(data.get("state")) is not str:
            raise InvalidArgumentError(f"{source}: node {node} has no 'state' text")
        if len(data["state"]) > MAX_TEXT:
            raise InvalidArgumentError(
                f"{source}: node {_shown(str(node))}'s state is {len(data['state']):,} "
                f"characters long; at most {MAX_TEXT:,} are read"
            )
        texts.append(data.pop("state"))
    encoding["node"].pop("state", None)
    read = reader("node")
    decode_state = reader("state")
    for (node, data), state in zip(records.nodes, _decode_all(texts, classes), strict=True):
        if state is _UNREAD:
            state = decode_state({"state": texts[len(order)]}, lambda node=node: f"node {node}")
            state = state["state"]
        data = read(data, lambda node=node: f"node {node}")
        if state is None:
            raise InvalidArgumentError(f"{source}: node {node}'s state is None, not a state")
        try:
            known = state in seen
            seen.add(state)
        except TypeError:
            raise InvalidArgumentError(
                f"{source}: node {node}'s state {state!r} is not hashable"
            ) from None
        if known or node in states:
            raise InvalidArgumentError(f"{source}: two nodes hold the state {state!r}")
        states[node] = state
        order.append(state)
        nodes.append((state, data))
    g.add_nodes_from(nodes)
    edges = []
    read = reader("edge")
    for u, v, data in records.edges:
        if type(u) not in (str, int) or type(v) not in (str, int) or type(data) is not dict:
            raise InvalidArgumentError(f"{source}: edge {u!r} -> {v!r} is not two node ids")
        if u not in states or v not in states:
            raise InvalidArgumentError(f"{source}: edge {u} -> {v} joins a node it does not hold")
        edges.append((states[u], states[v], read(data, lambda u=u, v=v: f"edge {u} -> {v}")))
    g.add_edges_from(edges)
    for state, data in g.nodes(data=True):
        if "outcomes" in data:
            try:
                data["outcomes"] = _outcomes_in(data["outcomes"], order, fractions)
            except IndexError:
                raise InvalidArgumentError(
                    f"{source}: node {state!r}: its outcomes name a node the file does not hold"
                ) from None
            except (ValueError, TypeError, ZeroDivisionError) as e:
                raise InvalidArgumentError(
                    f"{source}: node {state!r}: attribute 'outcomes' is damaged ({_first_line(e)})"
                ) from None
    return g


_UNREAD = object()


def _decode_all(texts: list, types: dict) -> list:
    """Decode many texts in one parse (one parse per text costs more than the parsing).

    Texts that :func:`_code` would not write back the same (a hand-edited file) come out
    as ``_UNREAD``, and the caller decodes those one by one.
    """
    joined = f"[{','.join(texts)}]"
    values = _decode_as_json(joined, types)
    if values is None:
        try:
            values = _decode(joined, types)
        except (ValueError, TypeError, SyntaxError, ZeroDivisionError, RecursionError):
            return [_UNREAD] * len(texts)
    if len(values) != len(texts):
        return [_UNREAD] * len(texts)
    written: dict = {}
    try:
        return [v if _code(v, written) == t else _UNREAD for v, t in zip(values, texts)]
    except InvalidArgumentError:
        return [_UNREAD] * len(texts)


#: Python text _decode_as_json can turn into JSON: no sets, dicts or quotes in strings.
_JSON_READY = re.compile(r"""(?:[\w ,()\[\].+=-]|'[\w .+/-]*')*""")
_QUOTED = re.compile(r"'([\w .+/-]*)'")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")
_TUPLE = re.compile(r"(?<![\w\"])\(")
_FIELD = re.compile(r"\b[A-Za-z_]\w*=")
_CONSTANTS = re.compile(r"\b(None|True|False)\b")
_JSON_CONSTANTS = {"None": "null", "True": "true", "False": "false"}


def _decode_as_json(text: str, types: dict):
    """Decode Python text of tuples, NamedTuples, lists, numbers and plain strings by
    rewriting it as JSON (many times faster than parsing it); None if it does not fit.

    Tuples become ``["(", ...]`` and calls ``["(Name", ...]`` (no string can hold a
    parenthesis here), then :func:`_from_json` builds the values. The caller checks every
    value against its text with :func:`_code`, so a rewrite that went wrong is caught.
    """
    if not _JSON_READY.fullmatch(text):
        return None
    text = _QUOTED.sub(r'"\1"', text)
    text = _TUPLE.sub('["(",', _CALL.sub(r'["(\1",', text))
    text = _FIELD.sub("", text).replace(",)", ")").replace(")", "]")
    text = _CONSTANTS.sub(lambda m: _JSON_CONSTANTS[m.group(1)], text)
    try:
        return _from_json(json.loads(text), types)
    except (ValueError, TypeError, KeyError, RecursionError):
        return None


def _from_json(value, types: dict):
    if type(value) is not list:
        return value
    items = [_from_json(v, types) for v in value]
    head = items[0] if items else None
    if type(head) is str and head.startswith("("):
        if head == "(":
            return tuple(items[1:])
        name = head[1:]
        if name == "Fraction":
            return Fraction(*items[1:])
        return types[name](*items[1:])
    return items


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


def _first_line(error) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _read_bytes(path) -> tuple[bytes, str]:
    try:
        raw = os.fspath(path)
    except TypeError:
        raise InvalidArgumentError(
            f"a path must be a str or os.PathLike, not {type(path).__name__}"
        ) from None
    source = os.fsdecode(raw)
    try:
        with open(raw, "rb") as stream:
            return stream.read(), source
    except FileNotFoundError:
        raise InvalidArgumentError(f"cannot read {source}: no such file") from None
    except IsADirectoryError:
        raise InvalidArgumentError(f"cannot read {source}: it is a folder") from None
    except (OSError, ValueError) as e:
        raise InvalidArgumentError(f"cannot read {source}: {_first_line(e)}") from None


def _directed(g, source: str) -> nx.DiGraph:
    if not g.is_directed():
        raise InvalidArgumentError(f"{source} holds an undirected graph; gamegraph reads DiGraphs")
    if g.is_multigraph():
        if g.number_of_edges() != nx.DiGraph(g).number_of_edges():
            raise InvalidArgumentError(
                f"{source} holds parallel edges; gamegraph reads DiGraphs (one edge per pair)"
            )
        g = nx.DiGraph(g)
    return g


# ---- GraphML ----------------------------------------------------------------
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
                    f"{source}: {where} has data for the unknown key {item.get('key')!r}"
                )
            try:
                attributes[name] = convert(item.text or "")
            except ValueError as e:
                raise InvalidArgumentError(
                    f"{source}: {where}: {_shown(name)} is damaged ({_first_line(e)})"
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
    attribute, exact numbers are strings such as ``"1/36"`` (see the module docstring).
    The path is checked before any work and the file written all-or-nothing;
    ``networkx.read_graphml`` and other GraphML readers read it too.

    Examples
    --------
    >>> import os, tempfile
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import Jackpot
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


# ---- node-link JSON ---------------------------------------------------------
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
    key = "links" if "links" in data and "edges" not in data else "edges"
    edges = data.setdefault(key, [])
    graph = data.get("graph")
    if isinstance(graph, dict) and ENCODING in graph and isinstance(edges, list):
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
