"""The Ur block solver against the explicit graph: the one comparison that the tests
(``tests/games/ur/test_ur_block_solver.py``, ``test_ur_block_solver_slow.py``) and the benchmark
(``benchmarks/bench_ur_blocks.py --agree``, which puts ``tests/`` on its path) share.

The explicit graph (:func:`gamegraph.build` then :func:`gamegraph.solve`, numba engine)
is the reference. Every position it holds is looked up in the block solver's values by
its rank; under masters rules (no throw of 0) the graph holds only the positions that can
arise, while the block solver solves every position. The graph is let go before the block
solve, so the peak is the larger of the two, not their sum.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from gamegraph import build, solve
from gamegraph.games.ur import Ur, decode, rule_set
from gamegraph.games.ur.block_solver import solve_blocks
from gamegraph.games.ur.rank import rank


class Agreement(NamedTuple):
    """How far the block solver is from the explicit graph."""

    rules: str
    pieces: int
    #: Positions the explicit graph holds (every one compared).
    positions: int
    #: Largest absolute difference over them.
    gap: float
    #: The start value, from the explicit graph and from the block solver.
    start: float
    block_start: float
    #: Wall times: the explicit graph's build and solve, the block solve.
    graph_seconds: float
    block_seconds: float

    @property
    def start_gap(self) -> float:
        return abs(self.block_start - self.start)


def agreement(rules, pieces: int | None = None, **options) -> Agreement:
    """Solve ``rules`` with ``pieces`` both ways and compare every position.

    ``options`` go to :func:`~gamegraph.games.ur.block_solver.solve_blocks` (``engine``,
    ``threads``, ``tol``, ...); its progress display is off unless asked for.
    """
    ruleset = rule_set(rules, pieces)
    codes, expected, start, graph_seconds = explicit_values(ruleset.name, ruleset.pieces)
    options.setdefault("progress", False)
    started = time.perf_counter()
    blocks = solve_blocks(ruleset, **options)
    block_seconds = time.perf_counter() - started
    ranks = rank(*decode(codes, ruleset.length), blocks.numbering.tables)
    return Agreement(
        rules=ruleset.name,
        pieces=ruleset.pieces,
        positions=len(codes),
        gap=float(np.abs(blocks.values[ranks] - expected).max()),
        start=start,
        block_start=blocks.start_value,
        graph_seconds=graph_seconds,
        block_seconds=block_seconds,
    )


def explicit_values(rules: str, pieces: int):
    """The explicit graph's positions (codes), values and start value, and the seconds its
    build and solve took. Up to 3 pieces they are computed once per rule set and size in a
    process (read-only arrays, the seconds those of the first time): several tests compare
    the block solver in different modes against the same graph, and a blitz or masters
    3-piece graph takes a few seconds to build and solve. Larger graphs are solved afresh,
    not kept.
    """
    if pieces <= 3:
        return _kept_explicit_values(rules, pieces)
    return _explicit_values(rules, pieces)


def _explicit_values(rules: str, pieces: int):
    started = time.perf_counter()
    graph = build(Ur(rule_set(rules, pieces)))
    reference = solve(graph, engine="numba")
    codes = np.array(graph.states.codes)
    expected = np.array(reference.values[: len(codes)], dtype=np.float64)
    for array in (codes, expected):
        array.setflags(write=False)
    return codes, expected, float(reference.start_value), time.perf_counter() - started


_kept_explicit_values = lru_cache(maxsize=None)(_explicit_values)
