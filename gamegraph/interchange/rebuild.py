"""networkx DiGraph -> StateGraph (:func:`from_networkx`): a StateGraph export rebuilt
exactly, any other DiGraph read from its probability-weighted edges.
"""

from __future__ import annotations

import networkx as nx

from .._files import _shown
from ..build import build
from ..errors import InvalidArgumentError
from ..graph import StateGraph
from ..values import check_objective
from .plain import NetworkxRules
from .stored import _from_structure


def from_networkx(g: nx.DiGraph, start=None, *, name: str | None = None, ignore=()) -> StateGraph:
    """Build a StateGraph from a DiGraph: a :func:`to_networkx` export, or any DiGraph
    with probability-weighted edges.

    A DiGraph whose nodes carry ``outcomes`` or whose graph attributes hold ``gamegraph``
    (a :func:`to_networkx` export of a StateGraph, or one read back from a file) is
    rebuilt exactly: states numbered in node order, outcomes and options in their order
    (with their rewards), exact probabilities, terminal values (``value``, default 0, on
    nodes with ``terminal`` true or without ``outcomes``), labels, layers and objective as
    stored; edges are a summary and not read, so an edge attribute other than
    ``probability``, ``moves`` and ``passes`` is refused.

    Any other DiGraph is read from its edges. Every edge needs ``probability`` (int,
    Fraction, string such as ``"1/36"``, or float, read as the decimal it prints as).
    Edges sharing an ``outcome`` key at a node are alternatives of one throw, between
    which the player chooses; other edges are separate outcomes. Probability missing from
    a node's total is the chance of being stuck (a loss in a ``"win"`` game; worth 0 more
    in the others). ``passes=True`` hands the turn over; ``move`` names the move;
    ``reward`` (a number read as ``probability`` is) is what the mover gains by it. A node
    without out-edges is terminal, worth its ``value`` attribute (default 0) to the player
    to move there. The graph holds the nodes reachable from the start.

    What the values mean is ``g.graph["objective"]``: ``"win"`` (the default; values in
    [0, 1], no rewards), ``"score"`` (one player; rewards and values any finite number,
    no edge passes) or ``"margin"`` (two players, zero-sum), see :mod:`gamegraph.values`.

    Parameters
    ----------
    g : networkx.DiGraph
    start : hashable, optional
        The start node; ``g.graph["start"]`` by default.
    name : str, optional
        The game's name; ``g.graph["name"]`` by default.
    ignore : iterable of str, optional
        Edge attributes of your own (``"weight"``, ``"color"``) to leave unread. Any other
        edge attribute that is not read is refused, naming it and the edge, so that a
        misspelt ``"reward"`` is never solved as if it were not there.

    Raises
    ------
    InvalidArgumentError
        For a graph that breaks these rules, naming the node or edge: a probability or
        value that is not a number or out of range, a reward in a ``"win"`` graph, an
        unknown objective, an edge attribute that is not read.

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

    A reward on an edge, in a score game: hold for 2, or roll a die that adds 3 (1/2)
    or ends the game (1/2); rolling is worth (3 + 2) / 2 + 0 / 2 = 5/2 at best.

    >>> g = nx.DiGraph(objective="score")
    >>> g.add_edge("turn", "end", probability=1, outcome="choice", reward=2)
    >>> g.add_edge("turn", "roll", probability=1, outcome="choice")
    >>> g.add_edge("roll", "rolled", probability="1/2", reward=3)
    >>> g.add_edge("rolled", "end", probability=1, reward=2)
    >>> g.add_edge("roll", "end", probability="1/2")
    >>> solve(from_networkx(g, "turn"), exact=True).start_value
    Fraction(5, 2)

    A built game goes through networkx and back unchanged:

    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> from gamegraph.interchange import to_networkx
    >>> graph = build(Jackpot())
    >>> again = from_networkx(to_networkx(graph))
    >>> bool((again.option_target == graph.option_target).all()), again.denominator
    (True, 36)
    """
    if not isinstance(g, nx.DiGraph) or g.is_multigraph():
        raise InvalidArgumentError(
            f"from_networkx takes a networkx DiGraph, not {type(g).__name__}"
        )
    if start is None:
        start = g.graph.get("start")
    try:
        present = start in g
    except TypeError:  # an unhashable start
        present = False
    if not present:
        raise InvalidArgumentError(f"start node {start!r} is not in the graph")
    name = name or g.graph.get("name") or "networkx graph"
    if isinstance(ignore, str) or not all(isinstance(key, str) for key in _iterable(ignore)):
        raise InvalidArgumentError(
            f"ignore must be a list of edge attribute names, not {_shown(repr(ignore))}"
        )
    ignore = frozenset(ignore)
    objective = check_objective(g.graph.get("objective", "win"), 'g.graph["objective"]')
    if "gamegraph" in g.graph or any("outcomes" in data for _, data in g.nodes(data=True)):
        return _from_structure(g, start, str(name), objective, ignore)
    return build(NetworkxRules(g, start, name, objective, ignore))


def _iterable(value) -> list:
    try:
        return list(value)
    except TypeError:
        return [None]
