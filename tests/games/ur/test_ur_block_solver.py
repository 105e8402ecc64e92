"""The block solver against the explicit-graph solver, and its two engines against each other.

The explicit graph (:func:`gamegraph.build` then :func:`gamegraph.solve`) stays the
reference: every position it holds must have the same value here to 1e-12
(``tests/ur_agree.py`` compares them). Four pieces (2.6 to 6.1 million positions,
minutes and gigabytes per rule set) are checked in ``test_ur_block_solver_slow.py``, marked
``slow``: ``make test-slow`` runs them.
"""

from __future__ import annotations

import mmap

import numpy as np
import pytest
from ur_agree import agreement

from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.ur import RULESETS, block_solver, rule_set
from gamegraph.games.ur.arena import Arena
from gamegraph.games.ur.block_solver import BlockSolution, solve_blocks, sweep_plan
from gamegraph.games.ur.rank import Numbering, progress, unrank

#: `make test-fast` leaves these out: the block solver against the graph, 1 to 3 pieces.
pytestmark = pytest.mark.heavy

numba = pytest.importorskip("numba")


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("pieces", [1, 2, 3])
def test_agrees_with_the_explicit_graph(name, pieces):
    found = agreement(name, pieces, engine="numba")
    assert found.gap <= 1e-12, found
    assert found.start_gap <= 1e-12, found


@pytest.mark.parametrize("name", RULESETS)
def test_moves_made_again_agree_with_the_explicit_graph(name):
    """With no memory for stored moves, each improvement pass makes the moves again."""
    found = agreement(name, 3, engine="numba", memory=0)
    assert found.gap <= 1e-12, found
    assert found.start_gap <= 1e-12, found


@pytest.mark.parametrize("name", ["finkel", "masters"])
def test_some_moves_stored_agree_with_the_explicit_graph(name, monkeypatch):
    """With room for about half its moves, the full sweep stores those of the items that
    fit its core's region; the groups with an item not stored make their moves again."""
    monkeypatch.setattr(block_solver, "move_room", lambda block, memory: 4 * 7 * block.size)
    found = agreement(name, 3, engine="numba")
    assert found.gap <= 1e-12, found
    assert found.start_gap <= 1e-12, found


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("pieces", [1, 2])
def test_numpy_engine_agrees_with_numba(name, pieces):
    compiled = solve_blocks(name, pieces, engine="numba", progress=False)
    plain = solve_blocks(name, pieces, engine="numpy", progress=False)
    assert plain.engine == "numpy"
    assert np.abs(compiled.values - plain.values).max() < 1e-12


def test_one_core_and_two_agree():
    one = solve_blocks("finkel", 3, engine="numba", threads=1, progress=False)
    two = solve_blocks("finkel", 3, engine="numba", threads=2, progress=False)
    assert np.abs(one.values - two.values).max() < 1e-12


def test_full_sweeps_stand_in_for_passes_that_would_look_at_every_item(monkeypatch):
    """While every drift exceeds FULL_PASS_DRIFT a full sweep takes the place of an
    improvement pass (reading the stored moves, or making them again): more full sweeps
    than blocks, fewer passes and policy sweeps than without, the same table with every
    move stored and with none, the same to 1e-12 as without, and the same bytes on one
    core and two.
    """
    calls = []
    full_sweep = block_solver.compiled.full_sweep

    def counted(*args, **options):
        calls.append(len(args))
        return full_sweep(*args, **options)

    monkeypatch.setattr(block_solver.compiled, "full_sweep", counted)
    stored = solve_blocks("finkel", 3, engine="numba", threads=1, progress=False)
    assert len(calls) > len(stored.blocks) + 10
    assert sum(b.full_sweeps for b in stored.blocks) == len(calls)  # each one counted
    again = solve_blocks("finkel", 3, engine="numba", memory=0, threads=1, progress=False)
    assert again.values.tobytes() == stored.values.tobytes()
    for memory in (0, None):  # the drift, and so each full sweep, the same on two cores
        two = solve_blocks("finkel", 3, engine="numba", memory=memory, threads=2, progress=False)
        assert two.values.tobytes() == again.values.tobytes()
    monkeypatch.setattr(block_solver, "FULL_PASS_DRIFT", np.inf)  # never: the passes before
    before = solve_blocks("finkel", 3, engine="numba", threads=1, progress=False)
    assert np.abs(before.values - stored.values).max() < 1e-12
    for count in ("passes", "policy_sweeps"):
        assert sum(getattr(b, count) for b in stored.blocks) < sum(
            getattr(b, count) for b in before.blocks
        ), count


