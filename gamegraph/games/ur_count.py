"""How many positions the Royal Game of Ur has: exact counts, and the 2023 paper's formula.

Board geometry
--------------
Each rule set gives light's path as a list of tiles ``(x, y)`` (:data:`PATHS`); dark's
path is its mirror image, ``x -> 4 - x``. A tile on both paths is *shared* (either
side's piece may stand there), a tile on one path only is that side's *private* tile.
Every path visits a tile at most once, so a position is fully described by the set of
tiles each side occupies and by how its other pieces split between waiting and borne
off. :data:`GEOMETRY` holds ``(private, shared)`` per rule set; the Masters path crosses
into dark's lane at (3,7), (3,8) and dark's path into light's at (1,8), (1,7), so those
four tiles are shared too and Masters has 4 private and 12 shared tiles, like Aseb.

The exact count
---------------
Let one side have ``N`` pieces, ``p`` private and ``w`` shared tiles. Place light's ``g``
pieces that stand on the board first, ``m`` of them on shared tiles: ``C(p, g - m) C(w, m)``
ways. Dark then has its own ``p`` private tiles and the ``w - m`` shared tiles light left
free, so ``r`` dark pieces on the board go ``C(p + w - m, r)`` ways. Summing over ``m``
gives the number of boards ``B(g, r)`` with ``g`` light and ``r`` dark pieces on the board.
The ``N - g`` light pieces off the board are some waiting and the rest borne off:
``N - g + 1`` ways, and likewise ``N - r + 1`` for dark. So

    positions = sum over g, r = 0..N of (N + 1 - g) (N + 1 - r) B(g, r),
    B(g, r)   = sum over m of C(p, g - m) C(w, m) C(p + w - m, r).

A position is over when one side has borne off everything. Light has borne off all its
pieces in ``S = sum over r of (N + 1 - r) C(p + w, r)`` positions (dark alone on the board),
dark in as many, both in one; so ``count_nonterminal = positions - 2 S + 1``.

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

Examples
--------
>>> count_positions(*GEOMETRY["finkel"], 7)
137913936
>>> paper_formula(7, safe=6, war=8)            # Bell's board: the paper's number, 1.2e8
121658293
>>> paper_formula(7, safe=6, war=8, fix_alpha=True, fix_ranges=True)
137913936
"""

from __future__ import annotations

from itertools import combinations
from math import comb, factorial
from typing import NamedTuple

from ..dice import format_table_2
from ..errors import InvalidArgumentError, UnknownNameError

# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------
_START = ((1, 4), (1, 3), (1, 2), (1, 1))
_MASTERS = _START + tuple((2, y) for y in range(1, 8)) + ((3, 7), (3, 8), (2, 8), (1, 8), (1, 7))

PATHS = {
    "finkel": _START + tuple((2, y) for y in range(1, 9)) + ((1, 8), (1, 7)),
    "masters": _MASTERS,
    "blitz": _MASTERS,
    "aseb": _START + tuple((2, y) for y in range(1, 13)),
}
"""Light's path per rule set: the tiles ``(x, y)`` in the order a piece walks them.
Dark walks the mirror image (:func:`dark_path`)."""

ROSETTES = {
    "finkel": frozenset({(1, 1), (3, 1), (2, 4), (1, 7), (3, 7)}),
    "masters": frozenset({(1, 1), (3, 1), (2, 4), (1, 7), (3, 7)}),
    "blitz": frozenset({(1, 1), (3, 1), (2, 4), (1, 7), (3, 7)}),
    "aseb": frozenset({(1, 1), (3, 1), (2, 4), (2, 8), (2, 12)}),
}
"""The rosette tiles of each rule set."""

GEOMETRY = {"finkel": (6, 8), "masters": (4, 12), "blitz": (4, 12), "aseb": (4, 12)}
"""``(private, shared)`` tiles per side for each rule set (checked against :data:`PATHS`
by :func:`tile_split`)."""

PIECES = {"finkel": 7, "masters": 7, "blitz": 5, "aseb": 5}
"""The usual number of pieces per side in each rule set."""


def _ruleset(name: str) -> str:
    if name not in PATHS:
        raise UnknownNameError("rule set", name, PATHS)
    return name


def dark_path(name: str) -> tuple[tuple[int, int], ...]:
    """Dark's path in rule set ``name``: light's mirrored, ``x -> 4 - x``.

    >>> dark_path("masters")[-5:]
    ((1, 7), (1, 8), (2, 8), (3, 8), (3, 7))
    """
    return tuple((4 - x, y) for x, y in PATHS[_ruleset(name)])


def tile_split(name: str) -> tuple[int, int]:
    """``(private, shared)`` tiles per side of rule set ``name``, from the paths themselves.

    >>> {name: tile_split(name) for name in PATHS} == GEOMETRY
    True
    """
    light, dark = PATHS[_ruleset(name)], dark_path(name)
    shared = set(light) & set(dark)
    return len(set(light) - shared), len(shared)


