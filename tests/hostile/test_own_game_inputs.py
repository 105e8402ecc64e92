"""Bad input to the issue-12 APIs found by a newcomer's trial: each ends in one clear error."""

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from gamegraph import BatchRules, Expansion, build, solve, throw
from gamegraph._stats import wilson_interval
from gamegraph.errors import InvalidArgumentError, InvalidRulesError
from gamegraph.games.pig import PigBatch, hold_at
from gamegraph.interchange import from_networkx
from gamegraph.policy import Policy
from gamegraph.simulate import simulate


class Fan(BatchRules):
    """One throw from code 0 to codes 1..3; code 1 wins. ``grid`` sets what expand returns."""

    name = "fan"
    code_bound = 10

    def __init__(self, weights=(1, 1, 1), denominator=3, targets=(1, 2, 3)):
        self.weights, self.denominator, self.targets = weights, denominator, targets

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.where(codes >= 1, np.where(codes == 1, 1.0, 0.0), np.nan)

    def expand(self, codes):
        t = np.tile(np.asarray(self.targets)[None, :, None], (len(codes), 1, 1))
        return Expansion.from_grid(self.weights, self.denominator, t, np.ones(t.shape, bool))


def test_from_grid_builds_a_fair_three_way_throw():
    assert solve(build(Fan()), exact=True).start_value == Fraction(1, 3)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(weights=(1.5, 1.5, 1.5)), "whole numbers"),
        (dict(denominator=3.9), "denominator must be an int"),
        (dict(targets=(1.7, 2.2, 2.9)), "integer codes"),
        (dict(weights=(1, 1)), "one number per outcome"),
    ],
)
def test_from_grid_refuses_what_it_used_to_round(kwargs, message):
    with pytest.raises(InvalidRulesError, match=message):
        build(Fan(**kwargs))


def test_from_grid_refuses_a_two_dimensional_grid():
    with pytest.raises(InvalidRulesError, match="shape"):
        Expansion.from_grid([1, 1], 2, [[5, 6], [7, 0]], [[True, True], [True, False]])


@pytest.mark.parametrize("value", [float("nan"), float("inf"), "abc", None, True])
def test_a_networkx_terminal_value_that_is_not_a_number_is_refused(value):
    g = nx.DiGraph()
    g.add_edge("s", "t", probability=1)
    g.nodes["t"]["value"] = value
    with pytest.raises(InvalidArgumentError, match="node 't'"):
        solve(from_networkx(g, "s"))


def test_a_batch_graph_does_not_take_1_5_or_true_for_code_1():
    graph = build(PigBatch(6))
    solution = solve(graph)
    for state in (1.5, True, "0"):
        with pytest.raises(InvalidArgumentError, match="not in this graph"):
            solution.value(state)


def test_seeds_and_confidences_are_checked():
    graph = build(PigBatch(6))
    policy = Policy.from_agent(graph, hold_at(3))
    with pytest.raises(InvalidArgumentError, match="seed"):
        simulate(graph, policy, games=10, seed="x")
    result = simulate(graph, policy, games=10, seed=1)
    for confidence in (2, 0, -0.5, float("nan"), "0.9", True):
        with pytest.raises(InvalidArgumentError, match="confidence"):
            result.interval(confidence)
    assert wilson_interval(5, 10, 0.9)[0] < 0.5


def test_throw_takes_pairs_only():
    with pytest.raises(InvalidRulesError, match="pairs"):
        throw((Fraction(1), "end", 5))
