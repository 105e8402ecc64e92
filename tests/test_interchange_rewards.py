"""gamegraph.interchange with objectives and rewards: networkx, GraphML and JSON, both ways.

Hand-solved DiGraphs with rewards (a score game and a margin game) solve to their exact
values; games built from rules go out to networkx and files and come back with the same
objective, the same exact rewards and the same exact solved value; a policy's chain keeps
its expectation; an edge attribute that is not read, a reward in a "win" graph and the
other breaches are refused with the edge named.
"""

from __future__ import annotations

import json
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from gamegraph import InvalidArgumentError, Policy, build, evaluate, solve
from gamegraph.errors import UnknownNameError
from gamegraph.games.jackpot import Jackpot
from gamegraph.interchange import (
    from_networkx,
    read_graphml,
    read_json,
    to_networkx,
    write_graphml,
    write_json,
)
from gamegraph.rules import Option, Outcome, Rules, decision

SIXTH = Fraction(1, 6)
WRITERS = {"graphml": (write_graphml, read_graphml), "json": (write_json, read_json)}


class PigTurns(Rules):
    """Pig alone: -1 per turn, so the value is minus the expected turns to ``goal``."""

    objective = "score"

    def __init__(self, goal):
        self.goal, self.name = goal, f"pig turns to {goal}"

    def start(self):
        return ("choose", 0, 0)

    def terminal_value(self, s):
        return 0 if s[0] == "done" else None

    def outcomes(self, s):
        kind, score, turn = s
        if kind == "choose":
            total = score + turn
            hold = ("done", 0, 0) if total >= self.goal else ("choose", total, 0)
            options = (Option(("roll", score, turn), 0),) if total < self.goal else ()
            if turn > 0:
                options += (Option(hold, 1, reward=-1),)
            return decision(*options)
        return [Outcome(SIXTH, (Option(("choose", score, 0), 2, reward=-1),))] + [
            Outcome(SIXTH, (Option(("choose", score, turn + f), 0),)) for f in range(2, 7)
        ]


class ThirdsRace(Rules):
    """Two players trade points in thirds for three rounds: a margin game with Fractions.

    The mover throws a die: a 1 passes the turn and pays nothing; a 2 or 3 pays the mover
    1/3 and passes; a 4, 5 or 6 lets the mover bank 2/3 and end the game, or take 1 and
    pass. The game ends after the third round, worth -1/7 to the player to move then.
    (Banking ends elsewhere: a policy's chain reaches each target keeping or passing the
    turn, not both, as one DiGraph edge per pair needs.)
    """

    objective = "margin"
    name = "thirds race"

    def start(self):
        return ("play", 3)

    def terminal_value(self, s):
        return {("over", 0): Fraction(-1, 7), ("banked", 0): 0}.get(s)

    def outcomes(self, s):
        _, left = s
        after = ("play", left - 1) if left > 1 else ("over", 0)
        return [
            Outcome(SIXTH, (Option(after, 1, passes=True),)),
            Outcome(Fraction(1, 3), (Option(after, 2, passes=True, reward=Fraction(1, 3)),)),
            Outcome(
                Fraction(1, 2),
                (
                    Option(("banked", 0), 3, reward=Fraction(2, 3)),
                    Option(after, 4, passes=True, reward=1),
                ),
            ),
        ]


def assert_same_rewards(a, b):
    assert a.objective == b.objective
    assert a.reward_exact == b.reward_exact
    assert all(type(r) is Fraction for r in b.reward_exact.values())
    assert np.array_equal(a.option_target, b.option_target)
    assert a.terminal_exact == b.terminal_exact


