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

Three passes over a block's items:

* :func:`full_sweep` takes the best move of every throw and writes its choice (the
  successor's rank times 2, plus 1 when the turn passes; -1 for the win, -2 when the
  throw passes on the same board) and its margin over the next best move;
* :func:`policy_sweep` follows the written choices (no moves made, no ranks computed):
  many of them evaluate a policy between two improvements (modified policy iteration);
* :func:`improve` writes no value: it makes the moves again where a choice may no
  longer be best, and changes the choice where another move is better.

The items of a sweep are cut into *stages* at progress boundaries; the two cores share a
stage in interleaved groups of :data:`GROUP` items, the stage ending with a barrier.
Without numba the same functions run as plain Python (slow: tests and tiny blocks only;
:mod:`gamegraph.analysis.ur_blocks` has a numpy path for small sizes).
"""

from __future__ import annotations

import os

import numpy as np

from .._extras import require
from ..games.ur import rank as _rank

#: Items one core sweeps before taking the next group of a stage.
GROUP = 512

rank = _rank.rank
unrank = _rank.unrank
move = _rank.move
prange = range

_compiled = False


def available() -> bool:
    """Whether the compiled sweeps can run (numba is installed)."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def compile_kernels() -> None:
    """Swap the sweeps below for their numba versions (compiled once, then cached on disk).

    The threading layer is numba's ``workqueue`` unless ``NUMBA_THREADING_LAYER`` says
    otherwise: OpenMP's costs 5-8 ms per parallel region here.
    """
    global _compiled
    if _compiled:
        return
    numba = require("numba", "the compiled Ur block solver", "fast")
    if "NUMBA_THREADING_LAYER" not in os.environ:
        numba.config.THREADING_LAYER = "workqueue"
    module = globals()
    # The rules' helpers are inlined: a call would count references to every table.
    for name, function in (("rank", _rank.rank), ("unrank", _rank.unrank), ("move", _rank.move)):
        module[name] = numba.njit(cache=True, inline="always")(function)
    for name in (
        "_options",
        "_margin",
        "_shrink",
        "_add_choice",
        "_best",
        "_chosen",
        "_pair",
        "_full_item",
        "_policy_item",
        "_improve_side",
        "_improve_item",
    ):
        module[name] = numba.njit(cache=True, inline="always")(module[name])
    module["prange"] = numba.prange
    for name in ("_full", "_policy", "_improve"):
        module[name] = numba.njit(cache=True, parallel=True)(module[name])
    _compiled = True


# ---------------------------------------------------------------------------
# One position, one item
# ---------------------------------------------------------------------------
def _options(mover, a, opp, b, values, t, throw):  # pragma: no cover - runs compiled
    """The best and second best move after ``throw``: (best code, best value, second value).

    Codes as written in ``choices``; values -1.0 when there is no such move.
    """
    best = -1.0
    second = -1.0
    code = -2
    for source in range(t.length + 2 - throw):
        if source > 0 and (mover >> (source - 1)) & 1 == 0:
            continue
        legal, mover2, a2, opp2, again = move(mover, a, opp, source, throw, t)
        if not legal:
            continue
        if a2 == t.pieces:
            value = 1.0
            found = -1
        elif again:
            r = rank(mover2, a2, opp2, b, t)
            value = values[r]
            found = 2 * r
        else:
            r = rank(opp2, b, mover2, a2, t)
            value = 1.0 - values[r]
            found = 2 * r + 1
        if value > best:
            second = best
            best = value
            code = found
        elif value > second:
            second = value
    return code, best, second


def _margin(best, second):  # pragma: no cover - runs compiled
    """How far the chosen move leads, as stored in float32 (rounded down; 1e30: no rival)."""
    if second < 0.0:
        return 1e30
    return max(best - second, 0.0) * 0.999999


def _shrink(margin, drift):  # pragma: no cover - runs compiled
    """A margin after values moved by ``drift``: lowered a millionth more, so that rounding
    to float32 never leaves it larger than it is.
    """
    return margin * 0.999999 - 2.0 * drift


def _add_choice(values, code, p, total, passing):  # pragma: no cover - runs compiled
    """(A, c) with one throw of probability ``p`` and choice ``code`` added."""
    if code == -2:
        return total, passing + p
    if code == -1:
        return total + p, passing
    if code & 1:
        return total + p * (1.0 - values[code >> 1]), passing
    return total + p * values[code >> 1], passing


