"""Build the gallery: every diagram, figure and table the project publishes.

Run ``gamegraph gallery [FOLDER]`` (``make gallery`` does). Writes into FOLDER
(default ``gallery``) and finishes with ``index.html``, a self-contained page linking
everything, and ``results.md``.
"""

from __future__ import annotations

import contextlib
import functools
import io
import sys
import time
from pathlib import Path

from gamegraph import build, solve
from gamegraph.errors import OutputError
from gamegraph.games.jackpot import AGENTS, PUBLISHED_PERCENT, Jackpot
from gamegraph.propagate import propagate
from gamegraph.simulate import simulate

from ._escape import html_text
from ._extras import require
from ._files import check_output, write_atomic
from .renderers import dot, figures
from .renderers.report import inline_html
from .tables import format_value

MONTE_CARLO_GAMES = 1_000_000
MONTE_CARLO_SEED = 2026


class _Steps:
    """Prints one line per step with its time, so a long build shows progress; with
    ``progress=False`` (``gamegraph gallery --quiet``) it prints nothing.
    """

    def __init__(self, stream=sys.stdout, progress: bool | None = None):
        self.stream = stream
        self.items = []
        self.progress = progress
        self.quiet = progress is False

    def __call__(self, message):
        if not self.quiet:
            self.stream.write(f"  {message} ... ")
            self.stream.flush()
        self.started = time.perf_counter()
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if not self.quiet:
            seconds = time.perf_counter() - self.started
            self.stream.write("failed\n" if exc[0] else f"{seconds:.2f} s\n")
        return False


#: The Jackpot diagrams: file, policy, view and style, caption.
JACKPOT_DIAGRAMS = [
    (
        "jackpot-hilo-layers.png",
        "hilo",
        dict(view="full", style="layers"),
        "HiLo's game graph on one A3 page: a band per layer (cells flipped), positions "
        "labelled by the cells still open, edge width the share of games making the move, "
        "vermillion fill where games are lost.",
    ),
    (
        "jackpot-hilo-moves.png",
        "hilo",
        dict(view="full", style="moves"),
        "HiLo's game graph with each edge coloured by the cell it flips.",
    ),
    (
        "jackpot-optimal-layers.png",
        "optimal",
        dict(view="full", style="layers"),
        "The optimal policy's game graph (retrograde solve); the reference did not compute it.",
    ),
    (
        "jackpot-hilo-diff.png",
        "hilo",
        dict(view="diff"),
        "Where HiLo gives up win probability: each position where its move is worse than "
        "the optimum's, the throws concerned, its move and the better one, and what it "
        "costs in wins per million games (the costs add up to the difference in value).",
    ),
    (
        "jackpot-hilo-threshold.png",
        "hilo",
        dict(view="threshold", style="moves", min_reach=0.02),
        "HiLo's positions reached in at least 2 % of games, each move labelled with the "
        "cell and the number of the 36 rolls taking it.",
    ),
    (
        "jackpot-hilo-moves-weights.svg",
        "hilo",
        dict(view="full", style="moves", weights="count", reach=True),
        "HiLo, moves labelled with the cell and the number of the 36 rolls taking them; "
        "each position shows its reach probability (SVG, zoomable).",
    ),
]


@functools.cache
def _jackpot_results():
    """The Jackpot report's exact results (:func:`gamegraph.reports.jackpot.jackpot_results`),
    computed once per gallery build: the Jackpot section draws from them and the report
    reuses them. :func:`build_gallery` forgets them when it is done.
    """
    from .reports.jackpot import jackpot_results

    return jackpot_results()


def jackpot_section(folder: Path, step) -> tuple[str, list]:
    """Jackpot diagrams, figures and the results table; returns (markdown, html items)."""
    with step("jackpot: build and solve exactly"):
        results = _jackpot_results()
    items = []
    for name, agent, options, caption in JACKPOT_DIAGRAMS:
        with step(f"jackpot: {name}"):
            diagram = _jackpot_diagram(results, agent, options)
            diagram.save(folder / name)
            diagram.save(folder / (Path(name).stem + ".dot"))
        # An SVG-only diagram borrows the thumbnail of the same graph drawn as PNG.
        thumb = "jackpot-hilo-moves.png" if name.endswith(".svg") else None
        items.append((name, caption, thumb))
    with step("jackpot: figures"):
        figures.save(
            figures.policy_bars(
                results.rows,
                title="Jackpot: exact win probability by policy",
                published=PUBLISHED_PERCENT,
            ),
            folder / "jackpot-policies.png",
        )
        figures.save(figures.layer_summary_figure(results.layers), folder / "jackpot-lost-at.png")
    items[:0] = [
        (
            "jackpot-policies.png",
            "Exact win probability of the six agents and of "
            "the optimal policy; black ticks are the reference's published figures.",
        ),
        (
            "jackpot-lost-at.png",
            "How far games get: the share of games reaching each number of cells flipped, "
            "and the share lost there (min, last, HiLo, optimal).",
        ),
    ]
    return _jackpot_markdown(results, step), items


