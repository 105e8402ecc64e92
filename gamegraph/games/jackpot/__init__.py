"""Jackpot, the one-player dice game played on a Shut-the-Box board (Thai bar rules).

Nine cells, two dice a turn, one offered cell flipped up each throw; flipping all nine
wins. The rules, with the states and their numbering, are told in :mod:`.rules`; the six
agents in :mod:`.agents`.

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
