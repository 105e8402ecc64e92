"""The interactive Super Six page: its embedded data, and that it renders in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("plotly")

from gamegraph import build, solve  # noqa: E402
from gamegraph.errors import UnknownNameError  # noqa: E402
from gamegraph.games.supersix import SuperSix, decision_table  # noqa: E402
from gamegraph.renderers import heatmap  # noqa: E402


@pytest.fixture(scope="module")
def table():
    return decision_table(solve(build(SuperSix(pegs=16))))


@pytest.fixture(scope="module")
def page_text(table):
    starts = {n: solve(build(SuperSix(pegs=n))).start_value for n in range(4, 17, 2)}
    return heatmap.page(table, pegs=10, pegs_range=(4, 16), start_values=starts, rules_name="free")


def embedded_data(text: str) -> dict:
    match = re.search(r"const DATA = (\{.*?\});\n", text)
    assert match, "the page embeds its data as one JSON object"
    return json.loads(match.group(1))


def test_page_is_self_contained(page_text):
    # plotly.js is inlined: no script or stylesheet is fetched from anywhere.
    assert not re.search(r"<script[^>]+src=", page_text)
    assert not re.search(r"<link[^>]+href=", page_text)
    assert "Plotly.react" in page_text and len(page_text) > 1_000_000


def test_embedded_table_matches_the_solution(page_text, table):
    data = embedded_data(page_text)
    assert len(data["b"]) == len(table) == sum((16 - b) * (16 - b - 1) // 2 for b in range(6))
    row = table.lookup(4, 1, 1)
    assert data["roll"][row] == pytest.approx(float(table.p_roll[row]), abs=1e-12)
    assert data["end"][row] == pytest.approx(float(table.p_end[row]), abs=1e-12)
    margin = np.array(data["roll"]) - np.array(data["end"])
    assert data["margin_limit"] == pytest.approx(np.max(np.abs(margin)), abs=1e-12)
    assert (data["low"], data["high"], data["pegs"]) == (4, 16, 10)
    # The start value shown for 4 pegs is Jehn's P(0/2/2) = 36/41.
    assert data["start"]["4"] == pytest.approx(float(Fraction(36, 41)), abs=1e-12)


def test_only_html_is_written(tmp_path, page_text):
    with pytest.raises(UnknownNameError):
        heatmap.write_page(tmp_path / "map.png", page_text)
    assert list(tmp_path.iterdir()) == []
    heatmap.write_page(tmp_path / "map.html", page_text)
    assert (tmp_path / "map.html").read_text() == page_text


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.parametrize("metric, pegs", [("decision", 16), ("margin", 8), ("choice", 12)])
def test_the_page_renders_in_headless_chromium(tmp_path, page_text, metric, pegs):
    browser = _chromium()
    if browser is None:
        pytest.skip(
            "headless Chromium is not installed; `make test` installs Debian's "
            "chromium package when it runs as root with apt-get"
        )
    page = tmp_path / "map.html"
    page.write_text(page_text)
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=10000",
        "--dump-dom",
    ]
    run = subprocess.run(
        [browser, *flags, f"{page.as_uri()}#metric={metric}&pegs={pegs}"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    dom = run.stdout
    body = re.search(r"<body[^>]*>", dom)
    assert body, f"no DOM from Chromium: {run.stderr[-500:]}"
    # The page marks its body once Plotly has drawn, with the controls' state.
    assert 'data-rendered="yes"' in body.group(0)
    assert f'data-metric="{metric}"' in body.group(0)
    assert f'data-pegs="{pegs}"' in body.group(0)
    assert dom.count('class="heatmaplayer') == 6  # one panel per pegs on the lid
    shown = re.search(r"first player wins ([0-9.]+) % from the start", dom)
    expected = solve(build(SuperSix(pegs=pegs))).start_value
    assert shown and float(shown.group(1)) == pytest.approx(100 * expected, abs=0.0006)
