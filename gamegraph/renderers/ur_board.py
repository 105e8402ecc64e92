"""The Royal Game of Ur's board as a picture: tiles, rosettes, pieces and annotated moves.

:func:`draw_board` draws one position of a rule set (:mod:`gamegraph.games.ur`): the
tiles both sides walk (the union of light's path and its mirror image, so Finkel's board
has its gap and Aseb's middle lane its twelve rows), the rosettes, the side to move as
*light* and its opponent as *dark*, each side's waiting and borne-off pieces as counted
piles where its path enters and leaves the board, and optionally a throw with every
legal move drawn as an arrow along the path, labelled with the win probability the move
leaves the mover (from :meth:`gamegraph.games.ur.code_table.SolvedTable.move_values`); the
best move is blue (``BETTER`` of :mod:`gamegraph.renderers._colours`) and bold, the others grey.

The picture is laid out by :func:`board_layout`, a plain record of what goes where (tiles,
pieces, piles, move routes and label texts), then drawn by :func:`board_figure`. Tests and
callers can check the layout without parsing an image.

Why matplotlib for both formats: one drawing path gives PNG and SVG that show the same
thing (a hand-written SVG would still need matplotlib or another rasteriser for PNG). The
SVG keeps its text as ``<text>`` (``svg.fonttype = none``), so the move values can be
searched and read back, and every element carries an id (``tile-1-4``,
``piece-light-6``, ``piece-dark-9``, ``rosette-2-4``, ``move-4-6``, ``value-4-6``,
``count-light-waiting``, ...). Output is deterministic: fixed hash salt, no date.

Board coordinates: tile ``(x, y)`` has lane ``x`` (1 light's, 2 shared, 3 dark's) and row
``y``; it is drawn at column ``y`` and height ``x``, so light's lane is the bottom row of
the picture and dark's the top one.

Examples
--------
>>> from gamegraph.games.ur import rule_set
>>> layout = board_layout(rule_set("finkel", pieces=3), "4,6/9+1", throw=3,
...                       move_values=[((0, 3, False), 0.41), ((4, 7, False), 0.38),
...                                    ((6, 9, True), 0.57)])
>>> len(layout.tiles), len(layout.rosettes), layout.light, layout.dark
(20, 5, {4: (1, 1), 6: (2, 2)}, {9: (2, 5)})
>>> layout.waiting, layout.borne_off
((1, 1), (0, 1))
>>> [(mark.move, mark.label, mark.best) for mark in layout.moves]
[((0, 3, False), '0.4100', False), ((4, 7, False), '0.3800', False), ((6, 9, True), '0.5700', True)]
"""

from __future__ import annotations

from dataclasses import dataclass

from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import (
    WIN,
    RuleSet,
    UrState,
    check_throw,
    format_position,
    legal_moves,
    parse_position,
    position_problem,
    rule_set,
)

from .._files import check_output
from ._colours import BETTER
from .figures import EXTENSIONS, figure_and_axes, save

#: Decimals of the win probabilities written on the moves.
VALUE_DIGITS = 4
#: Moves within this of the best value are all highlighted as best.
BEST_TOLERANCE = 1e-12
#: Moves per line of the list under the board (seven pieces can offer seven moves).
MOVES_PER_LINE = 4
#: How far apart (in tiles) arrows along the same stretch of path are drawn.
ARROW_GAP = 0.13

LIGHT, DARK = "light", "dark"
_TILE, _TILE_EDGE = "#e8d3a9", "#7a5a2f"
_ROSETTE = "#b2182b"
_PIECE = {LIGHT: ("#fbf7ee", "#222222"), DARK: ("#3b2a22", "#000000")}
_TEXT_ON = {LIGHT: "#222222", DARK: "#ffffff"}
_MOVE, _BEST = "#555555", BETTER  # grey moves, the best in blue and bold


