"""Exact values past Python's 4,300-digit limit for int -> str (issue 11, case 7).

``supersix solve --pegs 60 --exact`` reaches fractions of 5,737 / 5,738 digits (62 s of CPU
here): too slow for the suite, and no smaller Super Six game reaches 4,300 digits (40 pegs
gives 2,374). So the same paths are driven with integers of 10,000 digits: the helper every
conversion goes through, the JSON of a solve, the text of a solve, and table cells.
"""

from __future__ import annotations

import decimal
import json
import sys
from fractions import Fraction

import pytest
from cli_run import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamegraph.games.supersix.analysis import SuperSixSolve
from gamegraph.tables import (
    SHOWN_DIGITS,
    Table,
    exact_digits,
    format_value,
    json_number,
    shown_integer,
)

BIG = 7**11_834 + 12_345  # 10,001 digits
HUGE_FRACTION = Fraction(BIG, 3**21_000)  # 10,001 / 10,020 digits, in lowest terms


def parse(text: str) -> int:
    """Read back digits of any length (``int(text)`` has the same 4,300-digit limit)."""
    return int(decimal.Decimal(text))


def test_the_limit_is_really_there():
    # what case 7 tripped on; the helper must not depend on it being raised or lowered
    assert len(exact_digits(BIG)) == 10_001 > sys.get_int_max_str_digits() > 0
    with pytest.raises(ValueError):
        str(BIG)


def test_exact_digits_of_a_10000_digit_integer_round_trip():
    limit = sys.get_int_max_str_digits()
    text = exact_digits(BIG)
    assert text[-5:] == str(BIG % 10**5).zfill(5) and text[0] != "0"
    assert parse(text) == BIG
    assert exact_digits(-BIG) == "-" + text
    assert sys.get_int_max_str_digits() == limit  # no global state changed


# Integers of up to 12,000 digits are large on purpose (large_base_example on older
# hypothesis versions).
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(st.integers(min_value=-(10**12_000), max_value=10**12_000))
def test_exact_digits_agrees_with_str_wherever_str_works(n):
    text = exact_digits(n)
    assert parse(text) == n
    if len(text.lstrip("-")) <= 4300:
        assert text == str(n)


def test_exact_json_value_of_any_size_parses_back():
    text = json_number(HUGE_FRACTION, exact=True)
    numerator, denominator = text.split("/")
    assert (len(numerator), len(denominator)) == (10_001, 10_020)
    assert Fraction(parse(numerator), parse(denominator)) == HUGE_FRACTION


def test_long_integers_are_abbreviated_for_people():
    shown = shown_integer(BIG)
    text = exact_digits(BIG)
    assert shown == f"{text[:20]}...{text[-20:]} (10,001 digits)"
    assert shown_integer(10**SHOWN_DIGITS - 1) == "9" * SHOWN_DIGITS  # whole up to the limit
    assert format_value(HUGE_FRACTION) == f"{shown}/{shown_integer(3**21_000)}"
    assert format_value(BIG) == shown
    assert format_value(12_345) == "12,345"  # unchanged below the limit


def test_a_table_with_a_huge_fraction_renders():
    table = Table(("", "value"), (("start value", HUGE_FRACTION),))
    for text in (table.to_text(), table.to_markdown(), table.to_html()):
        assert "(10,001 digits)" in text and "(10,020 digits)" in text


@pytest.fixture
def huge_start(monkeypatch):
    """Make a small exact Super Six solve report a start value of 10,000 digits."""
    monkeypatch.setattr(SuperSixSolve, "start_value", property(lambda self: HUGE_FRACTION))


def test_exact_solve_json_holds_every_digit(huge_start, capsys):
    status, out, err = run(
        ["supersix", "solve", "--pegs", "4", "--exact", "--format", "json"], capsys
    )
    assert (status, err) == (0, "")
    numerator, denominator = json.loads(out)["start"].split("/")
    assert Fraction(parse(numerator), parse(denominator)) == HUGE_FRACTION


def test_exact_solve_text_abbreviates_huge_values(huge_start, capsys):
    status, out, err = run(["supersix", "solve", "--pegs", "4", "--exact"], capsys)
    assert (status, err) == (0, "")
    line = next(x for x in out.splitlines() if x.startswith("the first player wins"))
    assert line == (
        f"the first player wins with probability {shown_integer(BIG)}/"
        f"{shown_integer(3**21_000)} = {float(HUGE_FRACTION):.12f}"
    )
