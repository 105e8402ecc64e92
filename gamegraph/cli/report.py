"""``gamegraph <game> report -o FILE``: a game's report as one HTML file or as Markdown.

Each game's module registers the command with one call to :func:`add_report_command`;
the report itself is built by :mod:`gamegraph.reports`. The output path is checked
before any work, so a missing folder or a wrong extension fails at once (exit status 2)
and leaves nothing behind.
"""

from __future__ import annotations

import os
import time

from ._common import add_quiet, add_seed, games, whole, whole_number

#: The games that have a report.
GAMES = ("jackpot", "supersix", "ur", "yahtzee")

_OUTPUT_HELP = (
    "the report: .html (one self-contained file, images inline, works offline) or .md "
    "(Markdown, its images in a folder NAME_files beside it)"
)


def add_report_command(commands, game: str) -> None:
    """Add ``report`` to a game's subcommands (``commands``: its subparsers action)."""
    if game not in GAMES:
        raise ValueError(f"no report for {game!r}; games with a report: {', '.join(GAMES)}")
    report = commands.add_parser(
        "report",
        help="write a report of the game's analysis (.html, or .md with its images beside it)",
    )
    report.add_argument("-o", "--output", required=True, help=_OUTPUT_HELP)
    if game == "jackpot":
        from ..reports.defaults import JACKPOT_GAMES

        report.add_argument(
            "--games",
            type=games,
            default=JACKPOT_GAMES,
            help=f"Monte Carlo games per policy (default {JACKPOT_GAMES:,})",
        )
        add_seed(report)
    elif game == "supersix":
        from ..reports.defaults import SUPERSIX_PEGS as PEGS

        report.add_argument(
            "--pegs",
            type=whole(4, "pegs"),
            default=PEGS,
            help=f"total pegs of the game mapped (4 or more, default {PEGS})",
        )
    elif game == "yahtzee":
        report.add_argument(
            "--rules",
            choices=("yahtzee", "yatzy"),
            default=None,
            help="yahtzee or yatzy (default yahtzee, or the table's); with --table, refuse "
            "a table of other rules",
        )
        report.add_argument(
            "--joker",
            choices=("free", "forced"),
            default=None,
            help="Yahtzee's joker: free (default) or forced",
        )
        report.add_argument(
            "--variant",
            default="standard",
            help="a scoring variant (yatzy: kth-2012) (default standard)",
        )
        report.add_argument(
            "--table",
            metavar="FILE.npy",
            default=None,
            help="a table from `yahtzee solve --save`: skips the solve (about 35 s)",
        )
        add_seed(report)
    else:
        from ..games.ur import RULESETS
        from ..reports.defaults import UR_GAMES
        from ..reports.defaults import UR_MAX_PIECES as MAX_PIECES
        from ..reports.defaults import UR_PIECES as PIECES

        report.add_argument(
            "--rules", choices=RULESETS, default="finkel", help="rule set (default finkel)"
        )
        report.add_argument(
            "--pieces",
            type=_pieces(MAX_PIECES),
            default=PIECES,
            help=f"pieces a side, 1 to {MAX_PIECES} (default {PIECES}); every position is solved",
        )
        report.add_argument(
            "--games",
            type=games,
            default=UR_GAMES,
            help=f"tournament games per pairing (default {UR_GAMES})",
        )
        add_seed(report)
    add_quiet(report)
    report.set_defaults(run=_run, report_game=game)


def _pieces(high: int):
    import argparse

    def parse(text: str) -> int:
        value = whole_number(text)  # ASCII digits only
        if value is None or not 1 <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{text!r}: accepted whole numbers 1 to {high} (digits 0-9; more pieces take "
                "minutes to solve; use `gamegraph ur solve` for those)"
            )
        return value

    return parse


def _run(args, out) -> None:
    from ..renderers.report import check_report_output, images_folder

    path, extension = check_report_output(args.output)  # before any work
    started = time.perf_counter()
    if args.report_game == "jackpot":
        from ..reports.jackpot import jackpot_report

        report = jackpot_report(games=args.games, seed=args.seed, progress=args.progress)
    elif args.report_game == "supersix":
        from ..reports.supersix import supersix_report

        report = supersix_report(pegs=args.pegs, progress=args.progress)
    elif args.report_game == "yahtzee":
        from ..reports.yahtzee import yahtzee_report

        table = None
        if args.table is not None:
            from ..games.yahtzee.table_file import load_table

            table = load_table(args.table, ruleset=args.rules, joker=args.joker)
        elif args.joker is not None and args.rules not in (None, "yahtzee"):
            from ..errors import InvalidArgumentError

            raise InvalidArgumentError("--joker is a rule of Yahtzee; Yatzy has no joker")
        report = yahtzee_report(
            rules=args.rules or "yahtzee",
            joker=args.joker or "free",
            variant=args.variant,
            table=table,
            seed=args.seed,
            progress=args.progress,
        )
    else:
        from ..reports.ur import ur_report

        report = ur_report(
            rules=args.rules,
            pieces=args.pieces,
            games=args.games,
            seed=args.seed,
            progress=args.progress,
        )
    report.save(path)
    seconds = time.perf_counter() - started
    size = os.path.getsize(path)
    where = ""
    if extension == ".md" and images_folder(path).is_dir():
        where = f", images in {images_folder(path)}"
    out.write(f"wrote {path} ({size / 1024:,.0f} kB{where}) in {seconds:.1f} s\n")
