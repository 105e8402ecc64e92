"""Tests for gamegraph.games.ur_count: exact Ur position counts and the 2023 paper's formula."""

from __future__ import annotations

from itertools import combinations
from math import comb, factorial
from pathlib import Path

import pytest

from gamegraph import InvalidArgumentError, UnknownNameError
from gamegraph.games import ur_count
from gamegraph.games.ur_count import (
    GEOMETRY,
    PATHS,
    PIECES,
    ROSETTES,
    brute_force_count,
    count_nonterminal,
    count_positions,
    count_table,
    dark_path,
    murray_formula,
    paper_formula,
    paper_program,
    paper_vs_exact,
    table_1,
    tile_split,
)


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------
def test_paths_are_walks_of_adjacent_distinct_tiles():
    assert {name: len(path) for name, path in PATHS.items()} == {
        "finkel": 14,
        "masters": 16,
        "blitz": 16,
        "aseb": 16,
    }
    for name, path in PATHS.items():
        assert len(set(path)) == len(path), name
        assert path[0] == (1, 4)
        steps = {abs(x1 - x2) + abs(y1 - y2) for (x1, y1), (x2, y2) in zip(path, path[1:])}
        assert steps == {1}, name


def test_masters_shares_the_tiles_where_the_paths_cross_lanes():
    light, dark = set(PATHS["masters"]), set(dark_path("masters"))
    shared = light & dark
    assert shared == {(2, y) for y in range(1, 9)} | {(1, 7), (1, 8), (3, 7), (3, 8)}
    assert light - shared == {(1, 1), (1, 2), (1, 3), (1, 4)}
    assert dark - shared == {(3, 1), (3, 2), (3, 3), (3, 4)}


def test_geometry_is_what_the_paths_give():
    assert (
        {name: tile_split(name) for name in PATHS}
        == GEOMETRY
        == {"finkel": (6, 8), "masters": (4, 12), "blitz": (4, 12), "aseb": (4, 12)}
    )
    assert sum(GEOMETRY["finkel"]) == len(PATHS["finkel"])


def test_rosettes_lie_on_the_paths():
    for name, rosettes in ROSETTES.items():
        assert len(rosettes) == 5
        assert rosettes <= set(PATHS[name]) | set(dark_path(name)), name
    assert ROSETTES["aseb"] == {(1, 1), (3, 1), (2, 4), (2, 8), (2, 12)}
    assert ROSETTES["finkel"] == ROSETTES["masters"] == ROSETTES["blitz"]


def test_unknown_rule_set():
    with pytest.raises(UnknownNameError, match="accepted: finkel, masters, blitz, aseb"):
        tile_split("bell")


# ---------------------------------------------------------------------------
# Exact counts
# ---------------------------------------------------------------------------
def test_published_and_hand_counts():
    assert count_positions(6, 8, 7) == 137_913_936  # the "King of Ur" figure
    assert count_positions(6, 8, 1) == 16 * 16 - 8  # 16 spots each, 8 shared clashes
    assert count_positions(1, 2, 1) == 23  # the paper's mini board
    assert count_nonterminal(6, 8, 3) == 263_121
    assert count_positions(0, 0, 3) == 16  # no tiles: 4 splits per side
    assert count_positions(3, 0, 0) == 1 and count_nonterminal(3, 0, 0) == 0


@pytest.mark.parametrize("private", range(4))
@pytest.mark.parametrize("shared", range(5))
@pytest.mark.parametrize("pieces", range(4))
def test_closed_form_matches_brute_force(private, shared, pieces):
    assert count_positions(private, shared, pieces) == brute_force_count(private, shared, pieces)


def side_placements(path, pieces):
    """(tiles held, pieces borne off) for one side, listed from the path's tiles."""
    out = []
    for k in range(min(pieces, len(path)) + 1):
        for held in combinations(path, k):
            for borne in range(pieces - k + 1):
                out.append((frozenset(held), borne))
    return out


@pytest.mark.parametrize("name", sorted(PATHS))
@pytest.mark.parametrize("pieces", [1, 2])
def test_counts_from_the_board_coordinates(name, pieces):
    """List both sides on the real tiles (x, y): the totals agree with GEOMETRY's split."""
    light = side_placements(PATHS[name], pieces)
    dark = side_placements(dark_path(name), pieces)
    boards = [(a, b) for a in light for b in dark if not a[0] & b[0]]
    going = [(a, b) for a, b in boards if a[1] < pieces and b[1] < pieces]
    assert len(boards) == count_positions(*GEOMETRY[name], pieces)
    assert len(going) == count_nonterminal(*GEOMETRY[name], pieces)


