"""Forward propagation: where the games go when the player(s) follow a policy.

Start with probability 1 at the start state and push it along the policy's Markov chain
(:class:`~gamegraph.policy.MarkovChain`) in topological order, level by level in the
reverse of the solving order. Each state's mass is the expected number of visits; in a
DAG (Jackpot) it is the probability of reaching the state. Inside a cyclic component
the visits solve ``x = inflow + P^T x``.

The chain is tracked per side (who is to move relative to the player who started), so
for two-player games the win probability of the starting player comes out as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._threads import limit_blas
from .errors import InvalidArgumentError
from .graph import StateGraph
from .linear import solve_sparse
from .policy import MarkovChain, Policy


@dataclass(eq=False)
class Propagation:
    """Reach probabilities and end-of-game distribution under a policy.

    Attributes
    ----------
    reach : ndarray, shape (2, n)
        Expected visits of each state with the starting player (row 0) or the other
        player (row 1) to move; equal to the reach probability where states are not
        revisited.
    stuck : ndarray, shape (2, n)
        Probability that the game ends at a state because the mover has no option.
    """

    chain: MarkovChain
    reach: np.ndarray
    stuck: np.ndarray
    exact: bool

    @property
    def graph(self) -> StateGraph:
        return self.chain.graph

    @property
    def reach_probability(self) -> np.ndarray:
        """Visits of each state, whoever is to move."""
        return self.reach[0] + self.reach[1]

    @property
    def win_probability(self):
        """Probability that the player who moves first wins."""
        g = self.graph
        t = np.flatnonzero(g.terminal)
        values = self._terminal_values(t)
        win = sum(self.reach[0, t] * values) + sum(self.reach[1, t] * (1 - values))
        return win + sum(self.stuck[1])

    @property
    def expected_throws(self):
        """Expected number of throws in a game."""
        return sum(self.reach_probability[~self.graph.terminal])

    def end_probability(self) -> np.ndarray:
        """Probability that the game ends at each state (a terminal state, or stuck)."""
        ended = self.stuck[0] + self.stuck[1]
        t = self.graph.terminal
        ended[t] = self.reach_probability[t]
        return ended

    def stuck_by_layer(self) -> list:
        """Probability of being stuck (the game lost) in each layer of a layered game."""
        layers = self.graph.layers
        if layers is None:
            raise InvalidArgumentError(
                f"{self.graph.rules.name} states have no layers; stuck_by_layer needs a "
                "layered game such as Jackpot"
            )
        totals = [Fraction(0) if self.exact else 0.0 for _ in range(layers.max() + 1)]
        stuck = self.stuck[0] + self.stuck[1]
        for i in np.flatnonzero(stuck != 0):
            totals[layers[i]] += stuck[i]
        return totals

    def _terminal_values(self, t):
        if self.exact:
            return np.array([self.graph.terminal_exact[i] for i in t], dtype=object)
        return self.graph.terminal_value[t]


def propagate(
    graph: StateGraph, policy: Policy, *, exact: bool = False, blas_threads: int | None = None
) -> Propagation:
    """Push the start state's probability through ``graph`` under ``policy``.

    Parameters
    ----------
    graph : StateGraph
    policy : Policy
        One choice per outcome of ``graph``.
    exact : bool
        Compute Fractions instead of floats.
    blas_threads : int or None
        Threads BLAS may use during the call, a whole number from 1 to 1,024; None takes
        the environment variable ``GAMEGRAPH_BLAS_THREADS``, or 1 when it is unset. The
        limits in force before are restored when the call returns.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> result = propagate(graph, Policy.from_agent(graph, AGENTS["hilo"]), exact=True)
    >>> result.win_probability
    Fraction(660001525, 8264970432)
    >>> sum(result.end_probability())
    Fraction(1, 1)
    """
    with limit_blas(blas_threads):
        chain = policy.chain(graph)
        n = graph.n_states
        zero = Fraction(0) if exact else 0.0
        reach = np.empty(2 * n, dtype=object if exact else np.float64)
        reach[:] = zero
        reach[graph.start] = Fraction(1) if exact else 1.0
        if exact:
            prob = np.array(
                [Fraction(int(w), graph.denominator) for w in chain.edge_weight], dtype=object
            )
            stuck_p = np.array(
                [Fraction(int(w), graph.denominator) for w in chain.stuck_weight], dtype=object
            )
        else:
            prob = chain.edge_probability
            stuck_p = chain.stuck_weight / graph.denominator
        flip = chain.edge_passes.astype(np.int64) * n

        condensation = graph.condensation
        position = np.full(n, -1, dtype=np.int64)
        for level in reversed(condensation.levels):
            cyclic = condensation.cyclic[condensation.component[level]]
            if cyclic.any():
                _settle_cycles(chain, level[cyclic], reach, prob, flip, position, exact)
            edges = _edges_of(chain, level)
            src, dst = chain.edge_source[edges], chain.edge_target[edges]
            inside = np.zeros(len(edges), dtype=bool)
            if cyclic.any():
                inside = np.isin(dst, level[cyclic]) & np.isin(src, level[cyclic])
            for side in (0, 1):
                take = ~inside
                mass = reach[side * n + src[take]] * prob[edges[take]]
                dest = (side * n + dst[take] + flip[edges[take]]) % (2 * n)
                np.add.at(reach, dest, mass)
        reach = reach.reshape(2, n)
        stuck = reach * stuck_p
        return Propagation(chain=chain, reach=reach, stuck=stuck, exact=exact)


def _edges_of(chain, states):
    from .graph import expand_ranges

    return expand_ranges(chain.edge_ptr[states], chain.edge_ptr[states + 1])


def _settle_cycles(chain, states, reach, prob, flip, position, exact):
    """Solve x = inflow + P^T x on the cyclic states of a level, both sides at once."""
    n = chain.graph.n_states
    m = len(states)
    position[states] = np.arange(m)
    edges = _edges_of(chain, states)
    src, dst = chain.edge_source[edges], chain.edge_target[edges]
    inside = position[dst] >= 0
    edges, src, dst = edges[inside], src[inside], dst[inside]
    rows, cols, coefficients = [np.arange(2 * m)], [np.arange(2 * m)], []
    one = Fraction(1) if exact else 1.0
    coefficients.append(np.full(2 * m, one, dtype=object if exact else np.float64))
    for side in (0, 1):
        to_side = (side + (flip[edges] > 0)) % 2
        rows.append(to_side * m + position[dst])
        cols.append(side * m + position[src])
        coefficients.append(-prob[edges])
    inflow = np.concatenate([reach[states], reach[n + states]])
    x = solve_sparse(
        np.concatenate(rows),
        np.concatenate(cols),
        np.concatenate(coefficients),
        inflow,
        2 * m,
        exact=exact,
    )
    reach[states], reach[n + states] = x[:m], x[m:]
    position[states] = -1
