"""Tests for gamegraph.dice: dice distributions, sequence probabilities, the paper's Table 2."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import permutations, product
from math import comb

import pytest

from gamegraph import InvalidArgumentError, UnknownNameError
from gamegraph.dice import (
    DICE,
    FOUR_BINARY,
    TABLE_2,
    TEXT_SEQUENCES,
    THREE_BINARY_ZERO_IS_FOUR,
    Dice,
    binary_dice,
    check_table_2,
    check_text_sequences,
    format_table_2,
    get_dice,
    printed_matches,
    sequence_probability,
    sequence_table,
)


# ---------------------------------------------------------------------------
# Dice
# ---------------------------------------------------------------------------
def test_presets_have_the_rule_book_distributions():
    assert FOUR_BINARY.distribution == (
        (0, F(1, 16)),
        (1, F(4, 16)),
        (2, F(6, 16)),
        (3, F(4, 16)),
        (4, F(1, 16)),
    )
    assert THREE_BINARY_ZERO_IS_FOUR.distribution == (
        (1, F(3, 8)),
        (2, F(3, 8)),
        (3, F(1, 8)),
        (4, F(1, 8)),
    )
    assert DICE == {"four-binary": FOUR_BINARY, "three-binary-zero-four": THREE_BINARY_ZERO_IS_FOUR}
    assert get_dice("three-binary-zero-four") is THREE_BINARY_ZERO_IS_FOUR


@pytest.mark.parametrize("n", range(1, 9))
def test_binary_dice_are_binomial(n):
    dice = binary_dice(n)
    assert dice.throws == tuple(range(n + 1))
    assert [dice.probability(k) * 2**n for k in range(n + 1)] == [comb(n, k) for k in range(n + 1)]
    moved = binary_dice(n, zero_counts_as=n + 1)
    assert moved.throws == tuple(range(1, n + 2))
    assert moved.probability(n + 1) == F(1, 2**n)


def test_zero_onto_an_existing_throw_adds_up():
    dice = binary_dice(2, zero_counts_as=1)  # 0 (1/4) joins 1 (1/2)
    assert dice.distribution == ((1, F(3, 4)), (2, F(1, 4)))
    assert dice.name == "two-binary-zero-one"
    assert binary_dice(12).name == "12-binary"


@pytest.mark.parametrize(
    "args, fragment",
    [
        ((0,), "from 1 to 20"),
        ((21,), "from 1 to 20"),
        ((True,), "from 1 to 20"),
        ((4.0,), "from 1 to 20"),
        ((4, 0), "positive integer"),
        ((4, "4"), "positive integer"),
    ],
)
def test_binary_dice_rejects_bad_arguments(args, fragment):
    with pytest.raises(InvalidArgumentError, match=fragment):
        binary_dice(*args)


@pytest.mark.parametrize(
    "name, pairs, fragment",
    [
        ("", ((0, 1),), "non-empty string"),
        ("d", ((0, F(1, 2)), (1, F(1, 3))), "sum to 1, got 5/6"),
        ("d", ((1, F(1, 2)), (0, F(1, 2))), "distinct and increasing"),
        ("d", ((0, F(1, 2)), (0, F(1, 2))), "distinct and increasing"),
        ("d", ((-1, 1),), "non-negative integers"),
        ("d", ((0, F(3, 2)), (1, F(-1, 2))), "positive probability"),
        ("d", ((0, 0.5), (1, 0.5)), "exact probabilities"),
        ("d", ((0, "x"),), "exact probabilities"),
        ("d", (), "exact probabilities"),
        ("d", (0, 1), "exact probabilities"),
    ],
)
def test_dice_validate_their_distribution(name, pairs, fragment):
    with pytest.raises(InvalidArgumentError, match=fragment):
        Dice(name, pairs)


def test_unknown_dice_name():
    with pytest.raises(UnknownNameError, match="accepted: four-binary, three-binary-zero-four"):
        get_dice("four")


# ---------------------------------------------------------------------------
# Sequences
# ---------------------------------------------------------------------------
def eq5(throws) -> F:
    """The paper's Eq. 5, written out: 6^N2 4^(N1+N3) / 16^N."""
    n2 = throws.count(2)
    n13 = throws.count(1) + throws.count(3)
    return F(6**n2 * 4**n13, 16 ** len(throws))


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_sequence_probability_is_eq5(length):
    for throws in product(range(5), repeat=length):
        assert sequence_probability(throws) == eq5(throws)
        assert sequence_probability("".join(map(str, throws))) == eq5(throws)


def test_sequence_probability_values():
    assert sequence_probability("032") == F(3, 512)  # the paper: 0.59 %
    assert sequence_probability("133") == F(1, 64)  # the paper: 1.6 %
    assert sequence_probability("") == 1
    assert sequence_probability("1234", THREE_BINARY_ZERO_IS_FOUR) == F(9, 4096)
    assert {sequence_probability("".join(p)) for p in permutations("0124")} == {F(3, 8192)}


@pytest.mark.parametrize(
    "sequence, dice, fragment",
    [
        ("15", FOUR_BINARY, "throw 2 of the sequence '15': dice 'four-binary' cannot throw 5"),
        ("0", THREE_BINARY_ZERO_IS_FOUR, "cannot throw 0; its throws are 1, 2, 3, 4"),
        ("1 2", FOUR_BINARY, "digits only"),
        ("-1", FOUR_BINARY, "digits only"),
        ([1, 2.0], FOUR_BINARY, "must be integers"),
        ([True], FOUR_BINARY, "must be integers"),
        (12, FOUR_BINARY, "string of digits or an iterable"),
        ("12", "four-binary", "must be a Dice"),
    ],
)
def test_sequence_probability_errors(sequence, dice, fragment):
    with pytest.raises(InvalidArgumentError, match=fragment):
        sequence_probability(sequence, dice)


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
