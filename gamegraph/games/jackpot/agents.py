"""Jackpot's six named agents and the reference's published results.

The agents take the offered list as the rules give it (:mod:`.rules`):

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
