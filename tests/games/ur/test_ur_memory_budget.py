"""The block solver's memory budget (``solve_rules(memory=...)``, ``ur solve --memory``).

A budget below what the largest block needs without stored moves is refused before any
work, naming that floor; any budget above it gives the same table, bit for bit, as the
default (fewer moves stored only makes improvement passes slower).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from cli_run import run

from gamegraph._memory import format_bytes, parse_size
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import rule_set
from gamegraph.games.ur.block_solver import peak_bytes
from gamegraph.games.ur.rank import Numbering
from gamegraph.games.ur.solving import memory_floor, solve_rules

pytest.importorskip("numba")


def test_the_floor_is_the_peak_with_no_moves_stored():
    ruleset = rule_set("finkel", 7)
    floor = memory_floor(ruleset)
    numbering = Numbering(ruleset)
    assert floor == peak_bytes(numbering, memory=0, keep="needed")
    assert 1.65 * 2**30 < floor < 1.75 * 2**30  # 44 bytes a position: under 2 GiB
    # a budget between the floor and the full estimate bounds the estimate
    budget = 2 * 2**30
    bounded = peak_bytes(numbering, memory=budget, keep="needed")
    assert floor <= bounded <= budget < peak_bytes(numbering, memory=12 * 2**30, keep="needed")
    assert peak_bytes(numbering, keep="needed") == bounded  # 2 GiB by default


def test_a_budget_gives_the_same_table(tmp_path):
    """Finkel 3 at its floor (no block stores its moves) and by default (every block
    does): the same table, byte for byte. Moves read from the store or made again are
    the same moves, looked at after the same policy sweeps."""
    ruleset = rule_set("finkel", 3)
    default = solve_rules(ruleset, save=str(tmp_path / "a.npy"), progress=False)
    solve_rules(ruleset, save=str(tmp_path / "b.npy"), memory=memory_floor(ruleset), progress=False)
    a, b = np.load(tmp_path / "a.npy"), np.load(tmp_path / "b.npy")
    assert np.array_equal(a, b)
    assert abs(default.solution.start_value - 0.516201102239) < 1e-10  # the command's tolerance


def test_a_budget_below_the_floor_is_refused_before_any_work(tmp_path):
    ruleset = rule_set("finkel", 7)
    floor = memory_floor(ruleset)
    target = tmp_path / "f.npy"
    with pytest.raises(InvalidArgumentError) as raised:
        solve_rules(ruleset, save=str(target), memory=floor - 2**20, progress=False)
    message = str(raised.value)
    assert "too little for finkel with 7 pieces" in message
    assert format_bytes(floor, 2) in message
    assert list(tmp_path.iterdir()) == []


def test_a_budget_is_for_the_block_solver():
    with pytest.raises(InvalidArgumentError, match="--solver blocks"):
        solve_rules("finkel", 1, solver="graph", memory=2**30, progress=False)


@pytest.mark.parametrize(
    ("text", "size"),
    [("2G", 2 * 2**30), ("2 GiB", 2 * 2**30), ("1.5g", 3 * 2**29), ("1500M", 1500 * 2**20),
     ("800MB", 800 * 2**20), ("64k", 2**16), ("4096", 4096), ("100B", 100)],
)  # fmt: skip
def test_sizes_as_people_write_them(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "lots", "-1G", "0", "1e9", "nan", "inf", "2X", "1..5G"])
def test_what_is_not_a_size(text):
    with pytest.raises(ValueError, match="is not a size"):
        parse_size(text)


def test_the_command_takes_a_budget(tmp_path, capsys):
    target = tmp_path / "f2.npy"
    status, out, err = run(
        ["ur", "solve", "--pieces", "2", "--save", target, "--memory", "1G", "-q"], capsys
    )
    assert status == 0, err
    printed = float(re.search(r"wins with probability (0\.\d{12})\n", out).group(1))
    assert abs(printed - 0.518572907496) < 1e-10 and target.exists()  # within its tolerance


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--pieces", "7", "--memory", "1G"], "--memory 1.00 GiB is too little for finkel with 7"),
        (["--pieces", "2", "--memory", "lots"], "argument --memory: 'lots' is not a size"),
        (["--pieces", "2", "--memory", "1G", "--solver", "graph"], "(--solver blocks)"),
    ],
)
def test_the_command_refuses_a_bad_budget_in_one_line(tmp_path, capsys, argv, said):
    status, out, err = run(["ur", "solve", "--save", tmp_path / "f.npy", *argv], capsys)
    assert status == 2 and out == ""
    assert said in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []
