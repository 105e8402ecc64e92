r"""The exact win probability of a fixed Ur agent against the optimum, at any piece count.

A tournament estimates how often an agent beats the optimal player; here the number is
computed. With both players' choices fixed, the game is a Markov chain on *positions
times seat* (whether the agent or the optimum is to move), and the agent's win
probability is the value of that chain: a policy evaluation, solved block by block in
the order of :class:`~gamegraph.games.ur.rank.Numbering`, without a graph.

Values
------
For every position :math:`p` (the mover's view, as everywhere), :math:`x(p)` is the
probability that the mover wins when the mover is the agent, and :math:`y(p)` when it is
the optimum. With :math:`m_t` the agent's move after throw :math:`t` and :math:`o_t` the
optimum's,

.. math::

    x(p) = \sum_t P(t)\,\begin{cases} 1 & m_t \text{ bears off the last piece}\\
        x(p') & m_t \text{ keeps the turn}\\ 1 - y(p') & m_t \text{ passes it}\end{cases}

and :math:`y` the same with :math:`o_t`, :math:`y` and :math:`x` swapped; a throw
without a move passes on the same board (:math:`1 - y(\bar p)`, :math:`\bar p` the
*twin*: the same board, the other side to move). The agent moving first wins with
probability :math:`x(s)` from the start :math:`s`, and with :math:`1 - y(s)` when the
optimum moves first.

The optimum is the table's: the move whose value by the table is highest, the first
among equals (as ``optimal`` plays). The agent is any agent with a vectorised choice on
positions (:meth:`~gamegraph.games.ur.agents.Agent.position_choice`): ``first``,
``last``, ``greedy``, ``expectimax-D``, ``optimal``.

How
---
Blocks (positions with the same pieces borne off, either side to move) are solved in
the numbering's order, each needing only itself and the blocks before it. In a block,

1. the *choices*: for every position, both seats and every throw, the move each player
   makes, as the successor's rank times 2 plus 1 when the turn passes (-1: the win; -2:
   no move), made with the agents' own vectorised rules (:mod:`gamegraph.games.ur.moves`)
   a chunk of positions at a time, a chunk per core at once in threads: 16 int32 per
   pair of twins;
2. *sweeps* along those choices, in the order of :func:`.block_solver.sweep_plan`: by
   progress (the sum of both sides' squares), highest first; every move but a capture
   raises the progress, so a sweep reads values updated in the same sweep except across
   captures (Gauss-Seidel). A position and its twin are solved together, exactly, seat
   against seat (:math:`x(p)` with :math:`y(\bar p)`, :math:`y(p)` with
   :math:`x(\bar p)`), which settles the passes on the same board. The sweeps run in this
   module's numba kernel (:func:`_sweep`), or one progress level at a time in numpy
   without numba (positions of one level never lead to each other).

Stopping rule, that of :mod:`.block_solver` (:func:`.block_solver.settled`): a sweep changes no
value by more than :math:`\delta_k`; with :math:`\rho` the larger of the last two ratios
:math:`\delta_k / \delta_{k-1}` the distance to the fixed point is about
:math:`\delta_k \rho / (1 - \rho)`, or none once :math:`\delta_k` is a thousandth of the
target.

Cost: 16 bytes a position for :math:`x` and :math:`y`, and the largest block's choices and
plan (about 40 bytes a position of it), besides the table's memory map. Finkel with 7
pieces: 2.2 GB for the values, 1.2 GB for its largest block (29.6 million positions).

Examples
--------
>>> from gamegraph.games.ur.analysis import solve_table
>>> table = solve_table("finkel", pieces=2)
>>> duel = ur_duel("greedy", table, progress=False)
>>> round(duel.agent_first, 6), round(duel.optimum_first, 6), round(duel.match, 6)
(0.401385, 0.349386, 0.375385)
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ... import _kernels
from ..._checks import check_int
from ..._extras import require
from ..._numba_cache import compile_kernels, fastest_threading_layer
from ..._progress import progress_bar
from ..._threads import limit_blas
from ...errors import ConvergenceError, InvalidArgumentError
from .agents import Agent, as_agent
from .block_solver import BATCH, Rate, settled, sweep_plan
from .moves import moves_after
from .rank import Numbering, rank, unrank

#: Items one core sweeps before taking the next group of a stage.
GROUP = 512
#: Positions whose choices are made at once (each takes about 0.5 kB while they are).
CHUNK = 1 << 18
#: Codes of a choice besides successors: the win, and no move (the turn passes on the
#: same board).
WIN, NO_MOVE = -1, -2


@dataclass
class DuelSolution:
    """The agent's win probability in every position, both seats, by rank.

    Attributes
    ----------
    agent : str
    numbering : Numbering
    agent_to_move : ndarray of float64
        :math:`x`: the probability that the mover wins, the agent moving.
    optimum_to_move : ndarray of float64
        :math:`y`: the probability that the mover wins, the optimum moving.
    sweeps : list of int
        Sweeps made in each block.
    seconds : float
    """

    agent: str
    numbering: Numbering
    agent_to_move: np.ndarray
    optimum_to_move: np.ndarray
    sweeps: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def agent_first(self) -> float:
        """The agent's win probability when it moves first."""
        return float(self.agent_to_move[self.numbering.index("-/-")])

    @property
    def optimum_first(self) -> float:
        """The agent's win probability when the optimum moves first."""
        return 1.0 - float(self.optimum_to_move[self.numbering.index("-/-")])

    @property
    def match(self) -> float:
        """The agent's win probability when each side moves first in half the games (what a
        tournament's win rate estimates).
        """
        return (self.agent_first + self.optimum_first) / 2

    def __repr__(self) -> str:
        ruleset = self.numbering.ruleset
        return (
            f"<DuelSolution {self.agent} against the optimum, {ruleset.name} "
            f"{ruleset.pieces}: first {self.agent_first:.6f}, second "
            f"{self.optimum_first:.6f}, match {self.match:.6f}>"
        )


