"""Helpers for compressed sparse rows, the layout of every array in a :class:`StateGraph`."""

from __future__ import annotations

import numpy as np


def expand_ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """Concatenate ``range(starts[i], stops[i])`` for every i, vectorised.

    >>> expand_ranges(np.array([0, 5, 7]), np.array([2, 5, 9])).tolist()
    [0, 1, 7, 8]
    """
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(stops, dtype=np.int64) - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    keep = lengths > 0
    starts, lengths = starts[keep], lengths[keep]
    # Each output position is its segment's start plus its offset inside the segment.
    offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(starts, lengths) + offsets


def pointers(counts) -> np.ndarray:
    """The row pointers of rows with ``counts`` entries: ``[0, c0, c0 + c1, ...]`` as int64.

    >>> pointers(np.array([2, 0, 3])).tolist()
    [0, 2, 2, 5]
    """
    ptr = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, dtype=np.int64, out=ptr[1:])  # any integer counts, summed as int64
    return ptr
