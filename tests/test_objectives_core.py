"""Objectives in the core: what build accepts, and solves of scores and margins that agree
across the numba, numpy and exact engines (and with a hand-made solve)."""

import time
import warnings
from fractions import Fraction

import numpy as np
import pytest

from gamegraph import build, evaluate, solve
from gamegraph.errors import (
    InvalidArgumentError,
    InvalidRulesError,
    NonTerminatingGameError,
    UnknownNameError,
)
from gamegraph.exact_cost import ExactCostWarning, check_exact_cost, estimate_exact_cost
from gamegraph.games.pig import Pig
from gamegraph.policy import Policy
from gamegraph.rules import Option, Outcome, Rules, decision
from gamegraph.values import option_values, option_worths, value_name

HALF = Fraction(1, 2)
SIXTH = Fraction(1, 6)


class OneShot(Rules):
    """Throw a die: keep its face as points, or throw once more and keep that (score)."""

    name = "one more throw"
    objective = "score"

    def start(self):
        return "first"

    def terminal_value(self, state):
        return 0 if state == "end" else None

    def outcomes(self, state):
        if state == "first":
            return [
                Outcome(SIXTH, (Option("end", 0, reward=f), Option("second", 1)))
                for f in range(1, 7)
            ]
        return [Outcome(SIXTH, (Option("end", 0, reward=f),)) for f in range(1, 7)]


class Stakes(Rules):
    """A margin game with a cycle: the mover flips a coin; heads scores ``gain`` and keeps
    the turn until ``left`` heads are used up, tails passes the turn with the score kept.
    The mover may also pass at once. Terminal: 0.
    """

    objective = "margin"

    def __init__(self, heads=6, gain=Fraction(3, 2)):
        self.heads, self.gain, self.name = heads, gain, f"stakes {heads}"

    def start(self):
        return self.heads

    def terminal_value(self, state):
        return Fraction(-1, 3) if state == 0 else None

    def outcomes(self, left):
        return [
            Outcome(HALF, (Option(left - 1, 0, reward=self.gain), Option(left, 1, True, -1))),
            Outcome(HALF, (Option(left, 2, passes=True),)),
        ]


def hand_stakes(heads, gain):
    """Stakes solved by hand: at each ``left`` the value v satisfies
    v = 1/2 max(gain + v(left-1), -1 - v) + 1/2 (-v), solved for both choices."""
    v = {0: Fraction(-1, 3)}
    for left in range(1, heads + 1):
        keep = (gain + v[left - 1]) / 3  # v = (g + v')/2 - v/2  ->  v = (g + v') / 3
        give = Fraction(-1, 2)  # v = (-1 - v)/2 - v/2  ->  v = -1/2
        v[left] = max(keep, give)
    return v


def test_score_values_are_exact_expectations():
    graph = build(OneShot())
    exact = solve(graph, exact=True)
    # second throw worth 7/2: keep faces 4, 5, 6; throw again on 1, 2, 3
    assert exact.start_value == Fraction(3 * 7, 2 * 6) + Fraction(4 + 5 + 6, 6)
    for engine in ("numba", "numpy"):
        assert solve(graph, engine=engine).start_value == pytest.approx(4.25, abs=1e-13)
    assert value_name(graph) == "expected score"


@pytest.mark.parametrize("heads", [1, 4, 9])
def test_margin_game_matches_hand_solution(heads):
    graph = build(Stakes(heads))
    expected = hand_stakes(heads, Fraction(3, 2))
    exact = solve(graph, exact=True)
    for left, value in expected.items():
        assert exact.value(left) == value
    for engine in ("numba", "numpy"):
        floats = solve(graph, engine=engine)
        for left, value in expected.items():
            assert floats.value(left) == pytest.approx(float(value), abs=1e-12)


def test_best_move_counts_rewards_and_margins():
    solution = solve(build(Stakes(2)), exact=True)
    move = solution.best_move(2, 0)
    assert move.option.reward == Fraction(3, 2)
    assert move.value == Fraction(3, 2) + solution.value(1)
    table = solution.best_moves(2).rows
    values = sorted(row[3] for row in table)
    assert values == sorted([Fraction(3, 2) + solution.value(1), -solution.value(2)])


def test_option_worths_exact_and_float_agree():
    graph = build(Stakes(3))
    exact = solve(graph, exact=True)
    q_exact = option_worths(graph, exact.values)
    q_float = option_values(graph, np.array([float(v) for v in exact.values]))
    assert np.allclose([float(q) for q in q_exact], q_float, atol=1e-15)
    j = int(np.flatnonzero(graph.option_passes & (graph.option_move == 1))[0])
    assert q_exact[j] == -1 - exact.values[graph.option_target[j]]


