"""Static pictures of interactive outputs, drawn with matplotlib (no browser, no kaleido).

An interactive output in a notebook (a plotly figure, the graph explorer) also carries a
PNG, so that readers who open the notebook outside Jupyter (nbconvert, nbviewer, GitHub,
a notebook opened offline) still see the figure. These functions draw that PNG from what
the interactive output holds:

* :func:`plotly_image` draws a plotly figure as it first shows: its heatmaps (with the
  colour axis or colour scale, each trace's ``zmin``/``zmax``, and cell text where the
  cells are large enough to hold it), scatter and bar traces, each in its subplot's
  place, the axis ranges and titles, rectangles, annotations and colour bars. The menus
  and sliders are not drawn; a note under the picture says that they work in JupyterLab,
  VS Code or the saved page. That covers the Super Six roll/stop page (the decision view
  at the total shown first) and the Ur borne-off maps.
* :func:`explorer_image` draws the explorer's overview: the groups bar chart (expected
  visits and where games end, per group) and the explorer's first view, the most likely
  states at their layered positions, coloured by reach as the page colours them.

Both return a :class:`~gamegraph.renderers.figures.StaticFigure`; :func:`png` turns one
into PNG bytes (100 dpi) for a notebook's ``image/png``.
"""

from __future__ import annotations

import io
import re
import textwrap

import numpy as np

from .figures import StaticFigure, freeze_layout

#: Resolution of the PNG a notebook output carries.
DPI = 100

#: Width of the static pictures, in inches (800 pixels at :data:`DPI`).
WIDTH = 8.0

#: Heatmap cells carry their text only where a cell is at least this many points across.
TEXT_MIN_CELL_PT = 10

#: States drawn in the explorer's picture (the page's first view shows as many).
EXPLORER_STATES = 150

#: Labels are written beside the states when the picture shows at most this many.
EXPLORER_LABELS = 40

NOTE = (
    "Static picture of the first view. The menus, slider and hover work in JupyterLab, "
    "VS Code or the saved .html page."
)
_FONT = {"tick": 7, "label": 8, "title": 9, "cell": 7}
_TAG = re.compile(r"<[^>]+>")


def png(figure, *, dpi: int = DPI) -> bytes:
    """A matplotlib figure as PNG bytes (its own layout kept; ``dpi`` pixels per inch)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def plain(text) -> str:
    """Plotly's label markup as plain text: ``<br>`` a new line, other tags dropped."""
    if not text:
        return ""
    text = re.sub(r"<br\s*/?>", "\n", str(text), flags=re.IGNORECASE)
    text = _TAG.sub("", text)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'")):
        text = text.replace(entity, char)
    return text.replace("&amp;", "&")


# ---------------------------------------------------------------------------
# Plotly figures
# ---------------------------------------------------------------------------
def plotly_image(figure, *, note: str | None = None) -> StaticFigure:
    """A matplotlib picture of a plotly figure's first view (see the module docstring).

    ``note`` is written under the picture; by default :data:`NOTE` where the figure has
    menus or sliders.
    """
    spec = figure.to_dict() if hasattr(figure, "to_dict") else dict(figure)
    layout = spec.get("layout", {}) or {}
    traces = [t for t in spec.get("data", []) if t.get("visible", True) not in (False,)]
    width_px = float(layout.get("width") or 900)
    height_px = float(layout.get("height") or 500)
    height = min(WIDTH * height_px / width_px, 9.0)
    fig = StaticFigure(figsize=(WIDTH, height))
    margin = {"l": 80, "r": 80, "t": 100, "b": 80, **(layout.get("margin") or {})}
    # The plot area in figure fractions, as plotly lays it out (margins in pixels, the
    # room plotly keeps for menus and sliders left out), with room for the title, the
    # axis titles and a colour bar at the smaller size.
    left, right = margin["l"] / width_px, 1 - margin["r"] / width_px
    bottom = max(min(margin["b"], 60) / height_px, 0.07)
    top = min(1 - min(margin["t"], 90) / height_px, 0.86)
    right = min(right, 0.88)

    def to_figure(x, y):
        return left + x * (right - left), bottom + y * (top - bottom)

    axes: dict = {}
    scales: dict = {}
    for trace in traces:
        kind = trace.get("type", "scatter")
        xref, yref = trace.get("xaxis", "x"), trace.get("yaxis", "y")
        ax = axes.get((xref, yref))
        if ax is None:
            ax = axes[(xref, yref)] = _subplot(fig, layout, xref, yref, to_figure)
        if kind == "heatmap":
            scale = _heatmap(ax, trace, layout)
            if scale is not None:
                scales.setdefault(scale[0], scale[1])
        elif kind in ("scatter", "scattergl"):
            _scatter(ax, trace)
        elif kind == "bar":
            _bar(ax, trace)
    for (xref, yref), ax in axes.items():
        _finish_axes(ax, layout, xref, yref)
    _shapes_and_annotations(fig, axes, layout, to_figure)
    for k, (cmap, low, high, bar) in enumerate(scales.values()):
        _colour_bar(fig, cmap, low, high, bar, x=min(right + 0.03 + 0.09 * k, 0.95), top=top)
    title = plain((layout.get("title") or {}).get("text", ""))
    if title:
        lines = [textwrap.fill(line, 110) for line in title.splitlines()]
        fig.text(0.01, 0.99, "\n".join(lines), ha="left", va="top", fontsize=_FONT["title"])
    if note is None and (layout.get("updatemenus") or layout.get("sliders")):
        note = NOTE
    if note:
        fig.text(0.01, 0.01, note, ha="left", va="bottom", fontsize=_FONT["tick"], color="0.3")
    return fig


