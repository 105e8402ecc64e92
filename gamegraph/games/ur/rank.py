r"""Every position of the Royal Game of Ur numbered 0 .. n - 1, without a hash map.

A position is ``(mover, a, opp, b)``: the mover's pieces as a bit mask of its squares (bit
``s - 1`` is square ``s``), how many it has borne off, and the same for the opponent in
the opponent's own numbering (as :mod:`.positions` packs them). Its *rank* is computed
from those four numbers with a few lookups in small tables.

The rank
--------
Split each side's squares into its ``p`` private squares and the ``w`` tiles both sides
walk. The shared tiles together show a ternary word ``s`` (each tile empty, the
mover's, or the opponent's) with ``ms`` mover and ``os`` opponent pieces. With ``a`` and
``b`` borne off, the mover may have at most ``N - a - ms`` pieces on its private
squares and the opponent ``N - b - os``. The private masks are listed by popcount
first, so the masks with at most ``k`` pieces are a prefix of that list, of length
``F(k)`` (:attr:`RankTables.fewer`), and a mask's place in it (``priv_rank``) does not
depend on ``k``. Words ``s`` are grouped by ``(ms, os)`` and ranked inside their group
(``group_rank``). Then::

    rank = group_start[a, b, ms, os]
           + (group_rank[s] * F(N - a - ms) + priv_rank[mp]) * F(N - b - os) + priv_rank[op]

which numbers the positions with neither side finished densely:
:func:`count_nonterminal` of them.

Blocks
------
Bearing off is the only move that changes ``a`` or ``b``, and it never undoes itself,
so the positions with ``{a, b}`` borne off (either side to move) form a *block* that
leads only to itself and to blocks with one more piece borne off. The numbering lays
the blocks out in an order that solves them (most pieces borne off first): block ``k``
holds ranks ``starts[k] .. starts[k + 1] - 1``, the ``(a, b)`` half before the
``(b, a)`` half.

Inside a block every move but a capture raises the *progress* (the sum of both sides'
squares) and a capture lowers it: a capture takes a piece on a shared square (5 or
more) with a throw of at most 4. Passing the turn keeps the board, so a position and
its *twin* (the same board, the other side to move) have the same progress.

The functions
-------------
:func:`rank`, :func:`unrank`, :func:`move` and :func:`progress` take plain integers or
numpy arrays alike, and are written so that numba can compile them: the block solver
(:mod:`gamegraph.games.ur.block_solver`) runs them position by position in compiled code,
or over whole arrays with numpy. They know the rules and nothing of solving.

Examples
--------
>>> from gamegraph.games.ur import parse_position, rule_set
>>> numbering = Numbering(rule_set("finkel", pieces=7))
>>> numbering.n_positions      # the 137,913,936 boards less those where a side has won
137870097
>>> i = numbering.index("4,13+2/6+1")
>>> numbering.position(i)
UrState(mover=(4, 13), mover_off=2, opponent=(6,), opponent_off=1)
>>> len(numbering.blocks), numbering.blocks[0]
(28, Block(index=0, low=6, high=6, start=0, middle=217, stop=217))
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import NamedTuple

import numpy as np

from ...errors import InvalidArgumentError
from .board import GEOMETRY
from .counting import count_nonterminal
from .rules import RuleSet, UrState, parse_position, position_problem, rule_set

_BYTE = np.arange(256, dtype=np.int64)


class RankTables(NamedTuple):
    """The lookup tables of one rule set and piece count, laid end to end in one array.

    ``data[t.name + i]`` is entry ``i`` of table ``name``: every table field below is
    where its table starts in ``data``. One array, not one per table: the compiled
    sweeps hand the tables to a helper for each position, and numba counts a reference
    to each array it hands over (thirty-odd atomic operations a position when each
    table was an array of its own, half the time of listing the moves).

    Tables indexed by a mask's low byte (``*_lo``) and its high byte (``*_hi``) are
    OR-ed (their bits never overlap) or added (sums).
    """

    pieces: int
    length: int
    data: np.ndarray  # every table below, end to end (int64)
    tiles: int  # shared tiles plus one: the sizes of ms and os in the group tables
    groups: int  # how many groups start (the length of ``starts``)
    pop: int  # bits set in a byte
    square_sum_lo: int  # sum of the squares a byte's bits stand for
    square_sum_hi: int
    priv_lo: int  # a mask's private squares as p bits
    priv_hi: int
    tile_lo: int  # the mover's shared squares as w tile bits
    tile_hi: int
    opp_tile_lo: int  # the opponent's shared squares as the mover's tile bits
    opp_tile_hi: int
    priv_rank: int  # [private bits] place in (popcount, value) order
    fewer: int  # [k] private masks with at most k pieces (F(k))
    tern: int  # [tile bits] the ternary word with a digit 1 per bit
    group_rank: int  # [ternary word] place inside its (ms, os) group
    group_start: int  # [a, b, ms, os] first rank of the group (-1: empty), C order
    starts: int  # first rank of every non-empty group, ascending
    start_a: int  # that group's a, b, ms, os
    start_b: int
    start_ms: int
    start_os: int
    member_offset: int  # [ms, os] first place of the group in member_*, C order
    member_mover: int  # tile bits of the mover, word by word in group order
    member_opp: int
    priv_mask: int  # [place in priv_rank order] the private squares as a mask
    tiles_mover: int  # [tile bits] the mover's squares
    tiles_opp: int  # [tile bits] the opponent's squares, in its numbering
    opponent_square: int  # [square 0 .. L + 1] the opponent's number (0: private)
    rosette: int  # [square 0 .. L + 1] 1 on a rosette
    tile_bit: int  # [square 0 .. L + 1] its tile bit (0: private or off the board)
    private_bit: int  # [square 0 .. L + 1] its private bit (0: shared or off)
    swapped_mover: int  # [opponent's tile bits] their ternary word, the opponent to move
    swapped_opp: int  # [mover's tile bits] their word (digits 2), the opponent to move
    safe: bool
    bonus: bool
    throws: np.ndarray  # every throw, in order
    probabilities: np.ndarray  # their probabilities (float64)


class Block(NamedTuple):
    """Positions with ``{low, high}`` borne off, either side to move: ranks start .. stop - 1.

    The mover has borne off ``low`` in ranks ``start .. middle - 1`` and ``high`` in
    ``middle .. stop - 1`` (none when ``low == high``: then ``middle == stop``).
    """

    index: int
    low: int
    high: int
    start: int
    middle: int
    stop: int

    @property
    def size(self) -> int:
        return self.stop - self.start


# ---------------------------------------------------------------------------
# The rank and the rules, for integers and arrays alike (compiled by the solver)
# ---------------------------------------------------------------------------
def progress(mover, opp, t):
    """The sum of both sides' squares, each in its own numbering."""
    return (
        t.data[t.square_sum_lo + (mover & 255)] + t.data[t.square_sum_hi + (mover >> 8)]
        + t.data[t.square_sum_lo + (opp & 255)] + t.data[t.square_sum_hi + (opp >> 8)]
    )  # fmt: skip