def _best(mover, a, opp, b, values, t, choices, margins, item, side):  # pragma: no cover
    """(A, c) of position (mover, a, opp, b) with the best move of each throw; writes each
    throw's choice and margin.
    """
    total = 0.0
    passing = 0.0
    k = 0
    for j in range(len(t.throws)):
        p = t.probabilities[j]
        if t.throws[j] == 0:
            passing += p
            continue
        code, best, second = _options(mover, a, opp, b, values, t, t.throws[j])
        total, passing = _add_choice(values, code, p, total, passing)
        choices[item, side, k] = code
        margins[item, side, k] = _margin(best, second)
        k += 1
    return total, passing


def _chosen(values, t, choices, item, side):  # pragma: no cover - runs compiled
    """(A, c) of one side of an item along its written choices."""
    total = 0.0
    passing = 0.0
    k = 0
    for j in range(len(t.throws)):
        p = t.probabilities[j]
        if t.throws[j] == 0:
            passing += p
            continue
        total, passing = _add_choice(values, choices[item, side, k], p, total, passing)
        k += 1
    return total, passing


def _pair(values, r1, r2, total1, passing1, total2, passing2):  # pragma: no cover - compiled
    """Write the item's two values (solved together); the larger change."""
    if r1 == r2:
        v1 = (total1 + passing1) / (1.0 + passing1)
        change = abs(v1 - values[r1])
        values[r1] = v1
        return change
    den = 1.0 - passing1 * passing2
    if den <= 0.0:  # neither side can ever move: no throw ends the game
        v1 = v2 = 0.5
    else:
        v1 = (total1 + passing1 - passing1 * (total2 + passing2)) / den
        v2 = total2 + passing2 * (1.0 - v1)
    change = max(abs(v1 - values[r1]), abs(v2 - values[r2]))
    values[r1] = v1
    values[r2] = v2
    return change


def _full_item(i, order, twin, values, t, choices, margins):  # pragma: no cover - compiled
    r1 = order[i]
    r2 = twin[i]
    mover, a, opp, b = unrank(r1, t)
    total1, passing1 = _best(mover, a, opp, b, values, t, choices, margins, i, 0)
    total2, passing2 = total1, passing1
    if r2 != r1:
        total2, passing2 = _best(opp, b, mover, a, values, t, choices, margins, i, 1)
    return _pair(values, r1, r2, total1, passing1, total2, passing2)


def _policy_item(i, order, twin, values, t, choices, margins):  # pragma: no cover - compiled
    r1 = order[i]
    r2 = twin[i]
    total1, passing1 = _chosen(values, t, choices, i, 0)
    total2, passing2 = total1, passing1
    if r2 != r1:
        total2, passing2 = _chosen(values, t, choices, i, 1)
    return _pair(values, r1, r2, total1, passing1, total2, passing2)


def _improve_side(
    mover, a, opp, b, values, t, choices, margins, item, side, drift, eps
):  # pragma: no cover
    """Check one side's choices against values that moved by ``drift`` at most since its
    margins were measured; (choices changed, largest gain).
    """
    changed = 0
    gain = 0.0
    k = 0
    for j in range(len(t.throws)):
        throw = t.throws[j]
        if throw == 0:
            continue
        if margins[item, side, k] > 2.0 * drift:
            margins[item, side, k] = _shrink(margins[item, side, k], drift)
        else:
            old = choices[item, side, k]
            code, best, second = _options(mover, a, opp, b, values, t, throw)
            kept, passing = _add_choice(values, old, 1.0, 0.0, 0.0)
            if old != code and best > kept + eps:
                choices[item, side, k] = code
                changed += 1
                gain = max(gain, best - kept)
                margins[item, side, k] = _margin(best, second)
            elif old != code:  # a near tie: keep the move, look again next time
                margins[item, side, k] = 0.0
            else:
                margins[item, side, k] = _margin(best, second)
        k += 1
    return changed, gain


