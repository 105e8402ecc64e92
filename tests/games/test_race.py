"""Tests for gamegraph.games.race (Home Run): rules, exact values, agents, policy against policy."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from gamegraph import InvalidArgumentError, Policy, build, evaluate, solve
from gamegraph.analysis.duel import duel, simulate_duel
from gamegraph.games.race import AGENTS, PASS, WON, HomeRun, hunter, move_number
from gamegraph.simulate import simulate


@pytest.fixture(scope="module")
def graph():
    return build(HomeRun())


@pytest.fixture(scope="module")
def optimum(graph):
    return solve(graph, exact=True)


def test_one_token_on_two_squares_by_hand():
    # Mover at a, opponent at b. From 0 a 1 steps on square 1 (capturing a token there),
    # a 2 wins; from 1 a 1 wins; anything else passes. With v(a, b):
    #   v(0,1) = 1/6 + 1/6 (1 - v(0,1)) + 4/6 (1 - v(1,0)),  v(1,0) = 1/6 + 5/6 (1 - v(0,1)),
    #   v(0,0) = 1/6 + 1/6 (1 - v(0,1)) + 4/6 (1 - v(0,0)),
    # whose solution is 6/11 for all three.
    solution = solve(build(HomeRun(track=2, tokens=1)), exact=True)
    assert solution.start_value == F(6, 11)
    assert solution.value(((0,), (1,))) == solution.value(((1,), (0,))) == F(6, 11)


def test_exact_and_float_agree(graph, optimum):
    assert graph.n_states == 531
    floats = solve(graph)
    assert abs(float(optimum.start_value) - floats.start_value) < 1e-12
    assert 0.5 < optimum.start_value < 0.53  # a small first-move advantage
    assert graph.condensation.cyclic.any()  # captures make cycles


def test_moves_captures_and_passes():
    rules = HomeRun()
    state = ((0, 3), (1, 5))
    by_throw = {die: rules.moves(state, die) for die in range(1, 7)}
    # A 2: 0 -> 2 or 3 -> 5, which sends the opponent's token on 5 home.
    assert [(o.move, o.target) for o in by_throw[2]] == [
        (move_number(0, 2), ((1, 5), (2, 3))),
        (move_number(3, 5), ((0, 1), (0, 5))),
    ]
    # A 3 cannot move the token on 0 onto the token on 3; 3 -> 6 is the only move.
    assert [o.move for o in by_throw[3]] == [move_number(3, 6)]
    # A 4 goes to the goal with the token on 3: the game goes on (one token still out).
    assert by_throw[4][1].target == ((1, 5), (0, 7))
    assert all(o.passes for options in by_throw.values() for o in options)
    # Stuck: a throw too big for the token on 6, and the other is home: the turn passes.
    stuck = rules.moves(((6, 7), (0, 0)), 2)
    assert stuck == [stuck[0]._replace(target=((0, 0), (6, 7)), move=PASS, passes=True)]
    # Bringing the last token home wins without passing.
    (win,) = rules.moves(((6, 7), (0, 0)), 1)
    assert win.target == WON and not win.passes
    # Two tokens on the same square (home) give one move, not two.
    assert len(rules.moves(((0, 0), (0, 0)), 1)) == 1


def test_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="track"):
        HomeRun(track=1)
    with pytest.raises(InvalidArgumentError, match="tokens"):
        HomeRun(tokens=0)


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_agents_are_valid_and_no_better_than_optimal_self_play(graph, optimum, name):
    policy = Policy.from_agent(graph, AGENTS[name], name=name)
    policy.check(graph)
    # Both players follow the agent; optimal play beats it from either seat.
    beaten = duel(graph, optimum, policy, exact=True)
    assert beaten.moving_first > optimum.start_value
    assert beaten.moving_second > 1 - optimum.start_value


def test_optimal_self_play_is_the_start_value(graph, optimum):
    result = duel(graph, optimum, optimum, exact=True)
    assert result.moving_first == optimum.start_value
    assert result.moving_second == 1 - optimum.start_value


def test_duel_against_monte_carlo(graph, optimum):
    exact = duel(graph, optimum, hunter)
    played = simulate_duel(graph, optimum, hunter, games=40_000, seed=5)
    for mover, value in ((0, exact.moving_first), (1, exact.moving_second)):
        low, high = played.interval(mover)
        assert low < value < high
    assert 0.6 < exact.alternating < 0.7


def test_self_play_monte_carlo(graph, optimum):
    games = simulate(graph, optimum.policy, games=100_000, seed=3)
    low, high = games.interval()
    assert low < float(optimum.start_value) < high
    assert evaluate(graph, optimum.policy).start_value == pytest.approx(
        float(optimum.start_value), abs=1e-12
    )
