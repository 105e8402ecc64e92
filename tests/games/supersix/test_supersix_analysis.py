"""gamegraph.games.supersix.analysis: start values of many game sizes, read from one table.

The anchors are Jehn's exact values (also asserted in test_supersix.py): 36/41 for two
pegs each, 31/36 for hands of 2 and 1, 45324/63919 for hands of 3 and 2, and 3523/4428
for two pegs each under the first-round rule.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from gamegraph import InvalidArgumentError, UnknownNameError, build, solve
from gamegraph.games.supersix import SuperSix, decision_table
from gamegraph.games.supersix.analysis import THROWS, start_values, throw_chances, throw_values


@pytest.fixture(scope="module")
def exact_table():
    return decision_table(solve(build(SuperSix(pegs=8)), exact=True))


def test_free_start_values_come_from_the_table(exact_table):
    starts = start_values(exact_table, range(3, 9), "free")
    assert list(starts) == [3, 4, 5, 6, 7, 8]
    assert (starts[3], starts[4], starts[5]) == (F(31, 36), F(36, 41), F(45324, 63919))
    for total in range(3, 9):  # each is the start value of that game solved on its own
        game = SuperSix(hands=(total - total // 2, total // 2))
        assert starts[total] == solve(build(game), exact=True).start_value


def test_first_round_start_values_come_from_the_table(exact_table):
    # The two forced throws of the first round, then values the free table holds: exact
    # from an exact table, and each the start value of that game solved on its own.
    starts = start_values(exact_table, range(3, 9), "first-round")
    assert starts[4] == F(3523, 4428)
    for total in range(3, 9):
        game = SuperSix(hands=(total - total // 2, total // 2), rules="first-round")
        assert starts[total] == solve(build(game), exact=True).start_value
    assert starts[4] < F(36, 41)  # one throw in the first round costs the starter


def test_first_round_start_values_of_larger_games_in_floats():
    table = decision_table(solve(build(SuperSix(pegs=30))))
    starts = start_values(table, range(20, 31), "first-round")
    for total in (20, 25, 30):
        game = SuperSix(hands=(total - total // 2, total // 2), rules="first-round")
        assert starts[total] == pytest.approx(solve(build(game)).start_value, abs=1e-12)


def test_the_first_round_leaves_the_decisions_as_they_are():
    # Why one table serves both rule sets: the decision positions and values are the same.
    free = decision_table(solve(build(SuperSix(pegs=12)), exact=True))
    first = decision_table(solve(build(SuperSix(pegs=12, rules="first-round")), exact=True))
    assert list(zip(free.b, free.c, free.o)) == list(zip(first.b, first.c, first.o))
    assert list(free.p_roll) == list(first.p_roll)


def test_throw_values_add_up_to_p_roll(exact_table):
    after = throw_values(exact_table)
    assert set(after) == set(THROWS)
    for row, lid in enumerate(exact_table.b):
        chances = throw_chances(int(lid))
        assert sum(chances.values()) == 1
        total = sum(float(chances[t]) * after[t][row] for t in THROWS if chances[t] > 0)
        assert total == pytest.approx(float(exact_table.p_roll[row]), abs=1e-12)
        # NaN exactly where the throw cannot happen.
        assert [math.isnan(after[t][row]) for t in THROWS] == [chances[t] == 0 for t in THROWS]
    row = exact_table.lookup(0, 1, 3)  # one peg left: placing it or pitting it wins
    assert (after["place"][row], after["pit"][row]) == (1.0, 1.0)


def test_bad_input(exact_table):
    with pytest.raises(UnknownNameError, match="blitz"):
        start_values(exact_table, [4], "blitz")
    with pytest.raises(InvalidArgumentError, match="not in the table"):
        start_values(exact_table, [10], "free")  # the table covers 8 pegs


def test_decision_table_margin(exact_table):
    row = exact_table.lookup(4, 1, 1)
    assert exact_table.margin[row] == exact_table.p_roll[row] - exact_table.p_end[row] > 0
    assert ((exact_table.margin > 0) == exact_table.roll).all()


def test_the_renderer_no_longer_computes_start_values():
    heatmap = pytest.importorskip("gamegraph.renderers.heatmap")
    assert not hasattr(heatmap, "start_values")
