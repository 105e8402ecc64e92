"""Pig for stakes: two players race to ``goal`` and the loser pays the difference in points.

A two-player game whose objective is a **margin** (:attr:`gamegraph.rules.Rules.objective`
``"margin"``): the turn is Pig's (see :mod:`gamegraph.games.pig`; roll as often as you
like, a 1 loses the turn's points and passes the turn, a hold banks them and passes it),
and the game ends as soon as a player's banked score plus turn total reaches ``goal``:
those points are banked at once and the game is over. The loser then pays the winner
one unit per point between their final scores, so what a player gains is
``mine - theirs`` at the end, and a big win is worth more than a narrow one.

Each banked point is a reward to the player who banks it: a hold's reward is its turn
total, a bust's is 0, and the face that reaches the goal banks the turn total with it.
The value of a state is the expected margin (the mover's points from here on minus the
opponent's); an option that passes the turn is worth its reward minus the value of its
target. Unlike Pig for the win, a player ahead keeps some reason to roll on, and a player
far behind has less reason to gamble.

States are Pig's, ``(phase, mine, theirs, turn)`` from the mover's side, with
``phase`` ``"roll"`` or ``"choose"``; :data:`DONE` ends the game (worth 0: every point
was paid as it was banked). Every hold banks at least 2 points, so a game ends with
probability 1 whatever the players do.

Examples
--------
>>> from gamegraph import build, solve
>>> graph = build(PigStakes(goal=10))
>>> graph.n_states, graph.objective
(604, 'margin')
>>> best = solve(graph, exact=True)
>>> best.start_value, round(float(best.start_value), 6)  # the first player's edge
(Fraction(53450, 10961), 4.87638)
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import InvalidArgumentError
from ..rules import Option, Rules, decision, throw
from .pig import BUST, HOLD, ROLL, hold_at

__all__ = ["PigStakes", "hold_at", "AGENTS", "ROLL", "HOLD", "BUST", "DONE"]

#: The terminal state: a player has just reached the goal.
DONE = "done"

_SIXTH = Fraction(1, 6)


class PigStakes(Rules):
    """Two-player Pig to ``goal`` for stakes: the margin of points (see the module docstring).

    Parameters
    ----------
    goal : int
        The score that ends the game: a whole number >= 2.

    Examples
    --------
    Holding on the first 2 points hands the opponent the turn for a margin of 2 now:

    >>> pig = PigStakes(goal=10)
    >>> pig.outcomes(("choose", 0, 0, 2))[0].options[1]
    Option(target=('roll', 0, 2, 0), move=1, passes=True, reward=2)
    """

    objective = "margin"
    value_name = "expected margin in points"

    def __init__(self, goal: int = 100):
        if type(goal) is not int or goal < 2:
            raise InvalidArgumentError(f"goal must be a whole number >= 2, not {goal!r}")
        self.goal = goal
        self.name = f"pig for stakes to {goal}"

    def start(self):
        return ("roll", 0, 0, 0)

    def terminal_value(self, state):
        return 0 if state == DONE else None

    def outcomes(self, state):
        phase, mine, theirs, turn = state
        if phase == "choose":
            return decision(
                Option(("roll", mine, theirs, turn), move=ROLL),
                Option(("roll", theirs, mine + turn, 0), move=HOLD, passes=True, reward=turn),
            )
        faces = [(_SIXTH, Option(("roll", theirs, mine, 0), move=BUST, passes=True))]
        for face in range(2, 7):
            total = turn + face
            if mine + total >= self.goal:
                faces.append((_SIXTH, Option(DONE, reward=total)))
            else:
                faces.append((_SIXTH, ("choose", mine, theirs, total)))
        return throw(*faces)

    def label(self, state):
        if state == DONE:
            return "DONE"
        phase, mine, theirs, turn = state
        return f"{phase} {mine}-{theirs} +{turn}"

    def layer(self, state):
        """The points banked by both players (twice the goal for the end)."""
        return 2 * self.goal if state == DONE else state[1] + state[2]

    def move_label(self, move):
        return {ROLL: "roll", HOLD: "hold", BUST: "bust"}.get(move, "die")


#: The ready-made agents, by name (Pig's own: hold once the turn total reaches n).
AGENTS = {f"hold at {n}": hold_at(n) for n in (10, 20, 25)}
