r"""One sweep over a block of Ur positions: the kernels of the block solver.

A block's positions come in *items*: a position and its twin (the same board, the
other side to move), listed by progress, highest first (:mod:`gamegraph.games.ur.rank`).
The value of a position is :math:`A + c\,(1 - v_{twin})`: :math:`A` sums, over the throws
with a move, the throw's probability times the best move's value (a move that passes the
turn counts :math:`1 - v`), and :math:`c` is the probability of the throws that pass on
the same board (0, and those without a move). Both positions of an item are solved
together, exactly::

    v1 = (A1 + c1 - c1 (A2 + c2)) / (1 - c1 c2),    v2 = A2 + c2 (1 - v1)

(a position that is its own twin: ``v = (A + c) / (1 + c)``). Every move but a capture
leads to higher progress, which this sweep has already updated: so only captures read
values from the sweep before (Gauss-Seidel).

While a block is solved its values live in sweep order (:class:`BlockArrays`): item
``i`` holds ``local[2 i]`` (its position) and ``local[2 i + 1]`` (the twin). A sweep
then writes in order, and most of its reads fall a few progress levels behind the
write, in memory it has just touched (a window of tens of MB at most for 7 pieces,
instead of the whole 1.1 GB table). Moves that leave the block (bearing a piece off, or
winning) lead to values already final: the chosen ones are summed once into ``fixed``.

Three passes over a block's items:

* :func:`full_sweep` takes the best move of every throw and writes its choice (``2 j``
  plus 1 when the turn passes, for the successor at ``local[j]``; :data:`FIXED` when the
  move leaves the block, :data:`NO_MOVE` when the throw has none; :data:`ALONE` marks a
  position that is its own twin) and its margin over the next best move, and, where
  there is room (:func:`move_store`), the moves themselves; a later full sweep reads
  the moves stored instead of making them again;
* :func:`policy_sweep` follows the written choices (no moves made, no ranks read):
  many of them evaluate a policy between two improvements (modified policy iteration);
* :func:`improve` writes no value: it reads the stored moves (or makes them again)
  where a choice may no longer be best, and changes the choice where another move is
  better.

Each pass asks for its random reads ahead of use (:mod:`gamegraph._prefetch`): a policy
sweep for the values :data:`AHEAD` items on, the passes that make moves for the places
and values of :data:`LISTED` items listed together, before the first of them is read.
Waiting on memory had been a third of a sweep's time on a large block. No value changes:
the items are still worked on one by one, in order.

The items of a sweep are cut into *stages* at progress boundaries
(:func:`gamegraph.games.ur.block_solver.sweep_stages`); the cores share a stage of more
than ``serial`` items in interleaved groups (:data:`GROUP` items, or fewer so that each
core has :data:`SPLIT` of them), the stage ending with a barrier, and one core sweeps a
smaller stage in order. A stage the cores share is one progress level, whose positions
never lead to each other: every value a sweep writes is then the same, bit for bit,
whatever the number of cores and whichever core writes it when (the largest change is a
maximum, which no order changes). :func:`improve` writes no value, and each item only
its own choices.
Without numba the same functions run as plain Python (slow: tests and tiny blocks only;
:mod:`gamegraph.games.ur.block_solver` has a numpy path for small sizes).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ..._extras import require
from ..._numba_cache import compile_kernels as compile_module
from ..._numba_cache import fastest_threading_layer
from ..._prefetch import compiled_prefetch, prefetch
from . import rank as _rank

#: Items one core sweeps before taking the next group of a stage (at most).
GROUP = 512
#: Groups per core, at least, in a stage the cores share: a level of a few thousand
#: items is cut into smaller groups, so that no core waits long at its end.
SPLIT = 8
#: Items a policy sweep looks ahead: it asks for the values their choices lead to (a
#: prefetch) while it works on the items before. In a solve of finkel 6, on its largest
#: block: 16.5 CPU nanoseconds a position without, 14.8 with (48 items ahead: the same).
AHEAD = 16
#: Items whose moves a sweep lists before it reads any of their values: the reads (of
#: ``where``, then of the values) of several items are then in flight at once. Finkel 6's
#: largest block, one core, every move made: about 450 ns a position one by one, 375
#: by 4, 352 by 8, 363 by 16.
LISTED = 8
#: Items an improvement pass over stored moves looks ahead (prefetching their values).
STORED_AHEAD = 4
#: A choice that leaves the block (its value is in ``fixed``).
FIXED = -1
#: A throw with no legal move: the turn passes on the same board.
NO_MOVE = -2
#: The first choice of side 1 of an item whose position is its own twin (it has no side 1):
#: a policy sweep then reads no rank to tell.
ALONE = -3
#: Stored moves of one block, at most (an item's offset is an int32).
MAX_STORED = 2**31 - 1
#: Stored move codes (:func:`move_store`): a win, and the origin of moves leaving the block.
WIN_CODE = -1
STORED_OUT = -2
#: Margins are kept in a byte each: grade ``g`` stands for ``2 ** (-g / GRADE_STEPS)``,
#: and NO_GRADE for 0 (a near tie, or too small to tell: the throw is looked at again).
GRADE_STEPS = 8
NO_GRADE = 255
GRADE_VALUES = np.exp2(-np.arange(NO_GRADE + 1) / GRADE_STEPS)
GRADE_VALUES[NO_GRADE] = 0.0
#: For each value of the first 8 bits of a margin's mantissa ``f``, at least
#: ``GRADE_STEPS * log2(1 + f)`` (:func:`_grade` starts below the grade from it).
_GRADE_START = np.ceil(GRADE_STEPS * np.log2(1 + (np.arange(256) + 1) / 256)).astype(np.int64)
#: Margins as they are (a full sweep reads every throw: none is shrunk).
_UNSHRUNK = np.arange(NO_GRADE + 1, dtype=np.uint8)
# Kinds of listed moves: the mover throws again, the turn passes (the value is 1 - v),
# the mover wins. _STAYS and _PASSES are added to twice the successor's place.
_STAYS = _rank.STAYS
_PASSES = _rank.PASSES
_WINS = _rank.WINS

rank = _rank.rank
unrank = _rank.unrank
progress = _rank.progress
item_moves = _rank.item_moves
prange = range

_compiled = False


class BlockArrays(NamedTuple):
    """One block's working arrays while it is solved (``n`` items, ``k`` throws with moves).

    Attributes
    ----------
    order, twin : ndarray of int32, shape (n,)
        Rank of each item's position and of its twin, in sweep order.
    start, stop : int
        The block's ranks.
    where : ndarray of int32, shape (stop - start,)
        For rank ``start + r``, its place in ``local``.
    local : ndarray of float64, shape (2 n,)
        The block's values in sweep order.
    fixed : ndarray of float64, shape (n, 2)
        Each side's sum of probability times value over the throws whose choice leaves
        the block.
    choices : ndarray of int32, shape (n, 2, k)
    grades : ndarray of uint8, shape (n, 2, k)
        How far each choice led the next best move when it was last measured, lowered
        since by what values may have moved, as a grade (:func:`grade`).
    """

    order: np.ndarray
    twin: np.ndarray
    start: int
    stop: int
    where: np.ndarray
    local: np.ndarray
    fixed: np.ndarray
    choices: np.ndarray
    grades: np.ndarray


def compiled() -> bool:
    """Whether :func:`compile_kernels` has swapped in the numba versions."""
    return _compiled


def compile_kernels() -> None:
    """Swap the sweeps below for their numba versions (compiled once, then cached on disk),
    on TBB's threading layer where it loads, else ``workqueue``, unless
    ``NUMBA_THREADING_LAYER`` says otherwise (a block opens hundreds of parallel
    regions: :func:`gamegraph._numba_cache.fastest_threading_layer`).
    """
    if _compiled:
        return
    numba = require("numba", "the compiled Ur block solver", "fast")
    globals()["prefetch"] = compiled_prefetch(numba)
    compile_module(
        globals(),
        numba,
        threading_layer=fastest_threading_layer(),
        # The rules' helpers (rank, unrank, item_moves) are inlined: a call would count
        # references to its arrays (the rules' tables are one array for that reason).
        inline=("rank", "unrank", "progress", "item_moves", "_ask_places", "_places",
                "_read_values", "_read_stored", "_read_item", "_looked_at", "_ask_stored",
                "_store_item", "_choose_again", "_pick", "_take_best", "_all_stored", "_margin",
                "_grade", "_chosen_value", "_pair", "_buffers", "_group_size"),
        # Each range is compiled once, with its helpers inlined; the parallel sweeps call
        # it per group of items (inlining it there too made numba's compile take minutes).
        plain=("_along", "_solve_pair", "_full_range", "_full_stored_range", "_full_run",
               "_policy_range", "_improve_range", "_improve_stored_range", "_plan_range"),
        parallel=("_full", "_policy", "_improve", "_plan"),
    )  # fmt: skip


# ---------------------------------------------------------------------------
# The moves of a few items (LISTED), in three phases: the moves of every item are listed
# (ranks from small tables), and the places of their successors asked for; then the
# places are read, and the values asked for; then each item reads its values and picks
# the best move of each throw. The reads, which miss the cache, wait on the listing of
# the items after them instead of stalling each item.
# ---------------------------------------------------------------------------
def _ask_places(values, where, start, stop, ranks, kinds, low, high):  # pragma: no cover
    """Prefetch where the listed moves ``low .. high - 1`` lead: their places in the block,
    or their values outside it.
    """
    for m in range(low, high):
        if kinds[m] != _WINS:
            r = ranks[m]
            if start <= r < stop:
                prefetch(where, r - start)
            else:
                prefetch(values, r)


def _places(where, start, stop, local, ranks, kinds, codes, n):  # pragma: no cover
    """The choice code of each of the ``n`` listed moves (``2 place + kind`` inside the
    block, :data:`FIXED` for a move that leaves it or wins); the values inside prefetched.
    """
    for m in range(n):
        r = ranks[m]
        if kinds[m] != _WINS and start <= r < stop:
            place = where[r - start]
            codes[m] = 2 * place + kinds[m]
            prefetch(local, place)
        else:
            codes[m] = FIXED


def _read_values(values, local, ranks, kinds, codes, found, low, high):  # pragma: no cover
    """The value each listed move ``low .. high - 1`` leaves the mover."""
    for m in range(low, high):
        if kinds[m] == _WINS:
            found[m] = 1.0
        elif codes[m] >= 0:
            found[m] = _chosen_value(local, codes[m])
        else:
            value = values[ranks[m]]
            found[m] = 1.0 - value if kinds[m] == _PASSES else value


def _pick(codes, found, low, high):  # pragma: no cover - runs compiled
    """The moves ``low .. high - 1`` of one throw: (best choice, best value, second value,
    best fixed value); values -1.0 when there is no such move. The best fixed value is
    that of the best move leaving the block (it never changes).
    """
    best = -1.0
    second = -1.0
    fixed = -1.0
    code = NO_MOVE
    for m in range(low, high):
        value = found[m]
        if codes[m] == FIXED:
            fixed = max(fixed, value)
        if value > best:
            second = best
            best = value
            code = codes[m]
        elif value > second:
            second = value
    return code, best, second, fixed


def _margin(best, second):  # pragma: no cover - runs compiled
    """How far the chosen move leads (1.0, more than any two values differ: no rival)."""
    if second < 0.0:
        return 1.0
    return max(best - second, 0.0)


def _grade(margin):  # pragma: no cover - runs compiled
    """The largest :data:`GRADE_VALUES` entry at most ``margin``, by its number."""
    if margin >= 1.0:
        return 0
    if not margin >= GRADE_VALUES[NO_GRADE - 1]:
        return NO_GRADE
    # margin = 2 ** power * (1 + f): the exponent and f's first bits give a grade at most
    # the one sought (no log2, which took a tenth of an improvement pass), then step up
    bits = np.float64(margin).view(np.int64)
    power = (bits >> 52) - 1023
    g = max(-GRADE_STEPS * power - _GRADE_START[(bits >> 44) & 255], 0)
    while GRADE_VALUES[g] > margin:
        g += 1
    return g


def grade(margin: float) -> int:
    """A margin in one byte, rounded down: ``GRADE_VALUES[grade(m)] <= m`` (steps of an
    eighth of a power of two down to about 1e-9; :data:`NO_GRADE`, 0, below).

    >>> grade(1.0), grade(0.5), grade(0.4), grade(1e-12)
    (0, 8, 11, 255)
    >>> bool(GRADE_VALUES[grade(0.4)] <= 0.4 < GRADE_VALUES[grade(0.4) - 1])
    True
    """
    return int(_grade(float(margin)))  # an int whether _grade is compiled or not


def shrunk_grades(drift: float) -> np.ndarray:
    """For each grade, the grade of its margin once values have moved by ``drift``."""
    return np.array([_grade(value - 2.0 * drift) for value in GRADE_VALUES], dtype=np.uint8)


def drift_grades(drifts) -> np.ndarray:
    """Each drift rounded up to a grade's value, as that grade (0 for a drift of 1 or more:
    every margin is smaller than twice that).

    >>> drift_grades([2.0, 0.5, 0.4, 0.0]).tolist()
    [0, 8, 10, 255]
    >>> bool(GRADE_VALUES[drift_grades([0.4])[0]] >= 0.4)
    True
    """
    rising = GRADE_VALUES[::-1]
    at_least = len(rising) - np.searchsorted(rising, np.asarray(drifts, np.float64), side="left")
    return np.maximum(at_least - 1, 0).astype(np.uint8)


@functools.cache
def shrunk_table() -> np.ndarray:
    """:func:`shrunk_grades` of every grade's value, by grade (256 by 256): a group of items
    whose drift is grade ``d`` moves its margins along row ``d``.
    """
    return np.array([shrunk_grades(value) for value in GRADE_VALUES])


def _chosen_value(local, code):  # pragma: no cover - runs compiled
    """The value a choice inside the block leaves (``code >= 0``)."""
    value = local[code >> 1]
    return 1.0 - value if code & 1 else value


def _pair(local, i, alone, total1, passing1, total2, passing2):  # pragma: no cover - compiled
    """Write item ``i``'s two values (solved together); the larger change."""
    if alone:
        v1 = v2 = (total1 + passing1) / (1.0 + passing1)
    else:
        v1, v2 = _solve_pair(total1, passing1, total2, passing2)
    change = max(abs(v1 - local[2 * i]), abs(v2 - local[2 * i + 1]))
    local[2 * i] = v1
    local[2 * i + 1] = v2
    return change


