"""Advice from a solved table, and the table's file.

The advice is checked against a brute force written here from the rules alone: ordered
dice, every subset of them kept, every box tried. A small version (four boxes, three
dice) solves in a fraction of a second.
"""

from __future__ import annotations

import json
import math
import mmap
import os
from functools import cache
from itertools import product

import numpy as np
import pytest

from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.yahtzee.advice import (
    Position,
    advise,
    advise_position,
    alternatives,
    box_alternatives,
    card_position,
    read_card,
    turn_stages,
)
from gamegraph.games.yahtzee.dice import multisets
from gamegraph.games.yahtzee.scoring import scoring
from gamegraph.games.yahtzee.solver import ValueTable, solve_values
from gamegraph.games.yahtzee.table_file import HEADER_BYTES, load_table, save_table

SMALL = ("threes", "sixes", "yahtzee", "chance")


@pytest.fixture(scope="module")
def free3():
    """Yahtzee with four boxes and three dice (free joker)."""
    return solve_values(scoring("yahtzee", boxes=SMALL, dice=3))


@pytest.fixture(scope="module")
def forced3():
    return solve_values(scoring("yahtzee", boxes=SMALL, dice=3, joker="forced"))


# ---------------------------------------------------------------------------
# A brute force from the rules: ordered dice, every subset kept, every box
# ---------------------------------------------------------------------------
def brute_force(boxes, dice, joker):
    """(turn, rest): ``turn(card, faces, left)`` the expected rest of the game for each
    choice, ``rest(card)`` the expected rest from a turn's start; a card is
    (open boxes, upper total capped at 63, Yahtzee box holds 50).
    """
    faces_of = {"threes": 3, "sixes": 6}

    def points(box, faces):
        if box in faces_of:
            return faces_of[box] * faces.count(faces_of[box])
        if box == "yahtzee":
            return 50 if len(set(faces)) == 1 else 0
        return sum(faces)  # chance

    def throws(kept):
        """Every ordered throw of the other dice, each with chance 1 / 6^k."""
        k = dice - len(kept)
        for rolled in product(range(1, 7), repeat=k):
            yield tuple(sorted(kept + rolled)), 1 / 6**k

    @cache
    def rest(card):
        open_boxes, _, _ = card
        if not open_boxes:
            return 0.0
        return thrown(card, (), 3)  # the turn's first throw: two throws left after it

    @cache
    def thrown(card, kept, left):
        """Keeping ``kept`` with ``left`` throws left (the turn's first throw: ``(), 3``):
        the expected rest of the game.
        """
        return sum(p * max(turn(card, t, left - 1).values()) for t, p in throws(kept))

    @cache
    def turn(card, faces, left):
        """Choice -> expected rest of the game (points now included)."""
        open_boxes, upper, fifty = card
        if left:
            found = {}
            for mask in range(1 << dice):
                kept = tuple(sorted(faces[i] for i in range(dice) if mask >> i & 1))
                found[kept] = thrown(card, kept, left)
            return found
        further = len(set(faces)) == 1 and "yahtzee" in boxes and "yahtzee" not in open_boxes
        allowed = sorted(open_boxes)
        if further and joker == "forced":
            own = [b for b in open_boxes if faces_of.get(b) == faces[0]]
            lower = [b for b in open_boxes if b not in faces_of]
            allowed = own or lower or allowed
        found = {}
        for box in allowed:
            score = points(box, faces)
            gain = score + (100 if further and fifty else 0)
            new_upper = upper
            if box in faces_of:
                new_upper = min(upper + score, 63)
                gain += 35 if upper < 63 <= upper + score else 0
            after = (open_boxes - {box}, new_upper, fifty or (box == "yahtzee" and score == 50))
            found[box] = gain + rest(after)
        return found

    return turn, rest


def _card(table, position):
    boxes = table.scoring.boxes
    open_boxes = frozenset(b for i, b in enumerate(boxes) if not position.used >> i & 1)
    return open_boxes, min(position.upper, 63), bool(position.flag)


POSITIONS = [
    Position(0, 0, 0, 0),  # the empty card
    Position(0b0100, 0, 1, 50),  # Yahtzee box holds 50
    Position(0b0100, 0, 0, 0),  # Yahtzee box holds 0
    Position(0b0101, 60, 1, 59),  # threes filled, upper 60 (given directly), Yahtzee 50
    Position(0b1011, 9, 0, 30),  # only the Yahtzee box open
]


