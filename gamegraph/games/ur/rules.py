"""The Royal Game of Ur's rules: four rule sets, positions, their notation and legal moves.

Each side races its pieces along its own path of tiles (:mod:`.board`): from off the
board, over the path, and off the far end. Some tiles are the side's own, the others are
shared with the opponent, and a piece landing on an opponent's piece sends it back to
the start (unless it stands on a rosette and rosettes are safe). Landing on a rosette
gives another throw; in ``blitz`` a capture does too. A throw of 0, or one without a
legal move, passes the turn. The first side to bear off all its pieces wins.

A position is seen from the side about to throw, the *mover*: :class:`UrState` lists
the path squares its pieces stand on (1 .. L, in the order they are walked), how many
it has borne off, and the same for the opponent in the opponent's own numbering.
Pieces not on the board and not borne off are waiting. Passing the turn swaps the two
sides, so the value of every position is the probability that the mover wins, as
everywhere in gamegraph.

The written form of a position (:func:`parse_position`, :func:`format_position`) is
``"4,13+2/6+1"``: the mover's squares, ``+`` its pieces borne off, a slash, then the
opponent's. An empty side is written ``-`` (``"-/-"`` is the start).

Moves after a throw (:func:`legal_moves`) are ordered by the square the moved piece
starts from, entering pieces (square 0) first. The :class:`~gamegraph.games.ur.game.Ur`
rules offer them to :func:`gamegraph.build` in that order.

Examples
--------
>>> finkel = rule_set("finkel", pieces=2)
>>> state = parse_position("4/6", finkel)
>>> [(move, format_position(play(state, move, finkel)[0]))
...  for move in legal_moves(state, 2, finkel)]
[((0, 2, False), '6/2,4'), ((4, 6, True), '-/6')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import NamedTuple

from ..._checks import check_int
from ...errors import InvalidArgumentError, UnknownNameError
from .board import PATHS, PIECES, ROSETTES
from .dice import FOUR_BINARY, THREE_BINARY_ZERO_IS_FOUR, Dice

RULESETS = tuple(PATHS)
MAX_PIECES = 7
WIN = "WIN"


@dataclass(frozen=True)
class RuleSet:
    """One rule set of the game, with its piece count.

    Attributes
    ----------
    name : str
    path : tuple of (x, y)
        Light's tiles in the order they are walked; dark walks the mirror image
        (x -> 4 - x). Lanes: x = 1 light's, 2 shared, 3 dark's.
    rosettes : frozenset of (x, y)
    dice : gamegraph.games.ur.dice.Dice
    pieces : int
        Pieces per side.
    safe_rosettes : bool
        A piece on a rosette cannot be captured.
    capture_bonus : bool
        A capture gives another throw.
    """

    name: str
    path: tuple
    rosettes: frozenset
    dice: Dice
    pieces: int
    safe_rosettes: bool
    capture_bonus: bool

    @property
    def length(self) -> int:
        """Squares on a side's path (L); square L + 1 is borne off."""
        return len(self.path)

    @property
    def denominator(self) -> int:
        """The dice's common probability denominator."""
        return lcm(*(p.denominator for _, p in self.dice.distribution))

    @property
    def throws(self) -> tuple:
        """Each throw with its probability's numerator over :attr:`denominator`, in order."""
        return tuple((t, int(p * self.denominator)) for t, p in self.dice.distribution)

    @property
    def dark_path(self) -> tuple:
        return tuple((4 - x, y) for x, y in self.path)

    def opponent_square(self, square: int) -> int:
        """The opponent's number for the mover's ``square`` (0: the tile is the mover's alone)."""
        tile = self.path[square - 1]
        dark = self.dark_path
        return dark.index(tile) + 1 if tile in dark else 0

    def is_rosette(self, square: int) -> bool:
        return self.path[square - 1] in self.rosettes

    def probability(self, throw: int) -> Fraction:
        return dict(self.dice.distribution).get(throw, Fraction(0))


_FLAGS = {  # dice, safe rosettes, capture gives a throw
    "finkel": (FOUR_BINARY, True, False),
    "masters": (THREE_BINARY_ZERO_IS_FOUR, False, False),
    "blitz": (FOUR_BINARY, False, True),
    "aseb": (FOUR_BINARY, True, False),
}
_BASE = {
    name: RuleSet(name, PATHS[name], frozenset(ROSETTES[name]), dice, PIECES[name], safe, bonus)
    for name, (dice, safe, bonus) in _FLAGS.items()
}