@dataclass(frozen=True)
class MoveMark:
    """One annotated move: what it is, the value it leaves and where its arrow runs.

    ``move`` is ``(from, to, captures)`` as :func:`gamegraph.games.ur.legal_moves` gives
    it (``None`` for a throw with no move, when the turn passes); ``route`` the drawing
    points (column, height) from the moving piece to its destination; ``label`` the
    value as written on the picture.
    """

    move: tuple | None
    value: float
    best: bool
    route: tuple
    label: str

    @property
    def gid(self) -> str:
        return "pass" if self.move is None else f"{self.move[0]}-{self.move[1]}"


@dataclass(frozen=True)
class BoardLayout:
    """Everything :func:`board_figure` draws, in board terms.

    Attributes
    ----------
    ruleset : RuleSet
    state : UrState
        Seen from the side to move (light).
    tiles : tuple of (x, y)
        Every tile of the board, sorted.
    rosettes : tuple of (x, y)
    light, dark : dict
        Square (in the side's own numbering) -> tile of each piece on the board.
    waiting, borne_off : (int, int)
        Light's and dark's counts.
    piles : dict
        ``(side, "waiting" | "off")`` -> drawing point of the pile.
    throw : int or None
    moves : tuple of MoveMark
    title : str or None
    """

    ruleset: RuleSet
    state: UrState
    tiles: tuple
    rosettes: tuple
    light: dict
    dark: dict
    waiting: tuple
    borne_off: tuple
    piles: dict
    throw: int | None
    moves: tuple
    title: str | None


def board_tiles(ruleset) -> tuple:
    """Every tile of the rule set's board: light's path and dark's mirror image, sorted.

    >>> tiles = board_tiles(rule_set("finkel"))
    >>> len(tiles), (1, 5) in tiles, (2, 5) in tiles
    (20, False, True)
    >>> len(board_tiles(rule_set("aseb")))
    20
    """
    ruleset = rule_set(ruleset)
    return tuple(sorted(set(ruleset.path) | set(ruleset.dark_path)))


def _point(tile) -> tuple[float, float]:
    """Drawing point (column, height) of a tile or of a point beyond the board."""
    x, y = tile
    return float(y), float(x)


def _beyond(path, end: int) -> tuple:
    """The cell one step past the start (end=0) or the finish (end=-1) of a path."""
    (x0, y0), (x1, y1) = (path[0], path[1]) if end == 0 else (path[-1], path[-2])
    return (2 * x0 - x1, 2 * y0 - y1)


def _pile_points(ruleset: RuleSet, tiles) -> dict:
    """Where each side's waiting and borne-off piles stand: just before its path starts
    and just past its end (Finkel's gap). A pile that would sit on a tile goes outside
    the board; piles that would share a point are moved apart.
    """
    points = {}
    for side, path in ((LIGHT, ruleset.path), (DARK, ruleset.dark_path)):
        for kind, end in (("waiting", 0), ("off", -1)):
            cell = _beyond(path, end)
            column, height = _point(cell)
            if cell in tiles:
                height = 0.0 if side == LIGHT else 4.0
            points[(side, kind)] = (column, height)
    keys = list(points)
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            if points[a] == points[b]:
                column, height = points[a]
                low, high = (a, b) if a[0] == LIGHT else (b, a)
                points[low], points[high] = (column, height - 0.22), (column, height + 0.22)
    return points


def _route(ruleset: RuleSet, move, piles) -> tuple:
    """Drawing points of a move along the mover's path, corners only."""
    source, target, _ = move
    length = ruleset.length

    def point(square):
        if square == 0:
            return piles[(LIGHT, "waiting")]
        if square == length + 1:
            return piles[(LIGHT, "off")]
        return _point(ruleset.path[square - 1])

    points = [point(s) for s in range(source, target + 1)]
    corners = [points[0]]
    for i in range(1, len(points) - 1):
        (ax, ay), (bx, by), (cx, cy) = points[i - 1], points[i], points[i + 1]
        if (bx - ax) * (cy - by) != (by - ay) * (cx - bx):  # the direction turns
            corners.append(points[i])
    corners.append(points[-1])
    return tuple(corners)


