"""The two rule sets' boxes and what each throw scores in each box.

Both games: five six-sided dice, a turn of one throw and up to two throws again of any
dice, then the dice scored in one open box (a box may take 0); the game ends when every
box is filled. The upper boxes (one per face) score the dice showing their face, and
their total earns a bonus once it reaches 63.

**Yahtzee** (the standard rules, as Hasbro's rule sheet states them and as Verhoeff
1999 and Glenn 2006 model them; see docs/games/yahtzee.md): 13 boxes. Lower boxes: three
and four of a kind (the sum of all dice), full house 25 (three of one face and two of
another), small straight 30 (four in a row), large straight 40 (five in a row), Yahtzee
50 (five of a kind), chance (the sum). Upper bonus 35. Each further Yahtzee scores 100
more while the Yahtzee box holds 50. A further Yahtzee with the Yahtzee box filled (50 or
0) is a *joker*, under one of two readings (``joker=``):

* ``"free"`` (the default; Verhoeff's Optimal Solitaire Yahtzee Player, whose optimum
  254.5896 is the published figure): it may go in any open box, and full house and the
  straights count in full when its own upper box is filled;
* ``"forced"`` (Hasbro's rule sheet): it must go in its own upper box if that is open;
  else in any open lower box, where full house and the straights count in full; else in
  any open upper box, for 0. The optimum is then 254.5877.

**Yatzy** (Scandinavian, as Larsson and Sjöberg 2012 state the rules): 15 boxes. Lower
boxes: one pair, two pairs (of different faces), three and four of a kind (each the sum
of the dice that form it), small straight 1-2-3-4-5 = 15, large straight 2-3-4-5-6 = 20,
full house (three of one face and two of another: the sum of all dice), chance (the
sum), Yatzy 50. Upper bonus 50. No bonus Yatzy, no joker. The optimum is 248.4400.

Larsson and Sjöberg publish 248.63, because their program (the Java code published with
the thesis, ``ScoreCard.scorePair``) scores two pairs differently from their rules: a
throw with a single pair (or a single face of four or five) scores that pair in two
pairs. ``variant="kth-2012"`` plays Yatzy with that scoring, whose optimum, 248.6329,
is the published figure; ``variant="standard"`` (the default) is the rules as stated.
See docs/games/yahtzee.md.

A :class:`Scoring` holds one rule set for any number of dice and any subset of its
boxes (the small versions the tests solve both ways): the score of every throw in every
box as one integer table.

Examples
--------
>>> yahtzee = scoring("yahtzee")
>>> yahtzee.score((2, 2, 3, 3, 3), "full house"), yahtzee.score((1, 2, 3, 4, 6), "small straight")
(25, 30)
>>> yatzy = scoring("yatzy")
>>> yatzy.score((2, 2, 5, 5, 6), "two pairs"), yatzy.score((6, 6, 6, 6, 6), "full house")
(14, 0)
>>> yatzy.score((1, 2, 2, 4, 5), "two pairs"), scoring("yatzy", variant="kth-2012").score(
...     (1, 2, 2, 4, 5), "two pairs")
(0, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...errors import InvalidArgumentError, UnknownNameError
from .dice import FACES, multisets

RULESETS = ("yahtzee", "yatzy")

UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")
YAHTZEE_LOWER = (
    "three of a kind",
    "four of a kind",
    "full house",
    "small straight",
    "large straight",
    "yahtzee",
    "chance",
)
YATZY_UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
YATZY_LOWER = (
    "one pair",
    "two pairs",
    "three of a kind",
    "four of a kind",
    "small straight",
    "large straight",
    "full house",
    "chance",
    "yatzy",
)

#: The upper total that earns the bonus, in both games.
BONUS_THRESHOLD = 63


def _runs(counts) -> int:
    """The longest run of consecutive faces present."""
    best = run = 0
    for c in counts:
        run = run + 1 if c else 0
        best = max(best, run)
    return best


def _yahtzee_box(name: str, counts, total: int, dice: int, variant: str = "standard") -> int:
    if name in UPPER:
        face = UPPER.index(name) + 1
        return counts[face - 1] * face
    most = max(counts)
    shape = sorted(c for c in counts if c)
    if name == "three of a kind":
        return total if most >= 3 else 0
    if name == "four of a kind":
        return total if most >= 4 else 0
    if name == "full house":
        return 25 if shape == [2, 3] else 0
    if name == "small straight":
        return 30 if _runs(counts) >= 4 else 0
    if name == "large straight":
        return 40 if _runs(counts) >= 5 else 0
    if name == "yahtzee":
        return 50 if most == dice else 0
    return total  # chance


def _yatzy_box(name: str, counts, total: int, dice: int, variant: str = "standard") -> int:
    if name in YATZY_UPPER:
        face = YATZY_UPPER.index(name) + 1
        return counts[face - 1] * face
    pairs = [f for f in range(FACES, 0, -1) if counts[f - 1] >= 2]
    if name == "one pair":
        return 2 * pairs[0] if pairs else 0
    if name == "two pairs":
        if variant == "kth-2012":  # the highest pair, plus the next pair if there is one
            return 2 * sum(pairs[:2])
        return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
    if name in ("three of a kind", "four of a kind"):
        n = 3 if name == "three of a kind" else 4
        faces = [f for f in range(FACES, 0, -1) if counts[f - 1] >= n]
        return n * faces[0] if faces else 0
    if name == "small straight":
        return 15 if list(counts) == [1, 1, 1, 1, 1, 0] else 0
    if name == "large straight":
        return 20 if list(counts) == [0, 1, 1, 1, 1, 1] else 0
    if name == "full house":
        return total if sorted(c for c in counts if c) == [2, 3] else 0
    if name == "yatzy":
        return 50 if max(counts) == dice else 0
    return total  # chance


#: Each rule set's scoring variants (``scoring(variant=)``); the first is the default.
#: ``"kth-2012"``: Yatzy as Larsson and Sjöberg's 2012 program scores it (two pairs
#: also takes a single pair), the rules behind their published 248.63.
VARIANTS = {"yahtzee": ("standard",), "yatzy": ("standard", "kth-2012")}

#: Full house and the straights scored by a joker (a further Yahtzee), in Yahtzee.
JOKER_FULL_VALUE = {"full house": 25, "small straight": 30, "large straight": 40}


@dataclass(frozen=True)
class Scoring:
    """One rule set, for ``dice`` dice and the boxes ``boxes`` (default: all of them).

    Attributes
    ----------
    ruleset : {"yahtzee", "yatzy"}
    boxes : tuple of str
        The boxes in play, in the rule set's order.
    dice : int
    upper_bonus : int
        35 (Yahtzee) or 50 (Yatzy), when the upper boxes in play total 63 or more.
    yahtzee_bonus : int
        100 for each further Yahtzee while the Yahtzee box holds 50 (Yahtzee only, with
        its joker rule); 0 for Yatzy.
    joker : {"free", "forced"}
        How Yahtzee places a joker (see the module docstring); no effect in Yatzy.
    variant : str
        ``"standard"`` (the rules as stated), or for Yatzy ``"kth-2012"`` (two pairs
        scored as Larsson and Sjöberg's program scores it; see :data:`VARIANTS`).
    """

    ruleset: str
    boxes: tuple
    dice: int = 5
    joker: str = "free"
    variant: str = "standard"
    upper_bonus: int = field(init=False)
    yahtzee_bonus: int = field(init=False)

    def __post_init__(self):
        yahtzee = self.ruleset == "yahtzee"
        object.__setattr__(self, "upper_bonus", 35 if yahtzee else 50)
        has_box = "yahtzee" in self.boxes
        object.__setattr__(self, "yahtzee_bonus", 100 if yahtzee and has_box else 0)

    @property
    def name(self) -> str:
        if self.ruleset == "yahtzee":
            return "Yahtzee"
        return "Yatzy" if self.variant == "standard" else f"Yatzy ({self.variant} scoring)"

    @cached_property
    def upper(self) -> np.ndarray:
        """Per box, its face (1..6) if it is an upper box, else 0."""
        names = UPPER if self.ruleset == "yahtzee" else YATZY_UPPER
        return np.array(
            [names.index(b) + 1 if b in names else 0 for b in self.boxes], dtype=np.int64
        )

    @cached_property
    def table(self) -> np.ndarray:
        """The score of every throw (:func:`~gamegraph.games.yahtzee.dice.multisets`
        order) in every box: shape (throws, boxes), int64.
        """
        box = _yahtzee_box if self.ruleset == "yahtzee" else _yatzy_box
        throws = multisets(self.dice)
        out = np.zeros((len(throws), len(self.boxes)), dtype=np.int64)
        for i, faces in enumerate(throws):
            counts = [faces.count(f) for f in range(1, FACES + 1)]
            for b, name in enumerate(self.boxes):
                out[i, b] = box(name, counts, sum(faces), self.dice, self.variant)
        return out

    @cached_property
    def joker_table(self) -> np.ndarray:
        """Yahtzee's joker scores: every throw in every box as a joker would score it
        (full house and straights in full, the rest as usual); the same as :attr:`table`
        for Yatzy. Used only for throws of five of a kind.
        """
        out = self.table.copy()
        if self.ruleset == "yahtzee":
            for b, name in enumerate(self.boxes):
                if name in JOKER_FULL_VALUE:
                    out[:, b] = JOKER_FULL_VALUE[name]
        return out

    @cached_property
    def yahtzee_box(self) -> int:
        """The Yahtzee box's number, or -1 (not in play, or Yatzy: no joker, no bonus)."""
        if self.ruleset == "yahtzee" and "yahtzee" in self.boxes:
            return self.boxes.index("yahtzee")
        return -1

    def score(self, faces, box: str) -> int:
        """What the dice ``faces`` score in ``box`` (the plain score, no joker or bonus)."""
        throws = multisets(self.dice)
        try:
            i = throws.index(tuple(sorted(faces)))
        except ValueError:
            raise InvalidArgumentError(f"{faces!r} is not a throw of {self.dice} dice") from None
        if box not in self.boxes:
            raise UnknownNameError("box", box, self.boxes)
        return int(self.table[i, self.boxes.index(box)])


JOKERS = ("free", "forced")


def scoring(
    ruleset: str = "yahtzee", *, boxes=None, dice: int = 5, joker="free", variant="standard"
) -> Scoring:
    """The :class:`Scoring` of ``ruleset``, with every box unless ``boxes`` names some.

    ``variant`` picks one of the rule set's :data:`VARIANTS` (``"kth-2012"``: Yatzy
    scored as Larsson and Sjöberg's program scores it).

    >>> scoring("yatzy").boxes[:7]
    ('ones', 'twos', 'threes', 'fours', 'fives', 'sixes', 'one pair')
    >>> scoring("yahtzee", boxes=("sixes", "yahtzee"), dice=3).table.shape
    (56, 2)
    """
    if ruleset not in RULESETS:
        raise UnknownNameError("rules", ruleset, RULESETS)
    every = UPPER + YAHTZEE_LOWER if ruleset == "yahtzee" else YATZY_UPPER + YATZY_LOWER
    if boxes is None:
        boxes = every
    unknown = [b for b in boxes if b not in every]
    if unknown:
        raise UnknownNameError("box", unknown[0], every)
    if not isinstance(dice, int) or not 1 <= dice <= 5:
        raise InvalidArgumentError(f"dice must be 1 to 5, got {dice!r}")
    if joker not in JOKERS:
        raise UnknownNameError("joker", joker, JOKERS)
    if variant not in VARIANTS[ruleset]:
        raise UnknownNameError(f"{ruleset} variant", variant, VARIANTS[ruleset])
    return Scoring(ruleset, tuple(b for b in every if b in boxes), dice, joker, variant)
