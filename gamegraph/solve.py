r"""Retrograde solving: the value of every state and an optimal policy.

The value :math:`v(s)` of a non-terminal state is the probability that the player to
move wins. With outcomes :math:`k` of probability :math:`p_k` and options :math:`j`
leading to :math:`t_j`,

.. math::

    v(s) = \sum_k p_k \max_{j \in k} q_j, \qquad
    q_j = \begin{cases} 1 - v(t_j) & \text{if option } j \text{ passes the turn} \\
                        v(t_j)     & \text{otherwise,} \end{cases}

an outcome without options contributing 0, and a terminal state holding the value its
rules give. This Bellman operator :math:`T` is applied component by component, in the
order of :mod:`gamegraph.condensation`:

* a state alone in its component (no cycle through it) needs one application of
  :math:`T`, all of its successors being solved already; a whole level of such states
  is done in one vectorised step;
* a cyclic component is solved by policy iteration: take the greedy choice at every
  outcome, solve the linear system of that policy exactly (sparse LU for floats,
  rational elimination for fractions), and repeat until no choice can gain more than
  ``tol`` (the *residual* :math:`\|Tv - v\|_\infty`). ``method="value"`` iterates
  :math:`T` instead. In exact mode the float solution's choices seed a rational
  policy iteration, which stops only when no choice improves at all.

With a fixed policy (:func:`evaluate`) the max is replaced by the policy's choice, so
the same code gives the value of any agent.

Engines. Float solves run, by default, in compiled kernels (:mod:`gamegraph._kernels`,
numba, the ``fast`` extra) when numba is installed: the same operator applied state by
state in the components' order, a cyclic component by Gauss-Seidel value iteration with
extrapolation until its estimated error is below ``tol / 100``, or, when it is large and its
states can be numbered within a narrow band, by policy iteration with banded linear solves
(a component that does not settle in ``max_iter`` sweeps is handed to the numpy code
above). A small graph (:mod:`gamegraph._small`: at most 5,000 states, no cyclic component
of more than 250) is solved by the numpy code instead, each cyclic component's linear
system as a dense matrix, since loading numba and scipy would take longer than the solve
(0.7 s against 10 ms for Pig to 10): its values agree with the kernels' to rounding.
``engine="numpy"`` forces the level-by-level numpy code with sparse solves, ``"numba"``
the kernels; exact solves always use the numpy code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import _kernels, _small
from ._checks import check_int, check_positive
from ._progress import progress_bar
from ._threads import limit_blas
from .errors import ConvergenceError, NonTerminatingGameError, UnknownNameError
from .exact_cost import LIMIT_SECONDS, check_exact_cost
from .graph import StateGraph, expand_ranges
from .linear import solve_sparse
from .policy import Policy
from .tables import Table
from .termination import can_end, ending_choice, name_states, sure_to_end
from .values import first_best, option_worths, passing_value, value_name

METHODS = ("policy", "value")
ENGINES = _kernels.ENGINES
_EVALUATE_SWEEPS = 1000  # Gauss-Seidel sweeps per component before a direct solve
_CHUNK = 1 << 18  # states per block in the final pass


@dataclass(eq=False)
class Solution:
    """Values of every state (and the policy that achieves them).

    Attributes
    ----------
    values : ndarray
        The value of each state for the player to move there, per the game's objective
        (:mod:`gamegraph.values`): the probability of winning, the expected score or the
        expected margin; float64, or an object array of Fractions when solved exactly.
    policy : Policy
        The optimal choices (from :func:`solve`) or the evaluated policy (:func:`evaluate`).
    exact : bool
    iterations : int
        Most rounds any cyclic component needed (0 for a DAG).
    residual : float
        :math:`\\max_s |(Tv)(s) - v(s)|` over all states at the end.
    """

    graph: StateGraph
    values: np.ndarray
    policy: Policy
    exact: bool
    iterations: int
    residual: float

    @property
    def start_value(self):
        """Value of the start state."""
        return self.values[self.graph.start]

    def value(self, state):
        """Value of a state given by its rules-level value: for the player to move there,
        the probability of winning (or the expected score or margin, per the objective); a
        Fraction when exact.

        Examples
        --------
        >>> from gamegraph import build
        >>> from gamegraph.games.pig import Pig
        >>> solution = solve(build(Pig(goal=10)), exact=True)
        >>> solution.value(("roll", 0, 0, 0)), solution.value(("choose", 0, 0, 9))
        (Fraction(7776, 10961), Fraction(9665, 10961))
        """
        return self.values[self.graph.state_number(state)]

    def best_move(self, state, throw: int):
        """The best option at ``state`` after throw number ``throw``, its value and margin.

        ``throw`` is the index of the outcome among the state's outcomes, in the order the
        rules list them. Returns a :class:`~gamegraph.policy.BestMove`
        ``(option, value, margin)``: the option the policy takes where it is among the best
        (otherwise the first best), its worth to the player at ``state`` (its reward plus
        the target's value, or ``1 - v`` of a win game's target when it passes the turn:
        :func:`gamegraph.values.option_worths`), and that worth minus the next best option's (0 on
        a tie, None when there is only one option). A throw with no option gives
        ``(None, 0, None)``.

        Examples
        --------
        >>> from gamegraph import build
        >>> from gamegraph.games.pig import Pig
        >>> solution = solve(build(Pig(goal=10)), exact=True)
        >>> move = solution.best_move(("choose", 0, 0, 6), 0)   # a decision: one outcome
        >>> move.option, move.value, move.margin
        (Option(target=('roll', 0, 0, 6), move=0, passes=False), Fraction(9233, 10961),
         Fraction(342972567, 697273054))
        >>> solution.best_move(("roll", 0, 0, 0), 0).margin is None   # a 1: no choice
        True
        """
        from .policy import BestMove, outcome_at
        from .rules import Option

        graph = self.graph
        k = outcome_at(graph, state, throw)
        first, stop = int(graph.option_ptr[k]), int(graph.option_ptr[k + 1])
        one = Fraction(1) if self.exact else 1.0
        if first == stop:
            return BestMove(None, one - one, None)
        q = option_worths(graph, self.values, np.arange(first, stop))
        q = list(q) if self.exact else [float(x) for x in q]
        best = max(q)
        mine = int(self.policy.choice[k])
        pick = mine if 0 <= mine < len(q) and q[mine] == best else q.index(best)
        others = q[:pick] + q[pick + 1 :]
        j = first + pick
        option = Option(
            graph.states[int(graph.option_target[j])],
            int(graph.option_move[j]),
            bool(graph.option_passes[j]),
            graph.reward_exact.get(j, 0),
        )
        return BestMove(option, best, best - max(others) if others else None)

    def best_moves(self, state=None) -> Table:
        """The policy's moves at ``state`` (default: the start) as a table.

        Throws that lead to the same move with the same value are merged: one row per move,
        naming its throws, with the probability that the throw calls for it and the move's
        value for the player at ``state``. A throw is named by the rules where they name
        them (a method ``throws()`` listing every state's outcomes in order: Ur's number
        thrown), else by its number in the rules' order, counted from 0 as
        :meth:`best_move` takes it. Throws that leave no move show as ``(none)``.

        Examples
        --------
        >>> from gamegraph import build
        >>> from gamegraph.games.jackpot import Jackpot
        >>> solution = solve(build(Jackpot()), exact=True)
        >>> print(solution.best_moves().to_text())
        Jackpot: moves at START
        throws                        move  probability                     value
        17, 22, 27, 32                9            4/36    9065646475/78364164096
        11, 16, 21, 26, 31            8            5/36      183142499/1836660096
        ...
        >>> from gamegraph.games.pig import Pig
        >>> print(solve(build(Pig(goal=10)), exact=True).best_moves().to_text())
        Pig to 10: moves at roll 0-0 +0
        throws  move  probability       value
        5       die           1/6  9233/10961
        4       die           1/6  8981/10961
        3       die           1/6  8693/10961
        2       die           1/6  8363/10961
        1       die           1/6  8201/10961
        0       bust          1/6  3185/10961
        throws: numbered from 0 in the rules' order, as best_move(state, throw) takes them.
        """
        graph = self.graph
        i = graph.start if state is None else graph.state_number(state)
        chosen = self.policy.chosen_option(graph)
        zero = Fraction(0) if self.exact else 0.0
        q = option_worths(graph, self.values)
        outcomes = graph.outcomes_of(i)
        names = throw_names(graph, i)
        merged: dict = {}
        for throw, k in enumerate(outcomes):
            j = chosen[k]
            move = graph.rules.move_label(int(graph.option_move[j])) if j >= 0 else "(none)"
            key = (move, q[j] if j >= 0 else zero)
            weight, throws = merged.get(key, (0, []))
            merged[key] = (weight + int(graph.outcome_weight[k]), [*throws, throw])
        rows = [
            (
                ", ".join(str(names[t]) if names else str(t) for t in throws),
                move,
                Fraction(weight, graph.denominator),
                value,
            )
            for (move, value), (weight, throws) in merged.items()
        ]
        rows.sort(key=lambda row: -row[3])
        name = getattr(graph.rules, "name", "game")
        return Table(
            ("throws", "move", "probability", "value"),
            rows,
            title=f"{name.capitalize()}: moves at {graph.label(i)}",
            formats={"probability": lambda p: f"{p * graph.denominator}/{graph.denominator}"},
            notes=(
                ()
                if names
                else (
                    "throws: numbered from 0 in the rules' order, as best_move(state, throw) "
                    "takes them.",
                )
            ),
        )

    def summary(self) -> Table:
        """Start value, size and convergence as a two-column table."""
        graph = self.graph
        start = self.start_value
        rows = [
            ("game", getattr(graph.rules, "name", "game")),
            ("states", graph.n_states),
            ("objective", f"{graph.objective} (values: {value_name(graph)})"),
            ("start value", start),
            ("start value (float)", float(start)),
            ("exact", self.exact),
            ("iterations", self.iterations),
            ("residual", float(self.residual)),
        ]
        return Table(("", "value"), rows, title=f"{self.policy.name or 'policy'}: solution")

    def __repr__(self) -> str:
        kind = "exact" if self.exact else "float"
        return (
            f"<Solution of {getattr(self.graph.rules, 'name', 'a game')!r}: "
            f"{self.graph.n_states:,} states, start value {float(self.start_value):.6f} "
            f"({kind}), residual {float(self.residual):.1e}>"
        )

    def _repr_html_(self) -> str:
        return self.summary().to_html() + self.best_moves().to_html()


class _Block:
    """Index arrays for applying the Bellman operator to a set of states at once."""

    def __init__(self, graph: StateGraph, states: np.ndarray):
        self.states = states
        optr = graph.outcome_ptr
        self.outcomes = expand_ranges(optr[states], optr[states + 1])
        per_state = optr[states + 1] - optr[states]
        self.state_starts = np.concatenate([[0], np.cumsum(per_state)[:-1]])
        self.outcome_owner = np.repeat(np.arange(len(states)), per_state)
        per_outcome = graph.option_ptr[self.outcomes + 1] - graph.option_ptr[self.outcomes]
        self.options = expand_ranges(
            graph.option_ptr[self.outcomes], graph.option_ptr[self.outcomes + 1]
        )
        self.option_owner = np.repeat(np.arange(len(self.outcomes)), per_outcome)
        self.alive = per_outcome > 0
        starts = np.concatenate([[0], np.cumsum(per_outcome)[:-1]])
        self.alive_starts = starts[self.alive]
        self.option_local = np.arange(len(self.options)) - starts[self.option_owner]
        self.targets = graph.option_target[self.options]
        self.passes = graph.option_passes[self.options]
        self.weights = graph.outcome_weight[self.outcomes]


class _Solver:
    def __init__(self, graph, exact, policy, tol, max_iter, method):
        self.graph = graph
        self.exact = exact
        self.fixed = policy
        self.tol = 0 if exact else tol
        # Win chances lie in [0, 1]; scores and margins have no scale, so their tolerances
        # are relative to the size of the values (at least 1).
        self.relative = graph.objective != "win"
        self.max_iter = max_iter
        self.method = method
        self.one = Fraction(1) if exact else 1.0
        self.scale = None
        self.position = None
        self.reward = graph.rewards(exact)  # per option, or None
        n = graph.n_states
        if exact and not graph.condensation.cyclic.any():
            self._use_scaled_integers()
        elif exact:
            self.values = np.empty(n, dtype=object)
            self.values[:] = Fraction(0)
            for i, v in graph.terminal_exact.items():
                self.values[i] = v
        else:
            self.values = graph.terminal_value.astype(np.float64)
        # A passing option is worth reward + offset - v (the offset is 1 for win chances).
        self.offset = self.one * graph.pass_constant
        self.choice = np.full(graph.n_outcomes, -1, dtype=np.int32)
        if policy is not None:
            self.choice[:] = policy.choice
        self.iterations = 0
        self.kernel = False  # solve in the compiled kernels (floats only)
        self.dense = False  # cyclic components as dense matrices (small graphs, floats)
        self.blas_threads = None  # the caller's blas_threads, for the kernels' fallback

    def _use_scaled_integers(self):
        """Exact values of an acyclic graph as integers over one common denominator.

        A state of height h has a value with denominator dividing L * D**h (L: the lcm of
        the denominators of the terminal values and the rewards, D: the graph's probability
        denominator), so with G = L * D**H, H the greatest height, every value times G is an
        integer and the Bellman backup needs only integer products, sums, maxima and an
        exact division by D. No gcd is ever taken, and where D * G times the largest value
        fits in 63 bits the arithmetic runs in numpy int64 (Jackpot: G = 36**9).
        """
        graph = self.graph
        exact_numbers = [*graph.terminal_exact.values(), *graph.reward_exact.values()]
        common = math.lcm(*(v.denominator for v in exact_numbers)) if exact_numbers else 1
        height = max(len(graph.condensation.levels) - 1, 0)
        self.scale = common * graph.denominator**height
        # |v| is at most the largest terminal value plus a reward per level (and 1).
        largest = max([abs(v) for v in graph.terminal_exact.values()] or [0]) + height * max(
            [abs(r) for r in graph.reward_exact.values()] or [0]
        )
        small = self.scale * graph.denominator * (math.ceil(largest) + 1) < 2**62
        self.values = np.zeros(graph.n_states, dtype=np.int64 if small else object)
        if not small:
            self.values[:] = 0
        for i, v in graph.terminal_exact.items():
            self.values[i] = v.numerator * (self.scale // v.denominator)
        if graph.reward_exact:
            self.reward = np.zeros(graph.n_options, dtype=np.int64 if small else object)
            if not small:
                self.reward[:] = 0
            for j, r in graph.reward_exact.items():
                self.reward[j] = r.numerator * (self.scale // r.denominator)
        self.one = self.scale

    def exact_values(self):
        """The values as Fractions (undoing the integer scaling when it was used)."""
        if self.scale is None:
            return self.values
        out = np.empty(len(self.values), dtype=object)
        out[:] = [Fraction(int(v), self.scale) for v in self.values]
        return out

    # -- the Bellman operator on a block ------------------------------------
    def option_values(self, block):
        q = passing_value(self.values[block.targets], block.passes, self.offset)
        return q if self.reward is None else q + self.reward[block.options]

    def _tol(self, values) -> float:
        """The tolerance for ``values``: ``tol``, times their size for scores and margins."""
        if not self.relative or self.exact or not len(values):
            return self.tol  # (0 when exact: a float would spoil comparisons of Fractions)
        return self.tol * max(1.0, float(np.max(np.abs(values))))

    def backup(self, block, choice=None):
        """(T v) on the block's states; with ``choice`` (local index per outcome) the policy's."""
        q = self.option_values(block)
        best = self._zeros(len(block.outcomes))
        if choice is None:
            if len(block.alive_starts):
                best[block.alive] = np.maximum.reduceat(q, block.alive_starts)
        else:
            picked = block.option_local == choice[block.option_owner]
            best[block.option_owner[picked]] = q[picked]
        totals = np.add.reduceat(block.weights * best, block.state_starts)
        if self.scale is not None:
            return totals // self.graph.denominator  # exact: see _use_scaled_integers
        return totals / self.graph.denominator

    def greedy(self, block):
        """Local index of the best option at every outcome of the block (first among ties)."""
        choice = np.full(len(block.outcomes), -1, dtype=np.int64)
        if len(block.alive_starts):
            q = self.option_values(block)  # the options of the outcomes that have any
            choice[block.alive] = first_best(q, block.alive_starts, tol=self._tol(q))
        return choice

    def ending(self, block, choice):
        """``choice`` (local, per outcome of the block) changed, where it would never end the
        game, to options as good as the best (within ``tol``) that do end it; returns it
        unchanged where no such option exists (the caller's checks report those states).
        """
        q = self.option_values(block)
        best = self._zeros(len(block.outcomes))
        if len(block.alive_starts):
            best[block.alive] = np.maximum.reduceat(q, block.alive_starts)
        allowed = np.asarray(q >= best[block.option_owner] - self._tol(q), dtype=bool)
        return ending_choice(self.graph, allowed, choice, block.states)[0]

    def any_ending(self, block):
        """Choices at the block's outcomes under which the game surely ends (any option
        allowed; the greedy one where it already does so).
        """
        allowed = np.ones(len(block.options), dtype=bool)
        return ending_choice(self.graph, allowed, self.greedy(block), block.states)[0]

    def _zeros(self, size):
        if self.scale is not None:
            return (
                np.zeros(size, dtype=self.values.dtype)
                if self.values.dtype != object
                else np.array([0] * size, dtype=object)
            )
        if self.exact:
            z = np.empty(size, dtype=object)
            z[:] = Fraction(0)
            return z
        return np.zeros(size)

    # -- policy evaluation on a cyclic block ---------------------------------
    def evaluate_block(self, block, choice):
        """Solve the linear system of a fixed choice on the block's states, in place."""
        graph = self.graph
        m = len(block.states)
        if self.position is None:  # reused: one allocation per solve
            self.position = np.full(graph.n_states, -1, dtype=np.int64)
        position = self.position
        position[block.states] = np.arange(m)
        try:
            self._solve_block_system(block, choice, position, m)
        finally:
            position[block.states] = -1  # clean for the next block, even on error

    def _solve_block_system(self, block, choice, position, m):
        graph = self.graph
        picked = block.option_local == choice[block.option_owner]
        owner = block.outcome_owner[block.option_owner[picked]]
        target = block.targets[picked]
        passes = block.passes[picked]
        weight = block.weights[block.option_owner[picked]]
        if self.exact:
            p = np.array([Fraction(int(w), graph.denominator) for w in weight], dtype=object)
        else:
            p = weight / graph.denominator
        inside = position[target] >= 0
        # Known part: outside targets contribute p * q(target); inside, a passing option
        # contributes p * offset and every option p * its reward.
        q_out = self.values[target[~inside]]
        known = passing_value(q_out, passes[~inside], self.offset) * p[~inside]
        b = self._zeros(m)
        np.add.at(b, owner[~inside], known)
        if self.offset:
            np.add.at(b, owner[inside & passes], p[inside & passes] * self.offset)
        if self.reward is not None:
            np.add.at(b, owner, p * self.reward[block.options[picked]])
        rows = np.concatenate([np.arange(m), owner[inside]])
        cols = np.concatenate([np.arange(m), position[target[inside]]])
        signed = np.where(passes[inside], p[inside], -p[inside])
        coefficients = np.concatenate([np.full(m, self.one, dtype=signed.dtype), signed])
        if self.dense:  # one system per component (no option joins two of one level)
            group = graph.condensation.component[block.states]
            self.values[block.states] = _small.solve_block_diagonal(
                rows, cols, coefficients, b, group
            )
        else:
            self.values[block.states] = solve_sparse(
                rows, cols, coefficients, b, m, exact=self.exact
            )

    def solve_cyclic(self, block):
        if self.fixed is not None:
            self.evaluate_block(block, self.choice[block.outcomes])
            return
        if self.exact:
            return self.solve_cyclic_exact(block)
        self.values[block.states] = 0.5
        method = self.method
        for rounds in range(1, self.max_iter + 1):  # noqa: B007 (read after the loop)
            if method == "policy":
                try:
                    try:
                        self.evaluate_block(block, self.greedy(block))
                    except ConvergenceError:
                        # A choice that can loop forever (a tie with a stalling move) makes
                        # the system singular: take equally good moves that end the game.
                        self.evaluate_block(block, self.ending(block, self.greedy(block)))
                except ConvergenceError:
                    if rounds == 1 and self.relative:
                        # Scores: the first guess's greedy choices may loop for ever (at
                        # no cost, they look best); start from moves that end the game,
                        # from which policy iteration improves through such moves only.
                        self.evaluate_block(block, self.any_ending(block))
                    else:
                        # No such moves: plain value iteration still converges.
                        method = "value"
            new = self.backup(block)
            residual = float(np.max(np.abs(new - self.values[block.states])))
            self.values[block.states] = new
            if residual <= self._tol(new):
                break
        else:
            raise ConvergenceError(
                f"{method} iteration stopped after {self.max_iter} rounds "
                f"with residual {residual:.3g} > tol {self.tol:.3g}"
            )
        self.iterations = max(self.iterations, rounds)

    def solve_cyclic_exact(self, block):
        # Floats find the optimal choices quickly; rational policy iteration confirms them.
        approx = _Solver(self.graph, False, None, 1e-12, self.max_iter, "policy")
        approx.values = np.array([float(v) for v in self.values], dtype=np.float64)
        approx.solve_cyclic(block)
        choice = approx.ending(block, approx.greedy(block))
        fine = sure_to_end(self.graph, choice, block.states)
        if not fine.all():
            raise _stalling(self.graph, block.states[~fine], block.states)
        for rounds in range(1, self.max_iter + 1):  # noqa: B007 (read after the loop)
            self.evaluate_block(block, choice)
            improved = self.greedy(block)
            q = self.option_values(block)
            current = q[block.option_local == choice[block.option_owner]]
            better = q[block.option_local == improved[block.option_owner]]
            if all(better[i] <= current[i] for i in range(len(current))):
                break
            choice = self.ending(block, improved)
        else:
            raise ConvergenceError(
                f"exact policy iteration did not settle in {self.max_iter} rounds"
            )
        self.iterations = max(self.iterations, rounds)

    # -- the whole graph --------------------------------------------------
    def run(self, bar=None):
        """Solve every level, then take the policy and the residual; ``bar`` (a progress
        bar, optional) advances by the states of each level and each final chunk.
        """
        if self.kernel:
            return self._run_kernel(bar)
        graph = self.graph
        condensation = graph.condensation
        for level in condensation.levels:
            level = level[~graph.terminal[level]]
            if not len(level):
                continue
            cyclic = condensation.cyclic[condensation.component[level]]
            single, looped = level[~cyclic], level[cyclic]
            if len(single):
                block = _Block(graph, single)
                fixed = None if self.fixed is None else self.choice[block.outcomes]
                self.values[single] = self.backup(block, fixed)
            if len(looped):
                self.solve_cyclic(_Block(graph, looped))
            if bar is not None:
                bar.update(len(level))
        # Final pass, in chunks to bound memory: the policy, and the residual |Tv - v|.
        residual = 0.0
        live = np.flatnonzero(~graph.terminal)
        for first in range(0, len(live), _CHUNK):
            block = _Block(graph, live[first : first + _CHUNK])
            if self.fixed is None:
                self.choice[block.outcomes] = self.greedy(block)
                fixed = None
            else:
                fixed = self.choice[block.outcomes]
            diff = self.backup(block, fixed) - self.values[block.states]
            if self.scale is not None:
                worst = float(Fraction(int(np.max(np.abs(diff))), self.scale))
            elif self.exact:
                worst = float(max(abs(d) for d in diff))
            else:
                worst = float(np.max(np.abs(diff)))
            residual = max(residual, worst)
            if bar is not None:
                bar.update(len(block.states))
        return residual

    def _run_kernel(self, bar=None):
        """:meth:`run` in the compiled kernels; a component they cannot settle is solved
        here by :meth:`solve_cyclic`. ``iterations`` counts sweeps (or the fallback's rounds).
        """
        fixed = self.fixed is not None

        def fallback(states):
            # scipy (and its BLAS, which a limit set before it is loaded does not reach)
            # only now: most kernel solves never need it.
            with limit_blas(self.blas_threads):
                self.solve_cyclic(_Block(self.graph, states))

        sweeps, residual = _kernels.solve(
            self.graph,
            self.values,
            self.choice,
            fixed=fixed,
            tol=self.tol,
            max_sweeps=_EVALUATE_SWEEPS if fixed else self.max_iter,
            fallback=fallback,
        )
        self.iterations = max(self.iterations, sweeps)
        if bar is not None:
            bar.update(bar.total)
        return residual


