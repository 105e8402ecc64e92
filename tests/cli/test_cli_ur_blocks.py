"""``gamegraph ur solve`` with the block solver, and the .npy table it writes."""

from __future__ import annotations

import json
import re

import pytest
from cli_run import run

pytest.importorskip("numba")


def test_solve_saves_a_table_the_queries_read(tmp_path, capsys):
    table = tmp_path / "finkel2.npy"
    status, out, _ = run(["ur", "solve", "--pieces", "2", "--save", table, "-q"], capsys)
    assert status == 0
    assert "12,869 positions solved" in out and "block solver" in out
    # the exact value to 12 places, within the command's tolerance of 1e-10
    printed = float(re.search(r"wins with probability (0\.\d{12})\n", out).group(1))
    assert abs(printed - 0.518572907496) < 1e-10
    assert f"wrote {table}" in out
    status, out, _ = run(["ur", "value", "-/-", "--table", table], capsys)
    assert status == 0 and out.startswith("0.51857290749")
    status, out, _ = run(["ur", "moves", "4/6", "--throw", "2", "--table", table], capsys)
    assert status == 0 and "4->6" in out


def test_solver_choice_and_json(capsys):
    status, out, _ = run(
        ["ur", "solve", "--pieces", "1", "--solver", "blocks", "--format", "json"], capsys
    )
    found = json.loads(out)
    assert status == 0 and found["solver"] == "blocks" and found["states"] == 217
    assert abs(found["start"] - 0.5300498395248594) < 1e-9  # the command solves to 1e-10


def test_refusals(tmp_path, capsys):
    status, _, err = run(["ur", "solve", "--pieces", "1", "--solver", "blocks", "--exact"], capsys)
    assert status != 0 and "--exact needs --solver graph" in err
    status, _, err = run(
        ["ur", "solve", "--pieces", "1", "--solver", "graph", "--save", tmp_path / "a.npy"],
        capsys,
    )
    assert status != 0 and "a .npy table comes from the block solver" in err
