#!/usr/bin/env python
"""Royal Game of Ur benchmarks (finkel rules): gamegraph against baselines run in the same process.

Machines are noisy, so every figure is printed next to a baseline measured in the same
run, and the ratio between the two is what to compare across machines. Times are wall
times (``time.perf_counter``, ``gc.collect()`` before each), best of a few repeats
where a run is short enough to repeat.

a. Build + solve of every position, split into build, condensation (strongly connected
   components) and solve: 2 and 3 pieces in this process (peak RSS with the kernel's
   high-water mark reset before each run, and a tracemalloc peak), 4 pieces in a child
   process whose peak RSS is read with ``resource.getrusage(RUSAGE_CHILDREN)``.
   Positions per second, StateGraph bytes per position, peak bytes per position;
   the 3-piece start value is checked against value iteration (``method="value"``),
   a second solving method on the same graph.
b. A plain-Python baseline written from the rules, sharing nothing with gamegraph:
   its own move generation, positions found by breadth-first search from the start,
   a dict of positions -> value, in-place Gauss-Seidel value iteration with the max
   over moves per throw, until no value moves by 1e-12. 2 pieces to the end; 3 pieces
   abandoned after a time budget, with the time it would need projected from the
   geometric decay of its sweep changes.
c. The linear-solver choice: the policy-evaluation systems of the largest cyclic
   component of the graph, solved iterative-first (gamegraph's default: BiCGSTAB, GMRES
   before it; the name is read from gamegraph.linear) and by sparse LU
   only (``linear.ITERATIVE_MIN_SIZE`` raised), the LU rounds within a time budget.
   Then the same 3-piece solve in child processes not pinned to one CPU, with
   a BLAS thread per core (GAMEGRAPH_BLAS_THREADS) and with gamegraph's default of one.
d. The solved table (``gamegraph.games.ur.code_table``): file size per position, save and
   load times, against the build + solve it replaces.

Then a projection to 5, 6 and 7 pieces from the measured per-position costs (a
projection, not a measurement).

Usage::

    python benchmarks/bench_ur.py            # full run, 6 to 10 minutes
    python benchmarks/bench_ur.py --quick    # smoke run, 2 pieces only, about 10 s

Exit status 1 if a correctness check fails (position counts, values or residuals);
missed speed or memory targets are printed as MISSED but do not fail the run.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import deque

import _common as common
from _common import GIB, Checks, fmt_bytes, fmt_time, maxrss_bytes, met, timed, traced_peak

RULES = "finkel"
# Start values measured earlier (idle machine); a regression guard, not a second method.
RECORDED_START = {3: 0.5162011022382562, 4: 0.5161592335569554}
TARGETS = {3: 30.0, 4: 600.0}  # seconds, build + solve
MEMORY_TARGET = {4: 8 * GIB}  # peak RSS
BASELINE_TOL = 1e-12
BASELINE_BUDGET = 90.0  # seconds; the 3-piece baseline stops past this
LU_BUDGET = 150.0  # seconds of LU rounds in c
UNPINNED_BUDGET = 120.0  # seconds per unpinned child in c
CHILD_TIMEOUT = 3600.0


# ---------------------------------------------------------------------------------
# Baseline: plain Python written straight from the finkel rules, no gamegraph involved.
# ---------------------------------------------------------------------------------
#
# Each side walks 14 squares of its own numbering: 1-4 in its own lane, 5-12 the middle
# lane (square s is the same tile for both sides), 13-14 back in its own lane; square 15
# is off the board, reached only by an exact throw. Rosettes at 4, 8 and 14 give another
# throw, and a piece on one cannot be captured (8 is the only shared one). Four binary
# dice: 0..4 with weights 1, 4, 6, 4, 1 out of 16; 0, or no legal move, passes the turn.
# A position is one int: my squares as bits 0..13, my pieces off at bit 14 (3 bits),
# then the same for the opponent from bit 17; it is always seen from the side to move.

B_LENGTH = 14
B_SHARED = frozenset(range(5, 13))
B_ROSETTES = frozenset((4, 8, 14))
B_THROWS = ((0, 1 / 16), (1, 4 / 16), (2, 6 / 16), (3, 4 / 16), (4, 1 / 16))
B_MASK = (1 << B_LENGTH) - 1
B_HALF = B_LENGTH + 3
B_WIN = -1  # the mover has borne off its last piece


def b_key(mine, mine_off, theirs, theirs_off):
    return mine | mine_off << B_LENGTH | theirs << B_HALF | theirs_off << (B_HALF + B_LENGTH)


def b_unkey(key):
    return key & B_MASK, key >> B_LENGTH & 7, key >> B_HALF & B_MASK, key >> (B_HALF + B_LENGTH)


def b_swap(key):
    """The same board with the other side to move."""
    return key >> B_HALF | (key & ((1 << B_HALF) - 1)) << B_HALF


def b_moves(key, throw, pieces):
    """[(next position, turn passes)] of every legal move after ``throw``."""
    if throw == 0:
        return []
    mine, off, theirs, theirs_off = b_unkey(key)
    squares = [s for s in range(1, B_LENGTH + 1) if mine >> (s - 1) & 1]
    sources = ([0] if pieces - len(squares) - off > 0 else []) + squares
    out = []
    for source in sources:
        dest = source + throw
        if dest > B_LENGTH + 1:
            continue
        left = mine & ~(1 << (source - 1)) if source else mine
        if dest == B_LENGTH + 1:  # borne off
            if off + 1 == pieces:
                out.append((B_WIN, False))
            else:
                out.append((b_swap(b_key(left, off + 1, theirs, theirs_off)), True))
            continue
        if mine >> (dest - 1) & 1:
            continue  # own piece there
        opponent = theirs
        if dest in B_SHARED and theirs >> (dest - 1) & 1:
            if dest in B_ROSETTES:
                continue  # safe on a rosette
            opponent = theirs & ~(1 << (dest - 1))  # captured: back to start
        after = b_key(left | 1 << (dest - 1), off, opponent, theirs_off)
        out.append((after, False) if dest in B_ROSETTES else (b_swap(after), True))
    return out


def b_enumerate(pieces):
    """Every position reachable from the start: {position: ((p, moves), ... per throw)}."""
    start = b_key(0, 0, 0, 0)
    successors = {start: None}
    todo = deque([start])
    while todo:
        key = todo.popleft()
        per_throw = []
        for throw, p in B_THROWS:
            moves = b_moves(key, throw, pieces) or [(b_swap(key), True)]
            per_throw.append((p, moves))
            for after, _ in moves:
                if after != B_WIN and after not in successors:
                    successors[after] = None
                    todo.append(after)
        successors[key] = per_throw
    return successors


def b_progress(key):
    """Pieces borne off, then squares walked, by both sides: the order of the sweeps
    is most progress first, so values flow back from the end of the game."""
    mine, off, theirs, theirs_off = b_unkey(key)
    walked = sum(s for s in range(1, B_LENGTH + 1) if mine >> (s - 1) & 1) + sum(
        s for s in range(1, B_LENGTH + 1) if theirs >> (s - 1) & 1
    )
    return (off + theirs_off) * 1000 + walked


def baseline_solve(pieces, tol=BASELINE_TOL, budget=None, max_sweeps=None):
    """Gauss-Seidel value iteration from 0.5 everywhere until no value moves by ``tol``.

    v(s) = sum over throws of p * max over moves of (v(s') if the mover throws again,
    else 1 - v(s')), with v(WIN) = 1. Returns a dict: ``values`` (None when stopped by
    ``budget`` seconds), ``sweeps``, ``changes`` (largest change per sweep), ``positions``,
    ``start``, ``enumerate`` and ``seconds`` (time spent).
    """
    started = time.perf_counter()
    successors = b_enumerate(pieces)
    order = sorted(successors, key=b_progress, reverse=True)
    enumerated = time.perf_counter() - started
    value = dict.fromkeys(order, 0.5)
    value[B_WIN] = 1.0
    changes = []
    out = {"positions": len(order), "enumerate": enumerated, "changes": changes}
    while True:
        change = 0.0
        for key in order:
            new = 0.0
            for p, moves in successors[key]:
                best = 0.0
                for after, passes in moves:
                    q = 1.0 - value[after] if passes else value[after]
                    if q > best:
                        best = q
                new += p * best
            moved = abs(new - value[key])
            if moved > change:
                change = moved
            value[key] = new
        changes.append(change)
        elapsed = time.perf_counter() - started
        out.update(sweeps=len(changes), seconds=elapsed, start=value[b_key(0, 0, 0, 0)])
        if change < tol or (max_sweeps is not None and len(changes) >= max_sweeps):
            del value[B_WIN]
            out["values"] = value
            return out
        if budget is not None and elapsed > budget:
            out["values"] = None
            return out


def projected_sweeps(changes, tol=BASELINE_TOL, window=10):
    """Sweeps Gauss-Seidel would need to bring its change below ``tol``, from the rate
    of decay over its last ``window`` sweeps (None with too few sweeps)."""
    if len(changes) <= window or changes[-1] <= 0:
        return None
    rate = (changes[-1] / changes[-1 - window]) ** (1 / window)
    if not rate < 1:
        return None
    return len(changes) + math.ceil(math.log(tol / changes[-1]) / math.log(rate))


# ---------------------------------------------------------------------------------
# gamegraph side (imported in main, after the process is pinned)
# ---------------------------------------------------------------------------------

gg = None  # namespace filled by _import_gamegraph


def _import_gamegraph():
    global gg
    import numpy
    import scipy.sparse
    import scipy.sparse.csgraph

    import gamegraph.linear as linear
    from gamegraph import solve
    from gamegraph.games.ur import Ur, UrState, state_to_code
    from gamegraph.games.ur.board import GEOMETRY
    from gamegraph.games.ur.code_table import load_table, table_from_solution
    from gamegraph.games.ur.counting import count_nonterminal

    gg = argparse.Namespace(
        numpy=numpy,
        sparse=scipy.sparse,
        csgraph=scipy.sparse.csgraph,
        linear=linear,
        solve_module=sys.modules["gamegraph.solve"],
        solve=solve,
        Ur=Ur,
        UrState=UrState,
        state_to_code=state_to_code,
        load_table=load_table,
        table_from_solution=table_from_solution,
        count=lambda pieces: count_nonterminal(*GEOMETRY[RULES], pieces),
    )
    gg.solve(gg.Ur(RULES, 1).build_graph())  # warm: lazy imports are not timed


def gamegraph_run(pieces, **solve_options):
    """Build, condense and solve; the three times and the objects."""
    t0 = time.perf_counter()
    graph = gg.Ur(RULES, pieces).build_graph()
    t1 = time.perf_counter()
    condensation = graph.condensation
    t2 = time.perf_counter()
    solution = gg.solve(graph, **solve_options)
    t3 = time.perf_counter()
    return {
        "build": t1 - t0,
        "condense": t2 - t1,
        "solve": t3 - t2,
        "seconds": t3 - t0,
        "graph": graph,
        "condensation": condensation,
        "solution": solution,
    }


def shape(graph, condensation):
    """Positions (WIN left out), options, graph bytes and the cyclic components."""
    sizes = gg.numpy.bincount(condensation.component)
    cyclic = condensation.cyclic
    return {
        "states": graph.n_states - 1,
        "options": graph.n_options,
        "graph_bytes": graph.nbytes,
        "levels": len(condensation.levels),
        "cyclic_components": int(cyclic.sum()),
        "largest_component": int(sizes.max()),
        "cyclic_states": int(sizes[cyclic].sum()),
    }


# ---------------------------------------------------------------------------------
# Memory helpers
# ---------------------------------------------------------------------------------


def _status(field):
    try:
        with open("/proc/self/status") as f:
            found = re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M)
    except OSError:
        return None
    return int(found.group(1)) * 1024 if found else None


def rss_now():
    """Resident set size now (bytes), or None off Linux."""
    return _status("VmRSS")


def reset_rss_peak() -> bool:
    """Reset the kernel's high-water mark of this process's RSS (Linux 4.0+)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def rss_peak():
    """This process's RSS high-water mark since the last reset (bytes), or None."""
    return _status("VmHWM")


# ---------------------------------------------------------------------------------
# Child process: one large solve, its own RSS
# ---------------------------------------------------------------------------------


def child(pieces: int, cpus: str | None) -> int:
    """Build + solve ``pieces`` pieces and print one JSON line of figures."""
    if cpus:  # before numpy starts: OpenBLAS sizes its pool from this
        os.sched_setaffinity(0, {int(c) for c in cpus.split(",")})
    _import_gamegraph()
    gc.collect()
    # VmRSS / VmHWM belong to this process's own memory map; ru_maxrss would start from
    # the parent's peak, which a child inherits through fork and exec.
    rss_imports = rss_now() or maxrss_bytes(resource.RUSAGE_SELF)
    run = gamegraph_run(pieces)
    solution = run["solution"]
    figures = {k: run[k] for k in ("build", "condense", "solve", "seconds")}
    figures.update(shape(run["graph"], run["condensation"]))
    figures.update(
        pieces=pieces,
        residual=solution.residual,
        iterations=solution.iterations,
        start_value=float(solution.start_value),
        rss_imports=rss_imports,
        rss_peak=rss_peak() or maxrss_bytes(resource.RUSAGE_SELF),
        rss_maxrss=maxrss_bytes(resource.RUSAGE_SELF),
        cpus=sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
    )
    print(json.dumps(figures))
    return 0


def run_child(pieces: int, *, cpus=None, env=None, timeout=CHILD_TIMEOUT) -> dict:
    command = [sys.executable, os.path.abspath(__file__), "--child", str(pieces)]
    gc.collect()
    reset_rss_peak()  # the child's ru_maxrss starts from this process's peak
    if cpus:
        command += ["--child-cpus", ",".join(str(c) for c in cpus)]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=None if env is None else {**os.environ, **env},
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"child for {pieces} pieces exited {done.returncode}: "
            + (done.stderr.strip().splitlines() or [""])[-1]
        )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["rss_children"] = maxrss_bytes(resource.RUSAGE_CHILDREN)
    return figures


# ---------------------------------------------------------------------------------
# a. Build + solve
# ---------------------------------------------------------------------------------


def bench_solve(sizes, big, repeats, rss_imports, check, summary, results):
    print(
        f"\na. Build + solve, {RULES} rules (best of {repeats} in this process; positions "
        "leave out the WIN state)"
    )
    print(
        f"   {'pieces':>6} {'positions':>10} {'options':>11} {'build':>8} {'condense':>9} "
        f"{'solve':>8} {'total':>8} {'positions/s':>12} {'graph B/pos':>11} "
        f"{'peak RSS B/pos':>14} {'tracemalloc B/pos':>17}"
    )
    for pieces in sizes:
        best, peak_rss, run = None, 0, None
        for _ in range(repeats):
            run = None
            gc.collect()
            have_peak = reset_rss_peak()
            run = gamegraph_run(pieces)
            if have_peak and rss_imports:
                peak_rss = max(peak_rss, rss_peak() - rss_imports)
            if best is None or run["seconds"] < best["seconds"]:
                best = {k: run[k] for k in ("build", "condense", "solve", "seconds")}
        graph, solution = run["graph"], run["solution"]
        figures = shape(graph, run["condensation"])
        n = figures["states"]
        # Peak of the Python-visible allocations (numpy arrays included), one more run.
        _, traced = traced_peak(lambda pieces=pieces: gamegraph_run(pieces)["solution"].residual)
        check(
            n == gg.count(pieces), f"a: {pieces} pieces has {n} positions, not {gg.count(pieces)}"
        )
        check(solution.residual <= 1e-12, f"a: {pieces} pieces residual {solution.residual:.2g}")
        t = best["seconds"]
        rss_text = f"{peak_rss / n:>14.0f}" if peak_rss else f"{'n/a':>14}"
        print(
            f"   {pieces:>6} {n:>10,} {figures['options']:>11,} {fmt_time(best['build']):>8} "
            f"{fmt_time(best['condense']):>9} {fmt_time(best['solve']):>8} {fmt_time(t):>8} "
            f"{n / t:>12,.0f} {figures['graph_bytes'] / n:>11.0f} {rss_text} "
            f"{traced / n:>17.0f}"
        )
        results[pieces] = {
            **best,
            **figures,
            "peak": peak_rss or traced,
            "traced": traced,
            "solution": solution,
            "graph": graph,
            "start": float(solution.start_value),
        }
        summary.append(
            (f"a  build + solve, {pieces} pieces", fmt_time(t), "", "", f"{n:,} positions")
        )
    for pieces in sizes:
        r = results[pieces]
        print(
            f"   {pieces} pieces: start value {r['start']:.16f}, residual "
            f"{r['solution'].residual:.1e}, at most {r['solution'].iterations} policy rounds; "
            f"{r['cyclic_components']:,} cyclic components holding {r['cyclic_states']:,} "
            f"positions, the largest {r['largest_component']:,}; {r['levels']} levels"
        )
        if pieces in RECORDED_START:
            diff = abs(r["start"] - RECORDED_START[pieces])
            print(
                f"      recorded earlier {RECORDED_START[pieces]!r}: difference {diff:.1e} "
                f"{check(diff < 1e-10, f'a: {pieces} pieces start value moved by {diff:.2g}')}"
            )
        if pieces in TARGETS:
            print(
                f"      target: under {TARGETS[pieces]:.0f} s: "
                f"{met(r['seconds'] < TARGETS[pieces])}"
            )
    if rss_imports:
        print(
            f"   peak RSS: the process's high-water mark during the run (reset before it) less "
            f"the {fmt_bytes(rss_imports)} held after imports"
        )
    # A second method on the largest in-process graph: value iteration instead of policy
    # iteration with an iterative solver / LU, the same graph.
    pieces = sizes[-1]
    r = results[pieces]
    t_value, other = timed(lambda: gg.solve(r["graph"], method="value", max_iter=100_000))
    diff = float(gg.numpy.abs(other.values - r["solution"].values).max())
    start_diff = abs(float(other.start_value) - r["start"])
    ok = check(diff < 1e-10, f"a: {pieces} pieces value iteration differs by {diff:.2g}")
    print(
        f"   second method, {pieces} pieces: solve(method='value') {fmt_time(t_value)} "
        f"({other.iterations} rounds at most, residual {other.residual:.1e}); start value "
        f"{float(other.start_value):.16f}, difference {start_diff:.1e}; largest difference "
        f"over all positions {diff:.1e} < 1e-10: {ok}"
    )
    summary.append(
        (
            f"a  {pieces} pieces: policy vs value it.",
            fmt_time(r["solve"]),
            fmt_time(t_value),
            f"{r['solve'] / t_value:.2f}",
            "time policy/value",
        )
    )

    if big is None:
        return
    print(f"   {big} pieces in a child process (one run, pinned like this one):")
    try:
        f = run_child(big)
    except Exception as error:  # noqa: BLE001 - report and go on
        print(f"   {big} pieces: skipped ({type(error).__name__}: {error})")
        return
    n, t = f["states"], f["seconds"]
    check(n == gg.count(big), f"a: {big} pieces has {n} positions, not {gg.count(big)}")
    check(f["residual"] <= 1e-12, f"a: {big} pieces residual {f['residual']:.2g}")
    peak = f["rss_peak"]
    extra = peak - f["rss_imports"]
    print(
        f"   {big:>6} {n:>10,} {f['options']:>11,} {fmt_time(f['build']):>8} "
        f"{fmt_time(f['condense']):>9} {fmt_time(f['solve']):>8} {fmt_time(t):>8} "
        f"{n / t:>12,.0f} {f['graph_bytes'] / n:>11.0f} {extra / n:>14.0f}"
    )
    print(
        f"      peak RSS {fmt_bytes(peak)} (the child's VmHWM; getrusage RUSAGE_CHILDREN "
        f"{fmt_bytes(f['rss_children'])}, which starts from this process's RSS at the "
        f"spawn), {fmt_bytes(f['rss_imports'])} of it after imports: {extra / n:.0f} bytes "
        f"per position over that, {peak / n:.0f} in all; StateGraph arrays "
        f"{fmt_bytes(f['graph_bytes'])}"
    )
    print(
        f"      start value {f['start_value']:.16f}, residual {f['residual']:.1e} <= 1e-12: "
        f"{'ok' if f['residual'] <= 1e-12 else 'FAILED'}; at most {f['iterations']} policy "
        f"rounds; {f['cyclic_components']:,} cyclic components holding "
        f"{f['cyclic_states']:,} positions, the largest {f['largest_component']:,}"
    )
    diff = abs(f["start_value"] - RECORDED_START[big]) if big in RECORDED_START else None
    if diff is not None:
        print(
            f"      recorded earlier {RECORDED_START[big]!r}: difference {diff:.1e} "
            f"{check(diff < 1e-10, f'a: {big} pieces start value moved by {diff:.2g}')}"
        )
    limit, memory = TARGETS.get(big), MEMORY_TARGET.get(big)
    if limit:
        print(
            f"      target: under {limit / 60:.0f} minutes: {met(t < limit)}; "
            f"under {fmt_bytes(memory)}: {met(peak < memory)}"
        )
    results[big] = {**f, "peak": extra, "start": f["start_value"]}
    summary.append(
        (
            f"a  build + solve, {big} pieces",
            fmt_time(t),
            "",
            "",
            f"{n:,} positions, RSS {fmt_bytes(peak)}",
        )
    )


# ---------------------------------------------------------------------------------
# b. Plain-Python baseline
# ---------------------------------------------------------------------------------


def baseline_differences(values, solution):
    """Largest |baseline - gamegraph| over every position, and whether the sets match."""
    np = gg.numpy
    positions = solution.graph.states
    keys = list(values)
    codes = []
    for key in keys:
        mine, off, theirs, theirs_off = b_unkey(key)
        state = gg.UrState(
            tuple(s for s in range(1, B_LENGTH + 1) if mine >> (s - 1) & 1),
            off,
            tuple(s for s in range(1, B_LENGTH + 1) if theirs >> (s - 1) & 1),
            theirs_off,
        )
        codes.append(gg.state_to_code(state, B_LENGTH))
    codes = np.array(codes, dtype=np.int64)
    where = np.searchsorted(positions.codes, codes)
    found = (where < len(positions.codes)) & (
        positions.codes[np.minimum(where, len(positions.codes) - 1)] == codes
    )
    if not found.all():
        return math.inf, False
    mine = np.array([values[k] for k in keys])
    return float(np.abs(mine - solution.values[where]).max()), len(keys) == len(positions.codes)


def bench_baseline(sizes, budget, repeats, check, summary, results):
    print(
        f"\nb. Baseline: plain Python from the rules, dict of positions, Gauss-Seidel value "
        f"iteration to {BASELINE_TOL:g} (same process)"
    )
    for pieces in sizes:
        full = pieces <= 2
        reps = repeats if full else 1
        best = None
        for _ in range(reps):
            gc.collect()
            run = baseline_solve(pieces, budget=None if full else budget)
            if best is None or run["seconds"] < best["seconds"]:
                best = run
            del run
        run = best
        r = results[pieces]
        t_gg, n = r["seconds"], run["positions"]
        ok = check(n == r["states"], f"b: baseline found {n} positions at {pieces} pieces")
        per_sweep = (run["seconds"] - run["enumerate"]) / run["sweeps"]
        print(
            f"   {pieces} pieces: {n:,} positions found from the start by breadth-first search "
            f"(gamegraph {r['states']:,}: {ok}) in {fmt_time(run['enumerate'])}; "
            f"{fmt_time(per_sweep)} per sweep"
        )
        if run["values"] is None:
            need = projected_sweeps(run["changes"])
            line = (
                f"      stopped after {run['sweeps']} sweeps, {fmt_time(run['seconds'])} "
                f"(over the {budget:.0f} s budget), last change {run['changes'][-1]:.1e}; "
                f"start value so far {run['start']:.16f} (gamegraph's differs by "
                f"{abs(run['start'] - r['start']):.1e})"
            )
            print(line)
            if need is None:
                print(f"      ratio gamegraph / baseline time below {t_gg / run['seconds']:.4f}")
                summary.append(
                    (
                        f"b  {pieces} pieces vs value iteration",
                        fmt_time(t_gg),
                        f"> {fmt_time(run['seconds'])}",
                        f"< {t_gg / run['seconds']:.4f}",
                        "time gg/base",
                    )
                )
                continue
            projected = run["enumerate"] + need * per_sweep
            print(
                f"      projected: {need} sweeps (the decay of the last 10 sweeps' changes, "
                f"extended to {BASELINE_TOL:g}), {fmt_time(projected)} in all; "
                f"ratio gamegraph / baseline time {t_gg / projected:.4f} projected "
                f"(gamegraph {projected / t_gg:.0f}x faster), below "
                f"{t_gg / run['seconds']:.4f} measured"
            )
            summary.append(
                (
                    f"b  {pieces} pieces vs value iteration",
                    fmt_time(t_gg),
                    f"~{fmt_time(projected)}",
                    f"~{t_gg / projected:.4f}",
                    "time gg/base (proj.)",
                )
            )
            results[("baseline", pieces)] = {
                "seconds": projected,
                "sweeps": need,
                "projected": True,
            }
            continue
        diff, same_set = baseline_differences(run["values"], r["solution"])
        print(
            f"      {run['sweeps']} sweeps, {fmt_time(run['seconds'])} in all (best of {reps}); "
            f"gamegraph {fmt_time(t_gg)}; ratio gamegraph / baseline time "
            f"{t_gg / run['seconds']:.4f} (gamegraph {run['seconds'] / t_gg:.0f}x faster)"
        )
        print(
            f"      start value {run['start']:.16f}; max |value difference| over all "
            f"positions {diff:.1e} < 1e-9: "
            f"{check(diff < 1e-9 and same_set, f'b: {pieces} pieces values differ by {diff:.2g}')}"
        )
        summary.append(
            (
                f"b  {pieces} pieces vs value iteration",
                fmt_time(t_gg),
                fmt_time(run["seconds"]),
                f"{t_gg / run['seconds']:.4f}",
                "time gg/base",
            )
        )
        results[("baseline", pieces)] = {"seconds": run["seconds"], "sweeps": run["sweeps"]}
        if pieces == sizes[0]:
            # The baseline's memory is all there after its first sweep (every position and
            # its moves stored), so enumeration + 2 sweeps under tracemalloc suffice.
            _, peak_base = traced_peak(
                lambda pieces=pieces: baseline_solve(pieces, max_sweeps=2)["sweeps"]
            )
            peak_gg = r["traced"]
            print(
                f"      peak memory (tracemalloc): gamegraph {fmt_bytes(peak_gg)} "
                f"({peak_gg / n:.0f} B/position), baseline {fmt_bytes(peak_base)} "
                f"({peak_base / n:.0f} B/position); ratio {peak_gg / peak_base:.2f}"
            )
            summary.append(
                (
                    f"b  {pieces} pieces peak memory",
                    fmt_bytes(peak_gg),
                    fmt_bytes(peak_base),
                    f"{peak_gg / peak_base:.2f}",
                    "bytes gg/base",
                )
            )
        del run
        gc.collect()


# ---------------------------------------------------------------------------------
# c. Linear solver: iterative first against LU only, and BLAS threads
# ---------------------------------------------------------------------------------


def iterative_solver():
    """(attribute name, function) of gamegraph.linear's iterative solver."""
    for name in ("_solve_iterative", "_solve_gmres"):
        if hasattr(gg.linear, name):
            return name, getattr(gg.linear, name)
    raise RuntimeError("gamegraph.linear has no iterative solver this benchmark knows")


def iterative_name() -> str:
    """The iterative method's name, from its docstring ("BiCGSTAB's solution when ...")."""
    doc = (iterative_solver()[1].__doc__ or "").split()
    return doc[0].removesuffix("'s") if doc else "iterative"


def capture_systems(graph, largest):
    """Solve ``graph`` recording every linear system gamegraph.solve hands to
    ``solve_sparse``; the arrays are kept for systems of at least ``largest`` states."""
    np = gg.numpy
    calls = []
    original = gg.solve_module.solve_sparse

    def recording(rows, cols, coefficients, b, size, *, exact):
        t0 = time.perf_counter()
        x = original(rows, cols, coefficients, b, size, exact=exact)
        seconds = time.perf_counter() - t0
        arrays = None
        if size >= largest:
            arrays = tuple(np.array(a) for a in (rows, cols, coefficients, b))
        calls.append({"size": size, "seconds": seconds, "arrays": arrays})
        return x

    name, iterative = iterative_solver()
    refused = []

    def counting(matrix, b):  # iterative answers refused: LU decides those
        x = iterative(matrix, b)
        if x is None:
            refused.append(matrix.shape[0])
        return x

    gg.solve_module.solve_sparse = recording
    setattr(gg.linear, name, counting)
    try:
        t, solution = timed(lambda: gg.solve(graph))
    finally:
        gg.solve_module.solve_sparse = original
        setattr(gg.linear, name, iterative)
    return t, solution, calls, refused


def component_rounds(calls, largest):
    """The policy-evaluation systems (one per round) of a component of ``largest`` states:
    the first level system holding one, its block cut out, for each consecutive round."""
    np = gg.numpy
    rounds, level_size = [], None
    for call in calls:
        if call["arrays"] is None or (level_size is not None and call["size"] != level_size):
            if rounds:
                break
            continue
        rows, cols, coefficients, b = call["arrays"]
        size = call["size"]
        matrix = gg.sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(size, size))
        _, label = gg.csgraph.connected_components(matrix, directed=True, connection="weak")
        counts = np.bincount(label)
        hits = np.flatnonzero(counts == largest)
        if not len(hits):
            if rounds:
                break
            continue
        inside = label == hits[0]
        renumber = np.cumsum(inside) - 1
        keep = inside[rows]  # blocks are uncoupled: cols are inside too
        rounds.append(
            (
                renumber[rows[keep]],
                renumber[cols[keep]],
                coefficients[keep],
                b[inside],
                int(inside.sum()),
            )
        )
        level_size = size
    return rounds


