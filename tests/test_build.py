"""Tests for gamegraph.build and the StateGraph it returns (gamegraph.graph)."""

from __future__ import annotations

import gc
import math
from collections import Counter, deque
from fractions import Fraction as F

import numpy as np
import pytest
from same_graph import assert_same_graph

from gamegraph import (
    InvalidArgumentError,
    InvalidRulesError,
    Option,
    Outcome,
    Rules,
    StateGraph,
    build,
)
from gamegraph.games.jackpot import Jackpot
from gamegraph.graph import expand_ranges

LAYERS = [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]

# Every test runs with the compiled walk and with the Python walk alone.
pytestmark = pytest.mark.usefixtures("both_walks")


def jackpot_offers(up: int, a: int, b: int) -> tuple:
    """Cells a roll names that are still down, in the order die A, die B, sum (<= 9)."""
    cells = []
    for c in (a, b, a + b):
        if c <= 9 and c not in cells and not up >> (c - 1) & 1:
            cells.append(c)
    return tuple(cells)


def check_layout(graph: StateGraph):
    """The CSR arrays are consistent with each other and with the exact weights."""
    n = graph.n_states
    assert graph.outcome_ptr.shape == (n + 1,)
    assert graph.outcome_ptr[0] == 0 and graph.outcome_ptr[-1] == graph.n_outcomes
    assert (np.diff(graph.outcome_ptr) >= 0).all()
    assert graph.option_ptr.shape == (graph.n_outcomes + 1,)
    assert graph.option_ptr[0] == 0 and graph.option_ptr[-1] == graph.n_options
    assert (np.diff(graph.option_ptr) >= 0).all()
    assert (graph.outcome_weight > 0).all()
    assert ((0 <= graph.option_target) & (graph.option_target < n)).all()
    per_state = (
        np.add.reduceat(graph.outcome_weight, graph.outcome_ptr[:-1][~graph.terminal])
        if (~graph.terminal).any()
        else np.array([])
    )
    # every state that plays has outcomes whose weights sum to the denominator exactly
    assert (per_state == graph.denominator).all()
    assert (np.diff(graph.outcome_ptr)[graph.terminal] == 0).all()
    assert (np.diff(graph.outcome_ptr)[~graph.terminal] > 0).all()
    assert graph.states[graph.start] == graph.rules.start()
    assert sorted(graph.terminal_exact) == np.flatnonzero(graph.terminal).tolist()
    for i, value in graph.terminal_exact.items():
        assert graph.terminal_value[i] == float(value)
        assert graph.rules.terminal_value(graph.states[i]) == value


def test_jackpot_has_512_states_in_the_published_layers(jackpot_graph):
    assert jackpot_graph.n_states == 512
    assert jackpot_graph.layer_counts() == LAYERS
    assert sorted(jackpot_graph.states) == list(range(512))
    check_layout(jackpot_graph)


def test_jackpot_start_and_win(jackpot_graph):
    g = jackpot_graph
    assert g.start == 0 and g.states[0] == 0 and g.label(0) == "START"
    assert np.flatnonzero(g.terminal).tolist() == [g.state_number(511)]
    assert g.terminal_exact == {g.state_number(511): F(1)}
    assert g.label(g.state_number(511)) == "WIN"
    # the start has no incoming move, the win no outgoing one
    assert g.start not in set(g.option_target.tolist())
    assert len(g.outcomes_of(g.state_number(511))) == 0
    assert g.denominator == 36


def test_jackpot_moves_flip_one_down_cell_into_the_next_layer(jackpot_graph):
    g = jackpot_graph
    source = np.array(g.states)[g.outcome_state[g.option_outcome]]
    target = np.array(g.states)[g.option_target]
    bit = 1 << (g.option_move.astype(np.int64) - 1)
    assert ((source & bit) == 0).all()
    assert (target == source | bit).all()
    assert (g.layers[g.option_target] == g.layers[g.outcome_state[g.option_outcome]] + 1).all()
    assert not g.option_passes.any()


