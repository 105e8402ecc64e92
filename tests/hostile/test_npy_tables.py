"""The ``.npy`` table path in a hostile environment (issue 24, deliver 3 and 4).

Writing (``gamegraph ur solve --save FILE.npy``): a symlink or a FIFO at ``FILE.npy.partial``
is refused in one line (the symlink used to overwrite its target, the FIFO to hang for
ever); a name that fits only without ``.partial``, a full disk and a file-size limit
(``ulimit -f``) are refused in one line before any work, with nothing left behind; two
solves of one file at once do not collide (one waits for nothing: it is refused while the
other holds the lock); a re-solve keeps a ``0600`` table ``0600`` and writes through a
symlink at the target.

Reading (``open_values``, ``--table FILE.npy``): a changed value, a NaN, an old table
without a value range, and a header nested thousands deep are refused in one line with
exit status 2, never printed as an answer or raised as ``RecursionError``.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_run import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import code_table as table_module
from gamegraph.games.ur import rank_table, rule_set
from gamegraph.games.ur.rank import Numbering
from gamegraph.games.ur.rank_table import HEADER_BYTES, open_values, write_values

GAMEGRAPH = Path(sys.executable).with_name("gamegraph")
START = "-/-"


def solve_argv(path, pieces=1):
    return ["ur", "solve", "--pieces", str(pieces), "--save", str(path)]


def solve_process(path, pieces=1, timeout=120, preexec_fn=None):
    """``gamegraph ur solve`` in a process of its own (a hang ends in a timeout, not for ever)."""
    return subprocess.run(
        [GAMEGRAPH, *solve_argv(path, pieces)],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=preexec_fn,
    )


def one_error_line(status, out, err, *fragments, code=2):
    assert status == code, err
    assert out == ""
    assert err.startswith("gamegraph: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


def listing(folder) -> list[str]:
    return sorted(os.listdir(folder))


@pytest.fixture(scope="module")
def finkel1(tmp_path_factory):
    """A finished finkel 1-piece table's bytes (217 positions)."""
    path = tmp_path_factory.mktemp("finkel1") / "finkel-1.npy"
    status = subprocess.run([GAMEGRAPH, *solve_argv(path)], capture_output=True, timeout=120)
    assert status.returncode == 0, status.stderr
    return path.read_bytes()


@pytest.fixture
def table(tmp_path, finkel1):
    path = tmp_path / "t.npy"
    path.write_bytes(finkel1)
    return path


# ---- writing: the .partial file -------------------------------------------------------
def test_a_symlink_at_the_partial_is_not_followed(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    os.symlink(notes, tmp_path / "t.npy.partial")
    one_error_line(*run(solve_argv(tmp_path / "t.npy"), capsys), "t.npy.partial", "symbolic link")
    assert notes.read_text() == "my notes\n"
    assert (tmp_path / "t.npy.partial").is_symlink()
    assert listing(tmp_path) == ["notes.txt", "t.npy.partial"]


def test_a_fifo_at_the_partial_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "t.npy.partial")
    done = solve_process(tmp_path / "t.npy", timeout=60)
    one_error_line(done.returncode, done.stdout, done.stderr, "t.npy.partial", "FIFO")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "t.npy.partial").st_mode)
    assert listing(tmp_path) == ["t.npy.partial"]


def test_a_file_that_is_not_a_partial_table_is_not_replaced(tmp_path, capsys):
    (tmp_path / "t.npy.partial").write_text("my notes\n")
    one_error_line(*run(solve_argv(tmp_path / "t.npy"), capsys), "not a partial table")
    assert (tmp_path / "t.npy.partial").read_text() == "my notes\n"


@pytest.fixture
def no_solve(monkeypatch):
    """Solving anything fails the test: a bad path must be refused first."""
    import gamegraph.games.ur.block_solver as block_solver

    def work(*args, **kwargs):
        raise AssertionError("the solve started before its output was checked")

    monkeypatch.setattr(block_solver, "solve_blocks", work)


def test_a_name_too_long_with_partial_is_refused_before_the_work(tmp_path, capsys, no_solve):
    name = "x" * 248 + ".npy"  # 252 bytes: fits, but 260 with '.partial'
    one_error_line(*run(solve_argv(tmp_path / name), capsys), "255", ".partial")
    assert listing(tmp_path) == []


