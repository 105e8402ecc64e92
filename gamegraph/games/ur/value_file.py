r"""A solved Ur table as one ``.npy`` file of values by rank, read through a memory map.

The file is a standard NumPy ``.npy`` file (format 1.0) holding one float64 array: the
win probability of the side to move for every position, indexed by the rank of
:class:`~gamegraph.games.ur.rank.Numbering`. ``numpy.load(path, mmap_mode="r")`` reads
it as it is. gamegraph's own description rides in the NumPy header after the array's
dictionary, as a Python comment that NumPy skips::

    {'descr': '<f8', 'fortran_order': False, 'shape': (n,), } # gamegraph-ur {JSON}

The JSON gives ``format`` (:data:`FORMAT`), ``version`` (:data:`VERSION`, raised whenever
the numbering changes, since the values mean nothing without it), the rules (as
:mod:`.table` writes them), ``positions``, ``blocks_done`` (how many blocks of the
numbering hold their values: all of them in a finished table, fewer in the ``.partial``
file a solve writes as it goes) and, once finished, ``sha256`` of the values. The
header is padded to :data:`HEADER_BYTES`, so that it can be rewritten in place as
blocks are done.

:func:`open_values` checks the header (every field and its type, the rules against
gamegraph's, the number of positions, the file's size to the byte) without reading the
values, and maps them: a lookup reads one value (microseconds). :meth:`ValueTable.verify`
reads them all to check the digest and the range.

Examples
--------
>>> import os, tempfile
>>> import numpy as np
>>> from gamegraph.games.ur import rule_set
>>> from gamegraph.games.ur.rank import Numbering
>>> numbering = Numbering(rule_set("finkel", pieces=1))
>>> values = np.full(numbering.n_positions, 0.5)
>>> path = os.path.join(tempfile.mkdtemp(), "finkel-1.npy")
>>> write_values(path, numbering, values)
>>> table = open_values(path, rules="finkel", pieces=1)
>>> table.value("-/-"), len(table), np.load(path, mmap_mode="r").shape
(0.5, 217, (217,))
>>> table.verify()
>>> open_values(path, rules="aseb")
Traceback (most recent call last):
...
gamegraph.errors.InvalidArgumentError: ...finkel-1.npy: holds a table for finkel with 1 ...
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import stat
import struct
from dataclasses import dataclass

import numpy as np

from ...errors import InvalidArgumentError
from .rank import Numbering, rank
from .rules import MAX_PIECES, RULESETS, rule_set
from .table import SolvedTable, _rules_header, _same_json

FORMAT = "gamegraph-ur-values"
VERSION = 1
#: Bytes before the values: the NumPy magic, version, header length and header.
HEADER_BYTES = 4096
_MAGIC = b"\x93NUMPY\x01\x00"
_MARK = "# gamegraph-ur "
_FIELDS = ("format", "version", "ruleset", "pieces", "rules", "positions", "blocks_done",
           "sha256")  # fmt: skip


def _header(numbering: Numbering, blocks_done: int, digest: str | None) -> bytes:
    n = numbering.n_positions
    ruleset = numbering.ruleset
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": ruleset.name,
        "pieces": ruleset.pieces,
        "rules": _rules_header(ruleset),
        "positions": n,
        "blocks_done": blocks_done,
        "sha256": digest,
    }
    text = f"{{'descr': '<f8', 'fortran_order': False, 'shape': ({n},), }} "
    text += _MARK + json.dumps(meta, sort_keys=True, separators=(",", ":"))
    room = HEADER_BYTES - len(_MAGIC) - 2 - 1
    if len(text) > room:  # pragma: no cover - the rules block is a few hundred bytes
        raise InvalidArgumentError(f"table header of {len(text)} bytes does not fit {room}")
    body = (text + " " * (room - len(text)) + "\n").encode("latin1")
    return _MAGIC + struct.pack("<H", len(body)) + body


def digest(values: np.ndarray) -> str:
    """sha256 of the values' bytes (little-endian float64)."""
    return hashlib.sha256(memoryview(np.ascontiguousarray(values, dtype="<f8"))).hexdigest()


