"""Every box of Yahtzee and Yatzy on hand-picked throws, against the rules text.

The expected scores are worked out by hand from the rules (the module docstring of
``gamegraph.games.yahtzee.scoring`` and docs/games/yahtzee.md), each with its reason;
the chances at the end come from counting all 7,776 ordered throws, not from the
library's own dice tables.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.yahtzee.dice import multisets
from gamegraph.games.yahtzee.scoring import VARIANTS, scoring

YAHTZEE = scoring("yahtzee")
YATZY = scoring("yatzy")
KTH = scoring("yatzy", variant="kth-2012")

YAHTZEE_BOXES = (
    "aces", "twos", "threes", "fours", "fives", "sixes", "three of a kind",
    "four of a kind", "full house", "small straight", "large straight", "yahtzee", "chance",
)  # fmt: skip
YATZY_BOXES = (
    "ones", "twos", "threes", "fours", "fives", "sixes", "one pair", "two pairs",
    "three of a kind", "four of a kind", "small straight", "large straight", "full house",
    "chance", "yatzy",
)  # fmt: skip


def card(rules, faces, *, joker=False) -> dict:
    """Every box's score of one throw (the joker table's when ``joker``)."""
    row = multisets(rules.dice).index(tuple(sorted(faces)))
    table = rules.joker_table if joker else rules.table
    return {box: int(table[row, b]) for b, box in enumerate(rules.boxes)}


def test_boxes_and_constants():
    assert YAHTZEE.boxes == YAHTZEE_BOXES
    assert YATZY.boxes == YATZY_BOXES
    # Upper boxes carry their face, lower boxes 0.
    assert YAHTZEE.upper.tolist() == [1, 2, 3, 4, 5, 6] + [0] * 7
    assert YATZY.upper.tolist() == [1, 2, 3, 4, 5, 6] + [0] * 9
    # 35 at 63 in Yahtzee (Hasbro), 50 at 63 in Yatzy (Larsson & Sjöberg).
    assert (YAHTZEE.upper_bonus, YATZY.upper_bonus, KTH.upper_bonus) == (35, 50, 50)
    # 100 per further Yahtzee, only with the Yahtzee box in play; none in Yatzy.
    assert (YAHTZEE.yahtzee_bonus, YATZY.yahtzee_bonus) == (100, 0)
    assert scoring("yahtzee", boxes=("aces", "chance")).yahtzee_bonus == 0
    assert (YAHTZEE.yahtzee_box, YATZY.yahtzee_box) == (11, -1)
    assert (YAHTZEE.name, YATZY.name, KTH.name) == (
        "Yahtzee",
        "Yatzy",
        "Yatzy (kth-2012 scoring)",
    )
    assert VARIANTS == {"yahtzee": ("standard",), "yatzy": ("standard", "kth-2012")}


# ---------------------------------------------------------------------------
# Yahtzee: every box
# ---------------------------------------------------------------------------
YAHTZEE_CARDS = {
    # A full house: 25 whatever its faces; also three of a kind (the sum of all dice).
    (2, 2, 3, 3, 3): dict(aces=0, twos=4, threes=9, fours=0, fives=0, sixes=0,
                          **{"three of a kind": 13, "four of a kind": 0, "full house": 25,
                             "small straight": 0, "large straight": 0, "yahtzee": 0,
                             "chance": 13}),
    # Four of a kind is also three of a kind; both score all five dice (4 + 4 + 4 + 4 + 2).
    (2, 4, 4, 4, 4): dict(aces=0, twos=2, threes=0, fours=16, fives=0, sixes=0,
                          **{"three of a kind": 18, "four of a kind": 18, "full house": 0,
                             "small straight": 0, "large straight": 0, "yahtzee": 0,
                             "chance": 18}),
    # Four in a row (1-2-3-4) is a small straight; not five in a row.
    (1, 2, 3, 4, 6): dict(aces=1, twos=2, threes=3, fours=4, fives=0, sixes=6,
                          **{"three of a kind": 0, "four of a kind": 0, "full house": 0,
                             "small straight": 30, "large straight": 0, "yahtzee": 0,
                             "chance": 16}),
    # A small straight may hold a pair (3-4-5-6 and another 6).
    (3, 4, 5, 6, 6): dict(aces=0, twos=0, threes=3, fours=4, fives=5, sixes=12,
                          **{"three of a kind": 0, "four of a kind": 0, "full house": 0,
                             "small straight": 30, "large straight": 0, "yahtzee": 0,
                             "chance": 24}),
    # Five in a row is a large straight and a small one too.
    (2, 3, 4, 5, 6): dict(aces=0, twos=2, threes=3, fours=4, fives=5, sixes=6,
                          **{"three of a kind": 0, "four of a kind": 0, "full house": 0,
                             "small straight": 30, "large straight": 40, "yahtzee": 0,
                             "chance": 20}),
    # 1-2-3-5-6 has no four in a row: no straight at all.
    (1, 2, 3, 5, 6): dict(aces=1, twos=2, threes=3, fours=0, fives=5, sixes=6,
                          **{"three of a kind": 0, "four of a kind": 0, "full house": 0,
                             "small straight": 0, "large straight": 0, "yahtzee": 0,
                             "chance": 17}),
    # Two pairs are nothing special in Yahtzee (only the upper boxes and chance).
    (1, 1, 5, 5, 6): dict(aces=2, twos=0, threes=0, fours=0, fives=10, sixes=6,
                          **{"three of a kind": 0, "four of a kind": 0, "full house": 0,
                             "small straight": 0, "large straight": 0, "yahtzee": 0,
                             "chance": 18}),
}  # fmt: skip


@pytest.mark.parametrize("faces", list(YAHTZEE_CARDS))
def test_yahtzee_every_box(faces):
    assert card(YAHTZEE, faces) == YAHTZEE_CARDS[faces]


@pytest.mark.parametrize("face", range(1, 7))
def test_a_yahtzee_in_each_box(face):
    faces = (face,) * 5
    plain = card(YAHTZEE, faces)
    upper = {box: (5 * face if i + 1 == face else 0) for i, box in enumerate(YAHTZEE_BOXES[:6])}
    # Plainly, five of a kind is three and four of a kind (the sum), chance and Yahtzee;
    # it is not a full house (not "three of one face and two of another") nor a straight.
    assert plain == {
        **upper,
        "three of a kind": 5 * face,
        "four of a kind": 5 * face,
        "full house": 0,
        "small straight": 0,
        "large straight": 0,
        "yahtzee": 50,
        "chance": 5 * face,
    }
    # As a joker, full house and the straights count in full (25, 30, 40); the rest as usual.
    assert card(YAHTZEE, faces, joker=True) == {
        **plain,
        "full house": 25,
        "small straight": 30,
        "large straight": 40,
    }


def test_joker_table_only_changes_full_house_and_straights():
    # The solver reads the joker table for five of a kind only; its columns for full house
    # and the straights hold the full values, every other column is the plain table's.
    changed = YAHTZEE.joker_table != YAHTZEE.table
    columns = [YAHTZEE.boxes[b] for b in np.flatnonzero(changed.any(axis=0))]
    assert columns == ["full house", "small straight", "large straight"]
    # Yatzy has no joker: its joker table is its table.
    assert np.array_equal(YATZY.joker_table, YATZY.table)


# ---------------------------------------------------------------------------
# Yatzy: every box
# ---------------------------------------------------------------------------
YATZY_CARDS = {
    # Two pairs of different faces: one pair takes the higher (5 + 5), two pairs both
    # (2 + 2 + 5 + 5); there is no three of a kind.
    (2, 2, 5, 5, 6): dict(ones=0, twos=4, threes=0, fours=0, fives=10, sixes=6,
                          **{"one pair": 10, "two pairs": 14, "three of a kind": 0,
                             "four of a kind": 0, "small straight": 0, "large straight": 0,
                             "full house": 0, "chance": 20, "yatzy": 0}),
    # A full house scores the sum of all dice (2+2+2+5+5); the three 2s also give a pair
    # of 2s, so two pairs is 4 + 10; three of a kind counts only its three dice.
    (2, 2, 2, 5, 5): dict(ones=0, twos=6, threes=0, fours=0, fives=10, sixes=0,
                          **{"one pair": 10, "two pairs": 14, "three of a kind": 6,
                             "four of a kind": 0, "small straight": 0, "large straight": 0,
                             "full house": 16, "chance": 16, "yatzy": 0}),
    # The other way round (three 5s, two 2s): the same sum, a different three of a kind.
    (2, 2, 5, 5, 5): dict(ones=0, twos=4, threes=0, fours=0, fives=15, sixes=0,
                          **{"one pair": 10, "two pairs": 14, "three of a kind": 15,
                             "four of a kind": 0, "small straight": 0, "large straight": 0,
                             "full house": 19, "chance": 19, "yatzy": 0}),
    # Four 3s: pair 6, three 9, four 12 (only the dice that form them); four of one face
    # are not two pairs (the faces must differ).
    (3, 3, 3, 3, 5): dict(ones=0, twos=0, threes=12, fours=0, fives=5, sixes=0,
                          **{"one pair": 6, "two pairs": 0, "three of a kind": 9,
                             "four of a kind": 12, "small straight": 0, "large straight": 0,
                             "full house": 0, "chance": 17, "yatzy": 0}),
    # A single pair: one pair only.
    (1, 2, 2, 4, 5): dict(ones=1, twos=4, threes=0, fours=4, fives=5, sixes=0,
                          **{"one pair": 4, "two pairs": 0, "three of a kind": 0,
                             "four of a kind": 0, "small straight": 0, "large straight": 0,
                             "full house": 0, "chance": 14, "yatzy": 0}),
    # The small straight is exactly 1-2-3-4-5, for 15.
    (1, 2, 3, 4, 5): dict(ones=1, twos=2, threes=3, fours=4, fives=5, sixes=0,
                          **{"one pair": 0, "two pairs": 0, "three of a kind": 0,
                             "four of a kind": 0, "small straight": 15, "large straight": 0,
                             "full house": 0, "chance": 15, "yatzy": 0}),
    # The large straight is exactly 2-3-4-5-6, for 20.
    (2, 3, 4, 5, 6): dict(ones=0, twos=2, threes=3, fours=4, fives=5, sixes=6,
                          **{"one pair": 0, "two pairs": 0, "three of a kind": 0,
                             "four of a kind": 0, "small straight": 0, "large straight": 20,
                             "full house": 0, "chance": 20, "yatzy": 0}),
    # Four in a row is no straight in Yatzy (Yahtzee would give 30 here).
    (1, 2, 3, 4, 6): dict(ones=1, twos=2, threes=3, fours=4, fives=0, sixes=6,
                          **{"one pair": 0, "two pairs": 0, "three of a kind": 0,
                             "four of a kind": 0, "small straight": 0, "large straight": 0,
                             "full house": 0, "chance": 16, "yatzy": 0}),
}  # fmt: skip


@pytest.mark.parametrize("faces", list(YATZY_CARDS))
def test_yatzy_every_box(faces):
    assert card(YATZY, faces) == YATZY_CARDS[faces]


@pytest.mark.parametrize("face", range(1, 7))
def test_a_yatzy_in_each_box(face):
    faces = (face,) * 5
    upper = {box: (5 * face if i + 1 == face else 0) for i, box in enumerate(YATZY_BOXES[:6])}
    # Five of a kind holds a pair, three and four of a kind (2, 3 and 4 of its dice), but
    # not two pairs (one face) nor a full house (not three of one face and two of another).
    assert card(YATZY, faces) == {
        **upper,
        "one pair": 2 * face,
        "two pairs": 0,
        "three of a kind": 3 * face,
        "four of a kind": 4 * face,
        "small straight": 0,
        "large straight": 0,
        "full house": 0,
        "chance": 5 * face,
        "yatzy": 50,
    }


# ---------------------------------------------------------------------------
# Yatzy as Larsson and Sjöberg's 2012 program scores it
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("faces", "two_pairs"),
    [
        ((1, 2, 2, 4, 5), 4),  # a single pair of 2s: twice the pair, plus no second pair
        ((3, 3, 3, 3, 5), 6),  # four 3s: one pair of 3s
        ((6, 6, 6, 6, 6), 12),  # a Yatzy of 6s: one pair of 6s
        ((2, 2, 5, 5, 6), 14),  # two real pairs: as in the stated rules
        ((2, 2, 2, 5, 5), 14),  # a full house: as in the stated rules
        ((1, 2, 3, 4, 6), 0),  # no pair at all: 0
    ],
)
def test_kth_2012_two_pairs(faces, two_pairs):
    assert KTH.score(faces, "two pairs") == two_pairs
    # Every other box is scored as the stated rules score it.
    others = {b: s for b, s in card(KTH, faces).items() if b != "two pairs"}
    assert others == {b: s for b, s in card(YATZY, faces).items() if b != "two pairs"}


def test_kth_2012_differs_only_in_two_pairs_of_one_pair_throws():
    diff = np.argwhere(KTH.table != YATZY.table)
    assert {YATZY.boxes[b] for _, b in diff} == {"two pairs"}
    # Exactly the throws with a pair but not two pairs of different faces change.
    changed = {multisets(5)[t] for t, _ in diff}
    expected = {
        faces for faces in multisets(5) if sum(faces.count(f) >= 2 for f in range(1, 7)) == 1
    }
    assert changed == expected
    # As multisets: a pair and three other faces, 6 x C(5, 3); three of a kind and two
    # other faces, 6 x C(5, 2); four of a kind and another face, 6 x 5; five of a kind, 6.
    assert len(changed) == 6 * 10 + 6 * 10 + 6 * 5 + 6 == 156
    assert KTH.boxes == YATZY.boxes and KTH.upper_bonus == YATZY.upper_bonus


# ---------------------------------------------------------------------------
# Chances of each pattern in one throw, counted over all 6^5 ordered throws
# ---------------------------------------------------------------------------
def chance(rules, box) -> Fraction:
    row = {faces: i for i, faces in enumerate(multisets(5))}
    b = rules.boxes.index(box)
    hits = sum(
        rules.table[row[tuple(sorted(throw))], b] > 0 for throw in product(range(1, 7), repeat=5)
    )
    return Fraction(int(hits), 6**5)


@pytest.mark.parametrize(
    ("rules", "box", "ways"),
    [
        # Six faces, once each.
        (YAHTZEE, "yahtzee", 6),
        # 6 x 5 ordered face pairs (three of one, two of the other) x C(5, 2) placements.
        (YAHTZEE, "full house", 300),
        # 1-2-3-4-5 or 2-3-4-5-6, each in 5! orders.
        (YAHTZEE, "large straight", 240),
        # 1-2-3-4, 2-3-4-5 or 3-4-5-6 among the five dice (the large straights included).
        (YAHTZEE, "small straight", 1200),
        # Four of one face and one other (6 x 5 x 5), or five of a kind (6).
        (YAHTZEE, "four of a kind", 156),
        # Three exactly: 6 x C(5, 3) x (5 x 4 singles + 5 pairs) = 1500; plus the above.
        (YAHTZEE, "three of a kind", 1500 + 156),
        # Yatzy's straights are one set of faces each: 5! orders.
        (YATZY, "small straight", 120),
        (YATZY, "large straight", 120),
        # Two pairs and a single: C(6, 2) x 4 x 5!/(2! 2!) = 1800; or a full house, 300.
        (YATZY, "two pairs", 2100),
        # Any pair at all: every throw but the 6!/1! = 720 with five different faces.
        (KTH, "two pairs", 6**5 - 720),
        (YATZY, "one pair", 6**5 - 720),
        (YATZY, "full house", 300),
        (YATZY, "yatzy", 6),
    ],
)
def test_pattern_chances(rules, box, ways):
    assert chance(rules, box) == Fraction(ways, 6**5)


# ---------------------------------------------------------------------------
# Smaller games and bad input
# ---------------------------------------------------------------------------
def test_fewer_dice_and_boxes():
    three = scoring("yatzy", boxes=("two pairs", "yatzy", "fives"), dice=3)
    assert three.boxes == ("fives", "two pairs", "yatzy")  # the rule set's order
    assert three.table.shape == (56, 3)  # C(8, 3) throws of three dice
    # Three dice cannot hold two different pairs; five of a kind means all three dice.
    assert three.score((5, 5, 5), "yatzy") == 50
    assert three.score((5, 5, 5), "fives") == 15
    assert int(three.table[:, 1].max()) == 0
    kth = scoring("yatzy", boxes=("two pairs",), dice=3, variant="kth-2012")
    assert kth.score((4, 4, 1), "two pairs") == 8


def test_bad_input():
    with pytest.raises(UnknownNameError, match="unknown yatzy variant 'lenient'"):
        scoring("yatzy", variant="lenient")
    with pytest.raises(UnknownNameError, match="unknown yahtzee variant 'kth-2012'"):
        scoring("yahtzee", variant="kth-2012")
    with pytest.raises(UnknownNameError, match="unknown rules"):
        scoring("yacht")
    with pytest.raises(UnknownNameError, match="unknown box 'one pair'"):
        scoring("yahtzee", boxes=("one pair",))
    with pytest.raises(UnknownNameError, match="unknown joker"):
        scoring("yahtzee", joker="wild")
    with pytest.raises(InvalidArgumentError, match="dice must be 1 to 5"):
        scoring("yatzy", dice=6)
    with pytest.raises(InvalidArgumentError, match="not a throw of 5 dice"):
        YATZY.score((1, 2, 3), "chance")
    with pytest.raises(UnknownNameError, match="unknown box 'aces'"):
        YATZY.score((1, 1, 1, 1, 1), "aces")


# ---------------------------------------------------------------------------
# The full-size optimum of the 2012 program's scoring: Larsson and Sjöberg's figure
# ---------------------------------------------------------------------------
@pytest.mark.slow
def test_kth_2012_reproduces_the_published_248_63():
    from gamegraph.games.yahtzee.solver import solve_values

    value = solve_values(KTH).start_value
    assert round(value, 2) == 248.63  # Larsson & Sjöberg 2012, "Optimal Yatzy strategy"
    # Another public solver, given the same scoring, publishes 248.6328539121.
    assert value == pytest.approx(248.6328539121, abs=1e-9)
