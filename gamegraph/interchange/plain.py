"""A plain DiGraph with probability-weighted edges as Rules (:class:`NetworkxRules`), read
edge by edge as :func:`gamegraph.build` asks for each node's outcomes.
"""

from __future__ import annotations

from collections import defaultdict

import networkx as nx

from .._files import _shown
from ..errors import InvalidArgumentError
from ..rules import Option, Outcome, Rules
from .attributes import (
    _exact,
    _flag_attribute,
    _label,
    _move_attribute,
    _reward,
    _unread,
    _value,
)

#: The edge attributes :func:`from_networkx` reads on a plain DiGraph.
EDGE_ATTRIBUTES = ("probability", "outcome", "move", "passes", "reward")


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
            try:
                known = probability.setdefault(key, p)
            except TypeError:  # a list or dict, as a JSON file can hold
                raise InvalidArgumentError(
                    f"{where}: its outcome {_shown(repr(key))} is not hashable; name outcomes "
                    "with text or numbers"
                ) from None
            if known != p:
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
        return _label(self.g.nodes[node].get("label", node), f"node {node!r}")

    def move_label(self, move: int) -> str:
        """An edge without a ``move`` attribute (-1) is followed, not chosen: ``'go'``."""
        return "go" if move == -1 else str(move)

    def layer(self, node):
        return self.g.nodes[node].get("layer")
