"""``gamegraph jackpot ...``: exact agent values, Monte Carlo, and the game graph drawn.

The work is :mod:`gamegraph.games.jackpot.analysis`'s; this module reads the arguments
and prints its results.
"""

from __future__ import annotations

from pathlib import Path

from .._checks import MAX_GAMES
from ..errors import InvalidArgumentError
from ._common import (
    FORMATS,
    Parser,
    add_quiet,
    add_seed,
    add_width,
    finite_json,
    games,
    probability,
    whole,
)
from .report import add_report_command

GRAPH_VIEWS = ("full", "likely", "threshold", "around", "diff")
#: The most moves `graph --view around --depth` draws on each side of the position
#: (:data:`gamegraph.games.jackpot.analysis.MAX_DEPTH`, without importing it here).
MAX_DEPTH = 50
#: The policies `layers` compares unless told otherwise.
LAYER_AGENTS = ("min", "last", "hilo", "optimal")
#: The top-level command registered here, with its line in ``gamegraph --help``.
COMMANDS = {"jackpot": "the Jackpot dice game (one player, 9 cells)"}


def add_commands(subparsers) -> None:
    """Register the jackpot subcommands on the top-level ``GAME`` subparsers."""
    from ..games.jackpot import AGENTS
    from .explore import add_explore

    jackpot = subparsers.add_parser("jackpot", help=COMMANDS["jackpot"])
    commands = jackpot.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    add_explore(commands, "jackpot")
    add_report_command(commands, "jackpot")
    agents = tuple(AGENTS) + ("optimal",)

    analyse = commands.add_parser(
        "analyse", help="exact win probability of every agent and of the optimal policy"
    )
    analyse.add_argument("--format", choices=FORMATS, default="text")
    analyse.set_defaults(run=_analyse)

    simulate = commands.add_parser("simulate", help="seeded Monte Carlo games of one agent")
    simulate.add_argument("--agent", choices=agents, default="hilo")
    simulate.add_argument(
        "--games",
        type=games,
        default=1_000_000,
        help=f"number of games, 1 to {MAX_GAMES:,} (default 1,000,000)",
    )
    add_seed(simulate)
    simulate.add_argument("--format", choices=FORMATS, default="text")
    add_quiet(simulate)
    simulate.set_defaults(run=_simulate)

    _add_graph(commands, agents)
    _add_layers(commands, agents)


def _add_graph(commands, agents) -> None:
    text = "draw an agent's game graph (DOT, PNG, SVG, PDF)"
    graph = commands.add_parser("graph", help=text, arguments=lambda g: _arguments(g, agents))
    graph.set_defaults(run=_graph)


def _arguments(graph, agents) -> None:
    """``jackpot graph``'s arguments, added when it runs (they load numpy and the solvers)."""
    from ..analysis.pruning import MAX_PATHS
    from ..renderers.dot import EXTENSIONS, STYLES, WEIGHTS

    graph.add_argument("--agent", choices=agents, default="hilo")
    graph.add_argument(
        "--style",
        choices=STYLES,
        default="layers",
        help="layers: edges in one colour; moves: edges coloured by the cell flipped (and "
        "labelled in the pruned views)",
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
        "--view",
        choices=GRAPH_VIEWS,
        default="full",
        help="full: every position (default); likely: the most likely games (--paths); "
        "threshold: positions reached often enough (--min-reach); around: one position's "
        "neighbourhood (--around, --depth); diff: the decisions where the agent gives up "
        "win probability against the optimum, each with its cost",
    )
    graph.add_argument(
        "--diff", action="store_true", help="the same as --view diff (kept for old scripts)"
    )
    graph.add_argument(
        "--paths",
        type=whole(1, "paths", high=MAX_PATHS),
        default=None,
        help=f"likely: how many games, 1 to {MAX_PATHS} (default 10)",
    )
    graph.add_argument(
        "--min-reach",
        type=probability,
        default=None,
        metavar="P",
        help="threshold: the least reach probability drawn, in (0, 1] (default 0.02)",
    )
    graph.add_argument(
        "--around",
        default=None,
        metavar="POSITION",
        help="around: the position by the cells still open, as the diagram labels it "
        "(e.g. 2579 or '2 5 7 9'), or START",
    )
    graph.add_argument(
        "--depth",
        type=whole(1, "moves", high=MAX_DEPTH),
        default=None,
        help=f"around: moves drawn before and after the position, 1 to {MAX_DEPTH} (default 2)",
    )
    add_width(graph)


def _add_layers(commands, agents) -> None:
    layers = commands.add_parser(
        "layers",
        help="layer by layer: positions reached, reach probability and where games are lost",
    )
    layers.add_argument(
        "--agents",
        nargs="+",
        choices=agents,
        default=list(LAYER_AGENTS),
        metavar="AGENT",
        help=f"policies to compare, from {', '.join(agents)} (default {' '.join(LAYER_AGENTS)})",
    )
    layers.add_argument(
        "-o",
        "--output",
        default=None,
        help="draw reach and loss by layer to this file (.png, .svg, .pdf) "
        "instead of printing the table",
    )
    layers.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="the table printed without -o: text or json (exact fractions as 'p/q')",
    )
    layers.set_defaults(run=_layers)


