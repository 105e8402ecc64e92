"""Interactive Super Six roll/stop maps: a plotly figure that saves as one offline page.

Six heatmaps, one per number of pegs on the lid (b = 0..5), with the mover's pegs (c) on
x and the opponent's (o) on y. Three buttons switch between the decision (roll or stop),
the win probability P_choice and the margin P_roll - P_end; a slider changes the total
pegs. Hovering shows the position and the three probabilities. Colour scales are fixed
across panels and totals (one shared colour axis), so a colour means the same everywhere.

A position's value does not depend on how many pegs the game started with, only on the
position, so one decision table at the largest total serves every total on the slider and
the figure holds each position once: a slider step only narrows the axes to the smaller
game and masks the positions it cannot reach (``b + c + o > total``). The figure draws
what it is given: the table, and the first player's start value for each total, shown
in the title (:func:`gamegraph.analysis.supersix.start_values` computes them).

Menus and slider are plotly's own (``layout.updatemenus``, ``layout.sliders``); the only
script on the page is :data:`HASH_SCRIPT`, which lets a URL hash such as
``#metric=margin&pegs=8`` select the state when the page opens.

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.supersix import SuperSix, decision_table
>>> from gamegraph.analysis.supersix import start_values
>>> table = decision_table(solve(build(SuperSix(pegs=8))))
>>> fig = figure(table, pegs=6, pegs_range=(4, 8),
...              start_values=start_values(table, range(4, 9), "free"), rules_name="free")
>>> len(fig.data), [step.label for step in fig.layout.sliders[0].steps]
(12, ['4', '5', '6', '7', '8'])
>>> fig.layout.title.text
'Super Six (free rules), 6 pegs (3 + 3): the first player wins 76.681 % from the start'
"""

from __future__ import annotations

import numpy as np

from .._escape import html_text
from .._files import check_output, write_atomic
from ..errors import InvalidArgumentError
from .interactive import InteractiveFigure, page_html

METRICS = ("decision", "choice", "margin")
LIDS = range(6)
MARGIN_LINEAR_BELOW = 1e-4  # the margin's colour is a signed logarithm, linear below this
TEXT_MAX_CELLS = 16  # cell text is shown on panels at most this many cells across
_MASK = "rgba(255,255,255,1)"
_CLEAR = "rgba(255,255,255,0)"
_LABELS = {"decision": "roll or stop", "choice": "P_choice", "margin": "P_roll − P_end"}


class SuperSixPage(InteractiveFigure):
    """The Super Six figure; its page has a title and :data:`HASH_SCRIPT`."""

    def save(self, path, *, post_script: str | None = None) -> None:
        """Write the offline page (``.html`` or ``.htm``) or the figure's ``.json``."""
        path, extension = check_output(path, (".html", ".htm", ".json"))
        if extension == ".json":
            write_atomic(path, self.to_json())
        else:
            write_atomic(path, self.to_page(post_script=post_script))

    def to_page(self, *, post_script: str | None = None) -> str:
        """The offline page's HTML (plotly.js inline), with :data:`HASH_SCRIPT` by default."""
        text = page_html(self, post_script=HASH_SCRIPT if post_script is None else post_script)
        rules = html_text((self.layout.meta or {}).get("rules", ""))
        title = f"<title>Super Six: when to roll ({rules} rules)</title>"
        return text.replace("<head>", f"<head>{title}", 1)