# ---------------------------------------------------------------------------
# Hand-solved DiGraphs with rewards
# ---------------------------------------------------------------------------
def score_graph():
    # Roll a die until a 6, each roll costing 1 (expected 6 rolls: worth -6), or buy the
    # goal for 7/2 at once: the best is -7/2. "rolled" keeps the turn with 5/6.
    g = nx.DiGraph(objective="score", name="buy or roll")
    g.add_edge("s", "roll", probability=1, outcome="choice", move=0)
    g.add_edge("s", "goal", probability=1, outcome="choice", move=1, reward="-7/2")
    g.add_edge("roll", "goal", probability=SIXTH, reward=-1)
    g.add_edge("roll", "s", probability=Fraction(5, 6), reward=-1)
    return g


def test_a_score_graph_solves_to_its_hand_value():
    graph = from_networkx(score_graph(), "s")
    assert graph.objective == "score" and graph.has_rewards
    solution = solve(graph, exact=True)
    assert solution.start_value == Fraction(-7, 2)
    # Rolling alone (the only choice once "buy" is gone) is worth -6: v = -1 + 5/6 v.
    rolling = Policy.preferring(graph, 0)
    assert evaluate(graph, rolling, exact=True).start_value == -6
    assert solve(graph).start_value == pytest.approx(-3.5, abs=1e-12)


def margin_graph():
    # The mover tosses a coin: heads pays the mover 1 and ends the game; tails lets the
    # mover pass the turn (the opponent then faces the same position) or concede 1/4.
    # Passing is worth -v, so v = 1/2 (1) + 1/2 max(-v, -1/4): v = 3/8, and conceding is
    # right (-1/4 > -3/8). Without the concession v = 1/2 - v/2, v = 1/3.
    g = nx.DiGraph(objective="margin")
    g.add_edge("x", "end", probability="1/2", reward=1)
    g.add_edge("x", "x", probability="1/2", outcome="tails", passes=True)
    g.add_edge("x", "gone", probability="1/2", outcome="tails", reward=Fraction(-1, 4))
    return g


def test_a_margin_graph_solves_to_its_hand_value():
    g = margin_graph()
    assert solve(from_networkx(g, "x"), exact=True).start_value == Fraction(3, 8)
    g.remove_edge("x", "gone")
    assert solve(from_networkx(g, "x"), exact=True).start_value == Fraction(1, 3)


def test_terminal_values_of_score_graphs_may_be_any_number():
    g = nx.DiGraph(objective="score")
    g.add_edge("s", "big", probability="1/4")
    g.add_edge("s", "debt", probability="3/4")
    g.nodes["big"]["value"] = 10
    g.nodes["debt"]["value"] = "-2/3"
    assert solve(from_networkx(g, "s"), exact=True).start_value == Fraction(10, 4) - Fraction(1, 2)


@pytest.mark.parametrize(
    ("reward", "exact"),
    [(5, Fraction(5)), (0.1, Fraction(1, 10)), ("-1/3", Fraction(-1, 3)), (np.int64(-2), -2)],
)
def test_rewards_are_read_exactly(reward, exact):
    # As probabilities are: a float is the decimal it prints as.
    g = nx.DiGraph(objective="score")
    g.add_edge("s", "t", probability=1, reward=reward)
    graph = from_networkx(g, "s")
    assert graph.reward_exact == {0: exact}
    assert solve(graph, exact=True).start_value == exact


# ---------------------------------------------------------------------------
# Refusals: never solved as if the attribute were not there
# ---------------------------------------------------------------------------
def test_a_reward_in_a_win_graph_is_refused():
    # The case: reward=5 used to be ignored and the solve returned 0.
    g = nx.DiGraph()
    g.add_edge("s", "t", probability=1, reward=5)
    with pytest.raises(InvalidArgumentError, match=r"edge 's' -> 't' has reward 5.*\"win\""):
        from_networkx(g, "s")
    with pytest.raises(InvalidArgumentError, match='"score" \\(one player\\) or "margin"'):
        from_networkx(g, "s")
    g.graph["objective"] = "score"
    assert solve(from_networkx(g, "s"), exact=True).start_value == 5
    # A reward of 0 is no reward: a win graph may say so.
    g.graph["objective"] = "win"
    g.edges["s", "t"]["reward"] = "0"
    assert solve(from_networkx(g, "s"), exact=True).start_value == 0


