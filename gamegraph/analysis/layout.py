"""Positions for drawing a large graph, from its layers, in numpy (issue 25, step one).

Graphviz lays out a few hundred states well and 20,000 in minutes. A game's layers
(:meth:`Rules.layer <gamegraph.rules.Rules.layer>`: cells flipped, pegs left, pieces borne
off) already give one axis; what is left is the order of the states within each layer,
which decides how many edges cross. :func:`layered_layout` orders them by the
*barycentre heuristic* (Sugiyama, Tagawa and Toda 1981): each state moves to the mean
position of its neighbours in other layers, and the layer is sorted again; a few rounds
settle most crossings. Each round is one pass over the edges, a layer at a time in numpy,
so Super Six at 130 pegs (48,396 states) takes about a second, where Graphviz takes
minutes (docs/performance.md).

A graph without layers is laid out by its distance from the start in moves
(:func:`distance_layers`); states the start cannot reach go after the farthest.

The positions are geometry only: a renderer draws them; nothing here computes a value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import check_int
from ..graph import StateGraph

__all__ = ["Layout", "crossings", "distance_layers", "layered_layout"]


@dataclass(frozen=True)
class Layout:
    """Where each state goes: ``x`` its layer, ``y`` its place within the layer
    (centred on 0, one unit apart).

    Attributes
    ----------
    x, y : numpy.ndarray of float64, one per state
    layers : numpy.ndarray of int64
        The layer of each state the layout used (the game's, or the distance from the
        start).
    rounds : int
        Barycentre rounds run.
    crossings : int
        Edges between neighbouring layers that cross: never more than in the numbering
        order (the best round is kept).
    """

    x: np.ndarray
    y: np.ndarray
    layers: np.ndarray
    rounds: int
    crossings: int


def _edges(graph: StateGraph) -> tuple[np.ndarray, np.ndarray]:
    """Every (state, target) pair a move joins, once, self-loops left out."""
    n = graph.n_states
    source = graph.outcome_state[graph.option_outcome].astype(np.int64)
    pairs = np.unique(source * n + graph.option_target.astype(np.int64))
    source, target = np.divmod(pairs, n)
    keep = source != target
    return source[keep], target[keep]


def distance_layers(graph: StateGraph) -> np.ndarray:
    """Each state's distance from the start in moves; states the start cannot reach get
    one more than the farthest.

    >>> from gamegraph import build
    >>> from gamegraph.games.pig import Pig
    >>> layers = distance_layers(build(Pig(4)))
    >>> int(layers[build(Pig(4)).start]), int(layers.max()) > 0
    (0, True)
    """
    from scipy.sparse import csr_matrix  # here, not at import: the command line loads this
    from scipy.sparse.csgraph import breadth_first_order

    n = graph.n_states
    source, target = _edges(graph)
    adjacency = csr_matrix((np.ones(len(source)), (source, target)), shape=(n, n))
    order, parent = breadth_first_order(adjacency, graph.start, directed=True)
    depth = np.full(n, -1, dtype=np.int64)
    depth[graph.start] = 0
    # Breadth-first order lists each parent before its children: one pass settles them.
    parents = parent[order[1:]].tolist()
    children = order[1:].tolist()
    values = depth.tolist()
    for child, above in zip(children, parents, strict=True):
        values[child] = values[above] + 1
    depth = np.array(values, dtype=np.int64)
    depth[depth < 0] = depth.max() + 1
    return depth


def layered_layout(graph: StateGraph, *, layers=None, rounds: int = 4) -> Layout:
    """Positions for every state: its layer across, barycentre order within the layer.

    Parameters
    ----------
    graph : StateGraph
    layers : array of int, optional
        A layer per state; by default the game's (``graph.layers``), else the distance
        from the start (:func:`distance_layers`).
    rounds : int
        Barycentre rounds, each a sweep down the layers and one back up (each layer
        ordered by its neighbours in the layers already swept); stops early once no
        state moves. 0 keeps the states in their numbering (breadth-first) order.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot())
    >>> layout = layered_layout(graph)
    >>> float(layout.x[graph.start]), sorted(set(layout.x.tolist())) == list(range(10))
    (0.0, True)
    >>> layout.crossings <= layered_layout(graph, rounds=0).crossings
    True
    """
    rounds = check_int(rounds, "rounds", low=0)
    if layers is None:
        layers = graph.layers if graph.layers is not None else distance_layers(graph)
    layers = np.asarray(layers, dtype=np.int64)
    if layers.shape != (graph.n_states,):
        raise ValueError(f"give one layer per state ({graph.n_states}), not {layers.shape}")
    rows = _Rows(layers)
    source, target = _edges(graph)
    across = layers[source] != layers[target]
    ends = np.concatenate([source[across], target[across]])
    others = np.concatenate([target[across], source[across]])
    below = layers[others] < layers[ends]
    down = _Pulls(rows, ends[below], others[below])
    up = _Pulls(rows, ends[~below], others[~below])
    rank = rows.place.astype(np.float64)  # numbering order to start
    best, fewest = rank.copy(), _crossings(source, target, rows.row, rank)
    done = 0
    while done < rounds:
        done += 1
        before = rank.copy()
        for pulls, order in ((down, rows.indices), (up, rows.indices[::-1])):
            for row in order.tolist():
                pulls.settle(row, rank)
        if np.array_equal(before, rank):
            break
        crossing = _crossings(source, target, rows.row, rank)
        if crossing < fewest:  # barycentres can do worse (Jackpot's cube): keep the best
            best, fewest = rank.copy(), crossing
    y = best - (rows.sizes[rows.row] - 1) / 2
    return Layout(x=layers.astype(np.float64), y=y, layers=layers, rounds=done, crossings=fewest)


class _Rows:
    """The states of each layer: ``members[starts[r]:starts[r + 1]]`` in numbering order,
    each state's ``row`` and its ``place`` in that list.
    """

    def __init__(self, layers: np.ndarray):
        values, self.row = np.unique(layers, return_inverse=True)
        self.row = self.row.reshape(-1)
        self.indices = np.arange(len(values))
        self.members = np.argsort(self.row, kind="stable")
        self.sizes = np.bincount(self.row, minlength=len(values))
        self.starts = np.concatenate([[0], np.cumsum(self.sizes)])
        self.place = np.empty(len(layers), dtype=np.int64)
        self.place[self.members] = np.arange(len(layers)) - self.starts[self.row[self.members]]


class _Pulls:
    """The edges from each row's states to states of rows already swept, grouped by row."""

    def __init__(self, rows: _Rows, ends: np.ndarray, others: np.ndarray):
        order = np.argsort(rows.row[ends], kind="stable")
        self.rows, self.ends, self.others = rows, ends[order], others[order]
        self.starts = np.searchsorted(rows.row[self.ends], np.arange(len(rows.sizes) + 1))

    def settle(self, row: int, rank: np.ndarray) -> None:
        """Sort ``row`` by the mean place of each state's pulling neighbours (a state with
        none keeps its place), writing the new places into ``rank``.
        """
        lo, hi = self.starts[row], self.starts[row + 1]
        if lo == hi:
            return
        rows = self.rows
        states = rows.members[rows.starts[row] : rows.starts[row + 1]]
        local = rows.place[self.ends[lo:hi]]
        size = len(states)
        pull = np.bincount(local, weights=rank[self.others[lo:hi]], minlength=size)
        count = np.bincount(local, minlength=size)
        here = rank[states]
        centre = np.where(count > 0, pull / np.maximum(count, 1), here)
        rank[states[np.lexsort((here, centre))]] = np.arange(size)