# ---------------------------------------------------------------------------
# One block: the choices of its items (:func:`.block_solver.sweep_plan`)
# ---------------------------------------------------------------------------
def _codes(moves, index, numbering) -> np.ndarray:
    """The code of each row's ``index``-th legal move (:data:`NO_MOVE` without one)."""
    after = moves.pick(index)
    codes = np.full(len(index), NO_MOVE, dtype=np.int64)
    some = moves.counts > 0
    codes[some & after.won] = WIN
    on = some & ~after.won
    found = rank(after.mover[on], after.a[on], after.opp[on], after.b[on], numbering.tables)
    codes[on] = 2 * found + after.passes[on]
    return codes


def _choices(numbering, order, players, throws, workers=1) -> np.ndarray:
    """``choices[item, side, seat, k]``: each player's move after the k-th throw with a
    move (side 0 the item's position, 1 its twin; seat 0 the agent, 1 the optimum).

    Chunks of :data:`CHUNK` items are made by ``workers`` threads at once: numpy lets go
    of the interpreter inside its array operations, which are nearly all of the work.
    """
    choices = np.empty((len(order), 2, 2, len(throws)), dtype=np.int32)
    chunks = [slice(first, first + CHUNK) for first in range(0, len(order), CHUNK)]

    def make(chunk):
        _chunk_choices(numbering, order[chunk], players, throws, choices[chunk])

    if workers == 1 or len(chunks) == 1:
        for chunk in chunks:
            make(chunk)
    else:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(make, chunks))  # list(): a worker's error is raised here
    return choices


def _chunk_choices(numbering, ranks, players, throws, choices) -> None:
    """:func:`_choices` for the items of ``ranks``, written into their rows ``choices``."""
    ruleset = numbering.ruleset
    sides = unrank(ranks, numbering.tables)
    twins = (sides[2], sides[3], sides[0], sides[1])  # the same board, sides swapped
    for side, (mover, a, opp, b) in enumerate((sides, twins)):
        for k, throw in enumerate(throws):
            moves = moves_after(mover, a, opp, b, throw, ruleset)
            some = np.flatnonzero(moves.counts > 0)
            for seat, player in enumerate(players):
                index = np.zeros(len(mover), dtype=np.int64)
                if len(some):
                    index[some] = player.position_choice(moves.take(some))
                choices[:, side, seat, k] = _codes(moves, index, numbering)


# ---------------------------------------------------------------------------
# Sweeps
# ---------------------------------------------------------------------------
def _term(x, y, code, seat, p):  # pragma: no cover - runs compiled
    """(A, c) added by one throw of probability ``p`` whose choice is ``code``, for the
    player in ``seat`` (0: the agent, whose values are ``x``).
    """
    if code == NO_MOVE:
        return 0.0, p
    if code == WIN:
        return p, 0.0
    r = code >> 1
    if code & 1:  # the turn passes: the other seat moves at r
        return p * (1.0 - (y[r] if seat == 0 else x[r])), 0.0
    return p * (x[r] if seat == 0 else y[r]), 0.0


