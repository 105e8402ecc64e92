"""gamegraph.analysis: how much win probability a policy gives up, outcome by outcome."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gamegraph import InvalidArgumentError, Policy, build, evaluate, solve
from gamegraph.analysis import compare
from gamegraph.games.jackpot import AGENTS, Jackpot
from gamegraph.propagate import propagate

HILO_WIN = Fraction(660001525, 8264970432)
OPTIMAL_WIN = Fraction(14103327415, 176319369216)


@pytest.fixture(scope="module")
def nine():
    graph = build(Jackpot())
    solution = solve(graph, exact=True)
    hilo = Policy.from_agent(graph, AGENTS["hilo"], name="hilo")
    return graph, solution, hilo, compare(solution, hilo)


# ---------------------------------------------------------------------------
# Three cells, by hand. A roll offers cell 1 in 11 rolls of 36, cell 2 in 12, cell 3
# in 13 (a die, or (1,1) for 2, (1,2), (2,1) for 3).
#
# Optimal values (board index -> win probability):
#   one cell down: it must be offered: board 3 (cell 3 down) 13/36, 5 (cell 2) 12/36,
#   6 (cell 1) 11/36.
#   board 1 (2, 3 down): flipping 2 leads to 3 (13/36), better than 3 -> 5 (12/36); a roll
#     offers 2 in 12 rolls, 3 without 2 in 13 - 4 = 9: (12*13 + 9*12)/1296 = 264/1296.
#   board 2 (1, 3 down): 1 -> 3 (13/36) beats 3 -> 6 (11/36); 1 in 11 rolls, 3 without 1
#     in 13 - 4 = 9: (11*13 + 9*11)/1296 = 242/1296.
#   board 4 (1, 2 down): 1 -> 5 (12/36) beats 2 -> 6 (11/36); 1 in 11 rolls, 2 without 1
#     in 12 - 3 = 9: (11*12 + 9*11)/1296 = 231/1296.
#   START: flip 1 (264) > flip 2 (242) > flip 3 (231); 1 offered in 11 rolls, 2 without 1
#     in 9, 3 without 1 or 2 in 13 - 6 = 7, nothing in 9: (11*264 + 9*242 + 7*231)/46656.
# ---------------------------------------------------------------------------
THREE_VALUES = {
    7: Fraction(1),
    3: Fraction(13, 36),
    5: Fraction(12, 36),
    6: Fraction(11, 36),
    1: Fraction(264, 1296),
    2: Fraction(242, 1296),
    4: Fraction(231, 1296),
    0: Fraction(11 * 264 + 9 * 242 + 7 * 231, 46656),
}
# 'max' (always the highest cell offered) is worth 6396/46656 (see test_dot).
THREE_MAX = Fraction(6396, 46656)


@pytest.fixture(scope="module")
def three():
    graph = build(Jackpot(cells=3))
    solution = solve(graph, exact=True)
    policy = Policy.from_agent(graph, AGENTS["max"], name="max")
    return graph, solution, policy, compare(solution, policy)


def test_three_cells_hand_values(three):
    graph, solution, policy, _ = three
    assert {s: solution.value(s) for s in graph.states} == THREE_VALUES
    assert evaluate(graph, policy, exact=True).start_value == THREE_MAX


def test_three_cells_losses_by_hand(three):
    graph, _, _, comparison = three
    V = THREE_VALUES
    seen = {}
    for k in range(graph.n_outcomes):
        board = graph.states[graph.outcome_state[k]]
        cells = tuple(sorted(int(graph.option_move[j]) for j in graph.options_of(k)))
        if not cells:
            expected = 0
        else:  # the best option's value less that of the highest cell, which 'max' takes
            best = max(V[board | 1 << (c - 1)] for c in cells)
            expected = best - V[board | 1 << (max(cells) - 1)]
        assert comparison.loss[k] == expected, (board, cells)
        seen[board, cells] = comparison.loss[k]
    # The losses named in the hand derivation, in 1296ths.
    assert seen[0, (1, 3)] == seen[0, (1, 2, 3)] == Fraction(264 - 231, 1296)
    assert seen[0, (2, 3)] == Fraction(242 - 231, 1296)
    assert seen[0, (1, 2)] == Fraction(264 - 242, 1296)
    assert seen[1, (2, 3)] == Fraction(1, 36)
    assert seen[2, (1, 3)] == Fraction(2, 36)
    assert seen[4, (1, 2)] == Fraction(1, 36)
    bad = {graph.states[i] for i in np.flatnonzero(comparison.suboptimal_states())}
    assert bad == {0, 1, 2, 4}


def test_three_cells_expected_loss_by_hand(three):
    """Weighted by how often 'max' reaches each position, the losses add up to the value
    it gives away. At START: rolls offering 1 and 3: (1,2), (2,1), (1,3), (3,1), loss 33
    each; 2 and 3 without 1: (2,3), (3,2), 11 each; (1,1): 22 -- 176/46656 in all. At
    board 1 (reached 6/36): 4 rolls lose 1/36; board 2 (8/36): 4 rolls lose 2/36; board 4
    (13/36): 3 rolls lose 1/36. 176 + 24 + 64 + 39 = 303 = (6699 - 6396)."""
    graph, solution, policy, comparison = three
    reach = propagate(graph, policy, exact=True).reach_probability
    total = sum(
        reach[graph.outcome_state[k]] * graph.probability(k) * comparison.loss[k]
        for k in range(graph.n_outcomes)
    )
    assert total == Fraction(303, 46656) == solution.start_value - THREE_MAX


def test_three_cells_better_moves(three):
    graph, _, _, comparison = three
    moves = {(graph.states[s], graph.states[t], m) for s, t, m in comparison.better_moves()}
    assert moves == {(0, 1, 1), (0, 2, 2), (1, 3, 2), (2, 3, 1), (4, 5, 1)}


# ---------------------------------------------------------------------------
# The full board
# ---------------------------------------------------------------------------
def option_values(graph, solution):
    """Win probability of every option under optimal play from its target (no passes in
    Jackpot)."""
    assert not graph.option_passes.any()
    return solution.values[graph.option_target]


def test_losses_are_best_minus_chosen(nine):
    graph, solution, hilo, comparison = nine
    q = option_values(graph, solution)
    chosen = hilo.chosen_option(graph)
    for k in range(graph.n_outcomes):
        span = graph.options_of(k)
        if not span:
            assert comparison.loss[k] == 0 and chosen[k] == -1
            continue
        best = max(q[j] for j in span)
        assert comparison.loss[k] == best - q[chosen[k]] >= 0
        # Zero exactly where HiLo's option is one of the best.
        assert (comparison.loss[k] == 0) == (q[chosen[k]] == best)
    assert all(isinstance(x, Fraction) for x in comparison.loss)


def test_hilo_differs_more_often_than_it_loses(nine):
    _, _, _, comparison = nine
    suboptimal = comparison.suboptimal
    assert suboptimal.any()
    assert np.array_equal(suboptimal, np.array([x > 0 for x in comparison.loss]))
    assert not (suboptimal & ~comparison.differs).any()
    # Where it differs without losing, both options are equally good (ties).
    assert (comparison.differs & ~suboptimal).any()


def test_optimal_against_itself(nine):
    graph, solution, _, _ = nine
    itself = compare(solution, solution.policy)
    assert all(x == 0 for x in itself.loss)
    assert not itself.suboptimal.any() and not itself.differs.any()
    assert not itself.suboptimal_states().any()
    assert itself.better_moves() == []
    assert not itself.edge_mask(solution.policy.chain(graph)).any()


def test_performance_difference_identity(nine):
    """Summing, over positions, HiLo's chance of reaching them times the expected loss of
    its choice there gives exactly the win probability it gives up at the start (the
    performance-difference lemma; exact here, since every number is a fraction)."""
    graph, solution, hilo, comparison = nine
    reach = propagate(graph, hilo, exact=True).reach_probability
    lossy = np.flatnonzero(comparison.suboptimal)
    total = sum(
        reach[graph.outcome_state[k]] * graph.probability(k) * comparison.loss[k] for k in lossy
    )
    assert solution.start_value == OPTIMAL_WIN
    assert evaluate(graph, hilo, exact=True).start_value == HILO_WIN
    assert total == OPTIMAL_WIN - HILO_WIN == Fraction(69884645, 528958107648)


@pytest.mark.parametrize("name", ["min", "max", "first", "last"])
def test_performance_difference_for_other_agents(nine, name):
    graph, solution, _, _ = nine
    policy = Policy.from_agent(graph, AGENTS[name])
    comparison = compare(solution, policy)
    reach = propagate(graph, policy, exact=True).reach_probability
    total = sum(
        reach[graph.outcome_state[k]] * graph.probability(k) * comparison.loss[k]
        for k in np.flatnonzero(comparison.suboptimal)
    )
    assert total == solution.start_value - evaluate(graph, policy, exact=True).start_value


def test_states_edges_and_better_moves_agree(nine):
    graph, solution, hilo, comparison = nine
    bad_outcomes = np.flatnonzero(comparison.suboptimal)
    states = comparison.suboptimal_states()
    assert set(np.flatnonzero(states)) == set(graph.outcome_state[bad_outcomes].tolist())
    chain = hilo.chain(graph)
    mask = comparison.edge_mask(chain)
    chosen = hilo.chosen_option(graph)
    taken = {
        (int(graph.outcome_state[k]), int(graph.option_target[chosen[k]])) for k in bad_outcomes
    }
    assert {
        (int(s), int(t)) for s, t in zip(chain.edge_source[mask], chain.edge_target[mask])
    } == taken
    q = option_values(graph, solution)
    for s, t, move in comparison.better_moves():
        assert states[s]
        assert graph.states[t] == graph.states[s] | 1 << (move - 1)
        # Some losing outcome at s offers this move, and it is a best option there.
        assert any(
            int(graph.option_target[j]) == t and q[j] == max(q[i] for i in graph.options_of(k))
            for k in bad_outcomes
            if graph.outcome_state[k] == s
            for j in graph.options_of(k)
        )


def test_float_solution_gives_the_same_verdicts(nine):
    graph, _, hilo, exact = nine
    approximate = compare(solve(graph), hilo)
    assert approximate.loss.dtype == np.float64
    assert np.array_equal(approximate.suboptimal, exact.suboptimal)
    assert np.allclose(approximate.loss, exact.loss.astype(float), rtol=0, atol=1e-15)
    assert approximate.better_moves() == exact.better_moves()


def test_policy_for_another_graph_is_refused(nine, three):
    _, solution, _, _ = nine
    _, _, small_policy, _ = three
    with pytest.raises(InvalidArgumentError, match="outcomes"):
        compare(solution, small_policy)
