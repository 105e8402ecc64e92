"""Graphviz diagrams of a game under a policy, sized for a page, as DOT or rendered.

Every view returns a :class:`~gamegraph.renderers.diagram.Diagram` (SVG in Jupyter,
``.save(path)`` to .dot/.gv/.png/.svg/.pdf); what it shows is computed in
:mod:`gamegraph.analysis`:

:func:`policy_dot` / :func:`chain_dot`
    the full chain: every state the policy reaches, one edge per move it takes, states
    in a band per layer (Jackpot: cells flipped) and, for Jackpot, labelled by the cells
    still open (``2 5 7``). With reach probabilities, edge width and opacity follow the
    flow (the probability that a game makes the move) and, for a ``win`` game, a
    vermillion fill shows where games are lost. Style ``layers`` draws edges in one
    colour, ``moves`` colours each edge by its move (the cell flipped). A legend under the
    title explains colours and lines.
    Optional extras: edge weights as text, each state's reach probability, and a
    comparison with the optimal policy (moves giving up value vermillion, better moves
    dashed blue).
pruned views (``selection=``)
    only the states and edges of a :class:`~gamegraph.analysis.Selection` (the most
    likely games, positions above a reach threshold, a neighbourhood), every edge labelled
    with its move and chance.
:func:`diff_dot`
    only the decisions where a policy gives up value, each with its cost.

Every view speaks the game's objective (:mod:`gamegraph.values`): only a ``win`` game has
won and lost end states, filled blue and vermillion, and values written as percentages;
in a score or margin game end states are drawn neutrally with their value written in
them, and titles and legends name the value as the game does ("expected score",
"expected margin", or its own ``value_name`` such as "expected turns").

Sizes: each view sets Graphviz ``size`` to an A3 page less margins (:data:`PAGE_INCHES`),
so a PDF fits A3 (420 x 297 mm); fonts are chosen so that text stays about 6.5 pt or more
at that size; PNGs are rendered at the resolution that keeps the long side at most
:data:`PNG_MAX_PIXELS`. SVG is the same layout, lossless.

Node ids are safe identifiers (``n17``); readable text goes in the label, always as a
quoted DOT string (:func:`gamegraph._escape.dot_text`), never as an HTML-like label: those
are only the legends and boxes built here, with every text in them escaped. Rendering uses
the system ``dot`` when present, otherwise the Graphviz bundled in the pygraphviz wheel.
"""

from __future__ import annotations

import math
import re

import numpy as np

from gamegraph.errors import InvalidArgumentError, UnknownNameError

from .._checks import check_int
from .._escape import dot_text, html_text, visible
from .._extras import require
from ..values import objective_of, value_name
from . import _colours as colours
from ._graphviz import (  # noqa: F401  (the engine's names, re-exported)
    EXTENSIONS,
    IMAGE_FORMATS,
    PAGE_MARGIN,
    PNG_MAX_PIXELS,
    _quiet_fontconfig,
    graphviz_engine,
    png_dpi,
    render_bytes,
    write,
)
from .diagram import Diagram

STYLES = ("layers", "moves")
WEIGHTS = ("count", "probability")

#: An A3 page (11.69 x 16.54 in) less margins, portrait, in inches: the size views fit.
PAGE_INCHES = (11.2, 16.0)
#: Most edges a pruned view labels with their move and chance.
MAX_LABELLED_EDGES = 120
#: Most states :func:`chain_dot` and :func:`policy_dot` draw unless ``max_states=`` says
#: otherwise, with at most :data:`MOVES_PER_STATE` moves per state on average; a larger
#: diagram is refused before any layout (:func:`check_diagram_size`). Measured with the
#: Graphviz of pygraphviz on one core: Jackpot's full view (512 states, 2,304 moves)
#: lays out in 0.6 s and reads on A3 with its compact labels; Shut the Box's (476 states,
#: 3,591 moves) takes 5.6 s and Home Run's (530 states, 2,754 moves) 7 s, and neither
#: reads: every state's moves cross the others'.
MAX_DIAGRAM_STATES = 512
#: Moves per drawn state, on average, that a diagram still reads with (Jackpot: 4.5).
MOVES_PER_STATE = 5
#: The views of any game that a refused diagram can draw instead
#: (:mod:`gamegraph.analysis.views`).
VIEWS = ("likely", "threshold", "around")


class DiagramTooLargeError(InvalidArgumentError):
    """A diagram would draw more than can be laid out quickly and read.

    ``states`` and ``moves`` are what it would draw, ``limit`` the most states it may (and
    :data:`MOVES_PER_STATE` times as many moves). The message names the views of
    :mod:`gamegraph.analysis.views` that draw a part of any game.
    """

    def __init__(self, states: int, moves: int | None, limit: int):
        self.states = states
        self.moves = moves
        self.limit = limit
        drawn = f"{states:,} states" + (f" and {moves:,} moves" if moves is not None else "")
        super().__init__(
            f"a diagram of {drawn} cannot be read and takes long to lay out; at most "
            f"{limit:,} states and {MOVES_PER_STATE * limit:,} moves are drawn (max_states=). "
            "Draw a part of the game instead: gamegraph.analysis.views.likely (the likeliest "
            "states), threshold (the states reached often enough) or around (a state's "
            "neighbourhood), given as selection=views.selection(chain, states, caption)"
        )


