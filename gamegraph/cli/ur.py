"""``gamegraph ur ...``: count positions, solve every position, query a solved table."""

from __future__ import annotations

import sys
import time

from .._tables import exact_digits, format_value
from ..errors import InvalidArgumentError
from ._common import finite_json
from .report import add_report_command

#: Peak bytes per position of build + solve, measured with 4 pieces (docs/performance.md).
BYTES_PER_POSITION = 1300
#: The agents of `ur tournament` unless --agents says otherwise.
DEFAULT_AGENTS = ("random", "first", "last", "greedy", "gain", "expectimax-2", "optimal")

#: Pieces per side when a command solves and --pieces is not given: seconds of work
#: (263,121 positions), where the rule sets' own 7 or 5 pieces are out of reach here.
SOLVE_PIECES = 3

#: Exact fractions are offered for one piece; with two they run to thousands of digits.
EXACT_MAX_PIECES = 1

#: The block solver's target distance to the fixed point (ten times inside the 1e-9 of issue 13).
BLOCKS_TOL = 1e-10


def add_commands(subparsers) -> None:
    """Register the ur subcommands on the top-level ``GAME`` subparsers."""
    from ..games.ur import MAX_PIECES, RULESETS
    from ._common import FORMATS as formats
    from ._common import Parser, add_quiet, add_seed, add_width, integer, whole, whole_number
    from ._common import games as games_count

    game = subparsers.add_parser(
        "ur", help="the Royal Game of Ur (finkel, masters, blitz, aseb rules)"
    )
    commands = game.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    from .explore import add_explore

    add_explore(commands, "ur")
    add_report_command(commands, "ur")

    def pieces(text):
        from ..games.ur import check_pieces

        try:
            return check_pieces(whole_number(text))
        except InvalidArgumentError:
            import argparse

            raise argparse.ArgumentTypeError(
                f"{text!r}: accepted whole numbers 1 to {MAX_PIECES} (digits 0-9)"
            ) from None

    def rules_options(parser, required=True, default_pieces=f"{SOLVE_PIECES}"):
        parser.add_argument(
            "--rules",
            choices=RULESETS,
            default="finkel" if required else None,
            help="rule set (default finkel)"
            if required
            else "rule set (default finkel; with --table, the table's, which it must match)",
        )
        parser.add_argument(
            "--pieces",
            type=pieces,
            default=None,
            help=f"pieces per side, 1 to {MAX_PIECES} (default: {default_pieces})"
            if required
            else f"pieces per side (default {SOLVE_PIECES}; with --table, the table's)",
        )

    def values_options(parser, required):
        """Where the win probabilities come from: a saved table, or a solve first."""
        source = parser.add_mutually_exclusive_group(required=required)
        source.add_argument("--table", metavar="FILE", help="a table written by `ur solve --save`")
        source.add_argument(
            "--solve",
            action="store_true",
            help=f"solve the rules first (--pieces, default {SOLVE_PIECES})",
        )
        rules_options(parser, required=False)
        check_option(parser)

    def check_option(parser):
        parser.add_argument(
            "--check",
            choices=("full", "quick"),  # rank_table.CHECKS, without importing numpy here
            default="full",
            help="how a .npy --table is checked when opened: full (default: every value, "
            "its digest and range; about a second at 7 pieces) or quick (the header, the "
            "size and a sample of values; every value read is still checked)",
        )

    count = commands.add_parser("count", help="how many positions the game has")
    rules_options(count, default_pieces="the rule set's own, 7 or 5")
    count.add_argument("--format", choices=formats, default="text")
    count.set_defaults(run=_count)

    solve = commands.add_parser(
        "solve", help="win probability of every position under optimal play"
    )
    rules_options(solve)
    solve.add_argument(
        "--exact", action="store_true", help=f"exact fractions (up to {EXACT_MAX_PIECES} piece)"
    )
    solve.add_argument(
        "--save",
        metavar="FILE",
        default=None,
        help="write the solved table to FILE (query it with `ur value`, `ur moves`): "
        ".urtable (the explicit graph's codes and values) or .npy (values by rank, "
        "memory-mapped; the block solver writes it as it goes and resumes an unfinished one)",
    )
    solve.add_argument(
        "--solver",
        choices=("auto", "graph", "blocks"),
        default="auto",
        help="graph: build the explicit graph and solve it (up to about 4 pieces); blocks: "
        "the block solver (no graph; 7 pieces in 2 GiB); auto (default): blocks with "
        "--save FILE.npy, else graph",
    )
    solve.add_argument("--format", choices=formats, default="text")
    add_quiet(solve)
    solve.set_defaults(run=_solve)

    for name, text in (
        ("value", "win probability of a position for the side to move"),
        ("moves", "every move after a throw, with the win probability it leaves"),
    ):
        query = commands.add_parser(name, help=text)
        query.add_argument(
            "position",
            help="the mover's squares '/' the opponent's, each side "
            "with an optional '+borne off', e.g. '4,13+2/6+1'",
        )
        values_options(query, required=True)
        if name == "moves":
            query.add_argument("--throw", type=integer, required=True, help="the throw to move")
        query.add_argument("--format", choices=formats, default="text")
        add_quiet(query)
        query.set_defaults(run=_value if name == "value" else _moves)

    advise = commands.add_parser(
        "advise",
        help="the best move after a throw, its win probability and its lead over the "
        "next best, then every move",
    )
    advise.add_argument("position", help="as for `ur value`, e.g. '4,13+2/6+1'")
    advise.add_argument("throw", type=integer, help="the throw to move (0 to 4)")
    values_options(advise, required=True)
    advise.add_argument("--format", choices=formats, default="text")
    add_quiet(advise)
    advise.set_defaults(run=_advise)

    duel = commands.add_parser(
        "duel",
        help="the exact win probability of a fixed agent against the optimal player "
        "(a policy evaluation on every position, no graph: any piece count)",
    )
    duel.add_argument("agent", help="first, last, greedy, expectimax-D (search depth D) or optimal")
    values_options(duel, required=True)
    duel.add_argument(
        "--threads", type=whole(1, "threads"), default=None, help="cores (default: all)"
    )
    duel.add_argument("--format", choices=formats, default="text")
    add_quiet(duel)
    duel.set_defaults(run=_duel)

    board = commands.add_parser(
        "board",
        help="draw a position, with a throw's moves and the "
        "win probability each leaves (.png, .svg, .pdf)",
    )
    board.add_argument("position", help="as for `ur value`, e.g. '6,8,12/9,10,11'")
    board.add_argument(
        "--throw",
        type=integer,
        default=None,
        help="annotate this throw's moves (needs --table or --solve)",
    )
    values_options(board, required=False)
    board.add_argument("-o", "--output", required=True, help="the picture (.png, .svg or .pdf)")
    board.set_defaults(run=_board)

    graph = commands.add_parser(
        "graph",
        help="the one-piece game's whole graph with each "
        "position's win probability (.dot, .gv, .png, .svg, .pdf)",
    )
    graph.add_argument(
        "--rules", choices=RULESETS, default="finkel", help="rule set (default finkel)"
    )
    graph.add_argument("-o", "--output", required=True, help="the diagram")
    add_width(graph)
    graph.set_defaults(run=_graph)

    heatmap = commands.add_parser(
        "heatmap",
        help="win probability by pieces borne off (.png, .svg, .pdf, or an interactive .html)",
    )
    values_options(heatmap, required=True)
    heatmap.add_argument("-o", "--output", required=True, help="the figure or page")
    heatmap.set_defaults(run=_heatmap)

    tournament = commands.add_parser(
        "tournament",
        help="agents play each other (seeded Monte Carlo): win rates with 95 %% "
        "intervals, and each agent's win probability lost per move",
    )
    rules_options(tournament, required=False)
    tournament.add_argument(
        "--table",
        metavar="FILE",
        default=None,
        help="a solved table to measure the moves against (default: solve the rules first)",
    )
    check_option(tournament)
    tournament.add_argument(
        "--agents",
        default=",".join(DEFAULT_AGENTS),
        help="comma-separated agents: random, first, last, greedy, gain, "
        "expectimax-D (search depth D), optimal "
        f"(default {','.join(DEFAULT_AGENTS)})",
    )
    tournament.add_argument(
        "--games",
        type=games_count,
        default=2000,
        help="games per pairing, half with each agent moving first (default 2000)",
    )
    add_seed(tournament)
    tournament.add_argument("--format", choices=formats, default="text")
    add_quiet(tournament)
    tournament.set_defaults(run=_tournament)


