"""Tests for gamegraph.games.jackpot: the rules, the six agents and the published figures.

The second half re-implements Jackpot from the rules as stated in the reference README
(plain Python, Fractions, one memoised recursion over the set of flipped cells) and
checks the library against it state by state.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction as F
from functools import cache

import numpy as np
import pytest
from published import JACKPOT_PERCENT

from gamegraph import InvalidArgumentError, solve
from gamegraph.games.jackpot import AGENTS, HILO_PRIORITY, PUBLISHED_PERCENT, Jackpot
from gamegraph.propagate import propagate

HILO = F(660001525, 8264970432)
OPTIMUM = F(14103327415, 176319369216)
START, FULL = 0, 511


# ---------------------------------------------------------------------------
# An independent Jackpot, written from the rules text
# ---------------------------------------------------------------------------
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def offers(up: frozenset, a: int, b: int) -> list:
    """The cells a roll lets the player flip: die A, die B, then their sum if it is a
    cell; each cell once, and only cells that are still down."""
    out = []
    for cell in (a, b, a + b):
        if cell <= 9 and cell not in out and cell not in up:
            out.append(cell)
    return out


PICKS = {
    "min": min,
    "max": max,
    "first": lambda cells: cells[0],
    "last": lambda cells: cells[-1],
    "hilo": lambda cells: next(c for c in (9, 8, 7, 1, 2, 3, 4, 5, 6) if c in cells),
    "hilo2": lambda cells: max(cells) if max(cells) > 6 else min(cells),
}


@cache
def win_chance(agent: str, up: frozenset) -> F:
    """Probability of flipping all nine cells from ``up`` when ``agent`` picks the cell
    ("best" picks the cell with the highest chance)."""
    if len(up) == 9:
        return F(1)
    total = F(0)
    for a, b in ROLLS:
        cells = offers(up, a, b)
        if not cells:
            continue  # nothing to flip: this roll loses
        if agent == "best":
            total += max(win_chance(agent, up | {c}) for c in cells)
        else:
            total += win_chance(agent, up | {PICKS[agent](cells)})
    return total / 36


def flips_reached(agent: str) -> list:
    """P(the game gets to n flipped cells), n = 0..9, by pushing probability forward."""
    layer = {frozenset(): F(1)}
    reached = []
    for _ in range(10):
        reached.append(sum(layer.values()))
        following = defaultdict(F)
        for up, mass in layer.items():
            for a, b in ROLLS:
                cells = offers(up, a, b)
                if cells:
                    if agent == "best":  # ties go to the first cell offered, as in solve()
                        chances = [win_chance("best", up | {c}) for c in cells]
                        pick = cells[chances.index(max(chances))]
                    else:
                        pick = PICKS[agent](cells)
                    following[up | {pick}] += mass / 36
        layer = following
    return reached


def as_cells(mask: int) -> frozenset:
    return frozenset(c for c in range(1, 10) if mask >> (c - 1) & 1)


def test_the_independent_implementation_reproduces_the_given_figures():
    assert win_chance("hilo", frozenset()) == HILO
    assert win_chance("best", frozenset()) == OPTIMUM


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_agents_agree_with_the_independent_implementation_everywhere(
    jackpot_graph, jackpot_agent_values, agent
):
    values = jackpot_agent_values[agent].values
    for i, mask in enumerate(jackpot_graph.states):
        assert values[i] == win_chance(agent, as_cells(mask)), jackpot_graph.label(i)


def test_optimum_agrees_with_the_independent_implementation_everywhere(
    jackpot_graph, jackpot_optimum
):
    for i, mask in enumerate(jackpot_graph.states):
        assert jackpot_optimum.values[i] == win_chance("best", as_cells(mask))


@pytest.mark.parametrize("agent", sorted(AGENTS) + ["best"])
def test_layer_reach_equals_the_chance_of_that_many_flips(
    jackpot_graph, jackpot_policies, jackpot_optimum, agent
):
    policy = jackpot_optimum.policy if agent == "best" else jackpot_policies[agent]
    run = propagate(jackpot_graph, policy, exact=True)
    layers = jackpot_graph.layers
    by_layer = [sum(run.reach_probability[layers == n]) for n in range(10)]
    assert by_layer == flips_reached(agent)


# ---------------------------------------------------------------------------
# Published figures
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("agent", sorted(PUBLISHED_PERCENT))
def test_published_win_percentages(jackpot_agent_values, agent):
    """The reference prints each agent's exact win percentage to four decimals."""
    exact = jackpot_agent_values[agent].start_value
    assert round(exact * 100 * 10**4) == int(PUBLISHED_PERCENT[agent].replace(".", ""))
    assert f"{float(exact) * 100:.4f}" == PUBLISHED_PERCENT[agent]


