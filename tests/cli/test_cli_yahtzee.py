"""``gamegraph yahtzee solve|advise``: small versions solved and saved, advice from the file,
and one clear line with exit status 2 for every kind of bad input.
"""

from __future__ import annotations

import json

import pytest
from cli_run import run

from gamegraph.games.yahtzee.dice import multisets
from gamegraph.games.yahtzee.scoring import scoring
from gamegraph.games.yahtzee.solver import solve_values

BOXES = ("threes", "sixes", "yahtzee", "chance")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A four-box, three-dice Yahtzee solved and saved by the command line."""
    path = tmp_path_factory.mktemp("tables") / "small.npy"
    status, out, err = _run_quiet(
        ["yahtzee", "solve", "--boxes", ",".join(BOXES), "--dice", "3", "--save", path, "-q"]
    )
    assert status == 0, err
    return path, out


def _run_quiet(argv):
    """``run`` without capsys (for the module fixture): status, stdout, stderr."""
    import contextlib
    import io

    from gamegraph.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv], out=out)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def reference():
    return solve_values(scoring("yahtzee", boxes=BOXES, dice=3))


def test_solve_prints_the_value_the_positions_and_writes_the_table(saved, reference):
    path, out = saved
    lines = out.splitlines()
    assert lines[0] == (
        "Yahtzee (free joker), boxes threes, sixes, yahtzee, chance, 3 dice: optimal expected "
        f"score {reference.start_value:.4f} ({reference.start_value!r})"
    )
    assert lines[1].startswith("2,048 turn-start positions solved in ")
    assert lines[2] == f"wrote {path}"
    assert round(reference.start_value, 4) == 79.2989


def test_solve_as_json(capsys, reference):
    status, out, err = run(
        ["yahtzee", "solve", "--boxes", "sixes,yahtzee,chance,threes", "--dice", "3",
         "--format", "json"],
        capsys,
    )  # fmt: skip
    assert status == 0, err
    payload = json.loads(out)
    assert payload["expected_score"] == reference.start_value
    assert payload["boxes"] == list(BOXES) and payload["positions"] == 2048
    assert payload["joker"] == "free" and payload["table"] is None


def test_advise_with_throws_left_names_the_best_keep(saved, reference, capsys):
    path, _ = saved
    status, out, err = run(
        ["yahtzee", "advise", "--table", path, "--dice", "6,1,3", "--throws-left", "2",
         "--filled", "sixes=12"],
        capsys,
    )  # fmt: skip
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        "Yahtzee (free joker), boxes threes, sixes, yahtzee, chance, 3 dice: dice 1,3,6, "
        "2 throws left; "
        "1 of 4 boxes filled, upper total 12, 12 points on the card"
    )
    assert lines[1].split() == ["keep", "dice", "thrown", "expected", "final", "score",
                                "behind", "the", "best"]  # fmt: skip
    stages = reference.turn(0b0010, 12, 0)
    best = 12 + stages[4, multisets(3).index((1, 3, 6))]
    assert f"expected final score {best:.4f}" in out
    assert len(lines) == 1 + 1 + 8 + 2  # title, header, 8 distinct keeps, 2 notes


def test_advise_as_json_agrees_with_the_table(saved, reference, capsys):
    path, _ = saved
    status, out, err = run(
        ["yahtzee", "advise", "--table", path, "--dice", "333", "--throws-left", "0",
         "--filled", "yahtzee=50,sixes=6", "--yahtzee-bonuses", "1", "--format", "json"],
        capsys,
    )  # fmt: skip
    assert status == 0, err
    payload = json.loads(out)
    assert payload["points_on_card"] == 50 + 6 + 100
    assert payload["yahtzee_50"] is True and payload["upper_total"] == 6
    boxes = {row["box"]: row for row in payload["alternatives"]}
    assert set(boxes) == {"threes", "chance"}
    # threes: 9 points and the 100 bonus, then the last box (chance) to come
    used_after = 0b0111  # threes, sixes, yahtzee
    rest = reference.values[reference.index(used_after, 15, 1)]
    assert abs(boxes["threes"]["expected"] - (156 + 109 + rest)) < 1e-9
    assert boxes["threes"]["points"] == 109 and boxes["chance"]["points"] == 109
    assert payload["best"] == payload["alternatives"][0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dice", "1,3", "--throws-left", "1"], "2 dice where Yahtzee here throws 3"),
        (["--dice", "1,3,9", "--throws-left", "1"], "each die shows 1 to 6"),
        (["--dice", "1,3,3", "--throws-left", "3"], "3 throws left: accepted 0 to 2"),
        (["--dice", "1,3,3", "--throws-left", "0", "--filled", "aces=1"], "unknown Yahtzee box"),
        (
            ["--dice", "1,3,3", "--throws-left", "0", "--filled", "sixes=6,sixes=6"],
            "filled twice",
        ),
        (["--dice", "1,3,3", "--throws-left", "0", "--rules", "yatzy"], "not Yatzy"),
        (["--dice", "1,3,3", "--throws-left", "0", "--joker", "forced"], "not the forced joker"),
    ],
)
def test_bad_advice_input_is_one_line_and_status_2(saved, capsys, argv, message):
    path, _ = saved
    status, out, err = run(["yahtzee", "advise", "--table", path, *argv], capsys)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1, err


def test_a_damaged_or_missing_table_is_one_line_and_status_2(saved, tmp_path, capsys):
    path, _ = saved
    damaged = tmp_path / "damaged.npy"
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    damaged.write_bytes(bytes(data))
    for table, message in (
        (damaged, "is damaged: its sha256 digest does not match"),
        (tmp_path / "missing.npy", "cannot read"),
        (tmp_path, "not a regular file"),
    ):
        status, out, err = run(
            ["yahtzee", "advise", "--table", table, "--dice", "1,2,3", "--throws-left", "0"],
            capsys,
        )
        assert status == 2 and out == "" and message in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "yatzy", "--joker", "forced"], "Yatzy has no joker"),
        (["--boxes", "sixes,pawns"], "unknown Yahtzee box 'pawns'"),
        (["--boxes", "sixes,Sixes"], "the box sixes is named twice"),
        (["--dice", "6"], "6 dice: accepted 1 to 5"),
        (["--save", "table.txt"], "unknown output extension '.txt'"),
    ],
)
def test_bad_solve_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(["yahtzee", "solve", "--boxes", "sixes", *argv], capsys)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1, err


@pytest.mark.slow
def test_full_yahtzee_solve_prints_the_published_value(tmp_path, capsys):
    path = tmp_path / "yahtzee.npy"
    status, out, err = run(["yahtzee", "solve", "--save", path, "-q"], capsys)
    assert status == 0, err
    assert out.startswith("Yahtzee (free joker): optimal expected score 254.5896 (254.58960948")
    assert "1,048,576 turn-start positions" in out
    status, out, err = run(
        ["yahtzee", "advise", "--table", path, "--dice", "1,3,3,5,6", "--throws-left", "2"],
        capsys,
    )
    assert status == 0, err
    assert "best: keep 3,3, expected final score" in out