def _ruleset(args):
    """The rule set the command names (finkel by default) with its own piece count."""
    from ..games.ur import rule_set

    return rule_set(args.rules or "finkel", args.pieces)


def _solve_ruleset(args):
    """The rule set a command solves: --pieces, or :data:`SOLVE_PIECES` when not given."""
    from ..games.ur import rule_set

    return rule_set(args.rules or "finkel", args.pieces or SOLVE_PIECES)


def _check_memory(ruleset):
    """Refuse a float build and solve that would not fit in the memory available."""
    from .._memory import check_memory
    from ..games.ur.board import GEOMETRY
    from ..games.ur.counting import count_nonterminal

    private, shared = GEOMETRY[ruleset.name]
    positions = count_nonterminal(private, shared, ruleset.pieces)
    check_memory(
        positions * BYTES_PER_POSITION,
        f"solving {ruleset.name} with {ruleset.pieces} pieces ({positions:,} positions)",
        "try fewer --pieces",
    )


def _say(text):
    if sys.stderr.isatty():
        sys.stderr.write(text)
        sys.stderr.flush()


def _count(args, out):
    from ..games.ur.board import GEOMETRY
    from ..games.ur.counting import count_nonterminal, count_positions

    ruleset = _ruleset(args)
    private, shared = GEOMETRY[ruleset.name]
    total = count_positions(private, shared, ruleset.pieces)
    live = count_nonterminal(private, shared, ruleset.pieces)
    if args.format == "json":
        out.write(
            finite_json(
                {
                    "game": "ur",
                    "rules": ruleset.name,
                    "pieces": ruleset.pieces,
                    "positions": total,
                    "nonterminal": live,
                    "private_tiles": private,
                    "shared_tiles": shared,
                }
            )
            + "\n"
        )
        return
    out.write(f"{total}\n")
    _say(
        f"{ruleset.name}, {ruleset.pieces} pieces: {total:,} positions "
        f"({live:,} with neither side finished; {private} private and {shared} shared tiles)\n"
    )


