"""Jackpot, the one-player dice game played on a Shut-the-Box board (Thai bar rules).

Nine cells, all down at the start. Each turn two dice are thrown; a roll (A, B) offers
the cells ``[A, B, A+B]`` in that order, the sum only when it names a cell, keeping
only cells still down. The player must flip up one offered cell; if none is offered the
game is lost. Flipping all nine wins.

A state is the set of flipped cells as a bit mask: cell c is bit c-1, so the number of a
position is the reference's board index (cells 2 and 4 up: 2 + 8 = 10). Layer n holds
the positions with n cells up. The graph is a DAG of 2**cells positions.

The six agents take the offered list as the rules give it:

========  ===========================================================
min       the lowest cell offered
max       the highest cell offered
first     the first cell of the list (die A when still down)
last      the last cell of the list (the sum whenever it is offered)
hilo      the first of 9, 8, 7, 1, 2, 3, 4, 5, 6 that is offered
hilo2     the highest cell if it is above 6, otherwise the lowest
========  ===========================================================
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from .._checks import check_int
from ..rules import Option, Outcome, Rules


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


def _cells(options):
    return [o.move for o in options]


def agent_min(state, options):
    cells = _cells(options)
    return cells.index(min(cells))


def agent_max(state, options):
    cells = _cells(options)
    return cells.index(max(cells))


def agent_first(state, options):
    return 0


def agent_last(state, options):
    return len(options) - 1


HILO_PRIORITY = (9, 8, 7, 1, 2, 3, 4, 5, 6)


def agent_hilo(state, options):
    cells = _cells(options)
    rank = {cell: i for i, cell in enumerate(HILO_PRIORITY)}
    return min(range(len(cells)), key=lambda i: rank.get(cells[i], len(rank) + cells[i]))


def agent_hilo2(state, options):
    cells = _cells(options)
    high = max(cells)
    return cells.index(high if high > 6 else min(cells))


AGENTS = {
    "min": agent_min,
    "max": agent_max,
    "first": agent_first,
    "last": agent_last,
    "hilo": agent_hilo,
    "hilo2": agent_hilo2,
}
"""The six agents of the reference analysis, by name."""

PUBLISHED_PERCENT = {
    "min": "1.3306",
    "max": "4.7706",
    "first": "1.3105",
    "last": "5.2248",
    "hilo": "7.9855",
    "hilo2": "7.9855",
}
"""Win percentages the reference README prints, four decimals."""
