"""Ur figures: a whole small game as a Graphviz diagram, and win probability by pieces borne off.

:func:`graph_dot` draws every position of a solved Ur graph (the one-piece game has 217
and the terminal WIN) with its win probability, and one edge for each distinct move a
position offers (source, target, whether the turn passes), throws merged. Positions are
ranked by *progress*, the squares both sides have walked (a piece borne off counts
L + 1), so the diagram reads from the start at the top to the end at the bottom; a
capture is a vermillion edge back up. Edge colours (Okabe–Ito, from
:mod:`gamegraph.renderers._colours`): sky blue wins, blue lands on a rosette (or
captures under blitz rules) and keeps the turn, vermillion captures, grey passes the turn after
moving; dotted light grey is a throw with no move (0 among them), which hands the same
board to the other side (it does not constrain the layout). A move the optimal policy
does not take (only when a throw offers a choice) is dashed.

:func:`borne_off_figure` draws a :class:`~gamegraph.games.ur.analysis.BorneOffMap` (computed
from a solved table by :func:`gamegraph.games.ur.analysis.borne_off_map`) over (pieces the
mover has borne off, pieces the opponent has borne off): the value of the position with
the board empty and every other piece waiting, and the average over every position with
those counts. :func:`borne_off_page` is the same as one self-contained interactive HTML
page (plotly.js embedded, works offline). Nothing here computes a value: the pictures
show what they are given.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from .._escape import html_text
from .._extras import require
from .._files import check_output, write_atomic
from ..errors import InvalidArgumentError
from ..games.ur import WIN, UrState, format_position
from ..games.ur.analysis import BorneOffMap
from . import dot
from ._colours import BLUE, SKY_BLUE, VERMILLION
from .figures import EXTENSIONS as FIGURE_EXTENSIONS
from .figures import figure_and_panels, save

#: Largest graph :func:`graph_dot` draws (Graphviz's layout grows fast beyond).
MAX_DRAWN_STATES = 3000

EDGE_KINDS = ("win", "again", "capture", "move", "pass")
_EDGE_STYLE = {
    "win": dict(color=f"{SKY_BLUE}aa", penwidth="0.8"),
    "again": dict(color=BLUE, penwidth="0.9"),
    "capture": dict(color=VERMILLION, penwidth="0.9"),
    "move": dict(color="#00000055", penwidth="0.6"),
    "pass": dict(
        color="#00000030", penwidth="0.5", style="dotted", constraint="false", arrowsize="0.3"
    ),
}


def _colour(value: float) -> str:
    """Light red (0) through white (1/2) to light blue (1), RdBu's ends, as a Graphviz
    colour (red against blue stays apart for red-green colour-blind readers).
    """
    v = min(max(float(value), 0.0), 1.0)
    low, mid, high = (0xF4, 0xA5, 0x82), (0xFF, 0xFF, 0xFF), (0x92, 0xC5, 0xDE)
    a, b, t = (low, mid, v * 2) if v < 0.5 else (mid, high, v * 2 - 1)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


@dataclass(frozen=True)
class GraphEdge:
    """One drawn edge: every option of ``source`` that leads to ``target`` the same way."""

    source: int
    target: int
    passes: bool
    throws: tuple
    weight: int  # chance of the throws, over graph.denominator
    kind: str  # one of EDGE_KINDS
    optimal: bool  # the optimal policy takes it on at least one throw


def _captures(before: UrState, after, passes: bool) -> bool:
    if after == WIN:
        return False
    opponent_now = after.mover if passes else after.opponent
    return len(opponent_now) < len(before.opponent)


def graph_edges(solution) -> list[GraphEdge]:
    """The edges :func:`graph_dot` draws: one per distinct (source, target, passes) option.

    >>> from gamegraph import solve
    >>> from gamegraph.games.ur import Ur
    >>> solution = solve(Ur("finkel", pieces=1).build_graph())
    >>> edges = graph_edges(solution)
    >>> len(edges), sorted({e.kind for e in edges}) == sorted(EDGE_KINDS)
    (992, True)
    >>> [(e.throws, e.weight, e.kind) for e in edges if e.source == solution.graph.start]
    [((0,), 1, 'pass'), ((1,), 4, 'move'), ((2,), 6, 'move'), ((3,), 4, 'move'), ((4,), 1, 'again')]
    """
    graph = solution.graph
    throws = list(graph.rules.throws())
    choice = solution.policy.choice
    groups = {}
    options = graph.option_outcome
    sources = graph.outcome_state[options]
    for j in range(len(graph.option_target)):
        k = int(options[j])
        s, t, passes = int(sources[j]), int(graph.option_target[j]), bool(graph.option_passes[j])
        throw = throws[k - int(graph.outcome_ptr[s])]
        entry = groups.setdefault(
            (s, t, passes), {"outcomes": {}, "move": int(graph.option_move[j]), "optimal": False}
        )
        entry["outcomes"][k] = throw
        entry["optimal"] |= int(choice[k]) == j - int(graph.option_ptr[k])
    states = graph.states
    edges = []
    for (s, t, passes), entry in groups.items():
        target = states[t]
        if entry["move"] < 0:
            kind = "pass"
        elif target == WIN:
            kind = "win"
        elif _captures(states[s], target, passes):
            kind = "capture"
        elif not passes:
            kind = "again"
        else:
            kind = "move"
        outcomes = entry["outcomes"]
        edges.append(
            GraphEdge(
                s,
                t,
                passes,
                tuple(sorted(outcomes.values())),
                int(sum(int(graph.outcome_weight[k]) for k in outcomes)),
                kind,
                entry["optimal"],
            )
        )
    edges.sort(key=lambda e: (e.source, e.throws))
    return edges


def progress(state, length: int) -> int:
    """Squares walked by both sides (a piece borne off counts ``length + 1``)."""
    if state == WIN:
        return -1
    return (
        sum(state.mover)
        + sum(state.opponent)
        + (length + 1) * (state.mover_off + state.opponent_off)
    )


def graph_dot(solution, *, title: str | None = None, digits: int = 3):
    """A solved Ur graph as a :class:`~gamegraph.renderers.diagram.Diagram`: every position
    with its win probability (``str(diagram)`` is the DOT source).

    Parameters
    ----------
    solution : gamegraph.Solution
        From :func:`gamegraph.solve` on an Ur graph (``Ur(...).build_graph()`` or
        ``build(Ur(..., start=...))``), at most :data:`MAX_DRAWN_STATES` states.
    title : str, optional
    digits : int
        Decimals of the win probability on each node.

    Examples
    --------
    >>> from gamegraph import solve
    >>> from gamegraph.games.ur import Ur
    >>> source = str(graph_dot(solve(Ur("finkel", pieces=1).build_graph())))
    >>> lines = [line.strip() for line in source.splitlines()]
    >>> print(next(line for line in lines if line.startswith("n0 [")))   # the start
    ... # doctest: +NORMALIZE_WHITESPACE
    n0 [label="-/-\\n0.530" color="#000000" fillcolor="#f8fcfd" penwidth=2
        tooltip="mover wins 0.530050"]
    >>> sum(" -> " in line for line in lines), sum(line.startswith("n") and " [label=" in line
    ...                                             for line in lines)
    (992, 218)
    """
    require("graphviz", "drawing a diagram")  # before any work
    graph = solution.graph
    ruleset = getattr(graph.rules, "ruleset", None)
    if ruleset is None:
        raise InvalidArgumentError(f"graph_dot draws Ur graphs, not {graph.rules.name!r}")
    if graph.n_states > MAX_DRAWN_STATES:
        raise InvalidArgumentError(
            f"{graph.n_states} positions is too many to draw (at most {MAX_DRAWN_STATES}); "
            "draw the one-piece game or an endgame (Ur(..., start=...))"
        )
    values = np.asarray(solution.values, dtype=float)
    length = ruleset.length
    dot_graph = dot.new_digraph(
        graph.rules.name,
        title=title,
        title_size=24,
        graph={"nodesep": "0.12", "ranksep": "0.55", "newrank": "true"},
        node={
            "style": "rounded,filled",
            "fontsize": "9",
            "width": "0.4",
            "color": "#777777",
            "penwidth": "0.6",
        },
    )

    by_rank = defaultdict(list)
    for i in range(graph.n_states):
        by_rank[progress(graph.states[i], length)].append(i)
    for rank in sorted(by_rank):
        with dot_graph.subgraph(name=f"rank_{rank if rank >= 0 else 'end'}") as row:
            row.attr(rank="sink" if rank < 0 else "same")
            for i in by_rank[rank]:
                state = graph.states[i]
                if state == WIN:
                    row.node(
                        f"n{i}",
                        "WIN",
                        fillcolor=BLUE,
                        fontcolor="white",
                        fontsize="14",
                        tooltip="the mover has borne off every piece",
                    )
                    continue
                attributes = dict(
                    fillcolor=_colour(values[i]), tooltip=f"mover wins {values[i]:.6f}"
                )
                if i == graph.start:
                    attributes.update(color="#000000", penwidth="2")
                row.node(
                    f"n{i}", f"{format_position(state)}\\n{values[i]:.{digits}f}", **attributes
                )
    for edge in graph_edges(solution):
        attributes = dict(_EDGE_STYLE[edge.kind])
        if not edge.optimal:
            attributes["style"] = "dashed"
        attributes["tooltip"] = (
            f"throw {','.join(map(str, edge.throws))}: {edge.weight}/{graph.denominator}"
        )
        dot_graph.edge(f"n{edge.source}", f"n{edge.target}", **attributes)
    from .diagram import Diagram

    return Diagram(dot_graph.source, title=title or "")


def draw_graph(solution, path, *, title: str | None = None) -> None:
    """Write :func:`graph_dot` as ``.dot``/``.gv`` text or a rendered ``.png``/``.svg``/``.pdf``.

    The path is checked before the diagram is made; the file is written atomically.
    """
    check_output(path, dot.EXTENSIONS)
    dot.write(graph_dot(solution, title=title), path)


# ---------------------------------------------------------------------------
# Win probability by pieces borne off
# ---------------------------------------------------------------------------
def borne_off_figure(
    bmap: BorneOffMap,
    *,
    average: bool = True,
    title: str | None = None,
    digits: int = 3,
    axes=None,
):
    """Matplotlib heatmap(s) of a :class:`BorneOffMap`, each cell written with its value.

    One panel for the empty-board positions, and with ``average`` a second for the mean
    over all positions. Cell texts carry the ids ``empty-a-b`` / ``mean-a-b`` in SVG.

    ``axes`` is a sequence of Axes of one figure, one per panel (two with ``average``,
    else one), to draw into the caller's figure: the panels and a shared colour bar go
    there, the figure title only when ``title`` is given, and that figure is returned.
    Without it a new :class:`~gamegraph.renderers.figures.StaticFigure` is made.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> bmap = BorneOffMap("finkel", 2, np.full((2, 2), 0.5), np.full((2, 2), 0.5),
    ...                    np.ones((2, 2), dtype=int))
    >>> borne_off_figure(bmap)
    <StaticFigure 6.6x3.3 in, 3 axes>
    >>> mine = Figure()
    >>> borne_off_figure(bmap, average=False, axes=[mine.subplots()]) is mine
    True
    """
    panels = [("empty", bmap.empty, "board empty, other pieces waiting")]
    if average:
        panels.append(("mean", bmap.mean, "average over all positions"))
    n = bmap.pieces
    size = 1.2 + 0.75 * n
    own = axes is None
    figure, axes = figure_and_panels(
        axes, len(panels), figsize=(size * len(panels) + 1.2, size + 0.6), what="borne_off_figure"
    )
    image = None
    for ax, (name, grid, caption) in zip(axes, panels):
        image = ax.imshow(
            grid.T,
            origin="lower",
            cmap="RdBu",
            vmin=0,
            vmax=1,
            extent=(-0.5, n - 0.5, -0.5, n - 0.5),
            interpolation="nearest",
        )
        for a in range(n):
            for b in range(n):
                if np.isfinite(grid[a, b]):
                    v = grid[a, b]
                    ax.text(
                        a,
                        b,
                        f"{v:.{digits}f}",
                        ha="center",
                        va="center",
                        fontsize=9,
                        color="white" if abs(v - 0.5) > 0.3 else "black",
                        gid=f"{name}-{a}-{b}",
                    )
        ax.set_xticks(range(n))
        ax.set_yticks(range(n))
        ax.set_xlabel("mover's pieces borne off")
        ax.set_ylabel("opponent's pieces borne off")
        ax.set_title(caption, fontsize=10)
    figure.colorbar(image, ax=axes, shrink=0.85, label="mover's win probability")
    if own or title:
        figure.suptitle(
            title or f"Ur ({bmap.rules}, {n} pieces): win probability by pieces borne off"
        )
    return figure


def draw_borne_off(
    bmap: BorneOffMap, path, *, average: bool = True, title: str | None = None
) -> BorneOffMap:
    """Write :func:`borne_off_figure` of ``bmap`` to ``path`` (.png, .svg, .pdf); returns the map.

    The path is checked before anything is drawn.
    """
    check_output(path, FIGURE_EXTENSIONS)
    save(borne_off_figure(bmap, average=average, title=title), path)
    return bmap


def borne_off_interactive(bmap: BorneOffMap, *, title: str | None = None):
    """Both panels as an interactive plotly figure (an ``InteractiveFigure``: it displays
    itself in Jupyter, and ``save("x.html")`` writes an offline page).
    """
    go = require("plotly.graph_objects", "an interactive page")
    from plotly.subplots import make_subplots

    from .interactive import InteractiveFigure

    n = bmap.pieces
    title = title or f"Ur ({bmap.rules}, {n} pieces): win probability by pieces borne off"
    figure = InteractiveFigure(
        make_subplots(
            rows=1,
            cols=2,
            horizontal_spacing=0.12,
            subplot_titles=("board empty, other pieces waiting", "average over all positions"),
        )
    )
    axis = list(range(n))
    for col, grid in ((1, bmap.empty), (2, bmap.mean)):
        z = [
            [None if not np.isfinite(grid[a, b]) else round(float(grid[a, b]), 10) for a in axis]
            for b in axis
        ]
        figure.add_trace(
            go.Heatmap(
                x=axis,
                y=axis,
                z=z,
                zmin=0,
                zmax=1,
                colorscale="RdBu",
                showscale=col == 1,
                text=[[("" if v is None else f"{v:.3f}") for v in row] for row in z],
                texttemplate="%{text}",
                customdata=bmap.count.T.tolist(),
                hovertemplate="mover off %{x} · opponent off %{y}<br>win probability %{z:.6f}"
                + ("<br>over %{customdata} positions" if col == 2 else "")
                + "<extra></extra>",
            ),
            row=1,
            col=col,
        )
        figure.update_xaxes(title_text="mover's pieces borne off", dtick=1, row=1, col=col)
        figure.update_yaxes(
            title_text="opponent's pieces borne off",
            dtick=1,
            row=1,
            col=col,
            scaleanchor=f"x{col if col > 1 else ''}",
        )
    figure.update_layout(title=html_text(title), width=900, height=480)
    return figure


def borne_off_page(bmap: BorneOffMap, *, title: str | None = None) -> str:
    """One self-contained HTML page (plotly.js embedded, works offline) of both panels."""
    from .interactive import page_html

    return page_html(borne_off_interactive(bmap, title=title), div_id="ur-borne-off")


def write_borne_off_page(bmap: BorneOffMap, path, *, title: str | None = None) -> BorneOffMap:
    """Write :func:`borne_off_page` of ``bmap`` to ``path`` (.html); returns the map."""
    check_output(path, (".html", ".htm"))
    write_atomic(path, borne_off_page(bmap, title=title))
    return bmap