def _item(i, order, twin, x, y, choices, probabilities, zero):  # pragma: no cover - compiled
    """Solve item ``i`` (a position and its twin, both seats); the largest change."""
    worst = 0.0
    r1 = order[i]
    r2 = twin[i]
    side2 = 1 if r1 != r2 else 0
    for pair in range(2 if r1 != r2 else 1):
        # pair 0: the agent at r1 with the optimum at r2; pair 1: the other way round.
        seat1 = pair
        seat2 = 1 - pair
        t1 = 0.0
        c1 = zero
        t2 = 0.0
        c2 = zero
        for k in range(len(probabilities)):
            a, c = _term(x, y, choices[i, 0, seat1, k], seat1, probabilities[k])
            t1 += a
            c1 += c
            a, c = _term(x, y, choices[i, side2, seat2, k], seat2, probabilities[k])
            t2 += a
            c2 += c
        den = 1.0 - c1 * c2
        if den <= 0.0:  # neither side can ever move: no throw ends the game
            v1 = 0.5
            v2 = 0.5
        else:
            v1 = (t1 + c1 - c1 * (t2 + c2)) / den
            v2 = t2 + c2 * (1.0 - v1)
        old1 = x[r1] if seat1 == 0 else y[r1]
        old2 = x[r2] if seat2 == 0 else y[r2]
        worst = max(worst, abs(v1 - old1), abs(v2 - old2))
        if seat1 == 0:
            x[r1] = v1
            y[r2] = v2
        else:
            y[r1] = v1
            x[r2] = v2
    return worst


def _sweep(
    order, twin, x, y, choices, probabilities, zero, stages, threads, serial
):  # pragma: no cover - runs compiled
    """One sweep over a block's items, stage by stage; the largest change of a value.

    A stage of fewer than ``serial`` items runs on one core, in order; a larger one is
    shared by ``threads`` cores in interleaved groups of :data:`GROUP` items (a value read
    while another core writes it is only older, which the fixed point does not mind).
    """
    worst = np.zeros(threads)
    for s in range(len(stages) - 1):
        low = stages[s]
        high = stages[s + 1]
        if high - low < serial:
            for i in range(low, high):
                change = _item(i, order, twin, x, y, choices, probabilities, zero)
                worst[0] = max(worst[0], change)
            continue
        for thread in prange(threads):
            most = 0.0
            for group in range(low + thread * GROUP, high, threads * GROUP):
                for i in range(group, min(group + GROUP, high)):
                    change = _item(i, order, twin, x, y, choices, probabilities, zero)
                    most = max(most, change)
            worst[thread] = max(worst[thread], most)
    return worst.max()


prange = range
_compiled = False


def _numba_sweep():
    """:func:`_sweep` compiled (once, then cached on disk), on the threading layer of the
    block solver (:func:`gamegraph._numba_cache.fastest_threading_layer`) unless
    ``NUMBA_THREADING_LAYER`` says otherwise.
    """
    if not _compiled:
        numba = require("numba", "the compiled Ur duel", "fast")
        compile_kernels(
            globals(),
            numba,
            plain=("_term", "_item"),
            parallel=("_sweep",),
            threading_layer=fastest_threading_layer(),
        )
    return _sweep


def _numpy_sweep(order, twin, x, y, choices, probabilities, zero, levels):
    """:func:`_sweep` in numpy, one progress level at a time."""
    worst = 0.0
    for low, high in zip(levels[:-1], levels[1:]):
        r1, r2 = order[low:high], twin[low:high]
        alone = r1 == r2
        for pair in range(2):
            seat1, seat2 = pair, 1 - pair
            totals = []
            for side, seat in ((0, seat1), (1, seat2)):
                codes = choices[low:high, side, seat].astype(np.int64)
                if side == 1:
                    codes = np.where(alone[:, None], choices[low:high, 0, seat], codes)
                own, other = (x, y) if seat == 0 else (y, x)
                r = np.maximum(codes, 0) >> 1
                value = np.where(codes & 1 == 1, 1.0 - other[r], own[r])
                value = np.where(codes == WIN, 1.0, np.where(codes == NO_MOVE, 0.0, value))
                total = (value * probabilities).sum(axis=1)
                passing = zero + ((codes == NO_MOVE) * probabilities).sum(axis=1)
                totals.append((total, passing))
            (t1, c1), (t2, c2) = totals
            den = 1.0 - c1 * c2
            with np.errstate(divide="ignore", invalid="ignore"):
                v1 = np.where(den > 0, (t1 + c1 - c1 * (t2 + c2)) / den, 0.5)
            v2 = np.where(den > 0, t2 + c2 * (1.0 - v1), 0.5)
            first, second = (x, y) if seat1 == 0 else (y, x)
            worst = max(worst, float(np.abs(v1 - first[r1]).max(initial=0.0)),
                        float(np.abs(v2 - second[r2]).max(initial=0.0)))  # fmt: skip
            second[r2] = v2
            first[r1] = v1
    return worst


