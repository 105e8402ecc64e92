#!/usr/bin/env python
"""The Ur block solver (gamegraph.games.ur.block_solver) from 4 to 7 pieces, against the
explicit graph where that runs.

Each solve runs in a child process of its own (``python -c``), which reports its own peak
RSS (``resource.getrusage(RUSAGE_SELF).ru_maxrss``), so that a crash or an out-of-memory
kill ends one row, not the benchmark. Times are wall times including
start-up and compilation (the numba cache is warmed by a 1-piece solve first). The
explicit graph (``gamegraph.solve(gamegraph.build(Ur(...)))``, numba engine) runs up
to ``--graph-max`` pieces (4 by default: 2.6 million positions, about 3 GiB); the ratio
is its time over the block solver's.

a. finkel, ``--pieces`` (default 4 5 6 7) at ``ur solve``'s tolerance (``--tol``, 1e-10),
   solved into a table file as ``ur solve --save FILE.npy`` does (``solve_file``: a block's
   values given back once no block left needs them): time, peak RSS, sweeps per position,
   the start value to 12 digits, checked against the published 0.515404732509 at 7.
b. ``--agree``: the block solver against the explicit graph on every position, 4 pieces,
   every rule set, with the tests' comparison (``tests/ur_agree.py``; ``make test-slow``
   runs the same as tests): the largest difference and the start values' must be at
   most 1e-12.
c. ``--published``: blitz 5 and masters 7 against their published start values.

Usage::

    nice -n 5 python benchmarks/bench_ur_blocks.py                  # 4 to 7 pieces
    nice -n 5 python benchmarks/bench_ur_blocks.py --pieces 4 5     # the quick part
    nice -n 5 python benchmarks/bench_ur_blocks.py --pieces --agree # 4 pieces, 4 rule sets

Exit status 1 if a value check fails; a missed time or memory target is printed as
MISSED without failing the run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import GIB, fmt_bytes, fmt_time, met  # noqa: E402

from gamegraph.games.ur.defaults import BLOCKS_TOL  # noqa: E402

PUBLISHED = {
    ("finkel", 7): 0.515404732509,
    ("blitz", 5): 0.504052555093,
    ("masters", 7): 0.504809002027,
}
#: Targets of issue 30 (wall seconds, core-seconds, bytes), finkel 7 and masters 7.
TARGETS = {("finkel", 7): (300, 500, 2 * GIB), ("masters", 7): (15 * 60, None, 8 * GIB)}

BLOCKS = """
import json, os, resource, sys, tempfile
sys.path.insert(0, {here!r})
from gamegraph.games.ur.block_solver import solve_file
with tempfile.TemporaryDirectory() as folder:  # as `ur solve --save FILE.npy` solves
    s = solve_file(os.path.join(folder, "t.npy"), {rules!r}, {pieces}, tol={tol}, progress=None)
    use = resource.getrusage(resource.RUSAGE_SELF)
    found = {{"start": s.start_value, "sweeps": s.sweeps, "positions": len(s.values),
             "rss": use.ru_maxrss, "cpu": use.ru_utime + use.ru_stime, "solve": s.seconds,
             "phases": s.phases()}}
    if {prototype!r}:
        from _ur_prototype import prototype_ns
        found["prototype_ns"] = prototype_ns(s.numbering, s.values)
