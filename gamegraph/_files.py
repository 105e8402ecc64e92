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

:func:`open_partial` is the same writer for a file made over a long job (a solved table):
it is written in place beside its target, as ``FILE.partial``, so that an interrupted
job can go on from it, and renamed over the target when done (:class:`PartialOutput`).
It takes the same care: the names, the file-size limit and the room on the disk are
checked before any work, the ``.partial`` file is never a link, a FIFO or a device, a
lock keeps two jobs off one file, and the target keeps its mode and its links.
"""

from __future__ import annotations

import contextlib
import errno
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
    path = _through_link(Path(path))
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
                _take_mode(handle, old)
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
    _sync_folder(folder)
    return path


def _through_link(path: Path) -> Path:
    """Where a write to ``path`` goes: the target of a symbolic link there (the link stays,
    and check_output looked there too), else ``path`` itself.
    """
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _take_mode(handle: int, old: os.stat_result | None) -> None:
    """Give the open file ``handle`` the mode (and owner, where allowed) of the file ``old``
    it replaces, or the umask's default mode for a new file.
    """
    if old is not None:
        with contextlib.suppress(OSError):  # keep the group where allowed
            if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                os.fchown(handle, old.st_uid, old.st_gid)
    os.fchmod(handle, stat.S_IMODE(old.st_mode) if old else _default_mode())


def _sync_folder(folder) -> None:
    """Make a rename in ``folder`` durable, where the system allows it."""
    with contextlib.suppress(OSError):
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


# ---- a file made over a long job: FILE.partial, renamed over FILE when done ---------------
#: What is added to a target's name while it is made (:func:`open_partial`).
PARTIAL_SUFFIX = ".partial"
#: Errors of posix_fallocate that mean only that the filesystem cannot reserve room.
_NO_FALLOCATE = (errno.EOPNOTSUPP, errno.EINVAL, errno.ENODEV, errno.ENOSYS)
_OPEN_FLAGS = (
    os.O_RDWR
    | getattr(os, "O_NOFOLLOW", 0)
    | os.O_NONBLOCK  # a FIFO put there after the check does not block the open
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def check_partial_name(path, suffix: str = PARTIAL_SUFFIX) -> Path:
    """Refuse (OutputError) a target whose name fits its folder only without ``suffix``;
    return the path of its partial file (next to a symbolic link's target).

    >>> check_partial_name("table.npy").name
    'table.npy.partial'
    >>> check_partial_name("x" * 248 + ".npy")
    Traceback (most recent call last):
    ...
    gamegraph.errors.OutputError: cannot write xxx...xxx.npy (252 characters): the file name
    is 252 bytes long, 260 with '.partial' while it is made; this folder allows at most 255
    """
    target = _through_link(Path(path))
    folder = target.parent if str(target.parent) else Path(".")
    longest = _limit(folder, "PC_NAME_MAX", 255)
    size = len(os.fsencode(target.name))
    if size + len(os.fsencode(suffix)) > longest:
        raise OutputError(
            f"cannot write {_shown(path)}: the file name is {size} bytes long, "
            f"{size + len(os.fsencode(suffix))} with {suffix!r} while it is made; "
            f"this folder allows at most {longest}"
        )
    return target.with_name(target.name + suffix)


def _check_size_limit(path, size: int) -> None:
    """Refuse (OutputError) a file of ``size`` bytes larger than ``ulimit -f`` allows."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft != resource.RLIM_INFINITY and size > soft:
        raise OutputError(
            f"cannot write {_shown(path)}: it needs {size:,} bytes, more than the "
            f"file-size limit of this process ({soft:,} bytes, ulimit -f)"
        )


class PartialOutput:
    """A file written in place, beside its target, over a long job, then renamed over it.

    Made by :func:`open_partial`, which holds its lock until :meth:`commit` or
    :meth:`close`. ``created`` says whether this job made the file (or started it
    afresh, :meth:`reserve`); a write that fails removes such a file, while one left by
    an earlier job is kept for it to go on from.

    Attributes
    ----------
    path : Path
        The partial file (the target's name and the suffix).
    target : Path
        Where :meth:`commit` puts it (a symbolic link's target: the link stays).
    handle : int
        The open, locked file.
    """

    def __init__(self, path: Path, target: Path, handle: int, created: bool):
        self.path, self.target, self.handle, self.created = path, target, handle, created

    def _fault(self, error: OSError):
        """Turn a failed write into one line; remove the file if this job made it."""
        removed = self.created
        self.close(remove=removed)
        left = "nothing was left behind" if removed else "the file is kept to go on from"
        why = error.strerror or str(error)
        raise OutputError(f"cannot write {_shown(self.path)}: {why}; {left}") from None

    def size(self) -> int:
        return os.fstat(self.handle).st_size

    def read(self, count: int, offset: int) -> bytes:
        return os.pread(self.handle, count, offset)

    def read_into(self, buffer, offset: int) -> int:
        """Fill ``buffer`` from ``offset``; the bytes read (fewer if the file ends first)."""
        view, done = memoryview(buffer).cast("B"), 0
        while done < len(view):
            got = os.preadv(self.handle, [view[done:]], offset + done)
            if not got:
                break
            done += got
        return done

    def write(self, data, offset: int) -> None:
        """Write ``data`` at ``offset``; a fault (disk full, ...) is an OutputError."""
        view = memoryview(data).cast("B")
        try:
            while len(view):
                done = os.pwrite(self.handle, view, offset)
                view, offset = view[done:], offset + done
        except OSError as error:
            self._fault(error)

    def sync(self) -> None:
        try:
            os.fsync(self.handle)
        except OSError as error:
            self._fault(error)

    def reserve(self, size: int, *, afresh: bool = False) -> None:
        """Make the file ``size`` bytes long with its room taken on the disk now, so that
        a full disk is found before the job, not in its middle. ``afresh`` empties it first
        (and the job owns it from then on).
        """
        try:
            if afresh:
                os.ftruncate(self.handle, 0)
                self.created = True
            try:
                os.posix_fallocate(self.handle, 0, size)
            except OSError as error:
                if error.errno not in _NO_FALLOCATE:
                    raise
                self._check_room(size)
            if self.size() != size:
                os.ftruncate(self.handle, size)
        except OSError as error:
            self._fault(error)

    def _check_room(self, size: int) -> None:
        """Where room cannot be reserved, at least compare the size with the free space."""
        try:
            disk = os.fstatvfs(self.handle)
        except OSError:
            return
        free = disk.f_bavail * disk.f_frsize + os.fstat(self.handle).st_blocks * 512
        if size > free:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def commit(self) -> Path:
        """Give the file the mode of the target it replaces, rename it over the target and
        release the lock. A folder, device, FIFO or socket at the target is not replaced.
        """
        try:
            old = os.stat(self.target)
        except (OSError, ValueError):
            old = None
        if old is not None and _special(old) is not None:
            self.close()
            raise OutputError(f"cannot write {_shown(self.target)}: it is {_special(old)}")
        try:
            _take_mode(self.handle, old)
            os.fsync(self.handle)
            os.replace(self.path, self.target)
        except OSError as error:
            self._fault(error)
        self.close()  # after the rename: no other job can lock the old file meanwhile
        _sync_folder(self.target.parent)
        return self.target

    def close(self, remove: bool = False) -> None:
        """Release the lock and close the file; ``remove`` deletes it first."""
        if self.handle < 0:
            return
        if remove:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        os.close(self.handle)
        self.handle = -1


def open_partial(target, size: int, *, suffix: str = PARTIAL_SUFFIX) -> PartialOutput:
    """Open (or create) the partial file of ``target`` for a job that writes ``size`` bytes,
    holding its lock.

    Checked first, in one line each (OutputError): a name that fits only without
    ``suffix``, a size over the file-size limit (``ulimit -f``), a symbolic link, a
    folder, FIFO, device or socket at the partial file (never opened through, never
    replaced), and a partial file another job holds the lock of. Nothing is reserved or
    written yet: see :meth:`PartialOutput.reserve`.
    """
    path = check_partial_name(target, suffix)
    _check_size_limit(target, size)
    resolved = path.with_name(path.name[: -len(suffix)])
    for _ in range(10):  # another job may rename the file between our open and our lock
        partial = _open_locked(path, resolved)
        if partial is not None:
            return partial
    raise OutputError(f"cannot write {_shown(path)}: other jobs keep replacing it")


def _open_locked(path: Path, target: Path) -> PartialOutput | None:
    """The locked partial file at ``path`` (of ``target``), or None if it was renamed away
    meanwhile.
    """
    import fcntl

    def fail(why):
        raise OutputError(f"cannot write {_shown(path)}: {why}") from None

    try:
        status = os.lstat(path)
    except FileNotFoundError:
        status = None
    except OSError as error:
        fail(error.strerror or "it cannot be examined")
    if status is not None and stat.S_ISLNK(status.st_mode):
        fail("it is a symbolic link; a table being made is never written through a link "
             "(remove the link)")  # fmt: skip
    if status is not None and _special(status) is not None:
        fail(f"it is {_special(status)}; remove it or save to another name")
    created = status is None
    try:
        handle = os.open(path, _OPEN_FLAGS | (os.O_CREAT | os.O_EXCL if created else 0), 0o666)
    except FileExistsError:
        return None  # made by another job just now: look again
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            fail("it is a symbolic link; a table being made is never written through a link")
        fail(error.strerror or str(error))
    partial = PartialOutput(path, target, handle, created)
    try:
        opened = os.fstat(handle)
        if _special(opened) is not None:  # swapped in after the check
            fail(f"it is {_special(opened)}; remove it or save to another name")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fail("another solve is writing it (it holds the file's lock); wait for it to end "
                 "or save to another name")  # fmt: skip
        except OSError as error:
            if error.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
                raise
        try:
            now = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            now = None
        if now is None or (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino):
            partial.close()  # renamed over its target by the job that held it: start again
            return None
    except BaseException:
        partial.close()
        raise
    return partial
