"""The Jackpot report: every agent against the optimum, where HiLo goes wrong, the diagrams,
where games are lost, and a Monte Carlo check.

Everything shown is computed here from the library's results (:mod:`gamegraph.analysis`,
:func:`gamegraph.propagate.propagate`, :func:`gamegraph.simulate.simulate`) and drawn by
the renderers; :func:`jackpot_report` returns a :class:`~gamegraph.renderers.report.Report`.

What HiLo's mistakes cost: for every outcome (a roll, as the cells it offers) where HiLo
picks a worse cell than the optimum, the cost is the probability of reaching the position
under HiLo, times the outcome's probability, times the win probability the choice gives up
there. The costs add up exactly to the difference of the two start values (the performance
difference identity), 69884645/528958107648 for the standard game.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from .._tables import Table
from ..analysis import (
    compare,
    compare_policies,
    layer_summary,
    likely_paths,
    policy_diff,
    policy_view,
)
from ..build import build
from ..games.jackpot import AGENTS, PUBLISHED_PERCENT, Jackpot
from ..renderers.dot import policy_diff_dot, policy_dot
from ..renderers.figures import layer_summary_figure
from ..renderers.report import Report
from ..simulate import simulate
from ..solve import solve
from .defaults import JACKPOT_GAMES

#: Monte Carlo games per policy in the report (about half a second each).
GAMES = JACKPOT_GAMES
#: Games drawn in the diagram of the most likely games.
LIKELY = 10
#: Rows of the table of HiLo's costliest decisions.
COSTLIEST = 10


def percent(value) -> str:
    """A probability as a percentage with five decimals.

    >>> percent(Fraction(14103327415, 176319369216))
    '7.99874 %'
    """
    return f"{100 * float(value):.5f} %"


def _fraction(value) -> str:
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def jackpot_report(*, games: int = GAMES, seed: int = 1, progress: bool | None = None) -> Report:
    """Build the Jackpot report (about two seconds, plus the figures when saved).

    Parameters
    ----------
    games : int
        Monte Carlo games per policy (HiLo and the optimum).
    seed : int
        The simulation's seed; the same seed gives the same report.
    progress : bool, optional
        Progress bars on stderr for the simulations (see :mod:`gamegraph._progress`).
    """
    started = time.perf_counter()
    rules = Jackpot()
    graph = build(rules)
    optimum = solve(graph, exact=True)
    results = compare_policies(graph, AGENTS, exact=True, solution=optimum)
    by_name = {row.name: row for row in results}
    hilo = by_name["hilo"].policy
    comparison = compare(optimum, hilo)
    diff = policy_diff(optimum, hilo, name="hilo")
    costs = diff.costs
    shown = ("min", "last", "hilo", "optimal")
    layers = layer_summary(graph, {name: by_name[name].policy for name in shown})
    checks = {
        name: simulate(graph, by_name[name].policy, games=games, seed=seed, progress=progress)
        for name in ("hilo", "optimal")
    }
    seconds = time.perf_counter() - started

    optimal_win, hilo_win = by_name["optimal"].win, by_name["hilo"].win
    report = Report(
        "Jackpot: exact analysis",
        footer=(
            f"Jackpot, {rules.cells} cells: {graph.n_states:,} positions, "
            f"{graph.n_outcomes:,} outcomes, {graph.n_options:,} options; solved, "
            f"compared and simulated ({games:,} games per policy, seed {seed}) in "
            f"{seconds:.1f} s"
        ),
    )
    report.text(
        f"The optimal policy wins {percent(optimal_win)} of games, HiLo, the best rule of "
        f"thumb, {percent(hilo_win)}: a difference of {_fraction(optimal_win - hilo_win)} "
        f"({100 * float(optimal_win - hilo_win):.5f} percentage points). Every value below "
        "is exact unless it is marked as a simulation."
    )

    report.heading("Every policy, exactly")
    report.table(
        Table(
            ("policy", "win probability", "percent", "published", "behind the optimum"),
            [
                (
                    row.name,
                    row.win,
                    row.win,
                    PUBLISHED_PERCENT.get(row.name, ""),
                    optimal_win - row.win,
                )
                for row in results
            ],
            title="Win probability of each policy from the start",
            notes=(
                "published: the reference README's percentages (four decimals); "
                "behind the optimum: in percentage points.",
            ),
            formats={
                "percent": percent,
                "published": lambda v: f"{v} %" if v else "",
                "behind the optimum": lambda v: f"{100 * float(v):.5f}",
            },
        )
    )

    report.heading("Where HiLo and the optimum differ")
    differing_states = np.unique(graph.outcome_state[comparison.differs])
    ties = int(comparison.differs.sum() - comparison.suboptimal.sum())
    report.text(
        f"HiLo's choice differs from the optimum's at {int(comparison.differs.sum())} "
        f"outcomes in {len(differing_states)} positions; at {ties} of them the two cells are "
        f"worth the same, so HiLo gives up win probability at "
        f"{int(comparison.suboptimal.sum())} outcomes: {len(costs)} distinct decisions at "
        f"{diff.positions} positions. Weighted by how often HiLo meets them, they cost "
        f"{_fraction(diff.gap)} = {100 * float(diff.gap):.5f} percentage points, "
        "exactly the gap between the two start values."
    )
    report.table(diff.table(rows=COSTLIEST))
    report.figure(
        policy_diff_dot(graph, diff),
        caption="Only the decisions where HiLo differs from the optimum, each with its cost",
        name="hilo-diff",
    )

    report.heading("The most likely games")
    optimal_view = policy_view(graph, optimum.policy, reach=True)
    report.figure(
        policy_dot(
            optimal_view,
            title=f"Jackpot: optimal play ({percent(optimal_win)} wins)",
            selection=likely_paths(optimal_view.chain, LIKELY),
        ),
        caption=(
            "Edge width follows how often a game makes the move; `gamegraph jackpot graph` "
            "draws the full 512-position graph and the other views"
        ),
        name="optimal-likely",
    )

    report.heading("Where games are lost")
    report.figure(
        layer_summary_figure(layers),
        caption="How far games get, and where they are lost, for four policies",
        name="loss-by-layer",
    )
    report.table(
        Table(
            ("cells flipped", *shown),
            [(k, *(layers.lost[name][k] for name in shown)) for k in layers.layers]
            + [("won", *(layers.win(name) for name in shown))],
            title="Probability that the game is lost with k cells flipped (and won)",
            notes=("Each column adds up to 100 %.",),
            formats={name: percent for name in shown},
        )
    )

    report.heading("Monte Carlo check")
    rows = []
    for name, result in checks.items():
        low, high = result.interval()
        exact = by_name[name].win
        rows.append(
            (
                name,
                result.games,
                int(result.wins),
                percent(result.estimate),
                f"{percent(low)} .. {percent(high)}",
                percent(exact),
                low <= exact <= high,
            )
        )
    report.table(
        Table(
            ("policy", "games", "wins", "estimate", "95 % interval", "exact", "inside"),
            rows,
            title=f"Seeded simulation (seed {seed}) against the exact values",
            notes=("95 % Wilson score intervals.",),
        )
    )
    return report