def _check_state(ruleset: RuleSet, state) -> UrState:
    if isinstance(state, str):
        return parse_position(state, ruleset)
    if state == WIN or not isinstance(state, UrState):
        raise InvalidArgumentError(
            f"state must be an UrState or a position such as '4,13+2/6+1', got {state!r}"
        )
    problem = position_problem(state, ruleset)
    if problem:
        raise InvalidArgumentError(f"position {format_position(state)}: {problem}")
    return state


def _check_moves(ruleset: RuleSet, state: UrState, throw, move_values) -> list:
    """``move_values`` as [(move or None, float)], checked against the legal moves."""
    if move_values is None:
        return []
    if throw is None:
        raise InvalidArgumentError(
            "move_values need the throw they were computed for: pass throw= as well"
        )
    pairs = []
    for entry in move_values:
        try:
            move, value = entry
            value = float(value)
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"move_values holds {entry!r}; each entry is ((from, to, captures), "
                "win probability), as SolvedTable.move_values gives them"
            ) from None
        if not 0.0 <= value <= 1.0:
            raise InvalidArgumentError(f"move {move!r}: value {value!r} is not a probability")
        pairs.append((None if move is None else tuple(move), value))
    legal = legal_moves(state, throw, ruleset)
    given = [move for move, _ in pairs]
    if sorted(given, key=repr) != sorted(legal or [None], key=repr):
        raise InvalidArgumentError(
            f"move_values {given} are not the legal moves of {format_position(state)} "
            f"after a throw of {throw}: {legal or 'none (the turn passes)'}"
        )
    return pairs


def board_layout(
    ruleset, state, *, throw: int | None = None, move_values=None, title: str | None = None
) -> BoardLayout:
    """Where everything goes: tiles, pieces, piles and the annotated moves.

    Parameters
    ----------
    ruleset : RuleSet or str
        A rule set name takes the rule set's own piece count; pass a RuleSet
        (``rule_set("finkel", pieces=3)``) for another.
    state : UrState or str
        The position, seen from the side to move (drawn as light).
    throw : int, optional
        The throw to show; must be one the dice can make.
    move_values : sequence of (move, float), optional
        Every legal move after ``throw`` with the win probability it leaves the mover,
        as :meth:`SolvedTable.move_values` returns them (``[(None, v)]`` when the throw
        has no move).
    title : str, optional

    Raises
    ------
    InvalidArgumentError
        An impossible position or throw, move values without a throw, or moves that are
        not the position's legal moves.
    """
    ruleset = rule_set(ruleset)
    state = _check_state(ruleset, state)
    if throw is not None:
        check_throw(throw, ruleset)
    pairs = _check_moves(ruleset, state, throw, move_values)
    tiles = board_tiles(ruleset)
    piles = _pile_points(ruleset, set(tiles))
    best = max((v for _, v in pairs), default=None)
    moves = tuple(
        MoveMark(
            move,
            value,
            value >= best - BEST_TOLERANCE,
            _route(ruleset, move, piles) if move is not None else (),
            f"{value:.{VALUE_DIGITS}f}",
        )
        for move, value in pairs
    )
    return BoardLayout(
        ruleset=ruleset,
        state=state,
        tiles=tiles,
        rosettes=tuple(sorted(ruleset.rosettes)),
        light={s: ruleset.path[s - 1] for s in state.mover},
        dark={s: ruleset.dark_path[s - 1] for s in state.opponent},
        waiting=state.waiting(ruleset.pieces),
        borne_off=(state.mover_off, state.opponent_off),
        piles=piles,
        throw=throw,
        moves=moves,
        title=title,
    )


