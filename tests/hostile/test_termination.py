"""Issue 11, case 10: games that never end are refused with a message, never valued.

A state from which no choice of moves ends the game, a state where optimal play would
stall for ever, and a policy that never ends the game all raise NonTerminatingGameError
naming the states; a simulation reports its unfinished games instead of counting them.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from conftest import CYCLIC_CASES

from gamegraph import Option, Outcome, Policy, Rules, build, evaluate, solve
from gamegraph.errors import ConvergenceError, NonTerminatingGameError
from gamegraph.simulate import simulate
from gamegraph.termination import can_end, ending_choice, sure_to_end


class PassToSelf(Rules):
    """Two players: the only move hands the turn back to the same state, for ever."""

    name = "pass to self"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return None

    def outcomes(self, state):
        return [Outcome(F(1), (Option("S", move=0, passes=True),))]


class AvoidLoss(Rules):
    """One player who may stay (back to S) or take a loss: stalling avoids the loss."""

    name = "avoid loss"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return F(0) if state == "lost" else None

    def outcomes(self, state):
        return [Outcome(F(1), (Option("S", move=0), Option("lost", move=1)))]


class MutualStall(Rules):
    """A and B hand the turn to each other, or give up (lose); nobody wants to give up."""

    name = "mutual stall"

    def start(self):
        return "A"

    def terminal_value(self, state):
        return F(0) if state == "gave up" else None

    def outcomes(self, state):
        other = "B" if state == "A" else "A"
        return [Outcome(F(1), (Option(other, move=0, passes=True), Option("gave up", move=1)))]


class TrapBelow(Rules):
    """A fair start whose one outcome may fall (1/2) into a loop X <-> Y that never ends."""

    name = "trap below"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return F(1) if state == "won" else None

    def outcomes(self, state):
        if state == "S":
            return [Outcome(F(1, 2), (Option("won"),)), Outcome(F(1, 2), (Option("X"),))]
        return [Outcome(F(1), (Option("Y" if state == "X" else "X", passes=True),))]


@pytest.mark.parametrize("exact", [False, True])
def test_a_pass_to_self_game_is_refused_by_solve(exact):
    graph = build(PassToSelf())
    with pytest.raises(NonTerminatingGameError, match=r"cannot end from 1 state \(S\)") as info:
        solve(graph, exact=exact)
    assert info.value.states == (0,)
    assert "whatever the players choose" in str(info.value)


@pytest.mark.parametrize("exact", [False, True])
def test_a_pass_to_self_game_is_refused_by_evaluate(exact):
    graph = build(PassToSelf())
    policy = Policy(np.zeros(graph.n_outcomes, dtype=np.int32), name="pass")
    with pytest.raises(NonTerminatingGameError, match=r"policy 'pass'.* 1 state \(S\)"):
        evaluate(graph, policy, exact=exact)


@pytest.mark.parametrize("exact", [False, True])
def test_a_trap_reachable_by_chance_names_its_states(exact):
    graph = build(TrapBelow())
    with pytest.raises(NonTerminatingGameError, match=r"2 states \(X, Y\)") as info:
        solve(graph, exact=exact)
    assert sorted(graph.label(i) for i in info.value.states) == ["X", "Y"]


@pytest.mark.parametrize("exact", [False, True])
def test_the_stall_game_solves_to_the_prize_with_a_policy_that_ends(toys, exact):
    # Stalling and taking the prize tie at 1/2; the returned policy must take the prize.
    graph = build(toys.Stall())
    solution = solve(graph, exact=exact)
    assert solution.start_value == F(1, 2) if exact else abs(solution.start_value - 0.5) < 1e-12
    assert solution.policy.choice.tolist() == [1]  # "prize", not "stay"
    assert sure_to_end(graph, solution.policy.choice).all()
    again = evaluate(graph, solution.policy, exact=True)
    assert again.start_value == F(1, 2)


@pytest.mark.parametrize("exact", [False, True])
def test_the_stall_policy_is_refused_by_evaluate_naming_the_state(toys, exact):
    graph = build(toys.Stall())
    stall = Policy(np.zeros(graph.n_outcomes, dtype=np.int32), name="stall")
    with pytest.raises(NonTerminatingGameError, match=r"1 state \(S\)") as info:
        evaluate(graph, stall, exact=exact)
    assert isinstance(info.value, ConvergenceError)  # the type callers caught before


@pytest.mark.parametrize("rules", [AvoidLoss(), MutualStall()], ids=["one-player", "two"])
@pytest.mark.parametrize("exact", [False, True])
def test_optimal_play_that_would_stall_for_ever_is_an_error(rules, exact):
    graph = build(rules)
    with pytest.raises(NonTerminatingGameError, match="optimal play would never reach the end"):
        solve(graph, exact=exact)


def test_simulate_reports_the_unfinished_games_of_a_stalling_policy(toys):
    graph = build(toys.Stall())
    stall = Policy(np.zeros(graph.n_outcomes, dtype=np.int32), name="stall")
    result = simulate(graph, stall, games=100, seed=1, max_throws=50)
    assert (result.unfinished, result.finished, result.wins) == (100, 0, 0)
    assert result.throws == 100 * 50
    assert math.isnan(result.estimate) and result.interval() == (0.0, 1.0)
    assert result.note == "100 games did not finish within 50 throws (left out of the estimate)"


def test_simulate_leaves_unfinished_games_out_of_the_estimate():
    # From S: win (1/2) or fall into the endless X-Y loop (1/2). The games that end are won.
    graph = build(TrapBelow())
    policy = Policy(np.zeros(graph.n_outcomes, dtype=np.int32))
    result = simulate(graph, policy, games=2000, seed=3, max_throws=20)
    assert 800 < result.unfinished < 1200
    assert result.wins == result.finished and result.estimate == 1.0
    low, high = result.interval()
    assert 0.99 < low < 1.0 <= high + 1e-12
    assert result.note.startswith(f"{result.unfinished:,} games did not finish within 20 throws")


def test_every_game_that_finishes_leaves_no_note(jackpot_graph, jackpot_policies):
    result = simulate(jackpot_graph, jackpot_policies["hilo"], games=1000, seed=2)
    assert result.unfinished == 0 and result.note == "" and result.finished == 1000


@pytest.mark.parametrize("case", CYCLIC_CASES, ids=[case[0] for case in CYCLIC_CASES])
def test_the_cyclic_toy_games_still_solve_to_their_known_values(case):
    _, make, known = case
    graph = build(make())
    exact = solve(graph, exact=True)
    floats = solve(graph)
    for state, value in known.items():
        assert exact.value(state) == value
        assert abs(floats.value(state) - float(value)) < 1e-12
    assert sure_to_end(graph, exact.policy.choice).all()


def test_can_end_and_ending_choice_on_a_small_game(toys):
    graph = build(toys.Stall())  # S -> S (stay) or S -> prize
    assert can_end(graph)[0].all()
    stay_only = graph.option_move == 0
    ok, rank = can_end(graph, stay_only)
    s = graph.state_number("S")
    assert not ok[s] and rank[s] == -1
    stall = np.zeros(graph.n_outcomes, dtype=np.int64)
    assert not sure_to_end(graph, stall)[s]
    repaired, impossible = ending_choice(graph, np.ones(graph.n_options, dtype=bool), stall)
    assert repaired.tolist() == [1] and not impossible.any()
    kept, impossible = ending_choice(graph, stay_only, stall)
    assert kept.tolist() == [0] and impossible[s]
