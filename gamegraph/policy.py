"""Policies as data, and the Markov chain a policy turns a game graph into.

A :class:`Policy` holds, for every outcome of a graph, which of its options is taken
(-1 where the outcome offers none). A rule-of-thumb agent and a solved optimal policy
are the same type, so everything downstream (propagation, simulation, drawing,
comparison) treats them alike.

Under a policy the graph becomes a Markov chain (:class:`MarkovChain`): from each state,
an edge to each successor weighted by the probability that the move is taken (the sum
of the probabilities of the outcomes whose chosen option leads there), plus the
probability of being stuck with no legal option.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Protocol, runtime_checkable

import numpy as np

from ._checks import check_choice
from .errors import InvalidArgumentError
from .graph import StateGraph
from .rules import Option


@runtime_checkable
class Agent(Protocol):
    """The one agent protocol: a player that can state its move at every outcome of a graph.

    An agent has a ``name`` and ``policy(graph)``, which returns a :class:`Policy`. The
    simplest agent is a plain function ``agent(state, options) -> index`` (Jackpot's
    ``AGENTS`` are such functions); :meth:`Policy.from_agent` accepts either form. Agents
    that need more than the options, such as Ur's (the throw, a solved table, a search),
    implement ``policy`` themselves. Each game names its ready-made agents ``AGENTS``.
    """

    name: str

    def policy(self, graph: StateGraph) -> Policy: ...


@dataclass(eq=False)
class Policy:
    """The option taken at every outcome of one graph.

    Parameters
    ----------
    choice : ndarray of int
        For outcome k, the index (within the outcome's options) of the option taken,
        or -1 where the outcome has no options.
    name : str
        A name for tables and legends.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> hilo = Policy.from_agent(graph, AGENTS["hilo"], name="hilo")
    >>> int((hilo.choice >= 0).sum()) == int((np.diff(graph.option_ptr) > 0).sum())
    True
    """

    choice: np.ndarray
    name: str = "policy"

    @classmethod
    def from_agent(cls, graph: StateGraph, agent, name: str | None = None) -> Policy:
        """The policy of ``agent`` on ``graph``: an :class:`Agent`, or a choice function.

        A choice function ``agent(state, options)`` is asked at every outcome with options;
        ``options`` is a tuple of :class:`~gamegraph.rules.Option` in the order the rules
        offer them, and it returns an index into it. An :class:`Agent` gives its own
        ``policy(graph)``.
        """
        if isinstance(agent, Agent):
            policy = agent.policy(graph)
            return policy if name is None else cls(choice=policy.choice, name=name)
        picks = []
        for i, _, state, options in _offers(graph):
            picked = agent(state, options)
            check_choice(picked, len(options), f"agent {name or agent!r} at {graph.label(i)}")
            picks.append(picked)
        choice = np.full(graph.n_outcomes, -1, dtype=np.int32)
        choice[_offered_outcomes(graph)] = picks
        return cls(choice=choice, name=name or getattr(agent, "__name__", "agent"))

    def check(self, graph: StateGraph) -> None:
        """Raise InvalidArgumentError unless this policy fits ``graph``."""
        counts = np.diff(graph.option_ptr)
        if len(self.choice) != graph.n_outcomes:
            raise InvalidArgumentError(
                f"policy {self.name!r} has {len(self.choice)} choices; "
                f"the graph has {graph.n_outcomes} outcomes"
            )
        bad = (self.choice >= counts) | ((self.choice < 0) & (counts > 0))
        if bad.any():
            raise InvalidArgumentError(
                f"policy {self.name!r} picks no valid option at {int(bad.sum())} outcomes"
            )

    def chosen_option(self, graph: StateGraph) -> np.ndarray:
        """Global option number taken at every outcome (-1 where none)."""
        return np.where(self.choice >= 0, graph.option_ptr[:-1] + self.choice, -1)

    def chain(self, graph: StateGraph) -> MarkovChain:
        """The Markov chain this policy makes of ``graph``."""
        return MarkovChain.from_policy(graph, self)


def _offers(graph: StateGraph) -> list:
    """(state number, outcome, state, options) for every outcome with options, made once
    per graph and kept on it, so that comparing many agents builds them only once.
    """
    cached = graph.__dict__.get("_offers")
    if cached is None:
        states = graph.states
        targets = [states[t] for t in graph.option_target.tolist()]
        moves = graph.option_move.tolist()
        passes = graph.option_passes.tolist()
        option_ptr = graph.option_ptr.tolist()
        owner = graph.outcome_state.tolist()
        cached = []
        for k in _offered_outcomes(graph).tolist():
            options = tuple(
                Option(targets[j], moves[j], passes[j])
                for j in range(option_ptr[k], option_ptr[k + 1])
            )
            cached.append((owner[k], k, states[owner[k]], options))
        graph.__dict__["_offers"] = cached
    return cached


def _offered_outcomes(graph: StateGraph) -> np.ndarray:
    return np.flatnonzero(np.diff(graph.option_ptr) > 0)


@dataclass(eq=False)
class MarkovChain:
    """A graph under a policy: weighted edges per state (CSR), exact integer weights.

    ``edge_weight / denominator`` is the probability that the move along an edge is
    taken; ``stuck_weight[i] / denominator`` the probability that the player at state i
    throws and has no option (and so loses).
    """

    graph: StateGraph
    policy: Policy
    edge_ptr: np.ndarray
    edge_target: np.ndarray
    edge_weight: np.ndarray
    edge_move: np.ndarray
    edge_passes: np.ndarray
    stuck_weight: np.ndarray

    @property
    def denominator(self) -> int:
        return self.graph.denominator

    @property
    def n_edges(self) -> int:
        return len(self.edge_target)

    @cached_property
    def edge_source(self) -> np.ndarray:
        return np.repeat(np.arange(self.graph.n_states, dtype=np.int64), np.diff(self.edge_ptr))

    @cached_property
    def edge_probability(self) -> np.ndarray:
        return self.edge_weight / self.denominator

    def edge_fraction(self, e: int) -> Fraction:
        return Fraction(int(self.edge_weight[e]), self.denominator)

    @classmethod
    def from_policy(cls, graph: StateGraph, policy: Policy) -> MarkovChain:
        policy.check(graph)
        n = graph.n_states
        option = policy.chosen_option(graph)
        alive = option >= 0
        source = graph.outcome_state[alive]
        weight = graph.outcome_weight[alive]
        target = graph.option_target[option[alive]]
        passes = graph.option_passes[option[alive]]
        key = (source * n + target) * 2 + passes
        unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        merged = np.bincount(inverse, weights=weight).astype(np.int64)
        edge_source = unique // (2 * n)
        stuck = np.bincount(
            graph.outcome_state[~alive], weights=graph.outcome_weight[~alive], minlength=n
        ).astype(np.int64)
        return cls(
            graph=graph,
            policy=policy,
            edge_ptr=np.concatenate([[0], np.cumsum(np.bincount(edge_source, minlength=n))]),
            edge_target=(unique // 2) % n,
            edge_weight=merged,
            edge_move=graph.option_move[option[alive][first]],
            edge_passes=(unique % 2).astype(bool),
            stuck_weight=stuck,
        )