def _run(solver, progress, what):
    """``solver.run()`` under a progress bar counting states twice: solved, then checked."""
    graph = solver.graph
    total = 2 * int(graph.n_states - np.count_nonzero(graph.terminal))
    name = getattr(graph.rules, "name", "game")
    with progress_bar(total, desc=f"{what} {name}", unit=" states", progress=progress) as bar:
        return solver.run(bar)


def _cyclic(graph):
    """The states in cyclic components (the only place play can go on for ever), and the
    numbers of their outcomes.
    """
    c = graph.condensation
    in_cycle = c.cyclic[c.component]
    if in_cycle.any() and (in_cycle | graph.terminal).all():  # the whole graph: no copies
        return np.arange(graph.n_states), np.arange(graph.n_outcomes)
    states = np.flatnonzero(in_cycle)
    return states, expand_ranges(graph.outcome_ptr[states], graph.outcome_ptr[states + 1])


def _game(graph):
    return getattr(graph.rules, "name", "game")


def _check_can_end(graph, states=None):
    """Raise NonTerminatingGameError if no choice of moves ends the game from some states
    (of ``states``, default: every state in a cycle).
    """
    if states is None:
        states, _ = _cyclic(graph)
    if len(states):
        ok, _ = can_end(graph, states=states)
        if not ok.all():
            bad = states[~ok]
            raise NonTerminatingGameError(
                f"{_game(graph)}: the game cannot end from {name_states(graph, bad)} "
                "whatever the players choose (every move leads back into play that never "
                "reaches the end of the game), so there is no value to compute; give the "
                "rules a way to end from there (a terminal state, or a limit on turns)",
                bad,
            )


