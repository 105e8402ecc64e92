"""Advice from a solved table: the best keep or box for a card, the dice and the throws left.

A turn of Yahtzee or Yatzy has three decisions: after the first throw (two throws left),
which dice to keep; after the second (one left), which to keep again; after the last (none
left), which open box to score. A solved :class:`~gamegraph.games.yahtzee.solver.ValueTable`
answers each at once: the stages of the turn's widget for the position the card is in
(:meth:`~gamegraph.games.yahtzee.solver.ValueTable.turn`, here recomputed in numpy by
:func:`turn_stages`, which answers without starting numba), and

* with throws left, the value of keeping the dice k is the widget's keep stage (K1 with two
  throws left, K2 with one): the expected score still to come when k is kept and the other
  dice are thrown, then played optimally;
* with no throws left, the value of scoring the dice in box b is what they score there,
  with the upper bonus if the upper total reaches 63 with it and, in Yahtzee, the 100 of a
  further Yahtzee while the Yahtzee box holds 50 (and its joker rule), plus the value of
  the position the card is in afterwards.

The *expected final score* of a choice is the points already on the card (its boxes, the
upper bonus if already earned, and 100 per Yahtzee bonus already scored), plus the points
the choice scores now (0 for a keep), plus the expected score still to come under optimal
play after it. The best choice's expected final score is the widget's value of the dice
(E1, E2 or E3) plus the card's points; the tests check both.

A card is written as its filled boxes and their points (``{"sixes": 18, "chance": 22}``,
or on the command line ``sixes=18,chance=22``): the upper total and whether the Yahtzee
box holds 50 follow from it. :func:`advise_position` takes those directly instead.

Examples
--------
>>> from gamegraph.games.yahtzee.scoring import scoring
>>> from gamegraph.games.yahtzee.solver import solve_values
>>> table = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=2))
>>> advice = advise(table, (6, 6), 0, {"chance": 9})
>>> print(advice.title)
Yahtzee (free joker), boxes sixes, chance, 2 dice: dice 6,6, no throws left; 1 of 2 ...
>>> for line in advice.to_text().splitlines()[1:4]:
...     print(line)
box    points  expected final score  behind the best
sixes      12               21.0000           0.0000
best: score sixes: 12 points, expected final score 21.0000
>>> advise(table, (1, 6), 1, {"chance": 9}).rows[0]  # keep the 6, throw one die
('6', 1, 16.0, 0.0)
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...errors import InvalidArgumentError, UnknownNameError
from ...tables import Table
from .dice import FACES, multisets, sub_keeps
from .scoring import BONUS_THRESHOLD, Scoring
from .solver import ValueTable
from .table_file import describe

#: The widget's row (:meth:`ValueTable.turn`) of the keeps with this many throws left,
#: and of the throw's value.
KEEP_ROW = {2: 3, 1: 1}
THROW_ROW = {2: 4, 1: 2, 0: 0}


@dataclass(frozen=True)
class Position:
    """Where a card stands between turns, as the table numbers it, and its points.

    Attributes
    ----------
    used : int
        The filled boxes, bit b for the rule set's box b.
    upper : int
        The upper boxes' total so far (not capped).
    flag : int
        1 if the Yahtzee box holds 50 (Yahtzee with its box in play), else 0.
    points : int
        Points on the card: the filled boxes, the upper bonus once earned, the Yahtzee
        bonuses scored.
    """

    used: int
    upper: int
    flag: int
    points: int


@dataclass(frozen=True)
class Alternative:
    """One choice and its expected final score.

    Attributes
    ----------
    choice : tuple or str
        The kept faces (sorted), or the box's name.
    points : int
        The points it scores now (0 for a keep; for a box, with any bonus it earns).
    expected : float
        Points on the card + ``points`` + the expected rest under optimal play.
    """

    choice: tuple | str
    points: int
    expected: float


def box_name(text: str, rules: Scoring) -> str:
    """The box ``text`` names, in any case, with ``-`` or ``_`` for spaces.

    >>> from gamegraph.games.yahtzee.scoring import scoring
    >>> box_name("Full-House", scoring("yahtzee"))
    'full house'
    """
    name = " ".join(str(text).lower().replace("-", " ").replace("_", " ").split())
    if name not in rules.boxes:
        shown = [b.replace(" ", "-") for b in rules.boxes]
        raise UnknownNameError(f"{rules.name} box", str(text).strip(), shown)
    return name


def read_card(text: str, rules: Scoring) -> dict:
    """The filled boxes of a card written ``box=points,box=points`` (``""``: an empty card).

    >>> from gamegraph.games.yahtzee.scoring import scoring
    >>> read_card("sixes=18, full-house=25", scoring("yahtzee"))
    {'sixes': 18, 'full house': 25}
    """
    filled = {}
    for item in str(text).split(","):
        if not item.strip():
            continue
        name, equals, points = item.partition("=")
        if not equals:
            raise InvalidArgumentError(
                f"card entry {item.strip()!r}: write each filled box as box=points, "
                "e.g. sixes=18,chance=22"
            )
        box = box_name(name, rules)
        points = points.strip()
        if not (points.isascii() and points.isdigit() and len(points) <= 4):
            raise InvalidArgumentError(f"{box}={points}: the points must be a whole number >= 0")
        if box in filled:
            raise InvalidArgumentError(f"the box {box} is filled twice on the card")
        filled[box] = int(points)
    return filled


def read_dice(text, rules: Scoring) -> tuple:
    """The dice showing, as sorted faces: ``"1,3,3,5,6"``, ``"13356"`` or a sequence.

    >>> from gamegraph.games.yahtzee.scoring import scoring
    >>> read_dice("6,1,3,3,5", scoring("yahtzee"))
    (1, 3, 3, 5, 6)
    """
    if isinstance(text, str):
        cleaned = text.replace(" ", ",").strip(",")
        parts = cleaned.split(",") if "," in cleaned else list(cleaned)
        faces = []
        for part in parts:
            if not part:
                continue
            if not (part.isascii() and part.isdigit() and len(part) == 1):
                raise InvalidArgumentError(
                    f"dice {text!r}: each die is a face 1 to 6, e.g. 1,3,3,5,6"
                )
            faces.append(int(part))
    else:
        faces = list(text)
    if any(not isinstance(f, numbers.Integral) or isinstance(f, bool) for f in faces):
        raise InvalidArgumentError(f"dice {text!r}: each die is a face 1 to 6")
    if any(not 1 <= f <= FACES for f in faces):
        raise InvalidArgumentError(f"dice {text!r}: each die shows 1 to 6")
    if len(faces) != rules.dice:
        raise InvalidArgumentError(
            f"dice {text!r}: {len(faces)} dice where {rules.name} here throws {rules.dice}"
        )
    return tuple(sorted(int(f) for f in faces))


def card_position(rules: Scoring, filled: Mapping, yahtzee_bonuses: int = 0) -> Position:
    """The :class:`Position` of a card whose boxes ``filled`` (name -> points) are filled
    and on which ``yahtzee_bonuses`` Yahtzee bonuses (100 each) were scored.

    Each box's points must be a score that box can take.

    >>> from gamegraph.games.yahtzee.scoring import scoring
    >>> card_position(scoring("yahtzee"), {"sixes": 24, "fives": 20, "fours": 20, "yahtzee": 50})
    Position(used=2104, upper=64, flag=1, points=149)
    """
    used = upper = points = 0
    for name, value in filled.items():
        box = box_name(name, rules)
        b = rules.boxes.index(box)
        if used >> b & 1:
            raise InvalidArgumentError(f"the box {box} is filled twice on the card")
        allowed = set(rules.table[:, b].tolist()) | set(rules.joker_table[:, b].tolist())
        if (
            not isinstance(value, numbers.Integral)
            or isinstance(value, bool)
            or int(value) not in allowed
        ):
            shown = ", ".join(map(str, sorted(allowed)))
            raise InvalidArgumentError(f"{box}={value}: {box} scores one of {shown}")
        used |= 1 << b
        points += int(value)
        if rules.upper[b]:
            upper += int(value)
    if upper >= BONUS_THRESHOLD:
        points += rules.upper_bonus
    flag = int(rules.yahtzee_box >= 0 and filled_points(filled, rules, "yahtzee") == 50)
    if (
        not isinstance(yahtzee_bonuses, numbers.Integral)
        or isinstance(yahtzee_bonuses, bool)
        or yahtzee_bonuses < 0
    ):
        raise InvalidArgumentError(f"yahtzee bonuses: a whole number >= 0, got {yahtzee_bonuses!r}")
    if yahtzee_bonuses:
        if not flag:
            raise InvalidArgumentError(
                "Yahtzee bonuses are scored only while the Yahtzee box holds 50 "
                "(fill it with yahtzee=50)"
            )
        if yahtzee_bonuses > len(filled) - 1:
            raise InvalidArgumentError(
                f"{yahtzee_bonuses} Yahtzee bonuses on a card with {len(filled) - 1} other "
                "boxes filled: each bonus Yahtzee fills a box"
            )
        points += rules.yahtzee_bonus * int(yahtzee_bonuses)
    return Position(used, upper, flag, points)


def filled_points(filled: Mapping, rules: Scoring, box: str):
    """The points of ``box`` on the card ``filled`` (names as :func:`box_name` reads
    them), or None if it is open.
    """
    for name, value in filled.items():
        if box_name(name, rules) == box:
            return value
    return None


def _throw_index(faces: tuple, rules: Scoring) -> int:
    return multisets(rules.dice).index(faces)


def box_alternatives(
    table: ValueTable, position: Position, faces: tuple, *, rest_only: bool = False
) -> list[Alternative]:
    """Every open box the dice ``faces`` may be scored in, with the points it scores now
    (bonuses included) and the expected final score, best first (``rest_only``: without
    the points on the card, as the solver counts).

    The same rules as the solver's last stage (:mod:`~gamegraph.games.yahtzee.solver`):
    the upper bonus when the upper total reaches 63, and in Yahtzee a further Yahtzee
    (five of a kind with the Yahtzee box filled) as a joker, worth 100 more while the
    Yahtzee box holds 50.
    """
    rules = table.scoring
    t = _throw_index(faces, rules)
    used, upper, flag = position.used, min(position.upper, BONUS_THRESHOLD), position.flag
    n_boxes = len(rules.boxes)
    ybox = rules.yahtzee_box
    is_joker = len(set(faces)) == 1 and ybox >= 0 and bool(used >> ybox & 1)
    bonus = rules.yahtzee_bonus if is_joker and flag else 0
    own_open = False  # a joker's own upper box is open
    if is_joker:
        own = [b for b in range(n_boxes) if rules.upper[b] == faces[0]]
        own_open = bool(own) and not used >> own[0] & 1
    lower_open = any(not rules.upper[b] and not used >> b & 1 for b in range(n_boxes))
    full = is_joker and not own_open  # full house and straights count in full
    found = []
    for b, name in enumerate(rules.boxes):
        if used >> b & 1:
            continue
        if is_joker and rules.joker == "forced":
            if own_open and rules.upper[b] != faces[0]:
                continue  # forced into its own upper box
            if not own_open and lower_open and rules.upper[b]:
                continue  # else a lower box while one is open
        score = int((rules.joker_table if full else rules.table)[t, b])
        points, new_upper, new_flag = score + bonus, upper, flag
        if rules.upper[b]:
            new_upper = min(upper + score, BONUS_THRESHOLD)
            if upper < BONUS_THRESHOLD <= upper + score:
                points += rules.upper_bonus
        if b == ybox and score > 0:
            new_flag = 1
        if table.flags == 1:
            new_flag = 0
        rest = float(table.values[table.index(used | 1 << b, new_upper, new_flag)])
        before = 0 if rest_only else position.points
        found.append(Alternative(name, points, before + points + rest))
    return sorted(found, key=lambda a: -a.expected)


def turn_stages(table: ValueTable, position: Position):
    """The stages of the position's turn, as :meth:`ValueTable.turn` gives them (rows E3,
    K2, E2, K1, E1; throws or keeps by column), computed with numpy.

    The last stage is :func:`box_alternatives` for each of the throws; the keeps and the
    throws again are sums and maxima over the dice tables the solver reads. The same
    numbers as :meth:`ValueTable.turn` (the tests check it), without starting numba: the
    compiled kernel's start-up alone (half a second or more) would take most of the one
    second an answer may take.
    """
    rules = table.scoring
    arrays = table._tables
    throws = multisets(rules.dice)
    n_throws, n_keeps = len(throws), len(arrays.k_ptr) - 1
    e = np.array([box_alternatives(table, position, t, rest_only=True)[0].expected for t in throws])
    stages = np.full((5, max(n_throws, n_keeps)), np.nan)
    stages[0, :n_throws] = e
    for r in range(2):
        keep = np.add.reduceat(arrays.k_prob * e[arrays.k_throw], arrays.k_ptr[:-1])
        e = np.maximum.reduceat(keep[arrays.s_keep], arrays.s_ptr[:-1])
        stages[1 + 2 * r, :n_keeps] = keep
        stages[2 + 2 * r, :n_throws] = e
    return stages


def keep_alternatives(
    table: ValueTable, position: Position, faces: tuple, throws_left: int, stages=None
) -> list[Alternative]:
    """Every distinct keep of the dice ``faces`` with ``throws_left`` (1 or 2) throws
    left, with its expected final score, best first (the turn's keep stage, from
    ``stages`` if given, else :func:`turn_stages`).
    """
    rules = table.scoring
    if stages is None:
        stages = turn_stages(table, position)
    keeps = multisets(0, rules.dice)
    ptr, keep = sub_keeps(rules.dice)
    t = _throw_index(faces, rules)
    row = stages[KEEP_ROW[throws_left]]
    found = [
        Alternative(keeps[k], 0, position.points + float(row[k]))
        for k in keep[ptr[t] : ptr[t + 1]].tolist()
    ]
    return sorted(found, key=lambda a: (-a.expected, -len(a.choice)))


def _check_throws_left(throws_left) -> int:
    if (
        not isinstance(throws_left, numbers.Integral)
        or isinstance(throws_left, bool)
        or not 0 <= throws_left <= 2
    ):
        raise InvalidArgumentError(f"throws left must be 0, 1 or 2, got {throws_left!r}")
    return int(throws_left)


def alternatives(
    table: ValueTable, position: Position, dice, throws_left: int
) -> list[Alternative]:
    """Every choice of the turn's decision, best first: the keeps with throws left, the
    open boxes without (:func:`keep_alternatives`, :func:`box_alternatives`).
    """
    rules = table.scoring
    throws_left = _check_throws_left(throws_left)
    faces = read_dice(dice, rules)
    if position.used == (1 << len(rules.boxes)) - 1:
        raise InvalidArgumentError("every box is filled: the game is over")
    if throws_left == 0:
        return box_alternatives(table, position, faces)
    return keep_alternatives(table, position, faces, throws_left)


def _keep_text(faces: tuple, dice: int) -> str:
    if not faces:
        return "none"
    shown = ",".join(map(str, faces))
    return f"{shown} (all)" if len(faces) == dice else shown


def advice_table(
    table: ValueTable, position: Position, dice, throws_left: int, *, filled: int | None = None
) -> Table:
    """The alternatives of :func:`alternatives` as a :class:`~gamegraph.tables.Table`:
    every choice, its expected final score and how far it is behind the best.
    """
    rules = table.scoring
    found = alternatives(table, position, dice, throws_left)
    faces = read_dice(dice, rules)
    best = found[0].expected
    four = "{:.4f}".format
    formats = {"expected final score": four, "behind the best": four}
    if throws_left:
        columns = ("keep", "dice thrown", "expected final score", "behind the best")
        rows = [
            (_keep_text(a.choice, rules.dice), rules.dice - len(a.choice), a.expected,
             best - a.expected)
            for a in found
        ]  # fmt: skip
        verdict = f"keep {_keep_text(found[0].choice, rules.dice)}"
    else:
        columns = ("box", "points", "expected final score", "behind the best")
        rows = [(a.choice, a.points, a.expected, best - a.expected) for a in found]
        verdict = f"score {found[0].choice}: {found[0].points} points"
    count = bin(position.used).count("1") if filled is None else filled
    left = {0: "no throws left", 1: "1 throw left", 2: "2 throws left"}[throws_left]
    notes = [f"best: {verdict}, expected final score {best:.4f}"]
    if len(found) > 1 and found[1].expected == best:
        notes.append("(a tie: the first listed is shown as best)")
    notes.append(
        "expected final score = points on the card + points scored now "
        "+ expected rest under optimal play"
    )
    title = (
        f"{describe(rules)}: dice {','.join(map(str, faces))}, {left}; {count} of "
        f"{len(rules.boxes)} boxes filled, upper total {position.upper}, "
        f"{position.points} points on the card"
    )
    return Table(columns, rows, title=title, notes=notes, formats=formats)


def advise(
    table: ValueTable, dice, throws_left: int, card=None, *, yahtzee_bonuses: int = 0
) -> Table:
    """The best keep (throws left) or box (none left) and the expected final score of every
    alternative, best first.

    Parameters
    ----------
    table : ValueTable
        A solved table (:func:`~gamegraph.games.yahtzee.solver.solve_values`, or
        :func:`~gamegraph.games.yahtzee.table_file.load_table`).
    dice : str or sequence of int
        The dice showing: ``"1,3,3,5,6"``, ``"13356"`` or ``(1, 3, 3, 5, 6)``.
    throws_left : {0, 1, 2}
    card : mapping or str, optional
        The filled boxes and their points, ``{"sixes": 18}`` or ``"sixes=18,chance=22"``
        (default: an empty card).
    yahtzee_bonuses : int
        Yahtzee bonuses (100 each) already scored.

    Returns
    -------
    Table
        One row per distinct keep (or open box): the choice, the dice thrown again (or the
        points scored now), the expected final score and how far it is behind the best.
    """
    if not isinstance(table, ValueTable):
        raise InvalidArgumentError(f"table must be a ValueTable, got {type(table).__name__}")
    rules = table.scoring
    if card is None:
        card = {}
    if isinstance(card, str):
        card = read_card(card, rules)
    if not isinstance(card, Mapping):
        raise InvalidArgumentError(f"card must be a mapping or a string, got {type(card).__name__}")
    position = card_position(rules, card, yahtzee_bonuses)
    return advice_table(table, position, dice, throws_left)


def advise_position(
    table: ValueTable,
    dice,
    throws_left: int,
    *,
    filled=(),
    upper: int = 0,
    yahtzee_50: bool = False,
    points: int = 0,
) -> Table:
    """:func:`advise` for a card given as its filled boxes (names), the upper total and
    whether the Yahtzee box holds 50; ``points`` is what the card already holds.

    >>> from gamegraph.games.yahtzee.scoring import scoring
    >>> from gamegraph.games.yahtzee.solver import solve_values
    >>> table = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=2))
    >>> advise_position(table, (3, 4), 0, filled=["sixes"], upper=12).rows
    (('chance', 7, 7.0, 0.0),)
    """
    if not isinstance(table, ValueTable):
        raise InvalidArgumentError(f"table must be a ValueTable, got {type(table).__name__}")
    rules = table.scoring
    used = 0
    for name in filled:
        b = rules.boxes.index(box_name(name, rules))
        if used >> b & 1:
            raise InvalidArgumentError(f"the box {rules.boxes[b]} is filled twice on the card")
        used |= 1 << b
    if not isinstance(upper, numbers.Integral) or isinstance(upper, bool) or upper < 0:
        raise InvalidArgumentError(f"upper total: a whole number >= 0, got {upper!r}")
    flag = int(bool(yahtzee_50) and table.flags == 2)
    if flag and not used >> rules.yahtzee_box & 1:
        raise InvalidArgumentError("yahtzee_50 needs the Yahtzee box among the filled boxes")
    return advice_table(table, Position(used, int(upper), flag, points), dice, throws_left)
