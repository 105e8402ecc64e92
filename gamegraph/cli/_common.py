"""What every ``gamegraph`` subcommand shares: the parser class, argument types, progress."""

from __future__ import annotations

import argparse
import json
import math
import re

from .._checks import MAX_GAMES
from ..errors import InvalidArgumentError

FORMATS = ("text", "json")
#: Every command that draws random numbers starts from this seed unless --seed says otherwise,
#: so a run can be repeated exactly.
DEFAULT_SEED = 1


#: A command-line argument that starts with one '-' and then anything but a letter or a
#: second '-' cannot be an option's name: it is a value, such as Ur's empty board ``-/-``.
_NOT_AN_OPTION = r"-[^-A-Za-z]"

#: The most digits a whole number on the command line may have (Python's ``int`` would
#: also read thousands, up to its 4,300-digit limit).
MAX_DIGITS = 18

_WHOLE = re.compile(r"[+-]?[0-9]+")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit status 2.

    An argument that starts with ``-`` is a value, not an unknown option, when what follows
    the ``-`` cannot start an option's name (a letter or ``-``): ``gamegraph ur value -/-``
    works as typed, with no ``--`` before the position. argparse already treats negative
    numbers so; this widens its test (``_negative_number_matcher``, consulted only while
    no option of the parser looks like a negative number, which none of ours does).

    >>> parser = Parser(prog="demo")
    >>> _ = parser.add_argument("position")
    >>> _ = parser.add_argument("-q", action="store_true")
    >>> parser.parse_args(["-/-", "-q"])
    Namespace(position='-/-', q=True)
    >>> parser.parse_args(["-+2/4"]).position, parser.parse_args(["-5"]).position
    ('-+2/4', '-5')
    """

    def __init__(self, *args, arguments=None, **kwargs):
        super().__init__(*args, **kwargs)
        negative_number = self._negative_number_matcher.pattern
        self._negative_number_matcher = re.compile(f"(?:{negative_number})|{_NOT_AN_OPTION}")
        self._arguments = arguments  # a function adding them when the parser is first used

    def parse_known_args(self, args=None, namespace=None):
        # Options that import heavy modules (a renderer's formats) cost only their command.
        if self._arguments is not None:
            self._arguments, arguments = None, self._arguments
            arguments(self)
        return super().parse_known_args(args, namespace)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written with the ASCII digits 0-9 (an optional sign,
    spaces around), or None.

    Python's ``int`` also reads other scripts' digits and underscores; a command line takes
    neither, nor more than :data:`MAX_DIGITS` digits.

    >>> whole_number("42"), whole_number(" -7 "), whole_number("+3")
    (42, -7, 3)
    >>> [whole_number(t) for t in ("\u0663", "\uff13", "1_3", "1.0", "", "1" * 19)]
    [None, None, None, None, None, None]
    """
    text = text.strip(" \t")
    if not _WHOLE.fullmatch(text) or len(text.lstrip("+-")) > MAX_DIGITS:
        return None
    return int(text)


def games(text: str) -> int:
    """A number of games on the command line: 1 to MAX_GAMES, ``1_000``, ``1,000``, ``1e6``
    (ASCII digits only).

    >>> games("1_000"), games("1,000"), games("1e6")
    (1000, 1000, 1000000)
    >>> try:
    ...     games("\uff11\uff10")
    ... except argparse.ArgumentTypeError as error:
    ...     print(str(error).partition(";")[0])
    '１０' is not a whole number of games (1 to 1,000,000,000
    """
    cleaned = text.replace("_", "").replace(",", "")
    value = None
    if text.isascii():
        value = whole_number(cleaned)
        if value is None and len(cleaned) <= 40:
            try:
                number = float(cleaned)
            except ValueError:
                number = math.nan
            if math.isfinite(number) and number == int(number):
                value = int(number)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not a whole number of games (1 to {MAX_GAMES:,}; digits 0-9, "
            "with 1,000 or 1_000 or 1e6 also accepted)"
        )
    if not 1 <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"{text} games: accepted 1 to {MAX_GAMES:,}")
    return value


def whole(low: int, what: str, high: int | None = None):
    """An argparse type: a whole number of ``what`` (ASCII digits), from ``low`` to ``high``
    (no upper bound when None), with one message for every number out of range.

    >>> paths = whole(1, "paths", high=1000)
    >>> paths("12")
    12
    >>> for text in ("0", "100000000", "\u0661\u0662", "1_2"):
    ...     try:
    ...         paths(text)
    ...     except argparse.ArgumentTypeError as error:
    ...         print(error)
    0 paths: accepted 1 to 1000
    100000000 paths: accepted 1 to 1000
    '١٢' is not a whole number of paths (digits 0-9): accepted 1 to 1000
    '1_2' is not a whole number of paths (digits 0-9): accepted 1 to 1000
    """
    accepted = f"{low} or more" if high is None else f"{low} to {high}"

    def parse(text: str) -> int:
        value = whole_number(text)
        if value is None:
            if _WHOLE.fullmatch(text.strip(" \t")):  # only too long
                raise argparse.ArgumentTypeError(
                    f"{_shown(text)} {what}: accepted {accepted}, at most {MAX_DIGITS} digits"
                )
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a whole number of {what} (digits 0-9): accepted {accepted}"
            )
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text.strip()} {what}: accepted {accepted}")
        return value

    return parse


