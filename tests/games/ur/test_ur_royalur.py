"""Cross-check of Ur move generation against the independent ``royalur`` package (PyPI).

royalur (RoyalUr.net's Python library) plays the same four rule sets. Its settings
name the paths Bell (finkel), Masters (masters and blitz) and Aseb; it has presets for
finkel, masters and aseb, and blitz is the masters preset with captures granting a roll
and 5 pieces. Its board holds pieces by tile, each piece with its index on its owner's
path (0-based); waiting pieces are the player's ``piece_count``, borne-off ones its
``score``.

Its dice have rough edges in 0.0.6: the masters preset uses four binary dice (the rules
use three, a throw of 0 counting as 4), ``GameSettings.with_dice(DiceType...)`` returns a
factory that fails, and ``BinaryDice0AsMax`` raises on a thrown 0 (it reads an
attribute it never sets). What must agree is the legal moves for a given throw, so the
throws are drawn here from gamegraph's dice and handed to royalur as ``Roll`` values.

At every position reached by seeded random playouts in royalur (and at random positions
built directly), for every throw, the set of legal moves royalur lists must be the set
:func:`gamegraph.games.ur.legal_moves` gives, and each move must lead to the same
position (captures, extra throw, borne off, won) under royalur's ``apply_move`` and
:func:`gamegraph.games.ur.play`.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gamegraph.games.ur import RULESETS, WIN, UrState, legal_moves, play, position_problem, rule_set

royalur = pytest.importorskip("royalur")

from royalur import Board, GameMetadata, GameSettings, Piece, PlayerState, PlayerType  # noqa: E402
from royalur.model import BinaryDice, BinaryDice0AsMax, Roll  # noqa: E402
from royalur.rules import (  # noqa: E402
    SimpleRuleSetProvider,
    WaitingForMoveGameState,
    WaitingForRollGameState,
    WinGameState,
)

#: `make test-fast` leaves these out: thousands of playouts against royalur.
pytestmark = pytest.mark.heavy

LIGHT, DARK = PlayerType.LIGHT, PlayerType.DARK


def royal_settings(name: str, pieces: int | None = None) -> GameSettings:
    settings = {
        "finkel": GameSettings.create_finkel,
        "masters": GameSettings.create_masters,
        "aseb": GameSettings.create_aseb,
        "blitz": lambda: (
            GameSettings.create_masters()
            .with_captures_grant_extra_rolls(True)
            .with_starting_piece_count(5)
        ),
    }[name]()
    return settings if pieces is None else settings.with_starting_piece_count(pieces)


def royal_rules(settings: GameSettings):
    return SimpleRuleSetProvider().create(settings, GameMetadata())


def tiles(path):
    return tuple((tile.x, tile.y) for tile in path)


# ---------------------------------------------------------------------------
# Conversions between royalur's board and UrState
# ---------------------------------------------------------------------------
def to_ur_state(state, settings: GameSettings) -> UrState:
    """The royalur position ``state`` seen from the side to move."""
    board = state.board
    squares = {}
    for player in (LIGHT, DARK):
        mine = []
        for index, tile in enumerate(settings.paths.get(player)):
            piece = board.get(tile)
            if piece is not None and piece.owner == player:
                assert piece.path_index == index
                mine.append(index + 1)
        assert len(mine) == board.count_pieces(player)  # every piece is on its path
        squares[player] = tuple(mine)
    turn = state.get_turn()
    other = turn.get_other_player()
    ours = UrState(
        squares[turn], state.get_player(turn).score, squares[other], state.get_player(other).score
    )
    assert ours.waiting(settings.starting_piece_count) == (
        state.get_player(turn).piece_count,
        state.get_player(other).piece_count,
    )
    return ours


def to_royal_state(state: UrState, settings: GameSettings, turn) -> WaitingForRollGameState:
    """A royalur position with ``turn`` to throw, built from ``state``."""
    board = Board(settings.board_shape)
    other = turn.get_other_player()
    waiting = state.waiting(settings.starting_piece_count)
    players = {}
    for player, squares, off, wait in (
        (turn, state.mover, state.mover_off, waiting[0]),
        (other, state.opponent, state.opponent_off, waiting[1]),
    ):
        path = settings.paths.get(player)
        for square in squares:
            assert board.get(path[square - 1]) is None
            board.set(path[square - 1], Piece(player, square - 1))
        players[player] = PlayerState(player, wait, off)
    return WaitingForRollGameState(board, players[LIGHT], players[DARK], turn)


def ur_move(move, ruleset):
    """A royalur Move as (from square, to square, captures)."""
    source = move.get_source_piece().path_index + 1 if move.has_source() else 0
    target = move.get_dest_piece().path_index + 1 if move.has_dest() else ruleset.length + 1
    if move.is_capture():
        captured = move.get_captured_piece()
        assert captured.owner != move.player
        assert captured.path_index + 1 == ruleset.opponent_square(target)
    return (source, target, move.is_capture())


# ---------------------------------------------------------------------------
# The comparison at one position
# ---------------------------------------------------------------------------
class Tally:
    def __init__(self):
        self.positions = self.throws = self.moves = self.captures = self.again = self.wins = 0
        self.passes = 0


def compare_position(state, rules, settings, ruleset, tally: Tally):
    """Every throw's legal moves and every move's result, royalur against gamegraph."""
    ours = to_ur_state(state, settings)
    assert position_problem(ours, ruleset) is None
    turn = state.get_turn()
    tally.positions += 1
    for throw, _ in ruleset.throws:
        roll = Roll(throw)
        royal_moves = rules.find_available_moves(state.board, state.get_turn_player(), roll)
        expected = legal_moves(ours, throw, ruleset)
        assert sorted(ur_move(m, ruleset) for m in royal_moves) == expected, (ours, throw)
        assert expected == sorted(expected)  # ours come ordered by source square
        tally.throws += 1
        if not royal_moves:
            # royalur hands the turn over on the unchanged board, as our pass does.
            after = rules.apply_roll(state, roll)[-1]
            assert isinstance(after, WaitingForRollGameState) and after.get_turn() != turn
            assert to_ur_state(after, settings) == ours.flipped()
            tally.passes += 1
            continue
        waiting = WaitingForMoveGameState(
            state.board, state.light_player, state.dark_player, turn, roll, royal_moves
        )
        for move in royal_moves:
            triple = ur_move(move, ruleset)
            result = rules.apply_move(waiting, move)[-1]
            after, passes = play(ours, triple, ruleset)
            tally.moves += 1
            tally.captures += triple[2]
            if isinstance(result, WinGameState):
                assert result.get_winner() == turn and (after, passes) == (WIN, False)
                tally.wins += 1
                continue
            assert after != WIN
            assert passes == (result.get_turn() != turn), (ours, triple)
            assert to_ur_state(result, settings) == after, (ours, triple)
            tally.again += not passes


def draw_throw(ruleset, rng):
    throws = [t for t, _ in ruleset.throws]
    weights = [w for _, w in ruleset.throws]
    return rng.choices(throws, weights)[0]


def playouts(name, pieces, positions, seed):
    """Random games in royalur, compared at every position; returns the tally."""
    ruleset = rule_set(name, pieces)
    settings = royal_settings(name, pieces)
    rules = royal_rules(settings)
    rng = random.Random(seed)
    tally = Tally()
    games = 0
    state = rules.generate_initial_game_state()
    while tally.positions < positions:
        compare_position(state, rules, settings, ruleset, tally)
        rolled = rules.apply_roll(state, Roll(draw_throw(ruleset, rng)))[-1]
        if isinstance(rolled, WaitingForRollGameState):  # no move: the turn passes
            state = rolled
            continue
        moves = rolled.available_moves
        # Mostly random moves; one time in three the most advanced piece, so that games
        # also reach their ends.
        move = moves[0] if rng.random() < 1 / 3 else rng.choice(moves)
        state = rules.apply_move(rolled, move)[-1]
        if isinstance(state, WinGameState):
            games += 1
            state = rules.generate_initial_game_state()
    return tally, games


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", RULESETS)
def test_royalur_settings_match_the_rule_sets(name):
    ruleset = rule_set(name)
    settings = royal_settings(name)
    assert tiles(settings.paths.light) == ruleset.path
    assert tiles(settings.paths.dark) == ruleset.dark_path
    assert {(t.x, t.y) for t in settings.board_shape.rosettes} == set(ruleset.rosettes)
    assert settings.starting_piece_count == ruleset.pieces
    assert settings.safe_rosettes == ruleset.safe_rosettes
    assert settings.captures_grant_extra_rolls == ruleset.capture_bonus
    assert settings.rosettes_grant_extra_rolls


def test_royalur_dice_probabilities_match():
    four = BinaryDice("four", 4).get_roll_probabilities()
    assert four == [float(rule_set("finkel").probability(t)) for t in range(5)]
    three = BinaryDice0AsMax("three", 3).get_roll_probabilities()
    assert three == [float(rule_set("masters").probability(t)) for t in range(5)]


def test_conversion_round_trip():
    settings = royal_settings("masters")
    state = UrState((3, 12, 16), 1, (5, 13, 14), 2)  # pieces on the crossing tiles
    for turn in (LIGHT, DARK):
        assert to_ur_state(to_royal_state(state, settings, turn), settings) == state


@pytest.mark.parametrize(
    "name, pieces, positions, seed",
    [
        ("finkel", 7, 1500, 1),
        ("finkel", 3, 600, 2),
        ("masters", 7, 1500, 3),
        ("masters", 3, 600, 4),
        ("blitz", 5, 1500, 5),
        ("blitz", 2, 600, 6),
        ("aseb", 5, 1500, 7),
        ("aseb", 2, 600, 8),
    ],
)
def test_playouts_agree_with_royalur(name, pieces, positions, seed):
    tally, games = playouts(name, pieces, positions, seed)
    assert tally.positions == positions
    # The playouts really cover the rules: captures, extra throws, passes, finished games.
    assert tally.moves > positions and tally.captures > positions // 20
    assert tally.again > positions // 10 and tally.passes > positions // 50  # masters: no 0
    assert games >= 1 and tally.wins > 0


def random_position(ruleset, rng):
    """A random legal position: each side some pieces on random squares, some borne off."""
    while True:
        sides = []
        for _ in range(2):
            on_board = rng.randint(0, ruleset.pieces)
            squares = tuple(sorted(rng.sample(range(1, ruleset.length + 1), on_board)))
            sides.append((squares, rng.randint(0, ruleset.pieces - on_board)))
        state = UrState(sides[0][0], sides[0][1], sides[1][0], sides[1][1])
        if position_problem(state, ruleset) is None:
            return state


@pytest.mark.parametrize("name", RULESETS)
def test_random_positions_agree_with_royalur(name):
    # Crowded boards that random play seldom reaches, with either colour to move.
    ruleset = rule_set(name)
    settings = royal_settings(name)
    rules = royal_rules(settings)
    rng = random.Random(name)
    tally = Tally()
    for i in range(500):
        state = random_position(ruleset, rng)
        turn = LIGHT if i % 2 else DARK
        royal = to_royal_state(state, settings, turn)
        assert to_ur_state(royal, settings) == state
        compare_position(royal, rules, settings, ruleset, tally)
    assert tally.captures > 200 and tally.wins > 0


@pytest.mark.parametrize(
    "change",
    [
        {"safe_rosettes": False},
        {"capture_bonus": True},
        {"rosettes": frozenset({(1, 1), (3, 1), (2, 4)})},
    ],
)
def test_the_comparison_notices_a_wrong_rule(change):
    # The same harness with one rule of gamegraph's finkel changed must disagree.
    ruleset = replace(rule_set("finkel"), **change)
    settings = royal_settings("finkel")
    rules = royal_rules(settings)
    rng = random.Random(1)
    with pytest.raises(AssertionError):
        for _ in range(500):
            state = random_position(ruleset, rng)
            compare_position(
                to_royal_state(state, settings, LIGHT), rules, settings, ruleset, Tally()
            )
