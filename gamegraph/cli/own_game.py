"""``gamegraph explore|report|graph SPEC``: any game, a user's own included, by its class.

SPEC names a game's rules class as ``package.module:Class`` (imported) or
``path/to/file.py:Class`` (loaded from the file, which runs its code, as ``python file.py``
would); ``--arg name=value``, repeated, gives its constructor's keyword arguments, each
value read as a Python literal (``20``, ``'free'``, ``(3, 3)``) by :func:`ast.literal_eval`
and otherwise kept as the plain string. Nothing else on the command line is evaluated.
Loading, making and building the game is :mod:`gamegraph.analysis.game_class`'s work; the
diagram's views are :mod:`gamegraph.analysis.diagram_parts`'. See docs/your-game.md.
"""

from __future__ import annotations

import argparse
import ast
import keyword
import os
import time

from ..errors import InvalidArgumentError
from ._common import add_quiet, add_width, probability, whole

_SPEC_HELP = (
    "the game's rules class: package.module:Class (imported) or path/to/file.py:Class "
    "(loaded; this runs the file's code, as python would)"
)
_ARG_HELP = (
    "a keyword argument of the class, repeated as needed: --arg goal=20 --arg name=free; "
    "the value is read as a Python literal (number, string, tuple, ...) or else kept as text"
)
#: The diagram views of ``gamegraph graph``: the whole of optimal play, or a part.
GRAPH_VIEWS = ("full", "likely", "threshold", "around")
#: The top-level commands registered here, with their lines in ``gamegraph --help``.
COMMANDS = {
    "explore": "any game by its class (module:Class or file.py:Class): an interactive page "
    "of its graph (.html)",
    "report": "any game by its class: a report of the game solved (.html, or .md with its "
    "images beside it)",
    "graph": "any game by its class: a diagram of optimal play (DOT, PNG, SVG, PDF)",
}


def add_commands(subparsers) -> None:
    """Register ``explore``, ``report`` and ``graph`` on the top-level subparsers."""
    explore = subparsers.add_parser("explore", help=COMMANDS["explore"])
    _add_spec(explore, "the page to write (.html)")
    add_quiet(explore)
    explore.set_defaults(run=_explore)

    report = subparsers.add_parser("report", help=COMMANDS["report"])
    _add_spec(report, "the report: .html (one self-contained file) or .md (images in NAME_files)")
    report.add_argument(
        "--exact", action="store_true", help="solve in exact fractions (small games only)"
    )
    add_quiet(report)
    report.set_defaults(run=_report)
    graph = subparsers.add_parser("graph", help=COMMANDS["graph"], arguments=_add_graph)
    graph.set_defaults(run=_graph)


def _add_graph(graph) -> None:
    """``graph``'s description and arguments, added when it runs (they load numpy)."""
    from ..analysis.views import DEFAULT_LIMIT, DEFAULT_MINIMUM, DEFAULT_STEPS, MAX_STEPS
    from ..renderers.dot import EXTENSIONS, MAX_DIAGRAM_STATES

    graph.description = (
        "A diagram of optimal play. A diagram of more than "
        f"{MAX_DIAGRAM_STATES} states (or {MAX_DIAGRAM_STATES * 5:,} moves) cannot be "
        "read and takes minutes to lay out: it is refused before the layout, and --view "
        "likely, threshold or around draws a part of any game."
    )
    _add_spec(graph, f"output file; the extension picks the format: {', '.join(EXTENSIONS)}")
    graph.add_argument(
        "--view",
        choices=GRAPH_VIEWS,
        default="full",
        help="full: every state optimal play reaches (default; refused when too large); "
        "likely: the states with the likeliest paths from the start (--limit); threshold: "
        "the states reached often enough (--min-reach); around: a state's neighbourhood "
        "(--state, --steps)",
    )
    graph.add_argument(
        "--limit",
        type=whole(1, "states", high=MAX_DIAGRAM_STATES),
        default=None,
        metavar="N",
        help=f"likely: how many states, 1 to {MAX_DIAGRAM_STATES} (default {DEFAULT_LIMIT})",
    )
    graph.add_argument(
        "--min-reach",
        type=probability,
        default=None,
        metavar="P",
        help="threshold: the least reach drawn, in (0, 1] (expected visits in a game "
        f"that can repeat a state; default {DEFAULT_MINIMUM})",
    )
    graph.add_argument(
        "--state",
        default=None,
        metavar="STATE",
        help="around: the state, by its label as the diagram writes it (e.g. 'choose 0-0 "
        "+2'), as a Python literal of the state (\"('choose', 0, 0, 2)\"), as #NUMBER, or START",
    )
    graph.add_argument(
        "--steps",
        type=whole(1, "moves", high=MAX_STEPS),
        default=None,
        metavar="K",
        help=f"around: moves drawn before and after the state, 1 to {MAX_STEPS} "
        f"(default {DEFAULT_STEPS})",
    )
    graph.add_argument(
        "--weights",
        choices=("count", "probability"),
        default=None,
        help="label edges with the chance the move is taken",
    )
    add_quiet(graph)
    add_width(graph)