def test_one_core_and_two_write_the_same_bytes_at_four_pieces():
    """Finkel 4 at the command's tolerance: the same table, byte for byte, on one core and
    two (the drift, which decides whether a full sweep stands in for a pass, is taken over
    the same stages on both; over each level on one core it differed, and so did the table).
    """
    one, two = (
        solve_blocks("finkel", 4, engine="numba", tol=1e-10, threads=n, progress=False)
        for n in (1, 2)
    )
    assert one.values.tobytes() == two.values.tobytes()


def test_published_endgames():
    """King of Ur notes: one piece each on its last tile 4/7; one tile further back
    116/161, and 74/161 with the other side to move."""
    solution = solve_blocks("finkel", 2, progress=False)
    assert abs(solution.value("14+1/14+1") - 4 / 7) < 1e-12
    assert abs(solution.value("13+1/14+1") - 116 / 161) < 1e-12
    assert abs(solution.value("14+1/13+1") - 74 / 161) < 1e-12


def test_resumes_from_blocks_already_solved():
    whole = solve_blocks("aseb", 2, progress=False)
    values = np.full(whole.numbering.n_positions, np.nan)
    seen = []
    first = solve_blocks("aseb", 2, values=values, progress=False, on_block=seen.append)
    assert [s.block.index for s in seen] == [0, 1, 2]
    values[first.numbering.blocks[2].start :] = np.nan  # as if stopped after two blocks
    again = solve_blocks("aseb", 2, values=values, first_block=2, progress=False)
    assert [s.block.index for s in again.blocks] == [2]
    assert np.abs(again.values - whole.values).max() < 1e-12


def test_sweep_plan_orders_items_by_progress():
    numbering = Numbering(rule_set("masters", 2))
    for block in numbering.blocks:
        plan = sweep_plan(numbering, block)
        mover, _, opp, _ = unrank(plan.order.astype(np.int64), numbering.tables)
        level = progress(mover, opp, numbering.tables)
        assert (np.diff(level) <= 0).all()
        # every position of the block is an item or an item's twin, once
        covered = np.union1d(plan.order, plan.twin)
        assert covered.tolist() == list(range(block.start, block.stop))


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_the_items_listed_on_several_cores_are_those_numpy_lists(threads):
    """Each core lists a share of the ranks; blocks that are their own other half keep
    only the positions that rank at most their twin (numpy's listing is the reference)."""
    from gamegraph.games.ur import sweeps

    sweeps.compile_kernels()
    numbering = Numbering(rule_set("masters", 3))
    same = 0
    for block in numbering.blocks:
        same += block.low == block.high
        compiled = sweeps.plan_items(block, numbering.tables, threads)
        reference = block_solver._numpy_items(block, numbering.tables)
        for ours, theirs in zip(compiled, reference, strict=True):
            assert ours.dtype == theirs.dtype and ours.tolist() == theirs.tolist()
    assert same >= 2


def test_bad_arguments_are_refused():
    with pytest.raises(UnknownNameError, match="unknown engine 'gpu'"):
        solve_blocks("finkel", 1, engine="gpu")
    with pytest.raises(InvalidArgumentError, match="values must be float64 of length 217"):
        solve_blocks("finkel", 1, values=np.zeros(10), progress=False)


def test_solution_reads_positions():
    solution = solve_blocks("finkel", 1, progress=False)
    assert isinstance(solution, BlockSolution)
    assert abs(solution.start_value - 0.5300498395248594) < 1e-12
    assert solution.sweeps > 1
    with pytest.raises(InvalidArgumentError, match="two of the mover's pieces"):
        solution.value("5,5/-")


@pytest.mark.parametrize("name", RULESETS)
def test_a_saved_solve_keeps_only_the_blocks_still_needed(name, tmp_path, monkeypatch):
    """solve_file gives back each block once no later block needs it (last_uses). Here a
    released block is filled with NaN instead: a block read after its release would
    spread NaN into the table, which finish refuses. The file holds the in-memory
    solve's values, bit for bit, and the phases of every block are timed."""
    released = []

    def poison(values, start, stop):
        released.append((start, stop))
        values[start:stop] = np.nan

    monkeypatch.setattr(block_solver, "release", poison)
    path = tmp_path / "t.npy"
    saved = block_solver.solve_file(path, name, 3, tol=1e-12, progress=False)
    memory = solve_blocks(name, 3, tol=1e-12, progress=False)
    numbering = Numbering(rule_set(name, 3))
    assert len({start for start, _ in released}) == len(numbering.blocks)  # the last once written
    assert saved.values.tobytes() == memory.values.tobytes()
    assert saved.start_value == memory.start_value
    phases = {row["phase"]: row for row in saved.phases()}
    assert phases["policy"]["updates"] == sum(b.block.size * b.policy_sweeps for b in saved.blocks)
    assert phases["full"]["updates"] == sum(b.block.size * b.full_sweeps for b in saved.blocks)
    assert phases["improve"]["updates"] == sum(2 * b.looked for b in saved.blocks)
    assert all(phases[p]["wall"] > 0 for p in ("plan", "full", "policy", "improve", "write"))


