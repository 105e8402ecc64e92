"""Parts of any game that a diagram can draw: state selections that work for every game.

A diagram of a whole game stops helping long before the game is large: Graphviz lays out
a few hundred states in seconds, a thousand in minutes, and the picture stops reading
well before that (:data:`gamegraph.renderers.dot.MAX_DIAGRAM_STATES`). These three views
pick a part of a game under a policy, for any game (cyclic or not, one player or two):

- :func:`likely`: the ``limit`` states with the most probable paths from the start under
  the policy, so a tree of the likeliest ways the game goes;
- :func:`threshold`: the states the policy reaches with at least a given probability;
- :func:`around`: the states within a number of moves of one state, before and after it.

Each returns the selected state numbers as a sorted ``int64`` array;
:func:`selection` turns them into the :class:`~gamegraph.analysis.Selection` that
:func:`gamegraph.renderers.dot.chain_dot` and :func:`~gamegraph.renderers.dot.policy_dot`
draw. :func:`~gamegraph.analysis.likely_paths`, :func:`~gamegraph.analysis.reach_above`
and :func:`~gamegraph.analysis.neighbourhood` (:mod:`gamegraph.analysis.pruning`) are the
Jackpot diagrams' selections these build on, as whole games, reach and neighbourhoods.

Every view speaks the game's objective (:mod:`gamegraph.values`): :func:`value_text`
writes a value as a percentage only for ``win`` (``"14.36 %"``) and as a number for a
score or a margin (``"-2.663"``), and :func:`view_title` titles a diagram with the
objective's own words ("expected score", or a game's ``value_name`` such as "expected
turns").

The most probable path to a state :math:`t` maximises the product of the edge
probabilities :math:`p(s \\to u)` of the chain along it, that is it minimises the sum of
:math:`-\\log p`; Dijkstra's algorithm finds them all at once (scipy), cycles included.
Each edge also costs a tiny constant, so a state's predecessor on its best path always
comes first: the ``limit`` best states are closed under predecessors and form one tree
from the start.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import check_int
from ..graph import StateGraph
from ..policy import MarkovChain
from ..propagate import propagate
from ..solve import evaluate
from ..values import objective_of, value_name
from .policies import as_policy
from .pruning import Selection, neighbourhood, reach_above

#: The states :func:`likely` keeps unless told otherwise.
DEFAULT_LIMIT = 60
#: The least reach :func:`threshold` keeps unless told otherwise.
DEFAULT_MINIMUM = 0.02
#: Moves :func:`around` goes each way unless told otherwise.
DEFAULT_STEPS = 2
#: The most moves :func:`around` goes each way (that of
#: :func:`~gamegraph.analysis.neighbourhood`).
MAX_STEPS = 50
#: The names of the views, as the command line spells them.
VIEWS = ("likely", "threshold", "around")

# Added to every edge's -log p: a state's best predecessor is strictly closer to the start.
_STEP_COST = 1e-9


def value_text(value, objective: str = "win", digits: int = 4) -> str:
    """A value as a diagram or a page writes it: a percentage for ``win`` only, else a
    number with ``digits`` significant digits (a score of 12.545 is not 1254.5 %).

    >>> value_text(0.143576, "win"), value_text(-2.6634054, "score"), value_text(2, "margin")
    ('14.36 %', '-2.663', '2')
    """
    x = float(value)
    if objective == "win":
        return f"{100 * x:.{max(digits - 2, 0)}f} %"
    text = f"{x:.{digits}g}"
    return "0" if text == "-0" else text


def start_text(value, game) -> str:
    """A start value for a title, in the words of ``game``'s objective (a graph, solution
    or rules): the probability alone for ``win`` ("0.7094"), else named as the game names
    it ("expected turns -2.663").

    >>> from gamegraph.games.pig import Pig
    >>> start_text(0.70942, Pig(goal=10))
    '0.7094'
    """
    objective = objective_of(game)
    if objective == "win":
        return f"{float(value):.4f}"
    return f"{value_name(game)} {value_text(value, objective)}"


def view_title(view) -> str:
    """A diagram's title for a :class:`~gamegraph.analysis.PolicyView`, in the words of the
    game's objective: the view's own for ``win`` ("Jackpot: hilo (7.99 % wins)"), else the
    game, the policy and its value from the start, named as the game names it.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.analysis import policy_view
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot(cells=3))
    >>> view_title(policy_view(graph, solve(graph), reach=True))
    'Jackpot: optimal (14.36 % wins)'
    """
    graph = view.chain.graph
    objective = objective_of(graph)
    if objective == "win":
        return view.title
    game = str(getattr(graph.rules, "name", "game"))
    text = f"{game[:1].upper()}{game[1:]}: {view.chain.policy.name or 'policy'}"
    value = evaluate(graph, view.chain.policy).start_value
    return f"{text} ({value_name(graph)} {value_text(value, objective)})"


def _chain(graph: StateGraph, policy) -> MarkovChain:
    """The chain of ``policy``: a MarkovChain as it is, else any policy argument
    (:func:`.policies.as_policy`: a Policy, an agent, a Solution, a game's agent by name).
    """
    if isinstance(policy, MarkovChain):
        return policy
    return as_policy(graph, policy).chain(graph)


def best_paths(graph: StateGraph, policy) -> tuple[np.ndarray, np.ndarray]:
    """Each state's most probable path from the start under ``policy``.

    Returns
    -------
    probability : ndarray of float
        Per state, the probability of its most probable path from the start (0 where the
        policy never goes), within a relative 1e-9 per move of the exact product (the
        step cost of the module docstring).
    predecessor : ndarray of int
        Per state, the state before it on that path (-1 at the start and where unreached).

    Examples
    --------
    Jackpot on three cells under 'max': from the start a throw of 3 (13/36) flips cell 3.

    >>> from gamegraph import Policy, build
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> graph = build(Jackpot(cells=3))
    >>> p, before = best_paths(graph, Policy.from_agent(graph, AGENTS["max"]))
    >>> i = graph.state_number(4)
    >>> round(float(p[i]) * 36, 6), int(before[i]) == graph.start
    (13.0, True)
    """
    distance, predecessor = _distances(graph, policy)
    return np.exp(-distance), predecessor


def _distances(graph: StateGraph, policy) -> tuple[np.ndarray, np.ndarray]:
    """-log of each state's best path probability (plus the step costs; inf if unreached)
    and its predecessor on that path.
    """
    from scipy.sparse import csr_matrix  # here, not at import: the command line loads this
    from scipy.sparse.csgraph import dijkstra

    chain = _chain(graph, policy)
    n = graph.n_states
    cost = -np.log(chain.edge_probability) + _STEP_COST
    matrix = csr_matrix((cost, (chain.edge_source, chain.edge_target)), shape=(n, n))
    distance, predecessor = dijkstra(
        matrix, directed=True, indices=graph.start, return_predecessors=True
    )
    return distance, np.where(predecessor < 0, -1, predecessor).astype(np.int64)


def likely(graph: StateGraph, policy, limit: int = DEFAULT_LIMIT) -> np.ndarray:
    """The ``limit`` states whose most probable path from the start is likeliest.

    Together they are the start and the likeliest ways on from it: every state kept has
    the state before it on its best path kept too (one tree from the start). Ties go to
    the lower state number. Cyclic games are fine (:func:`best_paths`).

    Parameters
    ----------
    graph : StateGraph
    policy : Policy or MarkovChain
        The moves made (a solution's ``.policy`` for optimal play).
    limit : int
        How many states at most, 1 or more (fewer when the policy reaches fewer).

    Returns
    -------
    ndarray of int64
        Sorted state numbers.

    Examples
    --------
    Pig to 10 under optimal play: from 0-0 the first player keeps rolling, so the
    likeliest states are the first turn's rolls and choices.

    >>> from gamegraph import build, solve
    >>> from gamegraph.games.pig import Pig
    >>> graph = build(Pig(goal=10))
    >>> kept = likely(graph, solve(graph).policy, 5)
    >>> [graph.label(i) for i in kept]
    ['roll 0-0 +0', 'choose 0-0 +2', 'choose 0-0 +3', 'choose 0-0 +4', 'choose 0-0 +5']
    """
    limit = check_int(limit, "limit", low=1)
    distance, _ = _distances(graph, policy)
    reached = np.flatnonzero(np.isfinite(distance))
    # Most probable first (ranked by -log p, which never underflows); stable, so equal
    # probabilities keep the lower state number.
    order = reached[np.argsort(distance[reached], kind="stable")]
    return np.sort(order[:limit]).astype(np.int64)


def threshold(graph: StateGraph, policy, minimum: float = DEFAULT_MINIMUM) -> np.ndarray:
    """The states ``policy`` reaches with probability at least ``minimum``.

    Reach is :func:`gamegraph.propagate.propagate`'s ``reach_probability``: in a game
    that can revisit a state (Pig), the expected number of visits, which can exceed 1.

    Parameters
    ----------
    minimum : float
        A probability in (0, 1].

    Examples
    --------
    Jackpot on three cells under 'max': the start, boards 2 (8/36), 4 (13/36) and
    6 (260/1296) are reached in at least 20 % of games.

    >>> from gamegraph import Policy, build
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> graph = build(Jackpot(cells=3))
    >>> kept = threshold(graph, Policy.from_agent(graph, AGENTS["max"]), 0.2)
    >>> [graph.states[i] for i in kept]
    [0, 2, 4, 6]
    """
    chain = _chain(graph, policy)
    return reach_above(chain, propagate(graph, chain.policy), minimum).states.astype(np.int64)


@dataclass(frozen=True)
class _AllMoves:
    """Every move the rules allow, as the edges :func:`neighbourhood` walks."""

    graph: StateGraph
    edge_source: np.ndarray
    edge_target: np.ndarray


def around(graph: StateGraph, state: int, steps: int = DEFAULT_STEPS, policy=None) -> np.ndarray:
    """The states within ``steps`` moves of ``state``, before it and after it.

    Both directions: the states that lead to ``state`` in up to ``steps`` moves, and those
    it leads to. With a ``policy`` only the moves the policy makes count (the edges its
    diagram draws); without, every move the rules allow.

    Parameters
    ----------
    state : int
        A state number (``graph.state_number(value)`` gives it from a state).
    steps : int
        Moves each way, 1 to :data:`MAX_STEPS`.
    policy : Policy or MarkovChain, optional

    Examples
    --------
    Pig to 10, the first turn's choice after a 2: roll on (from 0-0 +2) or hold, which
    hands the turn over at 2-0 (written from the next player's side, 0-2). Optimal play
    rolls on.

    >>> from gamegraph import build, solve
    >>> from gamegraph.games.pig import Pig
    >>> graph = build(Pig(goal=10))
    >>> after_two = graph.state_number(("choose", 0, 0, 2))
    >>> [graph.label(i) for i in around(graph, after_two, 1)]
    ['roll 0-0 +0', 'choose 0-0 +2', 'roll 0-0 +2', 'roll 0-2 +0']
    >>> [graph.label(i) for i in around(graph, after_two, 1, solve(graph).policy)]
    ['roll 0-0 +0', 'choose 0-0 +2', 'roll 0-0 +2']
    """
    steps = check_int(steps, "steps", low=1, high=MAX_STEPS)
    if policy is not None:
        moves = _chain(graph, policy)
    else:
        moves = _AllMoves(
            graph,
            graph.outcome_state[graph.option_outcome].astype(np.int64),
            graph.option_target.astype(np.int64),
        )
    return neighbourhood(moves, state, steps).states.astype(np.int64)


def selection(chain: MarkovChain, states, caption: str) -> Selection:
    """The :class:`~gamegraph.analysis.Selection` a diagram draws: ``states`` and the
    chain's edges among them.

    Examples
    --------
    >>> from gamegraph import Policy, build
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> graph = build(Jackpot(cells=3))
    >>> chain = Policy.from_agent(graph, AGENTS["max"]).chain(graph)
    >>> selection(chain, likely(graph, chain, 4), "the likeliest states")
    <Selection 'the likeliest states': 4 states, 3 edges>
    """
    states = np.unique(np.asarray(states, dtype=np.int64))
    keep = np.zeros(chain.graph.n_states, dtype=bool)
    keep[states] = True
    edges = np.flatnonzero(keep[chain.edge_source] & keep[chain.edge_target])
    return Selection(states=states, edges=edges, caption=caption)


def ranking_edges(chain: MarkovChain, states, edges) -> np.ndarray:
    """Which of a diagram's ``edges`` should set its ranks (a bool mask over ``edges``).

    Graphviz ``dot`` ranks states along the edges; a cycle (Pig's bust back to a turn's
    start, a capture in a race) makes it reverse edges and route long ones across many
    ranks, and its layout time explodes: a 200-state view of Home Run took 21 s, 0.1 s
    with only these edges ranking. An edge ranks unless it lies on a cycle of the drawn
    part and does not go one breadth-first step on (counted from the start, or from the
    drawn states nothing drawn leads to). Acyclic drawings keep every edge.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.pig import Pig
    >>> graph = build(Pig(goal=10))
    >>> chain = solve(graph).policy.chain(graph)
    >>> part = selection(chain, likely(graph, chain, 18), "all")
    >>> mask = ranking_edges(chain, part.states, part.edges)
    >>> len(mask), int((~mask).sum())  # busts and holds back to a turn's start
    (48, 16)
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components, shortest_path

    states = np.asarray(states, dtype=np.int64)
    edges = np.asarray(edges, dtype=np.int64)
    if len(edges) == 0:
        return np.ones(0, dtype=bool)
    index = np.full(chain.graph.n_states, -1, dtype=np.int64)
    index[states] = np.arange(len(states))
    source, target = index[chain.edge_source[edges]], index[chain.edge_target[edges]]
    m = len(states)
    matrix = csr_matrix((np.ones(len(edges)), (source, target)), shape=(m, m))
    _, component = connected_components(matrix, directed=True, connection="strong")
    on_cycle = (component[source] == component[target]) | (source == target)
    if not on_cycle.any():
        return np.ones(len(edges), dtype=bool)
    roots = set(np.setdiff1d(np.arange(m), target).tolist())
    if index[chain.graph.start] >= 0:
        roots.add(int(index[chain.graph.start]))
    if not roots:
        roots = {0}
    depth = shortest_path(matrix, unweighted=True, indices=sorted(roots)).min(axis=0)
    return ~on_cycle | (depth[target] == depth[source] + 1)
