"""gamegraph.games.ur.analysis: tables solved in one call, and values by pieces borne off."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from gamegraph import build, solve
from gamegraph.games.ur import Ur, UrState, state_from_code, table_from_solution
from gamegraph.games.ur.analysis import borne_off_map, solve_table


@pytest.fixture(scope="module")
def finkel2():
    return solve_table("finkel", pieces=2)


def test_solve_table_is_the_solved_graphs_table():
    table = solve_table("aseb", pieces=1)
    again = table_from_solution(solve(build(Ur("aseb", 1))))
    assert (table.ruleset.name, table.ruleset.pieces) == ("aseb", 1)
    assert np.array_equal(table.codes, again.codes)
    assert np.array_equal(table.values, again.values)


def test_borne_off_values_match_the_table(finkel2):
    bmap = borne_off_map(finkel2)
    assert (bmap.rules, bmap.pieces) == ("finkel", 2)
    assert bmap.empty.shape == (2, 2)
    for a in range(2):
        for b in range(2):
            assert bmap.empty[a, b] == finkel2.value(UrState((), a, (), b))
    sums, counts = defaultdict(float), defaultdict(int)
    for code, value in zip(finkel2.codes.tolist(), finkel2.values.tolist()):
        state = state_from_code(code, finkel2.ruleset.length)
        sums[(state.mover_off, state.opponent_off)] += value
        counts[(state.mover_off, state.opponent_off)] += 1
    for (a, b), n in counts.items():
        assert bmap.count[a, b] == n
        assert bmap.mean[a, b] == pytest.approx(sums[(a, b)] / n, abs=1e-12)
    assert bmap.count.sum() == len(finkel2)


def test_the_borne_off_map_of_a_table_by_rank_matches_the_graphs(tmp_path):
    """A table by rank (``.npy``, the block solver's) has no position codes: its blocks
    are the borne-off counts. Same counts, and means within the solvers' tolerances."""
    pytest.importorskip("numba")
    from gamegraph.games.ur.block_solver import solve_file
    from gamegraph.games.ur.rank_table import open_values

    by_code = borne_off_map(solve_table("finkel", pieces=2))
    solve_file(tmp_path / "f2.npy", "finkel", pieces=2, progress=False)
    by_rank = borne_off_map(open_values(tmp_path / "f2.npy"))
    assert by_rank.count.tolist() == by_code.count.tolist() == [[9696, 1478], [1478, 217]]
    assert np.nanmax(abs(by_rank.mean - by_code.mean)) < 1e-9
    assert np.nanmax(abs(by_rank.empty - by_code.empty)) < 1e-9
