"""A solved Yahtzee or Yatzy table as one ``.npy`` file, read back through a memory map.

The file is a standard NumPy ``.npy`` file (format 1.0) holding one float64 array: the
value of every turn-start position (the expected score still to come under optimal play),
numbered as :mod:`gamegraph.games.yahtzee.solver` numbers them. ``numpy.load(path,
mmap_mode="r", allow_pickle=False)`` reads it as it is. What the values mean rides in the
NumPy header after the array's dictionary, as a comment NumPy skips (as Ur's tables do,
:mod:`gamegraph.games.ur.rank_table`)::

    {'descr': '<f8', 'fortran_order': False, 'shape': (n,), } # gamegraph-yahtzee {JSON}

The JSON gives ``format`` (:data:`FORMAT`), ``version`` (:data:`VERSION`, raised whenever
the numbering changes), the rule set (``ruleset``, ``boxes``, ``dice``, ``joker``, ``variant``:
the arguments of :func:`~gamegraph.games.yahtzee.scoring.scoring`), ``positions``, the range
of the values (``values``: ``{"min": .., "max": ..}``) and ``sha256``: the digest of the
JSON's other fields (``json.dumps(fields, sort_keys=True, separators=(",", ":"))``), then
of the values' bytes. The header is padded to :data:`HEADER_BYTES`. One file, not a table
and a sidecar: a second file could be lost, copied without the first or left stale.

:func:`load_table` treats the file as untrusted. It opens it once, without blocking (a
FIFO does not hang it) and only if it is a regular file; matches the array's dictionary by
a pattern (nothing is evaluated as Python, nothing unpickled) and parses the JSON with
duplicate keys and ``NaN`` refused; checks every field and its type, rebuilds the rule set
from them, and checks the number of positions that rule set has against the header and
the file's size to the byte. It then reads every value once (16 MiB for Yatzy: a few
hundredths of a second): the digest must match, and every value must be a finite number
from 0 to the largest score the rule set allows, spanning exactly the header's range.
Each failure is one line (:class:`~gamegraph.errors.InvalidArgumentError`) naming the
file. The values are then mapped from that same descriptor, copy on write: a lookup reads
one page, and nothing written to the array in memory reaches the file.

:func:`save_table` writes the header and the values through
:func:`gamegraph._files.write_atomic`: a temporary file beside the target, renamed over
it, so an interrupted save leaves no half-written table.

Examples
--------
>>> import os, tempfile
>>> from gamegraph.games.yahtzee.scoring import scoring
>>> from gamegraph.games.yahtzee.solver import solve_values
>>> table = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=2))
>>> path = os.path.join(tempfile.mkdtemp(), "small.npy")
>>> _ = save_table(path, table)
>>> loaded = load_table(path)
>>> loaded.scoring == table.scoring, loaded.start_value == table.start_value
(True, True)
>>> np.load(path, mmap_mode="r", allow_pickle=False).shape
(256,)
>>> load_table(path, ruleset="yatzy")
Traceback (most recent call last):
...
gamegraph.errors.InvalidArgumentError: ...small.npy: holds a Yahtzee table, not Yatzy
"""

from __future__ import annotations

import hashlib
import math
import mmap
import os
import re
import stat

import numpy as np

from ... import _npy_header as npy
from ...errors import InvalidArgumentError, UnknownNameError
from .scoring import JOKERS, RULESETS, Scoring, scoring
from .solver import UPPER_STATES, ValueTable, expected_score_bound

FORMAT = "gamegraph-yahtzee-values"
#: Raised whenever the numbering of the positions or the layout changes.
VERSION = 1
#: Bytes before the values: the NumPy magic, version, header length and header.
HEADER_BYTES = npy.HEADER_BYTES
#: Where gamegraph's description starts in the NumPy header: a comment NumPy skips.
MARK = "# gamegraph-yahtzee "
_FIELDS = ("boxes", "dice", "format", "joker", "positions", "ruleset", "sha256", "values",
           "variant", "version")  # fmt: skip
#: The deepest nesting of the JSON description (its list of boxes is 2 deep).
_MAX_DEPTH = 3
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: Values per step when the values are checked (16 MiB).
_CHUNK = 1 << 21


def positions(rules: Scoring) -> int:
    """How many turn-start positions the rule set numbers: 2^boxes x 64 x (2 with the
    Yahtzee box and its bonus in play, else 1).

    >>> positions(scoring("yahtzee")), positions(scoring("yatzy"))
    (1048576, 2097152)
    """
    flags = 2 if rules.yahtzee_box >= 0 else 1
    return (1 << len(rules.boxes)) * UPPER_STATES * flags


def _rules_fields(rules: Scoring) -> dict:
    return {
        "ruleset": rules.ruleset,
        "boxes": list(rules.boxes),
        "dice": rules.dice,
        "joker": rules.joker,
        "variant": rules.variant,
    }


