"""Positions for drawing a large graph, from its layers, in numpy (issue 25, step one).

Graphviz lays out a few hundred states well and 20,000 in minutes. A game's layers
(:meth:`Rules.layer <gamegraph.rules.Rules.layer>`: cells flipped, pegs left, pieces borne
off) already give one axis; what is left is the order of the states within each layer,
which decides how many edges cross. :func:`layered_layout` orders them by the
*barycentre heuristic* (Sugiyama, Tagawa and Toda 1981): each state moves to the mean
position of its neighbours in other layers, and the layer is sorted again; a few rounds
settle most crossings. Each round is one pass over the edges, a layer at a time in numpy.

The crossings of every round are counted exactly, and the round with the fewest is kept,
so a layout never has more crossings than the numbering order. A count is, for each pair
of neighbouring layers, the number of inversions of the edges' lower ends once they are
sorted by their upper ends: with numba installed (the ``fast`` extra) and at least
:data:`KERNEL_MIN_EDGES` edges between neighbouring layers, a compiled pass over the
edges grouped by upper end with a Fenwick tree, O(E log n); otherwise a merge count in
numpy, O(E log^2 E). Both give the same numbers, so the layout is the same either way.
Ur with 3 pieces (263,122 states, 2.48 M edges) takes about a second, a generated graph
of a million states and 8 M edges about 7 s (docs/performance.md).

A graph without layers is laid out by its distance from the start in moves
(:func:`distance_layers`); states the start cannot reach go after the farthest.
:func:`layered_positions` does the same for plain arrays (a state count, the edges and a
layer per state), without a :class:`~gamegraph.graph.StateGraph`.

The positions are geometry only: a renderer draws them; nothing here computes a value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _kernels
from .._checks import check_int
from .._extras import require
from .._numba_cache import njit
from ..csr import pointers
from ..graph import StateGraph
from ..rules import Rules

__all__ = [
    "KERNEL_MIN_EDGES",
    "Layout",
    "crossings",
    "distance_layers",
    "layered_layout",
    "layered_positions",
]

#: Crossings are counted by the compiled kernel from this many edges between neighbouring
#: layers on, when numba is installed (below it numpy is as quick, and numba's import and
#: cache load, about half a second, are not worth it).
KERNEL_MIN_EDGES = 200_000


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
        Edges between neighbouring layers that cross, counted exactly: never more than
        in the numbering order (every round is counted and the best one kept).
    """

    x: np.ndarray
    y: np.ndarray
    layers: np.ndarray
    rounds: int
    crossings: int


def _distinct(n: int, source: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each (source, target) pair once, self-loops left out, sorted by source then target.

    A sort, not ``np.unique``: numpy's hashing unique took 2 s for Ur's 2.5 M moves, the
    sort (of keys already nearly in order) 30 ms.
    """
    key = np.sort(np.asarray(source, dtype=np.int64) * n + np.asarray(target, dtype=np.int64))
    first = np.ones(len(key), dtype=bool)
    np.not_equal(key[1:], key[:-1], out=first[1:])
    source, target = np.divmod(key[first], n)
    keep = source != target
    return source[keep], target[keep]


def _edges(graph: StateGraph) -> tuple[np.ndarray, np.ndarray]:
    """Every (state, target) pair a move joins, once, self-loops left out."""
    source = graph.outcome_state[graph.option_outcome]
    return _distinct(graph.n_states, source, graph.option_target)


def _game_layers(graph: StateGraph) -> np.ndarray | None:
    """``graph.layers``, without asking every state when the rules keep
    :meth:`Rules.layer`'s default (None for every state, so no layers): asking each of
    Ur's 263,122 states took 2.3 s.
    """
    rules = getattr(graph, "rules", None)
    if "layers" not in vars(graph) and getattr(type(rules), "layer", None) is Rules.layer:
        return None
    return graph.layers


def distance_layers(graph: StateGraph) -> np.ndarray:
    """Each state's distance from the start in moves; states the start cannot reach get
    one more than the farthest.

    >>> from gamegraph import build
    >>> from gamegraph.games.pig import Pig
    >>> layers = distance_layers(build(Pig(4)))
    >>> int(layers[build(Pig(4)).start]), int(layers.max()) > 0
    (0, True)
    """
    return _distances(graph.n_states, *_edges(graph), graph.start)


def _distances(n: int, source: np.ndarray, target: np.ndarray, start: int) -> np.ndarray:
    """:func:`distance_layers` on arrays: the edges (any order) and the start's number."""
    from scipy.sparse import csr_matrix  # here, not at import: the command line loads this
    from scipy.sparse.csgraph import breadth_first_order

    adjacency = csr_matrix((np.ones(len(source), dtype=np.int8), (source, target)), shape=(n, n))
    order, parent = breadth_first_order(adjacency, start, directed=True)
    # Breadth-first order is by distance, and each state's parent was taken from the
    # queue before any later state's parent: the parents' positions never decrease. So
    # the states at distance d + 1 are those whose parents lie in the block at distance
    # d, and each block ends where a binary search finds the next block's parents.
    position = np.empty(n, dtype=np.int64)
    position[order] = np.arange(len(order))
    above = position[parent[order[1:]]]
    bounds = [0, 1]
    while bounds[-1] < len(order):
        bounds.append(1 + int(np.searchsorted(above, bounds[-1], side="left")))
    depth = np.full(n, -1, dtype=np.int64)
    depth[order] = np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))
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
        Every round's crossings are counted exactly and the round with the fewest is
        kept (the numbering order among them).

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
    source, target = _edges(graph)
    if layers is None:
        layers = _game_layers(graph)
        if layers is None:
            layers = _distances(graph.n_states, source, target, graph.start)
    return _positions(graph.n_states, source, target, layers, rounds)


