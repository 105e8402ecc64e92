#!/usr/bin/env python
"""Whole commands, as a user times them: each one a fresh process, beside ``python -c pass``.

Issue 31 asks what the user times, not the library inside a warm process. Each command
below runs as a child process of its own, the way a shell starts it, and is timed from
just before the process is started to just after it has exited (``CLOCK_MONOTONIC``,
best of the repeats), beside ``python -c pass`` and ``python -c "import numpy"`` in the
same run. Commands and baselines run in rounds, one of each per round, so that all of
them see the same background load. The CPU time of the best run (user + system, of the
child and its threads, from ``os.wait4``) is printed beside it: on a busy machine it
moves less than wall time.

The breakdown comes from separate runs of the same command under a small wrapper
(:data:`WRAPPER`, also best of the repeats, rounds alternating with the plain runs). It
runs the command in the same interpreter (``runpy`` for ``gamegraph``, ``exec`` for a
``python -c`` program) and reads the monotonic clock at a few points:

start-up
    process start to the parsed arguments (the interpreter, ``import gamegraph`` and the
    argument parser: the first ``ArgumentParser.parse_args`` to return); for a
    ``python -c`` program, to its first build or solve.
setup
    parsed arguments to the first build or solve (what the command imports and checks
    before it works).
build, solve
    the time inside :func:`gamegraph.build` and inside :func:`gamegraph.solve` or
    :func:`gamegraph.evaluate` (the outermost call; their modules' functions are wrapped
    as the modules are imported, so every caller gets the wrapped ones).
other
    from the first build or solve to the interpreter's exit handlers, the time in neither:
    policies made from agents, decision tables, summaries, notation, the printing.
exit
    the exit handlers to the parent seeing the process gone (interpreter teardown).

The wrapper itself costs a few milliseconds (``importlib``'s finder, ``runpy``), so the
whole-command columns are always the plain runs'. Which of a command's two runs comes
first alternates from round to round: a process that needs a gigabyte, started right
after another that gave one back, gets it with far less system time (at 1,000 pegs, 0.3 s
against 1.7-2.2 s after other work on this machine), so the best of the rounds is a run
of the first kind and the worst, printed beside it, often one of the second.

Targets printed (issue 31): ``gamegraph --help`` and an argument error under 0.2 s;
``supersix solve --pegs 40``, ``jackpot analyse`` and ``ur solve --pieces 1`` under 0.5 s
each; ``supersix solve --pegs 1000`` under 5 s; build + solve of Pig to 10 in a fresh
process under 0.1 s.

Usage::

    python benchmarks/bench_cli.py              # full run, about 2 min (5 rounds, 3 at 1,000 pegs)
    python benchmarks/bench_cli.py --quick      # 1 round, without the 1,000-peg solve, about 10 s
    python benchmarks/bench_cli.py --only pig   # the commands whose key contains "pig"
    python benchmarks/bench_cli.py --before REV # also the package at REV, about 3 min

``--before REV`` extracts the package at git revision ``REV`` with ``git archive`` into a
temporary folder and runs every command on it too, in the same rounds (both sides then as
``python -m gamegraph``), and prints the two side by side.

The processes are not pinned: a command runs as a user runs it, with every core it may
use. They run without ``PYTHONDONTWRITEBYTECODE`` even where it is set (with it, every
start compiles the modules again: a few tenths of a second a user does not pay); the
script says so when it removes it. Exit status 1 if a command fails or prints something
other than what it should; missed targets are printed as MISSED but do not fail the run.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from _common import Checks, fmt_time, met


def now() -> float:
    """The system-wide monotonic clock: the same in the parent and in its children."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


