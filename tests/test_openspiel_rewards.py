"""OpenSpiel games that pay rewards along the way: imported as score and margin games.

Cross-checks:

* OpenSpiel's own ``cliff_walking`` (one player, -1 a step, -100 for the cliff) imports as
  a score game whose start is worth minus the shortest safe path, width + 1 steps, a
  figure one can count on the grid;
* two small games written here with OpenSpiel's Python API, whose state strings show the
  scores (so that OpenSpiel's ``value_iteration``, which reads returns at terminal nodes
  only, computes the same expectation): Pig alone for three turns (a score game) and Pig
  for money between two players (a margin game, zero-sum rewards). Our values, mapped
  back to player 0's expected final return, agree with ``value_iteration`` to 1e-9 on
  every state it keys, and our exact solve agrees with our float one.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gamegraph import solve
from gamegraph.errors import InvalidArgumentError, InvalidRulesError
from gamegraph.openspiel import (
    ChanceNode,
    _reward,
    from_openspiel,
    openspiel_value,
    openspiel_values,
)

EXTRA = 'the OpenSpiel adapter needs the openspiel extra: pip install "gamegraph[openspiel]"'
SOLITAIRE, MONEY = "python_gamegraph_pig_solitaire", "python_gamegraph_money_pig"
GENERAL = "python_gamegraph_general_sum_pig"  # two players, rewards, not zero-sum


@pytest.fixture(scope="module")
def pyspiel():
    pyspiel = pytest.importorskip("pyspiel", reason=EXTRA)
    _register(pyspiel)
    return pyspiel


@pytest.fixture(scope="module")
def value_iteration(pyspiel):
    pytest.importorskip("cvxpy", reason="OpenSpiel's value_iteration imports cvxpy: " + EXTRA)
    from open_spiel.python.algorithms import value_iteration

    return value_iteration.value_iteration


def _register(pyspiel):
    """Register the two Pig games with OpenSpiel (once per process)."""
    if MONEY in pyspiel.registered_names():
        return
    kinds = pyspiel.GameType

    class PigState(pyspiel.State):
        """Pig with a die of ``faces`` faces. A 1 ends the turn with nothing; holding banks
        the turn total (a reward to the mover, taken from the opponent when there is one);
        reaching ``goal`` banks at once and ends the game. Alone, the game ends after
        ``turns`` turns.
        """

        def __init__(self, game, players, goal, faces, turns):
            super().__init__(game)
            self.players, self.goal, self.faces = players, goal, faces
            self.scores, self.total, self.mover, self.left = [0, 0], 0, 0, turns
            self.chance = self.over = False
            self.paid, self.returned = [0.0] * players, [0.0] * players

        def current_player(self):
            if self.over:
                return pyspiel.PlayerId.TERMINAL
            return pyspiel.PlayerId.CHANCE if self.chance else self.mover

        def _legal_actions(self, player):
            return [0, 1] if self.total else [0]  # roll, hold

        def chance_outcomes(self):
            return [(face, 1 / self.faces) for face in range(self.faces)]

        def _bank(self, amount):
            self.paid[self.mover] += amount
            if self.players == 2:
                self.paid[1 - self.mover] -= amount
            self.scores[self.mover] += amount

        def _end_turn(self):
            self.total = 0
            if self.players == 2:
                self.mover = 1 - self.mover
            else:
                self.left -= 1
                self.over = self.left == 0

        def _apply_action(self, action):
            self.paid = [0.0] * self.players
            if self.chance:
                self.chance = False
                if action == 0:  # a 1
                    self._end_turn()
                else:
                    self.total += action + 1
                    if self.scores[self.mover] + self.total >= self.goal:
                        self._bank(self.total)
                        self.total, self.over = 0, True
            elif action == 0:
                self.chance = True
            else:
                self._bank(self.total)
                self._end_turn()
            self.returned = [r + p for r, p in zip(self.returned, self.paid, strict=True)]

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return f"Roll {action + 1}"
            return ("roll", "hold")[action]

        def is_terminal(self):
            return self.over

        def rewards(self):
            return list(self.paid)

        def returns(self):
            return list(self.returned)

        def __str__(self):
            scores = " ".join(map(str, self.scores[: self.players]))
            state = f"scores {scores} turn {self.total} mover {self.mover} left {self.left}"
            return state + (" rolling" if self.chance else "") + (" over" if self.over else "")

    def register(name, players, utility, defaults):
        game_type = kinds(
            short_name=name,
            long_name=name,
            dynamics=kinds.Dynamics.SEQUENTIAL,
            chance_mode=kinds.ChanceMode.EXPLICIT_STOCHASTIC,
            information=kinds.Information.PERFECT_INFORMATION,
            utility=utility,
            reward_model=kinds.RewardModel.REWARDS,
            max_num_players=players,
            min_num_players=players,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=False,
            provides_observation_tensor=False,
            parameter_specification=defaults,
        )

        class PigGame(pyspiel.Game):
            def __init__(self, params=defaults):
                goal, faces = params["goal"], params["faces"]
                super().__init__(
                    game_type,
                    pyspiel.GameInfo(
                        num_distinct_actions=2,
                        max_chance_outcomes=faces,
                        num_players=players,
                        min_utility=-goal - faces,
                        max_utility=goal + faces,
                        utility_sum=0.0 if players == 2 else None,
                        max_game_length=1000,
                    ),
                    params,
                )
                self.goal, self.faces, self.turns = goal, faces, params.get("turns", 0)

            def new_initial_state(self):
                return PigState(self, players, self.goal, self.faces, self.turns)

        pyspiel.register_game(game_type, PigGame)

    register(SOLITAIRE, 1, kinds.Utility.GENERAL_SUM, {"goal": 8, "faces": 4, "turns": 3})
    register(MONEY, 2, kinds.Utility.ZERO_SUM, {"goal": 5, "faces": 3})
    register(GENERAL, 2, kinds.Utility.GENERAL_SUM, {"goal": 5, "faces": 3})


def agree(game, value_iteration):
    """Our values and OpenSpiel's: (largest difference, graph, solution, ours)."""
    graph = from_openspiel(game)
    solution = solve(graph)
    ours = openspiel_values(solution)
    theirs = value_iteration(game, depth_limit=-1, threshold=1e-12, cyclic_game=True)
    assert ours.keys() == theirs.keys()
    return max(abs(ours[k] - theirs[k]) for k in theirs), graph, solution, ours


