"""Solved Ur tables: the win probability of every position, saved to and read from one file.

A :class:`SolvedTable` pairs the sorted position codes of :mod:`.positions` with
the probability that the side to move wins, as float64. It answers queries for any
position (:meth:`SolvedTable.value`) and for every move after a throw
(:meth:`SolvedTable.move_values`). Tables are made from a solution
(:func:`table_from_solution`; :func:`gamegraph.analysis.ur.solve_table` builds and
solves in one call).

File format (little-endian), written to a temporary file and renamed into place::

    b"GAMEGRAPH-UR-TABLE\\n"          magic line
    uint32                            length of the JSON header in bytes
    JSON header                       format version, rules (name, pieces, path, rosettes,
                                      dice, flags), number of positions, crc32
    int64[n]                          position codes, ascending
    float64[n]                        win probability of the side to move

The crc32 covers the header's other fields (as ``json.dumps(..., sort_keys=True)``)
followed by the codes and the values, so a damaged header is noticed too. A file that is
cut short, fails its checksum, or holds other rules than the caller asked for is refused
with :class:`~gamegraph.errors.InvalidArgumentError`.

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
gamegraph.errors.InvalidArgumentError: ...finkel-1.urtable holds a table for finkel with 1 ...
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..._files import write_atomic
from ..._tables import Table
from ...errors import InvalidArgumentError, OutputError
from ...values import passing_value
from .positions import Positions, state_to_code
from .rules import (
    WIN,
    RuleSet,
    UrState,
    format_position,
    legal_moves,
    parse_position,
    play,
    position_problem,
    rule_set,
)

MAGIC = b"GAMEGRAPH-UR-TABLE\n"
FORMAT_VERSION = 2  # 2: the crc32 covers the header too
_MAX_HEADER = 1 << 20


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


def _checksum(header: dict, codes: np.ndarray, values: np.ndarray) -> int:
    """crc32 of the header's fields (its crc32 left out), then the codes, then the values."""
    crc = zlib.crc32(json.dumps(header, sort_keys=True).encode())
    return zlib.crc32(values.data, zlib.crc32(codes.data, crc))


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

    def move_values(self, position, throw: int) -> list[tuple[tuple, float]]:
        """Every legal move after ``throw`` with the mover's win probability it leaves.

        Returns (move, value) pairs, move as :func:`legal_moves` gives it; a throw with
        no move gives ``[(None, value of passing)]``.
        """
        state = self._state(position)
        if throw not in dict(self.ruleset.throws):
            raise InvalidArgumentError(
                f"throw {throw!r} is not possible with these dice; accepted: "
                + ", ".join(str(t) for t, _ in self.ruleset.throws)
            )
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
                    again=not passes,
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
        """
        codes = np.ascontiguousarray(self.codes, dtype="<i8")
        values = np.ascontiguousarray(self.values, dtype="<f8")
        header = {
            "format": FORMAT_VERSION,
            "rules": _rules_header(self.ruleset),
            "positions": len(codes),
        }
        header["crc32"] = _checksum(header, codes, values)
        header = json.dumps(header).encode()
        path = Path(path)
        if not path.parent.is_dir():
            raise OutputError(f"cannot write {path}: folder {path.parent} does not exist")
        write_atomic(
            path,
            b"".join((MAGIC, struct.pack("<I", len(header)), header, codes.data, values.data)),
        )


def load_table(path, rules=None, pieces: int | None = None) -> SolvedTable:
    """Read a table written by :meth:`SolvedTable.save`.

    With ``rules`` (and ``pieces``) given, refuse a table made for anything else.
    """
    path = os.fspath(path)

    def fail(why):
        raise InvalidArgumentError(f"{path} {why}")

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as error:
        raise InvalidArgumentError(f"cannot read {path}: {error.strerror}") from None
    if not data.startswith(MAGIC):
        fail("is not a gamegraph Ur table")
    offset = len(MAGIC)
    if len(data) < offset + 4:
        fail("is truncated (the header is cut short)")
    (size,) = struct.unpack_from("<I", data, offset)
    offset += 4
    if size > _MAX_HEADER or len(data) < offset + size:
        fail("is truncated (the header is cut short)")
    try:
        header = json.loads(data[offset : offset + size])
        n = int(header["positions"])
        stored = header["rules"]
        name, count = stored["name"], int(stored["pieces"])
    except (ValueError, KeyError, TypeError):
        fail("has an unreadable header")
    if header.get("format") != FORMAT_VERSION:
        fail(f"is in table format {header.get('format')!r}; this version reads {FORMAT_VERSION}")
    offset += size
    expected = offset + 16 * n
    if len(data) != expected:
        fail(
            f"is truncated: {len(data)} bytes where {n} positions need {expected}"
            if len(data) < expected
            else f"has {len(data) - expected} stray bytes at the end"
        )
    codes = np.frombuffer(data, dtype="<i8", count=n, offset=offset)
    values = np.frombuffer(data, dtype="<f8", count=n, offset=offset + 8 * n)
    if _checksum({k: v for k, v in header.items() if k != "crc32"}, codes, values) != header.get(
        "crc32"
    ):
        fail("is damaged: its checksum does not match")
    try:
        ruleset = rule_set(name, count)
    except (InvalidArgumentError, TypeError):
        fail(f"holds rules gamegraph does not know ({name!r}, {count!r} pieces)")
    if _rules_header(ruleset) != stored:
        fail(f"holds a variant of {name} that differs from gamegraph's {name} rules")
    if rules is not None:
        wanted = rule_set(rules, pieces)
        if (wanted.name, wanted.pieces) != (ruleset.name, ruleset.pieces):
            fail(
                f"holds a table for {ruleset.name} with {ruleset.pieces} piece(s), "
                f"not {wanted.name} with {wanted.pieces} piece(s)"
            )
    return SolvedTable(ruleset, codes, values)


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
