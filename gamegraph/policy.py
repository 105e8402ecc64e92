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
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np

from ._checks import check_choice, check_int
from .csr import expand_ranges
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

        A choice function ``agent(state, options)`` is asked at every outcome that offers
        two or more options; ``options`` is a tuple of :class:`~gamegraph.rules.Option` in
        the order the rules offer them, and it returns an index into it. Where an outcome
        offers a single option it is taken without asking (a throw with no choice after it,
        such as Pig's die), and where it offers none the choice is -1. An :class:`Agent`
        gives its own ``policy(graph)``.

        The options are made in blocks of outcomes and dropped after use, so the cost is
        one call per real decision and the memory a block's worth of options (Pig to 100:
        470,646 calls among 3,353,328 outcomes).

        Examples
        --------
        >>> from gamegraph import build
        >>> from gamegraph.games.pig import Pig, hold_at
        >>> graph = build(Pig(goal=10))
        >>> asked = []
        >>> def hold_at_5(state, options):
        ...     asked.append(state)
        ...     return 1 if state[3] >= 5 else 0
        >>> policy = Policy.from_agent(graph, hold_at_5)
        >>> len(asked) == int((np.diff(graph.option_ptr) > 1).sum())
        True
        >>> policy.name, policy.choice[graph.outcomes_of(graph.start)].tolist()
        ('hold_at_5', [0, 0, 0, 0, 0, 0])
        """
        if isinstance(agent, Agent):
            policy = agent.policy(graph)
            return policy if name is None else cls(choice=policy.choice, name=name)
        choice = _ask(graph, agent, name)
        return cls(choice=choice, name=name or getattr(agent, "__name__", "agent"))

    @classmethod
    def preferring(cls, graph: StateGraph, move: int, name: str | None = None) -> Policy:
        """The policy that makes ``move`` wherever a throw offers it, else the first option.

        Computed on the whole arrays at once, without looking at any state (Super Six at
        130 pegs: milliseconds, where an agent asked state by state takes seconds).

        Examples
        --------
        >>> from gamegraph import build
        >>> from gamegraph.games.pig import Pig
        >>> graph = build(Pig(goal=10))
        >>> hold = Policy.preferring(graph, 1, "always hold")  # Pig's moves: 0 roll, 1 hold
        >>> choose = graph.state_number(("choose", 0, 0, 6))
        >>> hold.choice[graph.outcomes_of(choose)].tolist()  # hold is the second option
        [1]
        >>> hold.choice[graph.outcomes_of(graph.start)].tolist()  # the die: no choice
        [0, 0, 0, 0, 0, 0]
        """
        first = graph.option_ptr[:-1]
        counts = np.diff(graph.option_ptr)
        place = np.arange(graph.n_options) - np.repeat(first, counts)
        wanted = np.where(graph.option_move == move, place, np.iinfo(np.int64).max)
        choice = np.where(counts > 0, 0, -1).astype(np.int64)
        offered = np.flatnonzero(counts > 0)
        if len(offered):
            best = np.minimum.reduceat(wanted, first[offered])
            choice[offered] = np.where(best < np.iinfo(np.int64).max, best, 0)
        return cls(choice=choice, name=name or f"prefer move {move}")

    def choice_at(self, graph: StateGraph, state, throw: int) -> Option | None:
        """The option this policy takes at ``state`` after throw number ``throw``.

        ``throw`` is the index of the outcome among the state's outcomes, in the order the
        rules list them (``graph.rules.outcomes(state)``). Returns the
        :class:`~gamegraph.rules.Option` taken, or None where the throw offers no option.
        Raises InvalidArgumentError for a state not in ``graph``, a terminal state (it has
        no throws) or a throw number out of range.

        Examples
        --------
        >>> from gamegraph import build
        >>> from gamegraph.games.pig import Pig, hold_at
        >>> graph = build(Pig(goal=30))
        >>> hold = Policy.from_agent(graph, hold_at(20))
        >>> hold.choice_at(graph, ("choose", 0, 0, 20), 0)   # a decision: one certain outcome
        Option(target=('roll', 0, 20, 0), move=1, passes=True)
        >>> hold.choice_at(graph, ("roll", 0, 0, 0), 0)      # the die shows 1: bust
        Option(target=('roll', 0, 0, 0), move=2, passes=True)
        """
        self.check(graph)
        k = outcome_at(graph, state, throw)
        c = int(self.choice[k])
        if c < 0:
            return None
        j = int(graph.option_ptr[k]) + c
        return Option(
            graph.states[int(graph.option_target[j])],
            int(graph.option_move[j]),
            bool(graph.option_passes[j]),
            option_reward(graph, j),
        )

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


class BestMove(NamedTuple):
    """The best option after one throw (:meth:`gamegraph.Solution.best_move`).

    Attributes
    ----------
    option : Option or None
        The best option (the policy's own choice among equally good ones); None when the
        throw offers no option, and the player to move loses.
    value : Fraction or float
        The option's worth to the player choosing it, in the game's objective
        (:mod:`gamegraph.values`): the probability of winning after it, or its reward plus
        the expected score or margin after it.
    margin : Fraction, float or None
        ``value`` minus the worth of the next best option (0 on a tie); None when the throw
        offers fewer than two options.
    """

    option: Option | None
    value: object
    margin: object


def option_reward(graph: StateGraph, j: int):
    """The exact reward of option number ``j`` of ``graph``, as an :class:`Option` carries it:
    the int 0 where there is none, an int where it is whole, else a Fraction.

    >>> from gamegraph import build
    >>> from gamegraph.games.pig import Pig
    >>> option_reward(build(Pig(goal=10)), 0)
    0
    """
    r = graph.reward_exact.get(int(j))
    if r is None:
        return 0
    return int(r) if r.denominator == 1 else r


def outcome_at(graph: StateGraph, state, throw: int) -> int:
    """The graph's number of outcome ``throw`` of ``state`` (its index among the state's
    outcomes in the rules' order), with errors that say what is accepted.
    """
    i = graph.state_number(state)
    count = int(graph.outcome_ptr[i + 1] - graph.outcome_ptr[i])
    if not count:
        raise InvalidArgumentError(
            f"state {graph.label(i)} is terminal: it has no throws to choose after"
        )
    throw = check_int(throw, f"throw at {graph.label(i)}", low=0, high=count - 1)
    return int(graph.outcome_ptr[i]) + throw


#: Outcomes whose options are made at once by :func:`_ask` (bounds its memory).
_ASK_BLOCK = 1 << 16


def _ask(graph: StateGraph, agent, name: str | None) -> np.ndarray:
    """The choice of ``agent(state, options)`` at every outcome: asked where there are two
    or more options, 0 where there is one, -1 where there is none.
    """
    counts = np.diff(graph.option_ptr)
    choice = np.where(counts > 0, 0, -1).astype(np.int32)
    asked = np.flatnonzero(counts > 1)
    states = graph.states
    owners = np.searchsorted(graph.outcome_ptr, asked, side="right") - 1
    for first in range(0, len(asked), _ASK_BLOCK):
        block = asked[first : first + _ASK_BLOCK]
        index = expand_ranges(graph.option_ptr[block], graph.option_ptr[block + 1])
        targets = [states[t] for t in graph.option_target[index].tolist()]
        if graph.reward_exact:
            rewards = [option_reward(graph, j) for j in index.tolist()]
        else:
            rewards = [0] * len(index)
        options = list(
            map(
                Option,
                targets,
                graph.option_move[index].tolist(),
                graph.option_passes[index].tolist(),
                rewards,
            )
        )
        picks = []
        start = 0
        for i, end in zip(
            owners[first : first + _ASK_BLOCK].tolist(), np.cumsum(counts[block]).tolist()
        ):
            picked = agent(states[i], tuple(options[start:end]))
            if type(picked) is not int or not 0 <= picked < end - start:
                who = f"agent {name or agent!r} at {graph.label(i)}"
                picked = check_choice(picked, end - start, who)
            picks.append(picked)
            start = end
        choice[block] = picks
    return choice


@dataclass(eq=False)
class MarkovChain:
    """A graph under a policy: weighted edges per state (CSR), exact integer weights.

    ``edge_weight / denominator`` is the probability that the move along an edge is
    taken; ``stuck_weight[i] / denominator`` the probability that the player at state i
    throws and has no option (and so loses a ``"win"`` game; in a score or margin game the
    game ends there, worth 0 more to that player).

    The outcomes of a state whose chosen options lead to the same target, passing the
    turn alike and paying the same reward, make one edge; ``edge_option`` holds one of
    those options (the first), and :meth:`edge_rewards` the reward an edge pays.
    """

    graph: StateGraph
    policy: Policy
    edge_ptr: np.ndarray
    edge_target: np.ndarray
    edge_weight: np.ndarray
    edge_move: np.ndarray
    edge_passes: np.ndarray
    stuck_weight: np.ndarray
    edge_option: np.ndarray | None = None

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

    def edge_rewards(self, exact: bool = False) -> np.ndarray | None:
        """The reward the mover collects along each edge: floats, or with ``exact`` an
        object array of Fractions; None when the game has no rewards.

        Examples
        --------
        >>> from fractions import Fraction
        >>> from gamegraph import build
        >>> from gamegraph.rules import Option, Rules, decision
        >>> class Two(Rules):
        ...     objective = "score"
        ...     def start(self): return "s"
        ...     def terminal_value(self, s): return 0 if s == "end" else None
        ...     def outcomes(self, s):
        ...         return decision(Option("end", 0, reward=1), Option("end", 1, reward=3))
        >>> graph = build(Two())
        >>> chain = Policy.preferring(graph, 1).chain(graph)
        >>> chain.edge_rewards(exact=True).tolist(), chain.edge_rewards().tolist()
        ([Fraction(3, 1)], [3.0])
        """
        reward = self.graph.rewards(exact)
        if reward is None:
            return None
        return reward[self.edge_option]

    @classmethod
    def from_policy(cls, graph: StateGraph, policy: Policy) -> MarkovChain:
        policy.check(graph)
        n = graph.n_states
        option = policy.chosen_option(graph)
        alive = option >= 0
        source = graph.outcome_state[alive]
        weight = graph.outcome_weight[alive]
        taken = option[alive]
        target = graph.option_target[taken]
        passes = graph.option_passes[taken]
        if graph.reward_exact:
            edge_source, first, merged = _merge_with_rewards(
                graph, source, target, passes, taken, weight
            )
            edge_target, edge_passes = target[first], passes[first]
        else:
            key = (source * n + target) * 2 + passes
            unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            merged = np.bincount(inverse, weights=weight).astype(np.int64)
            edge_source = unique // (2 * n)
            edge_target, edge_passes = (unique // 2) % n, (unique % 2).astype(bool)
        stuck = np.bincount(
            graph.outcome_state[~alive], weights=graph.outcome_weight[~alive], minlength=n
        ).astype(np.int64)
        return cls(
            graph=graph,
            policy=policy,
            edge_ptr=np.concatenate([[0], np.cumsum(np.bincount(edge_source, minlength=n))]),
            edge_target=edge_target,
            edge_weight=merged,
            edge_move=graph.option_move[taken[first]],
            edge_passes=edge_passes,
            stuck_weight=stuck,
            edge_option=taken[first],
        )


def _merge_with_rewards(graph, source, target, passes, taken, weight):
    """Group the taken options by (source, target, passes, exact reward), in that order.

    Returns each group's source, the position of its first member and its summed weight.
    """
    ids: dict = {}
    reward_id = np.zeros(len(taken), dtype=np.int64)
    paying = np.flatnonzero(np.isin(taken, np.fromiter(graph.reward_exact, dtype=np.int64)))
    for i in paying.tolist():
        reward_id[i] = ids.setdefault(graph.reward_exact[int(taken[i])], len(ids) + 1)
    order = np.lexsort((reward_id, passes, target, source))
    columns = (source, target, passes, reward_id)
    new = np.ones(len(order), dtype=bool)
    if len(order):
        new[1:] = np.any([c[order][1:] != c[order][:-1] for c in columns], axis=0)
    starts = np.flatnonzero(new)
    first = order[starts]
    merged = np.add.reduceat(weight[order], starts).astype(np.int64) if len(order) else weight[:0]
    return source[first], first, merged
