"""Every function that takes a policy takes the same things (issue 26): a Policy, an
agent, a Solution, a name, or a list or dict of them, else one clear line at once."""

import pytest

from gamegraph import InvalidArgumentError, Policy, UnknownNameError, build, solve
from gamegraph.analysis import (
    as_policies,
    as_policy,
    compare_policies,
    explore_graph,
    policy_diff,
    policy_view,
)
from gamegraph.games.jackpot import AGENTS, Jackpot
from gamegraph.games.pig import Pig


@pytest.fixture(scope="module")
def graph():
    return build(Jackpot())


@pytest.fixture(scope="module")
def solution(graph):
    return solve(graph, exact=True)


def test_policy_diff_takes_an_agent_a_name_or_a_policy(graph, solution):
    by_agent = policy_diff(solution, AGENTS["hilo"])  # the call that failed in issue 26
    by_name = policy_diff(solution, "hilo")
    by_policy = policy_diff(solution, Policy.from_agent(graph, AGENTS["hilo"]), name="hilo")
    assert by_agent.name == by_name.name == by_policy.name == "hilo"
    assert by_agent.gap == by_name.gap == by_policy.gap > 0
    assert policy_diff(solution, "optimal").gap == 0


def test_explore_graph_takes_a_list(graph, solution):
    hilo = AGENTS["hilo"]
    data = explore_graph(graph, solution, policies=[hilo])  # failed in issue 26
    assert data.policies == ("optimal", "hilo")
    again = explore_graph(graph, solution, policies=["hilo", "max"])
    assert again.policies == ("optimal", "hilo", "max")
    assert explore_graph(graph, solution, policies="min").policies == ("optimal", "min")


def test_compare_policies_takes_a_list_of_names_and_the_dict_as_before(graph, solution):
    listed = compare_policies(graph, ["hilo", AGENTS["max"]], solution=solution)
    assert [row.name for row in listed] == ["hilo", "max", "optimal"]
    by_dict = compare_policies(graph, AGENTS, solution=solution)
    assert [row.name for row in by_dict] == [*AGENTS, "optimal"]
    assert listed[0].win == by_dict[list(AGENTS).index("hilo")].win


def test_policy_view_takes_a_name_and_has_a_default_title(graph, solution):
    view = policy_view(graph, "hilo", reach=True, optimal=solution)
    assert view.chain.policy.name == "hilo"
    assert view.title == "Jackpot: hilo (7.99 % wins)"
    assert policy_view(graph, "optimal", optimal=solution).title == "Jackpot: optimal"


def test_a_dict_names_its_policies(graph, solution):
    named = as_policies(graph, {"mine": AGENTS["min"], "best": solution})
    assert list(named) == ["mine", "best"]
    assert [p.name for p in named.values()] == ["mine", "best"]
    assert named["best"].choice is solution.policy.choice


def test_a_users_game_agents_by_name():
    pig = build(Pig(goal=10))
    assert as_policy(pig, "hold at 20").name == "hold at 20"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (3, "policy 3 (int): give a Policy, an agent"),
        ("best", "unknown policy 'best'; accepted: optimal, min, max"),
        ([["max"]], "policies holds a list"),
        (["max", AGENTS["max"]], "two policies are named 'max'; give a dict"),
    ],
)
def test_anything_else_fails_in_one_clear_line(graph, given, message):
    with pytest.raises(InvalidArgumentError) as caught:
        as_policies(graph, given)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_one_policy_where_one_is_taken(graph, solution):
    with pytest.raises(InvalidArgumentError, match="one policy is taken here, not a list"):
        policy_diff(solution, ["hilo", "max"])
    with pytest.raises(UnknownNameError):
        policy_view(graph, "nobody")


def test_a_policy_of_another_graph_is_refused(graph):
    small = build(Jackpot(cells=3))
    with pytest.raises(InvalidArgumentError, match="choices; the graph has"):
        as_policy(graph, solve(small).policy)
