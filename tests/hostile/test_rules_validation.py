"""Issue 11, case 11: the Rules API checks what a game hands it.

``build`` checks every state's outcomes as it explores them: bad input ends in
InvalidRulesError naming the state and the field (or InvalidArgumentError for a bad
``max_states``), never in a raw Python exception, and valid rules still build.
"""

from __future__ import annotations

import sys
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamegraph import Option, Outcome, Rules, build
from gamegraph.build import DEFAULT_MAX_STATES
from gamegraph.errors import InvalidArgumentError, InvalidRulesError

# Every test runs with the compiled walk and with the Python walk alone.
pytestmark = pytest.mark.usefixtures("both_walks")


class Table(Rules):
    """A game given as a table: state -> outcomes (a value, or a list of outcomes)."""

    name = "table"

    def __init__(self, outcomes, terminal=None, start="S"):
        self.table = outcomes
        self.terminals = terminal or {"won": F(1)}
        self.first = start

    def start(self):
        return self.first

    def terminal_value(self, state):
        return self.terminals.get(state)

    def outcomes(self, state):
        return self.table[state]


def one(*options):
    return Table({"S": [Outcome(F(1), tuple(options))]})


def _refused(rules, *fragments):
    with pytest.raises(InvalidRulesError) as info:
        build(rules)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.mark.parametrize(
    "probability, problem",
    [
        (float("nan"), "nan is not a finite number"),
        (float("inf"), "inf is not a finite number"),
        (None, "None is not a number"),
        ("1/2", "'1/2' is not a number"),
        (True, "True is not a number"),
        (-F(1, 2), "outside (0, 1]"),
        (0, "outside (0, 1]"),
        (F(3, 2), "outside (0, 1]"),
    ],
)
def test_bad_probabilities_name_the_state_and_the_field(probability, problem):
    rules = Table({"S": [Outcome(probability, (Option("won"),)), Outcome(F(1, 2), ())]})
    _refused(rules, "state S", "outcome 0 probability", problem)


def test_probabilities_must_sum_to_exactly_one():
    rules = Table({"S": [Outcome(F(1, 3), ()), Outcome(F(1, 3), (Option("won"),))]})
    _refused(rules, "state S", "sum to 2/3, not 1")
    floats = Table({"S": [Outcome(0.1, ()), Outcome(0.2, ()), Outcome(0.7, (Option("won"),))]})
    _refused(floats, "floats are taken exactly")


def test_floats_that_are_exact_and_ints_are_accepted_as_before():
    graph = build(Table({"S": [Outcome(0.25, ()), Outcome(0.75, (Option("won"),))]}))
    assert graph.outcome_weight.tolist() == [1, 3] and graph.denominator == 4
    graph = build(Table({"S": [Outcome(1, (Option("won", move=np.int64(3)),))]}))
    assert graph.option_move.tolist() == [3]


@pytest.mark.parametrize("value", [2, F(-1, 3), float("nan"), "1", True, None])
def test_terminal_values_outside_zero_one_are_refused(value):
    if value is None:  # None means "not terminal": S then has no outcomes summing to 1
        rules = Table({"S": [Outcome(F(1), (Option("end"),))], "end": []}, {"end": value})
        _refused(rules, "state end", "sum to 0, not 1")
        return
    rules = Table({"S": [Outcome(F(1), (Option("end"),))]}, {"end": value})
    _refused(rules, "state end", "terminal_value")


@pytest.mark.parametrize(
    "option, field",
    [
        (Option("won", passes="no"), "option 0 passes"),
        (Option("won", passes=1), "option 0 passes"),
        (Option("won", move="1"), "option 0 move"),
        (Option("won", move=1.0), "option 0 move"),
        (Option("won", move=True), "option 0 move"),
        (Option("won", move=2**40), "option 0 move"),
        (("won", 1, False), "option 0"),
        (Option(["unhashable"]), "option 0 target"),
    ],
)
def test_bad_options_name_the_state_and_the_field(option, field):
    _refused(one(option), "state S", field)