def _solve_graph(ruleset, exact=False, progress=None):
    """Build and solve every position: progress bars on stderr unless ``progress`` is False
    (or None and stderr is not a terminal).
    """
    from ..build import build
    from ..games.ur import Ur
    from ..solve import solve

    if exact and ruleset.pieces > EXACT_MAX_PIECES:
        raise InvalidArgumentError(
            f"--exact is offered up to {EXACT_MAX_PIECES} piece: with {ruleset.pieces} the "
            f"fractions run to thousands of digits; drop --exact for floats to 1e-13"
        )
    _check_memory(ruleset)
    graph = build(Ur(ruleset), progress=progress)
    return graph, solve(graph, exact=exact, progress=progress)


def _fraction_text(value, exact):
    if not exact:
        return float(value)
    return f"{exact_digits(value.numerator)}/{exact_digits(value.denominator)}"


#: The extensions of a saved table (``ur solve --save``): the explicit graph's table, and the
#: block solver's values by rank.
TABLE_EXTENSIONS = (".urtable", ".npy")


def _use_blocks(args) -> bool:
    """Whether ``ur solve`` runs the block solver (see ``--solver``)."""
    if args.solver != "auto":
        return args.solver == "blocks"
    return args.save is not None and args.save.lower().endswith(".npy")


