r"""Agents that play the Royal Game of Ur, from rules of thumb to the solved optimum.

An agent is asked for a move with ``choose(state, throw, moves)``: the position seen
from the side to move (:class:`~.rules.UrState`), the throw, and the legal
moves as :func:`~.rules.legal_moves` lists them. It returns the index of the
move it plays. A graph from ``Ur(...).build_graph()`` offers its options in that same
order, so the index is also the option index of the graph's outcome.

===============  ================================================================
name             rule
===============  ================================================================
``random``       uniform among the legal moves (seeded generator)
``first``        the first legal move: the rearmost piece (entering comes first)
``last``         the last legal move: the most advanced piece
``greedy``       a capture, else a move onto a rosette, else a bear-off, else the
                 most advanced piece (each tier broken by the next one down)
``gain``         the largest gain G = W + A + C (Raposo & Lamont 2023, section 4.4
                 and Appendix C; see :mod:`.gain`)
``expectimax``   ``depth``-ply expectimax with pip-count leaves (:class:`Expectimax`)
``optimal``      the best move by a :class:`~.code_table.SolvedTable`
===============  ================================================================

Every agent takes the first of equally good moves. The deterministic agents whose rule
is cheap to apply to a whole graph also give ``policy_array(graph)``: their choice at
every outcome of a full-board graph, as :class:`gamegraph.policy.Policy` holds it, which
the tournament (:mod:`.graph_match`) uses instead of asking position by
position. :meth:`Agent.policy` turns any deterministic agent into a ``Policy``. Without
a graph, ``position_choice(moves)`` gives their choice in many positions at once, held in
arrays (:mod:`.moves`): matches on positions (:mod:`.position_match`) and the exact duel against
the optimum (:mod:`gamegraph.games.ur.exact_duel`) use it, at any piece count.

Examples
--------
>>> from gamegraph.games.ur import legal_moves, parse_position, rule_set
>>> finkel = rule_set("finkel", pieces=3)
>>> state = parse_position("2,6/7", finkel)
>>> moves = legal_moves(state, 1, finkel)
>>> moves
[(0, 1, False), (2, 3, False), (6, 7, True)]
>>> [make_agent(name, ruleset=finkel).choose(state, 1, moves)
...  for name in ("first", "last", "greedy")]
[0, 2, 2]
>>> make_agent("bogus")
Traceback (most recent call last):
...
gamegraph.errors.UnknownNameError: unknown Ur agent 'bogus'; accepted: random, first, last, ...
"""

from __future__ import annotations

import re

import numpy as np

from ..._checks import check_int
from ...errors import InvalidArgumentError, UnknownNameError
from ...graph import StateGraph
from ...policy import Policy
from ...values import first_best, option_values, passing_value
from .gain import GainCalculator, check_max_moves
from .moves import Moves, moves_after, pip_counts
from .positions import Geometry, Positions, decode
from .rules import WIN, RuleSet, UrState, legal_moves, play, rule_set

MAX_DEPTH = 12


# ---------------------------------------------------------------------------
# The interface
# ---------------------------------------------------------------------------
class Agent:
    """Base class of Ur agents: a name, ``choose``, and optionally ``policy_array``.

    Every Ur agent is a :class:`gamegraph.policy.Agent` (the library's one agent
    protocol): :meth:`policy` gives its choice at every outcome of a graph, so
    ``Policy.from_agent(graph, agent)`` takes it like any other. Ur agents need a rule set
    (and some a table or a seed), so the registry :data:`AGENT_TYPES` holds their types
    and :func:`make_agent` builds one. Subclasses set :attr:`name` and implement
    :meth:`choose`. :attr:`randomised` is True for agents whose pick is drawn afresh at
    every visit (those have no fixed policy).
    """

    name = "agent"
    randomised = False

    def __init__(self, ruleset: RuleSet):
        self.ruleset = rule_set(ruleset)

    def choose(self, state: UrState, throw: int, moves: list) -> int:
        """Index into ``moves`` of the move to play."""
        raise NotImplementedError

    def policy_array(self, graph: StateGraph) -> np.ndarray | None:
        """The choice at every outcome of ``graph`` at once, or None when the agent has no
        vectorised form (the tournament then asks :meth:`choose` at each visited outcome).
        """
        return None

    def position_choice(self, moves: Moves) -> np.ndarray | None:
        """The move chosen in each row of ``moves`` (every move of many positions after
        their throws, :class:`.moves.Moves`; each row has a legal move), as the index
        among the row's legal moves; None when the agent has no vectorised form (a match
        on positions then asks :meth:`choose` row by row).
        """
        return None

    def policy(self, graph: StateGraph) -> Policy:
        """The agent's choice at every outcome of ``graph`` as a :class:`Policy`.

        Agents without :meth:`policy_array` are asked at every throw with more than one
        legal move, one by one: seconds for 2 pieces, minutes for 3 (``gain``).
        """
        if self.randomised:
            raise InvalidArgumentError(
                f"agent {self.name!r} draws a new move at every visit and has no fixed policy"
            )
        choice = self.policy_array(graph)
        if choice is None:
            choice = np.zeros(graph.n_outcomes, dtype=np.int32)
            throws = outcome_throws(graph)
            counts = np.diff(graph.option_ptr)
            owner = graph.outcome_state
            for k in np.flatnonzero(counts > 1).tolist():
                state = graph.states[int(owner[k])]
                throw = int(throws[k])
                choice[k] = self.choose(state, throw, legal_moves(state, throw, self.ruleset))
        return Policy(np.asarray(choice, dtype=np.int32), name=self.name)

    def __repr__(self):
        return f"<Ur agent {self.name}>"