def test_a_full_disk_is_refused_in_one_line_with_nothing_left(tmp_path, monkeypatch, capsys):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    for name in ("posix_fallocate", "pwrite", "write", "ftruncate", "truncate"):
        if name != "write":  # pytest's capture writes through os.write
            monkeypatch.setattr(os, name, full)
    status, out, err = run(solve_argv(tmp_path / "t.npy", pieces=2), capsys)
    monkeypatch.undo()
    one_error_line(status, out, err, "t.npy", "No space left on device")
    assert listing(tmp_path) == []


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs (needs root and a kernel that lets this process mount)."""
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder],
                             capture_output=True)  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr!r}")
    yield folder
    subprocess.run(["umount", folder], check=True)


def test_a_really_full_disk_is_refused_before_the_solve(small_disk):
    done = solve_process(small_disk / "t.npy", pieces=2)  # 107 KB on a 64 KiB disk
    one_error_line(done.returncode, done.stdout, done.stderr, "t.npy", "No space left on device")
    assert listing(small_disk) == []


def test_a_file_size_limit_is_refused_in_one_line_with_nothing_left(tmp_path):
    def limit():  # ``ulimit -f 48`` (48 KiB); the 2-piece table is 107 KB
        resource.setrlimit(resource.RLIMIT_FSIZE, (48 * 1024, 48 * 1024))

    done = solve_process(tmp_path / "t.npy", pieces=2, preexec_fn=limit)
    one_error_line(done.returncode, done.stdout, done.stderr, "t.npy", "file-size limit")
    assert listing(tmp_path) == []


def test_a_partial_held_by_another_solve_is_refused(tmp_path):
    numbering = Numbering(rule_set("finkel", 1))
    held = rank_table.start_partial(tmp_path / "t.npy", numbering)
    try:
        done = solve_process(tmp_path / "t.npy")
    finally:
        held.close()
    one_error_line(done.returncode, done.stdout, done.stderr, "t.npy.partial", "another solve")
    assert listing(tmp_path) == ["t.npy.partial"]


def test_two_solves_of_one_file_at_once_do_not_collide(tmp_path):
    target = tmp_path / "t.npy"
    for _ in range(3):
        command = [GAMEGRAPH, *solve_argv(target, pieces=2)]
        runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True) for _ in range(2)]  # fmt: skip
        ended = [(p.wait(timeout=120), *p.communicate()) for p in runs]
        assert any(status == 0 for status, _, _ in ended), ended
        for status, out, err in ended:
            if status != 0:
                one_error_line(status, out, err, "t.npy.partial", "another solve")
        assert listing(tmp_path) == ["t.npy"]
        open_values(target).verify()


def test_a_0600_table_stays_0600(tmp_path, capsys):
    target = tmp_path / "t.npy"
    assert run(solve_argv(target), capsys)[0] == 0
    os.chmod(target, 0o600)
    assert run(solve_argv(target), capsys)[0] == 0
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert listing(tmp_path) == ["t.npy"]


def test_a_symlink_at_the_table_is_written_through(tmp_path, capsys):
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "t.npy"
    real.write_text("an older table\n")
    link = tmp_path / "link.npy"
    os.symlink(real, link)
    assert run(solve_argv(link), capsys)[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert open_values(real).value(START) == open_values(link).value(START)
    assert listing(tmp_path) == ["link.npy", "real"] and listing(real.parent) == ["t.npy"]


def test_a_resumed_solve_finishes_the_same_table(tmp_path, capsys):
    numbering = Numbering(rule_set("finkel", 2))
    target = tmp_path / "t.npy"
    assert run(solve_argv(target, pieces=2), capsys)[0] == 0
    whole = target.read_bytes()
    values = np.load(target)
    target.unlink()
    partial = rank_table.start_partial(target, numbering)
    partial.write_block(0, values)
    partial.close()  # as after Ctrl-C: one block kept
    assert run(solve_argv(target, pieces=2), capsys)[0] == 0
    assert open_values(target).value(START) == values[numbering.index(START)]
    assert target.read_bytes() == whole
    assert listing(tmp_path) == ["t.npy"]


# ---- reading --------------------------------------------------------------------------
def header_of(path) -> tuple[str, dict]:
    """(array description, gamegraph fields) of a table's NumPy header."""
    text = Path(path).read_bytes()[10:HEADER_BYTES].decode("latin1")
    array, _, meta = text.partition(rank_table.MARK)
    return array, json.loads(meta)


def with_header(path, array: str, meta: str) -> None:
    """Put the header text ``array`` + mark + ``meta`` in the table at ``path``."""
    data = Path(path).read_bytes()
    body = (array + rank_table.MARK + meta).ljust(HEADER_BYTES - 11)[: HEADER_BYTES - 11]
    Path(path).write_bytes(data[:10] + (body + "\n").encode("latin1") + data[HEADER_BYTES:])


def forge(path, array=None, *, reseal=True, **fields):
    """Rewrite a table as a forger would: new values or fields, the digest computed again
    by the rule the module docstring states (unless ``reseal`` is False)."""
    path = Path(path)
    text, meta = header_of(path)
    array = np.load(path) if array is None else np.asarray(array, dtype="<f8")
    meta.update(fields)
    if reseal:
        meta["sha256"] = rank_table.digest(meta, array)
    path.write_bytes(path.read_bytes()[:HEADER_BYTES] + array.tobytes())
    with_header(path, text, json.dumps(meta, sort_keys=True, separators=(",", ":")))


