"""Solve an Ur rule set into a table with the solver that fits, and get values to query.

Two solvers give the same values: the explicit graph (:func:`gamegraph.build` and
:func:`gamegraph.solve`, about 1.3 kB a position, so up to 4 pieces or so; floats or
exact fractions) and the block solver (:mod:`.block_solver`: no graph, floats; finkel
with 7 pieces peaks under 2 GiB when saved to a file). Each checks its memory
estimate before any work (:func:`gamegraph._memory.check_memory`).

* :func:`solve_rules` solves a rule set, choosing the solver by the file the table goes
  to (:func:`choose_solver`), and returns a :class:`UrSolve` that prints what
  ``gamegraph ur solve`` prints and serialises to its JSON;
* :func:`values_table` gives the values a query reads: a saved table of either kind
  (:func:`.table_files.open_table`), or the rule set solved on its graph;
* :func:`solve_graph` and :func:`solve_values` are the two solves, memory checked.

Error messages name the command line's options (``--exact``, ``--solver``, ``--pieces``),
which are the parameters of the same names here.

Examples
--------
>>> result = solve_rules("finkel", 1)
>>> print(result)  # doctest: +ELLIPSIS
Royal Game of Ur, finkel rules, 1 piece(s) each: 217 positions solved in ... s (residual ...)
the side that moves first wins with probability 0.5300498...
>>> result.as_dict()["states"], result.solver
(217, 'graph')
>>> solve_rules("finkel", 1, solver="blocks").as_dict()["start"]  # doctest: +ELLIPSIS
0.5300498...
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from ..._files import check_output, check_partial_name
from ..._memory import check_memory, format_bytes
from ...build import build
from ...errors import InvalidArgumentError, UnknownNameError
from ...solve import solve
from ...tables import format_value, json_number
from .block_solver import peak_bytes, solve_blocks, solve_file
from .board import GEOMETRY
from .code_table import SolvedTable, table_from_solution
from .counting import count_nonterminal
from .defaults import BLOCKS_TOL, EXACT_MAX_PIECES, SOLVE_PIECES, SOLVERS
from .game import Ur
from .rank import Numbering
from .rank_table import ValueTable
from .rules import RuleSet, rule_set
from .table_files import TABLE_EXTENSIONS, is_rank_table, open_table

#: Peak bytes per position of build + solve, measured with 4 pieces (docs/performance.md).
BYTES_PER_POSITION = 1300


def _refuse_past_memory(ruleset: RuleSet, needed: int, positions: int) -> None:
    check_memory(
        needed,
        f"solving {ruleset.name} with {ruleset.pieces} pieces ({positions:,} positions)",
        "try fewer --pieces",
    )


def check_graph_memory(ruleset: RuleSet) -> None:
    """Refuse a float build and solve of ``ruleset`` that would not fit in the memory
    available (:data:`BYTES_PER_POSITION` a position), with an InvalidArgumentError.

    >>> check_graph_memory(rule_set("finkel", 2))     # 12,869 positions: fits
    """
    private, shared = GEOMETRY[ruleset.name]
    positions = count_nonterminal(private, shared, ruleset.pieces)
    _refuse_past_memory(ruleset, positions * BYTES_PER_POSITION, positions)


def solve_graph(ruleset: RuleSet, *, exact: bool = False, progress: bool | None = None):
    """Build the explicit graph of ``ruleset`` and solve every position.

    Exact fractions are refused beyond :data:`~.defaults.EXACT_MAX_PIECES` piece, and a
    float solve that would not fit in memory (:func:`check_graph_memory`), before any work.

    Parameters
    ----------
    ruleset : RuleSet
    exact : bool
        Fractions instead of floats.
    progress : bool or None
        Progress bars on stderr (None: when stderr is a terminal).

    Returns
    -------
    (StateGraph, Solution)

    Examples
    --------
    >>> graph, solution = solve_graph(rule_set("finkel", 1), exact=True, progress=False)
    >>> graph.n_states, solution.start_value.denominator > 10**100
    (218, True)
    """
    if exact and ruleset.pieces > EXACT_MAX_PIECES:
        raise InvalidArgumentError(
            f"--exact is offered up to {EXACT_MAX_PIECES} piece: with {ruleset.pieces} the "
            f"fractions run to thousands of digits; drop --exact for floats to 1e-13"
        )
    check_graph_memory(ruleset)
    graph = build(Ur(ruleset), progress=progress)
    return graph, solve(graph, exact=exact, progress=progress)


def solve_values(ruleset: RuleSet, *, progress: bool | None = None) -> ValueTable:
    """Every position of ``ruleset`` solved by the block solver, in memory, to
    :data:`~.defaults.BLOCKS_TOL`, as a table by rank; refused before any work when its
    peak memory (:func:`.block_solver.peak_bytes`) would not fit.

    >>> table = solve_values(rule_set("finkel", 2), progress=False)
    >>> len(table), round(table.start_value, 6)
    (12869, 0.518573)
    """
    numbering = Numbering(ruleset)
    _refuse_past_memory(ruleset, peak_bytes(numbering), len(numbering))
    solved = solve_blocks(ruleset, tol=BLOCKS_TOL, progress=progress)
    return ValueTable(ruleset, None, solved.values, numbering)


def values_table(table=None, rules: str | None = None, pieces: int | None = None, *,
                 check: str = "full", progress: bool | None = None) -> SolvedTable:  # fmt: skip
    """The values a query reads: the table saved at ``table``, or, when None, the rule set
    solved on its graph (:func:`solve_graph`).

    Parameters
    ----------
    table : str or PathLike, optional
        A table written by :func:`solve_rules` (``.npy`` or ``.urtable``), opened by
        :func:`.table_files.open_table`.
    rules : str, optional
        With a table: the rule set it must hold (None: its own). Without: the rule set
        to solve (None: finkel).
    pieces : int, optional
        As ``rules``; without a table, None solves :data:`~.defaults.SOLVE_PIECES`.
    check : {"full", "quick"}
        How a ``.npy`` table is checked when opened.
    progress : bool or None
        Progress bars of the solve.

    Examples
    --------
    >>> round(values_table(rules="finkel", pieces=1, progress=False).value("4/-"), 6)
    0.679803
    """
    if table is not None:
        return open_table(table, rules, pieces, check=check)
    ruleset = rule_set(rules or "finkel", pieces, default_pieces=SOLVE_PIECES)
    _, solution = solve_graph(ruleset, progress=progress)
    return table_from_solution(solution)


def choose_solver(solver: str = "auto", save=None) -> str:
    """``graph`` or ``blocks``: the solver named, or for ``auto`` the block solver when the
    table goes to a ``.npy`` file and the graph otherwise.

    >>> choose_solver("auto", "finkel-7.npy"), choose_solver("auto"), choose_solver("blocks")
    ('blocks', 'graph', 'blocks')
    >>> choose_solver("dask")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown solver 'dask'; accepted: auto, graph, blocks
    """
    if solver not in SOLVERS:
        raise UnknownNameError("solver", solver, SOLVERS)
    if solver != "auto":
        return solver
    return "blocks" if save is not None and is_rank_table(save) else "graph"


@dataclass(eq=False)
class UrSolve:
    """A solved Ur rule set: what ``gamegraph ur solve`` reports.

    ``str()`` gives its two lines of text; :meth:`as_dict` the JSON payload.

    Attributes
    ----------
    ruleset : RuleSet
    solver : {"graph", "blocks"}
    solution : Solution or BlockSolution
        The graph's solution, or the block solver's values by rank.
    positions : int
        Positions solved (the graph's terminal state not counted).
    seconds : float
    exact : bool
        Fractions (the graph only).
    path : str, optional
        The file the table was saved to.
    blocks : int, optional
        Blocks of the block solver's numbering.
    """

    ruleset: RuleSet
    solver: str
    solution: object
    positions: int
    seconds: float
    exact: bool = False
    path: str | None = None
    blocks: int | None = None

    @property
    def start_value(self) -> float | Fraction:
        """The first mover's win probability (a Fraction when solved exactly)."""
        return self.solution.start_value

    def values(self) -> SolvedTable:
        """The solved values as a table to query: the graph's by code, or the block
        solver's by rank.
        """
        if self.solver == "graph":
            return table_from_solution(self.solution)
        return ValueTable(self.ruleset, None, self.solution.values, self.solution.numbering)

    def _head(self) -> str:
        return (
            f"Royal Game of Ur, {self.ruleset.name} rules, {self.ruleset.pieces} piece(s) each: "
            f"{self.positions:,} positions solved in {self.seconds:.2f} s"
        )

    def __str__(self) -> str:
        start = self.start_value
        if self.solver == "blocks":
            how = (
                f"block solver, {self.blocks} blocks, {self.solution.sweeps:.1f} sweeps per "
                f"position, tolerance {BLOCKS_TOL:.0e}"
            )
        else:
            how = f"residual {self.solution.residual:.1e}"
        shown = (
            f"{format_value(start)} = {float(start):.12f}" if self.exact else f"{float(start):.12f}"
        )
        return f"{self._head()} ({how})\nthe side that moves first wins with probability {shown}"

    def __repr__(self) -> str:
        return (
            f"<UrSolve {self.ruleset.name} {self.ruleset.pieces} ({self.solver}): "
            f"{self.positions:,} positions, start value {float(self.start_value):.6f}>"
        )

    def as_dict(self) -> dict:
        """The result as ``gamegraph ur solve --format json`` writes it."""
        head = {
            "game": "ur",
            "rules": self.ruleset.name,
            "pieces": self.ruleset.pieces,
            "states": self.positions,
            "start": json_number(self.start_value, self.exact),
            "exact": self.exact,
        }
        if self.solver == "blocks":
            head.update(solver="blocks", tol=BLOCKS_TOL, sweeps_per_position=self.solution.sweeps)
        else:
            head.update(residual=self.solution.residual)
        return {**head, "seconds": self.seconds, "table": self.path}


def solve_rules(
    rules="finkel",
    pieces: int | None = None,
    *,
    solver: str = "auto",
    save=None,
    exact: bool = False,
    memory: int | None = None,
    progress: bool | None = None,
) -> UrSolve:
    """Solve every position of a rule set, and save the table when asked.

    Parameters
    ----------
    rules : str or RuleSet
        ``finkel``, ``masters``, ``blitz`` or ``aseb``.
    pieces : int, optional
        Pieces per side (None: :data:`~.defaults.SOLVE_PIECES`).
    solver : {"auto", "graph", "blocks"}
        See :func:`choose_solver`: ``auto`` runs the block solver when ``save`` is a
        ``.npy`` file, the graph otherwise.
    save : str, optional
        Where the table goes: ``.urtable`` (the graph's codes and values, by
        :meth:`.code_table.SolvedTable.save`) or ``.npy`` (values by rank, written by the
        block solver as it goes; an unfinished one is resumed). The path is checked
        before any work.
    exact : bool
        Fractions (the graph only, one piece).
    memory : int, optional
        Bytes the block solver may take, about (2 GiB by default, or 30 % above the
        floor of a larger game: :func:`.block_solver.default_memory`): a block
        whose stored moves do not fit makes them again, slower. Refused below what the
        largest block needs without stored moves (:func:`memory_floor`).
    progress : bool or None
        Progress bars on stderr (None: when stderr is a terminal).

    Returns
    -------
    UrSolve
    """
    how = choose_solver(solver, save)
    if save is not None:
        check_output(save, TABLE_EXTENSIONS)  # before any work: a solve takes minutes
        if is_rank_table(save):
            check_partial_name(save)  # FILE.npy.partial is written as the solve goes
    ruleset = rule_set(rules, pieces, default_pieces=SOLVE_PIECES)
    if how == "blocks":
        return _solve_blocks(ruleset, save, exact, memory, progress)
    if memory is not None:
        raise InvalidArgumentError("--memory sets the block solver's budget (--solver blocks)")
    if save is not None and is_rank_table(save):
        raise InvalidArgumentError(
            "--solver graph writes a .urtable table; a .npy table comes from the block solver"
        )
    started = time.perf_counter()
    graph, solution = solve_graph(ruleset, exact=exact, progress=progress)
    seconds = time.perf_counter() - started
    if save is not None:
        table_from_solution(solution).save(save)
    # WIN is the one terminal state
    return UrSolve(ruleset, "graph", solution, graph.n_states - 1, seconds, exact, save)


def memory_floor(ruleset: RuleSet, keep: str = "needed") -> int:
    """The least memory the block solver can solve ``ruleset`` in: every block's moves
    made again in each improvement pass (:func:`.block_solver.peak_bytes` with no room).

    >>> from gamegraph._memory import format_bytes
    >>> format_bytes(memory_floor(rule_set("finkel", 7)))
    '1.7 GiB'
    """
    return peak_bytes(Numbering(ruleset), memory=0, keep=keep)


def _solve_blocks(ruleset, save, exact, memory, progress) -> UrSolve:
    if exact:
        raise InvalidArgumentError("--exact needs --solver graph: the block solver works in floats")
    if save is not None and not is_rank_table(save):
        raise InvalidArgumentError(
            f"the block solver writes a .npy table, not {save!r} (use --solver graph "
            "for a .urtable)"
        )
    numbering = Numbering(ruleset)
    keep = "all" if save is None else "needed"  # a saved solve keeps only what it reads
    if memory is not None:
        floor = memory_floor(ruleset, keep)
        if memory < floor:
            raise InvalidArgumentError(
                f"--memory {format_bytes(memory, 2)} is too little for {ruleset.name} with "
                f"{ruleset.pieces} pieces: its largest block needs about "
                f"{format_bytes(floor, 2)} (give more)"
            )
    peak = peak_bytes(numbering, memory=memory, keep=keep)
    _refuse_past_memory(ruleset, peak, len(numbering))
    started = time.perf_counter()
    options = dict(tol=BLOCKS_TOL, memory=memory, progress=progress)
    if save is not None:
        solution = solve_file(save, ruleset, **options)
    else:
        solution = solve_blocks(ruleset, **options)
    seconds = time.perf_counter() - started
    return UrSolve(ruleset, "blocks", solution, len(numbering), seconds, False, save,
                   len(numbering.blocks))  # fmt: skip