def bench_linear(pieces, repeats, lu_budget, unpinned, check, summary, results):
    np, linear = gg.numpy, gg.linear
    it = iterative_name()
    r = results[pieces]
    largest = r["largest_component"]
    print(
        f"\nc. Linear solves: {it} first (default, ITERATIVE_MIN_SIZE = "
        f"{linear.ITERATIVE_MIN_SIZE}) against sparse LU only, {pieces} pieces"
    )
    t_solve, solution, calls, refused = capture_systems(r["graph"], largest)
    gap = float(np.abs(solution.values - r["solution"].values).max())
    check(gap < 1e-12, f"c: the recording solve differs from a's by {gap:.2g}")
    big = [c for c in calls if c["size"] >= linear.ITERATIVE_MIN_SIZE]
    linear_time = sum(c["seconds"] for c in calls)
    print(
        f"   the whole solve (condensation cached): {fmt_time(t_solve)}, of which "
        f"{fmt_time(linear_time)} in {len(calls)} linear solves; {len(big)} of them of "
        f"{linear.ITERATIVE_MIN_SIZE:,} states or more ({it} first), "
        f"{fmt_time(sum(c['seconds'] for c in big))}, {len(refused)} of them left to LU "
        f"({it} residual too large); the largest {max((c['size'] for c in calls), default=0):,} "
        "states (one level's components together)"
    )
    rounds = component_rounds(calls, largest)
    del calls
    if not rounds:
        print(f"   no system holds the largest component ({largest:,} states): skipped")
        return
    m = rounds[0][4]
    print(
        f"   the largest cyclic component, {m:,} states, {len(rounds)} policy-iteration "
        f"rounds: each round's system cut out and solved both ways"
    )
    iterated = []
    for system in rounds:
        t, x = common.best_of(
            lambda system=system: linear.solve_sparse(*system, exact=False), repeats
        )
        iterated.append((t, x))
    # LU only: the optimal policy's system (the last round) first, then round 1 (the
    # policy greedy on 0.5 everywhere: fewer entries, far less fill-in), then the others.
    last = len(rounds) - 1
    order = [last] + ([0] if last > 0 else []) + list(range(last - 1, 0, -1))
    lu, worst, lu_started = {}, 0.0, time.perf_counter()
    saved = linear.ITERATIVE_MIN_SIZE
    linear.ITERATIVE_MIN_SIZE = sys.maxsize
    try:
        for i in order:
            if lu and time.perf_counter() - lu_started > lu_budget:
                break
            rows, cols, coefficients, b, size = rounds[i]
            gc.collect()
            before, have_peak = rss_now(), reset_rss_peak()
            t, x = timed(lambda system=rounds[i]: linear.solve_sparse(*system, exact=False))
            extra = rss_peak() - before if have_peak and before else None
            matrix = gg.sparse.csr_matrix((coefficients, (rows, cols)), shape=(size, size))
            residuals = [float(np.abs(matrix @ y - b).max()) for y in (x, iterated[i][1])]
            gap = float(np.abs(x - iterated[i][1]).max())
            worst = max(worst, gap)
            lu[i] = {"seconds": t, "rss": extra, "residuals": residuals, "gap": gap}
    finally:
        linear.ITERATIVE_MIN_SIZE = saved
    print(
        f"   {'round':>7} {'nonzeros':>9} {it + ' first':>14} {'LU only':>9} {'LU / ' + it:>14} "
        f"{'LU extra RSS':>12} {'residual LU, ' + it:>22} {'|x_LU - x_' + it + '|':>19}"
    )
    for i, (rows, _, _, _, _) in enumerate(rounds):
        t_g = iterated[i][0]
        if i in lu:
            f = lu[i]
            rss = fmt_bytes(f["rss"]) if f["rss"] is not None else "n/a"
            print(
                f"   {i + 1:>7} {len(rows):>9,} {fmt_time(t_g):>14} {fmt_time(f['seconds']):>9} "
                f"{f['seconds'] / t_g:>14.0f} {rss:>12} "
                f"{f['residuals'][0]:>12.1e}, {f['residuals'][1]:.1e} {f['gap']:>19.1e}"
            )
        else:
            print(f"   {i + 1:>7} {len(rows):>9,} {fmt_time(t_g):>14} {'(budget)':>9}")
    ok = check(worst < 1e-10, f"c: LU and {it} solutions differ by {worst:.2g}")
    print(f"   LU and {it} agree to {worst:.1e} < 1e-10: {ok}")
    t_iter = sum(t for t, _ in iterated)
    t_lu = sum(f["seconds"] for f in lu.values())
    print(
        f"   the optimal policy's system (round {last + 1}): LU {fmt_time(lu[last]['seconds'])}, "
        f"{it} first {fmt_time(iterated[last][0])}: ratio {it} / LU "
        f"{iterated[last][0] / lu[last]['seconds']:.5f}"
    )
    summary.append(
        (
            f"c  {m:,}-state component, final system",
            fmt_time(iterated[last][0]),
            fmt_time(lu[last]["seconds"]),
            f"{iterated[last][0] / lu[last]['seconds']:.5f}",
            "time iter./LU",
        )
    )
    if len(lu) < len(rounds):
        later = [f["seconds"] for i, f in lu.items() if i > 0]
        mean = sum(later) / len(later)
        projected = t_lu + (len(rounds) - len(lu)) * mean
        print(
            f"   all {len(rounds)} rounds: {it} first {fmt_time(t_iter)}; LU measured "
            f"{fmt_time(t_lu)} for {len(lu)} rounds (the {lu_budget:.0f} s budget), "
            f"PROJECTED {fmt_time(projected)} for all (the rest at the mean of the measured "
            "rounds after the first); "
            f"ratio {it} / LU ~{t_iter / projected:.5f}"
        )
    else:
        projected = t_lu
        print(
            f"   all {len(rounds)} rounds: {it} first {fmt_time(t_iter)}, LU "
            f"{fmt_time(t_lu)}: ratio {it} / LU {t_iter / t_lu:.5f}"
        )
    print(
        f"   so an LU-only solve of {pieces} pieces takes at least "
        f"{'~' if len(lu) < len(rounds) else ''}{fmt_time(t_solve - t_iter + projected)} "
        f"(this component's LU rounds + the rest of the solve) against {fmt_time(t_solve)}"
    )
    summary.append(
        (
            f"c  {m:,}-state component, {len(rounds)} rounds",
            fmt_time(t_iter),
            ("~" if len(lu) < len(rounds) else "") + fmt_time(projected),
            f"{t_iter / projected:.5f}",
            "time iter./LU",
        )
    )
    results["linear"] = {
        "component": m,
        "rounds": len(rounds),
        "iterative": t_iter,
        "lu": projected,
        "lu_measured": len(lu),
    }

    if not unpinned:
        return
    cpus = sorted(unpinned)
    print(
        f"   {pieces} pieces, build + solve, in child processes on CPUs {cpus} (not pinned; "
        f"at most {UNPINNED_BUDGET:.0f} s each), against this pinned process's "
        f"{fmt_time(r['seconds'])} (solve {fmt_time(r['solve'])}):"
    )
    for label, env in (
        # gamegraph limits BLAS to one thread itself now; asking for one per core shows
        # what an unlimited BLAS costs, against the default.
        ("BLAS thread per core", {"GAMEGRAPH_BLAS_THREADS": str(len(cpus))}),
        ("default (one BLAS thread)", {}),
    ):
        try:
            f = run_child(pieces, cpus=cpus, env=env, timeout=UNPINNED_BUDGET)
        except subprocess.TimeoutExpired:
            print(
                f"      {label:<28} over {UNPINNED_BUDGET:.0f} s: stopped; ratio to pinned above "
                f"{UNPINNED_BUDGET / r['seconds']:.0f}"
            )
            summary.append(
                (
                    f"c  {pieces} pieces unpinned, {'thread per core' if env else '1 thread'}",
                    f"> {fmt_time(UNPINNED_BUDGET)}",
                    fmt_time(r["seconds"]),
                    f"> {UNPINNED_BUDGET / r['seconds']:.0f}",
                    "time unpinned/pinned",
                )
            )
            continue
        except Exception as error:  # noqa: BLE001 - report and go on
            print(f"      {label}: skipped ({type(error).__name__}: {error})")
            continue
        same = abs(f["start_value"] - r["start"])
        print(
            f"      {label:<28} {fmt_time(f['seconds'])} (solve {fmt_time(f['solve'])}); ratio to "
            f"pinned {f['seconds'] / r['seconds']:.1f}; start value differs by {same:.1e}"
        )
        summary.append(
            (
                f"c  {pieces} pieces unpinned, {'thread per core' if env else '1 thread'}",
                fmt_time(f["seconds"]),
                fmt_time(r["seconds"]),
                f"{f['seconds'] / r['seconds']:.1f}",
                "time unpinned/pinned",
            )
        )