def _solve_pair(total1, passing1, total2, passing2):  # pragma: no cover - runs compiled
    """The values of a position and its twin, each ``A + c (1 - v_twin)``, solved together."""
    den = 1.0 - passing1 * passing2
    if den <= 0.0:  # neither side can ever move: no throw ends the game
        return 0.5, 0.5
    v1 = (total1 + passing1 - passing1 * (total2 + passing2)) / den
    return v1, total2 + passing2 * (1.0 - v1)


def _buffers(t):  # pragma: no cover - runs compiled
    """Room for every move of :data:`LISTED` items: (ranks, kinds, codes, values; where
    each throw's moves start, in rows ``2 j + side`` for the ``j``-th item listed; the
    squares a side moves from; the throws wanted, rows as before; where each item's
    moves start, and their end).
    """
    room = LISTED * 2 * len(t.throws) * (t.length + 2)
    rows = 2 * LISTED
    return (np.empty(room, np.int64), np.empty(room, np.int64), np.empty(room, np.int64),
            np.empty(room, np.float64), np.zeros((rows, len(t.throws) + 1), np.int64),
            np.empty(t.length + 1, np.int64), np.ones((rows, len(t.throws)), np.bool_),
            np.zeros(LISTED + 1, np.int64))  # fmt: skip


