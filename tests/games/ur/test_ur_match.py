"""Matches on positions (gamegraph.games.ur.position_match, .moves): no graph, any piece count.

Checked against the graph: the moves made on arrays are the rules' legal moves and their
results; the agents' vectorised choices are their one-position choices; the same seed
plays the same games on either board (every row equal); and the Monte Carlo win rates
cover the exact values of the two-seat Markov chain
(:func:`gamegraph.games.ur.analysis.exact_win_probability`).
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from cli_run import run

from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import RULESETS, Ur, legal_moves, play, rule_set
from gamegraph.games.ur.agents import make_agent
from gamegraph.games.ur.analysis import exact_win_probability, solve_table
from gamegraph.games.ur.graph_match import play_match, round_robin
from gamegraph.games.ur.moves import moves_after, pip_counts, positions, states
from gamegraph.games.ur.position_match import play_positions, round_robin_positions
from gamegraph.games.ur.rank import Numbering, unrank
from gamegraph.games.ur.rank_table import open_values

#: `make test-fast` leaves these out: seeded matches on the graph and on positions.
pytestmark = pytest.mark.heavy

FINKEL7 = "/tmp/x/finkel7.npy"
AGENTS = ["random", "first", "last", "greedy", "gain", "expectimax-2", "optimal"]
DETERMINISTIC = ["first", "last", "greedy", "expectimax-1", "optimal"]


def strip(rows):
    """Rows without their timings."""
    return [{k: v for k, v in r.items() if k not in ("seconds", "games_per_second")} for r in rows]


def sample(ruleset, count, seed):
    """``count`` positions drawn uniformly by rank, as (mover, a, opp, b) arrays."""
    numbering = Numbering(ruleset)
    ranks = np.random.default_rng(seed).integers(0, numbering.n_positions, count)
    return unrank(ranks, numbering.tables)


@pytest.fixture(scope="module")
def finkel2():
    return solve_table("finkel", 2)


@pytest.fixture(scope="module")
def graph2():
    return Ur("finkel", pieces=2).build_graph()


# ---------------------------------------------------------------------------
# Moves on arrays
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULESETS)
def test_moves_on_arrays_are_the_rules_moves(rules):
    ruleset = rule_set(rules, 3)
    sides = sample(ruleset, 300, seed=len(rules))
    throws = np.random.default_rng(1).choice([t for t, _ in ruleset.throws], 300)
    moves = moves_after(*sides, throws, ruleset)
    for row, state in enumerate(states(*sides, ruleset.length)):
        legal = legal_moves(state, int(throws[row]), ruleset)
        assert moves.sources(row).tolist() == [source for source, _, _ in legal]
        assert moves.counts[row] == len(legal)
        for index, move in enumerate(legal):
            one = moves.take([row]).pick(np.array([index]))
            after, passes = play(state, move, ruleset)
            assert bool(one.won[0]) == (after == "WIN")
            if after != "WIN":
                assert (one.states()[0], bool(one.passes[0])) == (after, passes)
        if not legal:
            one = moves.take([row]).pick(np.array([0]))
            assert one.states()[0] == state.flipped() and one.passes[0] and not one.won[0]


def test_values_of_moves_are_the_tables(finkel2):
    ruleset = finkel2.ruleset
    sides = sample(ruleset, 200, seed=3)
    for throw in (1, 2, 3, 4):
        moves = moves_after(*sides, throw, ruleset)
        q = moves.values(finkel2)
        expected = [
            value
            for state in states(*sides, ruleset.length)
            for move, value in finkel2.move_values(state, throw)
            if move is not None
        ]
        assert q.tolist() == expected


def test_pip_counts_are_the_agents():
    from gamegraph.games.ur.agents import pip_count

    ruleset = rule_set("masters", 4)
    sides = sample(ruleset, 100, seed=4)
    found = pip_counts(*sides, ruleset).tolist()
    assert found == [pip_count(s, ruleset) for s in states(*sides, ruleset.length)]
    assert positions([], ruleset)[0].shape == (0,)


@pytest.mark.parametrize("rules, pieces", [("finkel", 3), ("blitz", 3), ("masters", 7)])
def test_vectorised_choices_are_the_agents_own(rules, pieces, finkel2):
    ruleset = rule_set(rules, pieces)
    sides = sample(ruleset, 250, seed=pieces)
    throws = np.random.default_rng(2).integers(1, 5, 250)
    moves = moves_after(*sides, throws, ruleset)
    moves = moves.take(np.flatnonzero(moves.counts > 1))
    found = states(moves.mover, moves.a, moves.opp, moves.b, ruleset.length)
    for name in ("first", "last", "greedy", "expectimax-1", "expectimax-2"):
        agent = make_agent(name, ruleset=ruleset)
        expected = [
            agent.choose(s, int(t), legal_moves(s, int(t), ruleset))
            for s, t in zip(found, moves.throw)
        ]
        assert agent.position_choice(moves).tolist() == expected, name
    assert make_agent("gain", ruleset=ruleset).position_choice(moves) is None


# ---------------------------------------------------------------------------
# The same games as on the graph
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULESETS)
def test_one_piece_every_agent_the_same_games_as_the_graph(rules):
    graph = Ur(rules, pieces=1).build_graph()
    table = solve_table(rules, 1)
    on_graph = round_robin(graph, AGENTS, games=300, seed=3, table=table, progress=False)
    on_positions = round_robin_positions(AGENTS, games=300, seed=3, table=table, progress=False)
    assert strip(on_positions) == strip(on_graph)


def test_two_pieces_every_agent_the_same_games_as_the_graph(graph2, finkel2):
    on_graph = round_robin(graph2, AGENTS, games=400, seed=11, table=finkel2, progress=False)
    on_positions = round_robin_positions(AGENTS, games=400, seed=11, table=finkel2,
                                         progress=False)  # fmt: skip
    assert strip(on_positions) == strip(on_graph)
    totals = {row["agent"]: row for row in on_positions.agents()}
    assert totals["optimal"]["mean_loss"] == 0 and totals["optimal"]["nonoptimal"] == 0
    assert all(totals[name]["mean_loss"] > 0.005 for name in AGENTS if name != "optimal")


def test_a_block_table_by_rank_plays_as_the_graph_table(graph2, finkel2, tmp_path):
    from gamegraph.games.ur.block_solver import solve_file

    path = tmp_path / "finkel-2.npy"
    solve_file(path, "finkel", 2, engine="numpy", tol=1e-13, progress=False)
    by_rank = open_values(path)
    match = play_positions("greedy", "optimal", games=2000, seed=4, table=by_rank)
    graph = play_match(graph2, "greedy", "optimal", games=2000, seed=4, table=finkel2)
    assert match.a.wins == graph.a.wins and match.a.decisions == graph.a.decisions
    assert match.b.loss == 0 and match.a.loss == pytest.approx(graph.a.loss, abs=1e-9)


# ---------------------------------------------------------------------------
# Against the exact values
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "pieces, games, pairs",
    [
        (1, 4000, [("first", "last"), ("greedy", "optimal")]),
        (2, 4000, [("greedy", "last"), ("first", "optimal"), ("expectimax-1", "greedy")]),
        (3, 2000, [("greedy", "optimal"), ("last", "first")]),
    ],
)
def test_win_rates_cover_the_exact_values(pieces, games, pairs):
    graph = Ur("finkel", pieces=pieces).build_graph()
    table = solve_table("finkel", pieces)
    for seed, (a, b) in enumerate(pairs):
        agents = [make_agent(x, ruleset=table.ruleset, table=table) for x in (a, b)]
        a_first = exact_win_probability(graph, *agents)
        b_first = exact_win_probability(graph, *reversed(agents))
        expected = (a_first + 1 - b_first) / 2  # A opens half the games
        result = play_positions(*agents, games=games, seed=10 * pieces + seed, table=table)
        low, high = result.interval()
        assert low < expected < high, (pieces, a, b, low, expected, high)
        assert result.unfinished == 0 and result.a.wins + result.b.wins == games
        for record in (result.a, result.b):
            assert (record.decisions > 0) == (pieces > 1)  # one piece: one move at most
            if record.name == "optimal":
                assert record.loss == 0 and record.nonoptimal == 0
            elif pieces > 1:
                assert record.mean_loss > 0


def test_refusals(finkel2):
    with pytest.raises(InvalidArgumentError, match="needs the rules"):
        play_positions("first", "last", games=10)
    with pytest.raises(InvalidArgumentError, match="not aseb with 2"):
        play_positions("first", "last", games=10, table=finkel2, ruleset=rule_set("aseb", 2))
    with pytest.raises(InvalidArgumentError, match="agent names must differ"):
        round_robin_positions(["first", "first"], games=10, ruleset="finkel")
    with pytest.raises(InvalidArgumentError, match="needs a solved table"):
        round_robin_positions(["first", "optimal"], games=10, ruleset="finkel")


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------
def test_tournament_on_a_saved_table_plays_the_solved_graphs_games(tmp_path, capsys):
    """With --table the games are played on positions, without it on the graph: the
    same seed gives the same rows.
    """
    table = tmp_path / "finkel-2.urtable"
    assert run(["ur", "solve", "--pieces", "2", "--save", table], capsys)[0] == 0
    argv = ["ur", "tournament", "--agents", "first,greedy,expectimax-2,optimal", "--games",
            "300", "--seed", "5", "--format", "json", "-q"]  # fmt: skip
    status, with_table, _ = run(argv + ["--table", table], capsys)
    assert status == 0
    status, solving, _ = run(argv + ["--pieces", "2"], capsys)
    assert status == 0
    assert strip(json.loads(with_table)["pairings"]) == strip(json.loads(solving)["pairings"])


@pytest.mark.skipif(not os.path.exists(FINKEL7), reason="needs the solved finkel 7 table")
def test_tournament_on_the_seven_piece_table(capsys):
    argv = ["ur", "tournament", "--table", FINKEL7, "--agents", "optimal,greedy,expectimax-1",
            "--games", "20", "--format", "json", "-q"]  # fmt: skip
    status, out, err = run(argv, capsys)
    assert status == 0, err
    data = json.loads(out)
    assert (data["rules"], data["pieces"], data["games_per_pairing"]) == ("finkel", 7, 20)
    totals = {row["agent"]: row for row in data["agents"]}
    assert totals["optimal"]["mean_loss"] == 0 and totals["optimal"]["decisions"] > 100
    assert totals["greedy"]["mean_loss"] > 0.001 and totals["expectimax-1"]["mean_loss"] > 0.001
    assert all(p["low"] <= p["a_rate"] <= p["high"] for p in data["pairings"])
