"""gamegraph.interchange: networkx in and out."""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from gamegraph import InvalidArgumentError, Policy, build, evaluate, solve
from gamegraph.games.jackpot import AGENTS, Jackpot
from gamegraph.interchange import from_networkx, to_networkx

HILO_WIN = Fraction(660001525, 8264970432)


@pytest.fixture(scope="module")
def jackpot():
    graph = build(Jackpot())
    return graph, Policy.from_agent(graph, AGENTS["hilo"], name="hilo")


@pytest.fixture(scope="module")
def jackpot_nx(jackpot):
    return to_networkx(jackpot[0])


# ---------------------------------------------------------------------------
# StateGraph -> DiGraph
# ---------------------------------------------------------------------------
def test_state_graph_nodes_are_board_indices(jackpot_nx):
    g = jackpot_nx
    assert g.number_of_nodes() == 512 and set(g) == set(range(512))
    assert g.nodes[0]["label"] == "START" and g.nodes[511]["label"] == "WIN"
    # board 10: cells 2 and 4 up, the others open
    assert g.nodes[10]["label"] == "1 3 5 6 7 8 9" and g.nodes[10]["layer"] == 2
    assert g.graph["start"] == 0 and g.graph["name"] == "jackpot"
    terminal = [n for n, d in g.nodes(data=True) if d["terminal"]]
    assert terminal == [511] and g.nodes[511]["value"] == 1
    assert "value" not in g.nodes[0]
    assert [sum(1 for n in g if g.nodes[n]["layer"] == k) for k in range(10)] == [
        1,
        9,
        36,
        84,
        126,
        126,
        84,
        36,
        9,
        1,
    ]


def test_state_graph_edges_flip_one_cell(jackpot_nx):
    g = jackpot_nx
    for s, t, data in g.edges(data=True):
        assert s & t == s and bin(t - s).count("1") == 1
        assert data["moves"] == [(t - s).bit_length()]  # the cell flipped
        assert data["passes"] is False
    # Every down cell can be flipped: 9 - k edges out of a position with k cells up.
    assert all(g.out_degree(n) == 9 - bin(n).count("1") for n in g)


def test_first_move_probabilities(jackpot_nx):
    # Chance that a roll offers cell c at the start. Cells 1..6: a die shows c in 11 of 36
    # rolls, and c - 1 more rolls sum to c without showing it (e.g. cell 4: (1,3), (3,1),
    # (2,2)). Cells 7..9 only as a sum: 6, 5, 4 rolls. The reference README's table says
    # 12..17 for cells 1..6 because it adds die A and die B separately, counting doubles
    # such as {4,4} twice.
    expected = [11, 12, 13, 14, 15, 16, 6, 5, 4]
    got = [jackpot_nx.edges[0, 1 << (c - 1)]["probability"] for c in range(1, 10)]
    assert got == [Fraction(n, 36) for n in expected]
    assert all(isinstance(p, Fraction) for p in got)


def test_to_networkx_rejects_other_objects():
    with pytest.raises(InvalidArgumentError, match="StateGraph or MarkovChain, not list"):
        to_networkx([])


# ---------------------------------------------------------------------------
# MarkovChain -> DiGraph
# ---------------------------------------------------------------------------
def test_chain_probabilities_and_stuck_sum_to_one(jackpot):
    graph, policy = jackpot
    g = to_networkx(policy.chain(graph))
    assert g.graph["policy"] == "hilo"
    for n, data in g.nodes(data=True):
        out = sum((d["probability"] for _, _, d in g.out_edges(n, data=True)), Fraction(0))
        if data["terminal"]:
            assert out == 0 and data["stuck"] == 0
        else:
            assert out + data["stuck"] == 1, n
    # HiLo at the start (worked out by hand in test_cli): never stuck; 9 in 4 rolls, 1 in 9.
    assert g.nodes[0]["stuck"] == 0
    assert g.edges[0, 256]["probability"] == Fraction(4, 36)
    assert g.edges[0, 1]["probability"] == Fraction(9, 36)
    assert g.edges[0, 256]["move"] == 9
    # One cell left down (cell c): stuck unless a roll offers it.
    assert g.nodes[511 - 256]["stuck"] == Fraction(32, 36)
    assert g.nodes[511 - 1]["stuck"] == Fraction(25, 36)


