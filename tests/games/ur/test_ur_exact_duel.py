"""gamegraph.games.ur.exact_duel: a fixed agent against the optimum, exactly, without a graph.

Checked against the two-seat Markov chain of the explicit graph
(:func:`gamegraph.games.ur.analysis.exact_win_probability`) to 1e-12 at 1 to 3 pieces, under
every rule set; its two engines against each other; the optimum against itself against
the start value; and a Monte Carlo match on positions against the exact match value.
"""

from __future__ import annotations

import numpy as np
import pytest

from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import Ur, decode, rule_set
from gamegraph.games.ur.analysis import exact_win_probability, solve_table
from gamegraph.games.ur.block_solver import solve_file
from gamegraph.games.ur.code_table import SolvedTable
from gamegraph.games.ur.exact_duel import ur_duel
from gamegraph.games.ur.position_match import play_positions
from gamegraph.games.ur.rank_table import open_values

#: `make test-fast` leaves these out: exact duels against the graph's chain, up to 3 pieces.
pytestmark = pytest.mark.heavy

AGENTS = ("first", "last", "greedy")
ENGINE = "numba" if __import__("importlib").util.find_spec("numba") else "numpy"


def tables(rules, pieces, tmp_path):
    """(the table the duel reads, the table of the graph's positions for the chain).

    Masters has no throw of 0 and its graph holds only the positions that arise; the
    duel needs every position's value, so it reads the block solver's table there, and
    the chain the same values on the graph's positions.
    """
    if rules != "masters":
        table = solve_table(rules, pieces)
        return table, table
    path = tmp_path / f"masters-{pieces}.npy"
    solve_file(path, "masters", pieces, engine="numpy", tol=1e-14, progress=False)
    by_rank = open_values(path)
    codes = Ur("masters", pieces=pieces).build_graph().states.codes
    mover, a, opp, b = decode(codes, rule_set("masters", pieces).length)
    return by_rank, SolvedTable(by_rank.ruleset, codes, by_rank.values_of(mover, a, opp, b))


@pytest.mark.parametrize(
    "rules, pieces",
    [(rules, pieces) for pieces in (1, 2) for rules in ("finkel", "masters", "blitz", "aseb")]
    + [("finkel", 3)],
)
def test_the_exact_chain_of_the_graph(rules, pieces, tmp_path):
    table, on_graph = tables(rules, pieces, tmp_path)
    graph = Ur(rules, pieces=pieces).build_graph()
    for name in AGENTS:
        duel = ur_duel(name, table, engine=ENGINE, progress=False)
        first = exact_win_probability(graph, name, "optimal", table=on_graph)
        second = 1 - exact_win_probability(graph, "optimal", name, table=on_graph)
        assert abs(duel.agent_first - first) < 1e-12, (rules, pieces, name)
        assert abs(duel.optimum_first - second) < 1e-12, (rules, pieces, name)
        if pieces > 1:  # one piece: every agent plays the one move there is
            assert duel.match < 0.5
        if (rules, pieces, name) == ("finkel", 3, "greedy"):
            assert (round(duel.agent_first, 9), round(duel.match, 9)) == (0.285648674, 0.265762802)


def test_the_optimum_against_itself_is_the_start_value():
    table = solve_table("finkel", 2)
    duel = ur_duel("optimal", table, engine=ENGINE, progress=False)
    assert duel.agent_first == pytest.approx(table.start_value, abs=1e-12)
    assert duel.optimum_first == pytest.approx(1 - table.start_value, abs=1e-12)
    assert duel.match == pytest.approx(0.5, abs=1e-12)
    # Every position, both seats: the table's own values.
    by_rank = table.values_of(*_positions(duel.numbering))
    assert np.abs(duel.agent_to_move - by_rank).max() < 1e-12
    assert np.abs(duel.optimum_to_move - by_rank).max() < 1e-12


def _positions(numbering):
    from gamegraph.games.ur.rank import unrank

    return unrank(np.arange(numbering.n_positions), numbering.tables)


