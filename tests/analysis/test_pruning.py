"""gamegraph.analysis.pruning: flows, pruned selections and the price of each decision.

The value-gap identity is checked exactly: the costs of HiLo's decisions (reach x chance x
loss) add up to the optimum's start value less HiLo's, 69884645/528958107648.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from gamegraph import Policy, build, evaluate
from gamegraph.analysis import (
    compare,
    decision_costs,
    edge_flow,
    likely_paths,
    neighbourhood,
    outcome_costs,
    reach_above,
)
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.jackpot import AGENTS, Jackpot
from gamegraph.propagate import propagate

HILO_GAP = Fraction(69884645, 528958107648)


@pytest.fixture(scope="module")
def hilo(jackpot_graph):
    policy = Policy.from_agent(jackpot_graph, AGENTS["hilo"], name="hilo")
    return policy, policy.chain(jackpot_graph), propagate(jackpot_graph, policy, exact=True)


def test_hilo_decision_costs_add_up_to_the_value_gap_exactly(jackpot_graph, jackpot_optimum, hilo):
    policy, _, reach = hilo
    comparison = compare(jackpot_optimum, policy)
    gap = jackpot_optimum.start_value - evaluate(jackpot_graph, policy, exact=True).start_value
    assert gap == HILO_GAP
    assert sum(outcome_costs(comparison, reach)) == HILO_GAP
    rows = decision_costs(comparison, reach)
    assert sum(row.cost for row in rows) == HILO_GAP
    assert all(isinstance(row.cost, Fraction) and row.cost > 0 for row in rows)
    # 173 strictly worse outcomes (docs/games/jackpot.md) at 67 positions, in 77 groups.
    assert sum(len(row.outcomes) for row in rows) == 173
    assert len({row.state for row in rows}) == 67 and len(rows) == 77
    costs = [row.cost for row in rows]
    assert costs == sorted(costs, reverse=True)
    # Each row: its outcomes' reach x chance x loss, the chance the sum of theirs.
    graph = jackpot_graph
    for row in rows[:5]:
        assert row.reach == reach.reach_probability[row.state]
        assert row.probability == sum(graph.probability(k) for k in row.outcomes)
        assert row.cost == sum(
            row.reach * graph.probability(k) * comparison.loss[k] for k in row.outcomes
        )
    top = rows[0]  # cell 1 up: HiLo flips 2 where 3 is better, 4 rolls in 36
    assert (graph.states[top.state], top.taken_move, top.better_move) == (1, 2, 3)
    assert top.probability == Fraction(4, 36) and graph.states[top.taken_target] == 3


def test_the_optimum_has_no_costly_decision(jackpot_optimum):
    graph = jackpot_optimum.graph
    reach = propagate(graph, jackpot_optimum.policy, exact=True)
    assert decision_costs(compare(jackpot_optimum, jackpot_optimum.policy), reach) == []


def test_costs_need_the_compared_policy_s_reach(jackpot_graph, jackpot_optimum, hilo):
    policy, _, _ = hilo
    other = propagate(jackpot_graph, Policy.from_agent(jackpot_graph, AGENTS["min"]))
    with pytest.raises(InvalidArgumentError, match="propagation of the compared policy"):
        outcome_costs(compare(jackpot_optimum, policy), other)


def test_edge_flow_conserves_probability(jackpot_graph, hilo):
    """Into every state flows its reach; out of it, its reach less the chance of being stuck."""
    _, chain, reach = hilo
    flow = edge_flow(chain, reach)
    r = reach.reach_probability
    inflow = [Fraction(0)] * jackpot_graph.n_states
    outflow = [Fraction(0)] * jackpot_graph.n_states
    for e, f in enumerate(flow):
        inflow[chain.edge_target[e]] += f
        outflow[chain.edge_source[e]] += f
    start = jackpot_graph.start
    assert all(inflow[i] == r[i] for i in range(jackpot_graph.n_states) if i != start)
    stuck = reach.stuck[0] + reach.stuck[1]
    live = ~jackpot_graph.terminal
    assert all(outflow[i] + stuck[i] == r[i] for i in np.flatnonzero(live))
    floats = edge_flow(chain, propagate(jackpot_graph, chain.policy))
    assert np.allclose(floats, np.array(flow, dtype=float))


def all_games(chain):
    """Every complete game by brute force: (probability, states), recursively."""
    graph = chain.graph
    d = chain.denominator

    def walk(s, p, path):
        if graph.terminal[s]:
            yield p, path
            return
        if chain.stuck_weight[s]:
            yield p * Fraction(int(chain.stuck_weight[s]), d), path
        for e in range(chain.edge_ptr[s], chain.edge_ptr[s + 1]):
            t = int(chain.edge_target[e])
            yield from walk(t, p * Fraction(int(chain.edge_weight[e]), d), path + (t,))

    return list(walk(graph.start, Fraction(1), (graph.start,)))


@pytest.mark.parametrize("cells, agent", [(4, "max"), (5, "hilo"), (5, "min")])
def test_likely_paths_match_brute_force(cells, agent):
    graph = build(Jackpot(cells=cells))
    chain = Policy.from_agent(graph, AGENTS[agent]).chain(graph)
    games = all_games(chain)
    assert sum(p for p, _ in games) == 1
    probabilities = sorted((p for p, _ in games), reverse=True)
    for k in (1, 5, 25):
        selection = likely_paths(chain, k)
        assert [q.probability for q in selection.paths] == probabilities[:k]
        assert {q.states for q in selection.paths} <= {path for _, path in games}
        for q in selection.paths:
            assert q.won == bool(graph.terminal[q.states[-1]])
            assert [int(chain.edge_target[e]) for e in q.edges] == list(q.states[1:])
        assert set(selection.states.tolist()) == {s for q in selection.paths for s in q.states}
    everything = likely_paths(chain, len(games))
    assert sum(q.probability for q in everything.paths) == 1
    assert "100 % of all games" in everything.caption


def test_likely_paths_on_the_full_board(hilo):
    _, chain, reach = hilo
    selection = likely_paths(chain, 10)
    assert len(selection.paths) == 10
    first = selection.paths[0]
    # HiLo flips 1 at START on 9 rolls of 36 (tests/cli); the likeliest game then sticks.
    assert first.probability == max(q.probability for q in selection.paths)
    assert all(p.probability >= q.probability for p, q in itertools.pairwise(selection.paths))
    with pytest.raises(InvalidArgumentError, match="paths must be a whole number from 1 to 1,000"):
        likely_paths(chain, 0)


def test_reach_above_keeps_exactly_the_frequent_positions(jackpot_graph, hilo):
    _, chain, reach = hilo
    r = reach.reach_probability
    for threshold in (0.5, 0.05, 0.001):
        selection = reach_above(chain, reach, threshold)
        assert set(selection.states.tolist()) == {i for i in range(512) if r[i] >= threshold}
        kept = set(selection.states.tolist())
        expected = {
            e
            for e in range(chain.n_edges)
            if chain.edge_source[e] in kept and chain.edge_target[e] in kept
        }
        assert set(selection.edges.tolist()) == expected
    assert reach_above(chain, reach, 1).states.tolist() == [jackpot_graph.start]
    for bad in (0, 1.5, -1, "x", True):
        with pytest.raises(InvalidArgumentError, match=r"probability in \(0, 1\]"):
            reach_above(chain, reach, bad)


def test_neighbourhood_matches_networkx(jackpot_graph, hilo):
    import networkx as nx

    from gamegraph.interchange import to_networkx

    _, chain, _ = hilo
    digraph = to_networkx(chain)  # nodes are board indices
    graph = jackpot_graph
    for board, depth in ((164, 1), (164, 2), (0, 2), (511, 1)):
        i = graph.state_number(board)
        selection = neighbourhood(chain, i, depth)
        ahead = nx.single_source_shortest_path_length(digraph, board, cutoff=depth)
        behind = nx.single_source_shortest_path_length(digraph.reverse(), board, cutoff=depth)
        assert {graph.states[s] for s in selection.states} == set(ahead) | set(behind)
        assert selection.focus == i
    with pytest.raises(InvalidArgumentError, match="depth"):
        neighbourhood(chain, 0, 0)
    with pytest.raises(InvalidArgumentError, match="state"):
        neighbourhood(chain, 512, 1)
