"""The OpenSpiel adapter against OpenSpiel's own value iteration, and its refusals.

Cross-checks: our optimal values, mapped back to player 0's utility, agree with
``open_spiel.python.algorithms.value_iteration`` to 1e-9 on every state OpenSpiel keys,
and the two key sets are the same; OpenSpiel's Pig to 10 has the exact start value of
gamegraph's own natural-form Pig to 10 (7776/10961).
"""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest

from gamegraph import build, solve
from gamegraph.errors import (
    InvalidArgumentError,
    InvalidRulesError,
    MissingExtraError,
    UnknownNameError,
)
from gamegraph.games.pig import Pig
from gamegraph.openspiel import (
    ChanceNode,
    OpenSpielRules,
    _fractions,
    from_openspiel,
    openspiel_value,
    openspiel_values,
)

EXTRA = 'the OpenSpiel adapter needs the openspiel extra: pip install "gamegraph[openspiel]"'
PIG = "pig(winscore=10,horizon=20)"


@pytest.fixture(scope="module")
def pyspiel():
    return pytest.importorskip("pyspiel", reason=EXTRA)


@pytest.fixture(scope="module")
def value_iteration(pyspiel):
    pytest.importorskip("cvxpy", reason="OpenSpiel's value_iteration imports cvxpy: " + EXTRA)
    from open_spiel.python.algorithms import value_iteration

    return value_iteration.value_iteration


@pytest.fixture(scope="module")
def pig(pyspiel):
    graph = from_openspiel(PIG)
    return graph, solve(graph)


def agree(game, value_iteration, *, cyclic):
    """Our values and OpenSpiel's on the same game: (largest difference, graph, ours)."""
    graph = from_openspiel(game, revisit=not cyclic)
    ours = openspiel_values(solve(graph))
    theirs = value_iteration(game, depth_limit=-1, threshold=1e-12, cyclic_game=cyclic)
    assert ours.keys() == theirs.keys()
    return max(abs(ours[k] - theirs[k]) for k in theirs), graph, ours


# ---------------------------------------------------------------------------
# Against OpenSpiel's value iteration
# ---------------------------------------------------------------------------
def test_pig_agrees_with_openspiel_value_iteration(pyspiel, value_iteration, pig):
    graph, solution = pig
    ours = openspiel_values(solution)
    theirs = value_iteration(
        pyspiel.load_game(PIG), depth_limit=-1, threshold=1e-12, cyclic_game=True
    )
    assert ours.keys() == theirs.keys()
    assert len(theirs) == 1728  # decision and terminal states, as OpenSpiel counts them
    assert max(abs(ours[k] - theirs[k]) for k in theirs) < 1e-9
    root = str(pyspiel.load_game(PIG).new_initial_state())
    assert theirs[root] == pytest.approx(2 * 7776 / 10961 - 1, abs=1e-9)


def test_pig_counts_and_the_natural_form(pig):
    graph, solution = pig
    chance = sum(isinstance(s, ChanceNode) for s in graph.states)
    assert (graph.n_states, chance) == (2412, 684)
    # The same game as gamegraph's own Pig to 10, so the same exact start value.
    exact = solve(graph, exact=True).start_value
    assert exact == Fraction(7776, 10961) == solve(build(Pig(goal=10)), exact=True).start_value
    assert float(solution.start_value) == pytest.approx(float(exact), abs=1e-12)


def test_revisit_matches_the_tree_walk_where_the_string_leaves_out_the_horizon(
    pyspiel, value_iteration
):
    # A binding horizon: str(state) omits the move counter, so which node stands for a
    # string depends on the walk. revisit=True walks like cyclic_game=False, and the
    # default like cyclic_game=True; each matches its own and they differ from each other.
    game = pyspiel.load_game("pig(winscore=6,horizon=6,diceoutcomes=3)")
    tree, tree_graph, tree_values = agree(game, value_iteration, cyclic=False)
    first, first_graph, first_values = agree(game, value_iteration, cyclic=True)
    assert tree < 1e-9 and first < 1e-9
    assert (len(tree_values), len(first_values)) == (209, 160)
    root = str(game.new_initial_state())
    assert abs(tree_values[root] - first_values[root]) > 0.1


def test_tic_tac_toe_no_chance(pyspiel, value_iteration):
    game = pyspiel.load_game("tic_tac_toe")
    difference, graph, ours = agree(game, value_iteration, cyclic=True)
    assert difference < 1e-9
    assert graph.n_states == len(ours) == 5478  # every position, as OpenSpiel counts them
    assert ours[str(game.new_initial_state())] == 0  # a draw with best play
    assert graph.is_acyclic()


def test_one_player_catch_with_a_chance_root(pyspiel, value_iteration):
    game = pyspiel.load_game("catch(rows=6,columns=4)")
    difference, graph, ours = agree(game, value_iteration, cyclic=False)
    assert difference < 1e-9
    # The root is the ball's column (4 equal chances), owned by the only player.
    assert graph.states[0] == ChanceNode(str(game.new_initial_state()))
    assert [graph.probability(k) for k in graph.outcomes_of(0)] == [Fraction(1, 4)] * 4
    assert not graph.option_passes.any()
    assert solve(graph).start_value == pytest.approx(1.0)  # the paddle always gets there


