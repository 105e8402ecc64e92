"""The Royal Game of Ur: four rule sets, positions, legal moves and the full state graph.

Each side races its pieces along its own path of tiles: from off the board, over the
path, and off the far end. Some tiles are the side's own, the others are shared with
the opponent, and a piece landing on an opponent's piece sends it back to the start
(unless it stands on a rosette and rosettes are safe). Landing on a rosette gives
another throw; in ``blitz`` a capture does too. A throw of 0, or one without a legal
move, passes the turn. The first side to bear off all its pieces wins.

A position is seen from the side about to throw, the *mover*: :class:`UrState` lists
the path squares its pieces stand on (1 .. L, in the order they are walked), how many
it has borne off, and the same for the opponent in the opponent's own numbering.
Pieces not on the board and not borne off are waiting. Passing the turn swaps the two
sides, so the value of every position is the probability that the mover wins, as
everywhere in gamegraph.

The written form of a position (:func:`parse_position`, :func:`format_position`) is
``"4,13+2/6+1"``: the mover's squares, ``+`` its pieces borne off, a slash, then the
opponent's. An empty side is written ``-`` (``"-/-"`` is the start).

Options after a throw are ordered by the square the moved piece starts from, entering
pieces (square 0) first; an option's move number is that square.

Examples
--------
>>> game = Ur("finkel", pieces=1)
>>> state = parse_position("13/14", game.ruleset)
>>> [(str(o.probability), [(o2.move, format_position(o2.target), o2.passes) for o2 in o.options])
...  for o in game.outcomes(state)]                       # doctest: +NORMALIZE_WHITESPACE
[('1/16', [(-1, '14/13', True)]),
 ('1/4', [(13, '14/14', False)]),
 ('3/8', [(13, 'WIN', False)]),
 ('1/4', [(-1, '14/13', True)]),
 ('1/16', [(-1, '14/13', True)])]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import NamedTuple

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order

from ..dice import FOUR_BINARY, THREE_BINARY_ZERO_IS_FOUR, Dice
from ..errors import InvalidArgumentError, UnknownNameError
from ..graph import StateGraph, expand_ranges
from ..rules import Option, Outcome, Rules
from .ur_count import PATHS, PIECES, ROSETTES

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
    dice : gamegraph.dice.Dice
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
        """The opponent's number for the mover's ``square``, 0 when the tile is the mover's alone."""
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
    if (
        isinstance(pieces, bool)
        or not isinstance(pieces, (int, np.integer))
        or not 1 <= pieces <= MAX_PIECES
    ):
        raise InvalidArgumentError(
            f"pieces must be a whole number from 1 to {MAX_PIECES}, got {pieces!r}"
        )
    return int(pieces)


def rule_set(name: str, pieces: int | None = None) -> RuleSet:
    """The rule set called ``name``, with its own piece count unless ``pieces`` is given.

    >>> rule_set("finkel").pieces, rule_set("aseb", pieces=2).pieces
    (7, 2)
    >>> rule_set("bell")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown rule set 'bell'; accepted: finkel, masters, blitz, aseb
    """
    if isinstance(name, RuleSet):
        return name if pieces is None else replace(name, pieces=check_pieces(pieces))
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


