"""How a policy differs from an optimal one, as data that can be tabulated or drawn."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .policy import MarkovChain, Policy
from .solve import Solution


@dataclass(eq=False)
class PolicyComparison:
    """A policy measured against a solved game.

    Attributes
    ----------
    loss : ndarray
        For every outcome, how much win probability the policy's choice gives up against
        the best option (0 where it picks a best option or has no choice).
    differs : ndarray of bool
        Outcomes where the policy's choice differs from the solution's, ties included.
    """

    solution: Solution
    policy: Policy
    loss: np.ndarray
    differs: np.ndarray

    @property
    def suboptimal(self) -> np.ndarray:
        """Outcomes where the policy's choice is strictly worse than the best one."""
        return self.loss > (0 if self.solution.exact else 1e-12)

    def suboptimal_states(self) -> np.ndarray:
        """States with at least one outcome where the policy gives up value."""
        graph = self.solution.graph
        mask = np.zeros(graph.n_states, dtype=bool)
        mask[graph.outcome_state[self.suboptimal]] = True
        return mask

    def edge_mask(self, chain: MarkovChain) -> np.ndarray:
        """Chain edges taken at some outcome where the choice gives up value."""
        graph = self.solution.graph
        bad = self.suboptimal
        option = self.policy.chosen_option(graph)[bad]
        source = graph.outcome_state[bad]
        keys = set(zip(source.tolist(), graph.option_target[option].tolist()))
        return np.array(
            [(int(s), int(t)) in keys for s, t in zip(chain.edge_source, chain.edge_target)],
            dtype=bool,
        )

    def better_moves(self) -> list[tuple[int, int, int]]:
        """(state, optimal target, move) for every outcome where the policy gives up value."""
        graph = self.solution.graph
        best = self.solution.policy.chosen_option(graph)
        result = set()
        for k in np.flatnonzero(self.suboptimal):
            j = best[k]
            result.add(
                (
                    int(graph.outcome_state[k]),
                    int(graph.option_target[j]),
                    int(graph.option_move[j]),
                )
            )
        return sorted(result)


def compare(solution: Solution, policy: Policy) -> PolicyComparison:
    """Measure ``policy`` against the optimal values in ``solution``.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> solution = solve(graph, exact=True)
    >>> hilo = compare(solution, Policy.from_agent(graph, AGENTS["hilo"]))
    >>> int(hilo.suboptimal.sum()) > 0, bool((hilo.loss >= 0).all())
    (True, True)
    """
    graph = solution.graph
    policy.check(graph)
    values = solution.values
    q = values[graph.option_target]
    one = Fraction(1) if solution.exact else 1.0
    q = np.where(graph.option_passes, one - q, q)
    mine = solution.policy.chosen_option(graph)
    theirs = policy.chosen_option(graph)
    alive = theirs >= 0
    loss = np.zeros(graph.n_outcomes, dtype=values.dtype)
    if solution.exact:
        loss[:] = Fraction(0)
    loss[alive] = q[mine[alive]] - q[theirs[alive]]
    return PolicyComparison(solution=solution, policy=policy, loss=loss, differs=mine != theirs)
