"""A million states: the explorer still gives an overview page, quickly and small."""

from __future__ import annotations

import re
import time

import pytest
from pages import open_in_chromium

pytest.importorskip("plotly")

from gamegraph import build  # noqa: E402
from gamegraph.analysis import explore_graph  # noqa: E402
from gamegraph.analysis.explore import PAGE_STATES  # noqa: E402
from gamegraph.games.generated import LayeredGame  # noqa: E402
from gamegraph.renderers.explorer import decode, explore_figure  # noqa: E402


@pytest.mark.slow
def test_a_million_states_get_an_overview_page(tmp_path):
    started = time.perf_counter()
    graph = build(LayeredGame(layers=1010))
    data = explore_graph(graph)
    page = tmp_path / "million.html"
    explore_figure(data).save(page)
    seconds = time.perf_counter() - started
    size = page.stat().st_size
    print(f"{graph.n_states:,} states: {seconds:.1f} s, {size / 1e6:.1f} MB")
    assert graph.n_states == 1_003_774
    assert seconds < 120 and size < 50e6
    meta, arrays = decode(page.read_text())
    # The overview counts every state; the details hold the most visited ones.
    assert sum(meta["groupStates"]) == graph.n_states and len(meta["groupNames"]) == 1010
    assert meta["n"] == len(arrays["labels"]) == PAGE_STATES
    loaded = open_in_chromium(page, tmp_path)
    assert loaded.console == [] and "errors" not in loaded.data
    assert loaded.data["rendered"] == "yes" and loaded.data["view-states"] == "150"
    summary = re.search(r'<p id="gg-summary">([^<]*)</p>', loaded.dom).group(1)
    assert summary.startswith("1,003,774 states in 1010 groups; this page holds 300,000")