print(json.dumps(found))
"""
GRAPH = """
import json, resource
from gamegraph import build, solve
from gamegraph.games.ur import Ur
s = solve(build(Ur({rules!r}, pieces={pieces})), engine="numba")
print(json.dumps({{"start": float(s.start_value), "positions": s.graph.n_states - 1,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""
#: The comparison is the tests' own (tests/ur_agree.py), run in a child for its peak RSS.
AGREE = """
import json, resource, sys
sys.path.insert(0, {tests!r})
from ur_agree import agreement
found = agreement({rules!r}, {pieces})
print(json.dumps({{"positions": found.positions, "gap": found.gap,
                  "start_gap": found.start_gap,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""
TESTS = os.path.join(os.path.dirname(HERE), "tests")


def child(code: str) -> tuple[float, int, dict]:
    """(seconds, peak RSS bytes, JSON printed) of ``code`` run in a fresh interpreter."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise RuntimeError(f"child failed ({done.returncode}): {done.stderr[-2000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return seconds, found.get("rss", 0) * 1024, found


def blocks_code(rules: str, pieces: int, tol: float, prototype: bool = False) -> str:
    """The child's code: solve, report, and time the prototype kernel when asked."""
    return BLOCKS.format(here=HERE, rules=rules, pieces=pieces, tol=tol, prototype=prototype)


def print_phases(found: dict) -> None:
    """Where the time went, phase by phase, in ns per position-update (wall and CPU of
    both cores), and the whole solve's CPU per update as a multiple of the prototype's."""
    updates = cpu = 0
    for row in found["phases"]:
        updates += row["updates"] if row["phase"] in ("full", "policy", "improve") else 0
        cpu += row["cpu"]
        print(f"       {row['phase']:<8} {row['wall']:8.1f} s wall {row['cpu']:8.1f} s CPU "
              f"{row['updates']:>15,} updates {row['ns_wall']:7.1f} ns wall "
              f"{row['ns_cpu']:7.1f} ns CPU per update")  # fmt: skip
    proto = found.get("prototype_ns")
    whole = 1e9 * cpu / updates if updates else 0.0
    line = (f"       the solve: {cpu:.1f} core-seconds ({found['cpu']:.1f} with start-up), "
            f"{whole:.1f} ns CPU per update")  # fmt: skip
    if proto:
        line += f"; prototype kernel {proto:.1f} ns per update (one core): {whole / proto:.2f}x"
    print(line, flush=True)


def print_targets(target: tuple, seconds: float, cpu: float, peak: int) -> None:
    """Each target of issue 30, met or MISSED."""
    wall, core, memory = target
    parts = [f"{fmt_time(wall)} wall: {met(seconds < wall)}"]
    if core is not None:
        parts.append(f"{core} core-seconds: {met(cpu < core)}")
    parts.append(f"{fmt_bytes(memory)}: {met(peak < memory)}")
    print("       target " + "; ".join(parts))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pieces", type=int, nargs="*", default=[4, 5, 6, 7])
    parser.add_argument("--graph-max", type=int, default=4)
    parser.add_argument("--tol", type=float, default=BLOCKS_TOL, help="as `ur solve` (1e-10)")
    parser.add_argument("--agree", action="store_true")
    parser.add_argument("--published", action="store_true")
    args = parser.parse_args(argv)
    failed = False
    child(blocks_code("finkel", 1, args.tol))  # compile once, cached

    print("a. finkel, block solver against the explicit graph (child processes)")
    print(f"{'pieces':>6} {'positions':>12} {'time':>9} {'RSS':>9} {'sweeps':>7} "
          f"{'start':>15} {'graph':>9} {'RSS':>9} {'ratio':>6}")  # fmt: skip
    for pieces in args.pieces:
        seconds, peak, found = child(blocks_code("finkel", pieces, args.tol, prototype=True))
        row = (f"{pieces:>6} {found['positions']:>12,} {fmt_time(seconds):>9} "
               f"{fmt_bytes(peak):>9} {found['sweeps']:>7.1f} "
               f"{found['start']:>15.12f}")  # fmt: skip
        if pieces <= args.graph_max:
            g_seconds, g_peak, g_found = child(GRAPH.format(rules="finkel", pieces=pieces))
            row += f" {fmt_time(g_seconds):>9} {fmt_bytes(g_peak):>9} {g_seconds / seconds:>6.1f}"
            if abs(g_found["start"] - found["start"]) > max(args.tol, 1e-12):
                row += "  START VALUES DIFFER"
                failed = True
        print(row, flush=True)
        print_phases(found)
        published = PUBLISHED.get(("finkel", pieces))
        if published is not None:
            ok = abs(found["start"] - published) < 1e-9
            failed |= not ok
            print(f"       published {published:.12f}: {'agrees' if ok else 'DIFFERS'} to 1e-9")
        if ("finkel", pieces) in TARGETS:
            print_targets(TARGETS["finkel", pieces], seconds, found["cpu"], peak)

    if args.agree:
        print("\nb. block solver against the explicit graph, 4 pieces, every position")
        for rules in ("finkel", "masters", "blitz", "aseb"):
            seconds, peak, found = child(AGREE.format(tests=TESTS, rules=rules, pieces=4))
            ok = found["gap"] <= 1e-12 and found["start_gap"] <= 1e-12
            failed |= not ok
            print(f"   {rules:<8} {found['positions']:>10,} positions  largest difference "
                  f"{found['gap']:.1e} (start {found['start_gap']:.1e})  {fmt_time(seconds)}  "
                  f"{fmt_bytes(peak)}  {'ok' if ok else 'FAILED'}",
                  flush=True)  # fmt: skip

    if args.published:
        print("\nc. published start values")
        for (rules, pieces), published in PUBLISHED.items():
            if rules == "finkel":
                continue
            seconds, peak, found = child(blocks_code(rules, pieces, args.tol))
            ok = abs(found["start"] - published) < 1e-9
            failed |= not ok
            print(
                f"   {rules} {pieces}: {found['start']:.12f} (published {published:.12f}) "
                f"{'agrees' if ok else 'DIFFERS'}; {fmt_time(seconds)}, {fmt_bytes(peak)}, "
                f"{found['cpu']:.0f} core-seconds"
            )
            if (rules, pieces) in TARGETS:
                print_targets(TARGETS[rules, pieces], seconds, found["cpu"], peak)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
