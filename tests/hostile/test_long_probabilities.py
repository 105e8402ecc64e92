"""Rules (or another program's graph file) with hundreds of very long probabilities are
refused at once: the common denominator is only computed until it passes 62 bits (the
whole least common multiple took three minutes, and checking every sum as long again).
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from gamegraph import InvalidRulesError, Option, Outcome, Rules, build


class LongFractions(Rules):
    """One state whose throw has 300 outcomes of about 3,900 digits each."""

    name = "long fractions"

    def start(self):
        return 0

    def terminal_value(self, state):
        return 1 if state == 1 else None

    def outcomes(self, state):
        chances = [Fraction(1, 10**3900 + 2 * k + 1) for k in range(300)]
        return [Outcome(p, (Option(1, 0, False),)) for p in chances]


def test_many_long_denominators_are_refused_at_once():
    started = time.perf_counter()
    with pytest.raises(InvalidRulesError, match=r"a multiple of 1000\d*\.\.\.\d+ \(3,901 digits\)"):
        build(LongFractions())
    assert time.perf_counter() - started < 5


def test_short_denominators_still_name_the_state_whose_sum_is_wrong():
    class Short(LongFractions):
        def outcomes(self, state):
            return [Outcome(Fraction(1, 2**40 + 1), (Option(1, 0, False),)),
                    Outcome(Fraction(1, 2**40 + 3), (Option(1, 0, False),))]  # fmt: skip

    with pytest.raises(InvalidRulesError, match="sum"):
        build(Short())