def _jackpot_diagram(results, agent: str, options: dict):
    """One of :data:`JACKPOT_DIAGRAMS`: ``agent``'s graph in full or in part, or where it
    differs from the optimum (what ``gamegraph jackpot graph`` draws, from the same call).
    """
    from gamegraph.games.jackpot.analysis import jackpot_drawing

    if options["view"] == "diff":
        return dot.policy_diff_dot(results.graph, results.diff)
    drawing = jackpot_drawing(
        agent,
        options["view"],
        min_reach=options.get("min_reach"),
        graph=results.graph,
        solution=results.optimum,
        policy=results.by_name[agent].policy,
    )
    return dot.policy_dot(
        drawing.drawn,
        style=options["style"],
        weights=options.get("weights"),
        show_reach=options.get("reach", False),
        selection=drawing.selection,
        title=drawing.title,
    )


def _jackpot_markdown(results, step) -> str:
    """The Jackpot results table: every policy exactly, beside the published figure, a
    seeded Monte Carlo estimate and the expected throws.
    """
    graph = results.graph
    lines = [
        "## Jackpot",
        "",
        f"{graph.n_states} positions; layers {graph.layer_counts()}. Exact values by "
        f"retrograde solving; Monte Carlo: {MONTE_CARLO_GAMES:,} seeded games "
        f"(seed {MONTE_CARLO_SEED}) per policy.",
        "",
        "| policy | exact win probability | % | published % | Monte Carlo % (95 % interval) "
        "| expected throws |",
        "|---|---|---|---|---|---|",
    ]
    with step(f"jackpot: Monte Carlo, {MONTE_CARLO_GAMES:,} games per policy"):
        for row in results.rows:
            mc = simulate(graph, row.policy, games=MONTE_CARLO_GAMES, seed=MONTE_CARLO_SEED)
            low, high = mc.interval()
            throws = float(propagate(graph, row.policy).expected_throws)
            lines.append(
                f"| {row.name} | {format_value(row.win)} | {row.percent:.4f} "
                f"| {PUBLISHED_PERCENT.get(row.name, '(not published)')} "
                f"| {100 * mc.estimate:.3f} ({100 * low:.3f} .. {100 * high:.3f}) | {throws:.4f} |"
            )
    return "\n".join(lines) + "\n"


def _markdown_html(markdown: str) -> str:
    """The little Markdown the sections write as HTML: tables, lists, paragraphs, links
    (text, code and links as in a report: :func:`gamegraph.renderers.report.inline_html`).
    """
    out, table, bullets = [], [], []

    def flush():
        if bullets:
            out.append("<ul>" + "".join(f"<li>{inline_html(b)}</li>" for b in bullets) + "</ul>")
            bullets.clear()
        if not table:
            return
        out.append("<table>")
        for n, line in enumerate(table):
            if n == 1:
                continue
            tag = "th" if n == 0 else "td"
            cells = [inline_html(c.strip()) for c in line.strip().strip("|").split("|")]
            out.append("<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>")
        out.append("</table>")
        table.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        if line.startswith("- "):
            bullets.append(line[2:])
            continue
        flush()
        if line.strip() and not line.startswith("#"):
            out.append(f"<p>{inline_html(line)}</p>")
    flush()
    return "\n".join(out)


SUPERSIX_PEGS = 40
SUPERSIX_STRATEGY_STICKS = range(4, 21)