def test_a_misspelt_edge_attribute_is_refused_naming_it():
    g = nx.DiGraph(objective="score")
    g.add_edge("s", "t", probability=1, rewrd=5)
    message = (
        r"edge 's' -> 't' has the attribute 'rewrd', which from_networkx does not read; "
        r"accepted: probability, outcome, move, passes, reward; pass ignore=\['rewrd'\]"
    )
    with pytest.raises(InvalidArgumentError, match=message):
        from_networkx(g, "s")
    # Left unread on purpose, it is: the value is what the read attributes make it.
    assert solve(from_networkx(g, "s", ignore=["rewrd"]), exact=True).start_value == 0
    # On any edge of a node, not only the first; and on any node.
    g = score_graph()
    g.edges["roll", "s"]["costs"] = 1
    with pytest.raises(InvalidArgumentError, match="edge 'roll' -> 's' has the attribute 'costs'"):
        from_networkx(g, "s")


def test_attributes_of_ones_own_pass_with_ignore():
    g = nx.DiGraph()
    g.add_edge("s", "won", probability="1/3", weight=2.5, color="red")
    g.nodes["won"]["value"] = 1
    with pytest.raises(InvalidArgumentError, match="'weight'"):
        from_networkx(g, "s")
    graph = from_networkx(g, "s", ignore=("weight", "color"))
    assert solve(graph, exact=True).start_value == Fraction(1, 3)
    with pytest.raises(InvalidArgumentError, match="ignore must be a list of edge attribute"):
        from_networkx(g, "s", ignore="weight")
    with pytest.raises(InvalidArgumentError, match="ignore must be a list"):
        from_networkx(g, "s", ignore=[3])


@pytest.mark.parametrize(
    ("objective", "edge", "node", "message"),
    [
        ("win", {}, {"value": 10}, r"node 't' has value 10, outside \[0, 1\].*\"score\""),
        ("score", {"passes": True}, {}, "edge 's' -> 't' passes the turn.*\"margin\""),
        ("score", {"reward": "lots"}, {}, "edge 's' -> 't': its reward 'lots' is not a number"),
        ("margin", {"reward": float("inf")}, {}, "its reward inf is not a finite number"),
        ("margin", {"reward": True}, {}, "its reward True is a bool"),
        ("score", {}, {"value": float("nan")}, "node 't': its value nan is not a finite"),
    ],
)
def test_bad_rewards_values_and_passes(objective, edge, node, message):
    g = nx.DiGraph(objective=objective)
    g.add_edge("s", "t", probability=1, **edge)
    g.nodes["t"].update(node)
    with pytest.raises(InvalidArgumentError, match=message):
        from_networkx(g, "s")


def test_an_unknown_objective_is_refused():
    g = nx.DiGraph(objective="money")
    g.add_edge("s", "t", probability=1)
    with pytest.raises(UnknownNameError, match="money.*win.*score.*margin"):
        from_networkx(g, "s")


def test_edges_of_an_export_are_not_read_so_other_attributes_are_refused():
    g = to_networkx(build(PigTurns(8)))
    u, v = next(iter(g.edges))
    g.edges[u, v]["reward"] = 5
    with pytest.raises(InvalidArgumentError, match="has the attribute 'reward'.*outcomes are the"):
        from_networkx(g)
    assert from_networkx(g, ignore=["reward"]).n_states == 87


def test_an_export_is_checked_against_its_objective():
    g = to_networkx(build(PigTurns(8)))
    g.graph["objective"] = "win"
    with pytest.raises(InvalidArgumentError, match='reward -1, but the objective is "win"'):
        from_networkx(g)
    g = to_networkx(build(ThirdsRace()))
    g.graph["objective"] = "score"
    with pytest.raises(InvalidArgumentError, match='passes the turn, but the objective is "score"'):
        from_networkx(g)


