r"""Forward propagation: where the games go when the player(s) follow a policy.

Start with probability 1 at the start state and push it along the policy's Markov chain
(:class:`~gamegraph.policy.MarkovChain`) in topological order, level by level in the
reverse of the solving order. Each state's mass is the expected number of visits; in a
DAG (Jackpot) it is the probability of reaching the state. Inside a cyclic component
the visits solve ``x = inflow + P^T x``.

The chain is tracked per side (who is to move relative to the player who started), so
for two-player games the win probability of the starting player comes out as well.

The expected value of the game to the player who moves first, in any objective
(:attr:`Propagation.expected_value`), follows from the visits: with :math:`x_0, x_1` the
visits with the first and the other player to move, :math:`c` the pass constant (1 for
``"win"``, else 0), :math:`\bar r(s)` the reward the mover collects per visit of
:math:`s` and :math:`u` the terminal values,

.. math::

    V = \sum_{t\ \text{terminal}} \bigl(x_0(t)\,u(t) + x_1(t)\,(c - u(t))\bigr)
        + c \sum_s x_1(s)\,\sigma(s) + \sum_s \bigl(x_0(s) - x_1(s)\bigr)\,\bar r(s),

:math:`\sigma(s)` the chance of a throw that offers no option. It equals the policy's
start value from :func:`gamegraph.evaluate`, exactly with Fractions.

For score and margin games :func:`score_distribution` goes further: the distribution of
the final score (the first player's final margin), by pushing mass over pairs
(state, score so far) throw by throw; see its notes for the cost and for cyclic games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._checks import check_int
from ._threads import limit_blas
from .errors import InvalidArgumentError
from .graph import StateGraph
from .linear import solve_sparse
from .policy import MarkovChain, Policy
from .tables import Table
from .values import value_name


@dataclass(eq=False)
class Propagation:
    """Reach probabilities and end-of-game distribution under a policy.

    Attributes
    ----------
    reach : ndarray, shape (2, n)
        Expected visits of each state with the starting player (row 0) or the other
        player (row 1) to move; equal to the reach probability where states are not
        revisited.
    stuck : ndarray, shape (2, n)
        Probability that the game ends at a state because the mover has no option.
    """

    chain: MarkovChain
    reach: np.ndarray
    stuck: np.ndarray
    exact: bool

    @property
    def graph(self) -> StateGraph:
        return self.chain.graph

    @property
    def reach_probability(self) -> np.ndarray:
        """Visits of each state, whoever is to move."""
        return self.reach[0] + self.reach[1]

    @property
    def objective(self) -> str:
        """The game's objective: ``"win"``, ``"score"`` or ``"margin"``."""
        return self.graph.objective

    @property
    def win_probability(self):
        """Probability that the player who moves first wins (``"win"`` games only: a score
        or margin game raises InvalidArgumentError, pointing to :attr:`expected_value`).
        """
        if self.graph.objective != "win":
            name = getattr(self.graph.rules, "name", "this game")
            raise InvalidArgumentError(
                f"{name} is a {self.graph.objective} game: its values are "
                f"{value_name(self.graph)}s, not win probabilities; use expected_value"
            )
        return self.expected_value

    @property
    def expected_value(self):
        """The game's expected value to the player who moves first under the policy: the
        win probability (``"win"``), the expected total of rewards and terminal value
        (``"score"``), or the first player's expected margin (``"margin"``). It equals
        ``evaluate(graph, policy).start_value``, exactly when both are exact.

        Examples
        --------
        >>> from gamegraph import Policy, build, evaluate
        >>> from gamegraph.rules import Option, Outcome, Rules
        >>> class Coin(Rules):           # one coin: heads +3, tails -1, then stop or go on
        ...     objective = "score"
        ...     def start(self): return "toss"
        ...     def terminal_value(self, s): return 0 if s == "stop" else None
        ...     def outcomes(self, s):
        ...         return [Outcome(Fraction(1, 2), (Option("stop", 0, reward=3),)),
        ...                 Outcome(Fraction(1, 2), (Option("stop", 0, reward=-1),
        ...                                          Option("toss", 1, reward=-1)))]
        >>> graph = build(Coin())
        >>> again = Policy.preferring(graph, 1)     # toss again after tails
        >>> propagate(graph, again, exact=True).expected_value
        Fraction(2, 1)
        >>> evaluate(graph, again, exact=True).start_value
        Fraction(2, 1)
        """
        g = self.graph
        c = g.pass_constant
        t = np.flatnonzero(g.terminal)
        values = self._terminal_values(t)
        total = sum(self.reach[0, t] * values) + sum(self.reach[1, t] * (c - values))
        if c:
            total = total + sum(self.stuck[1])
        reward = self.state_rewards()
        if reward is not None:
            total = total + sum((self.reach[0] - self.reach[1]) * reward)
        return Fraction(total) if self.exact else float(total)

    def state_rewards(self) -> np.ndarray | None:
        """The reward the mover collects per visit of each state under the policy (the
        rewards of the options taken, weighted by their throws' chances); None when the
        game has no rewards. Fractions when exact.
        """
        chain = self.chain
        reward = chain.edge_rewards(self.exact)
        if reward is None:
            return None
        if self.exact:
            d = chain.denominator
            out = np.empty(self.graph.n_states, dtype=object)
            out[:] = Fraction(0)
            paying = np.flatnonzero(np.isin(chain.edge_option, list(self.graph.reward_exact)))
            for e in paying.tolist():
                s = int(chain.edge_source[e])
                out[s] += Fraction(int(chain.edge_weight[e]), d) * reward[e]
            return out
        return np.bincount(
            chain.edge_source,
            weights=chain.edge_probability * reward,
            minlength=self.graph.n_states,
        )

    def score_distribution(self, *, tail=None, max_throws: int = 100_000) -> ScoreDistribution:
        """The distribution of the final score under this propagation's policy, exact when
        it is: :func:`score_distribution` with the same graph and policy.
        """
        return score_distribution(
            self.graph, self.chain.policy, exact=self.exact, tail=tail, max_throws=max_throws
        )

    @property
    def expected_throws(self):
        """Expected number of throws in a game."""
        return sum(self.reach_probability[~self.graph.terminal])

    def end_probability(self) -> np.ndarray:
        """Probability that the game ends at each state (a terminal state, or stuck)."""
        ended = self.stuck[0] + self.stuck[1]
        t = self.graph.terminal
        ended[t] = self.reach_probability[t]
        return ended

    def stuck_by_layer(self) -> list:
        """Probability of being stuck in each layer of a layered game (the game lost, in a
        win game; ended with nothing more to collect, in a score game).
        """
        layers = self.graph.layers
        if layers is None:
            raise InvalidArgumentError(
                f"{self.graph.rules.name} states have no layers; stuck_by_layer needs a "
                "layered game such as Jackpot"
            )
        totals = [Fraction(0) if self.exact else 0.0 for _ in range(layers.max() + 1)]
        stuck = self.stuck[0] + self.stuck[1]
        for i in np.flatnonzero(stuck != 0):
            totals[layers[i]] += stuck[i]
        return totals

    def _terminal_values(self, t):
        if self.exact:
            return np.array([self.graph.terminal_exact[i] for i in t], dtype=object)
        return self.graph.terminal_value[t]


