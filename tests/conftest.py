"""Shared fixtures: the built Jackpot graph and small hand-made games with known answers.

The toy games below are written for the tests only. Each one is small enough that its
exact values can be derived by hand; the derivations are in the class docstrings and
the known values in ``CYCLIC_CASES``.
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from fractions import Fraction as F
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from gamegraph import Option, Outcome, Policy, Rules, build, evaluate, solve
from gamegraph.games.jackpot import AGENTS, Jackpot


# ---------------------------------------------------------------------------
# Toy games
# ---------------------------------------------------------------------------
class UrEndgameA(Rules):
    """Both sides one step from home: a throw of 1 (chance 1/4) wins, anything else
    hands the turn to the opponent, who stands in the mirror position, i.e. the same
    state. v = 1/4 + 3/4 (1 - v), so v = 4/7.

    With ``win_passes`` the winning move hands the turn over into a state where the
    opponent (to move) has lost, value 0: the same game seen the other way round.
    """

    name = "ur endgame a"

    def __init__(self, win_passes: bool = False):
        self.win_passes = win_passes

    def start(self):
        return "A"

    def terminal_value(self, state):
        return {"won": F(1), "lost": F(0)}.get(state)

    def outcomes(self, state):
        win = Option("lost", move=1, passes=True) if self.win_passes else Option("won", move=1)
        return [Outcome(F(1, 4), (win,)), Outcome(F(3, 4), (Option("A", move=0, passes=True),))]


class UrEndgameB(Rules):
    """Green (state G) wins with 3/8, with 1/4 reaches position A keeping the turn, and
    with 3/8 hands the turn to Red (state R). Red wins with 1/4, otherwise hands the turn
    back. g = 3/8 + 1/4 * 4/7 + 3/8 (1 - r), r = 1/4 + 3/4 (1 - g):
    g = 116/161, r = 74/161.
    """

    name = "ur endgame b"

    def start(self):
        return "G"

    def terminal_value(self, state):
        return F(1) if state == "won" else None

    def outcomes(self, state):
        if state == "G":
            return [
                Outcome(F(3, 8), (Option("won", move=2),)),
                Outcome(F(1, 4), (Option("A", move=1),)),
                Outcome(F(3, 8), (Option("R", move=0, passes=True),)),
            ]
        if state == "R":
            return [
                Outcome(F(1, 4), (Option("won", move=1),)),
                Outcome(F(3, 4), (Option("G", move=0, passes=True),)),
            ]
        return UrEndgameA().outcomes(state)


class Piglet(Rules):
    """Coin-flip Pig to 2 points. State (mine, theirs, turn total), mover first.

    Heads (1/2) adds a point to the turn total; if that reaches the goal the mover wins,
    otherwise the mover chooses to *continue* (keep the turn) or *hold* (bank the turn
    total and pass). Tails (1/2) loses the turn total and passes.

    Hand solution (a = v(0,0,0), b = v(0,1,0), c = v(1,0,0), d = v(1,1,0),
    e = v(0,0,1), f = v(0,1,1))::

        d = 1/2 + 1/2 (1 - d)                      -> d = 2/3
        c = 1/2 + 1/2 (1 - b)      f = 1/2 + 1/2 (1 - c)
        b = 1/2 max(f, 1 - d) + 1/2 (1 - c)
        e = 1/2 + 1/2 (1 - a)
        a = 1/2 max(e, 1 - b) + 1/2 (1 - a)

    f >= 1/2 > 1/3 = 1 - d, so continue at b: b = 2/5, c = 4/5, f = 3/5. At a, continuing
    gives a = 4/7 (then e = 5/7 > 1 - b = 3/5, consistent), holding would give 8/15 < 4/7.
    If both players always hold: b = 2/9, c = 8/9, a = 16/27.
    """

    name = "piglet"
    CONTINUE, HOLD = 0, 1

    def __init__(self, goal: int = 2, hold_first: bool = False):
        self.goal = goal
        self.hold_first = hold_first

    def start(self):
        return (0, 0, 0)

    def terminal_value(self, state):
        return F(1) if state == "won" else None

    def outcomes(self, state):
        mine, theirs, total = state
        if mine + total + 1 >= self.goal:
            heads = (Option("won", move=self.HOLD),)
        else:
            keep = Option((mine, theirs, total + 1), move=self.CONTINUE)
            hold = Option((theirs, mine + total + 1, 0), move=self.HOLD, passes=True)
            heads = (hold, keep) if self.hold_first else (keep, hold)
        tails = (Option((theirs, mine, 0), move=self.CONTINUE, passes=True),)
        return [Outcome(F(1, 2), heads), Outcome(F(1, 2), tails)]


class Reroll(Rules):
    """One player, one state S. A throw wins (1/3), loses (1/3, no option), or (1/3)
    offers a choice: throw again (back to S) or accept a prize worth ``prize``.
    v = 1/3 + 1/3 max(v, prize): rerolling forever gives 1/2, accepting (1 + prize)/3,
    so v = max(1/2, (1 + prize)/3): the choice inside the cycle matters.
    """

    name = "reroll"
    REROLL, ACCEPT = 0, 1

    def __init__(self, prize):
        self.prize = F(prize)

    def start(self):
        return "S"

    def terminal_value(self, state):
        return {"win": F(1), "prize": self.prize}.get(state)

    def outcomes(self, state):
        third = F(1, 3)
        return [
            Outcome(third, (Option("win", move=2),)),
            Outcome(third, ()),
            Outcome(third, (Option("S", move=self.REROLL), Option("prize", move=self.ACCEPT))),
        ]


class Duel(Rules):
    """Two players, one symmetric state D: the mover wins with 1/3, is stuck (no option,
    so loses) with 1/6, and passes the turn with 1/2. v = 1/3 + 1/2 (1 - v): v = 5/9."""

    name = "duel"

    def start(self):
        return "D"

    def terminal_value(self, state):
        return F(1) if state == "won" else None

    def outcomes(self, state):
        return [
            Outcome(F(1, 3), (Option("won", move=1),)),
            Outcome(F(1, 6), ()),
            Outcome(F(1, 2), (Option("D", move=0, passes=True),)),
        ]


class Stall(Rules):
    """One player who may stall forever (back to S) or take a prize of 1/2. Stalling
    forever never ends the game, so the policy "always stall" has no value."""

    name = "stall"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return F(1, 2) if state == "prize" else None

    def outcomes(self, state):
        return [Outcome(F(1), (Option("S", move=0), Option("prize", move=1)))]


class RandomGame(Rules):
    """A seeded random game on states 0..size-1 plus terminals win (1), loss (0) and
    draw-ish (1/2).

    Every state's first outcome ends the game whatever the player does (a forced win,
    loss, prize or no option), so every policy ends with probability one and the
    Bellman equations have exactly one solution. The other outcomes offer 1..3 options
    that mostly lead forward and sometimes back (``back`` is that chance), so the graph
    has cycles of several shapes. With ``two_player`` options pass the turn at random.
    """

    name = "random game"

    def __init__(self, seed: int, size: int = 10, two_player: bool = True, back: float = 0.25):
        rng = random.Random(seed)
        self.table = {}
        for s in range(size):
            raw = [rng.randint(1, 6) for _ in range(rng.randint(2, 4))]
            total = sum(raw)
            exits = rng.choice([(), ("win",), ("loss",), ("win", "half"), ("half", "loss")])
            outcomes = [Outcome(F(raw[0], total), tuple(Option(t, move=9) for t in exits))]
            for w in raw[1:]:
                options = []
                for m in range(rng.randint(1, 3)):
                    if rng.random() < back:
                        target = rng.randrange(0, s + 1)
                    elif s + 1 < size and rng.random() < 0.85:
                        target = rng.randrange(s + 1, size)
                    else:
                        target = rng.choice(["win", "loss", "half"])
                    passes = two_player and rng.random() < 0.5
                    options.append(Option(target, move=m, passes=passes))
                outcomes.append(Outcome(F(w, total), tuple(options)))
            self.table[s] = outcomes

    def start(self):
        return 0

    def terminal_value(self, state):
        return {"win": F(1), "loss": F(0), "half": F(1, 2)}.get(state)

    def outcomes(self, state):
        return self.table[state]


TOYS = SimpleNamespace(
    UrEndgameA=UrEndgameA,
    UrEndgameB=UrEndgameB,
    Piglet=Piglet,
    Reroll=Reroll,
    Duel=Duel,
    Stall=Stall,
    RandomGame=RandomGame,
)

PIGLET_VALUES = {
    (0, 0, 0): F(4, 7),
    (0, 0, 1): F(5, 7),
    (0, 1, 0): F(2, 5),
    (0, 1, 1): F(3, 5),
    (1, 0, 0): F(4, 5),
    (1, 1, 0): F(2, 3),
}

# (id, rules factory, exact values of non-terminal states derived by hand)
CYCLIC_CASES = [
    ("ur-a", lambda: UrEndgameA(), {"A": F(4, 7)}),
    ("ur-a-win-passes", lambda: UrEndgameA(win_passes=True), {"A": F(4, 7)}),
    ("ur-b", lambda: UrEndgameB(), {"G": F(116, 161), "R": F(74, 161), "A": F(4, 7)}),
    ("piglet", lambda: Piglet(), PIGLET_VALUES),
    ("piglet-hold-first", lambda: Piglet(hold_first=True), PIGLET_VALUES),
    ("reroll-0", lambda: Reroll(0), {"S": F(1, 2)}),
    ("reroll-1/4", lambda: Reroll(F(1, 4)), {"S": F(1, 2)}),
    ("reroll-3/4", lambda: Reroll(F(3, 4)), {"S": F(7, 12)}),
    ("reroll-1", lambda: Reroll(1), {"S": F(2, 3)}),
    ("duel", lambda: Duel(), {"D": F(5, 9)}),
]


@pytest.fixture(scope="session")
def toys():
    """The toy game classes."""
    return TOYS


@pytest.fixture(params=CYCLIC_CASES, ids=[case[0] for case in CYCLIC_CASES])
def cyclic_case(request):
    """(graph, known exact values by state) for each hand-solved cyclic game."""
    _, make, known = request.param
    return build(make()), known


# ---------------------------------------------------------------------------
# The per-state build's two walks
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module", params=["compiled walk", "python walk"])
def both_walks(request):
    """Run a module's tests once with the build's compiled walk (:mod:`gamegraph._walk`)
    and once with its Python walk alone: ``pytestmark = pytest.mark.usefixtures(...)``.
    Module-scoped, so hypothesis tests can use it."""
    build_module = importlib.import_module("gamegraph.build")
    if request.param == "python walk":
        with build_module._python_walk_only():
            yield request.param
    elif build_module._walk_plain is None:
        pytest.skip("gamegraph._walk is not built (pip found no C compiler)")
    else:
        yield request.param


# ---------------------------------------------------------------------------
# Jackpot
# ---------------------------------------------------------------------------
@pytest.fixture(scope="session")
def jackpot_graph():
    return build(Jackpot())


@pytest.fixture(scope="session")
def jackpot_optimum(jackpot_graph):
    return solve(jackpot_graph, exact=True)


@pytest.fixture(scope="session")
def jackpot_policies(jackpot_graph):
    """The six agents as policies, by name."""
    return {
        name: Policy.from_agent(jackpot_graph, agent, name=name) for name, agent in AGENTS.items()
    }


@pytest.fixture(scope="session")
def jackpot_agent_values(jackpot_graph, jackpot_policies):
    """Exact evaluation of each agent, by name."""
    return {
        name: evaluate(jackpot_graph, policy, exact=True)
        for name, policy in jackpot_policies.items()
    }


# ---------------------------------------------------------------------------
# What each test needs: markers set at collection
# ---------------------------------------------------------------------------
# `make test-fast` leaves out the tests marked browser, notebook or subprocess. No test
# carries those marks by hand: a test gets one when its code reaches the thing, directly,
# through a function or class of the test folder or through a fixture, so a new test is
# classified the day it is written.

TESTS = str(Path(__file__).resolve().parent)
#: The helpers that start headless Chromium (tests/pages.py, tests/devtools.py), by module
#: and name; ``tests.pages`` is the same file imported under its package name.
BROWSER_ENTRIES = {("pages", "open_in_chromium"), ("devtools", "launch"), ("devtools", "DevTools")}
#: Modules that run a Jupyter notebook: a test module that imports one is a notebook test.
NOTEBOOK_MODULES = ("nbclient", "nbconvert")
CHROMIUM_MISSING = "headless Chromium is not installed"


def _name(value, attribute: str) -> str:
    name = getattr(value, attribute, "")
    return name if isinstance(name, str) else ""


def _ours(value) -> bool:
    """Whether ``value`` is a function or class written in the test folder."""
    if isinstance(value, type):
        value = sys.modules.get(value.__module__)
        return _name(value, "__file__").startswith(TESTS)
    code = getattr(value, "__code__", None)
    return code is not None and code.co_filename.startswith(TESTS)


def _reached(function, seen: set) -> set:
    """The markers ``function`` earns: "browser" if its code reaches a browser helper,
    "subprocess" if it reaches the subprocess module.

    Follows every global name in its code (nested functions included) into the functions
    and classes of the test folder; library code is not followed.
    """
    code = getattr(function, "__code__", None)
    if code is None or code in seen:
        return set()
    seen.add(code)
    found = set()
    codes = [code]
    while codes:
        current = codes.pop()
        codes.extend(c for c in current.co_consts if hasattr(c, "co_names"))
        # A global, or a module imported inside the function; the names such a module
        # of the test folder gives (``from pages import open_in_chromium`` in a test).
        values = [function.__globals__.get(n, sys.modules.get(n)) for n in current.co_names]
        values += [
            getattr(module, n, None)
            for module in values
            if isinstance(module, ModuleType) and _name(module, "__file__").startswith(TESTS)
            for n in current.co_names
        ]
        for value in values:
            module = _name(value, "__module__") or _name(value, "__name__")
            if (module.removeprefix("tests."), _name(value, "__name__")) in BROWSER_ENTRIES:
                found.add("browser")
            elif module == "subprocess":
                found.add("subprocess")
            elif isinstance(value, type) and _ours(value):
                for member in vars(value).values():
                    found |= _reached(member, seen)
            elif _ours(value):
                found |= _reached(value, seen)
    return found


def pytest_collection_modifyitems(config, items):
    earned: dict = {}  # function -> markers, shared by parametrized tests and fixtures
    for item in items:
        function = getattr(item, "function", None)
        if function is None:  # a doctest: library code only
            continue
        functions = [function]
        info = getattr(item, "_fixtureinfo", None)
        for name in item.fixturenames:
            definitions = info.name2fixturedefs.get(name) if info else None
            if definitions:
                functions.append(definitions[-1].func)
        found = set()
        for each in functions:
            if each not in earned:
                earned[each] = _reached(each, set())
            found |= earned[each]
        imported = (_name(v, "__name__") for v in vars(item.module).values())
        if any(name.startswith(NOTEBOOK_MODULES) for name in imported):
            found.add("notebook")
        for marker in sorted(found):
            item.add_marker(marker)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pytest_runtest_setup(item):
    """A browser test without Chromium skips, saying why; under CI=true it fails with one
    line instead, so CI never passes without having opened the pages."""
    if item.get_closest_marker("browser") is None:
        return
    from pages import chromium

    if chromium() is None:
        reason = f"{CHROMIUM_MISSING}; `make test` installs it (scripts/ensure-browser)"
        if _in_ci():
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI=true a skip for want of Chromium is a failure, also in a test the markers
    did not recognise as a browser test."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and _in_ci() and CHROMIUM_MISSING in str(report.longrepr):
        report.outcome = "failed"
        report.longrepr = f"CI=true and {CHROMIUM_MISSING}"
