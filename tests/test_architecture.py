"""The house rules: one direction of imports, no side effects at import, clean missing extras.

The import contracts live in pyproject.toml and CI runs ``lint-imports``; here we check
that they hold and that they would catch a module importing up a layer.
"""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import gamegraph

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(gamegraph.__file__).parent


def all_modules() -> list[str]:
    return sorted(
        info.name
        for info in pkgutil.walk_packages([str(PACKAGE)], prefix="gamegraph.")
        if not info.name.endswith("__main__")
    )


def lint_imports(cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess:
    pytest.importorskip("importlinter")
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    code = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_import_contracts_hold():
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the source tree's pyproject.toml")
    run = lint_imports(ROOT, ROOT)
    assert run.returncode == 0, run.stdout[-3000:]
    assert f"{len(contracts())} kept, 0 broken" in run.stdout


def contracts() -> list[dict]:
    """The import-linter contracts of pyproject.toml."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_contracts_catch_an_import_up_a_layer(tmp_path):
    """A game's rules importing a solver, and a cycle between two siblings, both break a
    contract; so does a game's rules importing its own solver."""
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the source tree's pyproject.toml")
    shutil.copytree(PACKAGE, tmp_path / "gamegraph", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    jackpot = tmp_path / "gamegraph" / "games" / "jackpot" / "rules.py"
    jackpot.write_text(jackpot.read_text() + "\nfrom ...solve import solve  # noqa\n")
    csr = tmp_path / "gamegraph" / "csr.py"
    csr.write_text(csr.read_text() + "\nfrom ._checks import MAX_GAMES  # noqa\n")
    checks = tmp_path / "gamegraph" / "_checks.py"
    checks.write_text(checks.read_text() + "\nfrom .csr import expand_ranges  # noqa\n")
    ur_rules = tmp_path / "gamegraph" / "games" / "ur" / "rules.py"
    ur_rules.write_text(ur_rules.read_text() + "\nfrom .block_solver import solve_blocks  # noqa\n")
    run = lint_imports(tmp_path, tmp_path)
    assert run.returncode != 0
    said = " ".join(run.stdout.split())  # import-linter wraps its lines
    assert "gamegraph.games.jackpot.rules is not allowed to import gamegraph.solve" in said
    assert "gamegraph.games.ur.rules is not allowed to import gamegraph.games.ur" in said
    assert f"{len(contracts()) - 4} kept, 4 broken" in said


def test_every_module_is_in_a_layer():
    """The layers contract is exhaustive; a new module must be given its place."""
    pytest.importorskip("importlinter")
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the source tree's pyproject.toml")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = config["contracts"][0]["layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    top = {m.split(".")[1] for m in all_modules()}
    # import-linter reads Python sources only: the compiled walk (gamegraph/_walk.pyx,
    # an extension module) is not among them, and imports nothing of gamegraph.
    compiled = {name for name in top if not (PACKAGE / f"{name}.py").exists()}
    compiled -= {name for name in top if (PACKAGE / name).is_dir()}
    assert compiled <= {"_walk"}
    assert top - named - compiled == set()


def test_importing_everything_leaves_global_state_alone():
    """A notebook's matplotlib backend, warning filters and BLAS threads survive our imports."""
    pytest.importorskip("matplotlib")
    modules = all_modules()
    code = textwrap.dedent(
        f"""
        import warnings, importlib
        import matplotlib
        matplotlib.use("svg")
        from threadpoolctl import threadpool_info
        # Third-party packages set their own filters when first imported (scipy.optimize
        # does); load them first so that only what gamegraph itself does is measured.
        import numpy, scipy.optimize, scipy.sparse.linalg, scipy.sparse.csgraph, networkx
        import matplotlib.figure, plotly.graph_objects, plotly.offline, graphviz
        filters = list(warnings.filters)
        threads = [(p["internal_api"], p["num_threads"]) for p in threadpool_info()]
        for name in {modules!r}:
            importlib.import_module(name)
        assert matplotlib.get_backend() == "svg", matplotlib.get_backend()
        assert list(warnings.filters) == filters, "warning filters changed"
        after = [(p["internal_api"], p["num_threads"]) for p in threadpool_info()]
        assert after == threads or after[: len(threads)] == threads, (threads, after)
        print(len({modules!r}), "modules imported")
        """
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"{len(modules)} modules imported" in run.stdout


DRAWING_COMMANDS = [
    ["jackpot", "graph", "--agent", "hilo", "-o", "x.svg"],
    ["supersix", "heatmap", "-o", "x.html"],
    ["supersix", "map", "-o", "x.png"],
    ["ur", "board", "4/6", "-o", "x.png"],
    ["ur", "graph", "-o", "x.svg"],
    ["ur", "heatmap", "--solve", "--pieces", "1", "-o", "x.png"],
    ["ur", "heatmap", "--solve", "--pieces", "1", "-o", "x.html"],
]


@pytest.mark.parametrize("argv", DRAWING_COMMANDS, ids=lambda a: " ".join(a[:2] + a[-1:]))
def test_drawing_without_the_render_extra_is_one_line(tmp_path, argv):
    """Without matplotlib, plotly and graphviz, a drawing command says which extra to install."""
    code = textwrap.dedent(
        f"""
        import sys
        for name in ("matplotlib", "plotly", "graphviz", "pygraphviz"):
            sys.modules[name] = None
        from gamegraph.cli import main
        sys.exit(main({argv!r}))
        """
    )
    env = dict(os.environ, PATH="/nonexistent")  # no system dot either
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    assert 'pip install "gamegraph[render]"' in run.stderr
    assert "Traceback" not in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_missing_extra_is_an_import_error_naming_the_extra():
    from gamegraph._extras import require
    from gamegraph.errors import GameGraphError, MissingExtraError

    with pytest.raises(MissingExtraError) as caught:
        require("no_such_module_here.sub", "testing")
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, GameGraphError)
    assert str(caught.value) == 'testing needs no_such_module_here: pip install "gamegraph[render]"'


def test_no_top_level_renderers_package_is_installed():
    """Only ``gamegraph`` is a top-level import name: ``renderers`` would clash on PyPI."""
    run = subprocess.run(
        [sys.executable, "-c", "import renderers"],
        cwd="/",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and "No module named 'renderers'" in run.stderr
    import gamegraph.renderers.dot  # noqa: F401


def test_every_exception_is_exported_from_the_package():
    """``except gamegraph.X`` works for every error the library raises."""
    import inspect

    from gamegraph import errors

    raised = {
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value) and issubclass(value, errors.GameGraphError)
    }
    assert raised <= set(gamegraph.__all__), sorted(raised - set(gamegraph.__all__))


# ---------------------------------------------------------------------------
# Houses a reader can live in (issue: every game in its own house)
# ---------------------------------------------------------------------------
#: The longest function a reader should have to hold in their head.
MAX_FUNCTION_LINES = 120
#: The longest command-line module: the command line parses and prints, nothing more.
MAX_CLI_LINES = 300


def _functions():
    import ast

    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path, node


def test_no_function_is_longer_than_a_reader_can_hold():
    long = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({lines} lines)"
        for path, node in _functions()
        if (lines := node.end_lineno - node.lineno + 1) > MAX_FUNCTION_LINES
    ]
    assert long == []


def test_the_command_line_parses_and_prints_only():
    """Each cli module is short and imports no numpy: the work is in library calls."""
    import ast

    for path in sorted((PACKAGE / "cli").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) < MAX_CLI_LINES, path.name
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {
            (node.module or "").split(".")[0]
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.ImportFrom) and not node.level
        }
        assert "numpy" not in imported, path.name


def test_the_generic_analysis_holds_no_game():
    """A game's own solvers and analysis live in its package under games/."""
    games = {p.stem for p in (PACKAGE / "games").iterdir() if not p.name.startswith("_")}
    named = {
        p.stem
        for p in (PACKAGE / "analysis").glob("*.py")
        if set(p.stem.split("_")) & (games | {"ur", "jackpot", "supersix", "yahtzee", "pig"})
    }
    assert named == set()
