"""Dice with exact throw probabilities, and the probability of a sequence of throws.

A :class:`Dice` is a name and an exact distribution: each throw it can show with its
probability as a :class:`~fractions.Fraction`. ``n`` binary dice (each showing one marked
corner or none with chance 1/2) show the number of marked corners ``k`` with probability
``C(n, k) / 2**n``; some rule sets count a throw of 0 as another number
(:func:`binary_dice`).

Throws are independent, so a sequence of throws has the product of their probabilities
(Eq. 4 and 5 of Raposo & Lamont 2023). The order does not matter, so a sequence is
named here by its multiset: the digits of the throws in increasing order, ``"012"`` for
0 then 1 then 2 in any order. :func:`sequence_table` groups the multisets of the given
lengths whose probabilities are equal, the way the paper's Table 2 does;
:data:`TABLE_2` holds that table as printed and :func:`check_table_2` compares every
printed percentage with the exact value.

A printed decimal counts as correct when the exact value lies within half a unit of its
last printed digit (an exact tie such as 6.25 % printed 6.2 is accepted either way).

Examples
--------
>>> FOUR_BINARY.probability(2)
Fraction(3, 8)
>>> sequence_probability("032")
Fraction(3, 512)
>>> [row.what for row in check_table_2() if not row.correct]
['P(112) = P(123) = P(233)', 'P(022) = P(224)']
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from typing import NamedTuple

from .errors import InvalidArgumentError, UnknownNameError

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _word(n: int) -> str:
    return _WORDS[n] if n < len(_WORDS) else str(n)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Dice:
    """A named throw distribution: ``distribution`` pairs each throw with its probability.

    Throws are distinct non-negative integers in increasing order, probabilities are
    positive Fractions summing to one.

    Examples
    --------
    >>> coin = Dice("coin", ((0, Fraction(1, 2)), (1, Fraction(1, 2))))
    >>> coin.throws, coin.probability(1)
    ((0, 1), Fraction(1, 2))
    >>> Dice("bad", ((1, Fraction(1, 2)),))
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: the probabilities of dice 'bad' must sum to 1, got 1/2
    """

    name: str
    distribution: tuple[tuple[int, Fraction], ...]

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise InvalidArgumentError(f"a dice name must be a non-empty string, got {self.name!r}")
        try:
            pairs = tuple((throw, p) for throw, p in self.distribution)
        except (TypeError, ValueError):
            pairs = None
        if not pairs or not all(isinstance(p, (int, Fraction)) for _, p in pairs):
            raise InvalidArgumentError(
                f"the distribution of dice {self.name!r} must be (throw, probability) pairs "
                f"with exact probabilities (int or Fraction), got {self.distribution!r}"
            )
        pairs = tuple((throw, Fraction(p)) for throw, p in pairs)
        throws = [throw for throw, _ in pairs]
        if not pairs or not all(_is_int(t) and t >= 0 for t in throws):
            raise InvalidArgumentError(
                f"the throws of dice {self.name!r} must be non-negative integers, got {throws!r}"
            )
        if throws != sorted(set(throws)):
            raise InvalidArgumentError(
                f"the throws of dice {self.name!r} must be distinct and increasing, got {throws!r}"
            )
        if any(p <= 0 for _, p in pairs):
            raise InvalidArgumentError(
                f"every throw of dice {self.name!r} needs a positive probability"
            )
        total = sum(p for _, p in pairs)
        if total != 1:
            raise InvalidArgumentError(
                f"the probabilities of dice {self.name!r} must sum to 1, got {total}"
            )
        object.__setattr__(self, "distribution", pairs)

    @property
    def throws(self) -> tuple[int, ...]:
        """The throws the dice can show, in increasing order."""
        return tuple(throw for throw, _ in self.distribution)

    def probability(self, throw: int) -> Fraction:
        """The exact probability of one throw; an error for a throw the dice cannot show.

        >>> THREE_BINARY_ZERO_IS_FOUR.probability(4)
        Fraction(1, 8)
        >>> THREE_BINARY_ZERO_IS_FOUR.probability(0)
        Traceback (most recent call last):
        ...
        gamegraph.errors.InvalidArgumentError: dice 'three-binary-zero-four' cannot throw 0; its throws are 1, 2, 3, 4
        """
        for value, p in self.distribution:
            if value == throw and _is_int(throw):
                return p
        raise InvalidArgumentError(
            f"dice {self.name!r} cannot throw {throw!r}; its throws are "
            f"{', '.join(map(str, self.throws))}"
        )


def binary_dice(n: int, zero_counts_as: int | None = None) -> Dice:
    """``n`` binary dice: throw ``k`` with probability ``C(n, k) / 2**n``.

    Parameters
    ----------
    n : int
        Number of dice, 1 to 20.
    zero_counts_as : int, optional
        A throw of 0 is counted as this number instead (a positive integer); its chance
        is added to that number's.

    Examples
    --------
    >>> [(k, str(p)) for k, p in binary_dice(4).distribution]
    [(0, '1/16'), (1, '1/4'), (2, '3/8'), (3, '1/4'), (4, '1/16')]
    >>> binary_dice(3, zero_counts_as=4) == THREE_BINARY_ZERO_IS_FOUR
    True
    >>> binary_dice(2, zero_counts_as=2).distribution
    ((1, Fraction(1, 2)), (2, Fraction(1, 2)))
    """
    if not _is_int(n) or not 1 <= n <= 20:
        raise InvalidArgumentError(
            f"n (the number of binary dice) must be an integer from 1 to 20, got {n!r}"
        )
    if zero_counts_as is not None and not (_is_int(zero_counts_as) and zero_counts_as >= 1):
        raise InvalidArgumentError(
            f"zero_counts_as must be a positive integer or None, got {zero_counts_as!r}"
        )
    weights = defaultdict(Fraction)
    for k in range(n + 1):
        throw = zero_counts_as if k == 0 and zero_counts_as is not None else k
        weights[throw] += Fraction(comb(n, k), 2**n)
    name = f"{_word(n)}-binary"
    if zero_counts_as is not None:
        name += f"-zero-{_word(zero_counts_as)}"
    return Dice(name, tuple(sorted(weights.items())))


FOUR_BINARY = binary_dice(4)
"""Four binary dice: 0, 1, 2, 3, 4 with probabilities 1/16, 4/16, 6/16, 4/16, 1/16."""

THREE_BINARY_ZERO_IS_FOUR = binary_dice(3, zero_counts_as=4)
"""Three binary dice, a throw of 0 counted as 4: 1, 2, 3, 4 with 3/8, 3/8, 1/8, 1/8."""

DICE = {FOUR_BINARY.name: FOUR_BINARY, THREE_BINARY_ZERO_IS_FOUR.name: THREE_BINARY_ZERO_IS_FOUR}
"""The dice of the Ur rule sets by name: ``"four-binary"``, ``"three-binary-zero-four"``."""


def get_dice(name: str) -> Dice:
    """The dice called ``name`` in :data:`DICE`.

    >>> get_dice("four-binary") is FOUR_BINARY
    True
    >>> get_dice("d6")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown dice 'd6'; accepted: four-binary, three-binary-zero-four
    """
    if name not in DICE:
        raise UnknownNameError("dice", name, DICE)
    return DICE[name]


def _throws_of(sequence) -> tuple[int, ...]:
    """A sequence as throws: a string of digits, or an iterable of integers."""
    if isinstance(sequence, str):
        if not all(ch in "0123456789" for ch in sequence):
            raise InvalidArgumentError(
                f"a sequence written as a string must be digits only (one digit per throw), "
                f"got {sequence!r}"
            )
        return tuple(int(ch) for ch in sequence)
    try:
        throws = tuple(sequence)
    except TypeError:
        raise InvalidArgumentError(
            f"a sequence must be a string of digits or an iterable of "
            f"integer throws, got {sequence!r}"
        ) from None
    if not all(_is_int(t) for t in throws):
        raise InvalidArgumentError(f"the throws of a sequence must be integers, got {throws!r}")
    return throws


def sequence_probability(sequence, dice: Dice = FOUR_BINARY) -> Fraction:
    """The exact probability of throwing exactly ``sequence`` (the product of its throws).

    Parameters
    ----------
    sequence : str or iterable of int
        The throws in order: ``"032"`` or ``(0, 3, 2)``. The empty sequence has
        probability 1 (the empty product).
    dice : Dice
        The dice thrown each time; :data:`FOUR_BINARY` by default.

    Examples
    --------
    >>> sequence_probability("44441")         # four 4s and a 1
    Fraction(1, 262144)
    >>> sequence_probability([1, 2], THREE_BINARY_ZERO_IS_FOUR)
    Fraction(9, 64)
    >>> sequence_probability("15")
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: throw 2 of the sequence '15': dice 'four-binary' cannot throw 5; its throws are 0, 1, 2, 3, 4
    """
    if not isinstance(dice, Dice):
        raise InvalidArgumentError(f"dice must be a Dice (for example FOUR_BINARY), got {dice!r}")
    result = Fraction(1)
    for position, throw in enumerate(_throws_of(sequence), start=1):
        try:
            result *= dice.probability(throw)
        except InvalidArgumentError as exc:
            raise InvalidArgumentError(
                f"throw {position} of the sequence {sequence!r}: {exc}"
            ) from None
    return result


class SequenceGroup(NamedTuple):
    """Multisets of throws of one length sharing one probability (a row of Table 2)."""

    probability: Fraction
    sequences: tuple[str, ...]

    @property
    def length(self) -> int:
        """The number of throws in each sequence of the group."""
        return len(self.sequences[0])

    @property
    def percent(self) -> Fraction:
        """The probability in percent, exact."""
        return self.probability * 100


def sequence_table(
    max_length: int = 3, dice: Dice = FOUR_BINARY, *, min_length: int = 2
) -> tuple[SequenceGroup, ...]:
    """Every multiset of throws of ``min_length`` to ``max_length`` throws, grouped by
    probability.

    A group holds the multisets (digits in increasing order) of one length whose
    probabilities are equal. Multisets of different lengths stay in different groups
    even when their probabilities are equal, as in the paper's Table 2 (P(01) and P(111)
    are both 1/64). Groups come in decreasing probability, the shorter length first on a
    tie; inside a group the multisets are in increasing order.

    Examples
    --------
    >>> rows = sequence_table()
    >>> len(rows), sum(len(row.sequences) for row in rows)     # 15 pairs, 35 triples
    (16, 50)
    >>> [(row.sequences, str(row.probability)) for row in rows[:3]]
    [(('22',), '9/64'), (('12', '23'), '3/32'), (('11', '13', '33'), '1/16')]
    >>> [row.sequences for row in sequence_table(1, THREE_BINARY_ZERO_IS_FOUR, min_length=1)]
    [('1', '2'), ('3', '4')]
    """
    if not isinstance(dice, Dice):
        raise InvalidArgumentError(f"dice must be a Dice (for example FOUR_BINARY), got {dice!r}")
    if not (_is_int(min_length) and _is_int(max_length) and 1 <= min_length <= max_length <= 8):
        raise InvalidArgumentError(
            f"the lengths must be integers with 1 <= min_length <= "
            f"max_length <= 8, got {min_length!r} and {max_length!r}"
        )
    if max(dice.throws) > 9:
        raise InvalidArgumentError(
            f"sequences are written one digit per throw, so the dice "
            f"must throw 0 to 9 only; {dice.name!r} throws {max(dice.throws)}"
        )
    groups = defaultdict(list)
    for length in range(min_length, max_length + 1):
        for throws in combinations_with_replacement(dice.throws, length):
            word = "".join(map(str, throws))
            groups[length, sequence_probability(throws, dice)].append(word)
    order = sorted(groups, key=lambda key: (-key[1], key[0]))
    return tuple(SequenceGroup(p, tuple(sorted(groups[length, p]))) for length, p in order)


class PrintedRow(NamedTuple):
    """A row of a printed table: the sequences it names and the percentage as printed."""

    sequences: tuple[str, ...]
    percent: str


TABLE_2 = (
    PrintedRow(("22",), "14"),
    PrintedRow(("12", "23"), "9.4"),
    PrintedRow(("11", "13", "33"), "6.2"),
    PrintedRow(("222",), "5.3"),
    PrintedRow(("122", "223"), "3.5"),
    PrintedRow(("112", "123", "233"), "2.4"),
    PrintedRow(("02", "24"), "2.3"),
    PrintedRow(("01", "03", "14", "34"), "1.6"),
    PrintedRow(("111", "113", "133", "333"), "1.6"),
    PrintedRow(("022", "224"), "0.89"),
    PrintedRow(("012", "124", "023", "234"), "0.59"),
    PrintedRow(("00", "04", "44"), "0.39"),
    PrintedRow(("011", "013", "033", "114", "134", "334"), "0.39"),
    PrintedRow(("002", "024", "244"), "0.15"),
    PrintedRow(("001", "003", "014", "144", "034", "344"), "0.10"),
    PrintedRow(("000", "004", "044", "444"), "0.024"),
)
"""Table 2 of Raposo & Lamont (2023) as printed: rows in the printed order, sequences in
the printed order, percentages as printed (four binary dice)."""

TEXT_SEQUENCES = (
    PrintedRow(("44441",), "0.00038"),
    PrintedRow(("444444",), "0.0015"),
    PrintedRow(("4444444",), "0.00000037"),
)
"""The paper's rushes through the whole board (section 4.2): four 4s and a 1, six 4s,
seven 4s, with the percentages the text prints for them."""


class PrintedCheck(NamedTuple):
    """A printed percentage next to the exact one."""

    what: str  # the printed row, e.g. "P(02) = P(24)"
    printed: str  # the percentage as printed
    exact: Fraction  # the exact percentage
    correct: bool  # the exact value rounds to the printed digits


def printed_matches(printed: str, exact: Fraction) -> bool:
    """Whether ``exact`` lies within half a unit of the last digit of ``printed``.

    >>> printed_matches("2.3", Fraction(234375, 100000)), printed_matches("2.4", Fraction(234375, 100000))
    (True, False)
    >>> printed_matches("6.2", Fraction(25, 4)), printed_matches("6.3", Fraction(25, 4))   # a tie
    (True, True)
    """
    try:
        value = Fraction(printed)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"a printed number must be a decimal such as '2.4', got {printed!r}"
        ) from None
    decimals = len(printed.partition(".")[2])
    return abs(value - Fraction(exact)) <= Fraction(1, 2 * 10**decimals)


def _check(rows, dice: Dice) -> tuple[PrintedCheck, ...]:
    out = []
    for row in rows:
        exact = {sequence_probability(s, dice) * 100 for s in row.sequences}
        if len(exact) != 1:
            raise InvalidArgumentError(
                f"the sequences of a row must share one probability; {row.sequences} do not"
            )
        value = exact.pop()
        what = " = ".join(f"P({s})" for s in row.sequences)
        out.append(PrintedCheck(what, row.percent, value, printed_matches(row.percent, value)))
    return tuple(out)


def check_table_2(dice: Dice = FOUR_BINARY) -> tuple[PrintedCheck, ...]:
    """Every row of :data:`TABLE_2` with its exact percentage and whether the print is right.

    >>> rows = check_table_2()
    >>> rows[5]
    PrintedCheck(what='P(112) = P(123) = P(233)', printed='2.4', exact=Fraction(75, 32), correct=False)
    >>> rows[6].exact == rows[5].exact, rows[6].printed
    (True, '2.3')
    """
    return _check(TABLE_2, dice)


def check_text_sequences(dice: Dice = FOUR_BINARY) -> tuple[PrintedCheck, ...]:
    """The text's three rush probabilities (:data:`TEXT_SEQUENCES`) against exact values.

    >>> [(row.what, row.correct) for row in check_text_sequences()]
    [('P(44441)', True), ('P(444444)', False), ('P(4444444)', True)]
    """
    return _check(TEXT_SEQUENCES, dice)


def _decimal(value: Fraction, digits: int) -> str:
    """``value`` rounded to ``digits`` significant digits, trailing zeros dropped.

    >>> _decimal(Fraction(75, 8), 6), _decimal(Fraction(1, 1024), 6), _decimal(Fraction(1250), 2)
    ('9.375', '0.000976562', '1200')
    """
    if value == 0:
        return "0"
    shift = 0
    while value * 10**shift < 10 ** (digits - 1):
        shift += 1
    while value * 10**shift >= 10**digits:
        shift -= 1
    scaled = round(value * 10**shift)
    if shift <= 0:
        return str(scaled * 10**-shift)
    text = str(scaled).rjust(shift + 1, "0")
    return f"{text[:-shift]}.{text[-shift:]}".rstrip("0").rstrip(".")


def format_table_2(dice: Dice = FOUR_BINARY) -> str:
    """Table 2 as a Markdown table: printed and exact percentages, mis-prints flagged.

    >>> print(format_table_2().splitlines()[7])
    | P(112) = P(123) = P(233) | 2.4 | 3/128 | 2.34375 | **no** |
    """
    lines = [
        "| sequences | printed % | exact probability | exact % | print right? |",
        "|---|---:|---:|---:|:---:|",
    ]
    for row in check_table_2(dice) + check_text_sequences(dice):
        lines.append(
            f"| {row.what} | {row.printed} | {row.exact / 100} | "
            f"{_decimal(row.exact, 6)} | {'yes' if row.correct else '**no**'} |"
        )
    return "\n".join(lines)
