#!/usr/bin/env python
"""A user's own game: the per-state and batch paths against a plain dict BFS.

Issue 12 asks that a game written as rules cost little more than its rules. For each
game below the same process times, best of a few repeats (``time.perf_counter``,
``gc.collect()`` before each):

a. **BFS**, the baseline: a plain dictionary breadth-first search over the per-state
   rules (``index = {start: 0}``, a queue; for each state ``terminal_value``, then every
   outcome's options' targets into the dict). It is what the rules themselves cost.
b. ``build(rules)`` on the per-state rules (:class:`gamegraph.Rules`), with the compiled
   walk (:mod:`gamegraph._walk`) and, as b', with the Python walk alone (what a user
   gets where pip found no C compiler).
c. ``build(batch_rules)`` on the batch form (:class:`gamegraph.batch.BatchRules`).
d. ``solve(graph)`` with ``engine="numpy"`` and, when installed, ``engine="numba"``
   (compiled once before timing).
e. Before issue 12: a, b and d for MiniPig on the gamegraph of commit ``--today``
   (default the last commit before the issue), extracted with ``git archive`` into a
   temporary folder and run in a child process (``--today none`` skips it).

Each game's a and b, and its solves, are timed in alternating rounds so that they see
the same background load.

Every row gives states per second and its time over the BFS time. The games: Pig to 100
in its natural form (roll or hold, then the die: :mod:`gamegraph.games.pig`, 951,094
states); Pig to 100 in the throw-then-choose form of the old tutorial (``MiniPig``,
480,448 states, defined here with its batch form ``MiniPigBatch``: the form the issue's
"today" figures were measured on); Shut the Box with 9 and 12 tiles
(:mod:`gamegraph.games.shutbox`); and Super Six at 1,000 pegs (build and solve, no
per-state rules to compare with).

Targets printed (issue 12): per-state build within 1.3x the BFS; the Pig solve at least
5x faster than before the issue, relative to the BFS (solve / BFS at most a fifth of
what e measures; the issue's 6.5 s against a 17 s BFS if e cannot run); Pig to 100
built and solved through the batch path in under 5 s on one core; Super Six at 1,000
pegs built and solved in under 5 s.

Usage::

    python benchmarks/bench_games.py            # full run, about 8 min
    python benchmarks/bench_games.py --quick    # smoke run, about 30 s

Exit status 1 if a correctness check fails (state counts or values differ between the
paths or engines, a published value is missed); missed speed targets print MISSED.
"""

from __future__ import annotations

import argparse
import inspect
import math
import sys
import time

import _common as common
from _common import Checks, best_of, fmt_time, met, timed

# The last commit before issue 12, timed in a child process as "before issue 12".
TODAY_REV = "5d308fb000ef05d09e3874fd2896aa73be13be0a"
# Before issue 12 (issue text, MiniPig to 100): BFS 17 s, solve 6-7 s; used if the
# commit above cannot be run.
TODAY_SOLVE_OVER_BFS = 6.5 / 17
PIG_100_VALUE = 0.5305927252737465  # gamegraph.games.pig, float solve
SUPERSIX_1000_STATES = 2_982_035

np = None  # numpy, imported after pinning


# ---------------------------------------------------------------------------------
# The tutorial's throw-then-choose Pig, per state and in batches.
# ---------------------------------------------------------------------------------
ROLL, HOLD, BUST = 0, 1, 2


def minipig_rules():
    """The per-state class (it runs on the gamegraph of before issue 12 too)."""
    from fractions import Fraction

    from gamegraph import Option, Outcome, Rules

    roll, hold, bust = ROLL, HOLD, BUST
    sixth = Fraction(1, 6)

    class MiniPig(Rules):
        """docs/adding-a-game.md before issue 12: state (mine, theirs, turn); the throw,
        then roll again or hold."""

        def __init__(self, goal=100):
            self.goal, self.name = goal, f"mini pig to {goal}"

        def start(self):
            return (0, 0, 0)

        def terminal_value(self, state):
            return Fraction(1) if state == "won" else None

        def outcomes(self, state):
            me, other, turn = state
            result = [Outcome(sixth, (Option((other, me, 0), move=bust, passes=True),))]
            for face in range(2, 7):
                total = turn + face
                if me + total >= self.goal:
                    options = (Option("won", move=hold),)
                else:
                    options = (
                        Option((me, other, total), move=roll),
                        Option((other, me + total, 0), move=hold, passes=True),
                    )
                result.append(Outcome(sixth, options))
            return result

        def label(self, state):
            return "WON" if state == "won" else "{}-{} +{}".format(*state)

    return MiniPig


