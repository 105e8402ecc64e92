"""Super Six in batch form: positions packed into integer codes, the rules on whole arrays.

:class:`SuperSixBatch` states the rules of :class:`~gamegraph.games.supersix.SuperSix`
for arrays of positions at once (a :class:`~gamegraph.batch.BatchRules`), so that
:func:`gamegraph.build` explores millions of positions with numpy and no Python object
per position (about 3 million at 1,000 pegs). ``SuperSix.build_graph()`` builds through it.

A position ``(b, c, o, phase)`` is the code (:func:`encode`, :func:`decode`)::

    normal play     (6 (b + c + o) + b) * span + c                  span = pegs + 1
    first round     F + (((phase - 1) * 2 + b) * span + c) * span + o     F = 6 span**2
    WIN             F + 4 span**2 (the last code)

so that the positions of one layer, ``b + c + o`` pegs in play (a strongly connected
component of the graph), have neighbouring codes. Every position is a root, listed in
code order, so the graph numbers the start first, then the other positions in code
order, and ``WIN``, reached only as a target, last: the solver then reads each
component's states from one stretch of memory.

The graph's ``states`` is a :class:`SixPositions`: the codes, the fields ``b, c, o,
phase`` as arrays in (phase, b, c, o) order (the order of tables and maps), and lookups
of single positions (:meth:`~SixPositions.index_of`) or whole arrays
(:meth:`SixPositions.numbers`).

Examples
--------
>>> from gamegraph.games.supersix import SuperSix
>>> graph = SuperSix(pegs=4).build_graph()
>>> states = graph.states
>>> len(states), states[states.index_of(SixState(1, 1, 2))], states[-1]
(11, SixState(b=1, c=1, o=2, phase=0), 'WIN')
>>> states.numbers([0, 1], [2, 1], [2, 2]).tolist() == [
...     states.index_of((0, 2, 2)), states.index_of((1, 1, 2))]
True
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property

import numpy as np

from ...batch import BatchRules, CodeTable, Expansion
from .state import CONTINUE, FIRST_THROW, PLAY, SECOND_THROW, SOCKETS, STOP, TAKE, WIN, SixState

#: Lid counts b = 0 .. 5.
_LIDS = SOCKETS + 1
#: The first round's positions take four blocks of span**2 codes (phase 1 or 2, b = 0 or 1).
_FIRST_ROUND_BLOCKS = 4


def _first_round_base(pegs):
    """The first code of the first round's positions (all normal play comes before it)."""
    return _LIDS * (pegs + 1) ** 2


def encode(b, c, o, phase, pegs):
    """The codes of positions given as fields (numbers or aligned arrays), unchecked."""
    span = pegs + 1
    b, c, o, phase = (np.asarray(x, dtype=np.int64) for x in (b, c, o, phase))
    play = (_LIDS * (b + c + o) + b) * span + c
    in_play = phase == PLAY
    if in_play.all():  # nearly every position: no first-round codes to make
        return np.asarray(play)
    first_round = _first_round_base(pegs) + (((phase - 1) * 2 + b) * span + c) * span + o
    return np.where(in_play, play, first_round)