# ---------------------------------------------------------------------------
# Exact counts
# ---------------------------------------------------------------------------
def _check_sizes(private, shared, pieces):
    for label, value in (("private", private), ("shared", shared), ("pieces", pieces)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidArgumentError(f"{label} must be a non-negative integer, got {value!r}")


def _boards(private: int, shared: int, g: int, r: int) -> int:
    """Boards with ``g`` light and ``r`` dark pieces on tiles (no two on one tile)."""
    return sum(
        comb(private, g - m) * comb(shared, m) * comb(private + shared - m, r)
        for m in range(max(0, g - private), min(g, shared) + 1)
    )


def _one_side(tiles: int, pieces: int) -> int:
    """Placements of one side's ``pieces`` on its ``tiles`` and off the board."""
    return sum((pieces + 1 - r) * comb(tiles, r) for r in range(min(pieces, tiles) + 1))


def count_positions(private: int, shared: int, pieces: int) -> int:
    """Every placement of both sides' pieces: the exact number of boards.

    Parameters
    ----------
    private : int
        Tiles per side that only that side uses.
    shared : int
        Tiles either side may use, one piece at a time.
    pieces : int
        Pieces per side; each waits off the board, stands on a tile of its side's path,
        or is borne off.

    Examples
    --------
    >>> count_positions(6, 8, 1), count_positions(1, 2, 1)
    (248, 23)
    >>> count_positions(4, 12, 7)          # masters, and blitz and aseb with 7 pieces
    501032952
    """
    _check_sizes(private, shared, pieces)
    top = min(pieces, private + shared)
    return sum(
        (pieces + 1 - g) * (pieces + 1 - r) * _boards(private, shared, g, r)
        for g in range(top + 1)
        for r in range(top + 1)
    )


def count_nonterminal(private: int, shared: int, pieces: int) -> int:
    """Boards where neither side has borne off all its pieces (the game is still on).

    >>> count_nonterminal(6, 8, 3)
    263121
    >>> count_positions(6, 8, 3) - count_nonterminal(6, 8, 3)    # 2 S - 1
    1183
    """
    _check_sizes(private, shared, pieces)
    return count_positions(private, shared, pieces) - 2 * _one_side(private + shared, pieces) + 1


def brute_force_count(private: int, shared: int, pieces: int, *, limit: int = 10**7) -> int:
    """:func:`count_positions` by listing every board, for checking small cases.

    Each side's placements are listed one by one (which tiles it holds, how many pieces
    wait); then every pair of a light and a dark placement that share no tile is
    counted. ``limit`` caps the number of pairs tried.

    >>> brute_force_count(1, 2, 1), brute_force_count(6, 8, 1)
    (23, 248)
    """
    _check_sizes(private, shared, pieces)
    pairs = _one_side(private + shared, pieces) ** 2
    if pairs > limit:
        raise InvalidArgumentError(
            f"brute force would try {pairs:,} pairs of placements, more "
            f"than limit={limit:,}; use count_positions, or fewer pieces"
        )
    common = [("shared", i) for i in range(shared)]

    def placements(side):
        tiles = [(side, i) for i in range(private)] + common
        found = []
        for on_board in range(min(pieces, len(tiles)) + 1):
            for held in combinations(tiles, on_board):
                for _waiting in range(pieces - on_board + 1):
                    found.append(set(held))
        return found

    dark = placements("dark")
    return sum(1 for mine in placements("light") for theirs in dark if not mine & theirs)


class CountRow(NamedTuple):
    """Exact counts for one rule set and piece count."""

    ruleset: str
    pieces: int
    positions: int
    nonterminal: int


def count_table(pieces=range(1, 8)) -> tuple[CountRow, ...]:
    """Exact and non-terminal counts for every rule set of :data:`GEOMETRY` and piece count.

    >>> [row.positions for row in count_table([1, 2]) if row.ruleset == "finkel"]
    [248, 13112]
    """
    rows = []
    for name, (private, shared) in GEOMETRY.items():
        for n in pieces:
            rows.append(
                CountRow(
                    name,
                    n,
                    count_positions(private, shared, n),
                    count_nonterminal(private, shared, n),
                )
            )
    return tuple(rows)


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


def _check_paper(pieces, safe, war):
    for label, value, low in (("pieces", pieces, 1), ("safe", safe, 0), ("war", war, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InvalidArgumentError(f"{label} must be an integer >= {low}, got {value!r}")


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
    gamegraph.errors.InvalidArgumentError: the printed formula needs pieces < war (p < t), got p = 8, t = 8; fix_ranges=True accepts any p
    """
    _check_paper(pieces, safe, war)
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
    _check_paper(pieces, 0, war)
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
    _check_paper(pieces, safe, war)
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
# Tables for docs/games/ur-counting.md
# ---------------------------------------------------------------------------
def _sci(value: float) -> str:
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def format_tables(pieces=range(1, 8)) -> str:
    """Every table of docs/games/ur-counting.md as Markdown (``python -m`` this module)."""
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