def _add_spec(parser, output_help: str) -> None:
    """SPEC, ``--arg`` and ``-o``/``--output`` (required), in that order."""
    parser.add_argument("spec", metavar="SPEC", help=_SPEC_HELP)
    parser.add_argument(
        "--arg",
        dest="args",
        action="append",
        type=game_argument,
        default=[],
        metavar="NAME=VALUE",
        help=_ARG_HELP,
    )
    parser.add_argument("-o", "--output", required=True, help=output_help)


def game_argument(text: str) -> tuple[str, object]:
    """``--arg name=value``: the name (a Python identifier) and the value, read as a
    Python literal or else kept as the plain string.

    >>> game_argument("goal=20"), game_argument("rules=free"), game_argument("hands=(3, 4)")
    (('goal', 20), ('rules', 'free'), ('hands', (3, 4)))
    >>> game_argument("name='a b'"), game_argument("flag=True"), game_argument("x=")
    (('name', 'a b'), ('flag', True), ('x', ''))
    >>> game_argument("goal 20")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'goal 20' is not NAME=VALUE: the name must be ...
    """
    name, equals, value = text.partition("=")
    name = name.strip()
    if not equals or not name.isidentifier() or keyword.iskeyword(name):
        shown = text if len(text) <= 12 else text[:12] + "..."
        raise argparse.ArgumentTypeError(
            f"{shown!r} is not NAME=VALUE: the name must be a Python identifier (e.g. goal=20)"
        )
    try:
        return name, ast.literal_eval(value.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return name, value


def _explore(args, out) -> None:
    from .._files import check_output
    from ..renderers.interactive import EXTENSIONS

    check_output(args.output, EXTENSIONS[:1])  # fail before any work
    from ..analysis import explore_graph
    from ..analysis.game_class import build_game, load_game
    from ..renderers.explorer import explore_figure

    started = time.perf_counter()
    rules, title = load_game(args.spec, args.args)
    graph = build_game(rules, args.progress)
    data = explore_graph(graph, None, {}, progress=args.progress)
    explore_figure(data, title=title).save(args.output)
    out.write(
        f"wrote {args.output}: {title}, {graph.n_states:,} states "
        f"({time.perf_counter() - started:.1f} s)\n"
    )


def _report(args, out) -> None:
    from ..renderers.report import check_report_output, images_folder

    path, extension = check_report_output(args.output)  # before any work
    from ..analysis.game_class import build_game, load_game
    from ..reports.any_game import game_report

    started = time.perf_counter()
    rules, title = load_game(args.spec, args.args)
    graph = build_game(rules, args.progress)
    game_report(graph, title=title, exact=args.exact, progress=args.progress).save(path)
    where = ""
    if extension == ".md" and images_folder(path).is_dir():
        where = f", images in {images_folder(path)}"
    out.write(
        f"wrote {path} ({os.path.getsize(path) / 1024:,.0f} kB{where}) in "
        f"{time.perf_counter() - started:.1f} s\n"
    )


def _check_view_options(args) -> None:
    owners = {"limit": "likely", "min_reach": "threshold", "state": "around", "steps": "around"}
    for option, owner in owners.items():
        if getattr(args, option) is not None and args.view != owner:
            flag = "--" + option.replace("_", "-")
            raise InvalidArgumentError(f"{flag} goes with --view {owner}, not --view {args.view}")
    if args.view == "around" and args.state is None:
        raise InvalidArgumentError(
            "--view around needs --state STATE (a label as the diagram writes it, or START)"
        )


def too_large(error, what: str) -> InvalidArgumentError:
    """A diagram refused for its size, in the command line's words: the views that fit."""
    from ..renderers.dot import MOVES_PER_STATE

    moves = f" and {error.moves:,} moves" if error.moves is not None else ""
    return InvalidArgumentError(
        f"{what} has {error.states:,} states{moves}: a diagram draws at most "
        f"{error.limit:,} states and {MOVES_PER_STATE * error.limit:,} moves (more cannot be "
        "read and take minutes to lay out). Draw a part: --view likely [--limit N] (the "
        "likeliest states), --view threshold --min-reach P (states reached in at least P "
        "of games), or --view around --state STATE [--steps K] (a state's neighbourhood)"
    )


def state_number(graph, text: str) -> int:
    """A state given on the command line: START, #NUMBER, a Python literal of the state,
    or its label as the diagram writes it (:func:`gamegraph.analysis.game_class.find_state`).
    """
    from ..analysis.game_class import find_state

    try:
        return find_state(graph, text)
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"--state {error}") from None


