"""gamegraph.analysis.layers: positions, reach and loss by layer, per policy.

Checked against the exact evaluation (the won probability is the start value), against
conservation (what reaches a layer and is not lost there reaches the next), against the
graph (a policy reaches at most every position of a layer) and on a small hand-made game.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from gamegraph import Option, Outcome, Policy, Rules, build, evaluate
from gamegraph.analysis import LayerSummary, layer_summary
from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.jackpot import Jackpot

HILO_WIN = Fraction(660001525, 8264970432)
OPTIMAL_WIN = Fraction(14103327415, 176319369216)
JACKPOT_LAYERS = [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]  # binomial coefficients of 9


@pytest.fixture(scope="module")
def policies(jackpot_policies, jackpot_optimum):
    return {**jackpot_policies, "optimal": jackpot_optimum.policy}


@pytest.fixture(scope="module")
def summary(jackpot_graph, policies):
    return layer_summary(jackpot_graph, policies)


def test_probabilities_sum_to_one(summary, policies):
    assert summary.policies == tuple(policies)
    for name in summary.policies:
        assert all(isinstance(v, Fraction) for v in summary.lost[name] + summary.won[name])
        assert sum(summary.lost[name]) + sum(summary.won[name]) == 1, name


def test_won_is_the_exact_start_value(summary, jackpot_graph, policies):
    assert summary.win("hilo") == HILO_WIN
    assert summary.win("optimal") == OPTIMAL_WIN
    for name, policy in policies.items():
        assert summary.win(name) == evaluate(jackpot_graph, policy, exact=True).start_value
        # Jackpot is won on the full board only: layer 9, where nothing is lost.
        assert summary.won[name][:9] == (0,) * 9
        assert summary.won[name][9] == summary.reach[name][9]
        assert summary.lost[name][9] == 0


def test_reach_is_conserved_layer_to_layer(summary):
    for name in summary.policies:
        reach, lost = summary.reach[name], summary.lost[name]
        assert reach[0] == 1 and lost[0] == 0  # every first roll offers a cell
        for layer in range(9):
            assert reach[layer + 1] == reach[layer] - lost[layer], (name, layer)


def test_positions_never_exceed_the_layer(summary, jackpot_graph):
    assert list(summary.counts) == jackpot_graph.layer_counts() == JACKPOT_LAYERS
    for name in summary.policies:
        assert all(0 < p <= c for p, c in zip(summary.positions[name], summary.counts)), name
    # HiLo can reach every position; "min" avoids high cells early, so it cannot.
    assert list(summary.positions["hilo"]) == JACKPOT_LAYERS
    assert sum(summary.positions["min"]) < sum(JACKPOT_LAYERS)
    assert summary.positions["min"][1] == 6  # the first roll's lowest cell is 1..6


def test_first_losses_by_hand(summary):
    # With one cell c up, only the double (c, c) offers nothing still down, and only if
    # 2c > 9: c is 5 or 6. HiLo (9, 8, 7 first, else the lowest cell) flips 5 or 6 first
    # only after (5, 5), (5, 6), (6, 5) or (6, 6), which offer nothing else: 4/36. So
    # 4/36 * 1/36 = 1/324 is lost with one cell up; the optimum does the same there.
    for name in ("hilo", "hilo2", "optimal"):
        assert summary.lost[name][1] == Fraction(1, 324), name
    assert summary.lost["hilo"][2] == Fraction(523, 46656)


def test_float_summary_agrees(jackpot_graph, policies, summary):
    approx = layer_summary(jackpot_graph, policies, exact=False)
    assert not approx.exact
    for name in summary.policies:
        assert approx.positions[name] == summary.positions[name]
        for field in ("reach", "lost", "won"):
            exact = [float(v) for v in getattr(summary, field)[name]]
            assert getattr(approx, field)[name] == pytest.approx(exact, abs=1e-13)
            assert all(isinstance(v, float) for v in getattr(approx, field)[name])


def test_lost_share(summary):
    share = summary.lost_share("hilo")
    assert share[1] == Fraction(1, 324)
    assert share[2] == summary.lost["hilo"][2] / summary.reach["hilo"][2]
    assert share[9] == 0


def test_table_and_display(summary):
    table = summary.table()
    assert len(table) == 7 * 10
    assert table.columns == ("policy", "cells flipped", "positions", "of", "reach", "lost", "won")
    hilo = summary.table("hilo")
    assert len(hilo) == 10
    assert hilo.column("reach") == list(summary.reach["hilo"])
    assert hilo.column("of") == JACKPOT_LAYERS
    assert "7.9855 %" in hilo.to_text() and "7.9987 %" not in hilo.to_text()
    html = summary._repr_html_()
    assert html.count("<tr>") == 1 + 70 and "cells flipped" in html
    text = repr(summary)
    assert text.startswith("<LayerSummary 'jackpot': 10 layers (cells flipped), 7 policies")
    assert "optimal 7.9987 %" in text and len(text) < 250
    with pytest.raises(UnknownNameError, match="accepted: min, max"):
        summary.table("nobody")


def test_to_pandas(summary):
    pytest.importorskip("pandas")
    frame = summary.to_pandas()
    assert frame.shape == (70, 7)
    hilo = frame[frame["policy"] == "hilo"]
    assert sum(hilo["lost"]) + sum(hilo["won"]) == 1


def test_as_dict_is_json(summary):
    data = json.loads(json.dumps(summary.as_dict()))
    assert data["layer_counts"] == JACKPOT_LAYERS
    assert data["policies"]["optimal"]["win"] == "14103327415/176319369216"
    assert data["policies"]["hilo"]["lost"][1] == "1/324"


def test_policies_as_a_sequence(jackpot_graph, policies):
    named = [Policy(policies["hilo"].choice, name="hilo"), policies["optimal"]]
    summary = layer_summary(jackpot_graph, named)
    assert isinstance(summary, LayerSummary)
    assert summary.policies == ("hilo", "optimal")
    assert summary.win("optimal") == OPTIMAL_WIN


# ---------------------------------------------------------------------------
# A hand-made layered game, with a terminal worth less than a win
# ---------------------------------------------------------------------------
class Prize(Rules):
    """From S (layer 0): 1/4 stuck, 1/4 a win, 1/2 a choice between a prize worth 1/2
    and one more throw from T (layer 1), which wins with 1/3 and is stuck otherwise.
    Taking the prize: won 1/4 + 1/2 * 1/2 = 1/2; lost 1/4 at layer 0 and 1/4 at layer 1
    (the prize's other half). Throwing on: won 1/4 + 1/2 * 1/3 = 5/12 at layer 2."""

    name = "prize"

    def start(self):
        return "S"

    def terminal_value(self, state):
        return {"win": Fraction(1), "prize": Fraction(1, 2)}.get(state)

    def layer(self, state):
        return {"S": 0, "T": 1, "prize": 1, "win": 2}[state]

    def outcomes(self, state):
        if state == "T":
            return [Outcome(Fraction(1, 3), (Option("win", move=1),)), Outcome(Fraction(2, 3), ())]
        return [
            Outcome(Fraction(1, 4), ()),
            Outcome(Fraction(1, 4), (Option("win", move=1),)),
            Outcome(Fraction(1, 2), (Option("prize", move=2), Option("T", move=3))),
        ]


def test_hand_made_game():
    graph = build(Prize())
    prize = Policy.from_agent(graph, lambda state, options: 0, name="prize")
    onward = Policy.from_agent(graph, lambda state, options: len(options) - 1, name="onward")
    summary = layer_summary(graph, [prize, onward])
    assert summary.layer_name == "layer" and summary.counts == (1, 2, 1)
    assert summary.playing == (True, True, False)
    F = Fraction
    assert summary.lost["prize"] == (F(1, 4), F(1, 4), 0)
    assert summary.won["prize"] == (0, F(1, 4), F(1, 4))
    assert summary.positions["prize"] == (1, 1, 1)
    assert summary.reach["onward"] == (1, F(1, 2), F(1, 2) * F(1, 3) + F(1, 4))
    assert summary.lost["onward"] == (F(1, 4), F(1, 3), 0)
    assert summary.win("prize") == evaluate(graph, prize, exact=True).start_value == F(1, 2)
    assert summary.win("onward") == evaluate(graph, onward, exact=True).start_value == F(5, 12)


class Flat(Prize):
    name = "flat"

    def layer(self, state):
        return 0


class Passing(Prize):
    name = "passing"

    def outcomes(self, state):
        outcomes = super().outcomes(state)
        if state == "S":
            outcomes[1] = Outcome(Fraction(1, 4), (Option("T", move=4, passes=True),))
        return outcomes


@pytest.mark.parametrize(
    "rules, message",
    [
        (Flat(), "stay in their layer or go back"),
        (Passing(), "one-player games"),
        (Jackpot(cells=2), None),  # a layered game: accepted
    ],
)
def test_games_it_refuses(rules, message):
    graph = build(rules)
    policy = Policy.from_agent(graph, lambda state, options: 0, name="first")
    if message is None:
        assert layer_summary(graph, {"first": policy}).win("first") > 0
        return
    with pytest.raises(InvalidArgumentError, match=message):
        layer_summary(graph, {"first": policy})


def test_games_without_layers(toys):
    graph = build(toys.Duel())
    with pytest.raises(InvalidArgumentError, match="no layers"):
        layer_summary(graph, {"x": Policy.from_agent(graph, lambda s, o: 0)})


def test_bad_policies(jackpot_graph, policies):
    with pytest.raises(InvalidArgumentError, match="at least one policy"):
        layer_summary(jackpot_graph, {})
    with pytest.raises(InvalidArgumentError, match="give a Policy, an agent"):
        layer_summary(jackpot_graph, {"hilo": 42})
    # A name of the game's agents is a policy argument like any other (as_policies).
    by_name = layer_summary(jackpot_graph, {"hilo": "hilo"}).win("hilo")
    assert by_name == layer_summary(jackpot_graph, {"hilo": policies["hilo"]}).win("hilo")
    with pytest.raises(InvalidArgumentError, match="two policies are named"):
        layer_summary(jackpot_graph, [policies["hilo"], policies["hilo"]])
    with pytest.raises(InvalidArgumentError):
        layer_summary(jackpot_graph, {"short": Policy(policies["hilo"].choice[:5], name="x")})
