#!/usr/bin/env python
"""BLAS threads during a solve: gamegraph's default against one BLAS thread, under CPU load.

Machines are noisy, so every time is printed next to a baseline measured in the same
process, in the same round, under the same load: here the baseline is the solve with
``blas_threads=1``. Times are wall times (``time.perf_counter``, ``gc.collect()`` before
each) of ``solve(graph, ...)`` on finkel Ur with 3 pieces (263,122 states), the graph
built and solved once before the timing starts.

Four ways to run the same solve:

* default: ``solve(graph)``, gamegraph's default limit (one thread, or
  ``GAMEGRAPH_BLAS_THREADS`` if set: the script says which);
* 1 thread: ``solve(graph, blas_threads=1)``, the baseline;
* 2 threads: ``solve(graph, blas_threads=2)``;
* no limit: gamegraph's threadpoolctl limit switched off, so BLAS uses the thread count
  it chose at start-up, one per core (gamegraph before the limit).

Every round runs default and 1 thread back to back, so that the two see the same load,
the first of them alternating from round to round. The slow ways, 2 threads and no
limit, run in the first ``--slow-rounds`` rounds only (default 2), after the pair in even
rounds and before it in odd ones, also alternating between themselves.

a. Under load: ``--load`` busy-loop processes (default 2, one per core of the project's
   machine) spin for the whole section, so every BLAS thread competes for a core.
b. Without added load, for reference (whatever else the machine is running): half
   the rounds.

The process is not pinned to one CPU: OpenBLAS sizes its thread pool from the CPUs the
process may use, and pinning would hide what is measured. The printed ratio is a time
over the 1-thread time, from the best of the rounds, with the median of the per-round
ratios beside it. Target: default / 1 thread at most 1.1 under load.

Usage::

    python benchmarks/bench_blas.py            # full run, 3 pieces, 5 rounds: 3 to 10 min
    python benchmarks/bench_blas.py --quick    # smoke run, 2 pieces, 1 round: about 5 s

Exit status 1 if a correctness check fails: a way whose BLAS may run on several threads
gives values more than 1e-12 from the 1-thread reference, or the default differs from it
at all (unless ``GAMEGRAPH_BLAS_THREADS`` raises the default). A missed target is printed
as MISSED but does not fail the run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time

import _common as common
from _common import Checks, fmt_time, met, timed

RULES = "finkel"
TARGET = 1.1  # default / 1 thread under load
WAYS = ("default", "1 thread", "2 threads", "no limit")
# Ways that may run BLAS on several threads: OpenBLAS then splits long dot products, which
# changes the rounding, so their values are checked to a tolerance; the others bit for bit.
THREADED = ("2 threads", "no limit")
VALUE_TOL = 1e-12
# A busy loop that ends by itself after argv[1] seconds, should this script die first.
SPIN = (
    "import sys, time\n"
    "end = time.monotonic() + float(sys.argv[1])\n"
    "while time.monotonic() < end: pass"
)
SPIN_SAFETY = 3600.0  # seconds


@contextlib.contextmanager
def cpu_load(processes: int):
    """``processes`` busy-loop child processes for the duration of the block."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", SPIN, str(SPIN_SAFETY)]) for _ in range(processes)
    ]
    try:
        time.sleep(0.5 if processes else 0)  # let them start spinning
        yield spinners
    finally:
        for p in spinners:
            p.terminate()
        for p in spinners:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@contextlib.contextmanager
def _no_limit(*args, **kwargs):
    yield


def runner(graph, way: str):
    """A no-argument function that solves ``graph`` the given way."""
    import gamegraph._threads
    from gamegraph import solve

    if way == "default":
        return lambda: solve(graph)
    if way == "1 thread":
        return lambda: solve(graph, blas_threads=1)
    if way == "2 threads":
        return lambda: solve(graph, blas_threads=2)

    def unlimited():
        saved = gamegraph._threads.threadpool_limits
        gamegraph._threads.threadpool_limits = _no_limit
        try:
            return solve(graph)
        finally:
            gamegraph._threads.threadpool_limits = saved

    return unlimited


def blas_libraries() -> str:
    from threadpoolctl import threadpool_info

    pools = [p for p in threadpool_info() if p["user_api"] == "blas"]
    if not pools:
        return "no BLAS library found by threadpoolctl"
    return "; ".join(
        f"{p['prefix']} {p['version']} ({p['internal_api']}, {p['num_threads']} threads)"
        for p in pools
    )


def load_average() -> str:
    try:
        return ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def order_of(r: int, slow_rounds: int):
    """The ways run in round ``r`` (from 0), in order."""
    pair = ("default", "1 thread") if r % 2 == 0 else ("1 thread", "default")
    if r >= slow_rounds:
        return pair
    slow = ("2 threads", "no limit") if r % 2 == 0 else ("no limit", "2 threads")
    return pair + slow if r % 2 == 0 else slow + pair