# ---------------------------------------------------------------------------
# Runs of items (the parallel sweeps hand each core groups of them). The block's
# arrays are taken out of their tuple once: read through it inside the loop, each
# access counted a reference, and the sweeps ran five times slower.
# ---------------------------------------------------------------------------
def _full_range(values, w, t, counts, store, slot, low, high):  # pragma: no cover - compiled
    order, twin, start, stop, where, local, fixed, choices, grades = w
    moves, at, end, offsets = store
    ranks, kinds, codes, found, first, sources, every, items = _buffers(t)
    change = 0.0
    for batch in range(low, high, LISTED):
        last = min(batch + LISTED, high)
        n = 0
        for i in range(batch, last):
            items[i - batch] = n
            sides = 1 if order[i] == twin[i] else 2
            mover, a, opp, b = unrank(order[i], t)
            n = item_moves(mover, a, opp, b, t, sides, every, sources, ranks, kinds, first, n,
                           2 * (i - batch))  # fmt: skip
            _ask_places(values, where, start, stop, ranks, kinds, items[i - batch], n)
        items[last - batch] = n
        _places(where, start, stop, local, ranks, kinds, codes, n)
        for i in range(batch, last):  # in order: each reads the values of those before
            row = 2 * (i - batch)
            listed, done = items[i - batch], items[i - batch + 1]
            kept = False
            if len(offsets):
                kept = _store_item(moves, at, end, offsets, slot, i, ranks, kinds, codes, listed,
                                   done)  # fmt: skip
            _read_values(values, local, ranks, kinds, codes, found, listed, done)
            sides = 1 if order[i] == twin[i] else 2
            change = max(change, _take_best(w, t, counts, kept, i, sides, first, row, codes,
                                            found))  # fmt: skip
    return change


