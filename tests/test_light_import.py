"""What ``import gamegraph`` and the command line's parser load (issue 31, item 4).

Each heavy optional library takes 0.1 to 1 s to load; a notebook that imports gamegraph,
or ``gamegraph --help``, must not pay for the ones it does not use. Each case runs in a
fresh interpreter, where nothing has been imported yet.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

#: The libraries gamegraph imports only where they are used.
HEAVY = (
    "numba",
    "llvmlite",
    "scipy",
    "matplotlib",
    "plotly",
    "pandas",
    "networkx",
    "dask",
    "flint",
    "pygraphviz",
    "PIL",
    "threadpoolctl",
)


def _fresh(code: str):
    """What ``code`` prints last (as JSON), run in a fresh interpreter."""
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


def _loaded_after(code: str, modules=HEAVY) -> list[str]:
    """Which of ``modules`` a fresh interpreter has loaded after running ``code``."""
    shown = f"print(json.dumps(sorted(set({list(modules)!r}) & set(sys.modules))))"
    return _fresh(f"{textwrap.dedent(code)}\nimport json, sys\n{shown}")


def test_import_gamegraph_loads_no_heavy_library():
    assert _loaded_after("import gamegraph") == []


def test_import_gamegraph_loads_not_even_numpy():
    # The public names are imported on first use (gamegraph.__init__'s __getattr__).
    assert _loaded_after("import gamegraph", ["numpy"]) == []


def test_building_the_parser_loads_no_heavy_library():
    code = """
    from gamegraph.cli import build_parser
    build_parser()
    """
    assert _loaded_after(code) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["ur", "--help"],
        ["ur", "solve", "--pieces", "x"],
        ["jackpot", "--help"],
        ["jackpot", "simulate", "--games", "x"],
        ["supersix", "solve", "--pegs", "x"],
        ["yahtzee", "--help"],
        ["explore", "--help"],
    ],
    ids=" ".join,
)
def test_help_and_argument_errors_load_not_even_numpy(argv):
    # Only the command named is filled in (cli.main.build_parser), from light modules.
    code = f"""
    from gamegraph.cli import main
    try:
        main({argv!r})
    except SystemExit:
        pass
    """
    assert _loaded_after(code, ["numpy", *HEAVY]) == []


def test_a_first_use_loads_no_heavy_library():
    code = """
    import gamegraph
    gamegraph.build, gamegraph.solve, gamegraph.StateGraph, gamegraph.Policy
    """
    assert _loaded_after(code) == []


@pytest.mark.parametrize(
    "first",
    [
        "import gamegraph",
        "import gamegraph.solve, gamegraph.build",  # the submodules of the same names
        "from gamegraph.solve import solve; from gamegraph.build import build; import gamegraph",
    ],
)
def test_every_public_name_is_there_and_build_and_solve_are_the_functions(first):
    code = """
    import json, sys, types
    print(json.dumps({
        "missing": [n for n in gamegraph.__all__ if not hasattr(gamegraph, n)],
        "unlisted": [n for n in gamegraph.__all__ if n not in dir(gamegraph)],
        "functions": [type(gamegraph.build), type(gamegraph.solve)] == [types.FunctionType] * 2,
        "modules": [sys.modules[f"gamegraph.{n}"].__name__ for n in ("build", "solve")],
    }))
    """
    assert _fresh(first + textwrap.dedent(code)) == {
        "missing": [],
        "unlisted": [],
        "functions": True,
        "modules": ["gamegraph.build", "gamegraph.solve"],
    }


def test_an_unknown_name_is_an_attribute_error():
    import gamegraph

    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        gamegraph.nothing  # noqa: B018
