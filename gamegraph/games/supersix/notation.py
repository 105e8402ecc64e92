"""The published analyses' views of a solved Super Six: decision tables and strategy strings.

The blog's three probabilities at a normal-play position (b, c, o): P_roll(b, c, o) is the
value of the position, the probability that the player about to throw wins (the paper's
P_(b/c/o)); P_end(b, c, o) = 1 - P_roll(b, o, c), since stopping hands the throw over;
P_choice is the larger of the two, the "decision" being to roll when P_roll > P_end.
:func:`decision_table` reads all three from a solution.

Strategy notation (:func:`strategy_string`): for a total of ``i`` pegs in play, one digit
per decision position (j/k/l) with j + k + l = i, 1 = throw again, 0 = stop. Groups are
separated by slashes, from j = 1 peg on the lid (leftmost) to j = 5 (rightmost); within a
group k (the mover's pegs) rises from 1. Positions (1/k/1) are left out, as in the paper:
play never reaches them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ...errors import InvalidArgumentError
from .positions import SixPositions
from .state import PLAY, SOCKETS, WIN, SixState


class DecisionTable(NamedTuple):
    """Per normal-play position (b, c, o): P_roll, P_end, P_choice and whether to roll.

    Arrays are aligned; probabilities are floats, or Fractions (object arrays) when the
    solution is exact.
    """

    b: np.ndarray
    c: np.ndarray
    o: np.ndarray
    p_roll: np.ndarray
    p_end: np.ndarray

    @property
    def p_choice(self) -> np.ndarray:
        return np.where(self.roll, self.p_roll, self.p_end)

    @property
    def roll(self) -> np.ndarray:
        """True where throwing again is strictly better than stopping."""
        return self.p_roll > self.p_end

    @property
    def margin(self) -> np.ndarray:
        """P_roll - P_end: positive where rolling is better, by how much."""
        return self.p_roll - self.p_end

    def __len__(self):
        return len(self.b)

    def lookup(self, b: int, c: int, o: int) -> int:
        """Row of position (b, c, o)."""
        hits = np.flatnonzero((self.b == b) & (self.c == c) & (self.o == o))
        if not len(hits):
            raise InvalidArgumentError(f"position {b}/{c}/{o} is not in the table")
        return int(hits[0])


def decision_table(solution) -> DecisionTable:
    """The blog's three probabilities and the decision for every normal-play position.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.supersix import SuperSix
    >>> table = decision_table(solve(build(SuperSix(pegs=6)), exact=True))
    >>> row = table.lookup(4, 1, 1)        # the paper: 0.524 if you roll, 0.476 if you stop
    >>> round(float(table.p_roll[row]), 3), round(float(table.p_end[row]), 3), bool(table.roll[row])
    (0.524, 0.476, True)
    """
    graph = solution.graph
    rows, b, c, o = play_positions(graph)
    states = graph.states
    if isinstance(states, SixPositions):
        swapped = states.numbers(b, o, c)
    else:
        swapped = np.array(
            [
                graph.state_number(SixState(int(bb), int(oo), int(cc)))
                for bb, cc, oo in zip(b, c, o)
            ],
            dtype=np.int64,
        )
    values = solution.values
    one = Fraction(1) if solution.exact else 1.0
    # Stopping hands the throw to the opponent at the mirrored position.
    p_end = one - values[swapped]
    return DecisionTable(b=b, c=c, o=o, p_roll=values[rows], p_end=p_end)


def play_positions(graph):
    """State numbers and (b, c, o) arrays of every normal-play position, in (b, c, o) order
    for a vectorised graph and in state order otherwise.
    """
    states = graph.states
    if isinstance(states, SixPositions):
        keep = states.phase == PLAY
        return states.rows[keep], states.b[keep], states.c[keep], states.o[keep]
    rows = [i for i, s in enumerate(states) if s != WIN and s.phase == PLAY]
    b, c, o = (
        np.array([getattr(states[i], name) for i in rows], dtype=np.int64)
        for name in ("b", "c", "o")
    )
    return np.array(rows, dtype=np.int64), b, c, o


def strategy_string(table: DecisionTable, total: int) -> str:
    """The paper's notation for the decisions at ``total`` pegs in play.

    Digit order: see the module docstring. Raises InvalidArgumentError when the table
    does not cover that many pegs, or ``total`` is below 4 (no decision exists).

    >>> from gamegraph import build, solve
    >>> from gamegraph.games.supersix import SuperSix
    >>> table = decision_table(solve(build(SuperSix(pegs=8))))
    >>> strategy_string(table, 7)
    '(1111/1111/111/00/0)'
    """
    if total < 4:
        raise InvalidArgumentError(
            f"positions with {total} pegs in play offer no decision; use 4 or more"
        )
    b, c, o = (np.asarray(v, dtype=np.int64) for v in (table.b, table.c, table.o))
    pegs = b + c + o
    if total > int(pegs.max()):
        raise InvalidArgumentError(f"the table covers at most {int(pegs.max())} pegs")
    # Rows of this total's positions by (b, c): arrays, not a dict of every position.
    rows = np.flatnonzero(pegs == total)
    at = np.full((SOCKETS + 1, total + 1), -1, dtype=np.int64)
    at[b[rows], c[rows]] = rows
    groups = []
    for lid in range(1, SOCKETS + 1):
        mine = np.arange(1, total - lid, dtype=np.int64)
        if lid == 1:
            mine = mine[total - lid - mine != 1]  # (1/k/1): play never gets there
        if not len(mine):
            continue
        picked = at[lid, mine]
        if (picked < 0).any():
            missing = int(mine[np.argmax(picked < 0)])
            raise KeyError((lid, missing, total - lid - missing))
        roll = np.asarray(table.p_roll[picked] > table.p_end[picked], dtype=bool)
        groups.append(np.where(roll, ord("1"), ord("0")).astype(np.uint8).tobytes().decode())
    return "(" + "/".join(groups) + ")"


#: The optimal strategies printed in Jehn's paper, by pegs in play.
PUBLISHED_STRATEGIES = {
    7: "(1111/1111/111/00/0)",
    8: "(11111/11111/1111/000/00)",
    9: "(111111/111111/11111/0000/000)",
    10: "(1111111/1111111/111111/00000/0000)",
    11: "(11111111/11111111/1111111/000000/00000)",
    12: "(111111111/111111111/11111111/0000000/000000)",
    13: "(1111111111/1111111111/111000111/00000000/00000000)",
    14: "(11111111111/11111111111/1100000011/000000000/00000000)",
    15: "(111111111111/111111111111/11000000011/0000000000/0000000000)",
}
