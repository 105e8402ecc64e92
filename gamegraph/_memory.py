"""How much memory this machine has free, and the one check that refuses work too big for it.

Each path that can outgrow memory has a small estimate next to the code it estimates
(the float graph of Super Six: :func:`gamegraph.games.supersix.estimate_bytes`; Ur:
:func:`gamegraph.games.ur.solving.check_graph_memory`; exact solves:
``gamegraph.solve._exact_bytes``; the LP/MILP: ``gamegraph.mathprog.estimate_bytes``).
Each calls :func:`check_memory` before any work, which compares the estimate with
:func:`available_memory` and raises one :class:`~gamegraph.errors.InvalidArgumentError`
with a one-line message.

Examples
--------
>>> check_memory(2**20, "a tiny solve", available=2**30)  # fits: nothing happens
>>> try:
...     check_memory(int(23.4 * 2**30), "3000 pegs", "give fewer", available=int(18.2 * 2**30))
... except InvalidArgumentError as error:
...     print(error)
3000 pegs needs about 23.4 GiB; 18.2 GiB is available (give fewer)
"""

from __future__ import annotations

import os

from ._environment import address_room
from .errors import InvalidArgumentError

_MEMINFO = "/proc/meminfo"
_CGROUP_FILES = (  # (limit, usage): cgroup v2, then v1
    ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
    (
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        "/sys/fs/cgroup/memory/memory.usage_in_bytes",
    ),
)


def physical_memory() -> int:
    """Bytes of physical memory (16 GiB when the system will not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 16 * 2**30


#: Three quarters of physical memory: kept for callers of the old name; the guards compare
#: with :func:`available_memory` instead.
MEMORY_LIMIT = physical_memory() * 3 // 4


def _read_int(path: str) -> int | None:
    try:
        with open(path) as file:
            text = file.read(64).strip()
        return int(text)
    except (OSError, ValueError):  # missing, unreadable, or "max" (no limit)
        return None


def _meminfo_available() -> int | None:
    try:
        with open(_MEMINFO) as file:
            for line in file:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_free() -> int | None:
    """What a cgroup memory limit leaves free, or None when there is no limit."""
    for limit_path, usage_path in _CGROUP_FILES:
        limit = _read_int(limit_path)
        if limit is None or limit >= 2**60:  # v1 writes a huge number for "no limit"
            continue
        usage = _read_int(usage_path) or 0
        return max(limit - usage, 0)
    return None


def available_memory() -> int:
    """Bytes this process can still allocate without swapping: the kernel's MemAvailable
    (physical memory where it is not reported), lowered to what a cgroup limit leaves and
    to what an address-space limit (``ulimit -v``) leaves.

    >>> 0 < available_memory() <= max(physical_memory(), 16 * 2**30)
    True
    """
    free = _meminfo_available()
    if free is None:
        free = physical_memory()
    limited = _cgroup_free()
    free = free if limited is None else min(free, limited)
    room = address_room()  # an address-space limit (ulimit -v) counts too
    return free if room is None else min(free, room)


def format_bytes(n: float, digits: int = 1) -> str:
    """A size in KiB, MiB or GiB with ``digits`` decimals.

    >>> format_bytes(3 * 2**30), format_bytes(1536 * 2**10), format_bytes(100)
    ('3.0 GiB', '1.5 MiB', '0.1 KiB')
    """
    for unit, size in (("GiB", 2**30), ("MiB", 2**20)):
        if n >= size:
            return f"{n / size:,.{digits}f} {unit}"
    return f"{n / 2**10:,.{digits}f} KiB"


_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: str) -> int:
    """Bytes from a size as people write it: ``2G``, ``2 GiB``, ``1.5g``, ``1500M``,
    ``800MB`` or plain bytes (the units are powers of 1024).

    >>> parse_size("2G"), parse_size("1.5 GiB") == 3 * 2**29, parse_size("512MiB")
    (2147483648, True, 536870912)
    >>> parse_size("lots")
    Traceback (most recent call last):
    ...
    ValueError: 'lots' is not a size: write it as 2G, 1500M, 2.5GiB or a number of bytes
    """
    cleaned = str(text).strip().lower().replace(" ", "")
    for suffix in ("ib", "b"):
        if cleaned.endswith(suffix) and cleaned[: -len(suffix)][-1:].isalnum():
            cleaned = cleaned[: -len(suffix)]
            break
    unit = cleaned[-1:] if cleaned[-1:] in _UNITS and cleaned[-1:] else ""
    number = cleaned[: len(cleaned) - len(unit)]
    try:
        value = float(number) if number.replace(".", "", 1).isdigit() else None
    except ValueError:
        value = None
    if value is None or not value * _UNITS[unit] >= 1:
        raise ValueError(
            f"{text!r} is not a size: write it as 2G, 1500M, 2.5GiB or a number of bytes"
        )
    return int(value * _UNITS[unit])


def check_memory(
    needed: int, what: str, hint: str | None = None, *, available: int | None = None
) -> None:
    """Refuse work estimated to need more memory than is available, before it starts.

    Parameters
    ----------
    needed : int
        Estimated peak bytes of the work (beyond what the process already holds).
    what : str
        The work, as the subject of the message ("Super Six with 3000 pegs").
    hint : str, optional
        What to do instead, shown in brackets at the end.
    available : int, optional
        Bytes to compare with; :func:`available_memory` when not given.

    Raises
    ------
    InvalidArgumentError
        One line: what needs how much, and how much is available. The two sizes are
        shown with enough decimals to differ.

    Examples
    --------
    >>> try:
    ...     check_memory(2**30 + 1, "the job", available=2**30)
    ... except InvalidArgumentError as error:
    ...     print(error)
    the job needs about 1.000000001 GiB; 1.000000000 GiB is available
    """
    if available is None:
        available = available_memory()
    if needed <= available:
        return
    for digits in range(1, 10):
        need_text, free_text = format_bytes(needed, digits), format_bytes(available, digits)
        if need_text != free_text:
            break
    else:
        need_text, free_text = f"{needed:,} bytes", f"{available:,} bytes"
    message = f"{what} needs about {need_text}; {free_text} is available"
    if hint:
        message += f" ({hint})"
    raise InvalidArgumentError(message)