# ---------------------------------------------------------------------------
# OpenSpiel's own game with rewards
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("height", "width"), [(3, 4), (4, 8)])
def test_cliff_walking_is_a_score_game_worth_the_shortest_safe_path(pyspiel, height, width):
    graph = from_openspiel(f"cliff_walking(height={height},width={width},horizon=100)")
    assert graph.objective == "score" and graph.has_rewards
    assert set(graph.reward_exact.values()) == {-1, -100}  # a step; the cliff
    assert not graph.option_passes.any()
    # Up, along the top of the cliff, down: width + 1 steps of -1.
    exact = solve(graph, exact=True)
    assert exact.start_value == -(width + 1)
    assert solve(graph).start_value == pytest.approx(-(width + 1), abs=1e-9)
    # One step into the cliff costs 100 and ends the walk.
    root = pyspiel.load_game(f"cliff_walking(height={height},width={width})").new_initial_state()
    assert openspiel_value(exact, root) == -(width + 1)


# ---------------------------------------------------------------------------
# Games written here, against OpenSpiel's value iteration
# ---------------------------------------------------------------------------
def test_pig_alone_is_a_score_game_that_agrees_with_value_iteration(pyspiel, value_iteration):
    game = pyspiel.load_game(SOLITAIRE)
    difference, graph, solution, ours = agree(game, value_iteration)
    assert graph.objective == "score" and not graph.option_passes.any()
    assert difference < 1e-9
    # Every reward banks a turn total: from 2 (a 2, held) to 7 + 4 (a 4 thrown on 7).
    assert set(graph.reward_exact.values()) == set(range(2, 12))
    root = str(game.new_initial_state())
    exact = solve(graph, exact=True).start_value
    assert ours[root] == pytest.approx(float(exact), abs=1e-12)
    assert exact == Fraction(8086425, 2**20)  # 7.71...: three turns, reaching 8 ends it


def test_pig_for_money_is_a_margin_game_that_agrees_with_value_iteration(pyspiel, value_iteration):
    game = pyspiel.load_game(MONEY)
    difference, graph, solution, ours = agree(game, value_iteration)
    assert graph.objective == "margin" and graph.option_passes.any()
    assert difference < 1e-9
    assert not graph.is_acyclic()  # a 1 passes the turn with nothing changed
    exact = solve(graph, exact=True)
    assert float(exact.start_value) == pytest.approx(float(solution.start_value), abs=1e-12)
    assert exact.start_value == Fraction(61, 43)  # moving first is worth 1.42 points
    # Player 1's position: our value is the mover's; OpenSpiel's player 0's.
    after = game.new_initial_state().child(0).child(2)  # roll a 3: hold 3
    held = after.child(1)
    assert held.current_player() == 1 and held.returns() == [3.0, -3.0]
    v = float(exact.value(str(held)))
    assert openspiel_value(exact, held) == pytest.approx(3 - v, abs=1e-12)
    assert ours[str(held)] == pytest.approx(3 - v, abs=1e-12)
    # A chance node keeps its rewards on its options: rolling to the goal banks it.
    with_chance = openspiel_values(solution, chance=True)
    assert any(isinstance(k, ChanceNode) for k in with_chance)


def test_a_zero_sum_game_whose_rewards_do_not_sum_to_zero_is_refused(pyspiel, monkeypatch):
    game = pyspiel.load_game(MONEY)
    state_type = type(game.new_initial_state())
    monkeypatch.setattr(state_type, "rewards", lambda self: [float(self.total), 0.0])
    with pytest.raises(InvalidRulesError, match="do not sum to 0, though the game says"):
        from_openspiel(game)


def test_the_win_import_is_unchanged_for_games_paying_at_the_end(pyspiel):
    graph = from_openspiel("pig(winscore=6,horizon=10,diceoutcomes=3)")
    assert graph.objective == "win" and not graph.has_rewards


def test_rewards_become_exact_numbers():
    assert _reward(-1.0) == -1 and _reward(0.1) == Fraction(1, 10)
    assert _reward(2.5) == Fraction(5, 2) and _reward(1e-30) == Fraction(1e-30)
    assert _reward(float(np.pi)) == Fraction(float(np.pi))  # no small fraction that near


def test_two_players_paying_rewards_must_be_zero_sum(pyspiel):
    with pytest.raises(
        InvalidArgumentError,
        match=f"{GENERAL}.*pays rewards along the way and its utility is general_sum; "
        "accepted: zero-sum games where two players trade rewards",
    ):
        from_openspiel(GENERAL)
    assert from_openspiel(MONEY).objective == "margin"  # the same game, declared zero-sum
