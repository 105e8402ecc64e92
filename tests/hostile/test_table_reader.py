"""Hostile Ur table files: issue 11, cases 4 and 5.

The table reader (gamegraph.games.ur.code_table.load_table) must refuse, quickly and with
InvalidArgumentError naming the file, anything that is not a table it wrote: a FIFO (which
used to hang for ever), a symlink to /dev/zero (read until MemoryError), a header nested
100,000 deep (RecursionError), and tables forged on purpose with their digest computed
again (NaN, 2.0 or -1 values, a 2-piece table relabelled as 3, ``"pieces": true``, codes out
of order). Random byte-level damage to a small valid table is either harmless (the same
table loads) or refused; random JSON headers never crash the reader.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from cli_run import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamegraph import solve
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import Ur
from gamegraph.games.ur import code_table as table_module
from gamegraph.games.ur.code_table import MAGIC, load_table, table_from_solution

GAMEGRAPH = Path(sys.executable).parent / "gamegraph"


@pytest.fixture(scope="module")
def finkel1():
    """The small valid table: finkel, 1 piece, 217 positions."""
    return table_from_solution(solve(Ur("finkel", 1).build_graph()))


@pytest.fixture(scope="module")
def valid(finkel1, tmp_path_factory):
    """The bytes of the finkel 1-piece table as saved."""
    path = tmp_path_factory.mktemp("valid") / "finkel-1.urtable"
    finkel1.save(path)
    return path.read_bytes()


@pytest.fixture(scope="module")
def finkel2_bytes(tmp_path_factory):
    path = tmp_path_factory.mktemp("two") / "finkel-2.urtable"
    table_from_solution(solve(Ur("finkel", 2).build_graph())).save(path)
    return path.read_bytes()


def split(data):
    """(header dict, codes, values) of a table file's bytes."""
    start = len(MAGIC) + 4
    (size,) = struct.unpack_from("<I", data, len(MAGIC))
    header = json.loads(data[start : start + size])
    arrays = data[start + size :]
    n = len(arrays) // 16
    codes = np.frombuffer(arrays, dtype="<i8", count=n).copy()
    values = np.frombuffer(arrays, dtype="<f8", count=n, offset=8 * n).copy()
    return header, codes, values


def forge(header, codes, values, *, reseal=True, raw_header=None):
    """A table file as a forger would write it: the digest computed again by the rule the
    module docstring states (the header's other fields as sorted-key JSON, then the codes,
    then the values)."""
    codes = np.ascontiguousarray(codes, dtype="<i8")
    values = np.ascontiguousarray(values, dtype="<f8")
    if reseal and isinstance(header, dict):
        fields = {k: v for k, v in header.items() if k != "sha256"}
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode())
        digest.update(codes.tobytes())
        digest.update(values.tobytes())
        header = dict(header, sha256=digest.hexdigest())
    text = raw_header if raw_header is not None else json.dumps(header).encode()
    return MAGIC + struct.pack("<I", len(text)) + text + codes.tobytes() + values.tobytes()


def refused(path, match, **kwargs):
    with pytest.raises(InvalidArgumentError, match=match) as caught:
        load_table(path, **kwargs)
    assert str(caught.value).startswith(f"{path}: ")  # the message names the file
    return str(caught.value)


# ---------------------------------------------------------------------------
# Case 4: files that are not files, and headers that explode
# ---------------------------------------------------------------------------
def test_fifo_table_is_refused_within_a_second(tmp_path):
    fifo = tmp_path / "table.fifo"
    os.mkfifo(fifo)
    outcome = []

    def load():
        try:
            load_table(fifo)
        except Exception as error:  # recorded, then checked in the test's thread
            outcome.append(error)

    started = time.perf_counter()
    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(timeout=1.0)
    if worker.is_alive():  # release the reader so that the thread ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=5)
        pytest.fail("reading a FIFO blocked for more than a second")
    assert time.perf_counter() - started < 1.0
    [error] = outcome
    assert isinstance(error, InvalidArgumentError)
    assert str(error) == (
        f"{fifo}: is not a regular file (a FIFO, device or socket); a table is read only "
        "from a file written by `gamegraph ur solve --save`"
    )