def supersix_section(folder: Path, step) -> tuple[str, list]:
    """Super Six: interactive page, static maps, start values and strategy strings."""
    from gamegraph.games.supersix import RULESETS, SuperSix, decision_table
    from gamegraph.games.supersix.analysis import start_values, throw_values

    from .renderers import heatmap, supersix_maps

    high = max(SUPERSIX_PEGS, 60)
    tabled = (4, 6, 10, 20, 40, 60)
    with step(f"supersix: solve up to {high} pegs, and 20 sticks exactly"):
        table = decision_table(solve(build(SuperSix(pegs=high))))
        exact_table = decision_table(solve(build(SuperSix(hands=(10, 10))), exact=True))
        # The page's slider moves one peg at a time: every total gets its start value
        # under both rule sets, read from the table (nothing more is solved).
        starts = {rules: start_values(table, range(4, high + 1), rules) for rules in RULESETS}
    items = []
    with step("supersix: interactive page"):
        name = f"supersix-{SUPERSIX_PEGS}.html"
        heatmap.write_page(
            folder / name,
            heatmap.page(
                table,
                pegs=SUPERSIX_PEGS,
                pegs_range=(4, high),
                start_values=starts,
                rules_name="free",
                after_throws=throw_values(table),
            ),
        )
    with step("supersix: static maps"):
        for metric, caption in (
            ("decision", "Roll (green) or stop (red), one panel per pegs on the lid."),
            ("choice", "P_choice: the mover's win probability under optimal play."),
            ("margin", "P_roll - P_end on a signed log scale: blue rolls, red stops."),
        ):
            figure_name = f"supersix-{SUPERSIX_PEGS}-{metric}.png"
            supersix_maps.supersix_maps(table, total=SUPERSIX_PEGS, metric=metric).save(
                folder / figure_name
            )
            items.append((figure_name, f"Super Six, {SUPERSIX_PEGS} pegs. {caption}"))

    with step(f"supersix: the blog's LP relaxation at {SUPERSIX_PEGS} pegs"):
        items.append(_supersix_lp_item(folder))
    page = (
        name,
        f"Interactive roll/stop maps, 4 to {high} pegs: a menu for the decision, P_choice "
        "and the margin, a slider for the total; hover for every probability.",
        f"supersix-{SUPERSIX_PEGS}-decision.png",
    )
    return _supersix_markdown(name, starts, exact_table, tabled), [page, *items]


def _supersix_lp_item(folder: Path) -> tuple:
    """The map of where the blog's LP relaxation is off, and its caption."""
    from gamegraph.games.supersix import SuperSix, by_position
    from gamegraph.mathprog import lp_relaxation

    from .renderers import supersix_maps

    graph = build(SuperSix(pegs=SUPERSIX_PEGS))
    relaxation = lp_relaxation(graph)
    b, c, o, error = by_position(graph, relaxation.outcomes, relaxation.relative_error)
    worst = int(error.argmax())
    lp_name = f"supersix-{SUPERSIX_PEGS}-lp-error.png"
    supersix_maps.relative_error_maps(
        b,
        c,
        o,
        error,
        total=SUPERSIX_PEGS,
        title=f"LP relaxation, {SUPERSIX_PEGS} pegs: relative error of P_choice (blank: exact)",
    ).save(folder / lp_name)
    return (
        lp_name,
        "Why the blog's linear program failed: minimising the sum of "
        "the P_choice variables leaves some of them above the maximum they stand "
        f"for. Largest error {error[worst]:.3%} at {b[worst]}/{c[worst]}/{o[worst]}; "
        f"{int((error > 1e-6).sum())} positions are off, all with "
        f"{sorted(set(b[error > 1e-6].tolist()))} on the lid.",
    )


def _supersix_markdown(name: str, starts: dict, exact_table, tabled) -> str:
    """Super Six's start values by pegs, and its strategy strings against the paper's."""
    from gamegraph.games.supersix import strategy_string

    lines = [
        "## Super Six",
        "",
        f"Interactive roll/stop maps: [{name}]({name}) (one self-contained page).",
        "",
        "| pegs | first player wins (free) | first player wins (first-round) |",
        "|---|---|---|",
    ]
    for total in tabled:
        lines.append(
            f"| {total} | {float(starts['free'][total]):.6f} "
            f"| {float(starts['first-round'][total]):.6f} |"
        )
    lines += [
        "",
        "Optimal strategies in Jehn's notation (exact solve; 1 = roll again, "
        "0 = stop; groups by pegs on the lid from 1 to 5):",
        "",
        "| sticks | strategy | as published |",
        "|---|---|---|",
    ]
    for sticks in SUPERSIX_STRATEGY_STICKS:
        ours = strategy_string(exact_table, sticks)
        lines.append(f"| {sticks} | `{ours}` | {_strategy_verdict(sticks, ours)} |")
    return "\n".join(lines) + "\n"


def _strategy_verdict(sticks: int, ours: str) -> str:
    """How our strategy string for ``sticks`` compares with the paper's."""
    from gamegraph.games.supersix import PUBLISHED_STRATEGIES

    published = PUBLISHED_STRATEGIES.get(sticks)
    if published is None:
        return "(not published)"
    if published == ours:
        return "same"
    if published == ours[:-1] + "0)":
        return "same, but the paper prints one digit too many in the last group"
    return f"differs: `{published}`"


