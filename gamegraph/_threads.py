"""How many threads BLAS may use while gamegraph solves: one, unless the user asks for more.

OpenBLAS (and MKL, BLIS) start one thread per core. The linear solves of
:mod:`gamegraph.linear` hand BLAS many small vector operations (BiCGSTAB's dot products
and updates, SuperLU's dense kernels), far too small to gain from a second thread. On a
machine whose cores are busy with other work every one of them then waits for a core:
``gamegraph ur solve --pieces 4`` ran 3 to 25 times slower than with one thread.

:func:`limit_blas` therefore caps BLAS at one thread for the duration of a call, through
``threadpoolctl.threadpool_limits(limits=n, user_api="blas")``, and puts the previous
limits back when the call ends, however it ends. The entry points that do linear algebra
(:func:`~gamegraph.solve.solve`, :func:`~gamegraph.solve.evaluate`,
:func:`~gamegraph.propagate.propagate`) apply it to themselves; nothing is changed at
import time. The limit is raised with their ``blas_threads`` argument, or for a whole
program with the environment variable ``GAMEGRAPH_BLAS_THREADS`` (a whole number from 1
to :data:`MAX_BLAS_THREADS`; an empty value counts as unset). The argument wins over the
variable.

Examples
--------
>>> from threadpoolctl import threadpool_info
>>> with limit_blas(1):
...     all(pool["num_threads"] == 1 for pool in threadpool_info()
...         if pool["user_api"] == "blas")
True
>>> blas_threads(3)
3
>>> blas_threads(0)
Traceback (most recent call last):
...
gamegraph.errors.InvalidArgumentError: blas_threads must be a whole number from 1 to 1,024, got 0
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

from ._checks import check_int

#: The environment variable that sets the default number of BLAS threads.
ENV_VAR = "GAMEGRAPH_BLAS_THREADS"
#: BLAS threads used when neither the argument nor the environment variable says otherwise.
DEFAULT_BLAS_THREADS = 1
#: The most BLAS threads accepted (more than any BLAS library is built for).
MAX_BLAS_THREADS = 1024


def blas_threads(threads: int | None = None) -> int:
    """The number of BLAS threads a call may use.

    Parameters
    ----------
    threads : int or None
        A whole number from 1 to :data:`MAX_BLAS_THREADS`; None reads the environment
        variable ``GAMEGRAPH_BLAS_THREADS``, and when that is unset or empty, gives 1.

    Raises
    ------
    InvalidArgumentError
        ``threads`` or the environment variable is not a whole number in range.
    """
    if threads is not None:
        return check_int(threads, "blas_threads", low=1, high=MAX_BLAS_THREADS)
    text = os.environ.get(ENV_VAR, "").strip()
    if not text:
        return DEFAULT_BLAS_THREADS
    # Decimal digits only: int() would also take "1_0", "+2" and other scripts' digits.
    value = int(text) if re.fullmatch(r"[0-9]+", text) else text
    return check_int(value, f"environment variable {ENV_VAR}", low=1, high=MAX_BLAS_THREADS)


@contextmanager
def limit_blas(threads: int | None = None, *, load: bool = True) -> Iterator[int]:
    """Limit BLAS to ``threads`` threads inside the ``with`` block (or the decorated call).

    The number is resolved by :func:`blas_threads` when the block is entered, not when
    the context manager or decorator is created, and the limits in force before are
    restored on exit. Yields the number of threads allowed. ``load=False`` limits only the
    BLAS libraries already loaded, for a caller that will make no sparse solve: loading
    scipy's to limit it takes 0.2 s.

    Examples
    --------
    >>> @limit_blas()
    ... def work():
    ...     return "done with BLAS limited to one thread"
    >>> work()
    'done with BLAS limited to one thread'
    """
    from threadpoolctl import threadpool_limits  # here: not loaded with gamegraph

    allowed = blas_threads(threads)
    if load:
        _load_blas()
    with threadpool_limits(limits=allowed, user_api="blas"):
        yield allowed


def _load_blas() -> None:
    """Load every BLAS the solvers call before limiting them: scipy brings its own
    OpenBLAS besides numpy's, and gamegraph imports scipy where it is used (a quick
    command never loads it), so it may not be loaded yet; a limit set before a library is
    loaded does not reach it.
    """
    import scipy.sparse.linalg  # noqa: F401
