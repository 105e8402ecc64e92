"""Checks the tests share: two StateGraphs are the same numbered graph."""

from __future__ import annotations

import numpy as np

#: A StateGraph's arrays, each compared value by value and dtype by dtype.
ARRAYS = (
    "outcome_ptr",
    "outcome_weight",
    "option_ptr",
    "option_target",
    "option_move",
    "option_passes",
    "terminal",
    "terminal_value",
)


def assert_same_graph(a, b):
    """The same states in the same order, and :func:`assert_same_arrays`."""
    assert list(a.states) == list(b.states)
    assert_same_arrays(a, b)


def assert_same_arrays(a, b):
    """The same start, denominator, arrays (with their dtypes) and exact terminal values:
    for callers that compare the states themselves (Ur's are slow to list)."""
    assert a.start == b.start
    assert a.denominator == b.denominator
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.terminal_exact == b.terminal_exact
