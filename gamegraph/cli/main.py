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


#: The modules that register the top-level commands, in the order ``--help`` lists them.
_MODULES = (jackpot, supersix, ur, yahtzee, gallery, own_game)


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The ``gamegraph`` argument parser with every game's subcommands.

    Given the arguments it is for, ``argv``, only the command they name gets its
    subcommands and options; every other command is listed by its name and help line
    alone, from the ``COMMANDS`` of the module that registers it. A game's options can need
    its package (its rule sets, its agents, which load numpy): ``gamegraph --help`` then
    imports none of them, and ``gamegraph ur ...`` only Ur's.
    """
    summary, _, details = __doc__.partition("\n\n")
    parser = Parser(
        prog="gamegraph",
        description=summary.partition(": ")[2].capitalize(),
        epilog=details.replace("``", "").strip(),
    )
    parser.add_argument("--version", action="version", version=f"gamegraph {__version__}")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=Parser)
    named = None if argv is None else _command(argv)
    for module in _MODULES:
        lines = getattr(module, "COMMANDS", None)
        if named is None or lines is None or named in lines:
            module.add_commands(games)
        else:
            for name, line in lines.items():
                games.add_parser(name, help=line)
    return parser


def _command(argv) -> str:
    """The command ``argv`` names: its first word that is not an option (the top level's
    options take no value), or "" if there is none.
    """
    words = list(argv)
    for at, word in enumerate(words):
        if word == "--":
            return words[at + 1] if at + 1 < len(words) else ""
        if not word.startswith("-"):
            return word
    return ""


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
    except (MemoryError, SystemError) as error:
        # The guards estimate memory before the work (gamegraph._memory), but other programs
        # can take it meanwhile, a user's game may not know its size in advance, and under
        # a tight ulimit -v even building the argument parser can fail (CPython may then
        # raise SystemError while importing numpy).
        if isinstance(error, SystemError) and _environment.load_failure(error) is None:
            raise
        sys.stderr.write(
            f"gamegraph: error: {_environment.load_failure(error)}\n"
            if _environment.address_limit() is not None
            else "gamegraph: error: ran out of memory; try a smaller game or free some memory\n"
        )
        if standalone and _environment.address_limit() is not None:
            _environment.leave_out_of_memory(1)  # flushes the line first
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
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser(argv).parse_args(argv)
        if "run" not in args:  # a command listed but not filled in: cannot happen, but cheap
            args = build_parser().parse_args(argv)
    except SystemExit:
        out.flush()  # --help and --version wrote to stdout: fail here, not at exit
        raise
    except (ImportError, OSError) as error:  # a game's options import its package
        return _cannot_load(error)
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
        return _cannot_load(error)
    return 0


def _cannot_load(error: ImportError | OSError) -> int:
    """Status 1 and one line if the surroundings, not the input, raised ``error``: no usable
    temporary folder, or a library that cannot be loaded under an address-space limit
    (:mod:`gamegraph._environment`); else ``error`` again.
    """
    message = _environment.no_temporary_folder(error) or _environment.load_failure(error)
    if message is None:
        raise error
    sys.stderr.write(f"gamegraph: error: {message}\n")
    return 1
