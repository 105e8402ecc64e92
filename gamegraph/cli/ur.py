"""``gamegraph ur ...``: count positions, solve every position, query a solved table.

The arguments are read and the results printed here; the work is the library's
(:mod:`gamegraph.games.ur.solving`, ``.advice``, ``.tournament``, ``.optimum_duel``).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import InvalidArgumentError
from ._common import FORMATS, Parser, add_quiet, add_seed, add_width, finite_json, integer, whole
from ._common import games as games_count
from .report import add_report_command

#: The top-level command registered here, with its line in ``gamegraph --help``.
COMMANDS = {"ur": "the Royal Game of Ur (finkel, masters, blitz, aseb rules)"}


def _arg(*flags, **kwargs) -> tuple:
    """One argument of a command's table: what ``parser.add_argument`` takes."""
    return flags, kwargs


def _pieces(text):
    from ..games.ur import MAX_PIECES, check_pieces
    from ._common import whole_number

    try:
        return check_pieces(whole_number(text))
    except InvalidArgumentError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: accepted whole numbers 1 to {MAX_PIECES} (digits 0-9)"
        ) from None


def _size(text):
    from .._memory import parse_size

    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# fmt: off
# The commands' arguments read best as tables, one argument to a line or two.
def _commands():
    """``(name, help, run, arguments)`` of each command; an argument is an :func:`_arg` or a
    function that adds arguments to the parser.
    """
    from ..games.ur import MAX_PIECES, RULESETS
    from ..games.ur.defaults import DEFAULT_AGENTS, EXACT_MAX_PIECES, SOLVE_PIECES, SOLVERS

    rules = _arg("--rules", choices=RULESETS, default="finkel", help="rule set (default finkel)")
    def pieces(default=SOLVE_PIECES):  # what a command solves
        return _arg("--pieces", type=_pieces, default=None,
                    help=f"pieces per side, 1 to {MAX_PIECES} (default: {default})")
    matched = [  # what a command solves, or what its --table must hold
        _arg("--rules", choices=RULESETS, default=None,
             help="rule set (default finkel; with --table, the table's, which it must match)"),
        _arg("--pieces", type=_pieces, default=None,
             help=f"pieces per side (default {SOLVE_PIECES}; with --table, the table's)")]
    check = _arg("--check", choices=("full", "quick"),  # rank_table.CHECKS, not loaded here
                 default="full", help="how a .npy --table is checked when opened: full (default: "
                 "every value, its digest and range; about a second at 7 pieces) or quick (the "
                 "header, the size and a sample of values; every value read is still checked)")
    def values(required=True):  # where the win probabilities come from
        def source(parser):
            group = parser.add_mutually_exclusive_group(required=required)
            group.add_argument("--table", metavar="FILE",
                               help="a table written by `ur solve --save`")
            group.add_argument("--solve", action="store_true",
                               help=f"solve the rules first (--pieces, default {SOLVE_PIECES})")
        return [source, *matched, check]
    position = _arg("position", help="the mover's squares '/' the opponent's, each side with an "
                    "optional '+borne off', e.g. '4,13+2/6+1'")
    fmt = _arg("--format", choices=FORMATS, default="text")
    agents = ",".join(DEFAULT_AGENTS)
    return [
        ("count", "how many positions the game has", _count,
         [rules, pieces("the rule set's own, 7 or 5"), fmt]),
        ("solve", "win probability of every position under optimal play", _solve, [
            rules, pieces(),
            _arg("--exact", action="store_true",
                 help=f"exact fractions (up to {EXACT_MAX_PIECES} piece)"),
            _arg("--save", metavar="FILE", default=None,
                 help="write the solved table to FILE (query it with `ur value`, `ur moves`): "
                 ".urtable (the explicit graph's codes and values) or .npy (values by rank, "
                 "memory-mapped; the block solver writes it as it goes and resumes an "
                 "unfinished one)"),
            _arg("--solver", choices=SOLVERS, default="auto",
                 help="graph: build the explicit graph and solve it (up to about 4 pieces); "
                 "blocks: the block solver (no graph; 7 pieces in about 2 GiB); auto (default): "
                 "blocks with --save FILE.npy, else graph"),
            _arg("--memory", metavar="SIZE", type=_size, default=None,
                 help="the block solver's budget, e.g. 3.5G (default: 2G, or 30%% above the "
                 "least a larger game needs): more moves stored, faster, the same table; finkel 7 "
                 "needs about 1.7 GiB at least"),
            fmt, add_quiet]),
        ("value", "win probability of a position for the side to move", _lookup,
         [position, *values(), fmt, add_quiet]),
        ("moves", "every move after a throw, with the win probability it leaves", _lookup, [
            position, *values(),
            _arg("--throw", type=integer, required=True, help="the throw to move"),
            fmt, add_quiet]),
        ("advise", "the best move after a throw, its win probability and its lead over the "
         "next best, then every move", _lookup, [
            _arg("position", help="as for `ur value`, e.g. '4,13+2/6+1'"),
            _arg("throw", type=integer, help="the throw to move (0 to 4)"),
            *values(), fmt, add_quiet]),
        ("duel", "the exact win probability of a fixed agent against the optimal player "
         "(a policy evaluation on every position, no graph: any piece count)", _duel, [
            _arg("agent", help="first, last, greedy, expectimax-D (search depth D) or optimal"),
            *values(),
            _arg("--threads", type=whole(1, "threads"), default=None, help="cores (default: all)"),
            fmt, add_quiet]),
        ("board", "draw a position, with a throw's moves and the win probability each leaves "
         "(.png, .svg, .pdf)", _board, [
            _arg("position", help="as for `ur value`, e.g. '6,8,12/9,10,11'"),
            _arg("--throw", type=integer, default=None,
                 help="annotate this throw's moves (needs --table or --solve)"),
            *values(required=False),
            _arg("-o", "--output", required=True, help="the picture (.png, .svg or .pdf)")]),
        ("graph", "the one-piece game's whole graph with each position's win probability "
         "(.dot, .gv, .png, .svg, .pdf)", _graph, [
            rules, _arg("-o", "--output", required=True, help="the diagram"),
            add_width]),
        ("heatmap", "win probability by pieces borne off (.png, .svg, .pdf, or an interactive "
         ".html)", _heatmap,
         [*values(), _arg("-o", "--output", required=True, help="the figure or page")]),
        ("tournament", "agents play each other (seeded Monte Carlo): win rates with 95 %% "
         "intervals, and each agent's win probability lost per move", _tournament, [
            *matched,
            _arg("--table", metavar="FILE", default=None, help="a solved table to measure the "
                 "moves against (default: solve the rules first)"),
            check,
            _arg("--agents", default=agents, help="comma-separated agents: random, first, last, "
                 f"greedy, gain, expectimax-D (search depth D), optimal (default {agents})"),
            _arg("--games", type=games_count, default=2000,
                 help="games per pairing, half with each agent moving first (default 2000)"),
            add_seed, fmt, add_quiet]),
    ]