def _digest(meta: dict, values: np.ndarray) -> str:
    """sha256 of the description's fields but the digest, then the values' bytes."""
    fields = {k: v for k, v in meta.items() if k != "sha256"}
    hasher = hashlib.sha256(npy.canonical_json(fields).encode())
    for start in range(0, len(values), _CHUNK):
        hasher.update(memoryview(np.ascontiguousarray(values[start : start + _CHUNK], "<f8")))
    return hasher.hexdigest()


def _header(meta: dict) -> bytes:
    """The NumPy header holding ``meta``, padded to :data:`HEADER_BYTES`."""
    return npy.npy_header(meta, MARK, meta["positions"])


def _bad_value(values: np.ndarray, high: float) -> int | None:
    """The index of the first value that is not a number from 0 to ``high``, or None."""
    for start in range(0, len(values), _CHUNK):
        chunk = np.asarray(values[start : start + _CHUNK])
        if not (0.0 <= chunk.min() and chunk.max() <= high):  # NaN fails both
            return start + int(np.flatnonzero(~((chunk >= 0.0) & (chunk <= high)))[0])
    return None


def save_table(path, table: ValueTable):
    """Write ``table`` to ``path`` (a ``.npy`` file; see the module docstring), atomically.

    Values that :func:`load_table` would refuse (not finite, below 0 or above the largest
    score the rule set allows) are refused before anything is written.

    Returns
    -------
    pathlib.Path
        Where the table was written (a symbolic link's target: the link stays).
    """
    from ..._files import write_atomic

    if not isinstance(table, ValueTable):
        raise InvalidArgumentError(f"table must be a ValueTable, got {type(table).__name__}")
    rules = table.scoring
    n = positions(rules)
    values = np.ascontiguousarray(table.values, dtype="<f8")
    if values.shape != (n,):
        raise InvalidArgumentError(
            f"the table holds {values.shape} values where {rules.name} with these boxes has {n:,}"
        )
    bad = _bad_value(values, expected_score_bound(rules))
    if bad is not None:
        raise InvalidArgumentError(
            f"cannot write {os.fspath(path)}: the value of position {bad} is "
            f"{float(values[bad])!r}, not an expected score of {rules.name}"
        )
    meta = {
        "format": FORMAT,
        "version": VERSION,
        **_rules_fields(rules),
        "positions": n,
        "values": {"min": float(values.min()), "max": float(values.max())},
    }
    meta["sha256"] = _digest(meta, values)
    return write_atomic(path, _header(meta) + values.tobytes())


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def _parse_header(head: bytes, size: int, fail) -> tuple[Scoring, dict]:
    """The rule set and the description in the first bytes ``head`` of a file of ``size``
    bytes, every field checked.
    """
    length, meta = npy.read_npy_header(head, MARK, "a gamegraph Yahtzee table", _MAX_DEPTH, fail)
    rules = _check_meta(meta, fail)
    n = positions(rules)
    if meta["positions"] != n:
        fail(f"says it holds {meta['positions']!r} positions; {describe(rules)}: {n:,}")
    if length != n:
        fail(f"has an array of {length:,} values; {describe(rules)}: {n:,}")
    if size != HEADER_BYTES + 8 * n:
        fail(
            f"is {size:,} bytes where the {n:,} positions of {describe(rules)} need "
            f"{HEADER_BYTES + 8 * n:,} (cut short or padded)"
        )
    return rules, meta


def describe(rules: Scoring) -> str:
    """The rule set in a few words: its name (and variant), Yahtzee's joker, and the boxes
    and dice of a small version.

    >>> describe(scoring("yahtzee")), describe(scoring("yatzy", variant="kth-2012"))
    ('Yahtzee (free joker)', 'Yatzy (kth-2012 scoring)')
    >>> describe(scoring("yahtzee", boxes=("sixes", "chance"), dice=3, joker="forced"))
    'Yahtzee (forced joker), boxes sixes, chance, 3 dice'
    """
    name = rules.name
    if rules.ruleset == "yahtzee":
        name += f" ({rules.joker} joker)"
    if rules.boxes != scoring(rules.ruleset).boxes:
        name += f", boxes {', '.join(rules.boxes)}"
    if rules.dice != 5:
        name += f", {rules.dice} dice"
    return name


