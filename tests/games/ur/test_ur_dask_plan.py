"""The block plan as a Dask graph on a LocalCluster gives the single-process table."""

import numpy as np
import pytest

from gamegraph.games.ur import rule_set
from gamegraph.games.ur.block_solver import solve_blocks
from gamegraph.games.ur.dask_plan import block_dependencies, solve_on_dask, wavefronts
from gamegraph.games.ur.rank import Numbering
from gamegraph.games.ur.rank_table import open_values, write_values

#: `make test-fast` leaves these out: Ur's blocks on a local Dask cluster.
pytestmark = pytest.mark.heavy

distributed = pytest.importorskip(
    "distributed", reason='the Dask tests need the dask extra: pip install "gamegraph[dask]"'
)


def test_a_block_waits_for_the_blocks_it_leads_to():
    numbering = Numbering(rule_set("finkel", pieces=7))
    needs = block_dependencies(numbering)
    for block in numbering.blocks:
        for i in needs[block.index]:
            other = numbering.blocks[i]
            assert other.low + other.high == block.low + block.high + 1
            assert i < block.index  # the numbering's order solves them first
    fronts = wavefronts(numbering)
    assert sorted(i for front in fronts for i in front) == list(range(len(numbering.blocks)))
    assert [len(f) for f in fronts] == [1, 1, 2, 2, 3, 3, 4, 3, 3, 2, 2, 1, 1]


@pytest.mark.parametrize(("rules", "pieces"), [("finkel", 3)])
def test_local_cluster_gives_the_single_process_table(tmp_path, rules, pieces):
    alone = solve_blocks(rules, pieces, engine="numba", progress=False)
    single = tmp_path / "single.npy"
    write_values(single, Numbering(rule_set(rules, pieces)), alone.values)
    path = tmp_path / "dask.npy"
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        stats = solve_on_dask(path, rules, pieces, client=client, engine="numba")
    assert len(stats) == len(Numbering(rule_set(rules, pieces)).blocks)
    table = open_values(path, rules=rules, pieces=pieces)
    table.verify()
    assert np.array_equal(np.load(path, mmap_mode="r"), alone.values)
    assert path.read_bytes() == single.read_bytes()  # the same file, byte for byte
    assert not (tmp_path / "dask.npy.partial").exists()