def propagate(
    graph: StateGraph, policy: Policy, *, exact: bool = False, blas_threads: int | None = None
) -> Propagation:
    """Push the start state's probability through ``graph`` under ``policy``.

    Parameters
    ----------
    graph : StateGraph
    policy : Policy
        One choice per outcome of ``graph``.
    exact : bool
        Compute Fractions instead of floats.
    blas_threads : int or None
        Threads BLAS may use during the call, a whole number from 1 to 1,024; None takes
        the environment variable ``GAMEGRAPH_BLAS_THREADS``, or 1 when it is unset. The
        limits in force before are restored when the call returns.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> result = propagate(graph, Policy.from_agent(graph, AGENTS["hilo"]), exact=True)
    >>> result.win_probability
    Fraction(660001525, 8264970432)
    >>> sum(result.end_probability())
    Fraction(1, 1)
    """
    # Only float systems of cycles go to scipy's sparse solvers (and its BLAS).
    with limit_blas(blas_threads, load=not exact and bool(graph.condensation.cyclic.any())):
        chain = policy.chain(graph)
        n = graph.n_states
        zero = Fraction(0) if exact else 0.0
        reach = np.empty(2 * n, dtype=object if exact else np.float64)
        reach[:] = zero
        reach[graph.start] = Fraction(1) if exact else 1.0
        if exact:
            prob = np.array(
                [Fraction(int(w), graph.denominator) for w in chain.edge_weight], dtype=object
            )
            stuck_p = np.array(
                [Fraction(int(w), graph.denominator) for w in chain.stuck_weight], dtype=object
            )
        else:
            prob = chain.edge_probability
            stuck_p = chain.stuck_weight / graph.denominator
        flip = chain.edge_passes.astype(np.int64) * n

        condensation = graph.condensation
        position = np.full(n, -1, dtype=np.int64)
        for level in reversed(condensation.levels):
            cyclic = condensation.cyclic[condensation.component[level]]
            if cyclic.any():
                _settle_cycles(chain, level[cyclic], reach, prob, flip, position, exact)
            edges = _edges_of(chain, level)
            src, dst = chain.edge_source[edges], chain.edge_target[edges]
            inside = np.zeros(len(edges), dtype=bool)
            if cyclic.any():
                inside = np.isin(dst, level[cyclic]) & np.isin(src, level[cyclic])
            for side in (0, 1):
                take = ~inside
                mass = reach[side * n + src[take]] * prob[edges[take]]
                dest = (side * n + dst[take] + flip[edges[take]]) % (2 * n)
                np.add.at(reach, dest, mass)
        reach = reach.reshape(2, n)
        stuck = reach * stuck_p
        return Propagation(chain=chain, reach=reach, stuck=stuck, exact=exact)


