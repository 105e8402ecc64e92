"""Attribute values read strictly: exact numbers, moves, flags, probabilities, rewards and
terminal values, each bounded before any arithmetic and refused with the place named.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np

from .._files import _shown
from ..errors import InvalidArgumentError

#: Digits a number read as text may have in each part (numerator, denominator, the
#: digits of a decimal, its exponent's size): Python's own limit for int <-> str. Text past
#: it is refused before any arithmetic, so "1e-999999999" costs nothing.
MAX_DIGITS = 4300
_NUMBER_TEXT = re.compile(r"[+-]?(?:(\d+)/(\d+)|(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)")


def exact_number(value) -> Fraction:
    """``value`` (int, Fraction, float or text such as ``"1/36"``, ``"0.25"``, ``"1e-3"``)
    as an exact Fraction; a float is read as the decimal it prints as.

    Raises ValueError, saying why, for anything else: bools, text that is not a plain
    number (no underscores, no other scripts' digits), a zero denominator, and numbers
    with more than :data:`MAX_DIGITS` digits in a part.

    >>> exact_number("1/36"), exact_number(" 0.25 "), exact_number(0.1), exact_number(3)
    (Fraction(1, 36), Fraction(1, 4), Fraction(1, 10), Fraction(3, 1))
    >>> exact_number("1e-999999999")
    Traceback (most recent call last):
    ...
    ValueError: '1e-999999999' has an exponent beyond ±4300
    """
    kind = type(value)
    if kind is Fraction:
        return value
    if kind is bool or isinstance(value, np.bool_):
        raise ValueError(f"{value!r} is a bool, not a number")
    if kind is int or isinstance(value, np.integer):
        return Fraction(int(value))
    if isinstance(value, float | np.floating):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a finite number")
        return Fraction(repr(float(value)))
    if isinstance(value, Fraction):
        return Fraction(value.numerator, value.denominator)
    if not isinstance(value, str):
        raise ValueError(f"{_shown(repr(value))} is not a number")
    text = value.strip()
    match = _NUMBER_TEXT.fullmatch(text)
    shown = _shown(repr(text))
    if match is None or not any(match.group(k) for k in (1, 3, 4)):
        raise ValueError(f"{shown} is not a number (write it as 3, 1/36, 0.25 or 1e-3)")
    numerator, denominator, whole, decimals, exponent = match.groups()
    if (
        max(len(numerator or ""), len(denominator or ""), len(whole or "") + len(decimals or ""))
        > MAX_DIGITS
    ):
        raise ValueError(f"{shown} has more than {MAX_DIGITS} digits")
    if exponent is not None and (len(exponent.lstrip("+-")) > 5 or abs(int(exponent)) > MAX_DIGITS):
        raise ValueError(f"{shown} has an exponent beyond ±{MAX_DIGITS}")
    if denominator is not None and int(denominator) == 0:
        raise ValueError(f"{shown} divides by zero")
    return Fraction(text)


def _move_attribute(value, where: str) -> int:
    """An edge's ``move``: an int, a float or text holding a whole number, in 32 bits."""
    move = None
    if type(value) is int or isinstance(value, np.integer) and not isinstance(value, np.bool_):
        move = int(value)
    elif isinstance(value, float | np.floating) and float(value).is_integer():
        move = int(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,10}\s*", value):
        move = int(value)
    if move is None:
        raise InvalidArgumentError(f"{where}: move {_shown(repr(value))} is not a whole number")
    return _in_32_bits(move, where)


def _in_32_bits(move: int, where: str) -> int:
    """``move`` as an int, if the int32 the graph stores it in can hold it."""
    if not -(2**31) <= move < 2**31:
        raise InvalidArgumentError(f"{where}: move {move} does not fit in 32 bits")
    return int(move)


#: How booleans are written by tools that store them as text or numbers (GraphML's
#: ``attr.type="string"``, spreadsheets): anything else is refused, not read as true.
_FLAG_TEXT = {"true": True, "false": False, "1": True, "0": False}


def _flag(value):
    """``value`` as a bool, or None when it is not a recognised way of writing one."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if type(value) is int or isinstance(value, np.integer):
        return {0: False, 1: True}.get(int(value))
    if isinstance(value, str):
        return _FLAG_TEXT.get(value.strip().lower())
    return None


def _flag_attribute(value, where: str, name: str) -> bool:
    flag = _flag(value)
    if flag is None:
        raise InvalidArgumentError(
            f"{where}: {name} is {_shown(repr(value))}; accepted: true or false (or 1, 0)"
        )
    return flag


def _unread(data: dict, accepted: tuple, ignore, where: str) -> str:
    """A message naming the first attribute of ``data`` that is neither read (``accepted``)
    nor left unread on purpose (``ignore``); "" when there is none.
    """
    for key in data:
        if key not in accepted and key not in ignore:
            shown = _shown(repr(key))
            return (
                f"{where} has the attribute {shown}, which from_networkx does not read; "
                f"accepted: {', '.join(accepted)}; pass ignore=[{shown}] to leave it unread "
                "on purpose"
            )
    return ""


def _label(value, where: str) -> str:
    """``value`` (a node's label, or its state) as text. A state type's ``__str__`` may
    fail on field values a file gave it (``UrState(5, 0, (), 0)``): refused, naming ``where``.
    """
    try:
        return str(value)
    except Exception as e:  # noqa: BLE001 - a state type's own __str__ may raise anything
        line = str(e).strip().partition("\n")[0]
        raise InvalidArgumentError(
            f"{where} cannot be written as a label ({type(e).__name__}: {_shown(line)})"
        ) from None


_WIN_HINT = (
    'set g.graph["objective"] to "score" (one player) or "margin" (two players, zero-sum) '
    "for values that are scores"
)


def _reward(value, where: str, objective: str) -> Fraction:
    """An edge's or option's ``reward`` as an exact number (read as :func:`exact_number`
    reads it); a reward other than 0 is refused in a ``"win"`` game.
    """
    try:
        reward = exact_number(value)
    except ValueError as e:
        raise InvalidArgumentError(f"{where}: its reward {e}") from None
    if reward and objective == "win":
        raise InvalidArgumentError(
            f'{where} has reward {reward}, but the objective is "win" (values are chances to '
            f"win, and moves pay nothing); {_WIN_HINT}"
        )
    return reward


def _exact(p, edge) -> Fraction:
    """:func:`_probability` of the edge ``edge`` (a pair of nodes)."""
    return _probability(p, f"edge {edge}")


def _probability(p, where) -> Fraction:
    try:
        p = exact_number(p)
    except ValueError as e:
        raise InvalidArgumentError(f"{where}: its probability {e}") from None
    if not 0 < p <= 1:
        raise InvalidArgumentError(f"{where} has probability {p}, outside (0, 1]")
    return p


def _value(value, state, objective="win") -> Fraction:
    """A terminal node's ``value``: in [0, 1] for ``"win"``, any finite number otherwise."""
    try:
        value = exact_number(value)
    except ValueError as e:
        raise InvalidArgumentError(f"node {state!r}: its value {e}") from None
    if objective == "win" and not 0 <= value <= 1:
        raise InvalidArgumentError(
            f'node {state!r} has value {value}, outside [0, 1] (the objective is "win"); '
            f"{_WIN_HINT}"
        )
    return value
