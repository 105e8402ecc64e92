"""What the benchmark scripts share: timing, memory peaks, pinning, checks, formatting,
the summary."""

from __future__ import annotations

import argparse
import gc
import math
import os
import resource
import sys
import time
import tracemalloc

GIB = 2**30


def timed(fn):
    """(seconds, result) of one call, after a garbage collection."""
    gc.collect()
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def best_of(fn, repeats: int):
    """Best time over ``repeats`` calls, and the result of the last call."""
    best, result = math.inf, None
    for _ in range(repeats):
        t, result = timed(fn)
        best = min(best, t)
    return best, result


def pin(cpu) -> str:
    """Pin this process to one CPU (the lowest available by default); say what was done."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (os.sched_setaffinity unavailable)"
    if cpu is None:
        cpu = sorted(os.sched_getaffinity(0))[0]
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu} (os.sched_setaffinity; machine has {os.cpu_count()})"


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_bytes(n: float) -> str:
    for unit, size in (("GiB", GIB), ("MiB", 2**20), ("kiB", 2**10)):
        if n >= size:
            return f"{n / size:.{2 if unit == 'GiB' else 1}f} {unit}"
    return f"{n:.0f} B"


def met(ok: bool) -> str:
    return "met" if ok else "MISSED"


class Checks:
    """Collects failed correctness checks; calling it returns "ok" or "FAILED" for printing."""

    def __init__(self):
        self.failed = []

    def __call__(self, ok: bool, what: str) -> str:
        if not ok:
            self.failed.append(what)
        return "ok" if ok else "FAILED"


def parser(description: str, quick_help: str) -> argparse.ArgumentParser:
    """The options every benchmark script takes."""
    options = argparse.ArgumentParser(description=description)
    options.add_argument("--quick", action="store_true", help=quick_help)
    options.add_argument("--repeat", type=int, default=None, help="repeats per measurement")
    options.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: lowest)")
    options.add_argument("--no-pin", action="store_true", help="do not pin the process")
    return options


def header(game: str, quick: bool, pinned: str) -> None:
    """Print what ran, when, and on which versions."""
    import datetime
    import platform

    import numpy
    import scipy

    import gamegraph

    print(
        f"gamegraph {game} benchmarks, {datetime.date.today()}, {'quick' if quick else 'full'} mode"
    )
    print(
        f"python {platform.python_version()}, numpy {numpy.__version__}, "
        f"scipy {scipy.__version__}, gamegraph {gamegraph.__version__}; {pinned}"
    )


def finish(summary, *, legend: str, widths, check: Checks, started: float) -> int:
    """Print the summary table and the checks; the exit status (1 if a check failed)."""
    print("\n" + legend)
    header = ("benchmark", "gamegraph", "baseline", "ratio", "of")
    print("   " + " ".join(h.ljust(w) for h, w in zip(header, widths)))
    for row in summary:
        print("   " + " ".join(c.ljust(w) for c, w in zip(row, widths)))
    print(
        f"\ntotal {time.perf_counter() - started:.1f} s; checks: "
        + ("all ok" if not check.failed else "FAILED: " + "; ".join(check.failed))
    )
    return 1 if check.failed else 0


def traced_peak(fn):
    """(result, tracemalloc peak bytes during fn)."""
    gc.collect()
    tracemalloc.start()
    try:
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def maxrss_bytes(who) -> int:
    """ru_maxrss in bytes (Linux reports KiB, macOS bytes)."""
    rss = resource.getrusage(who).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024
