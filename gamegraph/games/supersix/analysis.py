"""Super Six results built from solutions: the start value of every game size at once.

A position's value does not depend on how many pegs the game started with, only on the
position, so one solve at the largest total serves every smaller total: under the
``free`` rules the start of a game with ``n`` pegs, hands split evenly, is the position
``0/ceil(n/2)/floor(n/2)`` of the big table; under the ``first-round`` rules each player's
first throw is forced, and after those two throws play is normal, so the start value is
the chance-weighted sum over the two throws of values the same table holds (the decision
positions of both rule sets are the same positions with the same values).

:func:`throw_values` spreads a position's P_roll over the die: for each throw (a peg
placed, a peg taken back, a peg down the pit) the mover's win probability after it.

The interactive page (:mod:`gamegraph.renderers.heatmap`) shows these values beside its
slider and on hover; it is given them, and computes nothing itself.

:func:`solve_game` solves one game and wraps the solution with its decision table in a
:class:`SuperSixSolve`, which prints a short summary, displays as HTML in Jupyter (start
value, positions, decisions, the strategy string, sample rows) and hands the whole
decision table to pandas; its :meth:`~SuperSixSolve.to_text` is what ``supersix solve``
prints. :func:`game_of_size` makes the game of a total (hands split as the page's slider
splits them), :func:`optimal_strategy` the paper's strategy string of a size, and
:func:`slider_values` everything the interactive page shows beside its slider.

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.supersix import SuperSix, decision_table
>>> table = decision_table(solve(build(SuperSix(pegs=8)), exact=True))
>>> start_values(table, [4, 5, 6], "free")[4]       # Jehn's P(0/2/2)
Fraction(36, 41)
>>> start_values(table, [4], "first-round")[4]     # 3523/4428, without a solve
Fraction(3523, 4428)
>>> solve_game(SuperSix(pegs=4), exact=True)
<SuperSixSolve 2 + 2 pegs (free rules): 10 positions, start value 36/41, 10 roll / 0 stop>
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, partial

import numpy as np

from ..._extras import require
from ...build import build
from ...errors import InvalidArgumentError, UnknownNameError
from ...policy import Policy
from ...solve import Solution, solve
from ...tables import Table, format_value, json_number
from . import (
    CONTINUE,
    RULESETS,
    SOCKETS,
    STOP,
    DecisionTable,
    SuperSix,
    decision_table,
    strategy_string,
)

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
        A decision table covering the largest total.
    totals : iterable of int
        Game sizes, in pegs (4 or more).
    rules : {"free", "first-round"}
        Under ``free`` a start value is the table's P_roll at ``0/ceil(n/2)/floor(n/2)``;
        under ``first-round`` it is the first round's two forced throws weighted by their
        chances, over values the table holds. Nothing is solved.

    Returns
    -------
    dict
        Values as the table holds them: Fractions from an exact table, floats otherwise.
    """
    if rules not in RULESETS:
        raise UnknownNameError("rule set", rules, RULESETS)
    totals = list(totals)
    if not totals:
        return {}
    value = _position_values(table, max(totals))
    one = Fraction(1) if len(table) and isinstance(table.p_roll[0], Fraction) else 1.0
    starts = {}
    for total in totals:
        hands = (total - total // 2, total // 2)
        if rules == "free":
            starts[total] = value(0, *hands)
        else:
            # The first player's forced throw, then the second's; normal play after both.
            second = partial(_forced_throw, after=value, one=one)
            starts[total] = _forced_throw(0, *hands, after=second, one=one)
    return starts


def _forced_throw(b, c, o, *, after, one):
    """The thrower's win probability at b/c/o when the turn passes after this one throw,
    ``after(b, c, o)`` being the value of the position the opponent then throws from
    (``one``: 1 as the table's numbers hold it, a Fraction or a float).
    """
    chance = throw_chances(b)
    total = (
        chance["place"] * (one if c == 1 else one - after(b + 1, o, c - 1)) if b < SOCKETS else 0
    )
    if b > 0:
        total += chance["take"] * (one - after(b - 1, o, c + 1))
    total += chance["pit"] * (one if c == 1 else one - after(b, o, c - 1))
    return total if isinstance(one, Fraction) else float(total)


def _position_values(table, high: int):
    """``value(b, c, o)``: P_roll of a position of ``table`` (the value of throwing from it)."""
    index = _index(table, high)

    def value(b, c, o):
        row = index[b, c, o]
        if row < 0:
            raise InvalidArgumentError(f"position {b}/{c}/{o} is not in the table")
        return table.p_roll[row]

    return value


def _index(table, high: int) -> np.ndarray:
    """Rows of the table by position: ``index[b, c, o]``, -1 where it holds none."""
    b, c, o = (np.asarray(v, dtype=np.int64) for v in (table.b, table.c, table.o))
    size = max(high, int(c.max(initial=0)), int(o.max(initial=0))) + 2
    index = np.full((SOCKETS + 1, size, size), -1, dtype=np.int64)
    index[b, c, o] = np.arange(len(b))
    return index


#: What each throw of the die does, in the order :func:`throw_values` gives them.
THROWS = ("place", "take", "pit")


def throw_chances(b: int) -> dict:
    """The chance of each throw with ``b`` pegs on the lid, as Fractions (0 when it cannot
    happen): a number whose socket is empty places a peg, one whose socket is full takes it
    back and passes the turn, a six sends a peg down the pit.

    >>> throw_chances(1)
    {'place': Fraction(2, 3), 'take': Fraction(1, 6), 'pit': Fraction(1, 6)}
    """
    return {
        "place": Fraction(SOCKETS - b, 6),
        "take": Fraction(b, 6),
        "pit": Fraction(1, 6),
    }


def throw_values(table) -> dict:
    """For every position of ``table``: the mover's win probability after each throw.

    After placing a peg or dropping one down the pit the mover chooses again (P_choice of
    the new position, 1 when the hand is empty); after taking a peg back the turn passes
    (1 - P_roll of the opponent's position). ``sum(throw_chances(b)[t] * values[t])`` is the
    position's P_roll.

    Returns
    -------
    dict
        ``"place"``, ``"take"``, ``"pit"`` -> float arrays aligned with the table, NaN where
        the throw cannot happen (no empty socket, or no peg to take).

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.supersix import SuperSix, decision_table
    >>> table = decision_table(solve(build(SuperSix(pegs=6))))
    >>> after = throw_values(table)
    >>> row = table.lookup(4, 1, 1)
    >>> [round(float(after[t][row]), 4) for t in THROWS]    # the last peg placed or pitted wins
    [1.0, 0.2863, 1.0]
    """
    b, c, o = (np.asarray(v, dtype=np.int64) for v in (table.b, table.c, table.o))
    index = _index(table, int((b + c + o).max(initial=0)))
    p_roll = np.asarray(table.p_roll, dtype=float)
    p_choice = np.asarray(table.p_choice, dtype=float)

    def read(values, bb, cc, oo, where):
        out = np.full(len(b), np.nan)
        rows = index[bb[where], cc[where], oo[where]]
        out[where] = values[rows]
        return out

    emptied = c == 1
    place = read(p_choice, b + 1, c - 1, o, (b < SOCKETS) & ~emptied)
    place[(b < SOCKETS) & emptied] = 1.0
    take = 1.0 - read(p_roll, b - 1, o, c + 1, b > 0)
    pit = read(p_choice, b, c - 1, o, ~emptied)
    pit[emptied] = 1.0
    return {"place": place, "take": take, "pit": pit}


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

    @cached_property
    def rolls(self) -> int:
        """Decision positions where rolling again is strictly better."""
        return int(np.count_nonzero(self.table.roll))

    @property
    def stops(self) -> int:
        """Decision positions where stopping is at least as good."""
        return len(self.table) - self.rolls

    @cached_property
    def strategy(self) -> str | None:
        """The paper's notation at the game's size (None below 4 pegs: no decision); made
        once, at first use.
        """
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
        p_choice) as a :class:`~gamegraph.tables.Table`.
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

    def to_text(self, full: bool = False) -> str:
        """What was solved and the first player's chance, then the decisions: counted, or
        with ``full`` one grid per pegs on the lid (:func:`decision_grids`).

        >>> print(solve_game(SuperSix(pegs=4), exact=True).to_text())  # doctest: +ELLIPSIS
        Super Six, 2 + 2 pegs, free rules: 10 positions solved in ... s (residual 0.0e+00)
        the first player wins with probability 36/41 = 0.878048780488
        decisions: roll again at 10 positions, stop at 0
        <BLANKLINE>
        """
        first, second = self.rules.hands
        start = self.start_value
        shown = f"{float(start):.12f}"
        if self.exact:
            shown = f"{format_value(start)} = {shown}"
        text = (
            f"Super Six, {first} + {second} pegs, {self.rules.rules} rules: "
            f"{self.positions:,} positions solved in {self.seconds:.2f} s "
            f"(residual {self.solution.residual:.1e})\n"
            f"the first player wins with probability {shown}\n"
        )
        if full:
            return text + "\n" + decision_grids(self.table, self.rules.pegs)
        return text + f"decisions: roll again at {self.rolls:,} positions, stop at {self.stops:,}\n"

    def as_dict(self, full: bool = False) -> dict:
        """The summary for JSON; ``full`` adds every position's row under ``"strategy"``."""
        exact = self.exact
        payload = {
            "game": "supersix",
            "rules": self.rules.rules,
            "hands": list(self.rules.hands),
            "pegs": self.rules.pegs,
            "states": self.positions,
            "start": json_number(self.start_value, exact),
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
                    "p_roll": json_number(r, exact),
                    "p_end": json_number(e, exact),
                    "roll": bool(d),
                }
                for b, c, o, r, e, d in zip(t.b, t.c, t.o, t.p_roll, t.p_end, t.roll)
            ]
        return payload

    def json_rows(self) -> list:
        """Each position's row of ``as_dict(full=True)["strategy"]`` as JSON text, as
        ``json.dumps`` writes it; from the table's columns when they are floats (a million
        rows in about a second, where a dict and a ``json.dumps`` per row take several).
        InvalidArgumentError for a NaN or an infinity, which JSON cannot hold.

        >>> solve_game(SuperSix(pegs=4)).json_rows()[0]
        '{"b": 0, "c": 1, "o": 1, "p_roll": 1.0, "p_end": 0.0, "roll": true}'
        """
        if self.exact:
            return [json.dumps(row) for row in self.as_dict(full=True)["strategy"]]
        t = self.table
        p_roll, p_end = (np.asarray(v, dtype=float) for v in (t.p_roll, t.p_end))
        if not (np.isfinite(p_roll).all() and np.isfinite(p_end).all()):
            raise InvalidArgumentError(
                "a result is not a finite number (NaN or infinity), which JSON cannot hold"
            )
        # json.dumps writes an int as str() does, a float as repr(), a bool as true or false.
        columns = (t.b, t.c, t.o, p_roll, p_end, np.asarray(t.roll, dtype=bool))
        return [
            f'{{"b": {b}, "c": {c}, "o": {o}, "p_roll": {r!r}, "p_end": {e!r}, '
            f'"roll": {"true" if d else "false"}}}'
            for b, c, o, r, e, d in zip(*(np.asarray(v).tolist() for v in columns))
        ]

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