# ---------------------------------------------------------------------------
# Built games: networkx and files, both ways
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module", params=["pig turns", "thirds"])
def game(request):
    rules = PigTurns(12) if request.param == "pig turns" else ThirdsRace()
    graph = build(rules)
    return graph, solve(graph, exact=True).start_value


def test_the_games_hand_values():
    # Pig to 12 alone, fewest turns: solved by policy iteration here and by the solver.
    assert solve(build(PigTurns(12)), exact=True).start_value == Fraction(-1296, 697)
    # The thirds race, by hand from the end: in the last round every option leads to
    # ("over", 0), worth -1/7 to the player to move there, so a passing option is worth
    # r + 1/7, and banking 2/3 (+ 0) is less than taking 1 and passing (8/7):
    # v1 = 1/6 (1/7) + 1/3 (1/3 + 1/7) + 1/2 (8/7).
    v1 = (
        SIXTH * Fraction(1, 7)
        + Fraction(1, 3) * (Fraction(1, 3) + Fraction(1, 7))
        + Fraction(1, 2) * (1 + Fraction(1, 7))
    )
    graph = build(ThirdsRace())
    assert solve(graph, exact=True).value(("play", 1)) == v1


def test_export_carries_objective_and_rewards(game):
    graph, _ = game
    g = to_networkx(graph)
    assert g.graph["objective"] == graph.objective
    rewards = [
        option.reward
        for _, data in g.nodes(data=True)
        for outcome in data.get("outcomes", ())
        for option in outcome.options
        if option.reward != 0
    ]
    assert sorted(rewards) == sorted(graph.reward_exact.values())
    assert all(type(r) is Fraction for r in rewards)


def test_networkx_round_trip_keeps_rewards_and_the_exact_value(game):
    graph, value = game
    again = from_networkx(to_networkx(graph))
    assert_same_rewards(graph, again)
    assert solve(again, exact=True).start_value == value
    assert isinstance(again.rules, Rules) and again.rules.objective == graph.objective
    # The stored rules build the same game again, rewards included.
    rebuilt = build(again.rules)
    assert rebuilt.objective == graph.objective
    assert sorted(rebuilt.reward_exact.values()) == sorted(graph.reward_exact.values())


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_file_round_trip_keeps_rewards_and_the_exact_value(game, tmp_path, fmt):
    graph, value = game
    write, read = WRITERS[fmt]
    path = tmp_path / f"game.{fmt}"
    write(graph, path)
    g = read(path)
    assert g.graph["objective"] == graph.objective
    again = from_networkx(g)
    assert_same_rewards(graph, again)
    assert solve(again, exact=True).start_value == value
    # graph -> networkx -> graph -> file -> graph: the same again.
    write(from_networkx(to_networkx(graph)), tmp_path / f"twice.{fmt}")
    twice = from_networkx(read(tmp_path / f"twice.{fmt}"))
    assert_same_rewards(graph, twice)
    assert solve(twice, exact=True).start_value == value


def test_rewards_are_text_in_the_file(tmp_path):
    write_json(build(ThirdsRace()), tmp_path / "thirds.json")
    data = json.loads((tmp_path / "thirds.json").read_text())
    assert data["graph"]["objective"] == "margin"
    options = [o for n in data["nodes"] for _, opts in n.get("outcomes", []) for o in opts]
    assert {o[3] for o in options if len(o) == 4} == {"1/3", "2/3", "1"}
    assert {len(o) for o in options} == {3, 4}  # no reward, nothing written


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_plain_graph_with_rewards_survives_a_file(tmp_path, fmt):
    write, read = WRITERS[fmt]
    write(margin_graph(), tmp_path / f"margin.{fmt}")
    g = read(tmp_path / f"margin.{fmt}")
    assert g.edges["x", "gone"]["reward"] == Fraction(-1, 4)
    assert solve(from_networkx(g, "x"), exact=True).start_value == Fraction(3, 8)


