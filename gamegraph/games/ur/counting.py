"""How many positions the Royal Game of Ur has, exactly, for any board and piece count.

A board is described by its tile split (:data:`.board.GEOMETRY`): ``private`` tiles each
side walks alone and ``shared`` tiles either side may hold, one piece at a time.

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

:mod:`.paper` sets these counts against the formula of Raposo & Lamont (2023).

Examples
--------
>>> count_positions(*GEOMETRY["finkel"], 7)
137913936
>>> count_nonterminal(*GEOMETRY["finkel"], 2)     # the 2-piece graph: these and WIN
12869
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import NamedTuple

from ..._checks import check_int
from ...errors import InvalidArgumentError
from .board import GEOMETRY


# ---------------------------------------------------------------------------
# Exact counts
# ---------------------------------------------------------------------------
def _check_sizes(private, shared, pieces) -> tuple[int, int, int]:
    return (
        check_int(private, "private", low=0),
        check_int(shared, "shared", low=0),
        check_int(pieces, "pieces", low=0),
    )


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
    private, shared, pieces = _check_sizes(private, shared, pieces)
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
    private, shared, pieces = _check_sizes(private, shared, pieces)
    return count_positions(private, shared, pieces) - 2 * _one_side(private + shared, pieces) + 1


def census(ruleset) -> dict:
    """A rule set's counts at once (what ``gamegraph ur count`` reports): its positions, those
    with neither side finished, and its board's private and shared tiles.

    >>> from gamegraph.games.ur import rule_set
    >>> census(rule_set("finkel", 3))
    {'rules': 'finkel', 'pieces': 3, 'positions': 264304, 'nonterminal': 263121,
     'private_tiles': 6, 'shared_tiles': 8}
    """
    private, shared = GEOMETRY[ruleset.name]
    return {
        "rules": ruleset.name,
        "pieces": ruleset.pieces,
        "positions": count_positions(private, shared, ruleset.pieces),
        "nonterminal": count_nonterminal(private, shared, ruleset.pieces),
        "private_tiles": private,
        "shared_tiles": shared,
    }


def brute_force_count(private: int, shared: int, pieces: int, *, limit: int = 10**7) -> int:
    """:func:`count_positions` by listing every board, for checking small cases.

    Each side's placements are listed one by one (which tiles it holds, how many pieces
    wait); then every pair of a light and a dark placement that share no tile is
    counted. ``limit`` caps the number of pairs tried.

    >>> brute_force_count(1, 2, 1), brute_force_count(6, 8, 1)
    (23, 248)
    """
    private, shared, pieces = _check_sizes(private, shared, pieces)
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
