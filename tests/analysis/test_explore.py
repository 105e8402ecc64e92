"""The explorer's data: reach, values, moves, groups and paths, cross-checked."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from gamegraph import build, solve
from gamegraph.analysis import Exploration, explore_graph
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.jackpot import Jackpot
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


def test_values_satisfy_the_bellman_equation(jackpot_data, piglet, ur_one):
    # Each state's value is the chance-weighted best option after each throw.
    for data in (jackpot_data, piglet[1], ur_one[1]):
        q = data.option_values()
        for i in np.flatnonzero(~data.terminal):
            total = 0.0
            for k in range(data.outcome_ptr[i], data.outcome_ptr[i + 1]):
                options = q[data.option_ptr[k] : data.option_ptr[k + 1]]
                best = options.max() if len(options) else 0.0  # no move: the game is lost
                total += data.outcome_weight[k] / data.denominator * best
            assert total == pytest.approx(data.values[i], abs=1e-9)
        # The optimal policy picks a best option after every throw.
        for k in np.flatnonzero(data.choice[0] >= 0):
            options = q[data.option_ptr[k] : data.option_ptr[k + 1]]
            assert options[data.choice[0, k]] == pytest.approx(options.max(), abs=1e-12)


def test_groups_summarise_every_state(jackpot_data, ur_one):
    data = jackpot_data
    assert data.group_names == [f"{k} flipped" for k in range(10)]
    assert data.group_states.tolist() == [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]
    np.testing.assert_allclose(data.group_reach.sum(axis=1), data.reach.sum(axis=1), atol=1e-12)
    # Every game ends somewhere, under every policy.
    np.testing.assert_allclose(data.group_ends.sum(axis=1), 1.0, atol=1e-12)
    # One player: what a policy gives away, group by group, adds up to what it loses
    # against the optimum (the performance-difference identity); the optimum gives nothing.
    np.testing.assert_allclose(data.group_given.sum(axis=1), data.wins[0] - data.wins, atol=1e-12)
    assert (data.group_given[0] == 0).all() and (data.group_given >= 0).all()
    low, high = data.group_value.T
    for g in range(10):
        values = data.values[data.group == g]
        assert (low[g], high[g]) == (values.min(), values.max())
    graph, ur = ur_one
    assert ur.group_names[0] == "borne off 0-0" and ur.group_states.sum() == graph.n_states


def test_caller_groups(toys):
    graph = build(toys.Piglet())
    data = explore_graph(graph, groups=lambda state: "over" if state == "won" else "playing")
    assert data.group_names == ["over", "playing"]
    assert data.group_states.tolist() == [1, graph.n_states - 1]
    assert data.group_states.sum() == graph.n_states
    with pytest.raises(InvalidArgumentError, match="groups has 2 entries; the graph has"):
        explore_graph(graph, groups=["a", "b"])


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
    assert data.best_moves(data.start) == [("0", 1.0)]
    assert data.best_moves(data.labels.index(str((0, 1, 0)))) == [("0", 1.0)]


def test_best_move_shares(jackpot_data):
    for i in range(jackpot_data.n_states):
        moves = jackpot_data.best_moves(i)
        if jackpot_data.terminal[i]:
            assert moves == []
            continue
        shares = [share for _, share in moves]
        assert shares == sorted(shares, reverse=True) and sum(shares) <= 1 + 1e-12
    # From START every roll flips something; the most likely optimal flip is cell 1 (9/36).
    move, share = jackpot_data.best_moves(jackpot_data.start)[0]
    assert (move, Fraction(share).limit_denominator(36)) == ("1", Fraction(9, 36))


def test_most_likely_path_is_the_most_likely_of_all_paths():
    # Jackpot with 4 cells is a DAG: enumerate every path to WIN under the optimal policy.
    graph = build(Jackpot(cells=4))
    data = explore_graph(graph)
    win = data.labels.index("WIN")
    chance = {}  # (state, next state) -> chance of that move under the optimal policy
    for i in range(data.n_states):
        for k in range(data.outcome_ptr[i], data.outcome_ptr[i + 1]):
            pick = data.choice[0, k]
            if pick >= 0:
                t = int(data.option_target[data.option_ptr[k] + pick])
                chance[i, t] = chance.get((i, t), 0) + data.outcome_weight[k] / data.denominator

    def best(i):
        if i == win:
            return 1.0
        return max((p * best(t) for (s, t), p in chance.items() if s == i), default=0.0)

    steps = data.path(win)
    assert steps[0] == data.start and steps[-1] == win
    found = np.prod([chance[a, b] for a, b in itertools.pairwise(steps)])
    assert found == pytest.approx(best(data.start), rel=1e-12)
    assert data.path(data.start) == [data.start]


def test_a_page_holds_the_most_reached_states(piglet):
    graph = Ur("finkel", pieces=2).build_graph()
    solution = solve(graph)
    data = explore_graph(graph, solution, min_reach=0.01)
    reach = propagate(graph, solution.policy).reach_probability
    assert data.n_states == int((reach >= 0.01).sum()) + (reach[graph.start] < 0.01)
    assert data.total_states == graph.n_states == 12_870 and data.group_states.sum() == 12_870
    assert "of 12,870 states" in repr(data)
    # Options that lead off the page keep their target's value.
    outside = data.option_target < 0
    assert outside.any()
    numbers = graph.option_target[_kept_options(graph, data.states)][outside]
    np.testing.assert_array_equal(data.outside_value, solution.values[numbers])
    capped = explore_graph(graph, solution, max_states=1000)
    assert capped.n_states == 1000 and capped.states[capped.start] == graph.start
    expected = np.sort(np.argsort(-np.asarray(reach), kind="stable")[:1000])
    np.testing.assert_array_equal(capped.states, expected)  # the start is among them
    with pytest.raises(InvalidArgumentError, match="min_reach"):
        explore_graph(graph, solution, min_reach=2)


def _kept_options(graph, states):
    options = []
    for i in states:
        for k in graph.outcomes_of(int(i)):
            options.extend(graph.options_of(k))
    return np.array(options)


def test_supersix_keeps_unreachable_positions():
    graph = build(SuperSix(pegs=8))
    data = explore_graph(graph)
    assert isinstance(data, Exploration) and data.n_states == 84
    # Every (b, c, o) is a root; the ones the start cannot reach have reach 0.
    # The start comes back (expected visits above one).
    assert (data.reach[0] == 0).sum() > 0 and data.reach[0, data.start] > 1
    # Super Six runs down its layers: the overview starts at the start's end, as the view.
    assert data.group_names[0] == "8 pegs in play" and data.group_names[-1] == "0 pegs in play"
    assert data.group[data.start] == 0 and data.layers[data.start] == 0
    assert repr(data) == "Exploration('supersix': 84 states in 8 groups, policies optimal)"


def test_a_networkx_graph_names_its_unnamed_moves():
    import networkx as nx

    from gamegraph.interchange import from_networkx

    g = nx.DiGraph()
    g.add_node("won", value=1)
    g.add_node("lost", value=0)
    g.add_edges_from([("a", "won"), ("a", "b"), ("b", "won"), ("b", "lost")], probability=0.5)
    data = explore_graph(from_networkx(g, start="a"))
    assert data.best_moves(data.start) == [("go", 1.0)]  # not "-1"
    assert data.values[data.start] == pytest.approx(0.75)
