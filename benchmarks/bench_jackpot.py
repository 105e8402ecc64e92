#!/usr/bin/env python
"""Jackpot benchmarks: gamegraph against plain-Python baselines run in the same process.

Machines are noisy, so every figure is printed next to a baseline measured in the same
run, and the ratio between the two is what to compare across machines. Times are the
best of a few repeats (``time.perf_counter``); gamegraph and baseline repeats alternate.

a. Exact analysis of the seven policies (six agents and the optimum), graph building
   included, against a memoised recursive Fraction computation over bit masks.
b. Monte Carlo throughput of ``gamegraph.simulate.simulate`` (hilo) against a plain
   ``random.Random`` game loop; both estimates are checked against the exact value.
c. Rendering through ``gamegraph.cli``: PNG against writing the DOT text only.
d. Memory: tracemalloc peak of build + exact solve against the baseline's lru_cache,
   and bytes per option of the StateGraph arrays.

Usage::

    python benchmarks/bench_jackpot.py            # full run, about half a minute
    python benchmarks/bench_jackpot.py --quick    # smoke run, a few seconds

Exit status 1 if a correctness check fails (results differ, or an estimate misses the
exact value); missed speed targets are reported but do not fail the run.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import math
import random
import sys
import tempfile
import time
import tracemalloc
from fractions import Fraction
from functools import cache
from pathlib import Path

import _common as common
from _common import Checks, fmt_bytes, fmt_time, timed

HILO_EXACT = Fraction(660001525, 8264970432)
"""Exact win probability of the hilo agent (the value the analysis must reproduce)."""

CELLS, SIDES = 9, 6
FULL = (1 << CELLS) - 1
POLICIES = ("min", "max", "first", "last", "hilo", "hilo2", "optimal")
Z95 = 1.959963984540054  # two-sided 95 % normal quantile


# ---------------------------------------------------------------------------------
# Baseline: plain Python written straight from the rules, no gamegraph involved.
# ---------------------------------------------------------------------------------


def offered(a: int, b: int) -> list[int]:
    """Cells a roll names, in the order die a, die b, sum; the sum only if it is a cell."""
    cells = []
    for cell in (a, b, a + b):
        if cell <= CELLS and cell not in cells:
            cells.append(cell)
    return cells


ROLLS = tuple(tuple(offered(a, b)) for a in range(1, SIDES + 1) for b in range(1, SIDES + 1))
HILO_RANK = {cell: i for i, cell in enumerate((9, 8, 7, 1, 2, 3, 4, 5, 6))}

# Each pick receives the offered cells still down, in the rules' order, and names one.
BASELINE_PICKS = {
    "min": min,
    "max": max,
    "first": lambda cells: cells[0],
    "last": lambda cells: cells[-1],
    "hilo": lambda cells: min(cells, key=HILO_RANK.__getitem__),
    "hilo2": lambda cells: max(cells) if max(cells) > 6 else min(cells),
}


def baseline_win(pick=None):
    """Win probability from the empty board; ``pick=None`` plays optimally.

    Returns the Fraction and the memoised function (which holds the cache).
    """

    @cache
    def win(mask: int) -> Fraction:
        if mask == FULL:
            return Fraction(1)
        total = Fraction(0)
        for cells in ROLLS:  # the 36 ordered rolls
            down = [c for c in cells if not mask >> (c - 1) & 1]
            if not down:
                continue  # no legal flip: this roll loses
            if pick is None:
                total += max(win(mask | 1 << (c - 1)) for c in down)
            else:
                total += win(mask | 1 << (pick(down) - 1))
        return total / len(ROLLS)

    return win(0), win


def baseline_analysis() -> dict:
    values = {name: baseline_win(pick)[0] for name, pick in BASELINE_PICKS.items()}
    values["optimal"] = baseline_win(None)[0]
    return values


def baseline_simulate(games: int, seed: int) -> int:
    """Play ``games`` games of hilo with random.Random; return the number won."""
    rng = random.Random(seed)
    wins = 0
    for _ in range(games):
        mask = 0
        while mask != FULL:
            a = rng.randrange(SIDES) + 1
            b = rng.randrange(SIDES) + 1
            down = [c for c in offered(a, b) if not mask >> (c - 1) & 1]
            if not down:
                break
            mask |= 1 << (min(down, key=HILO_RANK.__getitem__) - 1)
        else:
            wins += 1
    return wins


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


# ---------------------------------------------------------------------------------
# gamegraph side (imported in main, after the process is pinned)
# ---------------------------------------------------------------------------------

gg = None  # namespace filled by _import_gamegraph


def _import_gamegraph():
    global gg
    from gamegraph import Policy, build, evaluate, solve
    from gamegraph.games.jackpot import AGENTS, Jackpot
    from gamegraph.simulate import simulate

    gg = argparse.Namespace(
        Policy=Policy,
        build=build,
        evaluate=evaluate,
        solve=solve,
        AGENTS=AGENTS,
        Jackpot=Jackpot,
        simulate=simulate,
    )


def gamegraph_analysis():
    """All seven exact win probabilities, from the rules; returns (values, step times)."""
    t0 = time.perf_counter()
    graph = gg.build(gg.Jackpot())
    t1 = time.perf_counter()
    policies = {
        name: gg.Policy.from_agent(graph, agent, name=name) for name, agent in gg.AGENTS.items()
    }
    t2 = time.perf_counter()
    values = {
        name: gg.evaluate(graph, policy, exact=True).start_value
        for name, policy in policies.items()
    }
    t3 = time.perf_counter()
    values["optimal"] = gg.solve(graph, exact=True).start_value
    t4 = time.perf_counter()
    steps = {
        "build": t1 - t0,
        "6 x Policy.from_agent": t2 - t1,
        "6 x evaluate(exact)": t3 - t2,
        "solve(exact)": t4 - t3,
    }
    return values, steps


# ---------------------------------------------------------------------------------
# Timing helpers
# ---------------------------------------------------------------------------------


def best_of_pair(fn_a, fn_b, repeats: int):
    """Alternate fn_a and fn_b ``repeats`` times; best time and last result of each."""
    best_a = best_b = math.inf
    res_a = res_b = None
    for _ in range(repeats):
        t, r = timed(fn_a)
        if t < best_a:
            best_a, res_a = t, r
        t, r = timed(fn_b)
        if t < best_b:
            best_b, res_b = t, r
    return (best_a, res_a), (best_b, res_b)


def traced(fn):
    """(result, bytes still held after fn, peak bytes during fn) under tracemalloc."""
    gc.collect()
    tracemalloc.start()
    try:
        result = fn()
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, current, peak


# ---------------------------------------------------------------------------------
# The benchmarks
# ---------------------------------------------------------------------------------


def bench_analysis(repeats, check, summary):
    print("\na. Exact analysis of 7 policies (graph building included)")
    (t_gg, (values, steps)), (t_base, base) = best_of_pair(
        gamegraph_analysis, baseline_analysis, repeats
    )
    same = all(type(values[n]) is Fraction and values[n] == base[n] for n in POLICIES)
    print(f"   {'policy':<8} {'win probability (exact)':>28} {'percent':>9}")
    for name in POLICIES:
        v = values[name]
        print(f"   {name:<8} {f'{v.numerator}/{v.denominator}':>28} {100 * float(v):>8.4f}%")
    print(f"   identical Fractions, gamegraph vs baseline: {check(same, 'a: values differ')}")
    print(f"   hilo = {HILO_EXACT}: {check(values['hilo'] == HILO_EXACT, 'a: hilo value')}")
    print(
        f"   gamegraph, best of {repeats}: {fmt_time(t_gg)}  ("
        + ", ".join(f"{k} {fmt_time(v)}" for k, v in steps.items())
        + ")"
    )
    print(f"   baseline (lru_cache Fraction recursion), best of {repeats}: {fmt_time(t_base)}")
    print(f"   ratio gamegraph / baseline time: {t_gg / t_base:.2f}")
    met = "met" if t_gg < 1.0 else "MISSED"
    print(f"   target: full analysis under 1 s: {met}")
    summary.append(
        (
            "a  exact analysis, 7 policies",
            fmt_time(t_gg),
            fmt_time(t_base),
            f"{t_gg / t_base:.2f}",
            "time gg/base",
        )
    )


def bench_monte_carlo(games, base_games, repeats, seed, check, summary):
    print(
        f"\nb. Monte Carlo, hilo: {games:,} games (gamegraph) vs {base_games:,} games "
        f"(plain Python), seed {seed}"
    )
    graph = gg.build(gg.Jackpot())
    policy = gg.Policy.from_agent(graph, gg.AGENTS["hilo"], name="hilo")
    (t_gg, result), (t_base, base_wins) = best_of_pair(
        lambda: gg.simulate(graph, policy, games=games, seed=seed),
        lambda: baseline_simulate(base_games, seed),
        repeats,
    )
    rate_gg, rate_base = games / t_gg, base_games / t_base
    exact = float(HILO_EXACT)
    low, high = result.interval(0.95)
    blow, bhigh = wilson(base_wins, base_games)
    ok_gg = check(low <= exact <= high, "b: gamegraph estimate misses exact hilo value")
    ok_base = check(blow <= exact <= bhigh, "b: baseline estimate misses exact hilo value")
    print(f"   exact hilo {100 * exact:.4f}%")
    interval = f"95% [{100 * low:.4f}, {100 * high:.4f}]"
    print(f"   gamegraph {100 * result.estimate:.4f}%  {interval}  {ok_gg}")
    print(
        f"   baseline  {100 * base_wins / base_games:.4f}%  95% [{100 * blow:.4f}, "
        f"{100 * bhigh:.4f}]  {ok_base}"
    )
    print(
        f"   gamegraph {rate_gg:,.0f} games/s (best of {repeats}: {fmt_time(t_gg)}, "
        f"{result.throws / games:.2f} throws/game)"
    )
    print(f"   baseline  {rate_base:,.0f} games/s (best of {repeats}: {fmt_time(t_base)})")
    print(f"   ratio gamegraph / baseline rate: {rate_gg / rate_base:.1f}")
    met = "met" if rate_gg >= 1e6 else "MISSED"
    print(f"   target: at least 1,000,000 games/s on one core: {met}")
    summary.append(
        (
            "b  Monte Carlo hilo (games/s)",
            f"{rate_gg / 1e6:.2f} M",
            f"{rate_base / 1e6:.3f} M",
            f"{rate_gg / rate_base:.1f}",
            "rate gg/base",
        )
    )


class Skip(Exception):
    pass


def _run_cli(main, argv, path: Path):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code
        except Exception as error:  # the command is still being written
            raise Skip(f"{' '.join(argv)}: {type(error).__name__}: {error}") from None
    if status not in (0, None):
        message = (err.getvalue().strip().splitlines() or [""])[-1]
        raise Skip(f"{' '.join(argv)}: exit status {status}: {message}")
    if not path.is_file() or path.stat().st_size == 0:
        raise Skip(f"{' '.join(argv)}: wrote no {path.name}")
    if path.suffix == ".png" and path.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
        raise Skip(f"{' '.join(argv)}: {path.name} is not a PNG")


def bench_rendering(styles, repeats, summary):
    print(f"\nc. Rendering with gamegraph.cli (jackpot graph --agent hilo), best of {repeats}")
    try:
        from gamegraph.cli import main
    except Exception as error:
        print(f"rendering: skipped ({type(error).__name__}: {error})")
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for style in styles:
                times = {}
                for ext in ("dot", "png"):
                    path = Path(tmp) / f"{style}.{ext}"
                    argv = [
                        "jackpot",
                        "graph",
                        "--agent",
                        "hilo",
                        "--style",
                        style,
                        "-o",
                        str(path),
                    ]
                    best = math.inf
                    for _ in range(repeats):
                        path.unlink(missing_ok=True)
                        t, _ = timed(lambda argv=argv, path=path: _run_cli(main, argv, path))
                        best = min(best, t)
                    times[ext] = (best, path.stat().st_size)
                rows.append((style, times))
        except Skip as reason:
            print(f"rendering: skipped ({reason})")
            return
    for style, times in rows:
        (t_png, s_png), (t_dot, s_dot) = times["png"], times["dot"]
        print(
            f"   {style:<7} PNG {fmt_time(t_png):>9} ({fmt_bytes(s_png)})   "
            f"DOT {fmt_time(t_dot):>9} ({fmt_bytes(s_dot)})   ratio PNG / DOT {t_png / t_dot:.1f}"
        )
        summary.append(
            (
                f"c  render {style}: PNG vs DOT",
                fmt_time(t_png),
                fmt_time(t_dot),
                f"{t_png / t_dot:.1f}",
                "time PNG/DOT",
            )
        )
    print(
        "   (each command builds the graph and evaluates hilo before writing; "
        "the DOT run is the same work without layout and rasterising)"
    )


def bench_memory(summary):
    print("\nd. Memory (tracemalloc)")
    gg.solve(gg.build(gg.Jackpot()), exact=True)  # warm: lazy imports are not counted

    def gamegraph_side():
        graph = gg.build(gg.Jackpot())
        return graph, gg.solve(graph, exact=True)

    (graph, solution), held_gg, peak_gg = traced(gamegraph_side)
    _, _, peak_build = traced(lambda: gg.build(gg.Jackpot()))
    built = gg.build(gg.Jackpot())
    built.condensation  # noqa: B018 -- computed once here, outside the timed solve
    _, _, peak_solve = traced(lambda: gg.solve(built, exact=True))
    (value, win), held_base, peak_base = traced(lambda: baseline_win(None))
    assert value == solution.start_value
    print(
        f"   build + solve(exact):           peak {fmt_bytes(peak_gg):>9}, "
        f"held after {fmt_bytes(held_gg):>9}  (build alone peak {fmt_bytes(peak_build)}, "
        f"solve alone peak {fmt_bytes(peak_solve)})"
    )
    print(
        f"   baseline optimum (lru_cache):   peak {fmt_bytes(peak_base):>9}, "
        f"held after {fmt_bytes(held_base):>9} ({win.cache_info().currsize} cached positions)"
    )
    print(f"   ratio gamegraph / baseline peak: {peak_gg / peak_base:.1f}")
    per_option = graph.nbytes / graph.n_options
    print(
        f"   StateGraph arrays: {graph.n_states} states, {graph.n_outcomes} outcomes, "
        f"{graph.n_options} options, {graph.nbytes:,} bytes = {per_option:.1f} bytes/option"
    )
    summary.append(
        (
            "d  peak memory, build + solve",
            fmt_bytes(peak_gg),
            fmt_bytes(peak_base),
            f"{peak_gg / peak_base:.1f}",
            "bytes gg/base",
        )
    )
    summary.append(("d  StateGraph bytes per option", f"{per_option:.1f} B", "", "", ""))


def main(argv=None) -> int:
    parser = common.parser(
        __doc__.split("\n\n")[0], "smoke run: one repeat, fewer games, layers style only"
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    # Pin before numpy and scipy start, so any threads they create stay on the core.
    pinned = "not pinned (--no-pin)" if args.no_pin else common.pin(args.cpu)
    _import_gamegraph()

    if args.quick:
        repeats, games, base_games, styles = 1, 200_000, 2_000, ("layers",)
    else:
        repeats, games, base_games, styles = 5, 2_000_000, 20_000, ("layers", "moves")
    if args.repeat is not None:
        repeats = max(1, args.repeat)

    common.header("Jackpot", args.quick, pinned)
    check, summary = Checks(), []
    started = time.perf_counter()
    bench_analysis(repeats, check, summary)
    bench_monte_carlo(games, base_games, min(repeats, 3), args.seed, check, summary)
    bench_rendering(styles, min(repeats, 3), summary)
    bench_memory(summary)

    return common.finish(
        summary,
        legend="Summary. Ratios: time gg/base and bytes gg/base below 1 favour gamegraph; "
        "rate gg/base\nabove 1 favours gamegraph; "
        "time PNG/DOT is what layout and rasterising cost.",
        widths=(32, 11, 11, 7, 13),
        check=check,
        started=started,
    )


if __name__ == "__main__":
    sys.exit(main())
