"""The graph explorer: a whole game graph as one interactive, offline plotly page.

:func:`explore_figure` draws an :class:`~gamegraph.analysis.explore.Exploration` (the
numbers come from :func:`gamegraph.analysis.explore_graph`; nothing is computed here):

* every state is a dot placed by Graphviz ``dot`` (:func:`layout`), its colour the reach
  probability under the selected policy (log scale; grey where it is never reached), a
  star at the start and a square at the end states;
* hovering a state shows its label, its reach probability under the selected policy, its
  value (the probability that the player to move wins) and the optimal moves there;
* each edge is a line whose width and opacity follow the probability that the selected
  policy takes it; moves the policy never makes are faint grey;
* the menu at the top left switches the policy;
* every text from the game or a policy name is escaped (plotly reads a little HTML in
  its text: ``<b>``, ``<br>``, links);
* clicking a state highlights its successors (a few lines of JavaScript, the page's
  ``post_script``: plotly figures cannot express it alone).

The figure is an :class:`ExplorerFigure`, an
:class:`~gamegraph.renderers.interactive.InteractiveFigure` whose ``save(path)`` writes a
self-contained ``.html`` page (plotly.js inline, nothing fetched from the network) that
carries the click handler. Once drawn, the page sets ``data-rendered="yes"`` on its
``<body>`` and records any script error in ``data-errors``; opened as ``page.html#selftest``
it also hovers and clicks the start state and switches to the last policy, and writes
what it saw into ``data-*`` attributes, which the browser test reads.
"""

from __future__ import annotations

import json
import re

import numpy as np

from gamegraph.errors import RenderError

from .._escape import html_text
from .._files import check_output, write_atomic
from ._graphviz import graphviz_engine, system_dot, with_pygraphviz
from .interactive import EXTENSIONS, InteractiveFigure, go, page_html

#: Reach probabilities below this are drawn in the lowest colour (the scale is log10).
REACH_FLOOR = 1e-6

#: Edge probability bins: (upper bound, line width, opacity).
EDGE_BINS = ((0.05, 0.7, 0.35), (0.2, 1.3, 0.5), (0.5, 2.2, 0.7), (float("inf"), 3.4, 0.85))

_NEVER_COLOUR = "#d9d9d9"
_HIGHLIGHT = "#d62728"
_NODES = "nodes"
_MODERATE = "nslimit=2, nslimit1=2, mclimit=0.2"
_FAST = "nslimit=1, nslimit1=1, mclimit=0.05, remincross=false"


class ExplorerFigure(InteractiveFigure):
    """The explorer's plotly figure; ``save(path)`` writes the page with its click handler."""

    _post_script = None

    def save(self, path, *, post_script: str | None = None) -> None:
        """Write the page (``.html``, with the click handler) or the figure (``.json``).

        The page is the same bytes for the same figure (its plot has a fixed id).
        """
        path, extension = check_output(path, EXTENSIONS)
        if extension == ".json":
            write_atomic(path, self.to_json())
            return
        write_atomic(path, self.html(post_script=post_script))

    def html(self, *, post_script: str | None = None) -> str:
        """The page as text (what :meth:`save` writes for ``.html``)."""
        script = post_script if post_script is not None else self._post_script
        return page_html(self, post_script=script, div_id="explorer")


# ---------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------
def layout_source(data) -> str:
    """DOT source that places ``data``'s states: one point per state, the forward edges
    ranked top to bottom, the others (cycles) left out of the ranking.
    """
    # Fewer network-simplex and crossing-minimisation rounds than Graphviz's defaults:
    # the same picture to the eye, seconds instead of minutes for cyclic games.
    effort = _FAST if data.n_states > 1_000 else _MODERATE
    lines = [
        "digraph explorer {",
        f"graph [rankdir=TB, nodesep=0.12, ranksep=0.45, splines=false, {effort}];",
        'node [shape=circle, width=0.16, height=0.16, fixedsize=true, label=""];',
    ]
    lines += [f"n{i};" for i in range(data.n_states)]
    for s, t, forward in zip(
        data.edge_source.tolist(), data.edge_target.tolist(), data.edge_forward.tolist()
    ):
        if s != t:
            lines.append(f"n{s} -> n{t}" + ("" if forward else " [constraint=false]") + ";")
    lines.append("}")
    return "\n".join(lines)


