"""The prototype kernel of bench_ur_blocks.py: the plainest tight sweep of the same work.

One Gauss-Seidel sweep along a fixed policy of the largest block, on one core: each
position reads its throws' chosen successors (an int32 code each, ``2 * place + passes``)
and its fixed part, and writes its value. No pairs of twins, no stages, no threads: what
a straightforward compiled loop costs per position-update on this machine, at this size.
The block solver's figures are divided by it, so that a ratio means the same on a fast
machine and on a slow or busy one.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from gamegraph.games.ur import block_solver, sweeps


@numba.njit(cache=True)
def _sweep(local, fixed, codes, probabilities, passing):  # pragma: no cover - compiled
    change = 0.0
    for i in range(len(local)):
        total = fixed[i]
        for k in range(codes.shape[1]):
            code = codes[i, k]
            if code >= 0:
                value = local[code >> 1]
                total += probabilities[k] * (1.0 - value if code & 1 else value)
        total += passing[i] * (1.0 - local[i ^ 1])
        change = max(change, abs(total - local[i]))
        local[i] = total
    return change


def first_policy(numbering, values):
    """The largest block of ``numbering`` along the policy of one full sweep of the block
    solver, as :func:`_sweep` reads it: ``(local, fixed, codes, probabilities, passing)``,
    a row per side of each item (``local`` the full sweep's values, ``codes`` the chosen
    successors, ``passing`` the chance that the turn passes to the twin ``i ^ 1``);
    ``values`` holds the blocks it leads to."""
    t = numbering.tables
    block = max(numbering.blocks, key=lambda b: b.size)
    plan = block_solver.sweep_plan(numbering, block)
    work = block_solver._block_arrays(numbering, block, plan)
    n = len(plan.order)
    stages = block_solver.sweep_stages(plan.levels, n)
    sweeps.full_sweep(stages, values, work, t, 1, n)
    codes = work.choices.reshape(2 * n, -1)
    moving = t.throws != 0
    probabilities = np.ascontiguousarray(t.probabilities[moving], dtype=np.float64)
    passing = np.where(codes == sweeps.NO_MOVE, probabilities, 0.0).sum(axis=1)
    passing += t.probabilities[~moving].sum()
    return work.local.copy(), work.fixed.reshape(-1).copy(), codes, probabilities, passing


def prototype_ns(numbering, values, sweeps_run: int = 10) -> float:
    """Nanoseconds per position-update of :func:`_sweep` on the largest block of
    ``numbering``, along the policy of one full sweep of the block solver (best of
    ``sweeps_run``), ``values`` holding the blocks it leads to."""
    local, fixed, codes, probabilities, passing = first_policy(numbering, values)
    _sweep(local, fixed, codes, probabilities, passing)  # compile, warm the caches
    best = np.inf
    for _ in range(sweeps_run):
        started = time.perf_counter()
        _sweep(local, fixed, codes, probabilities, passing)
        best = min(best, time.perf_counter() - started)
    return 1e9 * best / len(local)