def _edges_of(chain, states):
    from .graph import expand_ranges

    return expand_ranges(chain.edge_ptr[states], chain.edge_ptr[states + 1])


def _settle_cycles(chain, states, reach, prob, flip, position, exact):
    """Solve x = inflow + P^T x on the cyclic states of a level, both sides at once."""
    n = chain.graph.n_states
    m = len(states)
    position[states] = np.arange(m)
    edges = _edges_of(chain, states)
    src, dst = chain.edge_source[edges], chain.edge_target[edges]
    inside = position[dst] >= 0
    edges, src, dst = edges[inside], src[inside], dst[inside]
    rows, cols, coefficients = [np.arange(2 * m)], [np.arange(2 * m)], []
    one = Fraction(1) if exact else 1.0
    coefficients.append(np.full(2 * m, one, dtype=object if exact else np.float64))
    for side in (0, 1):
        to_side = (side + (flip[edges] > 0)) % 2
        rows.append(to_side * m + position[dst])
        cols.append(side * m + position[src])
        coefficients.append(-prob[edges])
    inflow = np.concatenate([reach[states], reach[n + states]])
    x = solve_sparse(
        np.concatenate(rows),
        np.concatenate(cols),
        np.concatenate(coefficients),
        inflow,
        2 * m,
        exact=exact,
    )
    reach[states], reach[n + states] = x[:m], x[m:]
    position[states] = -1


#: The probability of a game still going at which :func:`score_distribution` stops
#: following a cyclic game, unless told otherwise.
DEFAULT_TAIL = 1e-12


