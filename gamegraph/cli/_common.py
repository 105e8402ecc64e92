"""What every ``gamegraph`` subcommand shares: the parser class, argument types, progress."""

from __future__ import annotations

import argparse
import math

from .._checks import MAX_GAMES

FORMATS = ("text", "json")
#: Every command that draws random numbers starts from this seed unless --seed says otherwise,
#: so a run can be repeated exactly.
DEFAULT_SEED = 1


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def games(text: str) -> int:
    """A number of games on the command line: 1 to MAX_GAMES, ``1_000``, ``1,000``, ``1e6``."""
    cleaned = text.replace("_", "").replace(",", "")
    try:
        value = int(cleaned)
    except ValueError:
        try:
            value = float(cleaned)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or value != int(value):
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number of games (1 to {MAX_GAMES:,})"
            ) from None
        value = int(value)
    if not 1 <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"{text} games: accepted 1 to {MAX_GAMES:,}")
    return value


def whole(low: int, what: str):
    """An argparse type: a whole number of ``what``, at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {what}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{text} {what}: accepted {low} or more")
        return value

    return parse


def seed(text: str) -> int:
    """A random seed on the command line: a whole number >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed {text}: accepted a whole number >= 0")
    return value


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
