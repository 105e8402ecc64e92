"""Tests for gamegraph.games.ur.board and .counting: the boards' geometry and exact Ur
position counts (the paper's formula is tested in test_ur_paper.py)."""

from __future__ import annotations

from itertools import combinations

import pytest

from gamegraph import InvalidArgumentError, UnknownNameError
from gamegraph.games.ur.board import GEOMETRY, PATHS, PIECES, ROSETTES, dark_path, tile_split
from gamegraph.games.ur.counting import (
    brute_force_count,
    count_nonterminal,
    count_positions,
    count_table,
)


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------
def test_paths_are_walks_of_adjacent_distinct_tiles():
    assert {name: len(path) for name, path in PATHS.items()} == {
        "finkel": 14,
        "masters": 16,
        "blitz": 16,
        "aseb": 16,
    }
    for name, path in PATHS.items():
        assert len(set(path)) == len(path), name
        assert path[0] == (1, 4)
        steps = {abs(x1 - x2) + abs(y1 - y2) for (x1, y1), (x2, y2) in zip(path, path[1:])}
        assert steps == {1}, name


def test_masters_shares_the_tiles_where_the_paths_cross_lanes():
    light, dark = set(PATHS["masters"]), set(dark_path("masters"))
    shared = light & dark
    assert shared == {(2, y) for y in range(1, 9)} | {(1, 7), (1, 8), (3, 7), (3, 8)}
    assert light - shared == {(1, 1), (1, 2), (1, 3), (1, 4)}
    assert dark - shared == {(3, 1), (3, 2), (3, 3), (3, 4)}


def test_geometry_is_what_the_paths_give():
    assert (
        {name: tile_split(name) for name in PATHS}
        == GEOMETRY
        == {"finkel": (6, 8), "masters": (4, 12), "blitz": (4, 12), "aseb": (4, 12)}
    )
    assert sum(GEOMETRY["finkel"]) == len(PATHS["finkel"])


def test_rosettes_lie_on_the_paths():
    for name, rosettes in ROSETTES.items():
        assert len(rosettes) == 5
        assert rosettes <= set(PATHS[name]) | set(dark_path(name)), name
    assert ROSETTES["aseb"] == {(1, 1), (3, 1), (2, 4), (2, 8), (2, 12)}
    assert ROSETTES["finkel"] == ROSETTES["masters"] == ROSETTES["blitz"]


def test_unknown_rule_set():
    with pytest.raises(UnknownNameError, match="accepted: finkel, masters, blitz, aseb"):
        tile_split("bell")


# ---------------------------------------------------------------------------
# Exact counts
# ---------------------------------------------------------------------------
def test_published_and_hand_counts():
    assert count_positions(6, 8, 7) == 137_913_936  # the "King of Ur" figure
    assert count_positions(6, 8, 1) == 16 * 16 - 8  # 16 spots each, 8 shared clashes
    assert count_positions(1, 2, 1) == 23  # the paper's mini board
    assert count_nonterminal(6, 8, 3) == 263_121
    assert count_positions(0, 0, 3) == 16  # no tiles: 4 splits per side
    assert count_positions(3, 0, 0) == 1 and count_nonterminal(3, 0, 0) == 0


@pytest.mark.parametrize("private", range(4))
@pytest.mark.parametrize("shared", range(5))
@pytest.mark.parametrize("pieces", range(4))
def test_closed_form_matches_brute_force(private, shared, pieces):
    assert count_positions(private, shared, pieces) == brute_force_count(private, shared, pieces)


def side_placements(path, pieces):
    """(tiles held, pieces borne off) for one side, listed from the path's tiles."""
    out = []
    for k in range(min(pieces, len(path)) + 1):
        for held in combinations(path, k):
            for borne in range(pieces - k + 1):
                out.append((frozenset(held), borne))
    return out


@pytest.mark.parametrize("name", sorted(PATHS))
@pytest.mark.parametrize("pieces", [1, 2])
def test_counts_from_the_board_coordinates(name, pieces):
    """List both sides on the real tiles (x, y): the totals agree with GEOMETRY's split."""
    light = side_placements(PATHS[name], pieces)
    dark = side_placements(dark_path(name), pieces)
    boards = [(a, b) for a in light for b in dark if not a[0] & b[0]]
    going = [(a, b) for a, b in boards if a[1] < pieces and b[1] < pieces]
    assert len(boards) == count_positions(*GEOMETRY[name], pieces)
    assert len(going) == count_nonterminal(*GEOMETRY[name], pieces)


def test_count_table_values():
    rows = {(r.ruleset, r.pieces): (r.positions, r.nonterminal) for r in count_table()}
    assert len(rows) == 4 * 7
    assert [rows["finkel", n][0] for n in range(1, 8)] == [
        248,
        13_112,
        264_304,
        2_606_947,
        14_680_840,
        53_212_388,
        137_913_936,
    ]
    assert [rows["masters", n][0] for n in range(1, 8)] == [
        312,
        20_623,
        514_052,
        6_165_948,
        41_264_288,
        172_726_782,
        501_032_952,
    ]
    assert [rows["finkel", n][1] for n in range(1, 8)] == [
        217,
        12_869,
        263_121,
        2_602_822,
        14_669_769,
        53_188_365,
        137_870_097,
    ]
    assert [rows["aseb", n][1] for n in range(1, 8)] == [
        277,
        20_314,
        512_349,
        6_159_211,
        41_243_781,
        172_676_489,
        500_929_993,
    ]
    for n in range(1, 8):
        assert rows["masters", n] == rows["blitz", n] == rows["aseb", n]
    assert PIECES == {"finkel": 7, "masters": 7, "blitz": 5, "aseb": 5}


@pytest.mark.parametrize("args", [(-1, 8, 7), (6, -1, 7), (6, 8, -1), (6, 8, 1.0), (True, 8, 1)])
def test_counts_reject_bad_sizes(args):
    with pytest.raises(InvalidArgumentError, match="must be a whole number >= 0"):
        count_positions(*args)
    with pytest.raises(InvalidArgumentError, match="must be a whole number >= 0"):
        count_nonterminal(*args)


def test_brute_force_refuses_big_boards():
    with pytest.raises(InvalidArgumentError, match="use count_positions"):
        brute_force_count(6, 8, 7)