@dataclass(frozen=True, eq=False)
class ScoreDistribution:
    """The distribution of the final score of a game under a policy
    (:func:`score_distribution`).

    Attributes
    ----------
    scores : tuple
        The final scores that occur, ascending: ints where every reward and terminal value
        is whole, else Fractions. In a margin game, the final margin of the player who
        moves first.
    probabilities : tuple
        Their probabilities: Fractions when exact, else floats.
    tail : Fraction or float
        The probability that the game was still going when the propagation stopped: 0 when
        every game ended (always so in an acyclic game). Each probability shown is at most
        ``tail`` below the true one.
    throws : int
        Throws followed: the length of the longest game, or where the propagation stopped.
    exact : bool
    objective : str
        ``"score"`` or ``"margin"``.
    game, policy : str
        Names, for titles.
    """

    scores: tuple
    probabilities: tuple
    tail: object
    throws: int
    exact: bool
    objective: str = "score"
    game: str = "game"
    policy: str = "policy"

    def __len__(self) -> int:
        return len(self.scores)

    def __iter__(self):
        return iter(zip(self.scores, self.probabilities))

    @property
    def total(self):
        """The probability of the scores shown: 1 minus :attr:`tail`."""
        return sum(self.probabilities, Fraction(0) if self.exact else 0.0)

    def probability(self, score):
        """The probability of ending with ``score`` (0 where it never occurs)."""
        for s, p in self:
            if s == score:
                return p
        return Fraction(0) if self.exact else 0.0

    def mean(self):
        """The expected final score: a Fraction when exact. With a :attr:`tail`, the mean
        over the games that ended within the throws followed.
        """
        zero = Fraction(0) if self.exact else 0.0
        return sum((s * p for s, p in self), zero) / self.total

    def variance(self):
        """The variance of the final score (over the games that ended, as :meth:`mean`)."""
        mean = self.mean()
        zero = Fraction(0) if self.exact else 0.0
        return sum(((s - mean) ** 2 * p for s, p in self), zero) / self.total

    @property
    def _what(self) -> str:
        return "margin" if self.objective == "margin" else "score"

    def table(self) -> Table:
        """Score and probability, one row per final score, ascending."""
        what = self._what
        notes = []
        if self.tail:
            notes.append(
                f"games still going after {self.throws:,} throws: probability "
                f"{float(self.tail):.3g}, left out (each probability is at most that low)"
            )
        return Table(
            (f"final {what}", "probability"),
            list(self),
            title=f"{self.game}: final {what} under {self.policy}",
            notes=tuple(notes),
        )

    def to_pandas(self):
        """:meth:`table` as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.table().to_pandas()

    def __str__(self) -> str:
        return self.table().to_text()

    def _repr_html_(self) -> str:
        return self.table().to_html()

    def __repr__(self) -> str:
        tail = f", tail {float(self.tail):.2g}" if self.tail else ""
        return (
            f"<ScoreDistribution of {self.game!r} under {self.policy!r}: {len(self)} "
            f"{self._what}s, mean {float(self.mean()):.6g}{tail}>"
        )


def score_distribution(
    graph: StateGraph,
    policy: Policy,
    *,
    exact: bool = False,
    tail=None,
    max_throws: int = 100_000,
) -> ScoreDistribution:
    """The distribution of the final score of a score game (a margin game: the first
    player's final margin) when the player(s) follow ``policy``.

    The final score is the sum of the rewards of the moves made plus the terminal value
    (0 more where a throw offers no option). Probability mass is pushed throw by throw over
    pairs (state, score so far), pairs that meet merged at each throw, until every game
    has ended. The cost is the throws times the live pairs, which is at most the states
    times the distinct scores so far.

    In a cyclic game the score may have no bound (Pig played for the fewest turns: a
    game may last any number of turns), so the propagation stops once the probability
    that the game is still going is at most ``tail``, or after ``max_throws`` throws;
    that probability is reported as :attr:`ScoreDistribution.tail`, never spread over
    the scores. Every probability shown is then a lower bound, at most ``tail`` below
    the true one. In floats with a ``tail``, pairs whose chance is below a billionth of
    it (divided by the pairs alive) are dropped into the tail too, which keeps far-off
    scores of negligible chance from costing time (Pig alone to 100, the optimal policy:
    114 scores in 434 throws, a few seconds).

    Parameters
    ----------
    graph : StateGraph
        A game whose objective is ``"score"`` or ``"margin"`` (InvalidArgumentError for a
        ``"win"`` game).
    policy : Policy
        One choice per outcome of ``graph``.
    exact : bool
        Fractions instead of floats (the scores are exact either way).
    tail : number or None
        Stop once the games still going have at most this probability; None: 0 for an
        acyclic game (the whole distribution), :data:`DEFAULT_TAIL` for a cyclic one.
    max_throws : int
        Stop after this many throws in any case.

    Examples
    --------
    Throw a die and keep it, or throw once more and keep that: the policy throws again
    on 1 to 3, so 4, 5 and 6 come at 1/6 + 1/12 = 1/4 each and 1 to 3 at 1/12 each:

    >>> from gamegraph import build, solve
    >>> from gamegraph.rules import Option, Outcome, Rules
    >>> class KeepOrThrow(Rules):
    ...     objective = "score"
    ...     def start(self): return 2                  # throws left
    ...     def terminal_value(self, s): return 0 if s == 0 else None
    ...     def outcomes(self, s):
    ...         options = lambda f: (Option(0, 0, reward=f),) + ((Option(1, 1),) if s == 2 else ())
    ...         return [Outcome(Fraction(1, 6), options(f)) for f in range(1, 7)]
    >>> solution = solve(build(KeepOrThrow()), exact=True)
    >>> scores = score_distribution(solution.graph, solution.policy, exact=True)
    >>> print(scores)
    game: final score under optimal
    final score  probability
              1         1/12
              2         1/12
              3         1/12
              4          1/4
              5          1/4
              6          1/4
    >>> scores.mean(), solution.start_value
    (Fraction(17, 4), Fraction(17, 4))
    """
    objective = graph.objective
    _check_score_game(graph)
    max_throws = check_int(max_throws, "max_throws", low=1)
    tail = _check_tail(graph, tail)
    chain = policy.chain(graph)
    unit, edge_key, terminal_key = _score_keys(graph, chain)

    ended, left, throws, unfinished = _push_scores(
        chain, edge_key, terminal_key, exact, tail, max_throws
    )
    scores = sorted(ended)
    return ScoreDistribution(
        scores=tuple(k // unit if unit == 1 else Fraction(k, unit) for k in scores),
        probabilities=tuple(ended[k] for k in scores),
        tail=left if unfinished else (Fraction(0) if exact else 0.0),
        throws=throws,
        exact=exact,
        objective=objective,
        game=str(getattr(graph.rules, "name", "game")),
        policy=policy.name or "policy",
    )


def _push_scores(chain, edge_key, terminal_key, exact: bool, tail, max_throws: int):
    """Push the probability mass over pairs (side and state, score so far) throw by throw
    until every game has ended, or the tail or ``max_throws`` is reached.

    Returns ``(ended, left, throws, unfinished)``: final score key -> probability, the
    probability of the games not ended, the throws made, and whether any game was left
    going (or dropped as too faint).
    """
    graph = chain.graph
    n, d = graph.n_states, graph.denominator
    one = 1 if exact else 1.0  # exact masses are numerators over d ** throws
    node = np.array([graph.start], dtype=np.int64)  # side * n + state
    key = np.zeros(1, dtype=np.int64)
    mass = np.array([one], dtype=object if exact else np.float64)
    ended: dict = {}
    throws = 0
    dropped = 0.0  # float mass left out before the end (counted in the tail)
    while True:
        state, side = node % n, node // n
        over = graph.terminal[state]
        if over.any():
            final = key[over] + _SIGN[side[over]] * terminal_key[state[over]]
            _record(ended, final, mass[over], d**throws, exact)
            node, key, mass = node[~over], key[~over], mass[~over]
            state, side = state[~over], side[~over]
        if exact:
            left = Fraction(sum(mass.tolist(), 0), d**throws)
        else:
            left = float(mass.sum()) + dropped
        if not len(node) or throws >= max_throws or (tail and left <= tail):
            break
        stuck = chain.stuck_weight[state]
        some = stuck > 0
        _record(ended, key[some], mass[some] * stuck[some], d ** (throws + 1), exact)
        node, key, mass = _throw(chain, state, side, key, mass, edge_key, exact)
        throws += 1
        if not exact and len(mass):
            node, key, mass, faint = _drop_faint(node, key, mass, tail)
            dropped += faint
    return ended, left, throws, bool(len(node) or dropped)


#: The sign of a score change seen from each side (0: the first player, 1: the second).
_SIGN = np.array([1, -1], dtype=np.int64)


def _check_score_game(graph: StateGraph) -> None:
    """Refuse a ``win`` game, whose games end won or lost rather than with a score."""
    if graph.objective == "win":
        name = getattr(graph.rules, "name", "this game")
        raise InvalidArgumentError(
            f"{name} is a win game: its games end won or lost; score_distribution needs a "
            "score or margin game (propagate(graph, policy).win_probability gives the win "
            "probability)"
        )


def _check_tail(graph: StateGraph, tail):
    """The tail asked for, or by default 0 for an acyclic game and :data:`DEFAULT_TAIL`
    for a cyclic one.
    """
    if tail is None:
        tail = DEFAULT_TAIL if bool(graph.condensation.cyclic.any()) else 0
    if isinstance(tail, bool) or not isinstance(tail, (int, float, Fraction)) or not 0 <= tail < 1:
        raise InvalidArgumentError(f"tail must be a probability in [0, 1), got {tail!r}")
    return tail


def _score_keys(graph: StateGraph, chain):
    """Scores as integers in units of ``1/unit``: ``(unit, per chain edge its reward,
    per state its terminal value)``, refused when they reach 2**40 units.
    """
    exact_numbers = [*graph.reward_exact.values(), *graph.terminal_exact.values()]
    unit = math.lcm(*(x.denominator for x in exact_numbers)) if exact_numbers else 1
    edge_key = np.zeros(chain.n_edges, dtype=object)
    reward = chain.edge_rewards(exact=True)
    if reward is not None:
        edge_key[:] = [int(r * unit) for r in reward]
    terminal_key = np.zeros(graph.n_states, dtype=object)
    for i, v in graph.terminal_exact.items():
        terminal_key[i] = int(v * unit)
    step_bound = max([abs(int(x)) for x in edge_key] or [0])
    if max(step_bound, *(abs(int(x)) for x in terminal_key)) >= 2**40:
        raise InvalidArgumentError(
            f"{getattr(graph.rules, 'name', 'this game')}: its rewards and terminal values "
            f"need a unit of 1/{unit} and reach {max(step_bound, 1) / unit:g}; that is too "
            "fine to count scores exactly"
        )
    return unit, edge_key.astype(np.int64), terminal_key.astype(np.int64)


def _record(ended: dict, keys, masses, scale, exact: bool) -> None:
    """Add the games ending with the final scores ``keys`` (masses over ``scale`` when
    exact) to ``ended``, final score -> probability.
    """
    if not len(keys):
        return
    unique, inverse = np.unique(keys, return_inverse=True)
    sums = _group_sum(masses, inverse, len(unique))
    for k, m in zip(unique.tolist(), sums.tolist()):
        m = Fraction(m, scale) if exact else m
        if m:
            ended[k] = ended.get(k, 0) + m


def _throw(chain, state, side, key, mass, edge_key, exact: bool):
    """One throw: every live pair (side and state, score) follows each of its state's
    chain edges, and pairs that meet are merged. Returns the new (node, key, mass).
    """
    graph = chain.graph
    n = graph.n_states
    edges = _edges_of(chain, state)
    owner = np.repeat(np.arange(len(state)), np.diff(chain.edge_ptr)[state])
    target = chain.edge_target[edges]
    new_side = side[owner] ^ chain.edge_passes[edges].astype(np.int64)
    new_key = key[owner] + _SIGN[side[owner]] * edge_key[edges]
    new_mass = mass[owner] * chain.edge_weight[edges]
    if not exact:
        new_mass = new_mass / graph.denominator
    return _merge(new_side * n + target, new_key, new_mass, n, graph)


def _drop_faint(node, key, mass, tail):
    """Float pairs far below the tail, left out: ``(node, key, mass, mass dropped)``.

    Pairs far below the tail (Pig to 100: chances under 1e-300) cost as much as the rest;
    they go to the tail instead, at most a billionth of it per throw (and with no tail,
    only the chances that underflowed to 0).
    """
    faint = mass < tail * 1e-9 / len(mass) if tail else mass <= 0
    if not faint.any():
        return node, key, mass, 0.0
    return node[~faint], key[~faint], mass[~faint], float(mass[faint].sum())


def _group_sum(masses, inverse, size):
    """Sums of ``masses`` by group number ``inverse`` (floats or Python integers)."""
    if masses.dtype != object:
        return np.bincount(inverse, weights=masses, minlength=size)
    order = np.argsort(inverse, kind="stable")
    starts = np.flatnonzero(np.diff(inverse[order], prepend=-1))
    return np.add.reduceat(masses[order], starts)


def _merge(node, key, mass, n, graph):
    """The pairs (node, key) made equal merged, their masses added."""
    if not len(node):
        return node, key, mass
    low, high = int(key.min()), int(key.max())
    if (high - low + 1) * 2 * n >= 2**62:
        raise InvalidArgumentError(
            f"{getattr(graph.rules, 'name', 'this game')}: too many distinct scores to follow "
            "exactly; lower max_throws or raise tail"
        )
    code = (key - low) * (2 * n) + node
    unique, inverse = np.unique(code, return_inverse=True)
    return unique % (2 * n), unique // (2 * n) + low, _group_sum(mass, inverse, len(unique))
