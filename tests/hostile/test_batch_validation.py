"""Batch rules (gamegraph.batch) that break their contract end in InvalidRulesError.

Every array an ``expand`` call returns is checked as the frontier is explored: a breach
gives one InvalidRulesError whose message names the game and, where one state is to
blame, that state's label; never a raw numpy or Python exception. Random malformed
expansions (hypothesis) either build a graph whose invariants hold or are refused so.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamegraph.batch as batch_module
from gamegraph import build
from gamegraph.batch import BatchRules, Expansion
from gamegraph.errors import InvalidRulesError


class Probe(BatchRules):
    """Codes 0..3 with 3 terminal (value 1). State c < 3 throws a coin: heads goes to
    c + 1, tails passes the turn back to 0. ``change(codes, fields)`` edits the fields
    of the valid expansion before it is returned; labels are "S<code>"."""

    name = "probe"
    code_bound = 4

    def __init__(self, change=None, **attributes):
        self.change = change
        self.__dict__.update(attributes)

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.where(codes == 3, 1.0, np.nan)

    def fields(self, codes):
        m = len(codes)
        return {
            "outcome_state": np.repeat(np.arange(m), 2),
            "outcome_weight": np.ones(2 * m, dtype=np.int64),
            "denominator": 2,
            "option_outcome": np.arange(2 * m),
            "option_target": np.column_stack([codes + 1, np.zeros(m, np.int64)]).ravel(),
            "option_move": np.tile([1, 0], m),
            "option_passes": np.tile([False, True], m),
        }

    def expand(self, codes):
        fields = self.fields(codes)
        if self.change is not None:
            result = self.change(codes, fields)
            if result is not None:
                return result
        return Expansion(**fields)

    def label(self, state):
        return f"S{state}"


def refused(rules, *fragments, max_states=None):
    with pytest.raises(InvalidRulesError) as info:
        build(rules, max_states=max_states)
    message = str(info.value)
    assert message.startswith(f"{rules.name}"), message
    for fragment in fragments:
        assert fragment in message, message
    return message


def setting(**values):
    """A change that overwrites some fields (a callable value gets the codes)."""

    def change(codes, fields):
        for key, value in values.items():
            fields[key] = value(codes) if callable(value) else value

    return change


def test_the_probe_builds_when_nothing_is_changed():
    graph = build(Probe())
    assert graph.n_states == 4 and graph.denominator == 2
    assert graph.states.codes.tolist() == [0, 1, 2, 3]


# ---------------------------------------------------------------------------
# The result itself, shapes, grouping
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("result", [None, (), {"outcome_state": [0]}, "expansion", [1, 2]])
def test_expand_must_return_an_expansion(result):
    def change(codes, fields):
        return result

    if result is None:  # Probe reads None as "no change"; make a real None come back
        rules = Probe()
        rules.expand = lambda codes: None
    else:
        rules = Probe(change)
    refused(rules, "expand() must return an Expansion")


@pytest.mark.parametrize(
    "values, problem",
    [
        (
            {"outcome_state": lambda c: np.arange(2 * len(c))[:, None]},
            "outcome_state and outcome_weight differ",
        ),
        (
            {"outcome_weight": lambda c: np.ones(2 * len(c) + 1, dtype=int)},
            "outcome_state and outcome_weight differ",
        ),
        ({"outcome_state": 0}, "outcome_state and outcome_weight differ"),
        (
            {"option_target": lambda c: np.zeros(2 * len(c) + 1, dtype=int)},
            "option_outcome and option_target differ",
        ),
        ({"option_target": None}, "option_outcome and option_target differ"),
        (
            {"option_outcome": lambda c: np.arange(2 * len(c)).reshape(-1, 1)},
            "option_outcome and option_target differ",
        ),
        (
            {"option_move": lambda c: np.zeros(2 * len(c) + 1, dtype=int)},
            "option_move must be ints, one per option",
        ),
        (
            {"option_passes": lambda c: np.zeros(1, dtype=bool)},
            "option_passes must be bools, one per option",
        ),
        ({"outcome_state": ["a", "b"]}, "outcome_state must be integer indices"),
        ({"outcome_state": None}, "outcome_state must be integer indices"),
        ({"outcome_state": [[0], [0, 0]]}, "outcome_state must be integer indices"),
        ({"option_outcome": ["x", "y"]}, "option_outcome must be integer indices"),
    ],
)
def test_wrong_shapes_and_types_of_the_index_arrays(values, problem):
    refused(Probe(setting(**values)), problem)


def test_float_indices_are_refused_not_truncated():
    refused(Probe(setting(outcome_state=[0.2, 0.7])), "outcome_state must be integer indices")
    refused(Probe(setting(option_outcome=[0.0, 1.5])), "option_outcome must be integer indices")


@pytest.mark.parametrize(
    "outcome_state",
    [
        lambda c: np.repeat(np.arange(len(c)), 2)[::-1].copy(),  # decreasing
        lambda c: np.repeat(np.arange(len(c)), 2) - 1,  # negative
        lambda c: np.repeat(np.arange(len(c)), 2) + 1,  # past the last code
    ],
)
def test_outcome_state_must_be_non_decreasing_indices_into_the_codes(outcome_state):
    rules = Probe(setting(outcome_state=outcome_state), roots=lambda: (0, 1, 2))
    refused(rules, "outcome_state must be non-decreasing indices into the codes")


def test_a_state_with_no_outcomes_is_named():
    # The second frontier is the one code 1: its call returns no outcome at all.
    def change(codes, fields):
        if len(codes) == 1 and codes[0] == 1:
            return Expansion(
                np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64),
                2,
                np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64),
            )

    refused(Probe(change), "outcomes of state S1", "there are none")


def test_the_state_without_outcomes_is_the_one_named_in_a_call_of_several():
    class Wide(Probe):
        def roots(self):
            return (0, 1, 2)

    def change(codes, fields):
        if len(codes) == 3:  # codes 0, 1, 2: give state 1 nothing
            keep = fields["outcome_state"] != 1
            fields["outcome_state"] = fields["outcome_state"][keep]
            fields["outcome_weight"] = fields["outcome_weight"][keep]
            fields["option_outcome"] = np.arange(4)
            for key in ("option_target", "option_move", "option_passes"):
                fields[key] = fields[key][keep]  # one option per outcome

    refused(Wide(change), "outcomes of state S1", "there are none")


# ---------------------------------------------------------------------------
# Probabilities
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "weights, shown",
    [
        ([0, 2], "0/2 is outside (0, 1]"),
        ([-1, 3], "-1/2 is outside (0, 1]"),
        ([3, -1], "3/2 is outside (0, 1]"),
    ],
)
def test_weights_outside_zero_one_name_the_state(weights, shown):
    def change(codes, fields):
        fields["outcome_weight"] = np.tile(weights, len(codes))

    refused(Probe(change), "outcome probability of state S0", shown)


@pytest.mark.parametrize(
    "weights, denominator, total",
    [([1, 2], 2, "3/2"), ([1, 1], 3, "2/3"), ([1, 1, 1], 4, "3/4")],
)
def test_weights_must_sum_to_the_denominator(weights, denominator, total):
    def change(codes, fields):
        m, k = len(codes), len(weights)
        fields.update(
            outcome_state=np.repeat(np.arange(m), k),
            outcome_weight=np.tile(weights, m),
            denominator=denominator,
            option_outcome=np.arange(k * m),
            option_target=np.tile(np.arange(k) % 2 * 3, m),
            option_move=None,
            option_passes=None,
        )

    refused(Probe(change), "outcome probabilities of state S0", f"they sum to {total}, not 1")


def test_weights_whose_int64_sum_wraps_around_to_the_denominator():
    # Six weights of 2**62 - 1 minus a little sum to 5 * 2**62 - 1, which is the
    # denominator 2**62 - 1 modulo 2**64: the int64 sum looks right, the true one is not.
    d = 2**62 - 1
    weights = [d] * 5 + [5 * 2**62 - 1 - 5 * d]
    assert sum(weights) % 2**64 == d and all(0 < w <= d for w in weights)

    def change(codes, fields):
        m = len(codes)
        fields.update(
            outcome_state=np.repeat(np.arange(m), 6),
            outcome_weight=np.tile(np.array(weights, dtype=np.int64), m),
            denominator=d,
            option_outcome=np.arange(6 * m),
            option_target=np.full(6 * m, 3),
            option_move=None,
            option_passes=None,
        )

    assert np.array(weights, dtype=np.int64).sum() == d  # what a plain check would see
    total = Fraction(sum(weights), d)
    refused(Probe(change), "outcome probabilities of state S0", f"they sum to {total}, not 1")


@pytest.mark.parametrize(
    "weights",
    [
        np.array([0.5, 1.5]),
        np.array([np.nan, 1.0]),
        np.array([np.inf, 1.0]),
        np.array([1e30, 1.0]),
        np.array([2**70, 1], dtype=object),
        np.array(["1", "1"]),
        None,
    ],
    ids=["fraction", "nan", "inf", "1e30", "bigint", "str", "none"],
)
def test_weights_that_are_not_whole_numbers(weights):
    def change(codes, fields):
        fields["outcome_weight"] = np.tile(weights, len(codes)) if weights is not None else None

    refused(Probe(change), "outcome_weight must be whole numbers")


def test_whole_float_weights_are_accepted():
    def change(codes, fields):
        fields["outcome_weight"] = fields["outcome_weight"].astype(float)

    assert build(Probe(change)).outcome_weight.tolist() == [1, 1] * 3


@pytest.mark.parametrize(
    "denominator, problem",
    [
        (0, "denominator 0 is not in [1, 2**62)"),
        (-2, "denominator -2 is not in [1, 2**62)"),
        (2**62, f"denominator {2**62} is not in [1, 2**62)"),
        (2.0, "denominator must be an int"),
        (True, "denominator must be an int"),
        ("2", "denominator must be an int"),
    ],
)
def test_bad_denominators(denominator, problem):
    refused(Probe(setting(denominator=denominator)), problem)


def test_denominators_whose_common_multiple_passes_2_to_the_62():
    # Two primes near 2**31 and 2**32: each fits, their product does not.
    p, q = 2_147_483_647, 4_294_967_311

    def change(codes, fields):
        d = p if codes[0] == 0 else q
        fields["denominator"] = d
        fields["outcome_weight"] = np.tile([1, d - 1], len(codes))

    refused(Probe(change), "common denominator", "does not fit in 62 bits")


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "option_outcome",
    [
        lambda c: np.arange(2 * len(c))[::-1].copy(),  # decreasing
        lambda c: np.arange(2 * len(c)) - 1,  # negative
        lambda c: np.arange(2 * len(c)) + 1,  # past the last outcome
    ],
)
def test_option_outcome_must_be_non_decreasing_indices_into_the_outcomes(option_outcome):
    refused(
        Probe(setting(option_outcome=option_outcome)),
        "option_outcome must be non-decreasing indices into the outcomes",
    )


@pytest.mark.parametrize("target, shown", [(-1, "-1"), (4, "4"), (2**40, str(2**40))])
def test_targets_outside_the_code_bound_name_the_state(target, shown):
    def change(codes, fields):
        t = fields["option_target"]
        t[-1] = target  # the last option of the last state of the call

    message = refused(Probe(change), f"option target {shown} (from state S0)", "outside [0, 4)")
    assert "from state S0" in message


def test_negative_targets_without_a_code_bound():
    def change(codes, fields):
        fields["option_target"] = fields["option_target"] - 5

    refused(Probe(change, code_bound=None), "option target -4 (from state S0)", "outside [0, inf)")


@pytest.mark.parametrize(
    "targets",
    [
        lambda c: np.zeros(2 * len(c)) + 0.5,
        lambda c: np.zeros(2 * len(c), dtype=bool),
        lambda c: np.array(["1"] * (2 * len(c))),
        lambda c: np.array([2**63 + 1] * (2 * len(c)), dtype=np.uint64),
    ],
    ids=["float", "bool", "str", "uint64"],
)
def test_targets_that_are_not_int64_codes(targets):
    message = refused(Probe(setting(option_target=targets)), "option target")
    assert "integer codes" in message or "is not an int64" in message


def test_start_and_roots_outside_the_code_bound():
    refused(Probe(start=lambda: 4), "start() 4 is outside [0, 4)")
    refused(Probe(roots=lambda: (0, -2)), "roots() -2 is outside [0, 4)")
    refused(Probe(start=lambda: 1.5), "start() must be integer codes")


@pytest.mark.parametrize(
    "moves, problem",
    [
        (np.array([2**31, 0]), "option_move does not fit in 32 bits"),
        (np.array([-(2**31) - 1, 0]), "option_move does not fit in 32 bits"),
        (np.array([1.0, 0.0]), "option_move must be ints, one per option"),
        (np.array([True, False]), "option_move must be ints, one per option"),
    ],
)
def test_moves_must_be_ints_that_fit_in_32_bits(moves, problem):
    refused(Probe(setting(option_move=lambda c: np.tile(moves, len(c)))), problem)


def test_moves_at_the_edges_of_int32_are_kept():
    moves = np.array([2**31 - 1, -(2**31)])
    graph = build(Probe(setting(option_move=lambda c: np.tile(moves, len(c)))))
    assert graph.option_move.tolist() == moves.tolist() * 3


@pytest.mark.parametrize(
    "passes", [np.array([0, 1]), np.array([0.0, 1.0]), np.array(["no", "yes"])]
)
def test_passes_must_be_bools(passes):
    refused(
        Probe(setting(option_passes=lambda c: np.tile(passes, len(c)))),
        "option_passes must be bools, one per option",
    )


# ---------------------------------------------------------------------------
# Terminal values, code_bound, max_states
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("value, shown", [(1.5, "1.5"), (-0.25, "-0.25"), (np.inf, "inf")])
def test_terminal_values_outside_zero_one_name_the_state(value, shown):
    rules = Probe(terminal_values=lambda codes: np.where(codes == 3, value, np.nan))
    refused(rules, "terminal_values of state S3", f"{shown} is not in [0, 1]")


@pytest.mark.parametrize(
    "values, problem",
    [
        (lambda codes: np.zeros(len(codes) + 1), "terminal_values gave shape (2,) for 1 codes"),
        (lambda codes: np.float64(np.nan), "terminal_values gave shape () for 1 codes"),
        (lambda codes: np.zeros((len(codes), 1)), "terminal_values gave shape (1, 1) for 1 codes"),
        (lambda codes: ["won"] * len(codes), "terminal_values must give one float per code"),
        (lambda codes: None, "terminal_values gave shape ()"),
        (lambda codes: [[1.0], [1.0, 2.0]], "terminal_values must give one float per code"),
    ],
)
def test_terminal_values_of_the_wrong_shape_or_type(values, problem):
    refused(Probe(terminal_values=values), problem)


@pytest.mark.parametrize("bound", [4.0, "4", 0, -1, True])
def test_code_bound_must_be_a_whole_number(bound):
    refused(Probe(code_bound=bound), "code_bound must be a whole number >= 1")


def test_more_states_than_max_states():
    refused(Probe(), "more than 3 states (max_states)", max_states=3)
    assert build(Probe(), max_states=4).n_states == 4


def test_max_states_is_checked_as_states_are_numbered(monkeypatch):
    """A game that never closes stops at max_states, chunk by chunk."""

    class Forever(BatchRules):
        name = "forever"

        def start(self):
            return 0

        def terminal_values(self, codes):
            return np.full(len(codes), np.nan)

        def expand(self, codes):
            m = len(codes)
            return Expansion(np.arange(m), np.ones(m, np.int64), 1, np.arange(m), codes + 1)

    monkeypatch.setattr(batch_module, "CHUNK", 16)
    refused(Forever(), "forever has more than 1,000 states (max_states)", max_states=1000)


def test_a_broken_label_does_not_hide_the_error():
    def label(state):
        raise RuntimeError("broken label")

    rules = Probe(setting(outcome_weight=lambda c: np.tile([0, 2], len(c))), label=label)
    refused(rules, "outcome probability of state 0", "0/2 is outside (0, 1]")


# ---------------------------------------------------------------------------
# Property: random malformed expansions end in InvalidRulesError or a sound graph.
# ---------------------------------------------------------------------------
_FIELDS = (
    "outcome_state",
    "outcome_weight",
    "denominator",
    "option_outcome",
    "option_target",
    "option_move",
    "option_passes",
)
_big = st.sampled_from([2**31, -(2**31) - 1, 2**62, 2**63 - 1, -(2**63), 2**64])
_junk = st.sampled_from([0.5, 1.0, float("nan"), float("inf"), 1e30, -1.0, "x", None])
_values = st.one_of(st.integers(-3, 6), st.integers(-3, 6), _big, _junk, st.booleans())
_breach = st.tuples(
    st.sampled_from(_FIELDS),
    st.sampled_from(["set", "drop", "add", "whole", "reverse"]),
    st.integers(0, 20),
    _values,
)


@st.composite
def _plans(draw):
    """A valid expansion per state (k outcomes with weights over their sum, options with
    targets in 0..3) and up to three breaches applied to every call's arrays."""
    k = draw(st.integers(1, 3))
    weights = draw(st.lists(st.integers(1, 4), min_size=k, max_size=k))
    options = draw(st.lists(st.integers(0, 2), min_size=k, max_size=k))
    n = sum(options)
    return {
        "weights": weights,
        "options": options,
        "targets": draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)),
        "moves": draw(st.lists(st.integers(-1, 5), min_size=n, max_size=n)),
        "passes": draw(st.lists(st.booleans(), min_size=n, max_size=n)),
        "breaches": draw(st.lists(_breach, max_size=3)),
    }