def layered_positions(n: int, source, target, layers, *, rounds: int = 4) -> Layout:
    """:func:`layered_layout` on arrays: ``n`` states, edges ``source[i] -> target[i]``
    in any order (a repeated pair counts once, an edge from a state to itself not at all;
    ``s -> t`` and ``t -> s`` are two edges, as two moves are in a graph) and a layer per
    state.

    >>> layout = layered_positions(4, [0, 0, 1, 2], [2, 3, 3, 3], [0, 0, 1, 1])
    >>> layout.y.tolist(), layout.crossings, layered_positions(
    ...     4, [0, 0, 1, 2], [2, 3, 3, 3], [0, 0, 1, 1], rounds=0).crossings
    ([-0.5, 0.5, -0.5, 0.5], 0, 0)
    >>> layered_positions(3, [0, 1], [1, 2], [0, 0, 1], rounds=0).crossings
    0
    """
    n = check_int(n, "n", low=0)
    rounds = check_int(rounds, "rounds", low=0)
    source = np.asarray(source, dtype=np.int64).reshape(-1)
    target = np.asarray(target, dtype=np.int64).reshape(-1)
    if source.shape != target.shape:
        raise ValueError(f"give a target per source, not {target.shape} for {source.shape}")
    for name, ends in (("source", source), ("target", target)):
        if len(ends) and (ends.min() < 0 or ends.max() >= n):
            raise ValueError(f"{name} states are numbered 0 to {n - 1}")
    source, target = _distinct(n, source, target)
    return _positions(n, source, target, layers, rounds)


def _positions(n, source, target, layers, rounds) -> Layout:
    """The barycentre rounds on distinct edges (:func:`_distinct`)."""
    layers = np.asarray(layers, dtype=np.int64)
    if layers.shape != (n,):
        raise ValueError(f"give one layer per state ({n}), not {layers.shape}")
    rows = _Rows(layers)
    across = layers[source] != layers[target]
    ends = np.concatenate([source[across], target[across]])
    others = np.concatenate([target[across], source[across]])
    below = layers[others] < layers[ends]
    down = _Pulls(rows, ends[below], others[below])
    up = _Pulls(rows, ends[~below], others[~below])
    del across, ends, others, below
    gaps = _Gaps(rows, source, target)
    rank = rows.place.astype(np.float64)  # numbering order to start
    best, fewest = rank.copy(), gaps.count(rank, ranks=True)
    done = 0
    while done < rounds:
        done += 1
        before = rank.copy()
        for pulls, order in ((down, rows.indices), (up, rows.indices[::-1])):
            for row in order.tolist():
                pulls.settle(row, rank)
        if np.array_equal(before, rank):
            break
        crossing = gaps.count(rank, ranks=True)
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
        self.starts = pointers(self.sizes)
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


