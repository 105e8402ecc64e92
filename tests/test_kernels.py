"""The compiled solver (gamegraph._kernels, numba) against the numpy solver.

Both engines must give the same values (to 1e-12) and the same policy (up to ties within
tol) on every game, the same errors on games that never end, and the compiled
condensation must mean the same as scipy's.
"""

from __future__ import annotations

import sys
from fractions import Fraction as F

import numpy as np
import pytest
from conftest import CYCLIC_CASES, TOYS

from gamegraph import Option, Outcome, Policy, Rules, _kernels, build, condensation, evaluate, solve
from gamegraph.condensation import condense
from gamegraph.errors import (
    ConvergenceError,
    MissingExtraError,
    NonTerminatingGameError,
    UnknownNameError,
)
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.pig import Pig, hold_at
from gamegraph.games.supersix import SuperSix
from gamegraph.games.ur import Ur
from gamegraph.termination import sure_to_end
from gamegraph.values import option_values

pytest.importorskip("numba", reason="the numba engine needs the fast extra (numba)")

TOL = 1e-13


def assert_same_policy(graph, values, one, other, tol=TOL):
    """Equal choices, except where both are best within ``tol`` (a tie)."""
    differ = np.flatnonzero(one != other)
    if not len(differ):
        return
    q = option_values(graph, values)
    start = graph.option_ptr[differ]
    assert np.all(np.abs(q[start + one[differ]] - q[start + other[differ]]) <= 2 * tol)


def compare(graph):
    numpy = solve(graph, engine="numpy")
    numba = solve(graph, engine="numba")
    assert np.max(np.abs(numpy.values - numba.values), initial=0.0) <= 1e-12
    assert numba.residual <= TOL and numpy.residual <= TOL
    assert_same_policy(graph, numpy.values, numpy.policy.choice, numba.policy.choice)
    cyclic = graph.condensation.cyclic.any()
    assert (numba.iterations >= 1) if cyclic else (numba.iterations == 0)
    return numpy, numba


@pytest.fixture(scope="module")
def games():
    return {
        "supersix-50": build(SuperSix(pegs=50)),
        "ur-2": build(Ur("finkel", pieces=2)),
        "pig-20": build(Pig(20)),
    }


# ---------------------------------------------------------------------------
# Both engines agree
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", CYCLIC_CASES, ids=[case[0] for case in CYCLIC_CASES])
def test_the_cyclic_toys_agree_and_match_their_known_values(case):
    _, make, known = case
    graph = build(make())
    _, numba = compare(graph)
    for state, value in known.items():
        assert abs(numba.value(state) - float(value)) < 1e-12


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("two_player", [False, True])
def test_random_games_agree_with_the_exact_solve(seed, two_player):
    graph = build(TOYS.RandomGame(seed, size=10, two_player=two_player))
    exact = solve(graph, exact=True)
    _, numba = compare(graph)
    assert np.max(np.abs(numba.values - exact.values.astype(float))) < 1e-12


def test_jackpot_agrees_with_the_exact_solve(jackpot_graph, jackpot_optimum):
    _, numba = compare(jackpot_graph)
    assert abs(numba.start_value - float(jackpot_optimum.start_value)) < 1e-15
    assert np.array_equal(numba.policy.choice, jackpot_optimum.policy.choice)


@pytest.mark.parametrize("name", ["supersix-50", "ur-2", "pig-20"])
def test_the_games_agree(games, name):
    compare(games[name])


def test_pig_to_10_reproduces_its_exact_value():
    numba = solve(build(Pig(10)), engine="numba")
    assert abs(numba.start_value - 7776 / 10961) < 1e-15


def test_auto_is_numba_and_exact_stays_exact(games):
    graph = games["pig-20"]
    auto, numba = solve(graph), solve(graph, engine="numba")
    assert np.array_equal(auto.values, numba.values)
    exact = solve(build(TOYS.Duel()), exact=True, engine="numba")
    assert exact.exact and exact.start_value == F(5, 9)


# ---------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("agent", ["min", "max", "hilo"])
def test_jackpot_agents_evaluate_alike(
    jackpot_graph, jackpot_policies, jackpot_agent_values, agent
):
    numba = evaluate(jackpot_graph, jackpot_policies[agent], engine="numba")
    exact = jackpot_agent_values[agent].values.astype(float)
    assert np.max(np.abs(numba.values - exact)) < 1e-15
    assert numba.residual <= TOL


@pytest.mark.parametrize("points", [10, 20])
def test_pig_hold_at_evaluates_alike(games, points):
    graph = games["pig-20"]
    policy = Policy.from_agent(graph, hold_at(points))
    numpy = evaluate(graph, policy, engine="numpy")
    numba = evaluate(graph, policy, engine="numba")
    assert np.max(np.abs(numpy.values - numba.values)) <= 1e-12
    assert numba.residual <= TOL
    assert np.array_equal(numba.policy.choice, policy.choice)