def _take_best(w, t, counts, kept, i, sides, first, row, codes, found):  # pragma: no cover
    """Item ``i``'s best move at each throw, from its moves' choice codes and values
    (each side's throws from ``first[row + side]``): writes the choices, their margins and
    ``fixed``, the counts of its moves when ``kept``, and its two values; the larger change.
    """
    _, _, _, _, _, local, fixed, choices, grades = w
    total1 = passing1 = total2 = passing2 = 0.0
    for side in range(sides):
        total = 0.0
        passing = 0.0
        settled = 0.0
        k = 0
        for j in range(len(t.throws)):
            p = t.probabilities[j]
            if t.throws[j] == 0:
                passing += p
                continue
            low_m, high_m = first[row + side, k], first[row + side, k + 1]
            code, best, second, _ = _pick(codes, found, low_m, high_m)
            if code == NO_MOVE:
                passing += p
            else:
                total += p * best
                if code == FIXED:
                    settled += p * best
            choices[i, side, k] = code
            grades[i, side, k] = _grade(_margin(best, second))
            if kept:  # the counts of the items not stored are never touched
                counts[i, side, k] = high_m - low_m
            k += 1
        fixed[i, side] = settled
        if side == 0:
            total1, passing1 = total, passing
        else:
            total2, passing2 = total, passing
    if sides == 1:
        choices[i, 1, 0] = ALONE
    return _pair(local, i, sides == 1, total1, passing1, total2, passing2)


def _full_stored_range(values, w, t, counts, moves, offsets, low, high):  # pragma: no cover
    """:func:`_full_range` over items whose moves are all stored: they are read, not made
    (the same codes and values, in the same order: the same choices and values).
    """
    order, twin, _, _, _, local, _, _, grades = w
    _, _, codes, found, first, _, _, _ = _buffers(t)
    change = 0.0
    for i in range(low, high):
        if i + STORED_AHEAD < high:  # every move's value
            _ask_stored(values, local, moves, offsets, counts, grades, 1, np.inf, i + STORED_AHEAD)
        sides = 1 if order[i] == twin[i] else 2
        _read_item(values, local, moves, offsets, counts, grades, _UNSHRUNK, 1, np.inf, i,
                   sides, codes, found, first)  # fmt: skip
        change = max(change, _take_best(w, t, counts, False, i, sides, first, 0, codes, found))
    return change