def rank(mover, a, opp, b, t):
    """The number of position ``(mover, a, opp, b)`` (the module docstring gives the formula)."""
    mover_tiles = t.data[t.tile_lo + (mover & 255)] | t.data[t.tile_hi + (mover >> 8)]
    opp_tiles = t.data[t.opp_tile_lo + (opp & 255)] | t.data[t.opp_tile_hi + (opp >> 8)]
    ms = t.data[t.pop + (mover_tiles & 255)] + t.data[t.pop + (mover_tiles >> 8)]
    os = t.data[t.pop + (opp_tiles & 255)] + t.data[t.pop + (opp_tiles >> 8)]
    word = t.data[t.tern + mover_tiles] + 2 * t.data[t.tern + opp_tiles]
    mover_private = t.data[
        t.priv_rank + (t.data[t.priv_lo + (mover & 255)] | t.data[t.priv_hi + (mover >> 8)])
    ]
    opp_private = t.data[
        t.priv_rank + (t.data[t.priv_lo + (opp & 255)] | t.data[t.priv_hi + (opp >> 8)])
    ]
    return (
        t.data[t.group_start + ((a * t.pieces + b) * t.tiles + ms) * t.tiles + os]
        + (t.data[t.group_rank + word] * t.data[t.fewer + (t.pieces - a - ms)] + mover_private)
        * t.data[t.fewer + (t.pieces - b - os)]
        + opp_private
    )


