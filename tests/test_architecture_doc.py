"""docs/architecture.md cannot drift from the code: every module has a row, every row names
a module that exists, and the layers table says what pyproject.toml's import contract
enforces, in the same order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gamegraph

ROOT = Path(__file__).resolve().parents[1]
#: The package imported (an installed copy when the sdist's tests run: its source goes).
PACKAGE = Path(gamegraph.__file__).resolve().parent
DOC = ROOT / "docs" / "architecture.md"

pytestmark = pytest.mark.skipif(not DOC.exists(), reason="needs the source tree's docs/")

TICKED = re.compile(r"`([^`]+)`")


def _sections(text: str) -> list[tuple[str, list[str]]]:
    """``(heading, table rows)`` for every ``###`` section of the module listing."""
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("### "):
            sections.append((line[4:], []))
        elif line.startswith("| `") and sections:
            sections[-1][1].append(line)
    return sections


def _first_cell(row: str) -> str:
    return row.split("|")[1]


def _resolve(token: str, bases: list[Path]) -> Path | None:
    """The file or package ``token`` names, tried against each base folder in turn."""
    for base in bases:
        candidate = base / token.rstrip("/")
        if candidate.suffix == ".py" and candidate.is_file():
            return candidate
        if token.endswith("/") and candidate.is_dir():
            return candidate
    return None


def documented(text: str | None = None) -> tuple[set[Path], list[str]]:
    """The modules the module tables name, and the tokens that name nothing."""
    found: set[Path] = set()
    stale: list[str] = []
    for heading, rows in _sections(DOC.read_text(encoding="utf-8") if text is None else text):
        section_dirs = [PACKAGE.parent / t.rstrip("/") for t in TICKED.findall(heading)]
        section_dirs = [d if d.is_dir() else d.parent for d in section_dirs]
        for row in rows:
            bases = [*section_dirs, PACKAGE]
            for token in TICKED.findall(_first_cell(row)):
                if not (token.endswith(".py") or token.endswith("/")):
                    continue
                path = _resolve(token, bases)
                if path is None:
                    stale.append(f"{heading}: {token}")
                    continue
                bases.insert(0, path.parent)  # `a/x.py`, `y.py`: y is beside x
                if path.is_dir():  # a package row names its modules in its text
                    words = set(TICKED.findall(row))
                    found |= {p for p in path.rglob("*.py") if p.stem in words}
                    found.add(path / "__init__.py")
                else:
                    found.add(path)
    return found, stale


def modules() -> set[Path]:
    return {
        path
        for path in PACKAGE.rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py") and "__pycache__" not in path.parts
    }


def test_every_module_has_a_row():
    found, _ = documented()
    missing = sorted(str(p.relative_to(PACKAGE.parent)) for p in modules() - found)
    assert missing == [], f"docs/architecture.md has no row for {missing}"


def test_every_row_names_a_module_that_exists():
    _, stale = documented()
    assert stale == [], f"docs/architecture.md names modules that do not exist: {stale}"


def _doc_layers() -> list[set[str]]:
    """The flow table's rows, top to bottom, each the set of top-level modules it names
    (backticked names outside parentheses)."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("| layer (top to bottom) | modules |", 1)[1]
    layers = []
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cell = re.sub(r"\([^)]*\)", "", line.split("|")[2])
        layers.append({t.rstrip("/").removesuffix(".py") for t in TICKED.findall(cell)})
    return layers


def _contract_layers() -> list[set[str]]:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    main = next(c for c in config["contracts"] if c.get("containers") == ["gamegraph"])
    return [{name.strip() for name in layer.split("|")} for layer in main["layers"]]


def _rank(layers: list[set[str]]) -> dict[str, int]:
    return {name: i for i, layer in enumerate(layers) for name in layer}


def test_the_layers_table_names_every_layered_module_once():
    doc = _doc_layers()
    named = [name for layer in doc for name in layer]
    assert len(named) == len(set(named)), "a module is in two rows of the layers table"
    contract = set(_rank(_contract_layers()))
    assert set(named) == contract, (
        f"only in the doc: {sorted(set(named) - contract)}; "
        f"only in pyproject.toml: {sorted(contract - set(named))}"
    )


def test_the_layers_table_keeps_the_contracts_order():
    """Above in the doc means above in the contract, and above in the contract is never
    below in the doc (the doc may put two contract layers in one row)."""
    doc, contract = _rank(_doc_layers()), _rank(_contract_layers())
    wrong = [
        (a, b)
        for a in doc
        for b in doc
        if a in contract
        and b in contract
        and (
            (doc[a] < doc[b] and not contract[a] < contract[b])
            or (contract[a] < contract[b] and doc[a] > doc[b])
        )
    ]
    assert wrong == [], f"the layers table orders these pairs unlike pyproject.toml: {wrong[:10]}"


def test_a_missing_or_stale_row_is_caught():
    """The checks can fail: a row removed leaves its module undocumented, and a row for a
    module that does not exist is reported."""
    text = DOC.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `rules.py` |"))
    found, _ = documented(text.replace(row, "| `no_such_module.py` | gone |"))
    assert PACKAGE / "rules.py" not in found and PACKAGE / "build.py" in found
    _, stale = documented(text.replace(row, "| `no_such_module.py` | gone |"))
    assert any("no_such_module.py" in s for s in stale)
