"""Static matplotlib figures for reports (PNG, SVG or PDF by extension)."""

from __future__ import annotations

import io

from .._extras import require
from .._files import check_output, write_atomic
from ..errors import InvalidArgumentError
from ..values import VALUE_NAMES
from ._colours import BLUE, OPTIMAL, POLICY_CYCLE, POLICY_LINESTYLES, POLICY_MARKERS

matplotlib = require("matplotlib", "drawing a figure")
# Figures are made with matplotlib's object API, not pyplot: nothing is registered with
# pyplot's figure manager and the user's backend choice is left alone.
from matplotlib.figure import Figure  # noqa: E402

EXTENSIONS = (".png", ".svg", ".pdf")
#: The narrowest a figure is drawn, as a share of the width it was designed for
#: (:meth:`StaticFigure.at_width`).
NARROWEST = 0.7
MARGIN_LINEAR_BELOW = 1e-4  # margins (P_roll - P_end) are drawn on a log scale above this


class StaticFigure(Figure):
    """A matplotlib Figure that shows itself in Jupyter (PNG) and saves by extension.

    Every figure function here returns one when it makes its own figure; given ``ax=``, it
    draws into the caller's Axes and returns that Axes' figure instead.
    """

    def save(self, path) -> None:
        """Write the figure as ``.png``, ``.svg`` or ``.pdf``, all-or-nothing."""
        save(self, path)

    def at_width(self, inches: float) -> StaticFigure:
        """Draw the figure ``inches`` wide (its height in proportion), for a document.

        Text is sized in points, so it prints at its own size (7 pt and up) at any width
        the figure is set to; below :data:`NARROWEST` of the width it was designed for,
        its panels and labels would collide, and that is refused in one line.

        >>> figure = StaticFigure(figsize=(6.8, 4.9))
        >>> _ = figure.add_subplot().set_title("a title")
        >>> figure.at_width(3.0)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        gamegraph.errors.InvalidArgumentError: at 7.6 cm (3.00 in) ... 12.1 cm (4.76 in); ...
        >>> import re
        >>> saved = io.BytesIO()
        >>> figure.at_width(16 / 2.54).savefig(saved, format="svg", bbox_inches="tight")
        >>> points = float(re.search(rb'width="([0-9.]+)pt"', saved.getvalue()).group(1))
        >>> round(points / 72 * 2.54, 1)  # cm
        16.0
        """
        natural, height = self.get_size_inches()
        if inches < NARROWEST * natural:
            need = NARROWEST * natural
            raise InvalidArgumentError(
                f"at {inches * 2.54:.1f} cm ({inches:.2f} in) this figure's panels and its "
                f"7 pt text would collide: it needs at least {need * 2.54:.1f} cm "
                f"({need:.2f} in); draw it wider, or fewer pegs"
            )
        self.set_size_inches(inches, height * inches / natural)
        # Saved with bbox_inches="tight": the picture is what is drawn plus a pad each
        # side, which can reach past the figure (titles, colour bars). Two passes fit it.
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        pad = 2 * matplotlib.rcParams["savefig.pad_inches"]
        canvas = FigureCanvasAgg(self)
        for _ in range(2):
            canvas.draw()  # the layout engine places the panels at this size
            drawn = self.get_tightbbox(canvas.get_renderer()).width
            width, height = self.get_size_inches()
            self.set_size_inches(width * (inches - pad) / drawn, height * (inches - pad) / drawn)
        return self

    def _repr_png_(self) -> bytes:
        freeze_layout(self)
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", bbox_inches="tight", dpi=100)
        return buffer.getvalue()

    def __repr__(self) -> str:
        width, height = self.get_size_inches()
        return f"<StaticFigure {width:g}x{height:g} in, {len(self.axes)} axes>"


def figure_and_axes(ax=None, *, figsize):
    """The Axes to draw into and its figure: the caller's ``ax``, or a new figure's.

    Figure functions take ``ax=None`` and start with this, so a caller can place a drawing
    in a figure of their own (a subplot, a pyplot figure).
    """
    if ax is not None:
        return ax.figure, ax
    figure = StaticFigure(figsize=figsize)
    return figure, figure.subplots()


def freeze_layout(figure) -> None:
    """Lay out a figure with a layout engine once, then keep that layout.

    Constrained layout moves the axes a little on every draw, so the same figure saved
    twice (a report's HTML, then its Markdown) would give two different images.
    """
    if figure.get_layout_engine() is not None:
        figure.draw_without_rendering()
        figure.set_layout_engine("none")


def save(figure, path) -> None:
    """Save a matplotlib figure all-or-nothing; the extension picks the format.

    SVG keeps text as text (searchable, and ids stay readable) and, like PDF, carries no
    date, so the same figure gives the same file.
    """
    path, extension = check_output(path, EXTENSIONS)
    freeze_layout(figure)
    buffer = io.BytesIO()
    metadata = {"Date": None} if extension in (".svg", ".pdf") else {"Software": None}
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "gamegraph"}):
        figure.savefig(
            buffer, format=extension[1:], bbox_inches="tight", dpi=150, metadata=metadata
        )
    write_atomic(path, buffer.getvalue())


