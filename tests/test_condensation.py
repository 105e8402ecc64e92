"""Tests for gamegraph.condensation: strongly connected components and solving levels."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from gamegraph import build
from gamegraph.condensation import condense
from gamegraph.games.jackpot import Jackpot


def rules_digraph(graph) -> nx.DiGraph:
    """The move graph rebuilt from the rules themselves, numbered like ``graph``."""
    rules = graph.rules
    g = nx.DiGraph()
    g.add_nodes_from(range(graph.n_states))
    for i, state in enumerate(graph.states):
        if rules.terminal_value(state) is None:
            for outcome in rules.outcomes(state):
                for option in outcome.options:
                    g.add_edge(i, graph.index[option.target])
    return g


def level_of(condensation, n) -> np.ndarray:
    out = np.full(n, -1)
    for h, states in enumerate(condensation.levels):
        out[states] = h
    return out


def check_against_networkx(graph):
    """Components, cyclic flags and levels agree with an independent computation."""
    c = graph.condensation
    n = graph.n_states
    g = rules_digraph(graph)
    sccs = list(nx.strongly_connected_components(g))
    assert c.n_components == len(sccs)
    for scc in sccs:
        members = sorted(scc)
        assert len(set(c.component[members].tolist())) == 1
        cyclic = len(members) > 1 or g.has_edge(members[0], members[0])
        assert bool(c.cyclic[c.component[members[0]]]) == cyclic
    # levels: a partition of the states ...
    everything = np.concatenate(c.levels)
    assert sorted(everything.tolist()) == list(range(n))
    # ... where a component's level is its longest path to a sink of the component DAG
    dag = nx.condensation(g, scc=sccs)
    height = {}
    for node in reversed(list(nx.topological_sort(dag))):
        succ = list(dag.successors(node))
        height[node] = 1 + max(height[s] for s in succ) if succ else 0
    levels = level_of(c, n)
    for node, members in dag.nodes(data="members"):
        for i in members:
            assert levels[i] == height[node]
    # and every move leaves a component downwards, or stays inside it
    for u, v in g.edges:
        if c.component[u] == c.component[v]:
            assert levels[u] == levels[v]
        else:
            assert levels[u] > levels[v]
    assert not len(c.levels) or len(c.levels[-1]) > 0


def test_jackpot_is_a_dag_levelled_by_cells_still_down(jackpot_graph):
    c = jackpot_graph.condensation
    assert c.n_components == 512
    assert not c.cyclic.any()
    assert jackpot_graph.is_acyclic()
    assert [len(level) for level in c.levels] == [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]
    for h, states in enumerate(c.levels):
        assert (jackpot_graph.layers[states] == 9 - h).all()


def test_small_jackpot_matches_networkx():
    check_against_networkx(build(Jackpot(cells=4)))


def test_ur_position_a_is_a_self_loop(toys):
    g = build(toys.UrEndgameA())
    c = g.condensation
    a, won = g.state_number("A"), g.state_number("won")
    assert c.cyclic[c.component[a]] and not c.cyclic[c.component[won]]
    assert [lv.tolist() for lv in c.levels] == [[won], [a]]
    assert not g.is_acyclic()


def test_ur_position_b_couples_green_and_red(toys):
    g = build(toys.UrEndgameB())
    c = g.condensation
    green, red, a, won = (g.state_number(s) for s in ("G", "R", "A", "won"))
    assert c.component[green] == c.component[red] != c.component[a]
    assert c.cyclic[c.component[green]] and c.cyclic[c.component[a]]
    assert c.n_components == 3
    assert [sorted(lv.tolist()) for lv in c.levels] == [[won], [a], sorted([green, red])]
    check_against_networkx(g)


def test_cyclic_cases_match_networkx(cyclic_case):
    graph, _ = cyclic_case
    check_against_networkx(graph)
    assert not graph.is_acyclic()


@pytest.mark.parametrize("seed", range(12))
def test_random_games_match_networkx(toys, seed):
    graph = build(toys.RandomGame(seed, size=14, back=0.15))
    check_against_networkx(graph)


def test_random_games_cover_the_interesting_shapes(toys):
    """The random graphs above really contain multi-state cycles, self-loops and
    acyclic non-terminal states, so the checks are not vacuous."""
    multi = loops = single = 0
    for seed in range(12):
        g = build(toys.RandomGame(seed, size=14, back=0.15))
        c = g.condensation
        sizes = np.bincount(c.component)
        multi += int((sizes > 1).sum())
        loops += int((c.cyclic & (sizes == 1)).sum())
        single += int((~c.cyclic[c.component] & ~g.terminal).sum())
    assert multi > 0 and loops > 0 and single > 0


def test_condensation_is_computed_once(jackpot_graph):
    assert jackpot_graph.condensation is jackpot_graph.condensation
    again = condense(jackpot_graph)
    assert np.array_equal(again.component, jackpot_graph.condensation.component)


def test_terminal_start_is_one_level(toys):
    class Over(toys.Duel):
        def terminal_value(self, state):
            return 1

    c = build(Over()).condensation
    assert [lv.tolist() for lv in c.levels] == [[0]] and not c.cyclic.any()