def test_published_table_covers_the_six_agents():
    assert set(PUBLISHED_PERCENT) == set(AGENTS) == {"min", "max", "first", "last", "hilo", "hilo2"}
    assert PUBLISHED_PERCENT == JACKPOT_PERCENT


def test_hilo_exact(jackpot_agent_values):
    assert jackpot_agent_values["hilo"].start_value == HILO
    assert jackpot_agent_values["hilo2"].start_value == HILO


def test_optimum_exact_and_float(jackpot_graph, jackpot_optimum):
    assert jackpot_optimum.start_value == OPTIMUM
    approx = solve(jackpot_graph)
    exact = np.array([float(v) for v in jackpot_optimum.values])
    assert np.max(np.abs(approx.values - exact)) < 1e-12


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_no_agent_beats_the_optimum_anywhere(jackpot_optimum, jackpot_agent_values, agent):
    best = jackpot_optimum.values
    mine = jackpot_agent_values[agent].values
    assert all(b >= m for b, m in zip(best, mine))
    assert best[START] > mine[START]


def test_the_optimum_gains_little_over_hilo(jackpot_optimum):
    # 7.9987% against 7.9855%: HiLo is close to optimal but not optimal
    gain = jackpot_optimum.start_value - HILO
    assert F(1, 10**4) < gain < F(2, 10**4)


def test_hilo_and_hilo2_make_the_same_choices(jackpot_policies):
    """At most one of 7, 8, 9 is ever offered (it can only be the sum), so "the first of
    9, 8, 7, then the lowest" and "the highest if above 6, else the lowest" coincide."""
    assert np.array_equal(jackpot_policies["hilo"].choice, jackpot_policies["hilo2"].choice)


def test_cell_probability_table(jackpot_graph):
    """The reference's table adds die A, die B and the sum: cell c counts
    12, 13, 14, 15, 16, 17, 6, 5, 4 in units of 1/36. A double (c, c) is counted by both
    dice, so the number of rolls offering c from the start is one less for c <= 6."""
    g = jackpot_graph
    rolls_offering = defaultdict(F)
    for k in g.outcomes_of(g.start):
        for j in g.options_of(k):
            rolls_offering[int(g.option_move[j])] += g.probability(k) * 36
    table = [rolls_offering[c] + (1 if c <= 6 else 0) for c in range(1, 10)]
    assert table == [12, 13, 14, 15, 16, 17, 6, 5, 4]
    # HiLo's priority is the cells in order of increasing chance to be offered
    assert tuple(sorted(range(1, 10), key=lambda c: rolls_offering[c])) == HILO_PRIORITY


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "roll, cells",
    [
        ((3, 4), [3, 4, 7]),
        ((4, 3), [4, 3, 7]),
        ((2, 2), [2, 4]),
        ((6, 6), [6]),
        ((5, 5), [5]),
        ((4, 5), [4, 5, 9]),
        ((6, 4), [6, 4]),
        ((1, 1), [1, 2]),
        ((6, 3), [6, 3, 9]),
    ],
)
def test_offered_cells(roll, cells):
    assert Jackpot().offered(*roll) == cells


def test_outcomes_of_a_position():
    rules = Jackpot()
    for state in (START, 10, 0b011111111, 0b100000000):
        outcomes = rules.outcomes(state)
        assert sum(o.probability for o in outcomes) == 1
        for o in outcomes:
            assert all(not state >> (opt.move - 1) & 1 for opt in o.options)
            assert all(opt.target == state | 1 << (opt.move - 1) for opt in o.options)
            assert not any(opt.passes for opt in o.options)
    # with only cell 9 down, the four rolls summing to 9 win; the rest lose
    last = {
        tuple(opt.move for opt in o.options): o.probability for o in rules.outcomes(0b011111111)
    }
    assert last == {(9,): F(4, 36), (): F(32, 36)}


