"""The small-graph path of solve and evaluate (gamegraph._small): numpy alone, the same
values as the compiled kernels, and neither numba nor scipy loaded."""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

from gamegraph import _small, build, evaluate, solve
from gamegraph._kernels import available
from gamegraph.errors import ConvergenceError
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.pig import Pig
from gamegraph.games.pig_solitaire import PigScore, PigTurns
from gamegraph.games.pig_stakes import PigStakes
from gamegraph.games.race import HomeRun
from gamegraph.games.supersix import SuperSix
from gamegraph.games.ur import Ur
from gamegraph.policy import Policy

solve_module = importlib.import_module("gamegraph.solve")
needs_numba = pytest.mark.skipif(not available(), reason="numba (the fast extra) is missing")

GAMES = {
    "pig-10": lambda: Pig(goal=10),
    "jackpot": Jackpot,
    "supersix-10": lambda: SuperSix(pegs=10),
    "supersix-40": lambda: SuperSix(pegs=40),
    "ur-1": lambda: Ur(pieces=1),
    "ur-2": lambda: Ur(pieces=2),  # 12,870 states: the small path only when forced
    "home-run": HomeRun,
    "pig-turns-20": lambda: PigTurns(goal=20),  # score
    "pig-score": PigScore,  # score
    "pig-stakes-10": lambda: PigStakes(goal=10),  # margin
}


@pytest.fixture(scope="module")
def graphs():
    return {name: build(make()) for name, make in GAMES.items()}


@pytest.fixture
def small_everywhere(monkeypatch):
    """Every graph of the tests takes the small path under engine="auto"."""
    monkeypatch.setattr(_small, "MAX_STATES", 10**6)
    monkeypatch.setattr(_small, "MAX_COMPONENT", 10**4)


def close(a, b, scale=1.0):
    """Values equal to 1e-12 (times their size for scores and margins)."""
    return np.max(np.abs(a - b), initial=0.0) <= 1e-12 * max(scale, 1.0)


@needs_numba
@pytest.mark.parametrize("name", GAMES)
def test_small_path_gives_the_kernels_values(graphs, small_everywhere, name):
    graph = graphs[name]
    assert solve_module._engine(graph, "auto", False) == "small"
    small, numba = solve(graph), solve(graph, engine="numba")
    assert close(small.values, numba.values, np.max(np.abs(numba.values)))
    assert np.array_equal(small.policy.choice, numba.policy.choice)
    assert small.residual <= 1e-12 * max(1.0, np.max(np.abs(small.values)))