def check_pieces(pieces) -> int:
    """``pieces`` as an int, or InvalidArgumentError unless it is a whole number 1..7."""
    return check_int(pieces, "pieces", low=1, high=MAX_PIECES)


def check_throw(throw, ruleset: RuleSet) -> int:
    """``throw`` itself, or InvalidArgumentError unless the rule set's dice can make it.

    >>> check_throw(4, rule_set("finkel"))
    4
    >>> check_throw(0, rule_set("masters"))
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: throw 0 is not possible with these dice; accepted: 1, ...
    """
    if throw not in dict(ruleset.throws):
        raise InvalidArgumentError(
            f"throw {throw!r} is not possible with these dice; accepted: "
            + ", ".join(str(t) for t, _ in ruleset.throws)
        )
    return throw


def rule_set(name: str, pieces: int | None = None, *, default_pieces: int | None = None) -> RuleSet:
    """The rule set called ``name``, with its own piece count unless ``pieces`` is given
    (or, for a name, ``default_pieces``; a :class:`RuleSet` keeps its own).

    >>> rule_set("finkel").pieces, rule_set("aseb", pieces=2).pieces
    (7, 2)
    >>> finkel = rule_set("finkel")
    >>> rule_set("finkel", default_pieces=3).pieces, rule_set(finkel, default_pieces=3).pieces
    (3, 7)
    >>> rule_set("bell")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown rule set 'bell'; accepted: finkel, masters, ...
    """
    if isinstance(name, RuleSet):
        return name if pieces is None else replace(name, pieces=check_pieces(pieces))
    pieces = default_pieces if pieces is None else pieces
    if not isinstance(name, str) or name not in _BASE:
        raise UnknownNameError("rule set", name, RULESETS)
    base = _BASE[name]
    return base if pieces is None else replace(base, pieces=check_pieces(pieces))


class UrState(NamedTuple):
    """A position seen from the side about to throw.

    ``mover`` and ``opponent`` are the sorted path squares (1 .. L) each side's pieces
    stand on, in that side's own numbering; ``*_off`` count pieces borne off.
    """

    mover: tuple
    mover_off: int
    opponent: tuple
    opponent_off: int

    def flipped(self) -> UrState:
        """The same board with the other side to move."""
        return UrState(self.opponent, self.opponent_off, self.mover, self.mover_off)

    def waiting(self, pieces: int) -> tuple[int, int]:
        """Pieces still to enter, for the mover and the opponent."""
        return (
            pieces - len(self.mover) - self.mover_off,
            pieces - len(self.opponent) - self.opponent_off,
        )

    def __str__(self):
        return format_position(self)


def start_position() -> UrState:
    """Every piece waiting, nothing borne off."""
    return UrState((), 0, (), 0)


def format_position(state) -> str:
    """Write a position as ``"squares+off/squares+off"`` (``WIN`` for the terminal state).

    >>> format_position(UrState((4, 13), 2, (6,), 0))
    '4,13+2/6'
    """
    if state == WIN:
        return WIN

    def side(squares, off):
        text = ",".join(str(s) for s in squares) or "-"
        return f"{text}+{off}" if off else text

    return f"{side(state.mover, state.mover_off)}/{side(state.opponent, state.opponent_off)}"


#: One side of a written position: squares (ASCII digits, comma-separated, or ``-`` or
#: nothing for none on the board), then an optional ``+`` and the number borne off; spaces
#: and tabs may stand around each part. Numbers have at most 3 digits and may carry a
#: ``-`` (refused afterwards as off the path, with the square named).
_SIDE = re.compile(
    r"[ \t]*(?:-|(?P<squares>-?[0-9]{1,3}(?:[ \t]*,[ \t]*-?[0-9]{1,3})*))?[ \t]*"
    r"(?:\+[ \t]*(?P<off>-?[0-9]{1,3})?)?[ \t]*"
)