class _Gaps:
    """The edges between neighbouring rows, each as (upper end, lower end), the upper end
    in the row before; ``lower[ptr[s]:ptr[s + 1]]`` are the lower ends of state ``s``'s.
    """

    def __init__(self, rows: _Rows, source: np.ndarray, target: np.ndarray):
        row = rows.row
        forward = row[target] == row[source] + 1
        backward = row[source] == row[target] + 1
        upper = np.concatenate([source[forward], target[backward]])
        lower = np.concatenate([target[forward], source[backward]])
        order = np.argsort(upper, kind="stable")
        self.rows, self.upper, self.lower = rows, upper[order], lower[order]
        self.ptr = pointers(np.bincount(upper, minlength=len(row)))

    def count(self, place: np.ndarray, *, ranks: bool = False) -> int:
        """Crossings when each state sits at ``place`` in its row (any numbers; states of
        one row at the same place share a point: their edges do not cross each other).
        ``ranks`` says that the places of each row are 0, 1, ... already, in any order.
        """
        rows = self.rows
        if len(self.lower) < 2:
            return 0
        if ranks:
            rank = np.asarray(place).astype(np.int64)
            order = np.empty(len(rank), dtype=np.int64)
            order[rows.starts[rows.row] + rank] = np.arange(len(rank))
        else:
            rank, order = self._ranks(place)
        if len(self.lower) >= KERNEL_MIN_EDGES and _kernels.available():
            _compile()
            tree = np.zeros(int(rows.sizes.max()) + 1, dtype=np.int64)
            return int(_count_crossings(rows.starts, order, rank, self.ptr, self.lower, tree))
        return _crossings_by_merging(self.upper, self.lower, rows.row, rank)

    def _ranks(self, place) -> tuple[np.ndarray, np.ndarray]:
        """Places as dense ranks within each row (0, 1, ... in order of place, ties
        equal), and the states in order of row and place.
        """
        rows = self.rows
        order = np.lexsort((place, rows.row))
        value = np.asarray(place)[order]
        new = np.ones(len(order), dtype=bool)
        np.not_equal(value[1:], value[:-1], out=new[1:])
        new[rows.starts[:-1][rows.sizes > 0]] = True
        dense = np.cumsum(new) - 1
        dense -= dense[rows.starts[rows.row[order]]]
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = dense
        return rank, order


def crossings(graph: StateGraph, layout: Layout) -> int:
    """How many pairs of edges between neighbouring layers cross in ``layout`` (edges
    that skip a layer or stay within one are not counted; layers 0 and 2 are neighbours
    when no state is in layer 1). States of one layer at the same place share a point,
    and edges from one point, or to one point, do not cross.

    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot())
    >>> layout = layered_layout(graph)
    >>> crossings(graph, layout) == layout.crossings
    True
    """
    source, target = _edges(graph)
    return _Gaps(_Rows(np.asarray(layout.layers)), source, target).count(layout.y)


def _crossings_by_merging(upper, lower, row, place) -> int:
    """Crossings between neighbouring rows in numpy: per row pair, the inversions of the
    lower ends' places once the edges are sorted by their upper ends' places. The places
    are whole numbers from 0 (:meth:`_Gaps._ranks`).
    """
    # One sort for every row pair: by the upper row, the upper place, the lower place,
    # as one key when it fits (a lexsort and its gathers took 60 % of Ur's count).
    span = int(place.max()) + 1
    if (int(row.max()) + 1) * span * span < 2**62:
        key = np.sort((row[upper] * span + place[upper]) * span + place[lower])
        return _inversions(key % span, key // (span * span))
    order = np.lexsort((place[lower], place[upper], row[upper]))
    upper, lower = upper[order], lower[order]
    return _inversions(place[lower], row[upper])


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


# ---------------------------------------------------------------------------
# The compiled count (plain Python until _compile() swaps in its numba version)

_compiled = False


def _compile() -> None:
    """Replace :func:`_count_crossings` by its numba version (compiled or loaded from cache)."""
    global _compiled
    if not _compiled:
        numba = require("numba", "the compiled crossing count", "fast")
        globals()["_count_crossings"] = njit(numba)(_count_crossings)
        _compiled = True


def _count_crossings(starts, order, rank, ptr, lower, tree):  # pragma: no cover - compiled
    """Crossings between each row and the next: the row's states in order of ``rank``
    (``order[starts[r]:starts[r + 1]]``), each state's edges to the next row
    (``lower[ptr[s]:ptr[s + 1]]``) counting the edges of earlier-placed states whose lower
    ends are placed after theirs (a Fenwick tree over the next row's places, ``tree``
    at least one longer than the largest row). States of equal rank are all counted
    before any is added, so edges from one point do not cross each other.
    """
    total = 0
    for r in range(len(starts) - 2):
        size = starts[r + 2] - starts[r + 1]
        for k in range(size + 1):
            tree[k] = 0
        added = 0
        i, end = starts[r], starts[r + 1]
        while i < end:
            j = i + 1
            while j < end and rank[order[j]] == rank[order[i]]:
                j += 1
            for k in range(i, j):
                s = order[k]
                for e in range(ptr[s], ptr[s + 1]):
                    at_most = 0  # edges added whose lower ends are placed at or before e's
                    x = rank[lower[e]] + 1
                    while x > 0:
                        at_most += tree[x]
                        x -= x & -x
                    total += added - at_most
            for k in range(i, j):
                s = order[k]
                for e in range(ptr[s], ptr[s + 1]):
                    x = rank[lower[e]] + 1
                    while x <= size:
                        tree[x] += 1
                        x += x & -x
                    added += 1
            i = j
    return total