# ---------------------------------------------------------------------------------
# d. Solved table file
# ---------------------------------------------------------------------------------


def bench_table(pieces, repeats, check, summary, results):
    r = results[pieces]
    table = gg.table_from_solution(r["solution"])
    n = len(table)
    print(f"\nd. Solved table, {pieces} pieces ({n:,} positions; best of {repeats})")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, f"{RULES}-{pieces}.urtable")
        t_save, _ = common.best_of(lambda: table.save(path), repeats)
        size = os.path.getsize(path)
        t_load, loaded = common.best_of(
            lambda: gg.load_table(path, rules=RULES, pieces=pieces), repeats
        )
        t_query, value = timed(lambda: loaded.start_value)
    same = bool((loaded.codes == table.codes).all() and (loaded.values == table.values).all())
    ok = check(same and value == r["start"], f"d: {pieces}-piece table read back differs")
    print(
        f"   file {fmt_bytes(size)}, {size / n:.2f} bytes per position (int64 code + float64 "
        f"value, header {size - 16 * n:,} bytes)"
    )
    print(
        f"   save {fmt_time(t_save)} ({size / t_save / 2**20:,.0f} MiB/s), load with checks "
        f"{fmt_time(t_load)} ({size / t_load / 2**20:,.0f} MiB/s), start value query "
        f"{fmt_time(t_query)}; read back identical: {ok}"
    )
    print(f"   ratio load / (build + solve): {t_load / r['seconds']:.4f}")
    summary.append(
        (
            f"d  load table, {pieces} pieces",
            fmt_time(t_load),
            fmt_time(r["seconds"]),
            f"{t_load / r['seconds']:.4f}",
            "time load/solve",
        )
    )
    summary.append(
        (
            f"d  save table, {pieces} pieces",
            fmt_time(t_save),
            "",
            "",
            f"{size / n:.2f} bytes/position",
        )
    )


