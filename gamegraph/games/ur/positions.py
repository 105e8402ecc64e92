"""The Royal Game of Ur's positions as packed integers, and its whole graph built with numpy.

A position (:class:`~.rules.UrState`) is packed into one int64 *code*::

    code = mover_mask | mover_off << L | opponent_mask << (L + 3) | opponent_off << (2L + 3)

where bit ``s - 1`` of a mask is square ``s`` and ``L`` the path's length
(:func:`encode`, :func:`decode`). Flipping the side to move swaps the two halves
(:func:`flip`). :class:`UrBatch` states the rules on whole arrays of codes (a
:class:`~gamegraph.batch.BatchRules`): every legal move of every position after every
throw, in numpy. :func:`build_board_graph` builds the full-board graph from it, the
reachable positions in code order, and :class:`Positions` gives the graph's states back
as ``UrState`` values on demand, without a Python object per position.
:func:`state_codes` lists the codes of every position with neither side finished.

Examples
--------
>>> from gamegraph.games.ur import rule_set
>>> finkel = rule_set("finkel", pieces=1)
>>> codes = state_codes(finkel)
>>> len(codes), state_from_code(int(codes[5]), finkel.length)
(217, UrState(mover=(5,), mover_off=0, opponent=(), opponent_off=0))
>>> state_to_code(state_from_code(int(codes[5]), 14), 14) == int(codes[5])
True
"""

from __future__ import annotations

import numpy as np

from ...batch import BatchRules, Expansion, build_batch
from ...graph import PositionTable, StateGraph
from .board import GEOMETRY
from .counting import count_nonterminal
from .rules import WIN, RuleSet, UrState, parse_position, position_problem

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


class Positions(PositionTable):
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


