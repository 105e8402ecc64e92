"""Where it runs: read-only homes, no temporary folder, non-UTF-8 names, memory limits
(issue 24, items 5 and 6).

* Installed by root and run by a user whose HOME cannot be written, numba found no cache
  folder and every solve failed (``RuntimeError: cannot cache function '_backup': no
  locator available``). The commands now run, with one note on stderr.
* With no usable temporary folder, drawings and reports ended in a traceback; now one line.
* A file name that is not UTF-8 (``b'\\xff.svg'``) was written, then reported as "cannot
  write to standard output: Bad file descriptor" when stdout's encoding could not show it.
* Under ``ulimit -v``, OpenBLAS started a thread per core and could retry its buffers for
  ever; libraries that could not be loaded ended in tracebacks or in "pip install" advice.

Each case runs the real command line in a subprocess (an unprivileged user, a limit, an
environment), with a timeout so that a hang fails the test instead of the run.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import site
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

import gamegraph

#: Where the gamegraph under test lives: the checkout, or site-packages when the suite
#: runs against an installed copy (scripts/check-sdist removes the source folder).
PACKAGE = Path(gamegraph.__file__).resolve().parent
TIMEOUT = 120


def _clean_env(**extra) -> dict:
    """The test's environment without what would steer the cases (caches, temp folder)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("NUMBA_", "OPENBLAS_", "MKL_", "GAMEGRAPH_", "COVERAGE_"))
        and key not in ("TMPDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "MPLCONFIGDIR", "HOME")
    }
    env.update(extra)
    return env


