r"""The compact solver: every turn-start position of Yahtzee or Yatzy, from the end back.

A game of Yahtzee as one explicit graph would hold about 10^9 states. Between turns only
three things matter: which boxes are filled (a bit per box), the upper boxes' total
capped at 63 (beyond it the bonus is earned and nothing changes), and, in Yahtzee,
whether the Yahtzee box holds 50 (further Yahtzees then pay 100). A turn-start position
is numbered

.. math::

    i = (\text{used} \cdot 64 + \text{upper}) \cdot F + \text{flag},

with F = 2 for Yahtzee and 1 for Yatzy: 2^13 · 64 · 2 = 1,048,576 positions for
Yahtzee, 2^15 · 64 = 2,097,152 for Yatzy (some cannot occur; they cost little). Its
value V(i) is the expected score still to come under optimal play; the game's value is
V of the empty card. A position depends only on positions with one more box filled, so
positions are solved by the number of boxes filled, the most first, each group in
parallel over the cores (numba ``prange``).

Each position's turn is one small graph, the same for every position (the *widget*):
with :math:`E_3(t)` the best of the last throw t (the best open box: its score, any bonus,
plus V of the position it leads to),

.. math::

    K_r(k) = \sum_t P(t \mid k)\, E_{r+1}(t), \qquad
    E_r(t) = \max_{k \subseteq t} K_r(k), \qquad
    V = \sum_t P(t \mid \varnothing)\, E_1(t),

over the 252 throws t and the 462 keeps k (:mod:`gamegraph.games.yahtzee.dice`), for
the two throws again (r = 2, 1). That is about 22,000 multiply-adds per position.

:func:`turn` recomputes one position's widget for advice, in microseconds, from a
solved table.

Examples
--------
>>> from gamegraph.games.yahtzee.scoring import scoring
>>> table = solve_values(scoring("yahtzee", boxes=("sixes", "chance")))
>>> round(table.start_value, 6)
37.343785
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..._extras import require
from ..._numba_cache import compile_kernels
from ...errors import InvalidArgumentError
from .dice import counts, multisets, sub_keeps, throw_chances
from .scoring import BONUS_THRESHOLD, Scoring

UPPER_STATES = BONUS_THRESHOLD + 1  # upper totals 0..63 (63: the bonus is earned)

prange = range
_compiled = False


def _compile() -> None:
    """Swap the kernels below for their numba versions (compiled once, cached on disk)."""
    compile_kernels(
        globals(),
        require("numba", "the compact Yahtzee solver", "fast"),
        inline=("_choose_box", "_widget"),
        plain=("_turn",),
        parallel=("_layer",),
    )


# ---------------------------------------------------------------------------
# Kernels (plain Python until _compile() swaps in their numba versions)
# ---------------------------------------------------------------------------
def _choose_box(
    used, upper, flag, t, values, by_value, flags, score, joker, upper_face, face_box,
    five, face, ybox, ybonus, upper_bonus, forced_joker,
):  # fmt: skip
    """The box for the last throw ``t``: the most points now, or (``by_value``) the most
    points now plus the next position's value; ties to the first box. Returns (box,
    points, next position).

    The one statement of the box rules every kernel of the package shares: the joker (free
    or forced), the Yahtzee bonus while the flag is set, the upper bonus when the upper
    total reaches 63, and the position the box leads to.
    """
    n_boxes = score.shape[1]  # pragma: no cover - runs compiled
    lower_open = False
    for b in range(n_boxes):
        if upper_face[b] == 0 and not (used >> b) & 1:
            lower_open = True
    is_joker = five[t] and ybox >= 0 and (used >> ybox) & 1
    bonus = ybonus if is_joker and flag else 0
    upper_open = False  # the joker's own upper box is open
    fb = -1
    if is_joker:
        fb = face_box[face[t]]
        upper_open = fb >= 0 and not (used >> fb) & 1
    full = is_joker and not upper_open  # full house and straights in full
    best = -np.inf
    box, points, nxt = -1, 0.0, -1
    for b in range(n_boxes):
        if (used >> b) & 1:
            continue
        if is_joker and forced_joker:
            if upper_open and b != fb:
                continue  # forced into its own upper box
            if not upper_open and lower_open and upper_face[b] > 0:
                continue  # else a lower box while one is open
        s = joker[t, b] if full else score[t, b]
        r = float(s + bonus)
        nu = upper
        if upper_face[b] > 0:
            nu = min(upper + s, UPPER_STATES - 1)
            if upper < UPPER_STATES - 1 and upper + s >= UPPER_STATES - 1:
                r += upper_bonus
        nf = flag
        if b == ybox and s > 0:
            nf = 1
        if flags == 1:
            nf = 0
        i = ((used | (1 << b)) * UPPER_STATES + nu) * flags + nf
        q = r + values[i] if by_value else r
        if q > best:
            best, box, points, nxt = q, b, r, i
    return box, points, nxt


def _widget(
    used, upper, flag, values, flags, score, joker, upper_face, face_box, five, face,
    ybox, ybonus, upper_bonus, forced_joker, k_ptr, k_throw, k_prob, s_ptr, s_keep, e, k, e3,
):  # fmt: skip
    """One position's turn: the best last throws into ``e3`` (and ``e``), the keeps of
    each throw again into ``k``/``e``; returns the position's value.
    """
    n_throws = score.shape[0]  # pragma: no cover - runs compiled
    for t in range(n_throws):
        _, points, nxt = _choose_box(
            used, upper, flag, t, values, True, flags, score, joker, upper_face, face_box,
            five, face, ybox, ybonus, upper_bonus, forced_joker,
        )  # fmt: skip
        e[t] = points + values[nxt]
        e3[t] = e[t]
    for _ in range(2):
        for kk in range(len(k_ptr) - 1):
            total = 0.0
            for p in range(k_ptr[kk], k_ptr[kk + 1]):
                total += k_prob[p] * e[k_throw[p]]
            k[kk] = total
        for t in range(n_throws):
            best = -np.inf
            for p in range(s_ptr[t], s_ptr[t + 1]):
                if k[s_keep[p]] > best:
                    best = k[s_keep[p]]
            e[t] = best
    total = 0.0
    for p in range(k_ptr[0], k_ptr[1]):
        total += k_prob[p] * e[k_throw[p]]
    return total


def _layer(
    useds, values, flags, score, joker, upper_face, face_box, five, face, ybox, ybonus,
    upper_bonus, forced_joker, k_ptr, k_throw, k_prob, s_ptr, s_keep,
):  # fmt: skip
    """Solve every position whose filled boxes are one of ``useds``, in parallel."""
    n_throws = score.shape[0]  # pragma: no cover - runs compiled
    n_keeps = len(k_ptr) - 1
    for i in prange(len(useds)):
        used = useds[i]
        e = np.empty(n_throws)
        e3 = np.empty(n_throws)
        k = np.empty(n_keeps)
        for upper in range(UPPER_STATES):
            for flag in range(flags):
                values[(used * UPPER_STATES + upper) * flags + flag] = _widget(
                    used, upper, flag, values, flags, score, joker, upper_face, face_box,
                    five, face, ybox, ybonus, upper_bonus, forced_joker, k_ptr, k_throw,
                    k_prob, s_ptr, s_keep, e, k, e3,
                )  # fmt: skip


def _turn(
    used, upper, flag, values, flags, score, joker, upper_face, face_box, five, face, ybox,
    ybonus, upper_bonus, forced_joker, k_ptr, k_throw, k_prob, s_ptr, s_keep,
):  # fmt: skip
    """One position's widget, every stage: (E3, K2, E2, K1, E1, V)."""
    n_throws = score.shape[0]  # pragma: no cover - runs compiled
    n_keeps = len(k_ptr) - 1
    e = np.empty(n_throws)
    e3 = np.empty(n_throws)
    k = np.empty(n_keeps)
    _widget(
        used, upper, flag, values, flags, score, joker, upper_face, face_box, five, face,
        ybox, ybonus, upper_bonus, forced_joker, k_ptr, k_throw, k_prob, s_ptr, s_keep, e,
        k, e3,
    )  # fmt: skip
    # Again, stage by stage (the widget keeps only its last stage).
    stages = np.empty((5, max(n_throws, n_keeps)))
    stages[0, :n_throws] = e3
    e[:] = e3
    for r in range(2):
        for kk in range(n_keeps):
            total = 0.0
            for p in range(k_ptr[kk], k_ptr[kk + 1]):
                total += k_prob[p] * e[k_throw[p]]
            k[kk] = total
        stages[1 + 2 * r, :n_keeps] = k
        for t in range(n_throws):
            best = -np.inf
            for p in range(s_ptr[t], s_ptr[t + 1]):
                if k[s_keep[p]] > best:
                    best = k[s_keep[p]]
            e[t] = best
        stages[2 + 2 * r, :n_throws] = e
    return stages


