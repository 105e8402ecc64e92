"""Super Six results built from solutions: the start value of every game size at once.

A position's value does not depend on how many pegs the game started with, only on the
position, so one solve at the largest total serves every smaller total under the ``free``
rules: the start of a game with ``n`` pegs, hands split evenly, is the position
``0/ceil(n/2)/floor(n/2)`` of the big table. Under the ``first-round`` rules the first
round has positions of its own, so each total is one small solve of its own.

The interactive page (:mod:`gamegraph.renderers.heatmap`) shows these values beside its
slider; it is given them, and computes nothing itself.

:func:`solve_game` solves one game and wraps the solution with its decision table in a
:class:`SuperSixSolve`, which prints a short summary, displays as HTML in Jupyter (start
value, positions, decisions, the strategy string, sample rows) and hands the whole
decision table to pandas.

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.supersix import SuperSix, decision_table
>>> table = decision_table(solve(build(SuperSix(pegs=8)), exact=True))
>>> start_values(table, [4, 5, 6], "free")[4]       # Jehn's P(0/2/2)
Fraction(36, 41)
>>> round(float(start_values(table, [4], "first-round")[4]), 6)    # 3523/4428
0.795619
>>> solve_game(SuperSix(pegs=4), exact=True)
<SuperSixSolve 2 + 2 pegs (free rules): 10 positions, start value 36/41, 10 roll / 0 stop>
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._extras import require
from .._tables import Table, exact_digits, format_value
from ..build import build
from ..errors import UnknownNameError
from ..games.supersix import RULESETS, DecisionTable, SuperSix, decision_table, strategy_string
from ..solve import Solution, solve

#: The decision table's columns, as :meth:`SuperSixSolve.to_pandas` and the JSON file hold them.
COLUMNS = ("b", "c", "o", "roll", "p_roll", "p_end", "margin", "p_choice")
#: Characters of the strategy string a summary shows before cutting it short.
STRATEGY_SHOWN = 200


def start_values(table, totals, rules: str) -> dict:
    """Total pegs -> the first player's win probability at the start, hands split evenly
    (the first player holding the odd peg).

    Parameters
    ----------
    table : gamegraph.games.supersix.DecisionTable
        A decision table covering the largest total (used under the ``free`` rules).
    totals : iterable of int
        Game sizes, in pegs.
    rules : {"free", "first-round"}
        Under ``free`` every value is read from ``table`` and nothing is solved; under
        ``first-round`` one small game is solved per total (floats).

    Returns
    -------
    dict
        Values as the table holds them (Fractions from an exact table) under ``free``,
        floats under ``first-round``.
    """
    if rules not in RULESETS:
        raise UnknownNameError("rule set", rules, RULESETS)
    starts = {}
    for total in totals:
        hands = (total - total // 2, total // 2)
        if rules == "free":
            starts[total] = table.p_roll[table.lookup(0, *hands)]
        else:
            starts[total] = solve(build(SuperSix(hands=hands, rules=rules))).start_value
    return starts


def _number(value, exact: bool):
    """A probability for JSON: ``"p/q"`` when exact (every digit, however many), a float
    otherwise.

    >>> _number(Fraction(36, 41), True), _number(Fraction(36, 41), False)
    ('36/41', 0.8780487804878049)
    >>> len(_number(Fraction(1, 3**10_000), True))
    4774
    """
    if exact:
        value = Fraction(value)
        return f"{exact_digits(value.numerator)}/{exact_digits(value.denominator)}"
    return float(value)


@dataclass(eq=False)
class SuperSixSolve:
    """A solved Super Six game with its decision table: what ``supersix solve`` reports.

    Attributes
    ----------
    rules : SuperSix
    solution : Solution
    table : DecisionTable
        P_roll, P_end and the decision at every normal-play position.
    seconds : float
        Time the build and solve took.
    """

    rules: SuperSix
    solution: Solution
    table: DecisionTable
    seconds: float = 0.0

    @property
    def start_value(self):
        """The first player's win probability (a Fraction when solved exactly)."""
        return self.solution.start_value

    @property
    def exact(self) -> bool:
        return self.solution.exact

    @property
    def positions(self) -> int:
        """Positions solved (every state but the terminal one)."""
        return int(self.solution.graph.n_states - 1)

    @property
    def rolls(self) -> int:
        """Decision positions where rolling again is strictly better."""
        return int(np.count_nonzero(self.table.roll))

    @property
    def stops(self) -> int:
        """Decision positions where stopping is at least as good."""
        return len(self.table) - self.rolls

    @property
    def strategy(self) -> str | None:
        """The paper's notation at the game's size (None below 4 pegs: no decision)."""
        total = self.rules.pegs
        return strategy_string(self.table, total) if total >= 4 else None

    def short_strategy(self, limit: int = STRATEGY_SHOWN) -> str | None:
        """The strategy string, cut to ``limit`` characters with ``...`` when longer."""
        strategy = self.strategy
        if strategy is None or len(strategy) <= limit:
            return strategy
        return strategy[: limit - 3] + "..."

    def _title(self) -> str:
        first, second = self.rules.hands
        return f"Super Six, {first} + {second} pegs ({self.rules.rules} rules)"

    def summary(self) -> Table:
        """Start value, positions, decisions and the strategy string as a two-column table."""
        start = self.start_value
        rows = [
            ("start value", start),
            ("start value (float)", float(start)),
            ("positions", self.positions),
            ("roll again", self.rolls),
            ("stop", self.stops),
        ]
        notes = []
        strategy = self.strategy
        if strategy is not None:
            rows.append(("strategy", self.short_strategy()))
            if len(strategy) > STRATEGY_SHOWN:
                notes.append(
                    f"strategy cut to {STRATEGY_SHOWN} of {len(strategy):,} characters; "
                    "the strategy property holds it whole"
                )
        rows += [("residual", float(self.solution.residual)), ("seconds", self.seconds)]
        return Table(("", "value"), rows, title=self._title(), notes=notes)

    def sample(self, rows: int = 8) -> Table:
        """A few rows of the decision table: positions with every peg in play, spread evenly."""
        table = self.table
        everything = np.flatnonzero(table.b + table.c + table.o == self.rules.pegs)
        if not len(everything):
            everything = np.arange(len(table))
        picked = everything[np.unique(np.linspace(0, len(everything) - 1, rows).astype(int))]
        return Table(
            COLUMNS,
            [self._row(i) for i in picked],
            title=f"{len(picked)} of {len(table):,} decision positions (b/c/o: lid/yours/theirs)",
        )

    def _row(self, i) -> tuple:
        t = self.table
        return (
            int(t.b[i]),
            int(t.c[i]),
            int(t.o[i]),
            bool(t.roll[i]),
            t.p_roll[i],
            t.p_end[i],
            t.margin[i],
            t.p_choice[i],
        )

    def decisions(self) -> Table:
        """The whole decision table (every position: b, c, o, roll, p_roll, p_end, margin,
        p_choice) as a :class:`~gamegraph._tables.Table`.
        """
        return Table(COLUMNS, [self._row(i) for i in range(len(self.table))], title=self._title())

    def to_pandas(self):
        """The whole decision table as a ``pandas.DataFrame`` (the ``pandas`` extra);
        probabilities are Fractions (object columns) when solved exactly.
        """
        pandas = require("pandas", "to_pandas()", extra="pandas")
        t = self.table
        return pandas.DataFrame(
            {
                "b": np.asarray(t.b, dtype=np.int64),
                "c": np.asarray(t.c, dtype=np.int64),
                "o": np.asarray(t.o, dtype=np.int64),
                "roll": np.asarray(t.roll, dtype=bool),
                "p_roll": t.p_roll,
                "p_end": t.p_end,
                "margin": t.margin,
                "p_choice": t.p_choice,
            }
        )

    def as_dict(self, full: bool = False) -> dict:
        """The summary for JSON; ``full`` adds every position's row under ``"strategy"``."""
        exact = self.exact
        payload = {
            "game": "supersix",
            "rules": self.rules.rules,
            "hands": list(self.rules.hands),
            "pegs": self.rules.pegs,
            "states": self.positions,
            "start": _number(self.start_value, exact),
            "decisions": {"roll": self.rolls, "stop": self.stops},
            "strategy_string": self.strategy,
            "residual": float(self.solution.residual),
            "seconds": self.seconds,
        }
        if full:
            t = self.table
            payload["strategy"] = [
                {
                    "b": int(b),
                    "c": int(c),
                    "o": int(o),
                    "p_roll": _number(r, exact),
                    "p_end": _number(e, exact),
                    "roll": bool(d),
                }
                for b, c, o, r, e, d in zip(t.b, t.c, t.o, t.p_roll, t.p_end, t.roll)
            ]
        return payload

    def __repr__(self) -> str:
        start = self.start_value
        shown = format_value(start) if self.exact else f"{float(start):.6f}"
        return (
            f"<SuperSixSolve {self._title()[11:]}: {self.positions:,} positions, "
            f"start value {shown}, {self.rolls:,} roll / {self.stops:,} stop>"
        )

    def _repr_html_(self) -> str:
        return self.summary().to_html() + self.sample().to_html()


def solve_game(rules: SuperSix, *, exact: bool = False, progress: bool | None = None):
    """Build and solve ``rules`` and wrap the result as a :class:`SuperSixSolve`.

    Parameters
    ----------
    rules : SuperSix
    exact : bool
        Fractions instead of floats (slow beyond a few dozen pegs).
    progress : bool or None
        Progress bars on stderr for the build and the solve (None: when stderr is a
        terminal).

    Examples
    --------
    >>> result = solve_game(SuperSix(pegs=10))
    >>> round(float(result.start_value), 6), result.positions, result.strategy
    (0.658722, 155, '(1111111/1111111/111111/00000/0000)')
    """
    started = time.perf_counter()
    solution = solve(build(rules, progress=progress), exact=exact, progress=progress)
    seconds = time.perf_counter() - started
    return SuperSixSolve(rules, solution, decision_table(solution), seconds)