def decision_grids(table, total: int) -> str:
    """The decisions as text: one grid per pegs on the lid (R: roll again, .: stop), for
    the game of ``total`` pegs.

    >>> from gamegraph import build, solve
    >>> from gamegraph.games.supersix import decision_table
    >>> print(decision_grids(decision_table(solve(build(SuperSix(pegs=4)))), 4), end="")
    decisions (R: roll again, .: stop), one grid per pegs on the lid;
    columns: your pegs 1, 2, ...; rows: opponent's pegs, most at the top
    <BLANKLINE>
    0 on the lid
       3 R
       2 RR
       1 RRR
    <BLANKLINE>
    1 on the lid
       2 R
       1 RR
    <BLANKLINE>
    2 on the lid
       1 R
    """
    lines = [
        "decisions (R: roll again, .: stop), one grid per pegs on the lid;",
        "columns: your pegs 1, 2, ...; rows: opponent's pegs, most at the top",
    ]
    b, c, o = (np.asarray(v, dtype=np.int64) for v in (table.b, table.c, table.o))
    mark = np.where(np.asarray(table.roll, dtype=bool), ord("R"), ord(".")).astype(np.uint8)
    for lid in range(6):
        size = total - lid - 1
        if size < 1:
            continue
        lines += ["", f"{lid} on the lid"]
        # Row i holds the opponent's size - i pegs, column j your j + 1; blank where the
        # table has no such position.
        shown = (b == lid) & (c >= 1) & (c <= size) & (o >= 1) & (o <= size)
        grid = np.full((size, size), ord(" "), dtype=np.uint8)
        grid[size - o[shown], c[shown] - 1] = mark[shown]
        lines += [
            f"{theirs:>4} {row.tobytes().decode().rstrip()}"
            for theirs, row in zip(range(size, 0, -1), grid)
        ]
    return "\n".join(lines) + "\n"


