"""``gamegraph supersix ...``: solve, strategy strings, interactive and static maps.

The work is :mod:`gamegraph.games.supersix.analysis`'s and
:mod:`~gamegraph.games.supersix.relaxation`'s; this module reads the arguments and
prints their results.
"""

from __future__ import annotations

import sys

from ..errors import InvalidArgumentError
from ._common import FORMATS, Parser, add_quiet, add_width, finite_json, whole
from .report import add_report_command

#: The default page's largest total: 130 pegs (48,396 positions), a 14 MB page written in
#: about 3 s (docs/games/supersix.md, The interactive page).
HEATMAP_DEFAULT_HIGH = 130
#: The most pegs `supersix lp` takes (:data:`gamegraph.games.supersix.relaxation.LP_MAX_PEGS`,
#: without importing numpy here).
LP_MAX_PEGS = 40
#: The rule sets (:data:`gamegraph.games.supersix.RULESETS`; the package would load numpy
#: before the arguments are read, and an argument error would wait for it).
RULESETS = ("free", "first-round")
#: The top-level command this module registers, with its line in ``gamegraph --help``.
COMMANDS = {"supersix": "Super Six (two players, five sockets and a pit)"}


def add_commands(subparsers) -> None:
    """Register the supersix subcommands on the top-level ``GAME`` subparsers."""
    from .explore import add_explore

    game = subparsers.add_parser("supersix", help=COMMANDS["supersix"])
    commands = game.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    add_explore(commands, "supersix")
    add_report_command(commands, "supersix")
    _add_solve(commands)

    strategy = commands.add_parser("strategy", help="the optimal strategy in the paper's notation")
    strategy.add_argument(
        "--sticks", type=whole(4, "sticks"), required=True, help="pegs in play (4 or more)"
    )
    strategy.set_defaults(run=_strategy)
    _add_maps(commands)

    lp = commands.add_parser(
        "lp",
        help="the blog's LP relaxation: where it fails, and by how much "
        f"(up to {LP_MAX_PEGS} pegs)",
    )
    _size_options(lp)
    lp.add_argument(
        "-o",
        "--output",
        default=None,
        help="also draw the relative error per position (.png, .svg or .pdf)",
    )
    add_quiet(lp)
    lp.set_defaults(run=_lp)


def _size_options(parser) -> None:
    """--pegs, --hands and --rules, without importing the game.

    >>> from gamegraph.games.supersix import RULESETS as rule_sets, relaxation
    >>> RULESETS == rule_sets and LP_MAX_PEGS == relaxation.LP_MAX_PEGS
    True
    """
    parser.add_argument(
        "--pegs",
        type=whole(-(10**9), "pegs"),
        default=None,
        help="total pegs, split evenly; an odd total gives the first player "
        "the extra peg (default 40)",
    )
    parser.add_argument(
        "--hands",
        type=whole(-(10**9), "pegs"),
        nargs=2,
        metavar=("FIRST", "SECOND"),
        help="explicit pegs of the first and second player instead of --pegs",
    )
    parser.add_argument(
        "--rules",
        choices=RULESETS,
        default="free",
        help="free: every turn may go on (the blog); first-round: one throw "
        "each in the first round (the published analyses)",
    )


def _add_solve(commands) -> None:
    solve = commands.add_parser(
        "solve",
        help="optimal play: start win probability, decisions, strategy (a summary; "
        "--full or -o FILE.json for every position)",
    )
    _size_options(solve)
    solve.add_argument("--exact", action="store_true", help="exact fractions (slower)")
    solve.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text, or json: the summary as indented JSON (default text)",
    )
    solve.add_argument(
        "--full",
        action="store_true",
        help="also print the roll/stop decision of every position, one grid per pegs on the lid",
    )
    solve.add_argument(
        "-o",
        "--output",
        default=None,
        help="write every position's P_roll, P_end and decision to this JSON file (.json)",
    )
    add_quiet(solve)
    solve.set_defaults(run=_solve)


def _add_maps(commands) -> None:
    heatmap = commands.add_parser(
        "heatmap", help="interactive roll/stop maps (one offline HTML page, plotly)"
    )
    _size_options(heatmap)
    heatmap.add_argument(
        "--range",
        type=whole(4, "pegs"),
        nargs=2,
        metavar=("LOW", "HIGH"),
        default=None,
        help="totals on the slider, which moves one peg at a time; both rule sets are "
        f"on the page, --rules is shown first (default 4 to max(pegs, {HEATMAP_DEFAULT_HIGH}))",
    )
    heatmap.add_argument("-o", "--output", required=True, help="the page to write (.html)")
    heatmap.set_defaults(run=_heatmap)

    figure = commands.add_parser("map", help="static roll/stop maps for reports (PNG, SVG, PDF)")
    _size_options(figure)
    figure.add_argument(
        "--metric",
        choices=("decision", "choice", "margin"),
        default="decision",
        help="decision: roll or stop; choice: the mover's win probability P_choice; "
        "margin: P_roll - P_end (default decision)",
    )
    figure.add_argument("-o", "--output", required=True, help="the figure (.png, .svg or .pdf)")
    add_width(figure, "the maps")
    figure.set_defaults(run=_map)


