"""One turn of Yahtzee or Yatzy as an ordinary score game, from a solved table.

A solved :class:`~gamegraph.games.yahtzee.solver.ValueTable` holds the value of every
turn-start position; a single turn between two of them is a small graph (the solver's
*widget*): the first throw, a keep, the second throw, a keep, the last throw and the
box it is scored in. :class:`TurnRules` writes that turn as ordinary
:class:`~gamegraph.rules.Rules` with the score objective, starting from a chosen
position: its states are those of :class:`~gamegraph.games.yahtzee.rules.YahtzeeRules`
(turn start, dice thrown, dice kept), and every turn-start position the turn can end
in is terminal, worth the table's value of it. Scoring a box earns what it earns in the
full game (box, upper bonus, Yahtzee bonus), so the value of the turn's start under
:func:`gamegraph.solve` is the table's value of that position (floating-point sums in
another order: equal to about 1e-12).

The graph is small whatever the position (at most 1 + 3 x 252 throws + 2 x 462 keeps +
one state per box it can end in, about 1,700 states with five dice), so
:func:`gamegraph.build` explores it at once and the explorer
(:func:`gamegraph.analysis.explore.explore_graph`) shows it whole: every throw with its
chance, every keep and box with its value. The states' layers are the turn's stages
(:data:`STAGES`).

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.yahtzee.scoring import scoring
>>> from gamegraph.games.yahtzee.solver import solve_values
>>> table = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=2))
>>> turn = TurnRules(table, filled=("chance",), upper=0)
>>> solution = solve(build(turn))
>>> value = table.values[table.index(0b10, 0)]
>>> bool(abs(solution.start_value - value) < 1e-12)
True
>>> [turn.layer_name(k) for k in (0, 1, 6)]
['turn start', 'first throw', 'next turn']
"""

from __future__ import annotations

from ...errors import InvalidArgumentError
from .rules import KEEP_MOVES, KEPT, THROWN, TURN, YahtzeeRules
from .solver import ValueTable

__all__ = ["TurnRules", "STAGES"]

#: The layers of a turn's graph, in order.
STAGES = (
    "turn start",
    "first throw",
    "kept after the first",
    "second throw",
    "kept after the second",
    "last throw",
    "next turn",
)


class TurnRules(YahtzeeRules):
    """One turn from a position, its ends worth a solved table's values.

    Parameters
    ----------
    table : ValueTable
        A solved table (:func:`~gamegraph.games.yahtzee.solver.solve_values` or
        :func:`~gamegraph.games.yahtzee.table_file.load_table`); its rule set is the
        turn's.
    filled : sequence of str
        The boxes already filled (names as the rule set spells them); at least one box
        must stay open.
    upper : int
        The upper total, 0 to 63 (63: the bonus is earned).
    flag : int
        1 if the Yahtzee box holds 50 (then ``"yahtzee"`` must be among ``filled``).

    Examples
    --------
    One die, one box (chance): the turn is worth the table's start value, 14/3.

    >>> from gamegraph import build, solve
    >>> from gamegraph.games.yahtzee.scoring import scoring
    >>> from gamegraph.games.yahtzee.solver import solve_values
    >>> table = solve_values(scoring("yahtzee", boxes=("chance",), dice=1))
    >>> graph = build(TurnRules(table))
    >>> graph.n_states, round(float(solve(graph).start_value), 12)
    (22, 4.666666666667)
    """

    def __init__(self, table: ValueTable, *, filled=(), upper: int = 0, flag: int = 0):
        if not isinstance(table, ValueTable):
            raise InvalidArgumentError(f"table must be a ValueTable, got {type(table).__name__}")
        super().__init__(table.scoring, filled=filled, upper=upper, flag=flag)
        if self._start[1] == self.full:
            raise InvalidArgumentError("every box is filled: the game is over, no turn is left")
        self.table = table
        self.name = f"{self.name}: one turn"

    def terminal_value(self, state):
        if state[0] == TURN and state != self._start:
            _, used, upper, flag = state
            return float(self.table.values[self.table.index(used, upper, flag)])
        return None

    def strategy(self, name: str):
        """The choices of a simple strategy (:mod:`~gamegraph.games.yahtzee.strategies`)
        in this turn, as a choice function ``(state, options) -> index`` for
        :meth:`gamegraph.policy.Policy.from_agent`: the box that adds the most points now
        (ties to the first box), after no keep (``"greedy"``), or after keeping every die
        of the most common face, ties to the higher face (``"most of a kind"``; all dice
        alike are kept whole, so scored at once). Later turns are worth the table's values
        (optimal play).

        The last turn, chance open, two dice: greedy scores the first throw (7 on
        average); most of a kind keeps the higher die of two (or a pair whole) and
        throws the other twice.

        >>> from gamegraph import build, evaluate
        >>> from gamegraph.policy import Policy
        >>> from gamegraph.games.yahtzee.scoring import scoring
        >>> from gamegraph.games.yahtzee.solver import solve_values
        >>> table = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=2))
        >>> turn = TurnRules(table, filled=("sixes",))
        >>> graph = build(turn)
        >>> for name in ("greedy", "most of a kind"):
        ...     policy = Policy.from_agent(graph, turn.strategy(name))
        ...     print(name, round(float(evaluate(graph, policy).start_value), 6))
        greedy 7.0
        most of a kind 8.458333
        """
        from .strategies import STRATEGIES

        if name not in STRATEGIES:
            from ...errors import UnknownNameError

            raise UnknownNameError("strategy", name, STRATEGIES)
        n_boxes = len(self.boxes)

        def choose(state, options):
            dice, left = state[4], state[5]
            if name == "most of a kind" and left and len(set(dice)) > 1:
                face = max(set(dice), key=lambda f: (dice.count(f), f))
                move = KEEP_MOVES + self.keep_number[(face,) * dice.count(face)]
                return next(i for i, o in enumerate(options) if o.move == move)
            boxes = [i for i, o in enumerate(options) if 0 <= o.move < n_boxes]
            return max(boxes, key=lambda i: (options[i].reward, -i))

        choose.__name__ = name
        return choose

    def layer(self, state):
        """The stage of the turn (:data:`STAGES`)."""
        kind = state[0]
        if kind == TURN:
            return 0 if state == self._start else len(STAGES) - 1
        left = state[5]
        if kind == THROWN:
            return 5 - 2 * left
        if kind == KEPT:
            return 6 - 2 * left
        raise InvalidArgumentError(f"not a state of this turn: {state!r}")  # pragma: no cover

    def layer_name(self, layer: int) -> str:
        return STAGES[layer]