def new_figure(rows: int = 1, columns: int = 1, *, figsize, **options):
    """A figure and its axes, made without pyplot (``options`` go to ``Figure.subplots``)."""
    layout = options.pop("constrained_layout", False)
    figure = StaticFigure(figsize=figsize, constrained_layout=layout)
    return figure, figure.subplots(rows, columns, **options)


def figure_and_panels(axes=None, count: int = 1, *, figsize, what: str = "figure"):
    """The Axes of a figure of ``count`` panels side by side and their figure.

    With ``axes=None`` a new :class:`StaticFigure` (constrained layout) is made; otherwise
    ``axes`` must be a sequence of ``count`` Axes of one figure (the caller's), which are
    returned as a list with their figure. Multi-panel figure functions take ``axes=``
    where single-panel ones take ``ax=``.
    """
    if axes is None:
        figure, grid = new_figure(1, count, figsize=figsize, constrained_layout=True, squeeze=False)
        return figure, list(grid[0])
    import numpy as np

    panels = list(np.asarray(axes, dtype=object).ravel())
    if len(panels) != count:
        raise InvalidArgumentError(
            f"{what} draws {count} panel{'s' if count != 1 else ''}; axes= holds "
            f"{len(panels)}: give a sequence of {count} Axes"
        )
    figures = {id(ax.figure) for ax in panels}
    if len(figures) != 1:
        raise InvalidArgumentError(f"{what}: the axes= Axes must belong to one figure")
    return panels[0].figure, panels


def _small_fonts(ax) -> None:
    """Tick labels at 8 pt: legible at A4 width without crowding small panels."""
    ax.tick_params(labelsize=8)


def policy_bars(
    rows, *, title: str, published: dict | None = None, ax=None, value_name: str | None = None
):
    """Horizontal bars of each policy's value: its win percentage, published figures
    marked, or in a score or margin game its expected score or margin.

    ``rows`` are :class:`gamegraph.analysis.PolicyResult`; ``published`` maps a policy
    name to its published figure (a percentage for a win game). ``value_name`` names a
    score or margin on the axis (default :data:`gamegraph.values.VALUE_NAMES`' name of the
    rows' objective). With ``ax=`` the bars go into the caller's Axes and its figure is
    returned; otherwise a new :class:`StaticFigure` (7 in wide).
    """
    figure, axes = figure_and_axes(ax, figsize=(7, 0.45 * len(rows) + 1.2))
    names = [row.name for row in rows]
    objective = getattr(rows[0], "objective", "win") if rows else "win"
    winning = objective == "win"
    values = [row.percent if winning else float(row.value) for row in rows]
    # The optimum: black and hatched, the others blue (a cue besides colour for print).
    optimal = [name == "optimal" for name in names]
    bars = axes.barh(names, values, color=[OPTIMAL if o else BLUE for o in optimal])
    for bar, is_optimal in zip(bars, optimal, strict=True):
        if is_optimal:
            bar.set_hatch("//")
            if hasattr(bar, "set_hatchcolor"):  # matplotlib 3.10; before, the edge's colour
                bar.set_hatchcolor("white")
            else:
                bar.set_edgecolor("white")
    for y, value in enumerate(values):
        text = f" {value:.4f} %" if winning else f" {value:.6g} "
        axes.text(value, y, text, va="center", fontsize=9, ha="left" if value >= 0 else "right")
    if published:
        marks = [(y, float(published[name])) for y, name in enumerate(names) if name in published]
        axes.scatter(
            [m[1] for m in marks],
            [m[0] for m in marks],
            marker="|",
            s=300,
            color="black",
            label="published",
            zorder=3,
        )
        axes.legend(loc="upper right")
    axes.invert_yaxis()
    if winning:
        axes.set_xlabel("win probability (%)")
        axes.set_xlim(0, max(values) * 1.25)
    else:
        axes.set_xlabel(value_name or VALUE_NAMES[objective])
        low, high = min(0.0, *values), max(0.0, *values)
        pad = 0.25 * ((high - low) or 1.0)
        axes.set_xlim(low - (pad if low < 0 else 0), high + (pad if high > 0 else 0))
    axes.set_title(title)
    return figure


def layer_distribution(distributions: dict, *, title: str, xlabel: str, ax=None):
    """Line per policy: probability that the game ends at each layer.

    ``distributions`` maps a policy name to a sequence of probabilities indexed by layer.
    With ``ax=`` the lines go into the caller's Axes and its figure is returned.
    """
    figure, axes = figure_and_axes(ax, figsize=(7, 4))
    styles = _series_styles(distributions)
    for name, values in distributions.items():
        axes.plot(range(len(values)), [float(v) for v in values], label=name, **styles[name])
    axes.set_xlabel(xlabel)
    axes.set_ylabel("probability")
    axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.legend()
    return figure


