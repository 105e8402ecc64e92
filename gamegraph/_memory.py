"""How much memory this machine has, for guards that refuse solves too big to finish."""

from __future__ import annotations

import os


def physical_memory() -> int:
    """Bytes of physical memory (16 GiB when the system will not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 16 * 2**30


#: Refuse work estimated to need more than this many bytes (3/4 of physical memory).
MEMORY_LIMIT = physical_memory() * 3 // 4
