"""The exact duel of a named Ur agent against the optimum, from a saved table or a fresh
solve, memory checked, as one result.

:func:`.exact_duel.ur_duel` computes the duel on a table; :func:`duel_optimum` finds
the table (a saved one of either kind, or the rule set solved by the block solver in
memory), refuses an unknown agent before any solve and work past the memory available,
and returns a :class:`OptimumDuel` that prints what ``gamegraph ur duel`` prints and
serialises to its JSON.

Examples
--------
>>> result = duel_optimum("first", rules="finkel", pieces=2, progress=False)
>>> round(result.duel.match, 6), result.positions
(0.195563, 12869)
>>> print(result)  # doctest: +ELLIPSIS
Royal Game of Ur, finkel rules, 2 piece(s) each: first against the optimal player, ...
first moving first wins with probability 0.2034918...
the optimum moving first, first wins 0.1876348...
each moving first in half the games: 0.1955633...
short of the optimum's 0.5 by 0.3044366...
"""

from __future__ import annotations

from dataclasses import dataclass

from ..._memory import check_memory
from .agents import make_agent
from .defaults import BLOCKS_TOL, SOLVE_PIECES
from .exact_duel import DuelSolution, peak_bytes, ur_duel
from .rank import Numbering
from .rules import RuleSet, rule_set
from .solving import solve_values
from .table_files import open_table


@dataclass(eq=False)
class OptimumDuel:
    """An agent's exact win probability against the optimum: what ``gamegraph ur duel``
    reports.

    ``str()`` gives its text; :meth:`as_dict` the JSON payload.

    Attributes
    ----------
    ruleset : RuleSet
    duel : DuelSolution
        Both seats' values in every position.
    positions : int
    sweeps_per_position : float
        Sweeps made, averaged over the positions.
    """

    ruleset: RuleSet
    duel: DuelSolution
    positions: int
    sweeps_per_position: float

    def as_dict(self) -> dict:
        """The result as ``gamegraph ur duel --format json`` writes it."""
        duel = self.duel
        return {
            "rules": self.ruleset.name,
            "pieces": self.ruleset.pieces,
            "agent": duel.agent,
            "agent_first": duel.agent_first,
            "optimum_first": duel.optimum_first,
            "match": duel.match,
            "short_of_optimum": 0.5 - duel.match,
            "positions": self.positions,
            "sweeps_per_position": self.sweeps_per_position,
            "tol": BLOCKS_TOL,
            "seconds": duel.seconds,
        }

    def __repr__(self) -> str:
        return f"<OptimumDuel {self.duel!r}>"

    def __str__(self) -> str:
        duel, ruleset = self.duel, self.ruleset
        return (
            f"Royal Game of Ur, {ruleset.name} rules, {ruleset.pieces} piece(s) each: "
            f"{duel.agent} against the optimal player, exactly ({self.positions:,} positions, "
            f"both seats, {self.sweeps_per_position:.1f} sweeps per position, tolerance "
            f"{BLOCKS_TOL:.0e}, {duel.seconds:.1f} s)\n"
            f"{duel.agent} moving first wins with probability {duel.agent_first:.12f}\n"
            f"the optimum moving first, {duel.agent} wins {duel.optimum_first:.12f}\n"
            f"each moving first in half the games: {duel.match:.12f}\n"
            f"short of the optimum's 0.5 by {0.5 - duel.match:.12f}"
        )


def duel_optimum(agent: str, *, table=None, rules: str | None = None,
                 pieces: int | None = None, check: str = "full", threads: int | None = None,
                 progress: bool | None = None) -> OptimumDuel:  # fmt: skip
    """The exact win probability of ``agent`` against the optimal player, in both seats, to
    :data:`~.defaults.BLOCKS_TOL` (:func:`.exact_duel.ur_duel`).

    Parameters
    ----------
    agent : str
        first, last, greedy, expectimax-D or optimal; refused before any solve when unknown.
    table : str or PathLike, optional
        A saved table (either kind) the optimum plays by; None: the rule set is solved by
        the block solver first (:func:`.solving.solve_values`).
    rules, pieces : optional
        With a table: what it must hold (None: its own). Without: the rule set to solve
        (finkel, :data:`~.defaults.SOLVE_PIECES` pieces when None).
    check : {"full", "quick"}
        How a ``.npy`` table is checked when opened.
    threads : int, optional
        Cores (default: all this process may use).
    progress : bool or None
        Progress on stderr (None: when stderr is a terminal).

    Returns
    -------
    OptimumDuel
    """
    if table is not None:
        values = open_table(table, rules, pieces, check=check)
        make_agent(agent, ruleset=values.ruleset, table=values)  # refuse a bad name first
    else:
        ruleset = rule_set(rules or "finkel", pieces, default_pieces=SOLVE_PIECES)
        make_agent(agent, ruleset=ruleset)
        values = solve_values(ruleset, progress=progress)
    ruleset = values.ruleset
    numbering = Numbering(ruleset)
    check_memory(
        peak_bytes(numbering, threads),
        f"the duel on {ruleset.name} with {ruleset.pieces} pieces ({len(numbering):,} positions)",
        "try fewer --pieces",
    )
    duel = ur_duel(agent, values, tol=BLOCKS_TOL, threads=threads, progress=progress)
    sweeps = sum(b.size * n for b, n in zip(numbering.blocks, duel.sweeps)) / len(numbering)
    return OptimumDuel(ruleset, duel, len(numbering), sweeps)
