"""The per-state build's compiled walk (gamegraph/_walk.pyx) against its Python walk.

The compiled walk records plain states and leaves every other one to the Python walk,
taking back what it had recorded of it: both must give the same graph, to the array,
and the same message for every broken rule. tests/test_build.py and
tests/hostile/test_rules_validation.py run whole under each walk as well.
"""

from __future__ import annotations

import importlib
import shutil
import sysconfig
from fractions import Fraction as F

import pytest
from same_graph import assert_same_graph

from gamegraph import Option, Outcome, Rules, build
from gamegraph.errors import InvalidRulesError
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.pig import Pig
from gamegraph.games.race import HomeRun
from gamegraph.games.shutbox import ShutTheBox
from gamegraph.games.supersix import SuperSix
from gamegraph.games.ur import Ur

build_module = importlib.import_module("gamegraph.build")
COMPILED = build_module._walk_plain

needs_compiled = pytest.mark.skipif(
    COMPILED is None, reason="gamegraph._walk is not built (pip found no C compiler)"
)


def build_with(rules, walk, **kwargs):
    """Build with the compiled walk (``walk="compiled"``) or the Python walk alone."""
    if walk == "compiled":
        return build(rules, explore=True, progress=False, **kwargs)
    with build_module._python_walk_only():
        return build(rules, explore=True, progress=False, **kwargs)


def message_with(rules, walk, **kwargs):
    with pytest.raises(Exception) as raised:
        build_with(rules, walk, **kwargs)
    return type(raised.value), str(raised.value)


def test_the_compiled_walk_is_built_where_a_compiler_is():
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}): the Python walk alone is expected")
    assert COMPILED is not None, (
        "gamegraph._walk is not built although a C compiler is present: reinstall with "
        "`pip install -e .` (make does it when gamegraph/_walk.pyx changes)"
    )


@needs_compiled
@pytest.mark.parametrize(
    "make",
    [
        lambda: Pig(goal=20),
        lambda: ShutTheBox(tiles=9),
        lambda: HomeRun(track=7, tokens=2),
        lambda: Jackpot(),
        lambda: Ur("finkel", pieces=2),
        lambda: SuperSix(pegs=12),
    ],
    ids=["pig 20", "shut the box 9", "home run", "jackpot", "ur finkel 2", "super six 12"],
)
@pytest.mark.heavy  # seconds: `make test-fast` leaves it out
def test_both_walks_build_the_same_graph(make):
    assert_same_graph(build_with(make(), "compiled"), build_with(make(), "python"))


class Mixed(Rules):
    """A counting game whose states hand their outcomes back in every accepted form,
    plain and not, so that the compiled walk leaves states to the Python one throughout:
    terminal states, tuples of outcomes, generators, Outcome and Option subclasses,
    options in lists, float and int probabilities."""

    name = "mixed"

    class Choice(Option):
        pass

    class Chance(Outcome):
        pass

    def start(self):
        return 0

    def terminal_value(self, state):
        return F(state % 3, 2) if state >= 40 else None

    def outcomes(self, state):
        a, b = state + 1, state + 2 + state % 3
        form = state % 6
        if form == 0:  # plain
            return [Outcome(F(1, 2), (Option(a, move=1),)), Outcome(F(1, 2), (Option(b),))]
        if form == 1:  # a tuple of outcomes, an Option subclass in the middle
            return (Outcome(1, (Option(a), self.Choice(b, 2, True), Option(a + 3))),)
        if form == 2:  # a generator
            return (o for o in [Outcome(0.5, (Option(a),)), Outcome(0.5, (Option(b),))])
        if form == 3:  # an Outcome subclass after a plain outcome
            return [Outcome(F(1, 4), (Option(a),)), self.Chance(F(3, 4), (Option(b),))]
        if form == 4:  # options in a list
            return [Outcome(F(1), [Option(a, passes=True), Option(b, move=7)])]
        return [Outcome(F(1), ())]  # stuck: no options


@needs_compiled
def test_states_the_compiled_walk_leaves_to_python_build_alike():
    compiled, python = build_with(Mixed(), "compiled"), build_with(Mixed(), "python")
    assert_same_graph(compiled, python)
    assert compiled.n_states == 43 and len(compiled.terminal_exact) == 3


