"""The simple strategies' exact values, the Monte Carlo games and the exact score
distribution of Yahtzee and Yatzy, on small versions (the full size is in
benchmarks/bench_yahtzee.py and in the slow test at the end).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.yahtzee.dice import KEEPS, THROWS
from gamegraph.games.yahtzee.distribution import score_distribution
from gamegraph.games.yahtzee.scoring import scoring
from gamegraph.games.yahtzee.simulate import simulate_games
from gamegraph.games.yahtzee.solver import solve_values
from gamegraph.games.yahtzee.strategies import evaluate_strategy, keep_rule

pytest.importorskip("numba")

# A version with the Yahtzee box: jokers, the bonus flag and the upper bonus all occur.
JOKER_BOXES = ("aces", "sixes", "full house", "yahtzee", "chance")
YATZY_BOXES = ("ones", "fives", "sixes", "one pair", "full house", "yatzy")


# ---------------------------------------------------------------------------
# An independent evaluation of the strategies: ordered dice, Fractions, the rules of
# three plain boxes written again here (two dice never reach the upper bonus).
# ---------------------------------------------------------------------------
PLAIN_BOXES = ("fours", "sixes", "chance")


def _plain_score(dice, box):
    if box == "fours":
        return 4 * dice.count(4)
    if box == "sixes":
        return 6 * dice.count(6)
    return sum(dice)


def _rolls(n):
    """Every ordered roll of n dice, each with chance 1/6^n."""
    return itertools.product(range(1, 7), repeat=n)


def _most_of_a_kind(dice):
    most = max(dice.count(f) for f in range(1, 7))
    face = max(f for f in range(1, 7) if dice.count(f) == most)
    return (face,) * most


@cache
def _brute(open_boxes, strategy, dice_count):
    if not open_boxes:
        return Fraction(0)
    total = Fraction(0)
    for first in _rolls(dice_count):
        final = [(tuple(first), Fraction(1))]
        if strategy == "most of a kind":
            for _ in range(2):
                after = []
                for dice, p in final:
                    kept = _most_of_a_kind(list(dice))
                    n = dice_count - len(kept)
                    for rest in _rolls(n):
                        after.append((kept + rest, p / 6**n))
                final = after
        for dice, p in final:
            best = max(
                open_boxes, key=lambda b: (_plain_score(list(dice), b), -PLAIN_BOXES.index(b))
            )
            rest = tuple(b for b in open_boxes if b != best)
            total += p * (_plain_score(list(dice), best) + _brute(rest, strategy, dice_count))
    return total / 6**dice_count


@pytest.mark.parametrize("strategy", ["greedy", "most of a kind"])
def test_strategies_equal_an_independent_evaluation(strategy):
    exact = _brute(PLAIN_BOXES, strategy, 2)
    value = evaluate_strategy(scoring("yahtzee", boxes=PLAIN_BOXES, dice=2), strategy)
    assert value.start_value == pytest.approx(float(exact), abs=1e-12)


def test_greedy_by_hand():
    """One die, aces and sixes: a 6 goes to sixes, anything else to aces (first box on a
    tie of 0). 1/6 (6 + 1/6) + 1/6 (1 + 1) + 4/6 (0 + 1) = 73/36."""
    value = evaluate_strategy(scoring("yahtzee", boxes=("aces", "sixes"), dice=1), "greedy")
    assert value.start_value == pytest.approx(73 / 36, abs=1e-14)
    # every position: with only sixes open, a sixth of a 6
    assert value.values[value.index(0b01, 0)] == pytest.approx(1.0, abs=1e-14)


def test_keep_rules():
    most = keep_rule("most of a kind")
    for throw, kept in [
        ((1, 2, 3, 4, 6), (6,)),
        ((1, 1, 4, 4, 5), (4, 4)),
        ((2, 2, 2, 6, 6), (2, 2, 2)),
        ((3, 3, 3, 3, 3), (3, 3, 3, 3, 3)),
    ]:
        assert KEEPS[most[0, THROWS.index(throw)]] == kept
        assert KEEPS[most[1, THROWS.index(throw)]] == kept
    greedy = keep_rule("greedy")
    assert [KEEPS[k] for k in greedy[0]] == list(THROWS)
    with pytest.raises(UnknownNameError):
        keep_rule("chicken")


def test_strategies_rank_below_optimal():
    rules = scoring("yahtzee", boxes=JOKER_BOXES)
    optimal = solve_values(rules).values
    greedy = evaluate_strategy(rules, "greedy").values
    most = evaluate_strategy(rules, "most of a kind").values
    assert np.all(greedy <= optimal + 1e-9) and np.all(most <= optimal + 1e-9)
    assert greedy[0] < most[0] < optimal[0]


# ---------------------------------------------------------------------------
# The exact distribution
# ---------------------------------------------------------------------------
def test_distribution_one_die_by_hand():
    """Chance with one die: keep 5 and 6 at once, then 4 and up (module docstring)."""
    d = score_distribution(solve_values(scoring("yahtzee", boxes=("chance",), dice=1)))
    expected = [0, 1 / 18, 1 / 18, 1 / 18, 1 / 6, 1 / 3, 1 / 3]
    np.testing.assert_allclose(d.probabilities, expected, atol=1e-15)
    assert d.median == 5 and d.quantile(0.1) == 2
    assert d.std == pytest.approx(
        (sum(s * s * p for s, p in enumerate(expected)) - (14 / 3) ** 2) ** 0.5
    )


@pytest.mark.parametrize(
    "rules",
    [
        scoring("yahtzee", boxes=JOKER_BOXES),
        scoring("yahtzee", boxes=JOKER_BOXES, joker="forced"),
        scoring("yatzy", boxes=YATZY_BOXES),
    ],
    ids=["free joker", "forced joker", "yatzy"],
)
def test_distribution_mean_is_the_solved_value(rules):
    table = solve_values(rules)
    d = score_distribution(table)
    assert d.probabilities.min() >= 0
    assert d.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.mean == pytest.approx(table.start_value, abs=1e-9)
    assert d.positions[0] == 1 and len(d.positions) == len(rules.boxes) + 1
    for strategy in ("greedy", "most of a kind"):
        s = score_distribution(rules, strategy)
        assert s.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
        assert s.mean == pytest.approx(evaluate_strategy(rules, strategy).start_value, abs=1e-9)
        assert s.mean < d.mean


def test_distribution_agrees_with_monte_carlo():
    rules = scoring("yahtzee", boxes=JOKER_BOXES)
    table = solve_values(rules)
    d = score_distribution(table)
    run = simulate_games(rules, games=40_000, seed=5, table=table)
    sampled = np.bincount(run.scores, minlength=len(d.probabilities)) / len(run.scores)
    # the chance of scoring at most s, within 4 standard errors everywhere
    gap = np.abs(np.cumsum(sampled)[: len(d.probabilities)] - np.cumsum(d.probabilities))
    assert gap.max() < 4 * 0.5 / np.sqrt(len(run.scores))
    assert abs(run.std - d.std) < 0.05 * d.std


def test_distribution_refusals():
    rules = scoring("yahtzee", boxes=("chance",), dice=1)
    with pytest.raises(InvalidArgumentError):
        score_distribution(rules)  # optimal play needs the table
    with pytest.raises(UnknownNameError):
        score_distribution(rules, "chicken")
    with pytest.raises(InvalidArgumentError):
        score_distribution("yahtzee")


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("player", ["optimal", "greedy", "most of a kind"])
def test_monte_carlo_interval_holds_the_exact_value(player):
    rules = scoring("yahtzee", boxes=JOKER_BOXES)
    table = solve_values(rules)
    exact = (
        table.start_value if player == "optimal" else evaluate_strategy(rules, player).start_value
    )
    run = simulate_games(rules, player, games=20_000, seed=11, table=table)
    low, high = run.interval
    assert low < exact < high
    assert high - low < 2.0  # 20,000 games pin the mean to about a point


def test_monte_carlo_is_seeded():
    rules = scoring("yatzy", boxes=YATZY_BOXES)
    a = simulate_games(rules, "most of a kind", games=500, seed=3)
    b = simulate_games(rules, "most of a kind", games=500, seed=3)
    c = simulate_games(rules, "most of a kind", games=500, seed=4)
    assert np.array_equal(a.scores, b.scores) and not np.array_equal(a.scores, c.scores)
    assert "most of a kind" in repr(a)


def test_monte_carlo_refusals():
    rules = scoring("yahtzee", boxes=("chance",), dice=1)
    with pytest.raises(InvalidArgumentError):
        simulate_games(rules, games=0)
    with pytest.raises(UnknownNameError):
        simulate_games(rules, "chicken")
    with pytest.raises(InvalidArgumentError):
        simulate_games(rules, table=solve_values(scoring("yahtzee", boxes=("sixes",), dice=1)))


# ---------------------------------------------------------------------------
# Full size (minutes): the published distribution of optimal Yahtzee
# ---------------------------------------------------------------------------
@pytest.mark.slow
def test_full_yahtzee_distribution_matches_verhoeff():
    table = solve_values(scoring("yahtzee"))
    d = score_distribution(table)
    assert d.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.mean == pytest.approx(table.start_value, abs=1e-9)
    assert round(d.std, 4) == 59.6117 and d.median == 248
