"""``gamegraph <game> explore -o page.html``: the whole game graph as one offline page.

Each game module registers the command with :func:`add_explore`; the page is
:func:`gamegraph.renderers.explorer.explore_figure` of
:func:`gamegraph.analysis.explore_graph` (see docs/explorer.md).
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import time

from .._progress import wanted
from ..errors import InvalidArgumentError, UnknownNameError
from ._common import add_quiet, decimal_number, integer, whole

GAMES = ("jackpot", "supersix", "ur")
#: Super Six's default size: 84 states, a page that reads at a glance.
SUPERSIX_PEGS = 8
#: Ur's piece counts on offer (3 pieces is 263,122 states).
UR_PIECES = (1, 2)
#: States kept by default for 2-piece Ur (12,870 states, over the explorer's limit): those
#: some policy reaches with at least this probability (expected visits).
UR2_MIN_REACH = 0.01
UR_AGENTS = ("greedy", "first", "last")
_UR_FIXED = ("first", "last", "greedy", "gain")


def add_explore(commands, game: str) -> None:
    """Register ``explore`` on a game's ``commands`` subparsers (``game``: one of GAMES)."""
    from ..analysis.explore import MAX_STATES

    if game not in GAMES:
        raise UnknownNameError("game", game, GAMES)
    parser = commands.add_parser(
        "explore",
        help="an interactive page of the whole game graph: hover a state for its reach, "
        "value and best move, click it for its successors, switch policy (offline .html)",
    )
    parser.add_argument("-o", "--output", required=True, help="the page to write (.html)")
    if game == "jackpot":
        from ..games.jackpot import AGENTS

        parser.add_argument(
            "--agents",
            default=",".join(AGENTS),
            help=f"comma-separated agents besides the optimum, from {', '.join(AGENTS)} "
            "(default all)",
        )
    elif game == "supersix":
        from ..games.supersix import RULESETS

        parser.add_argument(
            "--pegs",
            type=whole(2, "pegs"),
            default=SUPERSIX_PEGS,
            help=f"total pegs, split evenly (default {SUPERSIX_PEGS}; at most "
            f"{MAX_STATES:,} states are drawn: 42 pegs)",
        )
        parser.add_argument("--rules", choices=RULESETS, default="free", help="default free")
    else:
        from ..games.ur import RULESETS

        parser.add_argument(
            "--pieces",
            type=integer,  # digits 0-9; choices gives the one message for the rest
            choices=UR_PIECES,
            default=1,
            help=f"pieces per side (default 1; with 2, only states reached with at least "
            f"{UR2_MIN_REACH} are drawn unless --min-reach says otherwise)",
        )
        parser.add_argument("--rules", choices=RULESETS, default="finkel", help="default finkel")
        parser.add_argument(
            "--agents",
            default=",".join(UR_AGENTS),
            help=f"comma-separated agents besides the optimum, from {', '.join(_UR_FIXED)}, "
            f"expectimax-D (default {','.join(UR_AGENTS)})",
        )
    parser.add_argument(
        "--min-reach",
        type=_probability,
        default=None,
        help="draw only the states some policy reaches with at least this probability "
        f"(the explorer draws at most {MAX_STATES:,} states)",
    )
    add_quiet(parser)
    parser.set_defaults(run=functools.partial(_explore, game))


def _probability(text: str) -> float:
    value = decimal_number(text)  # ASCII digits only
    if value is None or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: accepted a number from 0 to 1")
    return value


def _names(text: str, accepted, pattern: str = "$^") -> list:
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in accepted and name != "optimal" and not re.fullmatch(pattern, name):
            raise UnknownNameError("agent", name, accepted)
    return [name for name in names if name != "optimal"]


def _jackpot(args):
    from ..build import build
    from ..games.jackpot import AGENTS, Jackpot

    graph = build(Jackpot())
    agents = {name: AGENTS[name] for name in _names(args.agents, tuple(AGENTS))}
    return graph, agents, "Jackpot"


def _supersix(args):
    from ..analysis.explore import MAX_STATES
    from ..build import build
    from ..games.supersix import SuperSix, count_states
    from ..games.supersix.state import CONTINUE, STOP

    if not args.min_reach and count_states(args.pegs) >= MAX_STATES:
        raise InvalidArgumentError(
            f"Super Six with {args.pegs} pegs has {count_states(args.pegs) + 1:,} states; the "
            f"explorer draws at most {MAX_STATES:,}: give --pegs 42 or fewer, or --min-reach"
        )
    graph = build(SuperSix(pegs=args.pegs, rules=args.rules))

    def prefer(move):
        def agent(state, options):
            return next((k for k, o in enumerate(options) if o.move == move), 0)

        return agent

    agents = {"always stop": prefer(STOP), "always roll": prefer(CONTINUE)}
    return graph, agents, f"Super Six ({args.rules} rules, {args.pegs} pegs)"


def _ur(args):
    from ..games.ur import Ur, rule_set
    from ..games.ur.agents import make_agent

    ruleset = rule_set(args.rules, args.pieces)
    names = _names(args.agents, (*_UR_FIXED, "expectimax-D"), r"expectimax-\d+")
    agents = {name: make_agent(name, ruleset=ruleset) for name in names}
    graph = Ur(ruleset).build_graph()
    pieces = "1 piece" if args.pieces == 1 else f"{args.pieces} pieces"
    return graph, agents, f"Royal Game of Ur ({args.rules} rules, {pieces})"


def _explore(game, args, out):
    from .._files import check_output
    from ..analysis.explore import explore_graph
    from ..renderers.explorer import explore_figure
    from ..renderers.interactive import EXTENSIONS

    check_output(args.output, EXTENSIONS[:1])  # fail before any work
    started = time.perf_counter()
    graph, agents, title = {"jackpot": _jackpot, "supersix": _supersix, "ur": _ur}[game](args)
    min_reach = args.min_reach
    if min_reach is None:
        min_reach = UR2_MIN_REACH if game == "ur" and args.pieces == 2 else 0.0
    try:
        data = explore_graph(graph, None, agents, min_reach=min_reach, progress=args.progress)
    except InvalidArgumentError as error:
        raise InvalidArgumentError(str(error).replace("min_reach", "--min-reach")) from None
    if data.n_states > 1000 and wanted(args.progress):
        # One blocking call with no steps to count: say what is happening instead.
        sys.stderr.write(f"laying out {data.n_states:,} states with Graphviz dot ...\n")
    explore_figure(data, title=title).save(args.output)
    seconds = time.perf_counter() - started
    kept = ""
    if data.n_states < data.total_states:
        kept = f" of {data.total_states:,} (reach >= {data.min_reach:g})"
    out.write(
        f"wrote {args.output}: {data.n_states:,} states{kept}, {data.n_edges:,} edges, "
        f"policies {', '.join(data.policies)} ({seconds:.1f} s)\n"
    )
