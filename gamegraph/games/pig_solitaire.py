"""Pig played alone: two score games, one counting turns and one counting points.

The turn is Pig's (see :mod:`gamegraph.games.pig`): roll one die as often as you like; a 1
loses the points gathered this turn and ends it (a *bust*); any other face adds to the
turn total; after each scoring roll you choose to roll again or to *hold*, banking the
turn total and ending the turn. A turn starts with a roll (holding nothing only wastes
the turn). Alone, there is no opponent to beat, so the objective is a score
(:attr:`gamegraph.rules.Rules.objective` ``"score"``):

* :class:`PigTurns`: reach ``goal`` points in as few turns as possible. Every turn costs
  1 (a reward of -1 on each move that ends a turn: hold, bust, or the face that reaches
  the goal), so a state's value is **minus** the expected number of turns still to play;
  :func:`turns` turns a value back into turns. With the goal at 100 the least expected
  number is 12.545 turns (:data:`PUBLISHED_TURNS_TO_100`), against 12.637 for "hold at
  20" (:data:`HOLD_AT_20_TURNS_TO_100`).
* :class:`PigScore`: bank as many points as possible in a fixed number of turns. A hold
  earns its turn total as a reward, a bust earns nothing; the value is the expected total
  still to be banked. Turn totals are bounded by ``cap``: from ``cap`` points in hand the
  only move is to hold (why that changes nothing is in the class docstring).

States are tuples: ``(phase, score, turn)`` for :class:`PigTurns` (``phase`` is
``"roll"`` or ``"choose"``, ``score`` the banked points, ``turn`` the turn total) and
``(phase, turns_left, turn)`` for :class:`PigScore`, whose banked points live in the
rewards rather than in the state (which is why five turns take 316 states).

Examples
--------
>>> from gamegraph import build, solve
>>> best = solve(build(PigTurns(goal=100)))
>>> round(float(turns(best.start_value)), 3)
12.545
>>> solve(build(PigScore(turns=1)), exact=True).start_value
Fraction(492303203, 60466176)
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import InvalidArgumentError
from ..rules import Option, Rules, decision, throw

__all__ = [
    "PigTurns",
    "PigScore",
    "turns",
    "hold_at",
    "AGENTS",
    "PUBLISHED_TURNS_TO_100",
    "HOLD_AT_20_TURNS_TO_100",
    "ROLL",
    "HOLD",
    "BUST",
    "DONE",
]

#: Move numbers: the two decisions, and the roll of a 1 (faces 2 to 6 are move -1).
ROLL, HOLD, BUST = 0, 1, 2
#: The terminal state: the goal is reached (PigTurns) or the last turn is over (PigScore).
DONE = "done"
#: The least expected number of turns to reach 100 alone, Neller and Presser's published
#: figure (to 3 decimals); the solve gives 12.5452323519554.
PUBLISHED_TURNS_TO_100 = 12.545
#: The expected number of turns to reach 100 holding at 20 (or at the goal), to 3 decimals;
#: Neller's "Average Pig Turns" exercise simulates it as 12.634906 (1,000,000 games).
HOLD_AT_20_TURNS_TO_100 = 12.637

_SIXTH = Fraction(1, 6)


def _whole(value, name, least):
    if type(value) is not int or value < least:
        raise InvalidArgumentError(f"{name} must be a whole number >= {least}, not {value!r}")
    return value


def turns(value):
    """The expected number of turns a :class:`PigTurns` value stands for: ``-value``.

    Works on a number (float or Fraction) and on a numpy array of values.

    >>> turns(Fraction(-15116544, 5675645))
    Fraction(15116544, 5675645)
    """
    return -value


class PigTurns(Rules):
    """Pig alone: reach ``goal`` points in the fewest expected turns (see the module docstring).

    Each move that ends a turn (a hold, a bust, or the face that reaches the goal) has
    reward -1, so the value of a state is minus the expected number of turns left;
    :func:`turns` gives them back. A bust leaves the banked score as it was, so every
    score is a cycle of the graph (one cyclic component per banked score).

    Parameters
    ----------
    goal : int
        The score to reach: a whole number >= 2 (100 in the standard game).

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> graph = build(PigTurns(goal=20))
    >>> graph.n_states, graph.objective
    (328, 'score')
    >>> best = solve(graph, exact=True)
    >>> turns(best.start_value), round(float(turns(best.start_value)), 6)
    (Fraction(15116544, 5675645), 2.663405)
    >>> best.value(("choose", 0, 12)) == best.value(("roll", 0, 12))  # 12 in hand: roll on
    True
    """

    objective = "score"
    #: Values are minus the expected turns (the score is -1 per turn).
    value_name = "minus expected turns"

    def __init__(self, goal: int = 100):
        self.goal = _whole(goal, "goal", 2)
        self.name = f"pig solitaire: turns to {goal}"

    def start(self):
        return ("roll", 0, 0)

    def terminal_value(self, state):
        return 0 if state == DONE else None

    def outcomes(self, state):
        phase, score, turn = state
        if phase == "choose":
            return decision(
                Option(("roll", score, turn), move=ROLL),
                Option(("roll", score + turn, 0), move=HOLD, reward=-1),
            )
        faces = [(_SIXTH, Option(("roll", score, 0), move=BUST, reward=-1))]
        for face in range(2, 7):
            total = turn + face
            if score + total >= self.goal:
                faces.append((_SIXTH, Option(DONE, reward=-1)))
            else:
                faces.append((_SIXTH, ("choose", score, total)))
        return throw(*faces)

    def label(self, state):
        if state == DONE:
            return "DONE"
        phase, score, turn = state
        return f"{phase} {score} +{turn}"

    def layer(self, state):
        """The banked score (the goal for the end)."""
        return self.goal if state == DONE else state[1]

    def move_label(self, move):
        return {ROLL: "roll", HOLD: "hold", BUST: "bust"}.get(move, "die")


class PigScore(Rules):
    """Pig alone for ``turns`` turns: bank the most points (see the module docstring).

    A hold's reward is the turn total it banks; a bust's is 0. The banked total is not
    part of the state (the rewards carry it), so the graph is small and acyclic.

    **The cap.** Without a bound the turn total could grow for ever, so from ``cap``
    points in hand the only move is to hold. Any ``cap`` >= 20 leaves the optimal value
    and policy unchanged: with no goal, a turn's points add to the rest independently of
    when they are banked, and from a turn total t >= 20 the turn total (0 after a bust)
    is a supermartingale, since one more roll changes its mean by
    ``(5/6)(t + 4) - t = (20 - t)/6 <= 0``. No way of stopping a non-negative
    supermartingale beats stopping at once, so holding at 20 or more is optimal whatever
    the cap (rolling at exactly 20 ties). The default 30 leaves room for the "hold at 25"
    agent.

    Parameters
    ----------
    turns : int
        The number of turns: a whole number >= 1.
    cap : int
        The turn total from which the player must hold: a whole number >= 2.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> graph = build(PigScore(turns=5))
    >>> graph.n_states, graph.objective
    (316, 'score')
    >>> best = solve(graph, exact=True)
    >>> best.start_value, round(float(best.start_value), 6)
    (Fraction(2461516015, 60466176), 40.708974)
    >>> best.start_value == solve(build(PigScore(turns=5, cap=20)), exact=True).start_value
    True
    """

    objective = "score"
    value_name = "expected points banked"

    def __init__(self, turns: int = 5, cap: int = 30):
        self.turns = _whole(turns, "turns", 1)
        self.cap = _whole(cap, "cap", 2)
        self.name = f"pig solitaire: points in {turns} turns"

    def start(self):
        return ("roll", self.turns, 0)

    def terminal_value(self, state):
        return 0 if state == DONE else None

    def _next_turn(self, left):
        return DONE if left == 1 else ("roll", left - 1, 0)

    def outcomes(self, state):
        phase, left, turn = state
        if phase == "choose":
            hold = Option(self._next_turn(left), move=HOLD, reward=turn)
            if turn >= self.cap:
                return decision(hold)
            return decision(Option(("roll", left, turn), move=ROLL), hold)
        faces = [(_SIXTH, Option(self._next_turn(left), move=BUST))]
        faces += [(_SIXTH, ("choose", left, turn + face)) for face in range(2, 7)]
        return throw(*faces)

    def label(self, state):
        if state == DONE:
            return "DONE"
        phase, left, turn = state
        return f"{phase} {left} left +{turn}"

    def layer(self, state):
        """The number of turns played."""
        return self.turns if state == DONE else self.turns - state[1]

    def move_label(self, move):
        return {ROLL: "roll", HOLD: "hold", BUST: "bust"}.get(move, "die")


def hold_at(points: int):
    """An agent that holds once the turn total reaches ``points`` (and rolls before that).

    It plays both games: at a choose state it picks hold or roll (by the options' move
    numbers, so a forced hold stays a hold); wherever there is one option it takes it.
    In :class:`PigTurns` a face that reaches the goal ends the game at once, so this is
    "hold at ``points`` or at the goal".

    >>> agent = hold_at(20)
    >>> agent(("choose", 0, 20), (Option("r", ROLL), Option("h", HOLD)))
    1
    """

    def agent(state, options):
        if len(options) == 1:
            return 0
        wanted = HOLD if state[2] >= points else ROLL
        return next(i for i, option in enumerate(options) if option.move == wanted)

    agent.__name__ = f"hold at {points}"
    return agent


#: The ready-made agents, by name.
AGENTS = {f"hold at {n}": hold_at(n) for n in (10, 20, 25)}
