"""Memory for the block solver's large arrays: maps of their own, and one map kept from
block to block.

Memory the process gives back is soon given back to the host too, on a virtual machine
(free page reporting), and memory touched for the first time costs there: 2 to 3 seconds
of system time a GiB on our 2-core machines, against 0.2 for memory freed a moment
before and 0.1 to write memory already touched. A solve of masters 7 took 80 of its
2,000 CPU seconds so, in the kernel, mostly in each block's first sweep, which writes
its working arrays and moves for the first time.

So the block solver takes a block's working arrays and moves from one :class:`Arena`,
whose pages stay with the process for the whole solve: a block reuses the pages the
blocks before it touched. The budget still holds: before each block the arena gives
back the pages above what that block may take (:meth:`Arena.start`).
"""

from __future__ import annotations

import contextlib
import mmap

import numpy as np

#: Arrays below this size come from numpy's own allocator (:func:`large_array`).
SMALL = 1 << 26
#: Where the arrays an arena hands out start: a page of :data:`mmap.PAGESIZE` at least,
#: and a cache line.
ALIGN = max(mmap.PAGESIZE, 64)


def _new_map(size: int) -> mmap.mmap:
    """``size`` bytes of anonymous memory, backed by huge pages where the system offers
    them (fewer TLB misses on a sweep's random reads); the system gives pages as they are
    written.
    """
    memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    with contextlib.suppress(AttributeError, OSError):  # no madvise or no huge pages: fine
        memory.madvise(mmap.MADV_HUGEPAGE)
    return memory


def large_array(shape, dtype) -> np.ndarray:
    """An uninitialised array in memory of its own (:func:`_new_map`), freed when dropped.

    >>> large_array((2, 3), np.int32).shape
    (2, 3)
    """
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if size < SMALL:
        return np.empty(shape, dtype=dtype)
    return np.frombuffer(_new_map(size), dtype=dtype).reshape(shape)


def release(values: np.ndarray, start: int, stop: int) -> None:
    """Give the whole pages of ``values[start:stop]`` back to the system, when ``values``
    is a :func:`large_array` of its own memory (else nothing): they read as zeros after.
    """
    memory = values
    while memory is not None and not isinstance(memory, mmap.mmap):
        memory = memory.obj if isinstance(memory, memoryview) else getattr(memory, "base", None)
    if memory is None:
        return
    _give_back(memory, values.itemsize * start, values.itemsize * stop)


def _give_back(memory: mmap.mmap, low: int, high: int) -> None:
    """Give the whole pages between bytes ``low`` and ``high`` of ``memory`` back."""
    page = mmap.PAGESIZE
    low, high = -(-low // page) * page, min(high // page * page, len(memory))
    if high > low:
        memory.madvise(mmap.MADV_DONTNEED, low, high - low)


class Arena:
    """One map of ``size`` bytes that hands out arrays one after another, block by block.

    Each block calls :meth:`start` with the bytes it may take: the arrays of the block
    before are void from then on (nothing of theirs may be used again), and the pages
    above that many bytes are given back, so that the memory the arena holds never
    exceeds what the block was allowed. :meth:`take` then hands out the block's arrays,
    uninitialised (they hold what the block before left), from the start of the map.

    >>> arena = Arena(2**20)
    >>> arena.start(2**19)
    >>> a = arena.take((ALIGN // 8,), np.float64)   # one page
    >>> b = arena.take((10, 4), np.int32)             # the next
    >>> b.shape, arena.left() == 2**19 - 2 * ALIGN
    ((10, 4), True)
    >>> arena.take((2**20,), np.uint8)   # beyond what the block may take
    Traceback (most recent call last):
    ...
    MemoryError: the arena has ... bytes left, 1048576 asked
    """

    def __init__(self, size: int):
        self.size = max(int(size), ALIGN)
        self._memory = _new_map(self.size)
        self._used = 0
        self._limit = 0
        self._touched = 0  # pages below this may hold the system's memory

    def start(self, limit: int) -> None:
        """A new block, which may take up to ``limit`` bytes (at most the arena's size)."""
        self._limit = min(max(int(limit), 0), self.size)
        self.trim(self._limit)
        self._used = 0

    def trim(self, keep: int) -> None:
        """Give back the pages above ``keep`` bytes (those in use too: call it only where
        the arrays there are no longer needed).
        """
        keep = max(int(keep), 0)
        if self._touched > keep:
            _give_back(self._memory, keep, self._touched)
            self._touched = keep

    def take(self, shape, dtype) -> np.ndarray:
        """An uninitialised array after the last one taken since :meth:`start`."""
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        if self._used + size > self._limit:
            raise MemoryError(f"the arena has {self.left()} bytes left, {size} asked")
        low = self._used
        self._used = -(-(low + size) // ALIGN) * ALIGN
        self._touched = max(self._touched, self._used)
        return np.frombuffer(self._memory, dtype=dtype, count=int(np.prod(shape)),
                             offset=low).reshape(shape)  # fmt: skip

    def left(self) -> int:
        """Bytes the block may still take."""
        return max(self._limit - self._used, 0)
