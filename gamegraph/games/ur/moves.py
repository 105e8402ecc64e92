r"""Every legal move of many Ur positions at once, as arrays: no graph, no Python per move.

Positions are four integer arrays as :mod:`.rank` writes them: the mover's squares as a
bit mask, how many it has borne off, and the same for the opponent in its own numbering.
:func:`moves_after` makes every move of every position after its throw with
:func:`.rank.move` (one call per throw and square moved from, on all positions at once)
and returns them as :class:`Moves`, one column per square moved from (0: entering). A
row's legal moves, left to right, are :func:`~.rules.legal_moves`'s list in its order,
so "the k-th legal move" means the same everywhere: the index an agent returns.

:meth:`Moves.values` reads the win probability each move leaves the mover from a
solved table (``1 - v`` where the turn passes, 1 for the win); :meth:`Moves.pick`
turns the index of each row's chosen move into the position after it.

Examples
--------
>>> import numpy as np
>>> from gamegraph.games.ur import rule_set
>>> finkel = rule_set("finkel", pieces=3)
>>> sides = positions(["2,6/7", "-/-"], finkel)
>>> moves = moves_after(*sides, np.array([1, 4]), finkel)
>>> moves.counts.tolist(), moves.sources(0).tolist(), moves.sources(1).tolist()
([3, 1], [0, 2, 6], [0])
>>> [str(p) for p in moves.pick(np.array([2, 0])).states()]   # 6 -> 7 captures, 4: rosette
['-/2,7', '4/-']
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ...values import passing_value
from .rank import Numbering, move
from .rules import RuleSet, UrState, parse_position, rule_set


def _tables(ruleset: RuleSet):
    return _numbering(ruleset.name, ruleset.pieces).tables


@lru_cache(maxsize=16)
def _numbering(name: str, pieces: int) -> Numbering:
    return Numbering(rule_set(name, pieces))


def positions(texts, ruleset) -> tuple:
    """``(mover, a, opp, b)`` arrays of positions written as text (or :class:`UrState`)."""
    ruleset = rule_set(ruleset)
    rows = [parse_position(p, ruleset) if isinstance(p, str) else p for p in texts]

    def mask(squares):
        return sum(1 << (s - 1) for s in squares)

    table = [(mask(s.mover), s.mover_off, mask(s.opponent), s.opponent_off) for s in rows]
    return tuple(np.array([row[i] for row in table], dtype=np.int64) for i in range(4))


def states(mover, a, opp, b, length: int) -> list:
    """The positions of four arrays as :class:`UrState` values."""

    def squares(m):
        return tuple(s + 1 for s in range(length) if m >> s & 1)

    return [
        UrState(squares(int(m)), int(x), squares(int(o)), int(y))
        for m, x, o, y in zip(mover, a, opp, b)
    ]


class Pick(NamedTuple):
    """The position after each row's chosen move, and what the move did.

    ``mover``, ``a``, ``opp``, ``b`` are seen from the side to move next (the same side
    when ``passes`` is False); ``won`` rows have borne off their last piece (their
    position is meaningless).
    """

    mover: np.ndarray
    a: np.ndarray
    opp: np.ndarray
    b: np.ndarray
    passes: np.ndarray
    won: np.ndarray
    length: int

    def states(self) -> list:
        return states(self.mover, self.a, self.opp, self.b, self.length)


class Moves(NamedTuple):
    """Every move of ``n`` positions after their throws, one column per square moved from.

    Attributes
    ----------
    ruleset : RuleSet
    mover, a, opp, b : ndarray of int64, shape (n,)
        The positions before the throw.
    throw : ndarray of int64, shape (n,)
    legal : ndarray of bool, shape (n, L + 1)
        Whether the piece on square ``s`` (column ``s``; 0 enters a piece) can move.
    after_mover, after_a, after_opp : ndarray of int64, shape (n, L + 1)
        The mover's squares and borne-off count and the opponent's squares after each
        move (a capture takes a piece off), seen from the mover.
    again : ndarray of bool, shape (n, L + 1)
        Whether the move gives the mover another throw.
    """

    ruleset: RuleSet
    mover: np.ndarray
    a: np.ndarray
    opp: np.ndarray
    b: np.ndarray
    throw: np.ndarray
    legal: np.ndarray
    after_mover: np.ndarray
    after_a: np.ndarray
    after_opp: np.ndarray
    again: np.ndarray

    @property
    def counts(self) -> np.ndarray:
        """Legal moves of each row (0: the turn passes on the same board)."""
        return self.legal.sum(axis=1)

    @property
    def wins(self) -> np.ndarray:
        """Moves that bear off the mover's last piece."""
        return self.legal & (self.after_a == self.ruleset.pieces)

    @property
    def captures(self) -> np.ndarray:
        return self.legal & (self.after_opp != self.opp[:, None])

    @property
    def target(self) -> np.ndarray:
        """The square each move lands on (L + 1: borne off), shape (n, L + 1)."""
        return np.arange(self.legal.shape[1]) + self.throw[:, None]

    def sources(self, row: int) -> np.ndarray:
        """The squares the legal moves of ``row`` move from, in order."""
        return np.flatnonzero(self.legal[row])

    def take(self, rows) -> Moves:
        """The moves of some rows only."""
        return Moves(self.ruleset, *(array[rows] for array in self[1:]))

    def column(self, index) -> np.ndarray:
        """The column of each row's ``index``-th legal move."""
        index = np.asarray(index)
        if not len(index):
            return np.zeros(0, dtype=np.int64)
        return np.argmax(np.cumsum(self.legal, axis=1) > index[:, None], axis=1)

    def index(self, column) -> np.ndarray:
        """Which legal move of its row each ``column`` is (0 for the first)."""
        column = np.asarray(column)
        return np.cumsum(self.legal, axis=1)[np.arange(len(column)), column] - 1

    def successors(self):
        """Each legal move's position for the side to move next, flattened in row order:
        ``(rows, mover, a, opp, b, passes, wins)``.
        """
        rows, columns = np.nonzero(self.legal)
        m = self.after_mover[rows, columns]
        a = self.after_a[rows, columns]
        o = self.after_opp[rows, columns]
        b = self.b[rows]
        passes = ~self.again[rows, columns]
        wins = a == self.ruleset.pieces
        passes &= ~wins
        return (
            rows,
            np.where(passes, o, m),
            np.where(passes, b, a),
            np.where(passes, m, o),
            np.where(passes, a, b),
            passes,
            wins,
        )

    def values(self, table) -> np.ndarray:
        """The win probability each legal move leaves the mover, flattened in row order
        (as :meth:`successors`): 1 for the win, ``1 - v`` where the turn passes.

        ``table`` is a solved table with ``values_of(mover, a, opp, b)``
        (:class:`~.code_table.SolvedTable`, :class:`~.rank_table.ValueTable`).
        """
        _, mover, a, opp, b, passes, wins = self.successors()
        found = np.ones(len(mover))
        live = ~wins
        found[live] = table.values_of(mover[live], a[live], opp[live], b[live])
        return passing_value(found, passes & live)

    def pick(self, index) -> Pick:
        """The position after each row's ``index``-th legal move; rows without a legal move
        pass the turn on the same board (their ``index`` is ignored).
        """
        index = np.asarray(index)
        stuck = self.counts == 0
        rows = np.arange(len(self.mover))
        column = self.column(np.where(stuck, 0, index))
        m = np.where(stuck, self.mover, self.after_mover[rows, column])
        a = np.where(stuck, self.a, self.after_a[rows, column])
        o = np.where(stuck, self.opp, self.after_opp[rows, column])
        won = ~stuck & (a == self.ruleset.pieces)
        passes = stuck | (~self.again[rows, column] & ~won)
        return Pick(
            np.where(passes, o, m),
            np.where(passes, self.b, a),
            np.where(passes, m, o),
            np.where(passes, a, self.b),
            passes,
            won,
            self.ruleset.length,
        )


