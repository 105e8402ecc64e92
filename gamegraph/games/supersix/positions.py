"""Super Six's vectorised build: every position numbered in numpy arrays, no Python loop.

:func:`build_arrays` makes the same :class:`~gamegraph.graph.StateGraph` that
:func:`gamegraph.build` explores state by state, for any peg count that fits in memory
(about 3 million positions at 1,000 pegs). Its ``graph.states`` is a
:class:`SixPositions`: the positions as aligned arrays ``b, c, o, phase``, sorted by a
packed integer key, with the terminal ``WIN`` numbered last. A position's number is found
by binary search on the key, one at a time (:meth:`SixPositions.index_of`) or for whole
arrays at once (:meth:`SixPositions.numbers`).

Examples
--------
>>> from gamegraph.games.supersix import SuperSix
>>> graph = build_arrays(SuperSix(pegs=4))
>>> states = graph.states
>>> len(states), states[states.index_of(SixState(1, 1, 2))], states[-1]
(11, SixState(b=1, c=1, o=2, phase=0), 'WIN')
>>> states.numbers([0, 1], [2, 1], [2, 2]).tolist() == [
...     states.index_of((0, 2, 2)), states.index_of((1, 1, 2))]
True
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ...graph import PositionTable, StateGraph
from .state import CONTINUE, FIRST_THROW, PLAY, SECOND_THROW, SOCKETS, STOP, TAKE, WIN, SixState


class SixPositions(PositionTable):
    """The states of a vectorised Super Six graph, made on demand.

    ``b, c, o, phase`` are aligned arrays in state-number order; ``keys`` their packed
    keys (sorted); ``win`` the number of the terminal state ``WIN``, the last one.
    """

    def __init__(self, b, c, o, phase, pegs):
        self.b, self.c, self.o, self.phase = b, c, o, phase
        self.pegs = pegs
        self.keys = _key(b, c, o, phase, pegs)  # sorted: numbering follows the key
        self.win = len(b)

    def __len__(self):
        return len(self.b) + 1

    def __getitem__(self, i):
        i = int(i)
        if i == self.win or i == -1:
            return WIN
        return SixState(int(self.b[i]), int(self.c[i]), int(self.o[i]), int(self.phase[i]))

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def index_of(self, state):
        if state == WIN:
            return self.win
        if not isinstance(state, tuple) or len(state) not in (3, 4):
            raise KeyError(state)
        b, c, o, phase = (tuple(state) + (PLAY,))[:4]
        try:
            key = _key(np.int64(b), np.int64(c), np.int64(o), np.int64(phase), self.pegs)
        except (TypeError, ValueError, OverflowError):
            raise KeyError(state) from None
        i = int(np.searchsorted(self.keys, key))
        # The key packs the fields in mixed radix, so a field out of range (c > pegs, say)
        # can alias another position's key: confirm the fields themselves.
        if i >= len(self.keys) or self.keys[i] != key or tuple(self[i]) != (b, c, o, phase):
            raise KeyError(state)
        return i

    def numbers(self, b, c, o, phase=PLAY) -> np.ndarray:
        """State numbers of positions given as aligned arrays (``phase`` may be one number).

        Raises ``KeyError`` naming the first position the table does not hold.
        """
        b, c, o = (np.asarray(x, dtype=np.int64) for x in (b, c, o))
        phase = np.broadcast_to(np.asarray(phase, dtype=np.int64), b.shape)
        found = self._search(b, c, o, phase)
        at = np.minimum(found, max(len(self.keys) - 1, 0))
        held = found < len(self.keys)
        if len(self.keys):
            # Compare the fields, not the keys: an out-of-range field can alias a key.
            held &= (self.b[at] == b) & (self.c[at] == c) & (self.o[at] == o)
            held &= self.phase[at] == phase
        if not held.all():
            i = np.flatnonzero(~held)[0]
            raise KeyError(SixState(int(b[i]), int(c[i]), int(o[i]), int(phase[i])))
        return found

    def _search(self, b, c, o, phase) -> np.ndarray:
        """Where positions' keys sort in the table; unchecked."""
        found = np.searchsorted(self.keys, _key(b, c, o, phase, self.pegs))
        return found.astype(np.int64, copy=False)


def _dense_numbers(keys: np.ndarray):
    """A function from packed keys to state numbers through a dense table (the build's
    inner loop): keys are small (under 32 (pegs + 2)**2), and one gather is several
    times faster than a binary search per position. A key not in the table gives a wrong
    number, which the build never uses.
    """
    table = np.zeros(int(keys[-1]) + 1 if len(keys) else 1, dtype=np.int32)
    table[keys] = np.arange(len(keys), dtype=np.int32)
    top = len(table) - 1

    def numbers(b, c, o, phase, pegs):
        return table[np.clip(_key(b, c, o, phase, pegs), 0, top)].astype(np.int64)

    return numbers


def _key(b, c, o, phase, pegs):
    """One sortable integer per position: the fields packed in mixed radix."""
    span = pegs + 2
    return ((np.asarray(phase, dtype=np.int64) * 8 + b) * span + c) * span + o