UR_BOARD_POSITION, UR_BOARD_THROW = "6,8,12/9,10,11", 3  # Finkel, 3 pieces: see ur_section
#: Start values shown per rule set. Finkel's 3-piece table is needed for the board and the
#: heatmap anyway; masters and blitz (unsafe rosettes) solve far more slowly than finkel
#: and aseb (2 pieces: seconds rather than a fraction of one), so they stop at 1 piece.
UR_START_PIECES = {"finkel": (1, 2, 3), "masters": (1, 2), "blitz": (1, 2), "aseb": (1, 2)}


def ur_section(folder: Path, step) -> tuple[str, list]:
    """The Royal Game of Ur: an annotated board, the one-piece game's graph, win
    probability by pieces borne off, and start values of each rule set.

    Three pieces are solved for Finkel only (263,121 positions); the other rule sets'
    larger games (see :data:`UR_START_PIECES`) would take the gallery over its time budget.
    """
    from gamegraph.games.ur.analysis import borne_off_map, solve_table

    from .renderers import ur_figures

    starts, tables = {}, {}
    with step("ur: solve finkel with 3 pieces"):
        tables[("finkel", 3)] = solve_table("finkel", 3)
    with step("ur: solve the start values' smaller games"):
        for rules, counts in UR_START_PIECES.items():
            for pieces in counts:
                if (rules, pieces) not in tables:
                    tables[(rules, pieces)] = solve_table(rules, pieces)
                starts[(rules, pieces)] = tables[(rules, pieces)].start_value
    table = tables[("finkel", 3)]

    items = []
    with step("ur: annotated board"):
        items.append(_ur_board_item(folder, table))
    with step("ur: the one-piece game's graph (DOT, SVG, PNG)"):
        _draw_ur_graph(folder)
    items.append(
        (
            "ur-finkel-1-graph.png",
            "Every position of the one-piece game (mover's square / opponent's square) "
            "with the mover's win probability (red below 1/2, green above), ranked by "
            "squares walked. Green edges win, blue land on a rosette and throw again, "
            "red capture, grey pass the turn after moving, dotted grey are throws "
            "without a move.",
        )
    )
    with step("ur: win probability by pieces borne off"):
        bmap = borne_off_map(table)
        ur_figures.draw_borne_off(bmap, folder / "ur-finkel-3-borne-off.png")
        ur_figures.write_borne_off_page(bmap, folder / "ur-finkel-3-borne-off.html")
    n = bmap.pieces
    items.append(
        (
            "ur-finkel-3-borne-off.png",
            f"Finkel, {n} pieces: the mover's win probability by pieces borne off, with "
            f"the board empty (left; from {bmap.empty[0, n - 1]:.3f} with 0 borne off "
            f"against {n - 1} to {bmap.empty[n - 1, 0]:.3f} with {n - 1} against 0) and "
            "averaged over every position with those counts (right).",
        )
    )
    return _ur_markdown(starts, tables), items


def _ur_board_item(folder: Path, table) -> tuple:
    """The annotated board of :data:`UR_BOARD_POSITION` (PNG and SVG) and its caption,
    which names every move.
    """
    from .renderers import ur_board

    moves = table.move_values(UR_BOARD_POSITION, UR_BOARD_THROW)
    title = (
        f"Ur (Finkel, 3 pieces each): {UR_BOARD_POSITION}, light to move, throw {UR_BOARD_THROW}"
    )
    for name in ("ur-finkel-3-board.png", "ur-finkel-3-board.svg"):
        layout = ur_board.draw_board(
            table.ruleset,
            UR_BOARD_POSITION,
            folder / name,
            throw=UR_BOARD_THROW,
            move_values=moves,
            title=title,
        )
    best = [mark for mark in layout.moves if mark.best]
    others = [mark for mark in layout.moves if not mark.best]
    length = table.ruleset.length
    return (
        "ur-finkel-3-board.png",
        f"A position where capturing is not best: {len(layout.moves)} moves after "
        f"a throw of {UR_BOARD_THROW}, "
        f"{sum(1 for m in layout.moves if m.move[2])} of them captures. Best: "
        + "; ".join(_move_said(m, length) for m in best)
        + "."
        + (" Others: " + "; ".join(_move_said(m, length) for m in others) + "." if others else "")
        + " Numbers are light's win probability after each move (optimal play from "
        "then on); arrows follow light's path; small numbers are square numbers "
        "(dark's where they differ).",
    )