def _improve_item(i, order, twin, values, t, choices, margins, drift, eps):  # pragma: no cover
    settled = True
    for side in range(2 if order[i] != twin[i] else 1):
        for k in range(margins.shape[2]):
            settled = settled and margins[i, side, k] > 2.0 * drift
    if settled:  # no position to make: every margin just shrinks
        for side in range(2 if order[i] != twin[i] else 1):
            for k in range(margins.shape[2]):
                margins[i, side, k] = _shrink(margins[i, side, k], drift)
        return 0, 0.0
    mover, a, opp, b = unrank(order[i], t)
    changed, gain = _improve_side(mover, a, opp, b, values, t, choices, margins, i, 0, drift, eps)
    if order[i] != twin[i]:
        more, bigger = _improve_side(
            opp, b, mover, a, values, t, choices, margins, i, 1, drift, eps
        )
        changed += more
        gain = max(gain, bigger)
    return changed, gain


# ---------------------------------------------------------------------------
# Sweeps (the two are one loop; numba compiles each with its item function)
# ---------------------------------------------------------------------------
def _full(order, twin, values, t, choices, margins, stages, threads, serial):  # pragma: no cover
    worst = np.zeros(threads)
    for s in range(len(stages) - 1):
        low, high = stages[s], stages[s + 1]
        if high - low <= serial:
            for i in range(low, high):
                worst[0] = max(worst[0], _full_item(i, order, twin, values, t, choices, margins))
            continue
        for thread in prange(threads):
            change = 0.0
            for group in range(low + thread * GROUP, high, threads * GROUP):
                for i in range(group, min(group + GROUP, high)):
                    change = max(change, _full_item(i, order, twin, values, t, choices, margins))
            worst[thread] = max(worst[thread], change)
    return worst.max()


def _policy(order, twin, values, t, choices, margins, stages, threads, serial):  # pragma: no cover
    worst = np.zeros(threads)
    for s in range(len(stages) - 1):
        low, high = stages[s], stages[s + 1]
        if high - low <= serial:
            for i in range(low, high):
                worst[0] = max(worst[0], _policy_item(i, order, twin, values, t, choices, margins))
            continue
        for thread in prange(threads):
            change = 0.0
            for group in range(low + thread * GROUP, high, threads * GROUP):
                for i in range(group, min(group + GROUP, high)):
                    change = max(change, _policy_item(i, order, twin, values, t, choices, margins))
            worst[thread] = max(worst[thread], change)
    return worst.max()


def _improve(order, twin, values, t, choices, margins, drift, eps, threads):  # pragma: no cover
    changed = np.zeros(threads, dtype=np.int64)
    gain = np.zeros(threads)
    n = len(order)
    for thread in prange(threads):
        for group in range(thread * GROUP, n, threads * GROUP):
            for i in range(group, min(group + GROUP, n)):
                more, bigger = _improve_item(i, order, twin, values, t, choices, margins,
                                             drift, eps)  # fmt: skip
                changed[thread] += more
                gain[thread] = max(gain[thread], bigger)
    return changed.sum(), gain.max()


def full_sweep(plan, values, tables, choices, margins, threads: int, serial: int) -> float:
    """One sweep taking the best move everywhere; writes ``choices`` and ``margins`` (how far
    each chosen move leads the next, float32); returns the largest change of a value.

    ``plan`` holds the block's ``order``, ``twin`` and ``stages``
    (:class:`gamegraph.analysis.ur_blocks.SweepPlan`); stages of at most ``serial``
    items run on one core.
    """
    return float(
        _full(plan.order, plan.twin, values, tables, choices, margins, plan.stages, threads,
              serial)
    )  # fmt: skip


def policy_sweep(plan, values, tables, choices, margins, threads: int, serial: int) -> float:
    """One sweep along the written choices; the largest change of a value."""
    return float(
        _policy(plan.order, plan.twin, values, tables, choices, margins, plan.stages, threads,
                serial)
    )  # fmt: skip


def improve(plan, values, tables, choices, margins, drift: float, eps: float, threads: int):
    """Policy improvement without writing values: (choices changed, largest gain).

    A throw whose choice led the next move by more than twice ``drift`` (the most any
    value has moved since its margin was measured) keeps it unseen (action
    elimination); the others are made again, and a move replaces the choice when it
    is better by more than ``eps``.
    """
    changed, gain = _improve(plan.order, plan.twin, values, tables, choices, margins,
                             drift, eps, threads)  # fmt: skip
    return int(changed), float(gain)
