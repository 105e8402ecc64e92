"""The 2023 paper on the Royal Game of Ur, checked: its state-space formula and its tables.

Raposo & Lamont (2023) count the game's positions (section 3.1, appendix A and B) and
tabulate the chances of throw sequences (Table 2, section 4.2). This module computes what
they print and sets it against the exact values (:mod:`.counting`, and
:func:`gamegraph.games.ur.dice.sequence_probability`).
``python -m gamegraph.games.ur.paper`` prints every table of docs/games/ur-counting.md.

The paper's formula
-------------------
Raposo & Lamont (2023, section 3.1 and appendix A) split the board the same way, with
``t'`` safe (private) tiles and ``t`` war (shared) tiles, and count
``sum gamma(p - i_g) gamma(p - i_b) beta(i_g, i_b)`` over the numbers ``i_g, i_b`` of
grey and black pieces on war tiles: ``beta`` is the multinomial ``t! / (i_g! i_b!
(t - i_g - i_b)!)`` (Eq. 28) and ``gamma(p')`` should count one side's ``p'`` remaining
pieces on its safe tiles and off the board. It does not, for two reasons:

1. Eq. 20/21 give ``i'`` pieces on the safe tiles ``(t' - i' + 1) C(t', i')`` placements,
   taking the number of safe tiles ``t'`` where the number of pieces ``p'`` belongs: the
   ``p' - i'`` pieces off the board split ``p' - i' + 1`` ways, not ``t' - i' + 1``. Past
   ``t'`` (``i' > t'``) Eq. 21 still counts ``i' - t' + 1`` placements where there are
   none, since ``t'`` tiles cannot hold more than ``t'`` pieces.
2. Eq. 33 (used when ``t/2 < p < t``) sums ``i_g = 0..p, i_b = 0..t-p`` and
   ``i_g = 0..t-p, i_b = t-p+1..p``. That misses every case with both ``i_g`` and ``i_b``
   above ``t - p`` that still fits the war zone (``i_g + i_b <= t``); for Bell's board
   (``t = 8, p = 7``) ``i_g = i_b = 2`` is one. No split is needed: ``beta`` is simply 0
   when ``i_g + i_b > t``.

:func:`paper_formula` computes the formula as printed, and with either mistake fixed
(``fix_alpha``, ``fix_ranges``); with both fixed it is the exact count.
:func:`paper_program` runs the arithmetic of the appendix's Fortran program, which
departs from the formula again (it adds the three factors instead of multiplying them).

Table 2: throw sequences
------------------------
Throws are independent, so a sequence of throws has the product of their probabilities
(Eq. 4 and 5). The order does not matter, so a sequence is named here by its multiset:
the digits of the throws in increasing order, ``"012"`` for 0 then 1 then 2 in any order.
:func:`sequence_table` groups the multisets of the given lengths whose probabilities are
equal, the way the paper's Table 2 does; :data:`TABLE_2` holds that table as printed and
:func:`check_table_2` compares every printed percentage with the exact value. A printed
decimal counts as correct when the exact value lies within half a unit of its last
printed digit (an exact tie such as 6.25 % printed 6.2 is accepted either way).

Examples
--------
>>> paper_formula(7, safe=6, war=8)            # Bell's board: the paper's number, 1.2e8
121658293
>>> paper_formula(7, safe=6, war=8, fix_alpha=True, fix_ranges=True)
137913936
>>> [row.what for row in check_table_2() if not row.correct]
['P(112) = P(123) = P(233)', 'P(022) = P(224)']
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, factorial
from typing import NamedTuple

from ..._checks import check_int, is_whole
from ...errors import InvalidArgumentError
from .board import GEOMETRY
from .counting import count_positions, count_table
from .dice import FOUR_BINARY, Dice, sequence_probability


# ---------------------------------------------------------------------------
# The paper's formula and program
# ---------------------------------------------------------------------------
def _beta(war: int, g: int, b: int) -> int:
    """Eq. 28: ``g`` grey and ``b`` black pieces on ``war`` tiles (0 when they do not fit)."""
    if g + b > war:
        return 0
    return factorial(war) // (factorial(g) * factorial(b) * factorial(war - g - b))


def _alpha(i: int, safe: int) -> int:
    """Eq. 21 as printed: ``(t' - i' + 1) C(t', i')`` up to ``t'``, then ``i' - t' + 1``."""
    return (safe - i + 1) * comb(safe, i) if i <= safe else i - safe + 1


def _gamma(rest: int, safe: int, fix_alpha: bool) -> int:
    """Eq. 25: one side's ``rest`` pieces not on war tiles, over its safe tiles and off board."""
    if fix_alpha:  # (p' - i' + 1) off-board splits; C(t', i') is 0 past t'
        return (rest + 1) + sum((rest - i + 1) * comb(safe, i) for i in range(1, rest + 1))
    return (rest + 1) + sum(_alpha(i, safe) for i in range(1, rest + 1))