def moves_after(mover, a, opp, b, throw, ruleset) -> Moves:
    """Every move of positions ``(mover, a, opp, b)`` after ``throw`` (one per position, or
    one for all).
    """
    ruleset = rule_set(ruleset)
    t = _tables(ruleset)
    mover, a, opp, b = (np.asarray(x, dtype=np.int64) for x in (mover, a, opp, b))
    n, columns = len(mover), ruleset.length + 1
    throw = np.broadcast_to(np.asarray(throw, dtype=np.int64), (n,))
    legal = np.zeros((n, columns), dtype=bool)
    after_mover = np.zeros((n, columns), dtype=np.int64)
    after_a = np.zeros((n, columns), dtype=np.int64)
    after_opp = np.zeros((n, columns), dtype=np.int64)
    again = np.zeros((n, columns), dtype=bool)
    for x in np.unique(throw).tolist():
        if x == 0:
            continue
        rows = np.flatnonzero(throw == x)
        m, s, o = mover[rows], a[rows], opp[rows]
        occupied = int(np.bitwise_or.reduce(m)) if len(m) else 0
        for source in range(0, ruleset.length + 2 - x):
            if source and not occupied >> (source - 1) & 1:
                continue  # no piece of any row stands there
            ok, m2, s2, o2, more = move(m, s, o, source, x, t)
            legal[rows, source] = ok
            after_mover[rows, source] = m2
            after_a[rows, source] = s2
            after_opp[rows, source] = o2
            again[rows, source] = more
    return Moves(ruleset, mover, a, opp, b, throw.copy(), legal, after_mover, after_a,
                 after_opp, again)  # fmt: skip


def pip_counts(mover, a, opp, b, ruleset) -> np.ndarray:
    """The mover's progress minus the opponent's (:func:`.agents.pip_count` on arrays).

    >>> pip_counts(*positions(["4,13+2/6"], "finkel"), "finkel").tolist()
    [41]
    """
    ruleset = rule_set(ruleset)
    t = _tables(ruleset)
    off = ruleset.length + 1

    def walked(mask):
        return t.data[t.square_sum_lo + (mask & 255)] + t.data[t.square_sum_hi + (mask >> 8)]

    return walked(mover) + off * a - walked(opp) - off * b
