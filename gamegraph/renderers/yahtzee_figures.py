"""Yahtzee and Yatzy figures: the final score's distribution, and what each open box is
worth as a game goes on.

:func:`score_distribution_figure` draws distributions of the final score (optimal play
and simple strategies, from :func:`gamegraph.games.yahtzee.distribution.score_distribution`
or samples) as step lines, one line style, marker and colour per player
(:mod:`gamegraph.renderers._colours`), each mean marked by a vertical line of the same
style and labelled. :func:`box_values_figure` draws a grid of boxes by turns: each cell
a box's worth at the start of a turn (given as numbers; the report says what they are),
and where the box was filled, the points it got. Nothing here computes a value: the
pictures show what they are given.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ._colours import OPTIMAL, POLICY_CYCLE, POLICY_LINESTYLES, POLICY_MARKERS
from .figures import figure_and_axes

__all__ = ["score_distribution_figure", "box_values_figure"]


def _style(k: int, name: str) -> dict:
    if name == "optimal":
        return dict(color=OPTIMAL, linestyle="-", marker="*", linewidth=1.6, markersize=7)
    return dict(
        color=POLICY_CYCLE[k % len(POLICY_CYCLE)],
        linestyle=POLICY_LINESTYLES[1 + k % (len(POLICY_LINESTYLES) - 1)],
        marker=POLICY_MARKERS[1 + k % (len(POLICY_MARKERS) - 1)],
        linewidth=1.3,
        markersize=4.5,
    )


def score_distribution_figure(
    series,
    *,
    bin_width: int = 5,
    coverage: float = 0.999,
    title: str | None = None,
    xlabel="final score",
    ax=None,
):
    """The distributions of the final score, one step line per player, means marked.

    Parameters
    ----------
    series : mapping of str to array-like
        Player name -> the chance of every final score 0, 1, 2, ... (summing to 1). The
        name ``"optimal"`` is drawn in black with stars; the others in the policy
        colours, dashed or dotted, with their own markers.
    bin_width : int
        Scores are gathered in bins this wide (the chance of a score from 0 to 4, 5 to
        9, ...): single scores jump up and down with the boxes' steps of 5 and 10.
    coverage : float
        The scores axis ends where every player's chances add up to at least this much
        (a long thin tail of Yahtzee bonuses reaches past 1,500); a note on the axes says
        so. 1 draws every score.
    title : str, optional
    ax : matplotlib Axes, optional
        Draw into it (its figure is returned); else a new
        :class:`~gamegraph.renderers.figures.StaticFigure`.

    Examples
    --------
    >>> figure = score_distribution_figure(
    ...     {"optimal": [0, 0.25, 0.75], "greedy": [0.5, 0.5]}, bin_width=1)
    >>> figure
    <StaticFigure 7.2x4 in, 1 axes>
    >>> [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    ['optimal (mean 1.75)', 'greedy (mean 0.50)']
    """
    if not series:
        raise InvalidArgumentError("series is empty: give at least one player's distribution")
    if not isinstance(bin_width, int) or bin_width < 1:
        raise InvalidArgumentError(f"bin_width must be a whole number 1 or more, not {bin_width!r}")
    figure, ax = figure_and_axes(ax, figsize=(7.2, 4.0))
    top = 0.0
    means = []
    right = 0
    # The optimum first (under the others), then the others in their order.
    ordered = [n for n in series if n == "optimal"] + [n for n in series if n != "optimal"]
    others = 0
    for name in ordered:
        p = np.asarray(series[name], dtype=np.float64)
        if p.ndim != 1 or not np.all(np.isfinite(p)) or (p < 0).any():
            raise InvalidArgumentError(f"{name}: chances must be one row of numbers 0 or more")
        style = _style(others, name)
        if name != "optimal":
            others += 1
        mean = float(np.arange(len(p)) @ p)
        reach = int(np.searchsorted(np.cumsum(p), coverage * float(p.sum()) - 1e-12)) + 1
        right = max(right, min(reach, len(p)))
        binned = _binned(p, bin_width)
        _draw_player(ax, name, binned, bin_width, -(-reach // bin_width), mean, style)
        top = max(top, float(binned.max()))
        means.append((name, mean, style))
    _mark_means(ax, means)
    ax.set_ylim(0, top * 1.12 if top else 1)
    longest = max(len(np.asarray(c)) for c in series.values())
    end = -(-right // 50) * 50
    ax.set_xlim(0, end)
    if right < longest:  # the tail beyond, in words
        xlabel = f"{xlabel} (above {end}: chance below {100 * (1 - coverage):g} % for each)"
    ax.set_xlabel(xlabel)
    ax.set_ylabel("chance of the score" if bin_width == 1 else f"chance, per {bin_width} points")
    ax.tick_params(labelsize=8)
    ax.grid(alpha=0.25, linewidth=0.5)
    ax.legend(fontsize=8, frameon=False, loc="upper right", handlelength=3.5)
    if title:
        ax.set_title(title, fontsize=10)
    return figure


def _binned(p, bin_width: int):
    """The chances ``p`` of scores 0, 1, 2, ... summed in bins ``bin_width`` wide."""
    bins = -(-len(p) // bin_width)
    binned = np.zeros(bins * bin_width)
    binned[: len(p)] = p
    return binned.reshape(bins, bin_width).sum(axis=1)


def _draw_player(ax, name: str, binned, bin_width: int, reach_bins: int, mean, style) -> None:
    """One player's binned chances: a step line to where its chances end, and markers
    on the bins the axis shows (``reach_bins``) that stand off the axis.
    """
    edges = np.arange(len(binned) + 1) * bin_width
    # Where a player's chances end, the line ends too.
    last = int(np.nonzero(binned)[0].max()) + 1 if binned.any() else 1
    shown = min(last, reach_bins)  # the bins the axis will show
    heights = np.append(binned[:last], binned[last - 1])
    ax.step(
        edges[: last + 1],
        heights,
        where="post",
        color=style["color"],
        linestyle=style["linestyle"],
        linewidth=style["linewidth"],
        label=f"{name} (mean {mean:.2f})",
        gid=f"distribution-{name}",
    )
    centres = edges[:shown] + bin_width / 2
    visible = binned[:shown] > 1e-3 * float(binned.max())  # no markers on the axis
    ax.plot(
        centres[visible],
        binned[:shown][visible],
        linestyle="none",
        marker=style["marker"],
        markersize=style["markersize"],
        color=style["color"],
        markevery=max(1, int(visible.sum()) // 8),
    )


def _mark_means(ax, means) -> None:
    """Each player's mean as a vertical line in its style, labelled at the top."""
    for k, (name, mean, style) in enumerate(means):
        ax.axvline(
            mean,
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=0.9,
            alpha=0.8,
            gid=f"mean-{name}",
        )
        ax.annotate(
            f"{mean:.1f}",
            (mean, 1.0 - 0.07 * k),
            xycoords=("data", "axes fraction"),
            xytext=(3, -2),
            textcoords="offset points",
            ha="left",
            va="top",
            fontsize=8,
            color=style["color"],
        )


def box_values_figure(
    boxes,
    worth,
    *,
    scored=None,
    chances=None,
    turns=None,
    title: str | None = None,
    colour_label: str = "points",
    ax=None,
):
    """A grid of boxes (rows) by turns (columns): each open box's worth at the start of
    each turn, and, in the turn each box was filled, the points it got.

    Parameters
    ----------
    boxes : sequence of str
        The boxes' names, top to bottom.
    worth : array-like, shape (boxes, turns)
        The number shown in each cell; NaN where the box is not open (drawn blank).
    scored : sequence, optional
        One entry per box: ``(turn, points)`` (``turn`` counted from 0) when the box was
        filled in that turn, or None. That cell is outlined and reads ``▸ points``.
    chances : array-like, shape (boxes, turns), optional
        A chance per cell (the box still open, say), written under its number as a
        percentage.
    turns : sequence of str, optional
        Column labels (default 1, 2, ...).
    colour_label : str
        The colour bar's label.

    Examples
    --------
    >>> figure = box_values_figure(
    ...     ["chance", "sixes"], [[20.0, np.nan], [12.0, 13.5]], scored=[(0, 22), (1, 18)])
    >>> [t.get_text() for t in figure.axes[0].texts]
    ['▸ 22', '12.0', '▸ 18']
    """
    grid, names, chances = _checked_grid(boxes, worth, scored, chances)
    n_boxes, n_turns = grid.shape
    row = 0.34 if chances is None else 0.44  # room for a second line
    figure, ax = figure_and_axes(ax, figsize=(1.9 + 0.48 * n_turns, 0.9 + row * n_boxes))
    finite = grid[np.isfinite(grid)]
    high = float(finite.max()) if finite.size else 1.0
    image = ax.imshow(
        np.ma.masked_invalid(grid),
        cmap="viridis",
        vmin=0,
        vmax=high or 1.0,
        aspect="auto",
        interpolation="nearest",
    )
    ax.set_facecolor("#f2f2f2")
    marks = {}
    for b, entry in enumerate(scored or ()):
        if entry is not None:
            marks[b] = entry
    _write_cells(ax, grid, marks, chances, high)
    ax.set_yticks(range(n_boxes), names, fontsize=8)
    labels = list(turns) if turns is not None else [str(t + 1) for t in range(n_turns)]
    ax.set_xticks(range(n_turns), labels, fontsize=8)
    ax.set_xlabel("turn")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    bar = figure.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    bar.set_label(colour_label, fontsize=8)
    bar.ax.tick_params(labelsize=7)
    if title:
        ax.set_title(title, fontsize=10)
    return figure


def _checked_grid(boxes, worth, scored, chances):
    """``(worth as a float grid, the boxes' names, chances as a grid or None)``, refused
    unless the grid has a row per box and ``scored`` and ``chances`` fit it.
    """
    grid = np.asarray(worth, dtype=np.float64)
    names = list(boxes)
    if grid.ndim != 2 or grid.shape[0] != len(names):
        raise InvalidArgumentError(
            f"worth must be one row per box ({len(names)} boxes), got shape {grid.shape}"
        )
    if scored is not None and len(scored) != grid.shape[0]:
        raise InvalidArgumentError(f"scored has {len(scored)} entries; give one per box")
    if chances is not None:
        chances = np.asarray(chances, dtype=np.float64)
        if chances.shape != grid.shape:
            raise InvalidArgumentError(
                f"chances must have the shape of worth {grid.shape}, got {chances.shape}"
            )
    return grid, names, chances


def _write_cells(ax, grid, marks: dict, chances, high: float) -> None:
    """Each cell's text: the points of a box scored that turn, outlined (``marks``: box
    -> (turn, points)), else an open box's worth and its chance; dark text on light cells.
    """
    from matplotlib.patches import Rectangle

    n_boxes, n_turns = grid.shape
    for b in range(n_boxes):
        for t in range(n_turns):
            if b in marks and marks[b][0] == t:
                ax.add_patch(
                    Rectangle((t - 0.5, b - 0.5), 1, 1, fill=False, edgecolor="black", lw=1.4)
                )
                ax.text(t, b, f"▸ {marks[b][1]}", ha="center", va="center", fontsize=7,
                        fontweight="bold", color="black" if not np.isfinite(grid[b, t])
                        or grid[b, t] > 0.55 * high else "white", gid=f"scored-{b}")  # fmt: skip
            elif np.isfinite(grid[b, t]):
                v = grid[b, t]
                text = f"{v:.1f}"
                if chances is not None:
                    text += f"\n{100 * chances[b, t]:.0f} %"
                ax.text(t, b, text, ha="center", va="center", fontsize=7, linespacing=1.1,
                        color="black" if v > 0.55 * high else "white")  # fmt: skip
