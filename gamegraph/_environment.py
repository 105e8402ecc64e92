"""What the process's surroundings can break, said in one line: memory limits, temp folder.

Three things outside gamegraph's input have ended runs in a traceback or a hang:

* **An address-space limit** (``ulimit -v``, ``RLIMIT_AS``). OpenBLAS (numpy's and
  scipy's copies) reserves a buffer of about 32 MB per thread when it is loaded, one
  thread per core. Under a limit those reservations fail, and OpenBLAS retries in a loop
  (minutes on a 64-core machine) or gives up. :func:`cap_blas_threads`, run when
  ``gamegraph`` is imported and so before numpy is, sets ``OPENBLAS_NUM_THREADS`` and
  ``MKL_NUM_THREADS`` to the threads gamegraph's solves use (``GAMEGRAPH_BLAS_THREADS``,
  else 1: :mod:`gamegraph._threads`), only when a limit is set and only where the user has
  not set them. A library that then cannot be loaded (``failed to map segment from shared
  object``) is reported by :func:`load_failure` in one line.
* **No usable temporary folder** (``TMPDIR`` missing or unwritable, ``/tmp`` read-only):
  :func:`no_temporary_folder` turns Python's ``No usable temporary directory found``
  into one line naming ``TMPDIR``.
* **A HOME that cannot be written**: matplotlib then makes a new configuration folder in
  the temporary folder on every start, with two lines of warnings and a rebuilt font
  cache. :func:`settle_matplotlib` points ``MPLCONFIGDIR`` at a private folder instead
  (the command line only, before matplotlib is imported).

Nothing here imports numpy or any other third-party package, and what only a failure
needs (``ast``, ``tempfile``: 15 ms) is imported when it happens: every command starts here.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

#: The environment variables that set how many threads a BLAS library starts with.
BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def address_limit() -> int | None:
    """The soft address-space limit in bytes (``ulimit -v``), or None if there is none."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, AttributeError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY or soft < 0 else soft


def address_room() -> int | None:
    """Bytes of address space the limit still leaves this process (the limit less its
    current size, ``VmSize``), or None if there is no limit (or no way to tell).
    """
    limit = address_limit()
    if limit is None:
        return None
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return max(limit - int(line.split()[1]) * 1024, 0)
    except (OSError, ValueError, IndexError):
        pass
    return None


#: Address space a command needs beyond what the command line holds once started: numpy,
#: scipy and OpenBLAS take about 100 MiB, numba and LLVM about 180 MiB more. With less,
#: OpenBLAS can loop for ever retrying its buffer, so the command line refuses to begin.
START_ROOM = 256 * 2**20
#: Address space numpy and its OpenBLAS (one thread) take, about 85 MiB: needed besides
#: :data:`START_ROOM` when the command line started without numpy (``gamegraph`` imports
#: it where it is used).
NUMPY_ROOM = 96 * 2**20


def too_little_room() -> str | None:
    """One line if an address-space limit leaves less than :data:`START_ROOM` (plus
    :data:`NUMPY_ROOM` if numpy is not loaded yet), else None.
    """
    room = address_room()
    needed = START_ROOM + (0 if "numpy" in sys.modules else NUMPY_ROOM)
    if room is None or room >= needed:
        return None
    return (
        f"{_limit_text(address_limit())} leaves {room // 2**20} MiB; gamegraph needs "
        f"{needed // 2**20} MiB more than it starts with to load numpy, scipy and numba: "
        f"raise the limit"
    )


def cap_blas_threads() -> None:
    """Under an address-space limit, start BLAS with gamegraph's thread count, not one
    thread per core (unless the user set the variables themselves).

    Has an effect only before numpy is first imported.
    """
    if address_limit() is None:
        return
    threads = os.environ.get("GAMEGRAPH_BLAS_THREADS", "").strip()
    threads = threads if threads.isdigit() and 1 <= int(threads) <= 1024 else "1"
    for name in BLAS_VARIABLES:
        if not os.environ.get(name, "").strip():
            os.environ[name] = threads


def _limit_text(limit: int) -> str:
    return f"the address-space limit (ulimit -v {limit // 1024} KiB)"


_LOAD_SIGNS = ("failed to map segment", "cannot allocate memory", "shared object", "memory")