def test_fifo_table_on_the_command_line_is_refused_in_one_line(tmp_path):
    """A real process: one line on stderr, exit 2, within the timeout (it used to hang)."""
    fifo = tmp_path / "t.urtable"
    os.mkfifo(fifo)
    done = subprocess.run(
        [str(GAMEGRAPH), "ur", "value", "-/-", "--table", str(fifo)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"gamegraph: error: {fifo}: is not a regular file")


def test_dev_zero_symlink_is_refused_fast(tmp_path):
    link = tmp_path / "zero.urtable"
    link.symlink_to("/dev/zero")
    started = time.perf_counter()
    refused(link, "is not a regular file")
    assert time.perf_counter() - started < 0.5


def test_folders_and_missing_table_files_are_refused(tmp_path):
    refused(tmp_path, "is a folder, not a table file")
    with pytest.raises(InvalidArgumentError, match="cannot read .*missing.urtable: No such"):
        load_table(tmp_path / "missing.urtable")
    with pytest.raises(InvalidArgumentError, match="not a valid file name"):
        load_table("bad\0name.urtable")


def test_oversized_or_deeply_nested_headers_are_refused_fast(tmp_path, monkeypatch):
    path = tmp_path / "nested.urtable"
    # The header as the issue found it: its length field says 100,000 bytes.
    path.write_bytes(MAGIC + struct.pack("<I", 100_000) + b"[" * 100_000)
    refused(path, "has a header of 100,000 bytes; a table header has at most 65,536")
    # Within the length bound, the nesting is refused before json.loads sees it.
    path.write_bytes(MAGIC + struct.pack("<I", 60_000) + b"[" * 60_000)
    started = time.perf_counter()
    refused(path, "has an unreadable header: nested more than 4 deep")
    assert time.perf_counter() - started < 0.5
    # Brackets inside strings are text, not nesting: that header reaches json.loads.
    header = json.dumps({"format": 3, "x": "[" * 50}).encode()
    path.write_bytes(MAGIC + struct.pack("<I", len(header)) + header)
    refused(path, "has an unreadable header: no field")
    # And were the nesting check gone, json's RecursionError would still be refused.
    monkeypatch.setattr(table_module, "_MAX_DEPTH", 10**6)
    path.write_bytes(MAGIC + struct.pack("<I", 60_000) + b"[" * 60_000)
    refused(path, "has an unreadable header")


def test_oversized_file_is_refused_before_reading(tmp_path, valid):
    path = tmp_path / "huge.urtable"
    with open(path, "wb") as f:  # a sparse file larger than the largest possible table
        f.write(valid[:64])
        f.truncate(1 << 40)
    started = time.perf_counter()
    message = refused(path, "more than the largest table of any rule set")
    assert time.perf_counter() - started < 0.5
    assert "1,099,511,627,776 bytes" in message


# ---------------------------------------------------------------------------
# Case 5: forged tables with the digest computed again
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "shown"), [(float("nan"), "nan"), (2.0, "2.0"), (-1.0, "-1.0"), (np.inf, "inf")]
)
def test_forged_values_are_refused(tmp_path, valid, value, shown):
    header, codes, values = split(valid)
    values[17] = value
    path = tmp_path / "table.bin"
    path.write_bytes(forge(header, codes, values))
    message = refused(path, "value at position 17")
    assert message == f"{path}: value at position 17 is {shown}; values must be within [0, 1]"


def test_json_output_never_prints_nan(tmp_path, valid, capsys):
    header, codes, values = split(valid)
    values[:] = float("nan")
    path = tmp_path / "nan.urtable"
    path.write_bytes(forge(header, codes, values))
    status, out, err = run(["ur", "value", "-/-", "--table", path, "--format", "json"], capsys)
    assert status == 2 and out == "" and "NaN" not in err
    assert (
        err
        == f"gamegraph: error: {path}: value at position 0 is nan; values must be within [0, 1]\n"
    )
    # The JSON writer of the ur commands refuses a NaN however it got there.
    from gamegraph.cli.ur import finite_json

    assert finite_json({"value": 0.5}) == '{"value": 0.5}'
    with pytest.raises(InvalidArgumentError, match="not a finite number"):
        finite_json({"value": float("nan")})