def parse_position(text: str, ruleset: RuleSet) -> UrState:
    """Read a position written as by :func:`format_position`, checked against the rules.

    >>> parse_position("14+6/14+6", rule_set("finkel"))
    UrState(mover=(14,), mover_off=6, opponent=(14,), opponent_off=6)
    >>> parse_position("5,5/-", rule_set("finkel"))
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: position '5,5/-': two of the mover's pieces on square 5
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
        squares, _, off = part.strip().partition("+")
        try:
            off = int(off) if off else 0
            numbers = [] if squares.strip() in ("", "-") else [int(s) for s in squares.split(",")]
        except ValueError:
            fail(f"{part!r} is not a list of square numbers with an optional '+borne off'")
        sides.append((numbers, off))
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


class Ur(Rules):
    """The Royal Game of Ur under one rule set.

    Parameters
    ----------
    rules : str or RuleSet
        ``finkel``, ``masters``, ``blitz`` or ``aseb`` (:data:`RULESETS`).
    pieces : int, optional
        Pieces per side (1 to 7); the rule set's own count by default.
    start : UrState or str, optional
        Play from this position instead of the start; the graph then holds only what is
        reachable from it (built state by state), which suits endgames.

    Examples
    --------
    The "King of Ur" endgame: each side has one piece on its last square.

    >>> from gamegraph import build, solve
    >>> game = Ur("finkel", start="14+6/14+6")
    >>> solve(build(game), exact=True).start_value
    Fraction(4, 7)
    """

    def __init__(self, rules="finkel", pieces: int | None = None, start=None):
        self.ruleset = rule_set(rules, pieces)
        if isinstance(start, str):
            start = parse_position(start, self.ruleset)
        elif start is not None:
            problem = position_problem(start, self.ruleset)
            if problem:
                raise InvalidArgumentError(f"start position {start!r}: {problem}")
        self._start = start
        self.name = f"ur-{self.ruleset.name}-{self.ruleset.pieces}"

    @property
    def pieces(self) -> int:
        return self.ruleset.pieces

    def start(self):
        return start_position() if self._start is None else self._start

    def terminal_value(self, state):
        return Fraction(1) if state == WIN else None

    def outcomes(self, state):
        ruleset = self.ruleset
        outcomes = []
        for throw, numerator in ruleset.throws:
            probability = Fraction(numerator, ruleset.denominator)
            options = []
            for move in legal_moves(state, throw, ruleset):
                target, passes = play(state, move, ruleset)
                options.append(Option(target, move[0], passes))
            if not options:
                options.append(Option(state.flipped(), -1, True))
            outcomes.append(Outcome(probability, tuple(options)))
        return outcomes

    def throws(self) -> list[int]:
        """The throws of the dice, in outcome order."""
        return [throw for throw, _ in self.ruleset.throws]

    def label(self, state) -> str:
        return format_position(state)

    def move_label(self, move: int) -> str:
        return "pass" if move < 0 else ("enter" if move == 0 else f"from {move}")

    def build_graph(self) -> StateGraph:
        """Every position at once, vectorised (see :func:`build_board_graph`); with a
        custom start, only the positions reachable from it, explored one by one.
        """
        if self._start is not None:
            from ..build import build

            return build(self, explore=True)
        return build_board_graph(self)


# ---------------------------------------------------------------------------
# Vectorised construction: positions as packed integer codes.
#
# code = mover_mask | mover_off << L | opponent_mask << (L + 3) | opponent_off << (2L + 3)
# where bit s-1 of a mask is square s. Sorted codes number the states; a successor is
# found by binary search. Flipping the side to move swaps the two halves.

_OFF_BITS = 3


def _popcount(masks: np.ndarray) -> np.ndarray:
    counts = np.zeros(masks.shape, dtype=np.int64)
    m = masks.copy()
    while m.any():
        counts += m & 1
        m >>= 1
    return counts


def _side_configurations(length: int, pieces: int):
    """Every (mask, off) one side can show, with off < pieces (the game not yet won)."""
    masks = np.arange(1 << length, dtype=np.int64)
    on_board = _popcount(masks)
    masks, on_board = masks[on_board <= pieces], on_board[on_board <= pieces]
    spare = pieces - on_board  # waiting or borne off
    mask = np.repeat(masks, spare + 1)
    off = expand_counts(spare + 1)
    keep = off < pieces
    return mask[keep], off[keep]


def expand_counts(counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(c) for c in counts])``, vectorised."""
    total = int(counts.sum())
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    return np.arange(total, dtype=np.int64) - starts


class Geometry:
    """Per-square lookup arrays of a rule set (index = square 0 .. L + 1)."""

    def __init__(self, ruleset: RuleSet):
        length = ruleset.length
        self.length = length
        self.opponent_square = np.zeros(length + 2, dtype=np.int64)
        self.rosette = np.zeros(length + 2, dtype=bool)
        for s in range(1, length + 1):
            self.opponent_square[s] = ruleset.opponent_square(s)
            self.rosette[s] = ruleset.is_rosette(s)
        # The opponent's shared squares as the mover's bits (for collision tests).
        self.shared_pairs = [
            (s, int(self.opponent_square[s]))
            for s in range(1, length + 1)
            if self.opponent_square[s]
        ]

    def opponent_in_mover_frame(self, opponent_mask: np.ndarray) -> np.ndarray:
        """The opponent's pieces on shared tiles, as bits of the mover's squares."""
        out = np.zeros_like(opponent_mask)
        for mine, theirs in self.shared_pairs:
            out |= ((opponent_mask >> (theirs - 1)) & 1) << (mine - 1)
        return out


def encode(mover_mask, mover_off, opponent_mask, opponent_off, length):
    return (
        mover_mask
        | (mover_off << length)
        | (opponent_mask << (length + _OFF_BITS))
        | (opponent_off << (2 * length + _OFF_BITS))
    )