def check_diagram_size(
    states: int, moves: int | None = None, max_states: int | None = MAX_DIAGRAM_STATES
) -> None:
    """Refuse a diagram of more than ``max_states`` states or more than
    :data:`MOVES_PER_STATE` times as many moves (None: no limit), before any layout.

    >>> check_diagram_size(300, 1_000)
    >>> check_diagram_size(400, 3_000)
    Traceback (most recent call last):
    ...
    gamegraph.renderers.dot.DiagramTooLargeError: a diagram of 400 states and 3,000 moves ...
    """
    if max_states is None:
        return
    max_states = check_int(max_states, "max_states", low=1)
    if states > max_states or (moves is not None and moves > MOVES_PER_STATE * max_states):
        raise DiagramTooLargeError(int(states), moves, max_states)


# The comparison's two moves and the end states: colour-blind-safe roles (_colours).
_WIN_COLOUR = colours.WON
_START_COLOUR = colours.START
_LOST_COLOUR = colours.LOST
_BAD_COLOUR = colours.WORSE
_BETTER_COLOUR = colours.BETTER
# End states of a score or margin game: neutral, their value written in them.
_END_COLOUR = "#eeeeee"
_EDGE_COLOUR = "#27466e"
_BAND_COLOURS = ("#f3f3f3", "#e8e8e8")
# Move colours (Jackpot: cells 1..9), without the red and green of the comparison.
_MOVE_PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#17becf",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#bcbd22",
    "#7f7f7f",
    "#393b79",
)
# Font sizes in points before Graphviz fits the drawing to the page.
_TITLE_PT = 20
_SUBTITLE_PT = 13
_LEGEND_PT = 10
_NODE_PT = 8.5
_PRUNED_NODE_PT = 11
_EDGE_PT = 10
_BAND_PT = 11
_COMPACT_HEIGHT = 0.125  # 9 pt: node boxes of the full view
# Advance widths (em) of the characters of a Jackpot label, to size the compact nodes:
# the wider of Helvetica and DejaVu Sans (a common fallback), so that no label overflows.
_EM = {" ": 0.318, "A": 0.684, "I": 0.295, "N": 0.748, "R": 0.722, "S": 0.667, "T": 0.611}
_EM.update({"W": 0.989, **{str(d): 0.636 for d in range(10)}})


def reachable_states(chain) -> np.ndarray:
    """States the chain can reach from the start, in breadth-first order."""
    from scipy.sparse import csr_matrix  # here, not at import: the command line loads this
    from scipy.sparse.csgraph import breadth_first_order

    n = chain.graph.n_states
    adjacency = csr_matrix(
        (np.ones(chain.n_edges), (chain.edge_source, chain.edge_target)), shape=(n, n)
    )
    return breadth_first_order(
        adjacency, chain.graph.start, directed=True, return_predecessors=False
    )


def new_digraph(name: str, *, title=None, title_size=24, graph=None, node=None, edge=None):
    """A ``graphviz.Digraph`` with the house style: top to bottom, Helvetica, edges drawn
    under nodes, small filled boxes; ``graph``, ``node`` and ``edge`` add or override
    attributes. Needs the ``render`` extra.

    ``name`` becomes an identifier (other characters as ``_``); ``title`` is drawn as
    given (:func:`gamegraph._escape.dot_text`). Values in ``graph``, ``node`` and ``edge``
    are DOT as they are: escape any text from outside with ``dot_text``.
    """
    graphviz = require("graphviz", "drawing a diagram")
    digraph = graphviz.Digraph(name=re.sub(r"[^A-Za-z0-9_]", "_", name))
    house = {"rankdir": "TB", "fontname": "Helvetica", "outputorder": "edgesfirst"}
    digraph.attr(**{**house, **(graph or {})})
    if title:
        digraph.attr(label=dot_text(title), labelloc="t", fontsize=str(title_size))
    node_style = {"shape": "box", "style": "filled", "fontname": "Helvetica", "height": "0.3"}
    digraph.attr("node", **{**node_style, "margin": "0.04,0.02", **(node or {})})
    digraph.attr("edge", **{"arrowsize": "0.4", **(edge or {})})
    return digraph


def page_size(orientation: str = "portrait") -> str:
    """Graphviz ``size`` for an A3 page less margins: ``"11.2,16"`` or ``"16,11.2"`` (inches).

    Graphviz scales a larger drawing down to fit (fonts with it); a smaller one keeps its size.
    """
    width, height = PAGE_INCHES if orientation == "portrait" else PAGE_INCHES[::-1]
    return f"{width:g},{height:g}"


def state_text(graph, i: int) -> str:
    """A node's text: the rules' label (Jackpot: the cells still open, ``"2 5 7"``).

    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot())
    >>> [state_text(graph, graph.state_number(s)) for s in (0, 10, 511 - 16)]
    ['START', '1 3 5 6 7 8 9', '5']
    """
    return graph.label(i)