def parse_position(text: str, ruleset: RuleSet) -> UrState:
    """Read a position written as by :func:`format_position`, checked against the rules.

    Squares and counts are written with the ASCII digits 0-9 (not other scripts' digits,
    which Python's ``int`` would also read, nor ``1_3``).

    >>> parse_position("14+6/14+6", rule_set("finkel"))
    UrState(mover=(14,), mover_off=6, opponent=(14,), opponent_off=6)
    >>> parse_position("-/-", rule_set("finkel")) == start_position()
    True
    >>> parse_position("5,5/-", rule_set("finkel"))
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: position '5,5/-': two of the mover's pieces on square 5
    >>> parse_position("\u0663/-", rule_set("finkel"))
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: position '٣/-': '٣' is not a list of square \
numbers (digits 0-9, or '-' for none) with an optional '+borne off'
    """

    def fail(why):
        raise InvalidArgumentError(f"position {text!r}: {why}")

    if not isinstance(text, str) or text.count("/") != 1:
        fail(
            "write it as the mover's squares, '/', the opponent's squares "
            "(e.g. '4,13+2/6+1'; '-' for no pieces on the board)"
        )
    sides = []
    for part in text.split("/"):
        found = _SIDE.fullmatch(part)
        if found is None:
            fail(
                f"{part!r} is not a list of square numbers (digits 0-9, or '-' for none) "
                "with an optional '+borne off'"
            )
        squares, off = found.group("squares"), found.group("off")
        numbers = [int(s) for s in squares.split(",")] if squares else []
        sides.append((numbers, int(off) if off else 0))
    state = UrState(
        tuple(sorted(sides[0][0])), sides[0][1], tuple(sorted(sides[1][0])), sides[1][1]
    )
    problem = position_problem(state, ruleset)
    if problem:
        fail(problem)
    return state


def position_problem(state: UrState, ruleset: RuleSet) -> str | None:
    """Why ``state`` is not a position of the game (None when it is one)."""
    length, pieces = ruleset.length, ruleset.pieces
    for who, squares, off in (
        ("mover", state.mover, state.mover_off),
        ("opponent", state.opponent, state.opponent_off),
    ):
        for s in squares:
            if not 1 <= s <= length:
                return f"square {s} is off the {ruleset.name} path (squares 1 to {length})"
        if len(set(squares)) != len(squares):
            twice = next(s for s in squares if squares.count(s) > 1)
            return f"two of the {who}'s pieces on square {twice}"
        if off < 0 or len(squares) + off > pieces:
            return (
                f"the {who} has {len(squares)} on the board and {off} borne off, but each "
                f"side has {pieces} piece{'s' if pieces != 1 else ''}"
            )
    if state.opponent_off == pieces:
        return "the opponent has borne off every piece: the game is over"
    if state.mover_off == pieces:
        return "the mover has borne off every piece: the game is over"
    shared = {ruleset.opponent_square(s): s for s in state.mover if ruleset.opponent_square(s)}
    for s in state.opponent:
        if s in shared:
            return f"mover's square {shared[s]} and opponent's square {s} are the same tile"
    return None


def legal_moves(state: UrState, throw: int, ruleset: RuleSet) -> list[tuple[int, int, bool]]:
    """(from square, to square, captures) of every legal move, entering (square 0) first.

    ``to`` is L + 1 for a piece borne off.

    >>> finkel = rule_set("finkel", pieces=2)
    >>> legal_moves(parse_position("4/6", finkel), 2, finkel)
    [(0, 2, False), (4, 6, True)]
    >>> legal_moves(parse_position("4/8", finkel), 4, finkel)    # own piece; safe rosette
    []
    """
    length = ruleset.length
    if throw == 0:
        return []
    waiting = ruleset.pieces - len(state.mover) - state.mover_off
    sources = ([0] if waiting > 0 else []) + list(state.mover)
    moves = []
    for source in sources:
        target = source + throw
        if target > length + 1 or target in state.mover:
            continue
        captures = False
        if target <= length:
            there = ruleset.opponent_square(target)
            if there and there in state.opponent:
                if ruleset.safe_rosettes and ruleset.is_rosette(target):
                    continue
                captures = True
        moves.append((source, target, captures))
    return moves


def play(state: UrState, move: tuple[int, int, bool], ruleset: RuleSet):
    """The result of a legal move: (next state, whether the turn passes).

    The next state is :data:`WIN` when the move bears off the mover's last piece; when
    the turn passes it is seen from the opponent's side.
    """
    source, target, captures = move
    mover = [s for s in state.mover if s != source]
    mover_off = state.mover_off
    if target == ruleset.length + 1:
        mover_off += 1
        if mover_off == ruleset.pieces:
            return WIN, False
    else:
        mover.append(target)
    opponent = state.opponent
    if captures:
        gone = ruleset.opponent_square(target)
        opponent = tuple(s for s in opponent if s != gone)
    after = UrState(tuple(sorted(mover)), mover_off, opponent, state.opponent_off)
    again = target <= ruleset.length and (
        ruleset.is_rosette(target) or (captures and ruleset.capture_bonus)
    )
    return (after, False) if again else (after.flipped(), True)