class PartialFile:
    """A table being written: its header says how many blocks hold values.

    Made by :func:`start_partial`; :meth:`write_block` writes a solved block's values
    and records it, :meth:`finish` writes the digest and renames the file into place.
    """

    def __init__(self, path, numbering: Numbering, blocks_done: int):
        self.path = os.fspath(path)
        self.numbering = numbering
        self.blocks_done = blocks_done
        self.handle = os.open(self.path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))

    def _write(self, data, offset: int) -> None:
        view = memoryview(data).cast("B")
        while len(view):
            done = os.pwrite(self.handle, view, offset)
            view, offset = view[done:], offset + done

    def read_done(self, values: np.ndarray) -> None:
        """Copy the values of the blocks already written into ``values``."""
        stop = self.numbering.blocks[self.blocks_done - 1].stop if self.blocks_done else 0
        view = memoryview(values[:stop]).cast("B")
        offset = HEADER_BYTES
        while len(view):
            got = os.preadv(self.handle, [view], offset)
            if not got:
                raise InvalidArgumentError(f"{self.path}: ended before its blocks' values")
            view, offset = view[got:], offset + got

    def write_block(self, index: int, values: np.ndarray) -> None:
        """Write block ``index``'s values (``values`` indexed by rank) and record it done."""
        block = self.numbering.blocks[index]
        self._write(values[block.start : block.stop], HEADER_BYTES + 8 * block.start)
        os.fsync(self.handle)
        self.blocks_done = index + 1
        self._write(_header(self.numbering, self.blocks_done, None), 0)
        os.fsync(self.handle)

    def finish(self, target, values: np.ndarray) -> None:
        """Write the digest and rename the file to ``target``."""
        self._write(_header(self.numbering, self.blocks_done, digest(values)), 0)
        os.fsync(self.handle)
        os.close(self.handle)
        os.replace(self.path, target)

    def close(self) -> None:
        os.close(self.handle)


def start_partial(path, numbering: Numbering) -> PartialFile:
    """Open ``path`` (a ``.partial`` file) to go on writing, or start it afresh.

    A file left by an earlier solve of the same rules is kept with the blocks it holds;
    anything else at ``path`` is replaced.
    """
    path = os.fspath(path)
    try:
        found = _read_header(path, None)
    except InvalidArgumentError:
        found = None
    if found is not None and found[0].ruleset == numbering.ruleset:
        return PartialFile(path, numbering, found[1]["blocks_done"])
    with open(path, "wb") as stream:
        stream.write(_header(numbering, 0, None))
        stream.truncate(HEADER_BYTES + 8 * numbering.n_positions)
    return PartialFile(path, numbering, 0)


def write_values(path, numbering: Numbering, values: np.ndarray) -> None:
    """Write a whole table at once (through a ``.partial`` file renamed into place)."""
    partial = start_partial(os.fspath(path) + ".partial", numbering)
    try:
        for block in numbering.blocks:
            partial.write_block(block.index, values)
    except BaseException:
        partial.close()
        raise
    partial.finish(path, values)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def _read_header(path: str, wanted):
    """(numbering, metadata) of the file at ``path``, every field checked."""

    def fail(why):
        raise InvalidArgumentError(f"{path}: {why}")

    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise InvalidArgumentError(f"cannot read {path}: {error.strerror}") from None
    try:
        kind = os.fstat(handle)
        if not stat.S_ISREG(kind.st_mode):
            fail("is not a regular file; a table is a file written by `gamegraph ur solve --save`")
        head = os.pread(handle, HEADER_BYTES, 0)
    finally:
        os.close(handle)
    if len(head) < HEADER_BYTES or not head.startswith(_MAGIC):
        fail("is not a gamegraph Ur values table (no NumPy header of the expected size)")
    (length,) = struct.unpack("<H", head[8:10])
    text = head[10 : 10 + length].decode("latin1")
    if 10 + length != HEADER_BYTES or _MARK not in text:
        fail("is a NumPy file, but not a gamegraph Ur values table (no gamegraph header)")
    array_part, meta_part = text.split(_MARK, 1)
    try:
        array = ast.literal_eval(array_part.strip())
        meta = json.loads(meta_part)
    except (ValueError, SyntaxError) as error:
        fail(f"has an unreadable header: {str(error)[:80]}")
    if not isinstance(meta, dict) or sorted(meta) != sorted(_FIELDS):
        fail(f"has an unreadable header: the fields must be {', '.join(_FIELDS)}")
    if meta["format"] != FORMAT or type(meta["version"]) is not int:
        fail(f"is not a {FORMAT} file")
    if meta["version"] != VERSION:
        fail(f"is version {meta['version']!r} of the format; this gamegraph reads {VERSION}")
    name, pieces = meta["ruleset"], meta["pieces"]
    if type(name) is not str or name not in RULESETS:
        fail(f"holds rules gamegraph does not know ({name!r}); accepted: {', '.join(RULESETS)}")
    if type(pieces) is not int or not 1 <= pieces <= MAX_PIECES:
        fail(f"holds {pieces!r} pieces per side; a whole number 1 to {MAX_PIECES}")
    ruleset = rule_set(name, pieces)
    if not _same_json(meta["rules"], _rules_header(ruleset)):
        fail(f"holds a variant of {name} that differs from gamegraph's {name} rules")
    if wanted is not None and (wanted.name, wanted.pieces) != (name, pieces):
        fail(
            f"holds a table for {name} with {pieces} piece(s), "
            f"not {wanted.name} with {wanted.pieces} piece(s)"
        )
    numbering = Numbering(ruleset)
    n = numbering.n_positions
    if meta["positions"] != n or type(meta["positions"]) is not int:
        fail(f"says it holds {meta['positions']!r} positions; {name} with {pieces} has {n:,}")
    if array != {"descr": "<f8", "fortran_order": False, "shape": (n,)}:
        fail(f"holds {array!r}, not {n:,} little-endian float64 values")
    done = meta["blocks_done"]
    if type(done) is not int or not 0 <= done <= len(numbering.blocks):
        fail(f"says {done!r} blocks are done, of {len(numbering.blocks)}")
    if kind.st_size != HEADER_BYTES + 8 * n:
        fail(f"is {kind.st_size:,} bytes where {n:,} positions need {HEADER_BYTES + 8 * n:,}")
    return numbering, meta


