"""Tables of moves name the throw each row is about (issue 26)."""

from fractions import Fraction

from gamegraph import build, solve
from gamegraph.games.pig import Pig
from gamegraph.games.ur import Ur
from gamegraph.solve import throw_names


def test_pig_rows_name_their_throw_and_match_best_move():
    solution = solve(build(Pig(goal=10)), exact=True)
    table = solution.best_moves()
    throws = table.column("throws")
    assert sorted(throws) == ["0", "1", "2", "3", "4", "5"]  # six rows, six throws, no twins
    for throw, value in zip(throws, table.column("value")):
        assert (
            solution.best_move(solution.graph.states[solution.graph.start], int(throw)).value
            == value
        )
    assert "numbered from 0" in table.to_text()


def test_ur_rows_use_the_rules_throw_names():
    graph = build(Ur(pieces=1))
    solution = solve(graph)
    table = solution.best_moves()
    assert throw_names(graph, graph.start) == [0, 1, 2, 3, 4]
    assert sorted(table.column("throws")) == ["0", "1", "2", "3", "4"]
    assert dict(zip(table.column("throws"), table.column("probability")))["4"] == Fraction(1, 16)
    assert "numbered from 0" not in table.to_text()


def test_merged_rows_list_every_throw_once():
    solution = solve(build(Pig(goal=10)), exact=True)
    graph = solution.graph
    decision = graph.state_number(("choose", 0, 0, 6))
    table = solution.best_moves(graph.states[decision])
    assert table.column("throws") == ["0"] and table.column("move") == ["roll"]
