"""gamegraph._prefetch: the prefetch the compiled Ur sweeps use changes no result, never
faults, and compiles to a prefetch instruction.
"""

import platform

import numpy as np
import pytest

from gamegraph._prefetch import compiled_prefetch, prefetch

numba = pytest.importorskip("numba")


@pytest.fixture(scope="module")
def summed():
    """A sum of ``values[places[i]]`` that prefetches the place ``ahead`` items on, and one
    far past the end of the array.
    """
    ask = compiled_prefetch(numba)

    @numba.njit
    def summed(values, places, ahead):
        total = 0.0
        for i in range(len(places)):
            ask(values, places[(i + ahead) % len(places)])
            ask(values, 10**12)
            total += values[places[i]]
        return total

    return summed


def test_plain_prefetch_does_nothing():
    values = np.arange(4.0)
    assert prefetch(values, 10**12) is None
    assert values.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_compiled_prefetch_changes_no_result(summed):
    rng = np.random.default_rng(1)
    values, places = rng.random(100_000), rng.integers(0, 100_000, 20_000)
    expected = 0.0
    for place in places:  # the same additions in the same order
        expected += values[place]
    assert summed(values, places, 7) == expected
    assert summed(values, places, 0) == expected


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 instruction names")
def test_compiled_prefetch_is_a_prefetch_instruction(summed):
    assembly = "".join(summed.inspect_asm().values())
    assert "prefetcht0" in assembly


def test_compiled_prefetch_takes_one_dimensional_arrays():
    ask = compiled_prefetch(numba)

    @numba.njit
    def on_a_table(values):
        ask(values, 0)

    with pytest.raises(numba.core.errors.TypingError):
        on_a_table(np.zeros((2, 2)))