#: Runs a command in this interpreter and writes the clock readings of its phases as JSON
#: to the file named by its first argument. Arguments after it: ``-m ARGS...`` runs
#: ``gamegraph ARGS...``, ``-c CODE`` runs a program.
WRAPPER = r"""
import atexit, functools, importlib.machinery, json, sys, time
now = lambda: time.clock_gettime(time.CLOCK_MONOTONIC)
marks = {"begin": now(), "parsed": None, "first": None, "last": None, "build": 0.0, "solve": 0.0}
depth = [0]
HOOKS = {"gamegraph.build": {"build": "build"},
         "gamegraph.solve": {"solve": "solve", "evaluate": "solve"}}

def timed(fn, phase):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if depth[0]:
            return fn(*args, **kwargs)
        depth[0] += 1
        start = now()
        marks["first"] = marks["first"] or start
        try:
            return fn(*args, **kwargs)
        finally:
            end = now()
            marks[phase] += end - start
            marks["last"] = end
            depth[0] -= 1
    return wrapper

class Phases:
    def find_spec(self, name, path, target=None):
        hooks = HOOKS.get(name)
        spec = hooks and importlib.machinery.PathFinder.find_spec(name, path)
        if not spec:
            return None
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            for attr, phase in hooks.items():
                setattr(module, attr, timed(getattr(module, attr), phase))
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Phases())
out, mode, rest = sys.argv[1], sys.argv[2], sys.argv[3:]

def write():
    marks["atexit"] = now()
    with open(out, "w") as f:
        json.dump(marks, f)

atexit.register(write)
if mode == "-m":
    import argparse, runpy
    parse = argparse.ArgumentParser.parse_args
    def parse_args(self, *args, **kwargs):
        result = parse(self, *args, **kwargs)
        marks["parsed"] = marks["parsed"] or now()
        return result
    argparse.ArgumentParser.parse_args = parse_args
    sys.argv = ["gamegraph", *rest]
    runpy.run_module("gamegraph", run_name="__main__", alter_sys=True)
else:
    sys.argv = ["-c"]
    exec(compile(rest[0], "<string>", "exec"), {"__name__": "__main__"})
"""

#: Pig to 10 (604 states) built and solved, the issue's first solve in a fresh process.
PIG_10 = (
    "from gamegraph import build, solve\n"
    "from gamegraph.games.pig import Pig\n"
    "print(round(float(solve(build(Pig(goal=10))).start_value), 12))"
)


@dataclass
class Command:
    """One command: what runs, what it must print, and its target."""

    key: str
    shown: str  # as a user types it
    argv: list  # after the interpreter: ["-m", "gamegraph", ...] or ["-c", CODE]
    expect: str = ""  # a fragment its output must hold
    status: int = 0
    target: float | None = None  # seconds
    target_of: str = "whole"  # "whole" or "build+solve"
    baseline: bool = False
    slow: bool = False  # left out by --quick
    plain: dict = field(default_factory=dict)  # side -> (wall, cpu) of each plain run
    wrapped: dict = field(default_factory=dict)  # side -> phase dicts of each wrapped run


def commands() -> list[Command]:
    gg = ["-m", "gamegraph"]
    return [
        Command("python", "python -c pass", ["-c", "pass"], baseline=True),
        Command("numpy", 'python -c "import numpy"', ["-c", "import numpy"], baseline=True),
        Command("help", "gamegraph --help", [*gg, "--help"], "supersix", target=0.2),
        Command(
            "argument-error",
            "gamegraph supersix solve --pegs x",
            [*gg, "supersix", "solve", "--pegs", "x"],
            status=2,
            target=0.2,
        ),
        Command(
            "supersix-40",
            "gamegraph supersix solve --pegs 40",
            [*gg, "supersix", "solve", "--pegs", "40"],
            "0.546744595904",
            target=0.5,
        ),
        Command(
            "jackpot-analyse",
            "gamegraph jackpot analyse",
            [*gg, "jackpot", "analyse"],
            "14103327415/176319369216",
            target=0.5,
        ),  # fmt: skip
        Command(
            "ur-1",
            "gamegraph ur solve --pieces 1",
            [*gg, "ur", "solve", "--pieces", "1"],
            "0.530049839525",
            target=0.5,
        ),
        Command(
            "pig-10",
            "python -c: build + solve of Pig to 10",
            ["-c", PIG_10],
            "0.709424322598",
            target=0.1,
            target_of="build+solve",
        ),
        Command(
            "supersix-1000",
            "gamegraph supersix solve --pegs 1000",
            [*gg, "supersix", "solve", "--pegs", "1000"],
            "0.507625789777",
            target=5.0,
            slow=True,
        ),
    ]


@dataclass
class Side:
    """Where the commands run: the installed gamegraph, from a neutral folder, or an
    extracted older tree, from its own folder (so that ``python -m gamegraph`` and ``-c``
    programs import its package before the installed one).
    """

    name: str
    folder: str
    script: str | None = None  # the installed ``gamegraph`` command, when it is used


