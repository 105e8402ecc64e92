r"""A solved Ur table as one ``.npy`` file of values by rank, read through a memory map.

The file is a standard NumPy ``.npy`` file (format 1.0) holding one float64 array: the
win probability of the side to move for every position, indexed by the rank of
:class:`~gamegraph.games.ur.rank.Numbering`. ``numpy.load(path, mmap_mode="r")`` reads
it as it is. gamegraph's own description rides in the NumPy header after the array's
dictionary, as a Python comment that NumPy skips::

    {'descr': '<f8', 'fortran_order': False, 'shape': (n,), } # gamegraph-ur {JSON}

The JSON gives ``format`` (:data:`FORMAT`), ``version`` (:data:`VERSION`, raised whenever
the numbering or the layout changes, since the values mean nothing without it), the rules
(as :mod:`.code_table` writes them), ``positions``, ``blocks_done`` (how many blocks of the
numbering hold their values: all of them in a finished table, fewer in the ``.partial``
file a solve writes as it goes) and, once finished, ``values`` (``{"min": .., "max": ..}``,
the range of the values) and ``sha256``: the digest of the JSON's other fields (as
``json.dumps(fields, sort_keys=True, separators=(",", ":"))``), then of the values' bytes.
The header is padded to :data:`HEADER_BYTES`, so that it can be rewritten in place as
blocks are done.

Why the description is a comment in the header: NumPy's format 1.0 allows only the keys
``descr``, ``fortran_order`` and ``shape`` in the dictionary, and a second file beside the
table could be lost, copied without it or left stale. A trailer after the values would
move when the table grows and is not where a reader of the ``.npy`` looks. The comment
keeps the table one plain ``.npy`` file that NumPy reads, with its description, range and
digest in the first 4 KiB, which the solve rewrites in place.

:func:`open_values` reads the header without evaluating anything (the array's dictionary
is matched by a pattern, not by ``ast.literal_eval``; the JSON's nesting is counted before
it is parsed) and checks every field and its type, the rules against gamegraph's, the
number of positions, and the file's size to the byte. Then, by default (``check="full"``),
it reads every value once, in 16 MiB steps, and refuses the table unless the digest
matches and every value is a number within [0, 1] and the header's range (about two
seconds for the 137,870,097 values of finkel 7 held in memory). ``check="quick"`` reads
only a sample (the first and last value of every block and :data:`SAMPLE` spread evenly):
a few milliseconds. Either way, each value a query reads is checked to be within [0, 1].
A table of version 1 (before the range and the digest of the header) is refused with a
line asking to solve it again.

:func:`start_partial` writes through :func:`gamegraph._files.open_partial`: the
``.partial`` file is locked, never a link or a FIFO, its name and its room on the disk
are checked before the solve, and the finished table is renamed over the target with the
target's mode, through a symbolic link at the target.

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

import functools
import hashlib
import mmap
import os
import stat
from dataclasses import dataclass

import numpy as np

from ... import _npy_header as npy
from ...errors import InvalidArgumentError, OutputError, UnknownNameError
from .code_table import (
    SolvedTable,
    _range_and_digest,
    _rules_header,
    _same_json,
)
from .rank import Numbering, rank
from .rules import MAX_PIECES, RULESETS, rule_set

FORMAT = "gamegraph-ur-values"
#: Raised whenever the numbering or the layout changes (2: the digest covers the header's
#: fields, and the header gives the value range).
VERSION = 2
#: Bytes before the values: the NumPy magic, version, header length and header.
HEADER_BYTES = npy.HEADER_BYTES
#: How a table is checked when it is opened (:func:`open_values`).
CHECKS = ("full", "quick")
#: Values the quick check reads besides the first and last of every block.
SAMPLE = 1024
#: Values per step of the full check (16 MiB): large steps for the digest, small enough
#: for the cache.
CHUNK = 1 << 21
#: Where gamegraph's description starts in the NumPy header: a comment NumPy skips.
MARK = "# gamegraph-ur "
_FIELDS = ("format", "version", "ruleset", "pieces", "rules", "positions", "blocks_done",
           "values", "sha256")  # fmt: skip
#: The deepest nesting of the JSON description (the rules block's lists are 3 deep).
_MAX_DEPTH = 6


def _meta(numbering: Numbering, blocks_done: int) -> dict:
    """The description of a table still being made: no value range or digest yet."""
    ruleset = numbering.ruleset
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": ruleset.name,
        "pieces": ruleset.pieces,
        "rules": _rules_header(ruleset),
        "positions": numbering.n_positions,
        "blocks_done": blocks_done,
        "values": None,
        "sha256": None,
    }


def _header(meta: dict) -> bytes:
    """The NumPy header holding ``meta``, padded to :data:`HEADER_BYTES`."""
    return npy.npy_header(meta, MARK, meta["positions"])


def digest(meta: dict, values: np.ndarray) -> str:
    """sha256 of the description's fields but the digest (sorted-key JSON, no spaces),
    then the values' bytes (little-endian float64).
    """
    return _scan(meta, _chunks_of(values)).digest


@dataclass(frozen=True)
class _Scan:
    """What one pass over the values found: their digest, smallest and largest value,
    and the first value that is not a number within [0, 1] as (rank, value), if any.
    """

    digest: str
    low: float
    high: float
    bad: tuple[int, float] | None


def _chunks_of(values: np.ndarray):
    """(first rank, values) of ``values`` in steps of :data:`CHUNK`."""
    for start in range(0, len(values), CHUNK):
        yield start, np.ascontiguousarray(values[start : start + CHUNK], dtype="<f8")


def _chunks_read(handle: int, n: int, fail):
    """(first rank, values) of the ``n`` values of the open table ``handle``, read into one
    buffer in steps of :data:`CHUNK` (no page of a mapping is touched: faster than
    reading through one).
    """
    buffer = np.empty(min(CHUNK, n), dtype="<f8")
    for start in range(0, n, CHUNK):
        chunk = buffer[: min(CHUNK, n - start)]
        view, done = memoryview(chunk).cast("B"), 0
        while done < len(view):
            got = os.preadv(handle, [view[done:]], HEADER_BYTES + 8 * start + done)
            if not got:
                fail("is truncated: it ended while being read")
            done += got
        yield start, chunk


def _scan(meta: dict, chunks) -> _Scan:
    """One pass over ``chunks`` (:func:`_chunks_of`, :func:`_chunks_read`): the digest of
    the description ``meta`` and the values, their range, and the first value outside [0, 1].
    """
    fields = {k: v for k, v in meta.items() if k != "sha256"}
    hasher = hashlib.sha256(npy.canonical_json(fields).encode())
    low, high, bad = np.inf, -np.inf, None
    for start, chunk in chunks:
        hasher.update(memoryview(chunk))
        least, most = chunk.min(), chunk.max()
        if bad is None and not (0.0 <= least and most <= 1.0):  # NaN fails both
            at = int(np.flatnonzero(~((chunk >= 0.0) & (chunk <= 1.0)))[0])
            bad = (start + at, float(chunk[at]))
        low, high = min(low, float(least)), max(high, float(most))
    return _Scan(hasher.hexdigest(), low, high, bad)


def _check_scan(path: str, meta: dict, scan: _Scan) -> None:
    """Refuse a table whose values do not match its digest, are not all within [0, 1], or
    do not span exactly the range its header gives.
    """
    if scan.digest != meta["sha256"]:
        raise InvalidArgumentError(
            f"{path}: is damaged: its sha256 digest does not match the content"
        )
    if scan.bad is not None:
        raise _outside(path, *scan.bad)
    low, high = meta["values"]["min"], meta["values"]["max"]
    if (scan.low, scan.high) != (low, high):
        raise InvalidArgumentError(
            f"{path}: has values from {scan.low!r} to {scan.high!r}, but its header says "
            f"{low!r} to {high!r}"
        )


def _first_outside(values: np.ndarray, low: float = 0.0, high: float = 1.0) -> int | None:
    """The rank of the first value that is not a number within [low, high], or None."""
    for start in range(0, len(values), CHUNK):
        chunk = np.asarray(values[start : start + CHUNK])
        if not (low <= chunk.min() and chunk.max() <= high):  # NaN fails both
            return start + int(np.flatnonzero(~((chunk >= low) & (chunk <= high)))[0])
    return None


def _outside(where: str, rank: int, value) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"{where}: value at rank {rank} is {float(value)!r}; values must be within [0, 1]"
    )


class PartialFile:
    """A table being made: its header says how many blocks hold values.

    Made by :func:`start_partial`, on a locked ``FILE.partial`` beside the table
    (:func:`gamegraph._files.open_partial`); :meth:`write_block` writes a solved block's
    values and records it, :meth:`finish` writes the value range and the digest and
    renames the file over the table.
    """

    def __init__(self, output, numbering: Numbering, blocks_done: int):
        self.output = output
        self.numbering = numbering
        self.blocks_done = blocks_done

    @property
    def path(self) -> str:
        """The ``.partial`` file, which a Dask worker maps to write its block."""
        return os.fspath(self.output.path)

    def read_done(self, values: np.ndarray) -> None:
        """Copy the values of the blocks already written into ``values``."""
        stop = self.numbering.blocks[self.blocks_done - 1].stop if self.blocks_done else 0
        if self.output.read_into(values[:stop], HEADER_BYTES) < 8 * stop:
            raise InvalidArgumentError(f"{self.path}: ended before its blocks' values")

    def write_block(self, index: int, values: np.ndarray) -> None:
        """Write block ``index``'s values (``values`` indexed by rank) and record it done."""
        block = self.numbering.blocks[index]
        self.output.write(values[block.start : block.stop], HEADER_BYTES + 8 * block.start)
        self.output.sync()
        self.blocks_done = index + 1
        self.output.write(_header(_meta(self.numbering, self.blocks_done)), 0)
        self.output.sync()

    def finish(self, values: np.ndarray | None = None) -> None:
        """Write the value range and the digest, and rename the file over the table.

        ``values`` are the table's, by rank; None reads them back from the file, a
        chunk at a time (the solve then need not keep them: :func:`.block_solver.solve_file`).
        Values that are not all within [0, 1] are refused (InvalidArgumentError), and the
        file is closed: a table is never written that its reader would refuse.
        """
        meta = _meta(self.numbering, len(self.numbering.blocks))
        if values is None:
            n = self.numbering.n_positions

            def chunks():
                return _chunks_read(self.output.handle, n, self._truncated)

            scan = _scan(meta, chunks())
            bad, low, high = scan.bad, scan.low, scan.high
        else:
            chunks = None
            bad = _first_outside(values)
            bad = None if bad is None else (bad, values[bad])
            low, high = float(np.min(values)), float(np.max(values))
        if bad is not None:
            self.close()
            raise _outside(f"cannot write {os.fspath(self.output.target)}", *bad)
        meta["values"] = {"min": low, "max": high}
        meta["sha256"] = digest(meta, values) if chunks is None else _scan(meta, chunks()).digest
        self.output.write(_header(meta), 0)
        self.output.commit()

    def _truncated(self, why: str):
        self.close()
        raise InvalidArgumentError(f"{self.path}: {why}")

    def close(self) -> None:
        """Release the file; one this solve started is removed if a write failed."""
        self.output.close()