def test_outcomes_must_be_outcomes_in_a_list():
    _refused(Table({"S": None}), "state S", "outcomes()")
    _refused(Table({"S": [(F(1), ())]}), "state S", "outcome 0", "is not an Outcome")
    _refused(Table({"S": [Outcome(F(1), Option("won"))]}), "outcome 0 options")
    _refused(Table({}, start=["list"]), "start()", "not hashable")


@pytest.mark.parametrize("max_states", [0, -1, float("nan"), 1.5, True, "10"])
def test_max_states_must_be_a_positive_whole_number(toys, max_states):
    with pytest.raises(InvalidArgumentError, match="max_states must be a whole number >= 1"):
        build(toys.Piglet(), max_states=max_states)


class Counter(Rules):
    """An infinite state space: every state leads to the next number."""

    name = "counter"

    def start(self):
        return 0

    def terminal_value(self, state):
        return None

    def outcomes(self, state):
        return [Outcome(F(1), (Option(state + 1),))]


def test_an_infinite_state_space_stops_at_the_limit():
    with pytest.raises(InvalidRulesError, match="counter has more than 1,000 states"):
        build(Counter(), max_states=1000)
    assert DEFAULT_MAX_STATES == 10_000_000


def test_the_default_limit_applies_without_max_states(monkeypatch):
    monkeypatch.setattr(sys.modules["gamegraph.build"], "DEFAULT_MAX_STATES", 500)
    with pytest.raises(InvalidRulesError, match="more than 500 states"):
        build(Counter())


# ---------------------------------------------------------------------------
# Property: random malformed rules end in InvalidRulesError or build.
# ---------------------------------------------------------------------------
_numbers = st.one_of(
    st.fractions(min_value=-2, max_value=2, max_denominator=12),
    st.integers(-2, 2),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, 0.25, 1.0]),
)
_junk = st.one_of(st.none(), st.text(max_size=3), st.booleans(), st.just(np.float64("nan")))
_targets = st.one_of(
    st.sampled_from(["S", "T", "won", "lost"]), st.lists(st.integers(), max_size=1)
)
_options = st.one_of(
    st.builds(
        Option,
        _targets,
        st.one_of(st.integers(-(2**33), 2**33), _junk),
        st.one_of(st.booleans(), _junk, st.integers(0, 1)),
    ),
    _junk,
)
_outcomes = st.one_of(
    st.builds(Outcome, st.one_of(_numbers, _junk), st.lists(_options, max_size=3).map(tuple)),
    _junk,
)
_tables = st.fixed_dictionaries(
    {"S": st.lists(_outcomes, max_size=4), "T": st.lists(_outcomes, max_size=4)}
)
_terminal = st.one_of(_numbers, _junk)


@settings(max_examples=300, deadline=None)
@given(table=_tables, won=_terminal, lost=_terminal)
def test_random_malformed_rules_end_in_invalid_rules_error_or_build(table, won, lost):
    rules = Table(table, {"won": won, "lost": lost})
    try:
        graph = build(rules)
    except InvalidRulesError as error:
        assert "table: " in str(error) and "state " in str(error)
        return
    # It built: then every checked invariant holds.
    assert graph.denominator > 0
    for i in range(graph.n_states):
        weights = [int(graph.outcome_weight[k]) for k in graph.outcomes_of(i)]
        assert graph.terminal[i] or sum(weights) == graph.denominator
    assert all(0 <= v <= 1 for v in graph.terminal_exact.values())


@settings(max_examples=100, deadline=None)
@given(
    parts=st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=3), min_size=2, max_size=2),
    passes=st.booleans(),
)
def test_random_valid_rules_build(parts, passes):
    table = {}
    for state, weights in zip(("S", "T"), parts):
        total = sum(weights)
        table[state] = [
            Outcome(F(w, total), (Option("won", move=k), Option("T", move=-1, passes=passes)))
            for k, w in enumerate(weights)
        ]
    graph = build(Table(table))
    assert graph.n_states == 3
    assert graph.outcome_weight.sum() == 2 * graph.denominator
