"""Linear systems ``A x = b`` with a sparse A given as (rows, cols, coefficients).

Floats go to scipy's sparse LU, or first to BiCGSTAB when the system is large: on game
graphs LU's fill-in grows fast (a 22,884-state Ur component took 52 s by LU and under
0.01 s by BiCGSTAB, both to 1e-15). An iterative answer is kept only when its residual
is tiny; otherwise LU decides. (GMRES with restarts stalls on some of these systems,
masters Ur among them; BiCGSTAB has converged on all of them in about 50 iterations.)
Exact systems (entries are Fractions) go to FLINT's rational matrices (python-flint,
optional) when installed and the system is small enough to hold densely, else to
Gaussian elimination over Python Fractions, row by row.

BLAS threads are not limited here, once per system (threadpoolctl takes about a
millisecond to find the libraries, and a 3-piece Ur solve makes some 430 systems), but
once per call by the callers, :func:`~gamegraph.solve.solve`,
:func:`~gamegraph.solve.evaluate` and :func:`~gamegraph.propagate.propagate`, through
:func:`gamegraph._threads.limit_blas`. A direct caller of :func:`solve_sparse` on a busy
machine should do the same.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np

from .errors import ConvergenceError

_UNLOADED = object()
#: Largest system handed to FLINT (it holds the matrix densely).
FLINT_MAX_SIZE = 4000
#: Smallest float system tried with BiCGSTAB before sparse LU.
ITERATIVE_MIN_SIZE = 1000
#: Largest residual, max |A x - b|, accepted from BiCGSTAB.
ITERATIVE_RESIDUAL = 1e-13


def solve_sparse(rows, cols, coefficients, b, size: int, *, exact: bool):
    """Solve ``A x = b`` where ``A[rows[i], cols[i]] += coefficients[i]``.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> solve_sparse([0, 0, 1, 1], [0, 1, 0, 1], [F(1), F(3, 4), F(3, 4), F(1)],
    ...              [F(1, 4), F(1, 4)], 2, exact=True).tolist()
    [Fraction(1, 7), Fraction(1, 7)]
    """
    if exact:
        if size <= FLINT_MAX_SIZE and _load_flint() is not None:
            return _solve_flint(rows, cols, coefficients, b, size)
        return _solve_rational(rows, cols, coefficients, b, size)
    import scipy.sparse  # here, not at import: scipy takes 0.1 s to load, and a quick
    import scipy.sparse.linalg  # command (``gamegraph ur advise``) never solves

    matrix = scipy.sparse.csc_matrix(
        (np.asarray(coefficients, dtype=np.float64), (rows, cols)), shape=(size, size)
    )
    b = np.asarray(b, dtype=np.float64)
    if size >= ITERATIVE_MIN_SIZE:
        x = _solve_iterative(matrix.tocsr(), b)
        if x is not None:
            return x
    with warnings.catch_warnings():  # a singular matrix is reported below, as an error
        warnings.simplefilter("ignore", scipy.sparse.linalg.MatrixRankWarning)
        x = np.atleast_1d(scipy.sparse.linalg.spsolve(matrix, b))
    if not np.all(np.isfinite(x)):
        raise ConvergenceError(
            "singular system: under this policy some states never reach the end of the game"
        )
    return x


def _solve_iterative(matrix, b):
    """BiCGSTAB's solution when it converges with a residual below ITERATIVE_RESIDUAL, else None."""
    import scipy.sparse.linalg

    x, info = scipy.sparse.linalg.bicgstab(matrix, b, rtol=1e-16, maxiter=1000)
    if (
        info != 0
        or not np.all(np.isfinite(x))
        or np.max(np.abs(matrix @ x - b)) > ITERATIVE_RESIDUAL
    ):
        return None
    return x


def _load_flint():
    """python-flint (optional: exact rational matrices, much faster than Fractions), or
    None where it is not installed.

    Imported on the first exact solve, not with gamegraph (it takes 20 ms to load), and
    kept as the module attribute ``_flint``, which a test may set to None.
    """
    flint = globals().get("_flint", _UNLOADED)
    if flint is _UNLOADED:
        try:
            import flint
        except ImportError:  # pragma: no cover - depends on the installation
            flint = None
        globals()["_flint"] = flint
    return flint


def __getattr__(name):
    if name == "_flint":  # gamegraph.exact_cost and the tests read it
        return _load_flint()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _fmpq(flint, value):
    value = Fraction(value)
    return flint.fmpq(value.numerator, value.denominator)


def _solve_flint(rows, cols, coefficients, b, size):
    flint = _load_flint()
    matrix = flint.fmpq_mat(size, size)
    for r, c, v in zip(rows, cols, coefficients):
        matrix[int(r), int(c)] = matrix[int(r), int(c)] + _fmpq(flint, v)
    rhs = flint.fmpq_mat(size, 1, [_fmpq(flint, v) for v in b])
    try:
        x = matrix.solve(rhs)
    except ZeroDivisionError:
        raise ConvergenceError(
            "singular system: under this policy some states never reach the end of the game"
        ) from None
    out = np.empty(size, dtype=object)
    out[:] = [Fraction(int(x[i, 0].p), int(x[i, 0].q)) for i in range(size)]
    return out


def _solve_rational(rows, cols, coefficients, b, size):
    matrix = [dict() for _ in range(size)]
    for r, c, v in zip(rows, cols, coefficients):
        row = matrix[int(r)]
        row[int(c)] = row.get(int(c), 0) + v
    rhs = [Fraction(v) for v in b]
    # Gauss-Jordan on dict rows; pivot on the diagonal when it is non-zero.
    for col in range(size):
        pivot = next((r for r in range(col, size) if matrix[r].get(col, 0) != 0), None)
        if pivot is None:
            raise ConvergenceError(
                "singular system: under this policy some states never reach the end of the game"
            )
        if pivot != col:
            matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
            rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
        prow = matrix[col]
        scale = prow[col]
        if scale != 1:
            for c in prow:
                prow[c] /= scale
            rhs[col] /= scale
        for r in range(size):
            if r == col:
                continue
            factor = matrix[r].get(col, 0)
            if factor == 0:
                continue
            row = matrix[r]
            for c, v in prow.items():
                new = row.get(c, 0) - factor * v
                if new == 0:
                    row.pop(c, None)
                else:
                    row[c] = new
            rhs[r] -= factor * rhs[col]
    out = np.empty(size, dtype=object)
    out[:] = rhs
    return out