def run_plain(command: Command, side: Side, check: Checks) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of the command as a fresh process, its output checked."""
    argv = [sys.executable, *command.argv]
    if command.argv[:2] == ["-m", "gamegraph"] and side.script is not None:
        argv = [side.script, *command.argv[2:]]  # the installed command, as a user runs it
    with tempfile.TemporaryFile() as stdout:
        start = now()
        child = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE, cwd=side.folder)
        _, status, usage = os.wait4(child.pid, 0)
        wall = now() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        stderr = child.stderr.read().decode(errors="replace")
        child.stderr.close()
        stdout.seek(0)
        text = stdout.read().decode(errors="replace")
    ok = child.returncode == command.status and command.expect in text
    said = (text + stderr)[-300:]
    check(ok, f"{command.key} ({side.name}): status {child.returncode}, {said!r}")
    return wall, usage.ru_utime + usage.ru_stime


def run_wrapped(command: Command, side: Side, check: Checks) -> dict:
    """Clock readings of the command's phases, relative to the start of the process."""
    with tempfile.TemporaryDirectory() as folder:
        marks_file = Path(folder) / "marks.json"
        if command.argv[:2] == ["-m", "gamegraph"]:
            argv = [sys.executable, "-c", WRAPPER, str(marks_file), "-m", *command.argv[2:]]
        else:
            argv = [sys.executable, "-c", WRAPPER, str(marks_file), *command.argv]
        start = now()
        done = subprocess.run(argv, capture_output=True, cwd=side.folder)
        end = now()
        ok = done.returncode == command.status and marks_file.exists()
        said = done.stderr[-300:]
        check(ok, f"{command.key} ({side.name}, wrapped): status {done.returncode}, {said!r}")
        if not ok:
            return {}
        marks = json.loads(marks_file.read_text())
    first = marks["first"]
    work_start = first if first is not None else marks["atexit"]
    parsed = marks["parsed"] if marks["parsed"] is not None else work_start
    return {
        "whole": end - start,
        "start-up": parsed - start,
        "setup": work_start - parsed,
        "build": marks["build"],
        "solve": marks["solve"],
        "other": marks["atexit"] - work_start - marks["build"] - marks["solve"],
        "exit": end - marks["atexit"],
        "worked": first is not None,
    }


def worst(command: Command, side: str) -> float:
    """The slowest plain run's wall time."""
    return max((wall for wall, _ in command.plain.get(side, [])), default=math.nan)


def figure(command: Command, side: str) -> tuple[tuple[float, float], dict]:
    """The best plain (wall, CPU) time and the phases of the fastest wrapped run."""
    best = min(command.plain.get(side, []), default=(math.nan, math.nan))
    runs = [p for p in command.wrapped.get(side, []) if p]
    return best, min(runs, key=lambda p: p["whole"], default={})


def table(chosen: list[Command], side: Side) -> None:
    python = next((figure(c, side.name)[0][0] for c in chosen if c.key == "python"), math.nan)
    print(
        f"\n{side.name}: whole commands, each a fresh process (best and worst of the rounds); the "
        "breakdown is the fastest\nrun under the phase wrapper (start-up: to the parsed "
        "arguments; setup: to the first build or solve;\nother: after that, the time in "
        "neither build nor solve, to the exit handlers; exit: interpreter teardown)\n"
    )
    heads = ("command", "whole", "worst", "- python", "cpu", "start-up", "setup", "build")
    heads += ("solve", "other", "exit", "target", "")
    widths = (38, 8, 8, 9, 8, 9, 8, 8, 8, 8, 8, 22, 6)
    print(" ".join(h.ljust(w) for h, w in zip(heads, widths)).rstrip())
    for c in chosen:
        (wall, cpu), phases = figure(c, side.name)
        cells = [c.shown, fmt_time(wall), fmt_time(worst(c, side.name))]
        cells += ["" if c.key == "python" else fmt_time(wall - python), fmt_time(cpu)]
        worked = phases.get("worked", False)
        for name in ("start-up", "setup", "build", "solve", "other", "exit"):
            value = phases.get(name)
            blank = value is None or (name in ("setup", "build", "solve", "other") and not worked)
            blank = blank or (name == "setup" and c.argv[0] == "-c")
            cells.append("-" if blank else fmt_time(value))
        if c.target is None:
            cells += ["(baseline)", ""]
        else:
            measured = (
                wall
                if c.target_of == "whole"
                else phases.get("build", 0) + phases.get("solve", math.nan)
            )
            cells += [
                f"{c.target_of} < {c.target:g} s: {fmt_time(measured)}",
                met(measured < c.target),
            ]
        print(" ".join(str(x).ljust(w) for x, w in zip(cells, widths)).rstrip())


def compare(chosen: list[Command], now_side: Side, before: Side) -> None:
    """Whole commands now against the older tree, measured in the same rounds."""
    print(f"\n{now_side.name} against {before.name} (whole command, best of the rounds)\n")
    heads = ("command", "before", "now", "now/before", "cpu before", "cpu now")
    widths = (38, 9, 9, 11, 11, 9)
    print(" ".join(h.ljust(w) for h, w in zip(heads, widths)).rstrip())
    for c in chosen:
        (old, old_cpu), _ = figure(c, before.name)
        (new, new_cpu), _ = figure(c, now_side.name)
        cells = (c.shown, fmt_time(old), fmt_time(new), f"{new / old:.2f}")
        cells += (fmt_time(old_cpu), fmt_time(new_cpu))
        print(" ".join(str(x).ljust(w) for x, w in zip(cells, widths)).rstrip())