# ---------------------------------------------------------------------------
# The mapping
# ---------------------------------------------------------------------------
def test_mapping_of_pig_nodes(pyspiel, pig):
    graph, solution = pig
    game = pyspiel.load_game(PIG)
    root = game.new_initial_state()
    rules = graph.rules
    assert isinstance(rules, OpenSpielRules)
    assert graph.states[0] == str(root) and graph.label(0) == (
        "Scores: 0 0, Turn total: 0 / Current player: 0"
    )
    # The root decision: one certain outcome, the legal actions as options.
    (k,) = graph.outcomes_of(0)
    options = graph.options_of(k)
    assert graph.probability(k) == 1
    assert [rules.move_label(int(graph.option_move[j])) for j in options] == ["roll", "stop"]
    # roll keeps the turn (into a chance node of player 0); stop passes it.
    assert [bool(graph.option_passes[j]) for j in options] == [False, True]
    rolling = graph.states[graph.option_target[options[0]]]
    assert rolling == ChanceNode(str(root.child(0))) and rules.player(rolling) == 0
    # The chance node: six faces of 1/6, one option each; the 1 passes the turn.
    i = graph.state_number(rolling)
    outcomes = graph.outcomes_of(i)
    assert [graph.probability(k) for k in outcomes] == [Fraction(1, 6)] * 6
    assert [len(graph.options_of(k)) for k in outcomes] == [1] * 6
    first = [graph.option_ptr[k] for k in outcomes]
    assert [bool(graph.option_passes[j]) for j in first] == [True] + [False] * 5
    labels = [rules.move_label(int(graph.option_move[j])) for j in first]
    assert labels == [f"Roll {face}" for face in range(1, 7)]
    # A won game belongs to the winner, worth 1 to them.
    won = next(s for s in graph.states if isinstance(s, str) and s.startswith("Scores: 10 "))
    assert rules.player(won) == 0 and rules.terminal_value(won) == 1


def test_values_back_in_openspiel_scale(pyspiel, pig):
    graph, solution = pig
    game = pyspiel.load_game(PIG)
    root = game.new_initial_state()
    v = float(solution.start_value)
    assert openspiel_value(solution, root) == pytest.approx(2 * v - 1, abs=1e-15)
    assert openspiel_value(solution, str(root)) == openspiel_value(solution, root)
    # Player 1's state: our value is theirs to move, OpenSpiel's is player 0's.
    after_stop = root.child(1)
    assert after_stop.current_player() == 1
    ours = float(solution.value(str(after_stop)))
    assert openspiel_value(solution, after_stop) == pytest.approx(1 - 2 * ours, abs=1e-15)
    with_chance = openspiel_values(solution, chance=True)
    assert len(with_chance) == graph.n_states
    assert with_chance[ChanceNode(str(root.child(0)))] == pytest.approx(2 * v - 1)


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("kuhn_poker", "kuhn_poker().*imperfect information.*accepted: perfect-information"),
        ("goofspiel", "goofspiel.*dynamics are simultaneous.*accepted: sequential"),
        ("pig(players=3,winscore=5)", "has 3 players.*accepted: one- or two-player"),
    ],
)
def test_games_that_do_not_fit_are_refused(pyspiel, game, words):
    with pytest.raises(InvalidArgumentError, match=words):
        from_openspiel(game)
    with pytest.raises(InvalidArgumentError, match=words):
        from_openspiel(pyspiel.load_game(game))


def test_bad_inputs(pyspiel):
    with pytest.raises(UnknownNameError, match="unknown OpenSpiel game 'no_such_game'.*pig"):
        from_openspiel("no_such_game(x=1)")
    with pytest.raises(InvalidArgumentError, match="cannot load 'pig\\(winscore=x\\)'"):
        from_openspiel("pig(winscore=x)")
    with pytest.raises(InvalidArgumentError, match="pyspiel.Game or an OpenSpiel game string"):
        from_openspiel(42)
    with pytest.raises(InvalidArgumentError, match="max_states must be"):
        from_openspiel(PIG, max_states=0)
    with pytest.raises(InvalidArgumentError, match="revisit must be"):
        from_openspiel(PIG, revisit="yes")
    with pytest.raises(InvalidRulesError, match="more than 100 states"):
        from_openspiel(PIG, max_states=100)
    with pytest.raises(InvalidArgumentError, match="made by from_openspiel"):
        openspiel_values(solve(build(Pig(goal=5))))


def test_bad_state_lookup(pig):
    graph, solution = pig
    with pytest.raises(InvalidArgumentError, match="not in this graph"):
        openspiel_value(solution, "no such state")


def test_chance_probabilities_become_exact_fractions():
    assert _fractions([1 / 6] * 6, "here") == [Fraction(1, 6)] * 6
    assert _fractions([0.25, 0.75], "here") == [Fraction(1, 4), Fraction(3, 4)]
    with pytest.raises(InvalidRulesError, match="here: chance probabilities .* sum to 9/10"):
        _fractions([0.5, 0.4], "here")
    with pytest.raises(InvalidRulesError, match="not a fraction with denominator at most"):
        _fractions([2**-40, 1 - 2**-40], "here")


def test_without_the_extra_one_line_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails
    with pytest.raises(MissingExtraError, match=r'pip install "gamegraph\[openspiel\]"'):
        from_openspiel(PIG)
