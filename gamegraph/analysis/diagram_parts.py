"""The part of any game a diagram of one policy draws, by the name of its view.

:mod:`.views` picks states three ways (``likely``, ``threshold``, ``around``);
:func:`part_states` picks by the view's name with its defaults and says in words what was
kept, :func:`part_selection` turns the states into the
:class:`~gamegraph.analysis.Selection` a diagram draws (``around`` marking its state), and
:func:`moves_from` counts the moves a whole diagram would draw, so that a diagram too
large to read can be refused before it is laid out (``gamegraph graph SPEC``).

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.pig import Pig
>>> graph = build(Pig(goal=10))
>>> chain = solve(graph).policy.chain(graph)
>>> states, caption = part_states(graph, chain, "likely", limit=5)
>>> caption
'the 5 states with the likeliest paths from the start'
>>> part_selection(chain, states, caption)
<Selection 'the 5 states with the likeliest paths from the start': 5 states, 5 edges>
"""

from __future__ import annotations

import numpy as np

from ..errors import UnknownNameError
from ..graph import StateGraph
from ..policy import MarkovChain
from . import views
from .pruning import Selection


def moves_from(chain: MarkovChain, states) -> int:
    """The moves of ``chain`` that leave one of ``states``.

    >>> from gamegraph import build, solve
    >>> from gamegraph.games.pig import Pig
    >>> graph = build(Pig(goal=10))
    >>> moves_from(solve(graph).policy.chain(graph), [graph.start])
    6
    """
    return int(np.isin(chain.edge_source, states).sum())


def part_states(
    graph: StateGraph,
    chain: MarkovChain,
    view: str,
    *,
    limit: int | None = None,
    min_reach: float | None = None,
    focus: int | None = None,
    steps: int | None = None,
) -> tuple[np.ndarray, str]:
    """The states the view ``view`` of ``chain`` keeps, and a caption saying which.

    Parameters
    ----------
    view : {"likely", "threshold", "around"}
        ``likely``: the ``limit`` states with the likeliest paths from the start (default
        :data:`.views.DEFAULT_LIMIT`); ``threshold``: the states reached with at least
        ``min_reach`` (default :data:`.views.DEFAULT_MINIMUM`); ``around``: the states
        within ``steps`` moves of the state numbered ``focus`` (default
        :data:`.views.DEFAULT_STEPS`).
    """
    if view == "likely":
        states = views.likely(graph, chain, limit or views.DEFAULT_LIMIT)
        return states, f"the {len(states):,} states with the likeliest paths from the start"
    if view == "threshold":
        minimum = min_reach or views.DEFAULT_MINIMUM
        states = views.threshold(graph, chain, minimum)
        return states, f"the states reached in at least {100 * minimum:g} % of games"
    if view == "around":
        steps = steps or views.DEFAULT_STEPS
        states = views.around(graph, focus, steps, chain)
        return states, f"{steps} moves before and after {graph.label(focus)}"
    raise UnknownNameError("view", view, views.VIEWS)


def part_selection(chain: MarkovChain, states, caption: str, focus: int | None = None) -> Selection:
    """The :class:`~gamegraph.analysis.Selection` of ``states``, with the state ``focus``
    marked (the ``around`` view's state; None: none).
    """
    selection = views.selection(chain, states, caption)
    if focus is None:
        return selection
    return type(selection)(selection.states, selection.edges, selection.caption, focus=focus)