def unrank(r, t):
    """The position ``(mover, a, opp, b)`` numbered ``r``: :func:`rank` undone."""
    k = np.searchsorted(t.data[t.starts : t.starts + t.groups], r, side="right") - 1
    a, b, ms, os = (
        t.data[t.start_a + k],
        t.data[t.start_b + k],
        t.data[t.start_ms + k],
        t.data[t.start_os + k],
    )
    q = r - t.data[t.starts + k]
    f_opp = t.data[t.fewer + (t.pieces - b - os)]
    f_mover = t.data[t.fewer + (t.pieces - a - ms)]
    opp_private = q % f_opp
    q = q // f_opp
    mover_private = q % f_mover
    member = t.data[t.member_offset + ms * t.tiles + os] + q // f_mover
    mover = (
        t.data[t.priv_mask + mover_private]
        | t.data[t.tiles_mover + (t.data[t.member_mover + member])]
    )
    opp = t.data[t.priv_mask + opp_private] | t.data[t.tiles_opp + (t.data[t.member_opp + member])]
    return mover, a, opp, b


def move(mover, a, opp, source, throw, t):
    """Move the mover's piece on ``source`` (0: a waiting piece) ``throw`` squares on.

    Returns ``(legal, mover, a, opp, again)`` after the move: ``a`` grows when the piece is
    borne off, ``opp`` loses a captured piece, ``again`` says the mover throws again.
    ``source + throw`` must be at most ``L + 1`` and ``throw`` at least 1.
    """
    dest = source + throw
    if source == 0:
        legal = t.pieces - t.data[t.pop + (mover & 255)] - t.data[t.pop + (mover >> 8)] - a > 0
        left = mover
    else:
        here = 1 << (source - 1)
        legal = (mover & here) != 0
        left = mover & ~here
    if dest == t.length + 1:
        return legal, left, a + 1, opp, (opp < 0)  # (opp < 0): False, as a scalar or an array
    there = 1 << (dest - 1)
    legal = legal & ((mover & there) == 0)
    again = t.data[t.rosette + dest] != 0
    square = t.data[t.opponent_square + dest]
    if square == 0:
        return legal, left | there, a, opp, again | (opp < 0)
    theirs = 1 << (square - 1)
    captured = (opp & theirs) != 0
    if t.safe and again:
        return legal & ((opp & theirs) == 0), left | there, a, opp, again | (opp < 0)
    return legal, left | there, a, opp & ~theirs, again | (captured & t.bonus)


#: Kinds of the moves :func:`item_moves` lists: the mover throws again, the turn passes,
#: the mover wins (no rank).
STAYS = 0
PASSES = 1
WINS = 2


