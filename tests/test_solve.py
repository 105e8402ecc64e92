"""Tests for gamegraph.solve: solve() and evaluate() on the DAG and the cyclic path."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import (
    ConvergenceError,
    InvalidArgumentError,
    Option,
    Outcome,
    Policy,
    Rules,
    UnknownNameError,
    build,
    evaluate,
    solve,
)
from gamegraph.games.jackpot import Jackpot

OPTIMUM = F(14103327415, 176319369216)
singular_warning = pytest.mark.filterwarnings("ignore::scipy.sparse.linalg.MatrixRankWarning")


def bellman_from_rules(rules, value, state, choose=max):
    """(T v)(state) computed straight from the rules object, not from the graph arrays."""
    total = F(0)
    for outcome in rules.outcomes(state):
        q = [1 - value[o.target] if o.passes else value[o.target] for o in outcome.options]
        total += outcome.probability * (choose(q) if q else 0)
    return total


def by_state(solution):
    return dict(zip(solution.graph.states, solution.values))


# ---------------------------------------------------------------------------
# Jackpot (a DAG: one backward sweep)
# ---------------------------------------------------------------------------
def test_jackpot_optimum_exact(jackpot_optimum):
    assert jackpot_optimum.start_value == OPTIMUM
    assert jackpot_optimum.exact and jackpot_optimum.iterations == 0
    assert jackpot_optimum.residual == 0.0
    assert jackpot_optimum.value(0) == OPTIMUM and jackpot_optimum.value(511) == 1
    assert all(type(v) is F for v in jackpot_optimum.values)


def test_jackpot_float_agrees_with_exact(jackpot_graph, jackpot_optimum):
    approx = solve(jackpot_graph)
    assert approx.values.dtype == np.float64 and not approx.exact
    exact = np.array([float(v) for v in jackpot_optimum.values])
    assert np.max(np.abs(approx.values - exact)) < 1e-12
    assert approx.residual < 1e-12
    # the same moves are optimal (no ties within float noise decide differently at the start)
    start_outcomes = list(jackpot_graph.outcomes_of(jackpot_graph.start))
    assert np.array_equal(
        approx.policy.choice[start_outcomes], jackpot_optimum.policy.choice[start_outcomes]
    )


def test_jackpot_optimum_satisfies_bellman_exactly(jackpot_graph, jackpot_optimum):
    rules, value = jackpot_graph.rules, by_state(jackpot_optimum)
    for state in jackpot_graph.states:
        if state != 511:
            assert value[state] == bellman_from_rules(rules, value, state)


def test_jackpot_optimal_policy_evaluates_to_the_optimum(jackpot_graph, jackpot_optimum):
    again = evaluate(jackpot_graph, jackpot_optimum.policy, exact=True)
    assert again.values.tolist() == jackpot_optimum.values.tolist()
    assert again.residual == 0.0 and again.policy is jackpot_optimum.policy


def test_value_of_a_state_not_in_the_graph(jackpot_optimum):
    with pytest.raises(InvalidArgumentError):
        jackpot_optimum.value(1 << 9)


# ---------------------------------------------------------------------------
# Cyclic components
# ---------------------------------------------------------------------------
def test_cyclic_games_exact(cyclic_case):
    graph, known = cyclic_case
    solution = solve(graph, exact=True)
    values = by_state(solution)
    for state, value in known.items():
        assert values[state] == value, state
    assert solution.residual == 0.0
    assert solution.iterations >= 1
    # the solution is a fixed point of the Bellman operator, checked from the rules
    for state in graph.states:
        if graph.rules.terminal_value(state) is None:
            assert values[state] == bellman_from_rules(graph.rules, values, state)


@pytest.mark.parametrize("method", ["policy", "value"])
def test_cyclic_games_float(cyclic_case, method):
    graph, known = cyclic_case
    solution = solve(graph, method=method)
    values = by_state(solution)
    tolerance = 1e-12 if method == "policy" else 1e-9
    for state, value in known.items():
        assert abs(values[state] - float(value)) < tolerance, state
    assert solution.residual <= 1e-12
    assert solution.iterations >= 1


def test_cyclic_games_policy_matches_exact(cyclic_case):
    graph, _ = cyclic_case
    exact = solve(graph, exact=True)
    approx = solve(graph)
    assert np.array_equal(exact.policy.choice, approx.policy.choice)
    assert np.array_equal(evaluate(graph, exact.policy, exact=True).values, exact.values)


@pytest.mark.parametrize("prize, best", [(F(1, 4), "reroll"), (F(3, 4), "accept")])
@pytest.mark.parametrize("exact", [True, False])
def test_the_max_inside_a_cycle_picks_the_better_option(toys, prize, best, exact):
    graph = build(toys.Reroll(prize))
    solution = solve(graph, exact=exact)
    (k,) = [k for k in range(graph.n_outcomes) if len(graph.options_of(k)) == 2]
    chosen = graph.option_move[graph.option_ptr[k] + solution.policy.choice[k]]
    assert chosen == {"reroll": toys.Reroll.REROLL, "accept": toys.Reroll.ACCEPT}[best]


@pytest.mark.parametrize("hold_first", [False, True])
def test_piglet_optimal_choices_and_the_always_hold_policy(toys, hold_first):
    rules = toys.Piglet(hold_first=hold_first)
    graph = build(rules)
    optimum = solve(graph, exact=True)
    moves = graph.option_move[optimum.policy.chosen_option(graph)]
    choice_outcomes = [k for k in range(graph.n_outcomes) if len(graph.options_of(k)) == 2]
    assert len(choice_outcomes) == 2
    assert (moves[choice_outcomes] == toys.Piglet.CONTINUE).all()
    # Both players holding at every chance: a = 16/27, b = 2/9, c = 8/9 (see conftest).
    hold = Policy.from_agent(
        graph,
        lambda state, options: (
            [o.move for o in options].index(toys.Piglet.HOLD) if len(options) == 2 else 0
        ),
        name="hold",
    )
    held = by_state(evaluate(graph, hold, exact=True))
    assert (held[(0, 0, 0)], held[(0, 1, 0)], held[(1, 0, 0)]) == (F(16, 27), F(2, 9), F(8, 9))
    # at the optimum, holding one point at 0-0 (worth 1 - b = 3/5) loses to continuing (e = 5/7)
    best = by_state(optimum)
    assert 1 - best[(0, 1, 0)] == F(3, 5) < F(5, 7) == best[(0, 0, 1)]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("two_player", [False, True], ids=["one-player", "two-player"])
def test_random_cyclic_games(toys, seed, two_player):
    """Exact, float policy iteration and value iteration agree; the exact answer is the
    unique fixed point of the Bellman equations (every policy ends the game)."""
    graph = build(toys.RandomGame(seed, size=10, two_player=two_player))
    exact = solve(graph, exact=True)
    values = by_state(exact)
    for state in graph.states:
        if graph.rules.terminal_value(state) is None:
            assert values[state] == bellman_from_rules(graph.rules, values, state)
    as_float = np.array([float(v) for v in exact.values])
    policy = solve(graph)
    assert np.max(np.abs(policy.values - as_float)) < 1e-12
    assert policy.residual < 1e-12
    value = solve(graph, method="value", tol=1e-13)
    assert np.max(np.abs(value.values - as_float)) < 1e-10
    assert evaluate(graph, exact.policy, exact=True).values.tolist() == exact.values.tolist()


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_one_player_optimum_is_the_best_of_all_policies(toys, seed):
    """With one player the optimum is the best deterministic policy, state by state."""
    graph = build(toys.RandomGame(seed, size=5, two_player=False))
    counts = np.diff(graph.option_ptr)
    choices = [range(c) if c else [-1] for c in counts]
    combos = list(itertools.product(*choices))
    assert 1 < len(combos) <= 5000
    best = np.zeros(graph.n_states)
    for combo in combos:
        values = evaluate(graph, Policy(np.array(combo, dtype=np.int32))).values
        best = np.maximum(best, values)
    optimum = solve(graph).values
    assert np.max(np.abs(best - optimum)) < 1e-12


def test_evaluate_agrees_with_hand_values_for_the_ur_endgames(toys):
    for rules, state, value in [
        (toys.UrEndgameA(), "A", F(4, 7)),
        (toys.UrEndgameB(), "R", F(74, 161)),
    ]:
        graph = build(rules)
        forced = Policy(np.zeros(graph.n_outcomes, dtype=np.int32))
        assert evaluate(graph, forced, exact=True).value(state) == value
        assert abs(evaluate(graph, forced).value(state) - float(value)) < 1e-15


@singular_warning
@pytest.mark.parametrize("exact", [True, False])
def test_a_policy_that_never_ends_has_no_value(toys, exact):
    graph = build(toys.Stall())
    stall = Policy(np.zeros(graph.n_outcomes, dtype=np.int32), name="stall")
    with pytest.raises(ConvergenceError, match="never reach the end"):
        evaluate(graph, stall, exact=exact)
    take = Policy(np.ones(graph.n_outcomes, dtype=np.int32), name="take")
    assert evaluate(graph, take, exact=True).start_value == F(1, 2)


# ---------------------------------------------------------------------------
# Iteration caps and arguments
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("max_iter", [1, 5, 20])
def test_value_iteration_stops_at_its_cap(toys, max_iter):
    graph = build(toys.UrEndgameB())
    with pytest.raises(ConvergenceError, match=f"after {max_iter} rounds"):
        solve(graph, method="value", max_iter=max_iter)


def test_value_iteration_converges_with_a_loose_tolerance(toys):
    graph = build(toys.UrEndgameB())
    loose = solve(graph, method="value", tol=1e-3, max_iter=200)
    assert 1 < loose.iterations < 200
    assert abs(loose.value("G") - 116 / 161) < 1e-2
    assert loose.residual < 1e-3


@pytest.mark.parametrize("tol", [0, -1e-9, float("nan"), None, "1e-9", True])
def test_bad_tol(jackpot_graph, tol):
    with pytest.raises(InvalidArgumentError, match="tol"):
        solve(jackpot_graph, tol=tol)


@pytest.mark.parametrize("max_iter", [0, -3, 1.5, "10", None, True])
def test_bad_max_iter(jackpot_graph, max_iter):
    with pytest.raises(InvalidArgumentError, match="max_iter"):
        solve(jackpot_graph, max_iter=max_iter)


@pytest.mark.parametrize("method", ["newton", "", "Policy", None])
def test_unknown_method(jackpot_graph, method):
    with pytest.raises(UnknownNameError, match="accepted: policy, value") as info:
        solve(jackpot_graph, method=method)
    assert isinstance(info.value, InvalidArgumentError) and isinstance(info.value, ValueError)
    assert info.value.accepted == ("policy", "value")


def test_evaluate_rejects_a_policy_of_another_graph(jackpot_graph, jackpot_policies):
    small = build(Jackpot(cells=4))
    with pytest.raises(InvalidArgumentError, match="outcomes"):
        evaluate(small, jackpot_policies["hilo"])


def test_a_stalling_tie_does_not_stop_the_float_solve(toys):
    # Stalling and taking the prize tie at 1/2; the greedy policy may pick the stall,
    # whose system is singular, and the solver must fall back to value iteration.
    graph = build(toys.Stall())
    solution = solve(graph)
    assert solution.start_value == pytest.approx(0.5, abs=1e-12)
    assert solution.residual <= 1e-12


class _StallThenCycle(Rules):
    """A stalling state S (stay, or take a prize of 1/2) below a two-state passing cycle."""

    name = "stall then cycle"

    def start(self):
        return "A"

    def terminal_value(self, state):
        return {"prize": F(1, 2), "won": F(1)}.get(state)

    def outcomes(self, state):
        if state == "S":
            return [Outcome(F(1), (Option("S"), Option("prize")))]
        other = "B" if state == "A" else "A"
        third = F(1, 3)
        return [
            Outcome(third, (Option("S"), Option(other, passes=True))),
            Outcome(third, (Option("won"),)),
            Outcome(third, (Option(other, passes=True),)),
        ]


@pytest.mark.parametrize("method", ["policy", "value"])
def test_a_singular_block_leaves_no_trace_for_later_blocks(method):
    # Regression: the stall at S made S's system singular; the solver's reused position
    # array was left dirty, and the A-B cycle above it then never converged.
    # v(S) = 1/2; v(A) = 1/3 max(1/2, 1 - v(B)) + 1/3 + 1/3 (1 - v(B)) with v(A) = v(B)
    # gives v = 5/8.
    graph = build(_StallThenCycle())
    solution = solve(graph, method=method)
    assert solution.value("A") == pytest.approx(0.625, abs=1e-12)
    assert solution.value("S") == pytest.approx(0.5, abs=1e-12)