class LateFault(Rules):
    """Counts up; at state ``at`` the third option of the second outcome breaks the
    rules (``fault``), after the state has numbered new targets of its own."""

    name = "late fault"

    def __init__(self, fault, at=30):
        self.fault, self.at = fault, at

    def start(self):
        return 0

    def terminal_value(self, state):
        return F(1) if state >= 200 else None

    def outcomes(self, state):
        step = [Option(state + 1), Option(state + 2)]
        if state != self.at:
            return [Outcome(F(1, 2), tuple(step)), Outcome(F(1, 2), (Option(state + 3),))]
        third = {
            "unhashable": Option([state]),
            "raising hash": Option(Unhashable()),
            "not an option": (state + 4, -1, False),
            "bad move": Option(state + 4, move="up"),
        }[self.fault]
        late = (Option(state + 100), Option(state + 101), third)
        return [Outcome(F(1, 2), tuple(step)), Outcome(F(1, 2), late)]


class Unhashable:
    def __hash__(self):
        raise ValueError("no hash for you")


@needs_compiled
@pytest.mark.parametrize("fault", ["unhashable", "raising hash", "not an option", "bad move"])
def test_a_fault_after_new_states_gives_the_same_message(fault):
    compiled = message_with(LateFault(fault), "compiled")
    assert compiled == message_with(LateFault(fault), "python")
    if fault != "raising hash":
        assert compiled[0] is InvalidRulesError
        assert "outcome 1 option 2" in compiled[1] and "of state 30:" in compiled[1]


@needs_compiled
@pytest.mark.parametrize("limit", [33, 34, 35, 60])
def test_the_state_limit_is_met_alike_inside_a_state(limit):
    compiled = message_with(LateFault("bad move", at=-1), "compiled", max_states=limit)
    assert compiled == message_with(LateFault("bad move", at=-1), "python", max_states=limit)
    assert compiled[0] is InvalidRulesError and f"more than {limit:,} states" in compiled[1]


class RaisesAt(Rules):
    """Counts up and fails at state 25, reached only through a bad probability: its
    outcomes raise, or the hash of its last target does, after two options recorded."""

    name = "raises"

    def __init__(self, how):
        self.how = how

    def start(self):
        return 0

    def terminal_value(self, state):
        return None

    def outcomes(self, state):
        if state == 25 and self.how == "outcomes":
            raise RuntimeError("the rules broke")
        half = F(1, 2) if state != 24 else F(1, 3)
        last = Option(Unhashable()) if state == 25 else Option(state + 2)
        return [
            Outcome(half, (Option(state + 1), Option(state + 3))),
            Outcome(half, (Option(state + 4), last)),
        ]


@needs_compiled
@pytest.mark.parametrize("how", ["outcomes", "hash"])
def test_rules_that_raise_are_traced_to_the_breach_alike(how):
    compiled = message_with(RaisesAt(how), "compiled")
    assert compiled == message_with(RaisesAt(how), "python")
    assert compiled[0] is InvalidRulesError and "of state 24" in compiled[1]


@needs_compiled
def test_a_state_given_up_half_way_leaves_no_records_behind():
    walk = build_module._Walk(RaisesAt("hash"), max_states=10**6)
    pos, kind, said = COMPILED(walk, 0, 10**6)
    assert (pos, kind) == (25, build_module._IRREGULAR) and walk.states[pos] == 25
    assert [len(outcome.options) for outcome in said] == [2, 2]  # the rules' own answer
    assert walk.outcome_counts == [2] * 25
    assert len(walk.probabilities) == len(walk.option_counts) == 50
    assert sum(walk.option_counts) == len(walk.targets) == len(walk.moves) == len(walk.passes)
    assert walk.targets[-4:] == [25, 27, 28, 26]  # state 24's options, the last recorded


class Meddling(Rules):
    """Rules whose state objects' hash empties the list of outcomes being read, or
    replaces an outcome in it."""

    name = "meddling"

    def __init__(self, how):
        self.how, self.handed = how, []

    def start(self):
        return 0

    def terminal_value(self, state):
        return F(1) if not isinstance(state, int) or state >= 3 else None

    def outcomes(self, state):
        self.handed = [
            Outcome(F(1, 2), (Option(Meddler(self)),)),
            Outcome(F(1, 2), (Option(state + 1),)),
        ]
        return self.handed


class Meddler:
    def __init__(self, rules):
        self.rules = rules

    def __hash__(self):
        if self.rules.how == "empties":
            self.rules.handed.clear()
        else:
            self.rules.handed[1] = "not an outcome"
        return 7


@needs_compiled
@pytest.mark.parametrize("how", ["empties", "replaces"])
def test_rules_that_change_a_list_while_it_is_read_get_an_error_not_a_crash(how):
    with pytest.raises(RuntimeError, match="changed a list of outcomes or options"):
        build_with(Meddling(how), "compiled")
