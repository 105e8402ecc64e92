"""The graph explorer page: hover data for every state, offline, and alive in a real browser."""

from __future__ import annotations

import re

import numpy as np
import pytest
from pages import open_in_chromium

pytest.importorskip("plotly")
pytest.importorskip("pygraphviz")

from gamegraph import build  # noqa: E402
from gamegraph.analysis import explore_graph  # noqa: E402
from gamegraph.errors import UnknownNameError  # noqa: E402
from gamegraph.renderers import explorer  # noqa: E402


@pytest.fixture(scope="module")
def jackpot_data(jackpot_graph, jackpot_optimum, jackpot_policies):
    return explore_graph(jackpot_graph, jackpot_optimum, jackpot_policies)


@pytest.fixture(scope="module")
def jackpot_figure(jackpot_data):
    return explorer.explore_figure(jackpot_data)


@pytest.fixture(scope="module")
def piglet_data(toys):
    return explore_graph(build(toys.Piglet(goal=3)), None, {"hold": lambda state, options: 0})


def node_traces(figure):
    return [trace for trace in figure.data if trace.meta == "nodes"]


def test_every_state_has_hover_data_under_every_policy(jackpot_figure, jackpot_data):
    nodes = node_traces(jackpot_figure)
    assert [trace.name for trace in nodes] == list(jackpot_data.policies)
    hilo = jackpot_data.policies.index("hilo")
    for p, trace in enumerate(nodes):
        assert len(trace.hovertext) == len(trace.x) == jackpot_data.n_states == 512
        assert trace.visible is (p == 0)
    start = nodes[hilo].hovertext[jackpot_data.start]
    assert start.startswith("<b>START</b> (start)")
    assert "reach (hilo): 1<br>value: 0.07999<br>best move: 1 (25 %)" in start
    buttons = jackpot_figure.layout.updatemenus[0].buttons
    assert [b.label for b in buttons][5] == "hilo: wins 7.99 %"
    # Each button shows exactly its policy's traces and the highlight trace.
    shown = [t.name for t, v in zip(jackpot_figure.data, buttons[hilo].args[0]["visible"]) if v]
    assert all(name.startswith("hilo") for name in shown[:-1]) and shown[-1] == "successors"


def test_edge_widths_follow_probability(jackpot_figure, jackpot_data):
    # Per policy: one faint trace for moves never taken, then four bins of probability; the
    # segments of all five traces together are the graph's edges (no self-loops in Jackpot).
    optimal = [t for t in jackpot_figure.data if t.name.startswith("optimal:")]
    assert len(optimal) == 5
    segments = [int(np.isnan(np.asarray(t.x, dtype=float)).sum()) for t in optimal]
    assert sum(segments) == jackpot_data.n_edges == 2304
    assert segments[0] == int((jackpot_data.edge_probability[0] == 0).sum())
    widths = [t.line.width for t in optimal[1:]]
    assert widths == sorted(widths) and optimal[0].opacity < optimal[-1].opacity


def test_layout_points_forward_edges_down(jackpot_data):
    xy = explorer.positions(jackpot_data)
    s, t = jackpot_data.edge_source, jackpot_data.edge_target
    assert (xy[t, 1] < xy[s, 1]).all()  # Jackpot is a DAG: every edge goes down a layer
    # One row per layer: 10 distinct heights.
    assert len(np.unique(xy[:, 1])) == 10


def test_cyclic_games_lay_out(piglet_data):
    xy = explorer.positions(piglet_data)
    assert xy.shape == (piglet_data.n_states, 2) and np.isfinite(xy).all()
    forward = piglet_data.edge_forward & (piglet_data.edge_source != piglet_data.edge_target)
    s, t = piglet_data.edge_source[forward], piglet_data.edge_target[forward]
    assert (xy[t, 1] < xy[s, 1]).all()


def test_page_is_offline_and_only_html_or_json(tmp_path, jackpot_figure):
    with pytest.raises(UnknownNameError):
        jackpot_figure.save(tmp_path / "page.png")
    assert list(tmp_path.iterdir()) == []
    jackpot_figure.save(tmp_path / "page.html")
    text = (tmp_path / "page.html").read_text()
    assert not re.search(r"<script[^>]+src=[\"']?http", text)
    assert not re.search(r"<link[^>]+href=[\"']?http", text)
    assert "plotly_click" in text and "data-rendered" not in text  # set by the script
    assert text == jackpot_figure.html()
    jackpot_figure.save(tmp_path / "page.json")
    assert (tmp_path / "page.json").read_text().startswith("{")


@pytest.fixture(scope="module")
def piglet_figure(piglet_data):
    return explorer.explore_figure(piglet_data, title="Piglet to 3")


@pytest.mark.parametrize("which", ["jackpot", "piglet"])
def test_the_page_works_in_headless_chromium(tmp_path, request, which):
    figure = request.getfixturevalue(f"{which}_figure")
    data = request.getfixturevalue(f"{which}_data")
    page = tmp_path / "page.html"
    figure.save(page)
    loaded = open_in_chromium(page, tmp_path, "#selftest")
    attributes, console = loaded.data, loaded.console
    assert console == [] and "errors" not in attributes
    assert attributes["rendered"] == "yes" and attributes["selftest"] == "done"
    # Hover data for every state, before and after switching to the last policy.
    assert attributes["hover-nodes"] == attributes["policy-hover-nodes"] == str(data.n_states)
    assert attributes["policy"] == data.policies[-1]
    # Hovering the start shows its label and value; clicking it rings its successors.
    assert attributes["hover-text"].startswith(data.labels[data.start])
    assert f"value: {data.values[data.start]:.5f}" in attributes["hover-text"]
    start = data.start
    successors = {int(t) for s, t in zip(data.edge_source, data.edge_target) if s == start != t}
    assert attributes["highlighted"] == str(len(successors)) and attributes["clicked"] == str(start)