def layout(source: str) -> dict:
    """Positions (x, y in points, y up) of the nodes of DOT ``source`` laid out by ``dot``.

    Uses the system ``dot`` when present, otherwise the Graphviz bundled in pygraphviz
    (``GAMEGRAPH_GRAPHVIZ`` forces one, as for :func:`gamegraph.renderers.dot.render_bytes`).

    >>> layout('digraph { a -> b }')
    {'a': (27.0, 90.0), 'b': (27.0, 18.0)}
    """
    if graphviz_engine() == "system":
        positions = {}
        for line in system_dot(source, ["-Tplain"]).decode().splitlines():
            parts = line.split()
            if parts and parts[0] == "node":
                positions[parts[1].strip('"')] = (72 * float(parts[2]), 72 * float(parts[3]))
        return positions
    graph = with_pygraphviz(source, _laid_out)
    positions = {}
    for node in graph.nodes():
        x, y = node.attr["pos"].split(",")[:2]
        positions[str(node)] = (float(x), float(y))
    return positions


def _laid_out(graph):
    graph.layout(prog="dot")
    return graph


def positions(data) -> np.ndarray:
    """The (n, 2) positions of ``data``'s states laid out by Graphviz ``dot``."""
    placed = layout(layout_source(data))
    return np.array([placed[f"n{i}"] for i in range(data.n_states)], dtype=float)


# ---------------------------------------------------------------------------
# The figure
# ---------------------------------------------------------------------------
def explore_figure(data, *, xy=None, title: str | None = None) -> ExplorerFigure:
    """The explorer page of ``data`` (an :class:`~gamegraph.analysis.explore.Exploration`).

    Parameters
    ----------
    data : Exploration
    xy : array of shape (n, 2), optional
        State positions; laid out by Graphviz ``dot`` (:func:`positions`) when not given.
    title : str, optional

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.analysis import explore_graph
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> data = explore_graph(build(Jackpot(cells=3)), policies={"max": AGENTS["max"]})
    >>> figure = explore_figure(data)
    >>> [trace.name for trace in figure.data if trace.meta == "nodes"]
    ['optimal', 'max']
    >>> len(figure.data[-1].x or ()), figure.layout.updatemenus[0].buttons[1].label
    (0, 'max: wins 13.71 %')
    """
    xy = positions(data) if xy is None else np.asarray(xy, dtype=float)
    if xy.shape != (data.n_states, 2):
        raise RenderError(f"xy has shape {xy.shape}; expected ({data.n_states}, 2)")
    traces, owner = [], []
    for p in range(len(data.policies)):
        for trace in _edge_traces(data, xy, p):
            trace.visible = p == 0
            traces.append(trace)
            owner.append(p)
        node_trace = _node_trace(data, xy, p)
        node_trace.visible = p == 0
        traces.append(node_trace)
        owner.append(p)
    traces.append(
        go.Scatter(
            x=[],
            y=[],
            mode="lines+markers",
            name="successors",
            line={"color": _HIGHLIGHT, "width": 2.5},
            marker={
                "size": 13,
                "color": "rgba(0,0,0,0)",
                "line": {"color": _HIGHLIGHT, "width": 2.5},
            },
            hoverinfo="skip",
            showlegend=False,
        )
    )
    owner.append(-1)
    buttons = []
    for p, policy in enumerate(data.policies):
        visible = [o in (p, -1) for o in owner]
        buttons.append(
            {
                "label": f"{html_text(policy)}: wins {100 * data.wins[p]:.2f} %",
                "method": "update",
                "args": [{"visible": visible}, {"title.text": _title(data, title, policy)}],
            }
        )
    width, height = np.ptp(xy, axis=0) if data.n_states > 1 else (1.0, 1.0)
    figure = ExplorerFigure(
        data=traces,
        layout={
            "title": {
                "text": _title(data, title, data.policies[0]),
                "x": 0.5,
                "font": {"size": 16},
            },
            "updatemenus": [
                {
                    "buttons": buttons,
                    "direction": "down",
                    "x": 0.0,
                    "xanchor": "left",
                    "y": 1.0,
                    "yanchor": "bottom",
                    "showactive": True,
                }
            ],
            "xaxis": {"visible": False, "range": _padded(xy[:, 0], width)},
            "yaxis": {"visible": False, "range": _padded(xy[:, 1], height)},
            "hovermode": "closest",
            "plot_bgcolor": "white",
            "margin": {"l": 10, "r": 10, "t": 90, "b": 10},
            "height": 820,
            "showlegend": False,
        },
    )
    figure._post_script = post_script(data)
    return figure


