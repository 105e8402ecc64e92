"""Static matplotlib figures for reports (PNG, SVG or PDF by extension)."""

from __future__ import annotations

import io

from .._extras import require
from .._files import check_output, write_atomic

matplotlib = require("matplotlib", "drawing a figure")
# Figures are made with matplotlib's object API, not pyplot: nothing is registered with
# pyplot's figure manager and the user's backend choice is left alone.
from matplotlib.figure import Figure  # noqa: E402

EXTENSIONS = (".png", ".svg", ".pdf")
MARGIN_LINEAR_BELOW = 1e-4  # margins (P_roll - P_end) are drawn on a log scale above this


class StaticFigure(Figure):
    """A matplotlib Figure that shows itself in Jupyter (PNG) and saves by extension.

    Every figure function here returns one when it makes its own figure; given ``ax=``, it
    draws into the caller's Axes and returns that Axes' figure instead.
    """

    def save(self, path) -> None:
        """Write the figure as ``.png``, ``.svg`` or ``.pdf``, all-or-nothing."""
        save(self, path)

    def _repr_png_(self) -> bytes:
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


def save(figure, path) -> None:
    """Save a matplotlib figure all-or-nothing; the extension picks the format.

    SVG keeps text as text (searchable, and ids stay readable) and, like PDF, carries no
    date, so the same figure gives the same file.
    """
    path, extension = check_output(path, EXTENSIONS)
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


def policy_bars(rows, *, title: str, published: dict | None = None):
    """Horizontal bars of each policy's win percentage, published figures marked.

    ``rows`` are :class:`gamegraph.analysis.PolicyResult`; ``published`` maps a policy
    name to its published percentage.
    """
    figure, axes = new_figure(figsize=(7, 0.45 * len(rows) + 1.2))
    names = [row.name for row in rows]
    values = [row.percent for row in rows]
    colours = ["#2ca02c" if name == "optimal" else "#1f77b4" for name in names]
    axes.barh(names, values, color=colours)
    for y, value in enumerate(values):
        axes.text(value, y, f" {value:.4f} %", va="center", fontsize=9)
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
    axes.set_xlabel("win probability (%)")
    axes.set_xlim(0, max(values) * 1.25)
    axes.set_title(title)
    return figure


def layer_distribution(distributions: dict, *, title: str, xlabel: str):
    """Line per policy: probability that the game ends at each layer.

    ``distributions`` maps a policy name to a sequence of probabilities indexed by layer.
    """
    figure, axes = new_figure(figsize=(7, 4))
    for name, values in distributions.items():
        axes.plot(
            range(len(values)),
            [float(v) for v in values],
            marker="o",
            label=name,
            linewidth=2.5 if name == "optimal" else 1.2,
        )
    axes.set_xlabel(xlabel)
    axes.set_ylabel("probability")
    axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.legend()
    return figure


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
):
    """Six panels (pegs on the lid 0..5) of per-position values; one colour scale for all.

    ``b, c, o, values`` are aligned arrays; positions with ``b + c + o > total`` are
    left out, and positions without a value (NaN) stay blank.
    """
    import numpy as np

    b, c, o = np.asarray(b), np.asarray(c), np.asarray(o)
    values = np.asarray(values, dtype=float)
    figure, axes = new_figure(2, 3, figsize=(12, 8), constrained_layout=True)
    image = None
    for lid in range(6):
        ax = axes[lid // 3][lid % 3]
        size = max(total - lid - 1, 1)
        grid = np.full((size, size), np.nan)
        keep = (b == lid) & (b + c + o <= total)
        grid[o[keep] - 1, c[keep] - 1] = values[keep]
        image = ax.imshow(
            grid,
            origin="lower",
            cmap=cmap,
            norm=norm,
            vmin=vmin,
            vmax=vmax,
            extent=(0.5, size + 0.5, 0.5, size + 0.5),
            interpolation="nearest",
        )
        ax.set_title(f"{lid} on the lid")
        ax.set_xlabel("your pegs")
        ax.set_ylabel("opponent's pegs")
    bar = figure.colorbar(image, ax=axes, shrink=0.8)
    if ticks:
        bar.set_ticks(ticks[0], labels=ticks[1])
    if label:
        bar.set_label(label)
    figure.suptitle(title)
    return figure


def supersix_maps(table, *, total: int, metric: str = "decision", title: str | None = None):
    """Six panels (pegs on the lid 0..5) of a Super Six decision table, for reports.

    ``metric`` is ``decision`` (roll or stop), ``choice`` (P_choice) or ``margin``
    (P_roll - P_end), drawn as the table gives them (its ``roll``, ``p_choice`` and
    ``margin``). One colour scale serves all panels.
    """
    import numpy as np
    from matplotlib.colors import ListedColormap, SymLogNorm

    from gamegraph.errors import UnknownNameError

    metrics = ("decision", "choice", "margin")
    if metric not in metrics:
        raise UnknownNameError("metric", metric, metrics)
    title = title or f"Super Six, {total} pegs: {metric}"
    if metric == "decision":
        return lid_panels(
            table.b,
            table.c,
            table.o,
            np.asarray(table.roll, dtype=float),
            total=total,
            cmap=ListedColormap(["#d62728", "#2ca02c"]),
            vmin=0,
            vmax=1,
            title=title,
            ticks=([0.25, 0.75], ["stop", "roll"]),
        )
    if metric == "choice":
        return lid_panels(
            table.b,
            table.c,
            table.o,
            np.array([float(v) for v in table.p_choice]),
            total=total,
            cmap="viridis",
            vmin=0,
            vmax=1,
            label="P_choice",
            title=title,
        )
    # Signed log scale: the sign decides, and margins span several orders of magnitude.
    margin = np.array([float(v) for v in table.margin])
    limit = float(np.max(np.abs(margin))) or 1.0
    return lid_panels(
        table.b,
        table.c,
        table.o,
        margin,
        total=total,
        cmap="RdBu",
        norm=SymLogNorm(linthresh=MARGIN_LINEAR_BELOW, vmin=-limit, vmax=limit),
        label="P_roll - P_end",
        title=title,
    )


def relative_error_maps(b, c, o, error, *, total: int, title: str):
    """Panels of a relative error per position on a log scale (exact zeros left blank)."""
    import numpy as np
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
    )
