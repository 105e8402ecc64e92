"""Tests for gamegraph._threads: BLAS threads limited during a solve, and only then."""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from gamegraph import InvalidArgumentError, build, evaluate, solve
from gamegraph._threads import ENV_VAR, blas_threads, limit_blas
from gamegraph.games.ur import Ur
from gamegraph.propagate import propagate

if not any(pool["user_api"] == "blas" for pool in threadpool_info()):  # pragma: no cover
    pytest.skip("no BLAS library that threadpoolctl can control", allow_module_level=True)

# The modules, not the functions of the same name that the package exports.
solve_module = importlib.import_module("gamegraph.solve")
propagate_module = importlib.import_module("gamegraph.propagate")


def blas_counts():
    """The thread count of every BLAS library loaded, e.g. [2, 2] (numpy's and scipy's)."""
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


@pytest.fixture(autouse=True)
def two_threads_outside(monkeypatch):
    """Every test starts with the variable unset and BLAS at 2 threads, on any machine."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    with threadpool_limits(limits=2, user_api="blas"):
        assert set(blas_counts()) == {2}
        yield
        assert set(blas_counts()) == {2}, "a call left its BLAS limit behind"


@pytest.fixture(scope="module")
def ur1():
    """Finkel Ur with one piece each: 218 states, cyclic, solved through solve_sparse."""
    return build(Ur("finkel", pieces=1))


@pytest.fixture(scope="module")
def ur1_policy(ur1):
    return solve(ur1).policy


@pytest.fixture
def seen(monkeypatch):
    """BLAS thread counts observed inside every linear solve of solve/evaluate/propagate."""
    observed = []
    for module in (solve_module, propagate_module):
        real = module.solve_sparse

        def spy(*args, _real=real, **kwargs):
            if len(observed) < 3:  # threadpool_info takes about a millisecond
                observed.append(tuple(blas_counts()))
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, "solve_sparse", spy)
    return observed


def run(kind, graph, seen, **kwargs):
    """Call solve, evaluate or propagate (the latter two with the optimal policy); solve and
    evaluate on the numpy engine, the one that calls BLAS.
    """
    if kind == "solve":
        return solve(graph, engine="numpy", **kwargs)
    policy = solve(graph).policy
    seen.clear()  # only what the call under test saw
    if kind == "evaluate":
        return evaluate(graph, policy, engine="numpy", **kwargs)
    return propagate(graph, policy, **kwargs)


# ---------------------------------------------------------------------------
# The limit is in force inside the call, and gone after it
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["solve", "evaluate", "propagate"])
def test_one_thread_by_default_inside_the_call(ur1, seen, kind):
    run(kind, ur1, seen)
    assert seen and all(set(counts) == {1} for counts in seen)
    assert set(blas_counts()) == {2}  # restored on return


@pytest.mark.parametrize("kind", ["solve", "evaluate", "propagate"])
def test_the_argument_raises_the_limit(ur1, seen, kind):
    with threadpool_limits(limits=1, user_api="blas"):
        run(kind, ur1, seen, blas_threads=2)
        assert set(blas_counts()) == {1}  # the caller's own limit is back
    assert seen and all(set(counts) == {2} for counts in seen)


def test_environment_variable_is_honoured(ur1, seen, monkeypatch):
    monkeypatch.setenv(ENV_VAR, " 2 ")
    assert blas_threads() == 2
    solve(ur1, engine="numpy")
    assert seen and all(set(counts) == {2} for counts in seen)


def test_argument_wins_over_environment_variable(ur1, seen, monkeypatch):
    monkeypatch.setenv(ENV_VAR, "2")
    solve(ur1, blas_threads=1, engine="numpy")
    assert seen and all(set(counts) == {1} for counts in seen)


def test_empty_environment_variable_counts_as_unset(monkeypatch):
    monkeypatch.setenv(ENV_VAR, "  ")
    assert blas_threads() == 1


def test_limit_restored_when_the_solve_fails(ur1, monkeypatch):
    def broken(*args, **kwargs):
        assert set(blas_counts()) == {1}
        raise RuntimeError("failed inside the linear solve")

    monkeypatch.setattr(solve_module, "solve_sparse", broken)
    with pytest.raises(RuntimeError, match="inside the linear solve"):
        solve(ur1, engine="numpy")
    assert set(blas_counts()) == {2}


def test_context_manager_and_decorator():
    with limit_blas() as allowed:
        assert allowed == 1 and set(blas_counts()) == {1}
    assert set(blas_counts()) == {2}

    @limit_blas(2)
    def inside():
        return blas_counts()

    with threadpool_limits(limits=1, user_api="blas"):
        assert set(inside()) == {2}
        assert set(blas_counts()) == {1}


def test_decorator_reads_the_variable_at_each_call(monkeypatch):
    @limit_blas()
    def inside():
        return set(blas_counts())

    assert inside() == {1}
    monkeypatch.setenv(ENV_VAR, "2")
    assert inside() == {2}


# ---------------------------------------------------------------------------
# Bad values are refused, before any work and without touching the limits
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["0", "-1", "abc", "1.5", "2e3", "+2", "1_0", "1025", "٣"])
def test_bad_environment_variable_is_refused(ur1, monkeypatch, bad):
    monkeypatch.setenv(ENV_VAR, bad)
    with pytest.raises(InvalidArgumentError) as error:
        solve(ur1)
    message = str(error.value)
    assert ENV_VAR in message and "whole number from 1 to 1,024" in message
    assert repr(bad.strip()) in message or bad in message
    assert set(blas_counts()) == {2}


@pytest.mark.parametrize("bad", [0, -3, 1025, True, 1.0, 2.5, "2", np.float64(2)])
@pytest.mark.parametrize("kind", ["solve", "evaluate", "propagate"])
def test_bad_argument_is_refused(ur1, ur1_policy, monkeypatch, kind, bad):
    def never(*args, **kwargs):  # pragma: no cover - reached only if the check is missing
        raise AssertionError("the linear solve ran with a bad blas_threads")

    policy = ur1_policy
    monkeypatch.setattr(solve_module, "solve_sparse", never)
    monkeypatch.setattr(propagate_module, "solve_sparse", never)
    call = {
        "solve": lambda: solve(ur1, blas_threads=bad),
        "evaluate": lambda: evaluate(ur1, policy, blas_threads=bad),
        "propagate": lambda: propagate(ur1, policy, blas_threads=bad),
    }[kind]
    with pytest.raises(InvalidArgumentError, match=r"blas_threads must be a whole number from 1"):
        call()
    assert set(blas_counts()) == {2}


def test_numpy_integer_is_accepted():
    assert blas_threads(np.int64(2)) == 2


# ---------------------------------------------------------------------------
# Same answers whatever the thread count; nothing happens at import
# ---------------------------------------------------------------------------
def test_values_identical_with_one_and_two_threads():
    graph = build(Ur("finkel", pieces=2))  # largest component 1,454 states: BiCGSTAB's path
    one, two = solve(graph, blas_threads=1), solve(graph, blas_threads=2)
    assert np.array_equal(one.values, two.values)
    assert np.array_equal(one.policy.choice, two.policy.choice)
    assert one.residual == two.residual and one.iterations == two.iterations


def test_import_changes_no_thread_setting():
    code = (
        "from threadpoolctl import threadpool_info, threadpool_limits\n"
        "import numpy, scipy.sparse.linalg\n"
        "threadpool_limits(limits=2, user_api='blas')\n"
        "before = [p['num_threads'] for p in threadpool_info()]\n"
        "import gamegraph, gamegraph._threads, gamegraph.linear, gamegraph.propagate\n"
        "after = [p['num_threads'] for p in threadpool_info()]\n"
        "assert before == after, (before, after)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_the_limit_reaches_scipys_blas_loaded_late():
    """gamegraph imports scipy where it is used (a quick command never loads it); the
    limit still reaches the OpenBLAS scipy brings besides numpy's."""
    code = (
        "import sys\n"
        "import gamegraph, gamegraph.cli\n"
        "assert 'scipy' not in sys.modules, 'scipy loaded at import'\n"
        "from threadpoolctl import threadpool_info\n"
        "from gamegraph._threads import limit_blas\n"
        "with limit_blas(1):\n"
        "    pools = [p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas']\n"
        "assert 'scipy' in sys.modules and pools and set(pools) == {1}, pools\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
