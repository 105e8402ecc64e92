"""Static Super Six maps for reports: six panels, one per number of pegs on the lid.

Each panel holds the positions with ``b`` pegs on the lid (0..5): the mover's pegs
across, the opponent's up, one square cell per position with every edge cell inside the
axes and ticks on whole pegs. One colour scale serves all six panels. The functions take
``axes=None`` (six matplotlib Axes to draw into) and return the figure, a
:class:`~gamegraph.renderers.figures.StaticFigure` when they make their own; it saves as
PNG, SVG or PDF and is sized to read at A4 width (6.8 in wide, text at 7 to 10 pt).

They draw what they are given: a decision table (:func:`supersix_maps`) or any value per
position (:func:`lid_panels`, :func:`relative_error_maps`).

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.supersix import SuperSix, decision_table
>>> table = decision_table(solve(build(SuperSix(hands=(4, 3)))))
>>> supersix_maps(table, total=7, metric="margin")
<StaticFigure 6.8x4.9 in, 7 axes>
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError, UnknownNameError
from ._colours import ROLL, ROLL_TEXT, STOP, STOP_TEXT
from .figures import MARGIN_LINEAR_BELOW, new_figure

METRICS = ("decision", "choice", "margin")
FIGSIZE = (6.8, 4.9)  # inches: about an A4 page's text width, so 7-9 pt text prints near size
_FONT = {"tick": 7, "label": 8, "title": 9}
GLYPH_MIN_PT = 5.0  # R/S glyphs where they print at least this size; else stop is hatched
STOP_HATCH = "////"


def lid_panels(
    b,
    c,
    o,
    values,
    *,
    total: int,
    cmap,
    norm=None,
    vmin=None,
    vmax=None,
    label: str = "",
    title: str = "",
    ticks=None,
    axes=None,
):
    """Six panels (pegs on the lid 0..5) of per-position values; one colour scale for all.

    Parameters
    ----------
    b, c, o, values : array_like
        Aligned arrays: pegs on the lid, the mover's pegs, the opponent's, and the value
        drawn. Positions with ``b + c + o > total`` are left out; a NaN value stays blank.
    total : int
        Pegs in play: panel ``b`` shows ``total - b - 1`` pegs on each axis.
    cmap, norm, vmin, vmax
        The colour scale, as matplotlib's ``imshow`` takes it.
    label, title : str
        The colour bar's label and the figure's title.
    ticks : (values, labels), optional
        Colour-bar ticks.
    axes : sequence of six matplotlib Axes, optional
        Draw into these (a 2x3 array is flattened) instead of a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        A new :class:`~gamegraph.renderers.figures.StaticFigure`, or the figure of ``axes``.
    """
    b, c, o = (np.asarray(v, dtype=np.int64) for v in (b, c, o))
    values = np.asarray(values, dtype=float)
    if axes is None:
        figure, axes = new_figure(2, 3, figsize=FIGSIZE, constrained_layout=True)
    else:
        figure = None
    panels = list(np.ravel(np.asarray(axes, dtype=object)))
    if len(panels) != 6:
        raise InvalidArgumentError(f"axes must be six matplotlib Axes, got {len(panels)}")
    figure = figure or panels[0].figure
    image = None
    for lid, ax in enumerate(panels):
        size = max(total - lid - 1, 1)
        grid = np.full((size, size), np.nan)
        keep = (b == lid) & (b + c + o <= total) & (c >= 1) & (o >= 1)
        grid[o[keep] - 1, c[keep] - 1] = values[keep]
        image = ax.imshow(
            grid,
            origin="lower",
            cmap=cmap,
            norm=norm,
            vmin=None if norm is not None else vmin,
            vmax=None if norm is not None else vmax,
            extent=(0.5, size + 0.5, 0.5, size + 0.5),
            interpolation="nearest",
        )
        # Half a cell of padding on each side: every edge cell is whole.
        ax.set_xlim(0.5, size + 0.5)
        ax.set_ylim(0.5, size + 0.5)
        ticks_at = _integer_ticks(size)
        ax.set_xticks(ticks_at)
        ax.set_yticks(ticks_at)
        ax.tick_params(labelsize=_FONT["tick"], length=2, pad=1)
        ax.set_title(f"{lid} on the lid", fontsize=_FONT["title"])
        ax.set_xlabel("your pegs", fontsize=_FONT["label"], labelpad=1)
        ax.set_ylabel("opponent's pegs", fontsize=_FONT["label"], labelpad=2)
    # A two-colour scale (roll/stop) needs a short bar only.
    bar = figure.colorbar(
        image, ax=panels, shrink=0.4 if ticks else 0.8, aspect=15 if ticks else 30
    )
    bar.ax.tick_params(labelsize=_FONT["tick"])
    if ticks:
        bar.set_ticks(ticks[0], labels=ticks[1])
    if label:
        bar.set_label(label, fontsize=_FONT["label"])
    if title:
        figure.suptitle(title, fontsize=_FONT["title"] + 1)
    return figure


def supersix_maps(
    table, *, total: int, metric: str = "decision", title: str | None = None, axes=None
):
    """Six panels (pegs on the lid 0..5) of a Super Six decision table, for reports.

    ``metric`` is ``decision`` (roll blue, stop orange, from the colour-vision-safe palette
    of :mod:`gamegraph.renderers._colours`, with a second cue that survives greyscale: an R
    or S in each cell where the cells are large enough to hold a letter of 5 pt, else
    hatching over the stop cells), ``choice`` (P_choice, viridis from
    0 to 1) or ``margin`` (P_roll - P_end on a signed log scale, linear below 1e-4, blue
    roll and red stop), drawn as the table gives them (its ``roll``, ``p_choice`` and
    ``margin``). ``axes`` and the return value are as in :func:`lid_panels`.
    """
    from matplotlib.colors import ListedColormap, SymLogNorm

    if metric not in METRICS:
        raise UnknownNameError("metric", metric, METRICS)
    covered = int(np.max(np.asarray(table.b) + table.c + table.o)) if len(table.b) else 0
    if total > covered:
        raise InvalidArgumentError(
            f"the decision table covers games of up to {covered} pegs, not {total}: "
            "solve the larger game first"
        )
    title = f"Super Six, {total} pegs: {metric}" if title is None else title
    where = {"b": table.b, "c": table.c, "o": table.o, "total": total, "title": title}
    if metric == "decision":
        roll = np.asarray(table.roll, dtype=float)
        glyphs = _glyph_points(total, axes) >= GLYPH_MIN_PT
        figure = lid_panels(
            values=roll,
            cmap=ListedColormap([STOP, ROLL]),
            vmin=0,
            vmax=1,
            ticks=(
                [0.25, 0.75],
                ["stop (S)", "roll (R)"] if glyphs else ["stop (hatched)", "roll"],
            ),
            axes=axes,
            **where,
        )
        _decision_cues(figure, axes, table, roll, total, glyphs)
        return figure
    if metric == "choice":
        return lid_panels(
            values=np.array([float(v) for v in table.p_choice]),
            cmap="viridis",
            vmin=0,
            vmax=1,
            label="P_choice",
            axes=axes,
            **where,
        )
    # Signed log scale: the sign decides, and margins span several orders of magnitude.
    margin = np.array([float(v) for v in table.margin])
    limit = float(np.max(np.abs(margin))) if len(margin) else 1.0
    return lid_panels(
        values=margin,
        cmap="RdBu",
        norm=SymLogNorm(linthresh=MARGIN_LINEAR_BELOW, vmin=-(limit or 1), vmax=limit or 1),
        label="P_roll - P_end",
        axes=axes,
        **where,
    )


def relative_error_maps(b, c, o, error, *, total: int, title: str, axes=None):
    """Panels of a relative error per position on a log scale (exact zeros left blank)."""
    from matplotlib.colors import LogNorm

    error = np.asarray(error, dtype=float)
    shown = np.where(error > 0, error, np.nan)
    positive = error[error > 0]
    low = max(float(positive.min()) if len(positive) else 1e-12, 1e-12)
    high = max(float(positive.max()) if len(positive) else 1.0, low * 10)
    return lid_panels(
        b,
        c,
        o,
        shown,
        total=total,
        cmap="magma_r",
        norm=LogNorm(vmin=low, vmax=high),
        label="relative error of P_choice",
        title=title,
        axes=axes,
    )


def _panels(figure, axes) -> list:
    if axes is not None:
        return list(np.ravel(np.asarray(axes, dtype=object)))
    return list(figure.axes[:6])


def _glyph_points(total: int, axes) -> float:
    """The R/S glyph size (pt) the largest panel's cells can hold (0.6 of a cell)."""
    if axes is None:
        width_in = FIGSIZE[0] * 0.24  # a panel of the 2x3 grid, colour bar beside
    else:
        first = np.ravel(np.asarray(axes, dtype=object))[0]
        width_in = first.get_position().width * first.figure.get_figwidth()
    return 0.6 * 72 * width_in / max(total - 1, 1)