def _ending_policy(graph, solver):
    """The solver's optimal choices, with any choice that would keep the game going for ever
    replaced by an equally good one that ends it; NonTerminatingGameError if there is none.
    """
    if not graph.condensation.cyclic.any():
        return solver.choice
    if solver.kernel and _kernels.sure_to_end(graph, solver.choice).all():
        return solver.choice  # the compiled check: every state ends surely
    states, outcomes = _cyclic(graph)
    local = solver.choice[outcomes]
    if sure_to_end(graph, local, states).all():
        return solver.choice
    repaired = solver.ending(_Block(graph, states), local)
    fine = sure_to_end(graph, repaired, states)
    if not fine.all():
        raise _stalling(graph, states[~fine], states)
    choice = solver.choice.copy()
    choice[outcomes] = repaired
    return choice


def _stalling(graph, bad, states):
    """The error for states where the best moves never end the game (``bad``, among
    ``states``); the plainer one if no move at all could end it from some of them.
    """
    _check_can_end(graph, states)
    return NonTerminatingGameError(
        f"{_game(graph)}: optimal play would never reach the end of the game from "
        f"{name_states(graph, bad)}: there every best move keeps the game going for "
        "ever (stalling beats every move that ends it), and a game that never ends has "
        "no value; give endless play an outcome in the rules (a move to a terminal "
        "state with the value you mean, or a limit on turns)",
        bad,
    )