def _policy_range(values, w, moving, still, low, high):  # pragma: no cover - compiled
    _, _, _, _, _, local, fixed, choices, _ = w
    change = 0.0
    for i in range(low, high):
        ahead = i + AHEAD
        if ahead < high:  # a position that is its own twin has no side 1 written
            for side in range(1 if choices[ahead, 1, 0] == ALONE else 2):
                for k in range(len(moving)):
                    code = choices[ahead, side, k]
                    if code >= 0:
                        prefetch(local, code >> 1)
        total1, passing1 = _along(local, fixed, choices, moving, still, i, 0)
        if choices[i, 1, 0] == ALONE:
            v1 = v2 = (total1 + passing1) / (1.0 + passing1)
        else:
            total2, passing2 = _along(local, fixed, choices, moving, still, i, 1)
            v1, v2 = _solve_pair(total1, passing1, total2, passing2)
        change = max(change, abs(v1 - local[2 * i]), abs(v2 - local[2 * i + 1]))
        local[2 * i] = v1
        local[2 * i + 1] = v2
    return change


def _along(local, fixed, choices, moving, still, item, side):  # pragma: no cover - compiled
    """(A, c) of one side of an item along its written choices, from the probabilities
    of the throws with moves (``moving``, :func:`throw_probabilities`) and the sum of
    the others' (``still``). Looking up each throw in the tables instead made the policy
    sweep twice as slow (17 against 8.7 ns a position on one core, finkel 5).
    """
    total = fixed[item, side]
    passing = still
    for k in range(len(moving)):
        code = choices[item, side, k]
        if code >= 0:
            value = local[code >> 1]
            total += moving[k] * (1.0 - value if code & 1 else value)
        elif code == NO_MOVE:
            passing += moving[k]
    return total, passing


def _improve_range(values, w, t, moving, shrunk, limit, eps, low, high):  # pragma: no cover
    order, twin, start, stop, where, local, fixed, choices, grades = w
    ranks, kinds, codes, found, first, sources, wanted, items = _buffers(t)
    changed = 0
    gain = 0.0
    made = 0
    throws = grades.shape[2]
    for batch in range(low, high, LISTED):
        last = min(batch + LISTED, high)
        n = 0
        for i in range(batch, last):
            row = 2 * (i - batch)
            items[i - batch] = n
            sides = 1 if order[i] == twin[i] else 2
            looks = False
            for side in range(sides):
                for k in range(throws):
                    wanted[row + side, k] = not GRADE_VALUES[grades[i, side, k]] > limit
                    if wanted[row + side, k]:
                        looks = True
                    else:  # still best
                        grades[i, side, k] = shrunk[grades[i, side, k]]
            if not looks:
                continue
            made += 1
            mover, a, opp, b = unrank(order[i], t)
            n = item_moves(mover, a, opp, b, t, sides, wanted, sources, ranks, kinds, first, n,
                           row)  # fmt: skip
            for side in range(sides):
                for k in range(throws):
                    if wanted[row + side, k] and first[row + side, k] == first[row + side, k + 1]:
                        grades[i, side, k] = 0  # no legal move: nothing to choose
            _ask_places(values, where, start, stop, ranks, kinds, items[i - batch], n)
        items[last - batch] = n
        if n == 0:
            continue
        _places(where, start, stop, local, ranks, kinds, codes, n)
        _read_values(values, local, ranks, kinds, codes, found, 0, n)
        for i in range(batch, last):
            if items[i - batch] < items[i - batch + 1]:
                more, bigger = _choose_again(local, fixed, choices, grades, moving, i,
                                             1 if order[i] == twin[i] else 2, first,
                                             2 * (i - batch), codes, found, eps)  # fmt: skip
                changed += more
                gain = max(gain, bigger)
    return changed, gain, made


def _choose_again(
    local, fixed, choices, grades, moving, i, sides, first, row, codes, found, eps
):  # pragma: no cover - runs compiled
    """Item ``i``'s choices against its moves as read, each side's throws from ``first[row
    + side]`` (throws with none listed are left alone): (choices changed, largest gain).
    ``moving``: :func:`throw_probabilities`.
    """
    changed = 0
    gain = 0.0
    for side in range(sides):
        for k in range(len(moving)):
            low, high = first[row + side, k], first[row + side, k + 1]
            if low < high:
                old = choices[i, side, k]
                code, best, second, constant = _pick(codes, found, low, high)
                kept = constant if old == FIXED else _chosen_value(local, old)
                margin = _grade(_margin(best, second))
                if old != code and best > kept + eps:
                    p = moving[k]
                    if old == FIXED:
                        fixed[i, side] -= p * kept
                    if code == FIXED:
                        fixed[i, side] += p * best
                    choices[i, side, k] = code
                    changed += 1
                    gain = max(gain, best - kept)
                elif old != code:  # a near tie: keep the move, look again next time
                    margin = NO_GRADE
                grades[i, side, k] = margin
    return changed, gain


