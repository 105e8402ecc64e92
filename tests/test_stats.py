"""gamegraph._stats: the one confidence interval for win rates."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from gamegraph._stats import wilson_interval


@pytest.mark.parametrize("wins, games", [(0, 10), (3, 10), (50, 100), (79_855, 1_000_000), (7, 7)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_interval_equals_scipys_for_whole_wins(wins, games, confidence):
    ours = wilson_interval(wins, games, confidence)
    theirs = binomtest(wins, games).proportion_ci(confidence, method="wilson")
    assert ours == pytest.approx((theirs.low, theirs.high), abs=1e-12)


def test_fractional_wins_lie_between_their_whole_neighbours():
    low, high = wilson_interval(50.5, 100)
    assert wilson_interval(50, 100)[0] < low < wilson_interval(51, 100)[0]
    assert wilson_interval(50, 100)[1] < high < wilson_interval(51, 100)[1]
