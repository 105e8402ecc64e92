"""``gamegraph yahtzee report|explore`` on a small version from a saved table: the
report's values against the library's, the one-turn page's value against the table, and
one clear line with exit status 2 for bad input.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from cli_run import run

pytest.importorskip("matplotlib")

from gamegraph.games.yahtzee.distribution import score_distribution  # noqa: E402
from gamegraph.games.yahtzee.scoring import scoring  # noqa: E402
from gamegraph.games.yahtzee.solver import solve_values  # noqa: E402
from gamegraph.games.yahtzee.table_file import save_table  # noqa: E402
from gamegraph.reports.yahtzee import box_worth, optimal_game, yahtzee_report  # noqa: E402

#: `make test-fast` leaves these out: Yahtzee reports written.
pytestmark = pytest.mark.heavy

BOXES = ("threes", "sixes", "full house", "yahtzee", "chance")


@pytest.fixture(scope="module")
def table():
    return solve_values(scoring("yahtzee", boxes=BOXES, dice=4))


@pytest.fixture(scope="module")
def saved(table, tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "small.npy"
    save_table(path, table)
    return path


def test_report_markdown_holds_the_values(saved, table, tmp_path, capsys):
    out_path = tmp_path / "yahtzee.md"
    status, out, err = run(
        ["yahtzee", "report", "--table", saved, "-o", out_path, "--seed", "3", "-q"], capsys
    )
    assert status == 0, err
    assert out.startswith(f"wrote {out_path}")
    text = out_path.read_text()
    assert f"is **{table.start_value:.4f}**" in text
    for player, d in (
        ("optimal", score_distribution(table)),
        ("most of a kind", score_distribution(table.scoring, "most of a kind")),
        ("greedy", score_distribution(table.scoring, "greedy")),
    ):
        row = f"| {player} | {d.mean:.4f} | {d.std:.4f} | {d.quantile(0.05)} | {d.median} |"
        assert row in text
    assert "optimal" in text and "254.5896" not in text  # a small version: no full-size text
    files = sorted(p.name for p in (tmp_path / "yahtzee_files").iterdir())
    assert files == sorted(
        f"{name}.{ext}"
        for name in ("box-worth", "box-worth-by-turn", "distribution")
        for ext in ("png", "svg")
    )
    # The advice example: the seeded game's first throw, its best keep first.
    game = optimal_game(table, seed=3)
    dice = ",".join(map(str, game[0].throws[0]))
    assert f"The first throw of that game, {dice}, with two throws left" in text
    assert re.search(r"best: keep [0-9,]+|best: keep nothing", text)
    total = sum(turn.points for turn in game)
    assert f"one game played optimally (dice seeded with 3), {total} points in all" in text


def test_report_html_is_one_file(saved, tmp_path, capsys):
    out_path = tmp_path / "yahtzee.html"
    status, _, err = run(["yahtzee", "report", "--table", saved, "-o", out_path, "-q"], capsys)
    assert status == 0, err
    page = out_path.read_text()
    assert page.count("<img") + page.count("<svg") >= 2
    assert not (tmp_path / "yahtzee_files").exists()


def test_optimal_game_and_box_worth(table):
    game = optimal_game(table, seed=7)
    assert sorted(turn.box for turn in game) == sorted(BOXES)
    for k, turn in enumerate(game):
        p = turn.position
        assert bin(p.used).count("1") == k
        worth = box_worth(table, p.used, min(p.upper, 63), p.flag)
        assert worth.tolist() == pytest.approx(turn.worth.tolist(), nan_ok=True)
        open_ = [b for b in range(len(BOXES)) if not p.used >> b & 1]
        assert [b for b in range(len(BOXES)) if worth[b] == worth[b]] == open_
        # With one box left, its worth is the whole rest of the game.
        if len(open_) == 1:
            rest = table.values[table.index(p.used, min(p.upper, 63), p.flag)]
            assert worth[open_[0]] == pytest.approx(rest)
    # The points add up: the last position's card plus the last turn.
    assert game[-1].position.points + game[-1].points == sum(turn.points for turn in game)


def test_report_from_a_value_table_directly(table):
    report = yahtzee_report(table=table, seed=2)
    assert "Yahtzee (free joker), boxes threes" in report.title


def test_explore_page_matches_the_table(saved, table, tmp_path, capsys):
    page = tmp_path / "turn.html"
    status, out, err = run(
        ["yahtzee", "explore", "--table", saved, "--filled", "sixes=18,yahtzee=50",
         "-o", page, "-q"],
        capsys,
    )  # fmt: skip
    assert status == 0, err
    used = 1 << BOXES.index("sixes") | 1 << BOXES.index("yahtzee")
    value = table.values[table.index(used, 18, 1)]
    assert f"expected score to come {value:.4f} (the table's {value:.4f})" in out
    assert f"expected final score {68 + value:.4f}" in out
    html = page.read_text()
    assert "one turn from sixes 18, yahtzee 50" in html
    for name in ("greedy", "most of a kind"):
        assert name in html


@pytest.mark.parametrize(
    "argv, message",
    [
        (["yahtzee", "report", "-o", "{tmp}/x.txt"], ".txt"),
        (["yahtzee", "report", "--table", "{saved}", "--rules", "yatzy", "-o", "{tmp}/r.md"],
         "Yahtzee table, not Yatzy"),
        (["yahtzee", "report", "--rules", "yatzy", "--joker", "forced", "-o", "{tmp}/r.md"],
         "Yatzy has no joker"),
        (["yahtzee", "explore", "--table", "{saved}", "--filled", "sixes=7", "-o", "{tmp}/p.html"],
         "sixes"),
        (["yahtzee", "explore", "--table", "{saved}", "-o", "{tmp}/p.png"], "accepted: .html"),
        (["yahtzee", "explore", "--table", "{saved}", "-o", "{tmp}/p.html", "--filled",
          "threes=9,sixes=18,full-house=25,yahtzee=50,chance=20"], "game is over"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(argv, message, saved, tmp_path, capsys):
    argv = [str(a).format(saved=saved, tmp=tmp_path) for a in argv]
    status, out, err = run(argv, capsys)
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.iterdir())


def test_rules_note_quotes_the_measured_optima():
    from gamegraph.reports.yahtzee import MEASURED, rules_note

    # The published figures (Verhoeff 1999; Larsson & Sjöberg 2012) to their digits.
    assert round(MEASURED[("yahtzee", "free")], 4) == 254.5896
    assert round(MEASURED[("yatzy", "kth-2012")], 2) == 248.63
    yahtzee = rules_note(scoring("yahtzee", joker="forced"))
    assert "254.5896, the published figure" in yahtzee and "it is 254.5877" in yahtzee
    yatzy = rules_note(scoring("yatzy"))
    assert "give 248.4400" in yatzy and "the optimum is 248.6329, their figure" in yatzy
    assert rules_note(scoring("yatzy", dice=4)) == ""


def test_worth_by_turn_against_games_played_by_the_advice():
    """The chances propagated by the distribution's kernel against 500 games played
    by the advice functions (another program): the share of games with each box open at
    each turn, and the worth averaged over them, within their 99.9 % intervals."""
    from gamegraph.reports.yahtzee import worth_by_turn

    boxes = ("twos", "sixes", "yahtzee", "chance")
    table = solve_values(scoring("yahtzee", boxes=boxes, dice=3))
    by_turn = worth_by_turn(table)
    n = len(boxes)
    assert by_turn.open[:, 0].tolist() == [1.0] * n
    assert by_turn.mean[:, 0] == pytest.approx(box_worth(table, 0, 0).tolist())
    # One box is filled per turn.
    assert by_turn.open.sum(axis=0) == pytest.approx([n - k for k in range(n)], abs=1e-12)
    games = [optimal_game(table, seed=s) for s in range(500)]
    for k in range(n):
        for b in range(n):
            seen = [g[k].worth[b] for g in games if g[k].worth[b] == g[k].worth[b]]
            p = by_turn.open[b, k]
            share = len(seen) / len(games)
            assert abs(share - p) <= 3.3 * (p * (1 - p) / len(games)) ** 0.5 + 1e-12, (k, b)
            if len(seen) > 30:
                sd = max(float(np.std(seen)), 1e-9)
                assert abs(np.mean(seen) - by_turn.mean[b, k]) <= 3.3 * sd / len(seen) ** 0.5
