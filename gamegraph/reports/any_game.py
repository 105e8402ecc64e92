"""A report for any game: its size, its optimal value and first moves, and a diagram.

:func:`game_report` needs nothing but the game's graph, so it serves a user's own game
(``gamegraph report my_game.py:Game -o r.html``) as well as a bundled one. It solves the
game (floats, or exactly with ``exact=True``), propagates the optimal policy forward and
lays out

* the game in numbers: states, throws, moves, end states, cycles, the start value and the
  expected number of throws under optimal play;
* the optimal moves at the start, every throw with the value of each move;
* the states by layer (the game's own layers, else the moves needed from the start) with
  how often optimal play passes through them;
* a diagram of optimal play: the whole of it when it fits a page
  (:func:`gamegraph.renderers.dot.check_diagram_size`), else its likeliest states
  (:func:`gamegraph.analysis.views.likely`).

The report speaks the game's objective (:mod:`gamegraph.values`): a win probability for
``win``, else the expected score or margin, or the game's own ``value_name`` ("expected
turns"); only a ``win`` game's diagram marks where games are lost.
"""

from __future__ import annotations

import time

import numpy as np

from .._checks import check_int
from ..analysis.layout import distance_layers
from ..analysis.policies import policy_view
from ..analysis.views import DEFAULT_LIMIT, likely, selection, start_text
from ..graph import StateGraph
from ..propagate import propagate
from ..renderers.dot import (
    MAX_DIAGRAM_STATES,
    DiagramTooLargeError,
    check_diagram_size,
    policy_dot,
    reachable_states,
)
from ..renderers.report import Report
from ..solve import solve
from ..tables import Table
from ..values import objective_of, value_name

#: The most layers listed one per row; longer games are listed in bands of layers.
MAX_LAYER_ROWS = 30


def game_report(
    graph: StateGraph,
    *,
    title: str | None = None,
    exact: bool = False,
    limit: int = DEFAULT_LIMIT,
    progress: bool | None = None,
) -> Report:
    """The report of one game: size, optimal value, moves at the start, layers, a diagram.

    Parameters
    ----------
    graph : StateGraph
        The game (``gamegraph.build(rules)``).
    title : str, optional
        The game's name in the title (default: the rules' name).
    exact : bool
        Solve in exact fractions (small games only) instead of floats.
    limit : int
        States of the likeliest part drawn when the whole of optimal play does not fit a
        diagram (1 to :data:`~gamegraph.renderers.dot.MAX_DIAGRAM_STATES`).
    progress : bool or None
        Progress bars on stderr for the solve (see :mod:`gamegraph._progress`).

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.pig import Pig
    >>> report = game_report(build(Pig(goal=10)))
    >>> report
    <Report 'pig to 10: the game solved': 10 sections (3 tables, 1 figure)>
    >>> "0.709424" in report.to_html()
    True

    A score game's report gives its value by the game's name for it:

    >>> from gamegraph.rules import Option, Rules, decision
    >>> class Bank(Rules):
    ...     objective, value_name, name = "score", "expected points", "bank"
    ...     def start(self): return 0
    ...     def terminal_value(self, s): return 0 if s == 1 else None
    ...     def outcomes(self, s): return decision(Option(1, 0, reward=3), Option(1, 1, reward=2))
    >>> text = game_report(build(Bank())).to_markdown()[0]
    >>> "start value (expected points) | 3 |" in text, "win" in text.lower()
    (True, False)
    """
    limit = check_int(limit, "limit", low=1, high=MAX_DIAGRAM_STATES)
    name = title or graph.rules.name
    started = time.perf_counter()
    solution = solve(graph, exact=exact, progress=progress)
    solved = time.perf_counter() - started
    reach = propagate(graph, solution.policy, exact=exact)
    report = Report(
        f"{name}: the game solved",
        footer="Made by gamegraph from the game's rules: every value is computed, none is sampled.",
    )
    report.text(
        f"{_opening(graph, solution.start_value)} The game has {graph.n_states:,} states; "
        f"optimal play reaches {int(np.count_nonzero(reach.reach_probability)):,} of them "
        f"and a game lasts {float(reach.expected_throws):.2f} throws and decisions on "
        f"average. Solved in {solved:.2f} s ({'exact fractions' if exact else 'floats'})."
    )

    report.heading("The game in numbers")
    report.table(_numbers_table(graph, solution, reach, name))

    report.heading("The best moves at the start")
    report.text(
        f"At the start ({graph.label(graph.start)}), each throw (or decision) with the move "
        "optimal play makes and the value it leads to."
    )
    report.table(solution.best_moves())

    report.heading("States by layer")
    report.table(_layers_table(graph, reach.reach_probability))

    report.heading("Optimal play drawn")
    diagram, caption = _optimal_play_diagram(graph, solution, name, limit)
    report.figure(diagram, caption=caption, name="optimal-play")
    return report


def _opening(graph: StateGraph, start) -> str:
    """The report's first sentence: the start value in the game's own words."""
    if objective_of(graph) == "win":
        return (
            f"With optimal play the player to move at the start wins with probability "
            f"{float(start):.6f}."
        )
    return (
        f"With optimal play the {value_name(graph)} of the player to move at the start "
        f"is {float(start):.6g}."
    )


def _numbers_table(graph: StateGraph, solution, reach, name: str) -> Table:
    """The game's size, its start value and the solve's residual."""
    return Table(
        ("", "value"),
        [
            ("states", graph.n_states),
            ("throws and decisions (outcomes)", len(graph.outcome_state)),
            ("moves offered (options)", len(graph.option_target)),
            ("end states", int(np.count_nonzero(graph.terminal))),
            ("groups of states on a cycle", int(graph.condensation.cyclic.sum())),
            (f"start value ({value_name(graph)})", solution.start_value),
            ("expected throws under optimal play", reach.expected_throws),
            ("residual of the solve", solution.residual),
        ],
        title=f"{name}: size and value",
        notes=(
            "A group on a cycle is a set of states that can follow each other round "
            "and round (a bust in Pig, a capture in a race); none means every game "
            "moves forward only.",
        ),
    )


def _optimal_play_diagram(graph: StateGraph, solution, name: str, limit: int):
    """Optimal play as a diagram and its caption: all of it when it fits a page, else
    its ``limit`` likeliest states.
    """
    chain = solution.policy.chain(graph)
    drawn = reachable_states(chain)
    try:
        check_diagram_size(len(drawn), int(np.isin(chain.edge_source, drawn).sum()))
        part = None
        caption = (
            f"Every state optimal play reaches ({len(drawn):,}); edge width follows how "
            "often a game makes the move"
            + (
                ", a vermillion fill where games are lost"
                if objective_of(graph) == "win"
                else "; each end state gives its value"
            )
        )
    except DiagramTooLargeError:
        kept = likely(graph, chain, limit)
        part = selection(
            chain, kept, f"the {len(kept):,} likeliest states of {len(drawn):,} reached"
        )
        caption = (
            f"Optimal play reaches {len(drawn):,} states, too many to draw and read: these "
            f"are the {len(kept):,} whose likeliest path from the start is most probable "
            "(`gamegraph graph SPEC --view likely|threshold|around` draws other parts)"
        )
    view = policy_view(graph, solution.policy, reach=True)
    title = f"{name}: optimal play ({start_text(solution.start_value, graph)})"
    return policy_dot(view, title=title, selection=part), caption


def _layers_table(graph: StateGraph, reach) -> Table:
    """States and optimal play's visits per layer (the game's layers, else the distance)."""
    layers = graph.layers
    own = layers is not None
    if not own:
        layers = distance_layers(graph)
    reached = layers >= 0
    top = int(layers[reached].max()) if reached.any() else 0
    width = max(1, -(-(top + 1) // MAX_LAYER_ROWS))  # layers per row
    band = np.where(reached, layers // width, -1)
    rows = []
    visits = np.asarray(reach, dtype=float)
    for b in range(top // width + 1):
        members = band == b
        low, high = b * width, min(top, b * width + width - 1)
        rows.append(
            (
                str(low) if low == high else f"{low}-{high}",
                int(members.sum()),
                int(np.count_nonzero(visits[members])),
                float(visits[members].sum()),
            )
        )
    what = "layer" if own else "moves from the start"
    return Table(
        (what, "states", "reached", "visits"),
        rows,
        title=f"States by {'the game' + chr(39) + 's layers' if own else 'distance'}",
        notes=(
            (
                "layer: the game's own (Rules.layer)"
                if own
                else "moves from the start: the fewest moves that lead there"
            )
            + "; reached: states optimal play reaches; visits: the expected number of "
            "visits to the states of the row in a game (for a game that moves forward "
            "only, the chance of passing through the row).",
        ),
        digits=4,
    )
