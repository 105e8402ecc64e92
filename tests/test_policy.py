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
    # asked only where there is a choice: a single option is taken without asking
    assert len(seen) == int((np.diff(small.option_ptr) > 1).sum()) == 51
    assert all(len(options) > 1 for _, options in seen)
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


# ---------------------------------------------------------------------------
# from_agent on a game with decisions before the throw (Pig)
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pig():
    from gamegraph.games.pig import Pig

    return build(Pig(goal=20))


def test_from_agent_asks_only_where_there_is_a_choice(pig):
    from gamegraph.games.pig import HOLD, hold_at

    asked = []

    def agent(state, options):
        asked.append((state, options))
        return HOLD if state[3] >= 10 else 0

    policy = Policy.from_agent(pig, agent)
    counts = np.diff(pig.option_ptr)
    assert len(asked) == int((counts > 1).sum()) > 0
    assert all(state[0] == "choose" and len(options) == 2 for state, options in asked)
    assert np.array_equal(policy.choice[counts == 1], np.zeros(int((counts == 1).sum())))
    assert (policy.choice[counts == 0] == -1).all()
    # the same choices as the ready-made agent, which also answers single options itself
    assert np.array_equal(policy.choice, Policy.from_agent(pig, hold_at(10)).choice)
    # options are the rules' own
    state, options = asked[0]
    assert list(options) == list(pig.rules.outcomes(state)[0].options)


def test_from_agent_names_the_state_of_a_bad_pick(pig):
    def agent(state, options):
        return 2 if state == ("choose", 0, 0, 12) else 0

    with pytest.raises(InvalidArgumentError, match=r"at choose 0-0 \+12 picked option 2 of 2"):
        Policy.from_agent(pig, agent, name="bad")


# ---------------------------------------------------------------------------
# accessors: choice_at, Solution.value, Solution.best_move
# ---------------------------------------------------------------------------
def test_choice_at_reads_the_policy_by_state_and_throw(pig, jackpot_graph, jackpot_policies):
    from gamegraph.games.pig import BUST, HOLD, ROLL, hold_at
    from gamegraph.rules import Option

    hold = Policy.from_agent(pig, hold_at(10))
    assert hold.choice_at(pig, ("choose", 3, 4, 10), 0) == Option(("roll", 4, 13, 0), HOLD, True)
    assert hold.choice_at(pig, ("choose", 3, 4, 8), 0) == Option(("roll", 3, 4, 8), ROLL, False)
    assert hold.choice_at(pig, ("roll", 3, 4, 8), 0) == Option(("roll", 4, 3, 0), BUST, True)
    assert hold.choice_at(pig, ("roll", 3, 4, 8), 5) == Option(("choose", 3, 4, 14), -1, False)
    # Jackpot: every throw of every state agrees with the rules' options and the choice array
    graph, policy = jackpot_graph, jackpot_policies["hilo"]
    for i in (graph.start, 5, 100):
        state = graph.states[i]
        for throw, outcome in enumerate(graph.rules.outcomes(state)):
            picked = policy.choice_at(graph, state, throw)
            k = graph.outcome_ptr[i] + throw
            if outcome.options:
                assert picked == outcome.options[policy.choice[k]]
            else:
                assert picked is None


def test_accessors_refuse_what_is_not_there(pig):
    from gamegraph.games.pig import WON

    policy = solve(pig).policy
    solution = solve(pig)
    for call in (policy.choice_at, lambda *args: solution.best_move(*args[1:])):
        with pytest.raises(InvalidArgumentError, match="is terminal: it has no throws"):
            call(pig, WON, 0)
        with pytest.raises(InvalidArgumentError, match=r"throw at roll 0-0 \+0 must be .* 0 to 5"):
            call(pig, ("roll", 0, 0, 0), 6)
        with pytest.raises(InvalidArgumentError, match="got True"):
            call(pig, ("roll", 0, 0, 0), True)
        with pytest.raises(InvalidArgumentError, match="not in this graph"):
            call(pig, ("roll", 0, 0, 1), 0)
    with pytest.raises(InvalidArgumentError, match="choices"):
        Policy(np.zeros(3, dtype=np.int32)).choice_at(pig, ("roll", 0, 0, 0), 0)


def test_best_move_gives_the_value_and_the_margin():
    from gamegraph.games.pig import HOLD, ROLL, Pig

    graph = build(Pig(goal=10))
    solution = solve(graph, exact=True)
    value = solution.value
    # a decision: roll or hold, worth their targets' values (1 - v when the turn passes)
    state = ("choose", 5, 6, 4)
    roll, hold = value(("roll", 5, 6, 4)), 1 - value(("roll", 6, 9, 0))
    move = solution.best_move(state, 0)
    assert move.value == max(roll, hold) and move.margin == abs(roll - hold) > 0
    assert move.option.move == (ROLL if roll > hold else HOLD)
    assert move.option == solution.policy.choice_at(graph, state, 0)
    # the throw state's value is the probability-weighted sum of its best moves
    state = ("roll", 6, 2, 2)
    moves = [solution.best_move(state, t) for t in range(6)]
    assert all(m.margin is None for m in moves)
    assert sum(F(1, 6) * m.value for m in moves) == value(state)
    assert all(isinstance(m.value, F) for m in moves)


def test_best_move_on_jackpot(jackpot_graph, jackpot_optimum):
    graph, solution = jackpot_graph, jackpot_optimum
    q = {}
    for i in (graph.start, 37):
        state = graph.states[i]
        for throw, outcome in enumerate(graph.rules.outcomes(state)):
            move = solution.best_move(state, throw)
            worth = sorted(
                (solution.value(o.target) for o in outcome.options), reverse=True
            )  # no option passes in Jackpot
            if not worth:
                assert move == (None, 0, None)
                continue
            assert move.value == worth[0]
            assert move.margin == (worth[0] - worth[1] if len(worth) > 1 else None)
            assert move.option in outcome.options
            q[(i, throw)] = move.value
    # the start's value is the probability-weighted sum over its throws
    start = graph.rules.outcomes(graph.states[graph.start])
    assert sum(o.probability * q[(graph.start, t)] for t, o in enumerate(start)) == (
        solution.start_value
    )


def test_preferring_a_move_is_the_agent_that_prefers_it():
    # Two ways to the same policy: on whole arrays, and by asking state by state.
    from gamegraph.games.supersix import SuperSix
    from gamegraph.games.supersix.state import CONTINUE, STOP

    graph = SuperSix(pegs=12).build_graph()
    for move in (STOP, CONTINUE):

        def agent(state, options, move=move):
            return next((k for k, o in enumerate(options) if o.move == move), 0)

        asked = Policy.from_agent(graph, agent).choice
        np.testing.assert_array_equal(Policy.preferring(graph, move).choice, asked)
    first_or_none = np.where(np.diff(graph.option_ptr) > 0, 0, -1)  # a move never offered
    np.testing.assert_array_equal(Policy.preferring(graph, 12345).choice, first_or_none)
