"""``gamegraph ur board`` from a ``.npy`` table of any piece count, and a board with as
many moves as seven pieces can offer, read back from the SVG.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest
from cli_run import run

pytest.importorskip("matplotlib")

from gamegraph.games.ur import legal_moves, parse_position, rule_set  # noqa: E402
from gamegraph.games.ur.block_solver import solve_file  # noqa: E402
from gamegraph.games.ur.rank_table import open_values  # noqa: E402
from gamegraph.renderers import ur_board  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
FINKEL7 = "/tmp/x/finkel7.npy"
PNG = b"\x89PNG\r\n\x1a\n"


def svg_groups(path):
    root = ET.parse(path).getroot()
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}


def texts(group) -> list:
    return [t.text or "" for t in group.iter(f"{SVG}text")]


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(PNG)
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.fixture(scope="module")
def finkel2(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "finkel-2.npy"
    solve_file(path, "finkel", 2, engine="numpy", tol=1e-13, progress=False)
    return path


def test_board_from_a_block_table(finkel2, tmp_path, capsys):
    target = tmp_path / "b.svg"
    argv = ["ur", "board", "4/6", "--throw", "2", "--table", finkel2, "-o", target]
    status, out, err = run(argv, capsys)
    assert status == 0 and out == f"wrote {target}\n", err
    groups = svg_groups(target)
    table = open_values(finkel2)
    values = dict(table.move_values("4/6", 2))
    assert texts(groups["value-4-6"]) == [f"{values[(4, 6, True)]:.4f}"] == ["0.5805"]
    assert texts(groups["value-0-2"]) == [f"{values[(0, 2, False)]:.4f}"] == ["0.4754"]
    assert f"win probability {table.value('4/6'):.4f}" in "".join(
        t.text or "" for t in ET.parse(target).getroot().iter(f"{SVG}text")
    )


def test_seven_moves_wrap_under_the_board(tmp_path):
    """Seven pieces on the board, a throw of 1: seven moves, listed four to a line, so
    the picture is no wider than the board's own; arrows that never share a square are
    drawn on the path's centre line.
    """
    ruleset = rule_set("finkel", 7)
    position = "1,3,5,7,9,11,13/2,4,6,10,14"
    moves = legal_moves(parse_position(position, ruleset), 1, ruleset)
    assert len(moves) == 7
    values = [(move, 0.5 + i / 100) for i, move in enumerate(moves)]
    with_moves, bare = tmp_path / "moves.png", tmp_path / "bare.png"
    ur_board.draw_board(ruleset, position, with_moves, throw=1, move_values=values)
    ur_board.draw_board(ruleset, position, bare)
    (width, height), (bare_width, bare_height) = png_size(with_moves), png_size(bare)
    assert width <= bare_width + 5 and height > bare_height
    path = tmp_path / "moves.svg"
    ur_board.draw_board(ruleset, position, path, throw=1, move_values=values)
    lines = texts(svg_groups(path)["move-list"])
    assert lines[0] == "win probability after each move:"
    assert len(lines) == 3 and lines[1].startswith("1 → 2: 0.5000   3 → 4: 0.5100")
    assert lines[2].endswith("13 → 14: 0.5600 (best)")
    assert {ur_board._arrow_shift(move, 1) for move in moves} == {0.0}


@pytest.mark.parametrize(
    "throw, sources, shifts",
    [(2, (0, 4, 13), (-0.065, -0.065, 0.065)), (4, (0, 1, 2, 3), (-0.195, -0.065, 0.065, 0.195))],
)
def test_arrows_sharing_squares_are_drawn_apart(throw, sources, shifts):
    assert tuple(ur_board._arrow_shift((s, s + throw, False), throw) for s in sources) == shifts


@pytest.mark.skipif(not os.path.exists(FINKEL7), reason="needs the solved finkel 7 table")
def test_board_from_the_seven_piece_table(tmp_path, capsys):
    target = tmp_path / "b7.svg"
    argv = ["ur", "board", "4,13+2/6+1", "--throw", "2", "--table", FINKEL7, "-o", target]
    status, out, err = run(argv, capsys)
    assert status == 0 and out == f"wrote {target}\n", err
    groups = svg_groups(target)
    assert [texts(groups[f"value-{key}"]) for key in ("0-2", "4-6", "13-15")] == [
        ["0.6559"],
        ["0.7265"],
        ["0.6349"],
    ]
    assert "(best)" in "".join(texts(groups["move-list"]))
    assert {name for name in groups if name.startswith("piece-")} == {
        "piece-light-4",
        "piece-light-13",
        "piece-dark-6",
    }
    png = tmp_path / "b7.png"
    argv[-1] = png
    assert run(argv, capsys)[0] == 0 and png_size(png)[0] > 600
