"""Solved Ur tables: the win probability of every position, saved to and read from one file.

A :class:`SolvedTable` pairs the sorted position codes of :mod:`.positions` with
the probability that the side to move wins, as float64. It answers queries for any
position (:meth:`SolvedTable.value`) and for every move after a throw
(:meth:`SolvedTable.move_values`). Tables are made from a solution
(:func:`table_from_solution`; :func:`gamegraph.games.ur.analysis.solve_table` builds and
solves in one call).

File format (little-endian), written to a temporary file and renamed into place::

    b"GAMEGRAPH-UR-TABLE\\n"          magic line
    uint32                            length of the JSON header in bytes (at most 64 KiB)
    JSON header                       format (3), ruleset, pieces, rules (name, pieces, path,
                                      rosettes, dice, flags), positions, values (min, max),
                                      sha256
    int64[n]                          position codes, strictly ascending
    float64[n]                        win probability of the side to move, within [0, 1]

The sha256 covers the header's other fields (as ``json.dumps(..., sort_keys=True)``)
followed by the codes and the values. It catches accidents, not forgeries: a file made on
purpose with its digest computed again must still pass every other check.
:func:`load_table` trusts nothing it has not checked. It opens the path without waiting
(a FIFO cannot block it) and refuses anything but a regular file; refuses a file larger
than the largest table any rule set allows, or a header longer than :data:`MAX_HEADER` or
nested deeper than four levels, before reading them; checks every header field's JSON
type (``true`` is not ``1``), the rule set and piece count against gamegraph's rules, the
number of positions against the exact count for those rules (:func:`table_positions`),
and the file's size against it to the byte; then that the codes rise strictly and each
is a position of those rules, that every value is finite and within [0, 1] and matches
the header's range, and the digest. Anything else is refused with
:class:`~gamegraph.errors.InvalidArgumentError`, whose message names the file and what
is wrong. Tables of format 2 (a crc32, no value range) are refused with a message asking
to run ``gamegraph ur solve --save`` again.

Examples
--------
>>> import os, tempfile
>>> from gamegraph import build, solve
>>> from gamegraph.games.ur import Ur
>>> table = table_from_solution(solve(build(Ur("finkel", pieces=1))))
>>> round(table.value("-/-"), 6), len(table)
(0.53005, 217)
>>> path = os.path.join(tempfile.mkdtemp(), "finkel-1.urtable")
>>> table.save(path)
>>> load_table(path, rules="finkel", pieces=1).value("-/-") == table.value("-/-")
True
>>> load_table(path, rules="aseb", pieces=1)
Traceback (most recent call last):
...
gamegraph.errors.InvalidArgumentError: ...finkel-1.urtable: holds a table for finkel with 1 ...
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..._files import write_atomic
from ..._npy_header import strict_json, too_deep
from ...errors import InvalidArgumentError, OutputError
from ...tables import Table
from ...values import passing_value
from .board import GEOMETRY
from .counting import count_nonterminal
from .positions import Geometry, Positions, _popcount, decode, encode, state_to_code
from .rules import (
    MAX_PIECES,
    RULESETS,
    WIN,
    RuleSet,
    UrState,
    check_throw,
    format_position,
    legal_moves,
    parse_position,
    play,
    position_problem,
    rule_set,
)

MAGIC = b"GAMEGRAPH-UR-TABLE\n"
FORMAT_VERSION = 3  # 2: the crc32 covers the header too; 3: sha256, every field checked
MAX_HEADER = 1 << 16
"""The longest JSON header a table may have, in bytes (a real one has about 500)."""
_MAX_DEPTH = 4  # a real header nests three deep (header, rules, path, tile)
_BYTES_PER_POSITION = 16  # an int64 code and a float64 value
_HEADER_FIELDS = ("format", "ruleset", "pieces", "rules", "positions", "values", "sha256")
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
_MEASURED = {
    ("masters", 1): 216,
    ("masters", 2): 18992,
    ("masters", 3): 503498,
    ("masters", 4): 6125076,
}
"""Positions that arise under Masters rules (no throw of 0), measured by building the graph."""


@dataclass(frozen=True)
class MoveValue:
    """One move after a throw, and the win probability it leaves the mover.

    Attributes
    ----------
    move : str
        ``enter->4``, ``13->off``, ``6->8``, or ``pass`` when the throw leaves no move.
    board : str
        The position after the move, seen from the mover's side.
    value : float
    captures, again : bool
        Whether the move captures, and whether the mover throws again.
    best : bool
        Whether no other move leaves more.
    """

    move: str
    board: str
    value: float
    captures: bool = False
    again: bool = False
    best: bool = False

    def as_dict(self) -> dict:
        """The move as ``gamegraph ur moves --format json`` writes it."""
        if self.move == "pass":
            return {"move": "pass", "board": self.board, "value": self.value, "best": True}
        return {
            "move": self.move,
            "captures": self.captures,
            "again": self.again,
            "board": self.board,
            "value": self.value,
            "best": self.best,
        }


@dataclass(frozen=True)
class PositionValue:
    """A looked-up position: its value and, after a throw, every move's.

    Made by :meth:`SolvedTable.lookup`. Displays as a table in Jupyter.

    Attributes
    ----------
    ruleset : RuleSet
    position : UrState
    value : float
        Win probability of the side to move.
    throw : int or None
    moves : tuple of MoveValue
        Empty without a throw.
    """

    ruleset: RuleSet
    position: UrState
    value: float
    throw: int | None = None
    moves: tuple = ()

    @property
    def best(self) -> MoveValue | None:
        """The first move that leaves the most (None without a throw)."""
        return next((m for m in self.moves if m.best), None)

    @property
    def runner_up(self) -> MoveValue | None:
        """Among the moves other than :attr:`best`, the first that leaves the most (None
        without a throw, or when the throw offers one move or none).
        """
        best = self.best
        rest = [m for m in self.moves if m is not best and m.move != "pass"]
        return max(rest, key=lambda m: m.value) if rest else None

    @property
    def margin(self) -> float | None:
        """How much more the best move leaves than the next best (0 for a tie; None when
        there is no second move).

        >>> from gamegraph import build, solve
        >>> from gamegraph.games.ur import Ur
        >>> table = table_from_solution(solve(build(Ur("finkel", pieces=2))))
        >>> found = table.lookup("4/6", throw=2)
        >>> found.best.move, found.runner_up.move, round(found.margin, 6)
        ('4->6', 'enter->2', 0.105032)
        >>> table.lookup("-/-", throw=2).margin is None     # one move: entering
        True
        """
        second = self.runner_up
        return None if second is None else self.best.value - second.value

    def table(self) -> Table:
        """The moves (or, without a throw, the position's value) as a table."""
        where = (
            f"Ur ({self.ruleset.name}, {self.ruleset.pieces} piece(s)): "
            f"{format_position(self.position)}"
        )
        if self.throw is None:
            return Table(
                ("position", "value"), [(format_position(self.position), self.value)], title=where
            )
        return Table(
            ("move", "value", "board", "captures", "throws again", "best"),
            [(m.move, m.value, m.board, m.captures, m.again, m.best) for m in self.moves],
            title=f"{where}, value {self.value:.6f}, throw {self.throw}",
        )

    def to_pandas(self):
        """:meth:`table` as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.table().to_pandas()

    def _repr_html_(self) -> str:
        return self.table().to_html()

    def __repr__(self) -> str:
        text = f"<Ur {self.ruleset.name} {format_position(self.position)}: value {self.value:.6f}"
        if self.throw is not None:
            best = self.best
            text += f"; throw {self.throw}: {len(self.moves)} move(s), best {best.move} " + (
                f"{best.value:.6f}"
            )
        return text + ">"


def _rules_header(ruleset: RuleSet) -> dict:
    return {
        "name": ruleset.name,
        "pieces": ruleset.pieces,
        "path": [list(tile) for tile in ruleset.path],
        "rosettes": sorted(list(tile) for tile in ruleset.rosettes),
        "dice": [[t, str(p)] for t, p in ruleset.dice.distribution],
        "safe_rosettes": ruleset.safe_rosettes,
        "capture_bonus": ruleset.capture_bonus,
    }


def _digest(header: dict, codes: np.ndarray, values: np.ndarray) -> str:
    """sha256 of the header's fields (its digest left out), then the codes, then the values."""
    fields = {k: v for k, v in header.items() if k != "sha256"}
    digest = hashlib.sha256(json.dumps(fields, sort_keys=True, allow_nan=False).encode())
    digest.update(codes.data)
    digest.update(values.data)
    return digest.hexdigest()


def table_positions(ruleset: RuleSet) -> tuple[int | None, int]:
    """How many positions a table of ``ruleset`` holds: (exact count or None, upper bound).

    Under rules with a throw of 0 every position with neither side finished arises, so
    the count is :func:`.counting.count_nonterminal`'s. Masters has no throw of 0 and
    some positions cannot arise with that side to move; its counts were measured by
    building the graph (1 to 4 pieces: 216, 18,992, 503,498 and 6,125,076). Beyond that
    only the bound is known, and a table may hold any number of positions up to it.

    >>> table_positions(rule_set("finkel", 2)), table_positions(rule_set("masters", 2))
    ((12869, 12869), (18992, 20314))
    """
    bound = count_nonterminal(*GEOMETRY[ruleset.name], ruleset.pieces)
    if any(throw == 0 for throw, _ in ruleset.throws):
        return bound, bound
    return _MEASURED.get((ruleset.name, ruleset.pieces)), bound


def _largest_file() -> int:
    """Bytes in the largest table any rule set allows (7 pieces) with the longest header."""
    most = max(count_nonterminal(*GEOMETRY[name], MAX_PIECES) for name in RULESETS)
    return len(MAGIC) + 4 + MAX_HEADER + _BYTES_PER_POSITION * most


def _same_json(a, b) -> bool:
    """Equal as JSON text: ``true`` is not ``1`` and ``1.0`` is not ``1``."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _bad_codes(codes: np.ndarray, ruleset: RuleSet) -> np.ndarray:
    """Whether each code is not a position of ``ruleset`` with neither side finished."""
    length, pieces = ruleset.length, ruleset.pieces
    geometry = Geometry(ruleset)
    bad = (codes < 0) | (codes >= 1 << (2 * (length + 3)))
    mover, mover_off, opponent, opponent_off = decode(codes, length)
    bad |= (mover_off >= pieces) | (opponent_off >= pieces)
    count = getattr(np, "bitwise_count", _popcount)  # numpy 2 counts bits in one pass
    bad |= count(mover) + mover_off > pieces
    bad |= count(opponent) + opponent_off > pieces
    bad |= (mover & geometry.opponent_in_mover_frame(opponent)) != 0
    return bad


@dataclass(eq=False)
class SolvedTable:
    """Win probability of the side to move for every reachable position of one rule set.

    Attributes
    ----------
    ruleset : RuleSet
    codes : ndarray of int64
        Position codes (:func:`.positions.state_to_code`), ascending.
    values : ndarray of float64
        Probability that the side to move wins, per code.
    """

    ruleset: RuleSet
    codes: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def start_value(self) -> float:
        """Win probability of the side that moves first."""
        return self.value(UrState((), 0, (), 0))

    def _state(self, position) -> UrState:
        if isinstance(position, str):
            return parse_position(position, self.ruleset)
        problem = position_problem(position, self.ruleset)
        if problem:
            raise InvalidArgumentError(f"position {position!r}: {problem}")
        return position

    def value(self, position) -> float:
        """Win probability of the side to move in ``position`` (an UrState or its text)."""
        if position == WIN:
            return 1.0
        state = self._state(position)
        code = state_to_code(state, self.ruleset.length)
        i = int(np.searchsorted(self.codes, code))
        if i >= len(self.codes) or self.codes[i] != code:
            raise InvalidArgumentError(
                f"position {position!s} cannot arise under {self.ruleset.name} rules "
                f"with {self.ruleset.pieces} pieces"
            )
        return float(self.values[i])

    def values_of(self, mover, a, opp, b) -> np.ndarray:
        """Values of many positions at once, given as arrays (:mod:`.moves`): the mover's
        squares as a bit mask, its pieces borne off, the same for the opponent.

        >>> from gamegraph import build, solve
        >>> from gamegraph.games.ur import Ur
        >>> table = table_from_solution(solve(build(Ur("finkel", pieces=1))))
        >>> table.values_of(np.array([0]), np.array([0]), np.array([0]), np.array([0]))
        array([0.53004984])
        """
        codes = encode(*(np.asarray(x, dtype=np.int64) for x in (mover, a, opp, b)),
                       self.ruleset.length)  # fmt: skip
        at = np.minimum(np.searchsorted(self.codes, codes), len(self.codes) - 1)
        if not np.array_equal(self.codes[at], codes):
            raise InvalidArgumentError(
                f"the table of {self.ruleset.name} with {self.ruleset.pieces} piece(s) does "
                "not hold every position asked for"
            )
        return np.asarray(self.values[at], dtype=np.float64)

    def move_values(self, position, throw: int) -> list[tuple[tuple, float]]:
        """Every legal move after ``throw`` with the mover's win probability it leaves.

        Returns (move, value) pairs, move as :func:`legal_moves` gives it; a throw with
        no move gives ``[(None, value of passing)]``.
        """
        state = self._state(position)
        check_throw(throw, self.ruleset)
        moves = legal_moves(state, throw, self.ruleset)
        if not moves:
            return [(None, passing_value(self.value(state.flipped()), True))]
        out = []
        for move in moves:
            target, passes = play(state, move, self.ruleset)
            out.append((move, passing_value(self.value(target), passes)))
        return out

    def lookup(self, position, throw: int | None = None) -> PositionValue:
        """The position's value and, with ``throw``, every move's, as one result.

        >>> from gamegraph import build, solve
        >>> from gamegraph.games.ur import Ur
        >>> table = table_from_solution(solve(build(Ur("finkel", pieces=1))))
        >>> table.lookup("-/-", throw=4)
        <Ur finkel -/-: value 0.530050; throw 4: 1 move(s), best enter->4 0.6...>
        """
        state = self._state(position)
        value = self.value(state)
        if throw is None:
            return PositionValue(self.ruleset, state, value)
        rows = self.move_values(state, throw)
        best = max(v for _, v in rows)
        moves = []
        for move, after_value in rows:
            if move is None:
                moves.append(MoveValue("pass", format_position(state), after_value, best=True))
                continue
            source, target, captures = move
            after, passes = play(state, move, self.ruleset)
            if passes:
                after = after.flipped()  # show the board from the mover's side
            what = (
                ("enter" if source == 0 else f"{source}")
                + "->"
                + ("off" if target > self.ruleset.length else f"{target}")
            )
            moves.append(
                MoveValue(
                    what,
                    format_position(after),
                    after_value,
                    captures=bool(captures),
                    again=not passes and after != WIN,  # a win ends the game
                    best=after_value == best,
                )
            )
        return PositionValue(self.ruleset, state, value, throw, tuple(moves))

    def best_move(self, position, throw: int):
        """The move with the highest value after ``throw`` (the first among equals), or None."""
        return max(self.move_values(position, throw), key=lambda mv: mv[1])[0]

    # ---- the file ----------------------------------------------------------
    def save(self, path) -> None:
        """Write the table to ``path`` (:func:`gamegraph._files.write_atomic`: a temporary
        file renamed into place, so a failed save leaves any earlier file as it was).

        A table that :func:`load_table` would refuse (values outside [0, 1], codes out of
        order) is refused here, before anything is written.
        """
        codes = np.ascontiguousarray(self.codes, dtype="<i8")
        values = np.ascontiguousarray(self.values, dtype="<f8")
        if len(codes) != len(values) or not len(codes):
            raise InvalidArgumentError(
                f"a table needs one value per position: {len(codes)} codes, {len(values)} values"
            )
        problem = _array_problem(codes, values, self.ruleset)
        if problem:
            raise InvalidArgumentError(f"cannot save this table: {problem}")
        header = {
            "format": FORMAT_VERSION,
            "ruleset": self.ruleset.name,
            "pieces": self.ruleset.pieces,
            "rules": _rules_header(self.ruleset),
            "positions": len(codes),
            "values": {"min": float(values.min()), "max": float(values.max())},
        }
        header["sha256"] = _digest(header, codes, values)
        header = json.dumps(header, allow_nan=False).encode()
        path = Path(path)
        if not path.parent.is_dir():
            raise OutputError(f"cannot write {path}: folder {path.parent} does not exist")
        write_atomic(
            path,
            b"".join((MAGIC, struct.pack("<I", len(header)), header, codes.data, values.data)),
        )


def _array_problem(codes: np.ndarray, values: np.ndarray, ruleset: RuleSet) -> str | None:
    """What is wrong with a table's codes and values (None when nothing is).

    Codes must rise strictly and each be a position of ``ruleset`` with neither side
    finished; values must be finite and within [0, 1]. Checked a block at a time, so
    the temporary arrays stay small whatever the table's size.
    """
    block = 1 << 20
    for start in range(0, len(codes), block):
        chunk = codes[start : start + block + 1]  # one more: the step into the next block
        falls = np.flatnonzero(chunk[1:] <= chunk[:-1])
        if len(falls):
            i = start + int(falls[0]) + 1
            return f"the codes must rise strictly, but code {i} ({codes[i]}) follows {codes[i - 1]}"
        bad = np.flatnonzero(_bad_codes(codes[start : start + block], ruleset))
        if len(bad):
            i = start + int(bad[0])
            return (
                f"code {i} ({codes[i]}) is not a position of {ruleset.name} with "
                f"{ruleset.pieces} piece(s)"
            )
        chunk = values[start : start + block]
        bad = np.flatnonzero(~((chunk >= 0.0) & (chunk <= 1.0)))  # NaN fails both
        if len(bad):
            i = start + int(bad[0])
            return f"value at position {i} is {float(values[i])!r}; values must be within [0, 1]"
    return None


def load_table(path, rules=None, pieces: int | None = None) -> SolvedTable:
    """Read a table written by :meth:`SolvedTable.save`, checking every byte before use.

    With ``rules`` (and ``pieces``) given, refuse a table made for anything else. Any
    file that is not such a table in every detail is refused with
    :class:`~gamegraph.errors.InvalidArgumentError`, whose message names the file and
    what is wrong with it; the module docstring lists the checks. Nothing is read
    without a bound: a FIFO, a device or a folder is refused without reading, and a
    header is read only when its length is within :data:`MAX_HEADER`.
    """
    name = os.fspath(path)
    wanted = None if rules is None else rule_set(rules, pieces)

    def fail(why):
        raise InvalidArgumentError(f"{name}: {why}")

    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(name, flags)  # O_NONBLOCK: opening a FIFO does not wait for a writer
    except OSError as error:
        raise InvalidArgumentError(f"cannot read {name}: {error.strerror}") from None
    except ValueError:  # a NUL byte in the path
        raise InvalidArgumentError(f"cannot read {name!r}: not a valid file name") from None
    try:
        kind = os.fstat(handle)  # the opened file itself: no race with a rename
        if stat.S_ISDIR(kind.st_mode):
            fail("is a folder, not a table file")
        if not stat.S_ISREG(kind.st_mode):
            fail(
                "is not a regular file (a FIFO, device or socket); "
                "a table is read only from a file written by `gamegraph ur solve --save`"
            )
        stream = os.fdopen(handle, "rb", buffering=0)
    except BaseException:
        os.close(handle)
        raise
    with stream:
        try:
            return _read(stream, kind.st_size, wanted, fail)
        except OSError as error:
            fail(f"cannot be read: {error.strerror}")


def _exactly(stream, count: int) -> bytes:
    """``count`` bytes from ``stream``, or fewer if the file ends first."""
    parts, missing = [], count
    while missing:
        part = stream.read(missing)
        if not part:
            break
        parts.append(part)
        missing -= len(part)
    return b"".join(parts)


def _fill(stream, array: np.ndarray) -> bool:
    """Read ``array``'s bytes from ``stream`` in place; False if the file ends first."""
    view = memoryview(array).cast("B")
    done = 0
    while done < len(view):
        got = stream.readinto(view[done:])
        if not got:
            return False
        done += got
    return True


def _read(stream, size: int, wanted: RuleSet | None, fail) -> SolvedTable:
    prefix = len(MAGIC) + 4
    if not MAGIC.startswith(_exactly(stream, len(MAGIC))) or size < len(MAGIC):
        fail("is not a gamegraph Ur table (it does not start with the table's magic line)")
    largest = _largest_file()
    if size > largest:
        fail(f"is {size:,} bytes, more than the largest table of any rule set ({largest:,})")
    if size < prefix:
        fail("is truncated (the header is cut short)")
    (header_size,) = struct.unpack("<I", _exactly(stream, 4))
    if header_size > MAX_HEADER:
        fail(f"has a header of {header_size:,} bytes; a table header has at most {MAX_HEADER:,}")
    if size < prefix + header_size:
        fail("is truncated (the header is cut short)")
    text = _exactly(stream, header_size)
    if len(text) < header_size:
        fail("is truncated (the header is cut short)")
    if too_deep(text, _MAX_DEPTH):
        fail(f"has an unreadable header: nested more than {_MAX_DEPTH} deep")
    try:
        header = strict_json(text)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        fail(f"has an unreadable header: {str(error)[:80]}")
    ruleset, n, low, high, digest = _check_header(header, fail)
    if wanted is not None and (wanted.name, wanted.pieces) != (ruleset.name, ruleset.pieces):
        fail(
            f"holds a table for {ruleset.name} with {ruleset.pieces} piece(s), "
            f"not {wanted.name} with {wanted.pieces} piece(s)"
        )
    expected = prefix + header_size + _BYTES_PER_POSITION * n
    if size != expected:
        fail(
            f"is truncated: {size:,} bytes where {n:,} positions need {expected:,}"
            if size < expected
            else f"has {size - expected:,} stray bytes at the end"
        )
    try:
        codes = np.empty(n, dtype="<i8")
        values = np.empty(n, dtype="<f8")
    except MemoryError:
        fail(f"needs {_BYTES_PER_POSITION * n:,} bytes of memory to load, more than is free")
    if not (_fill(stream, codes) and _fill(stream, values)):
        fail(f"is truncated: it ended while being read ({n:,} positions expected)")
    if stream.read(1):
        fail("grew while being read")
    if _digest(header, codes, values) != digest:
        fail("is damaged: its sha256 digest does not match the content")
    problem = _array_problem(codes, values, ruleset)
    if problem:
        fail(problem)
    if (float(values.min()), float(values.max())) != (low, high):
        fail(
            f"has values from {float(values.min())!r} to {float(values.max())!r}, but its header "
            f"says {low!r} to {high!r}"
        )
    return SolvedTable(ruleset, codes, values)


def _check_header(header, fail):
    """The header's rule set, positions, value range and digest, each checked for type."""
    if not isinstance(header, dict):
        fail("has an unreadable header: it is not a JSON object")
    version = header.get("format")
    if type(version) is not int:
        fail(f"has no table format number (found {version!r})")
    if version != FORMAT_VERSION:
        again = (
            "; re-run `gamegraph ur solve --save` to write it again"
            if 0 < version < FORMAT_VERSION
            else ""
        )
        fail(f"is in table format {version}; this version reads {FORMAT_VERSION}{again}")
    missing = [k for k in _HEADER_FIELDS if k not in header]
    if missing:
        fail(f"has an unreadable header: no field {missing[0]!r}")
    extra = sorted(set(header) - set(_HEADER_FIELDS))
    if extra:
        fail(f"has an unreadable header: unknown field {extra[0]!r}")
    name, count, stored = header["ruleset"], header["pieces"], header["rules"]
    if type(name) is not str or name not in RULESETS:
        fail(f"holds rules gamegraph does not know ({name!r}); accepted: {', '.join(RULESETS)}")
    if type(count) is not int or not 1 <= count <= MAX_PIECES:
        fail(
            f"holds rules gamegraph does not know ({count!r} pieces; "
            f"a whole number 1 to {MAX_PIECES})"
        )
    ruleset = rule_set(name, count)
    if not isinstance(stored, dict) or not _same_json(
        [stored.get("name"), stored.get("pieces")], [name, count]
    ):
        fail(f"has a rules block that does not match its header ({name}, {count} piece(s))")
    if not _same_json(stored, _rules_header(ruleset)):
        fail(f"holds a variant of {name} that differs from gamegraph's {name} rules")
    n = header["positions"]
    exact, bound = table_positions(ruleset)
    if type(n) is not int or not 1 <= n <= bound or (exact is not None and n != exact):
        fail(
            f"says it holds {n!r} positions; a table of {name} with {count} piece(s) holds "
            + (f"exactly {exact:,}" if exact is not None else f"at most {bound:,}")
        )
    low, high, digest = _range_and_digest(header, fail)
    return ruleset, n, low, high, digest


def _range_and_digest(header: dict, fail) -> tuple[float, float, str]:
    """The value range and sha256 a table header gives (``.urtable`` and ``.npy`` alike),
    each checked; ``fail`` raises with the message.
    """
    extent = header["values"]
    if not isinstance(extent, dict) or sorted(extent) != ["max", "min"]:
        fail("has an unreadable header: 'values' must give 'min' and 'max'")
    low, high = extent["min"], extent["max"]
    if not all(type(v) is float and 0.0 <= v <= 1.0 for v in (low, high)) or low > high:
        fail(f"gives a value range of {low!r} to {high!r}; values must be within [0, 1]")
    digest = header["sha256"]
    if type(digest) is not str or not _HEX_DIGEST.fullmatch(digest):
        fail("has an unreadable header: 'sha256' must be 64 lowercase hexadecimal digits")
    return low, high, digest


def table_from_solution(solution) -> SolvedTable:
    """The table of a solved full-board graph (from :func:`.positions.build_board_graph`)."""
    graph = solution.graph
    positions = graph.states
    if not isinstance(positions, Positions):
        raise InvalidArgumentError(
            "a table needs the graph of every position "
            "(Ur(...).build_graph() without a custom start)"
        )
    values = np.asarray(solution.values[: positions.win], dtype=np.float64)
    return SolvedTable(graph.rules.ruleset, positions.codes, values)
