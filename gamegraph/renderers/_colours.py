"""The library's categorical colours, in one place, safe for colour-vision deficiency.

The colours come from the Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"),
made so that readers with protanopia, deuteranopia or tritanopia can still tell them apart.
Each colour that carries meaning has a named role; renderers import the roles, not hex codes.

Every pair that carries meaning (``ROLL``/``STOP``, ``BETTER``/``WORSE``, ``WON``/``LOST``/
``START`` and every pair among ``POLICY_CYCLE`` and ``OPTIMAL``) differs by CIE76 ΔE ≥ 20
under normal vision and under the Machado, Oliveira & Fernandes (2009) simulations of
protanopia, deuteranopia and tritanopia at full severity (tests/renderers/test_colour_vision.py).
Colour is never the only cue: pictures add glyphs (R/S), marker shapes or line styles.
Continuous scales (viridis, RdBu, magma) are chosen where they are drawn.
"""

from __future__ import annotations

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

__all__ = [
    "BETTER",
    "BLACK",
    "BLUE",
    "BLUISH_GREEN",
    "LOST",
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
    "WON",
    "WORSE",
    "YELLOW",
]