def test_count_table_values():
    rows = {(r.ruleset, r.pieces): (r.positions, r.nonterminal) for r in count_table()}
    assert len(rows) == 4 * 7
    assert [rows["finkel", n][0] for n in range(1, 8)] == [
        248,
        13_112,
        264_304,
        2_606_947,
        14_680_840,
        53_212_388,
        137_913_936,
    ]
    assert [rows["masters", n][0] for n in range(1, 8)] == [
        312,
        20_623,
        514_052,
        6_165_948,
        41_264_288,
        172_726_782,
        501_032_952,
    ]
    assert [rows["finkel", n][1] for n in range(1, 8)] == [
        217,
        12_869,
        263_121,
        2_602_822,
        14_669_769,
        53_188_365,
        137_870_097,
    ]
    assert [rows["aseb", n][1] for n in range(1, 8)] == [
        277,
        20_314,
        512_349,
        6_159_211,
        41_243_781,
        172_676_489,
        500_929_993,
    ]
    for n in range(1, 8):
        assert rows["masters", n] == rows["blitz", n] == rows["aseb", n]
    assert PIECES == {"finkel": 7, "masters": 7, "blitz": 5, "aseb": 5}


@pytest.mark.parametrize("args", [(-1, 8, 7), (6, -1, 7), (6, 8, -1), (6, 8, 1.0), (True, 8, 1)])
def test_counts_reject_bad_sizes(args):
    with pytest.raises(InvalidArgumentError, match="must be a non-negative integer"):
        count_positions(*args)
    with pytest.raises(InvalidArgumentError, match="must be a non-negative integer"):
        count_nonterminal(*args)


def test_brute_force_refuses_big_boards():
    with pytest.raises(InvalidArgumentError, match="use count_positions"):
        brute_force_count(6, 8, 7)


# ---------------------------------------------------------------------------
# The paper's formula
# ---------------------------------------------------------------------------
def test_paper_formula_values():
    assert paper_formula(1, 1, 2) == 23  # appendix A's example
    assert paper_formula(7, 6, 8) == 121_658_293  # Bell: 1.2e8
    assert paper_formula(5, 4, 12) == 154_058_757  # Aseb: 1.5e8
    assert paper_formula(7, 4, 16) == 25_310_478_936  # Masters at t = 16
    assert paper_formula(7, 4, 12) == 796_572_582  # Masters at t = 12
    assert murray_formula(7) == 5_938_914_764  # Murray: 5.9e9


def test_eq24_taken_literally_gives_41_on_the_mini_board():
    """Eq. 24 with alpha(0) = t' + 1 (so gamma(0) = 2) against Eq. 25 (gamma(0) = 1)."""
    safe, war = 1, 2

    def alpha(i):
        return (safe - i + 1) * comb(safe, i)

    def beta(g, b):
        return factorial(war) // (factorial(g) * factorial(b) * factorial(war - g - b))

    gamma24 = {rest: sum(alpha(i) for i in range(rest + 1)) for rest in (0, 1)}
    total = sum(gamma24[1 - g] * gamma24[1 - b] * beta(g, b) for g in (0, 1) for b in (0, 1))
    assert gamma24 == {0: 2, 1: 3}
    assert total == 41 != paper_formula(1, safe, war)


@pytest.mark.parametrize("name", sorted(GEOMETRY))
def test_both_fixes_give_the_exact_count(name):
    private, shared = GEOMETRY[name]
    for n in range(1, 8):
        fixed = paper_formula(n, private, shared, fix_alpha=True, fix_ranges=True)
        assert fixed == count_positions(private, shared, n)


@pytest.mark.parametrize("private", range(0, 5))
@pytest.mark.parametrize("shared", range(1, 7))
def test_both_fixes_give_the_exact_count_on_small_boards(private, shared):
    for n in range(1, 9):  # also p >= t and p > t'
        fixed = paper_formula(n, private, shared, fix_alpha=True, fix_ranges=True)
        assert fixed == count_positions(private, shared, n)


def test_each_fix_alone_falls_short():
    """Below t/2 only alpha is wrong; above it both are, and each fix alone misses."""
    for name, (private, shared) in GEOMETRY.items():
        for n in range(1, 8):
            alpha_only = paper_formula(n, private, shared, fix_alpha=True)
            exact = count_positions(private, shared, n)
            assert (alpha_only == exact) == (2 * n <= shared), (name, n)
            assert paper_formula(n, private, shared) != exact
    assert paper_formula(7, 6, 8, fix_alpha=True) == 65_740_800
    assert paper_formula(7, 6, 8, fix_ranges=True) == 333_771_019


def test_eq33_misses_pairs_that_fit():
    """Bell's board: 15 pairs (i_g, i_b) with both above t - p = 1 fit the war zone."""
    summed = set(ur_count._war_ranges(7, 8, fix_ranges=False))
    fitting = {(g, b) for g in range(8) for b in range(8) if g + b <= 8}
    missing = fitting - summed
    assert summed <= fitting
    assert (2, 2) in missing and len(missing) == 15
    assert all(g >= 2 and b >= 2 for g, b in missing)