def _war_ranges(pieces: int, war: int, fix_ranges: bool):
    """The ``(i_g, i_b)`` pairs summed: Eq. 32 for 2p <= t, Eq. 33's two ranges above."""
    if fix_ranges or 2 * pieces <= war:
        return [(g, b) for g in range(pieces + 1) for b in range(pieces + 1) if g + b <= war]
    return [(g, b) for g in range(pieces + 1) for b in range(war - pieces + 1)] + [
        (g, b) for g in range(war - pieces + 1) for b in range(war - pieces + 1, pieces + 1)
    ]


def _check_paper(pieces, safe, war) -> tuple[int, int, int]:
    return (
        check_int(pieces, "pieces", low=1),
        check_int(safe, "safe", low=0),
        check_int(war, "war", low=1),
    )


def paper_formula(
    pieces: int, safe: int, war: int, *, fix_alpha: bool = False, fix_ranges: bool = False
) -> int:
    """The state-space count of Raposo & Lamont (2023), Eq. 32 and 33, as printed.

    The sum is Eq. 32 when ``2p <= t`` and Eq. 33 when ``t/2 < p < t``; ``gamma`` is
    Eq. 25 with ``alpha`` from Eq. 21 and ``gamma(0) = 1`` (Eq. 26), ``beta`` is Eq. 28.
    Eq. 25 is used rather than Eq. 24 because it is the paper's own correction of Eq. 24
    and its worked example (``p = t' = 1, t = 2``, 23 boards) uses it: Eq. 24 taken
    literally gives ``alpha(0) = t' + 1`` and ``gamma(0) = 2`` there, and 41 boards.

    Parameters
    ----------
    pieces : int
        ``p``, pieces per side.
    safe : int
        ``t'``, safe (private) tiles per side, at least 1 for the printed formula (the
        paper's condition (b); :func:`murray_formula` is its ``t' = 0`` case).
    war : int
        ``t``, war (shared) tiles; the printed formula needs ``p < t``.
    fix_alpha : bool
        Count the off-board splits of ``p'`` pieces with ``i'`` on safe tiles as
        ``p' - i' + 1`` (and none past ``t'``) instead of Eq. 21's ``t' - i' + 1``.
    fix_ranges : bool
        Sum every ``i_g, i_b <= p`` that fits the war zone instead of Eq. 33's ranges.

    With both fixes the formula is :func:`count_positions` (any ``p``, ``t' >= 0``).

    Examples
    --------
    >>> paper_formula(1, safe=1, war=2)          # the paper's mini example
    23
    >>> paper_formula(5, safe=4, war=12), paper_formula(7, safe=4, war=16)
    (154058757, 25310478936)
    >>> paper_formula(8, safe=6, war=8)
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: the printed formula needs pieces < war (p < t), ...
    """
    pieces, safe, war = _check_paper(pieces, safe, war)
    if not fix_ranges and pieces >= war:
        raise InvalidArgumentError(
            f"the printed formula needs pieces < war (p < t), got "
            f"p = {pieces}, t = {war}; fix_ranges=True accepts any p"
        )
    if not fix_alpha and safe == 0:
        raise InvalidArgumentError(
            "the printed formula needs safe >= 1 (t' != 0); use "
            "murray_formula for a board without safe tiles, or fix_alpha=True"
        )
    gamma = {rest: _gamma(rest, safe, fix_alpha) for rest in range(pieces + 1)}
    return sum(
        gamma[pieces - g] * gamma[pieces - b] * _beta(war, g, b)
        for g, b in _war_ranges(pieces, war, fix_ranges)
    )


def murray_formula(pieces: int, war: int = 20) -> int:
    """Eq. 34: ``sum (p - i_b + 1)(p - i_g + 1) beta(i_b, i_g)``, a board of war tiles only.

    The paper's lower bound for Murray's path (20 tiles, each side's direction ignored).
    It is the exact count of a board with no private tiles: pieces off the board split
    ``p - i + 1`` ways, which is what Eq. 21 misses.

    >>> murray_formula(7) == count_positions(0, 20, 7) == 5938914764
    True
    """
    pieces, _, war = _check_paper(pieces, 0, war)
    return sum(
        (pieces - b + 1) * (pieces - g + 1) * _beta(war, g, b)
        for g in range(pieces + 1)
        for b in range(pieces + 1)
    )