def _title(data, title, policy) -> str:
    head = title or f"{data.name}: {data.n_states:,} states"
    if data.n_states < data.total_states:
        head += f" of {data.total_states:,} (reach >= {data.min_reach:g})"
    under = f"reach and moves under {html_text(policy)}; click a state for its successors"
    return f"{html_text(head)}<br><sup>{under}</sup>"


def _padded(values, span):
    pad = 0.03 * (span or 1.0) + 10
    return [float(values.min()) - pad, float(values.max()) + pad]


def _edge_traces(data, xy, p):
    """Line traces of one policy's edges: never taken (faint grey), then by probability."""
    probability = data.edge_probability[p]
    drawn = data.edge_source != data.edge_target
    traces = []
    low = 0.0
    groups = [("never taken", drawn & (probability == 0), 0.5, 0.18, "#888888")]
    for high, width, opacity in EDGE_BINS:
        chosen = drawn & (probability > low) & (probability <= high)
        label = f"taken with probability {low:g} to {high:g}"
        groups.append((label, chosen, width, opacity, "#1f4e79"))
        low = high
    for label, chosen, width, opacity, colour in groups:
        s, t = data.edge_source[chosen], data.edge_target[chosen]
        x = np.column_stack([xy[s, 0], xy[t, 0], np.full(len(s), np.nan)]).ravel()
        y = np.column_stack([xy[s, 1], xy[t, 1], np.full(len(s), np.nan)]).ravel()
        traces.append(
            go.Scatter(
                x=_rounded(x),
                y=_rounded(y),
                mode="lines",
                name=f"{html_text(data.policies[p])}: {label}",
                line={"width": width, "color": colour},
                opacity=opacity,
                hoverinfo="skip",
                showlegend=False,
            )
        )
    return traces


def _rounded(values):
    """Coordinates to 0.1 pt as a numpy array (NaN breaks a line; plotly takes arrays whole,
    where lists are checked value by value).
    """
    return np.round(np.asarray(values, dtype=float), 1).astype(np.float32)


def _node_trace(data, xy, p):
    """One policy's states: colour by log10 reach, hover text with everything known."""
    policy = data.policies[p]
    reach = data.reach[p]
    floor = np.log10(REACH_FLOOR)
    top = max(0.0, float(np.log10(reach.max()))) if reach.max() > 0 else 0.0
    never = floor - 1
    colour = np.where(reach > 0, np.log10(np.maximum(reach, REACH_FLOOR)), never)
    # Grey for "never reached", then Viridis from the floor up.
    grey_top = (floor - never) / (top - never) * 0.999
    viridis = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"]
    scale = [[0.0, _NEVER_COLOUR], [grey_top, _NEVER_COLOUR]]
    scale += [
        [grey_top + 0.001 + (1 - grey_top - 0.001) * k / (len(viridis) - 1), c]
        for k, c in enumerate(viridis)
    ]
    ticks = list(range(int(floor), int(np.floor(top)) + 1))
    symbols = np.where(data.terminal, "square", "circle").astype(object)
    symbols[data.start] = "star"
    sizes = np.full(data.n_states, 9)
    sizes[data.start] = 16
    return go.Scatter(
        x=_rounded(xy[:, 0]),
        y=_rounded(xy[:, 1]),
        mode="markers",
        name=html_text(policy),
        meta=_NODES,
        customdata=list(range(data.n_states)),
        hovertext=[_hover(data, i, p) for i in range(data.n_states)],
        hoverinfo="text",
        marker={
            "size": sizes.tolist(),
            "symbol": symbols.tolist(),
            "color": np.round(colour, 3).tolist(),
            "cmin": never,
            "cmax": top,
            "colorscale": scale,
            "line": {"width": 0.6, "color": "#333333"},
            "colorbar": {
                "title": {"text": "reach"},
                "tickvals": [never, *ticks],
                "ticktext": ["0", *[_power(k) for k in ticks]],
                "len": 0.6,
            },
        },
        showlegend=False,
    )