def test_the_two_engines_agree():
    pytest.importorskip("numba")
    table = solve_table("blitz", 2)
    compiled = ur_duel("last", table, engine="numba", threads=2, progress=False)
    plain = ur_duel("last", table, engine="numpy", progress=False)
    assert np.abs(compiled.agent_to_move - plain.agent_to_move).max() < 1e-12
    assert np.abs(compiled.optimum_to_move - plain.optimum_to_move).max() < 1e-12
    assert "last against the optimum, blitz 2" in repr(compiled)


def test_choices_made_in_threads_are_those_made_in_one(monkeypatch):
    """Chunks made by two threads at once land in their own rows: small chunks, so that a
    block of finkel 3 has many of them, give the same choices as one thread.
    """
    from gamegraph.games.ur import exact_duel as module
    from gamegraph.games.ur.agents import as_agent
    from gamegraph.games.ur.block_solver import sweep_plan
    from gamegraph.games.ur.rank import Numbering

    table = solve_table("finkel", 3)
    numbering = Numbering(table.ruleset)
    block = max(numbering.blocks, key=lambda block: block.size)
    order = sweep_plan(numbering, block)[0]
    players = (as_agent("greedy", table.ruleset), as_agent("optimal", table.ruleset, table=table))
    throws = [1, 2, 3, 4]
    monkeypatch.setattr(module, "CHUNK", 1000)
    assert len(order) > 20 * module.CHUNK
    threaded = module._choices(numbering, order, players, throws, workers=2)
    alone = module._choices(numbering, order, players, throws, workers=1)
    assert np.array_equal(threaded, alone)
    assert (alone >= module.NO_MOVE).all() and (alone[..., 0] >= 0).any()


def test_monte_carlo_on_positions_estimates_the_duel():
    table = solve_table("finkel", 2)
    duel = ur_duel("greedy", table, engine=ENGINE, progress=False)
    result = play_positions("greedy", "optimal", games=20_000, seed=8, table=table)
    low, high = result.interval()
    assert low < duel.match < high


def test_refusals():
    table = solve_table("finkel", 1)
    for name in ("random", "gain"):
        with pytest.raises(InvalidArgumentError, match="no fixed vectorised choice"):
            ur_duel(name, table, progress=False)
    with pytest.raises(InvalidArgumentError, match="unknown engine"):
        ur_duel("first", table, engine="fortran", progress=False)


def test_the_command(tmp_path, capsys):
    import json

    from cli_run import run

    path = tmp_path / "finkel-2.urtable"
    assert run(["ur", "solve", "--pieces", "2", "--save", path], capsys)[0] == 0
    status, out, err = run(["ur", "duel", "greedy", "--table", path, "--format", "json"], capsys)
    assert status == 0, err
    data = json.loads(out)
    graph = Ur("finkel", pieces=2).build_graph()
    table = solve_table("finkel", 2)
    first = exact_win_probability(graph, "greedy", "optimal", table=table)
    assert (data["agent"], data["rules"], data["pieces"]) == ("greedy", "finkel", 2)
    assert data["agent_first"] == pytest.approx(first, abs=1e-12)
    assert data["match"] == pytest.approx(0.375385357942, abs=1e-10)
    assert data["short_of_optimum"] == pytest.approx(0.5 - 0.375385357942, abs=1e-10)
    status, out, err = run(["ur", "duel", "greedy", "--table", path], capsys)
    assert status == 0 and "tolerance 1e-10" in out
    match = float(out.split("each moving first in half the games: ")[1].split()[0])
    assert match == pytest.approx(0.375385357942, abs=1e-10)
    for agent, says in (("gain", "no fixed vectorised choice"), ("bogus", "unknown Ur agent")):
        status, out, err = run(["ur", "duel", agent, "--table", path], capsys)
        assert status == 2 and out == "" and says in err and err.count("\n") == 1
