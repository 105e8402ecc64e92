"""Small versions of Yahtzee and Yatzy as ordinary Rules, solved by the generic solver and
compared with the compact solver at every turn-start position the explicit graph holds.

The two are written independently: gamegraph.games.yahtzee.rules states a turn as a
player plays it (score after any throw, or keep a proper part of the dice) with its own
joker and bonus logic; the compact solver runs the widget over 462 keeps, keeping all
dice being its way to stop throwing. Sizes and times (2 cores) are in the comments.
"""

from fractions import Fraction

import pytest

from gamegraph import build, solve
from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.yahtzee.rules import KEEP_MOVES, THROWN, TURN, YahtzeeRules
from gamegraph.games.yahtzee.scoring import scoring
from gamegraph.games.yahtzee.solver import solve_values

TOL = 1e-9


def _solved_both_ways(rules, exact=False):
    """The generic solution and the compact table; asserts they agree at every turn start."""
    graph = build(rules)
    solution = solve(graph, exact=exact)
    table = solve_values(rules.scoring)
    starts = 0
    for i, state in enumerate(graph.states):
        if state[0] != TURN:
            continue
        _, used, upper, flag = state
        compact = table.values[table.index(used, upper, flag)]
        assert float(solution.values[i]) == pytest.approx(compact, abs=TOL), rules.label(state)
        starts += 1
    assert starts > 1  # the start and at least the end
    return graph, solution, table


# (ruleset, boxes, dice, joker, start keywords, states, start value)
VERSIONS = [
    # 5 dice, 3 boxes (Yahtzee's chance alone, five dice, is solved exactly below)
    ("yatzy", ("two pairs", "small straight", "full house"), 5, "free", {}, 8240, 31.04621437814),
    ("yatzy", ("one pair", "large straight", "yatzy"), 5, "free", {}, 8240, 21.92033633429),
    # Jokers: full house and the large straight score only as jokers with 2 or 3 dice
    ("yahtzee", ("aces", "full house", "large straight", "yahtzee"), 2, "free", {}, 3282,
     151.88047586196),
    ("yahtzee", ("aces", "full house", "large straight", "yahtzee"), 2, "forced", {}, 3282,
     151.88047586196),
    ("yahtzee", ("twos", "full house", "large straight", "yahtzee"), 3, "forced", {}, 11708,
     66.71931061682),
    # Yatzy with three dice: no joker, no bonus Yatzy
    ("yatzy", ("twos", "one pair", "three of a kind", "yatzy"), 3, "free", {}, 8104,
     45.12213644150),
    # The upper bonus reached in play: five dice, three upper boxes, from four fours
    ("yahtzee", ("fours", "fives", "sixes"), 5, "free", {"filled": ("fours",), "upper": 16},
     15335, 26.10435718082),
    # The upper bonus from a card at 55 (two dice alone total at most 42 in the upper boxes)
    ("yahtzee", ("fives", "sixes", "chance"), 2, "free", {"upper": 55}, 1408, 53.04043546641),
    ("yatzy", ("fives", "sixes", "chance"), 2, "free", {"upper": 55}, 1408, 66.59583177024),
    # The Yahtzee box already holding 50: every further Yahtzee earns 100
    ("yahtzee", ("sixes", "chance", "yahtzee"), 3, "forced",
     {"filled": ("yahtzee",), "flag": 1}, 1354, 61.70240191811),
]  # fmt: skip


@pytest.mark.parametrize(
    "ruleset, boxes, dice, joker, start, states, value",
    VERSIONS,
    ids=[f"{v[0]}-{'+'.join(v[1])}-{v[2]}dice-{v[3]}" for v in VERSIONS],
)
def test_generic_solve_agrees_with_the_compact_solver(
    ruleset, boxes, dice, joker, start, states, value
):
    rules = YahtzeeRules(scoring(ruleset, boxes=boxes, dice=dice, joker=joker), **start)
    graph, solution, _ = _solved_both_ways(rules)
    assert graph.n_states == states
    assert solution.start_value == pytest.approx(value, abs=1e-10)


