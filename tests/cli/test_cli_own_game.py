"""``gamegraph explore|report|graph SPEC``: any game by its class, a user's file included.

A tiny game is written into tmp_path for the ``file.py:Class`` form; the bundled games
are named as ``gamegraph.games.pig:Pig``. Bad input ends in one line and status 2.
"""

from __future__ import annotations

import re
import textwrap
import time

import pytest

from tests.cli_run import run

pytest.importorskip("graphviz")

COIN = '''
from fractions import Fraction
from gamegraph import Option, Outcome, Rules


class CoinRace(Rules):
    """Reach `goal` heads: on heads move 1 or 2 on, on tails stay."""

    def __init__(self, goal=3):
        if goal < 1:
            raise ValueError(f"goal must be 1 or more, not {goal}")
        self.goal = goal
        self.name = f"coin race to {goal}"

    def start(self):
        return 0

    def terminal_value(self, state):
        return Fraction(1) if state == self.goal else None

    def outcomes(self, state):
        half = Fraction(1, 2)
        on = (Option(state + 1, move=1), Option(min(state + 2, self.goal), move=2))
        return [Outcome(half, on), Outcome(half, (Option(state, move=0),))]


class Broken(Rules):
    def start(self):
        return 0

    def terminal_value(self, state):
        return Fraction(1) if state == 2 else None

    def outcomes(self, state):
        return [Outcome(Fraction(1, 2), (Option(state + 1, move=0),))]


NOT_A_CLASS = 3


class Plain:
    pass
'''


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "coin.py"
    path.write_text(textwrap.dedent(COIN))
    return path


def _error(status, stderr) -> str:
    assert status == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamegraph"), stderr
    return lines[0]


def test_graph_of_a_game_in_a_file(game_file, tmp_path, capsys):
    out = tmp_path / "coin.dot"
    status, stdout, _ = run(
        ["graph", f"{game_file}:CoinRace", "--arg", "goal=5", "-o", out], capsys
    )
    assert status == 0
    assert stdout.startswith(f"wrote {out}: coin race to 5, 6 of 6 states")
    source = out.read_text()
    assert len(re.findall(r"^\s*n\d+ \[", source, re.M)) == 6  # 0..5 heads
    assert "optimal play (1.0000)" in source  # a race alone is always won


def test_graph_of_a_bundled_game_by_module(tmp_path, capsys):
    out = tmp_path / "pig.svg"
    status, stdout, _ = run(
        ["graph", "gamegraph.games.pig:Pig", "--arg", "goal=20", "-o", out], capsys
    )
    assert status == 0 and "pig to 20, 38 of 6,214 states" in stdout
    assert out.read_text().startswith("<?xml")


def test_graph_views_draw_a_part(tmp_path, capsys):
    spec = ["graph", "gamegraph.games.shutbox:ShutTheBox"]
    out = tmp_path / "s.dot"
    status, stdout, _ = run([*spec, "--view", "likely", "--limit", "40", "-o", out], capsys)
    assert status == 0 and "40 of 537 states" in stdout
    status, stdout, _ = run([*spec, "--view", "threshold", "--min-reach", "0.1", "-o", out], capsys)
    assert status == 0 and re.search(r", \d+ of 537 states", stdout)
    status, stdout, _ = run(
        [*spec, "--view", "around", "--state", "START", "--steps", "1", "-o", out], capsys
    )
    assert status == 0
    assert "penwidth=2.5" in out.read_text()  # the state drawn around, outlined


def test_around_by_label_and_by_literal(tmp_path, capsys):
    out = tmp_path / "p.dot"
    base = ["graph", "gamegraph.games.pig:Pig", "--arg", "goal=10", "--view", "around"]
    for state in ("choose 0-0 +2", "('choose', 0, 0, 2)"):
        status, stdout, _ = run([*base, "--state", state, "--steps", "1", "-o", out], capsys)
        assert status == 0 and "3 of 604 states" in stdout, state
    status, _, stderr = run([*base, "--state", "nowhere", "-o", out], capsys)
    assert "no state has that label" in _error(status, stderr)


def test_report_and_explore_of_a_game_in_a_file(game_file, tmp_path, capsys):
    report = tmp_path / "coin.md"
    status, stdout, _ = run(["report", f"{game_file}:CoinRace", "-o", report], capsys)
    assert status == 0 and stdout.startswith(f"wrote {report}")
    text = report.read_text()
    assert text.startswith("# coin race to 3: the game solved")
    assert "| states | 4 |" in text and "Every state optimal play reaches (4)" in text
    page = tmp_path / "coin.html"
    status, stdout, _ = run(["explore", f"{game_file}:CoinRace", "-o", page], capsys)
    assert status == 0 and "coin race to 3, 4 states" in stdout
    assert page.stat().st_size > 10_000


