"""Tests for gamegraph.policy: Policy.from_agent, Policy.check and MarkovChain."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import InvalidArgumentError, MarkovChain, Policy, build, solve
from gamegraph.games.jackpot import AGENTS, Jackpot


@pytest.fixture(scope="module")
def small():
    return build(Jackpot(cells=4))


# ---------------------------------------------------------------------------
# from_agent
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "pick",
    [
        lambda options: -1,
        lambda options: len(options),
        lambda options: 99,
        lambda options: None,
        lambda options: 0.0,
        lambda options: 1.5,
        lambda options: True,
        lambda options: "0",
    ],
    ids=["minus-one", "one-past-the-end", "far-out", "none", "float", "fraction", "bool", "str"],
)
def test_agent_returning_a_bad_index_is_rejected(small, pick):
    with pytest.raises(InvalidArgumentError, match="picked option .* of"):
        Policy.from_agent(small, lambda state, options: pick(options), name="bad")


def test_agent_out_of_range_only_somewhere(small):
    # fine at the start, wrong once a cell is up: the error names the state
    def agent(state, options):
        return 0 if state == 0 else len(options)

    with pytest.raises(InvalidArgumentError, match="picked option"):
        Policy.from_agent(small, agent)


def test_agent_sees_the_rules_options(small):
    seen = []

    def agent(state, options):
        seen.append((state, tuple((o.target, o.move, o.passes) for o in options)))
        return np.int64(len(options) - 1)  # numpy integers are fine

    policy = Policy.from_agent(small, agent)
    assert len(seen) == int((np.diff(small.option_ptr) > 0).sum())
    for state, options in seen:
        assert all(
            target == state | 1 << (move - 1) and not passes for target, move, passes in options
        )
    assert policy.choice.dtype == np.int32
    counts = np.diff(small.option_ptr)
    assert np.array_equal(policy.choice, np.where(counts > 0, counts - 1, -1))


def test_names(small):
    assert Policy.from_agent(small, AGENTS["hilo"]).name == "agent_hilo"
    assert Policy.from_agent(small, AGENTS["hilo"], name="HiLo").name == "HiLo"
    assert solve(small).policy.name == "optimal"


# ---------------------------------------------------------------------------
# check
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("delta", [-1, 1, None], ids=["one-short", "one-over", "empty"])
def test_check_rejects_a_wrong_length(small, delta):
    delta = -small.n_outcomes if delta is None else delta
    policy = Policy(np.zeros(small.n_outcomes + delta, dtype=np.int32), name="short")
    with pytest.raises(InvalidArgumentError, match=f"{small.n_outcomes + delta} choices"):
        policy.check(small)
    with pytest.raises(InvalidArgumentError):
        policy.chain(small)


def test_check_rejects_bad_choices(small):
    good = Policy.from_agent(small, AGENTS["first"])
    good.check(small)
    counts = np.diff(small.option_ptr)
    live, dead = np.flatnonzero(counts > 0), np.flatnonzero(counts == 0)
    assert len(dead)
    for k, value in [(live[3], -1), (live[5], counts[live[5]]), (dead[0], 0)]:
        choice = good.choice.copy()
        choice[k] = value
        with pytest.raises(InvalidArgumentError, match="1 outcomes"):
            Policy(choice, name="broken").check(small)


def test_chosen_option_is_a_global_option_number(small):
    policy = Policy.from_agent(small, AGENTS["last"])
    chosen = policy.chosen_option(small)
    counts = np.diff(small.option_ptr)
    assert (chosen[counts == 0] == -1).all()
    assert np.array_equal(chosen[counts > 0], small.option_ptr[1:][counts > 0] - 1)


# ---------------------------------------------------------------------------
# MarkovChain
# ---------------------------------------------------------------------------
def check_chain(chain: MarkovChain):
    g = chain.graph
    totals = np.add.reduceat(np.append(chain.edge_weight, 0), chain.edge_ptr[:-1]) * (
        np.diff(chain.edge_ptr) > 0
    )
    assert ((totals + chain.stuck_weight)[~g.terminal] == g.denominator).all()
    assert (totals[g.terminal] == 0).all() and (chain.stuck_weight[g.terminal] == 0).all()
    assert (chain.edge_weight > 0).all()
    assert chain.edge_ptr[-1] == chain.n_edges
    # one edge per (source, target, passes), sorted by source
    triples = list(
        zip(chain.edge_source.tolist(), chain.edge_target.tolist(), chain.edge_passes.tolist())
    )
    assert len(set(triples)) == len(triples) and triples == sorted(triples)
    assert np.allclose(chain.edge_probability, chain.edge_weight / g.denominator)
    assert all(
        chain.edge_fraction(e) == F(int(chain.edge_weight[e]), g.denominator)
        for e in range(min(chain.n_edges, 50))
    )


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_jackpot_chains_keep_all_probability(jackpot_graph, jackpot_policies, agent):
    chain = jackpot_policies[agent].chain(jackpot_graph)
    check_chain(chain)
    assert chain.denominator == 36


def test_chains_of_cyclic_games(cyclic_case):
    graph, _ = cyclic_case
    check_chain(solve(graph).policy.chain(graph))


def test_hilo_first_moves_counted_from_the_dice(jackpot_graph, jackpot_policies):
    """Edge weights out of START are the number of the 36 rolls that make HiLo flip a cell."""
    expected = Counter()
    for a in range(1, 7):
        for b in range(1, 7):
            offered = [c for c in (a, b, a + b) if c <= 9]
            expected[min(offered, key=(9, 8, 7, 1, 2, 3, 4, 5, 6).index)] += 1
    chain = jackpot_policies["hilo"].chain(jackpot_graph)
    edges = range(chain.edge_ptr[0], chain.edge_ptr[1])
    got = {int(chain.edge_move[e]): chain.edge_fraction(e) * 36 for e in edges}
    assert got == expected
    assert {int(chain.edge_target[e]) for e in edges} == {
        jackpot_graph.state_number(1 << (c - 1)) for c in expected
    }
    assert chain.stuck_weight[jackpot_graph.start] == 0


def test_stuck_weight_counts_the_rolls_that_offer_nothing(jackpot_graph, jackpot_policies):
    # with cells 1..6 all up only sums 7, 8, 9 help: 36 - (6 + 5 + 4) = 21 rolls are stuck
    i = jackpot_graph.state_number(0b000111111)
    chain = jackpot_policies["min"].chain(jackpot_graph)
    assert chain.stuck_weight[i] == 21
    got = {
        int(chain.edge_move[e]): int(chain.edge_weight[e])
        for e in range(chain.edge_ptr[i], chain.edge_ptr[i + 1])
    }
    assert got == {7: 6, 8: 5, 9: 4}


def test_passing_edges_stay_apart(toys):
    graph = build(toys.UrEndgameB())
    chain = solve(graph, exact=True).policy.chain(graph)
    g, r = graph.state_number("G"), graph.state_number("R")
    edges = {
        (graph.states[chain.edge_target[e]], bool(chain.edge_passes[e])): chain.edge_fraction(e)
        for e in range(chain.edge_ptr[g], chain.edge_ptr[g + 1])
    }
    assert edges == {("won", False): F(3, 8), ("A", False): F(1, 4), ("R", True): F(3, 8)}
    assert chain.edge_source[chain.edge_ptr[r]] == r


def test_an_agent_object_and_a_choice_function_give_the_same_policy():
    """One agent protocol: Policy.from_agent takes an Agent (``name`` + ``policy``) or a
    plain choice function, and the two forms of the same player agree."""
    from gamegraph import build
    from gamegraph.games.jackpot import AGENTS, Jackpot
    from gamegraph.policy import Agent

    graph = build(Jackpot(cells=5))
    from_function = Policy.from_agent(graph, AGENTS["hilo"], name="hilo")

    class HiLo:
        name = "hilo-object"

        def policy(self, graph):
            return Policy.from_agent(graph, AGENTS["hilo"], name=self.name)

    assert isinstance(HiLo(), Agent) and not isinstance(AGENTS["hilo"], Agent)
    from_object = Policy.from_agent(graph, HiLo())
    assert from_object.name == "hilo-object"
    assert np.array_equal(from_object.choice, from_function.choice)
    assert Policy.from_agent(graph, HiLo(), name="renamed").name == "renamed"


def test_ur_agents_follow_the_same_protocol():
    from gamegraph.games.ur import Ur
    from gamegraph.games.ur.agents import make_agent
    from gamegraph.policy import Agent

    graph = Ur("finkel", pieces=1).build_graph()
    first = make_agent("first", ruleset=graph.rules.ruleset)
    assert isinstance(first, Agent)
    policy = Policy.from_agent(graph, first)
    assert np.array_equal(policy.choice, first.policy(graph).choice)
    assert (policy.choice[np.diff(graph.option_ptr) > 0] == 0).all()  # "first" takes option 0
