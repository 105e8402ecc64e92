"""Issue 27's examples of scores and margins, each against a solver written here.

The solvers below restate each game's rules in plain Python over dicts and numbers and
use nothing of gamegraph's: they exploit the games' structure instead of a generic graph
search.

* Pig solitaire, fewest turns: at a banked score s every bust returns to the start of a
  turn at s, so under a fixed roll/hold choice every value at s is ``a + b x`` with x the
  expected turns from the start of a turn at s, and ``x = a0 / (1 - b0)``. Exact values come
  from policy iteration on that one unknown per score, floats from value iteration on it.
* Pig solitaire, points in n turns: no cycle at all, a memoised recursion.
* Pig for stakes: a bust hands the turn to the opponent at the same two scores, so each
  pair of scores {(a, b), (b, a)} couples two unknowns (the two turn starts), and every
  other value at that pair is linear in the opponent's one; a hold raises the sum of the
  scores, so pairs are solved from the highest sum down.
"""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import pytest

from gamegraph import Policy, build, evaluate, solve
from gamegraph.errors import InvalidArgumentError
from gamegraph.games import pig_solitaire, pig_stakes
from gamegraph.games.pig_solitaire import PigScore, PigTurns, turns
from gamegraph.games.pig_stakes import PigStakes
from gamegraph.interchange import from_networkx
from gamegraph.propagate import propagate
from gamegraph.simulate import simulate

# -- Pig solitaire: fewest expected turns ---------------------------------------------


def turns_to_goal(goal, exact=True):
    """Expected turns left from every roll and choose state of solitaire Pig to ``goal``.

    Returns ``{("roll" | "choose", score, turn): expected turns}`` under optimal play,
    Fractions when ``exact`` (policy iteration on each score's unknown) and floats
    otherwise (value iteration on it until it moves by less than 1e-14 relative).
    """
    one = Fraction(1) if exact else 1.0
    sixth = one / 6
    start = {}  # expected turns from the start of a turn at each banked score
    table = {}

    def linear(score, holds):
        """Each roll state's expected turns as (a, b): a + b * start[score]."""
        rolls = {}
        for turn in range(goal - score - 1, -1, -1):
            a, b = sixth, sixth  # a 1: this turn ends, the next starts at the same score
            for face in range(2, 7):
                total = turn + face
                if score + total >= goal:
                    a += sixth  # the goal: this was the last turn
                elif total in holds:
                    a += sixth * (1 + start[score + total])
                else:
                    a += sixth * rolls[total][0]
                    b += sixth * rolls[total][1]
            rolls[turn] = (a, b)
        return rolls

    def settle(score, x, rolls):
        for turn, (a, b) in rolls.items():
            table["roll", score, turn] = a + b * x
            if turn >= 2:
                table["choose", score, turn] = min(a + b * x, 1 + start[score + turn])

    for score in range(goal - 1, -1, -1):
        if exact:
            holds = set()  # never hold: the goal is reached with probability 1
            while True:
                rolls = linear(score, holds)
                a, b = rolls[0]
                x = a / (1 - b)
                values = {t: rolls[t][0] + rolls[t][1] * x for t in range(2, goal - score)}
                better = {
                    t
                    for t, value in values.items()
                    if 1 + start[score + t] < value
                    or (t in holds and 1 + start[score + t] == value)
                }
                if better == holds:
                    break
                holds = better
        else:
            x = 0.0
            while True:
                rolls, held = {}, {}
                for turn in range(goal - score - 1, -1, -1):
                    value = sixth * (1 + x)
                    for face in range(2, 7):
                        total = turn + face
                        if score + total >= goal:
                            value += sixth
                        else:
                            value += sixth * held[total]
                    rolls[turn] = value
                    if turn >= 2:
                        held[turn] = min(value, 1 + start[score + turn])
                change = abs(rolls[0] - x)
                x = rolls[0]
                if change <= 1e-14 * x:
                    break
            rolls = linear(score, {t for t in range(2, goal - score) if held[t] < rolls[t]})
        start[score] = x
        settle(score, x, rolls)
    return table


