"""docs/adding-a-game.md runs: its ```python blocks, in order, in one session.

Each block runs in a temporary folder (the page's diagrams and reports are written there);
where a ```text block follows a Python block, it is the output the page shows, and the
block must print exactly that. A block preceded by ``<!-- no-test -->`` is skipped.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

#: `make test-fast` leaves these out: every block of the tutorial run as the page shows it.
pytestmark = pytest.mark.heavy

pytest.importorskip("pygraphviz")
pytest.importorskip("matplotlib")
pytest.importorskip("networkx")

PAGE = Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md"
FENCE = re.compile(r"(<!-- no-test -->\s*)?```(\w*)\n(.*?)```", re.DOTALL)


def blocks(text: str):
    """(python source, expected output or None) for every Python block of the page."""
    found = [(m.group(2), m.group(3), bool(m.group(1))) for m in FENCE.finditer(text)]
    for k, (language, source, skipped) in enumerate(found):
        if language != "python" or skipped:
            continue
        follows = found[k + 1] if k + 1 < len(found) else None
        expected = follows[1] if follows and follows[0] == "text" else None
        yield source, expected


def test_the_page_has_python_blocks_with_outputs():
    found = list(blocks(PAGE.read_text()))
    assert len(found) >= 10
    assert sum(expected is not None for _, expected in found) >= 8


def test_every_block_runs_and_prints_what_the_page_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "tutorial"}
    for number, (source, expected) in enumerate(blocks(PAGE.read_text()), start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(source, f"{PAGE.name} block {number}", "exec"), namespace)
        if expected is not None:
            assert printed.getvalue().rstrip() == expected.rstrip(), f"block {number}"
    # The diagrams and reports the page promises.
    for name in ("pig.svg", "pig.html", "shutbox.svg", "shutbox.md", "homerun.png", "homerun.html"):
        assert (tmp_path / name).stat().st_size > 1000 or name == "shutbox.md", name
    assert (tmp_path / "shutbox_files" / "four-tiles.png").read_bytes()[:4] == b"\x89PNG"
    assert '<div class="svg" role="img"' in (tmp_path / "pig.html").read_text()  # inline SVG
