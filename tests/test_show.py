"""gamegraph.show: from solve to a picture without knowing module names (issue 26)."""

import pytest

from gamegraph import InvalidArgumentError, UnknownNameError, build, solve
from gamegraph.analysis import explore_graph, policy_diff, policy_view
from gamegraph.games.jackpot import AGENTS, Jackpot
from gamegraph.games.pig import Pig
from gamegraph.renderers.diagram import Diagram
from gamegraph.show import draw, explore, report


@pytest.fixture(scope="module")
def solution():
    return solve(build(Jackpot(cells=4)), exact=True)


def test_draw_takes_rules_a_graph_or_a_solution(solution):
    for result in (Jackpot(cells=4), solution.graph, solution):
        diagram = draw(result)
        assert isinstance(diagram, Diagram)
        assert diagram.title.startswith("Jackpot: optimal (")


def test_draw_marks_an_agents_costly_moves(solution):
    hilo = draw(solution, AGENTS["min"])
    assert hilo.title.startswith("Jackpot: min (")
    assert "gives up win probability" in hilo.source and "the better move" in hilo.source


def test_draw_takes_a_view_and_a_diff_as_they_are(solution):
    view = policy_view(solution.graph, "max", reach=True, optimal=solution)
    assert draw(view).title == view.title
    diff = draw(policy_diff(solution, AGENTS["min"]))
    assert "where min differs from the optimum" in diff.title


def test_draw_parts(solution):
    part = draw(solution, part="likely", limit=5)
    assert "The 5 likeliest states" in part.source
    assert "reached with chance 0.5 or more" in draw(solution, part="threshold", minimum=0.5).source
    with pytest.raises(UnknownNameError, match="unknown part 'most'; accepted: auto, all"):
        draw(solution, part="most")


def test_explore_opens_on_a_policy_it_adds_when_missing(solution):
    page = explore(solution, policy="hilo")
    assert page.data.policies == ("optimal", "hilo") and page.policy == "hilo"
    page = explore(solution, [AGENTS["max"], "min"])
    assert page.data.policies == ("optimal", "max", "min") and page.policy is None
    data = explore_graph(solution.graph, solution, policies=["max"])
    assert explore(data, policy="max").data is data


def test_report_of_a_solution_keeps_its_exactness(solution):
    made = report(solution)
    assert made.title == "jackpot: the game solved"
    assert "sections" in repr(report(Pig(goal=10)))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: draw(42), "draw takes Rules, a StateGraph (build(rules)) or a Solution"),
        (lambda: explore("jackpot"), "explore takes Rules, a StateGraph"),
        (lambda: report([1, 2]), "report takes Rules, a StateGraph"),
    ],
)
def test_anything_else_fails_at_once_in_one_line(call, message):
    with pytest.raises(InvalidArgumentError) as caught:
        call()
    assert message in str(caught.value) and "\n" not in str(caught.value)
