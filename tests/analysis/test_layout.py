"""Layered layouts in numpy (gamegraph.analysis.layout): positions, crossings, distances."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamegraph import build
from gamegraph.analysis.layout import (
    _edges,
    _inversions,
    crossings,
    distance_layers,
    layered_layout,
)
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.pig import Pig
from gamegraph.games.supersix import SuperSix
from gamegraph.interchange import to_networkx


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
    layers, y = layout.layers, layout.y
    edges = {}
    for s, t in zip(source.tolist(), target.tolist(), strict=True):
        if abs(layers[s] - layers[t]) == 1:
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
def test_crossings_counted_by_sorting_agree_with_every_pair_compared(graphs, name):
    graph = graphs[name]
    for rounds in (0, 4):
        layout = layered_layout(graph, rounds=rounds)
        assert crossings(graph, layout) == brute_crossings(graph, layout) == layout.crossings


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


def test_a_layer_per_state_is_required(graphs):
    with pytest.raises(ValueError, match="one layer per state"):
        layered_layout(graphs["jackpot"], layers=[0, 1])


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
