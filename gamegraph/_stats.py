"""Confidence intervals shared by Monte Carlo and match play: for win rates, and for the
mean of a score or margin.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from .errors import InvalidArgumentError


def _z(confidence) -> float:
    """The standard normal quantile of a two-sided ``confidence`` interval."""
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not 0 < confidence < 1
    ):
        raise InvalidArgumentError(
            f"confidence must be a number strictly between 0 and 1, not {confidence!r}"
        )
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(wins: float, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a win probability estimated as ``wins / games``.

    ``wins`` may be fractional (a game counted as half won, or valued at its expected
    outcome); for whole numbers it equals scipy's
    ``binomtest(wins, games).proportion_ci(confidence, method="wilson")``.

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    z = _z(confidence)
    n, p = games, wins / games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def normal_interval(
    mean: float, variance: float, count: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Normal interval for an expected value estimated by the mean of ``count`` samples
    whose sample variance (``ddof=1``) is ``variance``: mean plus or minus
    :math:`z\\sqrt{\\text{variance}/\\text{count}}`. Unbounded with fewer than two samples.

    >>> [round(x, 4) for x in normal_interval(10.0, 4.0, 100)]
    [9.608, 10.392]
    >>> normal_interval(3.0, 0.0, 1)
    (-inf, inf)
    """
    z = _z(confidence)
    if count < 2:
        return (-math.inf, math.inf)
    half = z * math.sqrt(variance / count)
    return (mean - half, mean + half)


def combine_moments(a: tuple, b: tuple) -> tuple:
    """Two samples' (count, mean, sum of squared deviations) as one's (Chan et al.'s
    pairwise update, which keeps its precision where the mean is large).

    >>> combine_moments((2, 1.0, 2.0), (2, 5.0, 2.0))    # 0, 2 and 4, 6
    (4, 3.0, 20.0)
    """
    (n1, m1, s1), (n2, m2, s2) = a, b
    n = n1 + n2
    if not n:
        return (0, 0.0, 0.0)
    delta = m2 - m1
    return (n, m1 + delta * n2 / n, s1 + s2 + delta * delta * n1 * n2 / n)