def _check_meta(meta, fail) -> Scoring:
    """The rule set of the description ``meta``, whose every field is checked for type."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        fail(f"is not a {FORMAT} file")
    version = meta.get("version")
    if type(version) is not int or version != VERSION:
        fail(f"is version {version!r} of the format; this gamegraph reads {VERSION}")
    if sorted(meta) != sorted(_FIELDS):
        fail(f"has an unreadable header: the fields must be {', '.join(_FIELDS)}")
    name, boxes, dice, joker = meta["ruleset"], meta["boxes"], meta["dice"], meta["joker"]
    variant = meta["variant"]
    if type(name) is not str or name not in RULESETS:
        fail(f"holds rules gamegraph does not know ({name!r}); accepted: {', '.join(RULESETS)}")
    if type(joker) is not str or joker not in JOKERS:
        fail(f"holds a joker rule gamegraph does not know ({joker!r})")
    if type(dice) is not int or not 1 <= dice <= 5:
        fail(f"holds {dice!r} dice; a whole number 1 to 5")
    if (
        type(boxes) is not list
        or not boxes
        or any(type(b) is not str for b in boxes)
        or len(set(boxes)) != len(boxes)
    ):
        fail("has an unreadable header: boxes must be a list of distinct names")
    if type(variant) is not str:
        fail(f"holds an unreadable scoring variant ({variant!r})")
    try:
        rules = scoring(name, boxes=tuple(boxes), dice=dice, joker=joker, variant=variant)
    except UnknownNameError as error:
        fail(f"holds a {error.kind} gamegraph's {name} does not have ({error.name!r})")
    if list(rules.boxes) != boxes:
        fail(f"lists its boxes out of {name}'s order")
    if type(meta["positions"]) is not int:
        fail(f"says it holds {meta['positions']!r} positions")
    found = meta["values"]
    if (
        type(found) is not dict
        or sorted(found) != ["max", "min"]
        or any(type(found[k]) not in (int, float) or not math.isfinite(found[k]) for k in found)
    ):
        fail('has an unreadable header: values must be {"min": number, "max": number}')
    if type(meta["sha256"]) is not str or not _SHA256.fullmatch(meta["sha256"]):
        fail("has an unreadable header: sha256 must be 64 lowercase hexadecimal digits")
    return rules


def _check_values(values: np.ndarray, rules: Scoring, meta: dict, fail) -> None:
    """Refuse values that do not match the digest, are not expected scores of the rule
    set, or do not span exactly the header's range.
    """
    if _digest(meta, values) != meta["sha256"]:
        fail("is damaged: its sha256 digest does not match the content")
    high = expected_score_bound(rules)
    bad = _bad_value(values, high)
    if bad is not None:
        fail(
            f"holds {float(values[bad])!r} at position {bad}; values are expected scores "
            f"from 0 to {high:g}"
        )
    low, most = float(values.min()), float(values.max())
    if (low, most) != (meta["values"]["min"], meta["values"]["max"]):
        fail(
            f"has values from {low!r} to {most!r}, but its header says "
            f"{meta['values']['min']!r} to {meta['values']['max']!r}"
        )


def load_table(path, *, ruleset: str | None = None, joker: str | None = None) -> ValueTable:
    """Map the table at ``path`` (written by :func:`save_table` or ``gamegraph yahtzee
    solve --save``), checked as the module docstring says.

    Parameters
    ----------
    path : str or os.PathLike
    ruleset : {"yahtzee", "yatzy"}, optional
        Refuse a table of the other rule set.
    joker : {"free", "forced"}, optional
        Refuse a Yahtzee table of the other joker rule.

    Returns
    -------
    ValueTable
        Its values mapped from the file, copy on write.
    """
    if ruleset is not None and ruleset not in RULESETS:
        raise UnknownNameError("rules", ruleset, RULESETS)
    if joker is not None and joker not in JOKERS:
        raise UnknownNameError("joker", joker, JOKERS)
    path = os.fspath(path)

    def fail(why):
        raise InvalidArgumentError(f"{path}: {why}")

    try:
        handle = os.open(path, npy.READ_FLAGS)
    except OSError as error:
        raise InvalidArgumentError(f"cannot read {path}: {error.strerror}") from None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            fail(
                "is not a regular file; a table is a file written by "
                "`gamegraph yahtzee solve --save`"
            )
        rules, meta = _parse_header(os.pread(handle, HEADER_BYTES, 0), status.st_size, fail)
        if ruleset is not None and rules.ruleset != ruleset:
            other = scoring(ruleset).name
            fail(f"holds a {rules.name} table, not {other}")
        if joker is not None and rules.ruleset == "yahtzee" and rules.joker != joker:
            fail(f"holds a table of the {rules.joker} joker, not the {joker} joker")
        mapped = mmap.mmap(handle, status.st_size, access=mmap.ACCESS_COPY)
    except OSError as error:
        raise InvalidArgumentError(f"cannot read {path}: {error.strerror}") from None
    finally:
        os.close(handle)
    values = np.frombuffer(mapped, dtype="<f8", count=positions(rules), offset=HEADER_BYTES)
    try:
        _check_values(values, rules, meta, fail)
    except OSError as error:  # pragma: no cover - the file shrank under the map (SIGBUS aside)
        raise InvalidArgumentError(f"cannot read {path}: {error.strerror}") from None
    return ValueTable(rules, values)
