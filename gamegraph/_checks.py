"""Argument checks shared by the whole library: one wording, one behaviour.

Each check returns the value as a plain Python number, or raises
:class:`~gamegraph.errors.InvalidArgumentError` with a message that names the argument,
what it was given, and what is accepted. ``bool`` is never accepted as a number, and a
numpy integer is as good as an ``int``.

Examples
--------
>>> import numpy as np
>>> check_int(np.int64(3), "pieces", low=1, high=7)
3
>>> check_int(True, "pieces", low=1)
Traceback (most recent call last):
...
gamegraph.errors.InvalidArgumentError: pieces must be a whole number >= 1, got True
>>> check_positive(1e-13, "tol")
1e-13
"""

from __future__ import annotations

import math
import sys
from numbers import Real

from .errors import InvalidArgumentError

#: The most games one simulation, match or tournament pairing will play.
MAX_GAMES = 10**9


def is_whole(value) -> bool:
    """True for an ``int`` or numpy integer that is not a ``bool``."""
    if isinstance(value, int):
        return not isinstance(value, bool)
    return isinstance(value, _numpy_types("integer"))


def _accepted(low, high) -> str:
    if high is None:
        return f">= {low:,}" if low is not None else ""
    if low is None:
        return f"<= {high:,}"
    return f"from {low:,} to {high:,}"


def check_int(value, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int, or InvalidArgumentError unless it is whole and in [low, high]."""
    # ``or`` stops at the first true part, so bounds are only compared for whole numbers
    # (comparing a string with an int would raise TypeError).
    if (
        not is_whole(value)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        bounds = _accepted(low, high)
        raise InvalidArgumentError(
            f"{name} must be a whole number{' ' + bounds if bounds else ''}, got {value!r}"
        )
    return int(value)


def check_positive(value, name: str) -> float:
    """``value`` as a float, or InvalidArgumentError unless it is a finite number > 0."""
    if (
        isinstance(value, (bool, *_numpy_types("bool_")))
        or not isinstance(value, Real)
        or not math.isfinite(value)
        or not value > 0
    ):
        raise InvalidArgumentError(f"{name} must be a positive number, got {value!r}")
    return float(value)


def _numpy_types(name: str) -> tuple:
    """``(numpy.<name>,)`` if numpy is loaded, else ``()``.

    A value cannot be a numpy number before numpy is loaded; not importing it here lets the
    command line read and check its arguments without numpy (0.1 s to load).
    """
    numpy = sys.modules.get("numpy")
    return () if numpy is None else (getattr(numpy, name),)


def check_games(value, name: str = "games") -> int:
    """A number of games: a whole number from 1 to :data:`MAX_GAMES`."""
    return check_int(value, name, low=1, high=MAX_GAMES)


def check_choice(picked, count: int, who: str) -> int:
    """An agent's pick among ``count`` options: a whole number 0 .. count-1."""
    if not is_whole(picked) or not 0 <= picked < count:
        raise InvalidArgumentError(
            f"{who} picked option {picked!r} of {count}; accepted 0 to {count - 1}"
        )
    return int(picked)