def minipig_batch():
    from gamegraph.batch import BatchRules, Expansion

    roll, hold, bust = ROLL, HOLD, BUST

    class MiniPigBatch(BatchRules):
        """MiniPig on codes ``(mine * goal + theirs) * goal + turn``; ``goal**3`` is won.
        Six outcomes of weight 1/6, each with up to two options: ``Expansion.from_grid``."""

        def __init__(self, goal=100):
            self.goal, self.name = goal, f"mini pig to {goal}"
            self.won = goal**3
            self.code_bound = self.won + 1

        def start(self):
            return 0

        def terminal_values(self, codes):
            return np.where(codes == self.won, 1.0, np.nan)

        def expand(self, codes):
            goal = self.goal
            rest, turn = np.divmod(codes, goal)
            me, other = np.divmod(rest, goal)
            m = len(codes)
            targets = np.zeros((m, 6, 2), dtype=np.int64)
            valid = np.zeros((m, 6, 2), dtype=bool)
            moves = np.zeros((m, 6, 2), dtype=np.int32)
            passes = np.zeros((m, 6, 2), dtype=bool)
            targets[:, 0, 0] = (other * goal + me) * goal
            valid[:, 0, 0], moves[:, 0, 0], passes[:, 0, 0] = True, bust, True
            for face in range(2, 7):
                total = turn + face
                won = me + total >= goal
                targets[:, face - 1, 0] = np.where(
                    won, self.won, (me * goal + other) * goal + total
                )
                moves[:, face - 1, 0] = np.where(won, hold, roll)
                targets[:, face - 1, 1] = (other * goal + np.minimum(me + total, goal - 1)) * goal
                valid[:, face - 1, 0] = True
                valid[:, face - 1, 1] = ~won
                moves[:, face - 1, 1] = hold
                passes[:, face - 1, 1] = True
            return Expansion.from_grid([1] * 6, 6, targets, valid, moves=moves, passes=passes)

        def state(self, code):
            if code == self.won:
                return "won"
            rest, turn = divmod(code, self.goal)
            return (*divmod(rest, self.goal), turn)

    return MiniPigBatch


# ---------------------------------------------------------------------------------
# The baseline
# ---------------------------------------------------------------------------------
def plain_bfs(rules) -> int:
    """Number every state reachable from the start with a dict and a queue; the count."""
    start = rules.start()
    index = {start: 0}
    queue = [start]
    terminal_value, outcomes = rules.terminal_value, rules.outcomes
    for state in queue:
        if terminal_value(state) is not None:
            continue
        for outcome in outcomes(state):
            for option in outcome.options:
                target = option.target
                if target not in index:
                    index[target] = len(queue)
                    queue.append(target)
    return len(queue)


def compiled_walk():
    """The per-state build's compiled walk, or None (not built, or a gamegraph before it)."""
    import importlib

    return getattr(importlib.import_module("gamegraph.build"), "_walk_plain", None)


def build_in_python(rules):
    """``build(rules)`` with the compiled walk switched off: the Python walk alone."""
    import importlib

    from gamegraph import build

    with importlib.import_module("gamegraph.build")._python_walk_only():
        return build(rules)


# ---------------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------------
def engines():
    from gamegraph import solve

    if "engine" not in inspect.signature(solve).parameters:
        return [None]
    try:
        import numba  # noqa: F401
    except ImportError:
        return ["numpy"]
    return ["numpy", "numba"]


def solve_with(graph, engine):
    from gamegraph import solve

    return solve(graph) if engine is None else solve(graph, engine=engine)


