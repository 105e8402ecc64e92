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
from dataclasses import dataclass

import numpy as np

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
from ..tables import Table, format_value
from .defaults import JACKPOT_GAMES

#: Monte Carlo games per policy in the report (about half a second each).
GAMES = JACKPOT_GAMES
#: Games drawn in the diagram of the most likely games.
LIKELY = 10
#: Rows of the table of HiLo's costliest decisions.
COSTLIEST = 10


def percent(value) -> str:
    """A probability as a percentage with five decimals.

    >>> from fractions import Fraction
    >>> percent(Fraction(14103327415, 176319369216))
    '7.99874 %'
    """
    return f"{100 * float(value):.5f} %"


@dataclass(frozen=True)
class JackpotResults:
    """What the Jackpot report shows, computed once: the gallery draws its Jackpot
    diagrams and figures from the same results (:func:`jackpot_results`).

    Attributes
    ----------
    rules, graph : the standard game and its graph.
    optimum : the exact solution.
    rows : every agent and the optimum, exactly (:func:`~gamegraph.analysis.compare_policies`).
    comparison, diff : HiLo against the optimum, outcome by outcome and decision by decision.
    layers : where games are lost, for the policies in :data:`SHOWN`.
    seconds : the time these took.
    """

    rules: Jackpot
    graph: object
    optimum: object
    rows: list
    comparison: object
    diff: object
    layers: object
    seconds: float

    @property
    def by_name(self) -> dict:
        """Each policy's row by its name."""
        return {row.name: row for row in self.rows}


#: The policies whose losses by layer are drawn and tabled.
SHOWN = ("min", "last", "hilo", "optimal")


def jackpot_results() -> JackpotResults:
    """Build, solve and compare the standard game: everything exact the report shows.

    >>> results = jackpot_results()
    >>> results.by_name["hilo"].win, results.diff.gap
    (Fraction(660001525, 8264970432), Fraction(69884645, 528958107648))
    """
    started = time.perf_counter()
    rules = Jackpot()
    graph = build(rules)
    optimum = solve(graph, exact=True)
    rows = compare_policies(graph, AGENTS, exact=True, solution=optimum)
    by_name = {row.name: row for row in rows}
    hilo = by_name["hilo"].policy
    return JackpotResults(
        rules=rules,
        graph=graph,
        optimum=optimum,
        rows=rows,
        comparison=compare(optimum, hilo),
        diff=policy_diff(optimum, hilo, name="hilo"),
        layers=layer_summary(graph, {name: by_name[name].policy for name in SHOWN}),
        seconds=time.perf_counter() - started,
    )


def jackpot_report(
    *,
    games: int = GAMES,
    seed: int = 1,
    progress: bool | None = None,
    results: JackpotResults | None = None,
) -> Report:
    """Build the Jackpot report (about two seconds, plus the figures when saved).

    Parameters
    ----------
    games : int
        Monte Carlo games per policy (HiLo and the optimum).
    seed : int
        The simulation's seed; the same seed gives the same report.
    progress : bool, optional
        Progress bars on stderr for the simulations (see :mod:`gamegraph._progress`).
    results : JackpotResults, optional
        What :func:`jackpot_results` computed, when the caller has it already (the
        gallery); computed here otherwise.
    """
    if results is None:
        results = jackpot_results()
    started = time.perf_counter()
    by_name = results.by_name
    checks = {
        name: simulate(
            results.graph, by_name[name].policy, games=games, seed=seed, progress=progress
        )
        for name in ("hilo", "optimal")
    }
    seconds = results.seconds + time.perf_counter() - started

    graph = results.graph
    optimal_win, hilo_win = by_name["optimal"].win, by_name["hilo"].win
    report = Report(
        "Jackpot: exact analysis",
        footer=(
            f"Jackpot, {results.rules.cells} cells: {graph.n_states:,} positions, "
            f"{graph.n_outcomes:,} outcomes, {graph.n_options:,} options; solved, "
            f"compared and simulated ({games:,} games per policy, seed {seed}) in "
            f"{seconds:.1f} s"
        ),
    )
    report.text(
        f"The optimal policy wins {percent(optimal_win)} of games, HiLo, the best rule of "
        f"thumb, {percent(hilo_win)}: a difference of {format_value(optimal_win - hilo_win)} "
        f"({100 * float(optimal_win - hilo_win):.5f} percentage points). Every value below "
        "is exact unless it is marked as a simulation."
    )
    report.heading("Every policy, exactly")
    report.table(_policies_table(results.rows, optimal_win))
    report.heading("Where HiLo and the optimum differ")
    _differences(report, results)
    report.heading("The most likely games")
    optimal_view = policy_view(graph, results.optimum.policy, reach=True)
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
        layer_summary_figure(results.layers),
        caption="How far games get, and where they are lost, for four policies",
        name="loss-by-layer",
    )
    report.table(_losses_table(results.layers))
    report.heading("Monte Carlo check")
    report.table(_monte_carlo_table(checks, by_name, seed))
    return report


def _policies_table(rows, optimal_win) -> Table:
    """Every policy's exact win probability, beside the published figure and the gap."""
    return Table(
        ("policy", "win probability", "percent", "published", "behind the optimum"),
        [
            (
                row.name,
                row.win,
                row.win,
                PUBLISHED_PERCENT.get(row.name, ""),
                optimal_win - row.win,
            )
            for row in rows
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


def _differences(report: Report, results: JackpotResults) -> None:
    """Where HiLo's choice differs from the optimum's: counts, costliest decisions, diagram."""
    comparison, diff = results.comparison, results.diff
    differing_states = np.unique(results.graph.outcome_state[comparison.differs])
    ties = int(comparison.differs.sum() - comparison.suboptimal.sum())
    report.text(
        f"HiLo's choice differs from the optimum's at {int(comparison.differs.sum())} "
        f"outcomes in {len(differing_states)} positions; at {ties} of them the two cells are "
        f"worth the same, so HiLo gives up win probability at "
        f"{int(comparison.suboptimal.sum())} outcomes: {len(diff.costs)} distinct decisions at "
        f"{diff.positions} positions. Weighted by how often HiLo meets them, they cost "
        f"{format_value(diff.gap)} = {100 * float(diff.gap):.5f} percentage points, "
        "exactly the gap between the two start values."
    )
    report.table(diff.table(rows=COSTLIEST))
    report.figure(
        policy_diff_dot(results.graph, diff),
        caption="Only the decisions where HiLo differs from the optimum, each with its cost",
        name="hilo-diff",
    )


def _losses_table(layers) -> Table:
    """The chance that a game is lost with k cells flipped, per policy in :data:`SHOWN`."""
    return Table(
        ("cells flipped", *SHOWN),
        [(k, *(layers.lost[name][k] for name in SHOWN)) for k in layers.layers]
        + [("won", *(layers.win(name) for name in SHOWN))],
        title="Probability that the game is lost with k cells flipped (and won)",
        notes=("Each column adds up to 100 %.",),
        formats={name: percent for name in SHOWN},
    )


def _monte_carlo_table(checks: dict, by_name: dict, seed: int) -> Table:
    """Each simulation's estimate and interval against the exact value."""
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
    return Table(
        ("policy", "games", "wins", "estimate", "95 % interval", "exact", "inside"),
        rows,
        title=f"Seeded simulation (seed {seed}) against the exact values",
        notes=("95 % Wilson score intervals.",),
    )