def _subplot(fig, layout, xref, yref, to_figure):
    xaxis = layout.get(_axis_key(xref)) or {}
    yaxis = layout.get(_axis_key(yref)) or {}
    x0, x1 = xaxis.get("domain") or (0, 1)
    y0, y1 = yaxis.get("domain") or (0, 1)
    (fx0, fy0), (fx1, fy1) = to_figure(x0, y0), to_figure(x1, y1)
    # Leave room inside the domain for tick labels and axis titles, as plotly does outside.
    ax = fig.add_axes((fx0 + 0.035, fy0 + 0.045, fx1 - fx0 - 0.04, fy1 - fy0 - 0.05))
    if yaxis.get("scaleanchor"):
        ax.set_aspect("equal", adjustable="box", anchor="C")
    return ax


def _axis_key(ref: str) -> str:
    """``x2`` -> ``xaxis2``; ``x`` -> ``xaxis``."""
    return f"{ref[0]}axis{ref[1:]}"


def _finish_axes(ax, layout, xref, yref):
    from matplotlib.ticker import MultipleLocator

    for ref, set_lim, axis in ((xref, ax.set_xlim, ax.xaxis), (yref, ax.set_ylim, ax.yaxis)):
        spec = layout.get(_axis_key(ref)) or {}
        if spec.get("range"):
            set_lim(*spec["range"])
        if spec.get("dtick"):
            axis.set_major_locator(MultipleLocator(float(spec["dtick"])))
        title = spec.get("title")
        text = plain(title.get("text") if isinstance(title, dict) else title)
        if text:
            axis.set_label_text(text, fontsize=_FONT["label"])
        axis.labelpad = 1
    ax.tick_params(labelsize=_FONT["tick"], length=2, pad=1)


def colormap(scale, *, reverse: bool = False):
    """A matplotlib colormap from a plotly colour scale (a name or [position, colour]
    pairs; equal positions make a step), transparent colours kept.
    """
    from matplotlib.colors import ListedColormap, to_rgba
    from plotly.colors import get_colorscale

    if isinstance(scale, str):
        scale = get_colorscale(scale)
    positions = np.array([float(p) for p, _ in scale])
    colours = np.array([to_rgba(_css_colour(c)) for _, c in scale])
    if reverse:
        positions, colours = 1 - positions[::-1], colours[::-1]
    t = np.linspace(0, 1, 256)
    # The segment each sample falls in; at a step the colour after it wins.
    upper = np.clip(np.searchsorted(positions, t, side="right"), 1, len(positions) - 1)
    lower = upper - 1
    span = positions[upper] - positions[lower]
    share = np.where(span > 0, (t - positions[lower]) / np.where(span > 0, span, 1), 1.0)
    share = np.clip(share, 0, 1)[:, None]
    table = colours[lower] * (1 - share) + colours[upper] * share
    return ListedColormap(table)


def _css_colour(colour: str):
    """Plotly's ``rgb(...)``/``rgba(...)`` strings as matplotlib colours."""
    colour = str(colour).strip()
    found = re.fullmatch(r"rgba?\(([^)]*)\)", colour)
    if not found:
        return colour
    parts = [float(v) for v in found.group(1).split(",")]
    rgb = [v / 255 for v in parts[:3]]
    return (*rgb, parts[3] if len(parts) > 3 else 1.0)


