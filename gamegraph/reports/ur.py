"""The Royal Game of Ur report: start values by piece count, a board with the value of
every move, win probability by pieces borne off, and an agent tournament.

Small piece counts only (1 to :data:`MAX_PIECES` a side): every position is solved, which
takes seconds up to three pieces (263,121 positions) and minutes from four.
:func:`ur_report` returns a :class:`~gamegraph.renderers.report.Report`.
"""

from __future__ import annotations

import random
import time

from .._checks import check_games, check_int
from ..build import build
from ..errors import InvalidArgumentError
from ..games.ur import WIN, Ur, format_position, legal_moves, play, rule_set
from ..games.ur.analysis import borne_off_map, solve_table
from ..games.ur.code_table import table_from_solution
from ..games.ur.graph_match import agent_rows, round_robin
from ..games.ur.rules import start_position
from ..renderers.report import Report
from ..renderers.ur_board import board_figure, board_layout
from ..renderers.ur_figures import borne_off_figure
from ..solve import solve
from ..tables import Table
from .defaults import UR_GAMES, UR_MAX_PIECES, UR_PIECES

#: The most pieces a side the report solves (seconds); four take minutes.
MAX_PIECES = UR_MAX_PIECES
#: Pieces a side unless asked otherwise.
PIECES = UR_PIECES
#: Games per pairing in the tournament.
GAMES = UR_GAMES
#: The tournament's agents.
AGENTS = ("random", "first", "last", "greedy", "gain", "optimal")


def example_position(table, *, seed: int = 1, skip: int = 6, plies: int = 400):
    """A position and throw worth drawing: optimal self-play from the start (seeded
    throws) until, after ``skip`` plies, some throw offers moves whose values differ.

    Returns ``(state, throw)``: the throw whose moves differ most in value, or, when no
    such position turns up (one piece a side has a single move per throw), the last
    position seen with a throw that moves.

    >>> state, throw = example_position(solve_table("finkel", pieces=2))
    >>> len(legal_moves(state, throw, rule_set("finkel", 2))) >= 2
    True
    """
    ruleset = table.ruleset
    throws = [t for t, _ in ruleset.throws]
    weights = [float(p) for _, p in ruleset.throws]
    rng = random.Random(seed)
    state, fallback = start_position(), None
    for ply in range(plies):
        moving = [t for t in throws if legal_moves(state, t, ruleset)]
        if moving:
            fallback = (state, moving[-1])
        if ply >= skip:
            spread = []
            for t in moving:
                values = [v for _, v in table.move_values(state, t)]
                if len(values) > 1:
                    spread.append((max(values) - min(values), -t, t))
            if spread and max(spread)[0] > 1e-3:
                return state, max(spread)[2]
        throw = rng.choices(throws, weights)[0]
        move = table.best_move(state, throw)
        if move is None:
            state = state.flipped()
            continue
        state, _ = play(state, move, ruleset)
        if state == WIN:
            state = start_position()
    if fallback is None:  # pragma: no cover - every rule set moves from the start
        raise InvalidArgumentError("no position with a legal move was found")
    return fallback