def test_jackpot_outcomes_match_the_dice_at_every_state(jackpot_graph):
    """Every state's outcomes are exactly the 36 rolls grouped by the ordered cell list."""
    g = jackpot_graph
    for i, up in enumerate(g.states):
        if up == 511:
            continue
        expected = Counter(jackpot_offers(up, a, b) for a in range(1, 7) for b in range(1, 7))
        got = Counter()
        for k in g.outcomes_of(i):
            cells = tuple(int(g.option_move[j]) for j in g.options_of(k))
            assert cells not in got  # rolls with the same list are merged into one outcome
            got[cells] = int(g.outcome_weight[k]) * 36 // g.denominator
            assert g.probability(k) == F(got[cells], 36)
        assert got == expected, g.label(i)


def test_start_roll_classes_match_the_reference(jackpot_graph):
    """2 rolls offer one cell ({5,5}, {6,6}), 8 offer two and 26 offer three."""
    g = jackpot_graph
    rolls = Counter()
    for k in g.outcomes_of(g.start):
        rolls[len(g.options_of(k))] += g.probability(k) * 36
    assert rolls == {1: 2, 2: 8, 3: 26}


@pytest.mark.parametrize("cells", range(1, 7))
def test_small_boards_have_binomial_layers(cells):
    g = build(Jackpot(cells=cells))
    assert g.n_states == 2**cells
    assert g.layer_counts() == [math.comb(cells, k) for k in range(cells + 1)]
    check_layout(g)


def test_every_state_is_reachable_and_numbered_once(cyclic_case):
    g, known = cyclic_case
    check_layout(g)
    assert len(set(g.states)) == g.n_states
    assert all(g.index[s] == i == g.state_number(s) for i, s in enumerate(g.states))
    assert set(known) <= set(g.states)
    seen, queue = {g.start}, deque([g.start])
    while queue:
        i = queue.popleft()
        for k in g.outcomes_of(i):
            for j in g.options_of(k):
                t = int(g.option_target[j])
                if t not in seen:
                    seen.add(t)
                    queue.append(t)
    assert seen == set(range(g.n_states))


def test_options_keep_the_rules_order_and_flags(toys):
    g = build(toys.UrEndgameB())
    assert g.denominator == 8
    rules = toys.UrEndgameB()
    for i, state in enumerate(g.states):
        if rules.terminal_value(state) is not None:
            continue
        outcomes = rules.outcomes(state)
        assert [g.probability(k) for k in g.outcomes_of(i)] == [o.probability for o in outcomes]
        got = [
            [
                (g.states[g.option_target[j]], int(g.option_move[j]), bool(g.option_passes[j]))
                for j in g.options_of(k)
            ]
            for k in g.outcomes_of(i)
        ]
        assert got == [[(o.target, o.move, o.passes) for o in out.options] for out in outcomes]


def test_fractional_terminal_values_are_kept_exactly(toys):
    g = build(toys.Reroll(F(1, 4)))
    prize = g.state_number("prize")
    assert g.terminal_exact[prize] == F(1, 4)
    assert g.terminal_value[prize] == 0.25
    assert g.denominator == 3
    # an outcome without options is kept as a dead end
    dead = [k for k in range(g.n_outcomes) if len(g.options_of(k)) == 0]
    assert len(dead) == 1 and g.probability(dead[0]) == F(1, 3)


class _Weights(Rules):
    """One state whose throw has the given probabilities; every outcome wins."""

    def __init__(self, probabilities, bad_state="start"):
        self.probabilities = probabilities
        self.bad_state = bad_state

    def start(self):
        return "start"

    def terminal_value(self, state):
        return F(1) if state == "won" else None

    def outcomes(self, state):
        if state == self.bad_state:
            return [Outcome(p, (Option("won"),)) for p in self.probabilities]
        return [Outcome(F(1), (Option(self.bad_state),))]

    def label(self, state):
        return f"<{state}>"