def start_partial(target, numbering: Numbering, *, resume: bool = True) -> PartialFile:
    """Open the ``.partial`` file of the table ``target`` to go on writing, or start it afresh.

    A partial table of the same rules is kept with the blocks it holds (unless
    ``resume`` is False); a partial table of other rules, or an empty file, is started
    afresh. Anything else there is refused, as are a name too long with ``.partial``, a
    link, a FIFO or a device there, a partial table another solve is writing, and a
    table too large for the disk or the file-size limit: each in one line
    (:class:`~gamegraph.errors.OutputError`), before any work, with nothing left behind.
    """
    from ..._files import open_partial

    size = HEADER_BYTES + 8 * numbering.n_positions
    output = open_partial(target, size)
    try:
        done = None if output.created else _blocks_to_resume(output, numbering)
        if done is None or not resume:
            # The header first: a file cut short by a crash is then known as ours and started
            # afresh by the next solve, not refused as someone else's.
            output.reserve(HEADER_BYTES, afresh=True)
            output.write(_header(_meta(numbering, 0)), 0)
            output.reserve(size)
            output.sync()
            done = 0
    except BaseException:
        output.close(remove=output.created)
        raise
    return PartialFile(output, numbering, done)


def _blocks_to_resume(output, numbering: Numbering) -> int | None:
    """The blocks done in a partial table of these rules; None to start afresh (an empty
    file, or a partial table of anything else). Refuse a file that is not a partial table.
    """
    size = output.size()
    head = output.read(HEADER_BYTES, 0)
    if not size:
        return None
    if not head.startswith(npy.MAGIC) or (MARK + '{"blocks_done"').encode() not in head:
        raise OutputError(
            f"cannot write {output.path}: it exists and is not a partial table of gamegraph; "
            "remove it or save to another name"
        )
    try:
        found, meta = _parse_header(os.fspath(output.path), head, size, None)
    except InvalidArgumentError:
        return None
    return meta["blocks_done"] if found.ruleset == numbering.ruleset else None