# ---------------------------------------------------------------------------
# The Python side
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Tables:
    """The arrays the kernels read, for one :class:`Scoring`."""

    flags: int
    score: np.ndarray
    joker: np.ndarray
    upper_face: np.ndarray
    face_box: np.ndarray
    five: np.ndarray
    face: np.ndarray
    ybox: int
    ybonus: int
    upper_bonus: int
    forced_joker: bool
    k_ptr: np.ndarray
    k_throw: np.ndarray
    k_prob: np.ndarray
    s_ptr: np.ndarray
    s_keep: np.ndarray

    def arguments(self):
        return (
            self.flags, self.score, self.joker, self.upper_face, self.face_box, self.five,
            self.face, self.ybox, self.ybonus, self.upper_bonus, self.forced_joker,
            self.k_ptr, self.k_throw, self.k_prob, self.s_ptr, self.s_keep,
        )  # fmt: skip


def _tables(scoring: Scoring) -> _Tables:
    dice = scoring.dice
    k_ptr, k_throw, weight = throw_chances(dice)
    kept = np.repeat([len(keep) for keep in multisets(0, dice)], np.diff(k_ptr))
    k_prob = weight / np.power(6.0, dice - kept)
    s_ptr, s_keep = sub_keeps(dice)
    per_face = counts(dice)
    face_box = np.full(7, -1, dtype=np.int64)
    for b, f in enumerate(scoring.upper):
        if f:
            face_box[f] = b
    return _Tables(
        flags=2 if scoring.yahtzee_box >= 0 else 1,
        score=np.ascontiguousarray(scoring.table, dtype=np.int64),
        joker=np.ascontiguousarray(scoring.joker_table, dtype=np.int64),
        upper_face=scoring.upper,
        face_box=face_box,
        five=per_face.max(axis=1) == dice,
        face=per_face.argmax(axis=1) + 1,
        ybox=scoring.yahtzee_box,
        ybonus=scoring.yahtzee_bonus,
        upper_bonus=scoring.upper_bonus,
        forced_joker=scoring.joker == "forced",
        k_ptr=k_ptr,
        k_throw=k_throw,
        k_prob=k_prob,
        s_ptr=s_ptr,
        s_keep=s_keep,
    )