def test_paper_vs_exact_rows():
    rows = {(r.ruleset, r.pieces): r for r in paper_vs_exact()}
    assert rows["finkel", 1].paper == 2_108 and rows["finkel", 1].ratio == pytest.approx(8.5)
    assert rows["finkel", 7].ratio == pytest.approx(0.88213, abs=1e-5)
    assert rows["aseb", 5].paper == 154_058_757 and rows["aseb", 5].exact == 41_264_288
    assert all(r.ratio > 1 for r in rows.values() if r.pieces < 7)


@pytest.mark.parametrize(
    "args, kwargs, fragment",
    [
        ((8, 6, 8), {}, "needs pieces < war"),
        ((3, 0, 8), {}, "needs safe >= 1"),
        ((0, 6, 8), {}, "pieces must be an integer >= 1"),
        ((3, -1, 8), {}, "safe must be an integer >= 0"),
        ((3, 6, 0), {"fix_ranges": True}, "war must be an integer >= 1"),
    ],
)
def test_paper_formula_domain(args, kwargs, fragment):
    with pytest.raises(InvalidArgumentError, match=fragment):
        paper_formula(*args, **kwargs)


def test_paper_formula_fixed_accepts_more():
    assert paper_formula(8, 6, 8, fix_alpha=True, fix_ranges=True) == count_positions(6, 8, 8)
    assert (
        paper_formula(3, 0, 8, fix_alpha=True) == murray_formula(3, 8) == count_positions(0, 8, 3)
    )


# ---------------------------------------------------------------------------
# The Fortran program and Table 1
# ---------------------------------------------------------------------------
def test_paper_program_values():
    assert paper_program(7, 6, 8) == 15_693  # Bell, the printed arithmetic
    assert paper_program(7, 6, 8, multiply=True) == 151_023_453
    assert paper_program(5, 4, 12) == 345_771
    assert paper_program(7, 4, 16) == 32_173_621
    assert paper_program(1, 1, 2) == paper_program(1, 1, 2, multiply=True) == 23
    with pytest.raises(InvalidArgumentError, match="valid for pieces < war"):
        paper_program(8, 6, 8)


def test_program_side_factor():
    """One side's factor: p' * sum C(t', i) while p' <= t', Eq. 22 beyond, plus p' + 1."""
    side = ur_count._program_side
    assert [side(rest, 6) for rest in range(8)] == [1, 8, 45, 127, 229, 316, 385, 259]
    assert side(3, 6) == 3 * (6 + 15 + 20) + 4
    assert side(7, 6) == 8 + sum((6 - i + 1) * comb(6, i) for i in range(1, 7)) + 2


def test_table_1():
    rows = {row.game: row for row in table_1()}
    bell = rows["Bell"]
    assert (bell.formula, bell.exact) == (121_658_293, 137_913_936)
    # Table 1 prints 1.2e7: the formula's mantissa with the exponent one too small.
    assert f"{bell.formula / 10:.1e}" == "1.2e+07" and bell.printed == "1.2e7"
    # Michon's 1.4e8 is the exact count, not an overestimate by ten.
    assert f"{bell.exact:.1e}" == "1.4e+08"
    # Aseb and Masters: neither the formula nor the exact count gives the printed figure.
    for game, printed in (("Aseb", 1.9e8), ("Masters", 4.3e9)):
        row = rows[game]
        assert abs(row.formula / printed - 1) > 0.15 and abs(row.exact / printed - 1) > 0.15
    assert (rows["Aseb"].formula, rows["Masters"].formula) == (154_058_757, 25_310_478_936)
    assert rows["Murray"].formula == rows["Murray"].exact == 5_938_914_764
    assert f"{rows['Murray'].formula:.1e}" == "5.9e+09"


def test_main_prints_the_tables(capsys):
    assert ur_count.main() == 0
    out = capsys.readouterr().out
    assert "| finkel | (6, 8) | 248 | 13,112 | 264,304 |" in out
    assert (
        "| Bell | 7 | 6 | 8 | 1.2e7 | 121,658,293 (1.22e8) | 137,913,936 (1.38e8) | 15,693 |" in out
    )
    assert "| P(022) = P(224) | 0.89 | 9/1024 | 0.878906 | **no** |" in out


def test_docs_page_holds_the_current_tables():
    """docs/games/ur-counting.md pastes `python -m gamegraph.games.ur_count` unchanged."""
    page = Path(__file__).resolve().parents[1] / "docs" / "games" / "ur-counting.md"
    assert ur_count.format_tables() in page.read_text(encoding="utf-8")
