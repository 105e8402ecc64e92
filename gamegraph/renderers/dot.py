"""Graphviz diagrams of a game under a policy, written as DOT or rendered to an image.

:func:`chain_dot` draws the Markov chain a policy makes of a game graph: the states the
policy can reach, one edge per move it takes. Two styles:

``layers``
    states grouped in a labelled box per layer (Jackpot: cells flipped), plain edges;
``moves``
    no boxes; each edge labelled with the move it makes (Jackpot: the cell flipped).

Optional extras: the edge weight (``count``, e.g. 15/36, or ``probability``), each state's
reach probability, and a comparison with the optimal policy that marks in red the moves
giving up win probability and adds the better move as a dashed green edge.

Node ids are safe identifiers (``n17``); readable text goes in the label. Rendering uses
the system ``dot`` when present, otherwise the Graphviz bundled in the pygraphviz wheel.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order

from gamegraph.errors import RenderError, UnknownNameError

from .._extras import require
from .._files import check_output, write_atomic

STYLES = ("layers", "moves")
WEIGHTS = ("count", "probability")
EXTENSIONS = (".dot", ".gv", ".png", ".svg", ".pdf")
IMAGE_FORMATS = ("png", "svg", "pdf")

_WIN_COLOUR = "#c8e6c9"
_START_COLOUR = "#fff3b0"
_BAD_COLOUR = "#d62728"
_BETTER_COLOUR = "#2ca02c"


def reachable_states(chain) -> np.ndarray:
    """States the chain can reach from the start, in breadth-first order."""
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
    """
    graphviz = require("graphviz", "drawing a diagram")
    digraph = graphviz.Digraph(name=name.replace(" ", "_").replace("-", "_"))
    digraph.attr(rankdir="TB", fontname="Helvetica", outputorder="edgesfirst", **(graph or {}))
    if title:
        digraph.attr(label=title, labelloc="t", fontsize=str(title_size))
    node_style = {"shape": "box", "style": "filled", "fontname": "Helvetica", "height": "0.3"}
    digraph.attr("node", **{**node_style, "margin": "0.04,0.02", **(node or {})})
    digraph.attr("edge", **{"arrowsize": "0.4", **(edge or {})})
    return digraph


def chain_dot(
    chain,
    *,
    style: str = "layers",
    weights: str | None = None,
    reach=None,
    comparison=None,
    title: str | None = None,
) -> str:
    """DOT source for a policy's chain.

    Parameters
    ----------
    chain : gamegraph.MarkovChain
    style : {"layers", "moves"}
    weights : {None, "count", "probability"}
        Label edges with the chance the move is taken, as count/denominator or decimal.
    reach : gamegraph.propagate.Propagation, optional
        When given, each state shows its reach probability.
    comparison : gamegraph.analysis.PolicyComparison, optional
        When given, moves that give up win probability are red, the better moves dashed green.
    title : str, optional

    Examples
    --------
    >>> from gamegraph import build, Policy
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot(cells=3))
    >>> chain = Policy.from_agent(graph, AGENTS["max"]).chain(graph)
    >>> source = chain_dot(chain, style="moves", weights="count")
    >>> print(source.splitlines()[4].strip())
    n0 [label=START fillcolor="#fff3b0"]
    >>> [line.strip() for line in source.splitlines() if line.strip().startswith("n0 ->")]
    ['n0 -> n1 [label="1 (6/36)"]', 'n0 -> n2 [label="2 (8/36)"]', 'n0 -> n3 [label="3 (13/36)"]']
    """
    if style not in STYLES:
        raise UnknownNameError("style", style, STYLES)
    if weights is not None and weights not in WEIGHTS:
        raise UnknownNameError("weights", weights, WEIGHTS)
    graph = chain.graph
    rules = graph.rules
    states = reachable_states(chain)
    drawn = set(states.tolist())

    dot = new_digraph(
        rules.name,
        title=title,
        title_size=28,
        graph={"nodesep": "0.08", "ranksep": "1.2"},
        node={"fontsize": "10", "width": "0.3", "fillcolor": "white"},
        edge={"penwidth": "0.6", "color": "#00000066", "fontname": "Helvetica", "fontsize": "8"},
    )

    bad_states = comparison.suboptimal_states() if comparison is not None else None
    better = comparison.better_moves() if comparison is not None else []
    extra = sorted({t for s, t, _ in better if s in drawn} - drawn)

    def node(target, i, faded=False):
        text = graph.label(i)
        if reach is not None:
            text += f"\n{float(reach.reach_probability[i]):.4f}"
        attributes = {}
        if i == graph.start:
            attributes["fillcolor"] = _START_COLOUR
        elif graph.terminal[i]:
            attributes["fillcolor"] = _WIN_COLOUR if graph.terminal_value[i] > 0 else "#eeeeee"
        if bad_states is not None and bad_states[i]:
            attributes.update(color=_BAD_COLOUR, penwidth="1.5")
        if faded:
            attributes.update(style="filled,dashed", fontcolor="#555555")
        target.node(f"n{i}", text, **attributes)

    layers = graph.layers
    if style == "layers" and (layers >= 0).all():
        for layer in sorted(set(layers[states].tolist())):
            with dot.subgraph(name=f"cluster_layer{layer}") as box:
                box.attr(
                    label=f"Layer {layer}",
                    style="rounded",
                    color="#888888",
                    fontsize="14",
                    labeljust="l",
                )
                for i in states[layers[states] == layer]:
                    node(box, int(i))
                for i in extra:
                    if layers[i] == layer:
                        node(box, i, faded=True)
    else:
        for i in states:
            node(dot, int(i))
        for i in extra:
            node(dot, i, faded=True)

    bad_edges = comparison.edge_mask(chain) if comparison is not None else None
    for e in np.flatnonzero(np.isin(chain.edge_source, states)):
        s, t = int(chain.edge_source[e]), int(chain.edge_target[e])
        parts = []
        if style == "moves":
            parts.append(rules.move_label(int(chain.edge_move[e])))
        if weights == "count":
            parts.append(f"{int(chain.edge_weight[e])}/{graph.denominator}")
        elif weights == "probability":
            parts.append(f"{float(chain.edge_probability[e]):.3f}")
        label = parts[0] if len(parts) == 1 else (f"{parts[0]} ({parts[1]})" if parts else "")
        attributes = {"label": label} if label else {}
        if chain.edge_passes[e]:
            attributes["style"] = "dashed"
        if bad_edges is not None and bad_edges[e]:
            attributes.update(color=_BAD_COLOUR, penwidth="1.4", fontcolor=_BAD_COLOUR)
        dot.edge(f"n{s}", f"n{t}", **attributes)
    for s, t, move in better:
        if s in drawn:
            attributes = dict(
                color=_BETTER_COLOUR, style="dashed", penwidth="1.2", fontcolor=_BETTER_COLOUR
            )
            if style == "moves":
                attributes["label"] = rules.move_label(move)
            dot.edge(f"n{s}", f"n{t}", **attributes)
    return dot.source


