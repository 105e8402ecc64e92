#!/usr/bin/env python
"""Super Six benchmarks: gamegraph against baselines run in the same process.

Machines are noisy, so every figure is printed next to a baseline measured in the same
run, and the ratio between the two is what to compare across machines. Times are the
best of a few repeats (``time.perf_counter``, ``gc.collect()`` before each).

a. Float solve, graph building included, for 40 and 130 pegs (in this process,
   tracemalloc peak) and 1,000 pegs (about 3 million positions, in a child process
   whose peak RSS is read with ``resource.getrusage(RUSAGE_CHILDREN)``).
b. A plain-Python baseline: dict-based Gauss-Seidel value iteration over the
   P_roll / P_end / P_choice equations, to a sweep change below 1e-12, for 40 and
   130 pegs (130 is abandoned after 60 s); time ratio and largest value difference.
c. The mixed-integer program of :func:`gamegraph.mathprog.milp` (one binary per
   choosable option, HiGHS through scipy) against ``solve`` for 20 and 40 pegs.
d. Exact rational solves of 15 pegs (hands 8 and 7, the largest size solved in Jehn's
   paper) and 16 pegs (hands 8 and 8, where the paper ran out of memory), with the
   13-peg strategy string checked.

Usage::

    python benchmarks/bench_supersix.py            # full run, about two minutes
    python benchmarks/bench_supersix.py --quick    # smoke run, under 10 s

Exit status 1 if a correctness check fails (values differ, a strategy string is wrong);
missed speed or memory targets are printed as MISSED but do not fail the run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import time

import _common as common
from _common import GIB, Checks, best_of, fmt_bytes, fmt_time, maxrss_bytes, met, timed, traced_peak

# The optimal decisions with 13 pegs in play (digit order: gamegraph.games.supersix.notation).
# Jehn's paper prints one more 0 in the last group, a misprint
# (tests/games/supersix/test_supersix.py).
STRATEGY_13 = "(1111111111/1111111111/111000111/00000000/0000000)"
SOCKETS = 5
BASELINE_TOL = 1e-12
BASELINE_BUDGET = 60.0  # seconds; the 130-peg baseline is abandoned past this
MILP_TIME_LIMIT = 600.0  # seconds HiGHS may spend per MILP


# ---------------------------------------------------------------------------------
# Baseline: plain Python written straight from the equations, no gamegraph involved.
# ---------------------------------------------------------------------------------


def baseline_positions(pegs: int) -> list[tuple[int, int, int]]:
    """Every (b, c, o) with b <= 5, c, o >= 1, b + c + o <= pegs, fewest pegs first."""
    return [
        (b, c, total - b - c)
        for total in range(2, pegs + 1)
        for b in range(min(SOCKETS, total - 2) + 1)
        for c in range(1, total - b)
    ]


def baseline_solve(
    pegs: int, tol: float = BASELINE_TOL, budget: float | None = None, max_sweeps: int | None = None
):
    """P_roll for every position by Gauss-Seidel value iteration.

    P_roll(b, c, o) = (5-b)/6 P_choice(b+1, c-1, o) + b/6 P_end(b-1, c+1, o)
                      + 1/6 P_choice(b, c-1, o),
    P_end(b, c, o) = 1 - P_roll(b, o, c), P_choice = max(P_roll, P_end), and
    P_choice(b, 0, o) = 1. Sweeps update the dict in place until no value moves by
    ``tol`` or more. Returns (dict or None if stopped early, sweeps).
    """
    positions = baseline_positions(pegs)
    roll = dict.fromkeys(positions, 0.5)

    def choice(b, c, o):
        if c == 0:
            return 1.0
        keep_rolling = roll[b, c, o]
        stop = 1.0 - roll[b, o, c]
        return keep_rolling if keep_rolling > stop else stop

    started = time.perf_counter()
    sweeps = 0
    while True:
        sweeps += 1
        change = 0.0
        for position in positions:
            b, c, o = position
            new = choice(b, c - 1, o) / 6
            if b < SOCKETS:
                new += (SOCKETS - b) / 6 * choice(b + 1, c - 1, o)
            if b > 0:
                new += b / 6 * (1.0 - roll[b - 1, o, c + 1])
            moved = abs(new - roll[position])
            if moved > change:
                change = moved
            roll[position] = new
        if change < tol:
            return roll, sweeps
        if max_sweeps is not None and sweeps >= max_sweeps:
            return roll, sweeps
        if budget is not None and time.perf_counter() - started > budget:
            return None, sweeps


# ---------------------------------------------------------------------------------
# gamegraph side (imported in main, after the process is pinned)
# ---------------------------------------------------------------------------------

gg = None  # namespace filled by _import_gamegraph


def _import_gamegraph():
    global gg
    import numpy

    from gamegraph import build, solve
    from gamegraph.games.supersix import (
        SixState,
        SuperSix,
        count_states,
        decision_table,
        strategy_string,
    )

    gg = argparse.Namespace(
        numpy=numpy,
        build=build,
        solve=solve,
        SuperSix=SuperSix,
        SixState=SixState,
        count_states=count_states,
        decision_table=decision_table,
        strategy_string=strategy_string,
    )
    gg.solve(gg.build(gg.SuperSix(pegs=10)))  # warm: lazy imports are not timed


def gamegraph_solve(exact: bool = False, **game):
    return gg.solve(gg.build(gg.SuperSix(**game)), exact=exact)


# ---------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------
# Child process: one large float solve, its own RSS
# ---------------------------------------------------------------------------------


def child(pegs: int) -> int:
    """Solve ``pegs`` pegs (build included) and print one JSON line of figures."""
    _import_gamegraph()
    gc.collect()
    rss_imports = maxrss_bytes(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    graph = gg.build(gg.SuperSix(pegs=pegs))
    t1 = time.perf_counter()
    solution = gg.solve(graph)
    t2 = time.perf_counter()
    print(
        json.dumps(
            {
                "pegs": pegs,
                "states": graph.n_states - 1,
                "build": t1 - t0,
                "solve": t2 - t1,
                "seconds": t2 - t0,
                "residual": solution.residual,
                "iterations": solution.iterations,
                "start_value": float(solution.start_value),
                "graph_bytes": graph.nbytes,
                "rss_imports": rss_imports,
                "rss_peak": maxrss_bytes(resource.RUSAGE_SELF),
            }
        )
    )
    return 0


def run_child(pegs: int) -> dict:
    before = maxrss_bytes(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", str(pegs)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"child for {pegs} pegs exited {done.returncode}: "
            + (done.stderr.strip().splitlines() or [""])[-1]
        )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["rss_children"] = maxrss_bytes(resource.RUSAGE_CHILDREN)
    figures["rss_children_before"] = before
    return figures


# ---------------------------------------------------------------------------------
# The benchmarks
# ---------------------------------------------------------------------------------

TARGETS = {40: 0.1, 130: 1.0, 1000: 30.0}


def bench_float(sizes, big, repeats, check, summary, results):
    print(f"\na. Float solve, build included (best of {repeats}; count excludes the WIN state)")
    print(
        f"   {'pegs':>5} {'positions':>10} {'time':>9} {'positions/s':>12} "
        f"{'peak (tracemalloc)':>19} {'bytes/pos':>9}  target"
    )
    for pegs in sizes:
        t, solution = best_of(lambda pegs=pegs: gamegraph_solve(pegs=pegs), repeats)
        n = solution.graph.n_states - 1
        check(n == gg.count_states(pegs), f"a: {pegs} pegs has {n} positions")
        check(solution.residual < 1e-12, f"a: {pegs} pegs residual {solution.residual:.2g}")
        _, peak = traced_peak(lambda pegs=pegs: gamegraph_solve(pegs=pegs))
        limit = TARGETS.get(pegs)
        target = f"under {fmt_time(limit)}: {met(t < limit)}" if limit else ""
        print(
            f"   {pegs:>5} {n:>10,} {fmt_time(t):>9} {n / t:>12,.0f} {fmt_bytes(peak):>19} "
            f"{peak / n:>9.0f}  {target}"
        )
        results[pegs] = {"time": t, "states": n, "peak": peak, "solution": solution}
        summary.append((f"a  float solve, {pegs} pegs", fmt_time(t), "", "", f"{n:,} positions"))
    if big is None:
        return
    print(f"   {big} pegs in a child process (one run):")
    try:
        f = run_child(big)
    except Exception as error:  # noqa: BLE001 - report and go on
        print(f"   {big} pegs: skipped ({type(error).__name__}: {error})")
        return
    n, t = f["states"], f["seconds"]
    check(n == gg.count_states(big), f"a: {big} pegs has {n} positions")
    check(f["residual"] < 1e-12, f"a: {big} pegs residual {f['residual']:.2g}")
    peak = f["rss_children"]
    extra = peak - f["rss_imports"]
    print(
        f"   {big:>5} {n:>10,} {fmt_time(t):>9} {n / t:>12,.0f}   (build {fmt_time(f['build'])}, "
        f"solve {fmt_time(f['solve'])}, {f['iterations']} policy rounds at most, "
        f"residual {f['residual']:.1e})"
    )
    print(
        f"         peak RSS {fmt_bytes(peak)} (getrusage RUSAGE_CHILDREN; the child's own "
        f"ru_maxrss {fmt_bytes(f['rss_peak'])}); after imports {fmt_bytes(f['rss_imports'])}, "
        f"so {extra / n:.0f} bytes per position; StateGraph arrays {f['graph_bytes'] / n:.0f} "
        "bytes per position"
    )
    print(f"         ratio peak RSS / RSS after imports: {peak / f['rss_imports']:.1f}")
    limit = TARGETS.get(big)
    if limit:
        print(
            f"         target: under {limit:.0f} s: {met(t < limit)}; "
            f"under 2 GiB: {met(peak < 2 * GIB)}"
        )
    results[big] = {"time": t, "states": n, "rss": peak, "per_state": extra / n}
    summary.append(
        (
            f"a  float solve, {big} pegs",
            fmt_time(t),
            "",
            "",
            f"{n:,} positions, RSS {fmt_bytes(peak)}",
        )
    )


def bench_baseline(sizes, repeats, check, summary, results):
    print(
        f"\nb. Baseline: dict-based Gauss-Seidel value iteration to {BASELINE_TOL:g} "
        "(plain Python, same process)"
    )
    for pegs in sizes:
        budget = None if pegs <= 40 else BASELINE_BUDGET
        reps = repeats if pegs <= 40 else 1
        t_base, (values, sweeps) = best_of(
            lambda pegs=pegs, budget=budget: baseline_solve(pegs, budget=budget), reps
        )
        t_gg = results[pegs]["time"]
        if values is None:
            print(
                f"   {pegs} pegs: baseline stopped after {sweeps} sweeps, {fmt_time(t_base)} "
                f"(over the {BASELINE_BUDGET:.0f} s budget); ratio gamegraph / baseline "
                f"time below {t_gg / t_base:.4f}"
            )
            summary.append(
                (
                    f"b  {pegs} pegs vs value iteration",
                    fmt_time(t_gg),
                    f"> {fmt_time(t_base)}",
                    f"< {t_gg / t_base:.4f}",
                    "time gg/base",
                )
            )
            continue
        table = gg.decision_table(results[pegs]["solution"])
        diff = max(
            abs(float(p) - values[int(b), int(c), int(o)])
            for b, c, o, p in zip(table.b, table.c, table.o, table.p_roll)
        )
        same_set = len(values) == len(table)
        print(
            f"   {pegs:>4} pegs: baseline {fmt_time(t_base)} ({sweeps} sweeps over "
            f"{len(values):,} positions, best of {reps}); gamegraph {fmt_time(t_gg)}"
        )
        print(
            f"             ratio gamegraph / baseline time: {t_gg / t_base:.4f} "
            f"(gamegraph {t_base / t_gg:.0f}x faster)"
        )
        print(
            f"             max |P_roll difference| {diff:.1e} < 1e-9: "
            f"{check(diff < 1e-9 and same_set, f'b: {pegs} pegs values differ by {diff:.2g}')}"
        )
        # The baseline's memory does not grow after its first sweep (the dict is full
        # and each update replaces one float), so 2 sweeps under tracemalloc suffice.
        _, peak_base = traced_peak(lambda pegs=pegs: baseline_solve(pegs, max_sweeps=2))
        peak_gg = results[pegs]["peak"]
        print(
            f"             peak memory gamegraph {fmt_bytes(peak_gg)}, baseline "
            f"{fmt_bytes(peak_base)} (tracemalloc, its first 2 sweeps); ratio "
            f"{peak_gg / peak_base:.1f}"
        )
        summary.append(
            (
                f"b  {pegs} pegs vs value iteration",
                fmt_time(t_gg),
                fmt_time(t_base),
                f"{t_gg / t_base:.4f}",
                "time gg/base",
            )
        )
        summary.append(
            (
                f"b  {pegs} pegs peak memory",
                fmt_bytes(peak_gg),
                fmt_bytes(peak_base),
                f"{peak_gg / peak_base:.1f}",
                "bytes gg/base",
            )
        )
        results[("baseline", pegs)] = {"time": t_base, "states": len(values)}


def bench_milp(sizes, repeats, check, summary):
    print("\nc. MILP (gamegraph.mathprog.milp, HiGHS via scipy) vs solve, build included in both")
    try:
        from gamegraph.errors import ConvergenceError
        from gamegraph.mathprog import milp
    except Exception as error:  # noqa: BLE001 - helper still being written
        print(
            f"   MILP: skipped (cannot import gamegraph.mathprog: {type(error).__name__}: {error})"
        )
        return
    for pegs in sizes:
        try:
            t_milp, result = timed(
                lambda pegs=pegs: milp(gg.build(gg.SuperSix(pegs=pegs)), time_limit=MILP_TIME_LIMIT)
            )
        except ConvergenceError as error:
            print(f"   {pegs} pegs: MILP skipped ({error})")
            continue
        except Exception as error:  # noqa: BLE001 - report and go on
            print(f"   {pegs} pegs: MILP skipped ({type(error).__name__}: {error})")
            continue
        t_gg, solution = best_of(lambda pegs=pegs: gamegraph_solve(pegs=pegs), repeats)
        diff = float(gg.numpy.abs(result.values - solution.values).max())
        same_policy = bool((result.policy.choice == solution.policy.choice).all())
        print(
            f"   {pegs:>3} pegs: MILP {fmt_time(t_milp)} (one run; {result.n_variables:,} "
            f"variables, {result.n_binaries:,} binary, {result.n_constraints:,} constraints); "
            f"solve {fmt_time(t_gg)} (best of {repeats})"
        )
        print(
            f"            ratio solve / MILP time: {t_gg / t_milp:.5f} "
            f"(solve {t_milp / t_gg:,.0f}x faster)"
        )
        print(
            f"            max |value difference| {diff:.1e} < 1e-7: "
            f"{check(diff < 1e-7, f'c: {pegs} pegs MILP values differ by {diff:.2g}')}; "
            f"MILP residual {result.residual:.1e}; same choices everywhere: {same_policy}"
        )
        summary.append(
            (
                f"c  {pegs} pegs: solve vs MILP",
                fmt_time(t_gg),
                fmt_time(t_milp),
                f"{t_gg / t_milp:.5f}",
                "time gg/MILP",
            )
        )


def bench_exact(hands_list, repeats, check, summary):
    print(
        f"\nd. Exact (Fraction) solve, build included, best of {repeats}; against the float "
        "solve of the same game"
    )
    for hands in hands_list:
        t_exact, solution = best_of(
            lambda hands=hands: gamegraph_solve(exact=True, hands=hands), repeats
        )
        t_float, approx = best_of(lambda hands=hands: gamegraph_solve(hands=hands), repeats)
        strategy = gg.strategy_string(gg.decision_table(solution), 13)
        value = solution.start_value
        agree = max(abs(float(a) - b) for a, b in zip(solution.values, approx.values))
        pegs = sum(hands)
        print(
            f"   hands {hands} ({pegs} pegs, {solution.graph.n_states - 1:,} positions): "
            f"exact {fmt_time(t_exact)}, float {fmt_time(t_float)}, ratio exact / float "
            f"{t_exact / t_float:.1f}"
        )
        print(
            f"      start value {float(value):.12f} (a fraction with a "
            f"{len(str(value.denominator))}-digit denominator); max |exact - float| {agree:.1e}"
        )
        ok = check(
            strategy == STRATEGY_13 and agree < 1e-12,
            f"d: hands {hands}: 13-peg strategy {strategy}, float gap {agree:.2g}",
        )
        print(f"      strategy at 13 pegs {strategy}: {ok}")
        summary.append(
            (
                f"d  exact, hands {hands[0]}+{hands[1]}",
                fmt_time(t_exact),
                fmt_time(t_float),
                f"{t_exact / t_float:.1f}",
                "time exact/float",
            )
        )


def main(argv=None) -> int:
    parser = common.parser(
        __doc__.split("\n\n")[0],
        "smoke run: one repeat, 300 pegs in the child, MILP at 10 pegs, baseline at 40 pegs only",
    )
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child(args.child)

    # Pin before numpy and scipy start, so any threads they create stay on the core.
    pinned = (
        "not pinned (--no-pin)"
        if args.no_pin
        else common.pin(args.cpu) + ", inherited by the child"
    )
    _import_gamegraph()

    if args.quick:
        repeats, big, base_sizes, milp_sizes = 1, 300, (40,), (10,)
    else:
        repeats, big, base_sizes, milp_sizes = 5, 1000, (40, 130), (20, 40)
    if args.repeat is not None:
        repeats = max(1, args.repeat)

    common.header("Super Six", args.quick, pinned)
    check, summary, results = Checks(), [], {}
    started = time.perf_counter()
    bench_float((40, 130), big, repeats, check, summary, results)
    bench_baseline(base_sizes, repeats, check, summary, results)
    bench_milp(milp_sizes, min(repeats, 3), check, summary)
    bench_exact(((8, 7), (8, 8)), min(repeats, 3), check, summary)

    return common.finish(
        summary,
        legend="Summary. Ratios below 1 favour the first column (time gg/base: gamegraph "
        "over the\nbaseline; time gg/MILP: solve over the MILP); time exact/float is what "
        "Fractions cost.",
        widths=(34, 10, 10, 8, 16),
        check=check,
        started=started,
    )


if __name__ == "__main__":
    sys.exit(main())
