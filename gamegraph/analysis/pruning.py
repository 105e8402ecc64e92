"""What a readable diagram of a policy keeps: flows, pruned selections, priced decisions.

A game graph under a policy is a Markov chain (:class:`~gamegraph.policy.MarkovChain`).
With the reach probabilities :math:`r` of a forward propagation, the *flow* along an
edge :math:`s \\to t` is :math:`r(s)\\,p(s \\to t)`: the probability that a game makes
that move. Flows drive edge widths, and the selections below say which states and
edges a pruned diagram keeps:

- :func:`likely_paths`: the ``k`` most probable complete games (start to an end: a
  terminal state, or a state where the throw offers no move), found by a k-best
  dynamic programme over the acyclic chain;
- :func:`reach_above`: the states reached with probability at least a threshold;
- :func:`neighbourhood`: a state's predecessors and successors to a depth.

:func:`decision_costs` prices a policy's mistakes against a solved game. For each outcome
:math:`k` (a throw at state :math:`s_k` with probability :math:`p_k`) the policy's
choice gives up :math:`\\ell_k` of value (:attr:`PolicyComparison.loss`: win probability,
expected score or expected margin, rewards included); its cost is
:math:`r(s_k)\\,p_k\\,\\ell_k`. In a one-player game the costs add up exactly to the
difference between the optimal and the policy's start value (the performance difference
identity, with :math:`r` the policy's own reach). In a two-player game, where the same
policy plays both sides, a cost counts against the player who makes the decision; the
first player's start value changes by the first player's costs minus the other's,
:math:`\\sum_k (r_0(s_k) - r_1(s_k))\\,p_k\\,\\ell_k` (:attr:`DecisionCost.net`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._checks import check_int
from ..errors import InvalidArgumentError
from ..policy import MarkovChain
from ..propagate import Propagation, propagate
from ..solve import Solution, evaluate
from ..tables import Table
from ..values import value_name
from .policies import PolicyComparison, as_policy, compare

#: Most paths :func:`likely_paths` returns.
MAX_PATHS = 1000


@dataclass(frozen=True, eq=False)
class GamePath:
    """One complete game: the states it visits and its probability.

    Attributes
    ----------
    states : tuple of int
        State numbers from the start to the end.
    edges : tuple of int
        The chain edges taken, one fewer than the states.
    probability : Fraction or float
        The probability of this exact sequence of moves, times the probability of
        stopping at the last state (1 at a terminal state, else the chance of a throw
        that offers no move).
    won : bool
        Whether it ends at a terminal state with a positive value, in a ``"win"`` game
        (always False in a score or margin game, where games are not won or lost).
    """

    states: tuple
    edges: tuple
    probability: Fraction | float
    won: bool


@dataclass(frozen=True, eq=False)
class Selection:
    """The part of a chain a pruned diagram draws.

    Attributes
    ----------
    states : ndarray of int
        State numbers kept, sorted.
    edges : ndarray of int
        Chain edge numbers kept (both ends among ``states``), sorted.
    caption : str
        What was kept, for a subtitle ("the 10 most likely games, 31 % of all games").
    paths : tuple of GamePath
        The games, for :func:`likely_paths`.
    focus : int or None
        The centre of a :func:`neighbourhood`.
    """

    states: np.ndarray
    edges: np.ndarray
    caption: str
    paths: tuple = ()
    focus: int | None = None

    def __repr__(self) -> str:
        return f"<Selection {self.caption!r}: {len(self.states)} states, {len(self.edges)} edges>"


def _topological_order(chain: MarkovChain) -> list[int]:
    """States reachable from the start, each after all its predecessors (Kahn)."""
    n = chain.graph.n_states
    reached = np.zeros(n, dtype=bool)
    reached[chain.graph.start] = True
    queue = deque([chain.graph.start])
    while queue:
        s = queue.popleft()
        for t in chain.edge_target[chain.edge_ptr[s] : chain.edge_ptr[s + 1]]:
            if not reached[t]:
                reached[t] = True
                queue.append(int(t))
    indegree = np.bincount(chain.edge_target[reached[chain.edge_source]], minlength=n).astype(
        np.int64
    )
    order, queue = [], deque([chain.graph.start])
    while queue:
        s = queue.popleft()
        order.append(s)
        for t in chain.edge_target[chain.edge_ptr[s] : chain.edge_ptr[s + 1]].tolist():
            indegree[t] -= 1
            if indegree[t] == 0:
                queue.append(t)
    if len(order) < int(reached.sum()):
        raise InvalidArgumentError(
            f"{chain.graph.rules.name} under this policy can revisit positions; "
            "the most likely games are defined for acyclic games only"
        )
    return order


def likely_paths(chain: MarkovChain, k: int = 10) -> Selection:
    """The ``k`` most probable complete games under the chain's policy.

    A k-best dynamic programme in topological order: each state keeps the ``k`` most
    probable ways to reach it; a game ends at a terminal state, or at any state with the
    probability of a throw that offers no move. Ties are broken by state number.

    Parameters
    ----------
    chain : MarkovChain
        An acyclic chain (InvalidArgumentError otherwise).
    k : int
        How many games, 1 to :data:`MAX_PATHS`.

    Examples
    --------
    On three cells the most likely game under 'max' ends at once: both dice show 4 to 6
    (9/36). Next, it flips 3 (13/36) and then throws no 1 or 2 (16/36): 13/81.

    >>> from gamegraph import Policy, build
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> graph = build(Jackpot(cells=3))
    >>> chain = Policy.from_agent(graph, AGENTS["max"]).chain(graph)
    >>> selection = likely_paths(chain, 2)
    >>> [([graph.states[i] for i in p.states], str(p.probability), p.won) for p in selection.paths]
    [([0], '1/4', False), ([0, 4], '13/81', False)]
    >>> selection.caption
    'the 2 most likely games (41 % of all games)'
    """
    k = check_int(k, "paths", low=1, high=MAX_PATHS)
    graph = chain.graph
    d = chain.denominator
    order = _topological_order(chain)
    # best[s]: up to k entries (probability, predecessor state, its entry, edge), best first
    best: dict[int, list] = {graph.start: [(Fraction(1), -1, -1, -1)]}
    incoming: dict[int, list] = {}
    ends = []
    for s in order:
        if s != graph.start:
            best[s] = sorted(incoming.pop(s), key=lambda c: (-c[0], c[1], c[2]))[:k]
        entries = best[s]
        if graph.terminal[s]:
            ends.extend((p, s, r, True) for r, (p, *_) in enumerate(entries))
            continue
        stuck = Fraction(int(chain.stuck_weight[s]), d)
        if stuck:
            ends.extend((p * stuck, s, r, False) for r, (p, *_) in enumerate(entries))
        for e in range(int(chain.edge_ptr[s]), int(chain.edge_ptr[s + 1])):
            p_edge = Fraction(int(chain.edge_weight[e]), d)
            target = incoming.setdefault(int(chain.edge_target[e]), [])
            target.extend((p * p_edge, s, r, e) for r, (p, *_) in enumerate(entries))
    ends.sort(key=lambda c: (-c[0], c[1], c[2]))
    paths = []
    for p, s, r, end_won in ends[:k]:
        states, edges = [s], []
        while s != graph.start:
            _, previous, r_previous, e = best[s][r]
            states.append(previous)
            edges.append(e)
            s, r = previous, r_previous
        won = bool(end_won and graph.objective == "win" and graph.terminal_value[states[0]] > 0)
        paths.append(GamePath(tuple(reversed(states)), tuple(reversed(edges)), p, won))
    share = sum((q.probability for q in paths), Fraction(0))
    states = sorted({s for q in paths for s in q.states})
    edges = sorted({e for q in paths for e in q.edges})
    games = "the most likely game" if len(paths) == 1 else f"the {len(paths)} most likely games"
    return Selection(
        states=np.array(states, dtype=np.int64),
        edges=np.array(edges, dtype=np.int64),
        caption=f"{games} ({_percent(share)} of all games)",
        paths=tuple(paths),
    )


def reach_above(chain: MarkovChain, reach: Propagation, min_reach: float) -> Selection:
    """The states reached with probability at least ``min_reach``, and the edges among them.

    Parameters
    ----------
    min_reach : float
        A probability in (0, 1].

    Examples
    --------
    >>> from gamegraph import Policy, build
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> from gamegraph.propagate import propagate
    >>> graph = build(Jackpot(cells=3))
    >>> policy = Policy.from_agent(graph, AGENTS["max"])
    >>> chain = policy.chain(graph)
    >>> selection = reach_above(chain, propagate(graph, policy), 0.2)
    >>> [graph.states[i] for i in selection.states]  # boards 2: 8/36, 4: 13/36, 6: 260/1296
    [0, 2, 4, 6]
    >>> selection
    <Selection 'positions reached in at least 20 % of games': 4 states, 4 edges>
    """
    if isinstance(min_reach, bool) or not isinstance(min_reach, (int, float, Fraction)):
        raise InvalidArgumentError(f"min_reach must be a probability in (0, 1], got {min_reach!r}")
    if not 0 < min_reach <= 1:
        raise InvalidArgumentError(f"min_reach must be a probability in (0, 1], got {min_reach!r}")
    r = reach.reach_probability
    keep = np.array([bool(x >= min_reach) and x > 0 for x in r], dtype=bool)
    edges = np.flatnonzero(keep[chain.edge_source] & keep[chain.edge_target])
    return Selection(
        states=np.flatnonzero(keep),
        edges=edges,
        caption=f"positions reached in at least {_percent(min_reach)} of games",
    )


def neighbourhood(chain: MarkovChain, state: int, depth: int = 2) -> Selection:
    """A state, the states that lead to it and the states it leads to, ``depth`` moves away.

    Parameters
    ----------
    state : int
        A state number (``graph.state_number(value)`` gives it from a state value).
    depth : int
        Moves in each direction, 1 to 50.

    Examples
    --------
    >>> from gamegraph import Policy, build
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> graph = build(Jackpot(cells=3))
    >>> chain = Policy.from_agent(graph, AGENTS["max"]).chain(graph)
    >>> around = neighbourhood(chain, graph.state_number(2), depth=1)  # cell 2 up
    >>> sorted(graph.states[i] for i in around.states), len(around.edges)
    ([0, 2, 3, 6], 3)
    """
    graph = chain.graph
    state = check_int(state, "state", low=0, high=graph.n_states - 1)
    depth = check_int(depth, "depth", low=1, high=50)
    kept = {state}
    for forward in (True, False):
        frontier = {state}
        for _ in range(depth):
            if forward:
                mask = np.isin(chain.edge_source, list(frontier))
                frontier = set(chain.edge_target[mask].tolist())
            else:
                mask = np.isin(chain.edge_target, list(frontier))
                frontier = set(chain.edge_source[mask].tolist())
            kept |= frontier
    keep = np.zeros(graph.n_states, dtype=bool)
    keep[list(kept)] = True
    edges = np.flatnonzero(keep[chain.edge_source] & keep[chain.edge_target])
    moves = "move" if depth == 1 else "moves"
    return Selection(
        states=np.flatnonzero(keep),
        edges=edges,
        caption=f"{depth} {moves} before and after one position",
        focus=state,
    )


@dataclass(frozen=True, eq=False)
class DecisionCost:
    """Where a policy's choice differs from the optimum at one position, and what it costs.

    One row per (position, the policy's move, the better move): the outcomes (throws)
    at which the policy makes that move while the other is better.

    Attributes
    ----------
    state : int
        The position (state number).
    taken_target, taken_move : int
        Where the policy's move leads, and the move (Jackpot: the cell flipped).
    better_target, better_move : int
        The same for the optimal move.
    outcomes : tuple of int
        The outcomes concerned.
    probability : Fraction or float
        The chance of one of those throws at this position.
    reach : Fraction or float
        The chance the policy reaches the position (its expected visits, by either player).
    cost : Fraction or float
        Value lost there by the player who decides (win probability, expected score or
        margin): sum over the outcomes of reach x p x loss.
    net : Fraction or float
        What the decisions there change in the first player's start value: ``cost`` in a
        one-player game; in a two-player game the first player's visits count positively
        and the other player's negatively. The ``net`` of all rows adds up to the gap in
        start value.
    """

    state: int
    taken_target: int
    taken_move: int
    better_target: int
    better_move: int
    outcomes: tuple
    probability: Fraction | float
    reach: Fraction | float
    cost: Fraction | float = field(default=0)
    net: Fraction | float = field(default=0)


def outcome_costs(
    comparison: PolicyComparison, reach: Propagation, *, net: bool = False
) -> np.ndarray:
    """reach(state) x p(outcome) x loss for every outcome: the value each decision gives up
    for the player who makes it. With ``net``, the first player's visits count positively
    and the other player's negatively, and the costs add up to the gap in start value (in a
    one-player game they do either way).

    ``reach`` must be the compared policy's propagation (exact for exact sums).
    """
    graph = comparison.solution.graph
    if reach.chain.policy is not comparison.policy and not np.array_equal(
        reach.chain.policy.choice, comparison.policy.choice
    ):
        raise InvalidArgumentError("reach must be the propagation of the compared policy")
    visits = reach.reach[0] - reach.reach[1] if net else reach.reach_probability
    r = visits[graph.outcome_state]
    if reach.exact:
        d = graph.denominator
        return np.array(
            [
                a * Fraction(int(w), d) * loss
                for a, w, loss in zip(r, graph.outcome_weight, comparison.loss)
            ],
            dtype=object,
        )
    return np.asarray(r, float) * graph.outcome_probability * comparison.loss.astype(float)


def decision_costs(comparison: PolicyComparison, reach: Propagation) -> list[DecisionCost]:
    """The policy's decisions that give up value, costliest first.

    Only outcomes where the policy's choice is strictly worse than the best count
    (ties cost nothing); they are grouped by position, the move taken and the better move.
    Their :attr:`~DecisionCost.net` costs add up to the difference in start value (so do
    their costs in a one-player game).

    Examples
    --------
    >>> from gamegraph import Policy, build, evaluate, solve
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> from gamegraph.propagate import propagate
    >>> from gamegraph.analysis import compare
    >>> graph = build(Jackpot(cells=3))
    >>> best = solve(graph, exact=True)
    >>> policy = Policy.from_agent(graph, AGENTS["max"])
    >>> rows = decision_costs(compare(best, policy), propagate(graph, policy, exact=True))
    >>> [(graph.states[r.state], r.taken_move, r.better_move, str(r.cost)) for r in rows][:2]
    [(0, 3, 1, '11/3888'), (2, 3, 1, '1/729')]
    >>> gap = best.start_value - evaluate(graph, policy, exact=True).start_value
    >>> sum(r.cost for r in rows) == gap
    True
    """
    graph = comparison.solution.graph
    costs = outcome_costs(comparison, reach)
    two_sided = bool(np.any(reach.reach[1] != 0))
    nets = outcome_costs(comparison, reach, net=True) if two_sided else costs
    taken = comparison.policy.chosen_option(graph)
    better = comparison.solution.policy.chosen_option(graph)
    r = reach.reach_probability
    groups: dict[tuple, list[int]] = {}
    for k in np.flatnonzero(comparison.suboptimal).tolist():
        key = (int(graph.outcome_state[k]), int(taken[k]), int(better[k]))
        key = (key[0], int(graph.option_target[key[1]]), int(graph.option_target[key[2]]))
        groups.setdefault(key, []).append(k)
    rows = []
    zero = Fraction(0) if reach.exact else 0.0
    for (s, t_taken, t_better), ks in groups.items():
        if reach.exact:
            p = sum((graph.probability(k) for k in ks), Fraction(0))
        else:
            p = float(graph.outcome_probability[ks].sum())
        rows.append(
            DecisionCost(
                state=s,
                taken_target=t_taken,
                taken_move=int(graph.option_move[taken[ks[0]]]),
                better_target=t_better,
                better_move=int(graph.option_move[better[ks[0]]]),
                outcomes=tuple(ks),
                probability=p,
                reach=r[s],
                cost=sum((costs[k] for k in ks), zero),
                net=sum((nets[k] for k in ks), zero),
            )
        )
    rows.sort(key=lambda row: (-row.cost, row.state, row.taken_target, row.better_target))
    return rows


@dataclass(frozen=True)
class PolicyDiff:
    """A policy against the optimum: its costly decisions and the two start values.

    Attributes
    ----------
    name : str
    costs : list of DecisionCost
        From :func:`decision_costs`, costliest first; their ``net`` costs add up to
        :attr:`gap`.
    value, optimum : Fraction or float
        The policy's and the optimal start value.
    graph : StateGraph
        The game, to name positions and moves in :meth:`table`.
    """

    name: str
    costs: list
    value: Fraction | float
    optimum: Fraction | float
    graph: object = field(default=None, repr=False, compare=False)

    @property
    def gap(self):
        """Value the policy gives up from the start (win probability, expected score or
        expected margin).
        """
        return self.optimum - self.value

    @property
    def _win(self) -> bool:
        return self.graph is None or self.graph.objective == "win"

    @property
    def _value_name(self) -> str:
        return "win probability" if self.graph is None else value_name(self.graph)

    def _amount(self, x) -> str:
        """A cost in words: wins per million games, or an amount of the game's value."""
        if self._win:
            return f"{1e6 * float(x):.1f} wins per million games"
        return f"{float(x):.6g} of {self._value_name}"

    @property
    def positions(self) -> int:
        """Positions holding at least one costly decision."""
        return len({row.state for row in self.costs})

    def __repr__(self) -> str:
        return (
            f"<PolicyDiff {self.name!r}: {len(self.costs)} decisions at {self.positions} "
            f"positions cost {self._amount(self.gap)}>"
        )

    def table(self, rows: int | None = None) -> Table:
        """The costliest ``rows`` decisions (all by default) as a table.

        Positions and moves are named by the rules (``label``, ``move_label``). Costs are
        in wins per million games in a win game, else in the game's value (expected score
        or margin); in a one-player game they add up to the gap in start value.
        """
        graph = self.graph
        shown = self.costs if rows is None else self.costs[:rows]
        label, move = graph.label, graph.rules.move_label
        scale, cost = (1e6, "per million") if self._win else (1, "cost")
        name = self._value_name
        if self._win:
            note = (
                "throws: the share of the throws at that position concerned; per million: "
                "reach x throws x win probability given up, in wins per million games."
            )
        else:
            note = (
                "throws: the share of the throws at that position concerned; cost: "
                f"reach x throws x {name} given up by the player deciding."
            )
        return Table(
            ("position", "throws", f"{self.name} takes", "better", "reach", cost),
            [
                (
                    label(row.state),
                    f"{row.probability * graph.denominator}/{graph.denominator}",
                    move(row.taken_move),
                    move(row.better_move),
                    float(row.reach),
                    scale * float(row.cost),
                )
                for row in shown
            ],
            title=(
                f"Where {self.name} gives up {name}: {len(self.costs)} decisions, "
                f"{self._amount(self.gap) if self._win else f'{float(self.gap):.6g}'} in all"
            ),
            notes=(note,),
            digits=4,
        )

    def to_pandas(self):
        """Every decision (:meth:`table`) as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.table().to_pandas()

    def _repr_html_(self) -> str:
        return self.table(rows=10).to_html()


def policy_diff(solution, policy, *, name: str | None = None) -> PolicyDiff:
    """Where ``policy`` gives up value (win probability, expected score or margin) against
    the solved game, and what it costs.

    ``policy`` is a Policy, an agent or a name (:func:`.policies.as_policy`):
    ``policy_diff(solution, AGENTS["hilo"])`` and ``policy_diff(solution, "hilo")`` are
    the same diff. Exact when ``solution`` is exact.

    Examples
    --------
    >>> from gamegraph import Policy, build, solve
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> graph = build(Jackpot())
    >>> diff = policy_diff(solve(graph, exact=True), AGENTS["hilo"])
    >>> diff
    <PolicyDiff 'hilo': 77 decisions at 67 positions cost 132.1 wins per million games>
    >>> diff.gap
    Fraction(69884645, 528958107648)
    >>> print(diff.table(rows=2).to_text())  # doctest: +NORMALIZE_WHITESPACE
    Where hilo gives up win probability: 77 decisions, 132.1 wins per million games in all
    position           throws  hilo takes  better    reach  per million
    2 3 4 5 6 7 8 9    4/36    2           3          0.25        22.08
    2 3 4 6 8 9        4/36    2           3       0.03061        12.86
    throws: ...
    """
    if not isinstance(solution, Solution):
        raise InvalidArgumentError(
            f"policy_diff takes a Solution first (solve(graph)), not {type(solution).__name__}"
        )
    graph = solution.graph
    policy = as_policy(graph, policy, solution=solution, name=name)
    reach = propagate(graph, policy, exact=solution.exact)
    costs = decision_costs(compare(solution, policy), reach)
    value = evaluate(graph, policy, exact=solution.exact).start_value
    return PolicyDiff(
        name=name or policy.name or "policy",
        costs=costs,
        value=value,
        optimum=solution.start_value,
        graph=graph,
    )


def _percent(p) -> str:
    """A probability as a short percentage: 12.5 %, 0.8 %, 0.0123 %."""
    x = 100 * float(p)
    if x >= 1 or x == 0:
        return f"{x:.3g} %"
    return f"{x:.2g} %"