@pytest.mark.parametrize("name", ["supersix-50", "ur-2"])
def test_other_policies_evaluate_alike(games, name):
    graph = games[name]
    last = Policy(np.maximum(np.diff(graph.option_ptr) - 1, -1).astype(np.int32), name="last")
    if not sure_to_end(graph, last.choice).all():
        last = solve(graph, engine="numpy").policy
    for policy in (solve(graph, engine="numpy").policy, last):
        numpy = evaluate(graph, policy, engine="numpy")
        numba = evaluate(graph, policy, engine="numba")
        assert np.max(np.abs(numpy.values - numba.values)) <= 1e-12
        assert numba.residual <= TOL


# ---------------------------------------------------------------------------
# Games that never end, iteration caps, a component handed back
# ---------------------------------------------------------------------------
class PassToSelf(Rules):
    name = "pass to self"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return None

    def outcomes(self, state):
        return [Outcome(F(1), (Option("S", move=0, passes=True),))]


class AvoidLoss(Rules):
    name = "avoid loss"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return F(0) if state == "lost" else None

    def outcomes(self, state):
        return [Outcome(F(1), (Option("S", move=0), Option("lost", move=1)))]


class TrapBelow(Rules):
    name = "trap below"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return F(1) if state == "won" else None

    def outcomes(self, state):
        if state == "S":
            return [Outcome(F(1, 2), (Option("won"),)), Outcome(F(1, 2), (Option("X"),))]
        return [Outcome(F(1), (Option("Y" if state == "X" else "X", passes=True),))]


@pytest.mark.parametrize("engine", ["numpy", "numba"])
@pytest.mark.parametrize(
    "rules, message",
    [
        (PassToSelf(), r"cannot end from 1 state \(S\)"),
        (TrapBelow(), r"cannot end from 2 states \(X, Y\)"),
        (AvoidLoss(), "optimal play would never reach the end"),
    ],
    ids=["pass-to-self", "trap", "avoid-loss"],
)
def test_games_that_never_end_are_refused_by_both_engines(rules, message, engine):
    with pytest.raises(NonTerminatingGameError, match=message):
        solve(build(rules), engine=engine)


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_the_stall_toy_takes_the_prize_on_both_engines(engine):
    graph = build(TOYS.Stall())
    solution = solve(graph, engine=engine)
    assert abs(solution.start_value - 0.5) < 1e-12
    assert solution.policy.choice.tolist() == [1]
    stall = Policy(np.zeros(graph.n_outcomes, dtype=np.int32), name="stall")
    with pytest.raises(NonTerminatingGameError, match=r"policy 'stall'.*1 state \(S\)"):
        evaluate(graph, stall, engine=engine)


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_value_iteration_cap_raises_on_both_engines(engine):
    graph = build(TOYS.UrEndgameB())
    with pytest.raises(ConvergenceError, match="after 1 rounds"):
        solve(graph, method="value", max_iter=1, engine=engine)


def test_a_component_that_does_not_settle_goes_to_the_fallback(games):
    graph = games["supersix-50"]
    values = graph.terminal_value.astype(np.float64)
    choice = np.full(graph.n_outcomes, -1, dtype=np.int32)
    reference = solve(graph, engine="numpy")
    handed = []

    def fallback(states):  # the exact answer, as the numpy code would give it
        handed.append(len(states))
        values[states] = reference.values[states]

    sweeps, residual = _kernels.solve(
        graph, values, choice, fixed=False, tol=TOL, max_sweeps=2, fallback=fallback
    )
    c = graph.condensation
    assert len(handed) == int(c.cyclic.sum()) and sum(handed) == int(c.cyclic[c.component].sum())
    assert np.max(np.abs(values - reference.values)) <= 1e-12 and residual <= TOL
    with pytest.raises(RuntimeError, match="did not settle"):
        _kernels.solve(graph, values, choice, fixed=False, tol=TOL, max_sweeps=1)


# ---------------------------------------------------------------------------
# Policy iteration in a band (large components numbered near the diagonal)
# ---------------------------------------------------------------------------
@pytest.fixture
def banded(monkeypatch):
    """Every cyclic component, however small, tries the banded policy iteration first."""
    monkeypatch.setattr(_kernels, "_BAND_MIN", 1)


@pytest.mark.parametrize("case", CYCLIC_CASES, ids=[case[0] for case in CYCLIC_CASES])
def test_banded_policy_iteration_agrees_on_the_cyclic_toys(banded, case):
    _, make, known = case
    _, numba = compare(build(make()))
    for state, value in known.items():
        assert abs(numba.value(state) - float(value)) < 1e-12