def _check_moves(moves) -> int:
    if not moves:
        raise InvalidArgumentError("there is no legal move to choose from (the turn passes)")
    return len(moves)


# ---------------------------------------------------------------------------
# Helpers over a full-board graph
# ---------------------------------------------------------------------------
def _board_graph(graph: StateGraph, ruleset: RuleSet):
    positions = graph.states
    if not isinstance(positions, Positions):
        raise InvalidArgumentError(
            "a vectorised policy needs the graph of every position "
            "(Ur(...).build_graph() without a custom start)"
        )
    if (positions.ruleset.name, positions.ruleset.pieces) != (ruleset.name, ruleset.pieces):
        raise InvalidArgumentError(
            f"the graph is for {positions.ruleset.name} with {positions.ruleset.pieces} piece(s), "
            f"the agent for {ruleset.name} with {ruleset.pieces}"
        )
    if (np.diff(graph.option_ptr) == 0).any():
        raise InvalidArgumentError("every outcome of an Ur graph offers at least one option")
    return positions


def outcome_throws(graph: StateGraph) -> np.ndarray:
    """The throw behind every outcome of an Ur graph (outcomes follow the throws in order).

    >>> from gamegraph.games.ur import Ur
    >>> outcome_throws(Ur("finkel", pieces=1).build_graph())[:6].tolist()
    [0, 1, 2, 3, 4, 0]
    """
    throws = np.array(graph.rules.throws(), dtype=np.int64)
    local = np.arange(graph.n_outcomes) - graph.outcome_ptr[graph.outcome_state]
    return throws[local]


def _first_best(graph: StateGraph, q: np.ndarray) -> np.ndarray:
    """Local index of the first option with the largest ``q`` at every outcome
    (:func:`gamegraph.values.first_best`; every outcome of an Ur graph offers an option).
    """
    return first_best(q, graph.option_ptr[:-1])


def _row_best(moves, q: np.ndarray) -> np.ndarray:
    """The index of the first best of each row's legal moves, ``q`` holding their worth
    flattened in row order (:func:`gamegraph.values.first_best`).
    """
    counts = moves.counts
    return first_best(q, np.cumsum(counts) - counts).astype(np.int64)


def table_values(graph: StateGraph, table) -> np.ndarray:
    """The win probability of the side to move in every state of a full-board ``graph``,
    read from a :class:`~.code_table.SolvedTable` (1 for :data:`~.rules.WIN`).
    """
    positions = _board_graph(graph, table.ruleset)
    at = np.searchsorted(table.codes, positions.codes)
    at = np.minimum(at, len(table.codes) - 1)
    if len(positions.codes) and not np.array_equal(table.codes[at], positions.codes):
        raise InvalidArgumentError("the table does not hold every position of the graph")
    values = np.ones(graph.n_states)
    values[: positions.win] = table.values[at]
    return values


# ---------------------------------------------------------------------------
# Simple agents
# ---------------------------------------------------------------------------
class RandomAgent(Agent):
    """Uniform among the legal moves, from a generator seeded with ``seed``."""

    name = "random"
    randomised = True

    def __init__(self, ruleset, seed: int | None = None):
        super().__init__(ruleset)
        self.rng = np.random.default_rng(seed)

    def choose(self, state, throw, moves):
        return int(self.rng.integers(_check_moves(moves)))


