#!/usr/bin/env python
"""Render benchmarks: every view, figure, page and report against the plain DOT export.

Machines are noisy, so every time is printed next to a baseline measured in the same
run, and the ratio between the two is what to compare across machines. The baseline is
the plain DOT export of HiLo's full Jackpot graph: ``str(policy_dot(view, title=...))``
written to a ``.dot`` file (ratio 1.0).

Nothing that computes values is timed: the Jackpot graph, its exact solution, HiLo's
policy, the views (``policy_view``, ``policy_diff``, ``likely_paths``, ``reach_above``,
``neighbourhood``, ``layer_summary``, ``explore_graph``), the Super Six decision table at
40 pegs with its start values and the Ur 2-piece table are made once, before any timing.
Each timed call then goes from those results to a file in a temporary folder:

a. Graphviz views of HiLo's Jackpot graph, each to PNG, SVG and PDF through
   ``Diagram.save``: full (layers style), full (moves style), diff, likely paths,
   threshold (reach >= 2 %) and around (position 2579, depth 2). The DOT text is made in
   the timed call too, as in the baseline. For the two full views, the Graphviz layout
   alone (pygraphviz ``AGraph.layout``, no image written) is timed as well.
b. matplotlib figures to PNG and SVG, figure made in the timed call: ``policy_bars``,
   ``layer_summary_figure``, ``supersix_maps`` (decision, 40 pegs) and the Ur board
   (``board_layout`` + ``board_figure``).
c. Interactive pages: the Super Six page (``heatmap.figure(...).save``), whole and the
   save alone; the Jackpot explorer (``explore_figure(data).save``), whole and in parts:
   the Graphviz layout (``explorer.positions``), the figure from given positions, the save.
d. The three reports (jackpot, supersix, ur at their defaults): building the Report
   (which computes its own values), saving ``.html`` and saving ``.md`` (with its images
   folder). A report renders its figures when saved and keeps them; the kept images are
   dropped (untimed) before each save, so both saves render every figure.

Every measurement runs once per round and the rounds repeat, so all of them see the same
background load; the best and the median over the rounds are printed. A warm-up (a tiny
Graphviz render, a tiny matplotlib PNG, the plotly import) runs first, so first-use
costs are not counted. The load average is printed at the start and the end.

Usage::

    python benchmarks/bench_render.py            # full run, 3 rounds, about 2.5 minutes
    python benchmarks/bench_render.py --quick    # 1 round, under a minute
    python benchmarks/bench_render.py --markdown # the table as Markdown too

Exit status 1 if an output is missing or not what its extension says (PNG, SVG, PDF and
HTML signatures, a ``.md`` report without its images).
"""

from __future__ import annotations

import gc
import os
import shutil
import statistics
import struct
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import _common as common
from _common import Checks, fmt_bytes, fmt_time

UR_RULES, UR_PIECES = "finkel", 2
SUPERSIX_PEGS = 40
AROUND = "2579"  # the README's example position (open cells), depth 2
MIN_REACH = 0.02
PATHS = 10

_SIGNATURES = {
    ".png": lambda data: data[:8] == b"\x89PNG\r\n\x1a\n",
    ".pdf": lambda data: data[:5] == b"%PDF-",
    ".svg": lambda data: b"<svg" in data[:4096],
    ".dot": lambda data: data.lstrip().startswith((b"digraph", b"graph", b"strict")),
    ".md": lambda data: data.startswith(b"# "),
}


@dataclass
class Measure:
    """One timed call: ``run()`` writes ``path`` (None for a step that writes nothing)."""

    section: str
    view: str
    fmt: str
    run: object
    path: Path | None
    times: list = field(default_factory=list)
    size: str = ""
    before: object = None  # called untimed before each run

    @property
    def best(self) -> float:
        return min(self.finished, default=float("nan"))

    @property
    def median(self) -> float:
        return statistics.median(self.finished) if self.finished else float("nan")

    @property
    def finished(self) -> list:
        return [t for t in self.times if t == t]  # failed runs are nan


