"""gamegraph.analysis.views: the parts of any game a diagram draws, and the diagram guard.

Counts are exact on Jackpot (512 positions, every one reached by the optimum) and on Pig to
20 (6,214 states, of which optimal play reaches 38: from 0-0 the first player rolls until
the goal or a bust).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from gamegraph import build, solve
from gamegraph.analysis.views import (
    around,
    best_paths,
    likely,
    ranking_edges,
    selection,
    threshold,
)
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.pig import Pig
from gamegraph.games.race import HomeRun


@pytest.fixture(scope="module")
def jackpot():
    graph = build(Jackpot())
    return graph, solve(graph).policy


@pytest.fixture(scope="module")
def pig():
    graph = build(Pig(goal=20))
    return graph, solve(graph).policy


def test_likely_keeps_the_likeliest_states_as_one_tree_from_the_start(jackpot):
    graph, policy = jackpot
    kept = likely(graph, policy, 5)
    assert kept.dtype == np.int64 and list(kept) == sorted(kept)
    assert [graph.label(i) for i in kept] == [
        "START",
        "2 3 4 5 6 7 8 9",
        "1 3 4 5 6 7 8 9",
        "1 2 3 4 5 6 8 9",
        "1 2 3 4 5 6 7 9",
    ]
    probability, before = best_paths(graph, policy)
    # The start (1), then the optimum's likeliest first moves: 324, 216 and twice 180 of 1296.
    assert sorted(np.round(probability[kept] * 1296, 6)) == [180, 180, 216, 324, 1296]
    for limit in (1, 17, 60, 200):
        kept = set(likely(graph, policy, limit).tolist())
        assert len(kept) == limit
        assert all(before[s] in kept for s in kept if s != graph.start)


def test_likely_stops_at_what_the_policy_reaches(jackpot, pig):
    graph, policy = jackpot
    assert len(likely(graph, policy, 10_000)) == 512
    graph, policy = pig
    assert len(likely(graph, policy, 10_000)) == 38  # Pig to 20: 38 of 6,214 states


def test_likely_on_a_cyclic_game_follows_the_rolls(pig):
    graph, policy = pig
    labels = [graph.label(i) for i in likely(graph, policy, 6)]
    assert labels == [
        "roll 0-0 +0",
        "choose 0-0 +2",
        "choose 0-0 +3",
        "choose 0-0 +4",
        "choose 0-0 +5",
        "choose 0-0 +6",
    ]


def test_threshold_counts(jackpot, pig):
    graph, policy = jackpot
    assert len(threshold(graph, policy, 0.02)) == 81
    assert len(threshold(graph, policy, 0.1)) == 6
    assert len(threshold(graph, policy, 1)) == 1  # the start
    graph, policy = pig
    # Expected visits: the start of the first turn comes back after every bust.
    assert len(threshold(graph, policy, 0.02)) == 38
    assert [graph.label(i) for i in threshold(graph, policy, 1)] == ["roll 0-0 +0"]


def test_around_goes_both_ways_over_every_move_or_the_policys(jackpot, pig):
    graph, policy = jackpot
    assert len(around(graph, graph.start, 1)) == 10  # the start and its 9 first moves
    assert len(around(graph, graph.start, 2)) == 46
    assert len(around(graph, graph.start, 2, policy)) == 46
    graph, policy = pig
    two = graph.state_number(("choose", 0, 0, 2))
    assert [graph.label(i) for i in around(graph, two, 1)] == [
        "roll 0-0 +0",
        "choose 0-0 +2",
        "roll 0-0 +2",
        "roll 0-2 +0",  # holding hands the turn over
    ]
    assert "roll 0-2 +0" not in [graph.label(i) for i in around(graph, two, 1, policy)]
    assert len(around(graph, graph.start, 1)) == 24  # busts lead back to the start


def test_a_name_is_a_policy_too(jackpot):
    graph, policy = jackpot  # the optimum: "optimal" solves for it
    np.testing.assert_array_equal(likely(graph, "optimal", 30), likely(graph, policy, 30))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda g, p: likely(g, p, 0), "limit"),
        (lambda g, p: threshold(g, p, 0), "min_reach"),
        (lambda g, p: threshold(g, p, 1.5), "min_reach"),
        (lambda g, p: around(g, g.start, 0), "steps"),
        (lambda g, p: around(g, g.start, 51), "steps"),
        (lambda g, p: around(g, 10**6, 1), "state"),
        (lambda g, p: likely(g, 42, 3), "give a Policy, an agent"),
    ],
)
def test_bad_arguments_are_refused(jackpot, call, message):
    graph, policy = jackpot
    with pytest.raises(InvalidArgumentError, match=message):
        call(graph, policy)


def test_selection_keeps_the_chain_edges_among_the_states(jackpot):
    graph, policy = jackpot
    chain = policy.chain(graph)
    part = selection(chain, likely(graph, chain, 17), "the likeliest")
    assert len(part.states) == 17
    keep = np.isin(chain.edge_source, part.states) & np.isin(chain.edge_target, part.states)
    assert part.edges.tolist() == np.flatnonzero(keep).tolist()
    assert part.caption == "the likeliest"


def test_ranking_edges_frees_only_edges_on_cycles(jackpot, pig):
    graph, policy = jackpot
    chain = policy.chain(graph)
    part = selection(chain, likely(graph, chain, 100), "")
    assert ranking_edges(chain, part.states, part.edges).all()  # Jackpot has no cycle
    graph, policy = pig
    chain = policy.chain(graph)
    part = selection(chain, likely(graph, chain, 38), "")
    mask = ranking_edges(chain, part.states, part.edges)
    to_start = chain.edge_target[part.edges] == graph.start
    # Pig to 20 under optimal play is one cycle (a bust starts the turn again): the 19
    # busts and the rolls that skip a rank (a 4 from +2 to +6 beside 2 and 2) leave the
    # ranking; the 73 moves one breadth-first step on keep it.
    assert len(mask) == 118 and int(mask.sum()) == 73
    assert not mask[to_start].any() and int(to_start.sum()) == 19


# The guard on diagram size, in the library (gamegraph.renderers.dot).


def test_jackpot_full_view_is_drawn_and_larger_ones_refused_before_layout(jackpot):
    pytest.importorskip("graphviz")
    from gamegraph.analysis import policy_view
    from gamegraph.renderers.dot import DiagramTooLargeError, chain_dot, policy_dot

    graph, policy = jackpot
    diagram = policy_dot(policy_view(graph, policy), title="Jackpot")  # 512 states, 2,304 moves
    assert str(diagram).count("tooltip=") >= 512
    with pytest.raises(DiagramTooLargeError, match="likely.*threshold.*around") as caught:
        chain_dot(policy.chain(graph), max_states=300)
    assert (caught.value.states, caught.value.limit) == (512, 300)
    assert isinstance(caught.value, InvalidArgumentError)
    assert "max_states=" in str(caught.value)
    assert chain_dot(policy.chain(graph), max_states=None).source


def test_a_hairball_is_refused_by_its_moves_per_state():
    pytest.importorskip("graphviz")
    from gamegraph.renderers.dot import DiagramTooLargeError, chain_dot

    graph = build(HomeRun())
    chain = solve(graph).policy.chain(graph)  # 530 states, 2,754 moves
    with pytest.raises(DiagramTooLargeError) as caught:
        chain_dot(chain, max_states=540)
    assert caught.value.moves == 2754 and "2,700 moves" in str(caught.value)


@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_pig_to_100_is_refused_in_well_under_a_second_once_solved():
    pytest.importorskip("graphviz")
    from gamegraph.games.pig import PigBatch
    from gamegraph.renderers.dot import DiagramTooLargeError, chain_dot

    graph = build(PigBatch(goal=100))
    chain = solve(graph).policy.chain(graph)
    started = time.perf_counter()
    with pytest.raises(DiagramTooLargeError, match="172,959 states"):
        chain_dot(chain)
    assert time.perf_counter() - started < 1