def test_two_pieces_relabelled_as_three_is_refused(tmp_path, finkel2_bytes):
    header, codes, values = split(finkel2_bytes)
    assert header["positions"] == 12869
    header["pieces"] = header["rules"]["pieces"] = 3
    path = tmp_path / "relabelled.urtable"
    path.write_bytes(forge(header, codes, values))
    refused(
        path,
        "says it holds 12869 positions; a table of finkel with 3 piece.s. holds exactly 263,121",
    )
    # Relabelled in one place only: the header and its rules block disagree.
    header, codes, values = split(finkel2_bytes)
    header["pieces"] = 3
    path.write_bytes(forge(header, codes, values))
    refused(path, "has a rules block that does not match its header")
    # Even with the count forged too (and the file padded to match) the codes give it away:
    # the first code past the 2-piece range is not a 3-piece code beyond those present.
    header, codes, values = split(finkel2_bytes)
    header["pieces"] = header["rules"]["pieces"] = 3
    header["positions"] = 263121
    extra = 263121 - len(codes)
    codes = np.concatenate([codes, codes[-1] + 1 + np.arange(extra)])
    values = np.concatenate([values, np.full(extra, 0.5)])
    path.write_bytes(forge(header, codes, values))
    refused(path, "is not a position of finkel with 3 piece")


def test_header_fields_of_the_wrong_type_are_refused(tmp_path, valid):
    header, codes, values = split(valid)
    for field in ("pieces", "rules"):
        forged = json.loads(json.dumps(header))
        if field == "pieces":
            forged["pieces"] = True
        else:
            forged["rules"]["pieces"] = True
        path = tmp_path / f"{field}.urtable"
        path.write_bytes(forge(forged, codes, values))
        refused(path, "holds rules gamegraph does not know|rules block that does not match")
    header["positions"] = 217.0
    path.write_bytes(forge(header, codes, values))
    refused(path, "says it holds 217.0 positions")


def test_codes_out_of_order_or_invalid_are_refused(tmp_path, valid):
    header, codes, values = split(valid)
    path = tmp_path / "codes.urtable"
    swapped = codes.copy()
    swapped[[40, 41]] = swapped[[41, 40]]
    path.write_bytes(forge(header, swapped, values))
    refused(path, f"the codes must rise strictly, but code 41 \\({codes[40]}\\) follows")
    repeated = codes.copy()
    repeated[100] = repeated[99]
    path.write_bytes(forge(header, repeated, values))
    refused(path, "the codes must rise strictly, but code 100")
    # Sorted, but the last code is not a position (a bit above the board's 34).
    beyond = codes.copy()
    beyond[-1] = 1 << 40
    path.write_bytes(forge(header, beyond, values))
    refused(path, f"code 216 \\({1 << 40}\\) is not a position of finkel with 1 piece")
    negative = codes.copy()
    negative[0] = -1
    path.write_bytes(forge(header, negative, values))
    refused(path, "code 0 \\(-1\\) is not a position")
    # Both sides on one shared tile: mover on square 5 and opponent on its square 5.
    clash = (1 << 4) | (1 << (4 + 14 + 3))
    assert clash not in set(codes.tolist())
    mixed = np.sort(np.concatenate([codes[1:], [clash]]))
    path.write_bytes(forge(header, mixed, values))
    refused(path, f"\\({clash}\\) is not a position of finkel with 1 piece")


def test_value_range_in_the_header_must_match(tmp_path, valid):
    header, codes, values = split(valid)
    header["values"]["min"] = 0.0
    path = tmp_path / "range.urtable"
    path.write_bytes(forge(header, codes, values))
    refused(path, "has values from .* but its header says 0.0 to")
    header["values"] = {"min": float("nan"), "max": 1.0}
    path.write_bytes(forge(header, codes, values))  # json.dumps writes a bare NaN
    refused(path, "has an unreadable header: NaN is not a number JSON allows")


