"""From a solved game to a picture in one call: :func:`draw`, :func:`explore`, :func:`report`.

The three verbs take whatever a user has at hand (the rules, the built graph, a solution,
or a computed result) and return an object that displays itself in Jupyter and saves to
a file, without knowing which modules compute and which draw:

==============================  ==========================================================
``draw(result, policy)``        a diagram of a policy (:class:`~gamegraph.renderers.diagram.
                                Diagram`: ``.save("g.pdf")``, SVG in Jupyter); the whole
                                game when it fits a page, else its likeliest states
``explore(result, policies)``   the graph explorer (:class:`~gamegraph.renderers.explorer.
                                ExplorerPage`: ``.save("g.html")``), any size
``report(result)``              the report of the game (:class:`~gamegraph.renderers.report.
                                Report`: ``.save("r.html")`` or ``.md``)
==============================  ==========================================================

``result`` is any of :class:`~gamegraph.rules.Rules` (built and solved here), a
:class:`~gamegraph.graph.StateGraph` (solved here, in floats), a
:class:`~gamegraph.solve.Solution`; :func:`draw` also takes a
:class:`~gamegraph.analysis.PolicyView` or a :class:`~gamegraph.analysis.PolicyDiff`, and
:func:`explore` an :class:`~gamegraph.analysis.Exploration`. A policy is anything
:func:`gamegraph.analysis.as_policy` takes: a Policy, an agent, or a name (``"optimal"``,
or one of the game's ``AGENTS``).

This is an application layer, like the reports and the command line: the solution and
the analysis results know nothing of drawing, so the verbs are functions here rather than
methods of those results.

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.show import draw, explore, report
>>> from gamegraph.games.jackpot import Jackpot
>>> solution = solve(build(Jackpot(cells=3)))
>>> draw(solution)
<Diagram 'Jackpot: optimal (14.36 % wins)': ... lines of DOT>
>>> draw(solution, "max")  # a game's agent by name; its costly moves are marked
<Diagram 'Jackpot: max (13.71 % wins)': ... lines of DOT>
>>> explore(solution, ["hilo", "max"], policy="hilo")
<ExplorerPage 'jackpot': Exploration('jackpot': 8 states in 4 groups, policies optimal, hilo, max)>
>>> report(solution)
<Report 'jackpot: the game solved': ... sections (3 tables, 1 figure)>

A game of one's own goes the same way (``draw(MyGame())``, ``draw(solve(build(MyGame())))``);
a game too large for one page is drawn by its likeliest states:

>>> from gamegraph.games.shutbox import ShutTheBox
>>> box = draw(ShutTheBox())  # rules: built and solved here
>>> box.title, "The 60 likeliest states" in box.source
('Shut the box (9 tiles, one die: sum6): optimal (9.76 % wins)', True)
>>> draw(ShutTheBox(), part="all")
Traceback (most recent call last):
...
gamegraph.renderers.dot.DiagramTooLargeError: a diagram of ... states ...
"""

from __future__ import annotations

import numpy as np

from .analysis.explore import Exploration, explore_graph
from .analysis.policies import PolicyView, as_policies, as_policy, policy_view
from .analysis.pruning import PolicyDiff
from .analysis.views import (
    DEFAULT_LIMIT,
    DEFAULT_MINIMUM,
    likely,
    selection,
    threshold,
    view_title,
)
from .build import build
from .errors import InvalidArgumentError, UnknownNameError
from .graph import StateGraph
from .renderers.dot import (
    MAX_DIAGRAM_STATES,
    DiagramTooLargeError,
    check_diagram_size,
    policy_diff_dot,
    policy_dot,
    reachable_states,
)
from .renderers.explorer import explore_figure
from .reports.any_game import game_report
from .rules import Rules
from .solve import Solution, solve

__all__ = ["draw", "explore", "report", "PARTS"]

#: What :func:`draw` draws of a game: ``auto`` (all of it when it fits a page, else
#: ``likely``), ``all``, ``likely`` (the likeliest states), ``threshold`` (the states
#: reached often enough).
PARTS = ("auto", "all", "likely", "threshold")

_TAKEN = "Rules, a StateGraph (build(rules)) or a Solution (solve(graph))"


def _is_rules(result) -> bool:
    """Rules, subclassed or not: anything with ``start()`` and ``outcomes(state)``."""
    return isinstance(result, Rules) or (
        callable(getattr(result, "start", None)) and callable(getattr(result, "outcomes", None))
    )


def _solved(result, what: str, extra: str = "") -> Solution:
    """``result`` as a Solution: built and solved (floats) when it is rules or a graph."""
    if isinstance(result, Solution):
        return result
    if _is_rules(result):
        result = build(result)
    if isinstance(result, StateGraph):
        return solve(result)
    raise InvalidArgumentError(f"{what} takes {_TAKEN}{extra}, not {type(result).__name__}")