def png_pixels(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    return struct.unpack(">II", data[16:24])


def folder_bytes(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.iterdir() if p.is_file()] if folder.is_dir() else []
    return len(files), sum(p.stat().st_size for p in files)


def describe(item: Measure, check: Checks) -> str:
    """Output size (bytes; pixels for PNG; images for a .md report), signatures checked."""
    path, what = item.path, f"{item.view} {item.fmt}"
    if path is None:
        return ""
    if not path.is_file() or path.stat().st_size == 0:
        check(False, f"{what}: wrote no {path.name}")
        return "missing"
    data = path.read_bytes()
    suffix = path.suffix
    if suffix == ".html":
        ok = b"<html" in data[:4096].lower() and b"</html>" in data[-4096:].lower()
        if item.section.startswith("c."):
            ok = ok and b"Plotly.newPlot" in data
    else:
        ok = _SIGNATURES[suffix](data)
    check(ok, f"{what}: {path.name} is not a {suffix[1:]} file")
    size = fmt_bytes(len(data))
    if suffix == ".png":
        width, height = png_pixels(data)
        size += f", {width} x {height} px"
    if suffix == ".md":
        folder = path.with_name(path.stem + "_files")
        count, total = folder_bytes(folder)
        check(count > 0, f"{what}: no images beside {path.name}")
        size += f" + {count} images, {fmt_bytes(total)}"
    return size


def clear(path: Path | None) -> None:
    if path is None:
        return
    path.unlink(missing_ok=True)
    if path.suffix == ".md":
        shutil.rmtree(path.with_name(path.stem + "_files"), ignore_errors=True)


# ---------------------------------------------------------------------------------
# What is drawn: computed once, not timed
# ---------------------------------------------------------------------------------


def prepare():
    """Every value the renderers draw, keyed by what uses it."""
    from gamegraph import Policy, build, evaluate, solve
    from gamegraph.analysis import (
        compare_policies,
        explore_graph,
        layer_summary,
        likely_paths,
        neighbourhood,
        policy_diff,
        policy_view,
        reach_above,
    )
    from gamegraph.games.jackpot import AGENTS, Jackpot
    from gamegraph.games.supersix import SuperSix, decision_table
    from gamegraph.games.supersix.analysis import start_values
    from gamegraph.games.ur.analysis import solve_table
    from gamegraph.reports.ur import example_position

    graph = build(Jackpot())
    solution = solve(graph, exact=True)
    hilo = Policy.from_agent(graph, AGENTS["hilo"], name="hilo")
    win = evaluate(graph, hilo, exact=True).start_value
    view = policy_view(graph, hilo, reach=True)
    rules = graph.rules
    around = graph.state_number(rules.full ^ sum(1 << (int(c) - 1) for c in AROUND))
    rows = compare_policies(graph, AGENTS, exact=True, solution=solution)
    by_name = {row.name: row.policy for row in rows}
    table = decision_table(solve(build(SuperSix(pegs=SUPERSIX_PEGS))))
    ur_table = solve_table(UR_RULES, UR_PIECES)
    state, throw = example_position(ur_table)
    return {
        "graph": graph,
        "title": f"Jackpot: hilo ({100 * float(win):.4f} % wins)",
        "view": view,
        "diff": policy_diff(solution, hilo, name="hilo"),
        "likely": likely_paths(view.chain, PATHS),
        "threshold": reach_above(view.chain, view.reach, MIN_REACH),
        "around": neighbourhood(view.chain, around, 2),
        "around_reach": float(view.reach.reach_probability[around]),
        "rows": rows,
        "layers": layer_summary(
            graph, {name: by_name[name] for name in ("min", "last", "hilo", "optimal")}
        ),
        "explore": explore_graph(graph, None, AGENTS),
        "supersix": table,
        "starts": start_values(table, range(4, SUPERSIX_PEGS + 1), "free"),
        "ur_table": ur_table,
        "ur_position": (state, throw, ur_table.move_values(state, throw)),
    }


def layout_only(diagram) -> None:
    """Graphviz ``dot`` layout of a Diagram without writing any image (what every format
    pays before its own output), through pygraphviz as the library does without a system
    ``dot``."""
    import pygraphviz

    from gamegraph.renderers._graphviz import _quiet_fontconfig

    with _quiet_fontconfig():
        pygraphviz.AGraph(string=str(diagram)).layout(prog="dot")


def warm_up(folder: Path) -> None:
    """First-use costs (Graphviz plugins and fonts, matplotlib fonts, plotly) are not timed."""
    from gamegraph.renderers import figures
    from gamegraph.renderers.diagram import Diagram
    from gamegraph.renderers.interactive import InteractiveFigure

    for fmt in ("png", "svg", "pdf"):
        Diagram('digraph { a -> b [label="x"] }').save(folder / f"warm.{fmt}")
    figure, axes = figures.figure_and_axes(None, figsize=(2, 2))
    axes.plot([0, 1], [0, 1])
    axes.set_title("warm")
    figure.save(folder / "warm.png")
    figure.save(folder / "warm.svg")
    InteractiveFigure(data=[{"type": "scatter", "x": [0], "y": [0]}]).save(folder / "warm.html")


# ---------------------------------------------------------------------------------
# The measurements
# ---------------------------------------------------------------------------------


def measurements(data, folder: Path) -> list[Measure]:
    from gamegraph.games.jackpot import PUBLISHED_PERCENT
    from gamegraph.renderers import explorer, figures, heatmap, supersix_maps, ur_board
    from gamegraph.renderers.dot import policy_diff_dot, policy_dot
    from gamegraph.reports.jackpot import jackpot_report
    from gamegraph.reports.supersix import supersix_report
    from gamegraph.reports.ur import ur_report

    view, title, graph = data["view"], data["title"], data["graph"]
    out = []

    def add(section, name, fmt, run, filename):
        path = None if filename is None else folder / filename
        out.append(Measure(section, name, fmt, run, path))

    def baseline(path):
        path.write_text(str(policy_dot(view, title=title)), encoding="utf-8")

    add(
        "baseline",
        "full (layers), DOT text",
        "dot",
        lambda: baseline(folder / "base.dot"),
        "base.dot",
    )

    diagrams = {
        "full (layers)": lambda: policy_dot(view, title=title),
        "full (moves)": lambda: policy_dot(view, title=title, style="moves"),
        "diff": lambda: policy_diff_dot(graph, data["diff"]),
        f"likely ({PATHS} paths)": lambda: policy_dot(view, title=title, selection=data["likely"]),
        f"threshold (reach >= {MIN_REACH:g})": lambda: policy_dot(
            view, title=title, selection=data["threshold"]
        ),
        f"around {AROUND}, depth 2": lambda: policy_dot(
            view, title=title, selection=data["around"]
        ),
    }
    for n, (name, make) in enumerate(diagrams.items()):
        for fmt in ("png", "svg", "pdf"):
            path = folder / f"view{n}.{fmt}"
            add("a. Graphviz", name, fmt, lambda make=make, path=path: make().save(path), path.name)
        if name.startswith("full"):
            add(
                "a. Graphviz",
                name + ": layout only",
                "-",
                lambda make=make: layout_only(make()),
                None,
            )

    state, throw, moves = data["ur_position"]
    ur_rules = data["ur_table"].ruleset
    mpl = {
        "policy_bars": lambda: figures.policy_bars(
            data["rows"],
            title="Jackpot: exact win probability by policy",
            published=PUBLISHED_PERCENT,
        ),
        "layer_summary_figure": lambda: figures.layer_summary_figure(data["layers"]),
        f"supersix_maps ({SUPERSIX_PEGS} pegs, decision)": lambda: supersix_maps.supersix_maps(
            data["supersix"], total=SUPERSIX_PEGS, metric="decision"
        ),
        f"Ur board ({UR_RULES}, {UR_PIECES} pieces)": lambda: ur_board.board_figure(
            ur_board.board_layout(ur_rules, state, throw=throw, move_values=moves, title="Ur")
        ),
    }
    for n, (name, make) in enumerate(mpl.items()):
        for fmt in ("png", "svg"):
            path = folder / f"fig{n}.{fmt}"
            add(
                "b. matplotlib",
                name,
                fmt,
                lambda make=make, path=path: make().save(path),
                path.name,
            )

    def six_figure():
        return heatmap.figure(
            data["supersix"],
            pegs=SUPERSIX_PEGS,
            pegs_range=(4, SUPERSIX_PEGS),
            start_values=data["starts"],
            rules_name="free",
        )

    six_made = six_figure()
    add(
        "c. interactive",
        "Super Six page: figure + save",
        "html",
        lambda: six_figure().save(folder / "six.html"),
        "six.html",
    )
    add(
        "c. interactive",
        "Super Six page: save only",
        "html",
        lambda: six_made.save(folder / "six-save.html"),
        "six-save.html",
    )

    explore = data["explore"]
    xy = explorer.positions(explore)
    explored = explorer.explore_figure(explore, xy=xy)
    add(
        "c. interactive",
        "explorer: whole (layout + figure + save)",
        "html",
        lambda: explorer.explore_figure(explore).save(folder / "explore.html"),
        "explore.html",
    )
    add(
        "c. interactive",
        "explorer: layout (Graphviz dot)",
        "-",
        lambda: explorer.positions(explore),
        None,
    )
    add(
        "c. interactive",
        "explorer: figure from positions",
        "-",
        lambda: explorer.explore_figure(explore, xy=xy),
        None,
    )
    add(
        "c. interactive",
        "explorer: save only",
        "html",
        lambda: explored.save(folder / "explore-save.html"),
        "explore-save.html",
    )

    built = {}
    for game, make in (
        ("jackpot", jackpot_report),
        ("supersix", supersix_report),
        ("ur", ur_report),
    ):

        def build_report(game=game, make=make):
            built[game] = make()

        add("d. reports", f"{game} report: build", "-", build_report, None)
        for ext in ("html", "md"):
            path = folder / f"report-{game}.{ext}"
            add(
                "d. reports",
                f"{game} report: save",
                ext,
                lambda g=game, p=path: built[g].save(p),
                path.name,
            )
            # Each save renders the figures afresh (not timed: forgetting the kept ones).
            out[-1].before = lambda g=game: forget_images(built[g])
    return out


def forget_images(report) -> None:
    """Drop the images a Report keeps once rendered, so that the next save renders again."""
    for section in report.sections:
        images = getattr(section, "images", None)
        if isinstance(images, dict):
            images.clear()


def run_round(items, check: Checks) -> None:
    for item in items:
        clear(item.path)
        try:
            if item.before is not None:
                item.before()
            gc.collect()
            start = time.perf_counter()
            item.run()
            item.times.append(time.perf_counter() - start)
        except Exception as error:  # report it and carry on with the others
            check(False, f"{item.view} {item.fmt}: {type(error).__name__}: {error}")
            item.times.append(float("nan"))


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    parser = common.parser(__doc__.split("\n\n")[0], "smoke run: one round")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown too")
    args = parser.parse_args(argv)

    # Pin before numpy and scipy start, so any threads they create stay on the core.
    pinned = "not pinned (--no-pin)" if args.no_pin else common.pin(args.cpu)
    rounds = 1 if args.quick else 3
    if args.repeat is not None:
        rounds = max(1, args.repeat)

    import matplotlib
    import plotly
    import pygraphviz

    from gamegraph.renderers._graphviz import graphviz_engine

    common.header("render", args.quick, pinned)
    engine = graphviz_engine()
    print(
        f"Graphviz: {engine}"
        + (f" (pygraphviz {pygraphviz.__version__})" if engine == "pygraphviz" else "")
        + f"; matplotlib {matplotlib.__version__}, plotly {plotly.__version__}"
    )
    from plotly.offline import get_plotlyjs

    print(f"plotly.js embedded in every interactive page: {fmt_bytes(len(get_plotlyjs()))}")
    print(f"load average at the start: {load()} (1, 5, 15 min; {os.cpu_count()} CPUs)")
    started = time.perf_counter()
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="gamegraph-bench-render-") as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        data = prepare()
        print(
            f"\nprepared in {fmt_time(time.perf_counter() - t0)} (not timed below): Jackpot "
            f"{data['graph'].n_states} positions, {data['view'].chain.n_edges} edges under hilo; "
            f"position {AROUND} reached with probability {data['around_reach']:.4f}; "
            f"Super Six {SUPERSIX_PEGS} pegs {len(data['supersix']):,} rows; "
            f"Ur {UR_RULES} {UR_PIECES} pieces {len(data['ur_table']):,} positions"
        )
        t0 = time.perf_counter()
        warm_up(folder)
        items = measurements(data, folder)
        print(f"warm-up and the prebuilt figures: {fmt_time(time.perf_counter() - t0)}")
        for n in range(rounds):
            t0 = time.perf_counter()
            run_round(items, check)
            print(
                f"round {n + 1} of {rounds}: {time.perf_counter() - t0:.1f} s, "
                f"load average {load()}",
                flush=True,
            )
        rows = items
        for row in rows:
            row.size = describe(row, check)
    base = rows[0].best
    columns = ("section", "view", "format", "best", "median", "ratio", "output")
    table = [
        (
            row.section,
            row.view,
            row.fmt,
            fmt_time(row.best),
            fmt_time(row.median),
            f"{row.best / base:.1f}" if row.best >= base * 10 else f"{row.best / base:.2f}",
            row.size,
        )
        for row in rows
    ]
    widths = [max(len(c), *(len(r[i]) for r in table)) for i, c in enumerate(columns)]
    print(
        f"\nBest and median of {rounds} round{'s' if rounds > 1 else ''}; "
        f"ratio = best / the baseline's best ({fmt_time(base)})."
    )
    print("   " + "  ".join(c.ljust(w) for c, w in zip(columns, widths)))
    for r in table:
        print("   " + "  ".join(c.ljust(w) for c, w in zip(r, widths)))
    if args.markdown:
        print("\n| " + " | ".join(columns[1:]) + " |\n|" + "---|" * (len(columns) - 1))
        for r in table:
            print("| " + " | ".join(r[1:]) + " |")
    print(
        f"\nload average at the end: {load()}; total {time.perf_counter() - started:.1f} s; "
        "checks: " + ("all ok" if not check.failed else "FAILED: " + "; ".join(check.failed))
    )
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
