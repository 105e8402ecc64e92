"""``gamegraph supersix ...``: solve, strategy strings, interactive and static maps."""

from __future__ import annotations

import json
import sys
import time

from ._common import FORMATS, Parser, whole

HEATMAP_DEFAULT_HIGH = 60


def add_commands(subparsers) -> None:
    """Register the supersix subcommands on the top-level ``GAME`` subparsers."""
    from ..games.supersix import RULESETS

    game = subparsers.add_parser("supersix", help="Super Six (two players, five sockets and a pit)")
    commands = game.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )

    def size_options(parser):
        parser.add_argument(
            "--pegs",
            type=whole(-(10**9), "pegs"),
            default=None,
            help="total pegs, split evenly (default 40)",
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
        "solve", help="optimal play: start win probability, decisions, strategy"
    )
    size_options(solve)
    solve.add_argument("--exact", action="store_true", help="exact fractions (slower)")
    solve.add_argument("--format", choices=FORMATS, default="text")
    solve.set_defaults(run=_solve)

    strategy = commands.add_parser("strategy", help="the optimal strategy in the paper's notation")
    strategy.add_argument(
        "--sticks", type=whole(4, "sticks"), required=True, help="pegs in play (4 or more)"
    )
    strategy.set_defaults(run=_strategy)

    heatmap = commands.add_parser("heatmap", help="interactive roll/stop maps (one HTML page)")
    size_options(heatmap)
    heatmap.add_argument(
        "--range",
        type=whole(4, "pegs"),
        nargs=2,
        metavar=("LOW", "HIGH"),
        default=None,
        help=f"totals on the slider (default 4 to max(pegs, {HEATMAP_DEFAULT_HIGH}))",
    )
    heatmap.add_argument("-o", "--output", required=True, help="the page to write (.html)")
    heatmap.set_defaults(run=_heatmap)

    figure = commands.add_parser("map", help="static roll/stop maps for reports (PNG, SVG, PDF)")
    size_options(figure)
    figure.add_argument("--metric", choices=("decision", "choice", "margin"), default="decision")
    figure.add_argument("-o", "--output", required=True, help="the figure (.png, .svg or .pdf)")
    figure.set_defaults(run=_map)

    lp = commands.add_parser("lp", help="the blog's LP relaxation: where it fails, and by how much")
    size_options(lp)
    lp.add_argument(
        "-o",
        "--output",
        default=None,
        help="also draw the relative error per position (.png, .svg or .pdf)",
    )
    lp.set_defaults(run=_lp)


def _rules(args):
    from ..games.supersix import SuperSix

    if args.hands is not None:
        if args.pegs is not None:
            from ..errors import InvalidArgumentError

            raise InvalidArgumentError("give --pegs or --hands, not both")
        return SuperSix(hands=tuple(args.hands), rules=args.rules)
    return SuperSix(pegs=40 if args.pegs is None else args.pegs, rules=args.rules)


def _number(value, exact):
    return f"{value.numerator}/{value.denominator}" if exact else float(value)


def _solve(args, out):
    from ..build import build
    from ..games.supersix import decision_table, strategy_string
    from ..solve import solve

    rules = _rules(args)
    started = time.perf_counter()
    if args.exact and rules.pegs > 24 and sys.stderr.isatty():
        sys.stderr.write(f"solving {rules.pegs} pegs exactly; this takes a while ...\n")
    graph = build(rules)
    solution = solve(graph, exact=args.exact)
    seconds = time.perf_counter() - started
    table = decision_table(solution)
    total = rules.pegs
    strategy = strategy_string(table, total) if total >= 4 else None
    if args.format == "json":
        rows = [
            {
                "b": int(b),
                "c": int(c),
                "o": int(o),
                "p_roll": _number(r, args.exact),
                "p_end": _number(e, args.exact),
                "roll": bool(d),
            }
            for b, c, o, r, e, d in zip(
                table.b, table.c, table.o, table.p_roll, table.p_end, table.roll
            )
        ]
        payload = {
            "game": "supersix",
            "rules": rules.rules,
            "hands": list(rules.hands),
            "pegs": total,
            "states": graph.n_states - 1,
            "start": _number(solution.start_value, args.exact),
            "strategy_string": strategy,
            "residual": solution.residual,
            "seconds": seconds,
            "strategy": rows,
        }
        out.write(json.dumps(payload) + "\n")
        return
    start = solution.start_value
    first, second = rules.hands
    out.write(
        f"Super Six, {first} + {second} pegs, {rules.rules} rules: "
        f"{graph.n_states - 1:,} positions solved in {seconds:.2f} s "
        f"(residual {solution.residual:.1e})\n"
    )
    shown = (
        f"{start.numerator}/{start.denominator} = {float(start):.12f}"
        if args.exact
        else f"{float(start):.12f}"
    )
    out.write(f"the first player wins with probability {shown}\n\n")
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
    if strategy:
        out.write(f"\nstrategy at {total} pegs in play (paper notation): {strategy}\n")


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
    from ..analysis.supersix import start_values
    from ..build import build
    from ..errors import InvalidArgumentError
    from ..games.supersix import SuperSix, decision_table
    from ..renderers.heatmap import page, write_page
    from ..solve import solve

    check_output(args.output, (".html", ".htm"))
    rules = _rules(args)
    low, high = args.range if args.range else (4, max(rules.pegs, HEATMAP_DEFAULT_HIGH))
    if low > high or not low <= rules.pegs <= high:
        raise InvalidArgumentError(
            f"--range {low} {high} must contain the total pegs {rules.pegs} (LOW <= HIGH)"
        )
    table = decision_table(solve(build(SuperSix(hands=(high - high // 2, high // 2)))))
    starts = start_values(table, range(low, high + 1), rules.rules)
    write_page(
        args.output,
        page(
            table,
            pegs=rules.pegs,
            pegs_range=(low, high),
            start_values=starts,
            rules_name=rules.rules,
        ),
    )
    out.write(f"wrote {args.output}\n")


def _map(args, out):
    from .._files import check_output
    from ..build import build
    from ..games.supersix import decision_table
    from ..renderers.figures import EXTENSIONS, save, supersix_maps
    from ..solve import solve

    check_output(args.output, EXTENSIONS)
    rules = _rules(args)
    table = decision_table(solve(build(rules)))
    save(
        supersix_maps(
            table,
            total=rules.pegs,
            metric=args.metric,
            title=f"Super Six, {rules.pegs} pegs ({rules.rules} rules): {args.metric}",
        ),
        args.output,
    )
    out.write(f"wrote {args.output}\n")


def _lp(args, out):
    from ..build import build
    from ..games.supersix import by_position
    from ..mathprog import lp_relaxation

    if args.output:
        from .._files import check_output
        from ..renderers.figures import EXTENSIONS

        check_output(args.output, EXTENSIONS)
    rules = _rules(args)
    graph = build(rules)
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
    if args.output:
        from ..renderers.figures import relative_error_maps, save

        save(
            relative_error_maps(
                b,
                c,
                o,
                error,
                total=rules.pegs,
                title=f"LP relaxation, {rules.pegs} pegs: relative error of "
                "P_choice (blank: exact)",
            ),
            args.output,
        )
        out.write(f"wrote {args.output}\n")