def _graph(args, out) -> None:
    from .._files import check_output
    from ..renderers.dot import (
        EXTENSIONS,
        DiagramTooLargeError,
        check_diagram_size,
        policy_dot,
        reachable_states,
    )

    check_output(args.output, EXTENSIONS)  # fail before any work
    _check_view_options(args)
    from ..analysis import policy_view, views
    from ..analysis.diagram_parts import moves_from, part_selection, part_states
    from ..analysis.game_class import build_game, load_game
    from ..solve import solve

    started = time.perf_counter()
    rules, title = load_game(args.spec, args.args)
    graph = build_game(rules, args.progress)
    focus = state_number(graph, args.state) if args.view == "around" else None
    solution = solve(graph, progress=args.progress)
    chain = solution.policy.chain(graph)
    selection = None
    try:
        if args.view == "full":
            reached = reachable_states(chain)
            check_diagram_size(len(reached))  # before the moves and the propagation
            check_diagram_size(len(reached), moves_from(chain, reached))
        else:
            options = dict(limit=args.limit, min_reach=args.min_reach, steps=args.steps)
            states, caption = part_states(graph, chain, args.view, focus=focus, **options)
            check_diagram_size(len(states))
            selection = part_selection(chain, states, caption, focus)
        view = policy_view(graph, solution.policy, reach=True)
        diagram = policy_dot(
            view,
            title=f"{title}: optimal play ({views.start_text(solution.start_value, graph)})",
            weights=args.weights,
            selection=selection,
        )
    except DiagramTooLargeError as error:
        what = "optimal play" if args.view == "full" else f"--view {args.view}"
        raise too_large(error, what) from None
    if args.width is not None:
        diagram = diagram.at_width(
            args.width,
            instead="a part of the game: --view likely [--limit N], --view threshold "
            "[--min-reach P] or --view around --state STATE [--steps K]",
        )
    diagram.save(args.output)
    drawn = len(selection.states) if selection is not None else len(reachable_states(chain))
    out.write(
        f"wrote {args.output}: {title}, {drawn:,} of {graph.n_states:,} states "
        f"({time.perf_counter() - started:.1f} s)\n"
    )