def _move_said(mark, length: int) -> str:
    """A move drawn on the board, in words, with its label (``length``: the path's)."""
    source, target, captures = mark.move
    if source == 0:
        what = f"entering at {target}"
    elif target == length + 1:
        what = f"bearing off from {source}"
    else:
        what = f"moving {source} to {target}"
    return what + (" (a capture)" if captures else "") + f", {mark.label}"


def _draw_ur_graph(folder: Path) -> None:
    """The one-piece game's graph, solved, as DOT, SVG and PNG."""
    from gamegraph.games.ur import Ur

    from .renderers import ur_figures

    one = solve(Ur("finkel", 1).build_graph())
    graph_title = (
        f"Ur (Finkel), one piece each: {one.graph.n_states - 1} positions "
        f"and WIN; the first player wins {float(one.start_value):.4f}"
    )
    source = ur_figures.graph_dot(one, title=graph_title)
    for name in ("ur-finkel-1-graph.dot", "ur-finkel-1-graph.svg", "ur-finkel-1-graph.png"):
        dot.write(source, folder / name)


def _ur_markdown(starts: dict, tables: dict) -> str:
    """Ur's start values by rule set and pieces, and the positions of each table."""
    counts = sorted({p for pieces in UR_START_PIECES.values() for p in pieces})
    lines = [
        "## The Royal Game of Ur",
        "",
        "Solved positions, optimal play for both sides (float solve to a residual of "
        "1e-13). The one-piece game's graph: "
        "[ur-finkel-1-graph.svg](ur-finkel-1-graph.svg) (zoomable; hover for values), "
        "[ur-finkel-1-graph.dot](ur-finkel-1-graph.dot); the annotated board as "
        "[ur-finkel-3-board.svg](ur-finkel-3-board.svg).",
        "",
        "Probability that the side moving first wins:",
        "",
        "| rule set | " + " | ".join(f"{p} piece{'s' if p > 1 else ''}" for p in counts) + " |",
        "|---" * (len(counts) + 1) + "|",
    ]
    for rules in UR_START_PIECES:
        cells = [f"{starts[(rules, p)]:.6f}" if (rules, p) in starts else "\u2014" for p in counts]
        lines.append(f"| {rules} | " + " | ".join(cells) + " |")
    lines += ["", "\u2014: not solved in the gallery build, to keep it short."]
    lines += [
        "",
        "Positions per table: "
        + ", ".join(
            f"{rules} {pieces}: {len(tables[(rules, pieces)]):,}"
            for rules, pieces in sorted(
                tables, key=lambda k: (list(UR_START_PIECES).index(k[0]), k[1])
            )
        )
        + ".",
    ]
    return "\n".join(lines) + "\n"


#: The Yahtzee game drawn (its dice seed) and the turn of it whose graph is explored.
YAHTZEE_SEED, YAHTZEE_TURN = 1, 7
#: The Yahtzee boxes the gallery solves: None for every box (the full game, about two
#: minutes in all); the test suite sets a few boxes, to run the same code in seconds.
YAHTZEE_BOXES = None