def test_chain_round_trip_solves_to_the_policy_value(jackpot):
    graph, policy = jackpot
    imported = from_networkx(to_networkx(policy.chain(graph)))
    assert imported.n_states == 512
    assert imported.states[imported.start] == 0
    solution = solve(imported, exact=True)
    assert solution.start_value == evaluate(graph, policy, exact=True).start_value == HILO_WIN
    # Every position keeps its value, not only the start.
    direct = evaluate(graph, policy, exact=True)
    for i, state in enumerate(imported.states):
        assert solution.values[i] == direct.value(state)


def test_state_graph_edges_alone_do_not_import_as_a_game(jackpot_nx):
    # The edges of a StateGraph export give the chance each move is *offered*; offers
    # overlap, so the probabilities out of a position sum to more than one: without the
    # nodes' outcomes the export cannot be read back.
    g = jackpot_nx.copy()
    del g.graph["gamegraph"]  # the mark of an export
    for _, data in g.nodes(data=True):
        data.pop("outcomes", None)
    assert sum(d["probability"] for _, _, d in g.out_edges(0, data=True)) > 1
    with pytest.raises(InvalidArgumentError, match="sum to more than 1"):
        from_networkx(g)


# ---------------------------------------------------------------------------
# hand-made DiGraphs
# ---------------------------------------------------------------------------
def test_coin_game_four_sevenths():
    # Win with 1/4 on your throw; otherwise the turn passes to the opponent, who is then
    # in the same position: v = 1/4 + 3/4 (1 - v), v = 4/7.
    g = nx.DiGraph()
    g.add_edge("play", "won", probability="1/4")
    g.add_edge("play", "play", probability=Fraction(3, 4), passes=True)
    g.nodes["won"]["value"] = 1
    graph = from_networkx(g, "play")
    assert solve(graph, exact=True).start_value == Fraction(4, 7)
    assert graph.n_states == 2 and not graph.is_acyclic()


def choice_graph():
    # At s a throw either (1/2) offers a choice between a (terminal, worth 1/3) and b
    # (where 1/2 wins), or (1/2) goes to c (terminal, worth 1). Best: take b at the choice,
    # v(s) = 1/2 * 1/2 + 1/2 * 1 = 3/4; taking a would give 1/2 * 1/3 + 1/2 = 2/3.
    g = nx.DiGraph(name="choice")
    g.add_edge("s", "a", probability="1/2", outcome="x", move=0)
    g.add_edge("s", "b", probability="1/2", outcome="x", move=1)
    g.add_edge("s", "c", probability="1/2", move=2)
    g.add_edge("b", "win", probability="1/2")
    g.nodes["a"]["value"] = Fraction(1, 3)
    g.nodes["c"]["value"] = 1
    g.nodes["win"]["value"] = 1
    g.graph["start"] = "s"
    return g


def test_outcome_group_is_a_real_choice():
    graph = from_networkx(choice_graph())
    assert graph.rules.name == "choice"
    s = graph.state_number("s")
    outcomes = list(graph.outcomes_of(s))
    assert sorted(len(graph.options_of(k)) for k in outcomes) == [1, 2]
    solution = solve(graph, exact=True)
    assert solution.start_value == Fraction(3, 4)
    assert solution.value("b") == Fraction(1, 2)
    # The optimal policy picks b; the other choice is worth 2/3.
    choice = next(k for k in outcomes if len(graph.options_of(k)) == 2)
    picked = graph.option_target[graph.option_ptr[choice] + solution.policy.choice[choice]]
    assert graph.states[picked] == "b"
    take_a = solution.policy.choice.copy()
    take_a[choice] = [graph.states[graph.option_target[j]] for j in graph.options_of(choice)].index(
        "a"
    )
    assert evaluate(graph, Policy(take_a), exact=True).start_value == Fraction(2, 3)


