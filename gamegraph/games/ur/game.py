"""The Royal Game of Ur as :class:`~gamegraph.rules.Rules`: what :func:`gamegraph.build` reads.

:class:`Ur` states the rules of :mod:`.rules` in the library's terms (start, chance
outcomes, options, terminal value) and hands :func:`gamegraph.build` the vectorised
graph of :mod:`.positions`, which numbers every position at once. With a custom start
it offers none, and :func:`~gamegraph.build` explores the positions reachable from that
start one by one.

Options after a throw are ordered by the square the moved piece starts from, entering
pieces (square 0) first; an option's move number is that square (-1: no move, the turn
passes).

Examples
--------
>>> game = Ur("finkel", pieces=1)
>>> state = parse_position("13/14", game.ruleset)
>>> [(str(o.probability), [(o2.move, format_position(o2.target), o2.passes) for o2 in o.options])
...  for o in game.outcomes(state)]                       # doctest: +NORMALIZE_WHITESPACE
[('1/16', [(-1, '14/13', True)]),
 ('1/4', [(13, '14/14', False)]),
 ('3/8', [(13, 'WIN', False)]),
 ('1/4', [(-1, '14/13', True)]),
 ('1/16', [(-1, '14/13', True)])]
"""

from __future__ import annotations

from fractions import Fraction

from ...errors import InvalidArgumentError
from ...graph import StateGraph
from ...rules import Option, Outcome, Rules
from .positions import build_board_graph
from .rules import (
    WIN,
    format_position,
    legal_moves,
    parse_position,
    play,
    position_problem,
    rule_set,
    start_position,
)


class Ur(Rules):
    """The Royal Game of Ur under one rule set.

    Parameters
    ----------
    rules : str or RuleSet
        ``finkel``, ``masters``, ``blitz`` or ``aseb`` (:data:`.rules.RULESETS`).
    pieces : int, optional
        Pieces per side (1 to 7); the rule set's own count by default.
    start : UrState or str, optional
        Play from this position instead of the start; the graph then holds only what is
        reachable from it (built state by state), which suits endgames.

    Examples
    --------
    The "King of Ur" endgame: each side has one piece on its last square.

    >>> from gamegraph import build, solve
    >>> game = Ur("finkel", start="14+6/14+6")
    >>> solve(build(game), exact=True).start_value
    Fraction(4, 7)
    """

    def __init__(self, rules="finkel", pieces: int | None = None, start=None):
        self.ruleset = rule_set(rules, pieces)
        if isinstance(start, str):
            start = parse_position(start, self.ruleset)
        elif start is not None:
            problem = position_problem(start, self.ruleset)
            if problem:
                raise InvalidArgumentError(f"start position {start!r}: {problem}")
        self._start = start
        self.name = f"ur-{self.ruleset.name}-{self.ruleset.pieces}"

    @property
    def pieces(self) -> int:
        return self.ruleset.pieces

    def start(self):
        return start_position() if self._start is None else self._start

    def terminal_value(self, state):
        return Fraction(1) if state == WIN else None

    def outcomes(self, state):
        ruleset = self.ruleset
        outcomes = []
        for throw, numerator in ruleset.throws:
            probability = Fraction(numerator, ruleset.denominator)
            options = []
            for move in legal_moves(state, throw, ruleset):
                target, passes = play(state, move, ruleset)
                options.append(Option(target, move[0], passes))
            if not options:
                options.append(Option(state.flipped(), -1, True))
            outcomes.append(Outcome(probability, tuple(options)))
        return outcomes

    def throws(self) -> list[int]:
        """The throws of the dice, in outcome order."""
        return [throw for throw, _ in self.ruleset.throws]

    def label(self, state) -> str:
        return format_position(state)

    def drawing(self) -> dict:
        """How the explorer draws a position from its label: the board's tiles, the mover's
        path (the opponent walks its mirror image, x -> 4 - x) and the rosettes.
        """
        ruleset = self.ruleset
        return {
            "kind": "ur",
            "path": [list(tile) for tile in ruleset.path],
            "rosettes": sorted(list(tile) for tile in ruleset.rosettes),
            "pieces": ruleset.pieces,
        }

    def group(self, state) -> str:
        """The explorer's overview groups: pieces borne off, the mover's first."""
        if not hasattr(state, "mover_off"):  # the end of the game
            return f"game over ({state})"
        return f"borne off {state.mover_off}-{state.opponent_off}"

    def move_label(self, move: int) -> str:
        return "pass" if move < 0 else ("enter" if move == 0 else f"from {move}")

    def build_graph(self) -> StateGraph | None:
        """Every position at once, vectorised (see :func:`.positions.build_board_graph`).

        With a custom start there is none (None): :func:`gamegraph.build` then explores
        only the positions reachable from that start, one by one.
        """
        if self._start is not None:
            return None
        return build_board_graph(self)