def item_moves(mover, a, opp, b, t, sides, wanted, sources, ranks, kinds, first, n, row):
    """List the legal moves of position ``(mover, a, opp, b)`` (side 0) and, when ``sides``
    is 2, of its twin ``(opp, b, mover, a)`` (side 1), throw by throw: the throws with
    moves are numbered ``k`` in order, and those with ``wanted[row + side, k]`` are
    listed (the squares moved from ascending) into ``ranks`` and ``kinds`` from ``n`` on,
    from ``first[row + side, k]`` to ``first[row + side, k + 1]``. Returns where the
    list ends: ``n`` and ``row`` let the sweeps list several items before reading any.

    A kind is :data:`STAYS` (the successor is ``(mover', a, opp', b)``), :data:`PASSES`
    (``(opp', b, mover', a')``: the other side moves) or :data:`WINS` (no rank). These are
    the moves :func:`move` makes from each square, with each successor's rank computed
    from the position's own terms: a move changes one piece of the mover (and may
    capture one), so only the terms of the squares it touches change. ``sources`` is
    room for the squares a side moves from.
    """
    n_pieces, end = t.pieces, t.length + 1
    for side in range(sides):
        if side == 1:
            mover, a, opp, b = opp, b, mover, a
        count = 0
        if n_pieces - t.data[t.pop + (mover & 255)] - t.data[t.pop + (mover >> 8)] - a > 0:
            sources[0] = 0
            count = 1
        for square in range(1, end):  # without a branch: 4 % of the listing's time
            sources[count] = square
            count += (mover >> (square - 1)) & 1
        mover_tiles = t.data[t.tile_lo + (mover & 255)] | t.data[t.tile_hi + (mover >> 8)]
        opp_tiles = t.data[t.opp_tile_lo + (opp & 255)] | t.data[t.opp_tile_hi + (opp >> 8)]
        ms = t.data[t.pop + (mover_tiles & 255)] + t.data[t.pop + (mover_tiles >> 8)]
        os = t.data[t.pop + (opp_tiles & 255)] + t.data[t.pop + (opp_tiles >> 8)]
        mover_private = t.data[t.priv_lo + (mover & 255)] | t.data[t.priv_hi + (mover >> 8)]
        opp_private = t.data[
            t.priv_rank + (t.data[t.priv_lo + (opp & 255)] | t.data[t.priv_hi + (opp >> 8)])
        ]
        k = 0
        for j in range(len(t.throws)):
            throw = t.throws[j]
            if throw == 0:
                continue
            first[row + side, k] = n
            if wanted[row + side, k]:
                for q in range(count):
                    source = sources[q]
                    dest = source + throw
                    if dest > end:
                        break
                    # Bearing off (dest == end) touches no square: its bits in the tables are 0.
                    off = dest == end
                    won = a + off == n_pieces  # no successor: its rank below is never read
                    a2 = a + off - won
                    tile = t.data[t.tile_bit + dest]
                    captured = (opp_tiles & tile) != 0
                    rosette = t.data[t.rosette + dest]
                    legal = 1 - ((mover >> (dest - 1)) & 1)
                    if t.safe:
                        legal = legal & (1 - (captured & rosette))
                    again = rosette | (captured & t.bonus)
                    if not legal:
                        continue
                    mover_tiles2 = (mover_tiles & ~t.data[t.tile_bit + source]) | tile
                    opp_tiles2 = opp_tiles & ~tile
                    ms2 = ms - (t.data[t.tile_bit + source] != 0) + (tile != 0)
                    os2 = os - captured
                    private_bits = mover_private & ~t.data[t.private_bit + source]
                    private = t.data[t.priv_rank + (private_bits | t.data[t.private_bit + dest])]
                    fewer_mover = t.data[t.fewer + (n_pieces - a2 - ms2)]
                    fewer_opp = t.data[t.fewer + (n_pieces - b - os2)]
                    if again:  # (mover', a, opp', b)
                        word = t.data[t.tern + mover_tiles2] + 2 * t.data[t.tern + opp_tiles2]
                        group = ((a2 * n_pieces + b) * t.tiles + ms2) * t.tiles + os2
                        ranks[n] = (
                            t.data[t.group_start + group]
                            + (t.data[t.group_rank + word] * fewer_mover + private) * fewer_opp
                            + opp_private
                        )
                    else:  # (opp', b, mover', a2)
                        word = t.data[t.swapped_mover + opp_tiles2]
                        word += t.data[t.swapped_opp + mover_tiles2]
                        group = ((b * n_pieces + a2) * t.tiles + os2) * t.tiles + ms2
                        ranks[n] = (
                            t.data[t.group_start + group]
                            + (t.data[t.group_rank + word] * fewer_opp + opp_private) * fewer_mover
                            + private
                        )
                    kinds[n] = PASSES - again + won
                    n += 1
            k += 1
        first[row + side, k] = n
    return n


