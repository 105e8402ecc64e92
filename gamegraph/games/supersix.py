"""Super Six (also sold as Rio): two players race to get rid of their pegs.

A lid has five sockets and a pit. At the start of a turn the player must throw one die:

* a number whose socket is empty: put a peg in it (probability (5 - b)/6);
* a number whose socket is full: take that peg and the turn passes (b/6);
* a six: a peg goes down the pit, out of play for good (1/6).

After a throw that did not take a peg the player may throw again or stop (the turn
passes). Whoever has no pegs left wins.

A position is ``(b, c, o)``: pegs on the lid, pegs in the hand of the player about to
throw, pegs in the opponent's hand. The value of a position is the probability that the
player about to throw wins, the paper's P_(b/c/o) and the blog's P_roll(b, c, o); the
blog's P_end(b, c, o) = 1 - P_roll(b, o, c) (stopping hands the throw over) and
P_choice is the larger of the two, the "decision" being to roll when P_roll > P_end.

Pegs only ever leave play through the pit, so the graph is layered by the total
``b + c + o``, with cycles inside each layer. The graph holds every position with
``b + c + o <= pegs`` and ``c, o >= 1`` (the blog's 4,115 for 40 pegs), not only those
reachable from the start, so that tables and maps are complete.

Rule sets, by name (:data:`RULESETS`): ``free``, every turn starts with a throw and may
go on (the blog's rules); ``first-round``, in the first round each player throws
exactly once (the published analyses' rule).

Strategy notation (:func:`strategy_string`): for a total of ``i`` pegs in play, one digit
per decision position (j/k/l) with j + k + l = i, 1 = throw again, 0 = stop. Groups are
separated by slashes, from j = 1 peg on the lid (leftmost) to j = 5 (rightmost); within a
group k (the mover's pegs) rises from 1. Positions (1/k/1) are left out, as in the paper:
play never reaches them.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ..errors import InvalidArgumentError, UnknownNameError
from ..graph import StateGraph
from ..rules import Option, Outcome, Rules

SOCKETS = 5
RULESETS = ("free", "first-round")
WIN = "WIN"

#: Moves: what an option does.
CONTINUE, STOP, TAKE = 1, 0, 2

PLAY, FIRST_THROW, SECOND_THROW = 0, 1, 2


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 16 * 2**30


#: Refuse games whose solve is estimated to need more than this many bytes (3/4 of RAM).
MEMORY_LIMIT = _physical_memory() * 3 // 4
_BYTES_PER_STATE = 400  # peak of build + solve, measured at 1,000 pegs (docs/performance.md)


class SixState(NamedTuple):
    """A Super Six position: pegs on the lid, in the mover's hand, in the opponent's hand.

    ``phase`` is 0 in normal play; under the ``first-round`` rules 1 and 2 mark the first
    and second player's single throw of the first round.
    """

    b: int
    c: int
    o: int
    phase: int = PLAY

    def __str__(self):
        text = f"{self.b}/{self.c}/{self.o}"
        return text if self.phase == PLAY else f"{text} (first round, throw {self.phase})"


def count_states(pegs: int) -> int:
    """Positions (b, c, o) with b <= 5, c, o >= 1 and b + c + o <= pegs.

    >>> count_states(40)
    4115
    """
    return sum((pegs - b) * (pegs - b - 1) // 2 for b in range(SOCKETS + 1) if pegs - b >= 2)


def estimate_bytes(pegs: int) -> int:
    """Rough memory a solve of ``pegs`` pegs needs (graph arrays and solver work)."""
    return _BYTES_PER_STATE * count_states(pegs)


class SuperSix(Rules):
    """Super Six for a given number of pegs.

    Parameters
    ----------
    pegs : int
        Total pegs, split evenly between the players (must be even).
    hands : (int, int), optional
        Explicit pegs of the first and second player instead of ``pegs``.
    rules : {"free", "first-round"}

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> solution = solve(build(SuperSix(pegs=4)), exact=True)
    >>> solution.value(SixState(0, 2, 2)), solution.value(SixState(1, 1, 2))
    (Fraction(36, 41), Fraction(35, 41))
    """

    name = "supersix"

    def __init__(self, *, pegs: int | None = None, hands=None, rules: str = "free"):
        if rules not in RULESETS:
            raise UnknownNameError("rule set", rules, RULESETS)
        if hands is None:
            if pegs is None:
                pegs = 40
            if isinstance(pegs, bool) or not isinstance(pegs, (int, np.integer)) or pegs < 2:
                raise InvalidArgumentError(
                    f"pegs must be a whole number of at least 2, got {pegs!r}"
                )
            if pegs % 2:
                raise InvalidArgumentError(
                    f"{pegs} pegs cannot be split evenly; give an even number or explicit hands"
                )
            hands = (pegs // 2, pegs // 2)
        elif pegs is not None:
            raise InvalidArgumentError("give pegs or hands, not both")
        try:
            hands = tuple(hands)
        except TypeError:
            raise InvalidArgumentError(
                f"hands must be two whole numbers of at least 1, got {hands!r}"
            ) from None
        if len(hands) != 2 or any(
            isinstance(h, bool) or not isinstance(h, (int, np.integer)) or h < 1 for h in hands
        ):
            raise InvalidArgumentError(
                f"hands must be two whole numbers of at least 1, got {hands!r}"
            )
        self.hands = (int(hands[0]), int(hands[1]))
        self.pegs = sum(self.hands)
        self.rules = rules
        need = estimate_bytes(self.pegs)
        if need > MEMORY_LIMIT:
            raise InvalidArgumentError(
                f"{self.pegs} pegs would need about {need / 2**30:.1f} GiB "
                f"({count_states(self.pegs):,} positions); the limit is "
                f"{MEMORY_LIMIT / 2**30:.0f} GiB"
            )

    # -- rules ----------------------------------------------------------------
    def start(self) -> SixState:
        first, second = self.hands
        return SixState(0, first, second, FIRST_THROW if self.rules == "first-round" else PLAY)

    def roots(self):
        yield self.start()
        for b in range(SOCKETS + 1):
            for c in range(1, self.pegs - b):
                for o in range(1, self.pegs - b - c + 1):
                    yield SixState(b, c, o)

    def terminal_value(self, state):
        return Fraction(1) if state == WIN else None

    def outcomes(self, state: SixState) -> list[Outcome]:
        b, c, o, phase = state
        placed = self._after_shedding(b + 1, c - 1, o, phase)
        pitted = self._after_shedding(b, c - 1, o, phase)
        taken = (Option(self._handed_over(b - 1, o, c + 1, phase), TAKE, True),)
        result = []
        if b < SOCKETS:
            result.append(Outcome(Fraction(SOCKETS - b, 6), placed))
        if b > 0:
            result.append(Outcome(Fraction(b, 6), taken))
        result.append(Outcome(Fraction(1, 6), pitted))
        return result

    def _handed_over(self, b, c, o, phase):
        """The position the opponent throws from after the turn passes."""
        return SixState(b, c, o, SECOND_THROW if phase == FIRST_THROW else PLAY)

    def _after_shedding(self, b, c, o, phase):
        if c == 0:
            return (Option(WIN, CONTINUE),)
        stop = Option(self._handed_over(b, o, c, phase), STOP, True)
        if phase != PLAY:  # a first-round throw: the turn passes
            return (stop,)
        return (Option(SixState(b, c, o), CONTINUE), stop)

    def label(self, state) -> str:
        return str(state)

    def layer(self, state):
        return 0 if state == WIN else state.b + state.c + state.o

    def move_label(self, move: int) -> str:
        return {CONTINUE: "roll", STOP: "stop", TAKE: "take"}[move]

    # -- a vectorised builder for large games ------------------------------------
    def build_graph(self) -> StateGraph:
        """The same graph :func:`gamegraph.build` makes, built with numpy array operations.

        States are numbered in the order the generic builder would not guarantee, so
        compare graphs by state values, not numbers.
        """
        return _build_arrays(self)


class _Positions:
    """Lazy sequence of the states of a vectorised Super Six graph."""

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


def _key(b, c, o, phase, pegs):
    span = pegs + 2
    return ((np.asarray(phase, dtype=np.int64) * 8 + b) * span + c) * span + o


def _build_arrays(rules: SuperSix) -> StateGraph:
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
    states = _Positions(b, c, o, phase, n_pegs)
    n = len(states)
    win = states.win

    def number(bb, cc, oo, pp):
        """State numbers of positions (WIN where the mover's hand is empty)."""
        out = np.full(len(bb), win, dtype=np.int64)
        live = cc > 0
        out[live] = np.searchsorted(
            states.keys, _key(bb[live], cc[live], oo[live], pp[live], n_pegs)
        )
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


class DecisionTable(NamedTuple):
    """Per normal-play position (b, c, o): P_roll, P_end, P_choice and whether to roll.

    Arrays are aligned; probabilities are floats, or Fractions (object arrays) when the
    solution is exact.
    """

    b: np.ndarray
    c: np.ndarray
    o: np.ndarray
    p_roll: np.ndarray
    p_end: np.ndarray

    @property
    def p_choice(self) -> np.ndarray:
        return np.where(self.roll, self.p_roll, self.p_end)

    @property
    def roll(self) -> np.ndarray:
        """True where throwing again is strictly better than stopping."""
        return self.p_roll > self.p_end

    def __len__(self):
        return len(self.b)

    def lookup(self, b: int, c: int, o: int) -> int:
        """Row of position (b, c, o)."""
        hits = np.flatnonzero((self.b == b) & (self.c == c) & (self.o == o))
        if not len(hits):
            raise InvalidArgumentError(f"position {b}/{c}/{o} is not in the table")
        return int(hits[0])


def decision_table(solution) -> DecisionTable:
    """The blog's three probabilities and the decision for every normal-play position.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> table = decision_table(solve(build(SuperSix(pegs=6)), exact=True))
    >>> row = table.lookup(4, 1, 1)        # the paper: 0.524 if you roll, 0.476 if you stop
    >>> round(float(table.p_roll[row]), 3), round(float(table.p_end[row]), 3), bool(table.roll[row])
    (0.524, 0.476, True)
    """
    graph = solution.graph
    rows, b, c, o = _play_positions(graph)
    states = graph.states
    if isinstance(states, _Positions):
        swapped = np.searchsorted(states.keys, _key(b, o, c, np.zeros_like(b), states.pegs))
    else:
        swapped = np.array(
            [
                graph.state_number(SixState(int(bb), int(oo), int(cc)))
                for bb, cc, oo in zip(b, c, o)
            ],
            dtype=np.int64,
        )
    values = solution.values
    one = Fraction(1) if solution.exact else 1.0
    return DecisionTable(b=b, c=c, o=o, p_roll=values[rows], p_end=one - values[swapped])


def _play_positions(graph):
    """State numbers and (b, c, o) arrays of every normal-play position, in state order."""
    states = graph.states
    if isinstance(states, _Positions):
        keep = states.phase == PLAY
        return np.flatnonzero(keep), states.b[keep], states.c[keep], states.o[keep]
    rows = [i for i, s in enumerate(states) if s != WIN and s.phase == PLAY]
    b, c, o = (
        np.array([getattr(states[i], name) for i in rows], dtype=np.int64)
        for name in ("b", "c", "o")
    )
    return np.array(rows, dtype=np.int64), b, c, o


def strategy_string(table: DecisionTable, total: int) -> str:
    """The paper's notation for the decisions at ``total`` pegs in play.

    Digit order: see the module docstring. Raises InvalidArgumentError when the table
    does not cover that many pegs, or ``total`` is below 4 (no decision exists).

    >>> from gamegraph import build, solve
    >>> table = decision_table(solve(build(SuperSix(pegs=8))))
    >>> strategy_string(table, 7)
    '(1111/1111/111/00/0)'
    """
    if total < 4:
        raise InvalidArgumentError(
            f"positions with {total} pegs in play offer no decision; use 4 or more"
        )
    if total > int((table.b + table.c + table.o).max()):
        raise InvalidArgumentError(
            f"the table covers at most {int((table.b + table.c + table.o).max())} pegs"
        )
    position = {
        (int(b), int(c), int(o)): bool(r)
        for b, c, o, r in zip(table.b, table.c, table.o, table.roll)
        if b + c + o == total
    }
    groups = []
    for lid in range(1, SOCKETS + 1):
        digits = []
        for mine in range(1, total - lid):
            theirs = total - lid - mine
            if lid == 1 and theirs == 1:
                continue
            digits.append("1" if position[lid, mine, theirs] else "0")
        if digits:
            groups.append("".join(digits))
    return "(" + "/".join(groups) + ")"


#: The optimal strategies printed in Jehn's paper, by pegs in play.
PUBLISHED_STRATEGIES = {
    7: "(1111/1111/111/00/0)",
    8: "(11111/11111/1111/000/00)",
    9: "(111111/111111/11111/0000/000)",
    10: "(1111111/1111111/111111/00000/0000)",
    11: "(11111111/11111111/1111111/000000/00000)",
    12: "(111111111/111111111/11111111/0000000/000000)",
    13: "(1111111111/1111111111/111000111/00000000/00000000)",
    14: "(11111111111/11111111111/1100000011/000000000/00000000)",
    15: "(111111111111/111111111111/11000000011/0000000000/0000000000)",
}


def decision_positions(graph, outcomes) -> np.ndarray:
    """For outcomes offering roll-or-stop, the state number of the position decided.

    The position after a throw that shed a peg is the target of the CONTINUE option;
    this maps per-outcome quantities (such as a linear program's slack) onto (b, c, o).
    Outcomes without a CONTINUE option map to -1.
    """
    outcomes = np.asarray(outcomes, dtype=np.int64)
    starts, stops = graph.option_ptr[outcomes], graph.option_ptr[outcomes + 1]
    result = np.full(len(outcomes), -1, dtype=np.int64)
    two = stops - starts >= 2
    first = starts[two]
    is_continue = graph.option_move[first] == CONTINUE
    result[np.flatnonzero(two)[is_continue]] = graph.option_target[first[is_continue]]
    return result


def by_position(graph, outcomes, per_outcome):
    """Spread a per-outcome quantity onto the normal-play positions it decides.

    Returns aligned arrays ``b, c, o, value``: for every normal-play position, the
    largest value among the roll-or-stop outcomes deciding it (0 where none does). Used
    to draw a linear program's per-outcome error the way the blog did.
    """
    position = decision_positions(graph, outcomes)
    value = np.zeros(graph.n_states)
    hit = position >= 0
    np.maximum.at(value, position[hit], np.asarray(per_outcome, dtype=float)[hit])
    rows, b, c, o = _play_positions(graph)
    return b, c, o, value[rows]
