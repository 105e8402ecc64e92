"""Super Six results built from solutions: the start value of every game size at once.

A position's value does not depend on how many pegs the game started with, only on the
position, so one solve at the largest total serves every smaller total under the ``free``
rules: the start of a game with ``n`` pegs, hands split evenly, is the position
``0/ceil(n/2)/floor(n/2)`` of the big table. Under the ``first-round`` rules the first
round has positions of its own, so each total is one small solve of its own.

The interactive page (:mod:`gamegraph.renderers.heatmap`) shows these values beside its
slider; it is given them, and computes nothing itself.

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.supersix import SuperSix, decision_table
>>> table = decision_table(solve(build(SuperSix(pegs=8)), exact=True))
>>> start_values(table, [4, 5, 6], "free")[4]       # Jehn's P(0/2/2)
Fraction(36, 41)
>>> round(float(start_values(table, [4], "first-round")[4]), 6)    # 3523/4428
0.795619
"""

from __future__ import annotations

from ..build import build
from ..errors import UnknownNameError
from ..games.supersix import RULESETS, SuperSix
from ..solve import solve


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