def state_id(graph, i: int) -> str:
    """A node's tooltip: the rules-level state (Jackpot: the board number), or the label of
    the start and of terminal states, so a diagram can be matched back to the graph.
    """
    if i == graph.start or graph.terminal[i]:
        return graph.label(i)
    return str(graph.states[i])


def _layer_name(graph, layer: int) -> str:
    """The rules' name for a layer (``layer_name``, as the explorer reads it), else "Layer k"."""
    named = getattr(graph.rules, "layer_name", None)
    if callable(named):
        try:
            return str(named(layer))
        except Exception:  # noqa: BLE001 (a drawing must not fail on a broken name)
            pass
    return f"Layer {layer}"


def _mix(colour: str, share: float) -> str:
    """White blended towards ``colour`` by ``share`` (0..1)."""
    rgb = [int(colour[k : k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * share):02x}" for c in rgb)


def _flow_attributes(flow, top, colour: str) -> dict:
    """Width and opacity of an edge carrying ``flow`` of the games (``top`` the largest)."""
    t = min(1.0, math.sqrt(float(flow) / float(top))) if top > 0 else 0.0
    alpha = round(255 * min(1.0, 0.14 + 1.2 * t))
    return {"penwidth": f"{0.3 + 3.2 * t:.2f}", "color": f"{colour}{alpha:02x}"}


def move_colours(moves) -> dict:
    """A colour for each move (Jackpot: the cell flipped), in sorted order."""
    return {m: _MOVE_PALETTE[k % len(_MOVE_PALETTE)] for k, m in enumerate(sorted(set(moves)))}


def _legend_label(title, subtitle, rows) -> str:
    """An HTML-like graph label: the title, a subtitle and rows of legend entries.

    Each row is (heading, [(swatch, text), ...]); a swatch is the HTML of one table cell
    (:func:`_box`, :func:`_line`) or "" for plain text.
    """
    lines = ['<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">']
    if title:
        lines.append(f'<TR><TD><FONT POINT-SIZE="{_TITLE_PT}">{_html(title)}</FONT></TD></TR>')
    if subtitle:
        text = f'<FONT POINT-SIZE="{_SUBTITLE_PT}">{_html(subtitle)}</FONT>'
        lines.append(f"<TR><TD>{text}</TD></TR>")
    for heading, entries in rows:
        cells = [f"<TD>{_small('<B>' + _html(heading) + ':</B>')}</TD>"]
        for swatch, text in entries:
            cells.append(swatch or "")
            cells.append(f'<TD ALIGN="LEFT">{_small(_html(text))}</TD><TD WIDTH="10"></TD>')
        row = '<TABLE ALIGN="LEFT" BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="0"><TR>'
        lines.append(f'<TR><TD ALIGN="LEFT">{row}{"".join(cells)}</TR></TABLE></TD></TR>')
    lines.append("</TABLE>")
    return "<" + "".join(lines) + ">"


def _small(text: str) -> str:
    return f'<FONT POINT-SIZE="{_LEGEND_PT}">{text}</FONT>'


def _html(text) -> str:
    """Text from outside inside an HTML-like label: Graphviz reads those as XML."""
    return html_text(text)


def _box(fill: str, border: str = "#555555") -> str:
    """A legend swatch: a small filled box."""
    return (
        f'<TD BGCOLOR="{fill}" COLOR="{border}" BORDER="1" FIXEDSIZE="TRUE" '
        'WIDTH="18" HEIGHT="10"></TD>'
    )


def _line(colour: str, dashed: bool = False) -> str:
    """A legend swatch: a short solid or dashed line in ``colour`` (a cell's bottom side)."""
    style = ' STYLE="dashed"' if dashed else ""
    return (
        f'<TD BORDER="2" SIDES="B" COLOR="{colour}"{style} FIXEDSIZE="TRUE" '
        'WIDTH="24" HEIGHT="8"></TD>'
    )


def _node_legend(lost, comparison, faded, objective="win") -> list:
    entries = [(_box(_START_COLOUR), "start")]
    if objective == "win":
        entries.append((_box(_WIN_COLOUR), "won"))
    else:
        entries.append((_box(_END_COLOUR), "end of the game, its value written in it"))
    if lost is not None and objective == "win":
        entries.append((_box(_LOST_COLOUR), "games lost here (paler: fewer)"))
    if comparison is not None:
        bad = "vermillion border: the policy gives up value"
        entries.append((_box("#ffffff", _BAD_COLOUR), bad))
    if faded:
        entries.append((_box("#ffffff", "#999999"), "dashed: only the better move reaches it"))
    return entries


def _digraph(graph, legend: str, *, orientation: str, node_pt: float, ranksep: float):
    """The house style for policy diagrams: left to right (layers are columns), page-sized."""
    return new_digraph(
        graph.rules.name,
        graph={
            "rankdir": "LR",
            "label": legend,
            "labelloc": "t",
            "labeljust": "l",
            "nodesep": "0.01",
            "ranksep": f"{ranksep:g}",
            "size": page_size(orientation),
            "margin": f"{PAGE_MARGIN:g}",
        },
        node={
            "style": "rounded,filled",
            "fontsize": f"{node_pt:g}",
            "height": "0.05",
            "width": "0.2",
            "margin": "0.025,0",
            "penwidth": "0.5",
            "fillcolor": "white",
        },
        edge={"arrowsize": "0.3", "fontname": "Helvetica", "fontsize": f"{_EDGE_PT:g}"},
    )


def chain_dot(
    chain,
    *,
    style: str = "layers",
    weights: str | None = None,
    reach=None,
    comparison=None,
    title: str | None = None,
    flow=None,
    lost=None,
    selection=None,
    subtitle: str | None = None,
    max_states: int | None = MAX_DIAGRAM_STATES,
):
    """A policy's chain as a page-sized :class:`~gamegraph.renderers.diagram.Diagram`.

    Parameters
    ----------
    chain : gamegraph.MarkovChain
    style : {"layers", "moves"}
        ``layers``: edges in one colour; ``moves``: each edge coloured by its move (the cell
        flipped), with a colour key in the legend. States sit in a band per layer either way.
    weights : {None, "count", "probability"}
        Label edges with the chance the move is taken, as count/denominator or decimal
        (pruned views label every edge with its move and count by default).
    reach : gamegraph.propagate.Propagation, optional
        When given, each state shows its reach probability.
    comparison : gamegraph.analysis.PolicyComparison, optional
        When given, moves that give up value are vermillion, the better moves dashed blue.
    title, subtitle : str, optional
    flow : ndarray, optional
        Per chain edge, the probability that a game makes the move
        (:func:`gamegraph.analysis.edge_flow`): edge width and opacity follow it.
    lost : ndarray, optional
        Per state, the probability that the game is lost there: the vermillion fill follows
        it (``win`` games only: elsewhere a game that ends there is not lost).
    selection : gamegraph.analysis.Selection, optional
        Draw only its states and edges (a pruned view), each edge labelled with its move.
    max_states : int or None
        The most states drawn (default :data:`MAX_DIAGRAM_STATES`; None: no limit), with
        at most :data:`MOVES_PER_STATE` times as many moves. A larger diagram raises
        :class:`DiagramTooLargeError` before any layout, naming the views that draw a part
        (:mod:`gamegraph.analysis.views`).

    On a cycle of the drawn part, only the edges one breadth-first step on set the ranks
    (:func:`gamegraph.analysis.views.ranking_edges`), so cyclic games lay out in seconds.

    Examples
    --------
    >>> from gamegraph import build, Policy
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot(cells=3))
    >>> chain = Policy.from_agent(graph, AGENTS["max"]).chain(graph)
    >>> diagram = chain_dot(chain, style="moves", weights="count")
    >>> source = str(diagram)
    >>> [line.strip() for line in source.splitlines() if line.strip().startswith("n0 [")]
    ['n0 [label=START fillcolor="#fff3b0" tooltip=START]']
    >>> import re
    >>> out_of_start = [line for line in source.splitlines() if line.strip().startswith("n0 ->")]
    >>> [re.search(r'label="([^"]+)"', line).group(1) for line in out_of_start]
    ['1 (6/36)', '2 (8/36)', '3 (13/36)']
    """
    if style not in STYLES:
        raise UnknownNameError("style", style, STYLES)
    if weights is not None and weights not in WEIGHTS:
        raise UnknownNameError("weights", weights, WEIGHTS)
    graph = chain.graph
    if objective_of(graph) != "win":
        lost = None  # a score or margin game ending without a move is not lost
    states = reachable_states(chain) if selection is None else selection.states
    states = np.asarray(states, dtype=np.int64)
    check_diagram_size(len(states), None, max_states)  # before any work on a large game
    if selection is not None:
        edges = np.asarray(selection.edges, dtype=np.int64)
    else:
        edges = np.flatnonzero(np.isin(chain.edge_source, states))
    check_diagram_size(len(states), len(edges), max_states)
    part = _ChainPart(
        chain, states, edges, style, weights, reach, comparison, flow, lost, selection
    )
    dot = _digraph(
        graph,
        _legend_label(title, subtitle, _chain_legend_rows(part)),
        orientation="landscape" if part.pruned else "portrait",
        node_pt=part.node_pt,
        ranksep=1.1 if part.edge_text else 0.55,
    )
    if part.compact:
        dot.attr("node", height=f"{_COMPACT_HEIGHT:g}")
        dot.attr(nodesep=f"{1 / 72:.4f}")
    _draw_chain_states(dot, part)
    _draw_chain_moves(dot, part)
    _draw_better_moves(dot, part)
    _draw_stuck_ends(dot, part)
    return _diagram(dot.source, title)


class _ChainPart:
    """What :func:`chain_dot` draws, worked out once: the states and edges, the states
    only a better move leads to (``extra``), the move colours and how text is shown.
    """

    def __init__(
        self, chain, states, edges, style, weights, reach, comparison, flow, lost, selection
    ):
        graph = chain.graph
        self.chain, self.graph, self.states, self.edges = chain, graph, states, edges
        self.style, self.reach, self.comparison, self.flow = style, reach, comparison, flow
        self.lost, self.selection = lost, selection
        self.objective = objective_of(graph)
        self.winning = self.objective == "win"
        drawn = set(states.tolist())
        self.bad_states = comparison.suboptimal_states() if comparison is not None else None
        better = comparison.better_moves() if comparison is not None else []
        self.better = [(s, t, m) for s, t, m in better if s in drawn]
        self.extra = sorted({t for _, t, _ in self.better} - drawn)
        self.colours = {}
        if style == "moves":  # the same colour for a move in every view of the chain
            drawn_moves = set(chain.edge_move[edges].tolist())
            self.colours = {
                m: c for m, c in move_colours(chain.edge_move.tolist()).items() if m in drawn_moves
            }
        self.pruned = selection is not None
        # Pruned views write each move and its chance on the edge, when there are few
        # enough edges for the text to stay readable on the page; otherwise colours and
        # widths say it.
        self.edge_text = (self.pruned and len(edges) <= MAX_LABELLED_EDGES) or weights is not None
        self.weights = "count" if self.edge_text and weights is None else weights
        # The full view packs up to 126 states in a column: boxes as tall as the digits, not
        # the line, so that the fonts stay large once the drawing fits the page.
        self.compact = not self.edge_text and reach is None
        self.node_pt = _NODE_PT if self.compact else _PRUNED_NODE_PT


def _chain_legend_rows(part: _ChainPart) -> list:
    """The legend's rows: positions, moves, the move colours and the ends."""
    graph, comparison = part.graph, part.comparison
    rows = [("positions", _node_legend(part.lost, comparison, bool(part.extra), part.objective))]
    edge_entries = []
    if part.flow is not None:
        edge_entries.append((_line(_EDGE_COLOUR), "width: share of games making the move"))
    if part.chain.edge_passes[part.edges].any():
        edge_entries.append((_line(_EDGE_COLOUR, dashed=True), "the turn passes"))
    if comparison is not None:
        edge_entries.append((_line(_BAD_COLOUR), f"gives up {value_name(graph)}"))
        edge_entries.append((_line(_BETTER_COLOUR, dashed=True), "the better move"))
    if edge_entries:
        rows.append(("moves", edge_entries))
    if part.colours:
        rows.append(
            (
                "colour: " + _move_name(graph),
                [(_line(c), graph.rules.move_label(m) or str(m)) for m, c in part.colours.items()],
            )
        )
    if part.selection is not None and part.selection.paths:
        ends = "lost: no move offered" if part.winning else "ends: no move offered"
        fill = _LOST_COLOUR if part.winning else _END_COLOUR
        rows.append(("ends", [(_box(fill), f"{ends} (chance of the throw)")]))
    if part.reach is not None:
        rows[0][1].append(("", "second line: reach probability"))
    return rows


def _draw_chain_states(dot, part: _ChainPart) -> None:
    """Every drawn state (and, faded, each one only a better move reaches), in a band per
    layer when the game has layers.
    """
    graph, states, extra = part.graph, part.states, part.extra
    lost = part.lost
    lost_top = max((float(lost[i]) for i in states), default=0) if lost is not None else 0

    def node(target, i, faded=False):
        label, attributes = _chain_node(part, i, lost_top, faded)
        target.node(f"n{i}", label, **attributes)

    layers = graph.layers
    if layers is None:
        for i in states:
            node(dot, int(i))
        for i in extra:
            node(dot, i, faded=True)
        return
    for k, layer in enumerate(sorted(set(layers[states].tolist()) | set(layers[extra]))):
        with dot.subgraph(name=f"cluster_layer{layer}") as band:
            band.attr(
                label=_layer_name(graph, layer),
                style="filled",
                color=_BAND_COLOURS[k % 2],
                fillcolor=_BAND_COLOURS[k % 2],
                fontsize=f"{_BAND_PT:g}",
                labeljust="c",
                margin="4",
            )
            for i in states[layers[states] == layer]:
                node(band, int(i))
            for i in extra:
                if layers[i] == layer:
                    node(band, i, faded=True)


def _chain_node(part: _ChainPart, i: int, lost_top: float, faded: bool):
    """State ``i``'s label and attributes: its text (with its value at a score game's
    end, and its reach), its fill (start, end, lost) and outline (gives up value, focus).
    """
    from ..analysis.views import value_text  # here: the command line loads this module

    graph, lost = part.graph, part.lost
    text = state_text(graph, i)
    if graph.terminal[i] and not part.winning:
        text = f"{text}: {value_text(graph.terminal_value[i], part.objective)}"
    label = dot_text(text)
    if part.reach is not None:
        label += f"\n{float(part.reach.reach_probability[i]):.4f}"
    attributes = {"tooltip": dot_text(state_id(graph, i), tooltip=True)}
    if part.compact:
        attributes.update(fixedsize="true", width=f"{_text_width(text, part.node_pt):.3f}")
    if i == graph.start:
        attributes["fillcolor"] = _START_COLOUR
    elif graph.terminal[i] and part.winning:
        attributes["fillcolor"] = _WIN_COLOUR if graph.terminal_value[i] > 0 else "#eeeeee"
    elif graph.terminal[i]:
        attributes["fillcolor"] = _END_COLOUR
    elif lost is not None and lost_top > 0 and lost[i] > 0:
        attributes["fillcolor"] = _mix(_LOST_COLOUR, math.sqrt(float(lost[i]) / lost_top))
    if part.bad_states is not None and part.bad_states[i]:
        attributes.update(color=_BAD_COLOUR, penwidth="1.5")
    if part.selection is not None and i == part.selection.focus:
        attributes.update(penwidth="2.5", color="#1f3b73")
    if faded:
        attributes.update(style="rounded,filled,dashed", fontcolor="#555555")
    return label, attributes


def _draw_chain_moves(dot, part: _ChainPart) -> None:
    """The chain's drawn edges: width from the flow, colour from the move, text when
    shown, dashed when the turn passes, vermillion when the move gives up value.
    """
    from ..analysis.views import ranking_edges  # here: the command line loads this module

    chain, edges, flow = part.chain, part.edges, part.flow
    bad_edges = part.comparison.edge_mask(chain) if part.comparison is not None else None
    ranking = dict(zip(edges.tolist(), ranking_edges(chain, part.states, edges).tolist()))
    top = max((float(flow[e]) for e in edges), default=0) if flow is not None else 0
    for e in edges.tolist():
        s, t = int(chain.edge_source[e]), int(chain.edge_target[e])
        move = int(chain.edge_move[e])
        colour = part.colours.get(move, _EDGE_COLOUR)
        attributes = _flow_attributes(flow[e], top, colour) if flow is not None else {}
        if flow is None and part.colours:
            attributes["color"] = colour
        if part.edge_text:
            attributes = {"label": _move_text(part, e), **attributes}
        if chain.edge_passes[e]:
            attributes["style"] = "dashed"
        if not ranking[e]:
            attributes["constraint"] = "false"
        if bad_edges is not None and bad_edges[e]:
            attributes.update(color=_BAD_COLOUR, penwidth="1.4", fontcolor=_BAD_COLOUR)
        dot.edge(f"n{s}", f"n{t}", **attributes)


def _move_text(part: _ChainPart, e: int) -> str:
    """Edge ``e``'s text: its move (by moves, or in a pruned view) and its chance."""
    chain, graph = part.chain, part.graph
    move = int(chain.edge_move[e])
    parts = (
        [dot_text(graph.rules.move_label(move))] if (part.style == "moves" or part.pruned) else []
    )
    if part.weights == "count":
        parts.append(f"{int(chain.edge_weight[e])}/{graph.denominator}")
    elif part.weights == "probability":
        parts.append(f"{float(chain.edge_probability[e]):.3f}")
    return parts[0] if len(parts) == 1 else f"{parts[0]} ({parts[1]})"


def _draw_better_moves(dot, part: _ChainPart) -> None:
    """The better moves where the policy gives up value, dashed blue."""
    for s, t, move in part.better:
        attributes = dict(
            color=_BETTER_COLOUR, style="dashed", penwidth="1.2", fontcolor=_BETTER_COLOUR
        )
        if part.edge_text or part.style == "moves":
            attributes["label"] = dot_text(part.graph.rules.move_label(move))
        dot.edge(f"n{s}", f"n{t}", **attributes)


def _draw_stuck_ends(dot, part: _ChainPart) -> None:
    """Where a selection's paths end without a move: a "lost" (or "ends") box with the
    chance of the throw that offers no move.
    """
    selection, graph, chain = part.selection, part.graph, part.chain
    if selection is None or not selection.paths:
        return
    ends = sorted({q.states[-1] for q in selection.paths if not graph.terminal[q.states[-1]]})
    word, fill = ("lost", _LOST_COLOUR) if part.winning else ("ends", _END_COLOUR)
    for i in ends:
        dot.node(f"lost{i}", word, fillcolor=fill, shape="box", tooltip=word)
        dot.edge(
            f"n{i}",
            f"lost{i}",
            label=f"{int(chain.stuck_weight[i])}/{graph.denominator}",
            color=_LOST_COLOUR if part.winning else "#555555",
            fontcolor="#b71c1c" if part.winning else "#333333",
        )


def _text_width(text: str, points: float) -> float:
    """Width in inches of a one-line node label in Helvetica, plus the node's margins."""
    return (sum(_EM.get(c, 0.6) for c in visible(text)) * points + 5) / 72


def _move_name(graph) -> str:
    return "cell flipped" if hasattr(graph.rules, "cells_up") else "move"


def _diagram(source: str, title: str | None):
    return Diagram(source, title=title or "")


def policy_dot(
    view,
    *,
    title: str | None = None,
    style: str = "layers",
    weights: str | None = None,
    show_reach: bool = False,
    selection=None,
    subtitle: str | None = None,
    max_states: int | None = MAX_DIAGRAM_STATES,
):
    """A policy's diagram: :func:`chain_dot` of a computed view.

    ``view`` is a :class:`gamegraph.analysis.PolicyView` (from
    :func:`gamegraph.analysis.policy_view`). When it has reach probabilities, edge widths
    follow the flow (:func:`gamegraph.analysis.edge_flow`) and, in a ``win`` game, nodes'
    vermillion fill the games lost there; ``show_reach`` also writes each state's reach
    probability. Its comparison, when present, marks the moves that give up value.
    ``selection`` (from
    :mod:`gamegraph.analysis.pruning` or :mod:`gamegraph.analysis.views`) draws a pruned
    view; more than ``max_states`` states are refused before any layout (:func:`chain_dot`).
    ``title`` defaults to :func:`gamegraph.analysis.views.view_title`: the view's own
    (``"Jackpot: hilo (7.99 % wins)"``), or in a score or margin game the policy's value
    named as the game names it (``"Pig turns to 20: optimal (expected turns -2.663)"``).
    """
    from ..analysis.views import view_title  # here: the command line loads this module

    return chain_dot(
        view.chain,
        style=style,
        weights=weights,
        reach=view.reach if show_reach else None,
        comparison=view.comparison,
        title=view_title(view) if title is None else title,
        subtitle=subtitle or (selection.caption.capitalize() if selection is not None else None),
        flow=view.flow,
        lost=view.lost,
        selection=selection,
        max_states=max_states,
    )


def diff_dot(graph, costs, *, title: str, subtitle: str | None = None):
    """Where a policy differs from the optimum: only those decisions, each with its cost.

    ``costs`` is :func:`gamegraph.analysis.decision_costs`: one row per position, move
    taken and better move. Each position is one box in the column of its layer: its cells
    and the chance the policy reaches it, then a line per decision: the chance of the
    throws concerned, the move the policy makes (vermillion), the better move (blue, bold)
    and the cost: in a ``win`` game in wins lost per million games, else in the game's
    value (expected score or margin, reach x chance x loss). Positions are in order of cost, the
    costliest first in each column, and the costlier ones have a darker heading. A line
    break in ``title`` starts a second line. The legend is a sample line, explained.

    Examples
    --------
    >>> from gamegraph import Policy, build, solve
    >>> from gamegraph.analysis import compare, decision_costs
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> from gamegraph.propagate import propagate
    >>> graph = build(Jackpot(cells=3))
    >>> policy = Policy.from_agent(graph, AGENTS["max"])
    >>> rows = decision_costs(compare(solve(graph, exact=True), policy), propagate(graph, policy))
    >>> diagram = diff_dot(graph, rows, title="max against the optimum")
    >>> import re
    >>> start = next(line for line in str(diagram).splitlines() if "tooltip=START" in line)
    >>> re.findall(r'COLOR="#D55E00">([0-9])<', start), re.findall(r'0072B2"><B>([0-9])<', start)
    (['3', '2', '3'], ['1', '1', '2'])
    >>> re.findall(r'RIGHT">([^<]+)<', start)  # wins lost per million games
    ['2.83e+03', '472', '472']
    """
    winning = objective_of(graph) == "win"
    cost_text = _per_million if winning else _cost
    dot = _digraph(
        graph,
        _diff_legend(title, subtitle, None if winning else value_name(graph)),
        orientation="portrait",
        node_pt=_PRUNED_NODE_PT,
        ranksep=0.12,
    )
    # The box is the table's own rounded border, with its rows inset from the corners.
    dot.attr("node", shape="plain", style="", margin="0")
    dot.attr(nodesep="0.08")
    if not costs:
        dot.node("none", "no decision differs: nothing is given up", shape="plaintext")
        return _diagram(dot.source, title)
    by_state: dict = {}
    for row in costs:
        by_state.setdefault(row.state, []).append(row)
    total = {s: sum(float(r.cost) for r in rows) for s, rows in by_state.items()}
    top = max(total.values())
    layers = graph.layers
    layered = layers is not None
    columns: dict = {}
    for s in sorted(by_state, key=lambda s: (total[s], -s)):  # Graphviz stacks them upwards
        columns.setdefault(int(layers[s]) if layered else 0, []).append(s)
    first = []
    for k, (layer, members) in enumerate(sorted(columns.items())):
        with dot.subgraph(name=f"cluster_layer{layer}") as band:
            band.attr(
                label=_layer_name(graph, layer) if layered else "",
                style="filled",
                color=_BAND_COLOURS[k % 2],
                fillcolor=_BAND_COLOURS[k % 2],
                fontsize=f"{_BAND_PT:g}",
                margin="3",
            )
            for s in members:
                shade = _mix(_BAD_COLOUR, 0.08 + 0.5 * math.sqrt(total[s] / top))
                lines = [
                    f'<TR><TD COLSPAN="4" BGCOLOR="{shade}"><B>{_html(state_text(graph, s))}'
                    f"</B>&#160;&#160;{_short_percent(by_state[s][0].reach)}</TD></TR>"
                ]
                for row in by_state[s]:
                    throws = _fraction_text(row.probability, graph.denominator)
                    taken = graph.rules.move_label(row.taken_move)
                    better = graph.rules.move_label(row.better_move)
                    lines.append(_diff_line(throws, taken, better, cost_text(row.cost)))
                band.node(
                    f"n{s}",
                    f"<{_DIFF_TABLE}{''.join(lines)}</TABLE>>",
                    tooltip=dot_text(state_id(graph, s), tooltip=True),
                )
            first.append(members[-1])
    for a, b in zip(first, first[1:]):
        dot.edge(f"n{a}", f"n{b}", style="invis")
    return _diagram(dot.source, title)


# A position's box in diff_dot: a rounded white table whose cells stay clear of the corners.
_DIFF_TABLE = (
    '<TABLE STYLE="ROUNDED" BORDER="1" COLOR="#555555" BGCOLOR="white" CELLBORDER="0" '
    'CELLSPACING="2" CELLPADDING="1">'
)


def _diff_line(throws: str, taken: str, better: str, cost: str) -> str:
    """One decision of :func:`diff_dot`: the throws, the policy's move (vermillion), the
    better move (blue and bold: a cue without colour) and the cost, as table cells.
    """
    return (
        f"<TR><TD>{_html(throws)}</TD>"
        f'<TD><FONT COLOR="{_BAD_COLOUR}">{_html(taken)}</FONT></TD>'
        f'<TD><FONT COLOR="{_BETTER_COLOUR}"><B>{_html(better)}</B></FONT></TD>'
        f'<TD ALIGN="RIGHT">{_html(cost)}</TD></TR>'
    )


def _diff_legend(title, subtitle, name=None) -> str:
    """The legend of :func:`diff_dot`: a sample box, each of its parts named beside it,
    one per line (narrow, so that the diagram fits a document's column). ``name`` is the
    value's name in a score or margin game (its costs are in that value, not in wins).
    """
    cost = (
        ("22.1", "wins lost per million games (reach × chance × loss)")
        if name is None
        else ("0.0221", f"{name} given up (reach × chance × loss)")
    )
    explained = (
        ("1 2 3", "the cells still open"),
        ("25 %", "how often the policy gets there (its reach)"),
        ("4/36", "the chance of the throws"),
        ("2", "the policy's move (vermillion)"),
        ("3", "the better move (blue, bold)"),
        cost,
    )
    samples = {
        "1 2 3": "<B>1 2 3</B>",
        "2": f'<FONT COLOR="{_BAD_COLOUR}">2</FONT>',
        "3": f'<FONT COLOR="{_BETTER_COLOUR}"><B>3</B></FONT>',
    }
    shade = _mix(_BAD_COLOUR, 0.45)

    def _legend_text(text):  # as large as the boxes' text: the smallest in the diagram
        return f'<FONT POINT-SIZE="{_PRUNED_NODE_PT:g}">{text}</FONT>'

    lines = ['<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">']
    for line in str(title or "").split("\n"):
        if line:
            lines.append(
                f'<TR><TD COLSPAN="2"><FONT POINT-SIZE="{_TITLE_PT}">{_html(line)}</FONT></TD></TR>'
            )
    if subtitle:
        text = f'<FONT POINT-SIZE="{_SUBTITLE_PT}">{_html(subtitle)}</FONT>'
        lines.append(f'<TR><TD COLSPAN="2">{text}</TD></TR>')
    for k, (sample, meaning) in enumerate(explained):
        shown = samples.get(sample, _html(sample))
        fill = f' BGCOLOR="{shade}"' if k < 2 else ""
        lines.append(
            f'<TR><TD ALIGN="RIGHT"{fill}>{_legend_text(shown)}</TD>'
            f'<TD ALIGN="LEFT">{_legend_text("&#160;" + _html(meaning))}</TD></TR>'
        )
    lines.append(
        '<TR><TD COLSPAN="2" ALIGN="LEFT">'
        f"{_legend_text(_html('A darker heading: a costlier position.'))}</TD></TR>"
    )
    lines.append("</TABLE>")
    return "<" + "".join(lines) + ">"


def policy_diff_dot(graph, diff, *, game: str | None = None):
    """:func:`diff_dot` of a :class:`gamegraph.analysis.PolicyDiff`, titled with both values.

    The title reads "Jackpot: where hilo differs from the optimum (7.9855 % vs 7.9987 %
    wins)", in two lines, and the subtitle counts the decisions and their cost per million
    games; in a score or margin game both give the game's value by its name ("expected
    score 8.1 vs 8.3", "cost 0.2 of the expected score").
    """
    game = game or graph.rules.name.capitalize()
    head = f"{game}: where {diff.name} differs from the optimum\n"
    count = f"{len(diff.costs)} decisions at {diff.positions} positions cost "
    if objective_of(graph) == "win":
        title = head + (
            f"({100 * float(diff.value):.4f} % vs {100 * float(diff.optimum):.4f} % wins)"
        )
        subtitle = count + f"{1e6 * float(diff.gap):.1f} wins per million games"
    else:
        name = value_name(graph)
        title = head + f"({name} {float(diff.value):.6g} vs {float(diff.optimum):.6g})"
        subtitle = count + f"{float(diff.gap):.4g} of the {name}"
    return diff_dot(graph, diff.costs, title=title, subtitle=subtitle)


def _per_million(cost) -> str:
    return f"{1e6 * float(cost):.3g}"


def _cost(cost) -> str:
    return f"{float(cost):.3g}"


def _fraction_text(p, denominator: int) -> str:
    count = p * denominator
    return f"{int(count)}/{denominator}" if float(count).is_integer() else f"{float(p):.3f}"


def _short_percent(p) -> str:
    x = 100 * float(p)
    return f"{x:.2g} %" if x < 10 else f"{x:.0f} %"