def decode(code, length):
    half = length + _OFF_BITS
    low, high = code & ((1 << half) - 1), code >> half
    bits = (1 << length) - 1
    return low & bits, low >> length, high & bits, high >> length


def flip(code, length):
    half = length + _OFF_BITS
    return (code >> half) | ((code & ((1 << half) - 1)) << half)


def state_codes(ruleset: RuleSet) -> np.ndarray:
    """Sorted codes of every position with neither side finished."""
    length = ruleset.length
    geometry = Geometry(ruleset)
    mask, off = _side_configurations(length, ruleset.pieces)
    seen_by_mover = geometry.opponent_in_mover_frame(mask)
    codes = []
    for i in range(len(mask)):  # one opponent configuration at a time
        fits = (mask & seen_by_mover[i]) == 0
        codes.append(encode(mask[fits], off[fits], mask[i], off[i], length))
    codes = np.concatenate(codes)
    codes.sort()
    return codes


def state_from_code(code: int, length: int) -> UrState:
    mover, mover_off, opponent, opponent_off = (int(v) for v in decode(code, length))

    def squares(mask):
        return tuple(s + 1 for s in range(length) if mask >> s & 1)

    return UrState(squares(mover), mover_off, squares(opponent), opponent_off)


def state_to_code(state: UrState, length: int) -> int:
    def mask(squares):
        return sum(1 << (s - 1) for s in squares)

    return int(
        encode(mask(state.mover), state.mover_off, mask(state.opponent), state.opponent_off, length)
    )


class Positions:
    """Lazy sequence of a vectorised Ur graph's states: the sorted codes, then :data:`WIN`."""

    def __init__(self, codes: np.ndarray, ruleset: RuleSet):
        self.codes = codes
        self.ruleset = ruleset
        self.win = len(codes)

    def __len__(self):
        return len(self.codes) + 1

    def __getitem__(self, i):
        i = int(i)
        if i == self.win or i == -1:
            return WIN
        return state_from_code(int(self.codes[i]), self.ruleset.length)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def index_of(self, state):
        if state == WIN:
            return self.win
        if isinstance(state, str):
            state = parse_position(state, self.ruleset)
        if not isinstance(state, UrState) or position_problem(state, self.ruleset):
            raise KeyError(state)
        code = state_to_code(state, self.ruleset.length)
        i = int(np.searchsorted(self.codes, code))
        if i >= len(self.codes) or self.codes[i] != code:
            raise KeyError(state)
        return i


