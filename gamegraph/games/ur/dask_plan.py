r"""The block plan of :mod:`.block_solver` as a Dask graph: Ur solved on a cluster.

Each block of the numbering (:class:`gamegraph.games.ur.rank.Numbering`: the positions
with the same pieces borne off, either side to move) is one task. A block's moves lead
only to itself and to the blocks with one more piece borne off by either side, so its
task depends on those two tasks (or fewer, near the end of the game). Blocks with the
same number of pieces borne off in all form a *wavefront*: they depend on none of each
other and can run at once on different workers.

Values travel through the table file, not through Dask: every task maps the same
``.partial`` file (:mod:`gamegraph.games.ur.rank_table`, on storage every worker can
see), reads the blocks it depends on and writes its own. When every task is done the
file gets its digest and is renamed into place, so a table made on a cluster is the
same file, byte for byte, as one made in a single process with the same engine.

Dask is an optional extra (``pip install "gamegraph[dask]"``, which brings
``dask[distributed]``). Without a ``client`` the tasks run on Dask's default scheduler:
a :class:`distributed.Client` if one is active in the process, else local threads.

Examples
--------
>>> from gamegraph.games.ur import rule_set
>>> from gamegraph.games.ur.rank import Numbering
>>> numbering = Numbering(rule_set("finkel", pieces=3))
>>> [len(front) for front in wavefronts(numbering)]
[1, 1, 2, 1, 1]
>>> block_dependencies(numbering)  # block 5 holds the start: nobody has borne off
{0: (), 1: (0,), 2: (1,), 3: (1,), 4: (2, 3), 5: (4,)}
"""

from __future__ import annotations

import numpy as np

from ..._extras import require
from . import block_solver, rank_table
from .rank import Numbering
from .rules import rule_set


def block_dependencies(numbering: Numbering) -> dict[int, tuple[int, ...]]:
    """For every block, the blocks its moves lead to (besides itself)."""
    by_counts = {(block.low, block.high): block.index for block in numbering.blocks}
    needs = {}
    for block in numbering.blocks:
        after = {
            tuple(sorted(p)) for p in ((block.low + 1, block.high), (block.low, block.high + 1))
        }
        needs[block.index] = tuple(sorted(by_counts[p] for p in after if p in by_counts))
    return needs


def wavefronts(numbering: Numbering) -> list[list[int]]:
    """The blocks grouped by pieces borne off in all, most first: each group depends only
    on the groups before it, so its blocks can be solved at the same time.
    """
    fronts: dict[int, list[int]] = {}
    for block in numbering.blocks:
        fronts.setdefault(block.low + block.high, []).append(block.index)
    return [fronts[total] for total in sorted(fronts, reverse=True)]


def _solve_task(path, name, pieces, index, options, *_solved):
    """Solve block ``index`` in the mapped file at ``path``; ``_solved`` are the results of
    the tasks it waits for (their values are in the file).
    """
    numbering = Numbering(rule_set(name, pieces))
    mapped = np.memmap(
        path, dtype="<f8", mode="r+", offset=rank_table.HEADER_BYTES, shape=(numbering.n_positions,)
    )
    stats = block_solver.solve_block(
        numbering, numbering.blocks[index], np.asarray(mapped), **options
    )
    mapped.flush()
    del mapped
    return stats


def solve_on_dask(
    path,
    rules="finkel",
    pieces: int | None = None,
    *,
    client=None,
    tol: float = 1e-13,
    engine: str = "auto",
    threads: int | None = 1,
) -> list:
    """Solve every position of a rule set as a Dask graph and write the table to ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        Where the table goes (a ``.npy`` file, :func:`~gamegraph.games.ur.rank_table.open_values`
        reads it); ``path + ".partial"`` is written meanwhile and must be on storage that
        every worker sees.
    rules, pieces
        The rule set and pieces per side, as :func:`.block_solver.solve_blocks`.
    client : distributed.Client, optional
        The cluster to run on; Dask's default scheduler when None.
    tol, engine
        As :func:`.block_solver.solve_blocks`.
    threads : int or None
        Cores each task's numba engine uses (one per task by default: a worker runs
        several tasks at once).

    Returns
    -------
    list of BlockStats
        One per block, in the numbering's order.
    """
    from ..._files import check_output

    check_output(path, (".npy",))
    dask = require("dask", "solving Ur on Dask", "dask")
    ruleset = rule_set(rules, pieces)
    numbering = Numbering(ruleset)
    # Blocks may finish in any order: no prefix to resume from. The lock is held until the
    # table is in place, so another solve of the same file is refused meanwhile.
    partial = rank_table.start_partial(path, numbering, resume=False)
    try:
        stats = _compute(dask, client, partial.path, numbering, tol, engine, threads)
        values = np.memmap(partial.path, dtype="<f8", mode="r", offset=rank_table.HEADER_BYTES,
                           shape=(numbering.n_positions,))  # fmt: skip
    except BaseException:
        partial.close()
        raise
    partial.finish(np.asarray(values))
    return stats


def _compute(dask, client, partial_path, numbering, tol, engine, threads) -> list:
    """Run the graph of block tasks on the ``.partial`` file; their statistics in order."""
    ruleset = numbering.ruleset
    options = {"engine": engine, "tol": tol, "threads": threads}
    needs = block_dependencies(numbering)
    tasks = {}
    for block in numbering.blocks:  # laid out so that what a block needs comes first
        solved = [tasks[i] for i in needs[block.index]]
        tasks[block.index] = dask.delayed(_solve_task, pure=False)(
            partial_path, ruleset.name, ruleset.pieces, block.index, options, *solved
        )
    ordered = [tasks[block.index] for block in numbering.blocks]
    if client is not None:
        return client.gather(client.compute(ordered))
    return list(dask.compute(*ordered))