# ---------------------------------------------------------------------------
# Stored moves: where memory allows, the full sweep writes each item's moves as it makes
# them, as int32 codes, and each improvement pass reads them instead of making the moves
# again. A code is 2 * place + passes for a successor in the block, WIN_CODE for a win,
# and STORED_OUT - (2 * rank + passes) for a successor outside it. Each core writes in a
# region of its own (``at[slot]`` on to ``end[slot]``) until an item does not fit, and
# ``offsets[i]`` is one more than where item ``i``'s moves start (0: not stored). So the
# offsets and move counts of the items not stored are never written: a block that stores
# part of its moves takes the pages of that part only.
# ---------------------------------------------------------------------------
def _store_item(
    moves, at, end, offsets, slot, i, ranks, kinds, codes, low, high
):  # pragma: no cover - runs compiled
    """Write item ``i``'s listed moves ``low .. high - 1`` (their codes from :func:`_places`)
    at the end of region ``slot`` if they fit, else close the region; whether they were.
    """
    here = at[slot]
    if here + high - low > end[slot]:
        end[slot] = here  # full: the items after are not stored either
        return False
    for m in range(low, high):
        code = codes[m]  # 2 place + kind inside the block
        if kinds[m] == _WINS:
            code = WIN_CODE
        elif code == FIXED:
            code = STORED_OUT - (2 * ranks[m] + kinds[m])
        moves[here + m - low] = code
    offsets[i] = here + 1
    at[slot] = here + high - low
    return True


def _read_stored(values, local, moves, offset, n, codes, found, at):  # pragma: no cover
    """The choice code and the value of the ``n`` stored moves from ``offset`` on, into
    ``codes`` and ``found`` from ``at`` on.
    """
    for m in range(n):
        code = moves[offset + m]
        if code >= 0:
            codes[at + m] = code
            found[at + m] = _chosen_value(local, code)
        elif code == WIN_CODE:
            codes[at + m] = FIXED
            found[at + m] = 1.0
        else:
            codes[at + m] = FIXED
            outside = STORED_OUT - code
            value = values[outside >> 1]
            found[at + m] = 1.0 - value if outside & 1 else value


def _looked_at(count, grade, limit, fewest=2):  # pragma: no cover - runs compiled
    """Whether a pass over stored moves looks at a throw of ``count`` moves whose choice led
    by ``grade``: one with ``fewest`` moves at least (a rival, in an improvement pass),
    unless it led by more than ``limit``.
    """
    return count >= fewest and not GRADE_VALUES[grade] > limit


def _ask_stored(
    values, local, moves, offsets, counts, grades, fewest, limit, i
):  # pragma: no cover - runs compiled
    """Prefetch the values that item ``i``'s stored moves lead to, for each throw a pass
    will look at (:func:`_looked_at`).
    """
    offset = offsets[i] - 1
    for side in range(counts.shape[1]):
        for k in range(counts.shape[2]):
            count = counts[i, side, k]
            if _looked_at(count, grades[i, side, k], limit, fewest):
                for m in range(offset, offset + count):
                    code = moves[m]
                    if code >= 0:
                        prefetch(local, code >> 1)
                    elif code != WIN_CODE:
                        prefetch(values, (STORED_OUT - code) >> 1)
            offset += count


def _read_item(
    values,
    local,
    moves,
    offsets,
    counts,
    grades,
    shrunk,
    fewest,
    limit,
    i,
    sides,
    codes,
    found,
    first,
):  # pragma: no cover - runs compiled
    """Read item ``i``'s stored moves, of each throw a pass looks at (:func:`_looked_at`),
    into ``codes`` and ``found``, each side's throws from ``first[side]``; the margin of a
    throw with a rival not looked at moves along ``shrunk``. Returns the moves read.
    """
    throws = counts.shape[2]
    offset = offsets[i] - 1
    n = 0
    for side in range(sides):
        for k in range(throws):
            first[side, k] = n
            count = counts[i, side, k]
            if _looked_at(count, grades[i, side, k], limit, fewest):
                _read_stored(values, local, moves, offset, count, codes, found, n)
                n += count
            elif count >= 2:  # still best
                grades[i, side, k] = shrunk[grades[i, side, k]]
            offset += count
        first[side, throws] = n
    return n


def _improve_stored_range(
    values, w, t, moving, counts, moves, offsets, shrunk, limit, eps, low, high
):  # pragma: no cover - runs compiled
    order, twin, _, _, _, local, fixed, choices, grades = w
    _, _, codes, found, first, _, _, _ = _buffers(t)
    changed = 0
    gain = 0.0
    for i in range(low, high):
        if i + STORED_AHEAD < high:
            _ask_stored(values, local, moves, offsets, counts, grades, 2, limit, i + STORED_AHEAD)
        sides = 1 if order[i] == twin[i] else 2
        n = _read_item(values, local, moves, offsets, counts, grades, shrunk, 2, limit, i, sides,
                       codes, found, first)  # fmt: skip
        if n == 0:
            continue
        more, bigger = _choose_again(local, fixed, choices, grades, moving, i, sides, first,
                                     0, codes, found, eps)  # fmt: skip
        changed += more
        gain = max(gain, bigger)
    return changed, gain


# ---------------------------------------------------------------------------
# The items of a block, before they are ordered (gamegraph.games.ur.block_solver.sweep_plan)
# ---------------------------------------------------------------------------
def _plan_range(start, t, twins, levels, low, high):  # pragma: no cover - runs compiled
    for r in range(low, high):
        mover, a, opp, b = unrank(r, t)
        twins[r - start] = rank(opp, b, mover, a, t)
        levels[r - start] = progress(mover, opp, t)