def _rules(args):
    from ..games.supersix import SuperSix
    from ..games.supersix.analysis import game_of_size

    if args.hands is not None:
        if args.pegs is not None:
            raise InvalidArgumentError("give --pegs or --hands, not both")
        return SuperSix(hands=tuple(args.hands), rules=args.rules)
    return game_of_size(40 if args.pegs is None else args.pegs, args.rules)


def _rows_json(payload: dict, rows: str, lines: list | None = None) -> str:
    """JSON with one line per row of ``payload[rows]`` (greppable, diffable), the rest
    indented as usual; NaN refused. ``lines``: the rows already written as JSON, one
    string each, instead of ``payload[rows]``.

    >>> print(_rows_json({"pegs": 4, "strategy": [{"b": 0}, {"b": 1}]}, "strategy"))
    {
      "pegs": 4,
      "strategy": [
        {"b": 0},
        {"b": 1}
      ]
    }
    """
    head = finite_json({k: v for k, v in payload.items() if k != rows}, indent=2)[:-2]
    if lines is None:
        lines = [finite_json(row) for row in payload[rows]]
    body = ",\n".join("    " + line for line in lines)
    return f'{head},\n  "{rows}": [\n{body}\n  ]\n}}\n'


def _solve(args, out):
    if args.output is not None:
        from .._files import check_output

        check_output(args.output, (".json",))  # fail before any work
    from ..games.supersix.analysis import solve_game

    rules = _rules(args)
    if args.exact and rules.pegs > 24 and sys.stderr.isatty() and args.progress is not False:
        sys.stderr.write(f"solving {rules.pegs} pegs exactly; this takes a while ...\n")
    result = solve_game(rules, exact=args.exact, progress=args.progress)
    if args.output is not None:
        from .._files import write_atomic

        write_atomic(args.output, _rows_json(result.as_dict(), "strategy", result.json_rows()))
    if args.format == "json":
        payload = result.as_dict()
        if args.output is not None:
            payload["output"] = str(args.output)
        out.write(finite_json(payload, indent=2) + "\n")
        return
    out.write(result.to_text(full=args.full))
    strategy = result.strategy
    if strategy:
        shown = strategy if args.full else result.short_strategy()
        out.write(
            ("\n" if args.full else "")
            + f"strategy at {rules.pegs} pegs in play (paper notation): {shown}\n"
        )
        if shown != strategy:
            out.write(
                f"(cut short: the string has {len(strategy):,} characters; --full prints it)\n"
            )
    if args.output is not None:
        out.write(f"wrote {args.output}\n")
    elif not args.full:
        out.write("(--full prints every decision; -o FILE.json writes every position's values)\n")


def _strategy(args, out):
    from ..games.supersix.analysis import optimal_strategy

    out.write(optimal_strategy(args.sticks) + "\n")


def _heatmap(args, out):
    from .._files import check_output
    from ..renderers.heatmap import figure

    check_output(args.output, (".html", ".htm"))
    from ..games.supersix.analysis import slider_values

    rules = _rules(args)
    low, high = args.range if args.range else (4, max(rules.pegs, HEATMAP_DEFAULT_HIGH))
    if low > high or not low <= rules.pegs <= high:
        raise InvalidArgumentError(
            f"--range {low} {high} must contain the total pegs {rules.pegs} (LOW <= HIGH)"
        )
    values = slider_values(low, high)
    figure(
        values.table,
        pegs=rules.pegs,
        pegs_range=(low, high),
        start_values=values.start_values,
        rules_name=rules.rules,
        after_throws=values.after_throws,
    ).save(args.output)
    out.write(f"wrote {args.output}\n")


def _map(args, out):
    from .._files import check_output
    from ..renderers.figures import EXTENSIONS
    from ..renderers.supersix_maps import supersix_maps

    check_output(args.output, EXTENSIONS)
    from ..games.supersix.analysis import solve_game

    rules = _rules(args)
    figure = supersix_maps(
        solve_game(rules).table,
        total=rules.pegs,
        metric=args.metric,
        title=f"Super Six, {rules.pegs} pegs ({rules.rules} rules): {args.metric}",
    )
    if args.width is not None:
        figure.at_width(args.width)
    figure.save(args.output)
    out.write(f"wrote {args.output}\n")


def _lp(args, out):
    if args.output is not None:
        from .._files import check_output
        from ..renderers.figures import EXTENSIONS

        check_output(args.output, EXTENSIONS)
    from ..games.supersix.relaxation import relaxation_errors

    rules = _rules(args)
    result = relaxation_errors(rules, progress=args.progress)
    out.write(result.to_text())
    if args.output is not None:
        from ..renderers.supersix_maps import relative_error_maps

        relative_error_maps(
            result.b,
            result.c,
            result.o,
            result.error,
            total=rules.pegs,
            title=f"LP relaxation, {rules.pegs} pegs: relative error of P_choice (blank: exact)",
        ).save(args.output)
        out.write(f"wrote {args.output}\n")