@pytest.mark.parametrize("seed", range(8))
def test_banded_policy_iteration_agrees_on_random_games(banded, seed):
    graph = build(TOYS.RandomGame(seed, size=10, two_player=True))
    exact = solve(graph, exact=True)
    _, numba = compare(graph)
    assert np.max(np.abs(numba.values - exact.values.astype(float))) < 1e-12


@pytest.mark.parametrize("name", ["supersix-50", "ur-2", "pig-20"])
def test_banded_policy_iteration_agrees_on_the_games(banded, games, name):
    _, numba = compare(games[name])
    if name == "supersix-50":  # every layer fits in the band: rounds, not sweeps
        assert 2 <= numba.iterations <= 6


def test_banded_policy_evaluation_agrees(banded, games):
    graph = games["supersix-50"]
    policy = solve(graph, engine="numpy").policy
    numpy = evaluate(graph, policy, engine="numpy")
    numba = evaluate(graph, policy, engine="numba")
    assert np.max(np.abs(numpy.values - numba.values)) <= 1e-12
    assert numba.residual <= TOL


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_banded_policy_iteration_refuses_games_that_never_end(banded, engine):
    for rules, message in [
        (PassToSelf(), r"cannot end from 1 state \(S\)"),
        (TrapBelow(), r"cannot end from 2 states \(X, Y\)"),
        (AvoidLoss(), "optimal play would never reach the end"),
    ]:
        with pytest.raises(NonTerminatingGameError, match=message):
            solve(build(rules), engine=engine)
    solution = solve(build(TOYS.Stall()), engine=engine)
    assert abs(solution.start_value - 0.5) < 1e-12 and solution.policy.choice.tolist() == [1]


@pytest.mark.parametrize("fixed", [False, True])
@pytest.mark.parametrize("name", ["ur-2", "pig-20", "supersix-50"])
def test_components_gathered_in_sweep_order_give_the_same_values_to_the_bit(
    monkeypatch, games, name, fixed
):
    """Every cyclic component gathered again in its sweep order (as the large ones are) or
    none: the same updates in the same order, so the same values, bit for bit."""
    graph = games[name]
    policy = solve(graph, engine="numpy").policy if fixed else None
    monkeypatch.setattr(_kernels, "_BAND_MIN", 10**9)  # every component swept
    found = {}
    for sweep_min in (1, 10**9):
        monkeypatch.setattr(_kernels, "_SWEEP_ORDER_MIN", sweep_min)
        if fixed:
            found[sweep_min] = evaluate(graph, policy, engine="numba")
        else:
            found[sweep_min] = solve(graph, engine="numba")
    again, once = found[1], found[10**9]
    assert np.array_equal(again.values, once.values)
    if not fixed:  # (an evaluation does not count its sweeps)
        assert again.iterations == once.iterations >= 2
        assert np.array_equal(again.policy.choice, once.policy.choice)


def test_the_band_numbers_a_ring_narrowly_and_refuses_a_hub():
    _kernels._compile()
    m = 80

    def band(l_target, per_state):
        l_first = np.arange(m + 1, dtype=np.int64)  # one outcome per state
        l_opt = np.arange(0, per_state * m + 1, per_state, dtype=np.int64)
        scratch = [np.zeros(m + 1, dtype=np.int64), np.zeros(2 * len(l_target), dtype=np.int64)]
        pos = np.zeros(m, dtype=np.int64)
        lo, up = _kernels._band(
            m, l_first, l_opt, l_target, 16, *scratch, np.zeros(m, dtype=np.int64), pos
        )
        return lo, up, pos

    ring = np.array([(u + 1) % m for u in range(m)], dtype=np.int64)
    lo, up, pos = band(ring, 1)
    assert sorted(pos.tolist()) == list(range(m)) and max(lo, up) <= 2
    edges = np.abs(pos[np.arange(m)] - pos[ring])
    assert edges.max() <= max(lo, up)
    # the ring, and every state also leads to state 0: it has m edges, and every
    # numbering puts some of its neighbours m / 2 places away
    hub = np.array([[(u + 1) % m, 0] for u in range(m)], dtype=np.int64).ravel()
    assert band(hub, 2)[:2] == (-1, -1)


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ["cuda", "", None, 1, "NUMBA"])
def test_unknown_engine(jackpot_graph, jackpot_policies, engine):
    with pytest.raises(UnknownNameError, match="engine.*accepted: auto, numba, numpy"):
        solve(jackpot_graph, engine=engine)
    with pytest.raises(UnknownNameError, match="engine"):
        evaluate(jackpot_graph, jackpot_policies["hilo"], engine=engine)