def section(title, graph, load, rounds, slow_rounds, reference, check, summary, tag):
    """Time the four ways under ``load`` spinners; print and summarise."""
    import numpy as np

    from gamegraph._threads import blas_threads

    threaded = THREADED + (("default",) if blas_threads() > 1 else ())
    print(f"\n{title}")
    times = {way: [] for way in WAYS}
    worst, changed = dict.fromkeys(WAYS, 0.0), dict.fromkeys(WAYS, 0)
    with cpu_load(load):
        print(f"   load average at the start: {load_average()}")
        for r in range(rounds):
            line = []
            for way in order_of(r, slow_rounds):
                seconds, solution = timed(runner(graph, way))
                times[way].append(seconds)
                line.append(f"{way} {fmt_time(seconds)}")
                diff = float(np.max(np.abs(solution.values - reference.values)))
                moves = int(np.count_nonzero(solution.policy.choice != reference.policy.choice))
                worst[way] = max(worst[way], diff)
                changed[way] = max(changed[way], moves)
                check(
                    diff <= VALUE_TOL if way in threaded else diff == 0 and moves == 0,
                    f"{tag} {way}: the values of the 1-thread reference"
                    + (f" within {VALUE_TOL:g}" if way in threaded else ", bit for bit"),
                )
            print(f"   round {r + 1}: " + ", ".join(line))
        print(f"   load average at the end: {load_average()}")
    print(
        "   against the 1-thread reference: "
        + "; ".join(
            f"{way} max |dv| {worst[way]:.2g}, {changed[way]} choices differ" for way in WAYS
        )
    )
    one = times["1 thread"]
    print(f"   {'way':<10} {'best':>9} {'median':>9} {'best / 1 thread':>16} {'median ratio':>13}")
    ratios = {}
    for way in WAYS:
        best = min(times[way]) / min(one)
        paired = statistics.median(t / o for t, o in zip(times[way], one))
        ratios[way] = best
        print(
            f"   {way:<10} {fmt_time(min(times[way])):>9} "
            f"{fmt_time(statistics.median(times[way])):>9} {best:>16.2f} {paired:>13.2f}"
        )
        if way != "1 thread":
            summary.append(
                (
                    f"{tag} {way}",
                    fmt_time(min(times[way])),
                    fmt_time(min(one)),
                    f"{best:.2f}",
                    f"time; median {paired:.2f}",
                )
            )
    return ratios


def main(argv=None) -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--quick", action="store_true", help="smoke run: 2 pieces, 1 round")
    options.add_argument("--repeat", type=int, default=None, help="rounds in section a")
    options.add_argument(
        "--slow-rounds",
        type=int,
        default=2,
        help="rounds that also run 2 threads and no limit (default 2)",
    )
    options.add_argument("--pieces", type=int, default=None, help="pieces per side")
    options.add_argument(
        "--load", type=int, default=2, help="busy-loop processes in section a (default 2)"
    )
    args = options.parse_args(argv)
    rounds = max(1, args.repeat or (1 if args.quick else 5))
    pieces = args.pieces or (2 if args.quick else 3)

    import gamegraph
    from gamegraph import solve
    from gamegraph._threads import ENV_VAR, blas_threads
    from gamegraph.games.ur import Ur

    common.header(
        "BLAS threads",
        args.quick,
        "not pinned (OpenBLAS sizes its pool from the CPUs the process may use)",
    )
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{cpus} CPUs available; BLAS: {blas_libraries()}")
    setting = os.environ.get(ENV_VAR)
    print(
        f"default limit: {blas_threads()} BLAS thread(s)"
        + (f" ({ENV_VAR}={setting!r})" if setting else f" ({ENV_VAR} unset)")
    )
    check, summary = Checks(), []
    started = time.perf_counter()

    build_time, graph = timed(lambda: gamegraph.build(Ur(RULES, pieces=pieces)))
    solve_time, reference = timed(lambda: solve(graph, blas_threads=1))
    print(
        f"finkel, {pieces} pieces: {graph.n_states:,} states, built in {fmt_time(build_time)}, "
        f"first solve (condensation included) {fmt_time(solve_time)}, "
        f"start value {float(reference.start_value)!r}"
    )

    slow = max(1, min(args.slow_rounds, rounds))
    loaded = section(
        f"a. under load: {args.load} busy-loop processes, {rounds} round(s), "
        f"{slow} with the slow ways",
        graph,
        args.load,
        rounds,
        slow,
        reference,
        check,
        summary,
        f"a. load {args.load}:",
    )
    quiet = max(1, rounds // 2)
    section(
        f"b. no added load, {quiet} round(s), {min(slow, quiet)} with the slow ways",
        graph,
        0,
        quiet,
        min(slow, quiet),
        reference,
        check,
        summary,
        "b. no load:",
    )
    print(
        f"\ntarget: under load, default / 1 thread <= {TARGET}: "
        f"{loaded['default']:.2f}, {met(loaded['default'] <= TARGET)}"
    )
    return common.finish(
        summary,
        legend="Summary. Each way's best time over the best 1-thread time of the same "
        "section (below 1:\nfaster than one thread); the median of the per-round ratios "
        "beside it.",
        widths=(26, 10, 10, 6, 20),
        check=check,
        started=started,
    )


if __name__ == "__main__":
    sys.exit(main())