# ---------------------------------------------------------------------------------
# Projection
# ---------------------------------------------------------------------------------


def projection(results, measured):
    """Time and memory at 5, 6, 7 pieces from the measured per-position costs."""
    measured = [p for p in measured if p in results]
    top = measured[-1]
    r = results[top]
    low = results[measured[-2]] if len(measured) >= 2 else None
    print(
        "\nProjection to more pieces: a PROJECTION from the measured per-position costs, "
        "not a measurement"
    )
    if low is not None:
        print(
            f"   linear: the {top}-piece cost per position times the positions; power: "
            f"cost ~ positions^k, k from the {measured[-2]}- and {top}-piece figures"
        )
    else:
        print(
            f"   linear: the {top}-piece cost per position times the positions "
            "(one size measured, so no power law)"
        )
    columns = (
        ("time", "seconds", fmt_duration),
        ("graph arrays", "graph_bytes", fmt_bytes),
        ("peak RSS over imports", "peak", fmt_bytes),
    )
    for name, key, _show in columns:
        per = r[key] / r["states"]
        k = (
            math.log(r[key] / low[key]) / math.log(r["states"] / low["states"])
            if low is not None
            else None
        )
        print(
            f"   {name}: {per * 1e6:.1f} us" if key == "seconds" else f"   {name}: {per:.0f} B",
            end="",
        )
        print(f" per position at {top} pieces" + (f"; k = {k:.2f}" if k is not None else ""))
    ram = (
        os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") if hasattr(os, "sysconf") else None
    )
    print(
        f"   {'pieces':>6} {'positions':>12}"
        + "".join(
            f" {name.split()[0] + ' lin.':>11} {name.split()[0] + ' power':>11}"
            for name, _, _ in columns
        )
    )
    out = {}
    for pieces in (5, 6, 7):
        n = gg.count(pieces)
        row = f"   {pieces:>6} {n:>12,}"
        for _name, key, show in columns:
            lin = r[key] / r["states"] * n
            power = (
                r[key]
                * (n / r["states"])
                ** (math.log(r[key] / low[key]) / math.log(r["states"] / low["states"]))
                if low is not None
                else None
            )
            row += f" {show(lin):>11} {show(power) if power is not None else '':>11}"
            out[(pieces, key)] = (lin, power)
        print(row)
    if ram:
        fits = [p for p in (5, 6, 7) if out[(p, "peak")][0] < MEMORY_TARGET[4]]
        print(
            f"   within {fmt_bytes(MEMORY_TARGET[4])} (linear peak): "
            f"{', '.join(map(str, fits)) or 'none'} of 5, 6, 7 pieces; this machine has "
            f"{fmt_bytes(ram)} of RAM"
        )
    return out