@needs_numba
@pytest.mark.parametrize("name", ["pig-10", "ur-1", "supersix-10", "pig-stakes-10"])
def test_small_path_evaluates_a_policy_as_the_kernels_do(graphs, small_everywhere, name):
    graph = graphs[name]
    rng = np.random.default_rng(1)
    optimal = solve(graph, engine="numba").policy
    # Half of the optimal choices replaced by the first option: a policy of its own that
    # still ends the game (every option of these games eventually does, or the check says so).
    choice = optimal.choice.copy()
    alive = np.flatnonzero(choice > 0)
    choice[rng.choice(alive, len(alive) // 2, replace=False)] = 0
    policy = Policy(choice=choice, name="mixed")
    try:
        numba = evaluate(graph, policy, engine="numba")
    except Exception:  # a mix that never ends: the optimal policy instead
        policy = optimal
        numba = evaluate(graph, policy, engine="numba")
    small = evaluate(graph, policy)
    assert close(small.values, numba.values, np.max(np.abs(numba.values)))


def test_engine_choice(graphs, monkeypatch):
    engine = solve_module._engine
    assert engine(graphs["pig-10"], "auto", False) == "small"
    assert engine(graphs["supersix-40"], "auto", False) == "small"
    assert engine(graphs["pig-10"], "numpy", False) == "numpy"  # forced: as before
    assert engine(graphs["pig-10"], "auto", True) == "numpy"  # exact: unchanged
    assert engine(graphs["pig-10"], "auto", False, "value") != "small"  # value iteration
    big = graphs["ur-2"]  # 12,870 states, a cyclic component of 1,454
    assert engine(big, "auto", False) == ("numba" if available() else "numpy")
    monkeypatch.setattr(_small, "MAX_STATES", 10**6)
    assert engine(big, "auto", False) == ("numba" if available() else "numpy")  # component
    if available():
        assert engine(graphs["pig-10"], "numba", False) == "numba"  # forced: as before


def test_small_and_numpy_paths_agree_without_numba(graphs):
    """The small path against the level-by-level numpy engine (no numba needed)."""
    for name in ("pig-10", "supersix-10", "ur-1", "pig-stakes-10", "pig-turns-20"):
        graph = graphs[name]
        small, numpy = solve(graph), solve(graph, engine="numpy")
        assert close(small.values, numpy.values, np.max(np.abs(numpy.values))), name
        assert np.array_equal(small.policy.choice, numpy.policy.choice), name


def test_block_diagonal_solve_matches_a_dense_solve():
    rng = np.random.default_rng(7)
    group = rng.integers(0, 5, size=40)
    rows, cols, values = [], [], []
    dense = np.zeros((40, 40))
    for i in range(40):
        same = np.flatnonzero(group == group[i])
        for j in rng.choice(same, min(3, len(same)), replace=False):
            rows.append(i), cols.append(j), values.append(-rng.random() / 4)
        rows.append(i), cols.append(i), values.append(1.0)
    np.add.at(dense, (rows, cols), values)
    b = rng.random(40)
    x = _small.solve_block_diagonal(rows, cols, values, b, group)
    assert np.allclose(x, np.linalg.solve(dense, b), rtol=0, atol=1e-13)


def test_singular_block_is_a_convergence_error():
    # Block {0, 1}: x0 - x1 = 0, x1 - x0 = 0 (play that never ends); block {2}: x2 = 1.
    with pytest.raises(ConvergenceError, match="singular"):
        _small.solve_block_diagonal(
            [0, 0, 1, 1, 2], [0, 1, 1, 0, 2], [1.0, -1.0, 1.0, -1.0, 1.0], [0, 0, 1], [5, 5, 2]
        )


def test_components_agree_with_scipy(graphs):
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    for name in ("pig-10", "ur-2", "supersix-40", "home-run"):
        graph = graphs[name]
        n = graph.n_states
        count, component = _small.strong_components(
            graph.option_ptr[graph.outcome_ptr], graph.option_target
        )
        sources = graph.outcome_state[graph.option_outcome]
        adjacency = csr_matrix(
            (np.ones(len(sources)), (sources, graph.option_target)), shape=(n, n)
        )
        expected_count, expected = connected_components(adjacency, connection="strong")
        assert count == expected_count, name
        pairs = set(zip(component.tolist(), expected.tolist()))
        assert len(pairs) == count, name  # the same partition, numbered otherwise


def test_a_small_solve_loads_neither_numba_nor_scipy(graphs):
    code = (
        "import sys\n"
        "from gamegraph import build, solve, evaluate\n"
        "from gamegraph.games.pig import Pig\n"
        "graph = build(Pig(goal=10))\n"
        "solution = solve(graph)\n"
        "evaluate(graph, solution.policy)\n"
        "from gamegraph.games.jackpot import Jackpot\n"
        "solve(build(Jackpot(cells=6)), exact=True)  # no cycle: no linear solve either\n"
        "print(round(float(solution.start_value), 12))\n"
        "print(sorted(m for m in ('numba', 'llvmlite', 'scipy', 'tqdm') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    exact = solve(graphs["pig-10"], exact=True).start_value
    assert out[0] == str(round(float(exact), 12))
    assert out[1] == "[]"


#: Records, for each import of scipy.sparse, the first file outside importlib and scipy
#: that asked for it: some numba versions (0.60) load it themselves, which is not ours.
_WHO_IMPORTS_SPARSE = """
import os, sys
import gamegraph
ours = os.path.dirname(gamegraph.__file__)
askers = []
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "scipy.sparse" or name.startswith("scipy.sparse."):
            frame = sys._getframe(1)
            while frame and (frame.f_code.co_filename.startswith("<frozen")
                             or os.sep + "scipy" + os.sep in frame.f_code.co_filename):
                frame = frame.f_back
            askers.append(frame.f_code.co_filename if frame else "?")
        return None
sys.meta_path.insert(0, Watch())
"""


@needs_numba
def test_the_kernels_load_no_scipy_unless_they_fall_back():
    code = _WHO_IMPORTS_SPARSE + (
        "from gamegraph import build, solve\n"
        "from gamegraph.games.ur import Ur\n"
        "solve(build(Ur(pieces=1)), engine='numba')\n"
        "assert 'numba' in sys.modules\n"
        "print(sorted({a for a in askers if a.startswith(ours)}))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "[]\n", f"gamegraph imported scipy.sparse from {run.stdout}"


@needs_numba
def test_the_kernels_fallback_limits_blas_with_scipys(graphs, monkeypatch):
    """A component the kernels hand to the numpy code is solved under limit_blas, which
    loads scipy's BLAS before limiting it (the kernels themselves limit only numpy's)."""
    asked = []
    real = solve_module.limit_blas

    def recording(threads=None, *, load=True):
        asked.append((threads, load))
        return real(threads, load=load)

    monkeypatch.setattr(solve_module, "limit_blas", recording)
    graph = graphs["ur-1"]
    reference = solve(graph, engine="numba", blas_threads=2)
    assert asked == [(2, False)]  # the kernels: only the BLAS loaded
    asked.clear()
    cut = solve(graph, engine="numba", max_iter=2, blas_threads=2)  # sweeps cut short
    assert asked[0] == (2, False) and set(asked[1:]) == {(2, True)}
    assert close(cut.values, reference.values)