# ---------------------------------------------------------------------------
# Building the tables
# ---------------------------------------------------------------------------
def _bits_table(squares_to_bits: dict) -> tuple[np.ndarray, np.ndarray]:
    """Tables for the low and high byte of a mask: the OR of ``squares_to_bits[s]``."""
    low = np.zeros(256, dtype=np.int64)
    high = np.zeros(256, dtype=np.int64)
    for square, value in squares_to_bits.items():
        byte, table = ((square - 1) % 8, low) if square <= 8 else ((square - 9) % 8, high)
        table[(_BYTE >> byte) & 1 == 1] |= value
    return low, high


def _square_sums() -> tuple[np.ndarray, np.ndarray]:
    low = np.zeros(256, dtype=np.int64)
    high = np.zeros(256, dtype=np.int64)
    for bit in range(8):
        on = (_BYTE >> bit) & 1 == 1
        low[on] += bit + 1
        high[on] += bit + 9
    return low, high


def _popcounts(values: np.ndarray) -> np.ndarray:
    return np.array([bin(int(v)).count("1") for v in values], dtype=np.int64)


def _end_to_end(parts: dict) -> tuple[np.ndarray, dict]:
    """The tables of ``parts`` laid end to end in one int64 array (C order), and where
    each starts in it.

    >>> data, offsets = _end_to_end({"a": [1, 2], "b": np.array([[3], [4]])})
    >>> data.tolist(), offsets
    ([1, 2, 3, 4], {'a': 0, 'b': 2})
    """
    sizes = [np.asarray(table).size for table in parts.values()]
    offsets = dict(zip(parts, np.cumsum([0, *sizes[:-1]]).tolist()))
    data = np.concatenate([np.asarray(table, np.int64).reshape(-1) for table in parts.values()])
    return data, offsets