def _heatmap(ax, trace, layout):
    """Draw one heatmap trace; returns (key, colour scale) for a colour bar, or None."""
    z = np.array(
        [[np.nan if v is None else float(v) for v in row] for row in trace.get("z") or []],
        dtype=float,
    )
    if z.size == 0:
        return None
    rows, columns = z.shape
    x = np.asarray(trace.get("x") or range(columns), dtype=float)
    y = np.asarray(trace.get("y") or range(rows), dtype=float)
    shared = trace.get("coloraxis")
    source = (layout.get(shared) or {}) if shared else trace
    scale = source.get("colorscale") or "Viridis"
    reverse = bool(source.get("reversescale"))
    low = source.get("cmin" if shared else "zmin")
    high = source.get("cmax" if shared else "zmax")
    finite = z[np.isfinite(z)]
    low = float(finite.min()) if low is None and finite.size else float(low or 0)
    high = float(finite.max()) if high is None and finite.size else float(high or 1)
    cmap = colormap(scale, reverse=reverse)
    t = np.clip((z - low) / ((high - low) or 1), 0, 1)
    rgba = cmap(np.nan_to_num(t))
    rgba[~np.isfinite(z)] = (0, 0, 0, 0)
    dx = float(x[1] - x[0]) if len(x) > 1 else 1.0
    dy = float(y[1] - y[0]) if len(y) > 1 else 1.0
    extent = (x[0] - dx / 2, x[-1] + dx / 2, y[0] - dy / 2, y[-1] + dy / 2)
    ax.imshow(rgba, origin="lower", extent=extent, interpolation="nearest", aspect="auto")
    _cell_text(ax, trace, layout, x, y, z, rgba)
    if shared:
        bar = (layout.get(shared) or {}).get("colorbar") or {}
        return shared, (cmap, low, high, bar)
    if trace.get("showscale", True) and trace.get("hoverinfo") != "skip":
        return id(trace), (cmap, low, high, trace.get("colorbar") or {})
    return None


def _cell_text(ax, trace, layout, x, y, z, rgba):
    template = trace.get("texttemplate") or ""
    if not template:
        return
    xaxis = layout.get(_axis_key(trace.get("xaxis", "x"))) or {}
    yaxis = layout.get(_axis_key(trace.get("yaxis", "y"))) or {}
    xr = xaxis.get("range") or (x[0] - 0.5, x[-1] + 0.5)
    yr = yaxis.get("range") or (y[0] - 0.5, y[-1] + 0.5)
    inside_x = (x >= xr[0]) & (x <= xr[1])
    inside_y = (y >= yr[0]) & (y <= yr[1])
    box = ax.get_position()
    width, height = ax.figure.get_size_inches()
    cell_pt = 72 * min(
        box.width * width / max(inside_x.sum(), 1), box.height * height / max(inside_y.sum(), 1)
    )
    if cell_pt < TEXT_MIN_CELL_PT:
        return
    text = trace.get("text")
    for i in np.flatnonzero(inside_y):
        for j in np.flatnonzero(inside_x):
            if not np.isfinite(z[i, j]):
                continue
            if "%{text}" in template and text is not None:
                label = plain(text[i][j])
            elif "%{z" in template:
                label = f"{z[i, j]:.3g}"
            else:
                continue
            r, g, b, a = rgba[i, j]
            dark = a > 0.5 and (0.299 * r + 0.587 * g + 0.114 * b) < 0.5
            ax.text(
                x[j],
                y[i],
                label,
                ha="center",
                va="center",
                fontsize=_FONT["cell"],
                color="white" if dark else "black",
                clip_on=True,
            )


def _scatter(ax, trace):
    x, y = trace.get("x"), trace.get("y")
    if x is None or y is None:
        return
    mode = trace.get("mode") or "lines+markers"
    line = trace.get("line") or {}
    marker = trace.get("marker") or {}
    colour = line.get("color") if isinstance(line.get("color"), str) else None
    if "markers" in mode and isinstance(marker.get("color"), str):
        colour = colour or marker["color"]
    ax.plot(
        list(x),
        list(y),
        linestyle="-" if "lines" in mode else "none",
        marker="o" if "markers" in mode else None,
        markersize=3,
        linewidth=1,
        color=_css_colour(colour) if colour else None,
        label=trace.get("name"),
    )


def _bar(ax, trace):
    x, y = trace.get("x"), trace.get("y")
    if x is None or y is None:
        return
    colour = (trace.get("marker") or {}).get("color")
    ax.bar(
        [str(v) for v in x],
        [float(v) for v in y],
        color=_css_colour(colour) if isinstance(colour, str) else None,
    )


