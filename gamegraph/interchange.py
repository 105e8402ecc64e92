"""networkx as the interchange format: export any graph or chain, import a DiGraph.

:func:`to_networkx` turns a :class:`~gamegraph.StateGraph` (every legal move) or a
:class:`~gamegraph.MarkovChain` (the moves a policy takes, with their probabilities)
into a ``networkx.DiGraph`` whose nodes are the game's own state values (for Jackpot,
the board index). :func:`from_networkx` goes
the other way: a DiGraph whose edges carry a ``probability`` becomes a game that
:func:`gamegraph.solve` can solve and the renderers can draw.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import networkx as nx

from .build import build
from .errors import InvalidArgumentError
from .graph import StateGraph
from .policy import MarkovChain
from .rules import Option, Outcome, Rules


def to_networkx(graph_or_chain) -> nx.DiGraph:
    """Export a StateGraph or MarkovChain as a networkx DiGraph.

    Nodes carry ``label``, ``layer`` (None if the game has none), ``terminal`` and, for
    terminal states, ``value``. For a StateGraph each edge carries ``moves`` (the move
    numbers leading there) and ``probability``, the chance that a throw offers it; for
    a MarkovChain, ``probability`` (exact Fraction) that the policy takes it, ``move``
    and ``passes``, and nodes carry ``stuck``, the chance of having no option.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> g = to_networkx(build(Jackpot()))
    >>> g.number_of_nodes(), g.nodes[0]["label"], g.edges[0, 8]["probability"]
    (512, 'START', Fraction(7, 18))
    """
    if isinstance(graph_or_chain, MarkovChain):
        return _chain_to_networkx(graph_or_chain)
    if not isinstance(graph_or_chain, StateGraph):
        raise InvalidArgumentError(
            f"to_networkx takes a StateGraph or MarkovChain, not {type(graph_or_chain).__name__}"
        )
    graph = graph_or_chain
    g = _nodes(graph)
    offered = defaultdict(Fraction)
    moves = defaultdict(set)
    passes = {}
    for k in range(graph.n_outcomes):
        s = int(graph.outcome_state[k])
        seen = set()
        for j in graph.options_of(k):
            t = int(graph.option_target[j])
            moves[s, t].add(int(graph.option_move[j]))
            passes[s, t] = bool(graph.option_passes[j])
            if t not in seen:
                seen.add(t)
                offered[s, t] += graph.probability(k)
    states = graph.states
    for (s, t), p in offered.items():
        g.add_edge(
            states[s], states[t], probability=p, moves=sorted(moves[s, t]), passes=passes[s, t]
        )
    return g


def _nodes(graph: StateGraph) -> nx.DiGraph:
    g = nx.DiGraph(name=graph.rules.name)
    for i in range(graph.n_states):
        attributes = {
            "label": graph.label(i),
            "layer": graph.layer(i),
            "terminal": bool(graph.terminal[i]),
        }
        if graph.terminal[i]:
            attributes["value"] = graph.terminal_exact[i]
        g.add_node(graph.states[i], **attributes)
    g.graph["start"] = graph.states[graph.start]
    return g


def _chain_to_networkx(chain: MarkovChain) -> nx.DiGraph:
    graph = chain.graph
    g = _nodes(graph)
    states = graph.states
    for i in range(graph.n_states):
        g.nodes[states[i]]["stuck"] = Fraction(int(chain.stuck_weight[i]), graph.denominator)
    for e in range(chain.n_edges):
        g.add_edge(
            states[chain.edge_source[e]],
            states[chain.edge_target[e]],
            probability=chain.edge_fraction(e),
            move=int(chain.edge_move[e]),
            passes=bool(chain.edge_passes[e]),
        )
    g.graph["policy"] = chain.policy.name
    return g


class NetworkxRules(Rules):
    """Rules read off a DiGraph (see :func:`from_networkx`)."""

    def __init__(self, g: nx.DiGraph, start, name: str):
        self.g = g
        self._start = start
        self.name = name

    def start(self):
        return self._start

    def terminal_value(self, node):
        if self.g.out_degree(node) == 0:
            return Fraction(self.g.nodes[node].get("value", 0))
        return None

    def outcomes(self, node):
        groups = defaultdict(list)
        probability = {}
        for _, target, data in self.g.out_edges(node, data=True):
            if "probability" not in data:
                raise InvalidArgumentError(f"edge {node!r} -> {target!r} has no 'probability'")
            key = data.get("outcome", ("edge", target))
            p = _exact(data["probability"], (node, target))
            if probability.setdefault(key, p) != p:
                raise InvalidArgumentError(
                    f"edges of outcome {key!r} at {node!r} disagree on its probability"
                )
            groups[key].append(
                Option(target, int(data.get("move", -1)), bool(data.get("passes", False)))
            )
        result = [Outcome(probability[key], tuple(options)) for key, options in groups.items()]
        rest = 1 - sum(probability.values())
        if rest < 0:
            raise InvalidArgumentError(f"probabilities out of {node!r} sum to more than 1")
        if rest > 0:
            result.append(Outcome(rest, ()))
        return result

    def label(self, node):
        return str(self.g.nodes[node].get("label", node))

    def layer(self, node):
        return self.g.nodes[node].get("layer")


def _exact(p, edge) -> Fraction:
    try:
        # A float (numpy's too) is read as the decimal the user typed, not the binary float.
        p = Fraction(repr(float(p))) if isinstance(p, float) else Fraction(p)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"edge {edge} has probability {p!r}, not a number") from None
    if not 0 < p <= 1:
        raise InvalidArgumentError(f"edge {edge} has probability {p}, outside (0, 1]")
    return p


def from_networkx(g: nx.DiGraph, start=None, *, name: str | None = None) -> StateGraph:
    """Build a StateGraph from a DiGraph with probability-weighted edges.

    Every edge needs ``probability`` (int, Fraction, string such as ``"1/36"``, or float,
    read as the decimal it prints as). Edges sharing an ``outcome`` key at a node are
    alternatives of one throw, between which the player chooses; other edges are
    separate outcomes. Probability missing from a node's total is the chance of being
    stuck (a loss). ``passes=True`` hands the turn over. A node without out-edges is
    terminal, worth its ``value`` attribute (default 0) to the player to move there.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.DiGraph()
    >>> g.add_edge("play", "won", probability="1/4")
    >>> g.add_edge("play", "play", probability="3/4", passes=True)
    >>> g.nodes["won"]["value"] = 1
    >>> from gamegraph import solve
    >>> solve(from_networkx(g, "play"), exact=True).start_value
    Fraction(4, 7)
    """
    if start is None:
        start = g.graph.get("start")
    if start not in g:
        raise InvalidArgumentError(f"start node {start!r} is not in the graph")
    return build(NetworkxRules(g, start, name or g.graph.get("name") or "networkx graph"))