def game_of_size(pegs: int, rules: str = "free") -> SuperSix:
    """The game of ``pegs`` pegs, split evenly; an odd total gives the first player the
    extra peg, as the interactive page's slider does.

    >>> game_of_size(7).hands, game_of_size(8, "first-round").hands
    ((4, 3), (4, 4))
    """
    if pegs % 2 and pegs >= 3:
        return SuperSix(hands=(pegs - pegs // 2, pegs // 2), rules=rules)
    return SuperSix(pegs=pegs, rules=rules)


def optimal_strategy(sticks: int) -> str:
    """The optimal strategy with ``sticks`` pegs in play, in the paper's notation (solved
    exactly up to 20 pegs).

    >>> optimal_strategy(4)
    '(1/1)'
    """
    rules = SuperSix(hands=(sticks - sticks // 2, sticks // 2))
    table = decision_table(solve(build(rules), exact=sticks <= 20))
    return strategy_string(table, sticks)


@dataclass(eq=False)
class SliderValues:
    """What the interactive page shows beside its slider, from one solve at the largest
    total: the decision table, the start values of every total under each rule set
    (:func:`start_values`) and the values after each throw (:func:`throw_values`).
    """

    table: DecisionTable
    low: int
    high: int
    start_values: dict
    after_throws: dict

    def __repr__(self) -> str:
        return f"<SliderValues {self.low} to {self.high} pegs: {len(self.table):,} positions>"


def slider_values(low: int, high: int) -> SliderValues:
    """Solve the game of ``high`` pegs once and read every total from ``low`` to ``high``
    off it.

    >>> values = slider_values(4, 6)
    >>> round(float(values.start_values["free"][4]), 6)
    0.878049
    """
    table = decision_table(solve(build(SuperSix(hands=(high - high // 2, high // 2)))))
    totals = range(low, high + 1)
    return SliderValues(
        table,
        low,
        high,
        {name: start_values(table, totals, name) for name in RULESETS},
        throw_values(table),
    )


def fixed_policies(graph) -> dict:
    """Super Six's two fixed policies on its ``graph``, by name: always stop and always
    roll (what the explorer compares optimal play with).

    >>> list(fixed_policies(SuperSix(pegs=4).build_graph()))
    ['always stop', 'always roll']
    """
    return {
        "always stop": Policy.preferring(graph, STOP, "always stop"),
        "always roll": Policy.preferring(graph, CONTINUE, "always roll"),
    }
