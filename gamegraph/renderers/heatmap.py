"""Interactive Super Six roll/stop maps: one self-contained HTML page (works offline).

Six heatmaps, one per number of pegs on the lid (b = 0..5), with the mover's pegs (c) on
x and the opponent's (o) on y. A menu switches between the decision (roll or stop), the
win probability P_choice and the margin P_roll - P_end; a slider changes the total pegs.
Hovering shows the position and all three probabilities. Colour scales are fixed across
panels and totals, so a colour means the same everywhere.

A position's value does not depend on how many pegs the game started with, only on the
position, so one decision table at the largest total serves every total on the slider: a
smaller total only shows fewer positions (b + c + o <= total). The page draws what it is
given: the table, and the start values beside the slider
(:func:`gamegraph.analysis.supersix.start_values` computes them).

The page embeds plotly.js (from the plotly package, no network) and the table as JSON.
"""

from __future__ import annotations

import json

import numpy as np

from .._extras import require
from .._files import check_output, write_atomic

METRICS = ("decision", "choice", "margin")


def table_payload(table) -> dict:
    """The decision table as plain lists (floats), for embedding in a page."""
    p_roll = np.asarray([float(v) for v in table.p_roll])
    p_end = np.asarray([float(v) for v in table.p_end])
    return {
        "b": table.b.tolist(),
        "c": table.c.tolist(),
        "o": table.o.tolist(),
        "roll": [round(v, 12) for v in p_roll.tolist()],
        "end": [round(v, 12) for v in p_end.tolist()],
        "margin_limit": float(np.max(np.abs(p_roll - p_end))) if len(p_roll) else 1.0,
    }


def page(
    table, *, pegs: int, pegs_range: tuple[int, int], start_values: dict, rules_name: str
) -> str:
    """HTML text of the interactive page.

    Parameters
    ----------
    table : gamegraph.games.supersix.DecisionTable
        Covering at least ``pegs_range[1]`` pegs.
    pegs : int
        Total shown first.
    pegs_range : (int, int)
        The slider's lowest and highest total (it moves one peg at a time).
    start_values : dict
        Total pegs -> the first player's win probability at the start, shown beside
        the slider (see :func:`gamegraph.analysis.supersix.start_values`).
    rules_name : str
        The rule set's name, shown in the title.
    """
    plotly_offline = require("plotly.offline", "an interactive page")

    data = table_payload(table)
    data.update(
        pegs=pegs,
        low=pegs_range[0],
        high=pegs_range[1],
        rules=rules_name,
        start={str(k): float(v) for k, v in start_values.items()},
    )
    return (
        _TEMPLATE.replace("/*PLOTLY*/", plotly_offline.get_plotlyjs())
        .replace("/*DATA*/", json.dumps(data, separators=(",", ":")))
        .replace("RULES", rules_name)
    )


def write_page(path, text: str) -> None:
    """Write the page all-or-nothing (only .html is accepted)."""
    path, _ = check_output(path, (".html", ".htm"))
    write_atomic(path, text)


