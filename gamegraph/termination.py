"""Termination: the states from which the game can end, under every policy or under one.

A cyclic game is only solvable where play ends with probability one. These checks work
on the option graph alone (no values): :func:`can_end` finds the states from which some
choice of options ends the game surely, :func:`sure_to_end` those from which a given
policy does, and :func:`ending_choice` repairs a policy's choices where they stall. The
solvers raise :class:`~gamegraph.errors.NonTerminatingGameError` for the other states,
named by :func:`name_states` (see docs/solver.md, Termination).
"""

from __future__ import annotations

import numpy as np

from .csr import expand_ranges


def _reach_back(n, sources, targets, seeds) -> tuple[np.ndarray, np.ndarray]:
    """Breadth-first search backwards along the edges ``sources -> targets`` from ``seeds``.

    Returns (reached, distance): whether each state reaches a seed, and in how many edges
    (-1 where it does not).
    """
    order = np.argsort(targets)  # any order: distances do not depend on it
    back = sources[order]
    ptr = np.concatenate([[0], np.cumsum(np.bincount(targets, minlength=n))])
    distance = np.full(n, -1, dtype=np.int64)
    frontier = np.flatnonzero(seeds)
    d = 0
    while len(frontier):
        distance[frontier] = d
        above = back[expand_ranges(ptr[frontier], ptr[frontier + 1])]
        frontier = np.unique(above[distance[above] < 0])
        d += 1
    return distance >= 0, distance


def can_end(graph, allowed=None, states=None, *, _local=None) -> tuple[np.ndarray, np.ndarray]:
    """The states from which the game can end with probability one.

    The players may pick, at every outcome, any option ``allowed`` marks (a boolean per
    option; default: every option). A state qualifies when some choice of allowed options
    ends the game with probability one from it: terminal states and states with an
    outcome that offers no option end it at once. Computed as the largest set ``X`` such
    that every outcome of a state in ``X`` offers an allowed option into ``X`` (or none
    at all) and every state of ``X`` reaches an ending state within ``X``.

    With ``states`` (state numbers) only those states are examined, ``allowed`` has one
    entry per option of theirs in graph order, and a move out of them counts as an end
    (the solver checks a component whose successors are solved already).

    Returns
    -------
    (ok, rank) : ndarray of bool, ndarray of int
        Per state (of ``states`` if given): whether the game can end surely from it, and
        the fewest throws to an ending state within that set (-1 outside it). Choosing,
        at every outcome, an allowed option into the set of least rank ends the game with
        probability one from every state of the set.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from gamegraph import Option, Outcome, Rules, build
    >>> class Loop(Rules):  # from "A" the only option passes the turn back to "A"
    ...     def start(self):
    ...         return "A"
    ...     def terminal_value(self, state):
    ...         return None
    ...     def outcomes(self, state):
    ...         return [Outcome(Fraction(1), (Option("A", passes=True),))]
    >>> ok, rank = can_end(build(Loop()))
    >>> ok.tolist(), rank.tolist()
    ([False], [-1])
    """
    local = _local or _Local(graph, states)
    n = local.n
    if allowed is None:
        allowed = np.ones(len(local.target), dtype=bool)
    source, target = local.source, local.target
    ending = np.zeros(n + 1, dtype=bool)
    ending[:n] = local.terminal
    ending[local.outcome_state[local.stuck]] = True
    ending[n] = True  # "outside": solved already
    inside = np.ones(n + 1, dtype=bool)
    while True:
        usable = allowed & inside[target]
        counts = np.bincount(local.option_outcome[usable], minlength=len(local.stuck))
        covered = local.stuck | (counts > 0)
        safe = inside.copy()
        safe[local.outcome_state[~covered]] = False
        edges = usable & safe[source] & safe[target]
        reached, rank = _reach_back(n + 1, source[edges], target[edges], ending & safe)
        if np.array_equal(reached, inside):
            return reached[:n], rank[:n]
        inside = reached