def _check_policy_ends(graph, policy, kernel=False):
    """Raise NonTerminatingGameError if ``policy`` never ends the game from some states
    (with ``kernel``, first the compiled check of the whole graph).
    """
    if not graph.condensation.cyclic.any():
        return
    if kernel and _kernels.sure_to_end(graph, policy.choice).all():
        return
    states, outcomes = _cyclic(graph)
    fine = sure_to_end(graph, policy.choice[outcomes], states)
    if not fine.all():
        bad = states[~fine]
        raise NonTerminatingGameError(
            f"{_game(graph)}: under policy {policy.name!r} play from "
            f"{name_states(graph, bad)} would never reach the end of the game, so it "
            "has no value",
            bad,
        )


def _engine(graph, engine, exact, method="policy"):
    """Where to solve: ``"numba"`` (the compiled kernels), ``"small"`` (the numpy code with
    a dense solve per cyclic component: no scipy, no numba) or ``"numpy"``; checks ``engine``.
    """
    resolved = _kernels.resolve_engine(engine, "the numba solver engine")
    if exact or engine == "numpy":
        return "numpy"
    if engine == "auto" and method == "policy" and _small_enough(graph):
        return "small"
    if resolved == "numba" and (engine == "numba" or method == "policy"):
        return "numba"
    return "numpy"