def _solve_blocks(args, out, ruleset):
    from .._memory import check_memory
    from ..games.ur.block_solver import peak_bytes, solve_blocks, solve_file
    from ..games.ur.rank import Numbering

    if args.exact:
        raise InvalidArgumentError("--exact needs --solver graph: the block solver works in floats")
    if args.save is not None and not args.save.lower().endswith(".npy"):
        raise InvalidArgumentError(
            f"the block solver writes a .npy table, not {args.save!r} (use --solver graph "
            "for a .urtable)"
        )
    numbering = Numbering(ruleset)
    check_memory(
        peak_bytes(numbering),
        f"solving {ruleset.name} with {ruleset.pieces} pieces ({len(numbering):,} positions)",
        "try fewer --pieces",
    )
    started = time.perf_counter()
    if args.save is not None:
        solution = solve_file(args.save, ruleset, tol=BLOCKS_TOL, progress=args.progress)
    else:
        solution = solve_blocks(ruleset, tol=BLOCKS_TOL, progress=args.progress)
    seconds = time.perf_counter() - started
    start = solution.start_value
    if args.format == "json":
        out.write(
            finite_json(
                {
                    "game": "ur",
                    "rules": ruleset.name,
                    "pieces": ruleset.pieces,
                    "states": len(numbering),
                    "start": start,
                    "exact": False,
                    "solver": "blocks",
                    "tol": BLOCKS_TOL,
                    "sweeps_per_position": solution.sweeps,
                    "seconds": seconds,
                    "table": args.save,
                }
            )
            + "\n"
        )
        return
    out.write(
        f"Royal Game of Ur, {ruleset.name} rules, {ruleset.pieces} piece(s) each: "
        f"{len(numbering):,} positions solved in {seconds:.2f} s (block solver, "
        f"{len(numbering.blocks)} blocks, {solution.sweeps:.1f} sweeps per position, "
        f"tolerance {BLOCKS_TOL:.0e})\n"
    )
    out.write(f"the side that moves first wins with probability {start:.12f}\n")
    if args.save is not None:
        out.write(f"wrote {args.save}\n")


def _solve(args, out):
    from ..games.ur.code_table import table_from_solution

    if args.save is not None:
        from .._files import check_output

        check_output(args.save, TABLE_EXTENSIONS)  # before any work: a solve takes minutes
        if args.save.lower().endswith(".npy"):
            from .._files import check_partial_name

            check_partial_name(args.save)  # FILE.npy.partial is written as the solve goes
    ruleset = _solve_ruleset(args)
    if _use_blocks(args):
        _solve_blocks(args, out, ruleset)
        return
    if args.save is not None and args.save.lower().endswith(".npy"):
        raise InvalidArgumentError(
            "--solver graph writes a .urtable table; a .npy table comes from the block solver"
        )
    started = time.perf_counter()
    graph, solution = _solve_graph(ruleset, exact=args.exact, progress=args.progress)
    seconds = time.perf_counter() - started
    states = graph.n_states - 1  # WIN is the one terminal state
    start = solution.start_value
    if args.save is not None:
        table_from_solution(solution).save(args.save)
    if args.format == "json":
        out.write(
            finite_json(
                {
                    "game": "ur",
                    "rules": ruleset.name,
                    "pieces": ruleset.pieces,
                    "states": states,
                    "start": _fraction_text(start, args.exact),
                    "exact": args.exact,
                    "residual": solution.residual,
                    "seconds": seconds,
                    "table": args.save,
                }
            )
            + "\n"
        )
        return
    shown = f"{format_value(start)} = {float(start):.12f}" if args.exact else f"{float(start):.12f}"
    out.write(
        f"Royal Game of Ur, {ruleset.name} rules, {ruleset.pieces} piece(s) each: "
        f"{states:,} positions solved in {seconds:.2f} s (residual {solution.residual:.1e})\n"
    )
    out.write(f"the side that moves first wins with probability {shown}\n")
    if args.save is not None:
        out.write(f"wrote {args.save}\n")


