"""Tests for gamegraph.simulate: seeded Monte Carlo against the exact answers."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import InvalidArgumentError, Policy, build, solve
from gamegraph._checks import MAX_GAMES
from gamegraph.propagate import propagate
from gamegraph.simulate import SimulationResult, simulate

HILO = F(660001525, 8264970432)


def inside(result, exact):
    low, high = result.interval()
    return low <= float(exact) <= high


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("games", [0, -5, 10**12, MAX_GAMES + 1, 1.5, 100.0, True, "100", None])
def test_bad_game_counts(jackpot_graph, jackpot_policies, games):
    with pytest.raises(InvalidArgumentError, match="games"):
        simulate(jackpot_graph, jackpot_policies["hilo"], games=games, seed=1)


@pytest.mark.parametrize(
    "name, value",
    [
        ("max_throws", 0),
        ("max_throws", -1),
        ("max_throws", 2.5),
        ("batch", 0),
        ("batch", -1000),
        ("batch", True),
    ],
)
def test_bad_caps_and_batches(jackpot_graph, jackpot_policies, name, value):
    with pytest.raises(InvalidArgumentError, match=name):
        simulate(jackpot_graph, jackpot_policies["hilo"], games=100, seed=1, **{name: value})


def test_policy_must_fit_the_graph(jackpot_graph):
    with pytest.raises(InvalidArgumentError):
        simulate(jackpot_graph, Policy(np.zeros(3, dtype=np.int32)), games=10, seed=1)


# ---------------------------------------------------------------------------
# Jackpot
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, exact, seed",
    [
        ("hilo", HILO, 2024),
        ("min", F(12512725423, 940369969152), 7),
        ("last", F(221094284005, 4231664861184), 11),
    ],
)
def test_monte_carlo_agrees_with_the_exact_value(
    jackpot_graph, jackpot_policies, jackpot_agent_values, name, exact, seed
):
    assert jackpot_agent_values[name].start_value == exact
    result = simulate(jackpot_graph, jackpot_policies[name], games=200_000, seed=seed)
    assert result.games == 200_000 and result.unfinished == 0 and result.seed == seed
    assert inside(result, exact)
    assert result.wins == int(result.wins)  # one player, whole wins
    # throws per game: every game throws at least once and at most nine times
    assert 200_000 <= result.throws <= 9 * 200_000
    expected = propagate(jackpot_graph, jackpot_policies[name]).expected_throws
    assert abs(result.throws / result.games - expected) < 0.02


def test_same_seed_same_games(jackpot_graph, jackpot_policies):
    runs = [
        simulate(jackpot_graph, jackpot_policies["hilo"], games=30_000, seed=s) for s in (5, 5, 6)
    ]
    assert (runs[0].wins, runs[0].throws) == (runs[1].wins, runs[1].throws)
    assert (runs[0].wins, runs[0].throws) != (runs[2].wins, runs[2].throws)


def test_batches_change_nothing_but_the_stream(jackpot_graph, jackpot_policies):
    progress = []
    result = simulate(
        jackpot_graph,
        jackpot_policies["hilo"],
        games=50_000,
        seed=3,
        batch=7_000,
        progress=lambda done, total: progress.append((done, total)),
    )
    assert result.games == 50_000 and result.unfinished == 0
    assert progress[-1] == (50_000, 50_000) and len(progress) == 8
    assert inside(result, HILO)


def test_monte_carlo_of_the_optimal_policy(jackpot_graph, jackpot_optimum):
    result = simulate(jackpot_graph, jackpot_optimum.policy, games=200_000, seed=99)
    assert inside(result, jackpot_optimum.start_value)


# ---------------------------------------------------------------------------
# Cyclic and two-player games
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, exact, seed",
    [
        (lambda toys: toys.UrEndgameA(), F(4, 7), 1),
        (lambda toys: toys.UrEndgameA(win_passes=True), F(4, 7), 2),
        (lambda toys: toys.UrEndgameB(), F(116, 161), 3),
        (lambda toys: toys.Duel(), F(5, 9), 4),
        (lambda toys: toys.Reroll(F(3, 4)), F(7, 12), 5),
    ],
    ids=["ur-a", "ur-a-win-passes", "ur-b", "duel", "reroll"],
)
def test_two_player_and_cyclic_games(toys, make, exact, seed):
    graph = build(make(toys))
    policy = solve(graph).policy
    result = simulate(graph, policy, games=50_000, seed=seed)
    assert result.unfinished == 0
    assert inside(result, exact)
    expected = propagate(graph, policy).expected_throws
    assert abs(result.throws / result.games - expected) < 0.05 * expected


def test_throw_cap_leaves_games_unfinished(toys):
    """Position (a): after one throw a game is won (1/4) or handed over (unfinished)."""
    graph = build(toys.UrEndgameA())
    result = simulate(graph, solve(graph).policy, games=40_000, seed=8, max_throws=1)
    assert result.wins + result.unfinished == result.games
    assert result.throws == result.games
    assert abs(result.unfinished / result.games - 0.75) < 0.01


def test_fractional_terminal_values_count_fractionally(toys):
    # Accepting the 3/4 prize whenever offered, every game ends after one throw in a win
    # (1/3), a loss (1/3) or the prize (1/3): a game counts 1, 0 or 3/4.
    graph = build(toys.Reroll(F(3, 4)))
    result = simulate(graph, solve(graph).policy, games=30_000, seed=2)
    assert result.throws == result.games
    assert 4 * result.wins == int(4 * result.wins)
    # counting the prize as a whole win (2/3) or as nothing (1/3) would miss 7/12
    assert inside(result, F(7, 12))
    assert not inside(result, F(2, 3)) and not inside(result, F(1, 3))


def test_a_game_already_over(toys):
    class Over(toys.Duel):
        def terminal_value(self, state):
            return F(1, 4)

    graph = build(Over())
    result = simulate(graph, Policy(np.zeros(0, dtype=np.int32)), games=1_000, seed=0)
    assert result.wins == 250 and result.throws == 0 and result.unfinished == 0


# ---------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------
def test_interval_contains_the_estimate_and_narrows(jackpot_graph, jackpot_policies):
    small = simulate(jackpot_graph, jackpot_policies["hilo"], games=2_000, seed=4)
    large = simulate(jackpot_graph, jackpot_policies["hilo"], games=80_000, seed=4)
    for result in (small, large):
        low, high = result.interval()
        assert 0 <= low < result.estimate < high <= 1
        assert result.estimate == result.wins / result.games
    width = lambda r, c=0.95: r.interval(c)[1] - r.interval(c)[0]  # noqa: E731
    assert width(large) < width(small)
    assert width(small, 0.99) > width(small, 0.95) > width(small, 0.5)


@pytest.mark.parametrize(
    "wins, games, low, high",
    [
        (50, 100, 0.4038, 0.5962),  # Wilson 95% for 50/100
        (0, 100, 0.0, 0.0370),
        (100, 100, 0.9630, 1.0),
        (1, 10, 0.0179, 0.4042),
    ],
)
def test_wilson_interval_values(wins, games, low, high):
    got = SimulationResult(games, wins, 0, 0, 0.0, None).interval()
    assert got == pytest.approx((low, high), abs=1e-4)
    estimate = wins / games
    assert got[0] - 1e-12 <= estimate <= got[1] + 1e-12


def test_unseeded_runs_work(jackpot_graph, jackpot_policies):
    result = simulate(jackpot_graph, jackpot_policies["max"], games=500)
    assert result.seed is None and result.games == 500 and result.seconds >= 0