def test_the_two_joker_readings_differ_and_each_agrees():
    # threes, fours, chance and the Yahtzee box with two dice: a joker (a pair) after a
    # Yahtzee in the box must go in its own upper box (forced) or in chance when that is
    # filled; the free reading may save chance. Exact solves, 6,102 states each.
    values = {}
    for joker in ("free", "forced"):
        rules = YahtzeeRules(boxes=("threes", "fours", "chance", "yahtzee"), dice=2, joker=joker)
        graph, solution, table = _solved_both_ways(rules, exact=True)
        assert graph.n_states == 6102
        values[joker] = solution.start_value
        assert float(solution.start_value) == pytest.approx(table.start_value, abs=TOL)
    assert values["free"] == Fraction(98827586744585, 705277476864)  # 140.12582279533
    assert values["forced"] == Fraction(296073927340165, 2115832430592)  # 139.93259724133
    assert values["free"] - values["forced"] > Fraction(19, 100)


def test_chance_alone_is_five_single_dice():
    # Chance is the sum, so each die is played alone: 14/3 (keep 5-6, then 4-6) per die.
    rules = YahtzeeRules(boxes=("chance",))
    _, solution, _ = _solved_both_ways(rules, exact=True)
    assert solution.start_value == 5 * Fraction(14, 3)


# --- the options of a thrown state, by hand ------------------------------------------
def _options(rules, used, upper, flag, dice, left=0):
    """{move label: (reward, target)} of the thrown state."""
    (outcome,) = rules.outcomes((THROWN, used, upper, flag, dice, left))
    return {rules.move_label(o.move): (o.reward, o.target) for o in outcome.options}


def _bits(rules, *boxes):
    """The ``used`` bits of the boxes named."""
    return sum(1 << rules.boxes.index(box) for box in boxes)


def _rewards(rules, *args, **kw):
    return {label: reward for label, (reward, _) in _options(rules, *args, **kw).items()}


def test_a_joker_goes_where_each_reading_allows():
    boxes = ("threes", "fours", "chance", "yahtzee")
    free = YahtzeeRules(boxes=boxes, dice=2)
    forced = YahtzeeRules(boxes=boxes, dice=2, joker="forced")
    assert free.boxes == ("threes", "fours", "yahtzee", "chance")  # the rule set's order
    yahtzee_50 = _bits(free, "yahtzee")  # only the Yahtzee box filled, with 50 or 0
    # Its own upper box open: free anywhere, forced there; 100 more each time.
    assert _rewards(free, yahtzee_50, 0, 1, (3, 3)) == {
        "score threes": 106,
        "score fours": 100,
        "score chance": 106,
    }
    assert _rewards(forced, yahtzee_50, 0, 1, (3, 3)) == {"score threes": 106}
    # With 0 in the Yahtzee box: still a joker, no 100.
    assert _rewards(forced, yahtzee_50, 0, 0, (3, 3)) == {"score threes": 6}
    # Its own upper box filled: forced into an open lower box, else an upper box for 0.
    threes_too = _bits(free, "yahtzee", "threes")
    assert _rewards(forced, threes_too, 6, 1, (3, 3)) == {"score chance": 106}
    assert _rewards(free, threes_too, 6, 1, (3, 3)) == {"score fours": 100, "score chance": 106}
    assert _rewards(forced, threes_too | _bits(free, "chance"), 6, 1, (3, 3)) == {
        "score fours": 100
    }
    # Not a joker while the Yahtzee box is open: the plain scores.
    assert _rewards(forced, 0, 0, 0, (3, 3)) == {
        "score threes": 6,
        "score fours": 0,
        "score chance": 6,
        "score yahtzee": 50,
    }


def test_a_joker_scores_full_house_and_straights_in_full():
    boxes = ("aces", "full house", "large straight", "yahtzee")
    for joker in ("free", "forced"):
        rules = YahtzeeRules(boxes=boxes, dice=2, joker=joker)
        # Sixes are not in play, so their box is not open: 25 and 40 in full.
        sixes = _rewards(rules, 0b1000, 0, 0, (6, 6))
        expected = {"score full house": 25, "score large straight": 40}
        if joker == "free":
            expected["score aces"] = 0
        assert sixes == expected
        # Aces open: no full values (forced: aces only).
        aces = _rewards(rules, 0b1000, 0, 0, (1, 1))
        assert aces == (
            {"score aces": 2}
            if joker == "forced"
            else {"score aces": 2, "score full house": 0, "score large straight": 0}
        )
    # No joker in Yatzy: a Yatzy with the Yatzy box filled scores as usual, no bonus.
    yatzy = YahtzeeRules(ruleset="yatzy", boxes=("sixes", "full house", "yatzy"), dice=2)
    assert _rewards(yatzy, 0b100, 0, 0, (6, 6)) == {"score sixes": 12, "score full house": 0}


