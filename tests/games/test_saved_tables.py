"""Tables saved by an earlier gamegraph still load, with the same values.

The files in ``saved_tables/`` were written by the commit before Ur's modules moved into
their own house (2b4d665: ``gamegraph ur solve --pieces 1 --save ...`` and
``gamegraph yahtzee solve --boxes aces,chance --dice 2 --save ...``). A change to a
table's layout or header must keep reading them, or raise the format's version and say
so in one line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gamegraph.games.ur.analysis import solve_table
from gamegraph.games.ur.code_table import load_table
from gamegraph.games.ur.rank_table import open_values
from gamegraph.games.yahtzee.scoring import scoring
from gamegraph.games.yahtzee.table_file import load_table as load_yahtzee

SAVED = Path(__file__).parent / "saved_tables"


def test_a_saved_rank_table_loads_with_the_values_of_a_fresh_solve():
    saved = open_values(SAVED / "ur-finkel-1.npy")
    fresh = solve_table("finkel", pieces=1)
    assert saved.start_value == pytest.approx(0.53005, abs=1e-6)
    # the block solver's tolerance (1e-10), not the graph solver's
    assert saved.start_value == pytest.approx(fresh.start_value, abs=1e-9)
    assert len(saved) == len(fresh)


def test_a_saved_code_table_loads_with_the_values_of_a_fresh_solve():
    saved = load_table(SAVED / "ur-finkel-1.urtable")
    fresh = solve_table("finkel", pieces=1)
    assert np.array_equal(saved.codes, fresh.codes)
    assert np.allclose(saved.values, fresh.values, rtol=0, atol=1e-12)


def test_a_saved_yahtzee_table_loads_with_the_values_of_a_fresh_solve():
    numba = pytest.importorskip("numba")  # noqa: F841 - the compact solver's kernels
    from gamegraph.games.yahtzee.solver import solve_values

    saved = load_yahtzee(SAVED / "yahtzee-aces-chance-2-dice.npy")
    fresh = solve_values(scoring("yahtzee", boxes=["aces", "chance"], dice=2))
    assert saved.start_value == pytest.approx(fresh.start_value, abs=1e-12)
    assert np.allclose(np.asarray(saved.values), np.asarray(fresh.values), rtol=0, atol=1e-12)
