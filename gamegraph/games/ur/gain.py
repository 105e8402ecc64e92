r"""The gain heuristic of Raposo & Lamont (2023): G = W + A + C for a sequence of moves.

Section 4.4 and Appendix C of the paper score a turn's moves by how far they walk (W),
what they capture (A) and the risk of being captured where they end (C).
:func:`gain_terms` gives the three terms, exact, for one sequence of pieces;
:class:`GainCalculator` computes them in scaled integers for every sequence a turn may
follow, and :class:`~.agents.GainAgent` plays the move whose best sequence gains most.
What the paper leaves open, and where its own figures slip, is told in
:func:`gain_terms`.

Examples
--------
>>> from gamegraph.games.ur import UrState, rule_set
>>> float(gain_terms(UrState((2,), 5, (3, 6, 8), 4), (2, 0), rule_set("finkel")).total)
-1.265625
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from ..._checks import check_int
from ...errors import InvalidArgumentError
from .rules import RuleSet, UrState, check_throw, rule_set

#: The most moves of one turn the gain follows (the paper stops at three).
MAX_MOVES = 6


def check_max_moves(max_moves) -> int:
    """``max_moves`` as an int, or InvalidArgumentError unless it is a whole number 1..6."""
    return check_int(max_moves, "max_moves", low=1, high=MAX_MOVES)


class GainTerms(NamedTuple):
    """The three parts of the gain G = W + A + C, exact."""

    walk: Fraction
    attack: Fraction
    capture: Fraction

    @property
    def total(self) -> Fraction:
        return self.walk + self.attack + self.capture


class GainCalculator:
    """The gain of piece sequences, in integers scaled by D**max_moves (D: the dice's
    denominator), so that comparisons and ties are exact.

    Boards are kept as tuples of squares (ours in our numbering, theirs in theirs), and
    moves are made with lookup lists built once from the rule set: the same rules as
    :func:`~.rules.legal_moves` and :func:`~.rules.play`, but
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

    def move_gains(self, state: UrState, throw: int, moves: list) -> list[int]:
        """Each of ``moves`` (after the known ``throw``) scored by the gain of its best
        sequence, scaled by D**max_moves (see :class:`~.agents.GainAgent`).
        """
        pieces = _pieces(state, self.ruleset)
        # Waiting pieces are interchangeable: a turn enters at most max_moves of them.
        waiting = [i for i, s in enumerate(pieces) if s == 0][: self.max_moves]
        choices = [i for i, s in enumerate(pieces) if s] + waiting
        out = []
        for move in moves:
            first = pieces.index(move[0])
            _, _, again = self.step(state.mover, state.opponent, move[0], throw)
            if again and self.max_moves > 1:
                out.append(self.best(state, pieces, first, throw, choices))
            else:
                out.append(sum(self.sequence(state, pieces, (first,), throw)))
        return out


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
    max_moves = check_max_moves(max_moves)
    if throw is not None:
        check_throw(throw, ruleset)
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
    calculator = GainCalculator(ruleset, max_moves)
    return calculator.to_terms(calculator.sequence(state, pieces, tuple(ids), throw))
