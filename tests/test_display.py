"""Results that display themselves: a short repr, compact HTML, and pandas where natural.

Checked on values known elsewhere: Jackpot's exact optimum 14103327415/176319369216 and
HiLo's 660001525/8264970432, Jehn's Super Six start value 36/41, and invariants (a
position's best moves have probabilities summing to one and back up to its value; every
game of a tournament is won by exactly one side).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gamegraph import solve
from gamegraph.analysis import compare
from gamegraph.games.supersix import PUBLISHED_STRATEGIES, SuperSix, count_states
from gamegraph.games.supersix.analysis import STRATEGY_SHOWN, SuperSixSolve, solve_game
from gamegraph.games.ur import Ur, table_from_solution
from gamegraph.games.ur.graph_match import RoundRobin, format_rows, play_match, round_robin

OPTIMAL = Fraction(14103327415, 176319369216)
HILO = Fraction(660001525, 8264970432)


# ---------------------------------------------------------------------------
# Solution
# ---------------------------------------------------------------------------
def test_solution_summary_holds_the_exact_start_value(jackpot_optimum):
    summary = jackpot_optimum.summary()
    values = dict(summary.rows)
    assert values["start value"] == jackpot_optimum.start_value == OPTIMAL
    assert values["states"] == 512 and values["exact"] is True and values["residual"] == 0.0
    assert "14103327415/176319369216" in summary.to_text()


def test_best_moves_probabilities_sum_to_one_and_back_up_to_the_value(jackpot_optimum):
    table = jackpot_optimum.best_moves()
    probabilities = table.column("probability")
    values = table.column("value")
    assert sum(probabilities) == 1
    assert values == sorted(values, reverse=True)
    # One player: the start's value is the chance-weighted value of the best moves.
    assert sum(p * v for p, v in zip(probabilities, values)) == OPTIMAL


def test_best_moves_at_another_state(jackpot_graph, jackpot_optimum):
    state = jackpot_graph.states[100]
    table = jackpot_optimum.best_moves(state)
    assert sum(table.column("probability")) == 1
    total = sum(p * v for p, v in zip(table.column("probability"), table.column("value")))
    assert total == jackpot_optimum.value(state)


def test_solution_repr_is_one_short_line(jackpot_optimum, jackpot_graph):
    text = repr(jackpot_optimum)
    assert "\n" not in text and len(text) <= 120
    assert text == (
        "<Solution of 'jackpot': 512 states, start value 0.079987 (exact), residual 0.0e+00>"
    )
    assert "0.079987" in repr(solve(jackpot_graph))  # floats too


def test_solution_html_shows_summary_and_best_moves(jackpot_optimum):
    html = jackpot_optimum._repr_html_()
    assert html.count("<table") == 2
    assert "14103327415/176319369216" in html and "moves at START" in html


# ---------------------------------------------------------------------------
# A policy against the optimum
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hilo_comparison(jackpot_optimum, jackpot_policies):
    return compare(jackpot_optimum, jackpot_policies["hilo"])


def test_comparison_repr_counts_where_the_policy_loses(hilo_comparison):
    bad = int(np.count_nonzero(hilo_comparison.suboptimal))
    states = int(hilo_comparison.suboptimal_states().sum())
    assert repr(hilo_comparison) == (
        f"<PolicyComparison 'hilo' vs optimal: {bad:,} of 7,672 outcomes give up value, "
        f"at {states} positions>"
    )
    assert 0 < states < bad


def test_comparison_summary_and_start_loss(hilo_comparison, jackpot_agent_values):
    assert hilo_comparison.start_loss() == OPTIMAL - HILO
    assert jackpot_agent_values["hilo"].start_value == HILO  # the evaluation it rests on
    rows = dict(hilo_comparison.summary().rows)
    assert rows["win probability lost at the start"] == Fraction(69884645, 528958107648)
    assert rows["choices that give up value"] == int(np.count_nonzero(hilo_comparison.loss > 0))
    assert rows["choices that differ (ties included)"] >= rows["choices that give up value"]
    assert rows["largest loss at one choice"] == max(hilo_comparison.loss)
    html = hilo_comparison._repr_html_()
    assert "<caption>hilo against the optimum</caption>" in html
    assert "69884645/528958107648" in html


# ---------------------------------------------------------------------------
# Ur: a match and a round robin
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ur1():
    graph = Ur("finkel", pieces=1).build_graph()
    return graph, table_from_solution(solve(graph))


@pytest.fixture(scope="module")
def tournament(ur1):
    graph, table = ur1
    return round_robin(
        graph, ["first", "last", "optimal"], games=1000, seed=1, table=table, progress=False
    )


def test_match_result_displays_both_sides(ur1):
    graph, table = ur1
    result = play_match(graph, "last", "first", games=1000, seed=3, table=table, progress=False)
    text = repr(result)
    assert (
        text.startswith("<MatchResult last vs first: 1,000 games, last wins 0.")
        and "\n" not in text
    )
    shown = result.table()
    assert shown.column("agent") == ["last", "first"]
    assert sum(shown.column("wins")) == 1000 and result.unfinished == 0
    assert shown.column("games") == [1000, 1000]
    assert "<caption>last against first: 1,000 games, seed 3</caption>" in result._repr_html_()


def test_round_robin_is_a_list_of_rows_that_displays(tournament):
    assert isinstance(tournament, RoundRobin) and isinstance(tournament, list)
    assert [(row["a"], row["b"]) for row in tournament] == [
        ("first", "last"),
        ("first", "optimal"),
        ("last", "optimal"),
    ]
    agents = tournament.agents()
    assert [row["games"] for row in agents] == [2000, 2000, 2000]
    assert sum(row["wins"] for row in agents) == 3000  # each game won by one side
    assert agents[0]["agent"] == "optimal" and agents[0]["mean_loss"] == 0.0
    assert repr(tournament) == (
        f"<RoundRobin: 3 agents, 3 pairings; best optimal wins {agents[0]['win_rate']:.4f}>"
    )


def test_agent_table_has_the_columns_the_command_prints(tournament):
    columns = ["agent", "games", "win_rate", "mean_loss", "nonoptimal"]
    table = tournament.agent_table(title="")
    assert list(table.columns) == columns
    # Cell for cell what `gamegraph ur tournament` prints with format_rows.
    *lines, note = table.to_text().splitlines()
    assert lines == format_rows(tournament.agents(), columns).splitlines()
    assert note.startswith("loss: win probability given up per decision")
    pairs = tournament.pairing_table()
    assert pairs.column("A") == ["first", "first", "last"]
    assert pairs.text_rows()[0][3].startswith("[0.") and len(pairs) == 3
    html = tournament._repr_html_()
    assert html.count("<table") == 2 and "Each agent over all its games" in html
    pandas = pytest.importorskip("pandas")
    frame = tournament.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and list(frame.columns) == columns
    assert frame["games"].sum() == 6000


# ---------------------------------------------------------------------------
# Super Six
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def four():
    return solve_game(SuperSix(pegs=4), exact=True, progress=False)


def test_super_six_solve_summary(four):
    assert isinstance(four, SuperSixSolve)
    assert four.start_value == Fraction(36, 41)  # Jehn's P(0/2/2)
    assert four.positions == 10 == count_states(4) and four.strategy == "(1/1)"
    assert four.rolls + four.stops == len(four.table)
    assert repr(four) == (
        "<SuperSixSolve 2 + 2 pegs (free rules): 10 positions, start value 36/41, 10 roll / 0 stop>"
    )
    html = four._repr_html_()
    assert "<caption>Super Six, 2 + 2 pegs (free rules)</caption>" in html
    assert "36/41" in html and "(1/1)" in html and html.count("<table") == 2


def test_super_six_sample_rows_have_every_peg_in_play():
    result = solve_game(SuperSix(pegs=12), progress=False)
    sample = result.sample()
    assert 1 <= len(sample) <= 8
    assert all(b + c + o == 12 for b, c, o, *_ in sample.rows)
    assert result.strategy == PUBLISHED_STRATEGIES[12]
    assert dict(result.summary().rows)["strategy"] == PUBLISHED_STRATEGIES[12]


def test_a_long_strategy_is_cut_in_the_summary_with_a_note():
    result = solve_game(SuperSix(pegs=60), progress=False)
    assert len(result.strategy) > STRATEGY_SHOWN
    summary = result.summary()
    shown = dict(summary.rows)["strategy"]
    assert len(shown) == STRATEGY_SHOWN and shown.endswith("...")
    assert result.strategy.startswith(shown[:-3])
    assert summary.notes == (
        f"strategy cut to {STRATEGY_SHOWN} of {len(result.strategy):,} characters; "
        "the strategy property holds it whole",
    )


def test_super_six_to_pandas_is_the_whole_decision_table(four):
    pytest.importorskip("pandas")
    frame = four.to_pandas()
    assert list(frame.columns) == ["b", "c", "o", "roll", "p_roll", "p_end", "margin", "p_choice"]
    assert len(frame) == 10
    row = frame[(frame.b == 0) & (frame.c == 2) & (frame.o == 2)].iloc[0]
    assert (row.p_roll, row.p_end, bool(row.roll)) == (Fraction(36, 41), Fraction(5, 41), True)
    assert all(frame.margin == frame.p_roll - frame.p_end)
    assert all(frame.p_choice == frame[["p_roll", "p_end"]].max(axis=1))
    assert four.decisions().rows[0] == tuple(frame.iloc[0])