def _planned(plan, m):
    """The plan's fields for a call on m codes, breaches applied."""
    k, n = len(plan["weights"]), len(plan["targets"])
    fields = {
        "outcome_state": list(np.repeat(np.arange(m), k).tolist()),
        "outcome_weight": plan["weights"] * m,
        "denominator": sum(plan["weights"]),
        "option_outcome": [
            i * k + o for i in range(m) for o, c in enumerate(plan["options"]) for _ in range(c)
        ],
        "option_target": plan["targets"] * m,
        "option_move": plan["moves"] * m,
        "option_passes": plan["passes"] * m,
    }
    assert len(fields["option_outcome"]) == n * m
    for field, how, at, value in plan["breaches"]:
        column = fields[field]
        if field == "denominator" or how == "whole" or not isinstance(column, list):
            fields[field] = value
        elif how == "set" and column:
            column[at % len(column)] = value
        elif how == "drop" and column:
            del column[at % len(column)]
        elif how == "add":
            column.insert(at % (len(column) + 1), value)
        elif how == "reverse":
            column.reverse()
    return fields


def _as_array(value):
    if not isinstance(value, list):
        return value
    try:
        return np.array(value)
    except (OverflowError, ValueError, TypeError):
        return np.array(value, dtype=object)


@settings(max_examples=400, deadline=None)
@given(plan=_plans(), code_bound=st.sampled_from([4, None]))
def test_random_malformed_expansions_end_in_invalid_rules_error_or_build(plan, code_bound):
    def change(codes, _):
        fields = _planned(plan, len(codes))
        return Expansion(**{key: _as_array(value) for key, value in fields.items()})

    try:
        graph = build(Probe(change, code_bound=code_bound), max_states=50)
    except InvalidRulesError as error:
        assert str(error).startswith("probe")
        return
    # It built: every checked invariant holds.
    n = graph.n_states
    assert 0 < graph.denominator < 2**62
    assert graph.outcome_ptr[0] == 0 and graph.outcome_ptr[-1] == graph.n_outcomes
    assert graph.option_ptr[-1] == graph.n_options
    sums = np.add.reduceat(graph.outcome_weight, graph.outcome_ptr[:-1][~graph.terminal])
    assert (sums == graph.denominator).all()
    assert ((graph.outcome_weight > 0) & (graph.outcome_weight <= graph.denominator)).all()
    assert ((graph.option_target >= 0) & (graph.option_target < n)).all()
    assert graph.option_move.dtype == np.int32 and graph.option_passes.dtype == bool
    assert (np.diff(graph.outcome_ptr)[graph.terminal] == 0).all()
    assert (np.diff(graph.outcome_ptr)[~graph.terminal] > 0).all()


