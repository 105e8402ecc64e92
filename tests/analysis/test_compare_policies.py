"""gamegraph.analysis: every policy side by side."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from published import JACKPOT_PERCENT

from gamegraph import Policy, build, evaluate, solve
from gamegraph.analysis import PolicyResult, compare_policies
from gamegraph.games.jackpot import AGENTS, PUBLISHED_PERCENT, Jackpot

# The reference README's calculated percentages, typed in here rather than read from the
# library's own table.
PUBLISHED = JACKPOT_PERCENT
OPTIMAL_WIN = Fraction(14103327415, 176319369216)


@pytest.fixture(scope="module")
def graph():
    return build(Jackpot())


@pytest.fixture(scope="module")
def rows(graph):
    return compare_policies(graph, AGENTS, exact=True)


def test_seven_rows_in_order(rows):
    assert [row.name for row in rows] == ["min", "max", "first", "last", "hilo", "hilo2", "optimal"]
    assert all(isinstance(row, PolicyResult) and isinstance(row.win, Fraction) for row in rows)


def test_values_are_the_exact_evaluations(graph, rows):
    for row in rows[:-1]:
        policy = Policy.from_agent(graph, AGENTS[row.name])
        assert row.win == evaluate(graph, policy, exact=True).start_value
        assert row.win == evaluate(graph, row.policy, exact=True).start_value
        assert row.policy.name == row.name
    assert rows[-1].win == solve(graph, exact=True).start_value == OPTIMAL_WIN
    assert rows[4].win == Fraction(660001525, 8264970432)


def test_percentages_match_the_published_figures(rows):
    shown = {row.name: f"{row.percent:.4f}" for row in rows}
    assert {k: v for k, v in shown.items() if k != "optimal"} == PUBLISHED == PUBLISHED_PERCENT
    assert shown["optimal"] == "7.9987"
    assert all(rows[-1].win > row.win for row in rows[:-1])  # the optimum beats every agent


def test_as_dict(rows):
    hilo = rows[4].as_dict()
    assert hilo == {"win": "660001525/8264970432", "percent": 100 * 660001525 / 8264970432}
    assert math.isclose(hilo["percent"], 7.9855, abs_tol=5e-5)


def test_float_rows(graph, rows):
    floats = compare_policies(graph, AGENTS, exact=False)
    assert [row.name for row in floats] == [row.name for row in rows]
    for approximate, exact in zip(floats, rows):
        assert isinstance(approximate.win, float)
        assert math.isclose(approximate.win, float(exact.win), rel_tol=1e-12)
        assert approximate.as_dict() == {"win": approximate.win, "percent": approximate.percent}


def test_given_solution_is_used_and_agent_order_kept(graph):
    solution = solve(graph, exact=True)
    agents = {"hilo2": AGENTS["hilo2"], "first": AGENTS["first"]}
    got = compare_policies(graph, agents, solution=solution)
    assert [row.name for row in got] == ["hilo2", "first", "optimal"]
    assert got[-1].policy is solution.policy and got[-1].win == solution.start_value


def test_no_agents_gives_just_the_optimum():
    small = build(Jackpot(cells=3))
    (row,) = compare_policies(small, {})
    # Three cells, worked out by hand in test_compare: (11*264 + 9*242 + 7*231) / 46656.
    assert row.name == "optimal" and row.win == Fraction(6699, 46656)


# ---------------------------------------------------------------------------
# Display: a PolicyTable is the list of rows, shown as a table
# ---------------------------------------------------------------------------
def test_rows_are_a_policy_table_that_is_still_a_list(rows):
    from gamegraph.analysis.policies import PolicyTable

    assert isinstance(rows, PolicyTable) and isinstance(rows, list)
    assert rows[-1].name == "optimal" and len(rows[:2]) == 2
    table = rows.table()
    assert table.columns == ("policy", "win probability", "percent")
    assert table.column("policy") == [row.name for row in rows]
    assert table.column("win probability")[-1] == OPTIMAL_WIN


def test_repr_is_short_and_str_shows_exact_fractions_and_percentages(rows):
    assert repr(rows) == "<PolicyTable: 7 policies; best optimal 7.9987 %>"
    text = str(rows).splitlines()
    assert text[0] == "Jackpot: win probability by policy"
    assert len(text) == 2 + len(rows)
    optimal = text[-1].split()
    assert optimal == ["optimal", "14103327415/176319369216", "7.9987", "%"]
    hilo = next(line for line in text if line.startswith("hilo "))
    assert "660001525/8264970432" in hilo and f"{PUBLISHED['hilo']} %" in hilo


def test_html_and_pandas(rows):
    html = rows._repr_html_()
    assert html.count("<tr>") == len(rows) + 1  # header and one row per policy
    assert '<td style="text-align:right">14103327415/176319369216</td>' in html
    assert "7.9987 %" in html
    pandas = pytest.importorskip("pandas")
    frame = rows.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["policy"]) == [row.name for row in rows]
    assert frame["win probability"].iloc[-1] == OPTIMAL_WIN
    assert math.isclose(frame["percent"].sum(), sum(row.percent for row in rows))