def _small_enough(graph) -> bool:
    """Whether ``graph`` is solved faster without numba and scipy than by loading them:
    at most :data:`gamegraph._small.MAX_STATES` states, and no cyclic component of more
    than :data:`gamegraph._small.MAX_COMPONENT`.
    """
    if graph.n_states > _small.MAX_STATES:
        return False
    condensation = graph.condensation
    if not condensation.cyclic.any():
        return True
    sizes = np.bincount(condensation.component, minlength=condensation.n_components)
    return int(sizes[condensation.cyclic].max()) <= _small.MAX_COMPONENT


def _limit_blas(threads, engine, graph):
    """:func:`gamegraph._threads.limit_blas` where the numpy engine makes sparse solves (a
    graph with cycles); on the small path, in the kernels and on a graph without cycles
    only the BLAS already loaded (numpy's) is limited: loading scipy's to limit it takes
    0.2 s, and scipy is not called (the kernels' fallback limits it when it is).
    """
    return limit_blas(threads, load=engine == "numpy" and graph.condensation.cyclic.any())


def _limit(exact_limit):
    """``exact_limit`` checked: seconds (a number > 0) or None."""
    if exact_limit is None:
        return None
    return check_positive(exact_limit, "exact_limit")


def _check(tol, max_iter, method):
    if method not in METHODS:
        raise UnknownNameError("method", method, METHODS)
    check_int(max_iter, "max_iter", low=1)
    check_positive(tol, "tol")