def test_evaluate_a_fixed_policy_of_a_margin_game():
    graph = build(Stakes(3, gain=Fraction(1, 5)))
    with pytest.raises(NonTerminatingGameError, match="never reach the end"):
        evaluate(graph, Policy.preferring(graph, 1))  # both pass for ever
    keep = evaluate(graph, Policy.preferring(graph, 0), exact=True)
    v = Fraction(-1, 3)
    for _ in range(3):
        v = (Fraction(1, 5) + v) / 3  # v = (g + v') / 2 - v / 2
    assert keep.start_value == v
    best = solve(graph, exact=True).start_value
    assert best == hand_stakes(3, Fraction(1, 5))[3] == v  # keeping is best throughout


def test_large_cyclic_score_component_takes_the_banded_kernel():
    """A component of at least 512 states goes to the kernel's banded policy iteration."""

    class Walk(Rules):
        name, objective = "walk", "score"

        def start(self):
            return 0

        def terminal_value(self, state):
            return 100 if state == 700 else None

        def outcomes(self, i):
            return [
                Outcome(HALF, (Option(i + 1, 0, reward=-1), Option(max(i - 1, 0), 1))),
                Outcome(HALF, (Option(max(i - 1, 0), 0, reward=Fraction(-1, 2)),)),
            ]

    graph = build(Walk())
    fast = solve(graph, engine="numba")
    slow = solve(graph, engine="numpy")
    assert np.allclose(fast.values, slow.values, rtol=1e-12, atol=1e-9)
    assert fast.start_value < 100


def test_build_refuses_what_an_objective_forbids():
    class WinWithReward(OneShot):
        objective = "win"

    with pytest.raises(InvalidRulesError, match="has no rewards"):
        build(WinWithReward())

    class Passing(OneShot):
        def outcomes(self, state):
            return decision(Option("end", passes=True))

    with pytest.raises(InvalidRulesError, match="one player"):
        build(Passing())

    class Odd(OneShot):
        objective = "points"

    with pytest.raises(UnknownNameError, match="points"):
        build(Odd())

    for bad, message in ((float("nan"), "finite"), ("3", "not a number"), (True, "not a number")):

        class Bad(OneShot):
            def outcomes(self, state, bad=bad):
                return decision(Option("end", reward=bad))

        with pytest.raises(InvalidRulesError, match=message):
            build(Bad())


def test_scores_take_any_finite_terminal_value_and_floats_exactly():
    class Big(OneShot):
        def terminal_value(self, state):
            return -250.5 if state == "end" else None

        def outcomes(self, state):
            return decision(Option("end", reward=0.1))

    graph = build(Big())
    assert graph.reward_exact[0] == Fraction(0.1)  # the float's exact binary value
    assert solve(graph, exact=True).start_value == Fraction(0.1) + Fraction(-501, 2)


def test_the_compiled_and_python_walks_record_the_same_rewards():
    from gamegraph.build import _python_walk_only

    compiled = build(Stakes(5))
    with _python_walk_only():
        plain = build(Stakes(5))
    assert compiled.reward_exact == plain.reward_exact
    assert len(compiled.reward_exact) == 10  # heads and passing, in each of 5 states


def test_win_games_keep_no_reward_arrays():
    graph = build(Pig(goal=6))
    assert graph.objective == "win" and graph.option_reward is None
    assert graph.rewards() is None and not graph.has_rewards


def test_exact_cost_is_estimated_and_refused_before_any_work():
    graph = build(Pig(goal=10))
    cost = estimate_exact_cost(graph)
    assert 0 < cost.low_seconds <= cost.seconds
    started = time.perf_counter()
    with pytest.raises(InvalidArgumentError, match=r"exact=False.*exact_limit=None"):
        solve(graph, exact=True, exact_limit=cost.low_seconds / 2)
    assert time.perf_counter() - started < 1
    with pytest.raises(InvalidArgumentError, match="exact_limit"):
        solve(graph, exact=True, exact_limit=-1)


def test_exact_cost_warns_past_its_threshold(monkeypatch):
    import gamegraph.exact_cost as exact_cost

    graph = build(Pig(goal=8))
    monkeypatch.setattr(exact_cost, "WARN_SECONDS", 0.0)
    with pytest.warns(ExactCostWarning, match="float solve"):
        check_exact_cost(graph)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_exact_cost(build(OneShot())) is None  # no cycles: nothing to say


class Forever(Rules):
    """A loop that pays ``reward`` each time round, or a move to the end worth ``end``."""

    name, objective = "forever", "score"

    def __init__(self, reward, end=5):
        self.reward, self.end = reward, end

    def start(self):
        return 0

    def terminal_value(self, state):
        return self.end if state == 2 else None

    def outcomes(self, state):
        if state == 0:
            return decision(Option(1, 0, reward=self.reward), Option(2, 1))
        return decision(Option(0, 0, reward=self.reward))


@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_a_loop_that_pays_is_named_as_the_cause(engine):
    from gamegraph.errors import ConvergenceError

    with pytest.raises(ConvergenceError, match="pays more than it costs"):
        solve(build(Forever(1)), engine=engine)
    assert solve(build(Forever(-1)), engine=engine).start_value == 5  # a loop that costs
