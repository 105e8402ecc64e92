"""One turn as ordinary score Rules (:class:`TurnRules`): its solved start equals the
compact solver's value of that position, and the simple strategies' choices in a turn give
the strategies' own exact values (:func:`evaluate_strategy`) on the last turn.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gamegraph import build, evaluate, solve
from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.yahtzee.scoring import scoring
from gamegraph.games.yahtzee.solver import solve_values
from gamegraph.games.yahtzee.strategies import STRATEGIES, evaluate_strategy
from gamegraph.games.yahtzee.turn import STAGES, TurnRules
from gamegraph.policy import Policy

BOXES = ("twos", "sixes", "full house", "yahtzee", "chance")


@pytest.fixture(scope="module")
def table():
    return solve_values(scoring("yahtzee", boxes=BOXES, dice=3))


def _positions(table):
    """Every turn-start position with a box open: (filled names, used, upper, flag)."""
    boxes = table.scoring.boxes
    for n in range(len(boxes)):
        for filled in itertools.combinations(boxes, n):
            used = sum(1 << boxes.index(b) for b in filled)
            for upper in (0, 4, 11, 63):
                for flag in (0, 1) if "yahtzee" in filled else (0,):
                    yield filled, used, upper, flag


@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_solved_turn_equals_the_table_at_every_position(table):
    checked = 0
    for filled, used, upper, flag in _positions(table):
        turn = TurnRules(table, filled=filled, upper=upper, flag=flag)
        solution = solve(build(turn))
        expected = table.values[table.index(used, upper, flag)]
        assert solution.start_value == pytest.approx(expected, abs=1e-10), (filled, upper, flag)
        checked += 1
    assert checked == 4 * (2**5 - 1) + 4 * (2**4 - 1)  # cards with yahtzee: both flags


def test_full_size_turn_from_a_mid_game_position():
    """Five dice, Yatzy's 15 boxes: the first turn solved as a graph equals the compact
    solver's start value of a small card with every box but two filled."""
    rules = scoring("yatzy", boxes=("ones", "sixes", "chance"))
    table = solve_values(rules)
    turn = TurnRules(table, filled=("chance",), upper=5)
    graph = build(turn)
    assert graph.n_states > 1000  # 252 x 3 throws, 462 x 2 keeps and the ends
    value = solve(graph).start_value
    assert value == pytest.approx(table.values[table.index(0b100, 5)], abs=1e-10)


def test_layers_are_the_stages(table):
    turn = TurnRules(table, filled=("chance",))
    graph = build(turn)
    layers = {turn.layer(s) for s in graph.states}
    assert layers == set(range(len(STAGES)))
    assert turn.layer(turn.start()) == 0
    assert turn.layer(("thrown", 16, 0, 0, (1, 2, 3), 2)) == 1
    assert turn.layer(("kept", 16, 0, 0, (2,), 1)) == 4
    assert turn.layer(("thrown", 16, 0, 0, (1, 2, 3), 0)) == 5
    ends = [s for s in graph.states if turn.layer(s) == 6]
    assert all(turn.terminal_value(s) is not None for s in ends)
    assert turn.terminal_value(turn.start()) is None


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategies_on_the_last_turn_equal_their_exact_values(table, strategy):
    """On the last turn nothing follows, so the turn's value under a strategy's choices
    is the strategy's own value of the position (computed by another program)."""
    values = evaluate_strategy(table.scoring, strategy).values
    boxes = table.scoring.boxes
    for last in range(len(boxes)):
        filled = tuple(b for k, b in enumerate(boxes) if k != last)
        used = (1 << len(boxes)) - 1 - (1 << last)
        for upper, flag in ((0, 0), (8, 1), (63, 1)):
            flag *= "yahtzee" in filled
            turn = TurnRules(table, filled=filled, upper=upper, flag=flag)
            graph = build(turn)
            got = evaluate(graph, Policy.from_agent(graph, turn.strategy(strategy))).start_value
            want = values[table.index(used, upper, flag)]
            assert got == pytest.approx(want, abs=1e-10), (strategy, boxes[last], upper, flag)


def test_strategies_give_away_value_but_never_gain(table):
    turn = TurnRules(table, filled=("twos",))
    graph = build(turn)
    best = solve(graph).start_value
    for strategy in STRATEGIES:
        value = evaluate(graph, Policy.from_agent(graph, turn.strategy(strategy))).start_value
        assert value < best - 0.5


def test_refusals(table):
    with pytest.raises(InvalidArgumentError, match="ValueTable"):
        TurnRules(np.zeros(3))
    with pytest.raises(InvalidArgumentError, match="game is over"):
        TurnRules(table, filled=BOXES)
    with pytest.raises(UnknownNameError):
        TurnRules(table).strategy("cautious")
    with pytest.raises(InvalidArgumentError, match="flag"):
        TurnRules(table, flag=1)
