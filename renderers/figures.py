"""Static matplotlib figures for reports (PNG, SVG or PDF by extension)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .output import check_output, write_atomic  # noqa: E402

EXTENSIONS = (".png", ".svg", ".pdf")


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
