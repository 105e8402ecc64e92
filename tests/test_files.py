"""gamegraph._files: check an output path before any work, then write all-or-nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import gamegraph._files as output
from gamegraph._files import check_output, write_atomic
from gamegraph.errors import GameGraphError, OutputError, UnknownNameError

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
    assert stat.S_IMODE(text.stat().st_mode) == 0o644  # not mkstemp's 0o600


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
