"""Standard output that is closed, full or gone (issue 11, case 3).

Every command ends without a traceback: a closed stdout (``>&-``) is refused before any work
with one line and status 1; a full one (``>/dev/full``) stops at the failed write with one
line and status 1, files already written complete; a reader that went away ends it
silently with status 1. A closed or full stderr never makes a command fail.

Real processes are needed (a closed descriptor, the interpreter's last flush at exit). To
stay fast, one driver process runs every command in turn through ``main`` with descriptor 1
closed or on ``/dev/full`` (set up as the interpreter does at start), and a few separate
processes check what only a fresh interpreter shows. The driver says when each command
starts and ends, so each command has a timeout of its own: one that hangs fails its own
tests, named, and the driver goes on with the next.
"""

from __future__ import annotations

import errno
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gamegraph.cli import main
from gamegraph.cli._output import BROKEN_PIPE_STATUS, StdoutFailed

NO_SPACE = "gamegraph: error: cannot write to standard output: No space left on device\n"
BAD_FD = "gamegraph: error: cannot write to standard output: Bad file descriptor\n"

#: Every command of ``gamegraph --help`` and each game's ``--help``, with cheap arguments;
#: ``{dir}`` is a folder of the command's own.
COMMANDS = {
    "jackpot explore": "jackpot explore -q -o {dir}/page.html",
    "jackpot report": "jackpot report -q --games 1000 -o {dir}/report.html",
    "jackpot analyse": "jackpot analyse",
    "jackpot simulate": "jackpot simulate -q --games 100",
    "jackpot graph": "jackpot graph -o {dir}/graph.dot",
    "jackpot layers": "jackpot layers",
    "supersix explore": "supersix explore -q --pegs 4 -o {dir}/page.html",
    "supersix report": "supersix report -q --pegs 4 -o {dir}/report.html",
    "supersix solve": "supersix solve -q --pegs 4 --exact -o {dir}/solve.json",
    "supersix strategy": "supersix strategy --sticks 4",
    "supersix heatmap": "supersix heatmap --pegs 4 --range 4 6 -o {dir}/maps.html",
    "supersix map": "supersix map --pegs 4 -o {dir}/map.svg",
    "supersix lp": "supersix lp -q --pegs 4",
    "ur explore": "ur explore -q --pieces 1 -o {dir}/page.html",
    "ur report": "ur report -q --pieces 1 --games 100 -o {dir}/report.html",
    "ur count": "ur count --pieces 1",
    "ur solve": "ur solve -q --pieces 1 --format json",
    "ur value": "ur value -q --solve --pieces 1 /",
    "ur moves": "ur moves -q --solve --pieces 1 --throw 2 /",
    "ur advise": "ur advise -q --solve --pieces 1 / 2",
    "ur duel": "ur duel -q --solve --pieces 1 greedy",
    "ur board": "ur board / -o {dir}/board.svg",
    "ur graph": "ur graph -o {dir}/graph.dot",
    "ur heatmap": "ur heatmap --solve --pieces 1 -o {dir}/heatmap.png",
    "ur tournament": "ur tournament -q --pieces 1 --games 100",
    "yahtzee solve": "yahtzee solve -q --boxes sixes,chance --save {dir}/table.npy",
    # the table "yahtzee solve" wrote just before (with stdout full; with it closed,
    # both are refused before any work)
    "yahtzee advise": "yahtzee advise --table {dir}/../yahtzee-solve/table.npy --dice 13356 "
    "--throws-left 2",
    "yahtzee report": "yahtzee report -q --table {dir}/../yahtzee-solve/table.npy "
    "-o {dir}/report.html",
    "yahtzee explore": "yahtzee explore -q --table {dir}/../yahtzee-solve/table.npy "
    "-o {dir}/page.html",
    "gallery": "gallery {dir}/gallery",  # the first step line fails at once
    "explore": "explore -q gamegraph.games.pig:Pig --arg goal=5 -o {dir}/page.html",
    "report": "report -q gamegraph.games.pig:Pig --arg goal=5 -o {dir}/report.html",
    "graph": "graph -q gamegraph.games.pig:Pig --arg goal=5 -o {dir}/graph.dot",
}
#: What argparse writes to stdout itself, and a bad argument (status 2 whatever stdout is).
PARSER_ONLY = {
    "help": "--help",
    "version": "--version",
    "game help": "ur --help",
    "bad argument": "supersix strategy --sticks 3",
}

#: Seconds one command may take in the driver (each takes a second or two on a quiet machine).
PER_COMMAND = 120

