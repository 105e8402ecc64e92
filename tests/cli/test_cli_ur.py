"""``gamegraph ur ...``: counts, solves, saved tables, queries and tournaments, in-process.

Bad input exits with status 2, one stderr line saying what is accepted, and writes nothing.
"""

from __future__ import annotations

import io
import json
import os
from fractions import Fraction

import pytest
from cli_run import run

from gamegraph import build, solve
from gamegraph.cli import main
from gamegraph.games.ur import Ur
from gamegraph.games.ur.code_table import load_table


@pytest.fixture(scope="module")
def finkel2_table(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "finkel-2.urtable"
    out = io.StringIO()
    assert (
        main(["ur", "solve", "--rules", "finkel", "--pieces", "2", "--save", str(path)], out=out)
        == 0
    )
    return path


def test_count_prints_the_king_of_ur_figure(capsys):
    status, out, _ = run(["ur", "count", "--rules", "finkel", "--pieces", "7"], capsys)
    assert status == 0 and out == "137913936\n"


@pytest.mark.parametrize(
    "rules, pieces, positions, nonterminal",
    [("finkel", 3, 264304, 263121), ("masters", 1, 312, 277), ("aseb", 5, 41264288, 41243781)],
)
def test_count_json(rules, pieces, positions, nonterminal, capsys):
    status, out, _ = run(
        ["ur", "count", "--rules", rules, "--pieces", pieces, "--format", "json"], capsys
    )
    data = json.loads(out)
    assert status == 0
    assert (data["positions"], data["nonterminal"]) == (positions, nonterminal)


@pytest.mark.parametrize("rules", ["finkel", "masters", "blitz", "aseb"])
def test_solve_json_matches_the_library(rules, capsys):
    status, out, _ = run(
        ["ur", "solve", "--rules", rules, "--pieces", "2", "--format", "json"], capsys
    )
    data = json.loads(out)
    graph = Ur(rules, 2).build_graph()
    expected = solve(graph).start_value
    assert status == 0
    assert data["states"] == graph.n_states - 1
    assert data["start"] == pytest.approx(float(expected), abs=1e-12)
    assert data["residual"] <= 1e-12
    # Reachable positions: every non-terminal board except under masters (no throw of 0).
    assert (
        data["states"] == {"finkel": 12869, "masters": 18992, "blitz": 20314, "aseb": 20314}[rules]
    )


def test_solve_exact_one_piece_prints_the_exact_fraction(capsys):
    status, out, _ = run(
        ["ur", "solve", "--rules", "masters", "--pieces", "1", "--exact", "--format", "json"],
        capsys,
    )
    data = json.loads(out)
    exact = solve(Ur("masters", 1).build_graph(), exact=True).start_value
    assert status == 0 and data["exact"] is True
    assert Fraction(data["start"]) == exact


def test_solve_text_names_the_size_and_start(capsys):
    status, out, _ = run(["ur", "solve", "--rules", "finkel", "--pieces", "1"], capsys)
    assert status == 0
    assert "216 positions" not in out and "217 positions solved" in out
    assert "0.530049839525" in out


def test_saved_table_answers_value_and_moves(finkel2_table, capsys):
    table = load_table(finkel2_table, rules="finkel", pieces=2)
    status, out, _ = run(["ur", "value", "4/6", "--table", finkel2_table], capsys)
    assert status == 0 and float(out) == pytest.approx(table.value("4/6"), abs=1e-12)

    status, out, _ = run(
        ["ur", "moves", "4/6", "--throw", "2", "--table", finkel2_table, "--format", "json"], capsys
    )
    data = json.loads(out)
    expected = table.move_values("4/6", 2)
    assert status == 0
    assert [m["value"] for m in data["moves"]] == pytest.approx([v for _, v in expected], abs=1e-12)
    assert [m["move"] for m in data["moves"]] == ["enter->2", "4->6"]
    assert data["moves"][1]["captures"] is True
    best = max(range(len(expected)), key=lambda i: expected[i][1])
    assert [m["best"] for m in data["moves"]] == [i == best for i in range(len(expected))]


def test_moves_with_no_legal_move_is_a_pass(finkel2_table, capsys):
    status, out, _ = run(
        ["ur", "moves", "4/6", "--throw", "0", "--table", finkel2_table, "--format", "json"], capsys
    )
    data = json.loads(out)
    table = load_table(finkel2_table)
    assert status == 0 and [m["move"] for m in data["moves"]] == ["pass"]
    assert data["moves"][0]["value"] == pytest.approx(1 - table.value("6/4"), abs=1e-15)


def test_value_by_solving_reproduces_the_king_of_ur_endgame(capsys):
    # One piece each, mover on square 13, opponent on 14: the "King of Ur" position (b)
    # with the borne-off pieces removed has the same value.
    status, out, _ = run(["ur", "value", "13/14", "--solve", "--pieces", "1"], capsys)
    assert status == 0
    assert float(out) == pytest.approx(116 / 161, abs=1e-12)
    assert solve(build(Ur("finkel", 1, start="13/14")), exact=True).start_value == Fraction(
        116, 161
    )


def test_tournament_json_is_reproducible(capsys):
    argv = [
        "ur",
        "tournament",
        "--pieces",
        "2",
        "--agents",
        "first,greedy,optimal",
        "--games",
        "400",
        "--seed",
        "5",
        "--format",
        "json",
    ]
    status, out, _ = run(argv, capsys)
    again = run(argv, capsys)[1]
    data = json.loads(out)
    assert status == 0
    assert [(p["a"], p["b"]) for p in data["pairings"]] == [
        ("first", "greedy"),
        ("first", "optimal"),
        ("greedy", "optimal"),
    ]

    def strip(d):
        return [
            {k: v for k, v in p.items() if k not in ("seconds", "games_per_second")}
            for p in d["pairings"]
        ]

    assert strip(json.loads(again)) == strip(data)
    agents = {row["agent"]: row for row in data["agents"]}
    assert agents["optimal"]["mean_loss"] == pytest.approx(0, abs=1e-12)
    assert agents["first"]["mean_loss"] > 0.01
    for p in data["pairings"]:
        assert p["low"] <= p["a_rate"] <= p["high"]


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, says",
    [
        (["ur", "count", "--rules", "bell"], "invalid choice"),
        (["ur", "count", "--pieces", "0"], "accepted whole numbers 1 to 7"),
        (["ur", "count", "--pieces", "8"], "accepted whole numbers 1 to 7"),
        (["ur", "count", "--pieces", "two"], "accepted whole numbers 1 to 7"),
        (["ur", "solve", "--pieces", "7"], "try fewer --pieces"),
        (["ur", "solve", "--pieces", "2", "--exact"], "--exact is offered up to 1 piece"),
        (
            ["ur", "value", "5,5/-", "--solve", "--pieces", "2"],
            "two of the mover's pieces on square 5",
        ),
        (["ur", "value", "4;6", "--solve", "--pieces", "1"], "write it as the mover's squares"),
        (["ur", "value", "15/-", "--solve", "--pieces", "1"], "off the finkel path"),
        (["ur", "value", "5/5", "--solve", "--pieces", "1"], "are the same tile"),
        (
            ["ur", "moves", "4/6", "--throw", "7", "--solve", "--pieces", "1"],
            "throw 7 is not possible",
        ),
        (
            ["ur", "tournament", "--pieces", "1", "--agents", "first,bogus"],
            "unknown Ur agent 'bogus'",
        ),
        (["ur", "tournament", "--pieces", "1", "--games", "0"], "accepted 1 to"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, says, capsys):
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    assert says in err and err.count("\n") == 1, err


def test_table_for_other_rules_is_refused(finkel2_table, capsys):
    for extra in (["--rules", "aseb"], ["--pieces", "3"]):
        status, out, err = run(["ur", "value", "4/6", "--table", finkel2_table] + extra, capsys)
        assert status == 2 and out == ""
        assert "holds a table for finkel with 2 piece(s)" in err


def test_truncated_table_is_refused(finkel2_table, tmp_path, capsys):
    cut = tmp_path / "cut.urtable"
    cut.write_bytes(finkel2_table.read_bytes()[:-100])
    status, _, err = run(["ur", "value", "4/6", "--table", cut], capsys)
    assert status == 2 and "truncated" in err


def test_save_into_a_missing_folder_writes_nothing(tmp_path, capsys):
    target = tmp_path / "missing" / "t.urtable"
    status, out, err = run(["ur", "solve", "--pieces", "1", "--save", target], capsys)
    assert status == 2 and "does not exist" in err
    assert not target.parent.exists()


def test_failed_solve_leaves_an_existing_table_alone(finkel2_table, tmp_path, capsys):
    keep = tmp_path / "keep.urtable"
    keep.write_bytes(finkel2_table.read_bytes())
    status, _, _ = run(["ur", "solve", "--pieces", "2", "--exact", "--save", keep], capsys)
    assert status == 2
    assert keep.read_bytes() == finkel2_table.read_bytes()
    assert sorted(os.listdir(tmp_path)) == ["keep.urtable"]


# ---------------------------------------------------------------------------
# pictures
# ---------------------------------------------------------------------------
def test_board_annotates_each_move_with_the_tables_value(finkel2_table, tmp_path, capsys):
    target = tmp_path / "b.svg"
    status, out, _ = run(
        ["ur", "board", "4/6", "--throw", "2", "--table", finkel2_table, "-o", target], capsys
    )
    text = target.read_text()
    values = load_table(finkel2_table).move_values("4/6", 2)
    assert status == 0 and out == f"wrote {target}\n"
    assert text.count('id="piece-') == 2
    for _, value in values:
        assert f">{value:.4f}<" in text


def test_board_without_values_draws_the_position(tmp_path, capsys):
    target = tmp_path / "b.png"
    status, _, _ = run(
        ["ur", "board", "5,13/6", "--rules", "aseb", "--pieces", "2", "-o", target], capsys
    )
    assert status == 0 and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_graph_has_a_node_per_one_piece_position(tmp_path, capsys):
    target = tmp_path / "g.dot"
    status, _, _ = run(["ur", "graph", "--rules", "masters", "-o", target], capsys)
    nodes = [
        line
        for line in target.read_text().splitlines()
        if line.strip().startswith("n") and "->" not in line and "label=" in line
    ]
    assert status == 0
    assert len(nodes) == Ur("masters", 1).build_graph().n_states  # 216 positions and WIN


def test_heatmap_writes_a_page_and_a_figure(finkel2_table, tmp_path, capsys):
    for name in ("h.html", "h.svg"):
        status, _, _ = run(
            ["ur", "heatmap", "--table", finkel2_table, "-o", tmp_path / name], capsys
        )
        assert status == 0 and (tmp_path / name).stat().st_size > 1000


@pytest.mark.parametrize(
    "argv, says",
    [
        (["ur", "board", "4/6", "-o", "OUT/b.gif"], "unknown output extension '.gif'"),
        (["ur", "board", "4/6", "--throw", "2", "-o", "OUT/b.png"], "--throw needs values"),
        (["ur", "board", "4,4/6", "-o", "OUT/b.png"], "two of the mover's pieces"),
        (["ur", "graph", "-o", "OUT/g.jpg"], "unknown output extension '.jpg'"),
        (
            ["ur", "heatmap", "--solve", "--pieces", "1", "-o", "OUT/missing/h.png"],
            "does not exist",
        ),
    ],
)
def test_bad_picture_requests_write_nothing(argv, says, tmp_path, capsys):
    argv = [a.replace("OUT", str(tmp_path)) for a in argv]
    status, out, err = run(argv, capsys)
    assert status == 2 and out == "" and says in err
    assert os.listdir(tmp_path) == []