def test_a_changed_value_is_refused(table, capsys):
    numbering = Numbering(rule_set("finkel", 1))
    at = HEADER_BYTES + 8 * numbering.index(START)
    data = bytearray(table.read_bytes())
    data[at : at + 8] = np.float64(0.25).tobytes()
    table.write_bytes(bytes(data))
    status, out, err = run(["ur", "value", START, "--table", table], capsys)
    one_error_line(status, out, err, "t.npy", "is damaged")


def test_a_nan_is_refused(table, capsys):
    numbering = Numbering(rule_set("finkel", 1))
    values = np.load(table)
    values[numbering.index(START)] = np.nan
    forge(table, values)
    for check in ("full", "quick"):
        status, out, err = run(["ur", "value", START, "--table", table, "--check", check], capsys)
        one_error_line(status, out, err, "t.npy", "nan", "[0, 1]")


@pytest.mark.parametrize("bad", [2.0, -0.5, np.inf])
def test_a_value_outside_zero_one_is_refused(table, bad):
    values = np.load(table)
    values[100] = bad
    forge(table, values)
    with pytest.raises(InvalidArgumentError, match=r"t\.npy: value at rank 100 is .*\[0, 1\]"):
        open_values(table)


def test_a_range_that_is_not_the_values_is_refused(table):
    forge(table, values={"min": 0.0, "max": 1.0})  # the values do not reach both ends
    with pytest.raises(InvalidArgumentError, match="but its header says"):
        open_values(table)


def test_a_relabelled_rule_set_is_refused(tmp_path, capsys):
    """masters and blitz with 1 piece both have 277 positions: only the digest, which
    covers the header, tells a relabelled table from a table of blitz."""
    path = tmp_path / "t.npy"
    solved = run(["ur", "solve", "--rules", "masters", "--pieces", "1", "--save", path], capsys)
    assert solved[0] == 0
    blitz = rule_set("blitz", 1)
    forge(path, reseal=False, ruleset="blitz", rules=table_module._rules_header(blitz))
    status, out, err = run(["ur", "value", START, "--table", path], capsys)
    one_error_line(status, out, err, "t.npy", "is damaged")


def test_a_deep_header_is_refused_without_recursion(table, capsys):
    array, meta = header_of(table)
    room = HEADER_BYTES - 11 - len(array) - len(rank_table.MARK)
    for deep in ("[" * room, '{"a":' * (room // 5), "[" * 100 + "]" * 100):
        with_header(table, array, deep)
        status, out, err = run(["ur", "value", START, "--table", table], capsys)
        one_error_line(status, out, err, "t.npy", "unreadable header")
    nested = "{'descr': " + "[" * 1900 + "]" * 1900 + "}"
    with_header(table, nested, json.dumps(meta))
    with pytest.raises(InvalidArgumentError, match="t.npy: has an unreadable header"):
        open_values(table)


def test_an_old_table_is_refused_with_a_line_to_solve_again(table, capsys):
    forge(table, version=1)
    status, out, err = run(["ur", "value", START, "--table", table], capsys)
    one_error_line(status, out, err, "t.npy", "version 1", "gamegraph ur solve --save")


def test_the_quick_check_reads_a_sample(table):
    numbering = Numbering(rule_set("finkel", 1))
    assert open_values(table, check="quick").value(START) == open_values(table).value(START)
    values = np.load(table)
    values[0] = np.nan  # the first value of every block is in the sample
    forge(table, values)
    with pytest.raises(InvalidArgumentError, match="rank 0 is nan"):
        open_values(table, check="quick")
    assert numbering.n_positions == 217
    with pytest.raises(InvalidArgumentError, match="accepted: full, quick"):
        open_values(table, check="none")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_damage_is_refused_or_harmless(finkel1, tmp_path, data):
    raw = bytearray(finkel1)
    kind = data.draw(st.sampled_from(["flip", "truncate", "append"]))
    if kind == "flip":
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] ^= data.draw(st.integers(1, 255))
    elif kind == "truncate":
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    else:
        raw += data.draw(st.binary(min_size=1, max_size=64))
    path = tmp_path / "damaged.npy"
    path.write_bytes(bytes(raw))
    try:
        loaded = open_values(path)
    except InvalidArgumentError as error:
        assert str(error).count("\n") == 0 and "damaged.npy" in str(error)
        return
    original = tmp_path / "original.npy"
    original.write_bytes(finkel1)
    assert np.array_equal(np.asarray(loaded.values), np.load(original))


def test_write_values_refuses_values_outside_zero_one(tmp_path):
    numbering = Numbering(rule_set("finkel", 1))
    values = np.full(numbering.n_positions, 0.5)
    values[3] = np.nan
    with pytest.raises(InvalidArgumentError, match="rank 3 is nan"):
        write_values(tmp_path / "t.npy", numbering, values)
    assert listing(tmp_path) == []