def _shapes_and_annotations(fig, axes, layout, to_figure):
    from matplotlib.patches import Rectangle

    by_ref = {}
    for (xref, yref), ax in axes.items():
        by_ref[(xref, yref)] = ax
    for shape in layout.get("shapes") or []:
        ax = by_ref.get((shape.get("xref", "x"), shape.get("yref", "y")))
        if ax is None or shape.get("type") != "rect" or shape.get("x0") is None:
            continue
        line = shape.get("line") or {}
        x0, x1, y0, y1 = (float(shape[k]) for k in ("x0", "x1", "y0", "y1"))
        ax.add_patch(
            Rectangle(
                (x0, y0),
                x1 - x0,
                y1 - y0,
                fill=False,
                edgecolor=_css_colour(line.get("color", "black")),
                linewidth=float(line.get("width", 1)) * 0.75,
                zorder=5,
            )
        )
    for note in layout.get("annotations") or []:
        text = plain(note.get("text"))
        if not text or note.get("x") is None or note.get("y") is None:
            continue
        xref, yref = note.get("xref", "x"), note.get("yref", "y")
        if xref == "paper" and yref == "paper":
            fx, fy = to_figure(float(note["x"]), float(note["y"]))
            va = {"bottom": "bottom", "top": "top"}.get(note.get("yanchor"), "center")
            fig.text(fx, fy, text, ha="center", va=va, fontsize=_FONT["title"])
            continue
        ax = by_ref.get((xref, yref))
        if ax is None:
            continue
        arrow = note.get("showarrow", True)
        offset = (float(note.get("ax", -10)) * 0.75, -float(note.get("ay", -30)) * 0.75)
        ax.annotate(
            text,
            (float(note["x"]), float(note["y"])),
            xytext=offset if arrow else (0, 0),
            textcoords="offset points",
            ha="center",
            va="center",
            fontsize=_FONT["label"],
            bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "black", "lw": 0.5},
            arrowprops={"arrowstyle": "-|>", "lw": 1} if arrow else None,
            zorder=6,
            annotation_clip=False,
        )


def _colour_bar(fig, cmap, low, high, bar, *, x, top):
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    length = float(bar.get("len", 0.8) or 0.8) * 0.6
    cax = fig.add_axes((x, top - length, 0.018, length))
    colourbar = fig.colorbar(ScalarMappable(Normalize(low, high), cmap), cax=cax)
    if bar.get("tickvals") is not None:
        colourbar.set_ticks(bar["tickvals"], labels=[plain(t) for t in bar.get("ticktext", [])])
    colourbar.ax.tick_params(labelsize=_FONT["tick"])
    title = bar.get("title")
    text = plain(title.get("text") if isinstance(title, dict) else title)
    if text:
        cax.set_title(text, fontsize=_FONT["label"], loc="left")


