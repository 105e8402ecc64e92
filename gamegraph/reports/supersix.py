"""The Super Six report: start values, the roll/stop map, and the strategies in Jehn's
notation next to the paper's.

A position's value does not depend on the size of the game it came from, so two solves
serve everything (free rules, every turn may go on): an exact one up to
:data:`EXACT_PEGS` pegs (start values as fractions, the strategy strings, as
``gamegraph supersix strategy`` prints them) and, for larger games, one in floats at the
report's size (its start value and the map). :func:`supersix_report` returns a
:class:`~gamegraph.renderers.report.Report`.
"""

from __future__ import annotations

import time
from fractions import Fraction

from .._checks import check_int
from ..build import build
from ..games.supersix import PUBLISHED_STRATEGIES, SuperSix, decision_table, strategy_string
from ..games.supersix.analysis import start_values
from ..renderers.report import Report
from ..solve import solve
from ..tables import Table
from .defaults import SUPERSIX_PEGS

try:  # the static panels are moving to their own module
    from ..renderers.supersix_maps import supersix_maps
except ImportError:  # pragma: no cover - before the move
    from ..renderers.figures import supersix_maps

#: The exact solve's size: start values as fractions and strategy strings up to here.
EXACT_PEGS = 20
#: Strategy strings are listed up to here, the paper's largest (longer ones overflow a page).
STRATEGY_PEGS = 15
#: The default game size (the blog's 40 pegs).
PEGS = SUPERSIX_PEGS
#: Exact start values are written as fractions up to this many characters (20 pegs' has
#: hundreds of digits); the decimal column serves for the rest.
FRACTION_CHARS = 32
#: Exact start values in Jehn's paper ("Optimum Strategies for the Game Super Six", 2021).
PUBLISHED_START = {3: Fraction(31, 36), 4: Fraction(36, 41), 5: Fraction(45324, 63919)}

_SMALL = (3, 4, 5, 6, 7, 8, 10, 12, 16, 20)
_LARGE = (30, 40, 60, 80, 100, 150, 200, 300, 400)


def _hands(total: int) -> tuple[int, int]:
    return (total - total // 2, total // 2)


def _paper(total: int, strategy: str) -> str:
    """What the paper prints for ``total`` pegs: "same", its own string, or nothing."""
    published = PUBLISHED_STRATEGIES.get(total)
    if published is None:
        return ""
    if published == strategy:
        return "same"
    if published == strategy[:-1] + "0)":  # the 13- and 15-peg misprint
        return "same, plus a 0 at the end"
    return published


def supersix_report(*, pegs: int = PEGS, progress: bool | None = None) -> Report:
    """Build the Super Six report for a game of ``pegs`` pegs (4 or more; free rules).

    Start values are given for a few totals up to ``pegs`` (exact up to 20 pegs), the
    roll/stop map at ``pegs``, and the optimal strategy strings for 4 to 15 pegs.
    ``progress`` shows bars on stderr for the large solve (see :mod:`gamegraph._progress`).
    """
    pegs = check_int(pegs, "pegs", low=4)
    started = time.perf_counter()
    exact_size = EXACT_PEGS
    exact, large, positions = _solved_tables(pegs, progress)
    small_totals = [t for t in _SMALL if t <= exact_size]
    large_totals = sorted({t for t in _LARGE if exact_size < t <= pegs} | {pegs} - set(_SMALL))
    starts = start_values(exact, small_totals, "free")
    starts.update(start_values(large, large_totals, "free"))
    strategies = {t: strategy_string(exact, t) for t in range(4, STRATEGY_PEGS + 1)}
    seconds = time.perf_counter() - started

    report = Report(
        f"Super Six: optimal play, {pegs} pegs",
        footer=(
            f"Super Six, free rules: {positions:,} positions at {pegs} pegs solved in "
            f"floats, and every position up to {exact_size} pegs solved exactly; computed "
            f"in {seconds:.1f} s"
        ),
    )
    report.text(
        "Free rules: every turn starts with a throw and the player may go on throwing after "
        "any throw that does not end the turn. A position b/c/o has b pegs on the lid, c "
        "in the mover's hand and o in the opponent's; its value is the probability that the "
        "player about to throw wins."
    )
    report.heading("Start values")
    report.table(_start_values_table(starts))
    report.heading("Roll or stop")
    report.text(
        f"Where the player should throw again (green) or stop (red), at every position of a "
        f"{pegs}-peg game: one panel per number of pegs on the lid, the mover's pegs across "
        "and the opponent's up."
    )
    report.figure(
        supersix_maps(
            large,
            total=pegs,
            metric="decision",
            title=f"Super Six, {pegs} pegs (free rules): roll or stop",
        ),
        caption=f"The optimal decision at every position of a {pegs}-peg game",
        name="roll-stop-map",
    )
    report.heading("Strategies in Jehn's notation")
    report.text(
        "One digit per decision with that many pegs in play (1: throw again, 0: stop), "
        "grouped by pegs on the lid from 1 to 5; the same strings as `gamegraph supersix "
        "strategy --sticks N`. The paper gives them for 7 to 15 pegs."
    )
    report.table(_strategies_table(strategies))
    return report


def _solved_tables(pegs: int, progress):
    """``(exact, large, positions)``: the decision table solved exactly up to
    :data:`EXACT_PEGS` pegs, the one at ``pegs`` (solved in floats when larger, else the
    exact one), and the positions of a ``pegs``-peg game.
    """
    exact = decision_table(solve(build(SuperSix(hands=_hands(EXACT_PEGS))), exact=True))
    if pegs <= EXACT_PEGS:
        return exact, exact, build(SuperSix(hands=_hands(pegs))).n_states - 1
    graph = build(SuperSix(hands=_hands(pegs)), progress=progress)
    return exact, decision_table(solve(graph, progress=progress)), graph.n_states - 1


def _start_values_table(starts: dict) -> Table:
    """The first player's win probability by total pegs, as a fraction while it is short,
    beside the paper's.
    """
    return Table(
        ("pegs", "hands", "first player wins", "decimal", "Jehn (2021)"),
        [
            (
                total,
                "{} + {}".format(*_hands(total)),
                starts[total]
                if isinstance(starts[total], Fraction)
                and starts[total].denominator < 10 ** (FRACTION_CHARS // 2)
                else None,
                float(starts[total]),
                PUBLISHED_START.get(total),
            )
            for total in sorted(starts)
        ],
        title="The first player's win probability from the start, hands split evenly",
        notes=(
            f"Solved exactly up to {EXACT_PEGS} pegs (fractions shown while they are "
            f"short); larger games in floats.",
        ),
        formats={"decimal": lambda v: f"{v:.6f}"},
    )


def _strategies_table(strategies: dict) -> Table:
    """The optimal strategy string for each number of pegs in play, beside the paper's."""
    return Table(
        ("pegs in play", "optimal strategy", "Jehn (2021)"),
        [(total, strategy, _paper(total, strategy)) for total, strategy in strategies.items()],
        title="Optimal strategies by pegs in play",
        notes=(
            "Jehn (2021): for 13 and 15 pegs the paper prints one 0 too many in the "
            "last group (5 pegs on the lid leave i - 6 positions); the decisions are "
            "the same.",
        ),
    )