@pytest.mark.parametrize("joker", ["free", "forced"])
def test_every_alternative_agrees_with_a_brute_force(free3, forced3, joker):
    table = free3 if joker == "free" else forced3
    turn, rest = brute_force(set(SMALL), 3, joker)
    checked = 0
    for position in POSITIONS:
        card = _card(table, position)
        value = table.values[table.index(position.used, position.upper, position.flag)]
        assert abs(value - rest(card)) < 1e-9
        for faces in [(1, 2, 3), (3, 3, 3), (3, 3, 6), (6, 6, 6), (2, 5, 6)]:
            for left in (0, 1, 2):
                exact = turn(card, faces, left)
                found = alternatives(table, position, faces, left)
                assert sorted(a.choice for a in found) == sorted(exact)
                for a in found:
                    expected = position.points + exact[a.choice]
                    assert abs(a.expected - expected) < 1e-9, (position, faces, left, a)
                    checked += 1
                best = max(exact.values())
                assert abs(found[0].expected - position.points - best) < 1e-9
    assert checked > 300


def test_the_free_and_forced_joker_differ_where_they_should(free3, forced3):
    # 6,6,6 with the Yahtzee box at 50 and threes open: the forced joker must score
    # sixes (its own box), the free joker may take chance for 18 + 100.
    position = Position(0b0100, 0, 1, 50)
    free = box_alternatives(free3, position, (6, 6, 6))
    forced = box_alternatives(forced3, position, (6, 6, 6))
    assert {a.choice for a in free} == {"threes", "sixes", "chance"}
    assert [a.choice for a in forced] == ["sixes"]
    assert {a.choice: a.points for a in free} == {"threes": 100, "sixes": 118, "chance": 118}
    # 5,5,5 has no own box here: the forced joker goes to a lower box (chance) while open.
    assert [a.choice for a in box_alternatives(forced3, position, (5, 5, 5))] == ["chance"]


def test_one_box_open_and_no_throws_left_scores_exactly_its_points(free3):
    card = {"threes": 6, "sixes": 12, "yahtzee": 0}
    advice = advise(free3, "2,5,6", 0, card)
    assert advice.columns == ("box", "points", "expected final score", "behind the best")
    assert advice.rows == (("chance", 13, 31.0, 0.0),)
    assert advice.notes[0] == "best: score chance: 13 points, expected final score 31.0000"


@pytest.mark.parametrize("left", [1, 2])
def test_the_best_keep_is_the_tables_stage_value(free3, left):
    card = {"sixes": 12}
    position = card_position(free3.scoring, card)
    stages = free3.turn(position.used, position.upper, position.flag)
    row = {2: 4, 1: 2}[left]  # E1 (two throws left), E2 (one)
    for faces in [(1, 1, 1), (1, 3, 6), (3, 3, 6), (6, 6, 6)]:
        advice = advise(free3, faces, left, card)
        best = stages[row, multisets(3).index(faces)]
        assert abs(advice.rows[0][2] - (12 + best)) < 1e-9
        assert advice.rows[0][3] == 0.0
        assert [r[2] for r in advice.rows] == sorted((r[2] for r in advice.rows), reverse=True)
        assert all(abs(r[3] - (advice.rows[0][2] - r[2])) < 1e-12 for r in advice.rows)
        assert len({r[0] for r in advice.rows}) == len(advice.rows)  # distinct keeps
        assert len(advice.rows) == math.prod(faces.count(f) + 1 for f in set(faces))


@pytest.mark.parametrize("joker", ["free", "forced"])
def test_numpy_stages_equal_the_compiled_turn(free3, forced3, joker):
    table = free3 if joker == "free" else forced3
    for position in POSITIONS:
        mine = turn_stages(table, position)
        theirs = table.turn(position.used, position.upper, position.flag)
        used = ~np.isnan(mine)
        assert used.sum() == 3 * 56 + 2 * 84  # three throw rows, two keep rows (3 dice)
        assert np.abs(mine[used] - theirs[used]).max() < 1e-9


def test_full_size_stages_equal_the_compiled_turn():
    """The numpy stages on the full rule sets' scoring, with made-up values (no solve)."""
    for rules in (scoring("yahtzee"), scoring("yahtzee", joker="forced"), scoring("yatzy")):
        flags = 2 if rules.yahtzee_box >= 0 else 1
        values = np.random.default_rng(7).uniform(0, 100, (1 << len(rules.boxes)) * 64 * flags)
        table = ValueTable(rules, values)
        ybox = max(rules.yahtzee_box, 0)
        for position in (Position(0, 0, 0, 0), Position(1 << ybox | 0b111, 40, flags - 1, 0)):
            mine = turn_stages(table, position)
            theirs = table.turn(position.used, position.upper, position.flag)
            used = ~np.isnan(mine)
            assert np.abs(mine[used] - theirs[used]).max() < 1e-9