def write_values(path, numbering: Numbering, values: np.ndarray) -> None:
    """Write a whole table at once (through a ``.partial`` file renamed into place).

    Values not all within [0, 1] are refused before anything is written.
    """
    bad = _first_outside(values)
    if bad is not None:
        raise _outside(f"cannot write {os.fspath(path)}", bad, values[bad])
    partial = start_partial(path, numbering, resume=False)
    try:
        for block in numbering.blocks:
            partial.write_block(block.index, values)
    except BaseException:
        partial.close()
        raise
    partial.finish(values)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def _parse_header(path: str, head: bytes, size: int, wanted):
    """(numbering, description) from the first bytes ``head`` of a file of ``size`` bytes,
    every field checked, nothing evaluated: the array's description is matched by a
    pattern, and the JSON's nesting is counted before it is parsed.
    """

    def fail(why):
        raise InvalidArgumentError(f"{path}: {why}")

    length, meta = npy.read_npy_header(head, MARK, "a gamegraph Ur values table", _MAX_DEPTH, fail)
    numbering = _check_meta(meta, wanted, fail)
    n = numbering.n_positions
    if length != n:
        fail(f"has an array of {length:,} values where the rules have {n:,}")
    if size != HEADER_BYTES + 8 * n:
        fail(f"is {size:,} bytes where {n:,} positions need {HEADER_BYTES + 8 * n:,}")
    return numbering, meta


