r"""Seeded matches between Ur agents on the positions themselves: no graph, any piece count.

:mod:`.graph_match` plays on the state numbers of a full-board graph, which costs about
1.2 kB a position to build: out of reach beyond 4 pieces. Here every live game is a
position held in four integer arrays (:mod:`.moves`), and each throw's moves are made
for all of them at once with the rank module's move function. The games are the same:
the match loop is :func:`.graph_match._play`, which draws the same random numbers in the
same order on either board, so with the same seed the same agents play the same games
and win the same counts (the tests check it at 1 to 3 pieces).

Agents choose in one of two ways:

* vectorised, by :meth:`~.agents.Agent.position_choice` on all the decisions of a turn
  at once: ``first``, ``last``, ``greedy``, ``expectimax-D`` (the search itself on arrays)
  and ``optimal`` (the table's values by rank);
* one position at a time, by :meth:`~.agents.Agent.choose` (``gain``, and any agent
  without a vectorised form), its answer kept for the next visit;

and ``random`` draws afresh from the match's generator at every visit.

A table is any solved table with ``values_of``: the memory-mapped ``.npy`` table of the
block solver (:class:`~.rank_table.ValueTable`, any size) or a
:class:`~.code_table.SolvedTable`. With one, every decision (a throw with more than one legal
move) is measured against the optimum, as on the graph.

Examples
--------
>>> from gamegraph.games.ur import rule_set
>>> result = play_positions("greedy", "first", ruleset=rule_set("finkel", 7), games=20,
...                         seed=1)
>>> result.games, result.a.name, result.unfinished, result.a.wins + result.b.wins
(20, 'greedy', 0, 20)
"""

from __future__ import annotations

import numpy as np

from ..._checks import MAX_GAMES, check_choice, check_games, check_int
from ..._progress import reporter
from ...errors import InvalidArgumentError
from .agents import Agent, as_agent
from .graph_match import MAX_THROWS, MatchResult, RoundRobin, _check_names, _pairings, _play
from .moves import moves_after, states
from .rules import legal_moves, rule_set

#: Choices remembered per agent asked one position at a time, at most.
CACHE = 1_000_000


class _PositionChooser:
    """Supplies one agent's choices at the decisions of a turn."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.cache = {}

    def pick(self, moves, rng) -> np.ndarray:
        if self.agent.randomised:
            return rng.integers(0, moves.counts)
        choice = self.agent.position_choice(moves)
        if choice is None:
            choice = self._ask(moves)
        return np.asarray(choice, dtype=np.int64)

    def _ask(self, moves) -> list[int]:
        agent, ruleset = self.agent, self.agent.ruleset
        counts = moves.counts
        out = []
        for i, state in enumerate(states(moves.mover, moves.a, moves.opp, moves.b,
                                         ruleset.length)):  # fmt: skip
            throw = int(moves.throw[i])
            key = (state, throw)
            if key not in self.cache:
                legal = legal_moves(state, throw, ruleset)
                if len(legal) != counts[i]:  # pragma: no cover - the two forms of the rules
                    raise InvalidArgumentError(
                        f"{len(legal)} legal moves after throw {throw} at {state}, "
                        f"{counts[i]} made on arrays"
                    )
                if len(self.cache) >= CACHE:
                    self.cache.clear()
                picked = agent.choose(state, throw, legal)
                self.cache[key] = check_choice(
                    picked, len(legal), f"agent {agent.name!r} at {state}"
                )
            out.append(self.cache[key])
        return out


class _PositionTurn:
    """One throw of every live game: the moves it offers (:class:`.moves.Moves`)."""

    def __init__(self, board, moves):
        self.board = board
        self.moves = moves
        self.counts = moves.counts

    def choose(self, chooser, asked, rng) -> np.ndarray:
        return chooser.pick(self.moves.take(asked), rng)

    def loss(self, asked, chosen) -> np.ndarray:
        moves = self.moves.take(asked)
        q = moves.values(self.board.table)
        counts = moves.counts
        starts = np.cumsum(counts) - counts
        return np.maximum.reduceat(q, starts) - q[starts + chosen]


class _PositionBoard:
    """A match's games as positions ``(mover, a, opp, b)`` (see :func:`.graph_match._play`)."""

    def __init__(self, ruleset, table):
        self.ruleset = ruleset
        self.table = table
        self.measured = table is not None
        self.numerators = np.array([w for _, w in ruleset.throws], dtype=np.int64)
        self.denominator = ruleset.denominator
        self.throws = np.array([t for t, _ in ruleset.throws], dtype=np.int64)

    def start(self, size: int) -> tuple:
        return tuple(np.zeros(size, dtype=np.int64) for _ in range(4))

    def throw(self, state, live, k) -> _PositionTurn:
        sides = (x[live] for x in state)
        return _PositionTurn(self, moves_after(*sides, self.throws[k], self.ruleset))

    def advance(self, state, live, turn, pick):
        after = turn.moves.pick(pick)
        for array, new in zip(state, after[:4]):
            array[live] = new
        return after.passes, after.won


