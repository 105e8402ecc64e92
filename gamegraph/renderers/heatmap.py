"""Interactive Super Six roll/stop maps: a plotly figure that saves as one offline page.

Six heatmaps, one per number of pegs on the lid (b = 0..5), with the mover's pegs (c) on
x and the opponent's (o) on y. Three buttons switch between the decision (roll or stop),
the win probability P_choice and the margin P_roll - P_end; two more between the rule
sets; a slider changes the total pegs. The start cell of the game shown (0/ceil(n/2)/
floor(n/2)) is outlined and labelled "start". Hovering shows the position, the three
probabilities and each throw of the die: its chance and the mover's win probability after
it. Colour scales are fixed across panels and totals (one shared colour axis), so a colour
means the same everywhere.

A position's value does not depend on how many pegs the game started with, only on the
position, so one decision table at the largest total serves every total on the slider and
the figure holds each position once: a slider step only narrows the axes to the smaller
game and masks the positions it cannot reach (``b + c + o > total``). The rule sets differ
only in the first round (one forced throw each under ``first-round``), so every decision
position, and every cell, is the same under both: a rule set changes the title's start
value. The figure draws what it is given: the table, each rule set's start value for each
total (:func:`gamegraph.games.supersix.analysis.start_values`) and, for the hover, the value
after each throw (:func:`gamegraph.games.supersix.analysis.throw_values`).

Menus and slider are plotly's own (``layout.updatemenus``, ``layout.sliders``). The page's
one script of its own is :data:`HASH_SCRIPT`: it applies the rule-set buttons (which need
it: in a notebook the figure keeps the rule set it was made with), reads a URL hash such as
``#rules=first-round&pegs=8&metric=margin`` when the page opens and writes the hash back
whenever the view changes, so the address of a view can be shared.

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.supersix import SuperSix, decision_table
>>> from gamegraph.games.supersix.analysis import start_values
>>> table = decision_table(solve(build(SuperSix(pegs=8))))
>>> starts = {rules: start_values(table, range(4, 9), rules) for rules in ("free", "first-round")}
>>> fig = figure(table, pegs=6, pegs_range=(4, 8), start_values=starts, rules_name="free")
>>> len(fig.data), [step.label for step in fig.layout.sliders[0].steps]
(12, ['4', '5', '6', '7', '8'])
>>> [button.name for button in fig.layout.updatemenus[1].buttons]
['free', 'first-round']
>>> fig.layout.title.text.split("<br>")[:2]
['Super Six (free rules), 6 pegs (3 + 3)', 'the first player wins 76.681 % from the start']

The table alone is enough: the slider runs from 4 to the pegs it covers, and the start
values and the hover's throws are computed from it.

>>> figure(table).layout.meta["range"]
[4, 8]
"""

from __future__ import annotations

import numpy as np

from .._escape import html_text
from .._files import check_output, write_atomic
from ..errors import InvalidArgumentError
from ._colours import ROLL, STOP
from .interactive import InteractiveFigure, page_html

METRICS = ("decision", "choice", "margin")
LIDS = range(6)
SOCKETS = 5
LOWEST = 4  # the smallest total on the slider: the first with a decision to make
MARGIN_LINEAR_BELOW = 1e-4  # the margin's colour is a signed logarithm, linear below this
TEXT_MAX_CELLS = 16  # cell text is shown on panels at most this many cells across
GAP_MAX_CELLS = 40  # cells are parted by a 1-pixel gap on panels at most this many across
START = 6  # the index of the start cell's label in ``layout.annotations``
_MASK = "rgba(255,255,255,1)"
_CLEAR = "rgba(255,255,255,0)"
_LABELS = {"decision": "roll or stop", "choice": "P_choice", "margin": "P_roll − P_end"}
#: What the subtitle says of each rule set (a rule set not named here is shown by name).
RULES_NOTES = {
    "free": "free rules: after each throw that takes no peg you may throw again or stop",
    "first-round": "first-round rules: one throw each in the first round, then as free; "
    "the cells are the same, only the start value differs",
}


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
        title = "<title>Super Six: when to roll</title>"
        return text.replace("<head>", f"<head>{title}", 1)