def test_upper_bonus_and_yahtzee_flag_in_the_targets():
    rules = YahtzeeRules(boxes=("fives", "sixes", "yahtzee"), dice=2)
    options = _options(rules, 0, 55, 0, (6, 6))
    assert options["score sixes"] == (12 + 35, (TURN, 0b010, 63, 0))  # 67, shown as 63
    assert options["score yahtzee"] == (50, (TURN, 0b100, 55, 1))
    assert _options(rules, 0, 55, 0, (5, 6))["score sixes"] == (6, (TURN, 0b010, 61, 0))
    assert _options(rules, 0, 55, 0, (5, 6))["score yahtzee"] == (0, (TURN, 0b100, 55, 0))
    # Earned once: past 63 nothing more.
    assert _options(rules, 0b001, 63, 0, (6, 6))["score sixes"] == (12, (TURN, 0b011, 63, 0))
    yatzy = YahtzeeRules(ruleset="yatzy", boxes=("fives", "sixes", "yatzy"), dice=2)
    assert _options(yatzy, 0, 55, 0, (6, 6))["score sixes"] == (12 + 50, (TURN, 0b010, 63, 0))
    assert _options(yatzy, 0, 55, 0, (6, 6))["score yatzy"] == (50, (TURN, 0b100, 55, 0))


def test_keeps_throws_and_labels():
    rules = YahtzeeRules(boxes=("sixes", "chance"))
    start = rules.start()
    assert start == (TURN, 0, 0, 0)
    assert rules.label(start) == "open: sixes, chance | upper 0"
    throws = rules.outcomes(start)
    assert len(throws) == 252
    assert sum(o.probability for o in throws) == 1
    assert throws[0].probability == Fraction(1, 7776)  # 1,1,1,1,1
    thrown = (THROWN, 0, 12, 0, (3, 3, 5, 6, 6), 2)
    assert rules.label(thrown) == "open: sixes, chance | upper 12 | 3,3,5,6,6, 2 throws left"
    (choice,) = rules.outcomes(thrown)
    keeps = [rules.move_label(o.move) for o in choice.options if o.move >= KEEP_MOVES]
    # 3*2*3 multisets of 3,3 / 5 / 6,6 less the whole throw
    assert len(keeps) == 17 and keeps[0] == "keep nothing" and "keep 3,3,6,6" in keeps
    assert "keep 3,3,5,6,6" not in keeps
    kept = (rules.outcomes(thrown)[0].options[-1]).target
    assert (
        rules.label(kept)
        == "open: sixes, chance | upper 12 | kept 3,5,6,6, throwing 1 (2 throws left)"
    )
    again = rules.outcomes(kept)
    assert [o.options[0].target[4:] for o in again][-1] == ((3, 5, 6, 6, 6), 1)
    assert all(o.probability == Fraction(1, 6) for o in again)
    # The last throw: score only.
    (last,) = rules.outcomes((THROWN, 0, 0, 0, (1, 2, 3, 4, 6), 0))
    assert [rules.move_label(o.move) for o in last.options] == ["score sixes", "score chance"]
    assert rules.terminal_value((TURN, 0b11, 6, 0)) == 0
    assert rules.label((TURN, 0b11, 6, 0)) == "card full | upper 6"
    assert rules.layer(kept) == 0 and rules.layer((TURN, 0b10, 0, 0)) == 1
    assert rules.move_label(-1) == "throw"


def test_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="Scoring"):
        YahtzeeRules("yahtzee")
    with pytest.raises(UnknownNameError):
        YahtzeeRules(boxes=("sixes",), filled=("fives",))
    with pytest.raises(InvalidArgumentError, match="upper"):
        YahtzeeRules(boxes=("sixes",), upper=64)
    with pytest.raises(InvalidArgumentError, match="flag"):
        YahtzeeRules(boxes=("sixes", "yahtzee"), filled=("yahtzee",), flag=1.0)
    assert YahtzeeRules(boxes=("yahtzee",), filled=("yahtzee",), flag=True).start() == (
        TURN, 1, 0, 1,
    )  # fmt: skip
    with pytest.raises(InvalidArgumentError, match="Yahtzee box"):
        YahtzeeRules(boxes=("sixes", "yahtzee"), flag=1)
    with pytest.raises(InvalidArgumentError, match="Yahtzee box"):
        YahtzeeRules(ruleset="yatzy", boxes=("sixes", "yatzy"), filled=("yatzy",), flag=1)
