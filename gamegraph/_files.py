"""Writing output files all-or-nothing: check the path first, write a temporary file, rename.

:func:`check_output` refuses a bad output path before any work is done, in one line that
names the path and what is wrong: an empty path, an unknown extension, a name longer than
the filesystem allows, a missing or read-only folder, a folder under ``/proc`` or
``/sys``, a target that is a folder, a device, a FIFO or a socket, or a file that cannot
be written.

:func:`write_atomic` writes through a short-named temporary file in the same folder,
flushes it to disk, gives it the mode of the file it replaces (a new file gets the
default mode of the umask), and renames it into place. The temporary file is removed on
any error, and on SIGTERM, SIGINT or SIGHUP during the write (see :func:`cleanup_on_signals`),
so a failed or interrupted write leaves any earlier file as it was and nothing else.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
import threading
from pathlib import Path

from .errors import InvalidArgumentError, OutputError, UnknownNameError

#: Signals that end the process and during which a write cleans up after itself.
GUARDED_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)
)
#: Prefix and suffix of the temporary file: short, so any name the folder accepts fits.
TEMPORARY_PREFIX, TEMPORARY_SUFFIX = ".gamegraph-", ".tmp"
#: Filesystems that hold no regular files (the kernel's views): never written to.
_PSEUDO_FILESYSTEMS = frozenset(
    "proc sysfs cgroup cgroup2 debugfs tracefs securityfs configfs pstore bpf efivarfs "
    "fusectl devpts mqueue binfmt_misc autofs".split()
)
_PSEUDO_FOLDERS = ("/proc", "/sys")
_SPECIAL_FILES = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def _shown(path) -> str:
    """``path`` as text on one line: quoted when it is empty or holds unprintable
    characters or spaces at either end, its middle elided when it is very long.

    >>> _shown("out/a.png")
    'out/a.png'
    >>> _shown("a\\nb.png")
    "'a\\\\nb.png'"
    >>> _shown("x" * 300 + ".png")
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx.png (304 characters)'
    """
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if len(text) > 100:
        text = f"{text[:40]}...{text[-32:]} ({len(text)} characters)"
    plain = text and text.isprintable() and text.strip() == text
    return text if plain else repr(text)


def _limit(folder, name: str, default: int) -> int:
    try:
        return os.pathconf(folder, name)
    except (OSError, ValueError):
        return default


def _mount_type(real: str) -> str | None:
    """The filesystem type of the mount holding the absolute path ``real``, if known."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as lines:
            mounts = lines.read().splitlines()
    except OSError:
        return None
    best, found = -1, None
    for line in mounts:
        fields, _, rest = line.partition(" - ")
        fields, rest = fields.split(), rest.split()
        if len(fields) < 5 or not rest:
            continue
        point = fields[4].replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\")
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= best:  # the last of equal mounts is the visible one
            best, found = len(point), rest[0]
    return found


def _special(status: os.stat_result) -> str | None:
    """What a non-regular file is (``'a FIFO (named pipe)'``), or None for a regular file."""
    if stat.S_ISDIR(status.st_mode):
        return "a folder"
    for test, what in _SPECIAL_FILES:
        if test(status.st_mode):
            return what
    return None if stat.S_ISREG(status.st_mode) else "not a regular file"


