r"""Two simple strategies, and their exact expected scores from every turn-start position.

A strategy here is a fixed rule for the keeps and a rule for the box:

* ``"greedy"`` (greedy best box): never throw again; score the first throw in the open
  box that adds the most points *now* (the box's score with any upper bonus it completes
  and any Yahtzee bonus, as the solver counts them; ties go to the first box in the
  rule set's order). Under Yahtzee's forced joker only the boxes the joker allows count.
* ``"most of a kind"``: after the first and the second throw keep every die of the most
  common face (ties: the higher face) and throw the others again; five of a kind is kept
  whole. Then score the last throw as the greedy strategy does.

Their values come from policy evaluation over the same positions as the optimal solver
(:mod:`gamegraph.games.yahtzee.solver`), from the end of the game back: with the
strategy's box :math:`b(t)` for the last throw t, reward :math:`r` and next position
:math:`i'`, and its keeps :math:`k_1(t), k_2(t)` after the first and second throw,

.. math::

    E_3(t) = r(t, b(t)) + V_s(i'), \quad
    E_2(t) = \sum_{t'} P(t' \mid k_2(t))\, E_3(t'), \quad
    E_1(t) = \sum_{t'} P(t' \mid k_1(t))\, E_2(t'), \quad
    V_s(i) = \sum_t P(t \mid \varnothing)\, E_1(t).

The box kernel below (the choice of box, by the points now or by value, with its points
and the position it leads to) is shared with the simulation
(:mod:`gamegraph.games.yahtzee.simulate`) and the exact score distribution
(:mod:`gamegraph.games.yahtzee.distribution`).

Examples
--------
One die and a single box, chance: the greedy player scores its one throw, 3.5 on
average; keeping the most of a kind keeps that die, so the same.

>>> from gamegraph.games.yahtzee.scoring import scoring
>>> small = scoring("yahtzee", boxes=("chance",), dice=1)
>>> evaluate_strategy(small, "greedy").start_value
3.5
>>> round(evaluate_strategy(scoring("yahtzee", boxes=("sixes", "chance")), "greedy").start_value, 6)
22.501608
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._extras import require
from ..._numba_cache import compile_kernels
from ...errors import InvalidArgumentError, UnknownNameError
from . import solver
from .dice import counts, multisets
from .scoring import Scoring

UPPER_STATES = solver.UPPER_STATES
_choose_box = solver._choose_box  # compiled with the solver's kernels by _compile()

#: The simple strategies, by name.
STRATEGIES = ("greedy", "most of a kind")

prange = range
_compiled = False


def _compile() -> None:
    """Swap the kernels below for their numba versions (compiled once, cached on disk);
    the box choice is the solver's own, inlined.
    """
    compile_kernels(
        globals(),
        require("numba", "the Yahtzee strategies", "fast"),
        parallel=("_strategy_layer",),
        first=(solver._compile,),
        borrow={"_choose_box": (solver, "_choose_box")},
    )


# ---------------------------------------------------------------------------
# Kernels (plain Python until _compile() swaps in their numba versions)
# ---------------------------------------------------------------------------
def _strategy_layer(
    useds, values, keeps, needed, flags, score, joker, upper_face, face_box, five, face,
    ybox, ybonus, upper_bonus, forced_joker, k_ptr, k_throw, k_prob, s_ptr, s_keep,
):  # fmt: skip
    """Evaluate the strategy (fixed ``keeps``, box now) at every position of ``useds``;
    ``needed`` lists the keeps the rule ever takes (their K is computed once a stage).
    """
    n_throws = score.shape[0]  # pragma: no cover - runs compiled
    n_keeps = len(k_ptr) - 1
    for i in prange(len(useds)):
        used = useds[i]
        e = np.empty(n_throws)
        k = np.empty(n_keeps)
        for upper in range(UPPER_STATES):
            for flag in range(flags):
                for t in range(n_throws):
                    _, r, nxt = _choose_box(
                        used, upper, flag, t, values, False, flags, score, joker,
                        upper_face, face_box, five, face, ybox, ybonus, upper_bonus,
                        forced_joker,
                    )  # fmt: skip
                    e[t] = r + values[nxt]
                for stage in range(1, -1, -1):  # K2 from E3, then K1 from E2
                    for j in range(len(needed)):
                        kk = needed[j]
                        total = 0.0
                        for p in range(k_ptr[kk], k_ptr[kk + 1]):
                            total += k_prob[p] * e[k_throw[p]]
                        k[kk] = total
                    for t in range(n_throws):
                        e[t] = k[keeps[stage, t]]
                value = 0.0
                for p in range(k_ptr[0], k_ptr[1]):
                    value += k_prob[p] * e[k_throw[p]]
                values[(used * UPPER_STATES + upper) * flags + flag] = value


# ---------------------------------------------------------------------------
# The Python side
# ---------------------------------------------------------------------------
def keep_rule(strategy: str, dice: int = 5) -> np.ndarray:
    """The keeps of ``strategy``: shape (2, throws), the keep (its number among
    :func:`~gamegraph.games.yahtzee.dice.multisets` ``(0, dice)``) after the first and the
    second throw, for every throw.

    >>> from gamegraph.games.yahtzee.dice import KEEPS, THROWS
    >>> rule = keep_rule("most of a kind")
    >>> [KEEPS[k] for k in rule[:, THROWS.index((2, 3, 3, 5, 5))]]
    [(5, 5), (5, 5)]
    >>> KEEPS[keep_rule("greedy")[0, 7]] == THROWS[7]
    True
    """
    if strategy not in STRATEGIES:
        raise UnknownNameError("strategy", strategy, STRATEGIES)
    throws = multisets(dice)
    index = {k: i for i, k in enumerate(multisets(0, dice))}
    if strategy == "greedy":
        row = [index[t] for t in throws]
    else:
        row = []
        for c in counts(dice):
            most = c.max()
            face = max(f for f in range(1, 7) if c[f - 1] == most)
            row.append(index[(face,) * int(most)])
    return np.array([row, row], dtype=np.int64)


@dataclass(eq=False)
class StrategyValues:
    """A strategy's expected score still to come from every turn-start position.

    Attributes
    ----------
    scoring : Scoring
    strategy : str
        One of :data:`STRATEGIES`.
    values : ndarray of float64
        One per position, numbered as the solver numbers them
        (:meth:`~gamegraph.games.yahtzee.solver.ValueTable.index`).
    """

    scoring: Scoring
    strategy: str
    values: np.ndarray

    @property
    def flags(self) -> int:
        return 2 if self.scoring.yahtzee_box >= 0 else 1

    def index(self, used: int, upper: int, flag: int = 0) -> int:
        """The number of a position (as :meth:`ValueTable.index
        <gamegraph.games.yahtzee.solver.ValueTable.index>`).
        """
        return (used * UPPER_STATES + min(upper, UPPER_STATES - 1)) * self.flags + flag

    @property
    def start_value(self) -> float:
        """The strategy's expected final score from the empty card."""
        return float(self.values[self.index(0, 0, 0)])


def evaluate_strategy(scoring: Scoring, strategy: str) -> StrategyValues:
    """The exact expected score of ``strategy`` from every position (module docstring).

    Parameters
    ----------
    scoring : Scoring
        The rule set (:func:`~gamegraph.games.yahtzee.scoring.scoring`).
    strategy : {"greedy", "most of a kind"}
    """
    if not isinstance(scoring, Scoring):
        raise InvalidArgumentError(f"scoring must be a Scoring, got {type(scoring).__name__}")
    keeps = keep_rule(strategy, scoring.dice)
    _compile()
    needed = np.unique(keeps)
    tables = solver._tables(scoring)
    n_boxes = len(scoring.boxes)
    values = np.zeros((1 << n_boxes) * UPPER_STATES * tables.flags)
    useds = np.arange(1 << n_boxes, dtype=np.int64)
    filled = np.array([bin(u).count("1") for u in range(1 << n_boxes)])
    for boxes in range(n_boxes - 1, -1, -1):
        _strategy_layer(useds[filled == boxes], values, keeps, needed, *tables.arguments())
    return StrategyValues(scoring, strategy, values)