def report(chosen, sides, rounds: dict, check: Checks, started: float) -> int:
    for side in sides:
        table(chosen, side)
    if len(sides) > 1:
        compare(chosen, sides[0], sides[1])
    print(
        f"\n{', '.join(f'{k}: {v}' for k, v in rounds.items())}; "
        f"total {time.perf_counter() - started:.0f} s; checks: "
        + ("all ok" if not check.failed else "FAILED: " + "; ".join(check.failed))
    )
    return 1 if check.failed else 0


def extract(rev: str, folder: str) -> str:
    """The package at ``rev`` (``git archive``) in ``folder``, with this tree's compiled walk
    when its source is the same (an archive holds no build products).
    """
    repo = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", "--format=tar", rev, "gamegraph"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    same = subprocess.run(
        ["git", "-C", str(repo), "diff", "--quiet", rev, "--", "gamegraph/_walk.pyx"]
    )
    if same.returncode == 0:
        for built in (repo / "gamegraph").glob("_walk*.so"):
            shutil.copy2(built, Path(folder) / "gamegraph" / built.name)
    else:
        print(f"note: _walk.pyx changed since {rev}; the older tree walks in Python")
    return folder


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    options.add_argument(
        "--quick", action="store_true", help="one round, without the 1,000-peg solve"
    )
    options.add_argument("--repeat", type=int, default=None, help="rounds (default 5)")
    options.add_argument(
        "--slow-repeat", type=int, default=None, help="rounds of the 1,000-peg solve (default 3)"
    )
    options.add_argument("--only", default=None, help="only commands whose key holds this")
    options.add_argument(
        "--before",
        default=None,
        metavar="REV",
        help="also run every command on the package at git revision REV (git archive), "
        "in the same rounds; both sides then run python -m gamegraph",
    )
    args = options.parse_args()
    started = time.perf_counter()
    repeat = args.repeat or (1 if args.quick else 5)
    slow_repeat = args.slow_repeat or min(repeat, 3)
    chosen = [
        c
        for c in commands()
        if (c.baseline or args.only is None or args.only in c.key) and not (args.quick and c.slow)
    ]
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as folder:
        neutral = Path(folder) / "here"  # no gamegraph folder beside the children
        neutral.mkdir()
        script = Path(sys.executable).parent / "gamegraph"
        script = str(script) if script.exists() else shutil.which("gamegraph")
        sides = [Side("now", str(neutral), script=None if args.before else script)]
        if args.before:
            tree = extract(args.before, str(Path(folder) / "before"))
            sides.append(Side(f"before ({args.before})", tree))
        return measure(chosen, sides, repeat, slow_repeat, started)


def measure(chosen, sides, repeat: int, slow_repeat: int, started: float) -> int:
    import datetime
    import platform

    how = sides[0].script or sys.executable + " -m gamegraph"
    print(
        f"gamegraph whole-command benchmarks, {datetime.date.today()}, {repeat} round(s); "
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.2f} at the start; gamegraph commands run as {how}"
    )
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        print(
            "PYTHONDONTWRITEBYTECODE is set here; the commands run without it (with it, every "
            "start compiles its modules again, a user's does not)"
        )
    check = Checks()
    for side in sides:
        for c in chosen:  # once each, untimed: bytecode and numba's cache written
            run_plain(c, side, check)
    for round_ in range(repeat):
        for c in chosen:
            if c.slow and round_ >= slow_repeat:
                continue
            for side in sides:
                # Which of the two comes first alternates: the second finds the memory the
                # first gave back (see the module docstring).
                for wrapped in (False, True) if round_ % 2 == 0 else (True, False):
                    if wrapped:
                        c.wrapped.setdefault(side.name, []).append(run_wrapped(c, side, check))
                    else:
                        c.plain.setdefault(side.name, []).append(run_plain(c, side, check))
        print(f"round {round_ + 1} of {repeat} done ({time.perf_counter() - started:.0f} s)")
    rounds = {"rounds": repeat}
    if any(c.slow for c in chosen):
        rounds["rounds at 1,000 pegs"] = min(slow_repeat, repeat)
    rounds["load average at the end"] = f"{os.getloadavg()[0]:.2f}"
    return report(chosen, sides, rounds, check, started)


if __name__ == "__main__":
    sys.exit(main())
