"""The explorer's data: reach, values, best moves and edge probabilities, cross-checked."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from gamegraph import build, solve
from gamegraph.analysis import Exploration, explore_graph
from gamegraph.analysis.explore import MAX_STATES
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.supersix import SuperSix
from gamegraph.games.ur import Ur
from gamegraph.games.ur.agents import make_agent
from gamegraph.propagate import propagate

# Piglet's values derived by hand (tests/conftest.py).
PIGLET = {(0, 0, 0): Fraction(4, 7), (0, 1, 0): Fraction(2, 5), (1, 0, 0): Fraction(4, 5)}


@pytest.fixture(scope="module")
def jackpot_data(jackpot_graph, jackpot_optimum, jackpot_policies):
    return explore_graph(jackpot_graph, jackpot_optimum, jackpot_policies)


@pytest.fixture(scope="module")
def piglet(toys):
    graph = build(toys.Piglet())
    return graph, explore_graph(
        graph, solve(graph, exact=True), {"hold first": lambda s, o: len(o) - 1}
    )


@pytest.fixture(scope="module")
def ur_one():
    graph = Ur("finkel", pieces=1).build_graph()
    agents = {name: make_agent(name, ruleset=graph.rules.ruleset) for name in ("first", "last")}
    return graph, explore_graph(graph, None, agents)


def test_reach_is_propagate_under_every_policy(jackpot_graph, jackpot_data, jackpot_policies):
    assert jackpot_data.policies == ("optimal", *jackpot_policies)
    assert jackpot_data.n_states == jackpot_graph.n_states == 512
    for p, name in enumerate(jackpot_data.policies[1:], start=1):
        expected = propagate(jackpot_graph, jackpot_policies[name]).reach_probability
        np.testing.assert_allclose(jackpot_data.reach[p], expected, rtol=0, atol=1e-15)
    # Jackpot: 7.99874 % optimal; HiLo exactly 660001525/8264970432.
    assert jackpot_data.wins[0] == pytest.approx(0.0799874, abs=5e-9)
    hilo = jackpot_data.wins[jackpot_data.policies.index("hilo")]
    assert hilo == pytest.approx(660001525 / 8264970432, abs=1e-15)
    assert jackpot_data.values[jackpot_data.start] == pytest.approx(jackpot_data.wins[0])


def test_edge_probabilities_sum_to_the_probability_of_leaving(jackpot_data, piglet, ur_one):
    for data in (jackpot_data, piglet[1], ur_one[1]):
        for p in range(len(data.policies)):
            out = np.bincount(
                data.edge_source, weights=data.edge_probability[p], minlength=data.n_states
            )
            np.testing.assert_allclose(out, data.leave[p], rtol=0, atol=1e-12)
            assert (data.leave[p][data.terminal] == 0).all()


def test_every_game_ends_somewhere(jackpot_data):
    # Reach times the chance of ending there (terminal, or stuck) sums to one per policy.
    for p in range(len(jackpot_data.policies)):
        ends = np.where(jackpot_data.terminal, 1.0, 1.0 - jackpot_data.leave[p])
        assert float(jackpot_data.reach[p] @ ends) == pytest.approx(1.0, abs=1e-12)


def test_cyclic_game_values_and_best_moves(piglet):
    graph, data = piglet
    assert data.policies == ("optimal", "hold first")
    assert sum(state in PIGLET for state in map(graph.states.__getitem__, data.states)) == 3
    for i, number in enumerate(data.states):
        state = graph.states[number]
        if state in PIGLET:
            assert data.values[i] == pytest.approx(float(PIGLET[state]), abs=1e-12)
    # At the start heads offers continue (0) or hold (1); optimal play continues (4/7 > 8/15),
    # tails forces move 0 as well: one move, on every throw.
    assert data.best_moves[data.start] == [("0", 1.0)]
    start_hold = data.labels.index(str((0, 1, 0)))
    assert data.best_moves[start_hold] == [("0", 1.0)]


def test_best_move_shares(jackpot_data):
    for moves, terminal in zip(jackpot_data.best_moves, jackpot_data.terminal):
        if terminal:
            assert moves == []
            continue
        shares = [share for _, share in moves]
        assert shares == sorted(shares, reverse=True) and sum(shares) <= 1 + 1e-12
    # From START every roll flips something; the most likely optimal flip is cell 1 (9/36).
    move, share = jackpot_data.best_moves[jackpot_data.start][0]
    assert (move, Fraction(share).limit_denominator(36)) == ("1", Fraction(9, 36))


def test_forward_edges_form_a_dag(ur_one):
    graph, data = ur_one
    assert not graph.is_acyclic()
    forward = data.edge_forward & (data.edge_source != data.edge_target)
    n = data.n_states
    adjacency = csr_matrix(
        (np.ones(forward.sum()), (data.edge_source[forward], data.edge_target[forward])),
        shape=(n, n),
    )
    count, _ = connected_components(adjacency, directed=True, connection="strong")
    assert count == n
    assert forward.sum() > data.n_edges / 3


def test_size_guard_and_min_reach():
    graph = Ur("finkel", pieces=2).build_graph()
    assert graph.n_states > MAX_STATES
    with pytest.raises(InvalidArgumentError, match="at most 5,000.*smaller game"):
        explore_graph(graph)
    solution = solve(graph)
    data = explore_graph(graph, solution, min_reach=0.01)
    assert 0 < data.n_states < MAX_STATES and data.total_states == graph.n_states
    assert (data.reach.max(axis=0) >= 0.01).all()
    assert "of 12,870 states (reach >= 0.01)" in repr(data)
    reach = propagate(graph, solution.policy).reach_probability
    assert data.n_states == int((reach >= 0.01).sum()) + (reach[graph.start] < 0.01)
    with pytest.raises(InvalidArgumentError, match="raise min_reach"):
        explore_graph(graph, solution, min_reach=0.001, max_states=1000)
    with pytest.raises(InvalidArgumentError, match="min_reach"):
        explore_graph(graph, solution, min_reach=2)


def test_supersix_keeps_unreachable_positions():
    graph = build(SuperSix(pegs=8))
    data = explore_graph(graph)
    assert isinstance(data, Exploration) and data.n_states == 84
    # Every (b, c, o) is a root; the ones the start cannot reach are drawn with reach 0.
    # The start comes back (expected visits above one).
    assert (data.reach[0] == 0).sum() > 0 and data.reach[0, data.start] > 1
    assert repr(data) == "Exploration('supersix': 84 states, 281 edges, policies optimal)"