def yahtzee_section(folder: Path, step) -> tuple[str, list]:
    """Yahtzee solved once (about 35 s): the exact score distributions of optimal play and
    two simple strategies (about 65 s together), each open box's worth by turn under
    optimal play (25 s) and through one optimal game, one turn's graph as an explorer
    page, and the report from the same table.
    """
    from .games.yahtzee.distribution import score_distribution
    from .games.yahtzee.scoring import scoring
    from .games.yahtzee.solver import solve_values
    from .games.yahtzee.table_file import describe
    from .reports.yahtzee import STRATEGIES, optimal_game, worth_by_turn, yahtzee_report

    with step("yahtzee: solve every turn-start position"):
        table = solve_values(scoring("yahtzee", boxes=YAHTZEE_BOXES))
    rules = table.scoring
    name = describe(rules)
    with step("yahtzee: exact score distributions (optimal, two strategies)"):
        dists = {"optimal": score_distribution(table)}
        for strategy in STRATEGIES:
            dists[strategy] = score_distribution(rules, strategy)
    with step("yahtzee: each box's worth by turn under optimal play"):
        by_turn = worth_by_turn(table)
    with step("yahtzee: the distribution and the boxes' worth (PNG, SVG)"):
        game = optimal_game(table, seed=YAHTZEE_SEED)
        _yahtzee_figures(folder, name, rules.boxes, dists, by_turn, game)
    optimal = dists["optimal"]
    total = sum(turn.points for turn in game)
    items = [
        (
            "yahtzee-distribution.png",
            f"The exact distribution of the final score (chance per 5 points): optimal play "
            f"(mean {optimal.mean:.4f}, sd {optimal.std:.4f}, median {optimal.median}), most "
            f"of a kind (mean {dists['most of a kind'].mean:.2f}) and greedy best box (mean "
            f"{dists['greedy'].mean:.2f}); each mean is a vertical line in its player's style.",
        ),
        (
            "yahtzee-box-worth-by-turn.png",
            "What each box is worth at the start of each turn under optimal play: the "
            "expected final score lost by ignoring the dice and writing 0 in it, averaged "
            "over the positions where it is open (first line), and the chance that it is "
            "still open (second line).",
        ),
        (
            "yahtzee-box-worth.png",
            f"One optimal game (dice seed {YAHTZEE_SEED}, {total} points): at the start of "
            "each turn, what each open box is worth, the expected final score lost by "
            "ignoring the dice and writing 0 in it; outlined, the box scored that turn and "
            "its points.",
        ),
    ]
    turn_number = min(YAHTZEE_TURN, len(game))
    with step(f"yahtzee: turn {turn_number}'s graph as an explorer page"):
        data = _yahtzee_turn_page(folder, table, name, game, turn_number)
    items.append(
        (
            "explore-yahtzee-turn.html",
            f"Turn {turn_number} of that game as a graph ({data.n_states:,} states): "
            "the throws, keeps and boxes with their values, and where the simple "
            "strategies' choices give value away.",
            "yahtzee-box-worth.png",
        )
    )
    with step("yahtzee: the report (.html and .md), from the same table"):
        report = yahtzee_report(
            table=table, distributions=dists, by_turn=by_turn, seed=YAHTZEE_SEED
        )
        report.save(folder / "report-yahtzee.html")
        report.save(folder / "report-yahtzee.md")
    items.append(
        (
            "report-yahtzee.html",
            "Yahtzee: the optimum, the strategies, the distribution, the boxes' worth and "
            "advice (one self-contained page)",
            "yahtzee-distribution.png",
        )
    )
    return _yahtzee_markdown(name, table, dists), items


def _yahtzee_figures(folder: Path, name: str, boxes, dists, by_turn, game) -> None:
    """The report's three Yahtzee figures (:mod:`gamegraph.reports.yahtzee`), each as PNG
    and SVG.
    """
    from .reports.yahtzee import distribution_figure, game_figure, worth_by_turn_figure

    for figure, stem in (
        (distribution_figure(dists, name), "yahtzee-distribution"),
        (game_figure(boxes, game, name), "yahtzee-box-worth"),
        (worth_by_turn_figure(boxes, by_turn, name), "yahtzee-box-worth-by-turn"),
    ):
        for ext in (".png", ".svg"):
            figures.save(figure, folder / f"{stem}{ext}")


def _yahtzee_turn_page(folder: Path, table, name: str, game, turn_number: int):
    """One turn of the game drawn, as a graph in an explorer page; returns its data."""
    from .analysis.explore import explore_graph
    from .games.yahtzee.turn import TurnRules
    from .policy import Policy
    from .renderers.explorer import explore_figure
    from .reports.yahtzee import STRATEGIES

    rules = table.scoring
    position = game[turn_number - 1].position
    filled = tuple(b for k, b in enumerate(rules.boxes) if position.used >> k & 1)
    rules_ = TurnRules(table, filled=filled, upper=min(position.upper, 63), flag=position.flag)
    graph = build(rules_)
    agents = {s: Policy.from_agent(graph, rules_.strategy(s), s) for s in STRATEGIES}
    data = explore_graph(graph, None, agents)
    title = (
        f"{name}: turn {turn_number} of the game drawn, boxes filled: "
        f"{', '.join(filled)}; upper total {position.upper}"
    )
    explore_figure(data, title=title).save(folder / "explore-yahtzee-turn.html")
    return data


def _yahtzee_markdown(name: str, table, dists: dict) -> str:
    """Yahtzee's optimum and each player's mean, and links to its pages."""
    rules = table.scoring
    lines = [
        f"## {name}",
        "",
        (
            f"Solved at full size: optimal expected score {table.start_value:.4f} (published "
            "254.5896). "
            if YAHTZEE_BOXES is None
            else f"Solved with the boxes {', '.join(rules.boxes)} only: optimal expected "
            f"score {table.start_value:.4f}. "
        )
        + ", ".join(f"{player} {d.mean:.4f}" for player, d in dists.items())
        + " (exact means of the distributions).",
        "",
        "- [yahtzee-distribution.png](yahtzee-distribution.png), "
        "[yahtzee-box-worth-by-turn.png](yahtzee-box-worth-by-turn.png), "
        "[yahtzee-box-worth.png](yahtzee-box-worth.png) (and .svg); the turn explorer "
        "[explore-yahtzee-turn.html](explore-yahtzee-turn.html); the report "
        "[report-yahtzee.html](report-yahtzee.html), or as Markdown "
        "[report-yahtzee.md](report-yahtzee.md) with its images in `report-yahtzee_files/`.",
    ]
    return "\n".join(lines) + "\n"


