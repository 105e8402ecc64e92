"""Home Run, a small two-player race game with choices and captures.

Each player has ``tokens`` tokens (2 by default) that start at home, square 0, and race
along a shared track to the goal, square ``track`` (7 by default). On a turn the player
throws one die and moves one token forward by the throw:

- a token needs the exact throw to reach the goal, and cannot go past it;
- a token cannot land on a square held by the player's own token (the goal excepted);
- landing on a square held by an opponent's token sends that token home (a capture);
- the player chooses which token to move; with no legal move the turn is lost (a pass).

The first player with every token in the goal wins. The turn passes after every throw.

States are written from the mover's side: ``(mine, theirs)``, each a sorted tuple of the
squares of that player's tokens, so one state serves both players and a passing option
swaps the two. The mover who brings the last token home reaches :data:`WON` without
passing. Captures send play back, so the graph has cycles; it is solved exactly all the
same (a few thousand states, well under a second).

A move is numbered ``16 * from + to`` (:func:`move_number`), and :data:`PASS` when no
token can move.

Examples
--------
>>> from gamegraph import build, solve
>>> graph = build(HomeRun(track=4, tokens=1))
>>> graph.n_states, solve(graph, exact=True).start_value
(14, Fraction(6, 11))
"""

from __future__ import annotations

from fractions import Fraction

from .._checks import check_int
from ..rules import Option, Outcome, Rules

__all__ = ["HomeRun", "WON", "PASS", "AGENTS", "move_number", "rearmost", "foremost", "hunter"]

#: The terminal state: the player to move has just brought the last token home.
WON = "won"
#: The move number of a turn with no legal move.
PASS = 0
_SIXTH = Fraction(1, 6)


def move_number(start: int, end: int) -> int:
    """The move number of a token going from square ``start`` to square ``end``.

    >>> move_number(3, 7), HomeRun().move_label(move_number(3, 7))
    (55, '3-7')
    """
    return 16 * start + end


class HomeRun(Rules):
    """Home Run with ``tokens`` tokens each on a track of ``track`` squares (see the module).

    Parameters
    ----------
    track : int
        The goal square, 2 to 15 (the tokens start on square 0).
    tokens : int
        Tokens per player, 1 to 3.

    Examples
    --------
    >>> rules = HomeRun()
    >>> rules.start(), rules.label(rules.start())
    (((0, 0), (0, 0)), '00 v 00')
    >>> for option in rules.outcomes(((0, 3), (1, 5)))[1].options:  # a throw of 2
    ...     print(rules.move_label(option.move), rules.label(option.target), option.passes)
    0-2 15 v 23 True
    3-5 01 v 05 True
    """

    def __init__(self, *, track: int = 7, tokens: int = 2):
        self.track = check_int(track, "track", low=2, high=15)
        self.tokens = check_int(tokens, "tokens", low=1, high=3)
        self.name = f"home run ({tokens} tokens, track {track})"

    def start(self):
        home = (0,) * self.tokens
        return (home, home)

    def terminal_value(self, state):
        return Fraction(1) if state == WON else None

    def moves(self, state, die: int) -> list[Option]:
        """The options a throw of ``die`` offers, the rearmost token first."""
        mine, theirs = state
        goal, options = self.track, []
        for i, square in enumerate(mine):
            end = square + die
            if (i and square == mine[i - 1]) or end > goal or (end < goal and end in mine):
                continue  # the same move as the token before, past the goal, or blocked
            now = tuple(sorted(mine[:i] + (end,) + mine[i + 1 :]))
            if all(s == goal for s in now):
                options.append(Option(WON, move=move_number(square, end)))
                continue
            hit = tuple(sorted(0 if s == end and s < goal else s for s in theirs))
            options.append(Option((hit, now), move=move_number(square, end), passes=True))
        return options or [Option((theirs, mine), move=PASS, passes=True)]

    def outcomes(self, state):
        return [Outcome(_SIXTH, tuple(self.moves(state, die))) for die in range(1, 7)]

    def label(self, state):
        """``"mine v theirs"``, each token's square in hex (``a`` is 10): ``"03 v 15"``."""
        if state == WON:
            return "WON"
        mine, theirs = state
        return " v ".join("".join(f"{s:x}" for s in side) for side in (mine, theirs))

    def move_label(self, move):
        return "pass" if move == PASS else f"{move // 16}-{move % 16}"


def rearmost(state, options):
    """Move the token furthest behind."""
    return 0


def foremost(state, options):
    """Move the token furthest ahead."""
    return len(options) - 1


def hunter(state, options):
    """Capture when a move can (the one going furthest); otherwise move the rearmost token."""
    mine, theirs = state
    for i in reversed(range(len(options))):
        target = options[i].target
        if target != WON and sum(target[0]) < sum(theirs):
            return i
    return 0


#: The ready-made agents, by name.
AGENTS = {"rearmost": rearmost, "foremost": foremost, "hunter": hunter}