def check_name_length(path) -> None:
    """Refuse (OutputError) a file or folder name longer than its folder allows.

    >>> check_name_length("out.png")
    >>> check_name_length("x" * 256)
    Traceback (most recent call last):
    ...
    gamegraph.errors.OutputError: cannot write xxx...xxx (256 characters): the file name
    is 256 bytes long; this folder allows at most 255
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    longest = _limit(folder, "PC_NAME_MAX", 255)
    size = len(os.fsencode(path.name))
    if size > longest:
        raise OutputError(
            f"cannot write {_shown(path)}: the file name is {size} bytes long; "
            f"this folder allows at most {longest}"
        )


def check_output(path, accepted: tuple[str, ...]) -> tuple[Path, str]:
    """Validate an output path before any work is done; return it with its extension.

    Raises UnknownNameError for a missing extension or one not in ``accepted``, and
    OutputError (one line naming the path and what is wrong) for an empty path, a name
    too long for the filesystem, a missing or read-only folder, a folder under ``/proc``
    or ``/sys``, a target that is a folder, a device, a FIFO or a socket, and a file that
    is not writable. Nothing is written.

    >>> check_output("picture.png", (".png", ".svg"))[1]
    '.png'
    >>> check_output("picture.gif", (".png", ".svg"))
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown output extension '.gif'; accepted: .png, .svg
    >>> check_output("", (".png",))
    Traceback (most recent call last):
    ...
    gamegraph.errors.OutputError: cannot write '': the output path is empty
    >>> check_output("/dev/null", (".png",))  # no extension, and a device anyway
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: 'null' has no extension; accepted: .png
    >>> check_output("x" * 300 + ".png", (".png",))
    Traceback (most recent call last):
    ...
    gamegraph.errors.OutputError: cannot write xxx...xxx.png (304 characters): the file name
    is 304 bytes long; this folder allows at most 255
    """
    try:
        raw = os.fspath(path)
    except TypeError:
        raise InvalidArgumentError(
            f"an output path must be a str or os.PathLike, not {type(path).__name__}"
        ) from None
    shown = _shown(raw)

    def fail(why):
        raise OutputError(f"cannot write {shown}: {why}")

    if not raw:
        fail("the output path is empty")
    if "\0" in (raw if isinstance(raw, str) else os.fsdecode(raw)):
        fail("a path cannot hold a NUL character")
    try:
        os.fsencode(raw)
    except UnicodeError:
        fail("the name cannot be encoded for the filesystem")
    path = Path(os.fsdecode(raw))
    extension = path.suffix.lower()
    if not extension:
        error = UnknownNameError("output extension", "", accepted)
        error.args = (f"{path.name!r} has no extension; accepted: {', '.join(accepted)}",)
        raise error
    if extension not in accepted:
        raise UnknownNameError("output extension", extension, accepted)
    folder = path.parent if str(path.parent) else Path(".")
    longest_path = _limit("/", "PC_PATH_MAX", 4096)
    if len(os.fsencode(raw)) >= longest_path:
        fail(f"the path is {len(os.fsencode(raw))} bytes long; at most {longest_path - 1} work")
    try:
        folder_status = os.stat(folder)
    except (FileNotFoundError, NotADirectoryError):
        fail(f"folder {_shown(folder)} does not exist")
    except OSError as error:
        fail(f"folder {_shown(folder)}: {error.strerror or 'cannot be examined'}")
    if not stat.S_ISDIR(folder_status.st_mode):
        what = _special(folder_status) or "a file"
        fail(f"folder {_shown(folder)} does not exist (it is {what})")
    real = os.path.realpath(folder)
    kind = _mount_type(real)
    if kind in _PSEUDO_FILESYSTEMS or any(
        real == top or real.startswith(top + "/") for top in _PSEUDO_FOLDERS
    ):
        fail(f"{real} is on the kernel's {kind or 'pseudo'} filesystem, not a place for files")
    check_name_length(path)
    if not os.access(folder, os.W_OK | os.X_OK):
        fail(f"folder {_shown(folder)} is not writable")
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return path, extension
    except OSError as error:
        fail(error.strerror or "it cannot be examined")
    what = _special(status)
    if what is not None:  # never replaced: a device, a FIFO, a socket, a folder
        fail(f"it is {what}")
    if not os.access(path, os.W_OK):
        fail("the file exists and is not writable (permission denied)")
    return path, extension


# ---- signals ------------------------------------------------------------------------
class _Signalled(BaseException):
    """Raised inside :func:`cleanup_on_signals` when a terminating signal arrives."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


_guard = threading.local()


