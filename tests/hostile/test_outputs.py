"""Hostile output paths and interrupted writes (issue 11, cases 1, 2, 6, 12 and part of 13).

Every bad path is refused before any work, in one line, with exit status 2; nothing is
written, no device or FIFO is replaced, a file keeps its mode, and a write killed by a
signal leaves no temporary file.
"""

from __future__ import annotations

import importlib
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from cli_run import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pages import PNG

import gamegraph._files as files
from gamegraph._files import check_output, cleanup_on_signals, write_atomic
from gamegraph.errors import GameGraphError, OutputError, UnknownNameError
from gamegraph.games.ur.code_table import load_table
from gamegraph.renderers.report import Report

GAMEGRAPH = Path(sys.executable).with_name("gamegraph")
LONG = "x" * 252  # with its extension, one byte or more past the usual 255


def listing(folder) -> list[str]:
    return sorted(os.listdir(folder))


def one_error_line(status, out, err, *fragments):
    """Exit status 2, nothing on stdout, one ``gamegraph: error:`` line naming the cause."""
    assert status == 2, err
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("gamegraph: error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


def _every_module():
    """Every gamegraph module, imported (so that none is first imported while a test has
    replaced a function, and keeps the stand-in for the rest of the session)."""
    import pkgutil

    import gamegraph

    for info in pkgutil.walk_packages(gamegraph.__path__, "gamegraph."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    return [m for name, m in list(sys.modules.items()) if name.startswith("gamegraph") and m]


#: The functions that start work: building a graph, solving one, solving Ur by blocks.
WORK = [
    ("gamegraph.build", "build"),
    ("gamegraph.batch", "build_batch"),
    ("gamegraph.solve", "solve"),
    ("gamegraph.solve", "evaluate"),
    ("gamegraph.games.ur.block_solver", "solve_blocks"),
]


@pytest.fixture
def no_work(monkeypatch):
    """Building or solving anything fails the test: bad paths must be refused first. Every
    module's name for each function of :data:`WORK` is replaced, wherever it was imported.
    """

    def work(*args, **kwargs):
        raise AssertionError("the command started working before checking its output path")

    modules = _every_module()
    real = {id(getattr(sys.modules[module], name)) for module, name in WORK}
    for module in modules:
        for name, value in list(vars(module).items()):
            if id(value) in real:
                monkeypatch.setattr(module, name, work)


@pytest.mark.parametrize(
    "argv",
    [["ur", "graph", "-o", "x.svg"], ["ur", "solve", "--pieces", "1"], ["jackpot", "analyse"]],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_no_work_stops_a_command_that_starts_working(argv, tmp_path, monkeypatch, capsys, no_work):
    """The fixture the path tests rely on can fail: a command with a good path that goes
    on to build or solve is stopped by it."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AssertionError, match="started working"):
        run(argv, capsys)


# ---- case 2: a 252-character -o name ------------------------------------------------
DRAWING = [
    ["jackpot", "graph", "-o", f"{LONG}.svg"],
    ["jackpot", "layers", "-o", f"{LONG}.png"],
    ["supersix", "map", "-o", f"{LONG}.png"],
    ["supersix", "heatmap", "-o", f"{LONG}.html"],
    ["ur", "board", "4/6", "-o", f"{LONG}.png"],
    ["ur", "graph", "-o", f"{LONG}.svg"],
    ["ur", "heatmap", "--solve", "-o", f"{LONG}.png"],
    # and every other command that writes a file
    ["jackpot", "explore", "-o", f"{LONG}.html"],
    ["ur", "report", "-o", f"{LONG}.html"],
    ["supersix", "report", "-o", f"{LONG}.md"],  # its images folder is longer still
    ["supersix", "lp", "-o", f"{LONG}.png"],
    ["supersix", "solve", "-o", f"{LONG}.json"],
    ["ur", "solve", "--save", f"{LONG}.urtable"],
]


@pytest.mark.parametrize("argv", DRAWING, ids=lambda argv: " ".join(argv[:2]))
def test_long_output_name_is_one_line_before_any_work(argv, tmp_path, monkeypatch, capsys, no_work):
    monkeypatch.chdir(tmp_path)
    started = time.perf_counter()
    status, out, err = run(argv, capsys)
    seconds = time.perf_counter() - started
    one_error_line(status, out, err, "cannot write", "bytes long", "allows at most 255")
    assert seconds < 5  # imports only: no graph is built (no_work), nothing drawn
    assert listing(tmp_path) == []


# ---- case 1: ur solve --save checks its path before the solve ------------------------
@pytest.mark.parametrize(
    "target, fragments",
    [
        ("", ["cannot write '': the output path is empty"]),
        ("/proc/x.urtable", ["/proc/x.urtable", "kernel's proc filesystem"]),
        ("/sys/x.urtable", ["/sys/x.urtable", "kernel's sysfs filesystem"]),
        ("missing/t.urtable", ["folder missing does not exist"]),
        (f"{LONG}.urtable", ["the file name is 260 bytes long"]),
        ("table.json", ["unknown output extension '.json'; accepted: .urtable"]),
        ("table", ["'table' has no extension; accepted: .urtable"]),
        ("a\nb/t.urtable", ["folder 'a\\nb' does not exist"]),  # still one line
    ],
)
def test_ur_solve_save_is_checked_before_solving(
    target, fragments, tmp_path, monkeypatch, capsys, no_work
):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(["ur", "solve", "--pieces", "1", "--save", target], capsys)
    one_error_line(status, out, err, *fragments)
    assert listing(tmp_path) == []


def test_unwritable_folder_is_refused_before_solving(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    argv = ["ur", "solve", "--pieces", "1", "--save", str(folder / "t.urtable")]
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            status, out, err = run(argv, capsys)
        finally:
            folder.chmod(0o700)
    else:  # root writes anywhere: make the folder read-only in a private mount namespace
        if shutil.which("unshare") is None or shutil.which("mount") is None:
            pytest.skip("running as root, and unshare/mount are not available")
        script = 'mount --bind -o ro "$1" "$1" || exit 99; shift; exec "$@"'
        process = subprocess.run(
            ["unshare", "-m", "sh", "-c", script, "sh", str(folder), str(GAMEGRAPH), *argv],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if process.returncode == 99 or "unshare" in process.stderr:
            pytest.skip("running as root, and a read-only bind mount is not allowed here")
        status, out, err = process.returncode, process.stdout, process.stderr
    one_error_line(status, out, err, f"folder {folder} is not writable")
    assert listing(folder) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_read_only_existing_file_is_refused(tmp_path, capsys, no_work):
    target = tmp_path / "t.urtable"
    target.write_bytes(b"mine")
    target.chmod(0o400)
    status, out, err = run(["ur", "solve", "--pieces", "1", "--save", target], capsys)
    one_error_line(status, out, err, "exists and is not writable")
    assert target.read_bytes() == b"mine"


# ---- case 6: devices, FIFOs and sockets are never replaced --------------------------
def test_fifo_is_refused_and_kept(tmp_path, capsys, no_work):
    fifo = tmp_path / "t.urtable"
    os.mkfifo(fifo)
    status, out, err = run(["ur", "solve", "--pieces", "1", "--save", fifo], capsys)
    one_error_line(status, out, err, f"cannot write {fifo}: it is a FIFO (named pipe)")
    with pytest.raises(OutputError, match="it is a FIFO"):
        write_atomic(fifo, b"x")  # refused without opening it (which would block)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and listing(tmp_path) == ["t.urtable"]


def test_dev_null_is_never_replaced(tmp_path, capsys, no_work):
    link = tmp_path / "null.urtable"  # /dev/null under an accepted extension
    link.symlink_to("/dev/null")
    with pytest.raises(OutputError, match="it is a character device"):
        check_output(link, (".urtable",))
    status, out, err = run(["ur", "solve", "--pieces", "1", "--save", link], capsys)
    one_error_line(status, out, err, "it is a character device")
    with pytest.raises(OutputError, match="cannot write /dev/null: it is a character device"):
        write_atomic("/dev/null", b"x")
    with pytest.raises(OutputError, match="it is a character device"):
        write_atomic(link, b"x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert os.path.islink(link) and os.readlink(link) == "/dev/null"
    assert listing(tmp_path) == ["null.urtable"]


def test_socket_and_folder_are_refused(tmp_path):
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "s.png"))
        with pytest.raises(OutputError, match=r"s\.png: it is a socket"):
            check_output(tmp_path / "s.png", (".png",))
        with pytest.raises(OutputError, match="it is a socket"):
            write_atomic(tmp_path / "s.png", b"x")
    finally:
        server.close()
    (tmp_path / "d.png").mkdir()
    with pytest.raises(OutputError, match=r"d\.png: it is a folder"):
        check_output(tmp_path / "d.png", (".png",))
    assert listing(tmp_path) == ["d.png", "s.png"]


# ---- case 13: modes, and lp -o '' ---------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["supersix", "lp", "--pegs", "4", "-o", ""],
        ["supersix", "solve", "--pegs", "4", "-o", ""],
        ["jackpot", "graph", "-o", ""],
        ["ur", "board", "4/6", "-o", ""],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_empty_output_path_is_refused(argv, tmp_path, monkeypatch, capsys, no_work):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(argv, capsys)
    one_error_line(status, out, err, "cannot write '': the output path is empty")
    assert listing(tmp_path) == []


def test_a_replaced_file_keeps_its_mode(tmp_path, capsys):
    table = tmp_path / "t.urtable"
    table.write_bytes(b"old")
    table.chmod(0o600)
    status, _, err = run(["ur", "solve", "--pieces", "1", "--save", table], capsys)
    assert status == 0, err
    assert stat.S_IMODE(table.stat().st_mode) == 0o600
    assert load_table(table).ruleset.pieces == 1  # the new table, with the old mode
    assert listing(tmp_path) == ["t.urtable"]
    for mode in (0o640, 0o604, 0o755):
        table.chmod(mode)
        write_atomic(table, b"data")
        assert stat.S_IMODE(table.stat().st_mode) == mode and table.read_bytes() == b"data"


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_new_files_take_the_umask(tmp_path, mask):
    old = os.umask(mask)
    try:
        write_atomic(tmp_path / "new.png", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.png").stat().st_mode) == 0o666 & ~mask


# ---- case 12: signals during a write ------------------------------------------------
CHILD = r"""
import sys, time
import gamegraph._files as files

def slow(stream, data):
    for start in range(0, len(data), 4096):
        stream.write(data[start : start + 4096])
        stream.flush()
        if start == 0:
            print("writing", flush=True)
        time.sleep(0.002)

files._write_payload = slow
try:
    files.write_atomic(sys.argv[1], b"new" * 1_000_000)
except KeyboardInterrupt:
    sys.exit(130)
print("finished", flush=True)
"""


@pytest.mark.parametrize(
    "number, status",
    [(signal.SIGTERM, -signal.SIGTERM), (signal.SIGHUP, -signal.SIGHUP), (signal.SIGINT, 130)],
    ids=["SIGTERM", "SIGHUP", "SIGINT"],
)
def test_signal_during_a_write_leaves_no_temporary(tmp_path, number, status):
    target = tmp_path / "t.urtable"
    target.write_bytes(b"old")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(target)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "writing\n"
        temporaries = [n for n in listing(tmp_path) if n.endswith(files.TEMPORARY_SUFFIX)]
        assert len(temporaries) == 1  # the write is under way
        child.send_signal(number)
        child.wait(timeout=20)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == status, child.stderr.read()
    assert "finished" not in child.stdout.read()
    assert listing(tmp_path) == ["t.urtable"] and target.read_bytes() == b"old"


@pytest.fixture
def recorded_sigterm():
    """A Python SIGTERM handler that only records, so the test process survives."""
    seen = []
    old = signal.signal(signal.SIGTERM, lambda number, frame: seen.append(number))
    yield seen
    signal.signal(signal.SIGTERM, old)


def test_handler_removes_the_temporary_then_passes_the_signal_on(
    tmp_path, monkeypatch, recorded_sigterm
):
    handler = signal.getsignal(signal.SIGTERM)
    target = tmp_path / "a.png"
    target.write_bytes(b"old")

    def interrupted(stream, data):
        stream.write(data[:3])
        assert len(listing(tmp_path)) == 2  # the temporary is there
        signal.raise_signal(signal.SIGTERM)
        raise AssertionError("the signal did not stop the write")

    monkeypatch.setattr(files, "_write_payload", interrupted)
    with pytest.raises(OutputError, match="interrupted by SIGTERM; nothing was written"):
        write_atomic(target, b"new data")
    assert recorded_sigterm == [signal.SIGTERM]  # delivered to the previous handler, once
    assert signal.getsignal(signal.SIGTERM) is handler  # and that handler is back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert listing(tmp_path) == ["a.png"] and target.read_bytes() == b"old"


def test_sigint_during_a_write_is_a_keyboard_interrupt(tmp_path, monkeypatch):
    def interrupted(stream, data):
        stream.write(data)
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(files, "_write_payload", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "a.png", b"new")
    assert listing(tmp_path) == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class Image:
    """A figure that saves a small PNG."""

    def save(self, path):
        Path(path).write_bytes(PNG + b"image")


def test_signal_during_a_markdown_report_removes_every_file(
    tmp_path, monkeypatch, recorded_sigterm
):
    report = Report("two").figure(Image(), name="a").figure(Image(), name="b")
    real, writes = files._write_payload, []

    def interrupted(stream, data):
        real(stream, data)
        writes.append(data)
        if data.startswith(b"# two"):  # the .md itself, after every image
            signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(files, "_write_payload", interrupted)
    with pytest.raises(OutputError, match="interrupted by SIGTERM"):
        report.save(tmp_path / "r.md")
    assert recorded_sigterm == [signal.SIGTERM] and len(writes) >= 3
    assert writes[-1].startswith(b"# two")
    assert listing(tmp_path) == []  # the images folder it made is gone too


def test_signals_are_left_alone_outside_the_main_thread(tmp_path):
    seen = []

    def write():
        with cleanup_on_signals():
            seen.append(signal.getsignal(signal.SIGTERM))
        write_atomic(tmp_path / "a.png", b"x")

    worker = threading.Thread(target=write)
    worker.start()
    worker.join(10)
    assert seen == [signal.getsignal(signal.SIGTERM)]
    assert (tmp_path / "a.png").read_bytes() == b"x"


# ---- any name at all ----------------------------------------------------------------
SCRATCH = tempfile.mkdtemp(prefix="gamegraph-names-")
names = st.one_of(
    st.text(),
    st.builds(
        lambda stem, end: stem + end,
        st.text(max_size=300),
        st.sampled_from([".png", ".PNG", ".urtable", "/a.png", ".md", ""]),
    ),
    st.builds(lambda stem: stem + b".png", st.binary(max_size=300)),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=names)
def test_any_name_is_accepted_or_refused_with_a_gamegraph_error(name):
    before = os.getcwd()
    os.chdir(SCRATCH)
    try:
        try:
            path, extension = check_output(name, (".png", ".urtable", ".md"))
        except GameGraphError as error:
            assert isinstance(error, (OutputError, UnknownNameError))
            assert "\n" not in str(error)
        else:
            assert extension in (".png", ".urtable", ".md") and isinstance(path, Path)
    finally:
        os.chdir(before)
    assert os.listdir(SCRATCH) == []  # checking writes nothing


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    from gamegraph._files import write_atomic

    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


@pytest.mark.parametrize("where", ["", "file", "device"])
def test_the_gallery_refuses_a_bad_folder_before_any_work(tmp_path, capsys, monkeypatch, where):
    import gamegraph.gallery as gallery

    def never(*_):
        raise AssertionError("the gallery started its work")

    monkeypatch.setattr(gallery, "jackpot_section", never)
    monkeypatch.chdir(tmp_path)
    if where == "file":
        (tmp_path / "file").write_text("x")
        folder = "file"
    elif where == "device":
        (tmp_path / "g").mkdir()
        (tmp_path / "g" / "index.html").symlink_to("/dev/null")
        folder = "g"
    else:
        folder = ""
    status, _, err = run(["gallery", folder], capsys)
    assert status == 2 and len(err.splitlines()) == 1 and "gamegraph: error:" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        {"": [], "file": ["file"], "device": ["g"]}[where]
    )
