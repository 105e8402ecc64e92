"""Tests for gamegraph.propagate: reach probabilities, end distribution, win probability."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import Policy, build, evaluate, solve
from gamegraph.propagate import propagate

POLICIES = ["min", "max", "first", "last", "hilo", "hilo2", "optimal"]


@pytest.fixture(scope="module")
def jackpot_runs(jackpot_graph, jackpot_policies, jackpot_optimum):
    policies = dict(jackpot_policies, optimal=jackpot_optimum.policy)
    return {name: propagate(jackpot_graph, policy, exact=True) for name, policy in policies.items()}


# ---------------------------------------------------------------------------
# Jackpot
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", POLICIES)
def test_forward_and_backward_win_probabilities_agree(
    jackpot_runs, jackpot_agent_values, jackpot_optimum, name
):
    backward = jackpot_optimum if name == "optimal" else jackpot_agent_values[name]
    run = jackpot_runs[name]
    assert run.win_probability == backward.start_value
    assert run.reach_probability[run.graph.state_number(511)] == backward.start_value


@pytest.mark.parametrize("name", POLICIES)
def test_the_game_ends_somewhere_with_certainty(jackpot_runs, name):
    run = jackpot_runs[name]
    ends = run.end_probability()
    assert sum(ends) == 1
    assert all(p >= 0 for p in ends)
    assert run.exact and type(run.win_probability) is F


@pytest.mark.parametrize("name", POLICIES)
def test_layer_reach_is_what_the_stuck_games_leave(jackpot_runs, name):
    """P(reaching layer n) = 1 - P(stuck in a layer below n), and reach of a layer sums
    the reach of its states (each state is visited at most once)."""
    run = jackpot_runs[name]
    layers = run.graph.layers
    reach = [sum(run.reach_probability[layers == n]) for n in range(10)]
    stuck = run.stuck_by_layer()
    assert len(stuck) == 10 and stuck[9] == 0
    for n in range(10):
        assert reach[n] == 1 - sum(stuck[:n])
    assert reach[0] == 1 and reach[9] == run.win_probability
    assert all(0 <= p <= 1 for p in run.reach_probability)
    # each throw is made from one non-terminal layer: E[throws] = sum of P(reach layer n)
    assert run.expected_throws == sum(reach[:9])


def test_single_player_never_hands_over(jackpot_runs):
    for run in jackpot_runs.values():
        assert all(v == 0 for v in run.reach[1]) and all(v == 0 for v in run.stuck[1])


def test_float_propagation_agrees_with_exact(jackpot_graph, jackpot_policies, jackpot_runs):
    approx = propagate(jackpot_graph, jackpot_policies["hilo"])
    exact = jackpot_runs["hilo"]
    assert approx.reach.dtype == np.float64 and not approx.exact
    assert np.max(np.abs(approx.reach - exact.reach.astype(float))) < 1e-14
    assert abs(approx.win_probability - float(exact.win_probability)) < 1e-15
    assert abs(sum(approx.end_probability()) - 1) < 1e-13
    assert abs(approx.expected_throws - float(exact.expected_throws)) < 1e-12


# ---------------------------------------------------------------------------
# Cyclic games
# ---------------------------------------------------------------------------
def test_cyclic_win_probability_is_the_start_value(cyclic_case):
    graph, known = cyclic_case
    policy = solve(graph, exact=True).policy
    run = propagate(graph, policy, exact=True)
    assert run.win_probability == known[graph.states[graph.start]]
    assert sum(run.end_probability()) == 1
    approx = propagate(graph, policy)
    assert abs(approx.win_probability - float(run.win_probability)) < 1e-13
    assert abs(approx.expected_throws - float(run.expected_throws)) < 1e-12


def test_ur_position_a_visits(toys):
    """Green throws at its k-th turn with probability (3/4)^(2k-2): expected visits
    16/7 with Green to move and 12/7 with Red; throws 4 (a 1/4 chance per throw)."""
    graph = build(toys.UrEndgameA())
    run = propagate(graph, solve(graph).policy, exact=True)
    a = graph.state_number("A")
    assert (run.reach[0, a], run.reach[1, a]) == (F(16, 7), F(12, 7))
    assert run.expected_throws == 4
    won = graph.state_number("won")
    assert (run.reach[0, won], run.reach[1, won]) == (F(4, 7), F(3, 7))


def test_ur_position_b_expected_throws(toys):
    """E_A = 4, E_G = 1 + 1/4 E_A + 3/8 E_R, E_R = 1 + 3/4 E_G, so E_G = 76/23."""
    graph = build(toys.UrEndgameB())
    run = propagate(graph, solve(graph).policy, exact=True)
    assert run.expected_throws == F(76, 23)
    assert run.win_probability == F(116, 161)


def test_stuck_second_player_counts_as_a_win(toys):
    """In the duel the first player wins 5/9: by reaching the win, or because the other
    player is stuck."""
    graph = build(toys.Duel())
    run = propagate(graph, solve(graph).policy, exact=True)
    d = graph.state_number("D")
    # visits: 1 / (1 - 1/4) = 4/3 for the first player, half as many for the second
    assert (run.reach[0, d], run.reach[1, d]) == (F(4, 3), F(2, 3))
    assert (run.stuck[0, d], run.stuck[1, d]) == (F(2, 9), F(1, 9))
    assert run.win_probability == F(4, 9) + F(1, 9)


def test_piglet_always_hold(toys):
    graph = build(toys.Piglet())
    hold = Policy.from_agent(
        graph,
        lambda state, options: (
            [o.move for o in options].index(toys.Piglet.HOLD) if len(options) == 2 else 0
        ),
    )
    assert propagate(graph, hold, exact=True).win_probability == F(16, 27)


@pytest.mark.parametrize("seed", range(8))
def test_random_games_forward_equals_backward(toys, seed):
    graph = build(toys.RandomGame(seed, size=10, two_player=True))
    policy = solve(graph, exact=True).policy
    run = propagate(graph, policy, exact=True)
    assert run.win_probability == evaluate(graph, policy, exact=True).start_value
    assert sum(run.end_probability()) == 1
    # a random (not optimal) policy too
    rng = np.random.default_rng(seed)
    counts = np.diff(graph.option_ptr)
    other = Policy(np.where(counts > 0, rng.integers(0, np.maximum(counts, 1)), -1))
    assert (
        propagate(graph, other, exact=True).win_probability
        == evaluate(graph, other, exact=True).start_value
    )


def test_terminal_start(toys):
    class Over(toys.Duel):
        def terminal_value(self, state):
            return F(1, 3)

    graph = build(Over())
    run = propagate(graph, Policy(np.zeros(0, dtype=np.int32)), exact=True)
    assert run.win_probability == F(1, 3) and run.expected_throws == 0
    assert run.end_probability().tolist() == [1]