def test_win_exports_say_win_and_carry_no_rewards():
    g = to_networkx(build(Jackpot()))
    assert g.graph["objective"] == "win"
    first = g.nodes[0]["outcomes"][0].options[0]
    assert first.reward == 0 and "reward" not in repr(first)


# ---------------------------------------------------------------------------
# A policy's chain
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", [None, *sorted(WRITERS)])
def test_chain_keeps_the_policy_expectation(game, tmp_path, fmt):
    graph, value = game
    optimal = solve(graph, exact=True).policy
    # Hold at the first chance (Pig) / always bank (thirds): another policy than the best.
    other = Policy.preferring(graph, 1 if graph.objective == "score" else 3)
    for policy, expected in ((optimal, value), (other, None)):
        expected = evaluate(graph, policy, exact=True).start_value if expected is None else expected
        g = to_networkx(policy.chain(graph))
        assert g.graph["objective"] == graph.objective
        assert any("reward" in d for _, _, d in g.edges(data=True))
        if fmt is not None:
            write, read = WRITERS[fmt]
            write(policy.chain(graph), tmp_path / f"chain.{fmt}")
            g = read(tmp_path / f"chain.{fmt}")
        chain_graph = from_networkx(g)
        assert solve(chain_graph, exact=True).start_value == expected


def test_chain_rewards_of_merged_outcomes_are_their_mean():
    # Two outcomes reach one target paying 1 and 2 (1/2 each): one edge paying 3/2.
    class Two(Rules):
        objective = "score"

        def start(self):
            return "s"

        def terminal_value(self, s):
            return 0 if s == "t" else None

        def outcomes(self, s):
            half = Fraction(1, 2)
            return [
                Outcome(half, (Option("t", reward=1),)),
                Outcome(half, (Option("t", reward=2),)),
            ]

    graph = build(Two())
    g = to_networkx(Policy.preferring(graph, -1).chain(graph))
    assert g.edges["s", "t"] == {
        "probability": 1,
        "move": -1,
        "passes": False,
        "reward": Fraction(3, 2),
    }
    assert solve(from_networkx(g), exact=True).start_value == Fraction(3, 2)


def test_a_chain_reaching_one_target_keeping_and_passing_the_turn_is_refused():
    class Both(Rules):
        objective = "margin"

        def start(self):
            return "s"

        def terminal_value(self, s):
            return Fraction(1, 2) if s == "t" else None

        def outcomes(self, s):
            half = Fraction(1, 2)
            return [Outcome(half, (Option("t"),)), Outcome(half, (Option("t", passes=True),))]

    graph = build(Both())
    assert solve(graph, exact=True).start_value == 0  # 1/2 (1/2) + 1/2 (-1/2)
    with pytest.raises(InvalidArgumentError, match="'s' it reaches 't' both keeping and passing"):
        to_networkx(Policy.preferring(graph, -1).chain(graph))
    assert solve(from_networkx(to_networkx(graph)), exact=True).start_value == 0


# ---------------------------------------------------------------------------
# Untrusted files
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"1/3"]', '"1/0"]', "is damaged"),
        ('"1/3"]', '"1e-999999999"]', "exponent beyond"),
        ('"1/3"]', "7]", "is not \\[node, move, passes\\]"),
        ('"1/3"]', '"1/3","x"]', "is not \\[node, move, passes\\]"),
        ('"1/3"]', "\"__import__('os')\"]", "is damaged"),
        ('"objective":"margin"', '"objective":"cash"', "unknown"),
    ],
)
def test_damaged_rewards_in_a_file_give_one_clean_line(tmp_path, old, new, message):
    path = tmp_path / "thirds.json"
    write_json(build(ThirdsRace()), path)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(InvalidArgumentError, match=message) as error:
        from_networkx(read_json(path))
    assert "\n" not in str(error.value)
