"""Layered layouts in numpy (gamegraph.analysis.layout): positions, crossings, distances."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamegraph import build
from gamegraph.analysis import layout as layout_module
from gamegraph.analysis.layout import (
    Layout,
    _edges,
    _game_layers,
    _inversions,
    crossings,
    distance_layers,
    layered_layout,
    layered_positions,
)
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.pig import Pig
from gamegraph.games.supersix import SuperSix
from gamegraph.games.ur import Ur, rule_set
from gamegraph.interchange import to_networkx

ENGINES = ["numpy", "kernel", "kernel-python"]


@pytest.fixture(params=ENGINES)
def engine(request, monkeypatch):
    """Crossings counted by the numpy merge, the compiled kernel (numba) or the kernel's
    plain-Python source, whatever the size of the graph.
    """
    if request.param == "numpy":
        monkeypatch.setattr(layout_module, "KERNEL_MIN_EDGES", 10**18)
    else:
        monkeypatch.setattr(layout_module, "KERNEL_MIN_EDGES", 0)
        if request.param == "kernel":
            pytest.importorskip("numba")
        else:
            kernel = layout_module._count_crossings
            monkeypatch.setattr(layout_module, "_compile", lambda: None)
            monkeypatch.setattr(
                layout_module, "_count_crossings", getattr(kernel, "py_func", kernel)
            )
    return request.param


@pytest.fixture(scope="module")
def graphs():
    return {
        "jackpot": build(Jackpot()),
        "supersix-12": build(SuperSix(pegs=12)),
        "supersix-40": build(SuperSix(pegs=40)),
        "pig-10": build(Pig(10)),
    }


def brute_crossings(graph, layout) -> int:
    """Every pair of edges between the same two neighbouring layers, compared."""
    source, target = _edges(graph)
    return brute_crossings_of(source, target, layout.layers, layout.y)


def brute_crossings_of(source, target, layers, y) -> int:
    """The same on arrays (distinct edges, no self-loops). Neighbouring layers are those
    with no layer holding a state between them (drawn side by side, 0 and 2 when no state
    is in layer 1).
    """
    column = {layer: i for i, layer in enumerate(sorted(set(np.asarray(layers).tolist())))}
    edges = {}
    for s, t in zip(source.tolist(), target.tolist(), strict=True):
        if abs(column[int(layers[s])] - column[int(layers[t])]) == 1:
            upper, lower = (s, t) if layers[s] < layers[t] else (t, s)
            edges.setdefault(int(layers[upper]), []).append((y[upper], y[lower]))
    return sum(
        (a[0] - b[0]) * (a[1] - b[1]) < 0
        for pairs in edges.values()
        for a, b in itertools.combinations(pairs, 2)
    )


@pytest.mark.parametrize("name", ["jackpot", "supersix-12", "supersix-40", "pig-10"])
def test_every_state_has_its_layer_and_a_place_of_its_own(graphs, name):
    graph = graphs[name]
    layout = layered_layout(graph)
    layers = graph.layers if graph.layers is not None else distance_layers(graph)
    assert np.array_equal(layout.x, layers) and np.array_equal(layout.layers, layers)
    for layer in np.unique(layers).tolist():
        places = np.sort(layout.y[layers == layer])
        size = len(places)
        assert np.array_equal(places, np.arange(size) - (size - 1) / 2)


@pytest.mark.parametrize("name", ["jackpot", "supersix-12", "pig-10"])
def test_crossings_counted_agree_with_every_pair_compared(graphs, name, engine):
    graph = graphs[name]
    for rounds in (0, 4):
        layout = layered_layout(graph, rounds=rounds)
        assert crossings(graph, layout) == brute_crossings(graph, layout) == layout.crossings


@pytest.mark.parametrize("name", ["jackpot", "supersix-12", "pig-10"])
def test_states_at_the_same_place_share_a_point(graphs, name, engine):
    """Places with ties (half the places merged, pairwise): edges from one point, or to
    one point, do not cross.
    """
    graph = graphs[name]
    layout = layered_layout(graph)
    tied = Layout(x=layout.x, y=np.floor(layout.y / 2), layers=layout.layers, rounds=0, crossings=0)
    expected = brute_crossings(graph, tied)
    assert crossings(graph, tied) == expected < layout.crossings


def test_the_engines_agree_on_ur_with_two_pieces(monkeypatch):
    """Ur (finkel, 2 pieces, 12,870 states): its crossings, as measured when the layout
    was written, by the numpy merge and by the kernel.
    """
    graph = Ur(rule_set("finkel", 2)).build_graph()
    found = []
    for least in (10**18, 0):
        monkeypatch.setattr(layout_module, "KERNEL_MIN_EDGES", least)
        if least == 0 and not layout_module._kernels.available():
            continue
        before = layered_layout(graph, rounds=0)
        after = layered_layout(graph)
        found.append((before.crossings, after.crossings, after.y))
    assert found[0][:2] == (109_861_579, 34_050_849)  # -69 %
    for other in found[1:]:
        assert other[:2] == found[0][:2] and np.array_equal(other[2], found[0][2])


def test_barycentres_remove_most_crossings_of_super_six(graphs):
    graph = graphs["supersix-40"]
    before = layered_layout(graph, rounds=0).crossings
    after = layered_layout(graph).crossings
    assert (before, after) == (86_294, 33_624)  # 61 % fewer


@pytest.mark.parametrize("name", ["jackpot", "supersix-12", "supersix-40", "pig-10"])
def test_never_more_crossings_than_the_numbering_order(graphs, name):
    graph = graphs[name]
    assert layered_layout(graph).crossings <= layered_layout(graph, rounds=0).crossings


def test_distances_are_those_networkx_finds(graphs):
    graph = graphs["pig-10"]
    depth = distance_layers(graph)
    g = to_networkx(graph)
    states = list(graph.states)
    found = nx.single_source_shortest_path_length(g, states[graph.start])
    assert {states[i]: int(d) for i, d in enumerate(depth)} == found


def test_distances_of_states_the_start_cannot_reach_are_one_past_the_farthest():
    # 0 -> 1 -> 2, 0 -> 2, 3 -> 0 (3 and 4 unreachable)
    depth = layout_module._distances(5, np.array([0, 1, 0, 3]), np.array([1, 2, 2, 0]), 0)
    assert depth.tolist() == [0, 1, 1, 2, 2]


def test_a_layer_per_state_is_required(graphs):
    with pytest.raises(ValueError, match="one layer per state"):
        layered_layout(graphs["jackpot"], layers=[0, 1])
    with pytest.raises(ValueError, match="one layer per state"):
        layered_positions(3, [0], [1], [0, 1])


def test_edges_must_name_states():
    with pytest.raises(ValueError, match="target states are numbered 0 to 2"):
        layered_positions(3, [0], [3], [0, 1, 2])
    with pytest.raises(ValueError, match="a target per source"):
        layered_positions(3, [0, 1], [1], [0, 1, 2])


@pytest.mark.parametrize("name", ["jackpot", "supersix-40", "pig-10"])
def test_positions_from_arrays_are_those_of_the_graph(graphs, name):
    """Moves repeated, in any order, and moves back to their own state change nothing."""
    graph = graphs[name]
    layout = layered_layout(graph)
    source, target = _edges(graph)
    n = graph.n_states
    noisy_source = np.concatenate([source[::-1], source, np.arange(n)])
    noisy_target = np.concatenate([target[::-1], target, np.arange(n)])
    found = layered_positions(n, noisy_source, noisy_target, layout.layers)
    assert np.array_equal(found.y, layout.y) and np.array_equal(found.x, layout.x)
    assert (found.crossings, found.rounds) == (layout.crossings, layout.rounds)


@pytest.mark.parametrize(
    "rules", [Jackpot(), SuperSix(pegs=12), Pig(10)], ids=["jackpot", "supersix-12", "pig-10"]
)
def test_layers_without_asking_each_state_are_the_graphs(rules):
    graph = build(rules)
    quick = _game_layers(graph)  # before graph.layers has asked every state
    if graph.layers is None:
        assert quick is None and type(rules).layer is layout_module.Rules.layer
    else:
        assert np.array_equal(quick, graph.layers)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 4),
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=40),
    st.lists(st.integers(0, 3), min_size=12, max_size=12),
    st.integers(0, 2**32 - 1),
)
def test_random_layered_graphs_crossings_agree_with_every_pair_compared(
    rounds, edges, layers, seed
):
    n = 12
    source = np.array([s for s, _ in edges], dtype=np.int64)
    target = np.array([t for _, t in edges], dtype=np.int64)
    before = layered_positions(n, source, target, layers, rounds=0)
    after = layered_positions(n, source, target, layers, rounds=rounds)
    source, target = layout_module._distinct(n, source, target)
    for layout in (before, after):
        assert layout.crossings == brute_crossings_of(source, target, layout.layers, layout.y)
    assert after.crossings <= before.crossings
    # Any places at all, ties among them, counted by every engine.
    y = np.random.default_rng(seed).integers(0, 3, n).astype(np.float64)
    expected = brute_crossings_of(source, target, before.layers, y)
    gaps = layout_module._Gaps(layout_module._Rows(before.layers), source, target)
    kernel = getattr(layout_module._count_crossings, "py_func", layout_module._count_crossings)
    rank, order = gaps._ranks(y)
    rows = gaps.rows
    tree = np.zeros(int(rows.sizes.max()) + 1, dtype=np.int64)
    assert kernel(rows.starts, order, rank, gaps.ptr, gaps.lower, tree) == expected
    assert layout_module._crossings_by_merging(gaps.upper, gaps.lower, rows.row, rank) == (expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-5, 5)), max_size=60))
def test_inversions_by_merging_agree_with_every_pair_compared(items):
    items.sort(key=lambda item: item[0])  # grouped, as the caller gives them
    groups = np.array([g for g, _ in items], dtype=np.int64)
    values = np.array([v for _, v in items], dtype=np.int64)
    expected = sum(
        items[i][0] == items[j][0] and items[i][1] > items[j][1]
        for i in range(len(items))
        for j in range(i + 1, len(items))
    )
    assert _inversions(values, groups) == expected