def _star(center, outer: float, inner: float, points: int = 8):
    import math

    cx, cy = center
    return [
        (
            cx + (outer if k % 2 == 0 else inner) * math.cos(math.pi * k / points + math.pi / 2),
            cy + (outer if k % 2 == 0 else inner) * math.sin(math.pi * k / points + math.pi / 2),
        )
        for k in range(2 * points)
    ]


def _arrow_shift(move, throw: int) -> float:
    """How far a move's arrow is drawn off the path's centre line, in tiles.

    Two arrows share a stretch of path only when their pieces stand fewer than ``throw``
    squares apart, and then their squares differ modulo the throw: so the square modulo
    the throw sets the offset, and arrows that never meet stay on the centre line.

    >>> [_arrow_shift((s, s + 2, False), 2) for s in (0, 4, 13)]
    [-0.065, -0.065, 0.065]
    >>> _arrow_shift((7, 8, False), 1)
    0.0
    """
    return round((move[0] % throw - (throw - 1) / 2) * ARROW_GAP, 9)


def _describe(mark: MoveMark, length: int) -> str:
    if mark.move is None:
        return "no move: the turn passes"
    source, target, captures = mark.move
    start = "enter" if source == 0 else str(source)
    end = "off" if target == length + 1 else str(target)
    return f"{start} \u2192 {end}" + (" captures" if captures else "")


