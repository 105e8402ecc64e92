r"""The exact distribution of the final score, by forward propagation over the turns.

Under a fixed way of playing (optimal play from a solved table, or a simple strategy of
:mod:`gamegraph.games.yahtzee.strategies`) each turn-start position leads to a small
distribution of (points scored this turn, next position): the chance of each last throw
follows from the throws and the keeps taken (the same choices as
:mod:`gamegraph.games.yahtzee.simulate`, ties to the first keep and the first box), and
the box chosen for it fixes the points and the next position. Outcomes with the same
points and next position are merged.

The game is then a chain through the layers of positions with 0, 1, ..., n boxes filled.
Layer by layer, every position that can be reached carries the distribution of the score
so far, as one array over the range ``lo..hi`` of scores it can hold there (both known
before the layer is filled: the smallest and the largest sums that reach it); a position
of the next layer gathers, from every outcome that leads to it, its source's array
shifted by the points and times the outcome's chance. Only two layers are held at a
time, and only the positions play reaches. After the last turn the positions' arrays are
summed into the distribution of the final score. No sampling: the chances are exact up
to floating-point rounding (the total is 1 and the mean equals the solved value to about
1e-12).

Examples
--------
One die and one box, chance, played optimally: the first throw is kept from 5 up (the
value of throwing again is 4.25), the second from 4 up (3.5), so a 6 ends the turn with
chance 1/6 + 4/6 · 1/6 + 4/6 · 3/6 · 1/6 = 1/3.

>>> from fractions import Fraction
>>> from gamegraph.games.yahtzee.scoring import scoring
>>> from gamegraph.games.yahtzee.solver import solve_values
>>> small = scoring("yahtzee", boxes=("chance",), dice=1)
>>> d = score_distribution(solve_values(small))
>>> [str(Fraction(p).limit_denominator(1000)) for p in d.probabilities]
['0', '1/18', '1/18', '1/18', '1/6', '1/3', '1/3']
>>> round(d.mean, 12), d.median
(4.666666666667, 5)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..._extras import require
from ..._numba_cache import compile_kernels
from ...errors import InvalidArgumentError
from . import solver, strategies
from .scoring import Scoring
from .strategies import STRATEGIES, keep_rule

UPPER_STATES = solver.UPPER_STATES
CHUNK = 8192  # positions whose turn outcomes are computed at once

prange = range
_compiled = False


def _compile() -> None:
    """Swap the kernels below for their numba versions (compiled once, cached on disk)."""
    compile_kernels(
        globals(),
        require("numba", "the Yahtzee score distribution", "fast"),
        plain=("_outcomes", "_ranges"),
        parallel=("_chunk_outcomes", "_gather"),
        first=(solver._compile, strategies._compile),
        borrow={"_solver_turn": (solver, "_turn"), "_choose_box": (strategies, "_choose_box")},
    )


_solver_turn = solver._turn
_choose_box = strategies._choose_box


# ---------------------------------------------------------------------------
# Kernels (plain Python until _compile() swaps in their numba versions)
# ---------------------------------------------------------------------------
def _outcomes(
    pos, values, optimal, keeps, out_next, out_points, out_prob, flags, score, joker,
    upper_face, face_box, five, face, ybox, ybonus, upper_bonus, forced_joker, k_ptr,
    k_throw, k_prob, s_ptr, s_keep,
):  # fmt: skip
    """One position's turn: its (next position, points, chance) outcomes, merged, into
    the ``out_*`` arrays; returns how many.
    """
    n_throws = score.shape[0]  # pragma: no cover - runs compiled
    n_keeps = len(k_ptr) - 1
    flag = pos % flags
    upper = (pos // flags) % UPPER_STATES
    used = pos // flags // UPPER_STATES
    stages = np.zeros((1, 1))
    if optimal:
        stages = _solver_turn(
            used, upper, flag, values, flags, score, joker, upper_face, face_box, five,
            face, ybox, ybonus, upper_bonus, forced_joker, k_ptr, k_throw, k_prob, s_ptr,
            s_keep,
        )  # fmt: skip
    p = np.zeros(n_throws)
    for j in range(k_ptr[0], k_ptr[1]):
        p[k_throw[j]] += k_prob[j]
    q = np.zeros(n_keeps)
    for stage in range(2):
        q[:] = 0.0
        for t in range(n_throws):
            if p[t] == 0.0:
                continue
            if optimal:
                row = 3 if stage == 0 else 1  # K1, then K2
                best = -np.inf
                k = -1
                for j in range(s_ptr[t], s_ptr[t + 1]):
                    if stages[row, s_keep[j]] > best:
                        best = stages[row, s_keep[j]]
                        k = s_keep[j]
            else:
                k = keeps[stage, t]
            q[k] += p[t]
        p[:] = 0.0
        for k in range(n_keeps):
            if q[k] == 0.0:
                continue
            for j in range(k_ptr[k], k_ptr[k + 1]):
                p[k_throw[j]] += q[k] * k_prob[j]
    keys = np.empty(n_throws, dtype=np.int64)
    chance = np.empty(n_throws)
    n = 0
    for t in range(n_throws):
        if p[t] == 0.0:
            continue
        _, r, nxt = _choose_box(
            used, upper, flag, t, values, optimal, flags, score, joker, upper_face,
            face_box, five, face, ybox, ybonus, upper_bonus, forced_joker,
        )  # fmt: skip
        keys[n] = nxt * 4096 + int(r)
        chance[n] = p[t]
        n += 1
    order = np.argsort(keys[:n])
    m = 0
    for j in range(n):
        key = keys[order[j]]
        if m > 0 and out_next[m - 1] * 4096 + out_points[m - 1] == key:
            out_prob[m - 1] += chance[order[j]]
        else:
            out_next[m] = key // 4096
            out_points[m] = key % 4096
            out_prob[m] = chance[order[j]]
            m += 1
    return m


def _chunk_outcomes(
    sources, values, optimal, keeps, out_next, out_points, out_prob, out_count, flags,
    score, joker, upper_face, face_box, five, face, ybox, ybonus, upper_bonus,
    forced_joker, k_ptr, k_throw, k_prob, s_ptr, s_keep,
):  # fmt: skip
    """:func:`_outcomes` of every position of ``sources``, in parallel (row by source)."""
    for i in prange(len(sources)):  # pragma: no cover - runs compiled
        out_count[i] = _outcomes(
            sources[i], values, optimal, keeps, out_next[i], out_points[i], out_prob[i],
            flags, score, joker, upper_face, face_box, five, face, ybox, ybonus,
            upper_bonus, forced_joker, k_ptr, k_throw, k_prob, s_ptr, s_keep,
        )  # fmt: skip


def _ranges(edge_src, edge_tgt, edge_points, lo, hi, n_targets):
    """The score range of every target: the smallest and largest source score plus points."""
    t_lo = np.full(n_targets, 1 << 40, dtype=np.int64)  # pragma: no cover - runs compiled
    t_hi = np.full(n_targets, -1, dtype=np.int64)
    for e in range(len(edge_src)):
        s, t, r = edge_src[e], edge_tgt[e], edge_points[e]
        t_lo[t] = min(t_lo[t], lo[s] + r)
        t_hi[t] = max(t_hi[t], hi[s] + r)
    return t_lo, t_hi


def _gather(
    in_ptr, in_edge, edge_src, edge_points, edge_prob, lo, offset, data, t_lo, t_offset,
    t_data,
):  # fmt: skip
    """Every target's score array from its sources' arrays, in parallel over targets."""
    for t in prange(len(t_lo)):  # pragma: no cover - runs compiled
        base = t_offset[t]
        for j in range(in_ptr[t], in_ptr[t + 1]):
            e = in_edge[j]
            s = edge_src[e]
            p = edge_prob[e]
            shift = base + lo[s] + edge_points[e] - t_lo[t]
            start = offset[s]
            for x in range(offset[s + 1] - start):
                t_data[shift + x] += p * data[start + x]


# ---------------------------------------------------------------------------
# The Python side
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class ScoreDistribution:
    """The distribution of the final score.

    Attributes
    ----------
    player : str
        ``"optimal"`` or a strategy's name.
    probabilities : ndarray of float64
        The chance of every final score 0, 1, ..., the largest reachable.
    positions : tuple of int
        How many positions play reaches with 0, 1, ... boxes filled.
    seconds : float
        The time the propagation took.
    """

    player: str
    probabilities: np.ndarray
    positions: tuple = field(default=())
    seconds: float = 0.0

    @property
    def mean(self) -> float:
        return float(np.arange(len(self.probabilities)) @ self.probabilities)

    @property
    def std(self) -> float:
        scores = np.arange(len(self.probabilities))
        return float(np.sqrt(((scores - self.mean) ** 2) @ self.probabilities))

    def quantile(self, q: float) -> int:
        """The smallest score whose cumulative chance reaches ``q``."""
        return int(np.searchsorted(np.cumsum(self.probabilities), q - 1e-12))

    @property
    def median(self) -> int:
        return self.quantile(0.5)


def score_distribution(source, strategy: str | None = None, *, progress=None):
    """The exact distribution of the final score (see the module docstring).

    Parameters
    ----------
    source : ValueTable or Scoring
        A solved table, for optimal play; or the rules, with ``strategy``.
    strategy : {"greedy", "most of a kind"}, optional
        Play this simple strategy instead of optimally (``source`` may then be either).
    progress : callable, optional
        Called with (boxes filled, positions reached) after each layer.

    Returns
    -------
    ScoreDistribution
    """
    if isinstance(source, solver.ValueTable):
        scoring = source.scoring
    elif isinstance(source, Scoring):
        scoring = source
    else:
        raise InvalidArgumentError(
            f"source must be a ValueTable or a Scoring, got {type(source).__name__}"
        )
    optimal = strategy is None
    if optimal and not isinstance(source, solver.ValueTable):
        raise InvalidArgumentError("optimal play needs a solved ValueTable (or name a strategy)")
    if not optimal and strategy not in STRATEGIES:
        from ...errors import UnknownNameError

        raise UnknownNameError("strategy", strategy, STRATEGIES)
    _compile()
    started = time.perf_counter()
    tables = solver._tables(scoring)
    if optimal:
        values = source.values
        keeps = np.zeros((2, 1), dtype=np.int64)
    else:
        values = np.zeros((1 << len(scoring.boxes)) * UPPER_STATES * tables.flags)
        keeps = keep_rule(strategy, scoring.dice)
    n_throws = tables.score.shape[0]
    positions = np.zeros(1, dtype=np.int64)
    lo = np.zeros(1, dtype=np.int64)
    offset = np.array([0, 1], dtype=np.int64)
    data = np.ones(1)
    reached = [1]
    for filled in range(len(scoring.boxes)):
        srcs, tgts, points, probs = [], [], [], []
        for begin in range(0, len(positions), CHUNK):
            chunk = positions[begin : begin + CHUNK]
            out_next = np.empty((len(chunk), n_throws), dtype=np.int64)
            out_points = np.empty((len(chunk), n_throws), dtype=np.int64)
            out_prob = np.empty((len(chunk), n_throws))
            out_count = np.empty(len(chunk), dtype=np.int64)
            _chunk_outcomes(
                chunk, values, optimal, keeps, out_next, out_points, out_prob, out_count,
                *tables.arguments(),
            )  # fmt: skip
            mask = np.arange(n_throws) < out_count[:, None]
            srcs.append(np.nonzero(mask)[0] + begin)
            tgts.append(out_next[mask])
            points.append(out_points[mask])
            probs.append(out_prob[mask])
        edge_src = np.concatenate(srcs)
        next_positions, edge_tgt = np.unique(np.concatenate(tgts), return_inverse=True)
        edge_points = np.concatenate(points)
        edge_prob = np.concatenate(probs)
        del srcs, tgts, points, probs
        hi = lo + np.diff(offset) - 1
        t_lo, t_hi = _ranges(edge_src, edge_tgt, edge_points, lo, hi, len(next_positions))
        t_offset = np.zeros(len(next_positions) + 1, dtype=np.int64)
        np.cumsum(t_hi - t_lo + 1, out=t_offset[1:])
        in_edge = np.argsort(edge_tgt, kind="stable")
        in_ptr = np.zeros(len(next_positions) + 1, dtype=np.int64)
        np.cumsum(np.bincount(edge_tgt, minlength=len(next_positions)), out=in_ptr[1:])
        t_data = np.zeros(int(t_offset[-1]))
        _gather(
            in_ptr, in_edge, edge_src, edge_points, edge_prob, lo, offset, data, t_lo,
            t_offset, t_data,
        )  # fmt: skip
        positions, lo, offset, data = next_positions, t_lo, t_offset, t_data
        reached.append(len(positions))
        if progress is not None:
            progress(filled + 1, len(positions))
    hi = lo + np.diff(offset) - 1
    out = np.zeros(int(hi.max()) + 1)
    for i in range(len(positions)):
        out[lo[i] : hi[i] + 1] += data[offset[i] : offset[i + 1]]
    return ScoreDistribution(
        "optimal" if optimal else strategy, out, tuple(reached), time.perf_counter() - started
    )
