"""Progress bars for long work: on stderr, only when someone is watching.

Every long call (build, solve, evaluate, simulate, a tournament, a report, the explorer's
data) takes ``progress``:

``None`` (default)
    a bar when stderr is a terminal, nothing otherwise (pipes, files, tests);
``True`` / ``False``
    always / never (the command line's ``--quiet`` passes ``False``).

The bar is tqdm's, so it redraws in place and ends with the elapsed time.
"""

from __future__ import annotations

import contextlib
import sys


def wanted(progress: bool | None) -> bool:
    """Whether to show progress: as asked, or when stderr is a terminal.

    >>> wanted(True), wanted(False)
    (True, False)
    """
    if progress is None:
        try:
            return sys.stderr.isatty()
        except (AttributeError, ValueError):
            return False
    return bool(progress)


def progress_bar(total=None, *, desc: str, unit: str = "it", progress: bool | None = None):
    """A tqdm bar on stderr when :func:`wanted` says so, otherwise a hidden one that only
    counts (tqdm is not even loaded).

    Use it as a context manager and call ``update(n)``; a hidden bar costs nothing.

    >>> with progress_bar(3, desc="solving", progress=False) as bar:
    ...     bar.update(3)
    >>> bar.n
    3
    """
    if not wanted(progress):
        return _Hidden(total)
    from tqdm import tqdm  # here, not at import: a quick command never draws a bar

    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        file=sys.stderr,
        leave=False,
        dynamic_ncols=True,
        mininterval=0.2,
    )


class _Hidden:
    """A bar nobody sees, which only counts: tqdm is not loaded for it (0.08 s the first
    time, most of a small build's).
    """

    def __init__(self, total=None):
        self.total = total
        self.n = 0

    def update(self, n=1):
        self.n += n

    def set_postfix_str(self, *args, **kwargs):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@contextlib.contextmanager
def reporter(total, *, desc: str, unit: str = "it", progress=None):
    """A ``report(done, total)`` callback for a loop that counts up to ``total``.

    ``progress`` may be the caller's own callable, which is used as it is; otherwise the
    callback moves a :func:`progress_bar` (shown as :func:`wanted` says).

    >>> with reporter(10, desc="playing", progress=False) as report:
    ...     report(5, 10)
    >>> seen = []
    >>> with reporter(10, desc="playing", progress=lambda done, total: seen.append(done)) as report:
    ...     report(10, 10)
    >>> seen
    [10]
    """
    if callable(progress):
        yield progress
        return
    with progress_bar(total, desc=desc, unit=unit, progress=progress) as bar:
        yield lambda done, total=None: bar.update(done - bar.n)
