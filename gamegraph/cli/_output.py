"""Standard output and standard error that end quietly, as Unix tools do.

``gamegraph ... | head -1``, ``gamegraph ... >&-`` and ``gamegraph ... >/dev/full`` must not
end in a traceback. The command line therefore writes through :class:`Output`, which turns a
failed write or flush of standard output into :class:`StdoutFailed`; ``main`` catches it and
ends:

- the reader went away (``EPIPE``): silently, with status 1 (what Python's documentation
  advises; ``head`` has what it asked for, and under ``set -o pipefail`` the pipeline still
  says that not everything was read);
- anything else (``ENOSPC`` for ``/dev/full``, ``EBADF`` for a closed stdout, ``EIO``): one
  line ``gamegraph: error: cannot write to standard output: <reason>`` and status 1 (the
  input was fine, so not 2).

A stdout closed from the start is refused before any work (after the arguments are
checked, so a bad argument still gives its own message and status 2): the command could
not report what it did. A write that fails later (a full disk, a reader that went away)
stops the command at that write; files it wrote before are complete (they are written
atomically), and the file being written when it stopped is not left behind.

Standard error is wrapped in :class:`Forgiving`, which drops what cannot be written: a closed
or full stderr never stops a command. Closed descriptors 0, 1 and 2 are first filled with
``/dev/null`` (:func:`occupy_closed_descriptors`), so a file the command opens never lands
on descriptor 1 or 2, where a library writing to "stdout" or "stderr" would corrupt it.
"""

from __future__ import annotations

import errno
import os

#: The exit status when the reader of standard output went away.
BROKEN_PIPE_STATUS = 1
#: The exit status when standard output cannot be written (full disk, closed, I/O error).
WRITE_ERROR_STATUS = 1


class StdoutFailed(Exception):
    """Standard output could not take what was written.

    Not an ``OSError``, so that no handler meant for a file path mistakes it for one.

    >>> StdoutFailed(errno.ENOSPC).reason
    'No space left on device'
    >>> StdoutFailed(errno.EPIPE).broken_pipe
    True
    """

    def __init__(self, code: int | None):
        self.errno = code
        self.reason = os.strerror(code) if code else "I/O error"
        super().__init__(self.reason)

    @property
    def broken_pipe(self) -> bool:
        return self.errno == errno.EPIPE

    @property
    def message(self) -> str:
        return f"gamegraph: error: cannot write to standard output: {self.reason}\n"


def _failure(error: Exception) -> StdoutFailed:
    if isinstance(error, OSError):
        return StdoutFailed(error.errno)
    return StdoutFailed(errno.EBADF)  # ValueError: I/O operation on a closed file


class Output:
    """The command's output stream: a failed write or flush raises :class:`StdoutFailed`.

    ``stream`` None stands for a closed standard output.

    >>> import io
    >>> out = Output(io.StringIO())
    >>> out.write("fine\\n")
    5
    >>> Output(None).write("lost")
    Traceback (most recent call last):
    ...
    gamegraph.cli._output.StdoutFailed: Bad file descriptor
    """

    def __init__(self, stream):
        self._stream = stream

    @property
    def closed(self) -> bool:
        """Whether standard output was closed from the start (``gamegraph ... >&-``)."""
        return self._stream is None

    def write(self, text: str) -> int:
        if self._stream is None:
            raise StdoutFailed(errno.EBADF)
        try:
            try:
                return self._stream.write(text)
            except UnicodeEncodeError:  # a name not in stdout's encoding (b'\xff' as '\udcff')
                encoding = getattr(self._stream, "encoding", None) or "ascii"
                shown = text.encode(encoding, "backslashreplace").decode(encoding)
                return self._stream.write(shown)
        except (OSError, ValueError) as error:
            raise _failure(error) from error

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as error:
            raise _failure(error) from error

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (AttributeError, OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        return self._stream.fileno()

    def __getattr__(self, name):  # encoding, errors, ... of the stream it wraps
        if name.startswith("_") or self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


class Forgiving:
    """Standard error that drops what cannot be written (closed, full, gone).

    Every other attribute is the wrapped stream's (``isatty``, ``fileno``, ``encoding``, ...).

    >>> class Full:
    ...     def write(self, text):
    ...         raise OSError(errno.ENOSPC, "No space left on device")
    >>> Forgiving(Full()).write("lost\\n")
    0
    """

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (AttributeError, OSError, ValueError):
            return 0

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (AttributeError, OSError, ValueError):
            pass

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (AttributeError, OSError, ValueError):
            return False

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._stream, name)


def occupy_closed_descriptors() -> set[int]:
    """Open ``/dev/null`` on each of descriptors 0, 1 and 2 that is closed; return those.

    >>> occupy_closed_descriptors() <= {0, 1, 2}
    True
    """
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
            silence(fd)
    return closed


def silence(fd: int) -> None:
    """Point descriptor ``fd`` at ``/dev/null``, so that what Python still holds for it (its
    last flush at exit) goes nowhere instead of failing again.
    """
    try:
        null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
    except OSError:
        return
    if null != fd:
        try:
            os.dup2(null, fd)
        except OSError:
            pass
        finally:
            os.close(null)