def _plan(start, t, twins, levels, threads):  # pragma: no cover - runs compiled
    size = len(twins)
    share = -(-size // threads)
    for thread in prange(threads):
        low = start + thread * share
        _plan_range(start, t, twins, levels, low, min(low + share, start + size))


def plan_items(block, tables, threads: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The items of ``block`` in rank order: each position of its first half (``start ..
    middle - 1``) with its twin, or, when the block is its own other half (``low ==
    high``), each position whose rank is at most its twin's; as (ranks, twins, progress
    levels), int32, int32, int16. Compiled, on ``threads`` cores, each a share of the
    ranks.
    """
    size = block.middle - block.start
    twins, levels = np.empty(size, np.int32), np.empty(size, np.int16)
    _plan(block.start, tables, twins, levels, max(min(threads, size), 1))
    ranks = np.arange(block.start, block.middle, dtype=np.int32)
    if block.low == block.high:  # a position whose twin ranks lower is in the twin's item
        kept = twins >= ranks
        return ranks[kept], twins[kept], levels[kept]
    return ranks, twins, levels


# ---------------------------------------------------------------------------
# Sweeps
# ---------------------------------------------------------------------------
def _group_size(items, threads, split):  # pragma: no cover - runs compiled
    """Items per group when ``threads`` cores share a stage of ``items``: :data:`GROUP`,
    or fewer so that each core has ``split`` groups at least (64 items at least).
    """
    if split <= 0:
        return GROUP
    return min(GROUP, max(64, -(-items // (split * threads))))


def _all_stored(offsets, low, high):  # pragma: no cover - runs compiled
    """Whether items ``low .. high - 1`` all have their moves stored."""
    if not len(offsets):
        return False
    for i in range(low, high):
        if offsets[i] == 0:
            return False
    return True


def _full_run(values, w, t, counts, store, kept, slot, low, high):  # pragma: no cover - compiled
    """:func:`_full_range` of items ``low .. high - 1``, or :func:`_full_stored_range` when
    ``kept`` (counts, moves, offsets) holds all their moves.
    """
    counts_kept, moves, offsets = kept
    if _all_stored(offsets, low, high):
        return _full_stored_range(values, w, t, counts_kept, moves, offsets, low, high)
    return _full_range(values, w, t, counts, store, slot, low, high)


def _full(values, w, t, counts, store, kept, stages, threads, serial, split):  # pragma: no cover
    worst = np.zeros(threads)
    for s in range(len(stages) - 1):
        low, high = stages[s], stages[s + 1]
        if high - low <= serial:
            worst[0] = max(worst[0], _full_run(values, w, t, counts, store, kept, 0, low, high))
            continue
        size = _group_size(high - low, threads, split)
        for thread in prange(threads):
            change = 0.0
            for group in range(low + thread * size, high, threads * size):
                end = min(group + size, high)
                change = max(
                    change, _full_run(values, w, t, counts, store, kept, thread, group, end)
                )
            worst[thread] = max(worst[thread], change)
    return worst.max()


def _policy(values, w, moving, still, stages, threads, serial, split, by_stage):  # pragma: no cover
    worst = np.zeros(threads)
    for s in range(len(stages) - 1):
        low, high = stages[s], stages[s + 1]
        if high - low <= serial:
            by_stage[s] = _policy_range(values, w, moving, still, low, high)
            continue
        size = _group_size(high - low, threads, split)
        for thread in prange(threads):
            change = 0.0
            for group in range(low + thread * size, high, threads * size):
                end = min(group + size, high)
                change = max(change, _policy_range(values, w, moving, still, group, end))
            worst[thread] = change
        by_stage[s] = worst.max()
    return by_stage.max()


def _improve(
    values, w, t, moving, counts, moves, offsets, stored, shrunk, drifts, eps, threads
):  # pragma: no cover - runs compiled
    # stored[g]: every item of group g has its moves stored; drifts[g]: the drift of group
    # g as a grade, the row of ``shrunk`` its margins move to
    changed = np.zeros(threads, dtype=np.int64)
    made = np.zeros(threads, dtype=np.int64)
    gain = np.zeros(threads)
    n = len(w.order)
    for thread in prange(threads):
        for g in range(thread, (n + GROUP - 1) // GROUP, threads):
            low, high = g * GROUP, min(g * GROUP + GROUP, n)
            row = shrunk[drifts[g]]
            limit = 2.0 * GRADE_VALUES[drifts[g]]
            if len(stored) and stored[g]:
                more, bigger = _improve_stored_range(
                    values, w, t, moving, counts, moves, offsets, row, limit, eps, low, high
                )
                items = high - low
            else:
                more, bigger, items = _improve_range(
                    values, w, t, moving, row, limit, eps, low, high
                )
            changed[thread] += more
            made[thread] += items
            gain[thread] = max(gain[thread], bigger)
    return changed.sum(), gain.max(), made.sum()


def full_sweep(
    stages,
    values,
    work: BlockArrays,
    tables,
    threads: int,
    serial: int,
    counts=None,
    store=None,
    stored=None,
) -> float:
    """One sweep taking the best move everywhere; writes the choices, their margins (how
    far each chosen move leads the next, as a :func:`grade`) and ``fixed``; returns the
    largest change of a value.

    ``stages`` cut the items into runs that end with a barrier; stages of at most
    ``serial`` items run on one core, larger ones must be a single progress level (see
    above: then the values do not depend on the number of cores). ``values`` (by rank)
    holds the blocks already solved. ``counts`` (uint8, shaped like ``work.choices``),
    when given, receives the number of moves of each side and throw. ``store``, when
    given (:func:`move_store`, with ``counts``), receives the moves themselves. A later
    full sweep reads the moves a first one stored (``stored``: its ``(counts, moves,
    offsets)``) for each run of items that has all of theirs, instead of making them
    again: the same choices and values.
    """
    if counts is None:
        counts = np.zeros((0, 2, 1), dtype=np.uint8)
    if store is None:
        store = move_store(0, 0, threads)
    if stored is None:
        stored = _NOTHING_STORED[:3]
    return float(_full(values, work, tables, counts, store, stored, stages, threads, serial, SPLIT))


def move_store(items: int, room: int, threads: int, moves=None):
    """Where :func:`full_sweep` writes the moves of ``items`` items: ``(moves, at, end,
    offsets)``, ``room`` codes in all (:data:`MAX_STORED` at most), a region of ``room //
    threads`` for each core (``moves``, an int32 array, when given; the system gives it
    pages only as they are written, and so it does ``offsets``, zero until an item is
    stored). Nothing is stored when ``room`` is 0.

    >>> moves, at, end, offsets = move_store(3, 10, 2)
    >>> at.tolist(), end.tolist(), offsets.tolist()
    ([0, 5], [5, 10], [0, 0, 0])
    """
    share = min(room, MAX_STORED) // threads if items else 0
    if moves is None:
        moves = np.empty(share * threads, np.int32)
    at = np.arange(threads, dtype=np.int64) * share
    offsets = np.zeros(items if share else 0, np.int32)
    return moves, at, at + share, offsets


def stored_groups(offsets: np.ndarray) -> np.ndarray:
    """For each group of :data:`GROUP` items, whether every item has its moves stored.

    >>> stored_groups(np.array([1, 6] * GROUP + [0])).tolist()
    [True, True, False]
    """
    if not len(offsets):
        return np.zeros(0, dtype=np.bool_)
    return np.minimum.reduceat(offsets > 0, np.arange(0, len(offsets), GROUP))


def policy_sweep(
    stages, values, work: BlockArrays, tables, threads: int, serial: int, by_stage=None
) -> float:
    """One sweep along the written choices; the largest change of a value, and that of each
    stage in ``by_stage`` (float64, one per stage) when given.
    """
    moving, still = throw_probabilities(tables)
    if by_stage is None:
        by_stage = np.zeros(len(stages) - 1)
    return float(_policy(values, work, moving, still, stages, threads, serial, SPLIT, by_stage))


def throw_probabilities(tables) -> tuple[np.ndarray, float]:
    """The probabilities of the throws with moves, in order, and the sum of the others'.

    Throws without moves come first (the throw 0), so that ``c`` adds them first.

    >>> from gamegraph.games.ur.rank import Numbering
    >>> from gamegraph.games.ur.rules import rule_set
    >>> moving, still = throw_probabilities(Numbering(rule_set("finkel", 1)).tables)
    >>> (moving * 16).tolist(), still * 16
    ([4.0, 6.0, 4.0, 1.0], 1.0)
    """
    throws = np.asarray(tables.throws)
    probabilities = np.asarray(tables.probabilities, dtype=np.float64)
    assert (throws[: int((throws == 0).sum())] == 0).all(), "throws without moves come first"
    return np.ascontiguousarray(probabilities[throws != 0]), float(probabilities[throws == 0].sum())


def improve(values, work: BlockArrays, tables, drift, eps: float, threads: int, stored=None):
    """Policy improvement without writing values: (choices changed, largest gain, made).

    A throw whose choice led the next move by more than twice the drift (the most any
    value its moves lead to has moved since its margin was measured) keeps it unseen
    (action elimination); the others are looked at again, and a move replaces the choice
    when it is better by more than ``eps``. ``drift`` is one float for every item, or
    one for each group of :data:`GROUP` items; either is rounded up to a grade's value
    (:func:`drift_grades`). ``stored`` is ``(counts, moves, offsets, groups)`` when the
    full sweep stored moves (:func:`move_store`; ``groups`` from :func:`stored_groups`):
    the groups whose items all have theirs stored read them; the other items' moves are
    made again. ``made``: the items whose moves were made or read.
    """
    if stored is None:
        stored = _NOTHING_STORED
    counts, moves, offsets, groups = stored
    count = -(-len(work.order) // GROUP)
    drifts = drift_grades(np.broadcast_to(np.asarray(drift, np.float64), (count,)))
    moving, _ = throw_probabilities(tables)
    changed, gain, made = _improve(
        values, work, tables, moving, counts, moves, offsets, groups, shrunk_table(), drifts,
        eps, threads,
    )  # fmt: skip
    return int(changed), float(gain), int(made)


_NOTHING_STORED = (
    np.zeros((0, 2, 1), np.uint8), np.zeros(0, np.int32), np.zeros(0, np.int32),
    np.zeros(0, np.bool_),
)  # fmt: skip
