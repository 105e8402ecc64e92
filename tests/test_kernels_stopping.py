"""The sweeps' stopping rule (gamegraph._stopping), in Python and compiled.

On a geometric sequence of sweeps, v_k = v* + c r^k, the estimate change * r / (1 - r) is
the distance to the fixed point exactly, so the rule must accept a target just above it
and refuse one just below.
"""

from __future__ import annotations

import pytest

from gamegraph._stopping import near_fixed_point

RATES = [0.0, 1e-3, 0.25, 0.5, 0.7, 0.9, 0.99, 0.999]


def geometric(r, k=5, c=0.3):
    """(change of sweep k, distance left after it) for v_k = v* + c r^k."""
    return abs(c) * r ** (k - 1) * (1 - r), abs(c) * r**k


@pytest.mark.parametrize("r", RATES)
def test_the_estimate_is_the_distance_on_a_geometric_sequence(r):
    change, left = geometric(r)
    assert near_fixed_point(change, r, left * (1 + 1e-9) + 1e-300)
    if left > 0:
        assert not near_fixed_point(change, r, left * (1 - 1e-9))


@pytest.mark.parametrize("rho", [1.0, 1.5, float("inf"), float("nan")])
def test_nothing_is_near_without_contraction(rho):
    assert not near_fixed_point(1e-30, rho, 1.0)


def test_compiled_as_the_kernels_compile_it_it_decides_the_same():
    numba = pytest.importorskip("numba", reason="the compiled rule needs numba")
    compiled = numba.njit(inline="always")(near_fixed_point)
    cases = [(*geometric(r), r) for r in RATES] + [(1e-9, 0.5, 1e-9), (2e-16, 0.9, 1e-15)]
    for change, left, r in cases:
        for target in (left, left * 0.5, left * 2.0, 1e-15):
            assert compiled(change, r, target) == near_fixed_point(change, r, target)
