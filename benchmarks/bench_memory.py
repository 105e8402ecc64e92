"""Calibrate the memory guards: measured peak RSS against each path's estimate.

Each run happens in a fresh interpreter whose resident memory is sampled every 0.2 s;
"measured" is the peak minus the resident size after imports. Run with

    .venv/bin/python benchmarks/bench_memory.py [--limit SECONDS]

Paths: float build + solve of Super Six (estimate: ``supersix.estimate_bytes``), exact
solves (``gamegraph.solve._exact_bytes``) and the LP (``gamegraph.mathprog.estimate_bytes``).
Figures of 2026-11-23 (2 cores, 24 GB, shared with other jobs):

=====================  ============  ===========  ========
run                    measured      estimate     seconds
=====================  ============  ===========  ========
float, 200 pegs        89 MiB        108 MiB      10.6
float, 500 pegs        347 MiB       347 MiB      42.8
float, 1,000 pegs      1.11 GiB      1.17 GiB     151
exact, 20 pegs         22 MiB        32 MiB       0.5
exact, 30 pegs         30 MiB        69 MiB       2.7
exact, 40 pegs         66 MiB        180 MiB      11.9
exact, Ur finkel 2     >5.6 GiB      12.1 GiB     >300 (stopped)
LP, 20 pegs            11 MiB        21 MiB       1.2
LP, 40 pegs            47 MiB        82 MiB       34
LP, 60 pegs            154 MiB       190 MiB      187
=====================  ============  ===========  ========
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

_CHILD = """
import json, sys
kind, size = sys.argv[1], int(sys.argv[2])
from gamegraph import build, solve
from gamegraph.games.supersix import SuperSix, estimate_bytes
from gamegraph.games.ur import Ur, rule_set
from gamegraph.mathprog import estimate_bytes as program_bytes, lp_relaxation
from gamegraph.solve import _exact_bytes
print("ready", flush=True)
sys.stdin.readline()
if kind == "float":
    estimate = estimate_bytes(size)
    solve(build(SuperSix(pegs=size), progress=False), progress=False)
elif kind == "exact":
    graph = build(SuperSix(pegs=size) if size > 2 else Ur(rule_set("finkel", size)))
    estimate = _exact_bytes(graph)
    solve(graph, exact=True, progress=False)
else:
    graph = build(SuperSix(pegs=size), progress=False)
    estimate = program_bytes(graph)
    lp_relaxation(graph)
print(json.dumps({"estimate": estimate}), flush=True)
"""

RUNS = [("float", 200), ("float", 500), ("exact", 20), ("exact", 30), ("exact", 40)]
RUNS += [("exact", 2), ("lp", 20), ("lp", 40)]  # exact 1 or 2: Ur finkel with that many


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))


def measure(kind: str, size: int, limit: float) -> dict:
    """Peak RSS above the post-import baseline, the estimate and the seconds taken."""
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, kind, str(size)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    child.stdout.readline()  # "ready": imports done
    base = peak = _rss(child.pid)
    child.stdin.write("\n")
    child.stdin.flush()
    started = time.perf_counter()
    while child.poll() is None and time.perf_counter() - started < limit:
        try:
            peak = max(peak, _rss(child.pid))
        except (OSError, StopIteration):
            break
        time.sleep(0.2)
    finished = child.poll() is not None
    if not finished:
        child.kill()
        child.wait()
    out = child.stdout.read().strip().splitlines()
    estimate = json.loads(out[-1])["estimate"] if finished and out else None
    return {
        "run": f"{kind} {size}",
        "measured_mib": round((peak - base) / 2**20, 1),
        "estimate_mib": None if estimate is None else round(estimate / 2**20, 1),
        "seconds": round(time.perf_counter() - started, 1),
        "finished": finished,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=120, help="seconds per run")
    args = parser.parse_args()
    for kind, size in RUNS:
        print(json.dumps(measure(kind, size, args.limit)), flush=True)


if __name__ == "__main__":
    main()
