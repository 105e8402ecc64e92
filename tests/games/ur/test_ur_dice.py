"""Tests for gamegraph.games.ur.dice: dice distributions and sequence probabilities (the Ur paper's
Table 2 is tested in tests/games/ur/test_ur_paper.py)."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import permutations, product
from math import comb

import pytest

from gamegraph import InvalidArgumentError, UnknownNameError
from gamegraph.games.ur.dice import (
    DICE,
    FOUR_BINARY,
    THREE_BINARY_ZERO_IS_FOUR,
    Dice,
    binary_dice,
    get_dice,
    sequence_probability,
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