@dataclass(eq=False)
class ValueTable(SolvedTable):
    """A :class:`~.table.SolvedTable` whose values are mapped from a file, by rank.

    Every query of :class:`~.table.SolvedTable` works (``value``, ``move_values``,
    ``lookup``); ``codes`` is None, since the rank stands in for them.
    """

    numbering: Numbering | None = None
    path: str = ""
    sha256: str = ""

    def __len__(self) -> int:
        return self.numbering.n_positions

    def value(self, position) -> float:
        if position == "WIN":
            return 1.0
        return float(self.values[self.numbering.index(self._state(position))])

    def values_of(self, mover, a, opp, b) -> np.ndarray:
        """Values of many positions given as arrays (:meth:`.table.SolvedTable.values_of`),
        read by rank from the memory map.
        """
        mover, a, opp, b = (np.asarray(x, dtype=np.int64) for x in (mover, a, opp, b))
        at = rank(mover, a, opp, b, self.numbering.tables)
        return self.values.view(np.ndarray)[at]  # a plain view: memmap's indexing is slow

    def verify(self) -> None:
        """Read every value: the digest must match, and each value be within [0, 1]."""
        if digest(self.values) != self.sha256:
            raise InvalidArgumentError(f"{self.path}: is damaged: its sha256 does not match")
        low, high = float(self.values.min()), float(self.values.max())
        if not 0.0 <= low <= high <= 1.0:
            raise InvalidArgumentError(f"{self.path}: holds values from {low!r} to {high!r}")


def open_values(path, rules=None, pieces: int | None = None) -> ValueTable:
    """Map a finished table written by :func:`write_values` (or ``ur solve --save``).

    With ``rules`` (and ``pieces``) given, refuse a table of anything else. The header
    is checked, the values are not read (see :meth:`ValueTable.verify`).
    """
    path = os.fspath(path)
    wanted = None if rules is None else rule_set(rules, pieces)
    numbering, meta = _read_header(path, wanted)
    if meta["blocks_done"] != len(numbering.blocks) or type(meta["sha256"]) is not str:
        raise InvalidArgumentError(
            f"{path}: is unfinished ({meta['blocks_done']} of {len(numbering.blocks)} blocks); "
            "run the solve again to finish it"
        )
    values = np.memmap(path, dtype="<f8", mode="r", offset=HEADER_BYTES,
                       shape=(numbering.n_positions,))  # fmt: skip
    return ValueTable(numbering.ruleset, None, values, numbering, path, meta["sha256"])
