"""A position looked up in solved values: its value, and after a throw every move with the
win probability it leaves, the best and its lead.

:func:`advise` looks a position up in a saved table, or in the rule set solved first
(:func:`.solving.values_table`, after the position and the throw are checked), checks
every value it reads, and returns a :class:`MoveAdvice`: the value as ``gamegraph ur
value`` gives it (:meth:`~MoveAdvice.value_dict`), the moves as ``gamegraph ur moves``
prints them (:meth:`~MoveAdvice.moves_text`), the advice as ``gamegraph ur advise`` does
(``str()``), and each as a JSON payload.

Examples
--------
>>> advice = advise("4/6", 2, rules="finkel", pieces=2, progress=False)
>>> print(advice)
finkel, 2 piece(s) each: 4/6 (win probability 0.521858 before the throw), throw 2
best: 4->6 (captures), win probability 0.580461, 0.105032 more than the next best, ...
<BLANKLINE>
  enter->2   0.475428  -> 2,4/6
* 4->6       0.580461  -> 6/-  (captures)
>>> advice.as_dict()["advice"], advice.found.best.move
('best', '4->6')
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InvalidArgumentError
from .code_table import MoveValue, PositionValue, SolvedTable
from .defaults import SOLVE_PIECES
from .rules import check_throw, parse_position, rule_set
from .solving import values_table


def _notes(move: MoveValue) -> str:
    """`` (captures, throws again)`` as far as they apply to ``move``, or nothing."""
    notes = [n for n, on in (("captures", move.captures), ("throws again", move.again)) if on]
    return f" ({', '.join(notes)})" if notes else ""


@dataclass(frozen=True)
class MoveAdvice:
    """A looked-up position, and its moves after a throw, every value checked to be a
    probability.

    Attributes
    ----------
    table : SolvedTable
        The values it was looked up in (either kind).
    found : PositionValue
        The position, its value and, after a throw, every move's
        (:meth:`.code_table.SolvedTable.lookup`).
    """

    table: SolvedTable
    found: PositionValue

    def value_dict(self) -> dict:
        """The position's value as ``gamegraph ur value --format json`` writes it."""
        found = self.found
        return {
            "rules": found.ruleset.name,
            "pieces": found.ruleset.pieces,
            "position": str(found.position),
            "value": found.value,
        }

    def moves_text(self) -> str:
        """Every move, one line each, the best marked ``*``: the board it leaves and what
        else it does.
        """
        lines = []
        for move in self.found.moves:
            mark = "*" if move.best else " "
            notes = _notes(move)
            lines.append(
                f"{mark} {move.move:<10} {move.value:.6f}  -> {move.board}{notes and ' '}{notes}"
            )
        return "\n".join(lines)

    def advice(self) -> str:
        """One line: the best move after the throw, its win probability and its lead."""
        found = self.found
        best, second = found.best, found.runner_up
        if best.move == "pass":
            return (
                f"no legal move: the turn passes; the mover wins with probability {best.value:.6f}"
            )
        move = best.move + _notes(best)
        if second is None:
            return f"{move}, the only legal move: win probability {best.value:.6f}"
        lead = (
            f"as good as {second.move} (a tie)"
            if found.margin == 0
            else f"{found.margin:.6f} more than the next best, {second.move} ({second.value:.6f})"
        )
        return f"best: {move}, win probability {best.value:.6f}, {lead}"

    def __str__(self) -> str:
        found = self.found
        ruleset = found.ruleset
        return (
            f"{ruleset.name}, {ruleset.pieces} piece(s) each: {found.position} (win probability "
            f"{found.value:.6f} before the throw), throw {found.throw}\n"
            f"{self.advice()}\n\n{self.moves_text()}"
        )

    def moves_dict(self) -> dict:
        """The moves as ``gamegraph ur moves --format json`` writes them."""
        found = self.found
        return {
            "rules": found.ruleset.name,
            "pieces": found.ruleset.pieces,
            "position": str(found.position),
            "throw": found.throw,
            "moves": [move.as_dict() for move in found.moves],
        }

    def as_dict(self) -> dict:
        """The advice as ``gamegraph ur advise --format json`` writes it: the moves' payload
        with the position's value, the kind of advice, the best move, its margin and the
        runner-up before the moves.
        """
        found = self.found
        best, second = found.best, found.runner_up
        payload = self.moves_dict()
        payload.update(
            value=found.value,
            advice="pass" if best.move == "pass" else "only move" if second is None else "best",
            best=best.as_dict(),
            margin=found.margin,
            runner_up=None if second is None else second.as_dict(),
        )
        payload["moves"] = payload.pop("moves")  # last, after the advice
        return payload

    def to_pandas(self):
        """The moves (or, without a throw, the value) as a ``pandas.DataFrame`` (the
        ``pandas`` extra).
        """
        return self.found.to_pandas()

    def _repr_html_(self) -> str:
        return self.found._repr_html_()

    def __repr__(self) -> str:
        return f"<MoveAdvice {self.found!r}>"


def advise(position: str, throw: int | None = None, *, table=None, rules: str | None = None,
           pieces: int | None = None, check: str = "full",
           progress: bool | None = None) -> MoveAdvice:  # fmt: skip
    """The value of ``position`` and every move after ``throw`` with the win probability
    each leaves.

    Parameters
    ----------
    position : str
        The mover's squares '/' the opponent's, e.g. ``"4,13+2/6+1"``.
    throw : int, optional
        None: the position's value only.
    table : str or PathLike, optional
        A saved table (either kind); None: the rule set is solved first, after the
        position and the throw are checked.
    rules, pieces : optional
        With a table: what it must hold (None: its own). Without: the rule set to solve
        (finkel, :data:`~.defaults.SOLVE_PIECES` pieces when None).
    check : {"full", "quick"}
        How a ``.npy`` table is checked when opened.
    progress : bool or None
        Progress bars of a solve.

    Raises
    ------
    InvalidArgumentError
        A bad position or throw, or a value read that is not a probability (a damaged
        table).
    """
    if table is None:
        ruleset = rule_set(rules or "finkel", pieces, default_pieces=SOLVE_PIECES)
        parse_position(position, ruleset)
        if throw is not None:
            check_throw(throw, ruleset)
    values = values_table(table, rules, pieces, check=check, progress=progress)
    found = values.lookup(parse_position(position, values.ruleset), throw)
    for value in [found.value] + [move.value for move in found.moves]:
        if not 0.0 <= value <= 1.0:  # NaN fails both
            raise InvalidArgumentError(
                f"{table}: is damaged: it holds {value!r} where a win probability "
                "(0 to 1) belongs; solve it again"
            )
    return MoveAdvice(values, found)