def _table(args):
    from ..games.ur.code_table import load_table, table_from_solution

    if args.table is not None:
        if args.table.lower().endswith(".npy"):
            from ..games.ur.rank_table import open_values

            table = open_values(args.table, check=getattr(args, "check", "full"))
        else:
            table = load_table(args.table)
        held = table.ruleset
        if (args.rules not in (None, held.name)) or (args.pieces not in (None, held.pieces)):
            wanted = f"{args.rules or held.name} with {args.pieces or held.pieces} piece(s)"
            raise InvalidArgumentError(
                f"{args.table} holds a table for {held.name} with "
                f"{held.pieces} piece(s), not {wanted}"
            )
        return table
    _, solution = _solve_graph(_solve_ruleset(args), progress=getattr(args, "progress", None))
    return table_from_solution(solution)


def _value(args, out):
    from ..games.ur import parse_position

    table = _table(args)
    state = parse_position(args.position, table.ruleset)  # checked before any answer
    value = table.lookup(state).value
    if args.format == "json":
        out.write(
            finite_json(
                {
                    "rules": table.ruleset.name,
                    "pieces": table.ruleset.pieces,
                    "position": str(state),
                    "value": value,
                }
            )
            + "\n"
        )
        return
    out.write(f"{value:.12f}\n")


def _lookup(args):
    """The position of ``args`` looked up with every move after ``args.throw``
    (a :class:`~gamegraph.games.ur.code_table.PositionValue`), each value checked.

    With ``--solve`` the position and the throw are checked before solving.
    """
    from ..games.ur.rules import check_throw, parse_position

    if args.table is None:
        ruleset = _solve_ruleset(args)
        parse_position(args.position, ruleset)
        check_throw(args.throw, ruleset)
    table = _table(args)
    found = table.lookup(parse_position(args.position, table.ruleset), args.throw)
    for value in [found.value] + [move.value for move in found.moves]:
        if not 0.0 <= value <= 1.0:  # NaN fails both
            raise InvalidArgumentError(
                f"{args.table}: is damaged: it holds {value!r} where a win probability "
                "(0 to 1) belongs; solve it again"
            )
    return found


def _moves_payload(found) -> dict:
    """A looked-up position and its moves as ``ur moves --format json`` writes them."""
    return {
        "rules": found.ruleset.name,
        "pieces": found.ruleset.pieces,
        "position": str(found.position),
        "throw": found.throw,
        "moves": [move.as_dict() for move in found.moves],
    }


def _notes(move) -> str:
    """`` (captures, throws again)`` as far as they apply to ``move``, or nothing."""
    notes = [n for n, on in (("captures", move.captures), ("throws again", move.again)) if on]
    return f" ({', '.join(notes)})" if notes else ""


def _write_moves(found, out) -> None:
    """Every move of a looked-up position, one line each, the best marked ``*``."""
    for move in found.moves:
        mark = "*" if move.best else " "
        notes = _notes(move)
        out.write(
            f"{mark} {move.move:<10} {move.value:.6f}  -> {move.board}{notes and ' '}{notes}\n"
        )


def _moves(args, out):
    found = _lookup(args)
    if args.format == "json":
        out.write(finite_json(_moves_payload(found)) + "\n")
        return
    _write_moves(found, out)


def _advice(found) -> str:
    """One line: the best move after the throw, its win probability and its lead."""
    best, second = found.best, found.runner_up
    if best.move == "pass":
        return f"no legal move: the turn passes; the mover wins with probability {best.value:.6f}"
    move = best.move + _notes(best)
    if second is None:
        return f"{move}, the only legal move: win probability {best.value:.6f}"
    lead = (
        f"as good as {second.move} (a tie)"
        if found.margin == 0
        else f"{found.margin:.6f} more than the next best, {second.move} ({second.value:.6f})"
    )
    return f"best: {move}, win probability {best.value:.6f}, {lead}"


