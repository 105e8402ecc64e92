"""``gamegraph jackpot ...``: exact agent values, Monte Carlo, and the game graph drawn."""

from __future__ import annotations

import json

from .._checks import MAX_GAMES
from ._common import FORMATS, Parser, add_seed, games, progress_printer


def add_commands(subparsers) -> None:
    """Register the jackpot subcommands on the top-level ``GAME`` subparsers."""
    from ..games.jackpot import AGENTS
    from ..renderers.dot import EXTENSIONS, STYLES, WEIGHTS

    jackpot = subparsers.add_parser("jackpot", help="the Jackpot dice game (one player, 9 cells)")
    commands = jackpot.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
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
    simulate.set_defaults(run=_simulate)

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
    graph.set_defaults(run=_graph)


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
    from ..simulate import simulate
    from ..solve import evaluate

    graph, agents = _setup()
    policy = _policy(graph, agents, args.agent)
    progress = progress_printer() if args.games >= 20_000_000 else None
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


def _graph(args, out):
    from .._files import check_output
    from ..analysis import policy_view
    from ..renderers.dot import EXTENSIONS, policy_dot, write
    from ..solve import evaluate, solve

    check_output(args.output, EXTENSIONS)  # fail before any work
    graph, agents = _setup()
    solution = solve(graph, exact=True) if (args.diff or args.agent == "optimal") else None
    policy = _policy(graph, agents, args.agent, solution)
    win = evaluate(graph, policy, exact=True).start_value
    title = f"Jackpot: {args.agent} ({100 * float(win):.4f} % wins)"
    view = policy_view(graph, policy, reach=args.reach, optimal=solution if args.diff else None)
    source = policy_dot(view, title=title, style=args.style, weights=args.weights)
    write(source, args.output)
    out.write(f"wrote {args.output}\n")
