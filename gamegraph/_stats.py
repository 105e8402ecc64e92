"""Confidence intervals for win rates, shared by Monte Carlo and match play."""

from __future__ import annotations

import math
from statistics import NormalDist

from .errors import InvalidArgumentError


def wilson_interval(wins: float, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a win probability estimated as ``wins / games``.

    ``wins`` may be fractional (a game counted as half won, or valued at its expected
    outcome); for whole numbers it equals scipy's
    ``binomtest(wins, games).proportion_ci(confidence, method="wilson")``.

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not 0 < confidence < 1
    ):
        raise InvalidArgumentError(
            f"confidence must be a number strictly between 0 and 1, not {confidence!r}"
        )
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    n, p = games, wins / games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)