def load_failure(error: BaseException) -> str | None:
    """One line for a library that could not be loaded under an address-space limit, or
    None if ``error`` is not that (no limit, a module that is simply missing, any other
    error).
    """
    limit = address_limit()
    if limit is None:
        return None
    if isinstance(error, (MemoryError, SystemError)):
        # Out of memory while importing, CPython can also fail with "SystemError: error
        # return without exception set" (numpy under ulimit -v 95 MiB).
        return f"ran out of memory under {_limit_text(limit)}; try a smaller game or raise it"
    if isinstance(error, ModuleNotFoundError) or not isinstance(error, (ImportError, OSError)):
        return None
    full = str(error).strip()
    # numpy wraps the loader's message in a page of advice that ends with it
    full = full.rpartition("Original error was:")[2].strip() or full
    text = full.splitlines()[0] if full else type(error).__name__
    known = getattr(error, "errno", None) == errno.ENOMEM
    if isinstance(error, OSError) and not known and getattr(error, "errno", None) is not None:
        return None  # a file error (a disk, a permission), not a library failing to load
    if not known and not any(sign in full.lower() for sign in _LOAD_SIGNS):
        return None
    return f"cannot load a library under {_limit_text(limit)}: {text}; raise the limit"


def leave_out_of_memory(status: int) -> None:
    """End the process at once with ``status``, without tearing the interpreter down, unless
    it is interactive (then return).

    Out of memory under ``ulimit -v``, tearing down needs memory too: every object freed
    would print "Exception ignored ... MemoryError", pages of it after the one line the
    user was given. Call it only after that line was written and flushed.
    """
    if sys.flags.interactive or hasattr(sys, "ps1"):
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a failing stream cannot stop the exit
            pass
    os._exit(status)


def failed_to_start(error: BaseException) -> None:
    """Re-raise ``error`` (raised while ``gamegraph`` was being imported), after making sure
    that, if it is a library failing to load under an address-space limit and nothing
    catches it, the interpreter prints one line instead of a traceback.
    """
    message = load_failure(error)
    if isinstance(error, (MemoryError, SystemError)) and message is not None:
        message = f"cannot start under {_limit_text(address_limit())}: out of memory; raise it"
    if message is not None:
        previous = sys.excepthook

        def one_line(kind, value, traceback):
            if value is error:
                try:
                    sys.stderr.write(f"gamegraph: error: {message}\n")
                    sys.stderr.flush()
                except (AttributeError, OSError, ValueError):
                    pass
                leave_out_of_memory(1)
            else:
                previous(kind, value, traceback)

        sys.excepthook = one_line
    raise error


def no_temporary_folder(error: BaseException) -> str | None:
    """One line for Python's "No usable temporary directory found in [...]", or None."""
    import ast

    reason = getattr(error, "strerror", None)
    if not isinstance(error, OSError) or not isinstance(reason, str):
        return None
    if not reason.startswith("No usable temporary directory"):
        return None
    tmpdir = os.environ.get("TMPDIR")
    shown = "unset" if tmpdir is None else ascii(tmpdir)[1:-1] or "''"
    folders = reason.partition(" found in ")[2]
    try:
        folders = ", ".join(map(str, ast.literal_eval(folders)))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    reason = f"none of {folders} can be written"
    return f"no usable temporary folder (TMPDIR={shown}): {reason}; set TMPDIR to a writable folder"


def settle_matplotlib() -> None:
    """Point ``MPLCONFIGDIR`` at a private folder when matplotlib's own one cannot be
    written (a HOME that is read-only or missing), before matplotlib is imported.
    """
    if "matplotlib" in sys.modules or os.environ.get("MPLCONFIGDIR"):
        return
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    folder = os.path.join(base, "matplotlib")
    try:
        os.makedirs(folder, exist_ok=True)
        if os.access(folder, os.W_OK):
            return
    except OSError:
        pass
    private, _ = private_folder("matplotlib")
    if private:
        os.environ["MPLCONFIGDIR"] = private


def private_folder(kind: str) -> tuple[str, str]:
    """``(<tmp>/gamegraph-<kind>-<uid>, "")`` if that folder is or can be made ours alone,
    else ``("", why not)``.

    Made with mode 0700; an existing one is taken only if it is a real folder (not a
    symbolic link) owned by this user and closed to others: what is cached there runs.
    """
    import tempfile

    uid = os.geteuid() if hasattr(os, "geteuid") else 0
    try:
        folder = os.path.join(tempfile.gettempdir(), f"gamegraph-{kind}-{uid}")
    except OSError:
        return "", "no usable temporary folder"
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        return "", f"cannot make {folder}: {error.strerror or error}"
    try:
        status = os.lstat(folder)
    except OSError as error:
        return "", f"cannot read {folder}: {error.strerror or error}"
    if not stat.S_ISDIR(status.st_mode):
        return "", f"{folder} is not a folder"
    if hasattr(os, "geteuid") and status.st_uid != uid:
        return "", f"{folder} belongs to another user"
    if status.st_mode & 0o077:
        return "", f"{folder} is open to other users"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "", f"{folder} is not writable"
    return folder, ""