class FirstAgent(Agent):
    """The first legal move: the rearmost piece, an entering piece before any other."""

    name = "first"

    def choose(self, state, throw, moves):
        _check_moves(moves)
        return 0

    def policy_array(self, graph):
        _board_graph(graph, self.ruleset)
        return np.zeros(graph.n_outcomes, dtype=np.int32)

    def position_choice(self, moves):
        return np.zeros(len(moves.mover), dtype=np.int64)


class LastAgent(Agent):
    """The last legal move: the most advanced piece."""

    name = "last"

    def choose(self, state, throw, moves):
        return _check_moves(moves) - 1

    def policy_array(self, graph):
        _board_graph(graph, self.ruleset)
        return (np.diff(graph.option_ptr) - 1).astype(np.int32)

    def position_choice(self, moves):
        return moves.counts - 1


class GreedyAgent(Agent):
    """Capture if possible, else land on a rosette, else bear off, else move the most
    advanced piece.

    The move with the largest key (captures, lands on a rosette, bears off, square moved
    from) is played, comparing the parts in that order; the square moved from differs
    between any two moves, so there are no ties.
    """

    name = "greedy"

    def _key(self, move):
        source, target, captures = move
        length = self.ruleset.length
        rosette = target <= length and self.ruleset.is_rosette(target)
        return (captures, rosette, target == length + 1, source)

    def choose(self, state, throw, moves):
        _check_moves(moves)
        keys = [self._key(m) for m in moves]
        return keys.index(max(keys))

    def policy_array(self, graph):
        positions = _board_graph(graph, self.ruleset)
        geometry = Geometry(self.ruleset)
        length = self.ruleset.length
        outcome = graph.option_outcome
        state = graph.outcome_state[outcome]
        source = graph.option_move.astype(np.int64)
        target = np.clip(source + outcome_throws(graph)[outcome], 0, length + 1)
        codes = np.append(positions.codes, 0)  # WIN owns no outcome
        _, _, opponent, _ = decode(codes[state], length)
        theirs = geometry.opponent_square[np.minimum(target, length + 1)]
        captures = (theirs > 0) & (((opponent >> np.maximum(theirs - 1, 0)) & 1) == 1)
        rosette = geometry.rosette[target]
        bears_off = target == length + 1
        key = ((captures * 2 + rosette) * 2 + bears_off) * (length + 2) + source
        return _first_best(graph, key)

    def position_choice(self, moves):
        length = self.ruleset.length
        target = moves.target
        rosette = Geometry(self.ruleset).rosette[np.minimum(target, length + 1)]
        source = np.arange(length + 1)
        key = ((moves.captures * 2 + rosette) * 2 + (target == length + 1)) * (length + 2)
        return _row_best(moves, (key + source)[moves.legal])


# ---------------------------------------------------------------------------
# Expectimax
# ---------------------------------------------------------------------------
def pip_count(state: UrState, ruleset: RuleSet) -> int:
    """The mover's progress minus the opponent's: squares walked, L + 1 per piece off.

    >>> pip_count(UrState((4, 13), 2, (6,), 0), rule_set("finkel"))
    41
    """
    off = ruleset.length + 1
    return (sum(state.mover) + off * state.mover_off) - (
        sum(state.opponent) + off * state.opponent_off
    )


def win_score(ruleset: RuleSet) -> int:
    """The heuristic value of :data:`WIN` to the side that reached it: larger than any
    pip-count difference.
    """
    return 2 * (ruleset.length + 1) * ruleset.pieces