def integer(text: str) -> int:
    """An argparse type: any whole number written with the digits 0-9 (checked later)."""
    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not a whole number (digits 0-9, at most {MAX_DIGITS})"
        )
    return value


def seed(text: str) -> int:
    """A random seed on the command line: a whole number >= 0 (digits 0-9)."""
    value = whole_number(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(
            f"seed {_shown(text)}: accepted a whole number >= 0 (digits 0-9, at most {MAX_DIGITS})"
        )
    return value


def probability(text: str) -> float:
    """A probability on the command line: a decimal number in (0, 1] written with the
    digits 0-9 (``0.02``, ``.5``, ``1``, ``2e-3``).

    >>> probability("0.02"), probability(".5"), probability("2e-3")
    (0.02, 0.5, 0.002)
    """
    value = decimal_number(text)
    if value is None or not 0 < value <= 1:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not a probability in (0, 1] (a decimal number such as 0.02)"
        )
    return value


_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")


def decimal_number(text: str) -> float | None:
    """``text`` as a decimal number written with the ASCII digits 0-9 (``0.02``, ``.5``,
    ``2e-3``, spaces around), or None: not ``nan``, ``inf``, ``1_0`` or other scripts' digits,
    which Python's ``float`` reads.

    >>> decimal_number("0.25"), decimal_number("-1"), decimal_number("\u0660.5")
    (0.25, -1.0, None)
    """
    text = text.strip(" \t")
    return float(text) if _DECIMAL.fullmatch(text) else None


def add_seed(parser) -> None:
    """The ``--seed`` option, with the same default in every command."""
    parser.add_argument(
        "--seed",
        type=seed,
        default=DEFAULT_SEED,
        help=f"random seed; the same seed repeats a run exactly (default {DEFAULT_SEED})",
    )


def add_quiet(parser) -> None:
    """The ``-q``/``--quiet`` option of every long command: it sets ``args.progress`` to
    False (no progress bars on stderr); without it ``args.progress`` is None, which shows
    them when stderr is a terminal (:mod:`gamegraph._progress`).

    >>> parser = Parser(prog="demo")
    >>> add_quiet(parser)
    >>> parser.parse_args([]).progress, parser.parse_args(["-q"]).progress
    (None, False)
    """
    parser.add_argument(
        "-q",
        "--quiet",
        dest="progress",
        action="store_const",
        const=False,
        default=None,
        help="no progress bars on stderr (shown by default when stderr is a terminal)",
    )


_LENGTH = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)\s*(cm|mm|in)")
_UNIT_INCHES = {"cm": 1 / 2.54, "mm": 1 / 25.4, "in": 1.0}
#: The widths ``--width`` accepts, in inches: 2 cm to an A0 page's long side.
WIDTH_RANGE = (2 / 2.54, 46.8)


def width(text: str) -> float:
    """A picture's width on the command line, in inches: a decimal number and its unit,
    ``cm``, ``mm`` or ``in`` (``16cm``, ``160 mm``, ``6.3in``), from 2 cm to 119 cm.

    >>> round(width("16cm"), 4), width("6.3in"), round(width("160 mm"), 4)
    (6.2992, 6.3, 6.2992)
    >>> try:
    ...     width("16")
    ... except argparse.ArgumentTypeError as error:
    ...     print(error)
    '16' is not a width: a number and its unit, cm, mm or in (e.g. 16cm or 6.3in)
    """
    found = _LENGTH.fullmatch(text.strip(" \t").lower()) if text.isascii() else None
    if found is None:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not a width: a number and its unit, cm, mm or in "
            "(e.g. 16cm or 6.3in)"
        )
    inches = float(found.group(1)) * _UNIT_INCHES[found.group(2)]
    low, high = WIDTH_RANGE
    if not low <= inches <= high:
        raise argparse.ArgumentTypeError(
            f"width {text.strip()}: accepted 2 cm to {high * 2.54:.0f} cm ({high:g} in)"
        )
    return inches


def add_width(parser, what: str = "the diagram") -> None:
    """The ``--width`` option: ``args.width`` in inches, or None (the default page size)."""
    parser.add_argument(
        "--width",
        type=width,
        default=None,
        metavar="LENGTH",
        help=f"draw {what} this wide, e.g. 16cm or 6.3in (the text in it at least 7 pt, "
        "else it says which views fit); default: fitted to an A3 page",
    )


def finite_json(payload, indent: int | None = None) -> str:
    """``payload`` as JSON (``indent`` as :func:`json.dumps` takes it); a NaN or an
    infinity is refused, never written as bare ``NaN``.

    >>> finite_json({"value": 0.5})
    '{"value": 0.5}'
    >>> finite_json({"value": float("nan")})
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: a result is not a finite number (NaN or infinity), ...
    """
    try:
        return json.dumps(payload, indent=indent, allow_nan=False)
    except ValueError:
        raise InvalidArgumentError(
            "a result is not a finite number (NaN or infinity), which JSON cannot hold"
        ) from None
