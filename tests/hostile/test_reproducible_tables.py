"""Issue 24, item 7: the block solver's table is the same, byte for byte, whatever the
number of threads.

Before, the cores shared stages of several progress levels, and a position read values
that the other core was writing in the same sweep, in an order that depended on timing:
two 4-piece runs on two threads differed in about 900,000 of 2.6 million values (at most
8e-12), so their digests differed. Now the cores share only whole levels, whose
positions never lead to each other (:func:`gamegraph.games.ur.block_solver.sweep_stages`).

At 3 pieces few levels are large enough to be shared by default, so these tests share
every level of more than 64 items (``SHARED_LEVEL`` and ``SHARED_FULL``). With the old
stages and a threshold as small, a finkel 3 solve on two threads differed from one on
one thread in 252,153 of 263,121 values (at most 8e-11), and from another on two
threads too.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from gamegraph.games.ur import block_solver, rule_set
from gamegraph.games.ur.rank import Numbering

#: `make test-fast` leaves these out: Ur solved twice, one thread and two.
pytestmark = pytest.mark.heavy

numba = pytest.importorskip("numba")

#: Levels of more items than this are shared by the cores in these tests.
SMALL_SHARE = 64


def _digest(values: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()


@pytest.fixture
def share_small_levels(monkeypatch):
    monkeypatch.setattr(block_solver, "SHARED_LEVEL", SMALL_SHARE)
    monkeypatch.setattr(block_solver, "SHARED_FULL", SMALL_SHARE)


def test_small_levels_are_shared_in_these_tests():
    numbering = Numbering(rule_set("finkel", 3))
    block = max(numbering.blocks, key=lambda b: b.size)
    plan = block_solver.sweep_plan(numbering, block)
    stages = block_solver.sweep_stages(plan.levels, SMALL_SHARE)
    shared = np.diff(stages) > SMALL_SHARE
    assert shared.sum() > 50  # the cores share many levels: races would show
    # every stage the cores share is a single progress level
    assert set(stages[1:][shared].tolist()) <= set(plan.levels.tolist())
    assert all(np.searchsorted(plan.levels, high) - np.searchsorted(plan.levels, low) == 1
               for low, high in zip(stages[:-1][shared], stages[1:][shared]))  # fmt: skip


@pytest.mark.parametrize("name", ["finkel", "masters"])
def test_one_thread_and_two_give_the_same_bytes(name, share_small_levels):
    one = block_solver.solve_blocks(name, 3, tol=1e-10, threads=1, progress=False)
    digests = {_digest(one.values)}
    for _ in range(2):
        two = block_solver.solve_blocks(name, 3, tol=1e-10, threads=2, progress=False)
        digests.add(_digest(two.values))
        assert np.array_equal(one.values, two.values), (
            f"{(one.values != two.values).sum():,} values differ, by at most "
            f"{np.abs(one.values - two.values).max():.1e}"
        )
    assert len(digests) == 1
    assert [b.policy_sweeps for b in one.blocks] == [b.policy_sweeps for b in two.blocks]


def test_a_block_solved_alone_is_the_same(share_small_levels):
    """The unit of work of the Dask graph, on two threads, against the whole solve."""
    whole = block_solver.solve_blocks("finkel", 3, tol=1e-10, threads=1, progress=False)
    numbering = whole.numbering
    values = whole.values.copy()
    block = numbering.blocks[-1]  # the start's block, needing every other one
    values[block.start : block.stop] = np.nan
    block_solver.solve_block(numbering, block, values, tol=1e-10, threads=2)
    assert np.array_equal(values, whole.values)


def _cli_table(tmp_path, threads: int, name: str) -> bytes:
    """``gamegraph ur solve --pieces 3 --save`` in a process of its own, numba given
    ``threads`` threads by NUMBA_NUM_THREADS, small levels shared."""
    path = tmp_path / name
    code = (
        "import sys\n"
        "from gamegraph.games.ur import block_solver\n"
        f"block_solver.SHARED_LEVEL = block_solver.SHARED_FULL = {SMALL_SHARE}\n"
        "from gamegraph.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    done = subprocess.run(
        [sys.executable, "-c", code, "ur", "solve", "--pieces", "3", "--save", str(path),
         "--quiet"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return path.read_bytes()


def test_saved_tables_are_byte_identical_for_any_thread_count(tmp_path):
    one = _cli_table(tmp_path, 1, "one.npy")
    three = _cli_table(tmp_path, 3, "three.npy")
    assert len(one) > 8 * 263_121
    assert one == three


@pytest.mark.slow
def test_two_four_piece_solves_save_the_same_bytes(tmp_path):
    """The issue's check, with the default settings: two `ur solve --pieces 4 --save`."""
    tables = []
    for i in range(2):
        path = tmp_path / f"finkel4-{i}.npy"
        done = subprocess.run(
            [sys.executable, "-m", "gamegraph", "ur", "solve", "--pieces", "4", "--save",
             str(path), "--quiet"],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        tables.append(path.read_bytes())
    assert tables[0] == tables[1]