class Expectimax(Agent):
    r"""Expectimax search ``depth`` plies deep, leaves scored by :func:`pip_count`.

    A *ply* is one throw and the move after it (a pass when the throw offers none),
    whoever makes it: a move onto a rosette gives the same side the next ply. Ply 1 is
    the agent's own move with the throw it knows; every later ply averages over the
    throw, and the side to move takes the move best for itself. Values are always from
    the side to move, so a ply that passes the turn negates (negamax form):

    .. math::

        U_0(s) = h(s), \qquad
        U_k(s) = \sum_t p_t \max_{m} \pm U_{k-1}(s_{t,m}),

    and the agent plays the move maximising :math:`\pm U_{d-1}` of where it leads. The
    leaf score :math:`h` is the pip-count difference, and a won game scores
    :func:`win_score` whatever the depth. ``depth=1`` is a one-ply greedy pip count:
    every move after a given throw walks the same distance, so it separates moves only
    by captures, wins, and rosettes (a kept turn is not negated).

    On a full-board graph, :meth:`policy_array` performs the same recursion on every
    state at once (``depth - 1`` backups over the graph's arrays). Values are sums of
    integers times the dice's dyadic probabilities, exact in float64 for these depths,
    so both forms pick the same move.
    """

    randomised = False

    def __init__(self, ruleset, depth: int = 2):
        super().__init__(ruleset)
        self.depth = check_int(depth, "expectimax depth", low=1, high=MAX_DEPTH)
        self.name = f"expectimax-{self.depth}"
        self._memo = {}

    def _value(self, state, depth):
        """U_depth(state) for the side to move."""
        ruleset = self.ruleset
        if state == WIN:
            return float(win_score(ruleset))
        if depth == 0:
            return float(pip_count(state, ruleset))
        key = (state, depth)
        if key in self._memo:
            return self._memo[key]
        total = 0.0
        for throw, weight in ruleset.throws:
            moves = legal_moves(state, throw, ruleset)
            if moves:
                best = max(self._move_value(state, m, depth - 1) for m in moves)
            else:
                best = -self._value(state.flipped(), depth - 1)
            total += weight * best
        value = total / ruleset.denominator
        if len(self._memo) > 1_000_000:
            self._memo.clear()
        self._memo[key] = value
        return value

    def _move_value(self, state, move, depth):
        target, passes = play(state, move, self.ruleset)
        value = self._value(target, depth)
        return -value if passes else value

    def choose(self, state, throw, moves):
        _check_moves(moves)
        values = [self._move_value(state, m, self.depth - 1) for m in moves]
        return values.index(max(values))

    def policy_array(self, graph):
        positions = _board_graph(graph, self.ruleset)
        ruleset = self.ruleset
        length = ruleset.length
        mover, mover_off, opponent, opponent_off = decode(positions.codes, length)
        squares = np.arange(1, length + 1, dtype=np.int64)

        def pips(mask):
            return ((mask[:, None] >> (squares - 1)) & 1) @ squares

        u = np.empty(graph.n_states)
        u[: positions.win] = (
            pips(mover) + (length + 1) * mover_off - pips(opponent) - (length + 1) * opponent_off
        )
        u[positions.win] = win_score(ruleset)
        live = np.flatnonzero(~graph.terminal)
        starts = graph.outcome_ptr[live]
        for _ in range(self.depth - 1):
            q = np.where(graph.option_passes, -u[graph.option_target], u[graph.option_target])
            best = np.maximum.reduceat(q, graph.option_ptr[:-1])
            nxt = u.copy()
            nxt[live] = np.add.reduceat(graph.outcome_weight * best, starts) / graph.denominator
            u = nxt
        q = np.where(graph.option_passes, -u[graph.option_target], u[graph.option_target])
        return _first_best(graph, q)

    def position_choice(self, moves):
        return _row_best(moves, self._move_scores(moves, self.depth - 1))

    def _array_values(self, mover, a, opp, b, depth):
        """U_depth of positions given as arrays (see :meth:`_value`), all at once."""
        ruleset = self.ruleset
        if depth == 0:
            return pip_counts(mover, a, opp, b, ruleset).astype(np.float64)
        passing = -self._array_values(opp, b, mover, a, depth - 1)
        total = np.zeros(len(mover))
        for throw, weight in ruleset.throws:
            best = passing
            if throw:
                moves = moves_after(mover, a, opp, b, throw, ruleset)
                counts = moves.counts
                best = passing.copy()
                some = counts > 0
                if some.any():
                    best[some] = np.maximum.reduceat(
                        self._move_scores(moves, depth - 1),
                        (np.cumsum(counts) - counts)[some],
                    )
            total += weight * best
        return total / ruleset.denominator

    def _move_scores(self, moves, depth):
        """``±U_depth`` after every legal move, flattened in row order (a win scores
        :func:`win_score`).
        """
        _, mover, a, opp, b, passes, wins = moves.successors()
        scores = np.full(len(mover), float(win_score(self.ruleset)))
        live = ~wins
        found = self._array_values(mover[live], a[live], opp[live], b[live], depth)
        scores[live] = np.where(passes[live], -found, found)
        return scores


# ---------------------------------------------------------------------------
# The optimal agent
# ---------------------------------------------------------------------------
class OptimalAgent(Agent):
    """The move with the highest win probability by a solved table (the first among
    equals, as :meth:`~.code_table.SolvedTable.best_move` picks).
    """

    name = "optimal"

    def __init__(self, table):
        super().__init__(table.ruleset)
        self.table = table

    def choose(self, state, throw, moves):
        _check_moves(moves)
        values = []
        for move in moves:
            target, passes = play(state, move, self.ruleset)
            values.append(passing_value(self.table.value(target), passes))
        return values.index(max(values))

    def policy_array(self, graph):
        return _first_best(graph, option_values(graph, table_values(graph, self.table)))

    def position_choice(self, moves):
        return _row_best(moves, moves.values(self.table))