@pytest.mark.parametrize(
    "probabilities",
    [
        (F(1, 2), F(1, 4)),  # sums to 3/4
        (F(1, 2), F(3, 4)),  # sums to 5/4
        (F(1), F(0)),  # a zero-probability outcome
        (F(3, 2), F(-1, 2)),  # a negative one
        (),  # no outcomes at all
    ],
    ids=["under", "over", "zero", "negative", "empty"],
)
@pytest.mark.parametrize("where", ["start", "later"])
def test_bad_probabilities_are_rejected(probabilities, where):
    with pytest.raises(InvalidRulesError, match=f"<{where}>"):
        build(_Weights(probabilities, bad_state=where))


def test_float_probabilities_summing_to_one_exactly_are_accepted():
    g = build(_Weights((0.5, 0.25, 0.25)))
    assert g.denominator == 4
    assert [g.probability(k) for k in range(3)] == [F(1, 2), F(1, 4), F(1, 4)]


def test_max_states_guard():
    with pytest.raises(InvalidRulesError, match="511"):
        build(Jackpot(), max_states=511)
    assert build(Jackpot(cells=4), max_states=16).n_states == 16


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(enabled):
    """The walk pauses the cyclic collector (collecting only its youngest generation as it
    goes) and leaves it as it found it, whether the build succeeds or the rules fail."""
    from gamegraph.games.pig import Pig

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert build(Pig(goal=30)).n_states > 2_000  # long enough to read its lists often
        assert gc.isenabled() is enabled
        with pytest.raises(InvalidRulesError):
            build(_Weights((F(1, 2), F(3, 4)), bad_state="later"))
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_game_over_before_it_starts():
    class Over(Rules):
        def start(self):
            return "over"

        def terminal_value(self, state):
            return F(1, 3)

        def outcomes(self, state):
            raise AssertionError("a terminal state is never asked for outcomes")

    g = build(Over())
    assert (g.n_states, g.n_outcomes, g.n_options, g.denominator) == (1, 0, 0, 1)
    assert g.terminal.tolist() == [True] and g.terminal_exact == {0: F(1, 3)}


def test_lookups_reject_unknown_states(jackpot_graph):
    assert jackpot_graph.state_number(10) == jackpot_graph.index[10]
    for bad in (512, -1, "START", [1, 2]):
        with pytest.raises(InvalidArgumentError):
            jackpot_graph.state_number(bad)


def test_games_without_layers_refuse_layer_counts(toys):
    g = build(toys.UrEndgameB())
    assert g.layers is None
    with pytest.raises(InvalidArgumentError, match="no layers"):
        g.layer_counts()


def test_build_is_deterministic():
    assert_same_graph(build(Jackpot(cells=5)), build(Jackpot(cells=5)))


def test_derived_arrays(jackpot_graph):
    g = jackpot_graph
    for i in (0, 5, 300):
        assert all(g.outcome_state[k] == i for k in g.outcomes_of(i))
        for k in g.outcomes_of(i):
            assert all(g.option_outcome[j] == k for j in g.options_of(k))
    assert np.allclose(g.outcome_probability, g.outcome_weight / 36)
    assert g.nbytes >= 8 * (g.n_outcomes + g.n_options)
    assert "512 states" in repr(g)


@pytest.mark.parametrize("seed", range(5))
def test_expand_ranges_matches_concatenated_ranges(seed):
    rng = np.random.default_rng(seed)
    starts = rng.integers(0, 50, size=20)
    stops = starts + rng.integers(0, 4, size=20)  # some ranges empty
    expected = [x for a, b in zip(starts, stops) for x in range(a, b)]
    assert expand_ranges(starts, stops).tolist() == expected


def test_expand_ranges_of_nothing():
    out = expand_ranges(np.array([3, 4]), np.array([3, 4]))
    assert out.dtype == np.int64 and out.size == 0
