"""Where numba keeps gamegraph's compiled code: its usual places, else a private folder, else none.

gamegraph compiles its kernels with ``numba.njit(cache=True)`` so that only the first run
of an installation compiles. numba picks the cache folder when a function is decorated,
trying in turn ``NUMBA_CACHE_DIR``, a ``__pycache__`` folder beside the source file and
the user's cache folder (``$XDG_CACHE_HOME/numba``, else ``~/.cache/numba``); when none
can be written (installed by root, run by a service account or a container user whose
HOME is read-only or missing) it raises ``RuntimeError: cannot cache function ...: no
locator available`` and nothing compiles at all.

:func:`njit` decorates as ``numba.njit(cache=True, ...)`` does and, when numba finds no
folder, falls back once per process:

1. to a private folder under the temporary folder, ``<tmp>/gamegraph-numba-<uid>``, made
   with mode 0700; an existing one is used only if it is a real folder (not a symbolic
   link) owned by this user and closed to others, since a cache is code that will run;
2. else to no cache at all: the kernels compile in every process (a few seconds).

Either way one note goes to stderr (``gamegraph: note: ...``), once per process. The
fallback folder is set only while gamegraph's own functions are decorated
(``numba.config.CACHE_DIR`` is put back), so a program's other numba functions keep
numba's own choice.
"""

from __future__ import annotations

import os
import sys
import threading

from ._environment import private_folder

_lock = threading.Lock()
_fallback: str | None = None  # the folder decided on ("" for no cache), once per process
_noted = False


#: Where Intel TBB's runtime is, by platform, when pip installs the ``tbb`` package into an
#: environment (``sys.prefix``): numba looks for it by name only, which the dynamic loader
#: does not search there.
_TBB_LIBRARIES = {
    "linux": ("lib", "libtbb.so.12"),
    "darwin": ("lib", "libtbb.12.dylib"),
    "win32": ("Library/bin", "tbb12.dll"),
}


def fastest_threading_layer() -> str:
    """``tbb`` when Intel TBB (the ``tbb`` package of the ``fast`` extra) loads, else
    ``workqueue``: numba's threading layer for kernels that open many short parallel
    regions (a block of Ur opens thousands).

    TBB's workers wait for the next region spinning a little before they sleep; numba's
    ``workqueue`` wakes them through the system every time, and OpenMP's costs 5-8 ms a
    region. A whole solve of finkel 5 took 11 % less wall time and 3 % less CPU on TBB
    than on ``workqueue`` (docs/performance.md). The library is loaded here, by its path,
    so that numba's own check finds it.
    """
    import ctypes

    folder, name = _TBB_LIBRARIES.get(sys.platform, ("", ""))
    path = os.path.join(sys.prefix, folder, name)
    try:
        if name and os.path.exists(path):
            ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        import warnings

        from numba.np.ufunc import parallel

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a TBB too old says so, and is not used
            parallel._check_tbb_version_compatible()
            from numba.np.ufunc import tbbpool  # noqa: F401  (the layer itself loads)
    except Exception:  # no TBB, too old, or numba's layout changed: the portable layer
        return "workqueue"
    return "tbb"


def njit(numba, **options):
    """``numba.njit(cache=True, **options)``, with the cache where this user can write it.

    ``numba`` is the imported module (the callers import it lazily).
    """

    def decorate(function):
        try:
            return numba.njit(cache=True, **options)(function)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            pass
        folder = fallback_folder()
        if folder:
            with _lock:
                saved = numba.config.CACHE_DIR
                numba.config.CACHE_DIR = folder
                try:
                    return numba.njit(cache=True, **options)(function)
                except RuntimeError:
                    pass
                finally:
                    numba.config.CACHE_DIR = saved
        _note(None)
        return numba.njit(cache=False, **options)(function)

    return decorate


def fallback_folder() -> str:
    """The private cache folder under the temporary folder ("" if there is none we can
    trust); decided once per process, with its note on stderr.
    """
    global _fallback
    with _lock:
        if _fallback is None:
            _fallback, why = private_folder("numba")
            if _fallback:
                _note(_fallback)
            else:
                _note(None, why)
        return _fallback


def _usual_places() -> str:
    """The folders numba tried, for the note."""
    places = ["beside gamegraph's files"]
    if os.environ.get("NUMBA_CACHE_DIR"):
        places.insert(0, f"NUMBA_CACHE_DIR={os.environ['NUMBA_CACHE_DIR']}")
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    places.append(os.path.join(cache_home, "numba"))
    return ", ".join(places)


def _note(folder: str | None, why: str = "") -> None:
    """Say once per process where (or that nothing) is cached."""
    global _noted
    if _noted:
        return
    _noted = True
    if folder:
        text = (
            f"gamegraph: note: numba cannot write its cache in the usual places "
            f"({_usual_places()}); caching compiled code in {folder} "
            f"(set NUMBA_CACHE_DIR to choose)\n"
        )
    else:
        reason = f"; {why}" if why else ""
        text = (
            f"gamegraph: note: numba cannot write its cache in the usual places "
            f"({_usual_places()}){reason}; compiling without a cache, a few seconds "
            f"each run (set NUMBA_CACHE_DIR to a writable folder)\n"
        )
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass


def compile_kernels(
    namespace: dict,
    numba,
    *,
    inline=(),
    plain=(),
    parallel=(),
    first=(),
    borrow=None,
    threading_layer=None,
) -> None:
    """Swap a module's kernels for their numba versions, once (the lazy compilation every
    kernel module shares): the caller imports numba when a kernel is first needed, never
    when the module is.

    Parameters
    ----------
    namespace : dict
        The module's ``globals()``; its ``_compiled`` flag is read and set, and a module
        with ``parallel`` kernels gets ``prange`` as numba's.
    numba : module
        numba, as ``gamegraph._extras.require`` imports it (with the one-line error naming
        the ``fast`` extra when it is missing).
    inline, plain, parallel : sequence of str
        The names of the kernels compiled inline into their callers (helpers, first: a
        kernel finds a compiled helper under the same global name), as plain functions,
        and with ``parallel=True``.
    first : sequence of callables
        Other modules' compile functions to run before (kernels this one borrows).
    borrow : mapping, optional
        ``name: (module, attribute)``: compiled kernels of other modules, put under
        ``name`` here once ``first`` has run.
    threading_layer : str, optional
        numba's threading layer for the parallel kernels (``numba.config.THREADING_LAYER``,
        which holds for the whole process), set before anything compiles unless the
        environment variable ``NUMBA_THREADING_LAYER`` chooses one.
    """
    if namespace.get("_compiled"):
        return
    if threading_layer and "NUMBA_THREADING_LAYER" not in os.environ:
        numba.config.THREADING_LAYER = threading_layer
    for compile_first in first:
        compile_first()
    for name, (module, attribute) in (borrow or {}).items():
        namespace[name] = getattr(module, attribute)
    for name in inline:
        namespace[name] = njit(numba, inline="always")(namespace[name])
    for name in plain:
        namespace[name] = njit(numba)(namespace[name])
    if parallel:
        namespace["prange"] = numba.prange
    for name in parallel:
        namespace[name] = njit(numba, parallel=True)(namespace[name])
    namespace["_compiled"] = True
