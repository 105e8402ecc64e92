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

The package keeps one concern per module; every public name of the rules and the agents
is re-exported here, so ``from gamegraph.games.jackpot import Jackpot, AGENTS`` works.

==================  ================================================================
:mod:`.rules`       the :class:`Jackpot` rules and ``parse_position`` (a position from
                    the cells still open, as its label writes them)
:mod:`.agents`      the six agents (``AGENTS``, ``HILO_PRIORITY``) and the reference's
                    published percentages (``PUBLISHED_PERCENT``)
:mod:`.analysis`    what the ``gamegraph jackpot`` commands compute, as result objects
                    that print and serialise: ``compare_agents``, ``simulate_agent``,
                    ``jackpot_drawing``, ``compare_layers`` (imported on use: it solves)
==================  ================================================================

Examples
--------
>>> from gamegraph import build, solve
>>> round(float(solve(build(Jackpot()), exact=True).start_value), 6)
0.079987
"""

from .agents import (
    AGENTS,
    HILO_PRIORITY,
    PUBLISHED_PERCENT,
    agent_first,
    agent_hilo,
    agent_hilo2,
    agent_last,
    agent_max,
    agent_min,
)
from .rules import Jackpot, parse_position

__all__ = [
    "AGENTS",
    "HILO_PRIORITY",
    "PUBLISHED_PERCENT",
    "Jackpot",
    "agent_first",
    "agent_hilo",
    "agent_hilo2",
    "agent_last",
    "agent_max",
    "agent_min",
    "parse_position",
]
