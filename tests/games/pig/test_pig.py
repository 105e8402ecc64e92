"""Pig in its natural form (roll or hold, then the die), per state and in batches."""

from fractions import Fraction

import pytest

from gamegraph import Option, Outcome, Policy, Rules, build, evaluate, solve
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.pig import (
    AGENTS,
    BUST,
    HOLD,
    PUBLISHED_START_VALUE,
    ROLL,
    WON,
    Pig,
    PigBatch,
    hold_at,
)

#: Pig to 100 solved in the throw-then-choose form below (480,448 states), an independent
#: formulation of the same game: benchmarks/bench_games.py builds it.
THROW_FIRST_START_VALUE = 0.5305927252737465


class ThrowFirstPig(Rules):
    """Pig written the other way round: a throw, then roll-or-hold after it."""

    name = "pig, throw first"

    def __init__(self, goal):
        self.goal = goal

    def start(self):
        return (0, 0, 0)

    def terminal_value(self, state):
        return Fraction(1) if state == "won" else None

    def outcomes(self, state):
        mine, theirs, turn = state
        sixth = Fraction(1, 6)
        result = [Outcome(sixth, (Option((theirs, mine, 0), passes=True),))]
        for face in range(2, 7):
            total = turn + face
            if mine + total >= self.goal:
                options = (Option("won"),)
            else:
                options = (
                    Option((mine, theirs, total)),
                    Option((theirs, mine + total, 0), passes=True),
                )
            result.append(Outcome(sixth, options))
        return result


def test_pig_to_10_is_exactly_the_throw_first_value():
    natural = solve(build(Pig(10)), exact=True).start_value
    assert natural == solve(build(ThrowFirstPig(10)), exact=True).start_value
    assert natural == Fraction(7776, 10961)


@pytest.mark.parametrize("goal", [2, 7, 25])
def test_both_forms_agree_on_every_turn_start(goal):
    natural = solve(build(Pig(goal)))
    other = solve(build(ThrowFirstPig(goal)))
    for state, value in zip(other.graph.states, other.values):
        if state != "won":
            mine, theirs, turn = state
            assert natural.value(("roll", mine, theirs, turn)) == pytest.approx(value, abs=1e-12)


@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_pig_to_100_gives_the_published_first_player_value():
    graph = build(PigBatch(100))
    assert graph.n_states == 951_094
    value = float(solve(graph).start_value)
    assert abs(value - THROW_FIRST_START_VALUE) < 1e-9
    assert round(value, 4) == PUBLISHED_START_VALUE


def test_a_choose_state_offers_roll_then_hold_and_a_roll_state_six_faces():
    pig = Pig(20)
    (choice,) = pig.outcomes(("choose", 5, 7, 4))
    assert choice.probability == 1
    assert [(o.target, o.move, o.passes) for o in choice.options] == [
        (("roll", 5, 7, 4), ROLL, False),
        (("roll", 7, 9, 0), HOLD, True),
    ]
    faces = pig.outcomes(("roll", 12, 0, 3))
    assert [o.probability for o in faces] == [Fraction(1, 6)] * 6
    assert faces[0].options == (Option(("roll", 0, 12, 0), BUST, True),)
    assert [o.options[0].target for o in faces[1:]] == [
        ("choose", 12, 0, 5),
        ("choose", 12, 0, 6),
        ("choose", 12, 0, 7),
        WON,
        WON,
    ]


def test_hold_at_20_holds_from_its_threshold_on():
    graph = build(Pig(30))
    policy = Policy.from_agent(graph, hold_at(20), name="hold at 20")
    chosen = policy.chosen_option(graph)
    moves = graph.option_move[chosen[chosen >= 0]]
    owners = graph.outcome_state[chosen >= 0]
    for i, move in zip(owners.tolist(), moves.tolist()):
        phase, _, _, turn = graph.states[i]
        if phase == "choose":
            assert move == (HOLD if turn >= 20 else ROLL)
    # Both players holding at 20: the first player's edge is the first move's.
    assert 0.5 < evaluate(graph, policy).start_value < 0.6
    agent = AGENTS["hold at 20"]
    roll, hold = Option("r"), Option("h", passes=True)
    assert agent(("choose", 0, 0, 20), (roll, hold)) == HOLD
    assert agent(("choose", 0, 0, 19), (roll, hold)) == ROLL


@pytest.mark.parametrize("goal", [1, 0, -5, 2.5, "100", True])
def test_a_goal_must_be_a_whole_number_of_at_least_two(goal):
    with pytest.raises(InvalidArgumentError, match="goal"):
        Pig(goal)
