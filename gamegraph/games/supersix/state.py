"""A Super Six position and the game's vocabulary: sockets, rule sets, moves, phases.

Everything else in the package builds on these names; they sit in a module of their own so
that both the rules (:mod:`.rules`) and the vectorised build (:mod:`.positions`) can use
them without importing each other.

>>> str(SixState(4, 1, 1)), str(SixState(0, 2, 2, FIRST_THROW))
('4/1/1', '0/2/2 (first round, throw 1)')
"""

from __future__ import annotations

from typing import NamedTuple

#: Sockets on the lid: a throw of 1 to 5 names a socket, a 6 sends a peg down the pit.
SOCKETS = 5
#: Rule sets by name: ``free`` (the blog's) and ``first-round`` (the published analyses').
RULESETS = ("free", "first-round")
#: The terminal state: the player who just moved has no pegs left.
WIN = "WIN"

#: Moves: what an option does.
CONTINUE, STOP, TAKE = 1, 0, 2

#: Phases: normal play, and the first round's single throws under ``first-round`` rules.
PLAY, FIRST_THROW, SECOND_THROW = 0, 1, 2


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