def test_truncated_over_long_and_foreign_files(tmp_path, valid):
    path = tmp_path / "t.urtable"
    header_end = len(valid) - 16 * 217
    for cut in (len(MAGIC) + 2, header_end - 1, header_end, header_end + 100, len(valid) - 1):
        path.write_bytes(valid[:cut])
        refused(path, "is truncated")
    path.write_bytes(valid + b"\0" * 16)
    refused(path, "has 16 stray bytes at the end")
    path.write_bytes(valid + b"x")
    refused(path, "has 1 stray bytes at the end")
    for magic in (b"GAMEGRAPH-UR-TABLE\r\n", b"PK\x03\x04", b"", b"GAMEGRAPH"):
        path.write_bytes(magic + valid[len(MAGIC) :] if magic else b"")
        refused(path, "is not a gamegraph Ur table")
    header, codes, values = split(valid)
    path.write_bytes(forge(dict(header, format=2), codes, values))
    refused(path, "table format 2; this version reads 3; re-run `gamegraph ur solve --save`")


def test_the_valid_table_loads_bit_for_bit(tmp_path, valid, finkel1):
    path = tmp_path / "ok.urtable"
    path.write_bytes(valid)
    table = load_table(path, "finkel", 1)
    assert np.array_equal(table.codes, finkel1.codes)
    assert np.array_equal(table.values, finkel1.values)
    assert table.value("14/14") == pytest.approx(4 / 7, abs=1e-13)
    # A forger who recomputes the digest over the same content gets the same file back.
    assert forge(*split(valid)) == valid


# ---------------------------------------------------------------------------
# Property-based: random damage and random headers
# ---------------------------------------------------------------------------
CORRUPTION = st.one_of(
    st.tuples(
        st.just("flip"),
        st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), min_size=1, max_size=4),
    ),
    st.tuples(st.just("truncate"), st.integers(0, 10**6)),
    st.tuples(st.just("append"), st.binary(min_size=1, max_size=40)),
)


def damaged(data, corruption):
    kind, what = corruption
    if kind == "flip":
        out = bytearray(data)
        for offset, mask in what:
            out[offset % len(out)] ^= mask
        return bytes(out)
    if kind == "truncate":
        return data[: what % len(data)]
    return data + what


def load_or_refusal(path):
    try:
        return load_table(path)
    except InvalidArgumentError as error:
        assert str(error).startswith(f"{path}: ")
        return None


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(corruption=CORRUPTION)
def test_random_byte_damage_is_refused_or_harmless(tmp_path, valid, finkel1, corruption):
    path = tmp_path / "damaged.urtable"
    data = damaged(valid, corruption)
    path.write_bytes(data)
    table = load_or_refusal(path)
    if table is not None:  # only a change that leaves the content as it was
        assert table.ruleset == finkel1.ruleset
        assert np.array_equal(table.codes, finkel1.codes)
        assert np.array_equal(table.values, finkel1.values)
    else:
        assert data != valid


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
FIELDS = ("format", "ruleset", "pieces", "rules", "positions", "values", "sha256")


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    replaced=st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=3),
    removed=st.lists(st.sampled_from(FIELDS), max_size=2),
    reseal=st.booleans(),
)
def test_random_header_fields_never_crash_the_reader(tmp_path, valid, replaced, removed, reseal):
    header, codes, values = split(valid)
    forged = dict(header, **replaced)
    for field in removed:
        forged.pop(field, None)
    path = tmp_path / "fields.urtable"
    path.write_bytes(forge(forged, codes, values, reseal=reseal))
    table = load_or_refusal(path)
    if table is not None:  # only possible when every field is as it was
        fields = sorted(k for k in header if k != "sha256")
        assert json.dumps([forged[k] for k in fields]) == json.dumps([header[k] for k in fields])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(header=JSON, raw=st.binary(max_size=64))
def test_random_json_headers_never_crash_the_reader(tmp_path, valid, header, raw):
    _, codes, values = split(valid)
    path = tmp_path / "json.urtable"
    for text in (json.dumps(header).encode(), raw):
        path.write_bytes(forge(header, codes, values, reseal=False, raw_header=text))
        assert load_or_refusal(path) is None