@lru_cache(maxsize=16)
def _tables(name: str, pieces: int) -> tuple[RankTables, tuple[Block, ...]]:
    ruleset = rule_set(name, pieces)
    length, n = ruleset.length, pieces
    if length > 16:
        raise InvalidArgumentError(f"a path of {length} squares is longer than 16")
    opponent_square = np.array(
        [0] + [ruleset.opponent_square(s) for s in range(1, length + 1)] + [0], dtype=np.int64
    )
    rosette = np.array(
        [0] + [int(ruleset.is_rosette(s)) for s in range(1, length + 1)] + [0], dtype=np.int64
    )
    private = [s for s in range(1, length + 1) if opponent_square[s] == 0]
    shared = [s for s in range(1, length + 1) if opponent_square[s] != 0]
    p, w = len(private), len(shared)

    priv_lo, priv_hi = _bits_table({s: 1 << j for j, s in enumerate(private)})
    tile_lo, tile_hi = _bits_table({s: 1 << j for j, s in enumerate(shared)})
    opp_tile_lo, opp_tile_hi = _bits_table(
        {int(opponent_square[s]): 1 << j for j, s in enumerate(shared)}
    )

    masks = np.arange(1 << p, dtype=np.int64)
    by_count = np.lexsort((masks, _popcounts(masks)))
    priv_rank = np.empty(1 << p, dtype=np.int32)
    priv_rank[by_count] = np.arange(1 << p, dtype=np.int32)
    priv_mask = np.zeros(1 << p, dtype=np.int64)
    for j, s in enumerate(private):
        priv_mask |= ((masks[by_count] >> j) & 1) << (s - 1)
    fewer = np.array([sum(comb(p, j) for j in range(k + 1)) for k in range(n + 1)], np.int64)

    tiles = np.arange(1 << w, dtype=np.int64)
    tern = np.zeros(1 << w, dtype=np.int32)
    tiles_mover = np.zeros(1 << w, dtype=np.int64)
    tiles_opp = np.zeros(1 << w, dtype=np.int64)
    for j, s in enumerate(shared):
        on = (tiles >> j) & 1
        tern += (on * 3**j).astype(np.int32)
        tiles_mover |= on << (s - 1)
        tiles_opp |= on << (int(opponent_square[s]) - 1)

    # Ternary words: digit j is 0 (empty), 1 (mover) or 2 (opponent) on tile j.
    words = np.arange(3**w, dtype=np.int64)
    digits = (words[:, None] // 3 ** np.arange(w, dtype=np.int64)) % 3
    weights = 1 << np.arange(w, dtype=np.int64)
    word_mover = ((digits == 1) * weights).sum(axis=1)
    word_opp = ((digits == 2) * weights).sum(axis=1)
    ms_of, os_of = (digits == 1).sum(axis=1), (digits == 2).sum(axis=1)
    by_group = np.lexsort((words, os_of, ms_of))
    group_size = np.zeros((w + 1, w + 1), dtype=np.int64)
    np.add.at(group_size, (ms_of, os_of), 1)
    member_offset = (np.cumsum(group_size.reshape(-1)) - group_size.reshape(-1)).reshape(
        w + 1, w + 1
    )
    group_rank = np.empty(3**w, dtype=np.int32)
    group_rank[by_group] = (np.arange(3**w) - member_offset[ms_of, os_of][by_group]).astype(
        np.int32
    )

    def f(k):
        return int(fewer[min(k, n)]) if k >= 0 else 0

    group_start = np.full((n, n, w + 1, w + 1), -1, dtype=np.int64)
    found, blocks, next_rank = [], [], 0
    pairs = sorted(
        ((lo, hi) for lo in range(n) for hi in range(lo, n)), key=lambda x: (-sum(x), -x[1])
    )
    for index, (lo, hi) in enumerate(pairs):
        first = middle = next_rank
        for half, (a, b) in enumerate(((lo, hi), (hi, lo)) if lo != hi else ((lo, hi),)):
            if half == 1:
                middle = next_rank
            for ms in range(w + 1):
                for os in range(w + 1):
                    size = int(group_size[ms, os]) * f(n - a - ms) * f(n - b - os)
                    if size:
                        group_start[a, b, ms, os] = next_rank
                        found.append((next_rank, a, b, ms, os))
                        next_rank += size
        blocks.append(Block(index, lo, hi, first, middle if lo != hi else next_rank, next_rank))
    found = np.array(found, dtype=np.int64)
    pop = _popcounts(_BYTE)
    sum_lo, sum_hi = _square_sums()
    throws = np.array([t for t, _ in ruleset.dice.distribution], dtype=np.int64)
    probabilities = np.array([float(q) for _, q in ruleset.dice.distribution])
    square_bits = np.array([0] + [1 << (s - 1) for s in range(1, length + 1)] + [0], np.int64)
    tile_bit = tile_lo[square_bits & 255] | tile_hi[square_bits >> 8]
    private_bit = priv_lo[square_bits & 255] | priv_hi[square_bits >> 8]
    opp_squares = tiles_opp[tiles]  # each tile mask of the opponent, as its own squares
    mover_squares = tiles_mover[tiles]
    swapped_mover = tern[tile_lo[opp_squares & 255] | tile_hi[opp_squares >> 8]].astype(np.int64)
    swapped_opp = 2 * tern[opp_tile_lo[mover_squares & 255] | opp_tile_hi[mover_squares >> 8]]
    parts = {
        "pop": pop, "square_sum_lo": sum_lo, "square_sum_hi": sum_hi, "priv_lo": priv_lo,
        "priv_hi": priv_hi, "tile_lo": tile_lo, "tile_hi": tile_hi, "opp_tile_lo": opp_tile_lo,
        "opp_tile_hi": opp_tile_hi, "priv_rank": priv_rank, "fewer": fewer, "tern": tern,
        "group_rank": group_rank, "group_start": group_start, "starts": found[:, 0],
        "start_a": found[:, 1], "start_b": found[:, 2], "start_ms": found[:, 3],
        "start_os": found[:, 4], "member_offset": member_offset,
        "member_mover": word_mover[by_group], "member_opp": word_opp[by_group],
        "priv_mask": priv_mask, "tiles_mover": tiles_mover, "tiles_opp": tiles_opp,
        "opponent_square": opponent_square, "rosette": rosette, "tile_bit": tile_bit,
        "private_bit": private_bit, "swapped_mover": swapped_mover, "swapped_opp": swapped_opp,
    }  # fmt: skip
    data, offsets = _end_to_end(parts)
    tables = RankTables(
        pieces=n,
        length=length,
        data=data,
        tiles=w + 1,
        groups=len(found),
        **offsets,
        safe=ruleset.safe_rosettes,
        bonus=ruleset.capture_bonus,
        throws=throws,
        probabilities=probabilities,
    )
    return tables, tuple(blocks)


class Numbering:
    """The rank of every position of one rule set, its tables and its blocks.

    Parameters
    ----------
    ruleset : RuleSet or str
        The rules and piece count (a rule set's name takes its own count).

    Attributes
    ----------
    ruleset : RuleSet
    tables : RankTables
    blocks : tuple of Block
        In solving order: every block leads only to itself and to blocks before it.
    n_positions : int
        Positions with neither side finished, all numbered: ranks 0 .. n_positions - 1.

    Examples
    --------
    >>> numbering = Numbering(rule_set("masters", pieces=2))
    >>> numbering.n_positions, [block.size for block in numbering.blocks]
    (20314, [277, 4274, 15763])
    >>> numbering.index(numbering.position(1234)) == 1234
    True
    """

    def __init__(self, ruleset):
        ruleset = rule_set(ruleset) if isinstance(ruleset, str) else ruleset
        if not isinstance(ruleset, RuleSet):
            raise InvalidArgumentError(f"expected a rule set or its name, got {ruleset!r}")
        self.ruleset = ruleset
        self.tables, self.blocks = _tables(ruleset.name, ruleset.pieces)
        self.n_positions = self.blocks[-1].stop
        expected = count_nonterminal(*GEOMETRY[ruleset.name], ruleset.pieces)
        if self.n_positions != expected:  # the numbering is dense or it is wrong
            raise AssertionError(f"numbered {self.n_positions} positions, not {expected}")

    def __len__(self) -> int:
        return self.n_positions

    def index(self, position) -> int:
        """The rank of ``position`` (an :class:`UrState` or its written form).

        >>> Numbering(rule_set("finkel", pieces=1)).index("-/-")
        0
        """
        state = parse_position(position, self.ruleset) if isinstance(position, str) else position
        problem = position_problem(state, self.ruleset) if isinstance(state, UrState) else None
        if not isinstance(state, UrState) or problem:
            raise InvalidArgumentError(f"position {position!r}: {problem or 'not a position'}")

        def mask(squares):
            return sum(1 << (s - 1) for s in squares)

        return int(
            rank(mask(state.mover), state.mover_off, mask(state.opponent), state.opponent_off,
                 self.tables)
        )  # fmt: skip

    def position(self, index: int) -> UrState:
        """The position numbered ``index``."""
        if not 0 <= index < self.n_positions:
            raise InvalidArgumentError(
                f"position number {index!r} is outside 0 .. {self.n_positions - 1}"
            )
        mover, a, opp, b = (int(v) for v in unrank(index, self.tables))
        length = self.tables.length

        def squares(mask):
            return tuple(s + 1 for s in range(length) if mask >> s & 1)

        return UrState(squares(mover), a, squares(opp), b)

    def block_of(self, index: int) -> Block:
        """The block holding rank ``index``."""
        starts = [block.start for block in self.blocks]
        return self.blocks[int(np.searchsorted(starts, index, side="right")) - 1]