def _one_line(stderr: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert stderr.count("\n") == 1 and stderr.endswith("\n"), stderr


# ---------------------------------------------------------------------------
# An unprivileged user whose HOME cannot be written
# ---------------------------------------------------------------------------
USER = "nobody"


def _user():
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("running as another user needs root (this run is not root)")
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        pytest.skip(f"no user {USER!r} on this machine")


def _as_user(user, argv, env, cwd, timeout=TIMEOUT):
    return subprocess.run(
        argv,
        user=user.pw_uid,
        group=user.pw_gid,
        extra_groups=[],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _python_for(user) -> tuple[str, dict]:
    """An interpreter of this Python version that ``user`` can run, and the PYTHONPATH
    that gives it this checkout and this environment's packages.

    The project's venv usually links to an interpreter under root's home, which another
    user cannot reach; a system interpreter of the same version then runs the same code.
    """
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [sys.executable, os.path.realpath(sys.executable)]
    candidates += [f"{folder}/python{version}" for folder in ("/usr/local/bin", "/usr/bin")]
    paths = [str(PACKAGE.parent), *site.getsitepackages()]
    env = {"PYTHONPATH": os.pathsep.join(paths), "PYTHONDONTWRITEBYTECODE": "1"}
    for candidate in candidates:
        if not os.path.exists(candidate):
            continue
        check = "import sys, gamegraph; print('%d.%d' % sys.version_info[:2])"
        try:
            run = _as_user(user, [candidate, "-c", check], _clean_env(**env), "/", timeout=60)
        except OSError:
            continue
        if run.returncode == 0 and run.stdout.strip() == version:
            return candidate, env
    pytest.skip(f"no Python {version} that {USER} can run with this checkout's packages")


@contextlib.contextmanager
def _folders_open_to_others(paths):
    """Let other users pass through the folders above ``paths`` for a while.

    A clean clone often sits in a ``mktemp -d`` folder (mode 0700), which another user
    cannot enter; the folders that lack the search bit get it, and lose it again after.
    """
    changed = []
    try:
        for path in paths:
            for folder in [Path(path), *Path(path).parents]:
                mode = folder.stat().st_mode
                if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
                    folder.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)
                    changed.append((folder, stat.S_IMODE(mode)))
        yield
    finally:
        for folder, mode in reversed(changed):
            folder.chmod(mode)


@pytest.fixture
def user_folder():
    """A folder only the unprivileged user can write: its TMPDIR and its outputs."""
    user = _user()
    with _folders_open_to_others([PACKAGE, *site.getsitepackages()]):
        yield from _user_folder(user)


def _user_folder(user):
    base = Path(tempfile.mkdtemp(prefix="gamegraph-env-"))
    base.chmod(0o755)
    for name in ("tmp", "out"):
        (base / name).mkdir()
        os.chown(base / name, user.pw_uid, user.pw_gid)
        (base / name).chmod(0o700)
    yield user, base
    shutil.rmtree(base, ignore_errors=True)


def _tree_is_closed_to(user) -> None:
    """The case needs numba's own places to be unwritable for the user (as when root
    installed the package): else it tests nothing."""
    folder = PACKAGE
    status = folder.stat()
    if status.st_uid == user.pw_uid or status.st_mode & stat.S_IWOTH:
        pytest.skip("the checkout is writable by the unprivileged user")


def test_commands_run_as_a_user_whose_home_cannot_be_written(user_folder):
    """``supersix solve``, ``ur solve``, ``jackpot graph`` (and a matplotlib figure) run
    as ``nobody`` with ``HOME=/nonexistent``: compiled code is cached in a private folder
    under the temporary folder, with one note; nothing else on stderr (no matplotlib
    warnings). The Super Six solve is large enough to compile kernels: the smaller
    commands load no numba, and on a machine where no earlier run left the folder the
    case would otherwise find none.

    The temporary folder is the machine's (TMPDIR unset), so that only the first run on a
    machine compiles; the folder is checked as the user's own and private.
    """
    user, base = user_folder
    _tree_is_closed_to(user)
    python, paths = _python_for(user)
    env = _clean_env(HOME="/nonexistent", **paths)
    probe = "import tempfile; print(tempfile.gettempdir())"
    temporary = _as_user(user, [python, "-c", probe], env, "/").stdout.strip()
    cache = Path(temporary) / f"gamegraph-numba-{user.pw_uid}"
    note = (
        "gamegraph: note: numba cannot write its cache in the usual places (beside "
        f"gamegraph's files, /nonexistent/.cache/numba); caching compiled code in {cache} "
        "(set NUMBA_CACHE_DIR to choose)\n"
    )
    commands = [
        # 60 pegs: beyond the small graphs solved with numpy alone, so numba compiles
        (["supersix", "solve", "--pegs", "60"], "strategy at"),
        (["ur", "solve", "--pieces", "1"], "wins with probability"),
        (["jackpot", "graph", "-o", str(base / "out" / "j.svg")], "wrote"),
        (["supersix", "map", "--pegs", "4", "-o", str(base / "out" / "m.svg")], "wrote"),
    ]
    for argv, expected in commands:
        run = _as_user(user, [python, "-m", "gamegraph", *argv], env, str(base / "out"))
        assert run.returncode == 0, (argv, run.stderr[-2000:])
        assert expected in run.stdout, (argv, run.stdout)
        assert run.stderr in ("", note), (argv, run.stderr)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700 and cache.stat().st_uid == user.pw_uid
    assert any(cache.rglob("*.nbi")), "nothing was cached"
    assert (base / "out" / "j.svg").stat().st_size > 0
    assert (base / "out" / "m.svg").stat().st_size > 0


TINY = """
import sys
import numba
from gamegraph._numba_cache import njit

def twice(x):
    return 2 * x

print(njit(numba)(twice)(21))
"""


@pytest.mark.parametrize("planted", ["another user's", "a symbolic link", "open to all"])
def test_a_cache_folder_we_cannot_trust_is_not_used(user_folder, planted):
    """A fallback folder someone else could have filled is never loaded from (a cache is
    code that runs): the kernels compile without a cache, with one note saying why."""
    user, base = user_folder
    python, paths = _python_for(user)
    source = base / "src"
    source.mkdir()
    (source / "tiny.py").write_text(TINY)
    source.chmod(0o755)  # root's: numba cannot write beside it as the user
    folder = base / "tmp" / f"gamegraph-numba-{user.pw_uid}"
    if planted == "another user's":
        folder.mkdir(mode=0o700)
        why = "belongs to another user"
    elif planted == "a symbolic link":
        target = base / "tmp" / "elsewhere"
        target.mkdir()
        os.chown(target, user.pw_uid, user.pw_gid)
        folder.symlink_to(target)
        why = "is not a folder"
    else:
        folder.mkdir()
        os.chown(folder, user.pw_uid, user.pw_gid)
        folder.chmod(0o777)
        why = "is open to other users"
    env = _clean_env(HOME="/nonexistent", TMPDIR=str(base / "tmp"), **paths)
    run = _as_user(user, [python, str(source / "tiny.py")], env, str(base / "out"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout == "42\n"
    _one_line(run.stderr)
    assert run.stderr.startswith("gamegraph: note: numba cannot write its cache"), run.stderr
    assert f"{folder} {why}; compiling without a cache" in run.stderr, run.stderr
    assert not any(base.rglob("*.nbi")), "something was cached"


# ---------------------------------------------------------------------------
# No usable temporary folder
# ---------------------------------------------------------------------------
# Python looks for one in TMPDIR, TEMP, TMP, /tmp, /var/tmp, /usr/tmp and the current
# folder. As root every one of those is writable, so the driver makes Python's list hold
# only the missing TMPDIR: exactly what gettempdir() meets when none can be written.
NO_TEMP = """
import sys, tempfile
tempfile.tempdir = None
tempfile._candidate_tempdir_list = lambda: ["/nonexistent"]
from gamegraph.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["jackpot", "graph", "-o", "x.svg"],
        ["jackpot", "graph", "-o", "x.png"],
        ["jackpot", "report", "-q", "--games", "1000", "-o", "r.html"],
    ],
    ids=lambda argv: " ".join(argv[:2] + argv[-1:]),
)
def test_no_usable_temporary_folder_is_one_line(tmp_path, argv):
    env = _clean_env(TMPDIR="/nonexistent", GAMEGRAPH_GRAPHVIZ="pygraphviz")
    run = subprocess.run(
        [sys.executable, "-c", NO_TEMP, *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    _one_line(run.stderr)
    assert run.stderr == (
        "gamegraph: error: no usable temporary folder (TMPDIR=/nonexistent): none of "
        "/nonexistent can be written; set TMPDIR to a writable folder\n"
    )
    assert run.returncode == 1
    assert list(tmp_path.iterdir()) == []


def test_the_explorer_needs_no_temporary_folder(tmp_path):
    # Its layout is numpy (no Graphviz temporary files), and the page is written beside itself.
    env = _clean_env(TMPDIR="/nonexistent")
    run = subprocess.run(
        [sys.executable, "-c", NO_TEMP, "jackpot", "explore", "-q", "-o", "e.html"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert [path.name for path in tmp_path.iterdir()] == ["e.html"]


def test_a_read_only_tmp_is_one_line():
    """The real thing, where the machine allows it: /tmp and /var/tmp mounted read-only in
    a mount namespace, TMPDIR missing, the current folder read-only."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare for a private read-only /tmp")
    folder = Path(tempfile.mkdtemp(prefix="gamegraph-ro-", dir="/dev/shm"))
    writable = Path(tempfile.mkdtemp(prefix="gamegraph-out-", dir="/dev/shm"))
    try:
        script = textwrap.dedent(
            f"""
            set -e
            for d in /tmp /var/tmp {folder}; do
                mount --bind $d $d; mount -o remount,bind,ro $d $d
            done
            cd {folder}
            exec env TMPDIR=/nonexistent GAMEGRAPH_GRAPHVIZ=pygraphviz "$@"
            """
        )
        probe = subprocess.run(
            ["unshare", "-m", "sh", "-c", script, "sh", "true"], capture_output=True, timeout=60
        )
        if probe.returncode != 0:
            pytest.skip("this machine does not allow a private mount namespace")
        out = writable / "x.svg"
        argv = [sys.executable, "-m", "gamegraph", "jackpot", "graph", "-o", str(out)]
        run = subprocess.run(
            ["unshare", "-m", "sh", "-c", script, "sh", *argv],
            env=_clean_env(HOME=os.environ.get("HOME", "/root")),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        written = out.exists()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(writable, ignore_errors=True)
    _one_line(run.stderr)
    assert run.stderr.startswith(
        "gamegraph: error: no usable temporary folder (TMPDIR=/nonexistent): none of "
        "/nonexistent, /tmp, /var/tmp, /usr/tmp, "
    ), run.stderr
    assert run.returncode == 1 and not written


# ---------------------------------------------------------------------------
# Names that are not UTF-8
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, name, encoding",
    [
        (["jackpot", "graph", "-o"], b"\xff.svg", None),
        (["jackpot", "graph", "-o"], b"\xff.svg", "utf-8:strict"),
        (["jackpot", "graph", "-o"], b"\xff.dot", "ascii"),
        (["jackpot", "report", "-q", "--games", "1000", "-o"], b"\xff.md", "ascii"),
        (["ur", "solve", "-q", "--pieces", "1", "--save"], b"\xff.urtable", "latin-1"),
    ],
    ids=lambda value: value.decode("latin-1") if isinstance(value, bytes) else None,
)
def test_names_that_are_not_utf8_are_written_and_shown(tmp_path, argv, name, encoding):
    """The file gets the very bytes asked for, and the ``wrote`` line shows the name (as
    ``\\udcff`` where stdout's encoding cannot hold the byte)."""
    env = _clean_env(HOME=os.environ.get("HOME", "/"))
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    run = subprocess.run(
        [sys.executable, "-m", "gamegraph", *argv, name],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    assert run.stderr == b"", run.stderr
    assert name in os.listdir(os.fsencode(tmp_path))
    shown = name if encoding is None else name.replace(b"\xff", b"\\udcff")
    assert run.stdout.endswith(b"wrote " + shown + b"\n") or (b"wrote " + shown) in run.stdout


def test_a_refused_name_that_is_not_utf8_is_one_line(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "gamegraph", "jackpot", "graph", "-o", b"\xff"],
        cwd=tmp_path,
        env=_clean_env(PYTHONIOENCODING="ascii"),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    _one_line(run.stderr)
    assert run.stderr.startswith("gamegraph: error: '\\udcff' has no extension"), run.stderr
    assert run.returncode == 2 and os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------
# An address-space limit (ulimit -v)
# ---------------------------------------------------------------------------
def _limited(mib: int):
    resource = pytest.importorskip("resource")

    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (mib * 2**20, mib * 2**20))

    return preexec


def _run_limited(mib, argv, cwd, **extra):
    return subprocess.run(
        argv,
        cwd=cwd,
        env=_clean_env(HOME=os.environ.get("HOME", "/"), **extra),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_limited(mib),
    )


def test_blas_starts_one_thread_under_a_limit():
    """OpenBLAS reserves a buffer per thread when loaded; under a limit it starts with the
    one thread gamegraph solves with, not one per core (on a 64-core machine the
    reservations failed and it retried for 12 minutes)."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: BLAS starts one thread anyway")
    code = (
        "import gamegraph, scipy.linalg, threadpoolctl;"
        "print(sorted({p['num_threads'] for p in threadpoolctl.threadpool_info()"
        " if p['user_api'] == 'blas'}))"
    )
    run = _run_limited(4096, [sys.executable, "-c", code], "/")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "[1]\n"


@pytest.mark.parametrize("mib", [150, 200, 250, 300])
def test_too_small_a_limit_is_one_line_before_any_work(tmp_path, mib):
    """Between about 150 and 300 MiB, loading scipy's OpenBLAS could loop for ever (its
    buffer cannot be mapped, and it retries); now the command refuses at once."""
    argv = [sys.executable, "-m", "gamegraph", "jackpot", "graph", "-o", "x.svg"]
    run = _run_limited(mib, argv, tmp_path)
    _one_line(run.stderr)
    assert run.stderr.startswith("gamegraph: error: "), run.stderr
    assert f"ulimit -v {mib * 1024} KiB" in run.stderr or "OpenBLAS" in run.stderr
    assert run.returncode == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mib", [60, 80, 95, 100, 102, 110, 120])
def test_a_limit_too_small_to_start_is_one_line(tmp_path, mib):
    """So small that numpy cannot be loaded (60 MiB: its C extensions; 95 MiB: CPython's
    "SystemError: error return without exception set" while importing numpy; 100 to
    120 MiB: memory runs out while the command line is built, and tearing the interpreter
    down then printed "MemoryError" pages): one line (ours, or OpenBLAS's own). Where
    each failure falls moves with the installation, hence the spread of limits."""
    argv = [sys.executable, "-m", "gamegraph", "ur", "solve", "--pieces", "1"]
    run = _run_limited(mib, argv, tmp_path)
    _one_line(run.stderr)
    assert run.returncode == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["jackpot", "graph", "-o", "x.svg"],
        ["ur", "solve", "--pieces", "2", "--save", "u.npy"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_commands_run_under_a_generous_limit(tmp_path, argv):
    run = _run_limited(2048, [sys.executable, "-m", "gamegraph", *argv], tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "wrote" in run.stdout
