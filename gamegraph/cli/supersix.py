"""``gamegraph supersix ...``: solve, strategy strings, interactive and static maps."""

from __future__ import annotations

import json
import sys

from ._common import FORMATS, Parser, add_quiet, add_width, whole
from .report import add_report_command

#: The default page's largest total: 130 pegs (48,396 positions), a 14 MB page written in
#: about 3 s (docs/games/supersix.md, The interactive page).
HEATMAP_DEFAULT_HIGH = 130
#: The most pegs `supersix lp` takes: HiGHS's time grows with about the square of the
#: positions, 34 s at 40 pegs here (benchmarks/bench_memory.py), so 100 pegs would take
#: half an hour.
LP_MAX_PEGS = 40
LP_SECONDS_AT_MAX = 34


def add_commands(subparsers) -> None:
    """Register the supersix subcommands on the top-level ``GAME`` subparsers."""
    from ..games.supersix import RULESETS

    game = subparsers.add_parser("supersix", help="Super Six (two players, five sockets and a pit)")
    commands = game.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    from .explore import add_explore

    add_explore(commands, "supersix")
    add_report_command(commands, "supersix")

    def size_options(parser):
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

    solve = commands.add_parser(
        "solve",
        help="optimal play: start win probability, decisions, strategy (a summary; "
        "--full or -o FILE.json for every position)",
    )
    size_options(solve)
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

    strategy = commands.add_parser("strategy", help="the optimal strategy in the paper's notation")
    strategy.add_argument(
        "--sticks", type=whole(4, "sticks"), required=True, help="pegs in play (4 or more)"
    )
    strategy.set_defaults(run=_strategy)

    heatmap = commands.add_parser(
        "heatmap", help="interactive roll/stop maps (one offline HTML page, plotly)"
    )
    size_options(heatmap)
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
    size_options(figure)
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

    lp = commands.add_parser(
        "lp",
        help="the blog's LP relaxation: where it fails, and by how much "
        f"(up to {LP_MAX_PEGS} pegs)",
    )
    size_options(lp)
    lp.add_argument(
        "-o",
        "--output",
        default=None,
        help="also draw the relative error per position (.png, .svg or .pdf)",
    )
    add_quiet(lp)
    lp.set_defaults(run=_lp)