#: Runs ``[name, mode, argv, stderr file]`` cases through ``main`` in one process, with
#: descriptor 1 closed (``sys.stdout`` None, as the interpreter leaves it) or on /dev/full
#: (a fresh buffered stream each time). It writes one JSON line to descriptor argv[2] as
#: each case starts ({"started": name}) and ends ({"name": name, "status": status}).
DRIVER = r"""
import json, os, sys, traceback
from gamegraph.cli import main

cases, report = json.loads(sys.argv[1]), int(sys.argv[2])


def tell(**message):
    os.write(report, (json.dumps(message) + "\n").encode())


for name, mode, argv, errfile in cases:
    tell(started=name)
    sys.stderr.flush()
    err = os.open(errfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(err, 2)
    os.close(err)
    if mode == "closed":
        os.close(1)
        sys.stdout = None
    else:
        full = os.open("/dev/full", os.O_WRONLY)
        os.dup2(full, 1)
        os.close(full)
        sys.stdout = open(1, "w", closefd=False)
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    except BaseException:
        status = "crash"
        sys.stderr.write(traceback.format_exc())
    if sys.stdout is not None:
        try:
            sys.stdout.flush()  # what the interpreter does at exit: must not fail now
        except OSError as error:
            status = f"exit flush failed: {error}"
            sys.stderr.write(f"Exception ignored: {error}\n")
    sys.stderr.flush()
    tell(name=name, status=status)
"""


def _env():
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)  # buffered, as in a user's shell
    return env


def _complete(path: Path) -> bool:
    """Whether a written file is whole: its format's ending is there."""
    data = path.read_bytes()
    if path.suffix == ".npy":  # no fixed ending: whole if it reads back
        try:
            np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return False
        return True
    ending = {
        ".html": b"</html>",
        ".svg": b"</svg>",
        ".dot": b"}",
        ".json": b"}",
        ".md": b"",
        ".png": b"IEND\xaeB`\x82",
        ".csv": b"",
    }.get(path.suffix)
    return bool(data) and ending is not None and data.rstrip().endswith(ending)


class Unfinished(str):
    """The status of a case that did not end: it hung, or the driver died during it."""


def _drive(cases, cwd) -> dict:
    """Run ``cases`` through the driver; {case name: status}.

    A case that runs past :data:`PER_COMMAND` seconds, or during which the driver dies, gets
    an :class:`Unfinished` status saying so, and a new driver goes on with the cases after it.
    A driver that fails outside any case (at start, say) fails the fixture.
    """
    statuses: dict = {}
    pending = list(cases)
    while pending:
        read, write = os.pipe()
        driver = subprocess.Popen(
            [sys.executable, "-c", DRIVER, json.dumps(pending), str(write)],
            cwd=cwd,
            env=_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            pass_fds=(write,),
        )
        os.close(write)
        running, hung = None, False
        try:
            for message in _lines(read, PER_COMMAND):
                if "started" in message:
                    running = message["started"]
                else:
                    statuses[message["name"]], running = message["status"], None
        except TimeoutError:
            hung = True
            driver.kill()
        finally:
            os.close(read)
        code = driver.wait()
        if running is not None:
            said = f"was still running it after {PER_COMMAND} s" if hung else f"died ({code}) in it"
            statuses[running] = Unfinished(f"the driver {said}")
        elif hung or code != 0:
            last = f"after {next(reversed(statuses))!r}" if statuses else "before its first case"
            said = f"was silent for {PER_COMMAND} s" if hung else f"exited with status {code}"
            pytest.fail(f"the driver {said} {last}, outside any command")
        pending = [case for case in pending if case[0] not in statuses]
    return statuses


def _lines(fd, timeout):
    """The JSON lines written to ``fd``; TimeoutError when none comes for ``timeout`` s."""
    buffer = b""
    while True:
        deadline = time.monotonic() + timeout
        while b"\n" not in buffer:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            buffer += chunk
        line, buffer = buffer.split(b"\n", 1)
        yield json.loads(line)


@pytest.fixture(scope="module")
def driven(tmp_path_factory):
    """Every command run once with stdout closed and once with stdout on /dev/full."""
    base = tmp_path_factory.mktemp("stdout")
    cases, lines = [], {}
    for mode in ("closed", "full"):
        for name, line in {**COMMANDS, **PARSER_ONLY}.items():
            folder = base / mode / name.replace(" ", "-")
            folder.mkdir(parents=True)
            argv = line.format(dir=folder).split()
            cases.append([f"{mode} {name}", mode, argv, str(folder.parent / f"{folder.name}.err")])
            lines[f"{mode} {name}"] = " ".join(["gamegraph", *argv])
    return base, _drive(cases, base), lines


def _outcome(driven, mode, name):
    """(status, stderr, files written) of one case; a case that hung or killed the driver
    fails here, naming its command line."""
    base, statuses, lines = driven
    folder = base / mode / name.replace(" ", "-")
    err = folder.parent / f"{folder.name}.err"
    stderr = err.read_text() if err.exists() else ""
    status = statuses[f"{mode} {name}"]
    if isinstance(status, Unfinished):
        pytest.fail(f"`{lines[f'{mode} {name}']}` with stdout {mode}: {status}\n{stderr}")
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return status, stderr, files