def _write(out, result, form: str) -> None:
    """A result as indented JSON (NaN refused) or as its text."""
    text = finite_json(result.as_dict(), indent=2) + "\n" if form == "json" else result.to_text()
    out.write(text)


def _analyse(args, out):
    from ..games.jackpot.analysis import compare_agents

    _write(out, compare_agents(), args.format)


def _simulate(args, out):
    from ..games.jackpot.analysis import simulate_agent

    result = simulate_agent(args.agent, games=args.games, seed=args.seed, progress=args.progress)
    _write(out, result, args.format)


def _check_view_options(args) -> str:
    """The view asked for, after checking that its options go with it (before any work)."""
    view = "diff" if args.diff else args.view
    if args.diff and args.view not in ("full", "diff"):
        raise InvalidArgumentError(f"--diff is --view diff; it cannot go with --view {args.view}")
    owners = {"paths": "likely", "min_reach": "threshold", "around": "around", "depth": "around"}
    for option, owner in owners.items():
        if getattr(args, option) is not None and view != owner:
            flag = "--" + option.replace("_", "-")
            raise InvalidArgumentError(f"{flag} goes with --view {owner}, not --view {view}")
    if view == "around" and args.around is None:
        raise InvalidArgumentError("--view around needs --around POSITION (e.g. --around 2579)")
    texts = [flag for flag, on in (("--weights", args.weights), ("--reach", args.reach)) if on]
    if view == "diff" and (texts or args.style != "layers"):
        given = texts + (["--style"] if args.style != "layers" else [])
        raise InvalidArgumentError(
            f"{' and '.join(given)} do not apply to --view diff, which draws a table per position"
        )
    if view == "full" and texts and Path(args.output).suffix.lower() in (".png", ".pdf"):
        raise InvalidArgumentError(
            f"{' and '.join(texts)} on all 512 positions cannot be read on a page; write .svg "
            "(zoom in) or .dot, or draw a pruned view (--view likely, threshold or around)"
        )
    return view


def _drawing(args, view: str):
    """What the diagram shows, with --around's errors in the command line's words."""
    from ..games.jackpot import parse_position
    from ..games.jackpot.analysis import NotReachedError, jackpot_drawing

    around = None
    if args.around is not None:
        try:
            around = parse_position(args.around)
        except InvalidArgumentError as error:
            raise InvalidArgumentError(f"--around {error}") from None
    try:
        return jackpot_drawing(
            args.agent,
            view,
            paths=args.paths,
            min_reach=args.min_reach,
            around=around,
            depth=args.depth,
        )
    except NotReachedError as error:
        raise InvalidArgumentError(f"--around {args.around}: {error}") from None


def _graph(args, out):
    from .._files import check_output
    from ..renderers.dot import EXTENSIONS, policy_diff_dot, policy_dot

    check_output(args.output, EXTENSIONS)  # fail before any work
    view = _check_view_options(args)
    drawing = _drawing(args, view)
    if drawing.diff is not None:
        diagram = policy_diff_dot(drawing.graph, drawing.diff)
    else:
        diagram = policy_dot(
            drawing.drawn,
            title=drawing.title,
            style=args.style,
            weights=args.weights,
            show_reach=args.reach,
            selection=drawing.selection,
        )
    if args.width is not None:
        diagram = diagram.at_width(args.width, instead=SMALLER_VIEWS[view])
    diagram.save(args.output)
    out.write(f"wrote {args.output}\n")


#: What a view too wide for --width suggests instead: a smaller part of the game.
SMALLER_VIEWS = {
    "full": "a part of the game: --view likely [--paths N], --view threshold "
    "[--min-reach P] or --view around --around POSITION",
    "likely": "fewer games (--paths N, default 10)",
    "threshold": "fewer positions (a larger --min-reach, default 0.02)",
    "around": "fewer moves around the position (a smaller --depth, default 2)",
    "diff": "",
}


def _layers(args, out):
    if args.output:
        from .._files import check_output
        from ..renderers.figures import EXTENSIONS

        check_output(args.output, EXTENSIONS)  # fail before any work
    from ..games.jackpot.analysis import compare_layers

    summary = compare_layers(args.agents)
    if args.output:
        from ..renderers.figures import layer_summary_figure, save

        save(layer_summary_figure(summary), args.output)
        out.write(f"wrote {args.output}\n")
    elif args.format == "json":
        out.write(finite_json(summary.as_dict(), indent=2) + "\n")
    else:
        out.write(summary.table().to_text() + "\n")
