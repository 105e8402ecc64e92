"""Pig, the jeopardy dice game, in its natural form: roll or hold, then the die.

Two players race to ``goal`` points (100 in the standard game). On a turn the player
rolls one die as often as they like: a 1 loses the points gathered this turn and ends
the turn; any other face adds to the turn total. After each scoring roll the player
chooses to roll again or to *hold*, banking the turn total and passing the turn. The
game ends as soon as the banked score plus the turn total reaches the goal (holding then
is the only sensible move, so the win is taken at once, as Neller and Presser do).

The rules put the decision before the throw, as a person plays: a *choose* state
(:func:`~gamegraph.rules.decision`: roll or hold) leads to a *roll* state
(:func:`~gamegraph.rules.throw`: six faces, no choice after them). States are tuples
``(phase, mine, theirs, turn)`` from the mover's side: ``phase`` is ``"roll"`` or
``"choose"``, ``mine`` and ``theirs`` the banked scores, ``turn`` the turn total. A turn
starts in ``("roll", mine, theirs, 0)``: holding with nothing to bank is left out, as it
only hands the opponent a free turn.

Neller and Presser (2004) solved the game to 100: with optimal play the first player wins
about 53.06 % of games, and :data:`PUBLISHED_START_VALUE` holds their figure.

Examples
--------
>>> from gamegraph import build, solve
>>> graph = build(Pig(goal=10))
>>> graph.n_states
604
>>> round(float(solve(graph).start_value), 6)
0.709424
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..batch import BatchRules, Expansion
from ..errors import InvalidArgumentError
from ..rules import Option, Rules, decision, throw

__all__ = [
    "Pig",
    "PigBatch",
    "hold_at",
    "AGENTS",
    "PUBLISHED_START_VALUE",
    "ROLL",
    "HOLD",
    "BUST",
    "WON",
]

#: Move numbers: the two decisions, and the roll of a 1.
ROLL, HOLD, BUST = 0, 1, 2
#: The terminal state: the player to move has just reached the goal.
WON = "won"
#: The first player's chance to win Pig to 100 with optimal play, as published (4 digits).
PUBLISHED_START_VALUE = 0.5306

_SIXTH = Fraction(1, 6)


class Pig(Rules):
    """Two-player Pig to ``goal`` points with one six-sided die (see the module docstring).

    Parameters
    ----------
    goal : int
        The score to reach: a whole number >= 2 (100 in the standard game).
    """

    def __init__(self, goal: int = 100):
        if type(goal) is not int or goal < 2:
            raise InvalidArgumentError(f"goal must be a whole number >= 2, not {goal!r}")
        self.goal = goal
        self.name = f"pig to {goal}"

    def start(self):
        return ("roll", 0, 0, 0)

    def terminal_value(self, state):
        return Fraction(1) if state == WON else None

    def outcomes(self, state):
        phase, mine, theirs, turn = state
        if phase == "choose":
            return decision(
                Option(("roll", mine, theirs, turn), move=ROLL),
                Option(("roll", theirs, mine + turn, 0), move=HOLD, passes=True),
            )
        faces = [(_SIXTH, Option(("roll", theirs, mine, 0), move=BUST, passes=True))]
        for face in range(2, 7):
            total = turn + face
            won = mine + total >= self.goal
            faces.append((_SIXTH, WON if won else ("choose", mine, theirs, total)))
        return throw(*faces)

    def label(self, state):
        if state == WON:
            return "WON"
        phase, mine, theirs, turn = state
        return f"{phase} {mine}-{theirs} +{turn}"

    def move_label(self, move):
        return {ROLL: "roll", HOLD: "hold", BUST: "bust"}.get(move, "die")


class PigBatch(BatchRules):
    """The same game as :class:`Pig`, stated on arrays of packed codes (the batch path).

    A state ``(phase, mine, theirs, turn)`` is the code
    ``((p * goal + mine) * goal + theirs) * goal + turn`` with ``p`` 0 for "roll" and 1 for
    "choose"; ``2 * goal**3`` is ``WON``. :meth:`state` and :meth:`code` convert, so the
    graph's states, labels and values are those of :class:`Pig`.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> graph = build(PigBatch(goal=10))
    >>> graph.n_states, graph.states[0], round(float(solve(graph).start_value), 6)
    (604, ('roll', 0, 0, 0), 0.709424)
    """

    def __init__(self, goal: int = 100):
        self.rules = Pig(goal)
        self.goal = goal
        self.name = self.rules.name
        self.won = 2 * goal**3
        self.code_bound = self.won + 1

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.where(codes == self.won, 1.0, np.nan)

    def _pack(self, phase, mine, theirs, turn):
        goal = self.goal
        return ((phase * goal + mine) * goal + theirs) * goal + turn

    def expand(self, codes):
        goal = self.goal
        rest, turn = np.divmod(codes, goal)
        rest, theirs = np.divmod(rest, goal)
        choose, mine = np.divmod(rest, goal)
        choose = choose.astype(bool)
        roll = ~choose
        per_state = np.where(choose, 1, 6)
        outcome_ptr = np.concatenate([[0], np.cumsum(per_state)])
        per_outcome = np.ones(int(outcome_ptr[-1]), dtype=np.int64)
        per_outcome[outcome_ptr[:-1][choose]] = 2  # roll or hold
        option_ptr = np.concatenate([[0], np.cumsum(per_outcome)])
        target = np.empty(int(option_ptr[-1]), dtype=np.int64)
        move = np.full(len(target), -1, dtype=np.int32)
        passes = np.zeros(len(target), dtype=bool)

        at = option_ptr[outcome_ptr[:-1][choose]]
        target[at] = self._pack(0, mine, theirs, turn)[choose]
        move[at] = ROLL
        target[at + 1] = self._pack(0, theirs, mine + turn, 0)[choose]
        move[at + 1] = HOLD
        passes[at + 1] = True

        first = outcome_ptr[:-1][roll]
        mine, theirs, turn = mine[roll], theirs[roll], turn[roll]
        at = option_ptr[first]
        target[at] = self._pack(0, theirs, mine, 0)
        move[at] = BUST
        passes[at] = True
        for face in range(2, 7):
            total = turn + face
            won = mine + total >= goal
            target[option_ptr[first + face - 1]] = np.where(
                won, self.won, self._pack(1, mine, theirs, np.minimum(total, goal - 1))
            )
        return Expansion(
            outcome_state=np.repeat(np.arange(len(codes)), per_state),
            outcome_weight=np.repeat(np.where(choose, 6, 1), per_state),
            denominator=6,
            option_outcome=np.repeat(np.arange(len(per_outcome)), per_outcome),
            option_target=target,
            option_move=move,
            option_passes=passes,
        )

    def state(self, code):
        if code == self.won:
            return WON
        rest, turn = divmod(code, self.goal)
        rest, theirs = divmod(rest, self.goal)
        choose, mine = divmod(rest, self.goal)
        return ("choose" if choose else "roll", mine, theirs, turn)

    def code(self, state):
        if state == WON:
            return self.won
        phase, mine, theirs, turn = state
        if phase not in ("roll", "choose") or not all(
            type(x) is int and 0 <= x < self.goal for x in (mine, theirs, turn)
        ):
            raise KeyError(state)
        return self._pack(int(phase == "choose"), mine, theirs, turn)

    def label(self, state):
        return self.rules.label(state)

    def move_label(self, move):
        return self.rules.move_label(move)


def hold_at(points: int):
    """An agent that holds once the turn total reaches ``points`` (and rolls before that).

    The classic rule of thumb is hold at 20. It is a choice function for
    :meth:`gamegraph.Policy.from_agent`: at a choose state it picks hold (index 1) or roll
    (index 0); wherever the throw leaves one option it takes it.
    """

    def agent(state, options):
        if len(options) == 1:
            return 0
        return HOLD if state[3] >= points else ROLL

    agent.__name__ = f"hold at {points}"
    return agent


#: The ready-made agents, by name.
AGENTS = {f"hold at {n}": hold_at(n) for n in (10, 20, 25)}
