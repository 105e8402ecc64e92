"""The block solver against the explicit graph at 4 pieces, every rule set (issue 13).

2.6 to 6.2 million positions per rule set, minutes and a few GiB each (the explicit
graph's build and solve, then the block solve), so they are marked ``slow``:
``make test`` leaves them out and ``make test-slow`` runs them, two rule sets at once.
1 to 3 pieces are checked in ``test_ur_block_solver.py`` with the same comparison
(``tests/ur_agree.py``).
"""

from __future__ import annotations

import pytest
from ur_agree import agreement

from gamegraph.games.ur import RULESETS

pytestmark = pytest.mark.slow
numba = pytest.importorskip("numba")


@pytest.mark.parametrize("name", RULESETS)
def test_four_pieces_agree_with_the_explicit_graph(name):
    # One numba thread: `make test-slow` runs two of these at once on two cores (the
    # values do not depend on the thread count: test_ur_block_solver.py checks 1 against 2).
    found = agreement(name, 4, threads=1)
    print(
        f"{name} 4 pieces: {found.positions:,} positions, largest difference "
        f"{found.gap:.1e}; start value {found.block_start:.15f}, {found.start_gap:.1e} from "
        f"the explicit graph's; graph {found.graph_seconds:.0f} s, blocks "
        f"{found.block_seconds:.0f} s"
    )
    assert found.positions > 2_500_000
    assert found.gap <= 1e-12, found
    assert found.start_gap <= 1e-12, found