def test_report_of_a_large_game_draws_its_likeliest_part(tmp_path, capsys):
    report = tmp_path / "shut.md"
    status, _, _ = run(["report", "gamegraph.games.shutbox:ShutTheBox", "-o", report], capsys)
    assert status == 0
    text = report.read_text()
    assert "| states | 537 |" in text
    assert "Optimal play reaches 476 states, too many to draw and read: these are the 60" in text


def test_too_large_a_diagram_is_refused_before_the_layout_naming_the_views(tmp_path, capsys):
    out = tmp_path / "s.png"
    status, _, stderr = run(["graph", "gamegraph.games.shutbox:ShutTheBox", "-o", out], capsys)
    message = _error(status, stderr)
    assert "476 states and 3,591 moves" in message
    assert "--view likely" in message and "--view threshold" in message
    assert "--view around" in message
    assert not out.exists()


@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_pig_to_100_is_refused_quickly(tmp_path, capsys):
    out = tmp_path / "pig.png"
    started = time.perf_counter()
    argv = ["graph", "gamegraph.games.pig:PigBatch", "--arg", "goal=100", "-o", out]
    status, _, stderr = run(argv, capsys)
    seconds = time.perf_counter() - started
    assert "optimal play has 172,959 states" in _error(status, stderr)
    assert seconds < 15  # build 0.6-0.8 s, solve 0.4-1.2 s, then 0.3 s to refuse
    assert not out.exists()


@pytest.mark.parametrize(
    "spec, args, expected",
    [
        ("missing.py:Game", [], "missing.py: no such file"),
        ("{file}:Nope", [], "has no attribute 'Nope'; its games: Broken, CoinRace"),
        ("{file}:Plain", [], "Plain is not a game: expected a subclass of gamegraph.Rules"),
        ("{file}:NOT_A_CLASS", [], "NOT_A_CLASS is not a class"),
        ("{file}", [], "expected package.module:Class or path/to/file.py:Class"),
        ("{file}:CoinRace", ["--arg", "size=3"], "CoinRace(size=3) failed: TypeError"),
        ("{file}:CoinRace", ["--arg", "goal=0"], "CoinRace(goal=0) failed: ValueError: goal"),
        ("{file}:CoinRace", ["--arg", "goal=2", "--arg", "goal=3"], "--arg goal is given twice"),
        ("{file}:Broken", [], "sum"),  # probabilities that do not sum to 1
        ("gamegraph.games.nowhere:Game", [], "no module named 'gamegraph.games.nowhere'"),
        ("gamegraph.games.pig:Pig", ["--arg", "goal=1"], "Pig(goal=1) failed: Invalid"),
        ("gamegraph.games.pig:hold_at", [], "hold_at is not a class"),
    ],
)
def test_bad_specs_end_in_one_line(game_file, tmp_path, capsys, spec, args, expected):
    spec = spec.format(file=game_file)
    status, _, stderr = run(["graph", spec, *args, "-o", tmp_path / "x.png"], capsys)
    assert expected in _error(status, stderr)


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["--arg", "goal"], "is not NAME=VALUE"),
        (["--arg", "import os=1"], "is not NAME=VALUE"),
        (["--limit", "3"], "--limit goes with --view likely, not --view full"),
        (["--view", "around"], "--view around needs --state"),
        (["--view", "likely", "--limit", "600"], "600 states: accepted 1 to 512"),
    ],
)
def test_bad_options(game_file, tmp_path, capsys, argv, expected):
    status, _, stderr = run(
        ["graph", f"{game_file}:CoinRace", *argv, "-o", tmp_path / "x.png"], capsys
    )
    assert expected in _error(status, stderr)


def test_a_file_that_fails_to_load_ends_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("def broken(:\n")
    status, _, stderr = run(["graph", f"{bad}:Game", "-o", tmp_path / "x.png"], capsys)
    assert "loading" in _error(status, stderr) and "SyntaxError" in stderr


def test_argument_values_are_literals_or_text_and_nothing_else_runs(tmp_path, capsys):
    from gamegraph.cli.own_game import game_argument

    assert game_argument("goal=100") == ("goal", 100)
    assert game_argument("rules=first-round") == ("rules", "first-round")
    assert game_argument("hands=(3, 3)") == ("hands", (3, 3))
    marker = tmp_path / "ran"
    text = f"x=__import__('pathlib').Path({str(marker)!r}).touch()"
    assert game_argument(text)[1] == text.partition("=")[2]  # kept as text, not run
    assert not marker.exists()
