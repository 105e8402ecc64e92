"""Every algorithm after solve in every objective: propagate (expected value, the final
score's distribution), simulate (mean total and its interval), compare, duel and diffs of
score and margin games, each against a value found another way (by hand, by a small
independent recursion, or by evaluate).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import Option, Outcome, Policy, Rules, build, evaluate, solve
from gamegraph._stats import combine_moments, normal_interval
from gamegraph.analysis import compare, compare_policies, decision_costs, policy_diff
from gamegraph.analysis.duel import duel, simulate_duel
from gamegraph.analysis.policies import PolicyResult, policy_view
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.pig import HOLD, Pig
from gamegraph.games.pig_solitaire import PigScore, PigTurns
from gamegraph.games.pig_solitaire import hold_at as solo_hold_at
from gamegraph.games.pig_stakes import PigStakes
from gamegraph.games.pig_stakes import hold_at as stakes_hold_at
from gamegraph.propagate import propagate, score_distribution
from gamegraph.simulate import simulate


class KeepOrThrow(Rules):
    """Throw a die; keep it (score its face) or throw once more and keep that one. The
    optimum keeps 4 to 6 (the second throw is worth 7/2): 1, 2, 3 end the game with
    chance 1/2 x 1/6 = 1/12 each, 4, 5, 6 with 1/6 + 1/12 = 1/4; mean 17/4.
    """

    objective = "score"
    name = "keep or throw"

    def start(self):
        return 2  # throws left

    def terminal_value(self, state):
        return 0 if state == 0 else None

    def outcomes(self, state):
        again = (Option(1, 1),) if state == 2 else ()
        return [Outcome(F(1, 6), (Option(0, 0, reward=f), *again)) for f in range(1, 7)]


@pytest.fixture(scope="module")
def keep():
    graph = build(KeepOrThrow())
    return graph, solve(graph, exact=True)


@pytest.fixture(scope="module")
def turns20():
    graph = build(PigTurns(goal=20))
    return graph, solve(graph, exact=True)


@pytest.fixture(scope="module")
def stakes():
    graph = build(PigStakes(goal=8))
    return graph, solve(graph, exact=True)


def _one_turn_to(goal: int) -> F:
    """P(a Pig turn reaches ``goal`` points before a 1), by recursion on the turn total."""
    reach = {t: F(1) for t in range(goal, goal + 6)}
    for t in range(goal - 1, -1, -1):
        reach[t] = sum(reach[t + face] for face in range(2, 7)) / 6
    return reach[0]


def _one_turn_banked(hold: int) -> dict:
    """The points banked in one Pig turn holding at ``hold``: {points: probability}."""
    live, banked = {0: F(1)}, {}
    while live:
        nxt: dict = {}
        for t, p in live.items():
            banked[0] = banked.get(0, 0) + p / 6
            for face in range(2, 7):
                u = t + face
                target = banked if u >= hold else nxt
                target[u] = target.get(u, 0) + p / 6
        live = nxt
    return banked


def _convolve(a: dict, b: dict) -> dict:
    """The distribution of the sum of two independent scores."""
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


# ---------------------------------------------------------------------------
# propagate: the expected value in every objective
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("hold", [2, 6, 10, 20])
def test_pig_turns_expected_value_of_hold_at_k_is_evaluates(turns20, hold):
    graph, _ = turns20
    policy = Policy.from_agent(graph, solo_hold_at(hold))
    exact = propagate(graph, policy, exact=True)
    start = evaluate(graph, policy, exact=True).start_value
    assert type(exact.expected_value) is F and exact.expected_value == start
    assert propagate(graph, policy).expected_value == pytest.approx(float(start), rel=1e-12)


def test_pig_turns_hold_at_the_goal_takes_geometric_turns(turns20):
    """From 0, holding at 20 is going for the goal in one turn: success p per turn, so
    minus 1/p turns, and the final score -k with chance (1 - p)^(k - 1) p."""
    graph, best = turns20
    p = _one_turn_to(20)
    policy = Policy.from_agent(graph, solo_hold_at(20))
    assert propagate(graph, policy, exact=True).expected_value == -1 / p == best.start_value
    scores = score_distribution(graph, policy, exact=True, tail=F(1, 10**6))
    for k in (1, 2, 3):
        assert scores.probability(-k) == (1 - p) ** (k - 1) * p
    assert 0 < scores.tail <= F(1, 10**6)
    assert scores.total + scores.tail == 1  # nothing lost, nothing spread over the scores


def test_pig_turns_float_distribution_stops_at_its_tail(turns20):
    graph, best = turns20
    scores = score_distribution(graph, best.policy)
    assert 0 < scores.tail <= 1e-12 and not scores.exact
    assert abs(scores.total + scores.tail - 1) < 1e-12
    assert scores.mean() == pytest.approx(float(best.start_value), rel=1e-9)
    assert "games still going" in scores.table().to_text()


@pytest.mark.parametrize("hold", [3, 5, 8])
def test_margin_expected_value_is_the_first_players_margin(stakes, hold):
    graph, best = stakes
    for policy in (best.policy, Policy.from_agent(graph, stakes_hold_at(hold))):
        start = evaluate(graph, policy, exact=True).start_value
        assert propagate(graph, policy, exact=True).expected_value == start
        assert propagate(graph, policy).expected_value == pytest.approx(float(start), rel=1e-12)


def test_win_probability_refuses_score_and_margin_games(turns20, stakes):
    for graph, best in (turns20, stakes):
        run = propagate(graph, best.policy, exact=True)
        with pytest.raises(InvalidArgumentError, match="expected_value"):
            getattr(run, "win_probability")  # noqa: B009 - the property raises
    pig = build(Pig(goal=6))
    run = propagate(pig, solve(pig).policy)
    assert run.win_probability == run.expected_value
    with pytest.raises(InvalidArgumentError, match="win game"):
        score_distribution(pig, solve(pig).policy)


# ---------------------------------------------------------------------------
# propagate: the distribution of the final score
# ---------------------------------------------------------------------------
def test_keep_or_throw_distribution_by_hand(keep):
    graph, best = keep
    scores = score_distribution(graph, best.policy, exact=True)
    assert scores.scores == (1, 2, 3, 4, 5, 6)
    assert scores.probabilities == (F(1, 12),) * 3 + (F(1, 4),) * 3
    assert scores.tail == 0 and scores.total == 1 and scores.throws == 2
    assert scores.mean() == best.start_value == F(17, 4)
    assert scores.variance() == F(245, 12) - F(17, 4) ** 2  # E[X^2] - E[X]^2 = 113/48
    floats = score_distribution(graph, best.policy)
    assert floats.probabilities == pytest.approx([1 / 12] * 3 + [1 / 4] * 3, abs=1e-15)
    assert floats.mean() == pytest.approx(4.25, abs=1e-14)
    # throwing twice whatever comes: the second die, uniform
    twice = Policy.preferring(graph, 1)
    assert score_distribution(graph, twice, exact=True).probabilities == (F(1, 6),) * 6


def test_chain_keeps_options_with_different_rewards_apart(keep):
    """All six 'keep' options lead to the end state; merged they would lose the faces."""
    graph, best = keep
    chain = best.policy.chain(graph)
    start = chain.edge_source == graph.start
    end = chain.edge_target == graph.state_number(0)
    assert sorted(chain.edge_rewards(exact=True)[start & end]) == [4, 5, 6]
    assert sum(chain.edge_weight[start]) == graph.denominator


def test_agents_see_the_options_rewards(keep):
    graph, best = keep
    seen = []

    def keep_big(state, options):
        seen.append(options[0].reward)
        return 0 if options[0].reward >= 4 else 1

    policy = Policy.from_agent(graph, keep_big)
    assert sorted(seen) == [1, 2, 3, 4, 5, 6] and np.array_equal(policy.choice, best.policy.choice)
    assert policy.choice_at(graph, 2, 5) == Option(0, 0, False, 6)


@pytest.mark.parametrize("hold", [20, 25])
def test_pig_score_two_turns_is_one_turn_convolved(hold):
    """Turns bank points independently: two turns' total is one turn's, convolved."""
    graph = build(PigScore(turns=2))
    policy = Policy.from_agent(graph, solo_hold_at(hold))
    one = _one_turn_banked(hold)
    two = _convolve(one, one)
    scores = score_distribution(graph, policy, exact=True)
    assert dict(scores) == two and scores.tail == 0
    assert scores.mean() == evaluate(graph, policy, exact=True).start_value


def test_pig_score_distribution_mean_is_the_solved_value():
    """The optimum holds at 20 or 21 (rolling at 20 ties): three such turns, convolved."""
    graph = build(PigScore(turns=3))
    best = solve(graph, exact=True)
    scores = propagate(graph, best.policy, exact=True).score_distribution()
    assert scores.total == 1 and scores.tail == 0
    assert scores.mean() == best.start_value
    at_20 = best.policy.choice_at(graph, ("choose", 3, 20), 0).move
    one = _one_turn_banked(20 if at_20 == HOLD else 21)
    three = {0: F(1)}
    for _ in range(3):
        three = _convolve(three, one)
    assert dict(scores) == three


def test_margin_distribution_is_the_first_players_margin(stakes):
    graph, best = stakes
    scores = score_distribution(graph, best.policy, exact=True, tail=F(1, 10**4))
    assert scores.objective == "margin" and scores.total + scores.tail == 1
    assert abs(scores.mean() - best.start_value) < F(1, 100)
    floats = score_distribution(graph, best.policy)
    assert floats.mean() == pytest.approx(float(best.start_value), rel=1e-9)
    # every game ends with one player at 8 or more: margins are at least 2 either way
    assert all(abs(s) >= 2 for s in floats.scores)


# ---------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------
def test_simulated_score_lies_in_its_interval(turns20, keep):
    graph, best = turns20
    run = simulate(graph, best.policy, games=40_000, seed=11)
    low, high = run.interval()
    assert low < float(best.start_value) < high and run.objective == "score"
    assert np.isnan(run.wins) and run.unfinished == 0 and high - low < 0.05
    graph, best = keep
    run = simulate(graph, best.policy, games=40_000, seed=5, batch=7_000)
    low, high = run.interval()
    assert low < 4.25 < high
    assert run.variance == pytest.approx(113 / 48, rel=0.03)


def test_simulated_margin_lies_in_its_interval(stakes):
    graph, best = stakes
    run = simulate(graph, best.policy, games=40_000, seed=3)
    low, high = run.interval(0.95)
    assert low < float(best.start_value) < high and run.estimate == run.mean


def test_simulation_of_a_win_game_is_unchanged():
    graph = build(Pig(goal=6))
    run = simulate(graph, solve(graph).policy, games=2_000, seed=4)
    assert run.objective == "win" and run.mean is None and run.estimate == run.wins / run.games


def test_normal_interval_and_pooled_moments():
    rng = np.random.default_rng(0)
    a, b = rng.normal(1e6, 3, 500), rng.normal(1e6, 3, 700)
    pooled = combine_moments(
        (len(a), a.mean(), ((a - a.mean()) ** 2).sum()),
        (len(b), b.mean(), ((b - b.mean()) ** 2).sum()),
    )
    both = np.concatenate([a, b])
    assert pooled[0] == 1200 and pooled[1] == pytest.approx(both.mean(), rel=1e-15)
    assert pooled[2] / 1199 == pytest.approx(both.var(ddof=1), rel=1e-9)
    low, high = normal_interval(2.0, 9.0, 100, 0.95)
    assert (high - low) / 2 == pytest.approx(1.959964 * 0.3, rel=1e-6)


# ---------------------------------------------------------------------------
# comparisons, diffs and duels: no policy beats the optimum
# ---------------------------------------------------------------------------
def test_score_game_comparison_never_beats_the_optimum(turns20):
    graph, best = turns20
    agents = {f"hold {k}": solo_hold_at(k) for k in (4, 10, 15, 25)}
    rows = compare_policies(graph, agents, solution=best)
    assert rows[-1].value == best.start_value
    assert all(row.value <= best.start_value for row in rows)
    assert rows.table().columns == ("policy", "minus expected turns")
    with pytest.raises(InvalidArgumentError, match="read .value"):
        getattr(rows[0], "win")  # noqa: B009 - the property raises
    assert "%" not in repr(rows) and "minus expected turns" in repr(rows)
    for agent in agents.values():
        comparison = compare(best, Policy.from_agent(graph, agent))
        assert all(loss >= 0 for loss in comparison.loss) and comparison.start_loss() >= 0


def test_score_game_diff_costs_add_up_to_the_gap(turns20):
    graph, best = turns20
    diff = policy_diff(best, solo_hold_at(10), name="hold at 10")
    assert (
        diff.gap
        == best.start_value
        - evaluate(graph, Policy.from_agent(graph, solo_hold_at(10)), exact=True).start_value
    )
    assert diff.gap > 0 and sum(row.cost for row in diff.costs) == diff.gap
    assert all(row.net == row.cost for row in diff.costs)
    text = diff.table().to_text() + repr(diff)
    assert "minus expected turns" in text and "million" not in text and "win" not in text


def test_losses_count_rewards():
    """Hold (reward 5, game over) against roll (-1, then a fair coin for 0 or 8): roll is
    worth -1 + 4 = 3, so holding is best and rolling gives up 2; without the rewards the
    two would look the other way round (0 against 4)."""

    class HoldOrRoll(Rules):
        objective = "score"

        def start(self):
            return "s"

        def terminal_value(self, state):
            return {"end": 0, "big": 8, "small": 0}.get(state)

        def outcomes(self, state):
            if state == "coin":
                return [Outcome(F(1, 2), (Option("big"),)), Outcome(F(1, 2), (Option("small"),))]
            return [Outcome(F(1), (Option("end", 0, reward=5), Option("coin", 1, reward=-1)))]

    graph = build(HoldOrRoll())
    best = solve(graph, exact=True)
    assert best.start_value == 5
    roll = Policy.preferring(graph, 1)
    comparison = compare(best, roll)
    assert comparison.loss[graph.outcomes_of(graph.start)].tolist() == [2]
    assert comparison.start_loss() == 2


def test_margin_game_comparison_and_diff(stakes):
    graph, best = stakes
    policy = Policy.from_agent(graph, stakes_hold_at(3))
    rows = compare_policies(graph, {"hold at 3": policy}, solution=best)
    assert rows[0].value == evaluate(graph, policy, exact=True).start_value < best.start_value
    assert rows.table().columns == ("policy", "expected margin in points")
    comparison = compare(best, policy)
    assert all(loss >= 0 for loss in comparison.loss)
    rows = decision_costs(comparison, propagate(graph, policy, exact=True))
    gap = best.start_value - evaluate(graph, policy, exact=True).start_value
    # both sides play hold at 3: the first player's mistakes count for, the other's against
    assert sum(row.net for row in rows) == gap
    assert sum(row.cost for row in rows) > gap


def test_margin_duel_agrees_with_evaluate_and_never_beats_the_optimum(stakes):
    graph, best = stakes
    v = best.start_value
    same = duel(graph, best, best, exact=True)
    assert (same.moving_first, same.moving_second) == (v, -v)
    for hold in (2, 4, 10):
        other = stakes_hold_at(hold)
        against = duel(graph, best, other, exact=True)
        assert against.moving_first >= v and against.moving_second >= -v
        facing = duel(graph, other, best, exact=True)
        assert facing.moving_first <= v and facing.moving_second <= -v
        # each seat order is the other's negative
        assert facing.moving_first == -against.moving_second
    alone = Policy.from_agent(graph, stakes_hold_at(4))
    assert (
        duel(graph, alone, alone, exact=True).moving_first
        == evaluate(graph, alone, exact=True).start_value
    )
    text = str(duel(graph, best, stakes_hold_at(4)))
    assert "expected margin in points" in text and "wins" not in text


def test_margin_duel_simulation_within_its_interval(stakes):
    graph, best = stakes
    exact = duel(graph, best, stakes_hold_at(4))
    played = simulate_duel(graph, best, stakes_hold_at(4), games=20_000, seed=9)
    for mover, value in ((0, exact.moving_first), (1, exact.moving_second)):
        low, high = played.interval(mover)
        assert low < value < high
    assert played.objective == "margin" and "expected margin" in str(played)


def test_views_and_rows_speak_the_objective(turns20):
    graph, best = turns20
    title = policy_view(graph, best, reach=True).title
    assert "minus expected turns -2.663" in title and "wins" not in title
    row = PolicyResult("x", None, F(-3), "score")
    assert row.as_dict() == {"value": "-3/1", "objective": "score"}
    with pytest.raises(InvalidArgumentError):
        getattr(row, "percent")  # noqa: B009 - the property raises