@pytest.mark.parametrize("name", COMMANDS)
def test_closed_stdout_is_refused_before_any_work(driven, name):
    status, stderr, files = _outcome(driven, "closed", name)
    assert (status, stderr) == (1, BAD_FD)
    assert files == []  # refused before the work: nothing written


@pytest.mark.parametrize("name", COMMANDS)
def test_full_stdout_ends_in_one_line_with_files_complete(driven, name):
    status, stderr, files = _outcome(driven, "full", name)
    assert (status, stderr) == (1, NO_SPACE)
    assert not [p for p in files if ".tmp" in p.name]
    assert all(_complete(p) for p in files), files
    if "-o" in COMMANDS[name]:  # the file is written before "wrote ..." fails
        assert files


def test_every_command_is_covered():
    from gamegraph.cli.main import build_parser

    parser = build_parser()
    games = parser._subparsers._group_actions[0].choices
    found = set()
    for game, sub in games.items():
        if sub._subparsers is None:  # a command of its own: gallery, explore, report, graph
            found.add(game)
        else:
            found |= {f"{game} {c}" for c in sub._subparsers._group_actions[0].choices}
    assert found == set(COMMANDS)


# ---------------------------------------------------------------------------
# Separate processes: what only a fresh interpreter shows
# ---------------------------------------------------------------------------
def _gamegraph(shell_redirect, *args, unbuffered=False):
    """``python -m gamegraph ARGS REDIRECT`` through bash; (status, stdout, stderr)."""
    env = _env()
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    command = " ".join([sys.executable, "-m", "gamegraph", *args, shell_redirect])
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, env=env, timeout=60
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("unbuffered", [False, True])
def test_full_stdout_leaves_nothing_for_the_exit_flush(unbuffered):
    status, _, err = _gamegraph(">/dev/full", "supersix strategy --sticks 4", unbuffered=unbuffered)
    assert (status, err) == (1, NO_SPACE)  # no "Exception ignored ..." at exit, no status 120


@pytest.mark.parametrize("mode, says", [("closed", BAD_FD), ("full", NO_SPACE)])
@pytest.mark.parametrize("name", ["help", "version", "game help"])
def test_help_and_version_on_a_bad_stdout(driven, mode, says, name):
    status, stderr, _ = _outcome(driven, mode, name)
    assert (status, stderr) == (1, says)


@pytest.mark.parametrize("mode", ["closed", "full"])
def test_bad_arguments_still_say_so_whatever_stdout_is(driven, mode):
    status, stderr, _ = _outcome(driven, mode, "bad argument")
    assert status == 2 and stderr.count("\n") == 1
    assert stderr.startswith("gamegraph supersix strategy: error: argument --sticks: 3 sticks")


def test_closed_stdout_in_a_fresh_process():
    assert _gamegraph(">&-", "supersix strategy --sticks 4") == (1, "", BAD_FD)


def test_reader_gone_ends_silently():
    read, write = os.pipe()
    os.close(read)  # the reader went away before the first byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gamegraph", "supersix", "strategy", "--sticks", "4"],
            stdout=write,
            stderr=subprocess.PIPE,
            env=_env(),
            timeout=60,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (BROKEN_PIPE_STATUS, b"")


def test_closed_stderr_never_stops_a_command():
    assert _gamegraph("2>&-", "supersix strategy --sticks 4")[:2] == (0, "(1/1)\n")


def test_full_stderr_loses_the_message_but_not_the_status():
    assert _gamegraph("2>/dev/full", "supersix strategy --sticks 3") == (2, "", "")


def test_closed_stdout_and_stderr():
    assert _gamegraph(">&- 2>&-", "supersix strategy --sticks 4") == (1, "", "")


# ---------------------------------------------------------------------------
# In process: main(argv, out=...) with a stream that fails
# ---------------------------------------------------------------------------
class Failing:
    """A stream whose every write fails with ``code``."""

    def __init__(self, code):
        self.code = code

    def write(self, text):
        raise OSError(self.code, os.strerror(self.code))

    def flush(self):
        pass


@pytest.mark.parametrize(
    "code, status, says",
    [
        (errno.EPIPE, 1, ""),
        (errno.ENOSPC, 1, NO_SPACE),
        (errno.EIO, 1, "gamegraph: error: cannot write to standard output: Input/output error\n"),
    ],
)
def test_a_failing_out_stream_ends_the_command_cleanly(code, status, says, capsys):
    assert main(["supersix", "strategy", "--sticks", "4"], out=Failing(code)) == status
    assert capsys.readouterr().err == says


def test_the_failure_is_not_an_oserror():
    # so that no handler meant for a file path (OutputError) mistakes it for its own
    assert not issubclass(StdoutFailed, OSError)
    assert StdoutFailed(errno.ENOSPC).message == NO_SPACE
