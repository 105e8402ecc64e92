"""``gamegraph ur advise POSITION THROW``: the best move, its lead, then every move.

The tables: finkel with 2 pieces solved by the block solver into a ``.npy`` file, checked
against the explicit-graph solver's values, and (when it is there) the 7-piece table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from cli_run import run

from gamegraph.games.ur.analysis import solve_table
from gamegraph.games.ur.block_solver import solve_file
from gamegraph.games.ur.rank import Numbering
from gamegraph.games.ur.rank_table import HEADER_BYTES
from gamegraph.games.ur.rules import rule_set

FINKEL7 = "/tmp/x/finkel7.npy"


@pytest.fixture(scope="module")
def finkel2(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "finkel-2.npy"
    solve_file(path, "finkel", 2, engine="numpy", tol=1e-13, progress=False)
    return path


@pytest.fixture(scope="module")
def graph_table():
    """The explicit-graph solver's finkel 2: the reference the advice is checked against."""
    return solve_table("finkel", 2)


def advise(argv, capsys):
    status, out, err = run(["ur", "advise", *argv], capsys)
    assert status == 0, err
    return out


def test_best_move_its_margin_and_every_move(finkel2, graph_table, capsys):
    out = advise(["4/6", "2", "--table", finkel2], capsys)
    lines = out.splitlines()
    expected = dict(graph_table.move_values("4/6", 2))
    capture, enter = expected[(4, 6, True)], expected[(0, 2, False)]
    assert abs(capture - 0.5804606441455904) < 1e-12 and abs(enter - 0.4754282152417775) < 1e-12
    assert lines[0] == (
        f"finkel, 2 piece(s) each: 4/6 (win probability {graph_table.value('4/6'):.6f} "
        "before the throw), throw 2"
    )
    assert lines[1] == (
        f"best: 4->6 (captures), win probability {capture:.6f}, "
        f"{capture - enter:.6f} more than the next best, enter->2 ({enter:.6f})"
    )
    assert lines[1] == (
        "best: 4->6 (captures), win probability 0.580461, 0.105032 more than the next best, "
        "enter->2 (0.475428)"
    )
    # then every move, exactly as `ur moves` lists them
    status, moves, _ = run(["ur", "moves", "4/6", "--throw", "2", "--table", finkel2], capsys)
    assert status == 0 and lines[2] == "" and "\n".join(lines[3:]) + "\n" == moves
    assert moves.splitlines() == [
        f"  enter->2   {enter:.6f}  -> 2,4/6",
        f"* 4->6       {capture:.6f}  -> 6/-  (captures)",
    ]


def test_json_gives_the_advice_and_the_moves(finkel2, graph_table, capsys):
    data = json.loads(advise(["4/6", "2", "--table", finkel2, "--format", "json"], capsys))
    expected = dict(graph_table.move_values("4/6", 2))
    assert data["advice"] == "best" and data["throw"] == 2 and data["position"] == "4/6"
    assert (data["rules"], data["pieces"]) == ("finkel", 2)
    assert data["value"] == pytest.approx(graph_table.value("4/6"), abs=1e-12)
    assert data["best"]["move"] == "4->6" and data["best"]["captures"] is True
    assert data["best"]["value"] == pytest.approx(expected[(4, 6, True)], abs=1e-12)
    assert data["runner_up"]["move"] == "enter->2"
    assert data["margin"] == pytest.approx(
        expected[(4, 6, True)] - expected[(0, 2, False)], abs=1e-12
    )
    assert data["margin"] == data["best"]["value"] - data["runner_up"]["value"]
    status, moves, _ = run(
        ["ur", "moves", "4/6", "--throw", "2", "--table", finkel2, "--format", "json"], capsys
    )
    assert status == 0 and data["moves"] == json.loads(moves)["moves"]


def test_every_throw_of_many_positions_agrees_with_the_graph_solver(finkel2, graph_table, capsys):
    numbering = Numbering(rule_set("finkel", 2))
    for index in range(0, numbering.n_positions, 997):
        position = str(numbering.position(index))
        for throw in range(5):
            data = json.loads(
                advise([position, str(throw), "--table", finkel2, "--format", "json"], capsys)
            )
            values = [v for _, v in graph_table.move_values(position, throw)]
            assert data["best"]["value"] == pytest.approx(max(values), abs=1e-12)
            if len(values) > 1:
                second = sorted(values)[-2]
                assert data["margin"] == pytest.approx(max(values) - second, abs=1e-12)
            else:
                assert data["margin"] is None and data["runner_up"] is None