# ---------------------------------------------------------------------------
# The paper's gain (computed by .gain)
# ---------------------------------------------------------------------------
class GainAgent(Agent):
    """The move whose best continuation has the largest gain G = W + A + C.

    For the known throw, each legal move is the first move of a sequence; when it keeps
    the turn, the sequence goes on with any of the side's pieces for each further throw
    (fixed in advance, as the paper's sequences AA, AB, BA, BB), up to ``max_moves``
    moves. A move's gain is that of its best sequence (the paper: "if AA and AB have high
    gain values, then A is implicitly more likely to be chosen"). See
    :func:`.gain.gain_terms` for W, A and C and what had to be interpreted.
    """

    name = "gain"

    def __init__(self, ruleset, max_moves: int = 3):
        super().__init__(ruleset)
        self.calculator = GainCalculator(self.ruleset, check_max_moves(max_moves))
        self._memo = {}

    def gains(self, state: UrState, throw: int, moves: list) -> list[int]:
        """Each move's gain, scaled by D**max_moves (D: the dice's denominator)."""
        key = (state, throw)
        if key in self._memo:
            return self._memo[key]
        out = self.calculator.move_gains(state, throw, moves)
        if len(self._memo) > 500_000:
            self._memo.clear()
        self._memo[key] = out
        return out

    def choose(self, state, throw, moves):
        _check_moves(moves)
        gains = self.gains(state, throw, moves)
        return gains.index(max(gains))


# ---------------------------------------------------------------------------
# By name
# ---------------------------------------------------------------------------
#: Ur agent types by name; :func:`make_agent` builds one for a rule set.
AGENT_TYPES = {
    "random": RandomAgent,
    "first": FirstAgent,
    "last": LastAgent,
    "greedy": GreedyAgent,
    "gain": GainAgent,
    "expectimax": Expectimax,
    "optimal": OptimalAgent,
}


def make_agent(
    name: str, *, ruleset=None, table=None, seed: int | None = None, depth: int | None = None
) -> Agent:
    """The agent called ``name`` (a key of :data:`AGENT_TYPES`, or ``expectimax-D``).

    Parameters
    ----------
    ruleset : RuleSet or str, optional
        The rules played (taken from ``table`` when not given).
    table : SolvedTable, optional
        Needed by ``optimal``.
    seed : int, optional
        Seeds ``random``.
    depth : int, optional
        Depth of ``expectimax`` (2 unless given or named ``expectimax-D``).

    >>> make_agent("expectimax-3", ruleset="finkel").name
    'expectimax-3'
    >>> make_agent("optimal", ruleset="finkel")
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: agent 'optimal' needs a solved table (table=...)
    """
    if isinstance(name, str):
        found = re.fullmatch(r"expectimax-(\d+)", name)
        if found:
            name, depth = "expectimax", int(found.group(1))
    if name not in AGENT_TYPES:
        raise UnknownNameError("Ur agent", name, list(AGENT_TYPES) + ["(expectimax-D for depth D)"])
    if name == "optimal":
        if table is None:
            raise InvalidArgumentError("agent 'optimal' needs a solved table (table=...)")
        if ruleset is not None:
            wanted = rule_set(ruleset)
            if (wanted.name, wanted.pieces) != (table.ruleset.name, table.ruleset.pieces):
                raise InvalidArgumentError(
                    f"the table is for {table.ruleset.name} with {table.ruleset.pieces} piece(s), "
                    f"not {wanted.name} with {wanted.pieces}"
                )
        return OptimalAgent(table)
    if ruleset is None:
        if table is None:
            raise InvalidArgumentError(f"agent {name!r} needs the rules (ruleset=...)")
        ruleset = table.ruleset
    if name == "random":
        return RandomAgent(ruleset, seed=seed)
    if name == "expectimax":
        return Expectimax(ruleset, depth=2 if depth is None else depth)
    return AGENT_TYPES[name](ruleset)


def as_agent(agent, ruleset, *, table=None, seed: int | None = None) -> Agent:
    """``agent`` itself when it is an :class:`Agent`, else :func:`make_agent` of its name.

    >>> as_agent("last", "finkel").name
    'last'
    """
    if isinstance(agent, Agent):
        return agent
    return make_agent(agent, ruleset=ruleset, table=table, seed=seed)