def bench_game(title, rules, batch, repeats, check, rows, expect=None):
    """Time a, b, c, d for one game and append its rows; return a summary dict."""
    from gamegraph import build

    print(f"\n{title}")
    functions = [lambda: plain_bfs(rules), lambda: build(rules)]
    if compiled_walk() is not None:
        functions.append(lambda: build_in_python(rules))
    times, (n_bfs, graph, *python) = interleaved(functions, repeats)
    t_bfs, t_state = times[:2]
    n = graph.n_states
    walk = "compiled walk" if compiled_walk() is not None else "Python walk: no gamegraph._walk"
    print(
        f"   a. BFS {fmt_time(t_bfs)} ({n_bfs:,} states); b. build per state ({walk}) "
        f"{fmt_time(t_state)} ({n:,} states, {graph.n_outcomes:,} outcomes, "
        f"{graph.n_options:,} options)"
    )
    check(n_bfs == n, f"{title}: BFS found {n_bfs:,} states, build {n:,}")
    rows.append((title, "a. plain dict BFS", n, t_bfs, t_bfs))
    rows.append((title, f"b. build, per state ({walk})", n, t_state, t_bfs))
    if python:
        same = np.array_equal(python[0].option_target, graph.option_target)
        print(
            f"   b'. build per state, Python walk {fmt_time(times[2])} "
            f"({times[2] / t_bfs:.2f} x BFS): {check(same, f'{title}: the walks differ')}"
        )
        rows.append((title, "b'. build, per state (Python walk)", n, times[2], t_bfs))
    sizes = (graph.n_states, graph.n_outcomes, graph.n_options)
    del graph, python
    t_batch, graph = best_of(lambda: build(batch), repeats)
    same = (graph.n_states, graph.n_outcomes, graph.n_options) == sizes
    print(f"   c. build, batch {fmt_time(t_batch)}: {check(same, f'{title}: batch graph differs')}")
    rows.append((title, "c. build, batch", n, t_batch, t_bfs))
    best_solve, values = None, {}
    times, solutions = interleaved(
        [lambda engine=engine: solve_with(graph, engine) for engine in engines()], repeats
    )
    for engine, t_solve, solution in zip(engines(), times, solutions):
        values[engine] = solution.values
        name = engine or "default"
        print(f"   d. solve ({name}) {fmt_time(t_solve)}, start value {solution.start_value:.13f}")
        if expect is not None:
            ok = abs(solution.start_value - expect) < 1e-9
            check(ok, f"{title}: start value {solution.start_value!r}, expected {expect!r}")
        rows.append((title, f"d. solve, {name}", n, t_solve, t_bfs))
        best_solve = t_solve if best_solve is None else min(best_solve, t_solve)
    if len(values) == 2:
        gap = float(np.abs(values["numpy"] - values["numba"]).max())
        print(
            f"      max |numpy - numba| {gap:.1e} < 1e-9: {check(gap < 1e-9, f'{title}: engines')}"
        )
    ratio = best_solve / t_bfs
    print(
        f"   build per state / BFS {t_state / t_bfs:.2f} (target <= 1.3: "
        f"{met(t_state <= 1.3 * t_bfs)}); solve / BFS {ratio:.3f}; batch build + solve "
        f"{fmt_time(t_batch + best_solve)}"
    )
    return {
        "total": t_batch + best_solve,
        "build_ratio": t_state / t_bfs,
        "solve_ratio": ratio,
        "states": n,
        "value": float(solution.start_value),
    }


def bench_supersix(pegs, repeats, check, rows):
    from gamegraph import build
    from gamegraph.games.supersix import SuperSix

    title = f"Super Six, {pegs:,} pegs"
    print(f"\n{title}")
    t_build, graph = best_of(lambda: build(SuperSix(pegs=pegs)), repeats)
    n = graph.n_states
    if pegs == 1000:
        check(n - 1 == SUPERSIX_1000_STATES, f"{title}: {n - 1:,} positions")
    rows.append((title, "build", n, t_build, None))
    best = None
    for engine in engines():
        t_solve, _ = best_of(lambda engine=engine: solve_with(graph, engine), repeats)
        rows.append((title, f"solve, {engine or 'default'}", n, t_solve, None))
        best = t_solve if best is None else min(best, t_solve)
    total = t_build + best
    print(
        f"   build {fmt_time(t_build)}, best solve {fmt_time(best)}: build + solve "
        f"{fmt_time(total)} (target under 5 s at 1,000 pegs: {met(total < 5)})"
    )
    return total