# ---------------------------------------------------------------------------
# The duel
# ---------------------------------------------------------------------------
def peak_bytes(numbering: Numbering, threads: int | None = None) -> int:
    """Estimated peak memory of :func:`ur_duel` besides the table: the two values of every
    position, and the largest block's choices, plan and their temporaries (about 44 bytes
    a position of it), and the moves of a chunk for each of ``threads`` (all this process
    may use when None).

    >>> round(peak_bytes(Numbering("finkel"), threads=2) / 1e9, 1)  # 7 pieces, in GB
    4.6
    """
    largest = max(block.size for block in numbering.blocks)
    return 16 * numbering.n_positions + 44 * largest + 2 * CHUNK * 1024 * usable_cores(threads)


def usable_cores(threads: int | None = None) -> int:
    """``threads``, checked, or when None the cores this process may run on.

    >>> usable_cores(3)
    3
    """
    if threads is None:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    return check_int(threads, "threads", low=1)


def ur_duel(
    agent,
    table,
    *,
    tol: float = 1e-13,
    engine: str = "auto",
    max_sweeps: int = 10_000,
    threads: int | None = None,
    progress: bool | None = None,
) -> DuelSolution:
    """The exact win probability of ``agent`` against the optimum of ``table``.

    Parameters
    ----------
    agent : Agent or str
        A deterministic agent with a vectorised choice on positions (first, last, greedy,
        expectimax-D, optimal), or its name.
    table : SolvedTable or ValueTable
        The solved values the optimum plays by; a table of the block solver
        (:func:`~gamegraph.games.ur.rank_table.open_values`) for any piece count.
    tol : float
        Target distance of every value to the fixed point.
    engine : {"auto", "numba", "numpy"}
        The sweeps' kernel (``auto``: numba when installed).
    max_sweeps : int
        Per block; :class:`~gamegraph.errors.ConvergenceError` beyond it.
    threads : int, optional
        Cores for the sweeps (numba's) and for making the choices (numpy in threads):
        all this process may use when None.
    progress : bool, optional
        Blocks done on stderr (see :func:`gamegraph._progress.wanted`).

    Returns
    -------
    DuelSolution
    """
    ruleset = table.ruleset
    agent = as_agent(agent, ruleset, table=table)
    optimum = as_agent("optimal", ruleset, table=table)
    if agent.randomised or type(agent).position_choice is Agent.position_choice:
        raise InvalidArgumentError(
            f"agent {agent.name!r} has no fixed vectorised choice on positions; accepted: "
            "first, last, greedy, expectimax-D, optimal"
        )
    check_int(max_sweeps, "max_sweeps", low=1)
    engine = _kernels.resolve_engine(engine, "the compiled Ur duel")
    threads = usable_cores(threads)
    if engine == "numba":
        sweep = _numba_sweep()
        import numba

        threads = min(threads, numba.config.NUMBA_NUM_THREADS)
        numba.set_num_threads(threads)
    numbering = Numbering(ruleset)
    throws = [t for t, _ in ruleset.throws if t]
    probabilities = np.array([w / ruleset.denominator for t, w in ruleset.throws if t])
    zero = sum(w for t, w in ruleset.throws if not t) / ruleset.denominator
    n = numbering.n_positions
    x, y = np.full(n, 0.5), np.full(n, 0.5)
    solution = DuelSolution(agent.name, numbering, x, y)
    started = time.perf_counter()
    with (
        limit_blas(),
        progress_bar(n, desc=f"ur duel {agent.name}", unit="pos", progress=progress) as bar,
    ):
        for block in numbering.blocks:
            order, twin, levels, stages = sweep_plan(numbering, block)
            choices = _choices(numbering, order, (agent, optimum), throws, threads)
            rate = Rate()
            count = 0
            while True:
                count += 1
                if engine == "numba":
                    change = sweep(order, twin, x, y, choices, probabilities, zero, stages,
                                   threads, BATCH if threads > 1 else len(order))  # fmt: skip
                else:
                    change = _numpy_sweep(order, twin, x, y, choices, probabilities, zero,
                                          levels)  # fmt: skip
                rate.add(change)
                if settled(change, rate, tol):
                    break
                if count >= max_sweeps:
                    raise ConvergenceError(
                        f"block {block.index}: no fixed point after {max_sweeps} sweeps "
                        f"(change {change:.1e})"
                    )
            solution.sweeps.append(count)
            bar.update(block.size)
    solution.seconds = time.perf_counter() - started
    return solution