def figure(
    table,
    *,
    pegs: int | None = None,
    pegs_range: tuple[int, int] | None = None,
    start_values: dict | None = None,
    rules_name: str | None = None,
    after_throws: dict | None = None,
) -> SuperSixPage:
    """The interactive roll/stop maps as a plotly figure; ``figure(table)`` is enough.

    Parameters
    ----------
    table : gamegraph.games.supersix.DecisionTable
        Covering at least ``pegs_range[1]`` pegs.
    pegs : int, optional
        Total shown first; by default the slider's highest.
    pegs_range : (int, int), optional
        The slider's lowest (4 or more) and highest total; it moves one peg at a time (an
        odd total gives the first player the extra peg). By default 4 to the most pegs the
        table covers.
    start_values : dict, optional
        Rule set -> {total pegs -> the first player's win probability at the start}, one
        button per rule set (see :func:`gamegraph.games.supersix.analysis.start_values`); a
        total without a value is shown without it. A plain {total: value} is the values
        of ``rules_name`` alone (which must then be given). By default every rule set's
        values, computed from the table.
    rules_name : str, optional
        The rule set shown first, one of ``start_values``: by default the table's own
        ``rules`` where it has one, else the first rule set of ``start_values``.
    after_throws : dict, optional
        ``"place"``, ``"take"``, ``"pit"`` -> the mover's win probability after that
        throw, aligned with the table (:func:`gamegraph.games.supersix.analysis.throw_values`);
        the hover shows each throw's chance, and with these its outcome. By default
        computed from the table (pass ``{}`` for the chances alone).

    Returns
    -------
    SuperSixPage
        An :class:`~gamegraph.renderers.interactive.InteractiveFigure`: traces 0-5 are
        the panels (lid 0..5), 6-11 the masks over positions a smaller game cannot reach;
        ``layout.shapes[0]`` outlines the start cell and ``layout.annotations[6]`` labels
        it. ``layout.meta`` holds the rule sets, the totals, the number of positions, the
        start values and every title as plain data.
    """
    low, high, pegs, start_values, rules_name, after_throws = _settings(
        table, pegs, pegs_range, start_values, rules_name, after_throws
    )
    grids = _grids(table, high, after_throws)
    limit = grids["margin_limit"]
    traces = _panel_traces(grids, after_throws is not None)
    totals = range(low, high + 1)
    titles = {
        str(rules): {str(total): _title(rules, total, starts.get(total)) for total in totals}
        for rules, starts in start_values.items()
    }
    layout = _layout(limit)
    # What the page shows, as data (``layout.meta``, kept in the page's JSON).
    layout["meta"] = {
        "rules": rules_name,
        "pegs": pegs,
        "range": [low, high],
        "positions": grids["positions"],
        "start": {
            str(rules): {str(k): float(v) for k, v in sorted(starts.items()) if low <= k <= high}
            for rules, starts in start_values.items()
        },
        "titles": titles,
    }
    steps = [_step(total, titles[rules_name][str(total)]) for total in totals]
    layout["sliders"] = [
        dict(
            active=pegs - low,
            currentvalue={"prefix": "total pegs: ", "font": {"size": 14}},
            pad={"t": 30},
            x=0.02,
            len=0.96,
            y=0,
            yanchor="top",
            steps=steps,
        )
    ]
    layout["updatemenus"] = _menus(grids, limit, start_values, rules_name)
    shown = steps[pegs - low]["args"]
    for key, value in shown[1].items():
        _set(layout, key, value)
    for key, values in shown[0].items():
        for trace, value in zip(traces, values):
            trace[key] = value
    return SuperSixPage(data=traces, layout=layout)


