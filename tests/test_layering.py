"""The layering rule: ``gamegraph`` never imports ``renderers`` (except the command-line
modules, ``cli.py`` and its per-game parts ``cli_<game>.py``: the application layer where the
two meet)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import gamegraph

PACKAGE = Path(gamegraph.__file__).parent
ALLOWED = {PACKAGE / "cli.py"} | set(PACKAGE.glob("cli_*.py"))


def imports_of_renderers(path: Path) -> list[str]:
    """Every statement in a file that imports ``renderers`` (also via importlib), as text."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__"):
                names = [str(node.args[0].value)]
        for name in names:
            if name == "renderers" or name.startswith("renderers."):
                found.append(f"{path.name}:{node.lineno}: {name}")
    return found


def test_library_modules_do_not_import_renderers():
    files = sorted(PACKAGE.rglob("*.py"))
    assert PACKAGE / "solve.py" in files and PACKAGE / "games" / "jackpot.py" in files
    offenders = [hit for path in files if path not in ALLOWED for hit in imports_of_renderers(path)]
    assert offenders == []


def test_the_scan_sees_the_cli_imports():
    """The cli does import renderers; finding it shows the scan would catch an offender."""
    hits = imports_of_renderers(PACKAGE / "cli.py")
    assert any("renderers.dot" in hit for hit in hits)
    assert any("renderers.output" in hit for hit in hits)


def test_scan_catches_every_spelling(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, renderers.dot as d\n"
        "from renderers import figures\n"
        "from . import renderers_like\n"
        "import renderersx\n"
        "def f():\n"
        "    import importlib\n"
        "    return importlib.import_module('renderers.gallery')\n"
    )
    assert [hit.split(": ")[1] for hit in imports_of_renderers(sample)] == [
        "renderers.dot",
        "renderers",
        "renderers.gallery",
    ]


def test_importing_the_whole_library_loads_no_renderer():
    modules = sorted(
        "gamegraph." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        for path in PACKAGE.rglob("*.py")
        if path not in ALLOWED and path.name not in ("__init__.py", "__main__.py")
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'renderers'))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
    assert "gamegraph.games.jackpot" in modules and "gamegraph.interchange" in modules
