"""StateGraph or MarkovChain -> networkx DiGraph (:func:`to_networkx`)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import networkx as nx
import numpy as np

from ..errors import InvalidArgumentError
from ..graph import StateGraph
from ..policy import MarkovChain
from ..rules import Option, Outcome

#: The format number of a StateGraph export (graph attribute ``gamegraph``).
FORMAT = 1


def to_networkx(graph_or_chain) -> nx.DiGraph:
    """Export a StateGraph or MarkovChain as a networkx DiGraph.

    The graph carries ``name``, ``start`` and ``objective``. Nodes carry ``label``,
    ``layer`` (when the game has layers), ``terminal`` and, for terminal states,
    ``value``. For a StateGraph, nodes also carry ``outcomes`` (the exact outcome
    structure with the options' rewards, see :mod:`gamegraph.interchange`) and each edge
    carries ``moves`` (the move numbers leading there), ``passes`` and ``probability``, the
    chance that a throw offers it; for a MarkovChain, each edge carries ``probability``
    (exact Fraction) that the policy takes it, ``move``, ``passes`` and, where it is not 0,
    ``reward`` (the exact mean reward collected along it), and nodes carry ``stuck``, the
    chance of having no option.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> g = to_networkx(build(Jackpot()))
    >>> g.number_of_nodes(), g.nodes[0]["label"], g.edges[0, 8]["probability"]
    (512, 'START', Fraction(7, 18))
    >>> roll = g.nodes[0]["outcomes"][0]  # a roll of (1, 1): flip cell 1 or cell 2
    >>> roll.probability, roll.options[1]
    (Fraction(1, 36), Option(target=2, move=2, passes=False))
    """
    if isinstance(graph_or_chain, MarkovChain):
        return _chain_to_networkx(graph_or_chain)
    if not isinstance(graph_or_chain, StateGraph):
        raise InvalidArgumentError(
            f"to_networkx takes a StateGraph or MarkovChain, not {type(graph_or_chain).__name__}"
        )
    graph = graph_or_chain
    states = list(graph.states)
    g = _nodes(graph, states)
    g.graph["gamegraph"] = FORMAT
    targets = graph.option_target.tolist()
    move_numbers = graph.option_move.tolist()
    passing = graph.option_passes.tolist()
    option_ptr = graph.option_ptr.tolist()
    weights = graph.outcome_weight.tolist()
    outcome_ptr = graph.outcome_ptr.tolist()
    fractions: dict = {}

    def fraction(weight):
        p = fractions.get(weight)
        if p is None:
            p = fractions[weight] = Fraction(weight, graph.denominator)
        return p

    rewards = graph.reward_exact

    def option(j):
        if j in rewards:
            return Option(states[targets[j]], move_numbers[j], passing[j], rewards[j])
        return Option(states[targets[j]], move_numbers[j], passing[j])

    if not rewards:  # the common case, without a call per option

        def option(j):
            return Option(states[targets[j]], move_numbers[j], passing[j])

    for s in np.flatnonzero(~graph.terminal).tolist():
        g.nodes[states[s]]["outcomes"] = [
            Outcome(
                fraction(weights[k]),
                tuple(map(option, range(option_ptr[k], option_ptr[k + 1]))),
            )
            for k in range(outcome_ptr[s], outcome_ptr[s + 1])
        ]
    g.add_edges_from(_offers(graph, states, fraction))
    return g


def _offers(graph: StateGraph, states: list, fraction):
    """One edge per (state, target) pair: the chance a throw offers it, moves, passes."""
    n = graph.n_states
    outcome = graph.option_outcome
    pair = graph.outcome_state[outcome] * n + graph.option_target
    # An outcome offering one target through several options counts once.
    _, first = np.unique(outcome * n + graph.option_target, return_index=True)
    pairs, inverse = np.unique(pair[first], return_inverse=True)
    offered = np.zeros(len(pairs), dtype=np.int64)
    np.add.at(offered, inverse.reshape(-1), graph.outcome_weight[outcome[first]])
    passes = np.zeros(len(pairs), dtype=bool)
    where = np.searchsorted(pairs, pair)
    np.logical_or.at(passes, where, graph.option_passes)
    # The distinct moves to each pair, in increasing order.
    moves = np.unique(np.stack([where, graph.option_move.astype(np.int64)]), axis=1)
    starts = np.searchsorted(moves[0], np.arange(len(pairs) + 1)).tolist()
    move_list = moves[1].tolist()
    for e, (p, weight, passing) in enumerate(
        zip(pairs.tolist(), offered.tolist(), passes.tolist(), strict=True)
    ):
        yield (
            states[p // n],
            states[p % n],
            {
                "probability": fraction(weight),
                "moves": move_list[starts[e] : starts[e + 1]],
                "passes": passing,
            },
        )


def _nodes(graph: StateGraph, states: list) -> nx.DiGraph:
    g = nx.DiGraph(name=graph.rules.name)
    layers = graph.layers
    label = graph.rules.label
    for i, state in enumerate(states):
        attributes = {"label": label(state)}
        if layers is not None:
            attributes["layer"] = int(layers[i])
        attributes["terminal"] = bool(graph.terminal[i])
        if graph.terminal[i]:
            attributes["value"] = graph.terminal_exact[i]
        g.add_node(state, **attributes)
    g.graph["start"] = states[graph.start]
    g.graph["objective"] = graph.objective
    return g


def _chain_to_networkx(chain: MarkovChain) -> nx.DiGraph:
    """One edge per (state, target): the chance the policy takes it, its move and passes,
    and the exact mean reward collected along it where that is not 0.

    Outcomes whose chosen options reach one target are one edge (their probabilities
    add, their rewards are averaged by probability, which keeps every expectation).
    """
    graph = chain.graph
    states = list(graph.states)
    g = _nodes(graph, states)
    for i in range(graph.n_states):
        g.nodes[states[i]]["stuck"] = Fraction(int(chain.stuck_weight[i]), graph.denominator)
    edges: dict = {}  # (source, target) number: [weight, move, passes]
    sources, targets = chain.edge_source.tolist(), chain.edge_target.tolist()
    for e, (u, v) in enumerate(zip(sources, targets, strict=True)):
        passes = bool(chain.edge_passes[e])
        edge = edges.setdefault((u, v), [0, int(chain.edge_move[e]), passes])
        if edge[2] != passes:
            raise InvalidArgumentError(
                f"cannot export this policy's chain as a DiGraph: from {graph.label(u)!r} it "
                f"reaches {graph.label(v)!r} both keeping and passing the turn, and a DiGraph "
                "holds one edge per pair; export the StateGraph instead"
            )
        edge[0] += int(chain.edge_weight[e])
    paid = _chain_rewards(chain)
    for (u, v), (weight, move, passes) in edges.items():
        data = {"probability": Fraction(weight, graph.denominator), "move": move, "passes": passes}
        if (u, v) in paid:
            data["reward"] = paid[u, v] / weight
        g.add_edge(states[u], states[v], **data)
    g.graph["policy"] = chain.policy.name
    return g


def _chain_rewards(chain: MarkovChain) -> dict:
    """(source, target) number: the sum of weight times exact reward of the options the
    policy takes there, for the pairs where it is not 0.
    """
    graph = chain.graph
    if not graph.reward_exact:
        return {}
    taken = chain.policy.chosen_option(graph)
    paying = np.flatnonzero(np.isin(taken, np.fromiter(graph.reward_exact, dtype=np.int64)))
    totals: dict = defaultdict(Fraction)
    for k in paying.tolist():
        j = int(taken[k])
        pair = (int(graph.outcome_state[k]), int(graph.option_target[j]))
        totals[pair] += int(graph.outcome_weight[k]) * graph.reward_exact[j]
    return {pair: total for pair, total in totals.items() if total}