def test_the_only_move_and_a_pass(finkel2, capsys):
    # Both sides one tile from home: the mover wins with probability 4/7 before throwing.
    out = advise(["14+1/14+1", "1", "--table", finkel2], capsys)
    assert out.splitlines()[1] == "14->off, the only legal move: win probability 1.000000"
    data = json.loads(advise(["14+1/14+1", "1", "--table", finkel2, "--format", "json"], capsys))
    assert data["advice"] == "only move" and data["margin"] is None and data["runner_up"] is None
    assert data["best"]["value"] == 1.0 and data["best"]["board"] == "WIN"
    assert data["value"] == pytest.approx(float(Fraction(4, 7)), abs=1e-12)

    out = advise(["14+1/14+1", "0", "--table", finkel2], capsys)
    assert out.splitlines()[1] == (
        "no legal move: the turn passes; the mover wins with probability 0.428571"
    )
    data = json.loads(advise(["14+1/14+1", "0", "--table", finkel2, "--format", "json"], capsys))
    assert data["advice"] == "pass" and data["best"]["move"] == "pass"
    assert data["best"]["value"] == pytest.approx(3 / 7, abs=1e-12)
    assert [m["move"] for m in data["moves"]] == ["pass"]


def test_solving_first_with_one_piece(capsys):
    """One piece each: one move at most, whatever the throw."""
    data = json.loads(advise(["6/13", "4", "--solve", "--pieces", "1", "--format", "json"], capsys))
    [(move, value)] = solve_table("finkel", 1).move_values("6/13", 4)
    assert move == (6, 10, False) and data["best"]["move"] == "6->10"
    assert data["advice"] == "only move" and data["best"]["value"] == pytest.approx(
        value, abs=1e-12
    )


@pytest.mark.parametrize(
    "argv, says",
    [
        (["4;6", "2"], "write it as the mover's squares"),
        (["4,4/6", "2"], "two of the mover's pieces on square 4"),
        (["15/-", "2"], "off the finkel path"),
        (["4/6", "7"], "throw 7 is not possible"),
        (["4/6", "-1"], "throw -1 is not possible"),
        (["4/6", "two"], "'two' is not a whole number"),
        (["4/6", "2", "--rules", "aseb"], "holds a table for finkel with 2 piece(s), not aseb"),
        (
            ["4/6", "2", "--pieces", "3"],
            "holds a table for finkel with 2 piece(s), not finkel with 3",
        ),
        (["4/6", "2", "--table", "MISSING"], "cannot read"),
        (["4/6", "2", "--table", "CUT"], "bytes where 12,869 positions need"),
        (["4/6", "2", "--table", "JUNK"], "is not a gamegraph Ur values table"),
        (["4/6", "2", "--table", "NAN"], "is damaged: its sha256 digest does not match"),
        (["4/6"], "the following arguments are required: throw"),
    ],
)
def test_bad_input_is_one_line_and_a_nonzero_exit(argv, says, finkel2, tmp_path, capsys):
    data = finkel2.read_bytes()
    files = {"MISSING": tmp_path / "missing.npy", "CUT": tmp_path / "cut.npy",
             "JUNK": tmp_path / "junk.npy", "NAN": tmp_path / "nan.npy"}  # fmt: skip
    files["CUT"].write_bytes(data[:-8])
    files["JUNK"].write_bytes(b"not a table\n")
    nan = np.float64(np.nan).tobytes()
    files["NAN"].write_bytes(data[:HEADER_BYTES] + nan + data[HEADER_BYTES + 8 :])
    argv = [str(files.get(a, a)) for a in argv]
    if "--table" not in argv:
        argv += ["--table", str(finkel2)]
    status, out, err = run(["ur", "advise", *argv], capsys)
    assert status == 2 and out == ""
    assert says in err and err.count("\n") == 1, err


def test_solve_checks_the_position_and_throw_before_solving(capsys):
    for argv, says in ((["5,5/-", "2"], "two of the mover's"), (["-/-", "5"], "throw 5 is not")):
        status, _, err = run(["ur", "advise", *argv, "--solve", "--pieces", "4"], capsys)
        assert status == 2 and says in err


@pytest.mark.skipif(not os.path.exists(FINKEL7), reason="needs the solved finkel 7 table")
def test_the_seven_piece_table_in_a_process_of_its_own():
    command = [sys.executable, "-m", "gamegraph", "ur", "advise", "4,13+2/6+1", "2"]
    done = subprocess.run(
        command + ["--table", FINKEL7, "--format", "json"], capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert (data["rules"], data["pieces"], data["advice"]) == ("finkel", 7, "best")
    assert [m["move"] for m in data["moves"]] == ["enter->2", "4->6", "13->off"]
    assert data["best"]["move"] == "4->6" and abs(data["best"]["value"] - 0.7265233615) < 1e-9
    assert data["runner_up"]["move"] == "enter->2"
    assert abs(data["margin"] - 0.0706274076) < 1e-9
    assert abs(data["value"] - 0.6953005316) < 1e-9


def test_advice_loads_no_solver(finkel2):
    """Start-up is most of a quick answer's time: the command loads neither scipy, nor the
    progress bars, nor numba, nor the pictures."""
    code = (
        "import io, sys\n"
        "from gamegraph.cli import main\n"
        f"assert main(['ur', 'advise', '4/6', '2', '--table', {str(finkel2)!r}], "
        "out=io.StringIO()) == 0\n"
        "print(sorted(m for m in ('scipy', 'tqdm', 'numba', 'matplotlib', 'plotly') "
        "if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