def today_child(tree, goal, repeats) -> int:
    """In a child process: the gamegraph of ``tree`` (before issue 12) on MiniPig."""
    import json

    sys.path.insert(0, tree)
    global np
    import numpy

    np = numpy
    import gamegraph
    from gamegraph import build, solve

    if not gamegraph.__file__.startswith(tree):
        raise SystemExit(f"imported {gamegraph.__file__}, not the tree {tree}")
    rules = minipig_rules()(goal)
    (t_bfs, t_build), (n, graph) = interleaved(
        [lambda: plain_bfs(rules), lambda: build(rules)], repeats
    )
    t_solve, solution = best_of(lambda: solve(graph), repeats)
    result = {"bfs": t_bfs, "build": t_build, "solve": t_solve, "states": graph.n_states}
    print(json.dumps({**result, "bfs_states": n, "value": float(solution.start_value)}))
    return 0


def bench_today(rev, goal, repeats, check, rows, now):
    """MiniPig on the gamegraph of commit ``rev`` (extracted with git archive) in a child."""
    import io
    import json
    import subprocess
    import tarfile
    import tempfile
    from pathlib import Path

    title = f"Pig to {goal}, throw then choose"
    print(f"\nBefore issue 12 (gamegraph at {rev}, in a child process): {title}")
    repo = Path(__file__).resolve().parent.parent
    try:
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", rev, "gamegraph"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"   skipped (git archive {rev} failed: {error})")
        return None
    with tempfile.TemporaryDirectory(prefix="bench-games-") as tree:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree)
        run = subprocess.run(
            [sys.executable, __file__, "--today-child", tree, str(goal), str(repeats)],
            capture_output=True,
            text=True,
            cwd=tree,
        )
    if run.returncode:
        print(f"   skipped (child failed: {run.stderr.strip().splitlines()[-1:]})")
        return None
    old = json.loads(run.stdout.strip().splitlines()[-1])
    n = old["states"]
    check(n == now["states"], f"before issue 12: {n:,} states, now {now['states']:,}")
    check(abs(old["value"] - now["value"]) < 1e-9, f"before issue 12: value {old['value']!r}")
    print(
        f"   BFS {fmt_time(old['bfs'])}, build {fmt_time(old['build'])} "
        f"({old['build'] / old['bfs']:.2f} x BFS), solve {fmt_time(old['solve'])} "
        f"({old['solve'] / old['bfs']:.3f} x BFS)"
    )
    rows.append((f"{title}, before issue 12", "a. plain dict BFS", n, old["bfs"], old["bfs"]))
    rows.append((f"{title}, before issue 12", "b. build, per state", n, old["build"], old["bfs"]))
    rows.append((f"{title}, before issue 12", "d. solve", n, old["solve"], old["bfs"]))
    return old


def interleaved(functions, repeats):
    """Best time of each function over ``repeats`` rounds that call each in turn (so all
    see the same background load), and each one's last result."""
    best, results = [math.inf] * len(functions), [None] * len(functions)
    for _ in range(repeats):
        for i, function in enumerate(functions):
            results[i] = None  # free the last result before timing the next
            t, results[i] = timed(function)
            best[i] = min(best[i], t)
    return best, results


def warm_up():
    """Compile the numba kernels (and import everything) before anything is timed."""
    from gamegraph import build
    from gamegraph.games.pig import PigBatch

    graph = build(PigBatch(8))
    started = time.perf_counter()
    for engine in engines():
        solve_with(graph, engine)
    return time.perf_counter() - started


def table(rows):
    lines = [
        "| game | path | states | time | states per second | time / BFS |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for game, path, n, t, bfs in rows:
        ratio = "" if bfs is None else f"{t / bfs:.3f}"
        lines.append(f"| {game} | {path} | {n:,} | {fmt_time(t)} | {n / t:,.0f} | {ratio} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = common.parser(
        __doc__.split("\n\n")[0], "smoke run: one repeat, Pig to 40, Super Six at 300 pegs"
    )
    parser.add_argument(
        "--today",
        default=TODAY_REV,
        metavar="REV",
        help=f"git revision timed as 'before issue 12' (default {TODAY_REV}; 'none' to skip)",
    )
    parser.add_argument("--today-child", nargs=3, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.today_child is not None:
        tree, goal, repeats = args.today_child
        return today_child(tree, int(goal), int(repeats))
    # Pin before numpy starts, so any threads it creates stay on the core.
    pinned = "not pinned (--no-pin)" if args.no_pin else common.pin(args.cpu)
    global np
    import numpy

    np = numpy
    from gamegraph.games.pig import Pig, PigBatch
    from gamegraph.games.shutbox import EXACT_WIN, ShutTheBox, ShutTheBoxBatch

    goal, pegs, repeats = (40, 300, 1) if args.quick else (100, 1000, 3)
    if args.repeat is not None:
        repeats = max(1, args.repeat)
    common.header("games (per state, batch, BFS)", args.quick, pinned)
    started = time.perf_counter()
    print(f"engines: {engines()}; numba compile and first calls {fmt_time(warm_up())}")
    check, rows = Checks(), []
    MiniPig, MiniPigBatch = minipig_rules(), minipig_batch()

    pig = bench_game(
        f"Pig to {goal}, natural form",
        Pig(goal),
        PigBatch(goal),
        repeats,
        check,
        rows,
        expect=PIG_100_VALUE if goal == 100 else None,
    )
    mini = bench_game(
        f"Pig to {goal}, throw then choose", MiniPig(goal), MiniPigBatch(goal), repeats, check, rows
    )
    if goal == 100:
        check(mini["states"] == 480_448, f"MiniPig to 100 has {mini['states']:,} states")
    old = (
        None if args.today == "none" else bench_today(args.today, goal, repeats, check, rows, mini)
    )
    if old is not None:
        today_ratio, source = old["solve"] / old["bfs"], f"measured at {args.today[:7]}"
    else:
        today_ratio, source = TODAY_SOLVE_OVER_BFS, "from the issue's 6.5 s / 17 s"
    for tiles in (9, 12):
        bench_game(
            f"Shut the Box, {tiles} tiles",
            ShutTheBox(tiles=tiles),
            ShutTheBoxBatch(tiles=tiles),
            max(repeats, 5),
            check,
            rows,
            expect=float(EXACT_WIN["sum6"]) if tiles == 9 else None,
        )
    six_total = bench_supersix(pegs, repeats, check, rows)

    print("\nTargets (issue 12)")
    print(
        f"   Pig to {goal} natural form, batch build + solve {fmt_time(pig['total'])} < 5 s: "
        f"{met(pig['total'] < 5)}"
    )
    print(
        f"   Pig to {goal} throw then choose, batch build + solve {fmt_time(mini['total'])} "
        f"< 5 s: {met(mini['total'] < 5)}"
    )
    for name, result in (("natural form", pig), ("throw then choose", mini)):
        print(
            f"   {name}: build per state / BFS {result['build_ratio']:.2f} <= 1.3: "
            f"{met(result['build_ratio'] <= 1.3)}"
        )
    target, now = today_ratio / 5, mini["solve_ratio"]
    print(
        f"   throw then choose: solve / BFS {now:.3f} <= {target:.3f}, a fifth of the "
        f"{today_ratio:.3f} before issue 12 ({source}); {today_ratio / now:.1f}x faster: "
        f"{met(now <= target)}"
    )
    print(
        f"   Super Six {pegs:,} pegs build + solve {fmt_time(six_total)} < 5 s: "
        f"{met(six_total < 5)}"
    )
    print("\n" + table(rows))
    print(
        f"\ntotal {time.perf_counter() - started:.1f} s; checks: "
        + ("all ok" if not check.failed else "FAILED: " + "; ".join(check.failed))
    )
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
