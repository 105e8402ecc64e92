"""gamegraph: build dice games' state graphs, solve them exactly, and draw them.

Each game has its own commands: ``gamegraph jackpot --help``, ``gamegraph supersix
--help``, ``gamegraph ur --help``, ``gamegraph yahtzee --help``; ``gamegraph gallery``
builds every picture at once.
Any game, your own too, by its class: ``gamegraph explore|report|graph my_game.py:Game``.
"""

from __future__ import annotations

import argparse
import errno
import sys

from .. import __version__, _environment
from ..errors import GameGraphError

try:
    from . import _output, gallery, jackpot, own_game, supersix, ur, yahtzee
    from ._common import Parser
except (ImportError, MemoryError, OSError, SystemError) as _error:  # ulimit -v
    _environment.failed_to_start(_error)


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
    yahtzee.add_commands(games)
    gallery.add_commands(games)
    own_game.add_commands(games)
    return parser


def main(argv=None, out=None) -> int:
    """Run the command line; returns the exit status.

    ``out`` is where the command writes (default: standard output). Whatever happens to that
    stream, the command ends without a traceback (:mod:`gamegraph.cli._output`): a reader
    that went away ends it quietly with status 1; a full, closed or failing stdout with
    one line on stderr and status 1. A closed or full stderr never stops it.
    """
    standalone = out is None
    stdout, stderr = sys.stdout, sys.stderr
    _environment.settle_matplotlib()  # a HOME that cannot be written: a private MPLCONFIGDIR
    if standalone:
        closed = _output.occupy_closed_descriptors()
        out = None if 1 in closed else stdout
    out = _output.Output(out)
    if standalone:  # argparse's --help and --version, and any stray print(), go through it too
        sys.stdout = out
    sys.stderr = _output.Forgiving(stderr)
    try:
        return _run(argv, out)
    except MemoryError as error:
        # The guards estimate memory before the work (gamegraph._memory), but other programs
        # can take it meanwhile, a user's game may not know its size in advance, and under
        # a tight ulimit -v even building the argument parser can fail.
        sys.stderr.write(
            f"gamegraph: error: {_environment.load_failure(error)}\n"
            if _environment.address_limit() is not None
            else "gamegraph: error: ran out of memory; try a smaller game or free some memory\n"
        )
        if standalone and _environment.address_limit() is not None:
            try:
                stderr.flush()
            except (AttributeError, OSError, ValueError, MemoryError):
                pass
            _environment.leave_out_of_memory(1)
        return 1
    except _output.StdoutFailed as failure:
        if standalone:
            _output.silence(1)  # the interpreter's last flush must not fail again
        if failure.broken_pipe:
            # The reader went away (``gamegraph ... | head``): stop quietly, as other tools do.
            return _output.BROKEN_PIPE_STATUS
        sys.stderr.write(failure.message)
        return _output.WRITE_ERROR_STATUS
    finally:
        if standalone:
            try:
                stderr.flush()
            except (AttributeError, OSError, ValueError):
                _output.silence(2)
        sys.stdout, sys.stderr = stdout, stderr


def _run(argv, out: _output.Output) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit:
        out.flush()  # --help and --version wrote to stdout: fail here, not at exit
        raise
    if out.closed:  # ``>&-``: the command could not say what it did; refuse before the work
        raise _output.StdoutFailed(errno.EBADF)
    cramped = _environment.too_little_room()  # ``ulimit -v`` too low to load the libraries
    if cramped is not None:
        sys.stderr.write(f"gamegraph: error: {cramped}\n")
        return 1
    try:
        args.run(args, out)
        out.flush()
    except GameGraphError as error:
        sys.stderr.write(f"gamegraph: error: {error}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("gamegraph: interrupted\n")
        return 130
    except (ImportError, OSError) as error:
        # The surroundings, not the input: no usable temporary folder, or a library that
        # cannot be loaded under an address-space limit (gamegraph._environment).
        message = _environment.no_temporary_folder(error) or _environment.load_failure(error)
        if message is None:
            raise
        sys.stderr.write(f"gamegraph: error: {message}\n")
        return 1
    return 0
