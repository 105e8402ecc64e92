"""The library's categorical colours, in one place, safe for colour-vision deficiency.

The colours come from the Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"),
made so that readers with protanopia, deuteranopia or tritanopia can still tell them apart.
Each colour that carries meaning has a named role; renderers import the roles, not hex codes.

Every pair that carries meaning (``ROLL``/``STOP``, ``BETTER``/``WORSE``, ``WON``/``LOST``/
``START`` and every pair among ``POLICY_CYCLE`` and ``OPTIMAL``) differs by CIE76 ΔE ≥ 20
under normal vision and under the Machado, Oliveira & Fernandes (2009) simulations of
protanopia, deuteranopia and tritanopia at full severity (tests/renderers/test_colour_vision.py).
Colour is never the only cue: pictures add glyphs (R/S), marker shapes or line styles.
Continuous scales (viridis, RdBu, magma) are chosen where they are drawn, except the
scale of a game's values, which follows its objective (:func:`value_scale`): a win
probability on [0, 1] (RdBu, red for a likely loss through white to blue for a likely
win), an expected score on the data's range (viridis, sequential), an expected margin on
a blue–orange scale diverging around 0 (:data:`MARGIN_SCALE`: orange below 0, blue
above, both ends distinct for every reader).
"""

from __future__ import annotations

import numpy as np

# Okabe–Ito.
BLUE = "#0072B2"
ORANGE = "#E69F00"
VERMILLION = "#D55E00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
REDDISH_PURPLE = "#CC79A7"
BLACK = "#000000"

# Super Six's decision pair (the roll/stop maps, static and interactive).
ROLL = BLUE
STOP = ORANGE
# Text drawn on a ROLL / STOP cell (white on the dark blue, black on the light orange).
ROLL_TEXT = "#ffffff"
STOP_TEXT = "#000000"

# The diff diagram's two moves: the better move, and the policy's move that gives up value.
BETTER = BLUE
WORSE = VERMILLION

# Fills of end states and of the start (light tints, so black text stays legible):
# sky blue and vermillion at 60 %, and a pale yellow.
WON = "#9ad2f2"
LOST = "#e69e66"
START = "#fff3b0"

# Lines of several policies in one figure, in order; OPTIMAL marks the solved optimum.
# A cycle longer than four would break ΔE ≥ 20 for some reader (orange/vermillion under
# deuteranopia, blue/bluish green under tritanopia), so policies past the fourth repeat a
# colour and differ by marker and line style (POLICY_MARKERS, POLICY_LINESTYLES).
POLICY_CYCLE = (BLUE, VERMILLION, SKY_BLUE, REDDISH_PURPLE)
OPTIMAL = BLACK
POLICY_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
POLICY_LINESTYLES = ("-", "--", "-.", ":")

# A margin's diverging scale: ColorBrewer PuOr's orange half (below 0), a near-white 0 and
# RdBu's blue half (above 0). Blue against orange stays apart under every simulated
# deficiency (tests/renderers/test_objective_words.py).
MARGIN_SCALE = (
    (0.0, "#b35806"),
    (0.25, "#f1a340"),
    (0.5, "#f7f7f7"),
    (0.75, "#67a9cf"),
    (1.0, "#2166ac"),
)

# A win probability's scale: ColorBrewer RdBu, red (a likely loss) to blue (a likely win),
# spelt out: plotly.js's own "RdBu" runs the other way.
WIN_SCALE = (
    (0.0, "#b2182b"),
    (0.25, "#ef8a62"),
    (0.5, "#f7f7f7"),
    (0.75, "#67a9cf"),
    (1.0, "#2166ac"),
)


def value_scale(objective: str, values=()) -> dict:
    """The colour scale of a game's values, as plotly reads it: ``colorscale``, ``cmin``,
    ``cmax``, and ``diverging`` (True where the scale's middle means something).

    ``win``: :data:`WIN_SCALE` on [0, 1]; ``score``: Viridis on the range of ``values``;
    ``margin``: :data:`MARGIN_SCALE` on [-m, m], ``m`` the largest magnitude in ``values``,
    so that 0 is always its white middle.

    >>> value_scale("margin", [-1.0, 3.0])["cmin"], value_scale("margin", [-1.0, 3.0])["cmax"]
    (-3.0, 3.0)
    >>> value_scale("score", [-5, -2])["cmin"], value_scale("win")["cmax"]
    (-5.0, 1.0)
    """
    finite = np.asarray(values, dtype=np.float64).ravel()
    finite = finite[np.isfinite(finite)]
    if objective == "win":
        scale = [list(step) for step in WIN_SCALE]
        return {"colorscale": scale, "cmin": 0.0, "cmax": 1.0, "diverging": True}
    if objective == "margin":
        top = float(np.abs(finite).max()) if finite.size else 0.0
        top = top or 1.0
        scale = [list(step) for step in MARGIN_SCALE]
        return {"colorscale": scale, "cmin": -top, "cmax": top, "diverging": True}
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if low == high:
        low, high = low - 0.5, high + 0.5
    return {"colorscale": "Viridis", "cmin": low, "cmax": high, "diverging": False}


__all__ = [
    "BETTER",
    "BLACK",
    "BLUE",
    "BLUISH_GREEN",
    "LOST",
    "MARGIN_SCALE",
    "OPTIMAL",
    "ORANGE",
    "POLICY_CYCLE",
    "POLICY_LINESTYLES",
    "POLICY_MARKERS",
    "REDDISH_PURPLE",
    "ROLL",
    "ROLL_TEXT",
    "SKY_BLUE",
    "START",
    "STOP",
    "STOP_TEXT",
    "VERMILLION",
    "WIN_SCALE",
    "WON",
    "WORSE",
    "YELLOW",
    "value_scale",
]