def test_numba_engine_without_numba_names_the_extra(jackpot_graph, monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now fails
    with pytest.raises(MissingExtraError, match=r"gamegraph\[fast\]"):
        solve(jackpot_graph, engine="numba")
    assert solve(jackpot_graph, engine="numpy").residual <= TOL


def test_available():
    assert _kernels.available()


# ---------------------------------------------------------------------------
# The compiled condensation
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make",
    [
        lambda: Jackpot(cells=4),
        lambda: SuperSix(pegs=20),
        lambda: TOYS.UrEndgameB(),
        lambda: TOYS.Piglet(),
        lambda: Pig(12),
        lambda: TrapBelow(),
    ],
    ids=["jackpot-4", "supersix-20", "ur-b", "piglet", "pig-12", "trap"],
)
def test_compiled_condensation_means_the_same(make):
    graph = build(make())
    reference = condense(graph)
    component, cyclic, levels = _kernels.condense(
        graph.n_states, graph.outcome_ptr, graph.option_ptr, graph.option_target
    )
    assert [level.tolist() for level in levels] == [lv.tolist() for lv in reference.levels]
    assert np.array_equal(cyclic[component], reference.cyclic[reference.component])
    # the same partition into components, numbered differently
    pairs = set(zip(component.tolist(), reference.component.tolist()))
    assert len(pairs) == len(cyclic) == reference.n_components


def test_condense_takes_the_kernel_for_large_graphs(monkeypatch):
    graph = build(SuperSix(pegs=20))
    reference = condense(graph)
    monkeypatch.setattr(condensation, "KERNEL_MIN_STATES", 0)
    calls = []
    real = _kernels.condense
    monkeypatch.setattr(_kernels, "condense", lambda *args: calls.append(1) or real(*args))
    compiled = condense(graph)
    assert calls == [1]
    assert [lv.tolist() for lv in compiled.levels] == [lv.tolist() for lv in reference.levels]
    assert np.array_equal(
        compiled.cyclic[compiled.component], reference.cyclic[reference.component]
    )


# ---------------------------------------------------------------------------
# The compiled termination check
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_compiled_sure_to_end_matches_the_numpy_check(seed):
    rng = np.random.default_rng(seed)
    graphs = [build(make()) for _, make, _ in CYCLIC_CASES]
    graphs += [build(TOYS.Stall()), build(TrapBelow()), build(Pig(8))]
    graphs += [build(TOYS.RandomGame(seed, size=10, two_player=True))]
    unsure = 0
    for graph in graphs:
        counts = np.diff(graph.option_ptr)
        for _ in range(10):
            pick = (rng.random(len(counts)) * np.maximum(counts, 1)).astype(np.int64)
            choice = np.where(counts > 0, pick, -1)
            expected = sure_to_end(graph, choice)
            assert np.array_equal(_kernels.sure_to_end(graph, choice), expected)
            unsure += int((~expected).sum())
    assert unsure > 0  # some policies never end: both checks must say where


def test_sure_to_end_at_once_when_every_cycle_can_be_left_at_each_step():
    # Super Six: the pit leaves the layer whatever is chosen, so every policy ends the
    # game; Pig: a bust hands the turn back inside the component, so the searches run.
    six, pig = build(SuperSix(pegs=12)), build(Pig(8))
    rng = np.random.default_rng(7)

    def escapes(graph, choice):
        c = graph.condensation
        args = (graph.outcome_ptr, graph.option_ptr, graph.option_target)
        return _kernels._escapes(
            *(np.asarray(a, dtype=np.int64) for a in args),
            graph.outcome_weight.astype(np.float64), graph.terminal.astype(bool),
            c.component.astype(np.int64), c.cyclic.astype(bool), choice.astype(np.int64),
        )  # fmt: skip

    for graph, quick in ((six, True), (pig, False)):
        counts = np.diff(graph.option_ptr)
        pick = (rng.random(len(counts)) * np.maximum(counts, 1)).astype(np.int64)
        choice = np.where(counts > 0, pick, -1)
        assert escapes(graph, choice) is quick
        expected = sure_to_end(graph, choice)
        assert np.array_equal(_kernels.sure_to_end(graph, choice), expected)
        assert expected.all() or not quick
    # a missing choice where there are options: no quick answer, the searches find it
    choice = np.where(np.diff(six.option_ptr) > 0, 0, -1)
    choice[np.flatnonzero(np.diff(six.option_ptr) > 0)[-1]] = -1
    assert not escapes(six, choice)
    expected = sure_to_end(six, choice)
    assert not expected.all()
    assert np.array_equal(_kernels.sure_to_end(six, choice), expected)
