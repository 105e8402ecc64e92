"""What an exact solve of a cyclic game will cost, estimated before it starts.

An exact solve of a game without cycles (Jackpot) is one backward sweep over integers and
costs little. A cyclic game is solved level by level (:mod:`gamegraph.condensation`): the
cyclic states of a level form one rational linear system (FLINT's dense rational
matrices when installed and the level holds at most
:data:`gamegraph.linear.FLINT_MAX_SIZE` states, else elimination over Python
Fractions), solved once per round of policy iteration, and the numbers grow from level
to level. The cost is estimated from the graph's cyclic components alone:

* **size of the numbers**: a level whose largest cyclic component has m states, solved
  with probabilities over D, can lengthen the denominators by up to m log2(D) bits
  (Cramer's rule); an acyclic level by log2(D). Summed over the levels this is an upper
  bound: structured games stay far below it (Pig's values keep about 100 bits, Super
  Six's reach the bound);
* **time**: a level of M cyclic states costs about M² (1 µs + 3.6 ns per bit of its
  numbers), 30 times that where the system is too large for FLINT. Calibrated on Pig to
  8-22, Super Six 10-36 pegs and Pig solitaire to 20-40 on a 2-core machine. As the size
  of the numbers is known only between 64 bits and the bound above, so is the time:
  :attr:`ExactCost.low_seconds` takes the numbers short (Pig's measured times lie within
  about three times of it), :attr:`ExactCost.seconds` at the bound (Super Six's lie within twice).

:func:`gamegraph.solve.solve` and :func:`~gamegraph.solve.evaluate` call
:func:`check_exact_cost` before an exact solve: past :data:`WARN_SECONDS` at the bound
it warns (:class:`ExactCostWarning`); when even short numbers would take longer than the
caller's limit it refuses, with the estimate and the float solve to use instead.

Examples
--------
>>> from gamegraph import build
>>> from gamegraph.games.pig import Pig
>>> cost = estimate_exact_cost(build(Pig(goal=10)))
>>> cost.cyclic_states, cost.largest_level, cost.seconds < 1
(603, 132, True)
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from .errors import InvalidArgumentError

#: Seconds of estimated exact work past which :func:`check_exact_cost` warns.
WARN_SECONDS = 10.0
#: The default limit: estimated seconds past which an exact solve is refused.
LIMIT_SECONDS = 600.0

_SECONDS_PER_PAIR = 1e-6  # per M² of a level's system ...
_SECONDS_PER_PAIR_BIT = 3.6e-9  # ... and per M² per bit of its numbers
_WITHOUT_FLINT = 30.0  # elimination over Python Fractions, relative to FLINT
_FLOAT_SECONDS_PER_OPTION = 1e-7  # a float solve, for the message


class ExactCostWarning(UserWarning):
    """An exact solve is estimated to take long (past :data:`WARN_SECONDS`)."""


class ExactCost(NamedTuple):
    """The estimate of an exact solve (:func:`estimate_exact_cost`).

    Attributes
    ----------
    seconds : float
        Estimated time with numbers as long as :attr:`bits`; 0 for a game without cycles.
    bits : int
        Upper bound on the bits of the largest numerator or denominator.
    cyclic_states : int
        States in cyclic components.
    largest_level : int
        The most cyclic states one level holds (the largest rational system).
    float_seconds : float
        The float solve's time, roughly, for comparison.
    low_seconds : float
        Estimated time if the numbers stay short (64 bits): a lower estimate.
    """

    seconds: float
    bits: int
    cyclic_states: int
    largest_level: int
    float_seconds: float
    low_seconds: float

    def describe(self) -> str:
        """One phrase: the time and the size of the numbers.

        >>> ExactCost(5400.0, 30000, 10**6, 19212, 1.5, 300.0).describe()
        'from about 5 minutes (short numbers) to 1.5 hours (numbers of 30,000 bits)'
        """
        return (
            f"from about {_duration(self.low_seconds)} (short numbers) to "
            f"{_duration(self.seconds)} (numbers of {self.bits:,} bits)"
        )


def _duration(seconds: float) -> str:
    """``seconds`` in the unit a reader takes in at once.

    >>> _duration(0.2), _duration(95), _duration(7200), _duration(3e6)
    ('0.2 s', '1.6 minutes', '2 hours', '35 days')
    """
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 1.5 * size:
            return f"{seconds / size:.2g} {unit}"
    return f"{seconds:.2g} s"


def estimate_exact_cost(graph) -> ExactCost:
    """Estimate the time and the size of the numbers of an exact solve of ``graph``.

    Reads only the graph's condensation (:attr:`StateGraph.condensation`): milliseconds
    even for a million states once that is known. See the module docstring for the model.
    """
    from .linear import FLINT_MAX_SIZE, _flint

    condensation = graph.condensation
    sizes = np.bincount(condensation.component, minlength=condensation.n_components)
    step = max(int(graph.denominator).bit_length(), 1)
    given = [*graph.terminal_exact.values(), *graph.reward_exact.values()]
    bits = max([v.denominator.bit_length() for v in given] or [1])
    seconds = low = 0.0
    cyclic_states = largest = 0
    for level in condensation.levels:
        components = np.unique(condensation.component[level])
        cyclic = components[condensation.cyclic[components]]
        if not len(cyclic):
            bits += step
            continue
        level_states = int(sizes[cyclic].sum())
        bits += step * int(sizes[cyclic].max())
        pairs = float(level_states) ** 2
        factor = _WITHOUT_FLINT if _flint is None or level_states > FLINT_MAX_SIZE else 1.0
        seconds += factor * pairs * (_SECONDS_PER_PAIR + _SECONDS_PER_PAIR_BIT * bits)
        low += factor * pairs * (_SECONDS_PER_PAIR + _SECONDS_PER_PAIR_BIT * 64)
        cyclic_states += level_states
        largest = max(largest, level_states)
    float_seconds = graph.n_options * _FLOAT_SECONDS_PER_OPTION
    return ExactCost(seconds, bits, cyclic_states, largest, float_seconds, low)


def check_exact_cost(graph, limit: float | None = LIMIT_SECONDS, *, what="an exact solve"):
    """Warn about, or refuse, an exact solve of a cyclic ``graph`` estimated to take long.

    Parameters
    ----------
    graph : StateGraph
    limit : float or None
        Refuse past this many estimated seconds; None never refuses.
    what : str
        The work, as the subject of the messages.

    Raises
    ------
    InvalidArgumentError
        When even short numbers (:attr:`ExactCost.low_seconds`) would take longer than
        ``limit``: the estimate, and the float solve to use instead.

    Warns
    -----
    ExactCostWarning
        When numbers as long as the bound would take longer than :data:`WARN_SECONDS`.
    """
    if not graph.condensation.cyclic.any():
        return None
    cost = estimate_exact_cost(graph)
    refused = limit is not None and cost.low_seconds > limit
    if cost.seconds <= WARN_SECONDS and not refused:
        return cost
    name = getattr(graph.rules, "name", "the game")
    subject = (
        f"{what} of {name} ({graph.n_states:,} states, {cost.cyclic_states:,} in cycles, "
        f"up to {cost.largest_level:,} in one rational system) would take {cost.describe()}"
    )
    floats = f"a float solve (exact=False) takes about {_duration(cost.float_seconds)}"
    if refused:
        raise InvalidArgumentError(
            f"{subject}, past the limit of {_duration(limit)}; {floats}. Solve it in floats, "
            "or pass exact_limit=None to go on anyway"
        )
    warnings.warn(f"{subject}; {floats}", ExactCostWarning, stacklevel=3)
    return cost