def build_arrays(rules) -> StateGraph:
    """The graph of a :class:`~gamegraph.games.supersix.SuperSix`, built with array operations.

    ``rules`` supplies ``pegs``, ``hands``, ``rules`` (the rule set's name) and ``start()``;
    the graph holds every normal-play position with ``b + c + o <= pegs`` and, under the
    ``first-round`` rules, the first round's positions.
    """
    n_pegs = rules.pegs
    parts = []
    for b in range(SOCKETS + 1):
        c, o = np.meshgrid(np.arange(1, n_pegs + 1), np.arange(1, n_pegs + 1), indexing="ij")
        keep = b + c + o <= n_pegs
        parts.append((np.full(int(keep.sum()), b), c[keep], o[keep]))
    b = np.concatenate([p[0] for p in parts])
    c = np.concatenate([p[1] for p in parts])
    o = np.concatenate([p[2] for p in parts])
    phase = np.zeros(len(b), dtype=np.int64)
    if rules.rules == "first-round":
        first, second = rules.hands
        extra = [(0, first, second, FIRST_THROW)]
        for bb, cc in ((1, first - 1), (0, first - 1)):
            if cc >= 1:
                extra.append((bb, second, cc, SECOND_THROW))
        eb, ec, eo, ep = (np.array(v) for v in zip(*extra))
        b, c, o, phase = (np.concatenate(pair) for pair in ((b, eb), (c, ec), (o, eo), (phase, ep)))
    order = np.argsort(_key(b, c, o, phase, n_pegs), kind="stable")
    b, c, o, phase = b[order], c[order], o[order], phase[order]
    states = SixPositions(b, c, o, phase, n_pegs)
    n = len(states)
    win = states.win

    lookup = _dense_numbers(states.keys)

    def number(bb, cc, oo, pp):
        """State numbers of positions (WIN where the mover's hand is empty).

        Unchecked: where an outcome does not exist (a place with 5 on the lid, a take
        with none) the position is not in the table and its number is never used.
        """
        out = np.full(len(bb), win, dtype=np.int64)
        live = cc > 0
        out[live] = lookup(bb[live], cc[live], oo[live], pp[live], n_pegs)
        return out

    play = phase == PLAY
    after_pass = np.where(phase == FIRST_THROW, SECOND_THROW, PLAY)
    # Outcomes per state, in the order of SuperSix.outcomes: place, take, pit.
    has_place = b < SOCKETS
    has_take = b > 0
    place_continue = number(b + 1, c - 1, o, np.zeros_like(b))
    place_stop = number(b + 1, o, c - 1, after_pass)
    pit_continue = number(b, c - 1, o, np.zeros_like(b))
    pit_stop = number(b, o, c - 1, after_pass)
    take = number(b - 1, o, c + 1, after_pass)

    # Options per outcome: 1 (a win, a take, or a first-round throw) or 2 (roll, stop).
    def shed(cont, stop):
        won = cont == win
        two = ~won & play
        first = np.where(won, win, np.where(play, cont, stop))
        move = np.where(won | play, CONTINUE, STOP)
        return two, first, move, stop

    place = shed(place_continue, place_stop)
    pit = shed(pit_continue, pit_stop)

    outcomes_per_state = has_place.astype(np.int64) + has_take + 1
    n_out = int(outcomes_per_state.sum())
    slot_place = np.cumsum(outcomes_per_state) - outcomes_per_state
    slot_take = slot_place + has_place
    slot_pit = slot_take + has_take
    weight = np.empty(n_out, dtype=np.int64)
    n_options = np.empty(n_out, dtype=np.int64)
    weight[slot_place[has_place]] = (SOCKETS - b)[has_place]
    weight[slot_take[has_take]] = b[has_take]
    weight[slot_pit] = 1
    n_options[slot_place[has_place]] = 1 + place[0][has_place]
    n_options[slot_take[has_take]] = 1
    n_options[slot_pit] = 1 + pit[0]
    option_ptr = np.concatenate([[0], np.cumsum(n_options)])
    target = np.empty(int(option_ptr[-1]), dtype=np.int64)
    move = np.empty(len(target), dtype=np.int32)
    passes = np.zeros(len(target), dtype=bool)

    def fill(slots, mask, shed_result):
        two, first, first_move, stop = shed_result
        at = option_ptr[slots[mask]]
        target[at] = first[mask]
        move[at] = first_move[mask]
        passes[at] = first_move[mask] == STOP
        second = at[two[mask]]
        target[second + 1] = stop[mask][two[mask]]
        move[second + 1] = STOP
        passes[second + 1] = True

    fill(slot_place, has_place, place)
    fill(slot_pit, np.ones(len(b), dtype=bool), pit)
    at = option_ptr[slot_take[has_take]]
    target[at] = take[has_take]
    move[at] = TAKE
    passes[at] = True

    outcome_ptr = np.concatenate([[0], np.cumsum(outcomes_per_state), [n_out]])
    terminal = np.zeros(n, dtype=bool)
    terminal[win] = True
    terminal_value = terminal.astype(np.float64)
    start = states.index_of(rules.start())
    return StateGraph(
        rules=rules,
        states=states,
        start=start,
        outcome_ptr=outcome_ptr,
        outcome_weight=weight,
        denominator=6,
        option_ptr=option_ptr,
        option_target=target,
        option_move=move,
        option_passes=passes,
        terminal=terminal,
        terminal_value=terminal_value,
        terminal_exact={win: Fraction(1)},
    )