def policy_dot(view, *, title: str, style: str = "layers", weights: str | None = None) -> str:
    """DOT source for a policy's diagram: :func:`chain_dot` of a computed view.

    ``view`` is a :class:`gamegraph.analysis.PolicyView` (from
    :func:`gamegraph.analysis.policy_view`): its reach probabilities are shown when it has
    them, and its comparison marks the moves that give up win probability.
    """
    return chain_dot(
        view.chain,
        style=style,
        weights=weights,
        reach=view.reach,
        comparison=view.comparison,
        title=title,
    )


def graphviz_engine() -> str:
    """Which Graphviz renders: ``"system"`` (a ``dot`` on PATH) or ``"pygraphviz"``.

    The environment variable ``GAMEGRAPH_GRAPHVIZ`` (``system`` or ``pygraphviz``) forces one.
    """
    forced = os.environ.get("GAMEGRAPH_GRAPHVIZ", "").strip().lower()
    if forced in ("system", "pygraphviz"):
        return forced
    return "system" if shutil.which("dot") else "pygraphviz"


def render_bytes(source: str, fmt: str) -> bytes:
    """Lay out DOT ``source`` and return the image in format ``fmt`` (png, svg or pdf)."""
    if fmt not in IMAGE_FORMATS:
        raise UnknownNameError("image format", fmt, IMAGE_FORMATS)
    if graphviz_engine() == "system":
        dot = shutil.which("dot")
        if dot is None:
            raise RenderError("GAMEGRAPH_GRAPHVIZ=system but no 'dot' program is on PATH")
        run = subprocess.run([dot, f"-T{fmt}"], input=source.encode(), capture_output=True)
        if run.returncode != 0:
            raise RenderError(f"dot failed: {run.stderr.decode(errors='replace').strip()}")
        return run.stdout
    pygraphviz = require("pygraphviz", "rendering without a system Graphviz")
    with _quiet_fontconfig():
        try:
            return pygraphviz.AGraph(string=source).draw(format=fmt, prog="dot")
        except (OSError, ValueError) as error:
            raise RenderError(f"pygraphviz failed: {error}") from None


@contextlib.contextmanager
def _quiet_fontconfig():
    """Drop the wheel's harmless 'Fontconfig warning' lines about the system's newer config.

    The bundled Graphviz writes straight to file descriptor 2, so it is swapped for a
    temporary file and every other line is passed on.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            for line in captured.read().decode(errors="replace").splitlines(keepends=True):
                if not line.startswith("Fontconfig warning"):
                    sys.stderr.write(line)


def write(source: str, path) -> None:
    """Write DOT ``source`` to ``path``: as text for .dot/.gv, else rendered by extension.

    Nothing is left at ``path`` if rendering fails.
    """
    path, extension = check_output(path, EXTENSIONS)
    if extension in (".dot", ".gv"):
        write_atomic(path, source)
    else:
        write_atomic(path, render_bytes(source, extension[1:]))
