"""Results computed from solved Ur games: tables, exact match values, maps by pieces off.

The games package (:mod:`gamegraph.games.ur`) knows the rules and reads tables; solving
happens here, one layer up:

* :func:`solve_table` builds and solves every position of a rule set into a
  :class:`~gamegraph.games.ur.code_table.SolvedTable`;
* :func:`exact_win_probability` is the exact value a tournament between two
  deterministic agents estimates (:mod:`gamegraph.games.ur.graph_match`);
* :func:`borne_off_map` turns a table into win probabilities by pieces borne off, the
  data :mod:`gamegraph.renderers.ur_figures` draws.

Examples
--------
>>> table = solve_table("finkel", pieces=1)
>>> round(table.start_value, 6), len(table)
(0.53005, 217)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...analysis.duel import seated_graph
from ...build import build
from ...errors import InvalidArgumentError
from ...graph import StateGraph
from ...policy import Policy
from ...solve import evaluate, solve
from .agents import as_agent
from .code_table import SolvedTable, table_from_solution
from .game import Ur
from .positions import decode
from .rules import UrState


def solve_table(rules="finkel", pieces: int | None = None, *, tol: float = 1e-13) -> SolvedTable:
    """Build and solve every position of a rule set (floats; see :func:`gamegraph.solve`).

    Parameters
    ----------
    rules : str or RuleSet
        ``finkel``, ``masters``, ``blitz`` or ``aseb``.
    pieces : int, optional
        Pieces per side; the rule set's own count by default (too many to solve here
        beyond 4 or so: see docs/performance.md).
    tol : float
        The solver's residual target.
    """
    return table_from_solution(solve(build(Ur(rules, pieces)), tol=tol))


def exact_win_probability(graph: StateGraph, a, b, *, table=None) -> float:
    """The exact probability that deterministic agent ``a``, moving first from the start,
    beats ``b``: the value of the two-seat Markov chain the pair makes of ``graph``.

    The two-seat graph (:func:`gamegraph.analysis.seated_graph`) holds every state twice,
    once with A to move and once with B; each outcome keeps its options, the turn passing
    between the copies, and A's copy is evaluated under A's choices, B's under B's
    (:func:`gamegraph.evaluate`).

    >>> from gamegraph import build, evaluate
    >>> from gamegraph.games.ur import Ur
    >>> from gamegraph.games.ur.agents import make_agent
    >>> graph = build(Ur("finkel", pieces=2))
    >>> first = make_agent("first", ruleset=graph.rules.ruleset)
    >>> exact = exact_win_probability(graph, first, first)     # self-play: one policy
    >>> bool(abs(exact - evaluate(graph, first.policy(graph)).start_value) < 1e-12)
    True
    >>> round(exact_win_probability(graph, "last", "first"), 4)
    0.6953
    """
    agents = [as_agent(x, graph.rules.ruleset, table=table) for x in (a, b)]
    policies = [x.policy(graph) for x in agents]
    doubled = seated_graph(graph)  # A moves in seat 0, B in seat 1
    choice = np.concatenate([policies[0].choice, policies[1].choice])
    return float(
        evaluate(doubled, Policy(choice, name=f"{agents[0].name}-{agents[1].name}")).values[
            graph.start
        ]
    )


# ---------------------------------------------------------------------------
# Win probability by pieces borne off
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BorneOffMap:
    """A solved table seen by pieces borne off; arrays indexed ``[mover_off, opponent_off]``.

    Attributes
    ----------
    rules : str
    pieces : int
    empty : ndarray
        Value of the position with the board empty (every other piece waiting).
    mean : ndarray
        Average value over every position with those borne-off counts.
    count : ndarray of int
        How many positions each average is over.
    """

    rules: str
    pieces: int
    empty: np.ndarray
    mean: np.ndarray
    count: np.ndarray


def borne_off_map(table) -> BorneOffMap:
    """Values of a :class:`~gamegraph.games.ur.code_table.SolvedTable` by pieces borne off.

    >>> m = borne_off_map(solve_table("finkel", pieces=2))
    >>> m.empty.round(4).tolist(), m.count.tolist()
    ([[0.5186, 0.272], [0.778, 0.53]], [[9696, 1478], [1478, 217]])

    With one piece left each, the board empty is the one-piece game's start:

    >>> round(float(m.empty[1, 1]), 6) == round(solve_table("finkel", pieces=1).start_value, 6)
    True
    """
    ruleset = table.ruleset
    pieces = ruleset.pieces
    empty = np.full((pieces, pieces), np.nan)
    for a in range(pieces):
        for b in range(pieces):
            try:
                empty[a, b] = table.value(UrState((), a, (), b))
            except InvalidArgumentError:  # not reachable under these rules
                pass
    numbering = getattr(table, "numbering", None)
    if numbering is not None:  # a table by rank: its blocks are the borne-off counts
        count, total = _sums_by_block(numbering, table.values, pieces)
    else:
        _, mover_off, _, opponent_off = decode(np.asarray(table.codes), ruleset.length)
        cell = np.asarray(mover_off) * pieces + np.asarray(opponent_off)
        count = np.bincount(cell, minlength=pieces * pieces).reshape(pieces, pieces)
        total = np.bincount(cell, weights=table.values, minlength=pieces * pieces)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (total.reshape(-1) / count.reshape(-1)).reshape(pieces, pieces)
    return BorneOffMap(ruleset.name, pieces, empty, mean, count)


def _sums_by_block(numbering, values, pieces: int) -> tuple[np.ndarray, np.ndarray]:
    """(count, total) of ``values`` (by rank) per ``[mover_off, opponent_off]``: block
    ``{low, high}`` holds the mover at ``low`` before its middle and at ``high`` after.
    """
    count = np.zeros((pieces, pieces), dtype=np.int64)
    total = np.zeros((pieces, pieces))
    for block in numbering.blocks:
        for mover, opponent, start, stop in (
            (block.low, block.high, block.start, block.middle),
            (block.high, block.low, block.middle, block.stop),
        ):
            if stop > start and mover < pieces and opponent < pieces:
                count[mover, opponent] += stop - start
                total[mover, opponent] += float(np.sum(values[start:stop], dtype=np.float64))
    return count, total