def test_the_card_gives_the_upper_total_the_flag_and_the_points():
    rules = scoring("yahtzee")
    card = read_card("sixes=24,fives=20, Fours=20,yahtzee=50,full-house=25", rules)
    assert card == {"sixes": 24, "fives": 20, "fours": 20, "yahtzee": 50, "full house": 25}
    position = card_position(rules, card, yahtzee_bonuses=2)
    assert position.upper == 64 and position.flag == 1
    assert position.points == 24 + 20 + 20 + 50 + 25 + 35 + 200
    assert position.used == (1 << 3) | (1 << 4) | (1 << 5) | (1 << 8) | (1 << 11)
    assert card_position(rules, {"yahtzee": 0}).flag == 0
    assert card_position(scoring("yatzy"), {"yatzy": 50}).flag == 0  # no bonus in Yatzy


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: advise(t, "1,2,3", 0, "fives=5"), "unknown Yahtzee box 'fives'"),
        (lambda t: advise(t, "1,2,3", 0, "sixes=6,sixes=12"), "sixes is filled twice"),
        (lambda t: advise(t, "1,2,3", 0, "sixes=7"), "sixes scores one of 0, 6, 12, 18"),
        (lambda t: advise(t, "1,2,3", 0, "sixes"), "write each filled box as box=points"),
        (lambda t: advise(t, "1,2,3,4", 0), "4 dice where Yahtzee here throws 3"),
        (lambda t: advise(t, "1,2,7", 0), "each die shows 1 to 6"),
        (lambda t: advise(t, "1,2,x", 0), "each die is a face 1 to 6"),
        (lambda t: advise(t, "1,2,3", 3), "throws left must be 0, 1 or 2"),
        (lambda t: advise(t, "1,2,3", 0, {}, yahtzee_bonuses=1), "only while the Yahtzee box"),
        (
            lambda t: advise(t, "1,2,3", 0, "yahtzee=50", yahtzee_bonuses=1),
            "1 Yahtzee bonuses on a card with 0 other boxes",
        ),
        (
            lambda t: advise(t, "1,2,3", 0, "threes=3,sixes=6,yahtzee=0,chance=6"),
            "the game is over",
        ),
        (lambda t: advise_position(t, "1,2,3", 0, filled=["sixes", "sixes"]), "filled twice"),
    ],
)
def test_bad_input_is_one_clear_error(free3, call, message):
    with pytest.raises(InvalidArgumentError, match=message) as error:
        call(free3)
    assert "\n" not in str(error.value)


def test_unknown_box_lists_the_boxes(free3):
    with pytest.raises(UnknownNameError) as error:
        advise(free3, "1,2,3", 0, "full-house=25")
    assert error.value.accepted == ("threes", "sixes", "yahtzee", "chance")


# ---------------------------------------------------------------------------
# The table's file
# ---------------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path, free3):
    path = tmp_path / "small.npy"
    save_table(path, free3)
    return path


def test_a_saved_table_loads_memory_mapped_with_the_same_values(saved, free3):
    loaded = load_table(saved)
    assert loaded.scoring == free3.scoring
    assert np.array_equal(loaded.values, free3.values)
    assert isinstance(loaded.values.base.obj, mmap.mmap)  # mapped, not read
    assert os.path.getsize(saved) == HEADER_BYTES + 8 * len(free3.values)
    plain = np.load(saved, mmap_mode="r", allow_pickle=False)  # a standard .npy file
    assert np.array_equal(plain, free3.values)
    assert advise(loaded, "3,3,6", 2).rows == advise(free3, "3,3,6", 2).rows
    loaded.values[0] = -1.0  # copy on write: the file keeps its value
    assert load_table(saved).values[0] == free3.values[0]


def _header_json(path):
    head = open(path, "rb").read(HEADER_BYTES).decode("latin1")
    return head.partition("# gamegraph-yahtzee ")[2].strip()