def _board(ruleset, table) -> _PositionBoard:
    if table is None and ruleset is None:
        raise InvalidArgumentError("a match needs the rules (ruleset=...) or a solved table")
    if table is not None:
        held = table.ruleset
        if ruleset is not None:
            wanted = rule_set(ruleset)
            if (wanted.name, wanted.pieces) != (held.name, held.pieces):
                raise InvalidArgumentError(
                    f"the table is for {held.name} with {held.pieces} piece(s), "
                    f"not {wanted.name} with {wanted.pieces}"
                )
        if not hasattr(table, "values_of"):
            raise InvalidArgumentError(
                "a match on positions reads the table's values_of(...): give a SolvedTable "
                "or a table opened with open_values"
            )
        ruleset = held
    return _PositionBoard(rule_set(ruleset), table)


def play_positions(
    a,
    b,
    *,
    games: int,
    ruleset=None,
    table=None,
    seed: int | None = None,
    batch: int = 100_000,
    max_throws: int = 100_000,
    progress=None,
) -> MatchResult:
    """Play ``games`` games of agent ``a`` against agent ``b`` on positions, without a graph.

    As :func:`.graph_match.play_match` (the same games for the same seed), with the rules
    given by ``ruleset`` (a rule set, or its name with its own piece count) or by
    ``table``, which also serves ``optimal`` and measures every decision's loss.
    """
    check_int(batch, "batch", low=1, high=MAX_GAMES)
    check_int(max_throws, "max_throws", low=1, high=MAX_THROWS)
    board = _board(ruleset, table)
    agents = [as_agent(x, board.ruleset, table=table, seed=seed) for x in (a, b)]
    choosers = [_PositionChooser(x) for x in agents]
    desc = f"{agents[0].name} vs {agents[1].name}"
    with reporter(check_games(games), desc=desc, unit=" games", progress=progress) as report:
        return _play(board, choosers, games=games, seed=seed, batch=batch,
                     max_throws=max_throws, progress=report)  # fmt: skip


def round_robin_positions(
    agents,
    *,
    games: int,
    ruleset=None,
    table=None,
    seed: int | None = None,
    games_for=None,
    progress=None,
) -> RoundRobin:
    """Every pair of ``agents`` plays a match on positions: :func:`.graph_match.round_robin`
    without a graph (the same rows for the same seed), at any piece count.

    Examples
    --------
    >>> rows = round_robin_positions(["first", "last", "greedy"], ruleset="masters",
    ...                              games=10, seed=1)
    >>> [(row["a"], row["b"], row["games"]) for row in rows]
    [('first', 'last', 10), ('first', 'greedy', 10), ('last', 'greedy', 10)]
    """
    board = _board(ruleset, table)
    agents = [as_agent(x, board.ruleset, table=table, seed=seed) for x in agents]
    _check_names(agents)
    choosers = [_PositionChooser(x) for x in agents]
    return _pairings(board, choosers, games, seed, games_for, progress)