def _check_meta(meta, wanted, fail) -> Numbering:
    """The numbering of the description ``meta``, whose every field is checked for type."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        fail(f"is not a {FORMAT} file")
    version = meta.get("version")
    if type(version) is not int or version != VERSION:
        again = "; re-run `gamegraph ur solve --save` to write it again" if version == 1 else ""
        fail(f"is version {version!r} of the format; this gamegraph reads {VERSION}{again}")
    if sorted(meta) != sorted(_FIELDS):
        fail(f"has an unreadable header: the fields must be {', '.join(_FIELDS)}")
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
    done = meta["blocks_done"]
    if type(done) is not int or not 0 <= done <= len(numbering.blocks):
        fail(f"says {done!r} blocks are done, of {len(numbering.blocks)}")
    if done < len(numbering.blocks) or meta["values"] is None or meta["sha256"] is None:
        return numbering  # a partial table: no range or digest yet (open_values refuses it)
    _range_and_digest(meta, fail)
    return numbering


@dataclass(eq=False)
class ValueTable(SolvedTable):
    """A :class:`~.code_table.SolvedTable` whose values are mapped from a file, by rank.

    Every query of :class:`~.code_table.SolvedTable` works (``value``, ``move_values``,
    ``lookup``); ``codes`` is None, since the rank stands in for them. Every value a
    query reads is checked to be within [0, 1], whatever check the table was opened with.
    """

    numbering: Numbering | None = None
    path: str = ""
    sha256: str = ""
    meta: dict | None = None

    def __len__(self) -> int:
        return self.numbering.n_positions

    def value(self, position) -> float:
        if position == "WIN":
            return 1.0
        at = self.numbering.index(self._state(position))
        value = float(self.values[at])
        if not 0.0 <= value <= 1.0:  # NaN fails both
            raise _outside(self.path or "the table", at, value)
        return value

    def values_of(self, mover, a, opp, b) -> np.ndarray:
        """Values of many positions given as arrays (:meth:`.code_table.SolvedTable.values_of`),
        read by rank from the memory map.
        """
        mover, a, opp, b = (np.asarray(x, dtype=np.int64) for x in (mover, a, opp, b))
        at = rank(mover, a, opp, b, self.numbering.tables)
        found = self.values.view(np.ndarray)[at]  # a plain view: memmap's indexing is slow
        bad = _first_outside(found.ravel())
        if bad is not None:
            raise _outside(self.path or "the table", int(at.ravel()[bad]), found.ravel()[bad])
        return found

    def verify(self) -> None:
        """Read every value (the full check): the digest must match the header and the
        values, and each value be within [0, 1] and the header's range.
        """
        _check_scan(self.path, self.meta, _scan(self.meta, _chunks_of(self.values)))

    def check_sample(self) -> None:
        """Read a sample (the quick check): the first and last value of every block and
        :data:`SAMPLE` values spread evenly must be within the header's range.
        """
        n = self.numbering.n_positions
        ends = [i for b in self.numbering.blocks for i in (b.start, b.stop - 1)]
        ranks = np.unique(np.concatenate([ends, np.linspace(0, n - 1, SAMPLE).astype(np.int64)]))
        found = self.values.view(np.ndarray)[ranks]
        bad = _first_outside(found)
        if bad is not None:
            raise _outside(self.path, int(ranks[bad]), found[bad])
        low, high = self.meta["values"]["min"], self.meta["values"]["max"]
        bad = _first_outside(found, low, high)
        if bad is not None:
            raise InvalidArgumentError(
                f"{self.path}: value at rank {int(ranks[bad])} is {float(found[bad])!r}, "
                f"outside the header's range {low!r} to {high!r}"
            )


def open_values(path, rules=None, pieces: int | None = None, check: str = "full") -> ValueTable:
    """Map a finished table written by :func:`write_values` (or ``ur solve --save``).

    With ``rules`` (and ``pieces``) given, refuse a table of anything else. The header
    is always checked, every field of it; ``check="full"`` (the default) then reads
    every value once (:meth:`ValueTable.verify`: the digest and the range; about a
    second at 7 pieces), ``check="quick"`` only a sample (:meth:`ValueTable.check_sample`).
    The file is opened once, without blocking, and mapped from that same descriptor, so
    what is checked is what is read.
    """
    if check not in CHECKS:
        raise UnknownNameError("table check", check, CHECKS)
    path = os.fspath(path)
    wanted = None if rules is None else rule_set(rules, pieces)
    try:
        handle = os.open(path, npy.READ_FLAGS)
    except OSError as error:
        raise InvalidArgumentError(f"cannot read {path}: {error.strerror}") from None
    try:
        size = os.fstat(handle)
        if not stat.S_ISREG(size.st_mode):
            raise InvalidArgumentError(
                f"{path}: is not a regular file; a table is a file written by "
                "`gamegraph ur solve --save`"
            )
        numbering, meta = _parse_header(path, os.pread(handle, HEADER_BYTES, 0), size.st_size,
                                        wanted)  # fmt: skip
        if meta["blocks_done"] != len(numbering.blocks) or meta["sha256"] is None:
            raise InvalidArgumentError(
                f"{path}: is unfinished ({meta['blocks_done']} of {len(numbering.blocks)} "
                "blocks); run the solve again to finish it"
            )
        if check == "full":  # read through the descriptor, before the map: no page faults
            fail = functools.partial(_fail, path)
            _check_scan(path, meta, _scan(meta, _chunks_read(handle, numbering.n_positions, fail)))
        mapped = mmap.mmap(handle, size.st_size, access=mmap.ACCESS_READ)
    except OSError as error:
        raise InvalidArgumentError(f"cannot read {path}: {error.strerror}") from None
    finally:
        os.close(handle)
    values = np.frombuffer(mapped, dtype="<f8", count=numbering.n_positions, offset=HEADER_BYTES)
    table = ValueTable(numbering.ruleset, None, values, numbering, path, meta["sha256"], meta)
    if check == "quick":
        mapped.madvise(mmap.MADV_RANDOM)  # read the sample's pages, not their neighbours
        table.check_sample()
        mapped.madvise(mmap.MADV_NORMAL)
    return table


def _fail(path: str, why: str):
    raise InvalidArgumentError(f"{path}: {why}")
