"""The Royal Game of Ur's positions as packed integers, and its whole graph built with numpy.

A position (:class:`~.rules.UrState`) is packed into one int64 *code*::

    code = mover_mask | mover_off << L | opponent_mask << (L + 3) | opponent_off << (2L + 3)

where bit ``s - 1`` of a mask is square ``s`` and ``L`` the path's length
(:func:`encode`, :func:`decode`). Flipping the side to move swaps the two halves
(:func:`flip`). The sorted codes of every position with neither side finished
(:func:`state_codes`) number the states of the full-board graph; a successor is found by
binary search. :func:`build_board_graph` makes every move of every position at once from
these arrays, and :class:`Positions` gives the graph's states back as ``UrState`` values
on demand, without a Python object per position.

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

from fractions import Fraction

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order

from ...csr import expand_ranges
from ...graph import PositionTable, StateGraph
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


def build_board_graph(game) -> StateGraph:
    """The graph of every position of ``game`` (an :class:`~.game.Ur`), built with numpy.

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