def test_empty_option_arrays_may_be_float_as_numpy_makes_them():
    """``np.array([])`` is float64: a call whose throws all leave the mover stuck may
    return it for the (empty) index and code arrays."""
    empty = np.array([])
    rules = Probe(
        setting(option_outcome=empty, option_target=empty, option_move=None, option_passes=None)
    )
    graph = build(rules)
    assert graph.n_states == 1 and graph.n_outcomes == 2 and graph.n_options == 0


# ---------------------------------------------------------------------------
# Objectives and rewards
# ---------------------------------------------------------------------------
def rewarded(reward, objective="margin", **attributes):
    """The probe paying ``reward(codes)`` (or ``reward``) on its options."""
    return Probe(setting(option_reward=reward), objective=objective, **attributes)


def test_the_probe_with_rewards_builds_in_a_margin_game():
    graph = build(rewarded(lambda codes: np.tile([0.5, -1], len(codes))))
    assert graph.objective == "margin"
    assert graph.reward_exact == dict(enumerate([Fraction(1, 2), -1] * 3))


@pytest.mark.parametrize(
    "reward, problem",
    [
        (
            lambda c: np.tile([np.nan, 0.0], len(c)),
            "option reward of state S0: nan is not a finite",
        ),
        (
            lambda c: np.tile([0.0, np.inf], len(c)),
            "option reward of state S0: inf is not a finite",
        ),
        (
            lambda c: np.array([*(["x"] if c[0] == 2 else [0]), 0] * len(c), dtype=object),
            "option reward of state S2: 'x' is not a number",
        ),
        (lambda c: np.array([True, False] * len(c), dtype=object), "True is not a number"),
        (lambda c: np.array([None, 1] * len(c), dtype=object), "None is not a number"),
        (lambda c: np.array([float("nan"), 1] * len(c), dtype=object), "nan is not a finite"),
        (lambda c: np.tile([True, False], len(c)), "option_reward must hold one number per"),
        (lambda c: np.tile(["1", "2"], len(c)), "option_reward must hold one number per"),
        (lambda c: np.zeros(2 * len(c) + 1), "option_reward must hold one number per option"),
        (lambda c: np.zeros((2 * len(c), 1)), "option_reward must hold one number per option"),
        (lambda c: np.tile([1j, 0], len(c)), "option_reward must hold one number per option"),
    ],
)
def test_rewards_that_are_not_finite_numbers_are_refused(reward, problem):
    refused(rewarded(reward), problem)


