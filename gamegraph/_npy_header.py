"""Solved tables as NumPy ``.npy`` files with gamegraph's description in the header.

A table (Ur's values by rank, Yahtzee's by position) is one standard ``.npy`` file
(format 1.0) holding one little-endian float64 array, so ``numpy.load(path,
mmap_mode="r")`` reads it as it is. gamegraph's description rides in the NumPy header
after the array's dictionary, as a Python comment NumPy skips::

    {'descr': '<f8', 'fortran_order': False, 'shape': (n,), } # gamegraph-ur {JSON}

The header is padded to :data:`HEADER_BYTES`, so the values start at a fixed offset and
a table still being written can have its description rewritten in place.

Reading trusts nothing in the file: the array's dictionary is matched by a pattern
(never evaluated as Python), the JSON's nesting is counted before it is parsed, and a
field given twice or a number JSON does not allow (NaN, Infinity) is refused. The same
strict JSON reading serves Ur's own table format (:mod:`gamegraph.games.ur.code_table`).

Examples
--------
>>> head = npy_header({"format": "demo", "positions": 3}, "# demo ", 3)
>>> len(head) == HEADER_BYTES
True
>>> read_npy_header(head, "# demo ", "a demo table", 2, print)
(3, {'format': 'demo', 'positions': 3})
"""

from __future__ import annotations

import json
import os
import re
import struct

from .errors import InvalidArgumentError

#: Bytes before the values: NumPy's magic, the header's length and the padded header.
HEADER_BYTES = 4096
MAGIC = b"\x93NUMPY\x01\x00"
PREFIX = len(MAGIC) + 2
#: The array's description, read by this pattern alone (never evaluated as Python).
ARRAY = re.compile(
    r"\{'descr': '<f8', 'fortran_order': False, 'shape': \(([1-9][0-9]{0,11}),\), \}"
)
#: How a table is opened for reading: a FIFO does not block, a terminal is not taken.
READ_FLAGS = (
    os.O_RDONLY
    | os.O_NONBLOCK  # opening a FIFO does not wait for a writer
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def canonical_json(fields: dict) -> str:
    """``fields`` as the sorted-key JSON without spaces that headers and digests use."""
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), allow_nan=False)


def npy_header(meta: dict, mark: str, n: int) -> bytes:
    """The NumPy header of ``n`` float64 values holding ``meta`` after ``mark``, padded to
    :data:`HEADER_BYTES`.
    """
    text = f"{{'descr': '<f8', 'fortran_order': False, 'shape': ({n},), }} "
    text += mark + canonical_json(meta)
    room = HEADER_BYTES - PREFIX - 1
    if len(text) > room:  # pragma: no cover - descriptions are a few hundred bytes
        raise InvalidArgumentError(f"table header of {len(text)} bytes does not fit {room}")
    body = (text + " " * (room - len(text)) + "\n").encode("latin1")
    return MAGIC + struct.pack("<H", len(body)) + body


def read_npy_header(head: bytes, mark: str, what: str, max_depth: int, fail) -> tuple[int, dict]:
    """``(number of values, description)`` from the first bytes ``head`` of a table file.

    Parameters
    ----------
    head : bytes
        At least :data:`HEADER_BYTES` bytes from the start of the file (fewer: refused).
    mark : str
        The comment that starts gamegraph's description (``"# gamegraph-ur "``).
    what : str
        What the file should be, for the messages ("a gamegraph Ur values table").
    max_depth : int
        The deepest nesting of arrays and objects the description may have.
    fail : callable
        Called with one line saying what is wrong; it must raise.
    """
    if len(head) < HEADER_BYTES or not head.startswith(MAGIC):
        fail(f"is not {what} (no NumPy header of the expected size)")
    (length,) = struct.unpack("<H", head[len(MAGIC) : PREFIX])
    array_part, found, meta_part = head[PREFIX:HEADER_BYTES].decode("latin1").partition(mark)
    if PREFIX + length != HEADER_BYTES or not found:
        fail(f"is a NumPy file, but not {what} (no gamegraph header)")
    array = ARRAY.fullmatch(array_part.strip())
    if array is None:
        fail("has an unreadable header: the array must be one row of little-endian float64")
    if too_deep(meta_part.encode("latin1"), max_depth):
        fail(f"has an unreadable header: nested more than {max_depth} deep")
    try:
        meta = strict_json(meta_part)
    except (ValueError, RecursionError) as error:
        fail(f"has an unreadable header: {str(error)[:80]}")
    return int(array.group(1)), meta


def strict_json(text):
    """``json.loads`` refusing a field given twice and NaN or Infinity (ValueError).

    >>> strict_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    ValueError: field 'a' given twice
    """
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def too_deep(text: bytes, limit: int) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit`` (counted
    before parsing, so a hostile file cannot exhaust the parser's recursion).

    >>> too_deep(b'{"a": [[1]]}', 2), too_deep(b'{"a": "[[[["}', 2)
    (True, False)
    """
    depth = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:  # backslash
                escaped = True
            elif c == 0x22:
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif c in (0x5D, 0x7D):
            depth -= 1
    return False


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError(f"field {next(k for k in keys if keys.count(k) > 1)!r} given twice")
    return dict(pairs)


def _no_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")
