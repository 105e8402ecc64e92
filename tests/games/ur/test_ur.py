"""Tests for gamegraph.games.ur: the four rule sets, positions, the graph, and its solutions.

Expected values come from:

* the rules in /work/shared/references/ur-rules.md; square numbers, shared tiles and
  rosettes below are worked out by hand from the paths printed there (light's path, with
  dark's the mirror image x -> 4 - x), not read from the code;
* the "King of Ur" endgames (4/7, 116/161, 74/161), re-derived by hand in the comments;
* cross-checks between two independent methods: the vectorised builder against
  state-by-state exploration, position counts against the closed form of ur.counting, the
  exact solver against the float solver and against a plain value iteration written here,
  and Monte Carlo play against the solved value.

Positions are written as parse_position reads them: the mover's squares ``+`` borne
off, ``/``, the opponent's (in the opponent's own numbering); ``-`` for an empty side.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import (
    InvalidArgumentError,
    Policy,
    StateGraph,
    UnknownNameError,
    build,
    evaluate,
    solve,
)
from gamegraph.games.ur import (
    RULESETS,
    WIN,
    Ur,
    UrState,
    format_position,
    legal_moves,
    parse_position,
    play,
    rule_set,
    state_codes,
    state_from_code,
)
from gamegraph.games.ur.board import GEOMETRY
from gamegraph.games.ur.counting import count_nonterminal
from gamegraph.graph import expand_ranges
from gamegraph.simulate import simulate


def pos(text, rules="finkel", pieces=None):
    return parse_position(text, rule_set(rules, pieces))


def moves(text, throw, rules="finkel", pieces=None):
    ruleset = rule_set(rules, pieces)
    return legal_moves(parse_position(text, ruleset), throw, ruleset)


def options(text, throw, rules="finkel", pieces=None):
    """(move, target text, passes) of every option after ``throw``, through Ur.outcomes."""
    game = Ur(rules, pieces)
    state = parse_position(text, game.ruleset)
    outcome = dict(zip(game.throws(), game.outcomes(state)))[throw]
    return [(o.move, format_position(o.target), o.passes) for o in outcome.options]


# ---------------------------------------------------------------------------
# Board geometry, derived by hand from ur-rules.md
# ---------------------------------------------------------------------------
# Light's squares: finkel 1-4 = (1,4)..(1,1), 5-12 = (2,1)..(2,8), 13 = (1,8), 14 = (1,7).
# Dark walks (3,4)..(3,1), then the same middle lane: its square s is light's s for
# 5..12; 1-4 and 13-14 are each side's own.
#
# Masters/blitz: light 1-4 as finkel, 5-11 = (2,1)..(2,7), 12 = (3,7), 13 = (3,8),
# 14 = (2,8), 15 = (1,8), 16 = (1,7); dark: 5-11 the same, 12 = (1,7), 13 = (1,8),
# 14 = (2,8), 15 = (3,8), 16 = (3,7). So light 12 (3,7) is dark 16, light 13 (3,8) is
# dark 15, light 14 (2,8) is dark 14, light 15 (1,8) is dark 13, light 16 (1,7) is dark 12.
#
# Aseb: light 1-4 as finkel, 5-16 = (2,1)..(2,12), all shared with dark's 5-16.
SHARED = {
    "finkel": {s: s for s in range(5, 13)},
    "masters": {**{s: s for s in range(5, 12)}, 12: 16, 13: 15, 14: 14, 15: 13, 16: 12},
    "blitz": {**{s: s for s in range(5, 12)}, 12: 16, 13: 15, 14: 14, 15: 13, 16: 12},
    "aseb": {s: s for s in range(5, 17)},
}
# Rosettes (1,1) (2,4) (1,7) for finkel: squares 4, 8, 14. Masters: (1,1) 4, (2,4) 8,
# (3,7) 12, (1,7) 16. Aseb: (1,1) 4, (2,4) 8, (2,8) 12, (2,12) 16.
ROSETTE_SQUARES = {
    "finkel": {4, 8, 14},
    "masters": {4, 8, 12, 16},
    "blitz": {4, 8, 12, 16},
    "aseb": {4, 8, 12, 16},
}
LENGTH = {"finkel": 14, "masters": 16, "blitz": 16, "aseb": 16}


@pytest.mark.parametrize("name", RULESETS)
def test_shared_squares_and_rosettes_match_the_paths_worked_out_by_hand(name):
    ruleset = rule_set(name)
    assert ruleset.length == LENGTH[name]
    assert {
        s: ruleset.opponent_square(s)
        for s in range(1, ruleset.length + 1)
        if ruleset.opponent_square(s)
    } == SHARED[name]
    assert {s for s in range(1, ruleset.length + 1) if ruleset.is_rosette(s)} == ROSETTE_SQUARES[
        name
    ]
    # The mapping is its own inverse: the opponent's square of my square is mine of theirs.
    for mine, theirs in SHARED[name].items():
        assert SHARED[name][theirs] == mine


def test_rule_set_flags_dice_and_pieces():
    expected = {  # safe rosettes, capture gives a throw, pieces, throws with probabilities
        "finkel": (True, False, 7, {0: F(1, 16), 1: F(1, 4), 2: F(3, 8), 3: F(1, 4), 4: F(1, 16)}),
        "masters": (False, False, 7, {1: F(3, 8), 2: F(3, 8), 3: F(1, 8), 4: F(1, 8)}),
        "blitz": (False, True, 5, {0: F(1, 16), 1: F(1, 4), 2: F(3, 8), 3: F(1, 4), 4: F(1, 16)}),
        "aseb": (True, False, 5, {0: F(1, 16), 1: F(1, 4), 2: F(3, 8), 3: F(1, 4), 4: F(1, 16)}),
    }
    for name, (safe, bonus, pieces, dice) in expected.items():
        ruleset = rule_set(name)
        assert (ruleset.safe_rosettes, ruleset.capture_bonus, ruleset.pieces) == (
            safe,
            bonus,
            pieces,
        )
        assert {t: ruleset.probability(t) for t in range(6) if ruleset.probability(t)} == dice
        assert Ur(name).throws() == sorted(dice)
        assert [F(w, ruleset.denominator) for _, w in ruleset.throws] == [
            dice[t] for t in sorted(dice)
        ]
    assert rule_set("aseb", pieces=2).pieces == 2 and rule_set("aseb").pieces == 5


# ---------------------------------------------------------------------------
# One turn: moves on hand-made positions
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", RULESETS)
def test_entering_puts_a_waiting_piece_on_the_square_thrown(name):
    for throw in (1, 2, 3, 4):
        assert moves("-/-", throw, name) == [(0, throw, False)]
    assert moves("-/-", 0, name) == []


def test_no_piece_enters_when_none_is_waiting_or_its_square_is_taken():
    assert moves("3/-", 1, pieces=1) == [(3, 4, False)]  # the only piece is out
    assert moves("3+1/-", 2, pieces=2) == [(3, 5, False)]  # the other is borne off
    assert moves("2/-", 2, pieces=2) == [(2, 4, False)]  # square 2 is taken
    assert moves("2/-", 1, pieces=2) == [(0, 1, False), (2, 3, False)]


def test_a_piece_may_jump_over_pieces_of_either_side():
    assert moves("5,6/7", 3, pieces=3) == [(0, 3, False), (5, 8, False), (6, 9, False)]


def test_bearing_off_needs_the_exact_throw():
    # finkel: 14 squares, so square 15 is off the board.
    assert moves("12/-", 3, pieces=1) == [(12, 15, False)]
    assert moves("12/-", 4, pieces=1) == []
    assert moves("14/-", 1, pieces=1) == [(14, 15, False)]
    for throw in (2, 3, 4):
        assert moves("14/-", throw, pieces=1) == []
    # masters/aseb: 16 squares.
    assert moves("13/-", 4, "masters", 1) == [(13, 17, False)]
    assert moves("14/-", 4, "aseb", 1) == []
    assert moves("14/-", 3, "aseb", 1) == [(14, 17, False)]


def test_bearing_off_counts_the_piece_and_passes_the_turn():
    assert options("12,14/3", 1, pieces=3) == [
        (0, "3/1,12,14", True),
        (12, "3/13,14", True),
        (14, "3/12+1", True),
    ]
    # The last piece borne off wins, and nothing passes to the loser.
    assert options("14+2/3", 1, pieces=3) == [(14, WIN, False)]
    assert play(pos("14+2/3", pieces=3), (14, 15, False), rule_set("finkel", 3)) == (WIN, False)


def test_own_piece_blocks_the_square():
    assert moves("4,6/-", 2, pieces=2) == [(6, 8, False)]  # 4 -> 6 is taken
    assert moves("5,6/-", 1, pieces=2) == [(6, 7, False)]
    assert moves("4,6/-", 1, pieces=3) == [(0, 1, False), (4, 5, False), (6, 7, False)]
    assert moves("4,6/-", 2, pieces=3) == [(0, 2, False), (6, 8, False)]


@pytest.mark.parametrize("name", RULESETS)
def test_capture_on_a_shared_square_sends_the_piece_back(name):
    # Square 7 is (2,3) for everyone: shared, not a rosette.
    ruleset = rule_set(name, 2)
    state = pos("5/7", name, 2)
    assert legal_moves(state, 2, ruleset) == [(0, 2, False), (5, 7, True)]
    after, passes = play(state, (5, 7, True), ruleset)
    # The captured piece waits again: the opponent has nothing on the board.
    assert (after, passes) == (
        (UrState((), 0, (7,), 0), True)
        if not ruleset.capture_bonus
        else (UrState((7,), 0, (), 0), False)
    )
    assert after.waiting(2) in ((1, 2), (2, 1))


def test_pieces_on_their_own_lanes_never_meet():
    # Mover's square 3 is (1,2), the opponent's square 3 is (3,2): both may stand there.
    assert moves("1/3", 2, pieces=1) == [(1, 3, False)]
    assert play(pos("1/3", pieces=1), (1, 3, False), rule_set("finkel", 1))[0] == pos(
        "3/3", pieces=1
    )
    # finkel's 13 and 14 are private too.
    assert moves("11/13", 2, pieces=1) == [(11, 13, False)]


@pytest.mark.parametrize("name", ["finkel", "aseb"])
def test_safe_rosette_protects_its_piece(name):
    # (2,4), square 8 for both sides, is a shared rosette.
    assert moves("6/8", 2, name, 1) == []
    assert moves("6/8", 1, name, 1) == [(6, 7, False)]
    assert moves("6/8", 3, name, 1) == [(6, 9, False)]  # jumping over it is fine


def test_aseb_has_safe_rosettes_further_up_the_middle_lane():
    assert moves("10/12", 2, "aseb", 1) == []  # (2,8)
    assert moves("14/16", 2, "aseb", 1) == []  # (2,12)
    assert moves("10/11", 1, "aseb", 1) == [(10, 11, True)]  # not a rosette


@pytest.mark.parametrize("name", ["masters", "blitz"])
def test_unsafe_rosette_piece_can_be_captured_and_the_capturer_throws_again(name):
    assert options("6/8", 2, name, 1) == [(6, "8/-", False)]
    # Light 12 is (3,7), the rosette dark walks last, as its square 16.
    assert moves("10/16", 2, name, 1) == [(10, 12, True)]
    assert options("10/16", 2, name, 1) == [(10, "12/-", False)]
    # Light 16 is (1,7), dark's square 12: a piece waiting to bear off can be hit there.
    assert moves("14/12", 2, name, 1) == [(14, 16, True)]
    assert options("14/12", 2, name, 1) == [(14, "16/-", False)]


def test_masters_pieces_meet_where_the_paths_cross_the_lanes():
    # Light 13 is (3,8) = dark 15; light 15 is (1,8) = dark 13; light 14 is (2,8) = dark 14.
    assert moves("11/15", 2, "masters", 1) == [(11, 13, True)]
    assert options("11/15", 2, "masters", 1) == [(11, "-/13", True)]
    assert moves("12/13", 3, "masters", 1) == [(12, 15, True)]
    assert moves("10/14", 4, "masters", 1) == [(10, 14, True)]
    # The same tiles in finkel are private: light 13 is (1,8), dark 13 is (3,8).
    assert moves("11/13", 2, "finkel", 1) == [(11, 13, False)]


def test_landing_on_a_rosette_gives_another_throw():
    # From the start: a throw of 4 enters on (1,1), the rosette; 3 enters beside it.
    assert options("-/-", 4) == [(0, "4/-", False)]
    assert options("-/-", 3) == [(0, "-/3", True)]
    assert options("4/-", 4, pieces=1) == [(4, "8/-", False)]  # (2,4)
    assert options("10/-", 4, pieces=1) == [(10, "14/-", False)]  # (1,7)
    # finkel has 14 squares: 11 + 4 = 15 bears the only piece off and wins.
    assert options("11/-", 4, pieces=1) == [(11, WIN, False)]
    # With a second piece waiting: entering on the rosette keeps the throw, bearing off
    # does not (the square past the end is no rosette).
    assert options("11/-", 4, pieces=2) == [(0, "4,11/-", False), (11, "-/-+1", True)]


def test_capture_gives_another_throw_only_in_blitz():
    for name in RULESETS:
        expected = name == "blitz"
        assert options("5/7", 2, name, 1) == [(5, "7/-" if expected else "-/7", not expected)]


def test_masters_dice_never_throw_zero_and_pass_only_without_a_move():
    game = Ur("masters", pieces=1)
    assert game.throws() == [1, 2, 3, 4]
    # The start: every throw enters a piece; nothing passes.
    assert [
        [o.move for o in outcome.options] for outcome in game.outcomes(pos("-/-", "masters", 1))
    ] == [[0], [0], [0], [0]]
    # The last square: 1 bears off; 2, 3, 4 have no move and pass.
    state = pos("16/3", "masters", 1)
    assert [
        [(o.move, o.target, o.passes) for o in outcome.options] for outcome in game.outcomes(state)
    ] == [[(16, WIN, False)]] + [[(-1, state.flipped(), True)]] * 3


def test_finkel_passes_on_zero_and_without_a_move():
    game = Ur("finkel", pieces=1)
    state = pos("13/14", "finkel", 1)
    table = [
        (str(o.probability), [(x.move, format_position(x.target), x.passes) for x in o.options])
        for o in game.outcomes(state)
    ]
    assert table == [
        ("1/16", [(-1, "14/13", True)]),  # 0
        ("1/4", [(13, "14/14", False)]),  # 1: onto the rosette (1,7)
        ("3/8", [(13, WIN, False)]),  # 2: borne off
        ("1/4", [(-1, "14/13", True)]),  # 3 and 4 overshoot
        ("1/16", [(-1, "14/13", True)]),
    ]


def test_options_are_ordered_by_the_square_moved_from():
    game = Ur("finkel", pieces=4)
    state = pos("1,5,9/6", "finkel", 4)
    for outcome in game.outcomes(state):
        movers = [o.move for o in outcome.options]
        assert movers == sorted(movers)
    assert [o.move for o in game.outcomes(state)[2].options] == [0, 1, 5, 9]
    assert (
        game.move_label(-1) == "pass"
        and game.move_label(0) == "enter"
        and game.move_label(9) == "from 9"
    )


# ---------------------------------------------------------------------------
# Writing and reading positions
# ---------------------------------------------------------------------------
def test_parse_and_format_examples():
    ruleset = rule_set("finkel")
    assert parse_position("4,13+2/6+1", ruleset) == UrState((4, 13), 2, (6,), 1)
    assert parse_position(" 13,4 +2/ 6+1", ruleset) == UrState((4, 13), 2, (6,), 1)
    assert parse_position("-/-", ruleset) == UrState((), 0, (), 0)
    assert parse_position("+3/-", ruleset) == UrState((), 3, (), 0)
    assert format_position(UrState((4, 13), 2, (6,), 1)) == "4,13+2/6+1"
    assert format_position(UrState((), 0, (), 0)) == "-/-"
    assert format_position(WIN) == "WIN"
    assert str(UrState((3,), 0, (), 5)) == "3/-+5"


@pytest.mark.parametrize("name", RULESETS)
def test_every_position_survives_format_then_parse(name):
    ruleset = rule_set(name, 2)
    codes = state_codes(ruleset)
    assert len(codes) > 12000
    for code in codes:
        state = state_from_code(int(code), ruleset.length)
        assert parse_position(format_position(state), ruleset) == state


@pytest.mark.parametrize(
    "text, message",
    [
        ("4,13", "write it as the mover's squares, '/'"),
        ("1/2/3", "write it as the mover's squares, '/'"),
        ("a/-", "'a' is not a list of square numbers"),
        ("4;5/-", "is not a list of square numbers"),
        ("3+x/-", "is not a list of square numbers"),
        ("15/-", "square 15 is off the finkel path (squares 1 to 14)"),
        ("0/-", "square 0 is off the finkel path"),
        ("-/-2", "square -2 is off the finkel path"),
        ("5,5/-", "two of the mover's pieces on square 5"),
        ("-/3,3", "two of the opponent's pieces on square 3"),
        (
            "1,2,3,4,5,6,7,8/-",
            "the mover has 8 on the board and 0 borne off, but each side has 7 pieces",
        ),
        ("1,2+6/-", "the mover has 2 on the board and 6 borne off, but each side has 7 pieces"),
        ("-/1+-1", "the opponent has 1 on the board and -1 borne off"),
        ("7/7", "mover's square 7 and opponent's square 7 are the same tile"),
        ("+7/-", "the mover has borne off every piece: the game is over"),
        ("-/+7", "the opponent has borne off every piece: the game is over"),
    ],
)
def test_malformed_positions_are_refused_with_a_reason(text, message):
    with pytest.raises(InvalidArgumentError, match="position .*" + _escape(message)):
        parse_position(text, rule_set("finkel"))


def _escape(text):
    import re

    return re.escape(text)


def test_same_tile_checks_follow_each_rule_sets_crossings():
    with pytest.raises(InvalidArgumentError, match="mover's square 12 and opponent's square 16"):
        pos("12/16", "masters")
    with pytest.raises(InvalidArgumentError, match="mover's square 16 and opponent's square 16"):
        pos("16/16", "aseb")
    assert pos("16/16", "masters") == UrState((16,), 0, (16,), 0)  # (1,7) and (3,7)
    assert pos("13/13", "finkel") == UrState((13,), 0, (13,), 0)  # (1,8) and (3,8)
    assert pos("3/3", "aseb") == UrState((3,), 0, (3,), 0)
    with pytest.raises(
        InvalidArgumentError, match="3 on the board and 0 borne off, but each side has 2 pieces"
    ):
        pos("1,2,3/-", "finkel", 2)
    with pytest.raises(InvalidArgumentError, match="position 42: write it as"):
        parse_position(42, rule_set("finkel"))


def test_unknown_rule_sets_and_bad_piece_counts():
    for name in ("bell", "Finkel", "", None, ["finkel"], 3):
        with pytest.raises(UnknownNameError, match="accepted: finkel, masters, blitz, aseb"):
            Ur(name)
    for pieces in (0, 8, 2.5, True, "3", -1):
        with pytest.raises(InvalidArgumentError, match="pieces must be a whole number from 1 to 7"):
            Ur("finkel", pieces=pieces)
    assert Ur("finkel", pieces=np.int64(3)).pieces == 3
    with pytest.raises(InvalidArgumentError, match="start position .*off the finkel path"):
        Ur("finkel", pieces=1, start=UrState((15,), 0, (), 0))
    with pytest.raises(InvalidArgumentError, match="two of the mover's pieces"):
        Ur("finkel", start="5,5/-")


# ---------------------------------------------------------------------------
# The graph: vectorised builder against exploration, counts
# ---------------------------------------------------------------------------
def assert_same_graph(vectorised, explored):
    """Same states, start, outcome weights and options (targets, moves, passes) in order."""
    number = {state: i for i, state in enumerate(vectorised.states)}
    assert len(number) == vectorised.n_states == explored.n_states
    perm = np.array([number[state] for state in explored.states])  # explored -> vectorised
    assert perm[explored.start] == vectorised.start
    assert np.array_equal(vectorised.terminal[perm], explored.terminal)
    assert np.array_equal(np.diff(vectorised.outcome_ptr)[perm], np.diff(explored.outcome_ptr))
    outcomes = expand_ranges(vectorised.outcome_ptr[perm], vectorised.outcome_ptr[perm + 1])
    assert np.array_equal(
        vectorised.outcome_weight[outcomes] * explored.denominator,
        explored.outcome_weight * vectorised.denominator,
    )
    assert np.array_equal(np.diff(vectorised.option_ptr)[outcomes], np.diff(explored.option_ptr))
    chosen = expand_ranges(vectorised.option_ptr[outcomes], vectorised.option_ptr[outcomes + 1])
    assert np.array_equal(vectorised.option_target[chosen], perm[explored.option_target])
    assert np.array_equal(vectorised.option_move[chosen], explored.option_move)
    assert np.array_equal(vectorised.option_passes[chosen], explored.option_passes)


@pytest.mark.parametrize("pieces", [1, 2])
@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_vectorised_graph_equals_state_by_state_exploration(name, pieces):
    game = Ur(name, pieces)
    vectorised = game.build_graph()
    explored = build(game, explore=True)
    assert vectorised.states[vectorised.start] == UrState((), 0, (), 0)
    assert explored.n_options > 3 * explored.n_states
    assert_same_graph(vectorised, explored)


def test_a_custom_start_explores_only_what_follows():
    graph = build(Ur("finkel", start="14+6/14+6"))
    assert set(graph.states) == {pos("14+6/14+6"), WIN}


@pytest.mark.parametrize(
    "name, pieces",
    [
        ("finkel", 1),
        ("finkel", 2),
        ("finkel", 3),
        ("blitz", 1),
        ("blitz", 2),
        ("aseb", 1),
        ("aseb", 2),
    ],
)
def test_every_position_is_reachable_when_a_zero_can_be_thrown(name, pieces):
    # A throw of 0 passes from any position, so every board with either side to move
    # arises: the graph holds exactly the closed-form count (plus the one WIN state).
    graph = Ur(name, pieces).build_graph()
    assert graph.n_states - 1 == count_nonterminal(*GEOMETRY[name], pieces)
    assert int(graph.terminal.sum()) == 1 and graph.states[graph.n_states - 1] == WIN


def test_masters_reaches_fewer_positions_without_a_zero():
    # With no throw of 0 a side passes only when it has no move. With one piece each,
    # 61 of the 277 boards cannot arise with that side to move:
    #   * the opponent on its rosette 4, 8 or 12 (17 + 16 + 16 boards): it landed there,
    #     threw again, and from those squares every throw 1..4 moves it on;
    #   * the mover alone on a square that is not a rosette (12 boards): the opponent,
    #     waiting, always has an entering move, so only a rosette lets the mover throw again.
    ruleset = rule_set("masters", 1)
    graph = Ur(ruleset).build_graph()
    every = {state_from_code(int(c), ruleset.length) for c in state_codes(ruleset)}
    assert len(every) == count_nonterminal(*GEOMETRY["masters"], 1) == 277
    missing = every - set(graph.states)
    rosettes = ROSETTE_SQUARES["masters"]
    assert missing == {
        s
        for s in every
        if (s.opponent and s.opponent[0] in {4, 8, 12})
        or (s.mover and not s.opponent and s.mover[0] not in rosettes)
    }
    assert len(missing) == 61 and graph.n_states - 1 == 216
    # With two pieces each (measured): 18,992 of the 20,314 boards arise.
    graph2 = Ur("masters", 2).build_graph()
    assert count_nonterminal(*GEOMETRY["masters"], 2) == 20314
    assert graph2.n_states - 1 == 18992


@pytest.mark.parametrize("name", RULESETS)
def test_outcome_probabilities_sum_to_one_in_every_state(name):
    graph = Ur(name, 2).build_graph()
    live = ~graph.terminal
    sums = np.add.reduceat(graph.outcome_weight, graph.outcome_ptr[:-1][live])
    assert np.all(sums == graph.denominator)
    assert graph.denominator == (8 if name == "masters" else 16)
    per_state = np.diff(graph.outcome_ptr)
    assert set(per_state[live].tolist()) == {4 if name == "masters" else 5}
    # A pass (move -1) is always the only option of its outcome, and in masters it means
    # that no legal move exists: check against legal_moves for every pass.
    passes = np.flatnonzero(graph.option_move == -1)
    outcome = graph.option_outcome[passes]
    assert np.all(np.diff(graph.option_ptr)[outcome] == 1)
    if name == "masters":
        ruleset, game = rule_set(name, 2), Ur(name, 2)
        throws = game.throws()
        for k in outcome[:: max(1, len(outcome) // 400)]:
            state = graph.states[graph.outcome_state[k]]
            throw = throws[k - graph.outcome_ptr[graph.outcome_state[k]]]
            assert legal_moves(state, throw, ruleset) == []


# ---------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------
def test_king_of_ur_endgames_exactly():
    # (a) Both on their last square (14): a 1 wins (1/4), anything else hands the same
    #     position over: v = 1/4 + 3/4 (1 - v), v = 4/7.
    # (c) The other side to move, mover on 14 and opponent on 13: w = 1/4 + 3/4 (1 - u),
    # (b) mover on 13: 2 wins (3/8), 1 reaches the rosette 14 and throws again (1/4 * 4/7),
    #     0, 3, 4 pass to (c) (3/8): u = 3/8 + 1/7 + 3/8 (1 - w).
    #     So u = 116/161, w = 74/161.
    values = {
        text: solve(build(Ur("finkel", start=text)), exact=True).start_value
        for text in ("14+6/14+6", "13+6/14+6", "14+6/13+6")
    }
    assert values == {"14+6/14+6": F(4, 7), "13+6/14+6": F(116, 161), "14+6/13+6": F(74, 161)}
    u, w = values["13+6/14+6"], values["14+6/13+6"]
    assert u == F(3, 8) + F(1, 4) * F(4, 7) + F(3, 8) * (1 - w)
    assert w == F(1, 4) + F(3, 4) * (1 - u)
    # The other pieces do not matter: the same endgame with one piece each.
    solution = solve(Ur("finkel", 1).build_graph(), exact=True)
    assert [solution.value(pos(t, pieces=1)) for t in ("14/14", "13/14", "14/13")] == [
        F(4, 7),
        F(116, 161),
        F(74, 161),
    ]


FINKEL_1_START = F(
    int(
        "24376836161487555391769649369435603137331883740193786327165840837995742651868499084806"
        "99398860208713659434974657553956790923837788307482162026741465920594879192321756714895"
        "6947898628567365207024100971560745517481128246827646929"
    ),
    int(
        "45989705766799459513590678905569839207904524254449707150670910082263227176545982135796"
        "55979264744196143897415160840658686655383574393580205029972923762842691876180172175895"
        "4933460676701999737261331802073982544243335723876953125"
    ),
)


def plain_value_iteration(game, sweeps=2000):
    """Values by repeated Bellman sweeps over Ur.outcomes, independent of gamegraph.solve."""
    states, queue = {game.start(): None}, [game.start()]
    while queue:
        state = queue.pop()
        for outcome in game.outcomes(state):
            for option in outcome.options:
                if option.target != WIN and option.target not in states:
                    states[option.target] = None
                    queue.append(option.target)
    rows = {
        s: [
            (float(o.probability), [(x.target, x.passes) for x in o.options])
            for o in game.outcomes(s)
        ]
        for s in states
    }
    value = dict.fromkeys(states, 0.5)
    value[WIN] = 1.0
    for _ in range(sweeps):
        change = 0.0
        for s, row in rows.items():
            new = sum(
                p * max(1 - value[t] if passes else value[t] for t, passes in opts)
                for p, opts in row
            )
            change = max(change, abs(new - value[s]))
            value[s] = new
        if change < 1e-15:
            break
    return value


@pytest.mark.parametrize("name", RULESETS)
def test_one_piece_exact_solve_agrees_with_float_and_a_plain_value_iteration(name):
    game = Ur(name, 1)
    graph = game.build_graph()
    exact = solve(graph, exact=True)
    approx = solve(graph)
    assert approx.residual <= 1e-12
    assert all(isinstance(v, F) for v in exact.values)
    assert np.max(np.abs(exact.values.astype(float) - approx.values)) <= 1e-12
    plain = plain_value_iteration(game)
    assert max(abs(plain[s] - float(exact.values[i])) for i, s in enumerate(graph.states)) <= 1e-12
    if name == "finkel":
        assert exact.start_value == FINKEL_1_START
        assert float(FINKEL_1_START) == pytest.approx(0.5300498395248594, abs=1e-15)


@pytest.mark.parametrize("name", ["finkel", "aseb"])
def test_two_piece_float_solve_residual(name):
    solution = solve(Ur(name, 2).build_graph())
    assert solution.residual <= 1e-12
    assert 0.5 < solution.start_value < 0.53


def two_seats(graph):
    """The graph with the seat (0 = first player, 1 = second) added to each state, so that
    the two players can follow different policies: state ``seat * n + i`` is board ``i``
    with that seat to move; an option that passes the turn switches the seat."""
    n, outcomes, options = graph.n_states, graph.n_outcomes, graph.n_options
    passes = graph.option_passes.astype(np.int64)
    return StateGraph(
        rules=graph.rules,
        states=list(range(2 * n)),
        start=graph.start,
        outcome_ptr=np.concatenate([graph.outcome_ptr[:-1], graph.outcome_ptr + outcomes]),
        outcome_weight=np.tile(graph.outcome_weight, 2),
        denominator=graph.denominator,
        option_ptr=np.concatenate([graph.option_ptr[:-1], graph.option_ptr + options]),
        option_target=np.concatenate(
            [graph.option_target + n * passes, graph.option_target + n * (1 - passes)]
        ),
        option_move=np.tile(graph.option_move, 2),
        option_passes=np.tile(graph.option_passes, 2),
        terminal=np.tile(graph.terminal, 2),
        terminal_value=np.tile(graph.terminal_value, 2),
        terminal_exact={
            i + n * seat: v for i, v in graph.terminal_exact.items() for seat in (0, 1)
        },
    )


def test_no_strategy_beats_the_optimum_and_the_optimum_beats_every_strategy():
    # Against an optimal opponent no strategy wins more than the optimal value, and the
    # optimal strategy wins at least that much against anything (the game's minimax
    # value). Two pieces each, so that moves are real choices (with one piece there is
    # never more than one legal move).
    plain = Ur("finkel", 2).build_graph()
    optimum = solve(plain)
    v = optimum.start_value
    seats = two_seats(plain)
    optimal = np.tile(optimum.policy.choice, 2)
    seat_of = np.repeat([0, 1], plain.n_outcomes)
    assert evaluate(seats, Policy(optimal)).start_value == pytest.approx(v, abs=1e-12)
    counts = np.diff(seats.option_ptr)
    rng = np.random.default_rng(7)
    others = {
        "first": np.where(counts > 0, 0, -1),
        "last": counts - 1,
        "random": np.where(counts > 0, rng.integers(0, np.maximum(counts, 1)), -1),
    }
    for name, other in others.items():
        first_deviates = np.where(seat_of == 0, other, optimal).astype(np.int32)
        second_deviates = np.where(seat_of == 1, other, optimal).astype(np.int32)
        low = evaluate(seats, Policy(first_deviates)).start_value
        high = evaluate(seats, Policy(second_deviates)).start_value
        # The check has teeth: each of these strategies gives something away.
        assert low < v - 1e-3 and high > v + 1e-3, name
    # Both seats playing "first" is a symmetric game again: the seated graph agrees with
    # evaluating the plain graph.
    both = evaluate(seats, Policy(np.where(counts > 0, 0, -1).astype(np.int32))).start_value
    plain_first = np.where(np.diff(plain.option_ptr) > 0, 0, -1).astype(np.int32)
    assert both == pytest.approx(evaluate(plain, Policy(plain_first)).start_value, abs=1e-12)


def test_monte_carlo_agrees_with_the_solved_start_value():
    graph = Ur("finkel", 2).build_graph()
    solution = solve(graph)
    result = simulate(graph, solution.policy, games=40000, seed=2024)
    low, high = result.interval(0.999)
    assert low < solution.start_value < high
    assert high - low < 0.02
    assert result.unfinished == 0
