"""A StateGraph export (nodes carrying ``outcomes``) read back exactly as a StateGraph
(:func:`_from_structure`), its rules being :class:`StoredRules`.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import networkx as nx
import numpy as np

from ..csr import pointers
from ..errors import InvalidArgumentError
from ..graph import StateGraph, layer_problem, terminal_arrays
from ..rules import Option, Outcome, Rules
from ..tables import shown_integer
from .attributes import (
    _flag_attribute,
    _in_32_bits,
    _label,
    _probability,
    _reward,
    _unread,
    _value,
)

#: The edge attributes of a StateGraph export (:func:`to_networkx`): a summary, not read.
SUMMARY_ATTRIBUTES = ("probability", "moves", "passes")
#: The reward of an option that names none (the object :class:`Option` defaults to).
_NO_REWARD = Option._field_defaults["reward"]
#: Sequence types read without further checks (anything else goes through isinstance).
_PAIRS = (Outcome, Option, tuple, list)


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


def _from_structure(g: nx.DiGraph, start, name: str, objective="win", ignore=()) -> StateGraph:
    """The StateGraph a StateGraph export holds, every node's outcomes, value and layer
    checked (see :func:`from_networkx`).
    """
    _check_summary(g, ignore)
    nodes = _Nodes(list(g), objective)
    nodes.read(g)
    denominator, weights = _weights(nodes.probabilities)
    _check_totals(nodes, weights, denominator)
    return _state_graph(nodes, start, name, denominator, weights, _layers(nodes))


def _check_summary(g: nx.DiGraph, ignore) -> None:
    """Refuse an edge attribute beyond the summary :func:`to_networkx` writes."""
    for u, v, data in g.edges(data=True):
        if len(data) > len(SUMMARY_ATTRIBUTES) or any(k not in SUMMARY_ATTRIBUTES for k in data):
            unread = _unread(data, SUMMARY_ATTRIBUTES, ignore, f"edge {u!r} -> {v!r}")
            if unread:
                raise InvalidArgumentError(
                    f"{unread}; the edges of a StateGraph export are a summary and the "
                    "nodes' outcomes are the game: give an option its reward there"
                )


class _Nodes:
    """The nodes of a StateGraph export, read in node order: labels, layers, terminal
    values, and the outcomes as the StateGraph's flat arrays will hold them.
    """

    def __init__(self, states: list, objective: str):
        self.states = states
        self.index = {state: i for i, state in enumerate(states)}
        self.objective = objective
        self.counts = np.zeros(len(states), dtype=np.int64)  # outcomes per node
        self.option_counts: list = []  # options per outcome
        self.probabilities: list = []  # per outcome
        self.targets: list = []  # per option: target number, move, passes
        self.moves: list = []
        self.passes: list = []
        self.rewards: dict = {}  # option number: exact reward, where it is not 0
        self.values: dict = {}  # terminal state: exact value
        self.labels: dict = {}
        self.layers: dict = {}
        self.outcomes_of: dict = {}  # playing state: its list of Outcomes

    def read(self, g: nx.DiGraph) -> None:
        labels, layers, values, counts = self.labels, self.layers, self.values, self.counts
        for i, (state, data) in enumerate(g.nodes(data=True)):
            labels[state] = _label(data.get("label", state), f"node {state!r}")
            layer = layers[state] = data.get("layer")
            if layer is not None and (problem := layer_problem(layer)):
                raise InvalidArgumentError(f"node {state!r}: {problem}")
            outcomes = data.get("outcomes")
            terminal = data.get("terminal", outcomes is None)
            if _flag_attribute(terminal, f"node {state!r}", "terminal"):
                if outcomes:
                    raise InvalidArgumentError(f"node {state!r} is terminal but has outcomes")
                values[state] = _value(data.get("value", 0), state, self.objective)
                continue
            if outcomes is None:
                raise InvalidArgumentError(
                    f"node {state!r} is not terminal and has no 'outcomes'; give every node "
                    "of a StateGraph export its outcomes, or mark it terminal=True"
                )
            read = self.outcomes_of[state] = self._outcomes(state, outcomes)
            counts[i] = len(read)

    def _outcomes(self, state, outcomes) -> list:
        """The node's Outcomes, their options' targets, moves, passes and rewards recorded."""
        index, objective, rewards = self.index, self.objective, self.rewards
        targets, moves, passes = self.targets, self.moves, self.passes
        probabilities, option_counts = self.probabilities, self.option_counts
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
        return read


def _weights(probabilities: list) -> tuple[int, np.ndarray]:
    """The probabilities' common denominator, and each probability as a weight over it."""
    denominator = 1
    for d in {p.denominator for p in probabilities}:
        denominator = lcm(denominator, d)
        if denominator >= 2**62:  # stop here: the whole lcm could take minutes to compute
            raise InvalidArgumentError(
                "the probabilities' common denominator (a multiple of "
                f"{shown_integer(denominator)}) does not fit in 62 bits"
            )
    weights = np.array(
        [p.numerator * (denominator // p.denominator) for p in probabilities], dtype=np.int64
    )
    return denominator, weights


def _check_totals(nodes: _Nodes, weights: np.ndarray, denominator: int) -> None:
    """Refuse a playing node whose outcomes' probabilities do not sum to 1."""
    n = len(nodes.states)
    playing = np.flatnonzero(~np.isin(np.arange(n), [nodes.index[v] for v in nodes.values]))
    totals = np.zeros(n, dtype=np.int64)
    np.add.at(totals, np.repeat(np.arange(n), nodes.counts), weights)
    wrong = playing[totals[playing] != denominator]
    if len(wrong):
        state = nodes.states[wrong[0]]
        total = sum((o.probability for o in nodes.outcomes_of[state]), Fraction(0))
        raise InvalidArgumentError(
            f"the probabilities of node {state!r}'s outcomes sum to {total}, not 1"
        )


def _layers(nodes: _Nodes) -> dict | None:
    """Every node's layer, or None when no node has one (some but not all is refused)."""
    missing = [state for state in nodes.states if nodes.layers[state] is None]
    if missing and len(missing) < len(nodes.states):
        raise InvalidArgumentError(
            f"node {missing[0]!r} has no 'layer' while others have one; give every node "
            "a layer, or none"
        )
    return None if missing else nodes.layers


def _state_graph(nodes: _Nodes, start, name: str, denominator, weights, layers) -> StateGraph:
    index = nodes.index
    terminal_exact = {index[state]: value for state, value in nodes.values.items()}
    terminal, terminal_value = terminal_arrays(len(nodes.states), terminal_exact)
    rules = StoredRules(
        name,
        start,
        nodes.states,
        nodes.outcomes_of,
        nodes.values,
        nodes.labels,
        layers,
        nodes.objective,
    )
    return StateGraph(
        rules=rules,
        states=nodes.states,
        start=index[start],
        outcome_ptr=pointers(nodes.counts),
        outcome_weight=weights,
        denominator=denominator,
        option_ptr=pointers(np.array(nodes.option_counts, dtype=np.int64)),
        option_target=np.array(nodes.targets, dtype=np.int64),
        option_move=np.array(nodes.moves, dtype=np.int32),
        option_passes=np.array(nodes.passes, dtype=bool),
        terminal=terminal,
        terminal_value=terminal_value,
        terminal_exact=terminal_exact,
        objective=nodes.objective,
        reward_exact=nodes.rewards,
    )


def _where(state, k) -> str:
    return f"node {state!r}, outcome {k}"


def _sequence(value, state, what):
    if not isinstance(value, list | tuple):
        raise InvalidArgumentError(f"node {state!r}: {what} is {value!r}, not a list")
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