def worst_error(graph, values, expected):
    """The largest difference between ``values`` and ``expected`` over the graph's
    non-terminal states, relative to the expected value's size (at least 1)."""
    return max(
        abs(value - expected[state]) / max(1.0, abs(expected[state]))
        for state, value in zip(graph.states, values.tolist())
        if not isinstance(state, str)
    )


def test_pig_turns_to_100_is_the_published_figure_and_agrees_with_value_iteration():
    graph = build(PigTurns(100))
    best = solve(graph)
    expected = turns_to_goal(100, exact=False)  # also states the start cannot reach
    assert worst_error(graph, -best.values, expected) < 1e-12
    assert round(float(turns(best.start_value)), 3) == pig_solitaire.PUBLISHED_TURNS_TO_100
    assert float(turns(best.start_value)) == pytest.approx(12.545232351955, abs=1e-12)


def test_pig_turns_exact_agrees_with_policy_iteration_on_each_score():
    graph = build(PigTurns(30))
    best = solve(graph, exact=True)
    expected = turns_to_goal(30, exact=True)
    for state, value in zip(graph.states, best.values):
        assert state == "done" or turns(value) == expected[state], state
    assert float(turns(best.start_value)) == pytest.approx(4.098402384280554, abs=1e-14)


def test_hold_at_20_to_100_costs_the_turns_neller_simulates():
    graph = build(PigTurns(100))
    hold_20 = Policy.from_agent(graph, pig_solitaire.AGENTS["hold at 20"], name="hold at 20")
    value = float(turns(evaluate(graph, hold_20).start_value))
    assert round(value, 3) == pig_solitaire.HOLD_AT_20_TURNS_TO_100
    # Neller's "Average Pig Turns": 12.634906 over 1,000,000 games (standard error ~0.006).
    assert abs(value - 12.634906) < 0.02
    assert value > turns(solve(graph).start_value) + 0.09


# -- Pig solitaire: points in a fixed number of turns ---------------------------------


def points_in_turns(turns_, cap, one):
    """``{state: expected points still to bank}`` for solitaire Pig over ``turns_`` turns,
    by a recursion from the last turn back (``one`` is ``Fraction(1)`` or ``1.0``)."""
    sixth = one / 6
    table = {}

    def roll(left, turn):
        if ("roll", left, turn) not in table:
            value = sixth * after(left)  # a 1: nothing banked
            for face in range(2, 7):
                value += sixth * choose(left, turn + face)
            table["roll", left, turn] = value
        return table["roll", left, turn]

    def choose(left, turn):
        if ("choose", left, turn) not in table:
            hold = turn + after(left)
            table["choose", left, turn] = hold if turn >= cap else max(hold, roll(left, turn))
        return table["choose", left, turn]

    def after(left):
        return 0 * one if left == 1 else roll(left - 1, 0)

    roll(turns_, 0)
    return table


@pytest.mark.parametrize("exact", [True, False])
def test_pig_score_agrees_with_the_recursion(exact):
    graph = build(PigScore(turns=5))
    best = solve(graph, exact=exact)
    expected = points_in_turns(5, 30, Fraction(1) if exact else 1.0)
    assert graph.n_states == len(expected) + 1
    for state, value in expected.items():
        if exact:
            assert best.value(state) == value, state
        else:
            assert best.value(state) == pytest.approx(value, rel=1e-12, abs=1e-12), state
    if exact:
        assert best.start_value == Fraction(2461516015, 60466176)


def test_pig_score_turns_add_up_and_the_cap_changes_nothing_from_20_on():
    one_turn = solve(build(PigScore(turns=1)), exact=True).start_value
    assert one_turn == Fraction(492303203, 60466176)  # 8.1418...: hold at 20, one turn
    five = {cap: solve(build(PigScore(5, cap)), exact=True).start_value for cap in (19, 20, 60)}
    assert five[20] == five[60] == 5 * one_turn
    assert five[19] < five[20]  # forced to hold at 19 where a roll gains 1/6 on average
    graph = build(PigScore(turns=5))
    agents = {
        name: evaluate(graph, Policy.from_agent(graph, agent, name=name), exact=True)
        for name, agent in pig_solitaire.AGENTS.items()
    }
    assert agents["hold at 20"].start_value == 5 * one_turn
    assert agents["hold at 10"].start_value < agents["hold at 25"].start_value < 5 * one_turn