def decode(codes, pegs):
    """The fields ``(b, c, o, phase)`` of position codes (not ``WIN``) as arrays."""
    span = pegs + 1
    codes = np.asarray(codes, dtype=np.int64)
    first_round = codes >= _first_round_base(pegs)
    rest, c = np.divmod(codes, span)
    total, b = np.divmod(rest, _LIDS)
    o = total - b - c
    if not first_round.any():
        return b, c, o, np.zeros(codes.shape, dtype=np.int64)
    # The first round's few positions, where there are any.
    block, rest = np.divmod(codes - _first_round_base(pegs), span * span)
    phase = np.where(first_round, block // 2 + 1, PLAY)
    b = np.where(first_round, block % 2, b)
    c = np.where(first_round, rest // span, c)
    o = np.where(first_round, rest % span, o)
    return b, c, o, phase


class SuperSixBatch(BatchRules):
    """The rules of a :class:`~gamegraph.games.supersix.SuperSix` game on arrays of codes.

    Parameters
    ----------
    game : SuperSix
        Supplies ``pegs``, ``hands``, ``rules`` (the rule set) and ``start()``; labels,
        layers and move names are the game's own.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.supersix import SuperSix
    >>> graph = build(SuperSixBatch(SuperSix(pegs=4)))
    >>> graph.n_states, solve(graph, exact=True).start_value
    (11, Fraction(36, 41))
    """

    def __init__(self, game):
        self.game = game
        self.name = game.name
        self.pegs = game.pegs
        self.win_code = _first_round_base(self.pegs) + _FIRST_ROUND_BLOCKS * (self.pegs + 1) ** 2
        self.code_bound = self.win_code + 1

    # -- the rules ----------------------------------------------------------------
    def start(self) -> int:
        return self.code(self.game.start())

    def roots(self) -> np.ndarray:
        """Every normal-play position with ``b + c + o <= pegs`` (``c, o >= 1``) and the
        first round's positions, in code order.
        """
        pegs = self.pegs
        # A stretch of codes per (total, b): c = 1 .. total - b - 1 after (6 total + b) * span.
        total, b = np.meshgrid(np.arange(pegs + 1), np.arange(_LIDS), indexing="ij")
        counts = np.maximum(total - b - 1, 0).ravel()
        heads = (_LIDS * total + b).ravel() * (pegs + 1) + 1
        offsets = np.arange(int(counts.sum()), dtype=np.int64)
        parts = [offsets + np.repeat(heads - (np.cumsum(counts) - counts), counts)]
        if self.game.rules == "first-round":
            first, second = self.game.hands
            extra = [(0, first, second, FIRST_THROW)]
            extra += [(b, second, first - 1, SECOND_THROW) for b in (0, 1) if first > 1]
            parts.append(encode(*np.array(extra).T, pegs))
        return np.concatenate(parts)  # ascending: (total, b, c) order, the first round after

    def terminal_values(self, codes):
        return np.where(codes == self.win_code, 1.0, np.nan)

    def expand(self, codes) -> Expansion:
        """Three outcomes per position (place, take, pit, as ``SuperSix.outcomes``; place
        only with a free socket, take only with a peg on the lid), each with the options
        the game gives: roll on or stop after shedding a peg, hand over after a take.
        """
        pegs, win = self.pegs, self.win_code
        if not len(codes) or codes.max() < _first_round_base(pegs):
            return self._expand_play(codes)
        b, c, o, phase = decode(codes, pegs)
        play = phase == PLAY
        handed = np.where(phase == FIRST_THROW, SECOND_THROW, PLAY)
        m = len(codes)
        weight = np.stack([SOCKETS - b, b, np.ones(m, dtype=np.int64)], axis=1)
        target = np.empty((m, 3, 2), dtype=np.int64)
        move = np.empty((m, 3, 2), dtype=np.int32)
        valid = np.zeros((m, 3, 2), dtype=bool)

        def shed(k, lid):
            """Outcome ``k``: a peg leaves the hand, ``lid`` pegs on the lid after it."""
            won = c == 1
            target[:, k, 0] = np.where(won, win, encode(lid, c - 1, o, PLAY, pegs))
            move[:, k, 0] = CONTINUE
            valid[:, k, 0] = won | play
            target[:, k, 1] = encode(lid, o, c - 1, handed, pegs)
            move[:, k, 1] = STOP
            valid[:, k, 1] = ~won

        shed(0, np.minimum(b + 1, SOCKETS))
        target[:, 1, 0] = encode(np.maximum(b - 1, 0), o, c + 1, handed, pegs)
        move[:, 1, 0] = TAKE
        valid[:, 1, 0] = True
        valid[:, 1, 1] = False
        shed(2, b)
        live = weight > 0
        valid &= live[:, :, None]
        # A pass is every option but a roll on or a win.
        passes = move != CONTINUE
        outcome_number = np.cumsum(live.ravel()) - 1
        return Expansion(
            outcome_state=np.repeat(np.arange(m, dtype=np.int64), live.sum(axis=1)),
            outcome_weight=weight[live],
            denominator=6,
            option_outcome=np.broadcast_to(outcome_number.reshape(m, 3, 1), valid.shape)[valid],
            option_target=target[valid],
            option_move=move[valid],
            option_passes=passes[valid],
        )

    def _expand_play(self, codes) -> Expansion:
        """:meth:`expand` for normal-play positions only (all but the first round's few),
        the same arrays: each target is the code moved by a constant or rebuilt from ``o``.
        """
        span, win = self.pegs + 1, self.win_code
        stretch, c = np.divmod(codes, span)  # stretch: 6 (b + c + o) + b
        b = stretch % _LIDS
        o = stretch // _LIDS - b - c
        head = codes - c  # the code of b/0/o + c, so head + x is b/x/(total - b - x)
        won = c == 1
        m = len(codes)
        weight = np.stack([SOCKETS - b, b, np.ones(m, dtype=np.int64)], axis=1)
        live = weight > 0
        # The options of the three outcomes side by side: place and roll on, place and
        # stop, take, pit and roll on, pit and stop (``expand`` without its empty slot).
        target = np.empty((m, 5), dtype=np.int64)
        target[:, 0] = np.where(won, win, codes + span - 1)  # b+1/c-1/o
        target[:, 1] = head + span + o  # b+1/o/c-1, the opponent's throw
        target[:, 2] = head - span + o  # b-1/o/c+1
        target[:, 3] = np.where(won, win, codes - _LIDS * span - 1)  # b/c-1/o
        target[:, 4] = head - _LIDS * span + o  # b/o/c-1
        valid = np.empty((m, 5), dtype=bool)
        valid[:, 0] = live[:, 0]
        valid[:, 1] = live[:, 0] & ~won
        valid[:, 2] = live[:, 1]
        valid[:, 3] = True
        valid[:, 4] = ~won
        moves = np.array([CONTINUE, STOP, TAKE, CONTINUE, STOP], dtype=np.int32)
        outcome_number = (np.cumsum(live.ravel()) - 1).reshape(m, 3)
        return Expansion(
            outcome_state=np.repeat(np.arange(m, dtype=np.int64), live.sum(axis=1)),
            outcome_weight=weight[live],
            denominator=6,
            option_outcome=outcome_number[:, [0, 0, 1, 2, 2]][valid],
            option_target=target[valid],
            option_move=np.broadcast_to(moves, valid.shape)[valid],
            option_passes=np.broadcast_to(moves != CONTINUE, valid.shape)[valid],
        )

    # -- readable states ----------------------------------------------------------
    def state(self, code: int):
        if code == self.win_code:
            return WIN
        b, c, o, phase = (int(x) for x in decode(code, self.pegs))
        return SixState(b, c, o, phase)

    def code(self, state) -> int:
        """The code of a position; ``KeyError`` for anything that is not one of this game's
        positions' fields in range (a field out of range must not alias another code).
        """
        if state == WIN:
            return self.win_code
        if not isinstance(state, tuple) or len(state) not in (3, 4):
            raise KeyError(state)
        fields = (tuple(state) + (PLAY,))[:4]
        if not all(_is_int(x) for x in fields) or not _fields_in_range(*fields, self.pegs):
            raise KeyError(state)
        return int(encode(*fields, self.pegs))

    def table(self, codes) -> SixPositions:
        return SixPositions(codes, self)

    def terminal_fraction(self, code, value):
        return Fraction(1)

    def label(self, state) -> str:
        return self.game.label(state)

    def layer(self, state):
        return self.game.layer(state)

    def move_label(self, move: int) -> str:
        return self.game.move_label(move)


def _play_fields(pegs):
    """``b, c, o`` of every normal-play position of a game of ``pegs`` pegs (c, o >= 1,
    b + c + o <= pegs), in (b, c, o) order.
    """
    lids, mine = [], []
    for b in range(_LIDS):
        mine.append(np.arange(1, max(pegs - b, 1), dtype=np.int64))
        lids.append(np.full(len(mine[-1]), b, dtype=np.int64))
    lids, mine = np.concatenate(lids), np.concatenate(mine)
    counts = pegs - lids - mine  # theirs runs 1 .. counts
    starts = np.cumsum(counts) - counts
    theirs = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(starts, counts) + 1
    return np.repeat(lids, counts), np.repeat(mine, counts), theirs


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _fields_in_range(b, c, o, phase, pegs):
    """Whether integer fields (numbers or aligned arrays) can be a position's: b in 0..5
    (0..1 in the first round), c and o in 0..pegs, phase 0..2.
    """
    ok = (phase >= PLAY) & (phase <= SECOND_THROW) & (b >= 0) & (b <= SOCKETS)
    ok &= (phase == PLAY) | (b <= 1)
    ok &= (c >= 0) & (c <= pegs) & (o >= 0) & (o <= pegs)
    ok &= (phase != PLAY) | (b + c + o <= pegs)  # beyond, a code would alias another's
    return ok


class SixPositions(CodeTable):
    """The states of a Super Six graph built from :class:`SuperSixBatch`, made on demand.

    ``rows`` are the positions' state numbers in (phase, b, c, o) order (``WIN``
    excluded) and ``b, c, o, phase`` their fields, aligned with ``rows``; they are made
    at first use. ``win`` is the number of ``WIN``.
    """

    def __init__(self, codes: np.ndarray, rules: SuperSixBatch):
        super().__init__(codes, rules)
        self.pegs = rules.pegs
        self.win = int(np.argmax(codes))  # WIN has the largest code

    @cached_property
    def _fields(self):
        b, c, o = _play_fields(self.pegs)
        codes = encode(b, c, o, PLAY, self.pegs)
        at = self._play_rank(codes)
        n_play = int(np.searchsorted(self._sorted, _first_round_base(self.pegs)))
        if (
            len(codes) == n_play
            and self._sorted[-1] == self.rules.win_code
            and np.array_equal(self._sorted[at], codes)
        ):
            # Every normal-play position is held (the roots are all of them), found by
            # arithmetic; the first round's few follow in code order, (phase, b, c, o).
            if n_play == len(self._sorted) - 1:
                return self._order[at], b, c, o, np.zeros(len(b), dtype=np.int64)
            first_round = self._order[n_play:-1]
            fb, fc, fo, fphase = decode(self._sorted[n_play:-1], self.pegs)
            return (
                np.concatenate([self._order[at], first_round]),
                np.concatenate([b, fb]),
                np.concatenate([c, fc]),
                np.concatenate([o, fo]),
                np.concatenate([np.full(len(b), PLAY, dtype=np.int64), fphase]),
            )
        rows = np.delete(np.arange(len(self.codes)), self.win)
        b, c, o, phase = decode(self.codes[rows], self.pegs)
        order = np.lexsort((o, c, b, phase))
        return rows[order], b[order], c[order], o[order], phase[order]

    @cached_property
    def _play_starts(self) -> np.ndarray:
        """Where each (b + c + o, b) stretch of normal-play codes starts among the sorted
        codes, were every position held: ``b + c + o - b - 1`` positions each (c from 1).
        """
        total, b = np.meshgrid(np.arange(self.pegs + 1), np.arange(_LIDS), indexing="ij")
        sizes = np.maximum(total - b - 1, 0).ravel()
        return np.concatenate([[0], np.cumsum(sizes)])

    def _play_rank(self, codes) -> np.ndarray:
        """Where normal-play ``codes`` sit among the sorted codes when every normal-play
        position is held (an index in range in any case; the caller checks it holds the code).
        """
        span = self.pegs + 1
        starts = self._play_starts
        stretch, c = np.divmod(codes, span)
        at = starts[np.clip(stretch, 0, len(starts) - 1)] + c - 1
        return np.clip(at, 0, len(self._sorted) - 1)

    rows = property(lambda self: self._fields[0])
    b = property(lambda self: self._fields[1])
    c = property(lambda self: self._fields[2])
    o = property(lambda self: self._fields[3])
    phase = property(lambda self: self._fields[4])

    def numbers(self, b, c, o, phase=PLAY) -> np.ndarray:
        """State numbers of positions given as aligned arrays (``phase`` may be one number).

        Raises ``KeyError`` naming the first position the table does not hold.
        """
        b, c, o = (np.asarray(x, dtype=np.int64) for x in (b, c, o))
        phases = np.broadcast_to(np.asarray(phase, dtype=np.int64), b.shape)
        if np.ndim(phase) == 0:
            phases = np.asarray(phase, dtype=np.int64)  # one number: checked once, not per row
        fine = _fields_in_range(b, c, o, phases, self.pegs)
        codes = encode(b, c, o, phases, self.pegs)
        # Arithmetic finds normal-play positions, a binary search the rest (a gather, where
        # a search over millions of positions misses the cache at every step).
        at = np.array(self._play_rank(codes))  # a copy to write to, of one number too
        missed = self._sorted[at] != codes
        if missed.any():
            at[missed] = np.minimum(
                np.searchsorted(self._sorted, codes[missed]), len(self._sorted) - 1
            )
            missed = self._sorted[at] != codes
        held = fine & ~missed & (codes != self.rules.win_code)
        if not held.all():
            i = int(np.argmin(held))
            phase = np.broadcast_to(phases, b.shape)
            raise KeyError(SixState(int(b[i]), int(c[i]), int(o[i]), int(phase[i])))
        return self._order[at]
