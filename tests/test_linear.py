"""Tests for gamegraph.linear.solve_sparse (exact rational elimination and sparse LU)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph.errors import ConvergenceError
from gamegraph.linear import solve_sparse

singular_warning = pytest.mark.filterwarnings("ignore::scipy.sparse.linalg.MatrixRankWarning")


def triplets(dense):
    rows, cols, values = [], [], []
    for r, row in enumerate(dense):
        for c, v in enumerate(row):
            if v != 0:
                rows.append(r)
                cols.append(c)
                values.append(F(v))
    return rows, cols, values


def product(dense, x):
    return [sum(F(a) * xi for a, xi in zip(row, x)) for row in dense]


def test_ur_position_a_as_a_linear_system():
    # v_g = 1/4 + 3/4 (1 - v_r), v_r = 1/4 + 3/4 (1 - v_g): both 4/7.
    # As A v = b: v_g + 3/4 v_r = 1, 3/4 v_g + v_r = 1.
    rows, cols, coefficients = [0, 0, 1, 1], [0, 1, 0, 1], [F(1), F(3, 4), F(3, 4), F(1)]
    exact = solve_sparse(rows, cols, coefficients, [F(1), F(1)], 2, exact=True)
    assert exact.dtype == object and exact.tolist() == [F(4, 7), F(4, 7)]
    assert all(type(v) is F for v in exact)
    approx = solve_sparse(rows, cols, coefficients, [1.0, 1.0], 2, exact=False)
    assert approx.dtype == np.float64 and np.allclose(approx, 4 / 7, rtol=0, atol=1e-15)


@pytest.mark.parametrize("exact", [True, False])
def test_repeated_entries_are_added(exact):
    # A = [[2, 1], [1, 3]] given with A[0,0] split in three and an explicit zero
    rows = [0, 0, 0, 0, 1, 1, 1]
    cols = [0, 0, 0, 1, 0, 1, 0]
    coefficients = [F(1, 2), F(1), F(1, 2), F(1), F(1), F(3), F(0)]
    x = solve_sparse(rows, cols, coefficients, [F(3), F(5)], 2, exact=exact)
    # 2x + y = 3, x + 3y = 5  ->  x = 4/5, y = 7/5
    if exact:
        assert x.tolist() == [F(4, 5), F(7, 5)]
    else:
        assert np.allclose(x, [0.8, 1.4], rtol=0, atol=1e-14)


@pytest.mark.parametrize("exact", [True, False])
def test_zero_diagonal_needs_a_row_swap(exact):
    dense = [[0, 2, 1], [1, 0, 0], [0, 1, 3]]
    b = [F(5), F(7), F(9)]
    x = solve_sparse(*triplets(dense), b, 3, exact=exact)
    if exact:
        assert product(dense, x) == b
        assert x.tolist() == [F(7), F(6, 5), F(13, 5)]
    else:
        assert np.allclose(x, [7, 1.2, 2.6], rtol=0, atol=1e-13)


@pytest.mark.parametrize("seed", range(8))
def test_random_rational_systems(seed):
    """Exact answers solve the system exactly; floats agree with them and with numpy."""
    rng = random.Random(seed)
    size = rng.randint(1, 9)
    dense = [
        [
            F(rng.randint(-5, 5), rng.randint(1, 6)) if rng.random() < 0.4 else F(0)
            for _ in range(size)
        ]
        for _ in range(size)
    ]
    for i in range(size):
        dense[i][i] += 4 + rng.randint(0, 3)  # diagonally dominant enough to be regular
    b = [F(rng.randint(-9, 9), rng.randint(1, 7)) for _ in range(size)]
    exact = solve_sparse(*triplets(dense), b, size, exact=True)
    assert product(dense, exact) == b
    approx = solve_sparse(*triplets(dense), b, size, exact=False)
    assert approx.shape == (size,)
    assert np.allclose(approx, [float(v) for v in exact], rtol=1e-12, atol=1e-14)
    reference = np.linalg.solve(np.array(dense, dtype=float), np.array(b, dtype=float))
    assert np.allclose(approx, reference, rtol=1e-12, atol=1e-14)


@singular_warning
@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize(
    "dense",
    [
        [[1, 1], [1, 1]],
        [[1, -1, 0], [0, 1, -1], [-1, 0, 1]],  # a cycle that never leaks: I - P, P a permutation
        [[0, 0], [0, 1]],
    ],
    ids=["rank-one", "closed-cycle", "zero-column"],
)
def test_singular_systems_raise(dense, exact):
    size = len(dense)
    with pytest.raises(ConvergenceError, match="singular"):
        solve_sparse(*triplets(dense), [F(1)] * size, size, exact=exact)


def test_one_unknown():
    assert solve_sparse([0], [0], [F(3, 2)], [F(1, 2)], 1, exact=True).tolist() == [F(1, 3)]
    x = solve_sparse([0], [0], [1.5], [0.5], 1, exact=False)
    assert x.shape == (1,) and x[0] == pytest.approx(1 / 3, abs=1e-16)


@pytest.mark.parametrize("size", [1, 3, 12])
def test_flint_and_fraction_elimination_agree(monkeypatch, size):
    # The optional FLINT path and the pure-Python fallback must give the same Fractions.
    from fractions import Fraction

    import gamegraph.linear as linear

    rng = np.random.default_rng(size)
    rows, cols, coefficients = [], [], []
    for i in range(size):
        rows.append(i), cols.append(i), coefficients.append(Fraction(3))
        for j in rng.choice(size, size=min(2, size), replace=False):
            (
                rows.append(i),
                cols.append(int(j)),
                coefficients.append(Fraction(int(rng.integers(-5, 6)), 7)),
            )
    b = [Fraction(int(v), 11) for v in rng.integers(-9, 10, size=size)]
    fallback_only = linear._solve_rational(rows, cols, coefficients, b, size)
    if linear._flint is None:
        pytest.skip("python-flint is not installed")
    assert linear._solve_flint(rows, cols, coefficients, b, size).tolist() == fallback_only.tolist()
    monkeypatch.setattr(linear, "_flint", None)
    assert (
        linear.solve_sparse(rows, cols, coefficients, b, size, exact=True).tolist()
        == fallback_only.tolist()
    )