def _supersix_explored():
    from .games.supersix import SuperSix
    from .games.supersix.analysis import fixed_policies

    graph = SuperSix(pegs=40).build_graph()
    return graph, fixed_policies(graph), "Super Six (free rules, 40 pegs)"


def explorer_section(folder: Path, step) -> tuple[str, list]:
    """Interactive graph explorers: Jackpot under every agent, Super Six and one-piece Ur."""
    from .analysis import explore_graph
    from .games.ur import Ur
    from .games.ur.agents import make_agent
    from .renderers.explorer import explore_figure

    pages = [
        (
            "explore-jackpot.html",
            "Jackpot: all 512 positions grouped by cells flipped; the most likely states, "
            "a position's neighbours or its likeliest path, each with its cells drawn; the "
            "optimum beside the six agents and the win chance each gives away",
            lambda: (build(Jackpot()), AGENTS, "Jackpot"),
            "jackpot-optimal-layers.png",
        ),
        (
            "explore-supersix.html",
            "Super Six with 40 pegs: every position, grouped by pegs in play, the optimal "
            "roll/stop choice against always stopping and always rolling",
            _supersix_explored,
            f"supersix-{SUPERSIX_PEGS}-decision.png",
        ),
        (
            "explore-ur.html",
            "The Royal Game of Ur with two pieces a side (finkel rules), grouped by pieces "
            "borne off, the board drawn for every position, against greedy play",
            lambda: (
                Ur("finkel", 2).build_graph(),
                {"greedy": make_agent("greedy", ruleset=Ur("finkel", 2).ruleset)},
                "Royal Game of Ur (finkel rules, 2 pieces)",
            ),
            "ur-finkel-1-graph.png",
        ),
    ]
    items, lines = [], ["## Graph explorers", ""]
    for name, caption, make, thumb in pages:
        with step(f"explorer: {name}"):
            graph, agents, title = make()
            data = explore_graph(graph, None, agents)
            explore_figure(data, title=title).save(folder / name)
        items.append((name, caption, thumb))
        lines.append(f"- [{name}]({name}): {caption} ({data.n_states:,} states).")
    return "\n".join(lines) + "\n", items


def reports_section(folder: Path, step) -> tuple[str, list]:
    """The three game reports, each as one HTML page and as Markdown with its images."""
    from .reports.jackpot import jackpot_report
    from .reports.supersix import supersix_report
    from .reports.ur import ur_report

    items = []
    lines = ["## Reports", ""]
    for game, make, caption in (
        (
            "jackpot",
            lambda: jackpot_report(results=_jackpot_results()),  # the Jackpot section's
            "Jackpot: every policy exactly, HiLo's costly decisions",
        ),
        ("supersix", supersix_report, "Super Six: start values, roll/stop map, strategies"),
        ("ur", ur_report, "The Royal Game of Ur: start values, move values, a tournament"),
    ):
        with step(f"reports: {game} (.html and .md)"):
            report = make()
            report.save(folder / f"report-{game}.html")
            report.save(folder / f"report-{game}.md")
        images = sorted((folder / f"report-{game}_files").glob("*.png"))
        thumb = images[0].relative_to(folder).as_posix() if images else None
        items.append((f"report-{game}.html", f"{caption} (one self-contained page)", thumb))
        lines.append(
            f"- {caption}: [report-{game}.html](report-{game}.html), or as Markdown "
            f"[report-{game}.md](report-{game}.md) with its images in `report-{game}_files/`."
        )
    return "\n".join(lines) + "\n", items


#: Width of the index's thumbnails, in pixels.
THUMB_WIDTH = 320
_PAGE_FORMATS = (".png", ".svg", ".pdf", ".dot", ".html", ".md")


def _thumbnail(folder: Path, source: str | None) -> str | None:
    """A small PNG of ``source`` (a PNG in ``folder``) under ``thumbs/``; its relative path."""
    if source is None or not source.endswith(".png") or not (folder / source).is_file():
        return None
    image_module = require("PIL.Image", "the gallery's thumbnails")

    target = folder / "thumbs" / source.replace("/", "--")
    target.parent.mkdir(exist_ok=True)
    with image_module.open(folder / source) as image:
        image.thumbnail((THUMB_WIDTH, 2 * THUMB_WIDTH))
        buffer = io.BytesIO()
        image.save(buffer, format="png", optimize=True)
    write_atomic(target, buffer.getvalue())
    return target.relative_to(folder).as_posix()


