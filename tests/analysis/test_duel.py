"""Tests for gamegraph.analysis.duel: policy against policy on a seated graph."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import InvalidArgumentError, Policy, build, evaluate, solve
from gamegraph.analysis.duel import Seated, duel, seated_graph, simulate_duel
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.pig import Pig, hold_at


@pytest.fixture(scope="module")
def pig10():
    graph = build(Pig(goal=10))
    return graph, solve(graph, exact=True)


@pytest.fixture(scope="module")
def pig30():
    graph = build(Pig(goal=30))
    return graph, solve(graph)


# ---------------------------------------------------------------------------
# the seated graph
# ---------------------------------------------------------------------------
def test_seated_graph_doubles_the_game_and_flips_the_seat_on_passing(pig10):
    graph, _ = pig10
    seated = seated_graph(graph)
    n = graph.n_states
    assert (seated.n_states, seated.n_outcomes, seated.n_options) == (
        2 * n,
        2 * graph.n_outcomes,
        2 * graph.n_options,
    )
    seat = np.repeat([0, 1], graph.n_options)
    assert np.array_equal(seated.option_target // n, seat ^ seated.option_passes)
    assert np.array_equal(seated.option_target % n, np.tile(graph.option_target, 2))
    assert seated.states[n + graph.start] == (("roll", 0, 0, 0), 1)
    assert seated.states[-1] == (graph.states[-1], 1)
    assert seated.state_number((("choose", 3, 4, 2), 1)) == n + graph.state_number(
        ("choose", 3, 4, 2)
    )
    assert seated.label(n + graph.start) == "B: roll 0-0 +0"
    for bad in [(("roll", 0, 0, 0), 2), ("roll", 0, 0, 0), (("nowhere",), 0), 5]:
        with pytest.raises(InvalidArgumentError, match="not in this graph"):
            seated.state_number(bad)


def test_the_numpy_seated_graph_is_the_one_the_seated_rules_build(pig10):
    """Two constructions: arrays (seated_graph) and the per-state build of Seated rules."""
    graph, _ = pig10
    seated = seated_graph(graph)
    built = build(Seated(graph.rules))
    assert built.n_states == seated.n_states  # every (state, seat) is reachable in Pig
    for i, state in enumerate(built.states):
        s = seated.state_number(state)
        ko, so = list(built.outcomes_of(i)), list(seated.outcomes_of(s))
        assert [built.probability(k) for k in ko] == [seated.probability(k) for k in so]
        for a, b in zip(ko, so):
            mine = [
                (built.states[built.option_target[j]], built.option_passes[j])
                for j in built.options_of(a)
            ]
            theirs = [
                (seated.states[seated.option_target[j]], seated.option_passes[j])
                for j in seated.options_of(b)
            ]
            assert mine == theirs


def test_a_margin_games_seated_graph_keeps_objective_and_rewards():
    """Pig for stakes seated both ways: the same options, rewards and objective."""
    from gamegraph.games.pig_stakes import PigStakes

    graph = build(PigStakes(goal=6))
    seated, built = seated_graph(graph), build(Seated(graph.rules))
    assert seated.objective == built.objective == "margin"
    assert seated.n_states == built.n_states and built.has_rewards
    for i, state in enumerate(built.states):
        ko, so = built.outcomes_of(i), seated.outcomes_of(seated.state_number(state))
        for a, b in zip(ko, so):
            mine = [
                (built.states[built.option_target[j]], built.reward_exact.get(int(j), 0))
                for j in built.options_of(a)
            ]
            theirs = [
                (seated.states[seated.option_target[j]], seated.reward_exact.get(int(j), 0))
                for j in seated.options_of(b)
            ]
            assert mine == theirs


def test_a_one_player_game_has_no_opponent():
    graph = build(Jackpot(cells=4))
    policy = solve(graph).policy
    for call in (
        lambda: seated_graph(graph),
        lambda: duel(graph, policy, policy),
        lambda: simulate_duel(graph, policy, policy, games=10, seed=1),
    ):
        with pytest.raises(InvalidArgumentError, match="jackpot has no opponent: no option"):
            call()


def test_players_that_are_not_policies_are_refused(pig10):
    graph, solution = pig10
    with pytest.raises(InvalidArgumentError, match="second must be a Policy"):
        duel(graph, solution, 42)
    short = Policy(np.zeros(3, dtype=np.int32), name="short")
    with pytest.raises(InvalidArgumentError, match="3 choices"):
        duel(graph, short, solution)


# ---------------------------------------------------------------------------
# exact values
# ---------------------------------------------------------------------------
def test_optimal_self_play_reproduces_the_solved_value_exactly(pig10):
    graph, solution = pig10
    assert solution.start_value == F(7776, 10961)
    result = duel(graph, solution, solution.policy, exact=True)
    n = graph.n_states
    assert result.exact and result.names == ("optimal (A)", "optimal (B)")
    # from either seat the player to move wins 7776/10961
    assert result.solution.values[graph.start] == F(7776, 10961)
    assert result.solution.values[n + graph.start] == F(7776, 10961)
    assert result.moving_first == F(7776, 10961)
    assert result.moving_second == F(3185, 10961)
    assert result.alternating == F(1, 2)
    # and every state, both seats, has the solved value
    assert list(result.solution.values[:n]) == list(solution.values)
    assert list(result.solution.values[n:]) == list(solution.values)


def test_optimal_self_play_in_floats(pig30):
    graph, solution = pig30
    result = duel(graph, solution, solution)
    assert abs(result.moving_first - solution.start_value) < 1e-12
    assert abs(result.moving_second - (1 - solution.start_value)) < 1e-12
    assert np.abs(result.solution.values[graph.n_states :] - solution.values).max() < 1e-12


def test_the_two_seat_orders_mirror_each_other_exactly(pig10):
    graph, _ = pig10
    ab = duel(graph, hold_at(4), hold_at(6), exact=True)
    ba = duel(graph, hold_at(6), hold_at(4), exact=True)
    n = graph.n_states
    assert ab.moving_second == 1 - ba.moving_first
    assert ab.moving_first == 1 - ba.moving_second
    assert list(ab.solution.values[n:]) == list(ba.solution.values[:n])
    assert list(ab.solution.values[:n]) == list(ba.solution.values[n:])
    assert ab.value(("roll", 5, 0, 0), mover=1) == 1 - ba.value(("roll", 5, 0, 0))
    assert all(isinstance(v, F) for v in (ab.moving_first, ab.moving_second))
    # the same agent on both sides is the game evaluated under it
    alone = evaluate(graph, Policy.from_agent(graph, hold_at(4)), exact=True).start_value
    assert duel(graph, hold_at(4), hold_at(4), exact=True).moving_first == alone
    assert ab.moving_first != alone


def _pig_duel_by_hand(goal, first, second):
    """Value iteration over (mine, theirs, turn, seat) written from the rules of Pig,
    independently of gamegraph: A's win probability with A to move first.
    ``first``/``second`` map (mine, theirs, turn) to True for hold.
    """
    players = (first, second)
    win = {}  # (i, j, k, seat) -> probability that the player to move wins

    def v(i, j, k, seat):
        return 1.0 if i + k >= goal else win.get((i, j, k, seat), 0.5)

    for _ in range(2000):
        delta = 0.0
        for seat in (0, 1):
            for i in range(goal):
                for j in range(goal):
                    for k in range(goal - i):
                        if k >= 2 and players[seat](i, j, k):  # no choice below 2
                            new = 1 - v(j, i + k, 0, 1 - seat)
                        else:
                            new = (1 - v(j, i, 0, 1 - seat)) / 6
                            new += sum(v(i, j, k + r, seat) for r in range(2, 7)) / 6
                        delta = max(delta, abs(new - v(i, j, k, seat)))
                        win[(i, j, k, seat)] = new
        if delta < 1e-13:
            break
    return v(0, 0, 0, 0), 1 - v(0, 0, 0, 1)


def test_duel_values_agree_with_a_plain_value_iteration(pig10):
    graph, solution = pig10

    def optimal(i, j, k):
        state = ("choose", i, j, k)
        if state not in graph.index:  # a score no sum of throws makes: never reached
            return False
        return solution.policy.choice[graph.outcome_ptr[graph.state_number(state)]] == 1

    by_hand = _pig_duel_by_hand(10, optimal, lambda i, j, k: k >= 5)
    result = duel(graph, solution, hold_at(5))
    assert result.moving_first == pytest.approx(by_hand[0], abs=1e-10)
    assert result.moving_second == pytest.approx(by_hand[1], abs=1e-10)
    assert round(result.moving_first, 6) == 0.870497


def test_optimal_beats_hold_at_20_by_at_least_the_game_value(pig30):
    graph, solution = pig30
    result = duel(graph, solution, hold_at(20))
    v = solution.start_value
    assert result.moving_first > v and result.moving_second > 1 - v
    assert round(result.moving_first, 6) == 0.63591
    assert round(result.moving_second, 6) == 0.521455


def test_the_result_displays_as_a_table(pig10):
    graph, solution = pig10
    result = duel(graph, solution, hold_at(5), exact=True)
    lines = str(result).splitlines()
    assert lines[0] == "pig to 10: optimal against hold at 5"
    assert lines[1].split() == ["moves", "first", "optimal", "wins", "hold", "at", "5", "wins"] + [
        "optimal",
        "wins",
        "(%)",
    ]
    assert lines[2].split()[0] == "optimal" and lines[2].endswith("87.0497 %")
    table = result.table()
    assert [row[0] for row in table.rows] == ["optimal", "hold at 5", "either"]
    assert all(isinstance(a, F) and a + b == 1 for _, a, b, _ in table.rows)
    assert table.rows[2][1] == (table.rows[0][1] + table.rows[1][1]) / 2
    assert "<td" in result._repr_html_()
    assert repr(result).startswith("<DuelResult optimal vs hold at 5: optimal wins 0.870497")


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------
def test_monte_carlo_agrees_with_the_exact_values_from_each_seat(pig30):
    graph, solution = pig30
    exact = duel(graph, solution, hold_at(20))
    played = simulate_duel(graph, solution, hold_at(20), games=20_000, seed=2026)
    # A fixed seed makes the run reproducible; each 99 % interval misses the true value
    # for 1 % of seeds (400,000 games per order agree to within 0.1 standard errors).
    assert played.first_moves.games == played.second_moves.games == 20_000
    assert played.first_moves.unfinished == played.second_moves.unfinished == 0
    for mover, value in ((0, exact.moving_first), (1, exact.moving_second)):
        low, high = played.interval(mover, confidence=0.99)
        assert low < value < high
        assert high - low < 0.025
    assert played.moving_second == 1 - played.second_moves.estimate
    again = simulate_duel(graph, solution, hold_at(20), games=20_000, seed=2026)
    assert again.moving_first == played.moving_first  # seeded: reproducible
    rows = played.table(0.99).rows
    assert [row[0] for row in rows] == ["optimal", "hold at 20"]
    assert "99 % interval" in played.table(0.99).columns


def test_ur_duels_agree_with_exact_win_probability():
    """Ur's exact_win_probability seats two agents with the same two-seat graph."""
    from gamegraph.games.ur import Ur
    from gamegraph.games.ur.agents import make_agent
    from gamegraph.games.ur.analysis import exact_win_probability

    graph = build(Ur("finkel", pieces=2))
    first, last = (make_agent(name, ruleset=graph.rules.ruleset) for name in ("first", "last"))
    result = duel(graph, last, first)
    assert result.moving_first == pytest.approx(exact_win_probability(graph, last, first), 1e-12)
    assert result.moving_second == pytest.approx(
        1 - exact_win_probability(graph, first, last), abs=1e-12
    )
    assert round(result.moving_first, 4) == 0.6953
