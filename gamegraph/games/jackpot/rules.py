"""Jackpot's rules: the one-player dice game played on a Shut-the-Box board (Thai bar rules).

Nine cells, all down at the start. Each turn two dice are thrown; a roll (A, B) offers
the cells ``[A, B, A+B]`` in that order, the sum only when it names a cell, keeping
only cells still down. The player must flip up one offered cell; if none is offered the
game is lost. Flipping all nine wins.

A state is the set of flipped cells as a bit mask: cell c is bit c-1, so the number of a
position is the reference's board index (cells 2 and 4 up: 2 + 8 = 10). Layer n holds
the positions with n cells up. The graph is a DAG of 2**cells positions.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from ..._checks import check_int
from ...errors import InvalidArgumentError
from ...rules import Option, Outcome, Rules


class Jackpot(Rules):
    """Jackpot rules for a board of ``cells`` cells and two dice of ``sides`` sides.

    Examples
    --------
    >>> rules = Jackpot()
    >>> [o.options for o in rules.outcomes(0) if len(o.options) == 1]  # rolls (5, 5) and (6, 6)
    [(Option(target=16, move=5, passes=False),), (Option(target=32, move=6, passes=False),)]
    >>> rules.label(0), rules.label(511), rules.label(10)
    ('START', 'WIN', '1 3 5 6 7 8 9')
    """

    name = "jackpot"

    def __init__(self, *, cells: int = 9, sides: int = 6):
        self.cells = check_int(cells, "cells", low=1, high=20)
        self.sides = check_int(sides, "sides", low=1, high=20)
        self.full = (1 << cells) - 1
        # The offered cells of every ordered roll, as (cell, bit) pairs, computed once.
        self._rolls = [
            [(cell, 1 << (cell - 1)) for cell in self.offered(a, b)]
            for a in range(1, sides + 1)
            for b in range(1, sides + 1)
        ]

    def start(self) -> int:
        return 0

    def terminal_value(self, state: int):
        return Fraction(1) if state == self.full else None

    def offered(self, a: int, b: int) -> list[int]:
        """Cells a roll (a, b) names, in order, without repeats (whether down or not)."""
        cells = []
        for cell in (a, b, a + b):
            if cell <= self.cells and cell not in cells:
                cells.append(cell)
        return cells

    def outcomes(self, state: int) -> list[Outcome]:
        # Rolls offering the same ordered list of cells still down are one outcome.
        weight = defaultdict(int)
        for cells in self._rolls:
            weight[tuple(cell for cell, bit in cells if not state & bit)] += 1
        total = self.sides**2
        return [
            Outcome(
                Fraction(count, total), tuple(Option(state | 1 << (c - 1), move=c) for c in cells)
            )
            for cells, count in weight.items()
        ]

    def label(self, state: int) -> str:
        """The cells still open (``"2 5 7"``); the start and the won board by name.

        >>> [Jackpot().label(s) for s in (0, 10, 511 - 16, 511)]
        ['START', '1 3 5 6 7 8 9', '5', 'WIN']
        """
        if state == 0:
            return "START"
        if state == self.full:
            return "WIN"
        up = set(self.cells_up(state))
        return " ".join(str(c) for c in range(1, self.cells + 1) if c not in up)

    def layer(self, state: int) -> int:
        return bin(state).count("1")

    def layer_name(self, layer: int) -> str:
        """How the explorer names a layer: ``'3 flipped'``."""
        return f"{layer} flipped"

    def drawing(self) -> dict:
        """How the explorer draws a position: the cells its label lists are still open."""
        return {"kind": "cells", "cells": self.cells}

    def move_label(self, move: int) -> str:
        return str(move)  # the cell flipped

    def cells_up(self, state: int) -> list[int]:
        """The flipped cells of a position.

        >>> Jackpot().cells_up(10)
        [2, 4]
        """
        return [c for c in range(1, self.cells + 1) if state >> (c - 1) & 1]


def parse_position(text: str, rules: Jackpot | None = None) -> int:
    """A position from the cells still open, as :meth:`Jackpot.label` writes them
    (``2579``, ``'2 5 7 9'``, ``2,5,7,9``), or START / WIN.

    ASCII only: Python's ``int`` and ``upper`` would also read other scripts' digits, and
    ``'ſtart'.upper()`` is ``'START'``.

    >>> rules = Jackpot()
    >>> parse_position("START", rules), parse_position("2 5,7 9", rules), parse_position("win")
    (0, 173, 511)
    >>> rules.label(173)
    '2 5 7 9'
    >>> parse_position("2 2")
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: '2 2': expected the cells still open, ...
    """
    rules = Jackpot() if rules is None else rules
    name = text.strip().upper() if text.isascii() else ""
    if name in ("START", "WIN"):
        return 0 if name == "START" else rules.full
    digits = "".join(name.replace(",", " ").split())
    cells = [int(c) for c in digits] if digits.isdigit() else None
    if not cells or len(set(cells)) != len(cells) or not all(1 <= c <= rules.cells for c in cells):
        raise InvalidArgumentError(
            f"{text!r}: expected the cells still open, each of 1 to {rules.cells} "
            "once (e.g. 2579 or '2 5 7 9'), or START or WIN"
        )
    return rules.full ^ sum(1 << (c - 1) for c in cells)