def _settings(table, pegs, pegs_range, start_values, rules_name, after_throws):
    """:func:`figure`'s arguments checked, with their defaults filled in: ``(low, high,
    pegs, start_values, rules_name, after_throws)``, the start values by rule set and
    ``after_throws`` None for the chances alone.
    """
    from ..games.supersix import analysis

    covered = int(np.max(np.asarray(table.b) + table.c + table.o)) if len(table) else 0
    low, high = (LOWEST, covered) if pegs_range is None else (int(v) for v in pegs_range)
    pegs = high if pegs is None else int(pegs)
    if after_throws is None:
        after_throws = analysis.throw_values(table) if len(table) else {}
    after_throws = after_throws or None
    if start_values is None:
        totals = range(low, high + 1) if LOWEST <= low <= high <= covered else range(0)
        start_values = {
            rules: analysis.start_values(table, totals, rules) for rules in analysis.RULESETS
        }
    own = getattr(table, "rules", None)
    if rules_name is None:
        if not all(isinstance(rules, str) for rules in start_values):
            raise InvalidArgumentError(
                "start values given as {total: value} need rules_name: the rule set they are of"
            )
        rules_name = own if own in start_values else next(iter(start_values), "free")
    if not LOWEST <= low <= pegs <= high:
        raise InvalidArgumentError(
            f"pegs_range {low}..{high} must contain the total pegs {pegs} "
            f"and start at {LOWEST} or more"
        )
    if not all(isinstance(rules, str) for rules in start_values):
        start_values = {rules_name: start_values}  # one rule set's {total: value}
    if rules_name not in start_values:
        raise InvalidArgumentError(
            f"rules_name {rules_name!r} has no start values; given: {', '.join(start_values)}"
        )
    if len(table) and int(np.max(np.asarray(table.b) + table.c + table.o)) < high:
        raise InvalidArgumentError(f"the decision table does not cover {high} pegs")
    return low, high, pegs, start_values, rules_name, after_throws


def _panel_traces(grids: dict, outcomes: bool) -> list:
    """The six panels' heatmaps (lid 0..5), then the six masks over the positions a
    smaller game cannot reach.
    """
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
                hoverongaps=False,
                hovertemplate=_hover(lid, outcomes),
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
    return traces


