r"""Agents that play the Royal Game of Ur, from rules of thumb to the solved optimum.

An agent is asked for a move with ``choose(state, throw, moves)``: the position seen
from the side to move (:class:`~gamegraph.games.ur.UrState`), the throw, and the legal
moves as :func:`~gamegraph.games.ur.legal_moves` lists them. It returns the index of the
move it plays. A graph from ``Ur(...).build_graph()`` offers its options in that same
order, so the index is also the option index of the graph's outcome.

===============  ================================================================
name             rule
===============  ================================================================
``random``       uniform among the legal moves (seeded generator)
``first``        the first legal move: the rearmost piece (entering comes first)
``last``         the last legal move: the most advanced piece
``greedy``       a capture, else a move onto a rosette, else a bear-off, else the
                 most advanced piece (each tier broken by the next one down)
``gain``         the largest gain G = W + A + C (Raposo & Lamont 2023, section 4.4
                 and Appendix C; see :func:`gain_terms`)
``expectimax``   ``depth``-ply expectimax with pip-count leaves (:class:`Expectimax`)
``optimal``      the best move by a :class:`~gamegraph.games.ur_table.SolvedTable`
===============  ================================================================

Every agent takes the first of equally good moves. The deterministic agents whose rule
is cheap to apply to a whole graph also give ``policy_array(graph)``: their choice at
every outcome of a full-board graph, as :class:`gamegraph.policy.Policy` holds it, which
the tournament (:mod:`gamegraph.games.ur_tournament`) uses instead of asking position by
position. :meth:`Agent.policy` turns any deterministic agent into a ``Policy``.

Examples
--------
>>> from gamegraph.games.ur import legal_moves, parse_position, rule_set
>>> finkel = rule_set("finkel", pieces=3)
>>> state = parse_position("2,6/7", finkel)
>>> moves = legal_moves(state, 1, finkel)
>>> moves
[(0, 1, False), (2, 3, False), (6, 7, True)]
>>> [make_agent(name, ruleset=finkel).choose(state, 1, moves) for name in ("first", "last", "greedy")]
[0, 2, 2]
>>> make_agent("bogus")
Traceback (most recent call last):
...
gamegraph.errors.UnknownNameError: unknown Ur agent 'bogus'; accepted: random, first, last, greedy, gain, expectimax, optimal, (expectimax-D for depth D)
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ..errors import InvalidArgumentError, UnknownNameError
from ..graph import StateGraph
from ..policy import Policy
from .ur import WIN, Geometry, RuleSet, UrState, decode, legal_moves, play, rule_set

MAX_DEPTH = 12


# ---------------------------------------------------------------------------
# The interface
# ---------------------------------------------------------------------------
class Agent:
    """Base class: a name, ``choose``, and optionally ``policy_array``.

    Subclasses set :attr:`name` and implement :meth:`choose`. :attr:`randomised` is True
    for agents whose pick is drawn afresh at every visit (those have no fixed policy).
    """

    name = "agent"
    randomised = False

    def __init__(self, ruleset: RuleSet):
        self.ruleset = rule_set(ruleset)

    def choose(self, state: UrState, throw: int, moves: list) -> int:
        """Index into ``moves`` of the move to play."""
        raise NotImplementedError

    def policy_array(self, graph: StateGraph) -> np.ndarray | None:
        """The choice at every outcome of ``graph`` at once, or None when the agent has no
        vectorised form (the tournament then asks :meth:`choose` at each visited outcome).
        """
        return None

    def policy(self, graph: StateGraph) -> Policy:
        """This agent's choice at every outcome of ``graph`` as a :class:`Policy`.

        Agents without :meth:`policy_array` are asked at every throw with more than one
        legal move, one by one: seconds for 2 pieces, minutes for 3 (``gain``).
        """
        if self.randomised:
            raise InvalidArgumentError(
                f"agent {self.name!r} draws a new move at every visit and has no fixed policy"
            )
        choice = self.policy_array(graph)
        if choice is None:
            choice = np.zeros(graph.n_outcomes, dtype=np.int32)
            throws = outcome_throws(graph)
            counts = np.diff(graph.option_ptr)
            owner = graph.outcome_state
            for k in np.flatnonzero(counts > 1).tolist():
                state = graph.states[int(owner[k])]
                throw = int(throws[k])
                choice[k] = self.choose(state, throw, legal_moves(state, throw, self.ruleset))
        return Policy(np.asarray(choice, dtype=np.int32), name=self.name)

    def __repr__(self):
        return f"<Ur agent {self.name}>"


def _check_moves(moves) -> int:
    if not moves:
        raise InvalidArgumentError("there is no legal move to choose from (the turn passes)")
    return len(moves)


# ---------------------------------------------------------------------------
# Helpers over a full-board graph
# ---------------------------------------------------------------------------
def _board_graph(graph: StateGraph, ruleset: RuleSet):
    positions = graph.states
    if not hasattr(positions, "codes"):
        raise InvalidArgumentError(
            "a vectorised policy needs the graph of every position "
            "(Ur(...).build_graph() without a custom start)"
        )
    if (positions.ruleset.name, positions.ruleset.pieces) != (ruleset.name, ruleset.pieces):
        raise InvalidArgumentError(
            f"the graph is for {positions.ruleset.name} with {positions.ruleset.pieces} piece(s), "
            f"the agent for {ruleset.name} with {ruleset.pieces}"
        )
    if (np.diff(graph.option_ptr) == 0).any():
        raise InvalidArgumentError("every outcome of an Ur graph offers at least one option")
    return positions


def outcome_throws(graph: StateGraph) -> np.ndarray:
    """The throw behind every outcome of an Ur graph (outcomes follow the throws in order).

    >>> from gamegraph.games.ur import Ur
    >>> outcome_throws(Ur("finkel", pieces=1).build_graph())[:6].tolist()
    [0, 1, 2, 3, 4, 0]
    """
    throws = np.array(graph.rules.throws(), dtype=np.int64)
    local = np.arange(graph.n_outcomes) - graph.outcome_ptr[graph.outcome_state]
    return throws[local]


def first_best(graph: StateGraph, q: np.ndarray) -> np.ndarray:
    """Local index of the first option with the largest ``q`` at every outcome
    (every outcome must offer an option).
    """
    starts = graph.option_ptr[:-1]
    best = np.maximum.reduceat(q, starts)
    local = np.arange(graph.n_options) - starts[graph.option_outcome]
    local = np.where(q >= best[graph.option_outcome], local, np.iinfo(np.int64).max)
    return np.minimum.reduceat(local, starts).astype(np.int32)


def table_values(graph: StateGraph, table) -> np.ndarray:
    """The win probability of the side to move in every state of a full-board ``graph``,
    read from a :class:`~gamegraph.games.ur_table.SolvedTable` (1 for :data:`WIN`).
    """
    positions = _board_graph(graph, table.ruleset)
    at = np.searchsorted(table.codes, positions.codes)
    at = np.minimum(at, len(table.codes) - 1)
    if len(positions.codes) and not np.array_equal(table.codes[at], positions.codes):
        raise InvalidArgumentError("the table does not hold every position of the graph")
    values = np.ones(graph.n_states)
    values[: positions.win] = table.values[at]
    return values


def option_values(graph: StateGraph, values: np.ndarray) -> np.ndarray:
    """Every option's win probability for the side choosing it: ``v(target)``, or
    ``1 - v(target)`` when the turn passes (the library's value convention).
    """
    v = values[graph.option_target]
    return np.where(graph.option_passes, 1.0 - v, v)


# ---------------------------------------------------------------------------
# Simple agents
# ---------------------------------------------------------------------------
class RandomAgent(Agent):
    """Uniform among the legal moves, from a generator seeded with ``seed``."""

    name = "random"
    randomised = True

    def __init__(self, ruleset, seed: int | None = None):
        super().__init__(ruleset)
        self.rng = np.random.default_rng(seed)

    def choose(self, state, throw, moves):
        return int(self.rng.integers(_check_moves(moves)))


class FirstAgent(Agent):
    """The first legal move: the rearmost piece, an entering piece before any other."""

    name = "first"

    def choose(self, state, throw, moves):
        _check_moves(moves)
        return 0

    def policy_array(self, graph):
        _board_graph(graph, self.ruleset)
        return np.zeros(graph.n_outcomes, dtype=np.int32)


class LastAgent(Agent):
    """The last legal move: the most advanced piece."""

    name = "last"

    def choose(self, state, throw, moves):
        return _check_moves(moves) - 1

    def policy_array(self, graph):
        _board_graph(graph, self.ruleset)
        return (np.diff(graph.option_ptr) - 1).astype(np.int32)


class GreedyAgent(Agent):
    """Capture if possible, else land on a rosette, else bear off, else move the most
    advanced piece.

    The move with the largest key (captures, lands on a rosette, bears off, square moved
    from) is played, comparing the parts in that order; the square moved from differs
    between any two moves, so there are no ties.
    """

    name = "greedy"

    def _key(self, move):
        source, target, captures = move
        length = self.ruleset.length
        rosette = target <= length and self.ruleset.is_rosette(target)
        return (captures, rosette, target == length + 1, source)

    def choose(self, state, throw, moves):
        _check_moves(moves)
        keys = [self._key(m) for m in moves]
        return keys.index(max(keys))

    def policy_array(self, graph):
        positions = _board_graph(graph, self.ruleset)
        geometry = Geometry(self.ruleset)
        length = self.ruleset.length
        outcome = graph.option_outcome
        state = graph.outcome_state[outcome]
        source = graph.option_move.astype(np.int64)
        target = np.clip(source + outcome_throws(graph)[outcome], 0, length + 1)
        codes = np.append(positions.codes, 0)  # WIN owns no outcome
        _, _, opponent, _ = decode(codes[state], length)
        theirs = geometry.opponent_square[np.minimum(target, length + 1)]
        captures = (theirs > 0) & (((opponent >> np.maximum(theirs - 1, 0)) & 1) == 1)
        rosette = geometry.rosette[target]
        bears_off = target == length + 1
        key = ((captures * 2 + rosette) * 2 + bears_off) * (length + 2) + source
        return first_best(graph, key)


# ---------------------------------------------------------------------------
# Expectimax
# ---------------------------------------------------------------------------
def pip_count(state: UrState, ruleset: RuleSet) -> int:
    """The mover's progress minus the opponent's: squares walked, L + 1 per piece off.

    >>> pip_count(UrState((4, 13), 2, (6,), 0), rule_set("finkel"))
    41
    """
    off = ruleset.length + 1
    return (sum(state.mover) + off * state.mover_off) - (
        sum(state.opponent) + off * state.opponent_off
    )


def win_score(ruleset: RuleSet) -> int:
    """The heuristic value of :data:`WIN` to the side that reached it: larger than any
    pip-count difference.
    """
    return 2 * (ruleset.length + 1) * ruleset.pieces


class Expectimax(Agent):
    r"""Expectimax search ``depth`` plies deep, leaves scored by :func:`pip_count`.

    A *ply* is one throw and the move after it (a pass when the throw offers none),
    whoever makes it: a move onto a rosette gives the same side the next ply. Ply 1 is
    the agent's own move with the throw it knows; every later ply averages over the
    throw, and the side to move takes the move best for itself. Values are always from
    the side to move, so a ply that passes the turn negates (negamax form):

    .. math::

        U_0(s) = h(s), \qquad
        U_k(s) = \sum_t p_t \max_{m} \pm U_{k-1}(s_{t,m}),

    and the agent plays the move maximising :math:`\pm U_{d-1}` of where it leads. The
    leaf score :math:`h` is the pip-count difference, and a won game scores
    :func:`win_score` whatever the depth. ``depth=1`` is a one-ply greedy pip count:
    every move after a given throw walks the same distance, so it separates moves only
    by captures, wins, and rosettes (a kept turn is not negated).

    On a full-board graph, :meth:`policy_array` performs the same recursion on every
    state at once (``depth - 1`` backups over the graph's arrays). Values are sums of
    integers times the dice's dyadic probabilities, exact in float64 for these depths,
    so both forms pick the same move.
    """

    randomised = False

    def __init__(self, ruleset, depth: int = 2):
        super().__init__(ruleset)
        if (
            isinstance(depth, bool)
            or not isinstance(depth, (int, np.integer))
            or not 1 <= depth <= MAX_DEPTH
        ):
            raise InvalidArgumentError(
                f"expectimax depth must be a whole number from 1 to {MAX_DEPTH}, got {depth!r}"
            )
        self.depth = int(depth)
        self.name = f"expectimax-{self.depth}"
        self._memo = {}

    def _value(self, state, depth):
        """U_depth(state) for the side to move."""
        ruleset = self.ruleset
        if state == WIN:
            return float(win_score(ruleset))
        if depth == 0:
            return float(pip_count(state, ruleset))
        key = (state, depth)
        if key in self._memo:
            return self._memo[key]
        total = 0.0
        for throw, weight in ruleset.throws:
            moves = legal_moves(state, throw, ruleset)
            if moves:
                best = max(self._move_value(state, m, depth - 1) for m in moves)
            else:
                best = -self._value(state.flipped(), depth - 1)
            total += weight * best
        value = total / ruleset.denominator
        if len(self._memo) > 1_000_000:
            self._memo.clear()
        self._memo[key] = value
        return value

    def _move_value(self, state, move, depth):
        target, passes = play(state, move, self.ruleset)
        value = self._value(target, depth)
        return -value if passes else value

    def choose(self, state, throw, moves):
        _check_moves(moves)
        values = [self._move_value(state, m, self.depth - 1) for m in moves]
        return values.index(max(values))

    def policy_array(self, graph):
        positions = _board_graph(graph, self.ruleset)
        ruleset = self.ruleset
        length = ruleset.length
        mover, mover_off, opponent, opponent_off = decode(positions.codes, length)
        squares = np.arange(1, length + 1, dtype=np.int64)

        def pips(mask):
            return ((mask[:, None] >> (squares - 1)) & 1) @ squares

        u = np.empty(graph.n_states)
        u[: positions.win] = (
            pips(mover) + (length + 1) * mover_off - pips(opponent) - (length + 1) * opponent_off
        )
        u[positions.win] = win_score(ruleset)
        live = np.flatnonzero(~graph.terminal)
        starts = graph.outcome_ptr[live]
        for _ in range(self.depth - 1):
            q = np.where(graph.option_passes, -u[graph.option_target], u[graph.option_target])
            best = np.maximum.reduceat(q, graph.option_ptr[:-1])
            nxt = u.copy()
            nxt[live] = np.add.reduceat(graph.outcome_weight * best, starts) / graph.denominator
            u = nxt
        q = np.where(graph.option_passes, -u[graph.option_target], u[graph.option_target])
        return first_best(graph, q)


# ---------------------------------------------------------------------------
# The optimal agent
# ---------------------------------------------------------------------------
class OptimalAgent(Agent):
    """The move with the highest win probability by a solved table (the first among
    equals, as :meth:`~gamegraph.games.ur_table.SolvedTable.best_move` picks).
    """

    name = "optimal"

    def __init__(self, table):
        super().__init__(table.ruleset)
        self.table = table

    def choose(self, state, throw, moves):
        _check_moves(moves)
        values = []
        for move in moves:
            target, passes = play(state, move, self.ruleset)
            v = self.table.value(target)
            values.append(1.0 - v if passes else v)
        return values.index(max(values))

    def policy_array(self, graph):
        return first_best(graph, option_values(graph, table_values(graph, self.table)))


# ---------------------------------------------------------------------------
# The paper's gain
# ---------------------------------------------------------------------------
class GainTerms(NamedTuple):
    """The three parts of the gain G = W + A + C, exact."""

    walk: Fraction
    attack: Fraction
    capture: Fraction

    @property
    def total(self) -> Fraction:
        return self.walk + self.attack + self.capture


class _GainCalculator:
    """The gain of piece sequences, in integers scaled by D**max_moves (D: the dice's
    denominator), so that comparisons and ties are exact.

    Boards are kept as tuples of squares (ours in our numbering, theirs in theirs), and
    moves are made with lookup lists built once from the rule set: the same rules as
    :func:`~gamegraph.games.ur.legal_moves` and :func:`~gamegraph.games.ur.play`, but
    without building positions, which this search makes by the million.
    """

    def __init__(self, ruleset: RuleSet, max_moves: int):
        self.ruleset = ruleset
        self.max_moves = max_moves
        self.length = length = ruleset.length
        self.throws = ruleset.throws
        self.denominator = ruleset.denominator
        self.scale = [self.denominator ** (max_moves - k) for k in range(max_moves + 1)]
        squares = range(1, length + 1)
        # The same tile in the other side's numbering (0: not shared); the paths mirror
        # each other, so this map serves both sides.
        self.other = [0] + [ruleset.opponent_square(s) for s in squares] + [0]
        self.rosette = [False] + [ruleset.is_rosette(s) for s in squares] + [False]
        self.safe = ruleset.safe_rosettes
        self.capture_bonus = ruleset.capture_bonus
        self._risk = {}

    def step(self, mine: tuple, theirs: tuple, source: int, throw: int):
        """Move the piece on ``source`` (0: a waiting piece) of the side on ``mine`` by
        ``throw``, the other side standing on ``theirs`` (its own numbering).

        Returns (destination, square captured in the other side's numbering or 0,
        whether the turn is kept), or None when the move is forbidden.
        """
        dest = source + throw
        length = self.length
        if dest > length + 1:
            return None
        if dest == length + 1:
            return dest, 0, False
        if dest in mine:
            return None
        there = self.other[dest]
        captured = there if there and there in theirs else 0
        if captured and self.safe and self.rosette[dest]:
            return None
        return dest, captured, self.rosette[dest] or bool(captured and self.capture_bonus)

    @staticmethod
    def _moved(pieces: tuple, source: int, dest: int, length: int) -> tuple:
        kept = [s for s in pieces if s != source]
        if dest <= length:
            kept.append(dest)
        return tuple(sorted(kept))

    def risk(self, mine: tuple, theirs: tuple, square: int) -> int:
        """Scaled probability that the opponent (on ``theirs``), throwing next, lands on
        our piece on ``square`` with one of its pieces on the board: in one throw, or in
        several when the piece lands on rosettes (or captures, in blitz) on the way.
        """
        target = self.other[square]
        if not target:
            return 0
        key = (mine, theirs, square)
        found = self._risk.get(key)
        if found is not None:
            return found
        length, throws, scale, limit = self.length, self.throws, self.scale, self.max_moves
        other = self.other
        total = 0

        def walk(pieces, ours, at, depth, weight):
            nonlocal total
            for throw, w in throws:
                if not throw:
                    continue
                got = self.step(pieces, ours, at, throw)
                if got is None:
                    continue
                dest, captured, again = got
                if dest == target:
                    total += weight * w * scale[depth + 1]
                elif again and depth + 1 < limit:
                    left = tuple(s for s in ours if s != captured) if captured else ours
                    walk(self._moved(pieces, at, dest, length), left, dest, depth + 1, weight * w)

        ours = tuple(sorted(other[s] for s in mine if other[s]))
        for at in theirs:  # pieces on the board only: see gain_terms
            walk(theirs, ours, at, 0, 1)
        self._risk[key] = total
        return total

    def sequence(self, state: UrState, pieces: list, sequence: tuple, throw=None) -> list:
        """Scaled [W, A, C] of moving ``pieces[sequence[0]]``, then (after each throw that
        keeps the turn) ``pieces[sequence[1]]``, ...; ``pieces`` holds each piece's square
        (0 waiting), ``throw`` the first throw when it is known.
        """
        length = self.length
        totals = [0, 0, 0]
        last = min(len(sequence), self.max_moves) - 1
        other = self.other

        def stage(k, mine, theirs, squares, weight, walked):
            piece = sequence[k]
            at = squares[piece]
            throws = ((throw, self.denominator),) if (k == 0 and throw is not None) else self.throws
            scale = self.scale[k + 1]
            for r, w in throws:
                p = weight * w
                if r == 0:  # the turn ends; the walk so far counts
                    totals[0] += walked * p * scale
                    continue
                got = None if at is None else self.step(mine, theirs, at, r)
                if got is None:  # forbidden: the branch walks nothing
                    continue
                dest, captured, again = got
                if captured:
                    totals[1] += captured * p * scale
                    theirs_after = tuple(s for s in theirs if s != captured)
                else:
                    theirs_after = theirs
                mine_after = self._moved(mine, at, dest, length)
                if dest <= length and other[dest]:
                    totals[2] -= dest * self.risk(mine_after, theirs_after, dest)
                if again and k < last:
                    moved = list(squares)
                    moved[piece] = dest if dest <= length else None
                    stage(k + 1, mine_after, theirs_after, moved, p, walked + r)
                else:
                    totals[0] += (walked + r) * p * scale

        stage(0, tuple(state.mover), tuple(state.opponent), list(pieces), 1, 0)
        return totals

    def best(self, state: UrState, pieces: list, first: int, throw: int, choices: list) -> int:
        """The largest scaled W + A + C over every sequence that starts by moving
        ``pieces[first]`` with the known ``throw`` and goes on with pieces from
        ``choices`` (indices into ``pieces``).

        The same sums as :meth:`sequence`, for all continuations at once: a stage's
        branches that end the turn add to every continuation, and a branch that keeps
        it adds, for each next piece, that piece's subtree to the continuations that
        move it. Each subtree is thus walked once, not once per continuation.
        """
        length, other, last = self.length, self.other, self.max_moves - 1
        width = len(choices)

        def stage(k, piece, mine, theirs, squares, weight, walked):
            size = width ** (last - k)
            block = size // width if k < last else 0
            out = [0] * size
            common = 0
            at = squares[piece]
            throws = ((throw, self.denominator),) if k == 0 else self.throws
            scale = self.scale[k + 1]
            for r, w in throws:
                p = weight * w
                if r == 0:
                    common += walked * p * scale
                    continue
                got = None if at is None else self.step(mine, theirs, at, r)
                if got is None:
                    continue
                dest, captured, again = got
                value = 0
                theirs_after = theirs
                if captured:
                    value += captured * p * scale
                    theirs_after = tuple(s for s in theirs if s != captured)
                mine_after = self._moved(mine, at, dest, length)
                if dest <= length and other[dest]:
                    value -= dest * self.risk(mine_after, theirs_after, dest)
                if again and k < last:
                    common += value
                    moved = list(squares)
                    moved[piece] = dest if dest <= length else None
                    for i, nxt in enumerate(choices):
                        sub = stage(k + 1, nxt, mine_after, theirs_after, moved, p, walked + r)
                        for j, x in enumerate(sub):
                            out[i * block + j] += x
                else:
                    common += value + (walked + r) * p * scale
            return [x + common for x in out]

        return max(stage(0, first, tuple(state.mover), tuple(state.opponent), list(pieces), 1, 0))

    def to_terms(self, totals) -> GainTerms:
        whole = self.denominator**self.max_moves
        return GainTerms(*(Fraction(t, whole) for t in totals))


def _pieces(state: UrState, ruleset: RuleSet) -> list:
    """Every piece not borne off, by square: the board's pieces, then the waiting ones (0)."""
    return list(state.mover) + [0] * state.waiting(ruleset.pieces)[0]


def gain_terms(
    state: UrState, sequence, ruleset, *, throw: int | None = None, max_moves: int = 3
) -> GainTerms:
    r"""The gain G = W + A + C of moving a sequence of pieces in one turn (Raposo & Lamont
    2023, section 4.4 and Appendix C).

    Parameters
    ----------
    state : UrState
        The position, seen from the side to move.
    sequence : sequence of int
        The pieces to move, by the square each stands on at the start of the turn
        (0: a waiting piece; 0 again names the same piece). The second piece moves only
        when the first move keeps the turn (a rosette; in blitz a capture too), and so on.
    ruleset : RuleSet or str
    throw : int, optional
        The first throw, when it is known (the paper's "ignore the weighted sum over
        all possible rolls"); otherwise every throw with its probability, as in the
        paper's worked example.
    max_moves : int
        At most this many moves per turn are followed, for us and for the opponent's
        attacks (the paper stops at three).

    Notes
    -----
    The turn is expanded into branches, one per sequence of throws, each with the
    product of its throws' probabilities ``P``:

    * **W** (walking) adds, for every branch, the squares walked times ``P``. A branch
      in which the piece due to move cannot (blocked by its own side, a safe rosette,
      overshooting, already borne off) walks nothing at all: the paper's Table 5
      subtracts the whole sequence, ``(4 + 4) (1/16)(1/16)``, not only its last move.
      A throw of 0 ends the turn and keeps the walk so far.
    * **A** (attack) adds ``n_a P`` for every branch where a move captures, ``n_a``
      being the captured piece's square in its owner's numbering (the progress it
      loses) and ``P`` the probability of the branch up to that move.
    * **C** (capture risk) subtracts ``n_c P_c`` for every move of every branch that
      ends on a square ``n_c`` the opponent shares, ``P_c`` being the probability that
      the opponent, throwing next, lands there with one piece (through its rosettes, as
      the paper's sequences "11" and "12"), on the board right after that move. As in
      the paper's Table 6, ``P_c`` is *not* multiplied by the probability of our
      reaching that square: every possible end square of every move counts in full.

    Where the paper is not explicit, this interprets:

    * only the opponent's pieces on the board attack, not its waiting pieces: the
      worked example lists "either 3 or the sequence 12" as the threats to a piece that
      has just captured on square 6, leaving out the captured piece itself re-entering
      with 4 then 2;
    * one opponent piece makes all the throws of an attack, continuing only after a
      throw that keeps the turn;
    * a safe rosette cannot be attacked, and a capture there is forbidden (the rules);
    * the first throw known, its move counts with probability 1; with the known throw
      every legal move walks the same distance, so W separates moves only through the
      extra throws a rosette gives.

    The paper's own Figure 8 figures differ from these in two places, both slips in
    the paper: its C for AA and BB leaves out grey's piece on 6 attacking square 7 with
    a 1, and its Table 3 A for BB (0.84) keeps only the term of sequence "22" of the two
    its Table 6 lists.

    Examples
    --------
    The paper's Figure 8 (Bell/Finkel board): black, to move, has piece A waiting and
    piece B on square 2; grey has pieces on its squares 3, 6 and 8 (a rosette). Moving
    B then A (the sequence "BA" the paper finds best):

    >>> finkel = rule_set("finkel", pieces=7)
    >>> figure8 = UrState((2,), 5, (3, 6, 8), 4)
    >>> terms = gain_terms(figure8, (2, 0), finkel)
    >>> terms.walk, terms.attack, terms.capture, float(terms.total)
    (Fraction(167, 64), Fraction(3, 8), Fraction(-17, 4), -1.265625)

    (Table 3: W 2.61, A 0.38, C -4.25, G -1.27.) With the throw known to be 4,
    moving B captures on square 6 and ends the turn there:

    >>> gain_terms(figure8, (2,), finkel, throw=4)
    GainTerms(walk=Fraction(4, 1), attack=Fraction(6, 1), capture=Fraction(-33, 16))
    """
    ruleset = rule_set(ruleset)
    if (
        isinstance(max_moves, bool)
        or not isinstance(max_moves, (int, np.integer))
        or not 1 <= max_moves <= 6
    ):
        raise InvalidArgumentError(
            f"max_moves must be a whole number from 1 to 6, got {max_moves!r}"
        )
    if throw is not None and throw not in dict(ruleset.throws):
        raise InvalidArgumentError(
            f"throw {throw!r} is not possible with these dice; accepted: "
            + ", ".join(str(t) for t, _ in ruleset.throws)
        )
    pieces = _pieces(state, ruleset)
    ids, used_zero = [], None
    for square in sequence:
        if square == 0:
            if 0 not in pieces:
                raise InvalidArgumentError("the sequence enters a piece but none is waiting")
            used_zero = pieces.index(0) if used_zero is None else used_zero
            ids.append(used_zero)
        elif square in state.mover:
            ids.append(pieces.index(square))
        else:
            raise InvalidArgumentError(
                f"the sequence moves a piece from square {square!r}; the mover's pieces stand "
                f"on {', '.join(map(str, state.mover)) or 'no square'} (0: a waiting piece)"
            )
    if not ids:
        raise InvalidArgumentError("the sequence names no piece")
    calculator = _GainCalculator(ruleset, int(max_moves))
    return calculator.to_terms(calculator.sequence(state, pieces, tuple(ids), throw))


class GainAgent(Agent):
    """The move whose best continuation has the largest gain G = W + A + C.

    For the known throw, each legal move is the first move of a sequence; when it keeps
    the turn, the sequence goes on with any of the side's pieces for each further throw
    (fixed in advance, as the paper's sequences AA, AB, BA, BB), up to ``max_moves``
    moves. A move's gain is that of its best sequence (the paper: "if AA and AB have high
    gain values, then A is implicitly more likely to be chosen"). See :func:`gain_terms`
    for W, A and C and what had to be interpreted.
    """

    name = "gain"

    def __init__(self, ruleset, max_moves: int = 3):
        super().__init__(ruleset)
        if (
            isinstance(max_moves, bool)
            or not isinstance(max_moves, (int, np.integer))
            or not 1 <= max_moves <= 6
        ):
            raise InvalidArgumentError(
                f"max_moves must be a whole number from 1 to 6, got {max_moves!r}"
            )
        self.calculator = _GainCalculator(self.ruleset, int(max_moves))
        self._memo = {}

    def gains(self, state: UrState, throw: int, moves: list) -> list[int]:
        """Each move's gain, scaled by D**max_moves (D: the dice's denominator)."""
        key = (state, throw)
        if key in self._memo:
            return self._memo[key]
        calculator = self.calculator
        pieces = _pieces(state, self.ruleset)
        # Waiting pieces are interchangeable: a turn enters at most max_moves of them.
        waiting = [i for i, s in enumerate(pieces) if s == 0][: calculator.max_moves]
        choices = [i for i, s in enumerate(pieces) if s] + waiting
        out = []
        for move in moves:
            first = pieces.index(move[0])
            _, _, again = calculator.step(state.mover, state.opponent, move[0], throw)
            if again and calculator.max_moves > 1:
                out.append(calculator.best(state, pieces, first, throw, choices))
            else:
                out.append(sum(calculator.sequence(state, pieces, (first,), throw)))
        if len(self._memo) > 500_000:
            self._memo.clear()
        self._memo[key] = out
        return out

    def choose(self, state, throw, moves):
        _check_moves(moves)
        gains = self.gains(state, throw, moves)
        return gains.index(max(gains))


# ---------------------------------------------------------------------------
# By name
# ---------------------------------------------------------------------------
AGENTS = {
    "random": RandomAgent,
    "first": FirstAgent,
    "last": LastAgent,
    "greedy": GreedyAgent,
    "gain": GainAgent,
    "expectimax": Expectimax,
    "optimal": OptimalAgent,
}


def make_agent(
    name: str, *, ruleset=None, table=None, seed: int | None = None, depth: int | None = None
) -> Agent:
    """The agent called ``name`` (a key of :data:`AGENTS`, or ``expectimax-D``).

    Parameters
    ----------
    ruleset : RuleSet or str, optional
        The rules played (taken from ``table`` when not given).
    table : SolvedTable, optional
        Needed by ``optimal``.
    seed : int, optional
        Seeds ``random``.
    depth : int, optional
        Depth of ``expectimax`` (2 unless given or named ``expectimax-D``).

    >>> make_agent("expectimax-3", ruleset="finkel").name
    'expectimax-3'
    >>> make_agent("optimal", ruleset="finkel")
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: agent 'optimal' needs a solved table (table=...)
    """
    if isinstance(name, str):
        found = re.fullmatch(r"expectimax-(\d+)", name)
        if found:
            name, depth = "expectimax", int(found.group(1))
    if name not in AGENTS:
        raise UnknownNameError("Ur agent", name, list(AGENTS) + ["(expectimax-D for depth D)"])
    if name == "optimal":
        if table is None:
            raise InvalidArgumentError("agent 'optimal' needs a solved table (table=...)")
        if ruleset is not None:
            wanted = rule_set(ruleset)
            if (wanted.name, wanted.pieces) != (table.ruleset.name, table.ruleset.pieces):
                raise InvalidArgumentError(
                    f"the table is for {table.ruleset.name} with {table.ruleset.pieces} piece(s), "
                    f"not {wanted.name} with {wanted.pieces}"
                )
        return OptimalAgent(table)
    if ruleset is None:
        if table is None:
            raise InvalidArgumentError(f"agent {name!r} needs the rules (ruleset=...)")
        ruleset = table.ruleset
    if name == "random":
        return RandomAgent(ruleset, seed=seed)
    if name == "expectimax":
        return Expectimax(ruleset, depth=2 if depth is None else depth)
    return AGENTS[name](ruleset)
