"""Progress on stderr: shown on a terminal, silent otherwise and with ``--quiet``.

The command runs under a pseudo-terminal (``pty.openpty()`` given a window size, as a
real terminal has) for stderr, with stdout a pipe, so the result stays clean while the
bars show. The library calls take ``progress=None`` (a terminal decides), True or False.
"""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

import pytest
from cli_run import run

from gamegraph import build, evaluate, solve
from gamegraph.cli import build_parser
from gamegraph.games.supersix import SuperSix
from gamegraph.simulate import simulate

COMMAND = [sys.executable, "-m", "gamegraph"]


def _run_under_a_terminal(argv):
    """Run ``gamegraph argv`` with stderr on a pseudo-terminal; return (status, out, err)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen(
        [*COMMAND, *argv], stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL
    )
    os.close(follower)
    err = b""
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:  # the command closed the terminal: it has finished
            break
        if not chunk:
            break
        err += chunk
    out = process.stdout.read()
    status = process.wait(timeout=120)
    os.close(leader)
    return status, out.decode(), err.decode(errors="replace")


def test_ur_solve_on_a_terminal_shows_progress():
    status, out, err = _run_under_a_terminal(["ur", "solve", "--pieces", "3"])
    assert status == 0
    assert out.startswith("Royal Game of Ur, finkel rules, 3 piece(s) each: 263,121 positions")
    assert "building ur-finkel-3" in err
    # The solve's bar counts every non-terminal state twice (solved, then checked).
    assert "solving ur-finkel-3" in err and "/526242 [" in err
    assert "%|" in err  # a bar, not just a message


def test_ur_solve_quiet_on_a_terminal_says_nothing():
    status, out, err = _run_under_a_terminal(["ur", "solve", "--pieces", "2", "--quiet"])
    assert status == 0 and "positions solved in" in out
    assert err == ""


def test_ur_solve_with_stderr_not_a_terminal_writes_nothing_there():
    done = subprocess.run(
        [*COMMAND, "ur", "solve", "--pieces", "2"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "positions solved in" in done.stdout
    assert done.stderr == ""


# ---------------------------------------------------------------------------
# --quiet on every long command
# ---------------------------------------------------------------------------
LONG_COMMANDS = [
    ["ur", "solve"],
    ["ur", "tournament"],
    ["ur", "value", "4/6", "--solve"],
    ["ur", "moves", "4/6", "--solve", "--throw", "2"],
    ["supersix", "solve"],
    ["supersix", "lp"],
    ["jackpot", "simulate"],
    ["gallery"],
]


@pytest.mark.parametrize("argv", LONG_COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_quiet_sets_progress_false(argv):
    parser = build_parser()
    assert parser.parse_args(argv).progress is None
    assert parser.parse_args([*argv, "--quiet"]).progress is False
    assert parser.parse_args([*argv, "-q"]).progress is False


@pytest.mark.parametrize(
    "argv",
    [
        ["ur", "tournament", "--pieces", "1", "--agents", "first,last", "--games", "300"],
        ["jackpot", "simulate", "--games", "3000"],
        ["supersix", "solve", "--pegs", "20"],
    ],
    ids=["ur tournament", "jackpot simulate", "supersix solve"],
)
def test_commands_show_bars_on_a_terminal_unless_quiet(argv, monkeypatch, capsys):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    status, out, err = run(argv, capsys)
    assert status == 0 and out
    assert "\r" in err and "|" in err  # tqdm redraws in place
    status, quiet_out, err = run([*argv, "-q"], capsys)
    assert status == 0 and err == ""
    assert quiet_out.splitlines()[0].split(" in ")[0] == out.splitlines()[0].split(" in ")[0]


def test_gallery_quiet_prints_no_steps(tmp_path, monkeypatch, capsys):
    import gamegraph.gallery as gallery

    def section(folder, step):
        with step("a step"):
            build(SuperSix(pegs=6))  # progress=None: a bar if stderr were a terminal
        return "", []

    sections = [name for name in dir(gallery) if name.endswith("_section")]
    assert len(sections) == 6  # jackpot, supersix, ur, yahtzee, explorer, reports
    for name in sections:
        monkeypatch.setattr(gallery, name, section)
    status, out, err = run(["gallery", tmp_path / "g", "-q"], capsys)
    assert status == 0 and err == ""
    assert "a step" not in out and out.startswith("building the gallery in ")
    status, out, _ = run(["gallery", tmp_path / "h"], capsys)
    assert out.count("  a step ... ") == len(sections)


# ---------------------------------------------------------------------------
# The library: progress=None, True, False
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def supersix_graph():
    return build(SuperSix(pegs=20), progress=False)


def test_library_calls_are_silent_unless_asked(supersix_graph, jackpot_graph, capsys):
    from gamegraph import Policy
    from gamegraph.games.jackpot import AGENTS

    hilo = Policy.from_agent(jackpot_graph, AGENTS["hilo"])
    for progress in (None, False):  # capsys's stderr is not a terminal
        build(SuperSix(pegs=8), explore=True, progress=progress)
        solve(supersix_graph, progress=progress)
        evaluate(jackpot_graph, hilo, progress=progress)
        simulate(jackpot_graph, hilo, games=1000, seed=1, progress=progress)
    assert capsys.readouterr().err == ""


def test_library_bars_when_asked(supersix_graph, jackpot_graph, capsys):
    from gamegraph import Policy
    from gamegraph.games.jackpot import AGENTS

    explored = build(SuperSix(pegs=8), explore=True, progress=True)
    err = capsys.readouterr().err
    assert "building supersix" in err and explored.n_states == 84
    solved = solve(supersix_graph, progress=True)
    live = int((~supersix_graph.terminal).sum())
    err = capsys.readouterr().err
    assert "solving supersix" in err and f"/{2 * live} [" in err
    assert solved.start_value == pytest.approx(solve(supersix_graph).start_value, abs=0)
    hilo = Policy.from_agent(jackpot_graph, AGENTS["hilo"])
    evaluate(jackpot_graph, hilo, progress=True)
    assert "evaluating jackpot" in capsys.readouterr().err
    simulate(jackpot_graph, hilo, games=5000, seed=1, batch=1000, progress=True)
    assert "simulating" in capsys.readouterr().err


def test_a_bar_changes_no_result(supersix_graph, jackpot_graph):
    from gamegraph import Policy
    from gamegraph.games.jackpot import AGENTS

    hilo = Policy.from_agent(jackpot_graph, AGENTS["hilo"])
    quiet = simulate(jackpot_graph, hilo, games=5000, seed=4, progress=False)
    shown = simulate(jackpot_graph, hilo, games=5000, seed=4, progress=True)
    assert (quiet.wins, quiet.throws) == (shown.wins, shown.throws)
    a, b = (solve(supersix_graph, progress=p).values for p in (False, True))
    assert (a == b).all()