# fmt: on


def add_commands(subparsers) -> None:
    """Register the ur subcommands on the top-level ``GAME`` subparsers."""
    from .explore import add_explore

    game = subparsers.add_parser("ur", help=COMMANDS["ur"])
    commands = game.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    add_explore(commands, "ur")
    add_report_command(commands, "ur")
    for name, text, run, arguments in _commands():
        parser = commands.add_parser(name, help=text)
        for argument in arguments:
            if callable(argument):
                argument(parser)
            else:
                parser.add_argument(*argument[0], **argument[1])
        parser.set_defaults(run=run)


def _write(args, out, result) -> None:
    """``result`` as JSON (its ``as_dict()``) or as its text, as ``--format`` says."""
    text = finite_json(result.as_dict()) if args.format == "json" else str(result)
    out.write(text + "\n")


def _source(args) -> dict:
    """Where a command's values come from: ``--table`` (which must hold ``--rules`` and
    ``--pieces`` when given), or those rules solved first.
    """
    return {"table": args.table, "rules": args.rules, "pieces": args.pieces,
            "check": args.check, "progress": getattr(args, "progress", None)}  # fmt: skip


def _count(args, out):
    from ..games.ur import rule_set
    from ..games.ur.counting import census

    counts = census(rule_set(args.rules or "finkel", args.pieces))
    if args.format == "json":
        out.write(finite_json({"game": "ur", **counts}) + "\n")
        return
    out.write(f"{counts['positions']}\n")
    if sys.stderr.isatty():
        sys.stderr.write(
            "{rules}, {pieces} pieces: {positions:,} positions ({nonterminal:,} with neither side "
            "finished; {private_tiles} private and {shared_tiles} shared tiles)\n".format(**counts)
        )
        sys.stderr.flush()


