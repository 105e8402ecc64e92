"""The ``gamegraph`` command.

This module is the application layer: it is the one place where the library and the
``renderers`` package meet (``gamegraph graph`` draws). Library modules never import
renderers; a test checks that.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from . import __version__
from .errors import GameGraphError

FORMATS = ("text", "json")
MAX_GAMES = 10**9


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _games(text: str) -> int:
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


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed {text}: accepted a whole number >= 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    from .games.jackpot import AGENTS

    parser = _Parser(prog="gamegraph", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gamegraph {__version__}")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=_Parser)

    jackpot = games.add_parser("jackpot", help="the Jackpot dice game (one player, 9 cells)")
    commands = jackpot.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    agents = tuple(AGENTS) + ("optimal",)

    analyse = commands.add_parser(
        "analyse", help="exact win probability of every agent and of the optimal policy"
    )
    analyse.add_argument("--format", choices=FORMATS, default="text")
    analyse.set_defaults(run=_jackpot_analyse)

    simulate = commands.add_parser("simulate", help="seeded Monte Carlo games of one agent")
    simulate.add_argument("--agent", choices=agents, default="hilo")
    simulate.add_argument(
        "--games",
        type=_games,
        default=1_000_000,
        help=f"number of games, 1 to {MAX_GAMES:,} (default 1,000,000)",
    )
    simulate.add_argument("--seed", type=_seed, default=None, help="random seed (default: fresh)")
    simulate.add_argument("--format", choices=FORMATS, default="text")
    simulate.set_defaults(run=_jackpot_simulate)

    from renderers.dot import EXTENSIONS, STYLES, WEIGHTS

    graph = commands.add_parser("graph", help="draw an agent's game graph (DOT, PNG, SVG, PDF)")
    graph.add_argument("--agent", choices=agents, default="hilo")
    graph.add_argument(
        "--style",
        choices=STYLES,
        default="layers",
        help="layers: a box per layer; moves: edges labelled with the cell flipped",
    )
    graph.add_argument(
        "-o",
        "--output",
        required=True,
        help=f"output file; the extension picks the format: {', '.join(EXTENSIONS)}",
    )
    graph.add_argument(
        "--weights",
        choices=WEIGHTS,
        default=None,
        help="label edges with the chance the move is taken (count/36 or probability)",
    )
    graph.add_argument(
        "--reach", action="store_true", help="show each position's reach probability"
    )
    graph.add_argument(
        "--diff",
        action="store_true",
        help="mark in red the moves that give up win probability against the "
        "optimal policy, with the better move dashed green",
    )
    graph.set_defaults(run=_jackpot_graph)

    from .cli_supersix import add_commands as add_supersix

    add_supersix(games, _Parser, FORMATS)
    from .cli_ur import add_commands as add_ur

    add_ur(games, _Parser, FORMATS)
    return parser


def _jackpot_setup():
    from .build import build
    from .games.jackpot import AGENTS, Jackpot

    return build(Jackpot()), AGENTS


def _jackpot_policy(graph, agents, name, solution=None):
    from .policy import Policy
    from .solve import solve

    if name == "optimal":
        return (solution or solve(graph, exact=True)).policy
    return Policy.from_agent(graph, agents[name], name=name)


def _jackpot_analyse(args, out):
    from .analysis import compare_policies

    graph, agents = _jackpot_setup()
    rows = compare_policies(graph, agents, exact=True)
    if args.format == "json":
        payload = {
            "game": "jackpot",
            "states": graph.n_states,
            "agents": {row.name: row.as_dict() for row in rows},
        }
        out.write(json.dumps(payload, indent=2) + "\n")
        return
    out.write(f"Jackpot, {graph.n_states} positions: exact win probability of each policy\n\n")
    out.write(f"{'policy':<9} {'win probability':>30}   {'percent':>8}\n")
    for row in rows:
        fraction = f"{row.win.numerator}/{row.win.denominator}"
        out.write(f"{row.name:<9} {fraction:>30}   {row.percent:>8.4f} %\n")


def _jackpot_simulate(args, out):
    from .simulate import simulate
    from .solve import evaluate

    graph, agents = _jackpot_setup()
    policy = _jackpot_policy(graph, agents, args.agent)
    progress = _progress_printer() if args.games >= 20_000_000 else None
    result = simulate(graph, policy, games=args.games, seed=args.seed, progress=progress)
    exact = evaluate(graph, policy, exact=True).start_value
    low, high = result.interval()
    if args.format == "json":
        payload = {
            "game": "jackpot",
            "agent": args.agent,
            "games": result.games,
            "seed": args.seed,
            "wins": result.wins,
            "estimate": result.estimate,
            "interval95": [low, high],
            "exact": f"{exact.numerator}/{exact.denominator}",
            "exact_percent": 100 * float(exact),
            "seconds": result.seconds,
        }
        out.write(json.dumps(payload, indent=2) + "\n")
        return
    inside = "inside" if low <= exact <= high else "OUTSIDE"
    out.write(
        f"{args.agent}: won {int(result.wins):,} of {result.games:,} games = "
        f"{100 * result.estimate:.4f} % (95 % interval {100 * low:.4f} .. {100 * high:.4f} %)\n"
        f"exact {100 * float(exact):.4f} % ({inside} the interval); "
        f"seed {args.seed}; {result.seconds:.2f} s, "
        f"{result.games / max(result.seconds, 1e-9):,.0f} games/s\n"
    )


def _progress_printer():
    if not sys.stderr.isatty():
        return None

    def report(done, total):
        sys.stderr.write(f"\r{done:,} / {total:,} games")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return report


def _jackpot_graph(args, out):
    from renderers.dot import EXTENSIONS, policy_dot, write
    from renderers.output import check_output

    from .solve import evaluate, solve

    check_output(args.output, EXTENSIONS)  # fail before any work
    graph, agents = _jackpot_setup()
    solution = solve(graph, exact=True) if (args.diff or args.agent == "optimal") else None
    policy = _jackpot_policy(graph, agents, args.agent, solution)
    win = evaluate(graph, policy, exact=True).start_value
    title = f"Jackpot: {args.agent} ({100 * float(win):.4f} % wins)"
    source = policy_dot(
        graph,
        policy,
        title=title,
        style=args.style,
        weights=args.weights,
        reach=args.reach,
        optimal=solution if args.diff else None,
    )
    write(source, args.output)
    out.write(f"wrote {args.output}\n")


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


if __name__ == "__main__":
    sys.exit(main())