class UrBatch(BatchRules):
    """The rules of an :class:`~.game.Ur` game on arrays of position codes (the batch path).

    Every position after every throw at once: outcomes follow the throws in order, and an
    outcome's options the square the moved piece leaves (entering, square 0, first); a
    throw without a legal move (0 among them) passes the turn on the same board.

    The batch codes are compact, so that the explorer numbers them through a dense table:
    each side's ``(mask, off)`` is numbered among the configurations one side can show,
    in the order of its packed bits, and a position is ``opponent * S + mover`` with
    ``S`` configurations, which orders positions as their packed codes (:func:`encode`)
    do. ``WIN`` is ``S * S``, after every position. With ``number_by_code`` the graph
    holds the reachable positions in code order and ``WIN`` last: the layout of
    :class:`Positions` and of the solved tables. Under rules with a throw of 0 every
    position is reachable and all are roots; masters is explored from the start.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.ur import Ur
    >>> graph = build(UrBatch(Ur("finkel", pieces=1)))
    >>> graph.n_states, graph.states[graph.start], graph.states[-1]
    (218, UrState(mover=(), mover_off=0, opponent=(), opponent_off=0), 'WIN')
    """

    number_by_code = True

    def __init__(self, game):
        self.game = game
        self.ruleset = ruleset = game.ruleset
        self.name = game.name
        self.length = length = ruleset.length
        mask, off = _side_configurations(length, ruleset.pieces)
        self.sides = np.sort(mask | (off << length))  # packed (mask, off) of each number
        self.side_number = np.full(1 << (length + _OFF_BITS), -1, dtype=np.int64)
        self.side_number[self.sides] = np.arange(len(self.sides))
        self.win_code = len(self.sides) ** 2
        self.code_bound = self.win_code + 1
        self.geometry = Geometry(ruleset)

    def packed(self, codes) -> np.ndarray:
        """The packed codes (:func:`encode`) of compact position codes (not ``WIN``)."""
        opponent, mover = np.divmod(np.asarray(codes, dtype=np.int64), len(self.sides))
        return self.sides[mover] | (self.sides[opponent] << (self.length + _OFF_BITS))

    def compact(self, mover_mask, mover_off, opponent_mask, opponent_off) -> np.ndarray:
        """The compact codes of positions given by their fields (unchecked)."""
        length = self.length
        mover = self.side_number[mover_mask | (mover_off << length)]
        opponent = self.side_number[opponent_mask | (opponent_off << length)]
        return opponent * len(self.sides) + mover

    def start(self) -> int:
        return 0  # the empty board, nobody off: the first configuration of both sides

    def roots(self):
        if any(throw == 0 for throw, _ in self.ruleset.throws):
            packed = state_codes(self.ruleset)
            return self.compact(*decode(packed, self.length))
        return (self.start(),)

    def terminal_values(self, codes):
        return np.where(codes == self.win_code, 1.0, np.nan)

    def expand(self, codes) -> Expansion:
        ruleset, geometry = self.ruleset, self.geometry
        length, pieces = self.length, ruleset.pieces
        n = len(codes)
        mover, mover_off, opponent, opponent_off = decode(self.packed(codes), length)
        waiting = pieces - _popcount(mover) - mover_off
        throws = [t for t, _ in ruleset.throws]
        n_throws = len(throws)
        states = np.arange(n, dtype=np.int64)

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
                won = o == pieces
                o[won] = 0  # any configuration: the target is WIN
                target = np.where(stay, self.compact(m, o, om, oo), self.compact(om, oo, m, o))
                target[won] = self.win_code
                outcome_of.append(idx * n_throws + t_index)
                source_of.append(np.full(len(idx), source, dtype=np.int32))
                target_of.append(target)
                passes_of.append(~stay & ~won)
        # Throws without a legal move (0 among them) pass the turn on the same board.
        stuck_state, stuck_throw = np.nonzero(~has_move)
        outcome_of.append(stuck_state * n_throws + stuck_throw)
        source_of.append(np.full(len(stuck_state), -1, dtype=np.int32))
        opponent_part, mover_part = np.divmod(codes[stuck_state], len(self.sides))
        target_of.append(mover_part * len(self.sides) + opponent_part)
        passes_of.append(np.ones(len(stuck_state), dtype=bool))

        # Sources were collected in rising order within each throw, and a pass is alone in
        # its outcome, so a stable sort by outcome keeps every outcome's options in order.
        outcome_of = np.concatenate(outcome_of)
        order = np.argsort(outcome_of, kind="stable")
        numerators = np.array([w for _, w in ruleset.throws], dtype=np.int64)
        return Expansion(
            outcome_state=np.repeat(states, n_throws),
            outcome_weight=np.tile(numerators, n),
            denominator=ruleset.denominator,
            option_outcome=outcome_of[order],
            option_target=np.concatenate(target_of)[order],
            option_move=np.concatenate(source_of)[order],
            option_passes=np.concatenate(passes_of)[order],
        )

    def table(self, codes) -> Positions:
        return Positions(self.packed(codes[:-1]), self.ruleset)  # WIN, the largest, is last

    def state(self, code: int):
        if code == self.win_code:
            return WIN
        return state_from_code(int(self.packed(code)), self.length)

    def code(self, state) -> int:
        if state == WIN:
            return self.win_code
        return int(self.compact(*decode(np.int64(state_to_code(state, self.length)), self.length)))

    def label(self, state) -> str:
        return self.game.label(state)

    def move_label(self, move: int) -> str:
        return self.game.move_label(move)


def build_board_graph(game) -> StateGraph:
    """The graph of every position of ``game`` (an :class:`~.game.Ur`) reachable from the
    start, built from its batch form (:class:`UrBatch`): the positions in code order, then
    :data:`WIN`, that the last piece borne off leads to.

    Under rules with a throw of 0 every position is reachable; without one (masters)
    some are not, since the side to move can then pass only when it has no move.
    """
    most = count_nonterminal(*GEOMETRY[game.ruleset.name], game.ruleset.pieces) + 1
    graph = build_batch(UrBatch(game), max_states=most, progress=False)
    graph.rules = game  # the game's own rules, as for a state-by-state build
    return graph
