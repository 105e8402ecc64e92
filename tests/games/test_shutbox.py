"""Tests for gamegraph.games.shutbox: exact win chances, both build paths, agents, Monte Carlo.

An independent Shut the Box, written here from the rules (a memoised recursion over the
open tiles with Fractions), checks the library's exact values; Bill Butler's published
percentages check both.
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import cache
from itertools import combinations

import pytest

from gamegraph import InvalidArgumentError, Policy, UnknownNameError, build, evaluate, solve
from gamegraph.games.shutbox import (
    AGENTS,
    EXACT_WIN,
    ONE_DIE,
    ONE_DIE_RULES,
    PUBLISHED_WIN_PERCENT,
    TWO_DICE,
    WON,
    ShutTheBox,
    ShutTheBoxBatch,
)
from gamegraph.simulate import simulate

TWO = {t: 6 - abs(t - 7) for t in range(2, 13)}


def independent_win(one_die: str, tiles: int = 9) -> F:
    """The chance of shutting the box with optimal play, by direct recursion."""

    def throws(dice):
        return (
            {t: F(1, 6) for t in range(1, 7)}
            if dice == 1
            else {t: F(n, 36) for t, n in TWO.items()}
        )

    @cache
    def turn(open_tiles: frozenset) -> F:
        if not open_tiles:
            return F(1)
        dice = [throw_value(open_tiles, 2)]
        may = {
            "sum6": sum(open_tiles) <= 6,
            "789": not open_tiles & {7, 8, 9},
            "never": False,
        }[one_die]
        if may:
            dice.append(throw_value(open_tiles, 1))
        return max(dice)

    def throw_value(open_tiles, dice):
        total = F(0)
        for value, p in throws(dice).items():
            best = F(0)
            for size in range(1, len(open_tiles) + 1):
                for chosen in combinations(sorted(open_tiles), size):
                    if sum(chosen) == value:
                        best = max(best, turn(open_tiles - set(chosen)))
            total += p * best
        return total

    return turn(frozenset(range(1, tiles + 1)))


@pytest.fixture(scope="module")
def graphs():
    return {rule: build(ShutTheBox(one_die=rule)) for rule in ONE_DIE_RULES}


@pytest.fixture(scope="module")
def solutions(graphs):
    return {rule: solve(graph, exact=True) for rule, graph in graphs.items()}


@pytest.mark.parametrize("rule", ONE_DIE_RULES)
def test_exact_value_matches_independent_recursion(solutions, rule):
    assert solutions[rule].start_value == EXACT_WIN[rule] == independent_win(rule)


@pytest.mark.parametrize("rule", sorted(PUBLISHED_WIN_PERCENT))
def test_published_percentages(solutions, rule):
    # Butler's table gives 4 decimals of a percent.
    assert round(100 * float(solutions[rule].start_value), 4) == PUBLISHED_WIN_PERCENT[rule]


def test_one_die_raises_the_chance_and_both_rules_agree(solutions):
    assert solutions["never"].start_value < solutions["sum6"].start_value
    # Offering one die earlier (7, 8, 9 shut) does not help: where the open tiles sum to
    # more than 6, two dice are at least as good.
    assert solutions["789"].start_value == solutions["sum6"].start_value


def test_one_die_is_never_worse_when_the_open_tiles_sum_to_six(graphs, solutions):
    graph, solution = graphs["sum6"], solutions["sum6"]
    choices = 0
    for state in graph.states:
        if state != WON and state[0] == 0:
            one, two = solution.value((1, state[1])), solution.value((2, state[1]))
            assert one >= two
            choices += 1
    assert choices == 13  # every non-empty set of tiles summing to 6 or less


@pytest.mark.parametrize("rule", ONE_DIE_RULES)
def test_batch_builds_the_same_graph(graphs, solutions, rule):
    graph, batch = graphs[rule], build(ShutTheBoxBatch(one_die=rule))
    assert batch.n_states == graph.n_states
    assert set(batch.states) == set(graph.states)
    assert batch.states[batch.start] == graph.states[graph.start]
    rules = graph.rules

    def outcomes(g, i):
        out = []
        for k in g.outcomes_of(i):
            options = range(g.option_ptr[k], g.option_ptr[k + 1])
            out.append(
                (
                    F(int(g.outcome_weight[k]), g.denominator),
                    [(g.states[int(g.option_target[j])], int(g.option_move[j])) for j in options],
                )
            )
        return out

    for i, state in enumerate(graph.states):
        j = batch.state_number(state)
        assert bool(batch.terminal[j]) == bool(graph.terminal[i])
        assert outcomes(batch, j) == outcomes(graph, i), rules.label(state)
    exact = solve(batch, exact=True)
    assert exact.start_value == solutions[rule].start_value
    assert all(exact.value(s) == solutions[rule].value(s) for s in graph.states)


def test_rules_details():
    rules = ShutTheBox()
    assert rules.start() == (2, 511) and rules.label(rules.start()) == "123456789 2d"
    outcomes = rules.outcomes((2, 511))
    assert sum(o.probability for o in outcomes) == 1 and len(outcomes) == 11
    nine = outcomes[7]  # totals 2..12: the 8th is 9
    assert [rules.move_label(o.move) for o in nine.options] == [
        "9", "8+1", "7+2", "6+3", "5+4", "6+2+1", "5+3+1", "4+3+2",
    ]  # fmt: skip
    assert rules.turn(0b111) == (0, 0b111)  # 1+2+3 = 6: the choice
    assert rules.turn(0b1011) == (2, 0b1011)  # 1+2+4 = 7: two dice
    assert ShutTheBox(one_die="789").turn(0b111111) == (0, 0b111111)
    assert [o.move for o in rules.outcomes((0, 5))[0].options] == [ONE_DIE, TWO_DICE]
    stuck = rules.outcomes((1, 0b100))  # only the 3 open, one die
    assert [len(o.options) for o in stuck] == [0, 0, 1, 0, 0, 0]
    assert stuck[2].options[0].target == WON


def test_bad_arguments():
    with pytest.raises(UnknownNameError, match="one_die"):
        ShutTheBox(one_die="always")
    with pytest.raises(InvalidArgumentError, match="tiles"):
        ShutTheBox(tiles=13)


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_agents_are_valid_and_below_the_optimum(graphs, solutions, name):
    graph = graphs["sum6"]
    policy = Policy.from_agent(graph, AGENTS[name], name=name)
    policy.check(graph)
    value = evaluate(graph, policy, exact=True).start_value
    assert 0 < value < solutions["sum6"].start_value


def test_agent_values():
    graph = build(ShutTheBox())
    values = {
        name: evaluate(graph, Policy.from_agent(graph, agent), exact=True).start_value
        for name, agent in AGENTS.items()
    }
    assert values == {
        "largest tile": F(51571135, 544195584),
        "fewest tiles": F(936762721, 9795520512),
        "most tiles": F(12014171, 1088391168),
    }


def test_monte_carlo_agrees(graphs, solutions):
    graph, solution = graphs["sum6"], solutions["sum6"]
    games = simulate(graph, solution.policy, games=200_000, seed=12)
    low, high = games.interval()
    assert low < float(solution.start_value) < high
    assert high - low < 0.003


def test_small_box_by_hand():
    # Two tiles, always two dice: only a first throw of 3 (2/36) shuts both; a 2 shuts
    # the 2 and leaves the 1, which no two-dice total can shut.
    graph = build(ShutTheBox(tiles=2, one_die="never"))
    assert solve(graph, exact=True).start_value == F(1, 18)
    # One die offered (1 + 2 <= 6): one die wins on a 3 (1/6) or on a 1 or 2 followed by
    # the other tile's face on one die (2 * 1/36): 2/9, better than two dice's
    # 2/36 + 1/36 * 1/6.
    for rules in (ShutTheBox(tiles=2), ShutTheBoxBatch(tiles=2)):
        solution = solve(build(rules), exact=True)
        assert solution.start_value == F(2, 9)
        assert solution.value((2, 0b11)) == F(2, 36) + F(1, 36) * F(1, 6)