def _power(k: int) -> str:
    return "1" if k == 0 else ("10" if k == 1 else f"1e{k}")


def _hover(data, i, p) -> str:
    policy = data.policies[p]
    lines = [f"<b>{html_text(data.labels[i])}</b>"]
    if i == data.start:
        lines[0] += " (start)"
    if data.layers is not None:
        lines.append(f"layer {int(data.layers[i])}")
    lines.append(f"reach ({html_text(policy)}): {_number(data.reach[p, i])}")
    lines.append(f"value: {data.values[i]:.5f}")
    if data.terminal[i]:
        lines.append("game over")
    elif data.best_moves[i]:
        moves = ", ".join(
            f"{html_text(move)} ({100 * share:.0f} %)" for move, share in data.best_moves[i]
        )
        lines.append(f"best move: {moves}")
    else:
        lines.append("best move: none (no move on any throw)")
    return "<br>".join(lines)


def _number(x) -> str:
    return "0" if x == 0 else (f"{x:.4g}" if x >= 1e-4 else f"{x:.2e}")


# ---------------------------------------------------------------------------
# The page's script
# ---------------------------------------------------------------------------
_SCRIPT = """
var gd = document.getElementById('{plot_id}');
var body = document.body;
var errors = [];
function note(text) { errors.push(String(text)); body.dataset.errors = errors.join(' | '); }
window.addEventListener('error', function (e) { note(e.message); });
var consoleError = console.error;
console.error = function () {
  note(Array.prototype.join.call(arguments, ' '));
  consoleError.apply(console, arguments);
};
var SUCC = __SUCCESSORS__;
var H = gd.data.length - 1;
function visibleNodes() {
  for (var k = 0; k < gd.data.length; k++) {
    var t = gd.data[k];
    if (t.meta === 'nodes' && t.visible !== false) { return k; }
  }
  return -1;
}
function highlight(k, i) {
  var t = gd.data[k], x = [], y = [];
  SUCC[i].forEach(function (j) { x.push(t.x[i], t.x[j], null); y.push(t.y[i], t.y[j], null); });
  return Plotly.restyle(gd, {x: [x], y: [y]}, [H]).then(function () {
    body.dataset.highlighted = String(SUCC[i].length);
    body.dataset.clicked = String(i);
  });
}
gd.on('plotly_click', function (event) {
  var point = event.points[0];
  if (gd.data[point.curveNumber].meta === 'nodes') {
    highlight(point.curveNumber, point.pointNumber);
  }
});
body.dataset.rendered = 'yes';
body.dataset.hoverNodes = String(gd.data[visibleNodes()].hovertext.length);
if (window.location.hash === '#selftest') {
  var k = visibleNodes();
  var start = __START__;
  Plotly.Fx.hover(gd, [{curveNumber: k, pointNumber: start}]);
  var label = document.querySelector('.hoverlayer .hovertext');
  body.dataset.hoverText = label ? label.textContent : '';
  highlight(k, start).then(function () {
    var buttons = gd.layout.updatemenus[0].buttons;
    var last = buttons[buttons.length - 1];
    var relayout = Object.assign({'updatemenus[0].active': buttons.length - 1}, last.args[1]);
    return Plotly.update(gd, last.args[0], relayout);
  }).then(function () {
    var shown = visibleNodes();
    body.dataset.policy = gd.data[shown].name;
    body.dataset.policyHoverNodes = String(gd.data[shown].hovertext.length);
    body.dataset.selftest = 'done';
  }).catch(function (e) { note(e); });
}
"""


def post_script(data) -> str:
    """The page's JavaScript: click to highlight successors, the rendered marker, errors."""
    successors = [[] for _ in range(data.n_states)]
    for s, t in zip(data.edge_source.tolist(), data.edge_target.tolist()):
        if s != t:
            successors[s].append(t)
    script = _SCRIPT.replace("__SUCCESSORS__", json.dumps(successors, separators=(",", ":")))
    script = script.replace("__START__", str(int(data.start)))
    return re.sub(r"\n\s*", "\n", script).strip()
