#!/usr/bin/env python
"""Ways to evaluate one policy of Ur's largest block, on one core: what issue 30 asked to
try beside the block solver's Gauss-Seidel sweeps, measured and not kept.

The game (finkel, ``--pieces``, 5 by default) is solved into a table file first, as
``ur solve --save`` does; then its largest block is taken along the policy of one full
sweep (``_ur_prototype.first_policy``) and that policy is evaluated from the full
sweep's values to ``--tol / 2`` (1e-10 / 2, ``ur solve``'s) in four ways:

a. Gauss-Seidel sweeps in float64 (the prototype kernel; the solver's policy sweeps do the
   same work): the reference, and the time a sweep costs.
b. float32 sweeps until the largest change is below 1e-5 (or 1e-6), then float64 sweeps
   to the end: whether half the bytes a value make a sweep cheaper.
c. BiCGSTAB (scipy) on the same linear system, from the same values, with ``rtol`` 1e-10
   and 1e-12: a sparse linear solve per policy.
d. The share of positions whose value still moves by more than the tolerance, sweep by
   sweep: what a residual-driven sweep could skip at best.

Each line gives the time against (a) and the largest difference from (a)'s values.

Usage::

    python benchmarks/bench_ur_evaluation.py              # finkel 5, about 1.5 min
    python benchmarks/bench_ur_evaluation.py --pieces 6   # docs/performance.md's, about 5 min
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as sla  # noqa: E402
from _ur_prototype import _sweep, first_policy  # noqa: E402

from gamegraph._threads import limit_blas  # noqa: E402
from gamegraph.games.ur.block_solver import solve_file  # noqa: E402
from gamegraph.games.ur.defaults import BLOCKS_TOL  # noqa: E402


def sweep_until(local, fixed, codes, probabilities, passing, target, most=10_000, moved=None):
    """Sweep until the largest change is below ``target``: (sweeps, seconds). ``moved``,
    a list, gets the share of values that moved by more than ``target`` in each sweep."""
    sweeps, started = 0, time.perf_counter()
    while True:
        before = None if moved is None else local.copy()
        change = _sweep(local, fixed, codes, probabilities, passing)
        sweeps += 1
        if moved is not None:
            moved.append(float((np.abs(local - before) > target).mean()))
        if change < target or sweeps >= most:
            return sweeps, time.perf_counter() - started


def linear_system(fixed, codes, probabilities, passing):
    """``(A, b)`` with ``A v = b`` the fixed point of :func:`_sweep`:
    ``v_i = fixed_i + sum_k p_k (v_c or 1 - v_c) + passing_i (1 - v_(i^1))``."""
    rows = np.arange(len(fixed))
    parts_r, parts_c, parts_v = [rows, rows], [rows, rows ^ 1], [np.ones(len(fixed)), passing]
    b = fixed + passing
    for k, p in enumerate(probabilities):
        code = codes[:, k].astype(np.int64)
        chosen = code >= 0
        turn = (code & 1) == 1
        parts_r.append(rows[chosen])
        parts_c.append(code[chosen] >> 1)
        parts_v.append(np.where(turn[chosen], p, -p))
        b = b + np.where(chosen & turn, p, 0.0)
    matrix = sp.csr_matrix(
        (np.concatenate(parts_v), (np.concatenate(parts_r), np.concatenate(parts_c))),
        shape=(len(fixed), len(fixed)),
    )
    return matrix, b


def bicgstab(matrix, b, start, rtol):
    """(solution, scipy's info, iterations, seconds) of BiCGSTAB from ``start``."""
    steps = []
    started = time.perf_counter()
    solution, info = sla.bicgstab(
        matrix, b, x0=start.copy(), rtol=rtol, atol=0.0, maxiter=5_000,
        callback=lambda _: steps.append(1),
    )  # fmt: skip
    return solution, info, len(steps), time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pieces", type=int, default=5)
    parser.add_argument("--tol", type=float, default=BLOCKS_TOL, help="as `ur solve` (1e-10)")
    args = parser.parse_args(argv)
    target = args.tol / 2
    with tempfile.TemporaryDirectory() as folder:
        solved = solve_file(os.path.join(folder, "t.npy"), "finkel", args.pieces, progress=None)
        start, fixed, codes, probabilities, passing = first_policy(solved.numbering, solved.values)
    policy = (fixed, codes, probabilities, passing)
    print(f"finkel {args.pieces}, largest block: {len(start):,} positions, one core, "
          f"from one full sweep's values to {target:g}")  # fmt: skip
    _sweep(start.astype(np.float32), fixed.astype(np.float32), codes, probabilities, passing)

    reference = start.copy()
    count, seconds = sweep_until(reference, *policy, target)
    per = seconds / count
    print(f"a. float64 Gauss-Seidel: {count} sweeps, {seconds:.2f} s "
          f"({1e9 * per / len(start):.1f} ns a position-update)")  # fmt: skip

    def report(label, seconds, values):
        gap = np.abs(values - reference).max()
        print(f"{label}: {seconds:.2f} s, {seconds / (count * per):.2f} of a, "
              f"largest difference {gap:.1e}", flush=True)  # fmt: skip

    for switch in (1e-5, 1e-6):
        small = start.astype(np.float32)
        first, t32 = sweep_until(small, fixed.astype(np.float32), codes, probabilities, passing,
                                 switch, most=1_000)  # fmt: skip
        wide = small.astype(np.float64)
        second, t64 = sweep_until(wide, *policy, target)
        report(f"b. float32 to {switch:g} ({first} sweeps, {1e9 * t32 / first / len(start):.1f} "
               f"ns), then float64 ({second} sweeps)", t32 + t64, wide)  # fmt: skip

    built = time.perf_counter()
    matrix, b = linear_system(*policy)
    built = time.perf_counter() - built
    print(f"c. the system: {matrix.nnz:,} entries, built in {built:.1f} s (not counted below)")
    for rtol in (1e-10, 1e-12):
        solution, info, steps, seconds = bicgstab(matrix, b, start, rtol)
        report(f"c. BiCGSTAB, rtol {rtol:g} ({steps} iterations, info {info})", seconds, solution)

    moved = []
    sweep_until(start.copy(), *policy, target, moved=moved)
    marks = {i: moved[i - 1] for i in (1, 10, 20, 30, 40, 50, len(moved)) if i <= len(moved)}
    print("d. share of positions moving by more than the tolerance, by sweep: "
          + ", ".join(f"{i}: {share:.1%}" for i, share in marks.items())
          + f"; {np.mean(moved):.1%} of the updates in all")  # fmt: skip
    return 0


if __name__ == "__main__":
    with limit_blas(1):  # one core, scipy's products included
        raise SystemExit(main())
