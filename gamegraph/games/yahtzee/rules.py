"""Yahtzee and Yatzy as ordinary :class:`~gamegraph.rules.Rules`, for the small versions.

A full game is far too large for an explicit graph (about 10^9 states), but a version
with a few boxes, or fewer dice, is small: :func:`gamegraph.build` explores it and
:func:`gamegraph.solve` solves it like any other score game. The tests solve such
versions both ways and compare them with the compact solver
(:mod:`gamegraph.games.yahtzee.solver`) position by position. These rules are written
from the rule text (:mod:`gamegraph.games.yahtzee.scoring`'s docstring), not from the
compact solver: only the score of a throw in a box comes from
:class:`~gamegraph.games.yahtzee.scoring.Scoring` tables, and the chances of a throw
from :mod:`gamegraph.games.yahtzee.dice`.

A turn, as a player plays it:

1. **turn start** ``("turn", used, upper, flag)``: the card. ``used`` is a bit per box
   in play (bit b for ``scoring.boxes[b]``), ``upper`` the upper boxes' total capped at
   63 (past 63 the bonus is earned and nothing more changes), ``flag`` 1 when the
   Yahtzee box holds 50 (Yahtzee with its Yahtzee box in play only; else always 0). The
   dice are thrown: one outcome per throw (a multiset of faces) with its exact chance.
2. **dice thrown** ``("thrown", used, upper, flag, dice, left)`` with ``left`` throws
   left (2, 1, 0): the player scores the dice in a box the rules allow or, while
   throws are left, keeps some of the dice (a proper part of them: any multiset from
   none to all but one die) and throws the others again.
3. **dice kept** ``("kept", used, upper, flag, kept, left)``: the other dice are thrown,
   giving the dice thrown with ``left - 1`` throws left.

Scoring a box is an option whose reward is everything it earns: the box's score, the
upper bonus if it brings the upper total to 63, and Yahtzee's 100 for a further Yahtzee.
The game ends when every box in play is filled: the turn-start state of a full card is
terminal with value 0. A state's value is the expected score still to come, so the start
state's is the expected final score.

**Jokers.** A throw of all dice alike (five of a kind with five dice) while Yahtzee's
Yahtzee box is filled is a joker. It earns 100 more if the Yahtzee box holds 50. Where it
may go follows the reading ``scoring.joker``: ``"free"``, any open box, with full house
and the straights in full once its own upper box is not open; ``"forced"``, its own
upper box if open, else any open lower box (full house and the straights in full), else
any open upper box. In a small version an upper box that is not in play counts as not
open: the joker cannot go there, so it scores in full elsewhere (the same reading as the
compact solver's).

Examples
--------
One die in the chance box: keep a 5 or 6 at the first throw, a 4 or more at the second,
for 14/3 in all.

>>> from gamegraph import build, solve
>>> one_die = YahtzeeRules(boxes=("chance",), dice=1)
>>> graph = build(one_die)
>>> graph.n_states, solve(graph, exact=True).start_value
(22, Fraction(14, 3))
>>> one_die.label(one_die.start())
'open: chance | upper 0'
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from ...errors import InvalidArgumentError, UnknownNameError
from ...rules import Option, Rules, decision, throw
from .dice import FACES, arrangements, multisets
from .scoring import BONUS_THRESHOLD, Scoring
from .scoring import scoring as make_scoring

__all__ = ["YahtzeeRules", "TURN", "THROWN", "KEPT", "KEEP_MOVES"]

#: The three kinds of state (the first item of each state tuple).
TURN, THROWN, KEPT = "turn", "thrown", "kept"
#: Throws again after the first throw of a turn.
THROWS_AGAIN = 2
#: Moves: scoring box b is move b; keeping the multiset ``multisets(0, dice)[k]`` is
#: move ``KEEP_MOVES + k``. Throws of the dice are move -1.
KEEP_MOVES = 100


def _faces(dice) -> str:
    return ",".join(map(str, dice))


class YahtzeeRules(Rules):
    """A version of Yahtzee or Yatzy as explicit rules (see the module docstring).

    Parameters
    ----------
    scoring : Scoring, optional
        The rule set, boxes and dice (:func:`~gamegraph.games.yahtzee.scoring.scoring`).
        When None, one is made from ``ruleset``, ``boxes``, ``dice`` and ``joker``.
    ruleset, boxes, dice, joker
        As :func:`~gamegraph.games.yahtzee.scoring.scoring` takes them, used when
        ``scoring`` is None.
    filled : sequence of str
        Boxes already filled at the start (a position in the middle of a game): none by
        default.
    upper : int
        The upper total at the start, 0 to 63 (63 or more: the bonus is earned).
    flag : int
        1 to start with 50 in the Yahtzee box (which must then be among ``filled``).

    Examples
    --------
    The last turn of a card with only sixes open and the upper total at 60, with two
    dice: any six earns the bonus (35 in Yahtzee). Keeping sixes, each die ends a six
    with chance 1 - (5/6)^3 = 91/216, so the value is 2 * 6 * 91/216 for the dice plus
    35 * (1 - (125/216)^2) for the bonus.

    >>> from fractions import Fraction
    >>> from gamegraph import build, solve
    >>> last = YahtzeeRules(boxes=("sixes", "chance"), dice=2, filled=("chance",), upper=60)
    >>> best = solve(build(last), exact=True)
    >>> best.start_value == 12 * Fraction(91, 216) + 35 * (1 - Fraction(125, 216) ** 2)
    True
    >>> last.label(("thrown", 2, 60, 0, (3, 6), 1))
    'open: sixes | upper 60 | 3,6, 1 throw left'
    >>> last.move_label(0), last.move_label(KEEP_MOVES + 6)
    ('score sixes', 'keep 6')
    """

    objective = "score"
    value_name = "expected score to come"

    def __init__(
        self,
        scoring: Scoring | None = None,
        *,
        ruleset: str = "yahtzee",
        boxes=None,
        dice: int = 5,
        joker: str = "free",
        filled=(),
        upper: int = 0,
        flag: int = 0,
    ):
        if scoring is None:
            scoring = make_scoring(ruleset, boxes=boxes, dice=dice, joker=joker)
        elif not isinstance(scoring, Scoring):
            raise InvalidArgumentError(f"scoring must be a Scoring, got {type(scoring).__name__}")
        self.scoring = rules = scoring
        self.boxes = rules.boxes
        self.dice = rules.dice
        boxes_, dice_ = len(self.boxes), self.dice
        self.name = (
            f"{rules.name}: {boxes_} box{'es' if boxes_ > 1 else ''}, "
            f"{dice_} {'dice' if dice_ > 1 else 'die'}"
        )
        self.full = (1 << len(self.boxes)) - 1
        is_yahtzee = rules.ruleset == "yahtzee"
        # The Yahtzee box, when it brings jokers and the 100 bonus (Yahtzee only).
        self.yahtzee = self.boxes.index("yahtzee") if is_yahtzee and "yahtzee" in self.boxes else -1
        self.forced = rules.joker == "forced"
        faces = [int(f) for f in rules.upper]
        self.upper_face = faces  # per box: its face if an upper box, else 0
        self.own_box = {f: b for b, f in enumerate(faces) if f}  # face -> its upper box
        self.lower_boxes = [b for b, f in enumerate(faces) if not f]
        self.throws = multisets(self.dice)
        self.throw_number = {t: i for i, t in enumerate(self.throws)}
        self.keeps = multisets(0, self.dice)
        self.keep_number = {k: i for i, k in enumerate(self.keeps)}
        self._start = self._check_start(filled, upper, flag)

    def _check_start(self, filled, upper, flag):
        used = 0
        for box in filled:
            if box not in self.boxes:
                raise UnknownNameError("box", box, self.boxes)
            used |= 1 << self.boxes.index(box)
        if type(upper) is not int or not 0 <= upper <= BONUS_THRESHOLD:
            raise InvalidArgumentError(f"upper must be a whole number 0 to 63, not {upper!r}")
        if not isinstance(flag, int) or flag not in (0, 1):  # a bool is fine too
            raise InvalidArgumentError(f"flag must be 0 or 1, not {flag!r}")
        flag = int(flag)
        if flag and not (self.yahtzee >= 0 and used >> self.yahtzee & 1):
            raise InvalidArgumentError(
                "flag=1 means the Yahtzee box holds 50: it needs Yahtzee with the box "
                "'yahtzee' among filled"
            )
        return (TURN, used, upper, flag)

    # -- the game ----------------------------------------------------------------
    def start(self):
        return self._start

    def terminal_value(self, state):
        return 0 if state[0] == TURN and state[1] == self.full else None

    def outcomes(self, state):
        kind, used, upper, flag = state[:4]
        if kind == TURN:
            return self._throw(used, upper, flag, (), THROWS_AGAIN)
        if kind == KEPT:
            return self._throw(used, upper, flag, state[4], state[5] - 1)
        dice, left = state[4], state[5]
        options = self._boxes(used, upper, flag, dice)
        if left:
            options += [
                Option((KEPT, used, upper, flag, kept, left), KEEP_MOVES + self.keep_number[kept])
                for kept in self._keeps(dice)
            ]
        return decision(*options)

    def _throw(self, used, upper, flag, kept, left):
        """The kept dice and the others thrown: one outcome per resulting throw."""
        thrown = self.dice - len(kept)
        ways = FACES**thrown
        return throw(
            *(
                (
                    Fraction(arrangements(rest), ways),
                    (THROWN, used, upper, flag, tuple(sorted(kept + rest)), left),
                )
                for rest in multisets(thrown)
            )
        )

    def _keeps(self, dice):
        """Every distinct multiset of the dice but the whole throw, in dice order."""
        parts = {tuple(part) for n in range(len(dice)) for part in combinations(dice, n)}
        return sorted(parts, key=self.keep_number.__getitem__)

    def _boxes(self, used, upper, flag, dice):
        """The options scoring the dice: one per box the rules allow, with its reward."""
        rules = self.scoring
        row = self.throw_number[dice]
        open_boxes = [b for b in range(len(self.boxes)) if not used >> b & 1]
        joker = self.yahtzee >= 0 and used >> self.yahtzee & 1 and len(set(dice)) == 1
        table, extra, allowed = rules.table, 0, open_boxes
        if joker:
            own = self.own_box.get(dice[0])
            own_open = own is not None and not used >> own & 1
            if not own_open:  # full house and the straights count in full
                table = rules.joker_table
            if flag:
                extra = rules.yahtzee_bonus
            if self.forced:
                if own_open:
                    allowed = [own]
                else:
                    lower = [b for b in open_boxes if b in self.lower_boxes]
                    allowed = lower or open_boxes
        options = []
        for b in allowed:
            points = int(table[row, b])
            reward = points + extra
            new_upper, new_flag = upper, flag
            if self.upper_face[b]:
                new_upper = min(upper + points, BONUS_THRESHOLD)
                if upper < BONUS_THRESHOLD <= upper + points:
                    reward += rules.upper_bonus
            if b == self.yahtzee and points:
                new_flag = 1
            target = (TURN, used | 1 << b, new_upper, new_flag)
            options.append(Option(target, b, reward=reward))
        return options

    # -- how it reads ------------------------------------------------------------
    def label(self, state):
        kind, used, upper, flag = state[:4]
        if used == self.full:
            card = "card full"
        else:
            card = "open: " + ", ".join(
                box for b, box in enumerate(self.boxes) if not used >> b & 1
            )
        card += f" | upper {upper}" + (" | yahtzee 50" if flag else "")
        if kind == TURN:
            return card
        left = state[5]
        throws = f"{left} throw{'s' if left != 1 else ''} left"
        if kind == THROWN:
            return f"{card} | {_faces(state[4])}, {throws}"
        kept = _faces(state[4]) or "nothing"
        return f"{card} | kept {kept}, throwing {self.dice - len(state[4])} ({throws})"

    def layer(self, state):
        """The number of boxes filled."""
        return bin(state[1]).count("1")

    def layer_name(self, layer: int) -> str:
        """How diagrams and the explorer name a layer: ``'2 boxes filled'``."""
        return f"{layer} box filled" if layer == 1 else f"{layer} boxes filled"

    def move_label(self, move):
        if 0 <= move < len(self.boxes):
            return f"score {self.boxes[move]}"
        if KEEP_MOVES <= move < KEEP_MOVES + len(self.keeps):
            return "keep " + (_faces(self.keeps[move - KEEP_MOVES]) or "nothing")
        return "throw"
