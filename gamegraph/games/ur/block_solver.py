r"""Every position of the Royal Game of Ur solved block by block, without building a graph.

Positions are numbered by :class:`gamegraph.games.ur.rank.Numbering`: 8 bytes per
position hold its value, and successors are computed from the rank when they are
needed. Blocks (positions with the same pieces borne off, either side to move) are
solved in the numbering's order, each needing only itself and the blocks before it.

Inside a block
--------------
The Bellman operator :math:`T` (each throw's best move; a move that passes the turn
counts :math:`1 - v`) is a contraction on the block, solved by sweeps of
:mod:`.sweeps`: positions by progress, highest first, each with its twin, so that a
sweep reads values already updated except across captures (Gauss-Seidel).

With numba (``engine="numba"``), *modified policy iteration*. One full sweep takes the
best move at every throw and writes it down with its *margin* over the next best.
Sweeps along those choices (no moves made) then evaluate that policy, until the
distance to its fixed point is below ``max(tol / 2, inner * gain)``. An improvement pass
(values unchanged) looks at every throw again, except where the margin exceeds twice
the *drift*, the sum of the changes since the margin was measured: that choice is
still best (action elimination); a group of items counts the changes of the progress
levels its moves can reach only (:class:`Drift`). A move replaces the choice when it is
better by more than ``tol / 10``; ``gain`` is the largest such gain. The block is done
when a pass changes nothing after an evaluation to ``tol / 2``. While the drift of every
group exceeds :data:`FULL_PASS_DRIFT` in a block some of whose moves are not written
down, a pass would look at every item and make its moves again: a full sweep takes its
place, which also writes the values as it goes, so the policy settles in fewer passes.
Where memory allows
(``memory``, :func:`move_room`) the first sweep writes a block's moves down as it makes
them, and the improvement passes read them instead of making them again. The working
arrays and moves of every block come from one map (:class:`.arena.Arena`), whose pages
stay with the process from block to block.

The cores share only whole progress levels (:func:`sweep_stages`), so the table is the
same, byte for byte, on any number of threads: that of one thread.

With numpy only (``engine="numpy"``, small sizes), every sweep is a full one, each
progress level at once (positions of one level never lead to each other).

Stopping rule: a sweep changes no value by more than :math:`\delta_k`; with
:math:`\rho` the larger of the last two ratios :math:`\delta_k / \delta_{k-1}` the
distance to the fixed point is about :math:`\delta_k \rho / (1 - \rho)`, or none once
:math:`\delta_k` is a thousandth of the target.

Examples
--------
>>> solution = solve_blocks("finkel", pieces=2, progress=False)
>>> round(solution.start_value, 12), len(solution.values)
(0.518572907496, 12869)
>>> round(solution.value("14+1/14+1"), 6)     # both one tile from home: 4/7
0.571429
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ... import _kernels
from ..._checks import check_int
from ..._memory import physical_memory
from ..._progress import progress_bar
from ..._stopping import near_fixed_point
from ..._threads import limit_blas
from ...errors import ConvergenceError, InvalidArgumentError, UnknownNameError
from . import sweeps as compiled
from .arena import ALIGN, Arena, large_array, release
from .rank import Block, Numbering, move, progress, rank, unrank
from .rules import rule_set

#: While every group's drift is above this, a block whose moves are not all stored takes
#: a full sweep (moves made, values written as it goes) instead of an improvement pass,
#: which would make every item's moves again anyway. Block 26 of masters 7 (118.5 million
#: positions, a fifth of its moves stored): 17 passes and 75 policy sweeps became 14 and
#: 59, and 273 s became 254 (docs/performance.md, ninth step).
FULL_PASS_DRIFT = 0.01
#: Positions per chunk when the sweep plan is made with numpy.
CHUNK = 1 << 22
#: Items (position pairs) per stage of :func:`sweep_plan`, at least: each stage ends with a
#: barrier (the stages of :mod:`.exact_duel`; the block solver's are :func:`sweep_stages`).
BATCH = 200_000
#: Items of a progress level, at least, for the cores to share it in a policy sweep of the
#: block solver (:func:`sweep_stages`); smaller levels, in runs of at most this many
#: items, are swept on one core. The first sweep makes every move, about twenty times the
#: work per item: it shares levels of more than SHARED_FULL items. Since the policy sweep
#: got twice as fast, 16,384 takes 9 % less CPU than 4,096 in policy sweeps at the same
#: wall time (finkel 5; 1,024 took more of both, 65,536 more wall time).
SHARED_LEVEL = 16384
SHARED_FULL = 1024
ENGINES = _kernels.ENGINES
#: What :func:`solve_blocks` keeps of the values solved: every block, or those still needed.
KEEP = ("all", "needed")
#: Bytes per position of a block's working arrays (:class:`.sweeps.BlockArrays`: order and
#: twin 4, where 4, local 8, fixed 8, choices 16, grades 4), and per position whose moves
#: are stored, besides the moves (their counts 4, the item's offset 2): a block that
#: stores part of its moves touches these for that part only. Room kept for the
#: interpreter and the compiled code (174 MiB measured at 2 pieces) and the cores' buffers.
WORKING_BYTES = 44
STORED_BYTES = 6
RESERVE = 256 * 2**20
#: The budget of a solve given none (:func:`default_memory`), at least: every move is stored
#: for finkel up to 6 pieces and the other rule sets up to 5, and finkel 7 stays under 2
#: GiB. Storing every move of finkel 7 would take 3.3 GiB for about an eighth less CPU time
#: (docs/performance.md).
DEFAULT_MEMORY = 2 * 2**30
#: The budget of a game whose floor is above DEFAULT_MEMORY, as a multiple of that floor:
#: masters 7 (6.0 GiB at least) gets 7.8 GiB, under the 8 GiB asked of it.
DEFAULT_HEADROOM = 1.3
#: Default ``inner`` of :func:`solve_blocks`, whether a block's moves are stored or made
#: again: finkel 6 with ``memory=900M`` (its largest blocks make most of their moves
#: again) took 218 core-seconds at 0.01, 209 at 0.03, 206 at 0.1 and 205 at 0.25, since
#: making moves costs about a third of what it did (:func:`.rank.item_moves`).
INNER = 0.25
#: Moves per position, about, at most (finkel 7 has 13.8, masters 7 15.6).
MOVES_BOUND = 16
#: Room for stored moves, at most, per item (two positions): the cores' regions are
#: filled unevenly (one core sweeps the small levels), so twice the bound.
MOVES_ROOM = 4 * MOVES_BOUND
#: Bytes a stored move takes, counting its share of :data:`STORED_BYTES` at 8 moves a
#: position at least (a large block has 11 to 16).
BYTES_PER_STORED_MOVE = 4 + STORED_BYTES / 8
#: Bytes per position of a block's plan (:func:`sweep_plan`) while it is made, at most;
#: the working arrays but its order and twin, and the stored moves, come from the solve's
#: :class:`.arena.Arena` (:func:`arena_bytes`).
PLAN_BYTES = 24


class SweepPlan(NamedTuple):
    """The items of one block in sweep order.

    Attributes
    ----------
    order, twin : ndarray of int32
        Rank of each item's position and of its twin (equal for a position that is
        its own twin), by progress, highest first.
    levels : ndarray of int64
        Where each progress level starts in ``order``, and its end.
    stages : ndarray of int64
        Levels grouped into runs of at least :data:`BATCH` items (the sweeps' barriers).
    """

    order: np.ndarray
    twin: np.ndarray
    levels: np.ndarray
    stages: np.ndarray


@dataclass
class BlockStats:
    """How one block was solved.

    Attributes
    ----------
    block : Block
    passes : int
        Passes that made moves: the full sweeps and the improvement passes (with numpy,
        every sweep).
    policy_sweeps : int
        Sweeps along written choices (numba only).
    change : float
        The largest change of a value in the last sweep.
    seconds : float
    phases : dict
        Where the time went (numba engine): for each phase (``plan``, ``full`` sweep,
        which also stores the moves, ``policy`` sweeps, ``improve`` passes, ``write`` to
        the table), ``(wall seconds, CPU seconds of the process)``.
    looked : int
        Items whose moves the improvement passes made or read (the rest kept their
        choices unseen: action elimination).
    full_sweeps : int
        Full sweeps: the first, and those that stood in for improvement passes while the
        values still moved far (:data:`FULL_PASS_DRIFT`); with numpy, every sweep.
    """

    block: Block
    passes: int
    policy_sweeps: int
    change: float
    seconds: float
    phases: dict = field(default_factory=dict)
    looked: int = 0
    full_sweeps: int = 1

    def position_updates(self, phase: str) -> int:
        """Positions updated (or looked at) in ``phase``: each full sweep and each policy
        sweep update every position of the block once, the improvement passes each
        position of the items they :attr:`looked` at.

        >>> from gamegraph.games.ur.rank import Block
        >>> block = Block(0, 1, 1, 0, 10, 10)
        >>> stats = BlockStats(block, 5, 20, 0.0, 1.0, looked=4, full_sweeps=3)
        >>> [stats.position_updates(phase) for phase in ("full", "policy", "improve")]
        [30, 200, 8]
        """
        size = self.block.size
        counts = {
            "full": size * self.full_sweeps,
            "policy": size * self.policy_sweeps,
            "improve": 2 * self.looked,
        }
        return counts.get(phase, size)


@dataclass
class BlockSolution:
    """Values of every position, by rank, and how each block was solved.

    Attributes
    ----------
    numbering : Numbering
    values : ndarray of float64
        Win probability of the side to move, indexed by rank.
    blocks : list of BlockStats
        The blocks solved by this call (not those resumed from a file).
    engine : str
    """

    numbering: Numbering
    values: np.ndarray
    blocks: list = field(default_factory=list)
    engine: str = "numba"

    @property
    def start_value(self) -> float:
        """Win probability of the side that moves first."""
        return self.value("-/-")

    def value(self, position) -> float:
        """Win probability of the side to move in ``position`` (an UrState or its text)."""
        return float(self.values[self.numbering.index(position)])

    @property
    def seconds(self) -> float:
        """Time spent in the blocks solved."""
        return sum(b.seconds for b in self.blocks)

    def phases(self, blocks=None) -> list[dict]:
        """Where the time went, by phase, over ``blocks`` (every block solved by default).

        One row per phase (:attr:`BlockStats.phases`): ``wall`` and ``cpu`` seconds,
        ``updates`` (:meth:`BlockStats.position_updates`) and nanoseconds per update,
        of wall time (``ns_wall``) and of CPU time (``ns_cpu``, every core's).

        >>> solution = solve_blocks("finkel", pieces=2, progress=False)
        >>> [row["phase"] for row in solution.phases()]
        ['plan', 'full', 'policy', 'improve', 'write']
        """
        rows = []
        blocks = self.blocks if blocks is None else blocks
        for phase in ("plan", "full", "policy", "improve", "write"):
            wall = sum(b.phases.get(phase, (0.0, 0.0))[0] for b in blocks)
            cpu = sum(b.phases.get(phase, (0.0, 0.0))[1] for b in blocks)
            updates = sum(b.position_updates(phase) for b in blocks if phase in b.phases)
            per = 1e9 / updates if updates else 0.0
            rows.append({"phase": phase, "wall": wall, "cpu": cpu, "updates": updates,
                         "ns_wall": wall * per, "ns_cpu": cpu * per})  # fmt: skip
        return rows

    @property
    def sweeps(self) -> float:
        """Passes and sweeps per position, of every kind, over the blocks solved."""
        done = sum(b.block.size for b in self.blocks)
        swept = sum(b.block.size * (b.passes + b.policy_sweeps) for b in self.blocks)
        return swept / done if done else 0.0


# ---------------------------------------------------------------------------
# The sweep plan of a block
# ---------------------------------------------------------------------------
def last_uses(numbering: Numbering) -> list[int]:
    """For each block, the last block (by index) whose moves lead into it, or its own index
    when none do: once that block is solved, its values are needed no more.

    A block's moves lead to itself and to the blocks with one more piece borne off by
    either side.

    >>> numbering = Numbering(rule_set("finkel", pieces=3))   # 2 borne off: the next wins
    >>> [(b.low, b.high) for b in numbering.blocks]
    [(2, 2), (1, 2), (0, 2), (1, 1), (0, 1), (0, 0)]
    >>> last_uses(numbering)
    [1, 3, 4, 4, 5, 5]
    """
    index = {(b.low, b.high): b.index for b in numbering.blocks}
    last = [b.index for b in numbering.blocks]
    for block in numbering.blocks:
        for low, high in ((block.low + 1, block.high), (block.low, block.high + 1)):
            target = index.get((min(low, high), max(low, high)))
            if target is not None:
                last[target] = max(last[target], block.index)
    return last


def sweep_plan(
    numbering: Numbering, block: Block, batch: int = BATCH, threads: int = 1
) -> SweepPlan:
    """Items of ``block`` (each position of its first half with its twin) by progress,
    listed on ``threads`` cores when numba is there.

    When ``low == high`` the block is its own other half: an item is then a position
    whose rank is at most its twin's.

    >>> numbering = Numbering(rule_set("finkel", pieces=1))
    >>> plan = sweep_plan(numbering, numbering.blocks[0])
    >>> len(plan.order), plan.levels[:3].tolist()   # 217 positions, 7 their own twin
    (112, [0, 1, 2])
    """
    t = numbering.tables
    if compiled.compiled():
        ranks, twins, level = compiled.plan_items(block, t, threads)
    else:
        ranks, twins, level = _numpy_items(block, t)
    by_progress = np.argsort(-level, kind="stable")  # a radix sort: 16-bit keys
    level = level[by_progress]
    order = ranks[by_progress]
    twin = twins[by_progress]
    del by_progress, ranks, twins
    levels = np.concatenate([[0], np.flatnonzero(np.diff(level)) + 1, [len(level)]])
    stages, last = [0], 0
    for edge in levels[1:]:
        if edge - last >= batch or edge == len(level):
            stages.append(int(edge))
            last = edge
    return SweepPlan(order, twin, levels.astype(np.int64), np.array(stages, dtype=np.int64))


def _numpy_items(block: Block, t) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`.sweeps.plan_items` in numpy, a chunk of ranks at a time (without numba)."""
    ranks, twins, progresses = [], [], []
    for first in range(block.start, block.middle, CHUNK):
        r = np.arange(first, min(first + CHUNK, block.middle), dtype=np.int64)
        mover, a, opp, b = unrank(r, t)
        twin = rank(opp, b, mover, a, t)
        if block.low == block.high:
            keep = r <= twin
            r, twin, mover, opp = r[keep], twin[keep], mover[keep], opp[keep]
        ranks.append(r.astype(np.int32))
        twins.append(twin.astype(np.int32))
        progresses.append(progress(mover, opp, t).astype(np.int16))
    return np.concatenate(ranks), np.concatenate(twins), np.concatenate(progresses)


def sweep_stages(levels: np.ndarray, shared: int = SHARED_LEVEL) -> np.ndarray:
    """The stages of the block solver's sweeps, from a plan's ``levels``: every level of
    more than ``shared`` items alone (the cores share it), and the levels between them in
    runs of at most ``shared`` items (one core sweeps them in order).

    The positions of one level never lead to each other (a move raises the progress, a
    capture lowers it), so a level's values depend only on the levels swept before it,
    whichever core writes which of them and when: a sweep writes the same values, bit
    for bit, on any number of threads as on one.

    >>> sweep_stages(np.array([0, 5000, 5100, 5200, 9000, 9100]), shared=4096).tolist()
    [0, 5000, 9000, 9100]

    The cost: more barriers than :attr:`SweepPlan.stages` (one per level of more than
    ``shared`` items), and the smaller levels on one core; measured in
    docs/performance.md.
    """
    stages, last = [0], 0
    for low, high in zip(levels[:-1], levels[1:]):
        if high - low > shared or high - last > shared:
            if low > last:  # close the run of small levels before this one
                stages.append(int(low))
                last = low
            if high - low > shared:  # a shared level: a stage of its own
                stages.append(int(high))
                last = high
    if levels[-1] > last:
        stages.append(int(levels[-1]))
    return np.array(stages, dtype=np.int64)


# ---------------------------------------------------------------------------
# Stopping rule
# ---------------------------------------------------------------------------
class Rate:
    """The recent ratio of successive changes, and the distance to the fixed point it implies."""

    def __init__(self):
        self.last = None
        self.ratios = []

    def add(self, change: float) -> None:
        """Record the largest change of the latest sweep."""
        if self.last:
            self.ratios = [*self.ratios[-1:], change / self.last]
        self.last = change

    def near(self, change: float, target: float) -> bool:
        """Whether a sweep that changed ``change`` left the values within ``target`` of the
        fixed point, by the one stopping rule (:func:`gamegraph._stopping.near_fixed_point`)
        with the larger of the last two ratios; never before two ratios are known.
        """
        return len(self.ratios) == 2 and near_fixed_point(change, max(self.ratios), target)


def settled(change: float, rate: Rate, target: float) -> bool:
    """Whether a sweep that changed ``change`` left the values within ``target``: by the
    rate (:meth:`Rate.near`), or because it changed nothing above a thousandth of
    ``target``, where the ratios are rounding noise.
    """
    return change <= target / 1000 or rate.near(change, target)


# ---------------------------------------------------------------------------
# The two engines, one block each
# ---------------------------------------------------------------------------
def _block_arrays(numbering, block, plan, take=large_array) -> compiled.BlockArrays:
    """The working arrays of ``block`` (:class:`.sweeps.BlockArrays`), values at 0.5, each
    from ``take(shape, dtype)`` (:func:`.arena.large_array`, or an :class:`.arena.Arena`'s).
    """
    n = len(plan.order)
    shape = (n, 2, moving_throws(numbering.tables))
    where = take(block.size, np.int32)
    places = np.arange(0, 2 * n, 2, dtype=np.int32)
    where[plan.twin - block.start] = places + 1
    where[plan.order - block.start] = places  # a position that is its own twin: its item
    local = take(2 * n, np.float64)
    local[:] = 0.5
    return compiled.BlockArrays(
        plan.order, plan.twin, block.start, block.stop, where, local,
        take((n, 2), np.float64), take(shape, np.int32), take(shape, np.uint8),
    )  # fmt: skip


def moving_throws(tables) -> int:
    """How many throws have moves (all but 0): the last axis of a block's choices.

    >>> moving_throws(Numbering(rule_set("finkel", 1)).tables)
    4
    """
    return int((tables.throws != 0).sum())


def store_room(block: Block, memory: int | None, items: int) -> int:
    """Moves of ``block`` (``items`` items) that its first sweep may store (:func:`move_room`).

    >>> finkel7 = Numbering(rule_set("finkel", 7))
    >>> store_room(finkel7.blocks[-1], 2 * 2**30, 10**6)   # 16 moves a position: every one
    64000000
    >>> store_room(finkel7.blocks[-1], 0, 10**6)           # no room
    0
    """
    room = int(move_room(block, memory) // BYTES_PER_STORED_MOVE)
    return min(max(room, 0), MOVES_ROOM * items, compiled.MAX_STORED)


def arena_bytes(block: Block, memory: int | None, items: int, tables) -> int:
    """Bytes a block of ``items`` items takes from its :class:`.arena.Arena`: its working
    arrays but the plan's order and twin (:func:`_block_arrays`), its stored moves, and a
    page of slack for each of the six.

    >>> finkel7 = Numbering(rule_set("finkel", 7))
    >>> block = finkel7.blocks[-1]
    >>> arena_bytes(block, 0, block.size // 2, finkel7.tables) // block.size   # 40 of 44
    40
    """
    throws = moving_throws(tables)
    working = 4 * block.size + (32 + 10 * throws) * items  # where; local, fixed, choices, grades
    return working + 4 * store_room(block, memory, items) + 6 * ALIGN


class PhaseClock:
    """Wall and process CPU seconds summed by phase: ``with clock("policy"): ...``.

    >>> clock = PhaseClock()
    >>> with clock("plan"):
    ...     pass
    >>> sorted(clock.seconds), all(t >= 0 for t in clock.seconds["plan"])
    (['plan'], True)
    """

    def __init__(self):
        self.seconds: dict = {}

    @contextlib.contextmanager
    def __call__(self, phase: str):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            spent = (time.perf_counter() - wall, time.process_time() - cpu)
            before = self.seconds.get(phase, (0.0, 0.0))
            self.seconds[phase] = (before[0] + spent[0], before[1] + spent[1])


class Drift:
    """How far the values each group of items reads may have moved since the last
    improvement pass, for its action elimination (:func:`.sweeps.improve`).

    A move raises the progress by the throw, at most ``ahead``, and a capture lowers it
    by the square taken, less the throw: at most ``back``. So the values a group's
    moves lead to lie in the progress levels from its lowest progress less ``back`` to
    its highest plus ``ahead``, and none of them has moved by more than the sum, over
    the sweeps since, of the largest change in each of those levels. Late in a block,
    when most values have settled and a few levels still move, that bounds most groups
    far below the largest change of the whole block, and their choices need no look.

    ``stages`` are the policy sweeps' stages; :attr:`stages` receives each sweep's
    largest change by stage (:func:`.sweeps.policy_sweep`), and a stage's change counts
    for each of its levels.
    """

    def __init__(self, plan: SweepPlan, tables, stages: np.ndarray):
        mover, _, opp, _ = unrank(plan.order[plan.levels[:-1]], tables)
        falling = -np.asarray(progress(mover, opp, tables), dtype=np.int64)
        squares = tables.data[tables.opponent_square : tables.opponent_square + tables.length + 2]
        back, ahead = int(squares.max()) - 1, int(np.max(tables.throws))
        starts = np.arange(0, len(plan.order), compiled.GROUP)
        ends = np.minimum(starts + compiled.GROUP, len(plan.order)) - 1
        top = falling[np.searchsorted(plan.levels, starts, side="right") - 1] - ahead
        bottom = falling[np.searchsorted(plan.levels, ends, side="right") - 1] + back
        self.low = np.searchsorted(falling, top, side="left")
        self.high = np.searchsorted(falling, bottom, side="right") - 1
        self.stage_of_level = np.searchsorted(stages, plan.levels[:-1], side="right") - 1
        self.stages = np.zeros(len(stages) - 1)
        self.levels = np.zeros(len(falling))

    def moved(self, change: float) -> None:
        """Every value may have moved by ``change`` more."""
        self.levels += change

    def swept(self) -> None:
        """Add the changes of the sweep just done, in :attr:`stages`."""
        self.levels += self.stages[self.stage_of_level]

    def reset(self) -> None:
        """The margins were measured (or lowered by the drift) again."""
        self.levels[:] = 0.0

    def by_group(self) -> np.ndarray:
        """The drift of each group: the largest over the levels its moves lead to."""
        count = len(self.levels)
        widest = np.zeros((count, count))
        for level in range(count):
            widest[level, level:] = np.maximum.accumulate(self.levels[level:])
        drifts = np.zeros(len(self.low))
        some = self.low <= self.high
        drifts[some] = widest[self.low[some], self.high[some]]
        return drifts


def _numba_block(
    numbering, block, plan, values, tol, inner, max_sweeps, threads, memory, clock, arena=None
):
    """Modified policy iteration; (passes: full sweeps and improvement passes, policy
    sweeps, last change, items looked at by the improvement passes, full sweeps), the
    time of each phase added to ``clock``.

    The block's values are kept in sweep order while it is solved, then written to
    ``values`` by rank. As many items as have room for their moves in ``memory``,
    beside the values held and the working arrays (:func:`move_room`), have them
    written down by the full sweep that makes them (:func:`.sweeps.move_store`), and the
    improvement passes read them, a group of items at a time where every item of the
    group has them; for the other items each pass makes again the moves whose choice
    may have changed.
    """
    t = numbering.tables
    everything = len(plan.order)  # one core sweeps every stage
    limit = arena_bytes(block, memory, everything, t)
    take = large_array if arena is None else arena.take
    with clock("full"):
        if arena is not None:
            arena.start(limit)
        work = _block_arrays(numbering, block, plan, take)
        full_serial = SHARED_FULL if threads > 1 else everything
        counts = large_array(work.choices.shape, np.uint8)
        # The moves are stored as the full sweep makes them, as many as fit (all of them,
        # mostly), each core in a region of its own: pages are taken as they are written.
        room = store_room(block, memory, everything)
        store = compiled.move_store(everything, room, threads, take(room, np.int32))
        full_stages = sweep_stages(plan.levels, full_serial)
        change = compiled.full_sweep(
            full_stages, values, work, t, threads, full_serial, counts, store
        )
    serial = SHARED_LEVEL if threads > 1 else everything
    # The same stages on any number of cores (one core sweeps each in order): the drift,
    # and so whether a full sweep stands in for a pass, are then the same on each
    stages = sweep_stages(plan.levels, SHARED_LEVEL)
    groups = compiled.stored_groups(store[3])
    stored = (counts, store[0], store[3], groups) if groups.any() else None
    del store, counts  # held by ``stored`` when needed, and freed with it
    inner = INNER if inner is None else inner
    drift = Drift(plan, t, stages)
    drift.moved(change)  # the margins were measured while values moved
    target, passes, policy, looked, full = max(tol / 2, inner * change), 1, 0, 0, 1
    while True:
        rate = Rate()
        with clock("policy"):
            while True:
                step = compiled.policy_sweep(stages, values, work, t, threads, serial, drift.stages)
                policy += 1
                drift.swept()
                rate.add(step)
                if settled(step, rate, target):
                    break
                if passes + policy >= max_sweeps:
                    raise ConvergenceError(
                        f"no fixed point after {max_sweeps} sweeps (change {step:.1e})"
                    )
        drifts = drift.by_group()
        if drifts.min() > FULL_PASS_DRIFT:
            with clock("full"):
                step = compiled.full_sweep(
                    full_stages, values, work, t, threads, full_serial,
                    stored=None if stored is None else stored[:3],
                )  # fmt: skip
            passes, full = passes + 1, full + 1
            drift.reset()
            drift.moved(step)  # the margins were measured while values moved
            target = max(tol / 2, inner * step)
            continue
        with clock("improve"):
            changed, gain, made = compiled.improve(
                values, work, t, drifts, tol / 10, threads, stored
            )
        passes += 1
        looked += made
        drift.reset()
        if not changed and target <= tol / 2:
            with clock("write"):
                local = work.local
                del work, stored  # before the block's part of the table is written
                if arena is not None:  # room for it (the moves' last pages)
                    arena.trim(limit - 8 * block.size)
                values[plan.twin] = local[1::2]
                values[plan.order] = local[0::2]
            return passes, policy, step, looked, full
        target = max(tol / 2, inner * gain) if changed else tol / 2


def _numpy_successors(numbering, sides, throw):
    """For each position of ``sides`` (mover, a, opp, b arrays), each move of ``throw``:
    -3 (no such move), -1 (the win), or the successor's rank times 2, plus 1 if the turn
    passes. Shape (positions, sources).
    """
    t = numbering.tables
    mover, a, opp, b = sides
    columns = []
    for source in range(t.length + 2 - throw):
        legal, mover2, a2, opp2, again = move(mover, a, opp, source, throw, t)
        code = np.full(len(mover), -3, dtype=np.int64)
        won = legal & (a2 == t.pieces)
        code[won] = -1
        stay = legal & ~won & again
        code[stay] = 2 * rank(mover2[stay], a2[stay], opp2[stay], b[stay], t)
        passes = legal & ~won & ~again
        code[passes] = 2 * rank(opp2[passes], b[passes], mover2[passes], a2[passes], t) + 1
        columns.append(code)
    return np.stack(columns, axis=1)


def _numpy_block(numbering, plan, values, tol, max_sweeps):
    """Gauss-Seidel value iteration, one progress level at a time; (sweeps, 0, change)."""
    t = numbering.tables
    positions = unrank(plan.order.astype(np.int64), t)
    mover, a, opp, b = positions
    sides = (positions, (opp, b, mover, a))
    throws = [(int(x), float(p)) for x, p in zip(t.throws, t.probabilities)]
    successors = [
        [_numpy_successors(numbering, side, x) if x else None for x, _ in throws] for side in sides
    ]
    order, twin = plan.order.astype(np.int64), plan.twin.astype(np.int64)
    rate = Rate()
    for sweep in range(1, max_sweeps + 1):
        change = 0.0
        for low, high in zip(plan.levels[:-1], plan.levels[1:]):
            parts = []
            for side in range(2):
                total = np.zeros(high - low)
                passing = np.zeros(high - low)
                for (_, p), codes in zip(throws, successors[side]):
                    if codes is None:
                        passing += p
                        continue
                    codes = codes[low:high]
                    found = values[np.maximum(codes, 0) >> 1]
                    found = np.where(codes & 1 == 1, 1.0 - found, found)
                    found = np.where(codes == -1, 1.0, np.where(codes == -3, -1.0, found))
                    best = found.max(axis=1)
                    total += np.where(best >= 0, p * best, 0.0)
                    passing += np.where(best < 0, p, 0.0)
                parts.append((total, passing))
            (total1, passing1), (total2, passing2) = parts
            r1, r2 = order[low:high], twin[low:high]
            alone = r1 == r2
            with np.errstate(divide="ignore", invalid="ignore"):
                den = 1.0 - passing1 * passing2
                v1 = np.where(
                    alone,
                    (total1 + passing1) / (1.0 + passing1),
                    np.where(den > 0, (total1 + passing1 - passing1 * (total2 + passing2)) / den,
                             0.5),
                )  # fmt: skip
                v2 = np.where(den > 0, total2 + passing2 * (1.0 - v1), 0.5)
            v2 = np.where(alone, v1, v2)
            change = max(change, float(np.abs(v1 - values[r1]).max()),
                         float(np.abs(v2 - values[r2]).max()))  # fmt: skip
            values[r2] = v2
            values[r1] = v1
        rate.add(change)
        if settled(change, rate, tol):
            return sweep, 0, change
    raise ConvergenceError(f"no fixed point after {max_sweeps} sweeps (change {change:.1e})")


# ---------------------------------------------------------------------------
# The solve
# ---------------------------------------------------------------------------
def resolve_engine(engine: str) -> str:
    """The engine ``engine`` names (one of :data:`ENGINES`), ``auto`` resolved
    (:func:`gamegraph._kernels.resolve_engine`).
    """
    return _kernels.resolve_engine(engine, "the compiled Ur block solver")


def solve_blocks(
    rules="finkel",
    pieces: int | None = None,
    *,
    tol: float = 1e-13,
    engine: str = "auto",
    values: np.ndarray | None = None,
    first_block: int = 0,
    on_block=None,
    threads: int | None = None,
    inner: float | None = None,
    max_sweeps: int = 10_000,
    memory: int | None = None,
    keep: str = "all",
    progress: bool | None = None,
) -> BlockSolution:
    """Solve every position of a rule set, block by block (see the module docstring).

    Parameters
    ----------
    rules : str or RuleSet
        ``finkel``, ``masters``, ``blitz`` or ``aseb``.
    pieces : int, optional
        Pieces per side (the rule set's own by default).
    tol : float
        Target distance of every value to the fixed point.
    engine : {"auto", "numba", "numpy"}
        ``auto`` is numba when installed. The numpy engine holds every move of a block
        in memory (about 1 kB per position): small sizes only.
    values : ndarray of float64, optional
        Where to write the values (length ``Numbering(...).n_positions``), for example a
        memory map of a table file; a new array by default.
    first_block : int
        Blocks before this one are already solved in ``values`` (resuming).
    on_block : callable, optional
        Called as ``on_block(stats)`` after each block (to flush a file, record progress).
    threads : int, optional
        Cores for the numba engine (numba's default, all of them, when None).
    inner : float, optional
        Policy sweeps go on until the estimated distance is below ``inner`` times the
        largest gain of the last improvement (or of the first sweep's change);
        :data:`INNER` by default.
    max_sweeps : int
        Per block; :class:`~gamegraph.errors.ConvergenceError` beyond it.
    memory : int, optional
        Bytes the solve may take, about (:func:`default_memory` by default: 2 GiB for
        finkel up to 7 pieces). A block whose moves fit in it (:func:`move_room`: 4
        bytes per move, about 60 per position with their counts) lists them once instead
        of in every improvement pass, which takes about a quarter off its time (numba
        engine).
    keep : {"all", "needed"}
        ``needed``: once ``on_block`` has had a block (to write it to a file), the values
        of every block that no block still to solve leads to (:func:`last_uses`) are
        given back to the system (:func:`release`; they read as zeros after), and the
        memory budget counts only those kept. ``all`` keeps every value.
    progress : bool, optional
        Blocks done, positions per second and time left on stderr (see
        :func:`gamegraph._progress.wanted`).
    """
    if keep not in KEEP:
        raise UnknownNameError("keep", keep, KEEP)
    ruleset = rule_set(rules, pieces)
    numbering = Numbering(ruleset)
    engine = resolve_engine(engine)
    blocks = numbering.blocks
    first_block = check_int(first_block, "first_block", low=0, high=len(blocks))
    if values is None:
        values = large_array(numbering.n_positions, np.float64)
    elif values.shape != (numbering.n_positions,) or values.dtype != np.float64:
        raise InvalidArgumentError(
            f"values must be float64 of length {numbering.n_positions:,}, "
            f"got {values.dtype} of shape {values.shape}"
        )
    if engine == "numba":
        compiled.compile_kernels()
        import numba

        threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
        numba.set_num_threads(check_int(threads, "threads", low=1))
    solution = BlockSolution(numbering, values, engine=engine)
    done = blocks[first_block].start if first_block < len(blocks) else numbering.n_positions
    with (
        limit_blas(),
        progress_bar(
            numbering.n_positions, desc=f"ur {ruleset.name} {ruleset.pieces}: blocks",
            unit="pos", progress=progress,
        ) as bar,
    ):  # fmt: skip
        bar.update(done)
        held, uses = table_bytes(numbering, keep), last_uses(numbering)
        if keep == "needed":  # blocks resumed from a file that no block to solve needs
            _release_done(values, numbering, uses, first_block)
        budget = default_memory(numbering, keep) if memory is None else memory
        arena = _solve_arena(numbering, blocks[first_block:], budget, held, engine)
        for block in blocks[first_block:]:
            room = budget - held[block.index]
            stats = _solve_one(
                numbering, block, values, engine, tol, inner, max_sweeps, threads, room, arena
            )
            solution.blocks.append(stats)
            if on_block is not None:
                on_block(stats)
            if keep == "needed":
                _release_done(values, numbering, uses, block.index + 1)
            sweeps = f"{stats.passes}+{stats.policy_sweeps} sweeps"
            bar.set_postfix_str(f"block {block.index + 1}/{len(blocks)}, {sweeps}")
            bar.update(block.size)
    return solution


def _solve_arena(numbering, blocks, budget: int, held: list, engine: str) -> Arena | None:
    """The :class:`.arena.Arena` of a solve of ``blocks``: room for the largest block's
    (:func:`arena_bytes`), mapped but not taken until written (None with numpy).
    """
    if engine != "numba" or not blocks:
        return None
    t = numbering.tables
    return Arena(max(arena_bytes(b, budget - held[b.index], b.size, t) for b in blocks))


def _solve_one(
    numbering, block, values, engine, tol, inner, max_sweeps, threads, memory, arena=None
) -> BlockStats:
    """Solve ``block`` in place in ``values`` (the blocks it leads to already solved), its
    working arrays from ``arena`` when given (numba engine).
    """
    started = time.perf_counter()
    clock = PhaseClock()
    if arena is not None and memory is not None:  # room for the plan, within the budget
        arena.trim(memory - RESERVE - PLAN_BYTES * block.size)
    with clock("plan"):
        plan = sweep_plan(numbering, block, threads=threads if engine == "numba" else 1)
    looked, full = 0, 1
    if engine == "numba":
        passes, policy, change, looked, full = _numba_block(
            numbering, block, plan, values, tol, inner, max_sweeps, threads, memory, clock, arena
        )
    else:
        values[block.start : block.stop] = 0.5
        passes, policy, change = _numpy_block(numbering, plan, values, tol, max_sweeps)
        full = passes  # every sweep is a full one
    seconds = time.perf_counter() - started
    return BlockStats(block, passes, policy, change, seconds, clock.seconds, looked, full)


def solve_block(
    numbering: Numbering,
    block: Block,
    values: np.ndarray,
    *,
    tol: float = 1e-13,
    engine: str = "auto",
    threads: int | None = None,
    inner: float | None = None,
    max_sweeps: int = 10_000,
    memory: int | None = None,
) -> BlockStats:
    """Solve one block in place in ``values`` (indexed by rank), the blocks its moves lead
    to being solved already: the unit of work of :func:`solve_blocks` and of the Dask
    graph (:mod:`.dask_plan`). Options as :func:`solve_blocks`.
    """
    engine = resolve_engine(engine)
    if engine == "numba":
        compiled.compile_kernels()
        import numba

        threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
        numba.set_num_threads(check_int(threads, "threads", low=1))
    with limit_blas():
        room = None if memory is None else memory - 8 * block.start  # every value held
        return _solve_one(numbering, block, values, engine, tol, inner, max_sweeps, threads, room)


def default_memory(numbering: Numbering, keep: str = "all") -> int:
    """The bytes a solve takes when given no budget: :data:`DEFAULT_MEMORY`, or, for a game
    whose floor (:func:`peak_bytes` with no move stored) is more, :data:`DEFAULT_HEADROOM`
    times that floor; never more than half the machine's memory, unless the floor is.

    >>> round(default_memory(Numbering(rule_set("finkel", 7)), "needed") / 2**30, 2)
    2.0
    >>> round(default_memory(Numbering(rule_set("masters", 7)), "needed") / 2**30, 2)  # floor 6.0
    7.77
    """
    floor = peak_bytes(numbering, memory=0, keep=keep)
    wanted = DEFAULT_MEMORY if floor <= DEFAULT_MEMORY else int(DEFAULT_HEADROOM * floor)
    return min(wanted, max(physical_memory() // 2, floor))


def _release_done(values, numbering: Numbering, uses: list, done: int) -> None:
    """Release the blocks before ``done`` that no block from ``done`` on needs (again for
    those released before: their pages are gone, which costs nothing).
    """
    for block in numbering.blocks[:done]:
        if uses[block.index] < done:
            release(values, block.start, block.stop)


def table_bytes(numbering: Numbering, keep: str = "all") -> list[int]:
    """Bytes of values held while each block is solved: of every block before it
    (``keep="all"``), or of those a block still to solve leads to (``"needed"``).

    >>> finkel7 = Numbering(rule_set("finkel", 7))
    >>> [round(b / 2**20) for b in table_bytes(finkel7)[-2:]]  # MiB, the last two blocks
    [683, 909]
    >>> [round(b / 2**20) for b in table_bytes(finkel7, "needed")[-2:]]
    [239, 226]
    """
    if keep == "all":
        return [8 * block.start for block in numbering.blocks]
    uses = last_uses(numbering)
    return [
        8 * sum(b.size for b in numbering.blocks[: block.index] if uses[b.index] >= block.index)
        for block in numbering.blocks
    ]


def move_room(block: Block, memory: int | None) -> int:
    """Bytes left for a block's stored moves (with their :data:`STORED_BYTES`) out of
    ``memory`` (what the budget leaves beside the values held, :func:`table_bytes`; when
    None, half the machine's memory less the values of every block before): less its
    working arrays and :data:`RESERVE`.
    """
    if memory is None:
        memory = physical_memory() // 2 - 8 * block.start
    return memory - WORKING_BYTES * block.size - RESERVE


def peak_bytes(numbering: Numbering, memory: int | None = None, keep: str = "all") -> int:
    """Estimated peak memory of :func:`solve_blocks`: for each block, the values held
    (:func:`table_bytes`), its working arrays (:data:`WORKING_BYTES` per position) and
    as many of its moves as fit (:func:`move_room`; counted at :data:`MOVES_BOUND` per
    position); at the end, the whole table unless ``keep="needed"`` (it is in a file);
    :data:`RESERVE` besides.

    Finkel 7 has 13.8 moves a position, below the bound, so its estimates are high (GiB;
    measured in brackets):

    >>> finkel7 = Numbering(rule_set("finkel", 7))
    >>> round(peak_bytes(finkel7, memory=12 * 2**30, keep="needed") / 2**30, 2)  # (3.33)
    3.63
    >>> round(peak_bytes(finkel7, memory=0, keep="needed") / 2**30, 2)  # no moves stored
    1.7
    >>> round(peak_bytes(finkel7, memory=2 * 2**30, keep="needed") / 2**30, 2)
    2.0
    """
    held = table_bytes(numbering, keep)
    budget = default_memory(numbering, keep) if memory is None else memory
    peak = 8 * numbering.n_positions if keep == "all" else 0
    for block in numbering.blocks:
        room = max(move_room(block, budget - held[block.index]), 0)
        moves = min((4 * MOVES_BOUND + STORED_BYTES) * block.size, room)
        peak = max(peak, held[block.index] + WORKING_BYTES * block.size + moves)
    return peak + RESERVE


def solve_file(path, rules="finkel", pieces: int | None = None, **options) -> BlockSolution:
    """:func:`solve_blocks` into a table file (:mod:`gamegraph.games.ur.rank_table`).

    The blocks are written as they are solved to ``path + ".partial"``, which a later
    call with the same rules resumes from; when the last block is done the file gets
    its digest and is renamed to ``path``. ``options`` go to :func:`solve_blocks`.

    Only the blocks still needed stay in memory (``keep="needed"``): each block, once
    written, is given back to the system when no later block needs it. The solution's
    ``values`` map the finished file.

    >>> import os, tempfile
    >>> from gamegraph.games.ur.rank_table import open_values
    >>> path = os.path.join(tempfile.mkdtemp(), "finkel-2.npy")
    >>> round(solve_file(path, "finkel", 2, progress=False).start_value, 6)
    0.518573
    >>> round(open_values(path).value("-/-"), 6), os.path.exists(path + ".partial")
    (0.518573, False)
    """
    from ..._files import check_output
    from .rank_table import HEADER_BYTES, start_partial

    check_output(path, (".npy",))
    numbering = Numbering(rule_set(rules, pieces))
    partial = start_partial(path, numbering)
    try:
        values = large_array(numbering.n_positions, np.float64)
        partial.read_done(values)
        solution = solve_blocks(
            numbering.ruleset,
            values=values,
            first_block=partial.blocks_done,
            on_block=lambda stats: partial.write_block(stats.block.index, values),
            keep="needed",
            **options,
        )
        values = None  # every block is in the file: the map goes (the lambda holds it)
    except BaseException:
        partial.close()
        raise
    solution.values = np.zeros(0)  # partly released: the file's map replaces it
    partial.finish()
    table = np.memmap(path, dtype="<f8", mode="r", offset=HEADER_BYTES,
                      shape=(numbering.n_positions,))  # fmt: skip
    solution.values = table.view(np.ndarray)
    return solution
