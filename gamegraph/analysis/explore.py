"""What the graph explorer shows: every state and move of a game, under several policies.

:func:`explore_graph` gathers, for a game graph, a solution and a few named policies:

per state
    the label, the layer (-1 where the game has none), the value (the probability that
    the player to move wins, under optimal play), the best moves (the moves the optimal
    policy makes there, each with the probability that a throw calls for it), and under
    each policy the reach probability (:func:`gamegraph.propagate.propagate`; expected
    visits where a cyclic game can come back to a state) and the probability of leaving
    the state (1 minus the chance of a throw that leaves no move; 0 at a terminal state);
per edge (state -> successor, every option of every throw merged)
    under each policy, the probability that the move along it is taken.

It also marks the edges a layered drawing should point downwards (``edge_forward``): an
edge to a lower solving level, or inside a strongly connected component an edge that
goes one breadth-first step further from the start. Those edges form a DAG, so Graphviz
``dot`` lays out cyclic games (Super Six, Ur) in well under a second where it otherwise
takes minutes.

A drawing of thousands of states is unreadable and slow to lay out, so :data:`MAX_STATES`
limits the states drawn; ``min_reach`` keeps only the states some policy reaches with at
least that probability (Ur with 2 pieces: 12,870 states, 700 of them above 0.01 under
optimal play).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import check_int
from ..errors import InvalidArgumentError
from ..graph import StateGraph
from ..policy import Policy
from ..propagate import propagate
from ..solve import Solution, solve

#: The most states the explorer draws (after ``min_reach``): Graphviz lays out 5,000
#: states in seconds and the page stays a few megabytes.
MAX_STATES = 5_000

#: Moves listed per state in ``best_moves``.
BEST_MOVES_SHOWN = 3


@dataclass(eq=False)
class Exploration:
    """The explorer's data for one graph (see the module docstring).

    Attributes
    ----------
    name : str
        The game's name.
    states : ndarray of int, shape (n,)
        The graph's state numbers drawn; everything below is indexed 0..n-1 in this order.
    labels : list of str
    layers : ndarray of int or None
        None when the game has no layers.
    terminal : ndarray of bool
    start : int
        Index (into ``states``) of the start state.
    values : ndarray of float
        Probability that the player to move wins, under optimal play.
    best_moves : list of list of (str, float)
        The optimal policy's moves at each state, the most likely first, with the
        probability that a throw calls for each (at most :data:`BEST_MOVES_SHOWN`).
    policies : tuple of str
        The optimal policy first.
    wins : ndarray of float, shape (p,)
        Probability that the player who moves first wins, under each policy.
    reach : ndarray of float, shape (p, n)
    leave : ndarray of float, shape (p, n)
        Probability of moving on from each state (edges drawn or not).
    edge_source, edge_target : ndarray of int, shape (m,)
        Indices into ``states``; self-loops included.
    edge_probability : ndarray of float, shape (p, m)
    edge_forward : ndarray of bool, shape (m,)
        The edges a layered layout should point downwards (they form a DAG).
    min_reach : float
        The threshold the states were kept by (0: every state).
    total_states : int
        States in the whole graph.
    """

    name: str
    states: np.ndarray
    labels: list
    layers: np.ndarray | None
    terminal: np.ndarray
    start: int
    values: np.ndarray
    best_moves: list
    policies: tuple
    wins: np.ndarray
    reach: np.ndarray
    leave: np.ndarray
    edge_source: np.ndarray
    edge_target: np.ndarray
    edge_probability: np.ndarray
    edge_forward: np.ndarray
    min_reach: float
    total_states: int

    @property
    def n_states(self) -> int:
        return len(self.states)

    @property
    def n_edges(self) -> int:
        return len(self.edge_source)

    def best_move(self, i: int) -> str:
        """The move the optimal policy makes most often at state ``i`` ('' if none)."""
        moves = self.best_moves[i]
        return moves[0][0] if moves else ""

    def __repr__(self) -> str:
        kept = (
            f"{self.n_states:,} of {self.total_states:,} states (reach >= {self.min_reach:g})"
            if self.n_states < self.total_states
            else f"{self.n_states:,} states"
        )
        return (
            f"Exploration({self.name!r}: {kept}, {self.n_edges:,} edges, "
            f"policies {', '.join(self.policies)})"
        )


def explore_graph(
    graph: StateGraph,
    solution: Solution | None = None,
    policies: dict | None = None,
    *,
    min_reach: float = 0.0,
    max_states: int = MAX_STATES,
    progress: bool | None = None,
) -> Exploration:
    """The explorer's data for ``graph``: states, values, best moves, reach and edges.

    Parameters
    ----------
    graph : StateGraph
    solution : Solution, optional
        Optimal values and policy; solved (in floats) when not given.
    policies : dict, optional
        More policies by name: :class:`~gamegraph.policy.Policy` objects or anything
        :meth:`Policy.from_agent` accepts. The optimal policy comes first as ``optimal``.
    min_reach : float
        Keep only the states that some policy reaches with at least this probability
        (expected visits in a cyclic game); the start is always kept.
    max_states : int
        Refuse to draw more states than this (default :data:`MAX_STATES`).
    progress : bool, optional
        Progress bars on stderr for the solve (see :mod:`gamegraph._progress`).

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot(cells=3))
    >>> data = explore_graph(graph, policies={"max": AGENTS["max"]})
    >>> data
    Exploration('jackpot': 8 states, 12 edges, policies optimal, max)
    >>> data.labels[data.start], data.best_moves[data.start]
    ('START', [('1', 0.3055...), ('2', 0.25), ('3', 0.1944...)])
    >>> [round(float(r), 4) for r in data.reach[:, data.labels.index("WIN")]]
    [0.1436, 0.1371]
    """
    check_int(max_states, "max_states", low=1)
    if not (isinstance(min_reach, (int, float)) and 0 <= min_reach <= 1):
        raise InvalidArgumentError(f"min_reach {min_reach!r}: accepted a number from 0 to 1")
    name = getattr(graph.rules, "name", "game")
    if min_reach == 0 and graph.n_states > max_states:
        _too_many(name, graph.n_states, max_states, pruned=False)
    if solution is None:
        solution = solve(graph, progress=progress)
    named = {"optimal": solution.policy}
    for key, policy in (policies or {}).items():
        if key == "optimal":
            continue
        named[key] = policy if isinstance(policy, Policy) else Policy.from_agent(graph, policy, key)

    n = graph.n_states
    chains = {key: policy.chain(graph) for key, policy in named.items()}
    runs = {key: propagate(graph, policy) for key, policy in named.items()}
    reach_all = np.array([np.asarray(runs[key].reach_probability, float) for key in named])

    keep = np.ones(n, dtype=bool) if min_reach == 0 else (reach_all >= min_reach).any(axis=0)
    keep[graph.start] = True
    states = np.flatnonzero(keep)
    if len(states) > max_states:
        _too_many(name, len(states), max_states, pruned=min_reach > 0, total=n)
    index = np.full(n, -1, dtype=np.int64)
    index[states] = np.arange(len(states))

    # Edges: every (state, successor) pair among the kept states, all options merged.
    source = graph.outcome_state[graph.option_outcome]
    target = graph.option_target
    inside = keep[source] & keep[target]
    pairs = np.unique(source[inside] * n + target[inside])
    edge_source, edge_target = pairs // n, pairs % n
    probability = np.zeros((len(named), len(pairs)))
    leave = np.zeros((len(named), len(states)))
    for p, chain in enumerate(chains.values()):
        key = chain.edge_source * n + chain.edge_target
        where = np.searchsorted(pairs, key)
        found = (where < len(pairs)) & (pairs[np.minimum(where, len(pairs) - 1)] == key)
        np.add.at(probability[p], where[found], chain.edge_probability[found])
        moving = 1 - chain.stuck_weight[states] / graph.denominator
        leave[p] = np.where(graph.terminal[states], 0.0, moving)

    values = np.array([float(v) for v in solution.values[states]])
    return Exploration(
        name=name,
        states=states,
        labels=[graph.label(int(i)) for i in states],
        layers=None if graph.layers is None else graph.layers[states],
        terminal=graph.terminal[states].copy(),
        start=int(index[graph.start]),
        values=values,
        best_moves=_best_moves(graph, solution.policy, states),
        policies=tuple(named),
        wins=np.array([float(runs[key].win_probability) for key in named]),
        reach=reach_all[:, states],
        leave=leave,
        edge_source=index[edge_source],
        edge_target=index[edge_target],
        edge_probability=probability,
        edge_forward=_forward_edges(graph, edge_source, edge_target),
        min_reach=float(min_reach),
        total_states=n,
    )


def _too_many(name, count, limit, *, pruned, total=None):
    if pruned:
        raise InvalidArgumentError(
            f"{name}: {count:,} of its {total:,} states pass min_reach; the explorer draws at "
            f"most {limit:,}: raise min_reach or try a smaller game"
        )
    raise InvalidArgumentError(
        f"{name} has {count:,} states; the explorer draws at most {limit:,}: try a smaller "
        f"game (fewer pegs or pieces) or keep only likely states with min_reach"
    )


def _best_moves(graph: StateGraph, policy: Policy, states: np.ndarray) -> list:
    """Per state, the optimal moves with the probability a throw calls for each."""
    chosen = policy.chosen_option(graph)
    taken = np.flatnonzero(chosen >= 0)
    owner = graph.outcome_state[taken]
    moves = graph.option_move[chosen[taken]].astype(np.int64)
    weight = graph.outcome_weight[taken]
    wanted = np.zeros(graph.n_states, dtype=bool)
    wanted[states] = True
    totals: dict = {}
    for i, move, w in zip(owner.tolist(), moves.tolist(), weight.tolist()):
        if wanted[i]:
            row = totals.setdefault(i, {})
            row[move] = row.get(move, 0) + w
    label = graph.rules.move_label
    result = []
    for i in states.tolist():
        row = sorted(totals.get(i, {}).items(), key=lambda item: (-item[1], item[0]))
        result.append([(label(move), w / graph.denominator) for move, w in row[:BEST_MOVES_SHOWN]])
    return result


def _forward_edges(graph: StateGraph, source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Edges to a lower solving level, or one breadth-first step on inside a component."""
    condensation = graph.condensation
    level = np.empty(graph.n_states, dtype=np.int64)
    for h, members in enumerate(condensation.levels):
        level[members] = h
    n = graph.n_states
    from scipy.sparse import csr_matrix  # here, not at import: the command line loads this
    from scipy.sparse.csgraph import shortest_path

    adjacency = csr_matrix((np.ones(len(source)), (source, target)), shape=(n, n))
    depth = shortest_path(adjacency, indices=graph.start, unweighted=True)
    component = condensation.component
    same = component[source] == component[target]
    down = level[target] < level[source]
    return down | (same & np.isfinite(depth[source]) & (depth[target] > depth[source]))