def test_states_labels_and_layers():
    rules = Jackpot()
    assert rules.start() == START
    assert rules.terminal_value(FULL) == 1
    assert rules.terminal_value(START) is None and rules.terminal_value(510) is None
    assert (rules.label(START), rules.label(FULL)) == ("START", "WIN")
    assert rules.label(10) == "1 3 5 6 7 8 9"  # the cells still open; 2 and 4 are up
    assert rules.cells_up(10) == [2, 4] and rules.layer(10) == 2 and rules.layer(FULL) == 9
    assert rules.move_label(7) == "7"  # edges are labelled with the cell flipped


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(cells=0),
        dict(cells=21),
        dict(cells=1.5),
        dict(cells=True),
        dict(cells="9"),
        dict(sides=0),
        dict(sides=False),
        dict(sides=21),
    ],
)
def test_bad_board_sizes(kwargs):
    with pytest.raises(InvalidArgumentError, match=next(iter(kwargs))):
        Jackpot(**kwargs)


# ---------------------------------------------------------------------------
# The agents as specified
# ---------------------------------------------------------------------------
AGENT_CASES = [
    # up cells, offered list,  first, last, min, max, hilo, hilo2
    ((), [3, 4, 7], 3, 7, 3, 7, 7, 7),  # roll (3, 4) from START
    ((), [6], 6, 6, 6, 6, 6, 6),  # roll (6, 6): only cell 6
    ((), [5], 5, 5, 5, 5, 5, 5),  # roll (5, 5)
    ((), [1, 2, 3], 1, 3, 1, 3, 1, 1),  # roll (1, 2)
    ((), [4, 2, 6], 4, 6, 2, 6, 2, 2),  # roll (4, 2): the sum 6 is not above 6
    ((), [6, 4], 6, 4, 4, 6, 4, 4),  # roll (6, 4): 10 is no cell
    ((), [2, 4], 2, 4, 2, 4, 2, 2),  # roll (2, 2)
    ((3,), [4, 7], 4, 7, 4, 7, 7, 7),  # roll (3, 4) with cell 3 up
    ((9,), [5, 4], 5, 4, 4, 5, 4, 4),  # roll (5, 4) with cell 9 up
    ((4,), [8], 8, 8, 8, 8, 8, 8),  # roll (4, 4) with cell 4 up
    ((1, 2, 3, 4, 5, 6), [7], 7, 7, 7, 7, 7, 7),  # roll (3, 4) with 1..6 up
]


@pytest.mark.parametrize("up, cells, first, last, low, high, hilo, hilo2", AGENT_CASES)
def test_agents_pick_as_specified(up, cells, first, last, low, high, hilo, hilo2):
    rules = Jackpot()
    state = sum(1 << (c - 1) for c in up)
    matching = [o.options for o in rules.outcomes(state) if [x.move for x in o.options] == cells]
    assert len(matching) == 1, "the rules offer this list in this order"
    options = matching[0]
    expected = dict(first=first, last=last, min=low, max=high, hilo=hilo, hilo2=hilo2)
    for name, cell in expected.items():
        assert options[AGENTS[name](state, options)].move == cell, name


def test_graph_policies_at_start_for_the_roll_three_four(jackpot_graph, jackpot_policies):
    g = jackpot_graph
    (k,) = [
        k
        for k in g.outcomes_of(g.start)
        if [int(g.option_move[j]) for j in g.options_of(k)] == [3, 4, 7]
    ]
    assert g.probability(k) == F(1, 36)
    picked = {
        name: int(g.option_move[policy.chosen_option(g)[k]])
        for name, policy in jackpot_policies.items()
    }
    assert picked == {"first": 3, "last": 7, "min": 3, "max": 7, "hilo": 7, "hilo2": 7}


def test_a_roll_with_nothing_to_flip_loses(jackpot_graph, jackpot_policies):
    g = jackpot_graph
    i = g.state_number(0b000111111)
    dead = [k for k in g.outcomes_of(i) if len(g.options_of(k)) == 0]
    assert len(dead) == 1 and g.probability(dead[0]) == F(21, 36)
    assert all(p.choice[dead[0]] == -1 for p in jackpot_policies.values())
