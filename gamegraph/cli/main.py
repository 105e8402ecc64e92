"""gamegraph: build dice games' state graphs, solve them exactly, and draw them.

Each game has its own commands: ``gamegraph jackpot --help``, ``gamegraph supersix
--help``, ``gamegraph ur --help``; ``gamegraph gallery`` builds every picture at once.
"""

from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from ..errors import GameGraphError
from . import gallery, jackpot, supersix, ur
from ._common import Parser


def build_parser() -> argparse.ArgumentParser:
    """The ``gamegraph`` argument parser with every game's subcommands."""
    summary, _, details = __doc__.partition("\n\n")
    parser = Parser(
        prog="gamegraph",
        description=summary.partition(": ")[2].capitalize(),
        epilog=details.replace("``", "").strip(),
    )
    parser.add_argument("--version", action="version", version=f"gamegraph {__version__}")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=Parser)
    jackpot.add_commands(games)
    supersix.add_commands(games)
    ur.add_commands(games)
    gallery.add_commands(games)
    return parser


def main(argv=None, out=None) -> int:
    """Run the command line; returns the exit status."""
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.run(args, out)
    except GameGraphError as error:
        sys.stderr.write(f"gamegraph: error: {error}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("gamegraph: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (``gamegraph ... | head``): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0