def test_missing_probability_is_being_stuck():
    # b wins with 1/2 and is stuck (loses) otherwise.
    graph = from_networkx(choice_graph())
    b = graph.state_number("b")
    weights = sorted(graph.probability(k) for k in graph.outcomes_of(b))
    assert weights == [Fraction(1, 2), Fraction(1, 2)]
    assert sorted(len(graph.options_of(k)) for k in graph.outcomes_of(b)) == [0, 1]


@pytest.mark.parametrize(
    "p, exact",
    [
        (0.25, Fraction(1, 4)),
        (0.1, Fraction(1, 10)),
        (np.float64(0.3), Fraction(3, 10)),
        (np.int64(1), Fraction(1)),
        ("0.2", Fraction(1, 5)),
        ("1/3", Fraction(1, 3)),
    ],
)
def test_probabilities_are_read_exactly(p, exact):
    # A float is read as the decimal it prints as: 0.1 is 1/10, not 3602879701896397/2**55.
    g = nx.DiGraph()
    g.add_edge("s", "won", probability=p)
    g.nodes["won"]["value"] = 1
    value = solve(from_networkx(g, "s"), exact=True).start_value
    assert value == exact and isinstance(value, Fraction)


def bad(**edge):
    g = nx.DiGraph()
    g.add_edge("s", "t", **edge)
    return g


@pytest.mark.parametrize(
    "g, start, message",
    [
        (bad(), "s", "edge 's' -> 't' has no 'probability'"),
        (bad(probability=1.5), "s", "probability 3/2, outside \\(0, 1\\]"),
        (bad(probability="5/4"), "s", "outside \\(0, 1\\]"),
        (bad(probability=0), "s", "outside \\(0, 1\\]"),
        (bad(probability=-0.5), "s", "outside \\(0, 1\\]"),
        (bad(probability="lots"), "s", "'lots' is not a number"),
        (bad(probability=float("nan")), "s", "nan is not a finite number"),
        (bad(probability=None), "s", "None is not a number"),
        (bad(probability="1/2"), "nowhere", "start node 'nowhere' is not in the graph"),
        (bad(probability="1/2"), None, "start node None is not in the graph"),
    ],
)
def test_bad_graphs(g, start, message):
    with pytest.raises(InvalidArgumentError, match=message):
        from_networkx(g, start)


def test_probabilities_summing_over_one():
    g = nx.DiGraph()
    g.add_edge("s", "a", probability="2/3")
    g.add_edge("s", "b", probability="2/3")
    with pytest.raises(InvalidArgumentError, match="out of 's' sum to more than 1"):
        from_networkx(g, "s")
    # The same two edges as alternatives of one throw are fine: a choice worth 2/3.
    for t in "ab":
        g.edges["s", t]["outcome"] = "throw"
    g.nodes["a"]["value"] = 1
    assert solve(from_networkx(g, "s"), exact=True).start_value == Fraction(2, 3)


def test_only_digraphs_are_read():
    with pytest.raises(InvalidArgumentError, match="takes a networkx DiGraph, not Graph"):
        from_networkx(nx.Graph([("s", "t")]), "s")
    with pytest.raises(InvalidArgumentError, match="not MultiDiGraph"):
        from_networkx(nx.MultiDiGraph([("s", "t"), ("s", "t")]), "s")


def test_outcome_edges_must_agree_on_probability():
    g = nx.DiGraph()
    g.add_edge("s", "a", probability="1/2", outcome=1)
    g.add_edge("s", "b", probability="1/3", outcome=1)
    with pytest.raises(InvalidArgumentError, match="outcome 1 at 's' disagree"):
        from_networkx(g, "s")