def _exact_bytes(graph: StateGraph) -> int:
    """A conservative estimate of the peak bytes of an exact solve of ``graph``.

    Values are Fractions whose denominators grow level by level: a cyclic component of
    m states solved with probabilities over D adds up to m * log2(D) bits (Cramer's
    rule), an acyclic level log2(D). Each value holds a numerator and a denominator of
    that size; a cyclic block is solved as a dense m x m rational matrix whose entries
    grow as large (counted twice, to be safe), and 24 MiB go to the float solve that
    seeds the exact one. Measured peak (benchmarks/bench_memory.py) against estimate:
    Super Six 20 pegs 22 / 32 MiB, 30 pegs 30 / 69 MiB, 40 pegs 66 / 180 MiB; Ur finkel
    2 grew past 5.6 GiB in 300 s without finishing (estimate 12 GiB).

    >>> from gamegraph import build
    >>> from gamegraph.games.supersix import SuperSix
    >>> _exact_bytes(build(SuperSix(pegs=20))) < _exact_bytes(build(SuperSix(pegs=40)))
    True
    """
    condensation = graph.condensation
    sizes = np.bincount(condensation.component)
    step = max(int(graph.denominator).bit_length(), 1)
    bits = max([v.denominator.bit_length() for v in graph.terminal_exact.values()] or [1])
    block = 0
    for level in condensation.levels:
        components = np.unique(condensation.component[level])
        cyclic = components[condensation.cyclic[components]]
        m = int(sizes[cyclic].max()) if len(cyclic) else 0
        bits += step * max(m, 1)
        block = max(block, 2 * m * m * (bits // 8 + 64))
    return graph.n_states * (2 * bits // 8 + 200) + block + 24 * 2**20


def _check_exact_memory(graph: StateGraph) -> None:
    """Refuse an exact solve whose Fractions would not fit in the memory available."""
    from ._memory import check_memory

    check_memory(
        _exact_bytes(graph),
        f"an exact solve of {getattr(graph.rules, 'name', 'the game')} ({graph.n_states:,} states)",
        "drop exact=True for floats, or take a smaller game",
    )


def throw_names(graph: StateGraph, state: int) -> list | None:
    """The rules' names of the throws of state number ``state``, in outcome order, or None.

    The rules name their throws with a method ``throws()`` listing them in the order every
    non-terminal state's outcomes come (Ur: the number thrown, 0 to 4); None where the rules
    have no such method or ``state`` has another number of outcomes.

    >>> from gamegraph import build
    >>> from gamegraph.games.ur import Ur
    >>> graph = build(Ur(pieces=1))
    >>> throw_names(graph, graph.start)
    [0, 1, 2, 3, 4]
    """
    throws = getattr(graph.rules, "throws", None)
    if not callable(throws):
        return None
    names = list(throws())
    count = int(graph.outcome_ptr[state + 1] - graph.outcome_ptr[state])
    return names if names and len(names) == count else None


def solve(
    graph: StateGraph,
    *,
    exact: bool = False,
    method: str = "policy",
    tol: float = 1e-13,
    max_iter: int = 1000,
    engine: str = "auto",
    blas_threads: int | None = None,
    progress: bool | None = None,
    exact_limit: float | None = LIMIT_SECONDS,
) -> Solution:
    """Solve a game graph: the optimal value of every state and an optimal policy.

    Parameters
    ----------
    graph : StateGraph
    exact : bool
        Compute Fractions instead of floats.
    method : {"policy", "value"}
        How cyclic components are solved (float mode).
    tol : float
        Stop a cyclic component once no backup changes a value by more than this (the
        numba engine: once its estimated error is below ``tol / 100``). Options within
        ``tol`` of the best count as best; the policy takes the first of them.
    max_iter : int
        Cap on the rounds per cyclic component; past it ConvergenceError is raised. The
        numba engine counts Gauss-Seidel sweeps (or rounds of its banded policy
        iteration), and hands a component that needs more to the numpy code, whose cap
        then applies.
    engine : {"auto", "numba", "numpy"}
        Where a float solve runs: ``"numba"`` in the compiled kernels (needs the ``fast``
        extra), ``"numpy"`` level by level in numpy, ``"auto"`` in the kernels when numba
        is installed and ``method`` is ``"policy"``, except that a small graph is solved
        level by level with a dense solve per cyclic component, loading neither numba nor
        scipy (see the module docstring). Exact solves always run in numpy.
    blas_threads : int or None
        Threads BLAS may use during the call, a whole number from 1 to 1,024; None takes
        the environment variable ``GAMEGRAPH_BLAS_THREADS``, or 1 when it is unset. The
        limits in force before are restored when the call returns.
    progress : bool or None
        A bar on stderr that advances level by level (each state counted when solved and
        again when its policy and residual are taken): None shows it when stderr is a
        terminal, True always, False never.
    exact_limit : float or None
        With ``exact``, refuse a cyclic game whose exact solve is estimated
        (:mod:`gamegraph.exact_cost`) to take more than this many seconds (default 600),
        before any work; None never refuses. An estimate past 10 s warns
        (:class:`~gamegraph.exact_cost.ExactCostWarning`).

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> solution = solve(build(Jackpot()), exact=True)
    >>> solution.start_value
    Fraction(14103327415, 176319369216)
    """
    _check(tol, max_iter, method)
    where = _engine(graph, engine, exact, method)
    if exact:
        _check_exact_memory(graph)
        check_exact_cost(graph, _limit(exact_limit))
    with _limit_blas(blas_threads, where, graph):
        solver = _Solver(graph, exact, None, tol, max_iter, method)
        solver.kernel = where == "numba"
        solver.dense = where == "small"
        solver.blas_threads = blas_threads
        try:
            residual = _run(solver, progress, "solving")
        except ConvergenceError as error:
            _check_can_end(graph)  # the plainer cause, if it is one
            if graph.objective != "win":
                raise ConvergenceError(
                    f"{_game(graph)}: the values do not settle ({error}); with scores this "
                    "happens when some loop of moves pays more than it costs, so that a "
                    "player could collect rewards for ever and the values grow without "
                    "bound: make every loop cost something, or end the game"
                ) from error
            raise
        choice = _ending_policy(graph, solver)
    policy = Policy(choice=choice.astype(np.int32), name="optimal")
    return Solution(graph, solver.exact_values(), policy, exact, solver.iterations, residual)


def evaluate(
    graph: StateGraph,
    policy: Policy,
    *,
    exact: bool = False,
    engine: str = "auto",
    blas_threads: int | None = None,
    progress: bool | None = None,
    exact_limit: float | None = LIMIT_SECONDS,
) -> Solution:
    """The value of every state when the player(s) follow ``policy``.

    Parameters
    ----------
    graph : StateGraph
    policy : Policy
        One choice per outcome of ``graph``.
    exact : bool
        Compute Fractions instead of floats.
    engine : {"auto", "numba", "numpy"}
        As for :func:`solve`: the numba engine runs Gauss-Seidel sweeps with the policy's
        choices (a component that has not settled after 1,000 sweeps gets a direct
        linear solve).
    blas_threads : int or None
        Threads BLAS may use during the call, a whole number from 1 to 1,024; None takes
        the environment variable ``GAMEGRAPH_BLAS_THREADS``, or 1 when it is unset. The
        limits in force before are restored when the call returns.
    progress : bool or None
        A bar on stderr, as for :func:`solve`.
    exact_limit : float or None
        As for :func:`solve`: the estimated seconds past which an exact evaluation of a
        cyclic game is refused.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> hilo = Policy.from_agent(graph, AGENTS["hilo"])
    >>> evaluate(graph, hilo, exact=True).start_value
    Fraction(660001525, 8264970432)
    """
    where = _engine(graph, engine, exact)
    policy.check(graph)
    _check_policy_ends(graph, policy, where == "numba")
    if exact:
        check_exact_cost(graph, _limit(exact_limit), what="an exact evaluation")
    with _limit_blas(blas_threads, where, graph):
        solver = _Solver(graph, exact, policy, 1e-13, 1, "policy")
        solver.kernel = where == "numba"
        solver.dense = where == "small"
        solver.blas_threads = blas_threads
        residual = _run(solver, progress, "evaluating")
    return Solution(graph, solver.exact_values(), policy, exact, 0, residual)
