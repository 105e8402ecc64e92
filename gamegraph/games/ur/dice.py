"""Dice with exact throw probabilities, and the probability of a sequence of throws.

A :class:`Dice` is a name and an exact distribution: each throw it can show with its
probability as a :class:`~fractions.Fraction`. ``n`` binary dice (each showing one marked
corner or none with chance 1/2) show the number of marked corners ``k`` with probability
``C(n, k) / 2**n``; some rule sets count a throw of 0 as another number
(:func:`binary_dice`). Throws are independent, so a sequence of throws has the product of
their probabilities (:func:`sequence_probability`).

The Ur paper's table of throw sequences (its Table 2) is checked in
:mod:`gamegraph.games.ur.paper`.

Examples
--------
>>> FOUR_BINARY.probability(2)
Fraction(3, 8)
>>> sequence_probability("032")
Fraction(3, 512)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..._checks import check_int, is_whole
from ...errors import InvalidArgumentError, UnknownNameError

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _word(n: int) -> str:
    return _WORDS[n] if n < len(_WORDS) else str(n)


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
        if not pairs or not all(is_whole(t) and t >= 0 for t in throws):
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
        gamegraph.errors.InvalidArgumentError: dice 'three-binary-zero-four' cannot throw 0; ...
        """
        for value, p in self.distribution:
            if value == throw and is_whole(throw):
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
    n = check_int(n, "n (the number of binary dice)", low=1, high=20)
    if zero_counts_as is not None and not (is_whole(zero_counts_as) and zero_counts_as >= 1):
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
    gamegraph.errors.UnknownNameError: unknown dice 'd6'; accepted: four-binary, three-binary-...
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
    if not all(is_whole(t) for t in throws):
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
    gamegraph.errors.InvalidArgumentError: throw 2 of the sequence '15': dice 'four-binary' ...
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