def _figures_html(folder: Path, items) -> str:
    """A grid of cards: a thumbnail linking to the file, the caption, every format made."""
    cards = []
    for item in items:
        name, caption = item[0], item[1]
        stem = Path(name).stem
        source = item[2] if len(item) > 2 else None
        if source is None:
            source = name if name.endswith(".png") else f"{stem}.png"
        thumb = _thumbnail(folder, source)
        link = html_text(name)
        picture = (
            f'<img src="{html_text(thumb)}" alt="{link}" loading="lazy">'
            if thumb
            else f'<span class="page">{link}</span>'
        )
        formats = [
            f'<a href="{html_text(stem + ext)}">{ext[1:]}</a>'
            for ext in _PAGE_FORMATS
            if (folder / (stem + ext)).is_file()
        ]
        cards.append(
            f'<figure class="card"><a href="{link}">{picture}</a>'
            f"<figcaption>{html_text(caption)} <small>({', '.join(formats)})</small>"
            "</figcaption></figure>"
        )
    return '<div class="cards">\n' + "\n".join(cards) + "\n</div>"


def _all_files_html(folder: Path) -> str:
    """Every file the gallery wrote, linked, so nothing is only reachable by its name."""
    names = sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.parts[len(folder.parts)] != "thumbs" and p.name != "index.html"
    )
    links = ", ".join(f'<a href="{html_text(n)}">{html_text(n)}</a>' for n in names)
    return f'<h2>Every file</h2>\n<p class="files">{links}</p>'


def build_gallery(folder="gallery", stream=sys.stdout, *, progress: bool | None = None) -> Path:
    """Write the whole gallery into ``folder``; returns the path of its index page.

    ``progress=False`` prints no step lines and no progress bars (the library's bars,
    shown on a terminal otherwise, are silenced by giving the sections a stderr that is
    not a terminal); the first and last lines are printed either way.
    """
    if not str(folder):
        raise OutputError("cannot write the gallery: the folder name is empty")
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"cannot write the gallery into {folder}: it is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create gallery folder {folder}: {error.strerror}") from None
    # The pages that end the build are checked before it starts, not after minutes of work.
    for page in ("index.html", "results.md"):
        check_output(folder / page, (Path(page).suffix,))
    step = _Steps(stream, progress)
    started = time.perf_counter()
    stream.write(f"building the gallery in {folder}/ (Graphviz: {dot.graphviz_engine()})\n")
    quiet = contextlib.redirect_stderr(io.StringIO()) if step.quiet else contextlib.nullcontext()
    try:
        with quiet:
            sections = [
                ("Jackpot", *jackpot_section(folder, step)),
                ("Super Six", *supersix_section(folder, step)),
                ("The Royal Game of Ur", *ur_section(folder, step)),
                ("Yahtzee", *yahtzee_section(folder, step)),
                ("Graph explorers", *explorer_section(folder, step)),
                ("Reports", *reports_section(folder, step)),
            ]
    finally:
        _jackpot_results.cache_clear()
    write_atomic(
        folder / "results.md", "# gamegraph results\n\n" + "\n".join(md for _, md, _ in sections)
    )
    with step("index: thumbnails"):
        body = "\n".join(
            f"<h2>{html_text(title)}</h2>\n{_markdown_html(md)}\n{_figures_html(folder, items)}"
            for title, md, items in sections
        )
        body += "\n" + _all_files_html(folder)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>gamegraph gallery</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; }}
table {{ border-collapse: collapse; font-size: 0.9em; margin: 1em 0; }}
td, th {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }}
.cards {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr));
          gap: 1.2em; margin: 1.5em 0; }}
.card {{ margin: 0; border: 1px solid #ddd; border-radius: 6px; padding: 0.6em; }}
.card img {{ width: 100%; max-height: 260px; object-fit: contain; border: 1px solid #eee; }}
.card .page {{ display: block; padding: 3em 0; text-align: center; background: #f4f4f4; }}
figcaption {{ color: #444; font-size: 0.9em; margin-top: 0.4em; }}
.files {{ font-size: 0.85em; line-height: 1.6; }}
</style></head><body>
<h1>gamegraph gallery</h1>
{body}
</body></html>
"""
    index = write_atomic(folder / "index.html", page)
    stream.write(f"done in {time.perf_counter() - started:.1f} s: open {index}\n")
    return index