def figure(
    table, *, pegs: int, pegs_range: tuple[int, int], start_values: dict, rules_name: str
) -> SuperSixPage:
    """The interactive roll/stop maps as a plotly figure.

    Parameters
    ----------
    table : gamegraph.games.supersix.DecisionTable
        Covering at least ``pegs_range[1]`` pegs.
    pegs : int
        Total shown first.
    pegs_range : (int, int)
        The slider's lowest and highest total; it moves one peg at a time (an odd total
        gives the first player the extra peg).
    start_values : dict
        Total pegs -> the first player's win probability at the start, shown in the
        title (see :func:`gamegraph.analysis.supersix.start_values`); a total without
        one is shown without it.
    rules_name : str
        The rule set's name, shown in the title.

    Returns
    -------
    SuperSixPage
        An :class:`~gamegraph.renderers.interactive.InteractiveFigure`: traces 0-5 are
        the panels (lid 0..5), 6-11 the masks over positions a smaller game cannot reach.
        ``layout.meta`` holds the rule set, the totals, the number of positions and the
        start values as plain data.
    """
    low, high = (int(v) for v in pegs_range)
    if not 4 <= low <= pegs <= high:
        raise InvalidArgumentError(
            f"pegs_range {low}..{high} must contain the total pegs {pegs} and start at 4 or more"
        )
    if len(table) and int(np.max(np.asarray(table.b) + table.c + table.o)) < high:
        raise InvalidArgumentError(f"the decision table does not cover {high} pegs")
    grids = _grids(table, high)
    limit = grids["margin_limit"]
    traces = []
    for lid in LIDS:
        panel = grids["panels"][lid]
        axis = list(range(1, panel["size"] + 1))
        traces.append(
            dict(
                type="heatmap",
                name=f"{lid} on the lid",
                x=axis,
                y=axis,
                z=panel["z"]["decision"],
                text=panel["text"]["decision"],
                customdata=panel["custom"],
                coloraxis="coloraxis",
                xaxis=_axis("x", lid),
                yaxis=_axis("y", lid),
                xgap=1,
                ygap=1,
                hoverongaps=False,
                hovertemplate=(
                    f"{lid} on the lid · you %{{x}} · opponent %{{y}}<br>"
                    "P_roll %{customdata[0]:.6f}<br>P_end %{customdata[1]:.6f}<br>"
                    "P_choice %{customdata[2]:.6f}<br>best: %{customdata[3]}<extra></extra>"
                ),
            )
        )
    for lid in LIDS:
        panel = grids["panels"][lid]
        axis = list(range(1, panel["size"] + 1))
        traces.append(
            dict(
                type="heatmap",
                name=f"not in play ({lid} on the lid)",
                x=axis,
                y=axis,
                z=panel["needed"],
                colorscale=[[0, _CLEAR], [0.5, _CLEAR], [0.5, _MASK], [1, _MASK]],
                showscale=False,
                hoverinfo="skip",
                xaxis=_axis("x", lid),
                yaxis=_axis("y", lid),
            )
        )
    layout = _layout(limit)
    # What the page shows, as data (``layout.meta``, kept in the page's JSON).
    layout["meta"] = {
        "rules": rules_name,
        "pegs": pegs,
        "range": [low, high],
        "positions": grids["positions"],
        "start": {str(k): float(v) for k, v in sorted(start_values.items()) if low <= k <= high},
    }
    steps = [_step(total, start_values.get(total), rules_name) for total in range(low, high + 1)]
    layout["sliders"] = [
        dict(
            active=pegs - low,
            currentvalue={"prefix": "total pegs: ", "font": {"size": 14}},
            pad={"t": 30},
            x=0.02,
            len=0.9,
            y=0,
            yanchor="top",
            steps=steps,
        )
    ]
    layout["updatemenus"] = [
        dict(
            type="buttons",
            direction="right",
            active=0,
            showactive=True,
            x=0.02,
            xanchor="left",
            y=1.05,
            yanchor="bottom",
            pad={"r": 4, "t": 0},
            buttons=[
                dict(
                    name=metric,
                    label=_LABELS[metric],
                    method="update",
                    args=[
                        {
                            "z": [grids["panels"][lid]["z"][metric] for lid in LIDS],
                            "text": [grids["panels"][lid]["text"][metric] for lid in LIDS],
                        },
                        {"coloraxis": _colour_axis(metric, limit)},
                        list(LIDS),
                    ],
                )
                for metric in METRICS
            ],
        )
    ]
    shown = steps[pegs - low]["args"]
    for key, value in shown[1].items():
        _set(layout, key, value)
    for key, values in shown[0].items():
        for trace, value in zip(traces, values):
            trace[key] = value
    return SuperSixPage(data=traces, layout=layout)


def page(
    table, *, pegs: int, pegs_range: tuple[int, int], start_values: dict, rules_name: str
) -> str:
    """HTML text of the offline page: :func:`figure`'s :meth:`SuperSixPage.to_page`."""
    fig = figure(
        table,
        pegs=pegs,
        pegs_range=pegs_range,
        start_values=start_values,
        rules_name=rules_name,
    )
    return fig.to_page()


def write_page(path, text: str) -> None:
    """Write the page all-or-nothing (only .html is accepted)."""
    path, _ = check_output(path, (".html", ".htm"))
    write_atomic(path, text)


def signed_log(x):
    """The margin's colour coordinate: log10(1 + |x| / 1e-4) with the sign of x."""
    return np.sign(x) * np.log10(1 + np.abs(x) / MARGIN_LINEAR_BELOW)