def build_board_graph(game: Ur) -> StateGraph:
    """The graph of every position of ``game`` (start included), built with numpy.

    Every position with neither side finished is a state (they are all reachable:
    see tests), plus one terminal state, :data:`WIN`, that the last piece borne off
    leads to. Outcomes follow the throws in order; options the square moved from.
    """
    ruleset = game.ruleset
    length, pieces = ruleset.length, ruleset.pieces
    geometry = Geometry(ruleset)
    codes = state_codes(ruleset)
    n = len(codes)
    win = n
    mover, mover_off, opponent, opponent_off = decode(codes, length)
    waiting = pieces - _popcount(mover) - mover_off
    throws = [t for t, _ in ruleset.throws]
    n_throws = len(throws)
    states = np.arange(n, dtype=np.int64)

    def number(found_codes):
        return np.searchsorted(codes, found_codes)

    # Legal moves of every state for every throw, collected as flat arrays.
    outcome_of, source_of, target_of, passes_of = [], [], [], []
    has_move = np.zeros((n, n_throws), dtype=bool)
    full = np.int64((1 << length) - 1)
    for t_index, throw in enumerate(throws):
        if throw == 0:
            continue
        for source in range(0, length + 1):
            dest = source + throw
            if dest > length + 1:
                break
            if source == 0:
                legal = waiting > 0
            else:
                legal = (mover >> (source - 1) & 1).astype(bool)
            new_mover = mover & ~(np.int64(1) << (source - 1)) if source else mover.copy()
            new_off = mover_off.copy()
            captured = np.zeros(n, dtype=bool)
            new_opponent = opponent
            again = np.zeros(n, dtype=bool)
            if dest <= length:
                legal &= ~(mover >> (dest - 1) & 1).astype(bool)
                new_mover = new_mover | (np.int64(1) << (dest - 1))
                theirs = int(geometry.opponent_square[dest])
                if theirs:
                    captured = (opponent >> (theirs - 1) & 1).astype(bool)
                    if ruleset.safe_rosettes and geometry.rosette[dest]:
                        legal &= ~captured
                        captured[:] = False
                    new_opponent = np.where(
                        captured, opponent & (full ^ (1 << (theirs - 1))), opponent
                    )
                again = np.full(n, bool(geometry.rosette[dest]))
                if ruleset.capture_bonus:
                    again |= captured
            else:
                new_off = mover_off + 1
            idx = states[legal]
            if not len(idx):
                continue
            has_move[idx, t_index] = True
            m, o, om, oo = new_mover[idx], new_off[idx], new_opponent[idx], opponent_off[idx]
            stay = again[idx]
            same = encode(m, o, om, oo, length)
            swapped = encode(om, oo, m, o, length)
            target = np.where(stay, number(same), number(swapped))
            target[o == pieces] = win
            outcome_of.append(idx * n_throws + t_index)
            source_of.append(np.full(len(idx), source, dtype=np.int32))
            target_of.append(target)
            passes_of.append(~stay & (o < pieces))
    # Throws without a legal move (0 among them) pass the turn on the same board.
    stuck_state, stuck_throw = np.nonzero(~has_move)
    outcome_of.append(stuck_state * n_throws + stuck_throw)
    source_of.append(np.full(len(stuck_state), -1, dtype=np.int32))
    target_of.append(number(flip(codes[stuck_state], length)))
    passes_of.append(np.ones(len(stuck_state), dtype=bool))

    outcome_of = np.concatenate(outcome_of)
    option_counts = np.bincount(outcome_of, minlength=n * n_throws)
    # Sources were collected in rising order within each throw, and a pass is alone in
    # its outcome, so a stable sort by outcome keeps every outcome's options in order.
    order = np.argsort(outcome_of, kind="stable")
    del outcome_of
    option_move = np.concatenate(source_of)[order]
    option_target = np.concatenate(target_of)[order]
    option_passes = np.concatenate(passes_of)[order]
    del order
    numerators = np.array([w for _, w in ruleset.throws], dtype=np.int64)
    graph = StateGraph(
        rules=game,
        states=Positions(codes, ruleset),
        start=int(number(np.array([0], dtype=np.int64))[0]),
        outcome_ptr=np.concatenate([np.arange(0, n * n_throws + 1, n_throws), [n * n_throws]]),
        outcome_weight=np.tile(numerators, n),
        denominator=ruleset.denominator,
        option_ptr=np.concatenate([[0], np.cumsum(option_counts)]).astype(np.int64),
        option_target=option_target.astype(np.int64),
        option_move=option_move.astype(np.int32),
        option_passes=option_passes,
        terminal=np.concatenate([np.zeros(n, dtype=bool), [True]]),
        terminal_value=np.concatenate([np.zeros(n), [1.0]]),
        terminal_exact={win: Fraction(1)},
    )
    return _reachable_part(graph)


def _reachable_part(graph: StateGraph) -> StateGraph:
    """The graph cut down to the states reachable from its start, renumbered in order.

    Under rules with a throw of 0 every position is reachable; without one (masters)
    some are not, since the side to move can then pass only when it has no move.
    """
    n = graph.n_states
    sources = graph.outcome_state[graph.option_outcome]
    adjacency = csr_matrix(
        (np.ones(len(sources), dtype=np.int8), (sources, graph.option_target)), shape=(n, n)
    )
    reached = np.zeros(n, dtype=bool)
    reached[breadth_first_order(adjacency, graph.start, return_predecessors=False)] = True
    if reached.all():
        return graph
    new_number = np.cumsum(reached) - 1
    kept = np.flatnonzero(reached)
    outcomes = expand_ranges(graph.outcome_ptr[kept], graph.outcome_ptr[kept + 1])
    options = expand_ranges(graph.option_ptr[outcomes], graph.option_ptr[outcomes + 1])
    per_state = graph.outcome_ptr[kept + 1] - graph.outcome_ptr[kept]
    per_outcome = graph.option_ptr[outcomes + 1] - graph.option_ptr[outcomes]
    codes = graph.states.codes[kept[:-1]]  # WIN, numbered last, is always reached
    return StateGraph(
        rules=graph.rules,
        states=Positions(codes, graph.states.ruleset),
        start=int(new_number[graph.start]),
        outcome_ptr=np.concatenate([[0], np.cumsum(per_state)]),
        outcome_weight=graph.outcome_weight[outcomes],
        denominator=graph.denominator,
        option_ptr=np.concatenate([[0], np.cumsum(per_outcome)]),
        option_target=new_number[graph.option_target[options]],
        option_move=graph.option_move[options],
        option_passes=graph.option_passes[options],
        terminal=graph.terminal[kept],
        terminal_value=graph.terminal_value[kept],
        terminal_exact={len(kept) - 1: Fraction(1)},
    )