def _advise(args, out):
    found = _lookup(args)
    if args.format == "json":
        best, second = found.best, found.runner_up
        payload = _moves_payload(found)
        payload.update(
            value=found.value,
            advice="pass" if best.move == "pass" else "only move" if second is None else "best",
            best=best.as_dict(),
            margin=found.margin,
            runner_up=None if second is None else second.as_dict(),
        )
        payload["moves"] = payload.pop("moves")  # last, after the advice
        out.write(finite_json(payload) + "\n")
        return
    ruleset = found.ruleset
    out.write(
        f"{ruleset.name}, {ruleset.pieces} piece(s) each: {found.position} (win probability "
        f"{found.value:.6f} before the throw), throw {found.throw}\n"
    )
    out.write(_advice(found) + "\n\n")
    _write_moves(found, out)


def _tournament(args, out):
    """With --table, the games are played on positions (no graph: any piece count); without
    one, the rules are solved first and the games played on the graph. The same seed plays
    the same games either way.
    """
    from ..games.ur.agents import make_agent
    from ..games.ur.code_table import table_from_solution
    from ..games.ur.graph_match import format_rows, round_robin

    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    if args.table is not None:
        from ..games.ur.position_match import round_robin_positions

        table = _table(args)
        ruleset = table.ruleset
        agents = [make_agent(name, ruleset=ruleset, table=table, seed=args.seed) for name in names]
        started = time.perf_counter()
        rows = round_robin_positions(
            agents, games=args.games, seed=args.seed, table=table, progress=args.progress
        )
    else:
        ruleset = _solve_ruleset(args)
        for name in names:  # refuse unknown names before solving
            if name != "optimal":
                make_agent(name, ruleset=ruleset, seed=args.seed)
        graph, solution = _solve_graph(ruleset, progress=args.progress)
        table = table_from_solution(solution)
        agents = [make_agent(name, ruleset=ruleset, table=table, seed=args.seed) for name in names]
        started = time.perf_counter()
        rows = round_robin(
            graph, agents, games=args.games, seed=args.seed, table=table, progress=args.progress
        )
    seconds = time.perf_counter() - started
    totals = rows.agents()
    if args.format == "json":
        out.write(
            finite_json(
                {
                    "rules": ruleset.name,
                    "pieces": ruleset.pieces,
                    "games_per_pairing": args.games,
                    "seed": args.seed,
                    "seconds": seconds,
                    "pairings": rows,
                    "agents": totals,
                }
            )
            + "\n"
        )
        return
    out.write(
        f"Royal Game of Ur, {ruleset.name} rules, {ruleset.pieces} piece(s) each: "
        f"{len(rows)} pairings of {args.games:,} games, seed {args.seed}, {seconds:.1f} s\n\n"
    )
    out.write(
        "each agent over all its games (loss: win probability given up per move, "
        "against the solved values)\n"
    )
    out.write(
        format_rows(totals, ["agent", "games", "win_rate", "mean_loss", "nonoptimal"]) + "\n\n"
    )
    out.write("pairings: A's win rate with its 95 % interval\n")
    shown = [
        {
            "A": row["a"],
            "B": row["b"],
            "A wins": row["a_rate"],
            "interval": f"[{row['low']:.4f}, {row['high']:.4f}]",
            "first mover wins": row["first_rate"],
        }
        for row in rows
    ]
    out.write(format_rows(shown) + "\n")


def _duel(args, out):
    """``ur duel AGENT``: :func:`gamegraph.games.ur.exact_duel.ur_duel` on a table, or on the
    block solver's values (--solve).
    """
    from .._memory import check_memory
    from ..games.ur.agents import make_agent
    from ..games.ur.exact_duel import peak_bytes, ur_duel
    from ..games.ur.rank import Numbering

    if args.table is not None:
        table = _table(args)
        make_agent(args.agent, ruleset=table.ruleset, table=table)  # refuse a bad name first
    else:
        from ..games.ur.block_solver import peak_bytes as solve_bytes
        from ..games.ur.block_solver import solve_blocks
        from ..games.ur.rank_table import ValueTable

        ruleset = _solve_ruleset(args)
        make_agent(args.agent, ruleset=ruleset)
        numbering = Numbering(ruleset)
        check_memory(solve_bytes(numbering), f"solving {ruleset.name} with {ruleset.pieces} "
                     f"pieces ({len(numbering):,} positions)", "try fewer --pieces")  # fmt: skip
        solved = solve_blocks(ruleset, tol=BLOCKS_TOL, progress=args.progress)
        table = ValueTable(ruleset, None, solved.values, numbering)
    ruleset = table.ruleset
    numbering = Numbering(ruleset)
    check_memory(
        peak_bytes(numbering, args.threads),
        f"the duel on {ruleset.name} with {ruleset.pieces} pieces ({len(numbering):,} positions)",
        "try fewer --pieces",
    )
    duel = ur_duel(args.agent, table, tol=BLOCKS_TOL, threads=args.threads, progress=args.progress)
    sweeps = sum(b.size * n for b, n in zip(numbering.blocks, duel.sweeps)) / len(numbering)
    if args.format == "json":
        out.write(
            finite_json(
                {
                    "rules": ruleset.name,
                    "pieces": ruleset.pieces,
                    "agent": duel.agent,
                    "agent_first": duel.agent_first,
                    "optimum_first": duel.optimum_first,
                    "match": duel.match,
                    "short_of_optimum": 0.5 - duel.match,
                    "positions": len(numbering),
                    "sweeps_per_position": sweeps,
                    "tol": BLOCKS_TOL,
                    "seconds": duel.seconds,
                }
            )
            + "\n"
        )
        return
    out.write(
        f"Royal Game of Ur, {ruleset.name} rules, {ruleset.pieces} piece(s) each: "
        f"{duel.agent} against the optimal player, exactly ({len(numbering):,} positions, "
        f"both seats, {sweeps:.1f} sweeps per position, tolerance {BLOCKS_TOL:.0e}, "
        f"{duel.seconds:.1f} s)\n"
    )
    out.write(f"{duel.agent} moving first wins with probability {duel.agent_first:.12f}\n")
    out.write(f"the optimum moving first, {duel.agent} wins {duel.optimum_first:.12f}\n")
    out.write(f"each moving first in half the games: {duel.match:.12f}\n")
    out.write(f"short of the optimum's 0.5 by {0.5 - duel.match:.12f}\n")


def _board(args, out):
    from .._files import check_output
    from ..games.ur import parse_position
    from ..renderers.ur_board import EXTENSIONS, draw_board

    check_output(args.output, EXTENSIONS)  # fail before any work
    if args.throw is not None and args.table is None and not args.solve:
        raise InvalidArgumentError("--throw needs values: give --table FILE or --solve")
    if args.table is None and not args.solve:
        ruleset = _ruleset(args)
        state = parse_position(args.position, ruleset)
        draw_board(ruleset, state, args.output)
        out.write(f"wrote {args.output}\n")
        return
    if args.table is None:  # check the position before solving
        parse_position(args.position, _solve_ruleset(args))
    table = _table(args)
    state = parse_position(args.position, table.ruleset)
    values = table.move_values(state, args.throw) if args.throw is not None else None
    title = (
        f"Ur ({table.ruleset.name}, {table.ruleset.pieces} pieces): {state}, "
        f"win probability {table.value(state):.4f}"
        + (f", throw {args.throw}" if args.throw is not None else "")
    )
    draw_board(table.ruleset, state, args.output, throw=args.throw, move_values=values, title=title)
    out.write(f"wrote {args.output}\n")


def _graph(args, out):
    from .._files import check_output
    from ..renderers.dot import EXTENSIONS
    from ..renderers.ur_figures import draw_graph

    check_output(args.output, EXTENSIONS)  # fail before any work
    from ..games.ur import rule_set

    graph, solution = _solve_graph(rule_set(args.rules, 1))
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
    from ..renderers.ur_figures import (
        FIGURE_EXTENSIONS,
        draw_borne_off,
        write_borne_off_page,
    )

    check_output(args.output, FIGURE_EXTENSIONS + (".html",))
    bmap = borne_off_map(_table(args))
    if args.output.lower().endswith(".html"):
        write_borne_off_page(bmap, args.output)
    else:
        draw_borne_off(bmap, args.output)
    out.write(f"wrote {args.output}\n")