def ur_report(
    *,
    rules: str = "finkel",
    pieces: int = PIECES,
    games: int = GAMES,
    seed: int = 1,
    progress: bool | None = None,
) -> Report:
    """Build the Ur report for ``rules`` with 1 to :data:`MAX_PIECES` pieces a side.

    Parameters
    ----------
    rules : str
        ``finkel``, ``masters``, ``blitz`` or ``aseb``.
    pieces : int
        Pieces a side of the game shown (start values are given for 1 to ``pieces``).
    games : int
        Games per pairing of the tournament, half with each agent moving first.
    seed : int
        Seeds the tournament and the choice of the example position.
    progress : bool, optional
        Progress bars on stderr for the build, the solve and the tournament.
    """
    pieces = check_int(pieces, "pieces", low=1, high=MAX_PIECES)
    games = check_games(games)
    ruleset = rule_set(rules, pieces)
    started = time.perf_counter()
    smaller = {n: solve_table(ruleset.name, n) for n in range(1, pieces)}
    graph = build(Ur(ruleset), progress=progress)
    solution = solve(graph, tol=1e-13, progress=progress)
    table = table_from_solution(solution)
    tables = {**smaller, pieces: table}
    state, throw = example_position(table, seed=seed)
    move_values = table.move_values(state, throw)
    bmap = borne_off_map(table)
    rows = round_robin(graph, list(AGENTS), games=games, seed=seed, table=table, progress=progress)
    seconds = time.perf_counter() - started

    name = ruleset.name
    report = Report(
        f"The Royal Game of Ur: {name} rules, {pieces} piece{'s' if pieces > 1 else ''} a side",
        footer=(
            f"Ur, {name} rules: "
            + ", ".join(
                f"{len(t):,} positions ({n} piece{'s' if n > 1 else ''} a side)"
                for n, t in tables.items()
            )
            + f" solved to 1e-13; tournament of {len(rows)} pairings x "
            f"{games:,} games (seed {seed}); computed in {seconds:.1f} s"
        ),
    )
    report.text(
        "Every position is solved: its value is the probability that the side about to "
        "throw wins under optimal play by both sides. The full game (7 pieces under finkel "
        "rules) has 137,913,936 positions; these smaller games keep the same board and dice."
    )
    report.heading("Start values")
    report.table(_start_values_table(tables, name))
    report.heading("The value of every move")
    _move_values_section(report, table, state, throw, move_values)
    report.figure(
        borne_off_figure(bmap),
        caption="Win probability by pieces borne off (board empty; average over positions)",
        name="borne-off",
    )
    report.heading("Agent tournament")
    report.text(
        f"Every pair of agents plays {games:,} games, half with each moving first (seed "
        f"{seed}). Loss: the win probability an agent gives up per decision, measured "
        "against the solved values; non-optimal: the share of its decisions that give up "
        "any."
    )
    report.table(_agents_table(rows))
    report.table(_pairings_table(rows))
    return report


def _start_values_table(tables: dict, name: str) -> Table:
    """Each piece count's positions and start value."""
    return Table(
        ("pieces a side", "positions", "first player wins", "advantage of moving first"),
        [(n, len(t), t.start_value, t.start_value - 0.5) for n, t in tables.items()],
        title=f"Win probability of the side that moves first ({name} rules)",
        formats={
            "first player wins": lambda v: f"{v:.10f}",
            "advantage of moving first": lambda v: f"{100 * v:+.4f} points",
        },
    )


def _move_values_section(report: Report, table, state, throw: int, move_values) -> None:
    """The example position: its value, and its board with every move's value."""
    ruleset = table.ruleset
    best = max(v for _, v in move_values)
    report.text(
        f"A position from optimal self-play, {format_position(state)} (the side to move is "
        f"light, at the bottom), after a throw of {throw}: each arrow is a legal move, "
        f"labelled with the win probability it leaves; the best ({best:.4f}) is green. The "
        f"position itself is worth {table.value(state):.4f} before the throw."
    )
    report.figure(
        board_figure(
            board_layout(
                ruleset,
                state,
                throw=throw,
                move_values=move_values,
                title=(
                    f"Ur ({ruleset.name}, {ruleset.pieces} pieces): {format_position(state)}, "
                    f"throw {throw}"
                ),
            )
        ),
        caption=f"Moves after a throw of {throw} from {format_position(state)}",
        name="board",
    )


def _agents_table(rows: list) -> Table:
    """Each agent over all its games of the tournament, best first."""
    totals = sorted(agent_rows(rows), key=lambda row: -row["win_rate"])
    return Table(
        ("agent", "games", "wins", "win rate", "mean loss", "non-optimal"),
        [
            (
                row["agent"],
                row["games"],
                row["wins"],
                row["win_rate"],
                row["mean_loss"],
                row["nonoptimal"],
            )
            for row in totals
        ],
        title="Each agent over all its games",
        formats={
            "win rate": lambda v: f"{v:.3f}",
            "mean loss": lambda v: f"{v:.5f}",
            "non-optimal": lambda v: f"{100 * v:.1f} %",
        },
    )


def _pairings_table(rows: list) -> Table:
    """Each pairing of the tournament: A's win rate with its interval."""
    return Table(
        ("A", "B", "A wins", "95 % interval", "first mover wins"),
        [
            (
                row["a"],
                row["b"],
                row["a_rate"],
                f"{row['low']:.3f} .. {row['high']:.3f}",
                row["first_rate"],
            )
            for row in rows
        ],
        title="Pairings: A's win rate with its 95 % Wilson interval",
        formats={"A wins": lambda v: f"{v:.3f}", "first mover wins": lambda v: f"{v:.3f}"},
    )
