#!/usr/bin/env python
"""Objectives (issue 27): win games solve as fast as before; scores and margins; exact costs.

1. **Win games, before and after.** The gamegraph of commit ``--before`` (default
   58d5c5a, the last commit before objectives came in) is extracted with ``git archive``
   into a temporary folder; the current tree is the other. A child process per tree
   builds each game once and reports its best float solve (numba engine, after one
   solve that loads the compiled kernels) and, for Jackpot, its best exact solve. The
   two trees' children run in turn, round after round, and each round gives a ratio
   now / before; the median ratio per game is printed (1.00: no change). The games:
   Pig to 50 (natural form, 119,119 states), Super Six with 300 pegs, Shut the Box
   with 12 tiles and Jackpot exact.
2. **Scores and margins.** Pig solitaire, fewest expected turns to 100 (published
   12.545), float and exact; Pig for stakes to 100 (a margin game, 951,094 states),
   float.
3. **Exact costs.** The time :func:`gamegraph.solve` takes to refuse an exact solve of
   Pig to 100 (natural form), with the estimate it gives, on a built graph.

Usage::

    python benchmarks/bench_objectives.py             # about 4 min
    python benchmarks/bench_objectives.py --quick     # smoke run, about 1 min

Exit status 1 if a value differs between the trees or from the published one.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BEFORE = "58d5c5a"


def child(tree: str, repeats: int) -> int:
    """In a child process: the win games on the gamegraph of ``tree``; one JSON line."""
    sys.path.insert(0, tree)
    if Path(tree).resolve() != REPO:
        # The editable install would hand the old tree today's compiled walk: it builds
        # with its Python walk instead (builds are not timed).
        sys.modules["gamegraph._walk"] = None
    import gamegraph
    from gamegraph import build, solve
    from gamegraph.games.jackpot import Jackpot
    from gamegraph.games.pig import Pig
    from gamegraph.games.shutbox import ShutTheBox
    from gamegraph.games.supersix import SuperSix

    if not gamegraph.__file__.startswith(tree):
        raise SystemExit(f"imported {gamegraph.__file__}, not the tree {tree}")
    result = {}
    cases = [
        ("Pig to 50", lambda: build(Pig(goal=50)), {"engine": "numba"}),
        ("Super Six 300 pegs", lambda: build(SuperSix(pegs=300)), {"engine": "numba"}),
        ("Shut the Box 12", lambda: build(ShutTheBox(tiles=12)), {"engine": "numba"}),
        ("Jackpot exact", lambda: build(Jackpot()), {"exact": True}),
    ]
    for name, make, options in cases:
        graph = make()
        solve(graph, progress=False, **options)  # loads the kernels
        best, value = float("inf"), None
        for _ in range(repeats):
            start = time.perf_counter()
            value = solve(graph, progress=False, **options).start_value
            best = min(best, time.perf_counter() - start)
        result[name] = {"seconds": best, "value": str(value)}
    print(json.dumps(result))
    return 0


def extract(rev: str, folder: str) -> str:
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", rev, "gamegraph"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def run_child(tree: str, repeats: int) -> dict:
    run = subprocess.run(
        [sys.executable, __file__, "--child", tree, str(repeats)],
        capture_output=True,
        text=True,
        cwd=tree,
    )
    if run.returncode:
        raise SystemExit(f"child on {tree} failed: {run.stderr.strip()[-2000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def win_games(before: str, rounds: int, repeats: int) -> bool:
    print(f"1. Win games: solve now / solve at {before} (median of {rounds} rounds)")
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-objectives-") as folder:
        old = extract(before, folder)
        run_child(old, 1)  # compiles the old tree's kernels into its cache
        ratios: dict = {}
        for _ in range(rounds):
            then, now = run_child(old, repeats), run_child(str(REPO), repeats)
            for name in now:
                if then[name]["value"] != now[name]["value"]:
                    print(f"   {name}: value {now[name]['value']} != {then[name]['value']}")
                    ok = False
                ratios.setdefault(name, []).append(
                    (now[name]["seconds"] / then[name]["seconds"], now[name]["seconds"])
                )
    for name, pairs in ratios.items():
        ratio = statistics.median(r for r, _ in pairs)
        seconds = statistics.median(s for _, s in pairs)
        print(f"   {name:<20} now {seconds * 1e3:8.1f} ms   now / before {ratio:.2f}")
    return ok


def scores(repeats: int) -> bool:
    from gamegraph import build, solve
    from gamegraph.games.pig_solitaire import PigTurns
    from gamegraph.games.pig_stakes import PigStakes

    print("2. Scores and margins")
    graph = build(PigTurns(goal=100))
    solve(graph, progress=False)
    best = min(_time(lambda: solve(graph, progress=False)) for _ in range(repeats))
    value = -solve(graph, progress=False).start_value
    print(f"   Pig solitaire to 100: {value:.6f} expected turns, float solve {best * 1e3:.1f} ms")
    exact_time = _time(lambda: solve(graph, exact=True, progress=False))
    print(f"   Pig solitaire to 100, exact: {exact_time:.2f} s")
    start = time.perf_counter()
    stakes = build(PigStakes(goal=100))
    built = time.perf_counter() - start
    margin_time = _time(lambda: solve(stakes, progress=False))
    margin = solve(stakes, progress=False).start_value
    print(
        f"   Pig for stakes to 100: {stakes.n_states:,} states, margin {margin:.6f}, "
        f"build {built:.2f} s, float solve {margin_time:.2f} s"
    )
    return abs(value - 12.545) < 5e-4


def exact_refusal() -> None:
    from gamegraph import build, solve
    from gamegraph.errors import InvalidArgumentError
    from gamegraph.games.pig import Pig

    print("3. Exact cost: Pig to 100 (natural form)")
    graph = build(Pig(goal=100))
    start = time.perf_counter()
    try:
        solve(graph, exact=True, progress=False)
        print("   NOT refused")
    except InvalidArgumentError as error:
        print(f"   refused in {time.perf_counter() - start:.2f} s: {error}")


def _time(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one round, one repeat")
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        return child(args.child[0], int(args.child[1]))
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    rounds, repeats = (1, 1) if args.quick else (args.rounds, args.repeat)
    ok = win_games(args.before, rounds, repeats)
    ok = scores(repeats) and ok
    exact_refusal()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