def _decision_cues(figure, axes, table, roll, total: int, glyphs: bool) -> None:
    """The second cue besides colour: R/S in each cell, or hatching over stop cells."""
    from matplotlib.patches import Rectangle

    b, c, o = (np.asarray(v, dtype=np.int64) for v in (table.b, table.c, table.o))
    panels = _panels(figure, axes)
    points = _glyph_points(total, axes)
    for lid, ax in enumerate(panels):
        keep = (b == lid) & (b + c + o <= total) & (c >= 1) & (o >= 1) & ~np.isnan(roll)
        if glyphs:
            size = min(points * max(total - 1, 1) / max(total - lid - 1, 1), 9.0)
            for x, y, r in zip(c[keep], o[keep], roll[keep], strict=True):
                ax.text(
                    x,
                    y,
                    "R" if r >= 0.5 else "S",
                    ha="center",
                    va="center",
                    fontsize=size,
                    color=ROLL_TEXT if r >= 0.5 else STOP_TEXT,
                )
            continue
        # Hatch runs of stop cells along each row: one patch per run, seamless hatching.
        stop = keep & (roll < 0.5)
        for y in np.unique(o[stop]):
            xs = np.sort(c[stop & (o == y)])
            starts = np.r_[0, np.flatnonzero(np.diff(xs) > 1) + 1]
            ends = np.r_[starts[1:], len(xs)]
            for i, j in zip(starts, ends, strict=True):
                ax.add_patch(_hatch(Rectangle, xs[i] - 0.5, y - 0.5, xs[j - 1] - xs[i] + 1, 1))
    if not glyphs:
        bar = figure.axes[-1]  # the colour bar: hatch its stop half too
        bar.add_patch(_hatch(Rectangle, 0, 0, 1, 0.5, transform=bar.transAxes))


def _hatch(rectangle, x, y, width, height, **keywords):
    # matplotlib 3.10 has a hatch colour of its own; before it, hatching takes the edge's
    # colour (the edge itself is not drawn at line width 0).
    if hasattr(rectangle, "set_hatchcolor"):
        keywords.update(edgecolor="none", hatchcolor=STOP_TEXT)
    else:
        keywords.update(edgecolor=STOP_TEXT)
    return rectangle(
        (x, y), width, height, facecolor="none", hatch=STOP_HATCH, linewidth=0, **keywords
    )


def _integer_ticks(size: int) -> list[int]:
    """Whole-peg ticks: every peg on small panels, every other one, then every 5 or 10."""
    if size <= 10:
        return list(range(1, size + 1))
    if size <= 20:
        return list(range(1, size + 1, 2))
    step = 5
    while size / step > 10:  # at most about ten labels, so they never run together
        step *= 2
    return list(range(step, size + 1, step))