@dataclass(eq=False)
class ValueTable:
    """The solved values of every turn-start position of one rule set.

    Attributes
    ----------
    scoring : Scoring
    values : ndarray of float64
        V per position, numbered as the module docstring says.
    """

    scoring: Scoring
    values: np.ndarray

    @cached_property
    def _tables(self) -> _Tables:
        return _tables(self.scoring)

    @property
    def flags(self) -> int:
        return 2 if self.scoring.yahtzee_box >= 0 else 1

    def index(self, used: int, upper: int, flag: int = 0) -> int:
        """The number of the position with boxes ``used`` (bits), upper total ``upper``
        (capped at 63) and the Yahtzee flag.
        """
        return (used * UPPER_STATES + min(upper, UPPER_STATES - 1)) * self.flags + flag

    @property
    def start_value(self) -> float:
        """The expected final score of optimal play from the empty card."""
        return float(self.values[self.index(0, 0, 0)])

    def turn(self, used: int, upper: int, flag: int = 0) -> np.ndarray:
        """The widget of one position: rows E3, K2, E2, K1, E1 (see the module docstring),
        throws (or keeps) by column.
        """
        _compile()
        return _turn(used, min(upper, UPPER_STATES - 1), flag, self.values,
                     *self._tables.arguments())  # fmt: skip


def solve_values(scoring: Scoring, *, progress=None) -> ValueTable:
    """Solve every turn-start position of ``scoring`` (see the module docstring).

    Parameters
    ----------
    scoring : Scoring
        The rule set, its dice and boxes (:func:`~gamegraph.games.yahtzee.scoring.scoring`).
    progress : callable, optional
        Called with (boxes filled, positions solved so far, positions in all) after each
        group.
    """
    if not isinstance(scoring, Scoring):
        raise InvalidArgumentError(f"scoring must be a Scoring, got {type(scoring).__name__}")
    _compile()
    tables = _tables(scoring)
    n_boxes = len(scoring.boxes)
    values = np.zeros((1 << n_boxes) * UPPER_STATES * tables.flags)
    useds = np.arange(1 << n_boxes, dtype=np.int64)
    filled = np.array([bin(u).count("1") for u in range(1 << n_boxes)])
    done = 0
    for boxes in range(n_boxes - 1, -1, -1):
        group = useds[filled == boxes]
        _layer(group, values, *tables.arguments())
        done += len(group)
        if progress is not None:
            progress(boxes, done, len(useds))
    return ValueTable(scoring, values)


def expected_score_bound(scoring: Scoring) -> float:
    """The largest score a game can reach (a bound the tests check values against)."""
    best = float(scoring.table.max(axis=0).sum()) + scoring.upper_bonus
    return best + scoring.yahtzee_bonus * max(len(scoring.boxes) - 1, 0) + math.ulp(1.0)
