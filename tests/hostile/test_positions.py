"""Positions and numbers on the command line (issue 11, cases 8 and 13).

A position that starts with ``-`` (Ur's empty board ``-/-``) is a value, not an unknown
option; positions and numbers are written with the ASCII digits 0-9 only (Python's
``int`` and ``float`` would also read ``'٣'``, ``'３'`` and ``'1_3'``); a bounded number
gives one message for every value out of range. Bad input ends with one stderr line and
exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json

import pytest
from cli_run import run
from hypothesis import given, settings
from hypothesis import strategies as st

from gamegraph.cli import main
from gamegraph.cli._common import MAX_DIGITS, games, probability, seed, whole
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import rule_set
from gamegraph.games.ur.positions import state_codes, state_from_code
from gamegraph.games.ur.rules import format_position, parse_position

FINKEL = {pieces: rule_set("finkel", pieces=pieces) for pieces in (1, 2)}
#: The one-piece finkel game, solved by each command that asks a position's value.
SOLVED = ["--solve", "--pieces", "1"]

#: Text that Python's int() or float() reads but a command line refuses.
NOT_ASCII_DIGITS = ["\u0663", "\uff13", "1_3", "\u0661\u0660", "\U0001d7d1"]


def refused(argv, capsys, *says):
    """Run ``argv``: exit 2, nothing on stdout, one stderr line containing each of ``says``."""
    status, out, err = run(argv, capsys)
    assert (status, out) == (2, ""), (status, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for text in says:
        assert text in err, err
    return err


@pytest.fixture(scope="module")
def start_value():
    """The one-piece finkel start value, from ``ur solve`` (a second source for ``value``)."""
    out = io.StringIO()
    assert main(["ur", "solve", "--pieces", "1", "--format", "json"], out=out) == 0
    return float(json.loads(out.getvalue())["start"])


# --- case 8: a position that starts with '-' -------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["ur", "value", "-/-", *SOLVED],
        ["ur", "value", *SOLVED, "-/-"],
        ["ur", "value", "-+0/-", *SOLVED],
        ["ur", "value", " -/-", *SOLVED],
    ],
)
def test_empty_ur_board_is_a_position_not_an_option(argv, capsys, start_value):
    status, out, err = run([*argv, "--format", "json"], capsys)
    assert (status, err) == (0, ""), err
    answer = json.loads(out)
    assert answer["position"] == "-/-"
    assert answer["value"] == start_value and 0.5 < start_value < 0.54  # first mover's edge


def test_moves_from_the_empty_board(capsys):
    status, out, err = run(["ur", "moves", "-/-", *SOLVED, "--throw", "2"], capsys)
    assert (status, err) == (0, "")
    assert out.split()[:2] == ["*", "enter->2"] and "-> 2/-" in out


def test_a_dash_position_with_pieces_off_is_read(capsys):
    # '-+...' and '-/...' both start with '-': the mover has none on the board.
    status, out, err = run(["ur", "value", "-/-+0", *SOLVED, "--format", "json"], capsys)
    assert status == 0 and json.loads(out)["position"] == "-/-"


def test_unknown_options_are_still_refused(capsys):
    refused(["ur", "value", "-/-", *SOLVED, "--bogus"], capsys, "unrecognized arguments: --bogus")
    refused(["ur", "value", *SOLVED], capsys, "the following arguments are required: position")


def test_dash_value_of_around_reaches_its_parser(tmp_path, capsys):
    output = tmp_path / "g.dot"
    argv = ["jackpot", "graph", "--view", "around", "-o", output, "--around", "-/-"]
    refused(argv, capsys, "--around '-/-': expected the cells still open")
    assert list(tmp_path.iterdir()) == []


# --- case 13: ASCII digits only --------------------------------------------------------


@pytest.mark.parametrize("digit", NOT_ASCII_DIGITS)
def test_unicode_digits_in_ur_positions_are_refused(digit, capsys):
    for text in (f"{digit}/-", f"-/4+{digit}", f"4,{digit}/6"):
        with pytest.raises(InvalidArgumentError, match="digits 0-9"):
            parse_position(text, FINKEL[2])
    refused(["ur", "value", f"{digit}/-", *SOLVED], capsys, "digits 0-9")


@pytest.mark.parametrize("text", ["\u0662\u0665", "\uff12\uff15", "2_5", "\u017ftart", "wi\u0274"])
def test_jackpot_around_must_be_ascii(text, tmp_path, capsys):
    # '\u017ftart'.upper() is 'START': the text must be ASCII before it is read.
    argv = ["jackpot", "graph", "--view", "around", "--around", text, "-o", tmp_path / "g.dot"]
    refused(argv, capsys, "expected the cells still open")
    assert list(tmp_path.iterdir()) == []


JACKPOT_GRAPH = ["jackpot", "graph", "-o", "g.dot"]
NUMBER_OPTIONS = [
    (["jackpot", "simulate", "--games", "{}"], "whole number of games"),
    (["jackpot", "simulate", "--games", "10", "--seed", "{}"], "digits 0-9"),
    (["ur", "tournament", "--games", "{}"], "whole number of games"),
    (["ur", "count", "--pieces", "{}"], "accepted whole numbers 1 to 7 (digits 0-9)"),
    (["ur", "report", "-o", "r.html", "--pieces", "{}"], "(digits 0-9"),
    (["ur", "explore", "-o", "e.html", "--pieces", "{}"], "digits 0-9"),
    (["ur", "moves", "-/-", *SOLVED, "--throw", "{}"], "digits 0-9"),
    (["supersix", "solve", "--pegs", "{}"], "whole number of pegs (digits 0-9)"),
    (["supersix", "solve", "--hands", "{}", "3"], "whole number of pegs (digits 0-9)"),
    (["supersix", "strategy", "--sticks", "{}"], "whole number of sticks (digits 0-9)"),
    (["supersix", "heatmap", "-o", "h.html", "--range", "4", "{}"], "digits 0-9"),
    (["supersix", "explore", "-o", "e.html", "--pegs", "{}"], "digits 0-9"),
    (["supersix", "report", "-o", "r.html", "--pegs", "{}"], "digits 0-9"),
    ([*JACKPOT_GRAPH, "--view", "likely", "--paths", "{}"], "whole number of paths (digits"),
    ([*JACKPOT_GRAPH, "--view", "around", "--around", "5", "--depth", "{}"], "digits 0-9"),
    ([*JACKPOT_GRAPH, "--view", "threshold", "--min-reach", "0.{}"], "a decimal number"),
    (["ur", "explore", "-o", "e.html", "--min-reach", "0.{}"], "accepted a number from 0 to 1"),
]


def _option(argv):
    return next((a for a in reversed(argv) if a.startswith("--")), argv[1]) if argv else ""


@pytest.mark.parametrize("digit", NOT_ASCII_DIGITS[:3])
@pytest.mark.parametrize(
    "argv, says", NUMBER_OPTIONS, ids=[f"{a[0]}-{a[1]}{_option(a)}" for a, _ in NUMBER_OPTIONS]
)
def test_numbers_on_the_command_line_are_ascii(argv, says, digit, capsys, tmp_path):
    if digit == "1_3" and "--games" in argv:
        pytest.skip("--games reads 1_000 on purpose (documented)")
    argv = [str(a).format(digit) for a in argv]
    argv = [str(tmp_path / a) if a.endswith((".dot", ".html")) else a for a in argv]
    refused(argv, capsys, says)
    assert list(tmp_path.iterdir()) == []


def test_games_keeps_its_documented_forms():
    assert games("1,000") == games("1_000") == 1000 and games("1e6") == 10**6
    for text in ("\uff11,000", "1e\u0666", "nan", "inf", "1e400", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError, match="not a whole number of games"):
            games(text)


# --- bounds: one bounded type, one message --------------------------------------------


@pytest.mark.parametrize("value", ["0", "-1", "1001", "100000000", "9" * 30])
def test_bounded_paths_give_one_message(value, capsys, tmp_path):
    argv = [*JACKPOT_GRAPH[:2], "-o", tmp_path / "g.dot", "--view", "likely", "--paths", value]
    refused(argv, capsys, "paths: accepted 1 to 1000")


@pytest.mark.parametrize("value", ["0", "-3", "51", "1000000"])
def test_bounded_depth_gives_one_message(value, capsys, tmp_path):
    argv = [*JACKPOT_GRAPH[:2], "-o", tmp_path / "g.dot", "--view", "around", "--around", "5"]
    refused([*argv, "--depth", value], capsys, "moves: accepted 1 to 50")


def test_a_number_too_long_for_int_is_refused_not_crashed(capsys):
    # Python's int() refuses more than 4,300 digits with a ValueError of its own.
    refused(["supersix", "strategy", "--sticks", "7" * 5000], capsys, f"at most {MAX_DIGITS}")
    refused(["ur", "count", "--pieces", "7" * 5000], capsys, "accepted whole numbers 1 to 7")


# --- properties -----------------------------------------------------------------------

#: Characters positions are made of, and ones that int() reads or that look alike.
POSITION_ALPHABET = st.sampled_from(
    list("0123456789/,+- \t_.x") + ["\u0663", "\uff13", "\u2003", "\u00a0", "\u2212", "\n"]
)


@settings(max_examples=400, deadline=None)
@given(pieces=st.sampled_from([1, 2]), text=st.text(POSITION_ALPHABET, max_size=14))
def test_parse_position_reads_or_refuses_random_text(pieces, text):
    ruleset = FINKEL[pieces]
    try:
        state = parse_position(text, ruleset)
    except InvalidArgumentError as error:
        assert str(error).startswith(f"position {text!r}: ")
        return
    assert text.isascii()  # nothing but the digits 0-9 is read as a number
    assert parse_position(format_position(state), ruleset) == state


@settings(max_examples=300, deadline=None)
@given(pieces=st.sampled_from([1, 2]), data=st.data())
def test_every_formatted_position_parses_back(pieces, data):
    ruleset = FINKEL[pieces]
    codes = _codes(pieces)
    code = int(codes[data.draw(st.integers(0, len(codes) - 1))])
    state = state_from_code(code, ruleset.length)
    text = format_position(state)
    assert parse_position(text, ruleset) == state
    spaced = data.draw(st.sampled_from(["{}", " {} ", "\t{}"])).format(text.replace("/", " / "))
    assert parse_position(spaced, ruleset) == state


_CODES = {}


def _codes(pieces):
    if pieces not in _CODES:
        _CODES[pieces] = state_codes(FINKEL[pieces])
    return _CODES[pieces]


NUMBER_ALPHABET = st.sampled_from(
    list("0123456789-+_,.e ") + ["\u0663", "\uff13", "\u00b2", "\u2003", "\U0001d7d1"]
)
TYPES = [
    (whole(1, "paths", high=1000), 1, 1000),
    (whole(4, "sticks"), 4, None),
    (whole(-(10**9), "pegs"), -(10**9), None),
    (seed, 0, None),
    (games, 1, 10**9),
]


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(range(len(TYPES))), text=st.text(NUMBER_ALPHABET, max_size=12))
def test_number_types_read_or_refuse_random_text(kind, text):
    parse, low, high = TYPES[kind]
    try:
        value = parse(text)
    except argparse.ArgumentTypeError:
        return
    assert type(value) is int and low <= value and (high is None or value <= high)
    assert text.isascii()
    if parse is not games:  # games also reads 1,000, 1_000 and 1e6 on purpose
        assert value == int(text)


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(range(len(TYPES))), value=st.integers(-(10**12), 10**12))
def test_number_types_take_every_number_in_range(kind, value):
    parse, low, high = TYPES[kind]
    inside = low <= value and (high is None or value <= high)
    try:
        assert parse(str(value)) == value and inside
    except argparse.ArgumentTypeError as error:
        assert not inside and "accepted" in str(error)


@settings(max_examples=200, deadline=None)
@given(text=st.text(NUMBER_ALPHABET, max_size=10))
def test_probability_reads_or_refuses_random_text(text):
    try:
        value = probability(text)
    except argparse.ArgumentTypeError as error:
        assert "is not a probability in (0, 1]" in str(error)
        return
    assert 0 < value <= 1 and text.isascii() and value == float(text)
