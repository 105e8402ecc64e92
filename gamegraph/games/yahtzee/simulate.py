"""Monte Carlo games of Yahtzee or Yatzy: optimal play from a solved table, or a simple
strategy, with the dice thrown for real.

Games are played turn by turn, all at once. At each turn the games are grouped by their
position; for optimal play each distinct position's turn (its widget,
:meth:`~gamegraph.games.yahtzee.solver.ValueTable.turn`) is computed once, and every game
at that position throws its dice and takes the best keep after the first and the second
throw (the largest :math:`K_1`, then :math:`K_2`; ties to the first keep) and the best box
for the last throw (points now plus the next position's value; ties to the first box).
A simple strategy (:mod:`gamegraph.games.yahtzee.strategies`) keeps by its fixed rule
and scores the box with the most points now. The groups run in parallel over the cores
(numba ``prange``); the random numbers are drawn beforehand from one seeded numpy
generator, three per game and turn, so a seed gives the same games whatever the
threads.

The mean score comes with a normal 95 % interval (:func:`gamegraph._stats.normal_interval`).

Examples
--------
>>> from gamegraph.games.yahtzee.scoring import scoring
>>> run = simulate_games(scoring("yahtzee", boxes=("chance",), dice=1), "greedy",
...                      games=10_000, seed=1)
>>> low, high = run.interval
>>> bool(low < 3.5 < high), int(run.scores.min()), int(run.scores.max())
(True, 1, 6)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._extras import require
from ..._numba_cache import compile_kernels
from ..._stats import normal_interval
from ...errors import InvalidArgumentError
from . import solver, strategies
from .scoring import Scoring
from .strategies import STRATEGIES, keep_rule

UPPER_STATES = solver.UPPER_STATES
PLAYERS = ("optimal", *STRATEGIES)

prange = range
_compiled = False


def _compile() -> None:
    """Swap the kernels below for their numba versions (compiled once, cached on disk)."""
    compile_kernels(
        globals(),
        require("numba", "the Yahtzee simulation", "fast"),
        plain=("_sample",),
        parallel=("_play_turn",),
        first=(solver._compile, strategies._compile),
        borrow={"_solver_turn": (solver, "_turn"), "_choose_box": (strategies, "_choose_box")},
    )


_solver_turn = solver._turn
_choose_box = strategies._choose_box


# ---------------------------------------------------------------------------
# Kernels (plain Python until _compile() swaps in their numba versions)
# ---------------------------------------------------------------------------
def _sample(k, u, k_ptr, k_throw, k_prob):
    """The throw that keeping ``k`` and throwing the rest gives, for a uniform ``u``."""
    total = 0.0  # pragma: no cover - runs compiled
    for p in range(k_ptr[k], k_ptr[k + 1]):
        total += k_prob[p]
        if u < total:
            return k_throw[p]
    return k_throw[k_ptr[k + 1] - 1]


def _play_turn(
    order, starts, positions, scores, uniforms, values, optimal, keeps, flags, score,
    joker, upper_face, face_box, five, face, ybox, ybonus, upper_bonus, forced_joker,
    k_ptr, k_throw, k_prob, s_ptr, s_keep,
):  # fmt: skip
    """One turn of every game: ``order`` lists the games by position, ``starts`` where
    each position's games begin in it; ``positions`` and ``scores`` are updated.
    """
    for g in prange(len(starts) - 1):  # pragma: no cover - runs compiled
        pos = positions[order[starts[g]]]
        flag = pos % flags
        upper = (pos // flags) % UPPER_STATES
        used = pos // flags // UPPER_STATES
        stages = np.zeros((1, 1))
        if optimal:
            stages = _solver_turn(
                used, upper, flag, values, flags, score, joker, upper_face, face_box,
                five, face, ybox, ybonus, upper_bonus, forced_joker, k_ptr, k_throw,
                k_prob, s_ptr, s_keep,
            )  # fmt: skip
        for j in range(starts[g], starts[g + 1]):
            game = order[j]
            t = _sample(0, uniforms[game, 0], k_ptr, k_throw, k_prob)
            for stage in range(2):
                if optimal:
                    row = 3 if stage == 0 else 1  # K1, then K2
                    best = -np.inf
                    k = -1
                    for p in range(s_ptr[t], s_ptr[t + 1]):
                        if stages[row, s_keep[p]] > best:
                            best = stages[row, s_keep[p]]
                            k = s_keep[p]
                else:
                    k = keeps[stage, t]
                t = _sample(k, uniforms[game, 1 + stage], k_ptr, k_throw, k_prob)
            _, r, nxt = _choose_box(
                used, upper, flag, t, values, optimal, flags, score, joker, upper_face,
                face_box, five, face, ybox, ybonus, upper_bonus, forced_joker,
            )  # fmt: skip
            scores[game] += r
            positions[game] = nxt


# ---------------------------------------------------------------------------
# The Python side
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class MonteCarlo:
    """The games played and their mean.

    Attributes
    ----------
    player : str
        ``"optimal"`` or a strategy's name.
    scores : ndarray of int64
        Every game's final score.
    mean : float
    std : float
        The sample standard deviation (``ddof=1``).
    interval : tuple of float
        The normal 95 % interval of the expected score.
    """

    player: str
    scores: np.ndarray
    mean: float
    std: float
    interval: tuple

    def __repr__(self) -> str:
        low, high = self.interval
        return (
            f"MonteCarlo({self.player!r}, games={len(self.scores):,}, mean={self.mean:.4f}, "
            f"95% interval [{low:.4f}, {high:.4f}])"
        )


def simulate_games(
    scoring: Scoring, player: str = "optimal", *, games: int = 10_000, seed=None, table=None
) -> MonteCarlo:
    """Play ``games`` games of ``scoring`` as ``player``, the dice thrown for real.

    Parameters
    ----------
    scoring : Scoring
    player : {"optimal", "greedy", "most of a kind"}
    games : int
    seed : int or None
        Seeds numpy's generator; the same seed gives the same games.
    table : ValueTable, optional
        The solved table for optimal play (solved here when omitted).
    """
    if not isinstance(scoring, Scoring):
        raise InvalidArgumentError(f"scoring must be a Scoring, got {type(scoring).__name__}")
    if player not in PLAYERS:
        from ...errors import UnknownNameError

        raise UnknownNameError("player", player, PLAYERS)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidArgumentError(f"games must be a positive whole number, got {games!r}")
    _compile()
    optimal = player == "optimal"
    tables = solver._tables(scoring)
    if optimal:
        if table is None:
            table = solver.solve_values(scoring)
        elif table.scoring != scoring:
            raise InvalidArgumentError("table was solved for other rules than scoring")
        values = table.values
        keeps = np.zeros((2, 1), dtype=np.int64)
    else:
        values = np.zeros((1 << len(scoring.boxes)) * UPPER_STATES * tables.flags)
        keeps = keep_rule(player, scoring.dice)
    rng = np.random.default_rng(seed)
    positions = np.zeros(games, dtype=np.int64)
    scores = np.zeros(games)
    for _ in range(len(scoring.boxes)):
        order = np.argsort(positions, kind="stable")
        ordered = positions[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1], True])
        uniforms = rng.random((games, 3))
        _play_turn(
            order, starts, positions, scores, uniforms, values, optimal, keeps,
            *tables.arguments(),
        )  # fmt: skip
    final = scores.astype(np.int64)
    mean = float(final.mean())
    variance = float(final.var(ddof=1)) if games > 1 else 0.0
    return MonteCarlo(player, final, mean, variance**0.5, normal_interval(mean, variance, games))