# -- Pig for stakes: a margin -----------------------------------------------------------


def stakes_margins(goal, one):
    """``{state: the mover's expected margin}`` in Pig for stakes to ``goal``, and the
    states where optimal play holds. ``one`` is ``Fraction(1)`` (exact) or ``1.0``.

    Pairs of scores are solved from the highest sum down; within a pair, policy iteration
    on its two unknowns (the two players' turn starts), changing a choice only for a
    strictly better one (by more than 1e-12 in floats).
    """
    sixth = one / 6
    slack = 0 if isinstance(one, Fraction) else 1e-12
    table, holding = {}, set()

    def linear(mine, theirs, holds):
        """Each roll state's margin at (mine, theirs) as (c, d): c + d * y, y the
        opponent's margin at the start of their turn at (theirs, mine)."""
        rolls = {}
        for turn in range(goal - mine - 1, -1, -1):
            c, d = 0 * one, -sixth  # a 1: nothing banked, the opponent starts
            for face in range(2, 7):
                total = turn + face
                if mine + total >= goal:
                    c += sixth * total  # banked, and the game is over
                elif total in holds:
                    c += sixth * (total - table["roll", theirs, mine + total, 0])
                else:
                    c += sixth * rolls[total][0]
                    d += sixth * rolls[total][1]
            rolls[turn] = (c, d)
        return rolls

    def improve(mine, theirs, rolls, y, holds):
        better = set()
        for turn in range(2, goal - mine):
            hold = turn - table["roll", theirs, mine + turn, 0]
            roll = rolls[turn][0] + rolls[turn][1] * y
            if hold > roll + slack or (turn in holds and hold >= roll - slack):
                better.add(turn)
        return better

    for total in range(2 * goal - 2, -1, -1):
        for a in range(max(0, total - goal + 1), total // 2 + 1):
            b = total - a
            holds_a, holds_b = set(), set()  # never hold: every game still ends
            for _ in range(100):
                rolls_a, rolls_b = linear(a, b, holds_a), linear(b, a, holds_b)
                (ca, da), (cb, db) = rolls_a[0], rolls_b[0]
                if a == b:
                    x = y = ca / (1 - da)
                else:
                    x = (ca + da * cb) / (1 - da * db)
                    y = cb + db * x
                new_a, new_b = (
                    improve(a, b, rolls_a, y, holds_a),
                    improve(b, a, rolls_b, x, holds_b),
                )
                if a == b:
                    new_b = new_a
                if (new_a, new_b) == (holds_a, holds_b):
                    break
                holds_a, holds_b = new_a, new_b
            else:
                raise AssertionError(f"no stable policy at {a}-{b}")
            for mine, theirs, rolls, other, holds in (
                (a, b, rolls_a, y, holds_a),
                (b, a, rolls_b, x, holds_b),
            ):
                for turn, (c, d) in rolls.items():
                    table["roll", mine, theirs, turn] = c + d * other
                for turn in range(2, goal - mine):
                    hold = turn - table["roll", theirs, mine + turn, 0]
                    table["choose", mine, theirs, turn] = max(
                        hold, table["roll", mine, theirs, turn]
                    )
                holding.update(("choose", mine, theirs, turn) for turn in holds)
    return table, holding


def held_states(graph, policy):
    """The choose states where ``policy`` holds."""
    chosen = policy.chosen_option(graph)
    return {
        graph.states[int(graph.outcome_state[k])]
        for k in range(len(chosen))
        if chosen[k] >= 0 and graph.option_move[chosen[k]] == pig_stakes.HOLD
    }


def test_pig_stakes_to_30_agrees_with_the_pairwise_solver_in_floats():
    graph = build(PigStakes(30))
    best = solve(graph)
    expected, holding = stakes_margins(30, 1.0)
    assert worst_error(graph, best.values, expected) < 1e-12
    assert float(best.start_value) == pytest.approx(4.304448975972276, abs=1e-12)
    # Far behind with 23 in hand, hold; everywhere else roll to the goal.
    assert (
        held_states(graph, best.policy)
        == holding
        == {
            ("choose", 0, 28, 23),
            ("choose", 0, 29, 23),
        }
    )


def test_pig_stakes_exact_agrees_with_the_pairwise_solver():
    graph = build(PigStakes(12))
    best = solve(graph, exact=True)
    expected, holding = stakes_margins(12, Fraction(1))
    for state, value in zip(graph.states, best.values):
        assert state == "done" or value == expected[state], state
    assert best.start_value == Fraction(68807, 13644)
    assert holding == held_states(graph, best.policy) == set()  # to 12, always roll on


# -- simulate and propagate agree with the solved values --------------------------------


@pytest.mark.parametrize(
    ("rules", "games"),
    [(PigTurns(100), 20_000), (PigScore(turns=5), 20_000), (PigStakes(12), 20_000)],
    ids=["turns", "score", "stakes"],
)
def test_simulated_optimal_play_agrees_with_the_exact_value(rules, games):
    graph = build(rules)
    best = solve(graph, exact=not isinstance(rules, PigTurns))
    played = simulate(graph, best.policy, games=games, seed=27)
    low, high = played.interval()
    assert played.unfinished == 0 and played.objective == graph.objective
    assert low < float(best.start_value) < high
    assert high - low < 0.1 * abs(float(best.start_value))  # the interval says something


def test_the_score_distribution_of_five_turns_sums_to_one_with_the_solved_mean():
    graph = build(PigScore(turns=5))
    best = solve(graph, exact=True)
    run = propagate(graph, best.policy, exact=True)
    assert run.expected_value == best.start_value
    spread = run.score_distribution()
    assert spread.tail == 0 and spread.total == 1
    assert spread.mean() == best.start_value == Fraction(2461516015, 60466176)
    # At 20 rolling ties with holding and the solve takes the first option, roll, so
    # the optimal policy holds from 21. Nothing banked: all five turns throw a 1 first
    # (q[t], the chance of a 1 before 21 from turn total t).
    q = {t: Fraction(0) for t in range(21, 27)}
    for t in range(20, -1, -1):
        q[t] = Fraction(1, 6) + sum(q[t + face] for face in range(2, 7)) / 6
    assert spread.scores[0] == 0 and spread.probability(0) == q[0] ** 5
    assert spread.scores[-1] == 5 * 26  # five holds at 20 + 6


# -- a game brought from networkx with rewards ------------------------------------------


def keep_or_throw_again():
    """Throw a die for 1/3 of a point, then keep its face as points or throw again.

    Keeping from k up is worth V with V = -1/3 + ((k - 1) V + k + ... + 6) / 6: 13/3 for
    k = 4, 9/2 for k = 5 and 4 for k = 6, so keep a 5 or a 6 and V = 9/2.
    """
    g = nx.DiGraph(objective="score")
    for face in range(1, 7):
        g.add_edge("throw", face, probability="1/6", reward="-1/3")
        g.add_edge(face, "kept", probability=1, outcome="face", reward=face, move=0)
        g.add_edge(face, "throw", probability=1, outcome="face", move=1)
    return g


def keep_value_by_iteration():
    """The same game's value by value iteration in floats (to 1e-15)."""
    v = 0.0
    while True:
        new = -1 / 3 + sum(max(face, v) for face in range(1, 7)) / 6
        if abs(new - v) < 1e-15:
            return new
        v = new


def test_a_networkx_graph_with_rewards_solves_to_its_value():
    graph = from_networkx(keep_or_throw_again(), "throw")
    assert graph.objective == "score"
    exact = solve(graph, exact=True)
    assert exact.start_value == Fraction(9, 2)
    assert [exact.value(face) for face in range(1, 7)] == [Fraction(9, 2)] * 4 + [5, 6]
    floats = solve(graph)
    assert float(floats.start_value) == pytest.approx(keep_value_by_iteration(), abs=1e-12)
    assert float(floats.start_value) == pytest.approx(4.5, abs=1e-12)


def test_a_misspelt_reward_on_any_edge_is_refused():
    g = keep_or_throw_again()  # "throw" -> 6 is the sixth edge out of "throw"
    g.edges["throw", 6]["rewrad"] = g.edges["throw", 6].pop("reward")
    with pytest.raises(InvalidArgumentError, match="rewrad"):
        from_networkx(g, "throw")