def crossings(graph: StateGraph, layout: Layout) -> int:
    """How many pairs of edges between neighbouring layers cross in ``layout`` (edges
    that skip a layer or stay within one are not counted).

    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot())
    >>> layout = layered_layout(graph)
    >>> crossings(graph, layout) == layout.crossings
    True
    """
    source, target = _edges(graph)
    row = np.unique(layout.layers, return_inverse=True)[1].reshape(-1)
    return _crossings(source, target, row, layout.y)


def _crossings(source, target, row, place) -> int:
    """Crossings between neighbouring rows: per row pair, the inversions of the lower
    ends' places once the edges are sorted by their upper ends' places.
    """
    forward = row[target] == row[source] + 1
    backward = row[source] == row[target] + 1
    upper = np.concatenate([source[forward], target[backward]])
    lower = np.concatenate([target[forward], source[backward]])
    # One sort for every row pair: by the upper row, the upper place, the lower place.
    order = np.lexsort((place[lower], place[upper], row[upper]))
    upper, lower = upper[order], lower[order]
    group = row[upper]
    return _inversions(place[lower], group)


def _inversions(values: np.ndarray, group: np.ndarray) -> int:
    """Pairs i < j in the same group (``group`` sorted) with values[i] > values[j].

    A bottom-up merge count with every block of a level handled at once: each block's
    keys are offset by its number, so one sort merges them all and one binary search
    counts, for each element of a right block, the larger ones in its left block.
    Pairs across groups are not counted: the group is the key's most significant part.

    >>> int(_inversions(np.array([3, 1, 2, 0, 1]), np.array([0, 0, 0, 1, 1])))
    2
    """
    n = len(values)
    if n < 2:
        return 0
    _, ranks = np.unique(values, return_inverse=True)
    span = int(ranks.max()) + 1
    # Groups apart by more than any rank: an element never counts one of another group.
    v = group.astype(np.int64) * span + ranks.reshape(-1).astype(np.int64)
    span = int(v.max()) + 1
    index = np.arange(n)
    count, width = 0, 1
    while width < n:
        pair = index // (2 * width)
        right = (index // width) % 2 == 1
        key = pair * span + v
        left = key[~right]  # sorted: each block is, and the offsets order the blocks
        at_most = np.searchsorted(left, key[right], side="right")
        pair_end = np.searchsorted(left, (pair[right] + 1) * span, side="left")
        count += int((pair_end - at_most).sum())
        v = np.sort(key) - pair * span
        width *= 2
    return count