def test_release_gives_whole_pages_back():
    values = block_solver.large_array(9_000_000, np.float64)  # 72 MB: a map of its own
    values[:] = 0.25
    block_solver.release(values, 1001, 8_000_003)
    page = mmap.PAGESIZE // 8
    first, last = -(-1001 // page) * page, 8_000_003 // page * page
    assert values[1000:first].tolist() == [0.25] * (first - 1000)  # part of a page: kept
    assert not values[first:last].any()  # given back: reads as zeros
    assert (values[last:] == 0.25).all()
    block_solver.release(np.full(10, 0.5), 0, 10)  # memory not its own: left alone


def test_an_arena_hands_out_arrays_in_turn_and_keeps_within_each_blocks_limit():
    arena = Arena(64 * 2**20)
    arena.start(48 * 2**20)
    first = arena.take(4 * 2**20, np.float64)  # 32 MiB
    first[:] = 0.25
    second = arena.take((2**20, 2), np.int32)  # 8 MiB, after it
    second[:] = 7
    assert (first == 0.25).all() and arena.left() == 8 * 2**20
    with pytest.raises(MemoryError, match="8388608 bytes left"):
        arena.take(2**21, np.float64)
    arena.start(36 * 2**20)  # a block allowed less: the pages above 36 MiB are given back
    assert (first == 0.25).all()  # pages kept hold what was written (void arrays, read here)
    assert (second.ravel()[: 2**20] == 7).all() and not second.ravel()[2**20 :].any()
    arena.trim(16 * 2**20)
    assert (first[: 2 * 2**20] == 0.25).all() and not first[2 * 2**20 :].any()


def test_what_an_arena_held_before_a_block_changes_none_of_its_values(monkeypatch):
    """Each block's arrays come from the arena as the block before left them: filled with
    garbage first, every value is still the same, to the last bit."""
    clean = solve_blocks("masters", 3, tol=1e-12, progress=False)
    start = Arena.start

    def poisoned(self, limit):
        start(self, limit)
        self.take(self.left(), np.uint8)[:] = 0xFF  # NaN as floats, -1 as ints
        start(self, limit)

    monkeypatch.setattr(Arena, "start", poisoned)
    dirty = solve_blocks("masters", 3, tol=1e-12, progress=False)
    assert dirty.values.tobytes() == clean.values.tobytes()


def test_grades_are_the_largest_step_at_most_the_margin():
    """The compiled grade (from the float's bits, corrected) against a search of
    GRADE_VALUES, on random margins and on each step and its two neighbouring floats."""
    from gamegraph.games.ur import sweeps

    sweeps.compile_kernels()
    steps = sweeps.GRADE_VALUES[:-1]
    margins = np.concatenate([
        10 ** np.random.default_rng(3).uniform(-11, 0.2, 5000),
        steps, np.nextafter(steps, 0), np.nextafter(steps, 2), [1e-300, 2.0],
    ])  # fmt: skip
    for margin in margins:
        at_most = np.flatnonzero(steps <= margin)
        expected = 0 if margin >= 1 else (int(at_most[0]) if len(at_most) else sweeps.NO_GRADE)
        assert sweeps.grade(margin) == expected, margin


def test_a_full_region_stores_nothing_after_and_touches_nothing():
    """One core, room for a fifth of the largest block's moves: the items stored are
    the first ones swept, their move counts those of a sweep that stores every move, and
    the items after have offset 0 and counts never written (so no pages for them)."""
    from gamegraph.games.ur import sweeps

    sweeps.compile_kernels()
    numbering = Numbering(rule_set("finkel", 3))
    block = max(numbering.blocks, key=lambda b: b.size)
    plan = sweep_plan(numbering, block)
    items = len(plan.order)
    stages = block_solver.sweep_stages(plan.levels, items)
    found = {}
    for room in (4 * block_solver.MOVES_ROOM * items, 2 * block.size):
        values = np.full(numbering.n_positions, 0.5)
        work = block_solver._block_arrays(numbering, block, plan)
        counts = np.zeros(work.choices.shape, np.uint8)
        store = sweeps.move_store(items, room, 1)
        sweeps.full_sweep(stages, values, work, numbering.tables, 1, items, counts, store)
        found[room] = counts, store[3], store[1][0]
    (all_counts, all_offsets, _), (counts, offsets, used) = found.values()
    assert (all_offsets > 0).all()
    kept = int((offsets > 0).sum())
    assert 0.1 * items < kept < 0.9 * items
    assert (offsets[:kept] > 0).all() and not offsets[kept:].any()  # a prefix, then zeros
    assert np.array_equal(counts[:kept], all_counts[:kept])
    assert not counts[kept:].any()
    assert used == int(counts.sum()) <= 2 * block.size  # every code written is counted


@pytest.mark.parametrize("name", ["finkel", "masters"])
@pytest.mark.parametrize("threads", [1, 2])
def test_a_full_sweep_over_stored_moves_is_one_that_makes_them(name, threads):
    """A full sweep that reads the moves the first one stored (where some of them are: a
    third of the room) writes the same values, choices, margins and ``fixed``, to the bit,
    as one that makes every move again."""
    from gamegraph.games.ur import sweeps

    sweeps.compile_kernels()
    numbering = Numbering(rule_set(name, 3))
    block = max(numbering.blocks, key=lambda b: b.size)
    plan = sweep_plan(numbering, block)
    items = len(plan.order)
    stages = block_solver.sweep_stages(plan.levels, 64 if threads > 1 else items)
    values = solve_blocks(name, 3, progress=False).values.copy()
    values[block.start : block.stop] = 0.0
    work = block_solver._block_arrays(numbering, block, plan)
    counts = np.zeros(work.choices.shape, np.uint8)
    store = sweeps.move_store(items, 4 * block.size // 3, threads)
    serial = 64 if threads > 1 else items
    sweeps.full_sweep(stages, values, work, numbering.tables, threads, serial, counts, store)
    assert 0 < (store[3] > 0).sum() < items
    made = work._replace(local=work.local.copy(), fixed=work.fixed.copy(),
                         choices=work.choices.copy(), grades=work.grades.copy())  # fmt: skip
    change = sweeps.full_sweep(stages, values, made, numbering.tables, threads, serial)
    read = sweeps.full_sweep(stages, values, work, numbering.tables, threads, serial,
                             stored=(counts, store[0], store[3]))  # fmt: skip
    assert read == change > 0
    for field in ("local", "fixed", "choices", "grades"):
        assert getattr(work, field).tobytes() == getattr(made, field).tobytes(), field


@pytest.mark.parametrize("warm", [0, 6])
@pytest.mark.parametrize("name", ["finkel", "masters"])
def test_a_groups_drift_bounds_every_value_its_moves_lead_to(name, warm):
    """After a full sweep from 0.5 and ``warm`` policy sweeps, no value that a move of a group's
    items leads to (inside the block) has moved by more than the group's drift
    (:class:`.block_solver.Drift`, from the changes of the levels its moves can reach), and
    the drift of some groups is less than half the block's (the sum of the sweeps' largest
    changes, which every group had before): the bound is worth having. (A drift that
    left out the captures, or the largest throw, fails it.)
    """
    from gamegraph.games.ur import sweeps

    sweeps.compile_kernels()
    numbering = Numbering(rule_set(name, 3))
    t = numbering.tables
    block = max(numbering.blocks, key=lambda b: b.size)
    plan = sweep_plan(numbering, block)
    items = len(plan.order)
    stages = block_solver.sweep_stages(plan.levels, 64)  # several stages of small levels
    values = solve_blocks(name, 3, progress=False).values  # the blocks after are solved
    work = block_solver._block_arrays(numbering, block, plan)  # this one starts at 0.5
    sweeps.full_sweep(stages, values, work, t, 1, items)
    for _ in range(warm):  # the values move unevenly, level by level
        sweeps.policy_sweep(stages, values, work, t, 1, items)
    before = work.local.copy()
    drift = block_solver.Drift(plan, t, stages)
    whole = 0.0
    for _ in range(2):
        whole += sweeps.policy_sweep(stages, values, work, t, 1, items, drift.stages)
        drift.swept()
    bound = drift.by_group()
    moved = np.abs(work.local - before)
    throws = int((t.throws != 0).sum())
    ranks, kinds = np.empty(64 * throws, np.int64), np.empty(64 * throws, np.int64)
    first, wanted = np.zeros((2, throws + 1), np.int64), np.ones((2, throws), np.bool_)
    sources = np.empty(t.length + 1, np.int64)
    farthest = np.zeros(len(bound))
    for i in range(items):
        mover, a, opp, b = (int(v) for v in unrank(int(plan.order[i]), t))
        sides = 1 if plan.order[i] == plan.twin[i] else 2
        end = sweeps.item_moves(mover, a, opp, b, t, sides, wanted, sources, ranks, kinds,
                                first, 0, 0)  # fmt: skip
        inside = (kinds[:end] != sweeps._WINS) & (block.start <= ranks[:end])
        inside &= ranks[:end] < block.stop
        places = work.where[ranks[:end][inside] - block.start]
        if len(places):
            g = i // sweeps.GROUP
            farthest[g] = max(farthest[g], moved[places].max())
    assert (farthest <= bound).all()
    assert farthest.max() > 0
    assert bound.max() <= whole
    assert bound.min() < 0.5 * whole