class _Local:
    """A graph's arrays, or those of a subset of its states (targets outside it -> n)."""

    def __init__(self, graph, states):
        if states is not None and len(states) == graph.n_states:
            states = None  # every state: the graph's own arrays, in the same order
        if states is None:
            self.n = graph.n_states
            self.terminal = graph.terminal
            self.outcome_state = graph.outcome_state
            self.option_outcome = graph.option_outcome
            self.option_ptr = graph.option_ptr
            self.target = graph.option_target
        else:
            states = np.asarray(states, dtype=np.int64)
            self.n = len(states)
            self.terminal = graph.terminal[states]
            optr = graph.outcome_ptr
            outcomes = expand_ranges(optr[states], optr[states + 1])
            self.outcome_state = np.repeat(np.arange(self.n), optr[states + 1] - optr[states])
            per_outcome = graph.option_ptr[outcomes + 1] - graph.option_ptr[outcomes]
            self.option_outcome = np.repeat(np.arange(len(outcomes)), per_outcome)
            self.option_ptr = np.concatenate([[0], np.cumsum(per_outcome)])
            options = expand_ranges(graph.option_ptr[outcomes], graph.option_ptr[outcomes + 1])
            position = np.full(graph.n_states, self.n, dtype=np.int64)
            position[states] = np.arange(self.n)
            self.target = position[graph.option_target[options]]
        self.stuck = np.diff(self.option_ptr) == 0
        self.source = self.outcome_state[self.option_outcome]


def sure_to_end(graph, choice, states=None) -> np.ndarray:
    """Whether the game ends with probability one from each state under a policy's
    ``choice`` (one option index per outcome, -1 where none; with ``states``, per outcome
    of those states, as for :func:`can_end`).
    """
    local = _Local(graph, states)
    return _sure(graph, choice, local)


def _sure(graph, choice, local):
    allowed = np.zeros(len(local.target), dtype=bool)
    picked = choice >= 0
    allowed[local.option_ptr[:-1][picked] + choice[picked]] = True
    return can_end(graph, allowed, _local=local)[0]


def ending_choice(graph, allowed, choice, states=None) -> tuple[np.ndarray, np.ndarray]:
    """Repair ``choice`` so that the game surely ends, using only ``allowed`` options.

    Where ``choice`` already ends the game surely it is kept. Elsewhere every outcome
    takes the allowed option into :func:`can_end`'s set with the least rank (the first
    such option on ties). Returns (new choice, per state whether no allowed choice ends
    the game surely from it). ``states`` as for :func:`can_end`.
    """
    local = _Local(graph, states)
    fine = _sure(graph, choice, local)
    if fine.all():
        return np.array(choice, copy=True), ~fine
    ok, rank = can_end(graph, allowed, _local=local)
    counts = np.diff(local.option_ptr)
    fix = np.flatnonzero(~fine[local.outcome_state] & (counts > 0))
    choice = np.array(choice, copy=True)
    if len(fix):
        options = expand_ranges(local.option_ptr[fix], local.option_ptr[fix + 1])
        owner = np.repeat(np.arange(len(fix)), counts[fix])
        rank = np.append(rank, 0)  # "outside" ends the game
        r = rank[local.target[options]].astype(np.float64)
        r[~allowed[options] | (r < 0)] = np.inf
        starts = np.concatenate([[0], np.cumsum(counts[fix])[:-1]])
        best = np.minimum.reduceat(r, starts)
        hit = np.flatnonzero((r == best[owner]) & np.isfinite(r))
        owners, first = np.unique(owner[hit], return_index=True)  # the first hit of each
        choice[fix[owners]] = hit[first] - starts[owners]
    return choice, ~ok & ~fine


def name_states(graph, states, limit: int = 3) -> str:
    """'N states (A, B, C, ...)': how many ``states`` (numbers) there are and the first labels."""
    states = np.asarray(states)
    labels = ", ".join(graph.label(int(i)) for i in states[:limit])
    more = ", ..." if len(states) > limit else ""
    count = f"{len(states):,} state" + ("s" if len(states) != 1 else "")
    return f"{count} ({labels}{more})"