def _program_side(rest: int, safe: int) -> int:
    """One side's factor as the Fortran computes it (``sum1``, and ``sum2`` as intended)."""
    total = 0
    if rest > 0:
        if rest <= safe:  # a double loop over i' and a second index: rest * sum C(t', i')
            for i in range(1, rest + 1):
                for _ in range(1, rest + 1):
                    total += comb(safe, i)
        else:  # Eq. 22, the one-line form of Eq. 21
            for i in range(1, rest + 1):
                delta = i - safe
                total += comb(safe, (delta - abs(delta)) // 2 + safe) * (abs(delta) + 1)
    return total + rest + 1  # the case with no piece on a safe tile


def paper_program(pieces: int, safe: int, war: int, *, multiply: bool = False) -> int:
    """The arithmetic of the Fortran program printed in the paper's appendix B.

    The program loops over ``i_g`` and ``i_b`` with Eq. 32's range for ``2p <= t`` and
    Eq. 33's two ranges otherwise. For each pair it forms ``sum1`` (grey's safe tiles and
    off board), ``sum2`` (black's) and ``sum3`` (``beta``) and then *adds* them,
    ``total = total + sum1 + sum2 + sum3``, where the formula multiplies. For ``p' <= t'``
    (``p'`` the side's pieces not on war tiles) it sums ``C(t', i')`` inside a double loop
    over two indices both running to ``p'``, so that branch gives
    ``p' * sum C(t', i')`` instead of ``sum (t' - i' + 1) C(t', i')``. For ``p' > t'`` it
    uses Eq. 22.

    As printed the program does not compile under its own ``implicit none``: black's
    branch loops over an undeclared ``ib_black``, reads ``ib_safe`` left over from an
    earlier loop, and the function ``fact`` is never declared (one ``end do`` is missing
    too). This function follows the evident intent, black's factor computed exactly like
    grey's, in exact integers (the program used double precision).

    ``multiply=True`` multiplies the three factors as the formula says, keeping the
    double loop, to show that the program would still differ from Eq. 32/33.

    Examples
    --------
    >>> paper_program(7, safe=6, war=8)                     # Bell, as printed
    15693
    >>> paper_program(7, safe=6, war=8, multiply=True)      # Bell, factors multiplied
    151023453

    The paper's mini example cannot catch the sum: there sums and products both give 23.

    >>> paper_program(1, safe=1, war=2), paper_program(1, safe=1, war=2, multiply=True)
    (23, 23)
    """
    pieces, safe, war = _check_paper(pieces, safe, war)
    if pieces >= war:
        raise InvalidArgumentError(
            f"the program is valid for pieces < war (p < t), got p = {pieces}, t = {war}"
        )
    side = {rest: _program_side(rest, safe) for rest in range(pieces + 1)}
    total = 0
    for g, b in _war_ranges(pieces, war, fix_ranges=False):
        sum1, sum2, sum3 = side[pieces - g], side[pieces - b], _beta(war, g, b)
        total += sum1 * sum2 * sum3 if multiply else sum1 + sum2 + sum3
    return total


# ---------------------------------------------------------------------------
# The paper against the exact counts
# ---------------------------------------------------------------------------
class PaperRow(NamedTuple):
    """The exact count of a rule set next to the paper's formula for the same board."""

    ruleset: str
    pieces: int
    exact: int
    paper: int  # Eq. 32/33 with t' = private, t = shared
    ratio: float  # paper / exact


def paper_vs_exact(pieces=range(1, 8)) -> tuple[PaperRow, ...]:
    """The paper's formula and the exact count for each rule set of :data:`GEOMETRY`.

    >>> row = paper_vs_exact([7])[0]
    >>> row.ruleset, row.exact, row.paper, round(row.ratio, 4)
    ('finkel', 137913936, 121658293, 0.8821)
    """
    rows = []
    for name, (private, shared) in GEOMETRY.items():
        for n in pieces:
            exact = count_positions(private, shared, n)
            paper = paper_formula(n, private, shared)
            rows.append(PaperRow(name, n, exact, paper, paper / exact))
    return tuple(rows)


class Table1Row(NamedTuple):
    """A row of the paper's Table 1 next to what its formula and the exact count give."""

    game: str  # the paper's name for the path
    pieces: int
    safe: int  # t' the formula is evaluated with
    war: int  # t the formula is evaluated with
    printed: str  # the SSC Table 1 prints
    formula: int  # Eq. 32/33 (Eq. 34 for Murray) at (p, t', t)
    exact: int  # count_positions(t', t, p)


TABLE_1 = (
    ("Bell", 7, 6, 8, "1.2e7"),
    ("Aseb", 5, 4, 12, "1.9e8"),
    ("Masters", 7, 4, 16, "4.3e9"),
    ("Murray", 7, 0, 20, "5.9e9"),
)
"""Table 1 of the paper: path, ``p`` and printed SSC, with the ``t'`` and ``t`` the text
gives or the path implies (Masters: ``t' = 4, t = 16`` as the text says; Murray: the
text's approximation, 20 war tiles and no safe tile)."""


def table_1() -> tuple[Table1Row, ...]:
    """Each Table 1 row with the formula's value at the paper's parameters and the exact count.

    >>> [(row.game, row.printed, f"{row.formula:.2e}") for row in table_1()]
    [('Bell', '1.2e7', '1.22e+08'), ('Aseb', '1.9e8', '1.54e+08'),
     ('Masters', '4.3e9', '2.53e+10'), ('Murray', '5.9e9', '5.94e+09')]
    """
    rows = []
    for game, n, safe, war, printed in TABLE_1:
        formula = murray_formula(n, war) if safe == 0 else paper_formula(n, safe, war)
        rows.append(Table1Row(game, n, safe, war, printed, formula, count_positions(safe, war, n)))
    return tuple(rows)


# ---------------------------------------------------------------------------
# Table 2: throw sequences
# ---------------------------------------------------------------------------
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
    >>> from gamegraph.games.ur.dice import THREE_BINARY_ZERO_IS_FOUR
    >>> [row.sequences for row in sequence_table(1, THREE_BINARY_ZERO_IS_FOUR, min_length=1)]
    [('1', '2'), ('3', '4')]
    """
    if not isinstance(dice, Dice):
        raise InvalidArgumentError(f"dice must be a Dice (for example FOUR_BINARY), got {dice!r}")
    if not (is_whole(min_length) and is_whole(max_length) and 1 <= min_length <= max_length <= 8):
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

    >>> exact = Fraction(234375, 100000)
    >>> printed_matches("2.3", exact), printed_matches("2.4", exact)
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
    >>> rows[5]                                     # doctest: +NORMALIZE_WHITESPACE
    PrintedCheck(what='P(112) = P(123) = P(233)', printed='2.4', exact=Fraction(75, 32),
                 correct=False)
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


# ---------------------------------------------------------------------------
# Tables for docs/games/ur-counting.md
# ---------------------------------------------------------------------------
def _sci(value: float) -> str:
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def format_tables(pieces=range(1, 8)) -> str:
    """Every table of docs/games/ur-counting.md as Markdown
    (``python -m gamegraph.games.ur.paper`` prints them).
    """
    pieces = list(pieces)
    head = "| rule set | (private, shared) | " + " | ".join(f"p = {n}" for n in pieces) + " |"
    rule = "|---|---|" + "---:|" * len(pieces)
    rows = count_table(pieces)
    out = ["### Exact position counts", "", head, rule]
    for name in GEOMETRY:
        cells = [f"{r.positions:,}" for r in rows if r.ruleset == name]
        out.append(f"| {name} | {GEOMETRY[name]} | " + " | ".join(cells) + " |")
    out += [
        "",
        "### Non-terminal positions (neither side has borne off every piece)",
        "",
        head,
        rule,
    ]
    for name in GEOMETRY:
        cells = [f"{r.nonterminal:,}" for r in rows if r.ruleset == name]
        out.append(f"| {name} | {GEOMETRY[name]} | " + " | ".join(cells) + " |")
    out += [
        "",
        "### The paper's formula (Eq. 32/33) against the exact count",
        "",
        "| rule set | pieces | exact | paper's formula | paper / exact | "
        "fixed alpha only | fixed ranges only |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    boards = {}  # one set of rows per board: masters, blitz and aseb share one
    for name, size in GEOMETRY.items():
        boards.setdefault(size, []).append(name)
    for row in paper_vs_exact(pieces):
        names = boards[GEOMETRY[row.ruleset]]
        if row.ruleset != names[0]:
            continue
        private, shared = GEOMETRY[row.ruleset]
        alpha = paper_formula(row.pieces, private, shared, fix_alpha=True)
        ranges = paper_formula(row.pieces, private, shared, fix_ranges=True)
        out.append(
            f"| {', '.join(names)} | {row.pieces} | {row.exact:,} | {row.paper:,} | "
            f"{row.ratio:.4f} | {alpha:,} | {ranges:,} |"
        )
    out += [
        "",
        "### Table 1 of the paper",
        "",
        "| path | p | t' | t | printed | formula at (p, t', t) | exact at (p, t', t) | "
        "Fortran program as printed |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in table_1():
        program = "-" if row.safe == 0 else f"{paper_program(row.pieces, row.safe, row.war):,}"
        out.append(
            f"| {row.game} | {row.pieces} | {row.safe} | {row.war} | {row.printed} | "
            f"{row.formula:,} ({_sci(row.formula)}) | {row.exact:,} ({_sci(row.exact)}) | "
            f"{program} |"
        )
    out += ["", "### Table 2 of the paper, and the rushes of section 4.2", "", format_table_2()]
    return "\n".join(out)


def main() -> int:
    """Print :func:`format_tables`."""
    print(format_tables())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