def draw(
    result,
    policy=None,
    *,
    part: str = "auto",
    title: str | None = None,
    limit: int = DEFAULT_LIMIT,
    minimum: float = DEFAULT_MINIMUM,
    max_states: int | None = MAX_DIAGRAM_STATES,
    **options,
):
    """A diagram of ``policy`` (default: optimal play) in the game of ``result``.

    Parameters
    ----------
    result : Rules, StateGraph, Solution, PolicyView or PolicyDiff
        The game (built and solved when needed), or a computed view or diff to draw as it
        is (``policy`` and ``part`` do not apply to those).
    policy : Policy, agent or name, optional
        The policy drawn (:func:`gamegraph.analysis.as_policy`). Other than the optimum,
        its moves that give up value are marked against the solution.
    part : str
        One of :data:`PARTS`. ``auto`` draws the whole of what the policy reaches when it
        fits a page (``max_states``), else the ``limit`` likeliest states;
        ``all`` refuses a game too large at once (:class:`DiagramTooLargeError`).
    title : str, optional
        Default: the game, the policy and its value, in the objective's words ("14.36 %
        wins", "expected score 8.1"; :func:`gamegraph.analysis.views.view_title`).
    limit, minimum
        States kept by ``likely``; least reach kept by ``threshold``.
    max_states : int or None
        The most states one diagram draws (None: no limit).
    **options
        Passed to :func:`gamegraph.renderers.dot.policy_dot` (``style``, ``show_reach``,
        ``weights``, ``subtitle``).

    Returns
    -------
    Diagram
        Shows itself in Jupyter; ``.save(path)`` writes ``.dot``, ``.svg``, ``.png`` or
        ``.pdf``.
    """
    if isinstance(result, PolicyDiff):
        return policy_diff_dot(result.graph, result)
    if isinstance(result, PolicyView):
        return policy_dot(
            result, title=title or view_title(result), max_states=max_states, **options
        )
    solution = _solved(result, "draw", ", a PolicyView or a PolicyDiff")
    if part not in PARTS:
        raise UnknownNameError("part", part, PARTS)
    graph = solution.graph
    chosen = as_policy(graph, "optimal" if policy is None else policy, solution=solution)
    optimal = chosen.choice is solution.policy.choice
    view = policy_view(graph, chosen, reach=True, optimal=None if optimal else solution)
    chain = view.chain
    kept = None
    if part == "auto":
        drawn = reachable_states(chain)
        moves = int(np.isin(chain.edge_source, drawn).sum())
        try:
            check_diagram_size(len(drawn), moves, max_states)
        except DiagramTooLargeError:
            part = "likely"
    if part == "likely":
        states = likely(graph, chain, limit)
        kept = selection(chain, states, f"the {len(states):,} likeliest states")
    elif part == "threshold":
        states = threshold(graph, chain, minimum)
        kept = selection(
            chain, states, f"the {len(states):,} states reached with chance {minimum:g} or more"
        )
    return policy_dot(
        view, title=title or view_title(view), selection=kept, max_states=max_states, **options
    )


def explore(
    result, policies=None, *, policy: str | None = None, title: str | None = None, **options
):
    """The graph explorer of the game of ``result``, with ``policies`` beside the optimum.

    Parameters
    ----------
    result : Rules, StateGraph, Solution or Exploration
    policies : policy, list or dict, optional
        More policies (:func:`gamegraph.analysis.as_policies`): ``["hilo", my_agent]``.
    policy : str, optional
        The policy the page opens on; added to ``policies`` when it is not among them.
    title : str, optional
    **options
        Passed to :func:`gamegraph.analysis.explore_graph` (``groups``, ``min_reach``,
        ``max_states``, ``progress``).

    Returns
    -------
    ExplorerPage
        Shows itself in Jupyter; ``.save("page.html")`` writes one self-contained page.
    """
    if isinstance(result, Exploration):
        if policies is not None or options:
            raise InvalidArgumentError(
                "an Exploration is drawn as it is: give the solution to choose policies"
            )
        return explore_figure(result, title=title, policy=policy)
    solution = _solved(result, "explore", " or an Exploration")
    named = as_policies(solution.graph, policies, solution=solution)
    if policy is not None and policy not in named and policy != "optimal":
        named.update(as_policies(solution.graph, [policy], solution=solution))
    data = explore_graph(solution.graph, solution, named, **options)
    return explore_figure(data, title=title, policy=policy)


def report(result, *, title: str | None = None, **options):
    """The report of the game of ``result``: its size, value, best first moves, layers and
    a diagram of optimal play (:func:`gamegraph.reports.any_game.game_report`).

    ``result`` is Rules, a StateGraph or a Solution (solved again, exactly when the
    solution is exact). ``options`` go to ``game_report`` (``limit``, ``progress``).
    Returns a :class:`~gamegraph.renderers.report.Report`: ``.save("r.html")`` or
    ``.save("r.md")``.
    """
    if _is_rules(result):
        result = build(result)
    if isinstance(result, Solution):
        options.setdefault("exact", result.exact)
        result = result.graph
    if not isinstance(result, StateGraph):
        raise InvalidArgumentError(f"report takes {_TAKEN}, not {type(result).__name__}")
    return game_report(result, title=title, **options)
