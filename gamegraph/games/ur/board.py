"""The boards of the Royal Game of Ur: each rule set's path, rosettes and tile split.

Each rule set gives light's path as a list of tiles ``(x, y)`` (:data:`PATHS`); dark's
path is its mirror image, ``x -> 4 - x``. Lanes: ``x = 1`` is light's, 2 the shared
middle lane, 3 dark's. A tile on both paths is *shared* (either side's piece may stand
there), a tile on one path only is that side's *private* tile. Every path visits a tile
at most once, so a position is fully described by the set of tiles each side occupies
and by how its other pieces split between waiting and borne off. :data:`GEOMETRY` holds
``(private, shared)`` per rule set; the Masters path crosses into dark's lane at (3,7),
(3,8) and dark's path into light's at (1,8), (1,7), so those four tiles are shared too
and Masters has 4 private and 12 shared tiles, like Aseb.

Examples
--------
>>> len(PATHS["finkel"]), tile_split("finkel")
(14, (6, 8))
"""

from __future__ import annotations

from ...errors import UnknownNameError

_START = ((1, 4), (1, 3), (1, 2), (1, 1))
_MASTERS = _START + tuple((2, y) for y in range(1, 8)) + ((3, 7), (3, 8), (2, 8), (1, 8), (1, 7))

PATHS = {
    "finkel": _START + tuple((2, y) for y in range(1, 9)) + ((1, 8), (1, 7)),
    "masters": _MASTERS,
    "blitz": _MASTERS,
    "aseb": _START + tuple((2, y) for y in range(1, 13)),
}
"""Light's path per rule set: the tiles ``(x, y)`` in the order a piece walks them.
Dark walks the mirror image (:func:`dark_path`)."""

ROSETTES = {
    "finkel": frozenset({(1, 1), (3, 1), (2, 4), (1, 7), (3, 7)}),
    "masters": frozenset({(1, 1), (3, 1), (2, 4), (1, 7), (3, 7)}),
    "blitz": frozenset({(1, 1), (3, 1), (2, 4), (1, 7), (3, 7)}),
    "aseb": frozenset({(1, 1), (3, 1), (2, 4), (2, 8), (2, 12)}),
}
"""The rosette tiles of each rule set."""

GEOMETRY = {"finkel": (6, 8), "masters": (4, 12), "blitz": (4, 12), "aseb": (4, 12)}
"""``(private, shared)`` tiles per side for each rule set (checked against :data:`PATHS`
by :func:`tile_split`)."""

PIECES = {"finkel": 7, "masters": 7, "blitz": 5, "aseb": 5}
"""The usual number of pieces per side in each rule set."""


def _ruleset(name: str) -> str:
    if name not in PATHS:
        raise UnknownNameError("rule set", name, PATHS)
    return name


def dark_path(name: str) -> tuple[tuple[int, int], ...]:
    """Dark's path in rule set ``name``: light's mirrored, ``x -> 4 - x``.

    >>> dark_path("masters")[-5:]
    ((1, 7), (1, 8), (2, 8), (3, 8), (3, 7))
    """
    return tuple((4 - x, y) for x, y in PATHS[_ruleset(name)])


def tile_split(name: str) -> tuple[int, int]:
    """``(private, shared)`` tiles per side of rule set ``name``, from the paths themselves.

    >>> {name: tile_split(name) for name in PATHS} == GEOMETRY
    True
    """
    light, dark = PATHS[_ruleset(name)], dark_path(name)
    shared = set(light) & set(dark)
    return len(set(light) - shared), len(shared)
