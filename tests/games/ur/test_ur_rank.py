"""The rank numbering: dense, the inverse of unrank, the positions of the rules, in blocks."""

from __future__ import annotations

import numpy as np
import pytest

from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import RULESETS, encode, legal_moves, play, rule_set, state_codes, sweeps
from gamegraph.games.ur.board import GEOMETRY
from gamegraph.games.ur.counting import count_nonterminal
from gamegraph.games.ur.rank import PASSES, STAYS, WINS, Numbering, item_moves, move, rank, unrank

#: `make test-fast` leaves these out: the numbering checked against the rules, every rule set.
pytestmark = pytest.mark.heavy


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("pieces", [1, 2, 3])
def test_every_position_once(name, pieces):
    ruleset = rule_set(name, pieces)
    numbering = Numbering(ruleset)
    t = numbering.tables
    r = np.arange(numbering.n_positions)
    mover, a, opp, b = unrank(r, t)
    assert (rank(mover, a, opp, b, t) == r).all()
    codes = np.sort(encode(mover, a, opp, b, ruleset.length))
    assert (codes == state_codes(ruleset)).all()


@pytest.mark.parametrize("name", RULESETS)
def test_seven_pieces_are_counted(name):
    numbering = Numbering(rule_set(name, 7))
    assert numbering.n_positions == count_nonterminal(*GEOMETRY[name], 7)
    t = numbering.tables
    sample = np.random.default_rng(7).integers(0, numbering.n_positions, 100_000)
    assert (rank(*unrank(sample, t), t) == sample).all()


@pytest.mark.parametrize("name", RULESETS)
def test_blocks_lead_only_to_themselves_and_earlier_blocks(name):
    numbering = Numbering(rule_set(name, 3))
    for block in numbering.blocks:
        _, a, _, b = unrank(np.arange(block.start, block.stop), numbering.tables)
        first = np.arange(block.start, block.stop) < block.middle
        assert (a[first] == block.low).all() and (b[first] == block.high).all()
        assert (a[~first] == block.high).all() and (b[~first] == block.low).all()
    borne = [block.low + block.high for block in numbering.blocks]
    assert borne == sorted(borne, reverse=True)


@pytest.mark.parametrize("name", RULESETS)
def test_moves_are_the_rules_moves(name):
    """:func:`move` makes the moves of :func:`legal_moves` and :func:`play`, no others."""
    ruleset = rule_set(name, 2)
    numbering = Numbering(ruleset)
    t = numbering.tables
    for index in range(0, numbering.n_positions, 7):
        state = numbering.position(index)
        mover, a, opp, b = (int(v) for v in unrank(index, t))
        for throw in range(1, 5):
            made = []
            for source in range(ruleset.length + 2 - throw):
                legal, mover2, a2, opp2, again = move(mover, a, opp, source, throw, t)
                if not legal or (source and not mover >> (source - 1) & 1):
                    continue
                if a2 == ruleset.pieces:
                    made.append("WIN")
                    continue
                after = (mover2, a2, opp2, b) if again else (opp2, b, mover2, a2)
                made.append((numbering.position(int(rank(*after, t))), not again))
            expected = [play(state, m, ruleset) for m in legal_moves(state, throw, ruleset)]
            assert made == [e if e[0] != "WIN" else "WIN" for e in expected]


def _moves_one_by_one(mover, a, opp, b, t):
    """Each throw's moves of ``(mover, a, opp, b)`` by :func:`move` and :func:`rank`."""
    listed = []
    for throw in t.throws[t.throws != 0]:
        made = []
        for source in range(t.length + 2 - throw):
            if source and not mover >> (source - 1) & 1:
                continue
            legal, mover2, a2, opp2, again = move(mover, a, opp, source, int(throw), t)
            if not legal:
                continue
            if a2 == t.pieces:
                made.append((WINS, None))
            elif again:
                made.append((STAYS, int(rank(mover2, a2, opp2, b, t))))
            else:
                made.append((PASSES, int(rank(opp2, b, mover2, a2, t))))
        listed.append(made)
    return listed


def _item_moves(lister, mover, a, opp, b, t, n=0, row=0):
    """Each throw's moves of both sides of an item, as :func:`item_moves` lists them (from
    ``n`` on, in rows ``row`` and ``row + 1``).
    """
    throws = int((t.throws != 0).sum())
    ranks = np.full(n + 2 * throws * (t.length + 2), -7, np.int64)
    kinds = np.full_like(ranks, -7)
    first = np.full((row + 2, throws + 1), -7, np.int64)
    sources = np.zeros(t.length + 1, np.int64)
    wanted = np.zeros((row + 2, throws), np.bool_)
    wanted[row:] = True
    end = lister(mover, a, opp, b, t, 2, wanted, sources, ranks, kinds, first, n, row)
    assert end == first[row + 1, throws] and first[row, 0] == n
    assert (ranks[:n] == -7).all() and (first[:row] == -7).all()
    return [
        [(int(kinds[m]), None if kinds[m] == WINS else int(ranks[m]))
         for m in range(first[row + side, k], first[row + side, k + 1])]
        for side in range(2) for k in range(throws)
    ]  # fmt: skip


@pytest.mark.parametrize("name", RULESETS)
def test_item_moves_are_the_moves_made_one_by_one(name):
    """:func:`item_moves` (successors' ranks from the position's own terms, in the block
    solver) lists what :func:`move` and :func:`rank` make, in the same order, for both
    sides of an item: plain and compiled, including bearing off and winning.
    """
    numbering = Numbering(rule_set(name, 3))
    t = numbering.tables
    sweeps.compile_kernels()
    compiled = sweeps.item_moves
    for index in range(0, numbering.n_positions, 101):
        mover, a, opp, b = (int(v) for v in unrank(index, t))
        expected = _moves_one_by_one(mover, a, opp, b, t) + _moves_one_by_one(opp, b, mover, a, t)
        assert _item_moves(item_moves, mover, a, opp, b, t) == expected
        assert _item_moves(compiled, mover, a, opp, b, t) == expected
        assert _item_moves(compiled, mover, a, opp, b, t, n=5, row=4) == expected


def test_positions_are_checked():
    numbering = Numbering(rule_set("finkel", 2))
    with pytest.raises(InvalidArgumentError, match="outside 0 .. 12868"):
        numbering.position(12869)
    with pytest.raises(InvalidArgumentError, match="two of the mover's pieces on square 5"):
        numbering.index("5,5/-")
    assert numbering.block_of(numbering.index("-/-")) is numbering.blocks[-1]