def _rules(args):
    from ..games.supersix import SuperSix

    if args.hands is not None:
        if args.pegs is not None:
            from ..errors import InvalidArgumentError

            raise InvalidArgumentError("give --pegs or --hands, not both")
        return SuperSix(hands=tuple(args.hands), rules=args.rules)
    pegs = 40 if args.pegs is None else args.pegs
    if pegs % 2 and pegs >= 3:  # as the page's slider: the first player holds the odd peg
        return SuperSix(hands=(pegs - pegs // 2, pegs // 2), rules=args.rules)
    return SuperSix(pegs=pegs, rules=args.rules)


def _rows_json(payload: dict, rows: str) -> str:
    """JSON with one line per row of ``payload[rows]`` (greppable, diffable), the rest
    indented as usual.

    >>> print(_rows_json({"pegs": 4, "strategy": [{"b": 0}, {"b": 1}]}, "strategy"))
    {
      "pegs": 4,
      "strategy": [
        {"b": 0},
        {"b": 1}
      ]
    }
    """
    head = json.dumps({k: v for k, v in payload.items() if k != rows}, indent=2)[:-2]
    lines = ",\n".join("    " + json.dumps(row) for row in payload[rows])
    return f'{head},\n  "{rows}": [\n{lines}\n  ]\n}}\n'


def _solve(args, out):
    from .._tables import shown_integer
    from ..games.supersix.analysis import solve_game

    if args.output is not None:
        from .._files import check_output

        check_output(args.output, (".json",))  # fail before any work
    rules = _rules(args)
    if args.exact and rules.pegs > 24 and sys.stderr.isatty() and args.progress is not False:
        sys.stderr.write(f"solving {rules.pegs} pegs exactly; this takes a while ...\n")
    result = solve_game(rules, exact=args.exact, progress=args.progress)
    if args.output is not None:
        from .._files import write_atomic

        write_atomic(args.output, _rows_json(result.as_dict(full=True), "strategy"))
    if args.format == "json":
        payload = result.as_dict()
        if args.output is not None:
            payload["output"] = str(args.output)
        out.write(json.dumps(payload, indent=2) + "\n")
        return
    start = result.start_value
    first, second = rules.hands
    out.write(
        f"Super Six, {first} + {second} pegs, {rules.rules} rules: "
        f"{result.positions:,} positions solved in {result.seconds:.2f} s "
        f"(residual {result.solution.residual:.1e})\n"
    )
    shown = (
        f"{shown_integer(start.numerator)}/{shown_integer(start.denominator)} = {float(start):.12f}"
        if args.exact
        else f"{float(start):.12f}"
    )
    out.write(f"the first player wins with probability {shown}\n")
    if args.full:
        out.write("\n")
        _grids(result.table, rules.pegs, out)
    else:
        out.write(
            f"decisions: roll again at {result.rolls:,} positions, stop at {result.stops:,}\n"
        )
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


def _grids(table, total, out):
    """The decisions as text: one grid per pegs on the lid (R: roll again, .: stop)."""
    out.write(
        "decisions (R: roll again, .: stop), one grid per pegs on the lid;\n"
        "columns: your pegs 1, 2, ...; rows: opponent's pegs, most at the top\n"
    )
    decided = {
        (int(b), int(c), int(o)): bool(r)
        for b, c, o, r in zip(table.b, table.c, table.o, table.roll)
    }
    for lid in range(6):
        size = total - lid - 1
        if size < 1:
            continue
        out.write(f"\n{lid} on the lid\n")
        for theirs in range(size, 0, -1):
            cells = "".join(
                "R"
                if decided.get((lid, mine, theirs))
                else ("." if (lid, mine, theirs) in decided else " ")
                for mine in range(1, size + 1)
            )
            out.write(f"{theirs:>4} {cells.rstrip()}\n")


def _strategy(args, out):
    from ..build import build
    from ..games.supersix import SuperSix, decision_table, strategy_string
    from ..solve import solve

    sticks = args.sticks
    rules = SuperSix(hands=(sticks - sticks // 2, sticks // 2))
    table = decision_table(solve(build(rules), exact=sticks <= 20))
    out.write(strategy_string(table, sticks) + "\n")


def _heatmap(args, out):
    from .._files import check_output
    from ..build import build
    from ..errors import InvalidArgumentError
    from ..games.supersix import RULESETS, SuperSix, decision_table
    from ..games.supersix.analysis import start_values, throw_values
    from ..renderers.heatmap import figure
    from ..solve import solve

    check_output(args.output, (".html", ".htm"))
    rules = _rules(args)
    low, high = args.range if args.range else (4, max(rules.pegs, HEATMAP_DEFAULT_HIGH))
    if low > high or not low <= rules.pegs <= high:
        raise InvalidArgumentError(
            f"--range {low} {high} must contain the total pegs {rules.pegs} (LOW <= HIGH)"
        )
    table = decision_table(solve(build(SuperSix(hands=(high - high // 2, high // 2)))))
    totals = range(low, high + 1)
    figure(
        table,
        pegs=rules.pegs,
        pegs_range=(low, high),
        start_values={name: start_values(table, totals, name) for name in RULESETS},
        rules_name=rules.rules,
        after_throws=throw_values(table),
    ).save(args.output)
    out.write(f"wrote {args.output}\n")


def _map(args, out):
    from .._files import check_output
    from ..build import build
    from ..games.supersix import decision_table
    from ..renderers.figures import EXTENSIONS
    from ..renderers.supersix_maps import supersix_maps
    from ..solve import solve

    check_output(args.output, EXTENSIONS)
    rules = _rules(args)
    table = decision_table(solve(build(rules)))
    figure = supersix_maps(
        table,
        total=rules.pegs,
        metric=args.metric,
        title=f"Super Six, {rules.pegs} pegs ({rules.rules} rules): {args.metric}",
    )
    if args.width is not None:
        figure.at_width(args.width)
    figure.save(args.output)
    out.write(f"wrote {args.output}\n")


def _check_lp_size(rules):
    """Refuse an LP past :data:`LP_MAX_PEGS`, saying roughly how long it would take."""
    from ..errors import InvalidArgumentError
    from ..games.supersix import count_states

    if rules.pegs <= LP_MAX_PEGS:
        return
    ratio = count_states(rules.pegs) / count_states(LP_MAX_PEGS)
    minutes = LP_SECONDS_AT_MAX * ratio**2 / 60
    raise InvalidArgumentError(
        f"supersix lp takes up to {LP_MAX_PEGS} pegs (about {LP_SECONDS_AT_MAX} s); "
        f"{rules.pegs} pegs would take roughly {minutes:,.0f} minutes"
    )


def _lp(args, out):
    from ..build import build
    from ..games.supersix import by_position
    from ..mathprog import lp_relaxation

    if args.output is not None:
        from .._files import check_output
        from ..renderers.figures import EXTENSIONS

        check_output(args.output, EXTENSIONS)
    rules = _rules(args)
    _check_lp_size(rules)
    graph = build(rules, progress=args.progress)
    relaxation = lp_relaxation(graph)
    b, c, o, error = by_position(graph, relaxation.outcomes, relaxation.relative_error)
    worst = int(error.argmax())
    wrong = error > 1e-6
    out.write(
        f"LP relaxation of Super Six, {rules.pegs} pegs ({rules.rules} rules), "
        f"solved in {relaxation.seconds:.2f} s\n"
        f"largest relative error of P_choice: {error[worst]:.4%} at "
        f"{b[worst]}/{c[worst]}/{o[worst]}\n"
        f"positions off by more than 1e-6: {int(wrong.sum())} of {len(error)}; "
        f"by pegs on the lid: {[int((wrong & (b == lid)).sum()) for lid in range(6)]}\n"
    )
    if args.output is not None:
        from ..renderers.supersix_maps import relative_error_maps

        relative_error_maps(
            b,
            c,
            o,
            error,
            total=rules.pegs,
            title=f"LP relaxation, {rules.pegs} pegs: relative error of P_choice (blank: exact)",
        ).save(args.output)
        out.write(f"wrote {args.output}\n")
