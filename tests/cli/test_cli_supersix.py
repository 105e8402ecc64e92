"""``gamegraph supersix ...``: solve, strategy, heatmap, map and lp, run in-process.

The expected numbers are the published ones also asserted in
tests/games/supersix/test_supersix.py: Jehn's exact start values (36/41 for two pegs each,
31/36 for hands of 2 and 1, 45324/63919 for 3 and 2, 3523/4428 for two each under the
first-round rule), his strategy strings, and the 0.524 / 0.476 choice at 4/1/1. Bad input
exits with status 2 and one stderr line, and writes nothing.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction as F

import pytest
from cli_run import run

from gamegraph import build, solve
from gamegraph.games.supersix import (
    PUBLISHED_STRATEGIES,
    SuperSix,
    count_states,
    decision_table,
    strategy_string,
)
from gamegraph.games.supersix.analysis import STRATEGY_SHOWN


def _json(out: str) -> dict:
    assert out.count("\n") == 1, "one JSON object on one line"
    return json.loads(out)


def _table_file(text: str) -> dict:
    """A full table written by -o: indented JSON with one line per position."""
    payload = json.loads(text)
    lines = text.splitlines()
    rows = [line for line in lines if line.lstrip().startswith('{"b": ')]
    assert len(rows) == len(payload["strategy"]) and max(map(len, lines)) < 200
    return payload


# ---------------------------------------------------------------------------
# solve
# ---------------------------------------------------------------------------
def test_solve_text_is_a_summary(capsys):
    status, out, err = run(["supersix", "solve", "--pegs", "10"], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Super Six, 5 + 5 pegs, free rules: 155 positions solved in ")
    start = solve(build(SuperSix(pegs=10))).start_value
    assert lines[1] == f"the first player wins with probability {start:.12f}"
    assert "probability 0.658722" in lines[1]
    # Every one of the 155 positions is a roll or a stop.
    assert lines[2] == "decisions: roll again at 131 positions, stop at 24"
    assert lines[3] == f"strategy at 10 pegs in play (paper notation): {PUBLISHED_STRATEGIES[10]}"
    assert lines[4].startswith("(--full prints every decision") and len(lines) == 5
    assert "on the lid" not in out


def test_solve_full_prints_the_grids_and_strategy(capsys):
    status, out, err = run(["supersix", "solve", "--pegs", "10", "--full"], capsys)
    assert status == 0 and err == ""
    assert out.startswith("Super Six, 5 + 5 pegs, free rules: 155 positions solved in ")
    assert "probability 0.658722" in out
    # With 4 on the lid only the mover's last peg rolls on; with 5 every decision stops.
    assert "\n4 on the lid\n   5 .\n   4 ..\n   3 ...\n   2 ....\n   1 R....\n" in out
    assert "\n5 on the lid\n   4 .\n   3 ..\n   2 ...\n   1 ....\n" in out
    assert "\n0 on the lid\n   9 R\n" in out
    grid = [line for line in out.splitlines() if line[:4].strip().isdigit()]
    cells = "".join(line[5:] for line in grid)
    assert (cells.count("R"), cells.count(".")) == (131, 24)  # the summary's counts
    assert out.endswith(
        f"strategy at 10 pegs in play (paper notation): {PUBLISHED_STRATEGIES[10]}\n"
    )


def test_a_long_strategy_string_is_cut_short_in_the_summary(capsys):
    status, out, _ = run(["supersix", "solve", "--pegs", "60"], capsys)
    assert status == 0
    full = strategy_string(decision_table(solve(build(SuperSix(pegs=60)))), 60)
    assert len(full) > STRATEGY_SHOWN
    line = next(x for x in out.splitlines() if x.startswith("strategy at 60"))
    shown = line.partition(": ")[2]
    assert shown == full[: STRATEGY_SHOWN - 3] + "..."
    assert f"(cut short: the string has {len(full):,} characters; --full prints it)" in out
    status, out, _ = run(["supersix", "solve", "--pegs", "60", "--full"], capsys)
    assert out.endswith(f"(paper notation): {full}\n")


def test_a_large_game_prints_a_few_short_lines(capsys):
    """The issue's case was 400 pegs: 2,401 lines of up to 405 characters. Now a summary
    (160 pegs here, to keep the test quick: 958 lines, grid rows of up to 164 characters
    with --full).
    """
    status, out, _ = run(["supersix", "solve", "--pegs", "160"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 6 and max(map(len, lines)) <= 60 + STRATEGY_SHOWN
    assert f"80 + 80 pegs, free rules: {count_states(160):,} positions" in lines[0]
    status, full, _ = run(["supersix", "solve", "--pegs", "160", "--full"], capsys)
    assert full.count("\n") == 958
    assert max(len(x) for x in full.splitlines() if x[:4].strip().isdigit()) == 4 + 1 + 159


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--pegs", "4"], "2 + 2 pegs, free rules: 10 positions solved"),
        (["--pegs", "4"], "probability 36/41 = 0.878048780488\n"),
        (["--hands", "3", "2"], "probability 45324/63919 = 0.709084935622\n"),
        (["--pegs", "4", "--rules", "first-round"], "2 + 2 pegs, first-round rules"),
        (["--pegs", "4", "--rules", "first-round"], "probability 3523/4428 = 0.795618789521\n"),
    ],
)
def test_solve_exact_prints_the_fraction(argv, says, capsys):
    status, out, err = run(["supersix", "solve", "--exact", *argv], capsys)
    assert status == 0 and err == ""
    assert says in out


def test_solve_without_a_decision_prints_no_strategy(capsys):
    status, out, _ = run(["supersix", "solve", "--hands", "2", "1"], capsys)
    assert status == 0
    assert "2 + 1 pegs" in out and f"probability {float(F(31, 36)):.12f}" in out
    assert "paper notation" not in out  # 3 pegs in play offer no decision


def test_solve_json_is_an_indented_summary(capsys):
    status, out, err = run(
        ["supersix", "solve", "--pegs", "4", "--exact", "--format", "json"], capsys
    )
    assert status == 0 and err == ""
    assert out.startswith('{\n  "game": "supersix",\n')  # indented, one key a line
    payload = json.loads(out)
    assert payload["game"] == "supersix" and payload["rules"] == "free"
    assert (payload["hands"], payload["pegs"], payload["states"]) == ([2, 2], 4, 10)
    assert payload["start"] == "36/41" and payload["residual"] == 0.0
    assert payload["strategy_string"] == "(1/1)"
    assert payload["decisions"] == {"roll": 10, "stop": 0}
    assert "strategy" not in payload and "output" not in payload


def test_solve_json_to_a_file_holds_every_position(tmp_path, capsys):
    target = tmp_path / "four.json"
    status, out, err = run(
        ["supersix", "solve", "--pegs", "4", "--exact", "--format", "json", "-o", target],
        capsys,
    )
    assert status == 0 and err == ""
    summary = json.loads(out)
    assert summary["output"] == str(target) and "strategy" not in summary
    payload = _table_file(target.read_text())
    assert payload["start"] == "36/41" and payload["strategy_string"] == "(1/1)"
    rows = {(r["b"], r["c"], r["o"]): r for r in payload["strategy"]}
    assert len(rows) == count_states(4) == 10
    assert rows[0, 2, 2] == dict(b=0, c=2, o=2, p_roll="36/41", p_end="5/41", roll=True)
    assert rows[2, 1, 1]["p_roll"] == "88/123" and rows[1, 1, 2]["p_roll"] == "35/41"
    assert rows[0, 1, 2]["p_end"] == "5/36"
    assert [p.name for p in tmp_path.iterdir()] == ["four.json"]  # no temporary left


def test_solve_text_with_an_output_file(tmp_path, capsys):
    target = tmp_path / "floats.json"
    status, out, _ = run(
        ["supersix", "solve", "--hands", "2", "1", "--rules", "first-round", "-o", target],
        capsys,
    )
    assert status == 0
    assert out.endswith(f"wrote {target}\n") and "--full prints" not in out
    payload = _table_file(target.read_text())
    assert (payload["hands"], payload["pegs"], payload["rules"]) == ([2, 1], 3, "first-round")
    assert payload["strategy_string"] is None
    assert payload["start"] == pytest.approx(
        float(solve(build(SuperSix(hands=(2, 1), rules="first-round")), exact=True).start_value),
        abs=1e-12,
    )
    assert all(isinstance(r["p_roll"], float) for r in payload["strategy"])


@pytest.mark.parametrize(
    "name, says",
    [
        ("four.csv", "unknown output extension '.csv'; accepted: .json"),
        ("missing/four.json", "does not exist"),
    ],
)
def test_solve_checks_the_output_before_any_work(name, says, tmp_path, capsys, monkeypatch):
    import gamegraph.games.supersix.analysis as analysis

    monkeypatch.setattr(analysis, "solve_game", lambda *a, **k: pytest.fail("solved first"))
    status, out, err = run(["supersix", "solve", "--pegs", "4", "-o", tmp_path / name], capsys)
    assert status == 2 and out == ""
    assert says in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_solve_defaults_to_forty_pegs(capsys):
    status, out, _ = run(["supersix", "solve", "--format", "json"], capsys)
    assert status == 0
    payload = json.loads(out)
    assert (payload["hands"], payload["states"]) == ([20, 20], 4115)  # the blog's count
    assert payload["start"] == pytest.approx(0.546744595904, abs=1e-12)
    assert payload["residual"] < 1e-12
    assert len(payload["strategy_string"]) == 185  # whole in JSON


def test_exact_solve_of_a_large_game_says_it_takes_a_while(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    status, out, err = run(["supersix", "solve", "--pegs", "26", "--exact"], capsys)
    assert status == 0
    assert err.startswith("solving 26 pegs exactly; this takes a while ...\n")
    assert "solving supersix" in err  # then the progress bar
    assert "13 + 13 pegs" in out
    status, out, err = run(["supersix", "solve", "--pegs", "26", "--exact", "-q"], capsys)
    assert status == 0 and err == "" and "13 + 13 pegs" in out


# ---------------------------------------------------------------------------
# strategy
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("sticks", [7, 9, 12])
def test_strategy_prints_the_published_string(sticks, capsys):
    status, out, err = run(["supersix", "strategy", "--sticks", sticks], capsys)
    assert status == 0 and err == ""
    assert out == PUBLISHED_STRATEGIES[sticks] + "\n"


def test_strategy_at_thirteen_corrects_the_papers_misprint(capsys):
    status, out, _ = run(["supersix", "strategy", "--sticks", "13"], capsys)
    assert status == 0
    assert out == "(1111111111/1111111111/111000111/00000000/0000000)\n"
    assert PUBLISHED_STRATEGIES[13] == out.strip()[:-1] + "0)"  # one 0 too many in print


def test_strategy_with_an_odd_total_gives_the_first_player_the_odd_peg(capsys):
    status, out, _ = run(["supersix", "strategy", "--sticks", "4"], capsys)
    assert status == 0 and out == "(1/1)\n"


# ---------------------------------------------------------------------------
# heatmap (interactive page)
# ---------------------------------------------------------------------------
def _page_data(path) -> dict:
    """What the page shows, as data: the figure's ``layout.meta`` in the page's JSON."""
    text = path.read_text()
    match = re.search(r'"meta":\s*', text)
    assert match, "the page keeps its data in the figure's layout.meta"
    return json.JSONDecoder().raw_decode(text, match.end())[0]


def test_heatmap_writes_a_page_with_the_start_values(tmp_path, capsys):
    pytest.importorskip("plotly")
    target = tmp_path / "map.html"
    status, out, err = run(
        ["supersix", "heatmap", "--pegs", "6", "--range", "4", "8", "-o", target], capsys
    )
    assert status == 0 and err == ""
    assert out == f"wrote {target}\n"
    data = _page_data(target)
    assert (data["pegs"], data["range"], data["rules"]) == (6, [4, 8], "free")
    assert data["positions"] == count_states(8)
    expected = {"4": F(36, 41), "5": F(45324, 63919)}
    for total, value in expected.items():
        assert data["start"]["free"][total] == pytest.approx(float(value), abs=1e-12)
    # Both rule sets are on the page, every total with its start value.
    for rules in ("free", "first-round"):
        assert sorted(data["start"][rules], key=int) == ["4", "5", "6", "7", "8"]


def test_heatmap_first_round_start_values(tmp_path, capsys):
    pytest.importorskip("plotly")
    target = tmp_path / "first.htm"
    status, _, _ = run(
        [
            "supersix",
            "heatmap",
            "--pegs",
            "4",
            "--rules",
            "first-round",
            "--range",
            "4",
            "6",
            "-o",
            target,
        ],
        capsys,
    )
    assert status == 0
    data = _page_data(target)
    assert data["rules"] == "first-round"  # shown first; the free rules are a click away
    assert data["start"]["first-round"]["4"] == pytest.approx(float(F(3523, 4428)), abs=1e-12)
    assert data["start"]["free"]["4"] == pytest.approx(float(F(36, 41)), abs=1e-12)
    assert "Super Six (first-round rules), 4 pegs (2 + 2)" in target.read_text()


def test_solve_accepts_every_total_the_page_offers(tmp_path, capsys):
    # The page's slider moves one peg at a time, odd totals included (the first player
    # holds the extra peg); `supersix solve --pegs N` takes each of them and agrees.
    pytest.importorskip("plotly")
    target = tmp_path / "map.html"
    status, _, _ = run(
        ["supersix", "heatmap", "--range", "4", "11", "--pegs", "4", "-o", target], capsys
    )
    assert status == 0
    data = _page_data(target)
    low, high = data["range"]
    for rules in ("free", "first-round"):
        for total in range(low, high + 1):
            status, out, err = run(
                ["supersix", "solve", "--pegs", str(total), "--rules", rules, "--format", "json"],
                capsys,
            )
            assert status == 0 and err == "", (rules, total, err)
            solved = json.loads(out)
            assert solved["hands"] == [total - total // 2, total // 2]
            assert solved["start"] == pytest.approx(data["start"][rules][str(total)], abs=1e-12)


@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_heatmap_default_range_runs_to_130(tmp_path, capsys):
    pytest.importorskip("plotly")
    target = tmp_path / "map.html"
    status, _, _ = run(["supersix", "heatmap", "--hands", "2", "2", "-o", target], capsys)
    assert status == 0
    data = _page_data(target)
    assert (data["pegs"], data["range"]) == (4, [4, 130])
    assert data["positions"] == count_states(130)
    assert data["start"]["free"]["4"] == pytest.approx(float(F(36, 41)), abs=1e-12)
    assert target.stat().st_size < 40_000_000  # measured: 12.5 MB


# ---------------------------------------------------------------------------
# map (static figures)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "metric, suffix", [("decision", ".png"), ("choice", ".svg"), ("margin", ".svg")]
)
def test_map_draws_six_panels(metric, suffix, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / f"{metric}{suffix}"
    status, out, err = run(
        ["supersix", "map", "--pegs", "6", "--metric", metric, "-o", target], capsys
    )
    assert status == 0 and err == ""
    assert out == f"wrote {target}\n"
    if suffix == ".png":
        assert target.read_bytes()[:4] == b"\x89PNG"
        return
    svg = target.read_text()  # SVG keeps text as text
    assert f"Super Six, 6 pegs (free rules): {metric}" in svg
    assert all(f"{lid} on the lid" in svg for lid in range(6))


# ---------------------------------------------------------------------------
# lp (the blog's linear program)
# ---------------------------------------------------------------------------
def test_lp_is_exact_on_a_small_game(capsys):
    status, out, err = run(["supersix", "lp", "--pegs", "10"], capsys)
    assert status == 0 and err == ""
    assert out.startswith("LP relaxation of Super Six, 10 pegs (free rules), solved in ")
    assert "largest relative error of P_choice: 0.0000% at " in out
    assert out.endswith(
        "positions off by more than 1e-6: 0 of 155; by pegs on the lid: [0, 0, 0, 0, 0, 0]\n"
    )


def test_lp_draws_the_error_map(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / "lp.svg"
    status, out, _ = run(["supersix", "lp", "--pegs", "8", "-o", target], capsys)
    assert status == 0
    assert out.endswith(f"wrote {target}\n")
    assert "LP relaxation, 8 pegs: relative error of P_choice" in target.read_text()


# ---------------------------------------------------------------------------
# Bad input: exit 2, one line, nothing written
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, says",
    [
        (["solve", "--pegs", "1"], "gamegraph: error: pegs must be a whole number >= 2, got 1"),
        (["solve", "--pegs", "-4"], "pegs must be a whole number >= 2, got -4"),
        (["solve", "--pegs", "4", "--hands", "2", "2"], "give --pegs or --hands, not both"),
        (
            ["solve", "--hands", "0", "3"],
            "hands must be two whole numbers of at least 1, got (0, 3)",
        ),
        (
            ["solve", "--pegs", "1000000"],
            "Super Six with 1000000 pegs (2,999,982,000,035 positions) needs about ",
        ),
        (["solve", "--pegs", "four"], "argument --pegs: 'four' is not a whole number of pegs"),
        (["solve", "--hands", "2"], "argument --hands: expected 2 arguments"),
        (["solve", "--rules", "blitz"], "argument --rules: invalid choice: 'blitz'"),
        (["solve", "--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["strategy"], "the following arguments are required: --sticks"),
        (
            ["strategy", "--sticks", "3"],
            "gamegraph supersix strategy: error: argument --sticks: 3 sticks: accepted 4 or more",
        ),
        (["strategy", "--sticks", "1.5"], "'1.5' is not a whole number of sticks"),
        (["map", "--metric", "odds", "-o", "x.png"], "argument --metric: invalid choice: 'odds'"),
        (["heatmap", "--range", "3", "8", "-o", "x.html"], "3 pegs: accepted 4 or more"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, says, capsys):
    status, out, err = run(["supersix", *argv], capsys)
    assert status == 2 and out == ""
    assert says in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["heatmap", "--pegs", "40", "--range", "4", "30", "-o", "{dir}/x.html"],
            "gamegraph: error: --range 4 30 must contain the total pegs 40 (LOW <= HIGH)",
        ),
        (["heatmap", "--pegs", "6", "--range", "8", "4", "-o", "{dir}/x.html"], "(LOW <= HIGH)"),
        (["heatmap", "--pegs", "6", "-o", "{dir}/x.png"], "unknown output extension '.png'"),
        (
            ["map", "-o", "{dir}/x.html"],
            "gamegraph: error: unknown output extension '.html'; accepted: .png, .svg, .pdf",
        ),
        (["map", "--pegs", "6", "-o", "{dir}/missing/x.png"], "does not exist"),
        (["lp", "--pegs", "6", "-o", "{dir}/x.txt"], "unknown output extension '.txt'"),
        (["lp", "--pegs", "0", "-o", "{dir}/x.png"], "pegs must be a whole number >= 2"),
    ],
)
def test_bad_drawing_requests_write_nothing(argv, says, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    pytest.importorskip("plotly")
    argv = [a.replace("{dir}", str(tmp_path)) for a in argv]
    status, out, err = run(["supersix", *argv], capsys)
    assert status == 2 and out == ""
    assert says in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []
