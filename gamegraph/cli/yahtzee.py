"""``gamegraph yahtzee ...``: solve Yahtzee or Yatzy, save the table, advise from it."""

from __future__ import annotations

import time

from ..errors import InvalidArgumentError
from ._common import FORMATS, Parser, add_quiet, finite_json, whole

#: The help of ``--filled``: how a score card is written on the command line.
CARD_HELP = (
    "the filled boxes and their points, comma-separated box=points, e.g. "
    "sixes=18,full-house=25,yahtzee=50 (box names as in the rules, '-' for a space: aces.."
    "sixes, three-of-a-kind, four-of-a-kind, full-house, small-straight, large-straight, "
    "yahtzee, chance; Yatzy: ones..sixes, one-pair, two-pairs, ..., yatzy). The upper total "
    "and whether the Yahtzee box holds 50 follow from it (default: an empty card)"
)


RULESETS = ("yahtzee", "yatzy")  # scoring.RULESETS, without importing numpy here
JOKERS = ("free", "forced")
#: The top-level command registered here, with its line in ``gamegraph --help``.
COMMANDS = {"yahtzee": "solitaire Yahtzee and Scandinavian Yatzy (five dice, 13 or 15 boxes)"}


def add_commands(subparsers) -> None:
    """Register the yahtzee subcommands on the top-level ``GAME`` subparsers."""
    from .report import add_report_command

    game = subparsers.add_parser("yahtzee", help=COMMANDS["yahtzee"])
    commands = game.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    _add_solve(commands)
    _add_advise(commands)
    _add_explore(commands)
    add_report_command(commands, "yahtzee")


def _add_solve(commands) -> None:
    solve = commands.add_parser(
        "solve",
        help="the optimal expected score, from every turn-start position (about 35 s); "
        "--save keeps the table for `yahtzee advise`",
    )
    solve.add_argument(
        "--rules",
        choices=RULESETS,
        default="yahtzee",
        help="yahtzee (13 boxes, 35 bonus, 100 per further Yahtzee) or yatzy (15 boxes, "
        "50 bonus) (default yahtzee)",
    )
    solve.add_argument(
        "--joker",
        choices=JOKERS,
        default=None,
        help="Yahtzee's joker: free (a further Yahtzee in any open box, Verhoeff's reading; "
        "the default) or forced (its own upper box first, as Hasbro's sheet says)",
    )
    solve.add_argument(
        "--variant",
        default="standard",
        help="a scoring variant of the rules: for yatzy, kth-2012 scores two pairs as "
        "Larsson and Sjöberg's program does (their published 248.63) (default standard: "
        "the rules as stated)",
    )
    solve.add_argument(
        "--boxes",
        default=None,
        metavar="NAMES",
        help="a small version: only these boxes, comma-separated (default: every box)",
    )
    solve.add_argument(
        "--dice",
        type=whole(1, "dice", high=5),
        default=5,
        metavar="N",
        help="a small version: fewer dice, 1 to 5 (default 5)",
    )
    solve.add_argument(
        "--save",
        metavar="FILE.npy",
        default=None,
        help="write the solved table (a .npy file, memory-mapped when read) for "
        "`yahtzee advise --table`",
    )
    solve.add_argument("--format", choices=FORMATS, default="text")
    add_quiet(solve)
    solve.set_defaults(run=_solve)


def _add_advise(commands) -> None:
    advise = commands.add_parser(
        "advise",
        help="from a saved table: the best keep (throws left) or box (none left) and the "
        "expected final score of every alternative",
    )
    advise.add_argument(
        "--table", metavar="FILE.npy", required=True, help="a table from `yahtzee solve --save`"
    )
    advise.add_argument("--dice", required=True, help="the dice showing, e.g. 1,3,3,5,6 (or 13356)")
    advise.add_argument(
        "--throws-left",
        type=whole(0, "throws left", high=2),
        required=True,
        metavar="N",
        help="2 after the first throw, 1 after the second, 0 after the last",
    )
    advise.add_argument("--filled", default="", metavar="CARD", help=CARD_HELP)
    advise.add_argument(
        "--yahtzee-bonuses",
        type=whole(0, "Yahtzee bonuses", high=12),
        default=0,
        metavar="N",
        help="Yahtzee bonuses (100 each) already scored; counted in the points on the card "
        "(default 0)",
    )
    advise.add_argument(
        "--rules",
        choices=RULESETS,
        default=None,
        help="refuse a table of other rules (default: the table's)",
    )
    advise.add_argument(
        "--joker",
        choices=JOKERS,
        default=None,
        help="refuse a Yahtzee table of the other joker rule (default: the table's)",
    )
    advise.add_argument("--format", choices=FORMATS, default="text")
    advise.set_defaults(run=_advise)


def _add_explore(commands) -> None:
    explore = commands.add_parser(
        "explore",
        help="from a saved table: one turn's graph for a card (its throws, keeps and boxes, "
        "each with its value; the simple strategies' choices beside the optimal ones) as an "
        "interactive offline page (.html)",
    )
    explore.add_argument(
        "--table", metavar="FILE.npy", required=True, help="a table from `yahtzee solve --save`"
    )
    explore.add_argument("--filled", default="", metavar="CARD", help=CARD_HELP)
    explore.add_argument("-o", "--output", required=True, help="the page to write (.html)")
    add_quiet(explore)
    explore.set_defaults(run=_explore)


def _rules(args):
    """The :class:`~gamegraph.games.yahtzee.scoring.Scoring` that ``solve`` asks for."""
    from ..games.yahtzee.advice import box_name
    from ..games.yahtzee.scoring import scoring

    if args.joker is not None and args.rules != "yahtzee":
        raise InvalidArgumentError("--joker is a rule of Yahtzee; Yatzy has no joker")
    options = {"dice": args.dice, "joker": args.joker or "free", "variant": args.variant}
    every = scoring(args.rules, **options)
    if args.boxes is None:
        return every
    names = [name for name in args.boxes.split(",") if name.strip()]
    if not names:
        raise InvalidArgumentError("--boxes: name at least one box, comma-separated")
    boxes = [box_name(name, every) for name in names]
    repeated = [b for b in boxes if boxes.count(b) > 1]
    if repeated:
        raise InvalidArgumentError(f"--boxes: the box {repeated[0]} is named twice")
    return scoring(args.rules, boxes=tuple(boxes), **options)


def _solve(args, out):
    from .._progress import progress_bar
    from ..games.yahtzee.solver import solve_values
    from ..games.yahtzee.table_file import describe, positions, save_table

    if args.save is not None:
        from .._files import check_output

        check_output(args.save, (".npy",))  # fail before any work
    rules = _rules(args)
    cards = 1 << len(rules.boxes)
    started = time.perf_counter()
    with progress_bar(
        cards, desc=f"solving {rules.name}", unit=" cards", progress=args.progress
    ) as bar:

        def report(_filled, done, _total):
            bar.update(done - bar.n)

        table = solve_values(rules, progress=report)
    seconds = time.perf_counter() - started
    if args.save is not None:
        save_table(args.save, table)
    n = positions(rules)
    if args.format == "json":
        payload = {
            "game": "yahtzee",
            "rules": rules.ruleset,
            "joker": rules.joker if rules.ruleset == "yahtzee" else None,
            "variant": rules.variant,
            "boxes": list(rules.boxes),
            "dice": rules.dice,
            "positions": n,
            "expected_score": table.start_value,
            "seconds": seconds,
            "table": args.save,
        }
        out.write(finite_json(payload) + "\n")
        return
    out.write(
        f"{describe(rules)}: optimal expected score {table.start_value:.4f} "
        f"({table.start_value!r})\n"
        f"{n:,} turn-start positions solved in {seconds:.1f} s\n"
    )
    if args.save is not None:
        out.write(f"wrote {args.save}\n")


def _advise(args, out):
    from ..games.yahtzee.advice import advice_table, alternatives, card_position, read_card
    from ..games.yahtzee.table_file import load_table

    table = load_table(args.table, ruleset=args.rules, joker=args.joker)
    rules = table.scoring
    card = read_card(args.filled, rules)
    position = card_position(rules, card, args.yahtzee_bonuses)
    if args.format == "json":
        from ..games.yahtzee.advice import read_dice

        found = alternatives(table, position, args.dice, args.throws_left)
        kind = "keep" if args.throws_left else "box"
        rows = [
            {kind: list(a.choice) if args.throws_left else a.choice, "points": a.points,
             "expected": a.expected, "behind": found[0].expected - a.expected}
            for a in found
        ]  # fmt: skip
        payload = {
            "game": "yahtzee",
            "rules": rules.ruleset,
            "joker": rules.joker if rules.ruleset == "yahtzee" else None,
            "variant": rules.variant,
            "boxes": list(rules.boxes),
            "dice": list(read_dice(args.dice, rules)),
            "throws_left": args.throws_left,
            "card": card,
            "upper_total": position.upper,
            "yahtzee_50": bool(position.flag),
            "points_on_card": position.points,
            "best": rows[0],
            "alternatives": rows,
        }
        out.write(finite_json(payload) + "\n")
        return
    out.write(advice_table(table, position, args.dice, args.throws_left).to_text() + "\n")


def _explore(args, out):
    from .._files import check_output
    from ..analysis.explore import explore_graph
    from ..build import build
    from ..games.yahtzee.advice import card_position, read_card
    from ..games.yahtzee.scoring import BONUS_THRESHOLD
    from ..games.yahtzee.table_file import describe, load_table
    from ..games.yahtzee.turn import TurnRules
    from ..renderers.explorer import explore_figure
    from ..renderers.interactive import EXTENSIONS

    check_output(args.output, EXTENSIONS[:1])  # fail before any work
    started = time.perf_counter()
    table = load_table(args.table)
    rules = table.scoring
    card = read_card(args.filled, rules)
    position = card_position(rules, card)
    upper = min(position.upper, BONUS_THRESHOLD)
    turn = TurnRules(table, filled=tuple(card), upper=upper, flag=position.flag)
    graph = build(turn)
    from ..games.yahtzee.strategies import STRATEGIES
    from ..policy import Policy

    agents = {name: Policy.from_agent(graph, turn.strategy(name), name) for name in STRATEGIES}
    data = explore_graph(graph, None, agents, progress=args.progress)
    filled = ", ".join(f"{box} {points}" for box, points in card.items()) or "empty card"
    title = f"{describe(rules)}: one turn from {filled} (upper total {position.upper})"
    explore_figure(data, title=title).save(args.output)
    seconds = time.perf_counter() - started
    value = float(data.values[data.start])
    out.write(
        f"wrote {args.output}: one turn, {data.total_states:,} states in "
        f"{len(data.group_names)} stages; expected score to come {value:.4f} (the table's "
        f"{float(table.values[table.index(position.used, upper, position.flag)]):.4f}), "
        f"expected final score {position.points + value:.4f} ({seconds:.1f} s)\n"
    )