def _grids(table, high: int) -> dict:
    """Per panel: the square grid of every metric, the hover data and the pegs needed."""
    b, c, o = (np.asarray(v, dtype=np.int64) for v in (table.b, table.c, table.o))
    p_roll = np.array([float(v) for v in table.p_roll])
    p_end = np.array([float(v) for v in table.p_end])
    roll = p_roll > p_end
    choice = np.where(roll, p_roll, p_end)
    margin = p_roll - p_end
    inside = b + c + o <= high
    limit = float(np.max(np.abs(margin[inside]))) if inside.any() else 1.0
    panels = []
    for lid in LIDS:
        size = max(high - lid - 1, 0)
        keep = np.flatnonzero(inside & (b == lid))
        rows, cols = o[keep] - 1, c[keep] - 1

        def grid(values, empty=None, rows=rows, cols=cols, size=size):
            out = [[empty] * size for _ in range(size)]
            for r, q, v in zip(rows.tolist(), cols.tolist(), values):
                out[r][q] = v
            return out

        kept_roll = roll[keep]
        z = {
            "decision": grid(kept_roll.astype(int).tolist()),
            "choice": grid(np.round(choice[keep], 5).tolist()),
            "margin": grid(np.round(signed_log(margin[keep]), 4).tolist()),
        }
        text = {
            "decision": grid(["R" if r else "S" for r in kept_roll], ""),
            "choice": grid([f"{v:.2f}".lstrip("0") for v in choice[keep]], ""),
            "margin": grid([_short(v) for v in margin[keep]], ""),
        }
        custom = grid(
            [
                [round(r, 8), round(e, 8), round(h, 8), "roll" if d else "stop"]
                for r, e, h, d in zip(
                    p_roll[keep].tolist(),
                    p_end[keep].tolist(),
                    choice[keep].tolist(),
                    kept_roll.tolist(),
                )
            ]
        )
        needed = [[lid + cc + oo for cc in range(1, size + 1)] for oo in range(1, size + 1)]
        panels.append({"size": size, "z": z, "text": text, "custom": custom, "needed": needed})
    return {"panels": panels, "margin_limit": limit or 1.0, "positions": int(inside.sum())}


def _short(margin: float) -> str:
    """Cell text of a margin: two decimals with the sign, which is what decides."""
    return f"{margin:+.2f}".replace("0.", ".", 1).replace("-", "−")


def _colour_axis(metric: str, limit: float) -> dict:
    if metric == "decision":
        return {
            "colorscale": [[0, "#d62728"], [0.5, "#d62728"], [0.5, "#2ca02c"], [1, "#2ca02c"]],
            "cmin": 0,
            "cmax": 1,
            "colorbar": {
                "title": {"text": "decision"},
                "tickvals": [0.25, 0.75],
                "ticktext": ["stop", "roll"],
                "len": 0.5,
            },
        }
    if metric == "choice":
        return {
            "colorscale": "Viridis",
            "cmin": 0,
            "cmax": 1,
            "colorbar": {"title": {"text": "P_choice"}, "len": 0.8},
        }
    top = float(signed_log(limit))
    values = [v for v in (-1, -0.1, -0.01, -0.001, 0, 0.001, 0.01, 0.1, 1) if abs(v) <= limit]
    return {
        "colorscale": "RdBu",
        "reversescale": True,
        "cmin": -top,
        "cmax": top,
        "colorbar": {
            "title": {"text": "P_roll − P_end"},
            "tickvals": [round(float(signed_log(v)), 6) for v in values],
            "ticktext": [f"{v:g}" for v in values],
            "len": 0.8,
        },
    }


