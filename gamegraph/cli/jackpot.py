"""``gamegraph jackpot ...``: exact agent values, Monte Carlo, and the game graph drawn."""

from __future__ import annotations

import json
from pathlib import Path

from .._checks import MAX_GAMES
from ._common import (
    FORMATS,
    Parser,
    add_quiet,
    add_seed,
    add_width,
    games,
    probability,
    whole,
)
from .report import add_report_command


def add_commands(subparsers) -> None:
    """Register the jackpot subcommands on the top-level ``GAME`` subparsers."""
    from ..games.jackpot import AGENTS
    from ..renderers.dot import EXTENSIONS, STYLES, WEIGHTS

    jackpot = subparsers.add_parser("jackpot", help="the Jackpot dice game (one player, 9 cells)")
    commands = jackpot.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    from .explore import add_explore

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

    from ..analysis.pruning import MAX_PATHS

    graph = commands.add_parser("graph", help="draw an agent's game graph (DOT, PNG, SVG, PDF)")
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
    graph.set_defaults(run=_graph)

    layer_agents = ("min", "last", "hilo", "optimal")  # the default comparison
    layers = commands.add_parser(
        "layers",
        help="layer by layer: positions reached, reach probability and where games are lost",
    )
    layers.add_argument(
        "--agents",
        nargs="+",
        choices=agents,
        default=list(layer_agents),
        metavar="AGENT",
        help=f"policies to compare, from {', '.join(agents)} (default {' '.join(layer_agents)})",
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


def _setup():
    from ..build import build
    from ..games.jackpot import AGENTS, Jackpot

    return build(Jackpot()), AGENTS


def _policy(graph, agents, name, solution=None):
    from ..policy import Policy
    from ..solve import solve

    if name == "optimal":
        return (solution or solve(graph, exact=True)).policy
    return Policy.from_agent(graph, agents[name], name=name)


def _analyse(args, out):
    from ..analysis import compare_policies

    graph, agents = _setup()
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


def _simulate(args, out):
    from ..build import build
    from ..games.jackpot import AGENTS, Jackpot
    from ..simulate import simulate
    from ..solve import evaluate, solve

    graph, agents = build(Jackpot(), progress=args.progress), AGENTS
    optimum = solve(graph, exact=True, progress=args.progress) if args.agent == "optimal" else None
    policy = _policy(graph, agents, args.agent, optimum)
    result = simulate(graph, policy, games=args.games, seed=args.seed, progress=args.progress)
    exact = evaluate(graph, policy, exact=True, progress=args.progress).start_value
    low, high = result.interval()
    if args.format == "json":
        payload = {
            "game": "jackpot",
            "agent": args.agent,
            "games": result.games,
            "seed": args.seed,
            "wins": result.wins,
            "unfinished": result.unfinished,
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
    if result.unfinished:
        out.write(f"{result.note}\n")


GRAPH_VIEWS = ("full", "likely", "threshold", "around", "diff")
#: The most moves `graph --view around --depth` draws on each side of the position.
MAX_DEPTH = 50


def _position(text: str, rules) -> int:
    """A Jackpot position from the cells still open (``2579``, ``'2 5 7 9'``, ``2,5,7,9``),
    or START / WIN: ASCII only (Python's ``int`` and ``upper`` would also read other
    scripts' digits, and ``'ſtart'.upper()`` is ``'START'``).
    """
    from ..errors import InvalidArgumentError

    name = text.strip().upper() if text.isascii() else ""
    if name in ("START", "WIN"):
        return 0 if name == "START" else rules.full
    digits = "".join(name.replace(",", " ").split())
    cells = [int(c) for c in digits] if digits.isdigit() else None
    if not cells or len(set(cells)) != len(cells) or not all(1 <= c <= rules.cells for c in cells):
        raise InvalidArgumentError(
            f"--around {text!r}: expected the cells still open, each of 1 to {rules.cells} "
            "once (e.g. 2579 or '2 5 7 9'), or START or WIN"
        )
    return rules.full ^ sum(1 << (c - 1) for c in cells)


def _check_view_options(args) -> str:
    """The view asked for, after checking that its options go with it (before any work)."""
    from ..errors import InvalidArgumentError

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


def _graph(args, out):
    from .._files import check_output
    from ..analysis import likely_paths, neighbourhood, policy_diff, policy_view, reach_above
    from ..errors import InvalidArgumentError
    from ..renderers.dot import EXTENSIONS, policy_diff_dot, policy_dot
    from ..solve import evaluate, solve

    check_output(args.output, EXTENSIONS)  # fail before any work
    view = _check_view_options(args)
    graph, agents = _setup()
    if args.around is not None:
        around = graph.state_number(_position(args.around, graph.rules))
    solution = solve(graph, exact=True) if (view == "diff" or args.agent == "optimal") else None
    policy = _policy(graph, agents, args.agent, solution)
    win = evaluate(graph, policy, exact=True).start_value
    percent = f"{100 * float(win):.4f} %"
    if view == "diff":
        diagram = policy_diff_dot(graph, policy_diff(solution, policy, name=args.agent))
    else:
        drawn = policy_view(graph, policy, reach=True)
        selection = None
        if view == "likely":
            selection = likely_paths(drawn.chain, args.paths or 10)
        elif view == "threshold":
            selection = reach_above(drawn.chain, drawn.reach, args.min_reach or 0.02)
        elif view == "around":
            if drawn.reach.reach_probability[around] == 0:
                raise InvalidArgumentError(
                    f"--around {args.around}: {args.agent} never reaches that position"
                )
            selection = neighbourhood(drawn.chain, around, args.depth or 2)
        diagram = policy_dot(
            drawn,
            title=f"Jackpot: {args.agent} ({percent} wins)",
            style=args.style,
            weights=args.weights,
            show_reach=args.reach,
            selection=selection,
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
    from ..analysis import layer_summary

    if args.output:
        from .._files import check_output
        from ..renderers.figures import EXTENSIONS

        check_output(args.output, EXTENSIONS)  # fail before any work
    graph, agents = _setup()
    names = list(dict.fromkeys(args.agents))  # repeated names once, in order
    solution = None
    if "optimal" in names:
        from ..solve import solve

        solution = solve(graph, exact=True)
    summary = layer_summary(
        graph, {name: _policy(graph, agents, name, solution) for name in names}, exact=True
    )
    if args.output:
        from ..renderers.figures import layer_summary_figure, save

        save(layer_summary_figure(summary), args.output)
        out.write(f"wrote {args.output}\n")
    elif args.format == "json":
        out.write(json.dumps(summary.as_dict(), indent=2) + "\n")
    else:
        out.write(summary.table().to_text() + "\n")