@contextlib.contextmanager
def cleanup_on_signals():
    """Run a block so that SIGTERM, SIGINT and SIGHUP let its cleanup run first.

    While the block runs (in the main thread), these signals raise an exception inside it,
    so its ``except BaseException`` / ``finally`` clauses remove what it half-wrote. When
    the block has unwound, the previous handlers are back and the signal is delivered
    again: the process ends as the signal would have ended it (SIGINT raises
    KeyboardInterrupt as usual). Blocks nest (the outermost one delivers the signal);
    outside the main thread, and for a signal that is ignored, nothing changes.

    >>> with cleanup_on_signals():
    ...     pass
    >>> signal.getsignal(signal.SIGINT) is signal.default_int_handler
    True
    """
    nested = getattr(_guard, "active", False)
    if nested or threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    closing = False

    def handler(signum, frame):
        received.append(signum)
        if len(received) == 1 and not closing:
            raise _Signalled(signum)

    previous = {}
    _guard.active = True
    try:
        for number in GUARDED_SIGNALS:
            old = signal.getsignal(number)
            if old is None or old is signal.SIG_IGN:
                continue  # installed outside Python, or ignored: leave it alone
            previous[number] = old
            signal.signal(number, handler)
        yield
    except _Signalled:
        pass
    finally:
        closing = True
        for number, old in previous.items():
            signal.signal(number, old)
        _guard.active = False
    if received:
        number = received[0]
        signal.raise_signal(number)  # ends the process, or runs the previous handler
        name = signal.Signals(number).name
        raise OutputError(f"the write was interrupted by {name}; nothing was written")


# ---- writing ------------------------------------------------------------------------
def _default_mode() -> int:
    """The mode a new file gets: ``0o666`` less the process's umask."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # no other way to read it; put it straight back
    os.umask(mask)
    return 0o666 & ~mask


def _write_payload(stream, data: bytes) -> None:
    """Write ``data`` to the open temporary file (a seam for the tests: a slow write)."""
    stream.write(data)


def write_atomic(path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename.

    The temporary file is flushed to disk before the rename and takes the mode of the file
    it replaces (the umask's default for a new file). On any error, and on SIGTERM, SIGINT
    or SIGHUP during the write, it is removed and an earlier file at ``path`` is left as it
    was. A folder, device, FIFO or socket at ``path`` is never replaced (OutputError).

    >>> import tempfile, os
    >>> target = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> write_atomic(target, "hello").read_text()
    'hello'
    >>> write_atomic("/dev/null", b"")
    Traceback (most recent call last):
    ...
    gamegraph.errors.OutputError: cannot write /dev/null: it is a character device
    """
    path = Path(path)
    if path.is_symlink():  # write where check_output looked: the link's target (it stays a link)
        path = Path(os.path.realpath(path))
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = path.parent if str(path.parent) else Path(".")

    def fail(why):
        raise OutputError(f"cannot write {_shown(path)}: {why}") from None

    try:
        old = os.stat(path)
    except (OSError, ValueError):
        old = None
    if old is not None and _special(old) is not None:
        fail(f"it is {_special(old)}")
    with cleanup_on_signals():
        temporary = None
        try:
            handle, temporary = tempfile.mkstemp(
                dir=folder, prefix=TEMPORARY_PREFIX, suffix=TEMPORARY_SUFFIX
            )
            with open(handle, "wb") as stream:
                if old is not None:
                    with contextlib.suppress(OSError):  # keep the group where allowed
                        if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                            os.fchown(handle, old.st_uid, old.st_gid)
                os.fchmod(handle, stat.S_IMODE(old.st_mode) if old else _default_mode())
                _write_payload(stream, data)
                stream.flush()
                os.fsync(handle)
            os.replace(temporary, path)
            temporary = None
        except OSError as error:
            fail(error.strerror or str(error))
        finally:
            if temporary is not None:  # any failure, Ctrl-C, SIGTERM: no temporary left
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
    with contextlib.suppress(OSError):  # make the rename itself durable, where possible
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    return path