def _layout(limit: float) -> dict:
    layout = {
        "height": 860,
        "margin": {"t": 110, "l": 60, "r": 40, "b": 120},
        "plot_bgcolor": "white",
        "showlegend": False,
        "hovermode": "closest",
        "coloraxis": _colour_axis("decision", limit),
        "title": {"x": 0.02, "xanchor": "left", "y": 0.985, "font": {"size": 17}},
        "annotations": [],
    }
    for lid in LIDS:
        col, row = lid % 3, lid // 3
        x0, x1 = col / 3 + 0.04, (col + 1) / 3 - 0.02
        y1 = 1 - row * 0.53
        y0 = y1 - 0.43
        common = {"tick0": 0, "ticks": "outside", "showgrid": False, "zeroline": False}
        layout[_axis("xaxis", lid)] = {
            "domain": [x0, x1],
            "anchor": _axis("y", lid),
            "title": {"text": "your pegs", "standoff": 4},
            "constrain": "domain",
            **common,
        }
        layout[_axis("yaxis", lid)] = {
            "domain": [y0, y1],
            "anchor": _axis("x", lid),
            "title": {"text": "opponent's pegs", "standoff": 4},
            "scaleanchor": _axis("x", lid),
            "constrain": "domain",
            **common,
        }
        layout["annotations"].append(
            {
                "text": f"<b>{lid} on the lid</b>",
                "showarrow": False,
                "xref": "paper",
                "yref": "paper",
                "x": (x0 + x1) / 2,
                "y": y1,
                "yanchor": "bottom",
                "font": {"size": 13},
            }
        )
    return layout


def _axis(prefix: str, lid: int) -> str:
    """Plotly's name of a panel's axis: ``x``/``xaxis`` for the first, then ``x2``, ..."""
    return prefix if lid == 0 else f"{prefix}{lid + 1}"


def _dtick(size: int) -> int:
    return 1 if size <= 12 else 2 if size <= 24 else 5 if size <= 60 else 10


def _step(total: int, start, rules_name: str) -> dict:
    """One slider step: narrow the axes, move the masks, show text where it fits."""
    first, second = total - total // 2, total // 2
    title = f"Super Six ({html_text(rules_name)} rules), {total} pegs ({first} + {second})"
    if start is not None:
        title += f": the first player wins {100 * float(start):.3f} % from the start"
    relayout = {"title.text": title}
    texttemplate = []
    for lid in LIDS:
        size = max(total - lid - 1, 0)
        for name in ("xaxis", "yaxis"):
            relayout[f"{_axis(name, lid)}.range"] = [0.5, max(size, 1) + 0.5]
            relayout[f"{_axis(name, lid)}.dtick"] = _dtick(size)
        texttemplate.append("%{text}" if 0 < size <= TEXT_MAX_CELLS else "")
    texttemplate += [""] * len(LIDS)
    # The masks' colour scale turns opaque halfway between total and total + 1 (one value
    # for all twelve traces: the panels take their colours from the colour axis instead).
    zmin = [total - 0.5] * 2 * len(LIDS)
    zmax = [total + 1.5] * 2 * len(LIDS)
    return dict(
        label=str(total),
        value=str(total),
        method="update",
        args=[{"texttemplate": texttemplate, "zmin": zmin, "zmax": zmax}, relayout],
    )


def _set(layout: dict, dotted: str, value) -> None:
    """Apply a relayout key such as ``xaxis2.range`` to a layout dict."""
    *path, last = dotted.split(".")
    node = layout
    for key in path:
        node = node.setdefault(key, {})
    node[last] = value


#: The page's only script: a URL hash (``#metric=margin&pegs=8``) applies the same
#: arguments the buttons and the slider carry, and the body records the state shown
#: (``data-rendered``, ``data-metric``, ``data-pegs``) for links and tests.
HASH_SCRIPT = """
var gd = document.getElementById('{plot_id}');
function gamegraphMark() {
  var menu = gd.layout.updatemenus[0], slider = gd.layout.sliders[0];
  document.body.dataset.metric = menu.buttons[menu.active].name;
  document.body.dataset.pegs = slider.steps[slider.active].value;
  document.body.dataset.rendered = 'yes';
}
gd.on('plotly_buttonclicked', gamegraphMark);
gd.on('plotly_sliderchange', gamegraphMark);
var wanted = new URLSearchParams(location.hash.slice(1)), chain = Promise.resolve();
var buttons = gd.layout.updatemenus[0].buttons, steps = gd.layout.sliders[0].steps;
var b = buttons.findIndex(function (x) { return x.name === wanted.get('metric'); });
var s = steps.findIndex(function (x) { return x.value === wanted.get('pegs'); });
if (b >= 0) chain = chain.then(function () {
  var a = buttons[b].args;
  return Plotly.update(gd, a[0], Object.assign({'updatemenus[0].active': b}, a[1]), a[2]);
});
if (s >= 0) chain = chain.then(function () {
  var a = steps[s].args;
  return Plotly.update(gd, a[0], Object.assign({'sliders[0].active': s}, a[1]));
});
chain.then(gamegraphMark);
"""