def _rewrite_header(path, change):
    """Rewrite the JSON of the header with ``change(meta)`` applied, padded as before."""
    data = bytearray(open(path, "rb").read())
    old = _header_json(path)
    meta = json.loads(old)
    change(meta)
    new = json.dumps(meta, sort_keys=True, separators=(",", ":"))
    start = data.index(old.encode())
    data[start : start + len(old)] = new.encode().ljust(len(old))
    open(path, "wb").write(bytes(data))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.write_bytes(p.read_bytes()[:-8]), "cut short or padded"),
        (lambda p: p.write_bytes(p.read_bytes() + b"\0" * 8), "cut short or padded"),
        (lambda p: p.write_bytes(b"not a table"), "not a gamegraph Yahtzee table"),
        (
            lambda p: p.write_bytes(p.read_bytes()[:-8] + np.float64(1.5).tobytes()),
            "damaged: its sha256 digest does not match",
        ),
        (lambda p: _rewrite_header(p, lambda m: m.update(dice=2)), "damaged: its sha256"),
        (
            lambda p: _rewrite_header(p, lambda m: m.update(boxes=["threes", "sixes", "chance"])),
            "says it holds 2048 positions; Yahtzee .free joker., boxes threes, sixes, chance, "
            "3 dice: 512",
        ),
        (lambda p: _rewrite_header(p, lambda m: m.update(ruleset="chess")), "does not know"),
        (lambda p: _rewrite_header(p, lambda m: m.update(boxes=["chance", "sixes"])), "order"),
        (lambda p: _rewrite_header(p, lambda m: m.update(boxes=["pawns"])), "'pawns'"),
        (lambda p: _rewrite_header(p, lambda m: m.update(version=9)), "version 9"),
        (lambda p: _rewrite_header(p, lambda m: m.pop("sha256")), "fields must be"),
        (lambda p: _rewrite_header(p, lambda m: m.update(dice=True)), "holds True dice"),
    ],
)
def test_a_damaged_file_is_refused_in_one_line(saved, damage, message):
    damage(saved)
    with pytest.raises(InvalidArgumentError, match=message) as error:
        load_table(saved)
    assert str(error.value).startswith(str(saved)) and "\n" not in str(error.value)


def test_values_that_are_not_expected_scores_are_refused(tmp_path, free3):
    bad = free3.values.copy()
    bad[5] = np.nan
    with pytest.raises(InvalidArgumentError, match="position 5 is nan"):
        save_table(tmp_path / "bad.npy", ValueTable(free3.scoring, bad))
    assert not (tmp_path / "bad.npy").exists()


def test_a_yatzy_variant_keeps_its_scoring_through_the_file(tmp_path):
    rules = scoring("yatzy", boxes=("one pair", "two pairs"), dice=3, variant="kth-2012")
    table = solve_values(rules)
    path = tmp_path / "kth.npy"
    save_table(path, table)
    loaded = load_table(path, ruleset="yatzy")
    assert loaded.scoring == rules and loaded.start_value == table.start_value
    # 1,2,2 scores its single pair in two pairs under this scoring: 4 points
    assert {
        a.choice: a.points for a in box_alternatives(loaded, Position(0, 0, 0, 0), (1, 2, 2))
    } == {
        "one pair": 4,
        "two pairs": 4,
    }
    _rewrite_header(path, lambda m: m.update(variant="kth-1999"))
    with pytest.raises(InvalidArgumentError, match="yatzy variant .*'kth-1999'"):
        load_table(path)


def test_a_table_of_other_rules_a_folder_or_a_missing_file_is_refused(saved, tmp_path):
    with pytest.raises(InvalidArgumentError, match="holds a Yahtzee table, not Yatzy"):
        load_table(saved, ruleset="yatzy")
    with pytest.raises(InvalidArgumentError, match="free joker, not the forced joker"):
        load_table(saved, joker="forced")
    with pytest.raises(InvalidArgumentError, match="not a regular file"):
        load_table(tmp_path)
    with pytest.raises(InvalidArgumentError, match="cannot read .*: No such file"):
        load_table(tmp_path / "missing.npy")
    fifo = tmp_path / "fifo.npy"
    os.mkfifo(fifo)
    with pytest.raises(InvalidArgumentError, match="not a regular file"):
        load_table(fifo)  # and does not wait for a writer


def test_random_damage_is_refused_in_one_line_or_harmless(saved, free3):
    """Bytes changed at random (mostly in the header), or the file cut short: the table
    loads with its own values, or is refused in one line; nothing else is raised.
    """
    import random

    good = saved.read_bytes()
    rng = random.Random(28)
    refused = 0
    for _ in range(300):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(600) if rng.random() < 0.8 else rng.randrange(len(data))
            data[at] = rng.randrange(256)
        if rng.random() < 0.1:
            data = data[: rng.randrange(len(data))]
        saved.write_bytes(bytes(data))
        try:
            loaded = load_table(saved)
        except InvalidArgumentError as error:
            assert "\n" not in str(error)
            refused += 1
        else:
            assert np.array_equal(loaded.values, free3.values)
    assert refused > 280


def test_a_deep_header_is_refused_without_recursion(saved):
    data = saved.read_bytes()
    head = data[:HEADER_BYTES].decode("latin1")
    start = head.index("# gamegraph-yahtzee ") + len("# gamegraph-yahtzee ")
    deep = (head[:start] + "[" * 2000 + "]" * 2000)[: HEADER_BYTES - 1] + "\n"
    saved.write_bytes(deep.encode("latin1") + data[HEADER_BYTES:])
    with pytest.raises(InvalidArgumentError, match="unreadable header"):
        load_table(saved)