_TEMPLATE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Super Six: when to roll (RULES rules)</title>
<script>/*PLOTLY*/</script>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
.controls { display: flex; gap: 2em; align-items: center; flex-wrap: wrap; margin: 0.5em 0 1em; }
.controls label { font-weight: 600; }
#map { width: 100%; height: 760px; }
.note { color: #555; max-width: 60em; }
</style>
</head>
<body>
<h1>Super Six: when to roll</h1>
<p class="note">Each panel holds the positions with <i>b</i> pegs on the lid: your pegs across,
your opponent's up. Optimal play for both sides (RULES rules). Hover for the three probabilities:
P<sub>roll</sub> (throw again), P<sub>end</sub> (hand the die over) and P<sub>choice</sub>,
the better of the two.</p>
<div class="controls">
  <label>Show
    <select id="metric">
      <option value="decision">roll or stop</option>
      <option value="choice">P_choice (win probability)</option>
      <option value="margin">P_roll &minus; P_end</option>
    </select>
  </label>
  <label>Total pegs
    <input type="range" id="pegs" step="1">
    <output id="pegs-out"></output>
  </label>
  <span id="start"></span>
</div>
<div id="map"></div>
<script>
const DATA = /*DATA*/;
const metricBox = document.getElementById("metric");
const pegsBox = document.getElementById("pegs");
pegsBox.min = DATA.low; pegsBox.max = DATA.high; pegsBox.value = DATA.pegs;

const SCALES = {
  decision: {colorscale: [[0, "#d62728"], [0.5, "#d62728"], [0.5, "#2ca02c"], [1, "#2ca02c"]],
             zmin: 0, zmax: 1, title: "decision",
             ticks: {tickvals: [0.25, 0.75], ticktext: ["stop", "roll"]}},
  choice: {colorscale: "Viridis", zmin: 0, zmax: 1, title: "P_choice", ticks: {}},
  margin: {colorscale: "RdBu", reversescale: true, zmin: -signedLog(DATA.margin_limit),
           zmax: signedLog(DATA.margin_limit), title: "P_roll − P_end",
           ticks: marginTicks()},
};

// Margins span several orders of magnitude and their sign is what matters: colour by a
// signed logarithm, linear below 1e-4, with colour-bar ticks in real values.
function signedLog(x) { return Math.sign(x) * Math.log10(1 + Math.abs(x) / 1e-4); }
function marginTicks() {
  const values = [-1, -0.1, -0.01, -0.001, 0, 0.001, 0.01, 0.1, 1]
    .filter(v => Math.abs(v) <= DATA.margin_limit * 1.0001 || v === 0);
  return {tickvals: values.map(signedLog), ticktext: values.map(String)};
}

function traces(metric, total) {
  const out = [];
  for (let b = 0; b <= 5; b++) {
    const size = Math.max(total - b - 1, 0);
    const axis = Array.from({length: size}, (_, i) => i + 1);
    const z = axis.map(() => axis.map(() => null));
    const custom = axis.map(() => axis.map(() => null));
    for (let i = 0; i < DATA.b.length; i++) {
      if (DATA.b[i] !== b) continue;
      const c = DATA.c[i], o = DATA.o[i];
      if (b + c + o > total) continue;
      const roll = DATA.roll[i], end = DATA.end[i], doRoll = roll > end;
      const choice = doRoll ? roll : end;
      z[o - 1][c - 1] = metric === "decision" ? (doRoll ? 1 : 0)
                      : metric === "choice" ? choice : signedLog(roll - end);
      custom[o - 1][c - 1] = [roll, end, choice, doRoll ? "roll" : "stop"];
    }
    const scale = SCALES[metric];
    out.push({
      type: "heatmap", x: axis, y: axis, z: z, customdata: custom,
      xaxis: "x" + (b + 1), yaxis: "y" + (b + 1),
      colorscale: scale.colorscale, reversescale: Boolean(scale.reversescale),
      zmin: scale.zmin, zmax: scale.zmax,
      showscale: b === 0, xgap: 0.5, ygap: 0.5, hoverongaps: false,
      colorbar: Object.assign({title: {text: scale.title}}, scale.ticks),
      hovertemplate: "lid " + b + " · you %{x} · opponent %{y}<br>" +
        "P_roll %{customdata[0]:.6f}<br>P_end %{customdata[1]:.6f}<br>" +
        "P_choice %{customdata[2]:.6f}<br>best: %{customdata[3]}<extra></extra>",
    });
  }
  return out;
}

function layout(total) {
  const lay = {margin: {t: 40, l: 50, r: 20, b: 40}, annotations: [], showlegend: false};
  for (let b = 0; b <= 5; b++) {
    const col = b % 3, row = Math.floor(b / 3);
    const x0 = col / 3 + 0.03, x1 = (col + 1) / 3 - 0.02;
    const y1 = 1 - row * 0.53 - 0.05, y0 = y1 - 0.36;
    const n = b + 1;
    lay["xaxis" + n] = {domain: [x0, x1], anchor: "y" + n, title: {text: "your pegs"},
                         range: [0.5, total - 1.5]};
    lay["yaxis" + n] = {domain: [y0, y1], anchor: "x" + n, title: {text: "opponent's pegs"},
                         range: [0.5, total - 1.5]};
    lay.annotations.push({text: b + " on the lid", showarrow: false, xref: "paper",
                          yref: "paper", x: (x0 + x1) / 2, y: y1 + 0.035, font: {size: 14}});
  }
  return lay;
}

function draw() {
  const metric = metricBox.value, total = Number(pegsBox.value);
  document.getElementById("pegs-out").textContent = total;
  const start = DATA.start[String(total)];
  document.getElementById("start").textContent = start === undefined ? "" :
    "first player wins " + (100 * start).toFixed(3) + " % from the start";
  Plotly.react("map", traces(metric, total), layout(total), {responsive: true})
    .then(() => {
      document.body.dataset.rendered = "yes";
      document.body.dataset.metric = metric;
      document.body.dataset.pegs = String(total);
    });
}

// A hash such as #metric=margin&pegs=20 preselects the controls (used by tests and links).
for (const part of location.hash.slice(1).split("&")) {
  const [key, value] = part.split("=");
  if (key === "metric" && SCALES[value]) metricBox.value = value;
  const inRange = Number(value) >= DATA.low && Number(value) <= DATA.high;
  if (key === "pegs" && inRange) pegsBox.value = value;
}
metricBox.addEventListener("change", draw);
pegsBox.addEventListener("input", draw);
draw();
</script>
</body>
</html>
"""