def test_a_reward_in_a_win_game_is_refused_naming_the_state():
    rules = Probe(setting(option_reward=lambda c: np.where(c == 2, 1, 0).repeat(2)))
    message = refused(rules, "option reward of state S2", 'objective is "win" has no rewards')
    assert '"score" (one player) or "margin"' in message
    # Rewards of 0 are no rewards: a win game may give them.
    graph = build(Probe(setting(option_reward=lambda c: np.zeros(2 * len(c)))))
    assert graph.reward_exact == {} and not graph.has_rewards


def test_a_score_game_whose_option_passes_is_refused():
    refused(Probe(objective="score"), "option passes of state S0", "no option passes the turn")


def test_terminal_values_follow_the_objective():
    big = {"terminal_values": lambda codes: np.where(codes == 3, 7.5, np.nan)}
    refused(
        Probe(**big), "terminal_values of state S3", '7.5 is not in [0, 1] (the objective is "win")'
    )
    assert build(Probe(objective="margin", **big)).terminal_exact == {3: Fraction(15, 2)}
    infinite = {"terminal_values": lambda codes: np.where(codes == 3, -np.inf, np.nan)}
    refused(
        Probe(objective="margin", **infinite), "terminal_values of state S3", "-inf is not a finite"
    )


def test_an_unknown_objective_is_refused():
    from gamegraph.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="probe: objective.*'cash'.*win, score, margin"):
        build(Probe(objective="cash"))
