"""``gamegraph <game> explore -o page.html``: a game graph of any size as one offline page.

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
from ..errors import UnknownNameError
from ._common import add_quiet, decimal_number, integer, whole

GAMES = ("jackpot", "supersix", "ur")
#: Super Six's default size: 84 states, a page that reads at a glance.
SUPERSIX_PEGS = 8
#: Super Six's rule sets (:data:`gamegraph.games.supersix.RULESETS`: the package would load
#: numpy before the arguments are read, and an argument error would wait for it).
SUPERSIX_RULESETS = ("free", "first-round")
#: Ur's piece counts on offer (3 pieces: 263,122 states, a page of about 20 MB).
UR_PIECES = (1, 2, 3)
UR_AGENTS = ("greedy", "first", "last")
_UR_FIXED = ("first", "last", "greedy", "gain")


def add_explore(commands, game: str) -> None:
    """Register ``explore`` on a game's ``commands`` subparsers (``game``: one of GAMES).

    >>> from gamegraph.games.supersix import RULESETS
    >>> SUPERSIX_RULESETS == RULESETS
    True
    """
    if game not in GAMES:
        raise UnknownNameError("game", game, GAMES)
    parser = commands.add_parser(
        "explore",
        help="an interactive page of the game graph, any size: an overview of its groups "
        "of states, views of the likely states, a group or a neighbourhood, details of each "
        "state on click, search, policies side by side (offline .html)",
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
        parser.add_argument(
            "--pegs",
            type=whole(2, "pegs"),
            default=SUPERSIX_PEGS,
            help=f"total pegs, split evenly (default {SUPERSIX_PEGS}; 130 pegs is 48,396 states)",
        )
        parser.add_argument(
            "--rules", choices=SUPERSIX_RULESETS, default="free", help="default free"
        )
    else:
        from ..games.ur import RULESETS

        parser.add_argument(
            "--pieces",
            type=integer,  # digits 0-9; choices gives the one message for the rest
            choices=UR_PIECES,
            default=1,
            help="pieces per side (default 1; 3 pieces is 263,122 states)",
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
        help="hold in detail only the states some policy reaches with at least this "
        "probability (a smaller page; the overview still counts every state)",
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
    from ..games.supersix import SuperSix
    from ..games.supersix.analysis import fixed_policies

    graph = SuperSix(pegs=args.pegs, rules=args.rules).build_graph()
    return graph, fixed_policies(graph), f"Super Six ({args.rules} rules, {args.pegs} pegs)"


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
    if graph.n_states > 20_000 and wanted(args.progress):
        # Steps without a bar of their own: say what is happening instead.
        sys.stderr.write(f"exploring {graph.n_states:,} states: solve, reach, layout ...\n")
    data = explore_graph(
        graph, None, agents, min_reach=args.min_reach or 0.0, progress=args.progress
    )
    explore_figure(data, title=title).save(args.output)
    seconds = time.perf_counter() - started
    kept = ""
    if data.n_states < data.total_states:
        kept = f" ({data.n_states:,} of them in detail)"
    out.write(
        f"wrote {args.output}: {data.total_states:,} states{kept} in "
        f"{len(data.group_names)} groups, policies {', '.join(data.policies)} ({seconds:.1f} s)\n"
    )