def _solve(args, out):
    from ..games.ur.solving import solve_rules

    result = solve_rules(args.rules, args.pieces, solver=args.solver, save=args.save,
                         exact=args.exact, memory=args.memory,
                         progress=args.progress)  # fmt: skip
    _write(args, out, result)
    if args.save is not None and args.format != "json":
        out.write(f"wrote {args.save}\n")


def _lookup(args, out):
    """``ur value``, ``ur moves``, ``ur advise``: a position looked up, then its moves."""
    from ..games.ur.advice import advise

    advice = advise(args.position, getattr(args, "throw", None), **_source(args))
    if args.command == "advise":
        return _write(args, out, advice)
    json = args.format == "json"
    if args.command == "value":
        text = finite_json(advice.value_dict()) if json else f"{advice.found.value:.12f}"
    else:
        text = finite_json(advice.moves_dict()) if json else advice.moves_text()
    out.write(text + "\n")


def _tournament(args, out):
    from ..games.ur.tournament import play_tournament

    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    _write(args, out, play_tournament(names, games=args.games, seed=args.seed, **_source(args)))


def _duel(args, out):
    from ..games.ur.optimum_duel import duel_optimum

    _write(args, out, duel_optimum(args.agent, threads=args.threads, **_source(args)))


def _board(args, out):
    from .._files import check_output
    from ..games.ur import parse_position, rule_set
    from ..games.ur.advice import advise
    from ..renderers.ur_board import EXTENSIONS, draw_board

    check_output(args.output, EXTENSIONS)  # fail before any work
    if args.table is None and not args.solve:
        if args.throw is not None:
            raise InvalidArgumentError("--throw needs values: give --table FILE or --solve")
        ruleset = rule_set(args.rules or "finkel", args.pieces)
        state, drawn = parse_position(args.position, ruleset), {}
    else:
        advice = advise(args.position, args.throw, **_source(args))  # checked before a solve
        ruleset, state, throw = advice.table.ruleset, advice.found.position, args.throw
        title = (
            f"Ur ({ruleset.name}, {ruleset.pieces} pieces): {state}, win probability "
            f"{advice.found.value:.4f}" + (f", throw {throw}" if throw is not None else "")
        )
        values = advice.table.move_values(state, throw) if throw is not None else None
        drawn = {"throw": throw, "move_values": values, "title": title}
    draw_board(ruleset, state, args.output, **drawn)
    out.write(f"wrote {args.output}\n")


def _graph(args, out):
    from .._files import check_output
    from ..games.ur import rule_set
    from ..games.ur.solving import solve_graph
    from ..renderers.dot import EXTENSIONS
    from ..renderers.ur_figures import draw_graph

    check_output(args.output, EXTENSIONS)  # fail before any work
    graph, solution = solve_graph(rule_set(args.rules, 1))
    title = (
        f"Ur ({args.rules}), one piece each: {graph.n_states - 1} positions; "
        f"the first player wins {float(solution.start_value):.4f}"
    )
    if args.width is None:
        draw_graph(solution, args.output, title=title)
    else:
        from ..renderers.diagram import Diagram
        from ..renderers.ur_figures import graph_dot

        diagram = Diagram(str(graph_dot(solution, title=title)), title=title)
        diagram.at_width(args.width, instead="").save(args.output)
    out.write(f"wrote {args.output}\n")


def _heatmap(args, out):
    from .._files import check_output
    from ..games.ur.analysis import borne_off_map
    from ..games.ur.solving import values_table
    from ..renderers.ur_figures import FIGURE_EXTENSIONS, draw_borne_off, write_borne_off_page

    check_output(args.output, FIGURE_EXTENSIONS + (".html",))
    bmap = borne_off_map(values_table(**_source(args)))
    if args.output.lower().endswith(".html"):
        write_borne_off_page(bmap, args.output)
    else:
        draw_borne_off(bmap, args.output)
    out.write(f"wrote {args.output}\n")