def fmt_duration(seconds: float) -> str:
    if seconds < 120:
        return fmt_time(seconds)
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# ---------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = common.parser(
        __doc__.split("\n\n")[0], "smoke run: 2 pieces only, one repeat, no child processes"
    )
    parser.add_argument(
        "--baseline-budget",
        type=float,
        default=BASELINE_BUDGET,
        help=f"seconds before the 3-piece baseline is stopped (default {BASELINE_BUDGET:.0f})",
    )
    parser.add_argument(
        "--lu-budget",
        type=float,
        default=LU_BUDGET,
        help=f"seconds of LU-only rounds in c (default {LU_BUDGET:.0f})",
    )
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--child-cpus", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child(args.child, args.child_cpus)

    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    # Pin before numpy and scipy start, so any threads they create stay on the core.
    pinned = (
        "not pinned (--no-pin)"
        if args.no_pin
        else common.pin(args.cpu) + ", inherited by the children unless said"
    )
    _import_gamegraph()
    gc.collect()
    rss_imports = rss_now()

    if args.quick:
        repeats, sizes, big, base_sizes, unpinned = 1, (2,), None, (2,), None
    else:
        repeats, sizes, big, base_sizes = 3, (2, 3), 4, (2, 3)
        unpinned = allowed if len(allowed) > 1 and not args.no_pin else None
    if args.repeat is not None:
        repeats = max(1, args.repeat)

    common.header("Ur", args.quick, pinned)
    try:
        print(
            f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
            f"on {os.cpu_count()} CPUs at the start"
        )
    except OSError:
        pass
    check, summary, results = Checks(), [], {}
    started = time.perf_counter()
    bench_solve(sizes, big, repeats, rss_imports, check, summary, results)
    bench_baseline(base_sizes, args.baseline_budget, min(repeats, 3), check, summary, results)
    bench_linear(sizes[-1], repeats, args.lu_budget, unpinned, check, summary, results)
    bench_table(sizes[-1], repeats, check, summary, results)
    projection(results, list(sizes) + ([big] if big else []))
    try:
        print(f"\nload average {', '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
    except OSError:
        pass

    return common.finish(
        summary,
        legend="Summary. Ratios below 1 favour the first column. time gg/base: gamegraph "
        "over the baseline;\ntime iter./LU: the iterative solver first over LU only; time "
        "load/solve: reading the\ntable over building and solving; time unpinned/pinned: a child "
        "on all CPUs over this\npinned process.",
        widths=(40, 10, 11, 9, 22),
        check=check,
        started=started,
    )


if __name__ == "__main__":
    sys.exit(main())
