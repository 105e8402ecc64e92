"""Static matplotlib figures for reports (PNG, SVG or PDF by extension)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .output import check_output, write_atomic  # noqa: E402

EXTENSIONS = (".png", ".svg", ".pdf")
MARGIN_LINEAR_BELOW = 1e-4   # margins (P_roll - P_end) are drawn on a log scale above this


def save(figure, path) -> None:
    """Save a matplotlib figure all-or-nothing; the extension picks the format."""
    path, extension = check_output(path, EXTENSIONS)
    buffer = io.BytesIO()
    figure.savefig(buffer, format=extension[1:], bbox_inches="tight", dpi=150)
    plt.close(figure)
    write_atomic(path, buffer.getvalue())


def policy_bars(rows, *, title: str, published: dict | None = None):
    """Horizontal bars of each policy's win percentage, published figures marked.

    ``rows`` are :class:`gamegraph.analysis.PolicyResult`; ``published`` maps a policy
    name to its published percentage.
    """
    figure, axes = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.2))
    names = [row.name for row in rows]
    values = [row.percent for row in rows]
    colours = ["#2ca02c" if name == "optimal" else "#1f77b4" for name in names]
    axes.barh(names, values, color=colours)
    for y, value in enumerate(values):
        axes.text(value, y, f" {value:.4f} %", va="center", fontsize=9)
    if published:
        marks = [(y, float(published[name])) for y, name in enumerate(names) if name in published]
        axes.scatter([m[1] for m in marks], [m[0] for m in marks], marker="|", s=300,
                     color="black", label="published", zorder=3)
        axes.legend(loc="lower right")
    axes.invert_yaxis()
    axes.set_xlabel("win probability (%)")
    axes.set_xlim(0, max(values) * 1.25)
    axes.set_title(title)
    return figure


def layer_distribution(distributions: dict, *, title: str, xlabel: str):
    """Line per policy: probability that the game ends at each layer.

    ``distributions`` maps a policy name to a sequence of probabilities indexed by layer.
    """
    figure, axes = plt.subplots(figsize=(7, 4))
    for name, values in distributions.items():
        axes.plot(range(len(values)), [float(v) for v in values], marker="o", label=name,
                  linewidth=2.5 if name == "optimal" else 1.2)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("probability")
    axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.legend()
    return figure


def supersix_maps(table, *, total: int, metric: str = "decision", title: str | None = None):
    """Six panels (pegs on the lid 0..5) of a Super Six decision table, for reports.

    ``metric`` is ``decision`` (roll or stop), ``choice`` (P_choice) or ``margin``
    (P_roll - P_end). One colour scale serves all panels.
    """
    import numpy as np
    from matplotlib.colors import ListedColormap, SymLogNorm

    from gamegraph.errors import UnknownNameError

    metrics = ("decision", "choice", "margin")
    if metric not in metrics:
        raise UnknownNameError("metric", metric, metrics)
    p_roll = np.array([float(v) for v in table.p_roll])
    p_end = np.array([float(v) for v in table.p_end])
    roll = p_roll > p_end
    values = {"decision": roll.astype(float), "choice": np.maximum(p_roll, p_end),
              "margin": p_roll - p_end}[metric]
    if metric == "decision":
        cmap, norm = ListedColormap(["#d62728", "#2ca02c"]), None
        vmin, vmax = 0, 1
    elif metric == "choice":
        cmap, norm, vmin, vmax = "viridis", None, 0, 1
    else:
        # Signed log scale: the sign decides, and margins span several orders of magnitude.
        limit = float(np.max(np.abs(values))) or 1.0
        cmap, vmin, vmax = "RdBu", None, None
        norm = SymLogNorm(linthresh=MARGIN_LINEAR_BELOW, vmin=-limit, vmax=limit)
    figure, axes = plt.subplots(2, 3, figsize=(12, 8), constrained_layout=True)
    image = None
    for b in range(6):
        ax = axes[b // 3][b % 3]
        size = max(total - b - 1, 1)
        grid = np.full((size, size), np.nan)
        keep = (table.b == b) & (table.b + table.c + table.o <= total)
        grid[table.o[keep] - 1, table.c[keep] - 1] = values[keep]
        image = ax.imshow(grid, origin="lower", cmap=cmap, norm=norm, vmin=vmin, vmax=vmax,
                          extent=(0.5, size + 0.5, 0.5, size + 0.5), interpolation="nearest")
        ax.set_title(f"{b} on the lid")
        ax.set_xlabel("your pegs")
        ax.set_ylabel("opponent's pegs")
    bar = figure.colorbar(image, ax=axes, shrink=0.8)
    if metric == "decision":
        bar.set_ticks([0.25, 0.75], labels=["stop", "roll"])
    else:
        bar.set_label({"choice": "P_choice", "margin": "P_roll - P_end"}[metric])
    figure.suptitle(title or f"Super Six, {total} pegs: {metric}")
    return figure