def board_figure(layout: BoardLayout, *, numbers: bool = True, ax=None):
    """The matplotlib figure of a layout (see :func:`board_layout`).

    ``numbers`` writes each tile's square number, light's in the lower left corner and
    dark's in the upper right where it differs. With ``ax=`` the board is drawn into the
    caller's Axes (its limits, aspect and title are set, its frame hidden) and that
    Axes' figure is returned; otherwise a new
    :class:`~gamegraph.renderers.figures.StaticFigure` sized to the board (about 0.78 in
    per tile).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> layout = board_layout("finkel", "4/9")
    >>> board_figure(layout)
    <StaticFigure 6.552x4.105 in, 1 axes>
    >>> mine = Figure()
    >>> board_figure(layout, ax=mine.subplots()) is mine
    True
    """
    columns = [_point(t)[0] for t in layout.tiles] + [p[0] for p in layout.piles.values()]
    left, right = min(columns) - 0.7, max(columns) + 0.7
    lines = -(-len(layout.moves) // MOVES_PER_LINE)
    bottom, top = -0.45 - 0.3 * (lines > 0) - 0.2 * lines * (lines > 1), 4.3
    width = right - left
    figure, axes = figure_and_axes(ax, figsize=(0.78 * width, 0.78 * (top - bottom) + 0.4))
    axes.set_xlim(left, right)
    axes.set_ylim(bottom, top)
    axes.set_aspect("equal")
    axes.axis("off")
    _draw_tiles(axes, layout, numbers)
    _draw_pieces(axes, layout)
    _draw_piles(axes, layout)
    _draw_summaries(axes, layout, left, right)
    for mark in layout.moves:
        if mark.move is not None:
            _draw_move(axes, mark, layout.throw)
    if layout.moves:
        _draw_move_list(axes, layout, left)
    if layout.title:
        axes.set_title(layout.title, fontsize=11)
    return figure


def _draw_tiles(axes, layout: BoardLayout, numbers: bool) -> None:
    """The tiles, with their square numbers (light's lower left, dark's upper right
    where they differ), and the rosettes' stars.
    """
    from matplotlib.patches import Polygon, Rectangle

    ruleset = layout.ruleset
    light_numbers = {tile: s for s, tile in enumerate(ruleset.path, 1)}
    dark_numbers = {tile: s for s, tile in enumerate(ruleset.dark_path, 1)}
    for tile in layout.tiles:
        cx, cy = _point(tile)
        axes.add_patch(
            Rectangle(
                (cx - 0.5, cy - 0.5),
                1,
                1,
                facecolor=_TILE,
                edgecolor=_TILE_EDGE,
                linewidth=1.5,
                gid=f"tile-{tile[0]}-{tile[1]}",
            )
        )
        if numbers:
            if tile in light_numbers:
                axes.text(
                    cx - 0.44,
                    cy - 0.44,
                    str(light_numbers[tile]),
                    fontsize=6,
                    color="#6b6b6b",
                    ha="left",
                    va="bottom",
                )
            if tile in dark_numbers and dark_numbers[tile] != light_numbers.get(tile):
                axes.text(
                    cx + 0.44,
                    cy + 0.44,
                    str(dark_numbers[tile]),
                    fontsize=6,
                    color="#8c510a",
                    ha="right",
                    va="top",
                )
    for tile in layout.rosettes:
        axes.add_patch(
            Polygon(
                _star(_point(tile), 0.44, 0.2),
                closed=True,
                facecolor="none",
                edgecolor=_ROSETTE,
                linewidth=1.4,
                gid=f"rosette-{tile[0]}-{tile[1]}",
            )
        )


def _draw_pieces(axes, layout: BoardLayout) -> None:
    """Each side's pieces on the board, a ring inside each."""
    from matplotlib.patches import Circle

    for side, pieces in ((LIGHT, layout.light), (DARK, layout.dark)):
        face, edge = _PIECE[side]
        for square, tile in pieces.items():
            center = _point(tile)
            axes.add_patch(
                Circle(
                    center,
                    0.33,
                    facecolor=face,
                    edgecolor=edge,
                    linewidth=1.6,
                    zorder=3,
                    gid=f"piece-{side}-{square}",
                )
            )
            axes.add_patch(
                Circle(center, 0.17, facecolor="none", edgecolor=edge, linewidth=0.8, zorder=3)
            )


def _draw_piles(axes, layout: BoardLayout) -> None:
    """The piles of pieces waiting and borne off, each a counted piece, faded when empty."""
    from matplotlib.patches import Circle

    counts = {
        (LIGHT, "waiting"): layout.waiting[0],
        (DARK, "waiting"): layout.waiting[1],
        (LIGHT, "off"): layout.borne_off[0],
        (DARK, "off"): layout.borne_off[1],
    }
    shared_point = len(set(layout.piles.values())) < len(layout.piles)
    for (side, kind), (cx, cy) in layout.piles.items():
        face, edge = _PIECE[side]
        radius = 0.2 if shared_point else 0.26
        count = counts[(side, kind)]
        axes.add_patch(
            Circle(
                (cx, cy),
                radius,
                facecolor=face,
                edgecolor=edge,
                linewidth=1.2,
                alpha=1.0 if count else 0.35,
                zorder=3,
                gid=f"pile-{side}-{kind}",
            )
        )
        axes.text(
            cx,
            cy,
            str(count),
            ha="center",
            va="center",
            fontsize=8,
            fontweight="bold",
            color=_TEXT_ON[side],
            zorder=4,
            gid=f"count-{side}-{kind}",
        )
        outward = -1 if side == LIGHT else 1
        axes.text(
            cx,
            cy + outward * (radius + 0.05),
            "to enter" if kind == "waiting" else "off",
            ha="center",
            va="top" if side == LIGHT else "bottom",
            fontsize=6,
            color="#444444",
        )


def _draw_summaries(axes, layout: BoardLayout, left: float, right: float) -> None:
    """Each side's pieces in words (light below the board, dark above), and the throw."""

    def summary(side, index, to_move):
        on_board = len(layout.light if side == LIGHT else layout.dark)
        who = f"{side.capitalize()}{' (to move)' if to_move else ''}"
        return (
            f"{who}: {on_board} on the board, {layout.waiting[index]} waiting, "
            f"{layout.borne_off[index]} borne off"
        )

    axes.text(
        left + 0.1, 0.12, summary(LIGHT, 0, True), fontsize=8, va="center", gid="summary-light"
    )
    axes.text(
        left + 0.1, 3.88, summary(DARK, 1, False), fontsize=8, va="center", gid="summary-dark"
    )
    if layout.throw is not None:
        axes.text(
            right - 0.1,
            0.12,
            f"throw: {layout.throw}",
            fontsize=10,
            fontweight="bold",
            ha="right",
            va="center",
            gid="throw",
        )


def _draw_move(axes, mark: MoveMark, throw: int) -> None:
    """One move: an arrow along its route (green and heavier when best), and its value
    in a box at the target.
    """
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.path import Path as DrawPath

    shift = _arrow_shift(mark.move, throw)
    points = [(x + shift, y + shift) for x, y in mark.route]
    (ax, ay), (bx, by) = points[-2], points[-1]
    size = max(abs(bx - ax), abs(by - ay)) or 1.0
    points[-1] = (bx - 0.2 * (bx - ax) / size, by - 0.2 * (by - ay) / size)
    colour = _BEST if mark.best else _MOVE
    axes.add_patch(
        FancyArrowPatch(
            path=DrawPath(points),
            arrowstyle="-|>",
            mutation_scale=13 if mark.best else 10,
            linewidth=2.6 if mark.best else 1.3,
            color=colour,
            alpha=1.0 if mark.best else 0.85,
            zorder=5,
            gid=f"move-{mark.gid}",
        )
    )
    tx, ty = mark.route[-1]
    axes.text(
        tx,
        ty + 0.3,
        mark.label,
        ha="center",
        va="center",
        fontsize=7,
        fontweight="bold" if mark.best else "normal",
        color=colour,
        zorder=6,
        bbox=dict(
            boxstyle="round,pad=0.15",
            facecolor="white",
            alpha=0.9,
            edgecolor=colour,
            linewidth=1.2 if mark.best else 0.6,
        ),
        gid=f"value-{mark.gid}",
    )


def _draw_move_list(axes, layout: BoardLayout, left: float) -> None:
    """Every move and its value in words under the board (or that the turn passes)."""
    entries = [
        f"{_describe(m, layout.ruleset.length)}: {m.label}" + (" (best)" if m.best else "")
        for m in layout.moves
    ]
    if layout.moves[0].move is None:
        axes.text(left + 0.1, -0.45, entries[0], fontsize=8, va="center", gid="value-pass")
        return
    rows = [
        "   ".join(entries[i : i + MOVES_PER_LINE]) for i in range(0, len(entries), MOVES_PER_LINE)
    ]
    axes.text(
        left + 0.1,
        -0.45 + 0.1 * (len(rows) > 1),
        "win probability after each move:" + ("\n" if len(rows) > 1 else "  ") + "\n".join(rows),
        fontsize=7,
        va="top" if len(rows) > 1 else "center",
        linespacing=1.5,
        gid="move-list",
    )


def draw_board(
    ruleset,
    state,
    path,
    *,
    throw: int | None = None,
    move_values=None,
    title: str | None = None,
    numbers: bool = True,
) -> BoardLayout:
    """Draw a position to ``path`` (``.png``, ``.svg`` or ``.pdf``); returns its layout.

    The path is checked before anything is drawn, and the file is written atomically.
    Arguments as for :func:`board_layout`.

    Examples
    --------
    >>> import os, tempfile
    >>> from gamegraph.games.ur import rule_set
    >>> path = os.path.join(tempfile.mkdtemp(), "board.svg")
    >>> layout = draw_board(rule_set("finkel", pieces=2), "5/6", path, throw=1,
    ...                     move_values=[((0, 1, False), 0.25), ((5, 6, True), 0.75)])
    >>> text = open(path).read()
    >>> text.count('id="piece-'), 'id="value-5-6"' in text, '>0.7500<' in text
    (2, True, True)
    >>> draw_board("finkel", "-/-", "board.gif")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown output extension '.gif'; accepted: .png, .svg, .pdf
    """
    check_output(path, EXTENSIONS)  # before any work
    layout = board_layout(ruleset, state, throw=throw, move_values=move_values, title=title)
    save(board_figure(layout, numbers=numbers), path)
    return layout