# One colour, marker and line style per policy, in order, from the colour-vision-safe
# palette (gamegraph.renderers._colours); the optimum is always black, bold and starred, as
# in policy_bars. Colours repeat after four; marker and line style keep the series apart
# then, and in black-and-white print.
_SERIES_COLOURS = POLICY_CYCLE
_SERIES_MARKERS = POLICY_MARKERS
_SERIES_LINESTYLES = POLICY_LINESTYLES
_OPTIMAL_COLOUR = OPTIMAL


def _series_styles(names) -> dict:
    styles, index = {}, 0
    for name in names:
        if name == "optimal":
            # Under the others (zorder), so a policy that plays almost optimally (HiLo)
            # stays visible on top of it.
            styles[name] = dict(
                color=_OPTIMAL_COLOUR,
                marker="*",
                markersize=8,
                linewidth=2.6,
                alpha=0.75,
                zorder=1.5,
            )
            continue
        styles[name] = dict(
            color=_SERIES_COLOURS[index % len(_SERIES_COLOURS)],
            marker=_SERIES_MARKERS[index % len(_SERIES_MARKERS)],
            linestyle=_SERIES_LINESTYLES[index // len(_SERIES_COLOURS) % len(_SERIES_LINESTYLES)],
            markersize=4.5,
            linewidth=1.3,
        )
        index += 1
    return styles


def _draw_loss(ax, summary, styles, *, legend: bool) -> None:
    shown = [layer for layer in summary.layers if summary.playing[layer]]
    for name in summary.policies:
        lost = summary.lost[name]
        ax.plot(
            shown,
            [100 * float(lost[layer]) for layer in shown],
            label=f"{name} (wins {100 * float(summary.win(name)):.3f} %)",
            **styles[name],
        )
    ax.set_xticks(shown)
    ax.set_xlabel(summary.layer_name, fontsize=9)
    ax.set_ylabel("games lost there (%)", fontsize=9)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    _small_fonts(ax)
    if legend:
        ax.legend(fontsize=8, loc="upper left", frameon=False)


def _draw_reach(ax, summary, styles) -> None:
    for name in summary.policies:
        ax.plot(
            list(summary.layers),
            [100 * float(v) for v in summary.reach[name]],
            label=f"{name} (wins {100 * float(summary.win(name)):.3f} %)",
            **styles[name],
        )
    ax.set_xticks(list(summary.layers))
    ax.set_xlabel(summary.layer_name, fontsize=9)
    ax.set_ylabel("games reaching it (%)", fontsize=9)
    ax.set_ylim(0, 103)
    ax.grid(alpha=0.3)
    _small_fonts(ax)
    ax.legend(fontsize=8, loc="lower left", frameon=False)


def layer_summary_figure(summary, *, ax=None, axes=None, title: str | None = None):
    """Reach and loss by layer, one series per policy, from a ``LayerSummary``.

    Two panels side by side (7 x 3.6 in, text at 8 pt and more, legible at A4 width):
    the share of games that reach each layer, and the share lost (stuck) in each layer
    where a game can still be played. The legend gives each policy's win probability.

    Parameters
    ----------
    summary : gamegraph.analysis.LayerSummary
        From :func:`gamegraph.analysis.layer_summary`; drawn as given.
    ax : matplotlib Axes, optional
        Draw only the loss by layer into this Axes (with its legend); returns its figure.
    axes : sequence of two Axes, optional
        Draw both panels (reach, then loss) into these Axes of one figure.
    title : str, optional
        Figure title (the Axes title with ``ax=``); default names the game.

    Returns
    -------
    matplotlib.figure.Figure
        A new :class:`StaticFigure`, or the figure of ``ax``/``axes``.
    """
    game = summary.game[:1].upper() + summary.game[1:]
    styles = _series_styles(summary.policies)
    if ax is not None:
        if axes is not None:
            raise InvalidArgumentError("give ax= (loss only) or axes= (both panels), not both")
        figure, axes_ = figure_and_axes(ax, figsize=(7, 4))
        _draw_loss(axes_, summary, styles, legend=True)
        axes_.set_title(title or f"{game}: where games are lost", fontsize=10)
        return figure
    own = axes is None
    figure, (reach, loss) = figure_and_panels(
        axes, 2, figsize=(7, 3.6), what="layer_summary_figure"
    )
    _draw_reach(reach, summary, styles)
    _draw_loss(loss, summary, styles, legend=False)
    reach.set_title("reach", fontsize=10)
    loss.set_title("lost there", fontsize=10)
    if own or title:
        figure.suptitle(title or f"{game}: where games go, by {summary.layer_name}", fontsize=11)
    return figure
