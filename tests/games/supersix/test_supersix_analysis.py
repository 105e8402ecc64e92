"""gamegraph.analysis.supersix: start values of many game sizes, read from one table.

The anchors are Jehn's exact values (also asserted in test_supersix.py): 36/41 for two
pegs each, 31/36 for hands of 2 and 1, 45324/63919 for hands of 3 and 2, and 3523/4428
for two pegs each under the first-round rule.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from gamegraph import InvalidArgumentError, UnknownNameError, build, solve
from gamegraph.analysis.supersix import start_values
from gamegraph.games.supersix import SuperSix, decision_table


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


def test_first_round_start_values_solve_each_size(exact_table):
    starts = start_values(exact_table, [4, 6], "first-round")
    assert starts[4] == pytest.approx(float(F(3523, 4428)), abs=1e-12)
    assert starts[6] == pytest.approx(
        solve(build(SuperSix(pegs=6, rules="first-round"))).start_value, abs=1e-15
    )
    assert starts[4] < F(36, 41)  # one throw in the first round costs the starter


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
