"""Tests for gamegraph.games.ur.paper: the 2023 paper's state-space formula, its Fortran
program and Table 1 against the exact counts, and its Table 2 of throw sequences."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import permutations
from math import comb, factorial
from pathlib import Path

import pytest

from gamegraph import InvalidArgumentError
from gamegraph.games.ur import paper
from gamegraph.games.ur.board import GEOMETRY
from gamegraph.games.ur.counting import count_positions
from gamegraph.games.ur.dice import (
    FOUR_BINARY,
    THREE_BINARY_ZERO_IS_FOUR,
    binary_dice,
    sequence_probability,
)
from gamegraph.games.ur.paper import (
    TABLE_2,
    TEXT_SEQUENCES,
    check_table_2,
    check_text_sequences,
    format_table_2,
    murray_formula,
    paper_formula,
    paper_program,
    paper_vs_exact,
    printed_matches,
    sequence_table,
    table_1,
)


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
    summed = set(paper._war_ranges(7, 8, fix_ranges=False))
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
        ((0, 6, 8), {}, "pieces must be a whole number >= 1"),
        ((3, -1, 8), {}, "safe must be a whole number >= 0"),
        ((3, 6, 0), {"fix_ranges": True}, "war must be a whole number >= 1"),
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
    side = paper._program_side
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
    assert paper.main() == 0
    out = capsys.readouterr().out
    assert "| finkel | (6, 8) | 248 | 13,112 | 264,304 |" in out
    assert (
        "| Bell | 7 | 6 | 8 | 1.2e7 | 121,658,293 (1.22e8) | 137,913,936 (1.38e8) | 15,693 |" in out
    )
    assert "| P(022) = P(224) | 0.89 | 9/1024 | 0.878906 | **no** |" in out


def test_docs_page_holds_the_current_tables():
    """docs/games/ur-counting.md pastes `python -m gamegraph.games.ur.paper` unchanged."""
    page = Path(__file__).resolve().parents[3] / "docs" / "games" / "ur-counting.md"
    assert paper.format_tables() in page.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# Throw sequences (Table 2)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("dice", [FOUR_BINARY, THREE_BINARY_ZERO_IS_FOUR, binary_dice(2)])
@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_sequence_table_covers_every_multiset_once(dice, length):
    """Each multiset stands for all its orderings; together they are certain."""
    rows = sequence_table(length, dice, min_length=length)
    words = [w for row in rows for w in row.sequences]
    assert len(words) == len(set(words)) == comb(len(dice.throws) + length - 1, length)
    total = sum(row.probability * len(set(permutations(w))) for row in rows for w in row.sequences)
    assert total == 1
    assert [row.probability for row in rows] == sorted(
        (row.probability for row in rows), reverse=True
    )
    assert all(
        sequence_probability(w, dice) == row.probability for row in rows for w in row.sequences
    )


def test_sequence_table_keeps_lengths_apart_and_orders_ties_shorter_first():
    rows = sequence_table()
    tied = [row for row in rows if row.probability == F(1, 64)]
    assert [(row.length, row.sequences) for row in tied] == [
        (2, ("01", "03", "14", "34")),
        (3, ("111", "113", "133", "333")),
    ]
    assert rows[5].sequences == ("02", "24") and rows[6].sequences == ("112", "123", "233")


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"max_length": 0}, "1 <= min_length <= max_length <= 8"),
        ({"max_length": 9}, "max_length <= 8"),
        ({"max_length": 2, "min_length": 3}, "min_length <= max_length"),
        ({"dice": binary_dice(10)}, "0 to 9 only"),
        ({"dice": None}, "must be a Dice"),
    ],
)
def test_sequence_table_errors(kwargs, fragment):
    with pytest.raises(InvalidArgumentError, match=fragment):
        sequence_table(**kwargs)


# ---------------------------------------------------------------------------
# The paper's Table 2 and text
# ---------------------------------------------------------------------------
def test_table_2_rows_are_exactly_the_groups():
    """Every printed row is one group of equal probability, and no group is missing; the
    order is the paper's but for the tie P(02) = P(112), printed 2.3 and 2.4."""
    mine = [frozenset(row.sequences) for row in sequence_table()]
    printed = [frozenset(row.sequences) for row in TABLE_2]
    assert len(printed) == len(mine) == 16
    printed[5], printed[6] = printed[6], printed[5]
    assert printed == mine


def test_table_2_misprints():
    wrong = [(row.what, row.printed, row.exact) for row in check_table_2() if not row.correct]
    assert wrong == [
        ("P(112) = P(123) = P(233)", "2.4", F(75, 32)),  # 2.34375 %
        ("P(022) = P(224)", "0.89", F(225, 256)),
    ]  # 0.87890625 %
    rows = check_table_2()
    assert rows[5].exact == rows[6].exact and rows[6].printed == "2.3" and rows[6].correct
    assert [row.exact for row in rows[:3]] == [F(225, 16), F(75, 8), F(25, 4)]


def test_text_rush_probabilities():
    rows = check_text_sequences()
    assert [(row.exact, row.correct) for row in rows] == [
        (F(100, 262144), True),
        (F(100, 16777216), False),
        (F(100, 268435456), True),
    ]
    # The printed 0.0015 % for six 4s is the chance of four 4s (1/65536 = 0.0015259 %).
    assert printed_matches(TEXT_SEQUENCES[1].percent, sequence_probability("4444") * 100)


def test_printed_matches_rounds_to_the_printed_digits():
    assert printed_matches("0.10", F(100, 1024))  # 0.0977 to two decimals
    assert not printed_matches("0.10", F(94, 1000))
    assert printed_matches("6.2", F(25, 4)) and printed_matches("6.3", F(25, 4))
    assert not printed_matches("6.1", F(25, 4))
    assert printed_matches("14", F(225, 16)) and not printed_matches("15", F(225, 16))
    with pytest.raises(InvalidArgumentError, match="a decimal such as"):
        printed_matches("2,4", F(1))


def test_format_table_2_flags_the_misprints():
    lines = format_table_2().splitlines()
    assert len(lines) == 2 + len(TABLE_2) + len(TEXT_SEQUENCES)
    flagged = [line.split(" | ")[0] for line in lines if "**no**" in line]
    assert flagged == ["| P(112) = P(123) = P(233)", "| P(022) = P(224)", "| P(444444)"]
    assert "| P(022) = P(224) | 0.89 | 9/1024 | 0.878906 | **no** |" in lines