def _menus(grids: dict, limit, start_values: dict, rules_name: str) -> list:
    """The two menus: what the panels show (decision, P_choice, margin), and the rule
    set, which changes only the title.
    """
    return [
        _menu(
            [
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
            active=0,
            x=0,
            xanchor="left",
        ),
        # The rule set changes only the title; HASH_SCRIPT applies it ("skip": plotly
        # marks the button and leaves the rest to the page).
        _menu(
            [
                dict(name=str(rules), label=f"{html_text(rules)} rules", method="skip", args=[])
                for rules in start_values
            ],
            active=list(start_values).index(rules_name),
            x=1,
            xanchor="right",
        ),
    ]


def page(
    table,
    *,
    pegs: int | None = None,
    pegs_range: tuple[int, int] | None = None,
    start_values: dict | None = None,
    rules_name: str | None = None,
    after_throws: dict | None = None,
) -> str:
    """HTML text of the offline page: :func:`figure`'s :meth:`SuperSixPage.to_page`."""
    fig = figure(
        table,
        pegs=pegs,
        pegs_range=pegs_range,
        start_values=start_values,
        rules_name=rules_name,
        after_throws=after_throws,
    )
    return fig.to_page()


def write_page(path, text: str) -> None:
    """Write the page all-or-nothing (only .html is accepted)."""
    path, _ = check_output(path, (".html", ".htm"))
    write_atomic(path, text)


def signed_log(x):
    """The margin's colour coordinate: log10(1 + |x| / 1e-4) with the sign of x."""
    return np.sign(x) * np.log10(1 + np.abs(x) / MARGIN_LINEAR_BELOW)


def start_cell(total: int) -> tuple[int, int]:
    """The start of a game of ``total`` pegs on the lid-0 panel: (your pegs, theirs)."""
    return total - total // 2, total // 2


def _title(rules: str, total: int, start) -> str:
    """The title: game, size and start value, then in small type what the rule set means."""
    first, second = start_cell(total)
    text = f"Super Six ({html_text(rules)} rules), {total} pegs ({first} + {second})"
    if start is not None:
        text += f"<br>the first player wins {100 * float(start):.3f} % from the start"
    note = html_text(RULES_NOTES.get(rules, f"{rules} rules"))
    return f'{text}<br><span style="font-size:12px">{note}</span>'


def _hover(lid: int, with_outcomes: bool) -> str:
    """A panel's hover: the position, the three probabilities, and the die's throws."""
    lines = [
        f"{lid} on the lid · you %{{x}} · opponent %{{y}}"
        + ("%{customdata[7]}" if lid == 0 else ""),
        "P_roll %{customdata[0]:.6f} · P_end %{customdata[1]:.6f}",
        "P_choice %{customdata[2]:.6f} · best: %{customdata[3]}",
        "if you roll, the die:",
    ]
    throws = (
        (SOCKETS - lid, "1–5 on an empty socket: you place a peg", 4),
        (lid, "1–5 on a full socket: you take it back, the turn passes", 5),
        (1, "6: a peg goes down the pit", 6),
    )
    for sixths, what, column in throws:
        if sixths:
            after = f"; then you win %{{customdata[{column}]:.4f}}" if with_outcomes else ""
            lines.append(f"  {sixths}/6 {what}{after}")
    return "<br>".join(lines) + "<extra></extra>"


def _grids(table, high: int, after_throws) -> dict:
    """Per panel: the square grid of every metric, the hover data and the pegs needed."""
    b, c, o = (np.asarray(v, dtype=np.int64) for v in (table.b, table.c, table.o))
    p_roll = np.array([float(v) for v in table.p_roll])
    p_end = np.array([float(v) for v in table.p_end])
    roll = p_roll > p_end
    choice = np.where(roll, p_roll, p_end)
    margin = p_roll - p_end
    inside = b + c + o <= high
    limit = float(np.max(np.abs(margin[inside]))) if inside.any() else 1.0
    after = [
        np.round(np.asarray(after_throws[t], dtype=float), 6)
        if after_throws is not None
        else np.full(len(b), np.nan)
        for t in ("place", "take", "pit")
    ]
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
        outcomes = zip(*(np.where(np.isnan(a[keep]), None, a[keep]).tolist() for a in after))
        cells = [
            [round(r, 8), round(e, 8), round(h, 8), "roll" if d else "stop", *throws]
            for r, e, h, d, throws in zip(
                p_roll[keep].tolist(),
                p_end[keep].tolist(),
                choice[keep].tolist(),
                kept_roll.tolist(),
                outcomes,
            )
        ]
        if lid == 0:  # the start of every game, labelled where the hands are split evenly
            for cell, mine, theirs in zip(cells, c[keep].tolist(), o[keep].tolist()):
                total = mine + theirs
                is_start = start_cell(total) == (mine, theirs) and total >= LOWEST
                cell.append(f" · the start of a {total}-peg game" if is_start else "")
        custom = grid(cells)
        needed = [[lid + cc + oo for cc in range(1, size + 1)] for oo in range(1, size + 1)]
        panels.append({"size": size, "z": z, "text": text, "custom": custom, "needed": needed})
    return {"panels": panels, "margin_limit": limit or 1.0, "positions": int(inside.sum())}


def _short(margin: float) -> str:
    """Cell text of a margin: two decimals with the sign, which is what decides."""
    return f"{margin:+.2f}".replace("0.", ".", 1).replace("-", "−")


def _menu(buttons: list, *, active: int, x: float, xanchor: str) -> dict:
    return dict(
        type="buttons",
        direction="right",
        active=active,
        showactive=True,
        x=x,
        xanchor=xanchor,
        y=1.055,
        yanchor="bottom",
        pad={"r": 2, "l": 2, "t": 0, "b": 0},
        font={"size": 12},
        buttons=buttons,
    )


def _colour_axis(metric: str, limit: float) -> dict:
    if metric == "decision":
        return {
            "colorscale": [[0, STOP], [0.5, STOP], [0.5, ROLL], [1, ROLL]],
            "cmin": 0,
            "cmax": 1,
            "colorbar": _colour_bar(
                "decision", len=0.4, tickvals=[0.25, 0.75], ticktext=["stop", "roll"]
            ),
        }
    if metric == "choice":
        return {
            "colorscale": "Viridis",
            "cmin": 0,
            "cmax": 1,
            "colorbar": _colour_bar("P_choice"),
        }
    top = float(signed_log(limit))
    values = [v for v in (-1, -0.1, -0.01, -0.001, 0, 0.001, 0.01, 0.1, 1) if abs(v) <= limit]
    return {
        "colorscale": "RdBu",
        "reversescale": True,
        "cmin": -top,
        "cmax": top,
        "colorbar": _colour_bar(
            "P_roll − P_end",
            tickvals=[round(float(signed_log(v)), 6) for v in values],
            ticktext=[f"{v:g}" for v in values],
        ),
    }


def _colour_bar(title: str, *, len: float = 0.8, **ticks) -> dict:
    """A thin colour bar with its title above, so narrow pages keep room for the panels."""
    return {
        "title": {"text": title, "side": "top", "font": {"size": 12}},
        "len": len,
        "thickness": 14,
        "x": 1.0,
        "xpad": 6,
        **ticks,
    }


def _layout(limit: float) -> dict:
    layout = {
        "autosize": True,
        "height": 880,
        "margin": {"t": 165, "l": 50, "r": 20, "b": 110},
        "plot_bgcolor": "white",
        "showlegend": False,
        "hovermode": "closest",
        "hoverlabel": {"align": "left"},
        "coloraxis": _colour_axis("decision", limit),
        "title": {
            "x": 0.01,
            "xanchor": "left",
            "y": 0.982,
            "yanchor": "top",
            "font": {"size": 16},
        },
        "annotations": [],
        "shapes": [],
    }
    for lid in LIDS:
        col, row = lid % 3, lid // 3
        x0, x1 = col / 3 + 0.045, (col + 1) / 3 - 0.02
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
            "title": {"text": "opponent's pegs", "standoff": 2},
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
    # The start cell: an outline (a cue besides colour) and a label with an arrow; the
    # slider moves both (their coordinates are set by each step).
    layout["shapes"].append(
        {
            "type": "rect",
            "xref": "x",
            "yref": "y",
            "line": {"color": "black", "width": 2.5},
            "fillcolor": "rgba(0,0,0,0)",
            "layer": "above",
        }
    )
    layout["annotations"].append(
        {
            "text": "<b>start</b>",
            "xref": "x",
            "yref": "y",
            "showarrow": True,
            "arrowhead": 2,
            "arrowwidth": 1.5,
            "ax": 28,
            "ay": -28,
            "bgcolor": "rgba(255,255,255,0.85)",
            "bordercolor": "black",
            "font": {"size": 12},
        }
    )
    return layout


def _axis(prefix: str, lid: int) -> str:
    """Plotly's name of a panel's axis: ``x``/``xaxis`` for the first, then ``x2``, ..."""
    return prefix if lid == 0 else f"{prefix}{lid + 1}"


def _dtick(size: int) -> int:
    return 1 if size <= 12 else 2 if size <= 24 else 5 if size <= 60 else 10 if size <= 100 else 20


def _step(total: int, title: str) -> dict:
    """One slider step: narrow the axes, move the masks and the start cell's marks, show
    text where it fits, and the title of the rule set the figure was made with.
    """
    relayout = {"title.text": title}
    texttemplate, gap = [], []
    for lid in LIDS:
        size = max(total - lid - 1, 0)
        for name in ("xaxis", "yaxis"):
            relayout[f"{_axis(name, lid)}.range"] = [0.5, max(size, 1) + 0.5]
            relayout[f"{_axis(name, lid)}.dtick"] = _dtick(size)
        texttemplate.append("%{text}" if 0 < size <= TEXT_MAX_CELLS else "")
        # Past GAP_MAX_CELLS a cell is a pixel or two: a gap would wash its colour out.
        gap.append(1 if size <= GAP_MAX_CELLS else 0)
    texttemplate += [""] * len(LIDS)
    gap += [0] * len(LIDS)
    mine, theirs = start_cell(total)
    # The outline is the cell itself up to 30 pegs, then wider, so it stays in sight.
    half = max(0.5, total / 60)
    relayout.update(
        {
            "shapes[0].x0": mine - half,
            "shapes[0].x1": mine + half,
            "shapes[0].y0": theirs - half,
            "shapes[0].y1": theirs + half,
            f"annotations[{START}].x": mine,
            f"annotations[{START}].y": theirs,
        }
    )
    # The masks' colour scale turns opaque halfway between total and total + 1 (one value
    # for all twelve traces: the panels take their colours from the colour axis instead).
    zmin = [total - 0.5] * 2 * len(LIDS)
    zmax = [total + 1.5] * 2 * len(LIDS)
    return dict(
        label=str(total),
        value=str(total),
        method="update",
        args=[
            {"texttemplate": texttemplate, "zmin": zmin, "zmax": zmax, "xgap": gap, "ygap": gap},
            relayout,
        ],
    )


def _set(layout: dict, dotted: str, value) -> None:
    """Apply a relayout key such as ``xaxis2.range`` or ``shapes[0].x0`` to a layout dict."""
    *path, last = dotted.split(".")
    node = layout
    for key in path:
        if key.endswith("]"):
            name, index = key[:-1].split("[")
            node = node[name][int(index)]
        else:
            node = node.setdefault(key, {})
    node[last] = value


#: The page's one script. It reads a URL hash (``#rules=free&pegs=8&metric=margin``) when
#: the page opens and whenever the hash changes, applying the same arguments the buttons
#: and the slider carry (a value that names no button or step is ignored: nothing read from
#: the hash is written into the page); applies the rule-set buttons (the title of that rule
#: set, from ``layout.meta.titles``); and after every change writes the view back into the
#: hash (``history.replaceState``) and onto the body (``data-rules``, ``data-pegs``,
#: ``data-metric``, ``data-hash``, ``data-rendered``) for links and tests.
HASH_SCRIPT = """
var gd = document.getElementById('{plot_id}');
var gamegraphTimer = null;
function gamegraphState() {
  var metrics = gd.layout.updatemenus[0], rules = gd.layout.updatemenus[1];
  var slider = gd.layout.sliders[0];
  return {rules: rules.buttons[rules.active].name, pegs: slider.steps[slider.active].value,
          metric: metrics.buttons[metrics.active].name};
}
function gamegraphShow() {
  var state = gamegraphState(), title = gd.layout.meta.titles[state.rules][state.pegs];
  var done = gd.layout.title.text === title ? Promise.resolve()
    : Plotly.relayout(gd, {'title.text': title});
  return done.then(function () {
    var hash = new URLSearchParams(state).toString();
    clearTimeout(gamegraphTimer);  // a dragged slider writes the address once it rests
    gamegraphTimer = setTimeout(function () {
      history.replaceState(history.state, '', '#' + hash);
      document.body.dataset.hash = hash;
    }, 100);
    var data = document.body.dataset;
    data.rules = state.rules; data.pegs = state.pegs; data.metric = state.metric;
    data.rendered = 'yes';
  });
}
function gamegraphApply() {
  var wanted = new URLSearchParams(location.hash.slice(1)), chain = Promise.resolve();
  var metrics = gd.layout.updatemenus[0].buttons, rules = gd.layout.updatemenus[1].buttons;
  var steps = gd.layout.sliders[0].steps;
  var m = metrics.findIndex(function (x) { return x.name === wanted.get('metric'); });
  var r = rules.findIndex(function (x) { return x.name === wanted.get('rules'); });
  var s = steps.findIndex(function (x) { return x.value === wanted.get('pegs'); });
  if (m >= 0) chain = chain.then(function () {
    var a = metrics[m].args;
    return Plotly.update(gd, a[0], Object.assign({'updatemenus[0].active': m}, a[1]), a[2]);
  });
  if (r >= 0) chain = chain.then(function () {
    return Plotly.relayout(gd, {'updatemenus[1].active': r});
  });
  if (s >= 0) chain = chain.then(function () {
    var a = steps[s].args;
    return Plotly.update(gd, a[0], Object.assign({'sliders[0].active': s}, a[1]));
  });
  return chain.then(gamegraphShow);
}
gd.on('plotly_buttonclicked', gamegraphShow);
gd.on('plotly_sliderchange', gamegraphShow);
gd.on('plotly_update', gamegraphShow);  // a slider step applies after its change event
window.addEventListener('hashchange', gamegraphApply);
gamegraphApply();
"""
