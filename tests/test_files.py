"""gamegraph._files: check an output path before any work, then write all-or-nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import gamegraph._files as output
from gamegraph._files import check_output, write_atomic
from gamegraph.errors import GameGraphError, InvalidArgumentError, OutputError, UnknownNameError

ACCEPTED = (".png", ".svg", ".dot")


@pytest.mark.parametrize(
    "name, extension",
    [("a.png", ".png"), ("a.PNG", ".png"), ("a.Svg", ".svg"), ("a.b.dot", ".dot")],
)
def test_extension_is_case_insensitive(tmp_path, name, extension):
    path, found = check_output(tmp_path / name, ACCEPTED)
    assert (path, found) == (tmp_path / name, extension)
    assert isinstance(path, Path)
    assert os.listdir(tmp_path) == []  # checking writes nothing


def test_relative_path_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert check_output("a.png", ACCEPTED) == (Path("a.png"), ".png")
    assert write_atomic("a.png", b"x") == Path("a.png")
    assert (tmp_path / "a.png").read_bytes() == b"x"


@pytest.mark.parametrize(
    "name, message",
    [
        ("a.gif", "unknown output extension '.gif'"),
        ("a.png.bak", "unknown output extension '.bak'"),
        ("noextension", "'noextension' has no extension"),
        (".png", "'.png' has no extension"),  # a hidden file's name, not an extension
    ],
)
def test_unknown_extension_names_the_accepted_ones(tmp_path, name, message):
    with pytest.raises(UnknownNameError) as error:
        check_output(tmp_path / name, ACCEPTED)
    assert str(error.value) == f"{message}; accepted: .png, .svg, .dot"
    assert isinstance(error.value, ValueError) and isinstance(error.value, GameGraphError)


def test_missing_folder(tmp_path):
    with pytest.raises(OutputError, match=r"folder .*missing does not exist"):
        check_output(tmp_path / "missing" / "a.png", ACCEPTED)
    assert os.listdir(tmp_path) == []


def test_folder_is_a_file(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="does not exist"):
        check_output(tmp_path / "file" / "a.png", ACCEPTED)


def test_path_that_is_a_directory(tmp_path):
    (tmp_path / "d.png").mkdir()
    with pytest.raises(OutputError, match=r"d\.png: it is a folder"):
        check_output(tmp_path / "d.png", ACCEPTED)
    with pytest.raises(OutputError):
        write_atomic(tmp_path / "d.png", b"data")
    assert os.listdir(tmp_path) == ["d.png"] and os.listdir(tmp_path / "d.png") == []


def test_write_atomic_text_and_bytes(tmp_path):
    text = tmp_path / "t.dot"
    assert write_atomic(text, "digraph { é }") == text
    assert text.read_bytes() == "digraph { é }".encode()
    data = bytes(range(256))
    write_atomic(tmp_path / "b.png", data)
    assert (tmp_path / "b.png").read_bytes() == data
    assert sorted(os.listdir(tmp_path)) == ["b.png", "t.dot"]  # no temporary files
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE(text.stat().st_mode) == 0o666 & ~mask  # not mkstemp's 0o600


def test_write_atomic_overwrites(tmp_path):
    path = tmp_path / "a.svg"
    path.write_text("old, longer content")
    write_atomic(path, "new")
    assert path.read_text() == "new"
    assert os.listdir(tmp_path) == ["a.svg"]


def test_failed_rename_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "a.png"
    path.write_bytes(b"old")

    def no_rename(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(output.os, "replace", no_rename)
    with pytest.raises(OutputError, match=r"cannot write .*a\.png: Permission denied"):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["a.png"]


@pytest.mark.parametrize("failure", [KeyboardInterrupt, MemoryError])
def test_any_interruption_leaves_no_temporary(tmp_path, monkeypatch, failure):
    path = tmp_path / "a.png"
    path.write_bytes(b"old")

    def interrupted(source, target):
        raise failure

    monkeypatch.setattr(output.os, "replace", interrupted)
    with pytest.raises(failure):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["a.png"]


def test_bad_data_leaves_no_temporary(tmp_path):
    with pytest.raises(TypeError):
        write_atomic(tmp_path / "a.png", 12345)
    assert os.listdir(tmp_path) == []


def test_write_atomic_into_a_missing_folder(tmp_path):
    with pytest.raises(OutputError, match="cannot write"):
        write_atomic(tmp_path / "missing" / "a.png", b"x")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "path, error, message",
    [
        ("", OutputError, "cannot write '': the output path is empty"),
        ("a\0b.png", OutputError, "cannot write 'a\\x00b.png': a path cannot hold a NUL"),
        ("\ud800.png", OutputError, "the name cannot be encoded for the filesystem"),
        ("x/" * 2100 + "a.png", OutputError, "the path is 4205 bytes long; at most 4095 work"),
        (" a.png", None, None),  # legal, if unwise
        (12, InvalidArgumentError, "an output path must be a str or os.PathLike, not int"),
    ],
)
def test_hostile_paths(tmp_path, monkeypatch, path, error, message):
    monkeypatch.chdir(tmp_path)
    if error is None:
        assert check_output(path, ACCEPTED) == (Path(path), ".png")
    else:
        with pytest.raises(error) as raised:
            check_output(path, ACCEPTED)
        assert message in str(raised.value)
    assert os.listdir(tmp_path) == []


def test_long_names_are_refused_by_their_folders_limit(tmp_path):
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    fits = tmp_path / ("x" * (limit - 4) + ".png")
    assert check_output(fits, ACCEPTED)[1] == ".png"
    write_atomic(fits, b"x")  # the temporary's name is short, whatever the target's
    assert os.listdir(tmp_path) == [fits.name]
    with pytest.raises(OutputError, match=f"is {limit + 1} bytes long; .* at most {limit}"):
        check_output(tmp_path / ("x" * (limit - 3) + ".png"), ACCEPTED)
    accented = "é" * ((limit - 3) // 2) + ".png"  # fewer letters than the limit, more bytes
    assert len(accented) < limit < len(accented.encode())
    with pytest.raises(OutputError, match=f"is {len(accented.encode())} bytes long"):
        check_output(tmp_path / accented, ACCEPTED)
    with pytest.raises(OutputError, match="File name too long"):  # a folder's name too
        check_output(tmp_path / ("x" * (limit + 1)) / "a.png", ACCEPTED)


def test_temporary_file_is_short_and_in_the_same_folder(tmp_path, monkeypatch):
    seen = []

    def spy(stream, data):
        seen.extend(os.listdir(tmp_path))
        stream.write(data)

    monkeypatch.setattr(output, "_write_payload", spy)
    write_atomic(tmp_path / ("y" * 200 + ".png"), b"x")
    (temporary,) = seen
    assert temporary.startswith(output.TEMPORARY_PREFIX) and temporary.endswith(".tmp")
    assert len(temporary) < 30
    assert os.listdir(tmp_path) == ["y" * 200 + ".png"]


def test_signal_guards_nest_and_restore_the_handlers():
    import signal

    before = {number: signal.getsignal(number) for number in output.GUARDED_SIGNALS}
    with output.cleanup_on_signals():
        inner = signal.getsignal(signal.SIGTERM)
        assert inner is not before[signal.SIGTERM]
        with output.cleanup_on_signals():
            assert signal.getsignal(signal.SIGTERM) is inner  # the outer guard stays
    assert {number: signal.getsignal(number) for number in before} == before


def test_ignored_signals_stay_ignored(tmp_path):
    import signal

    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with output.cleanup_on_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, old)