# ---------------------------------------------------------------------------
# The graph explorer
# ---------------------------------------------------------------------------
def explorer_image(data, *, policy: int = 0, states: int = EXPLORER_STATES) -> StaticFigure:
    """The explorer's overview of ``data`` (an :class:`~gamegraph.analysis.explore.Exploration`).

    Left, per group of states: the expected visits under ``policy`` and, darker, the
    chance that the game ends there. Right, the explorer's first view: the ``states``
    most likely states at their layered positions (layer across), coloured by reach
    (viridis, log scale; grey: never reached), the start a star and end states squares;
    a line is a move the policy makes, its width the chance that a game makes it.
    """
    from matplotlib.colors import LogNorm

    name = data.policies[policy]
    fig = StaticFigure(figsize=(WIDTH, 4.2), layout="constrained")
    bars_ax, ax = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 2.4]})

    groups = np.arange(len(data.group_names))
    visits = np.asarray(data.group_reach).reshape(len(data.policies), -1)[policy]
    ends = np.asarray(data.group_ends).reshape(len(data.policies), -1)[policy]
    bars_ax.barh(groups, visits, color="#9ecae1", label="expected visits")
    bars_ax.barh(groups, ends, color="#0072B2", height=0.5, label="game ends here")
    bars_ax.set_yticks(groups, [plain(g) for g in data.group_names])
    bars_ax.invert_yaxis()
    if len(groups) > 14:
        bars_ax.yaxis.set_major_locator(_every(len(groups)))
    bars_ax.tick_params(labelsize=_FONT["tick"], length=2, pad=1)
    bars_ax.set_xlabel(f"per game ({name})", fontsize=_FONT["label"])
    bars_ax.set_title("groups of states", fontsize=_FONT["title"], loc="left")
    bars_ax.legend(fontsize=_FONT["tick"], loc="lower right", frameon=False)

    reach = np.asarray(data.reach)[policy]
    order = np.lexsort((np.arange(len(reach)), -reach))
    shown = np.sort(order[: min(states, len(reach))])
    if data.start not in shown:
        shown = np.sort(np.append(shown[:-1], data.start))
    index = np.full(len(reach), -1)
    index[shown] = np.arange(len(shown))
    start = shown == data.start
    end = np.asarray(data.terminal)[shown] & ~start
    # As the page places them: end states in a last column, empty layers closed up.
    column = np.where(end, np.max(data.x) + 1, np.asarray(data.x)[shown])
    px = np.full(len(reach), np.nan)
    px[shown] = np.unique(column, return_inverse=True)[1]
    py = np.asarray(data.y, dtype=float)
    _explorer_moves(ax, data, policy, shown, index, reach, (px, py))
    positive = reach[shown][reach[shown] > 0]
    low = max(float(positive.min()) if positive.size else 1e-6, 1e-6)
    high = max(float(positive.max()) if positive.size else 1.0, low * 10)
    norm = LogNorm(low, high)
    reached = reach[shown] > 0
    middle = ~start & ~end
    x, y = px[shown], py[shown]
    for mask, marker, size in ((middle, "o", 22), (end, "s", 26), (start, "*", 110)):
        ax.scatter(
            x[mask & ~reached], y[mask & ~reached], s=size, marker=marker, color="#bdbdbd",
            edgecolors="0.4", linewidths=0.4, zorder=3,
        )  # fmt: skip
        image = ax.scatter(
            x[mask & reached], y[mask & reached], c=reach[shown][mask & reached], cmap="viridis",
            norm=norm, s=size, marker=marker, edgecolors="0.2", linewidths=0.4, zorder=4,
        )  # fmt: skip
    if len(shown) <= EXPLORER_LABELS:
        for i in shown:
            ax.annotate(
                plain(data.labels[i]), (px[i], py[i]), xytext=(0, 5),
                textcoords="offset points", ha="center", fontsize=_FONT["tick"], zorder=5,
            )  # fmt: skip
    ax.invert_yaxis()
    ax.set_xlabel("layer, from the start (end states last)", fontsize=_FONT["label"])
    ax.set_yticks([])
    ax.tick_params(labelsize=_FONT["tick"], length=2, pad=1)
    ax.margins(0.06, 0.08)
    kept = "" if data.total_states == data.n_states else f" of {data.total_states:,}"
    ax.set_title(
        f"the {len(shown):,} most likely states{kept} ({name}); "
        "star: start, square: end, grey: never reached",
        fontsize=_FONT["label"],
        loc="left",
    )
    bar = fig.colorbar(image, ax=ax, shrink=0.6, aspect=20, pad=0.01)
    bar.ax.tick_params(labelsize=_FONT["tick"])
    bar.ax.set_title("reach", fontsize=_FONT["label"], loc="left")
    fig.suptitle(
        f"{plain(data.name)}: graph explorer, overview", x=0.01, ha="left",
        fontsize=_FONT["title"] + 1,
    )  # fmt: skip
    fig.supxlabel(
        "Static picture of the explorer's first view. Filtering, hover and details work in "
        "JupyterLab, VS Code or the saved .html page.",
        x=0.01, ha="left", fontsize=_FONT["tick"], color="0.3",
    )  # fmt: skip
    freeze_layout(fig)
    return fig


def _every(count: int):
    from matplotlib.ticker import MultipleLocator

    return MultipleLocator(max(1, int(np.ceil(count / 14))))


def _explorer_moves(ax, data, policy, shown, index, reach, positions):
    """Lines for the moves the policy makes between states shown (width: their chance)."""
    from matplotlib.collections import LineCollection

    px, py = positions
    segments, flows = [], []
    choice = np.asarray(data.choice)[policy]
    for i in shown:
        for k in range(data.outcome_ptr[i], data.outcome_ptr[i + 1]):
            pick = choice[k]
            if pick < 0:
                continue
            target = int(data.option_target[data.option_ptr[k] + pick])
            if target < 0 or index[target] < 0 or target == i:
                continue
            flow = reach[i] * data.outcome_weight[k] / data.denominator
            segments.append(((px[i], py[i]), (px[target], py[target])))
            flows.append(flow)
    if not segments:
        return
    flows = np.asarray(flows, dtype=float)
    widths = 0.2 + 2.0 * np.sqrt(flows / (flows.max() or 1))
    ax.add_collection(
        LineCollection(segments, linewidths=widths, colors="#0072B2", alpha=0.3, zorder=2)
    )
