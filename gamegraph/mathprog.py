r"""Mathematical-programming cross-checks of the solver: a MILP that is exact, an LP that is not.

Both build their constraints from any :class:`~gamegraph.graph.StateGraph` and hand them
to HiGHS through :mod:`scipy.optimize`. Neither uses the solver's backups, policy
iteration or linear solves (:mod:`gamegraph.solve`), so agreement with it is an
independent check.

Notation. :math:`S` is the set of non-terminal states, :math:`p_k` the probability of
outcome :math:`k` of state :math:`s(k)`, :math:`J_k` its options. Option :math:`j`
leads to :math:`t_j`, and its worth to the player who picks it is an affine function of
one value,

.. math::

    q_j = \begin{cases}
        u(t_j)     & t_j \text{ terminal, the turn stays} \\
        1 - u(t_j) & t_j \text{ terminal, the turn passes} \\
        v_{t_j}    & t_j \in S, \text{ the turn stays} \\
        1 - v_{t_j} & t_j \in S, \text{ the turn passes,}
    \end{cases}

:math:`u` being the rules' terminal values (constants). Outcomes with two or more
options form :math:`K_2` and get a variable :math:`m_k` standing for
:math:`\max_{j \in J_k} q_j`; an outcome with one option is worth that option's
:math:`q_j`, one with none is worth 0. Writing :math:`w_k` for that worth
(:math:`m_k`, the single :math:`q_j`, or 0), both programs share

.. math::

    v_s &= \sum_{k \text{ of } s} p_k\, w_k  && s \in S \quad\text{(Bellman equalities)} \\
    m_k &\ge q_j                             && k \in K_2,\ j \in J_k \\
    0 \le v_s, m_k &\le 1.

**MILP** (:func:`milp`). A binary :math:`r_{kj}` picks the option that attains the max:

.. math::

    \sum_{j \in J_k} r_{kj} = 1, \qquad m_k \le q_j + (1 - r_{kj}), \qquad r_{kj} \in \{0, 1\}.

With :math:`r_{kj} = 1` the pair :math:`q_j \le m_k \le q_j` pins :math:`m_k = q_j`;
with :math:`r_{kj} = 0` the bound is :math:`m_k \le q_j + 1`, which every value in
[0, 1] meets, so 1 is a big enough "big M". The feasible points are then exactly the
solutions of the Bellman equations :math:`v = Tv` (see :mod:`gamegraph.solve`). When
every policy ends the game with probability one, as in Jackpot and Super Six, there is
only one, and the objective does not matter: it is zero, and HiGHS stops at the first
feasible point. (A game where some choice can stall forever may have several fixed
points; the MILP then returns one of them, not necessarily the solver's.)

One program for the whole graph (``split="none"``) is the formulation as first
written, and HiGHS's branch and bound struggles with it early: about five minutes
at 12 pegs of Super Six (252 states). By default (``split="levels"``) the same
constraints are cut along the levels of the graph's condensation
(:mod:`gamegraph.condensation`): the states of one level are the variables, states of
lower levels are constants already solved, and the levels are solved from the bottom
up. Every program then holds one level's components only (a Super Six layer of
``b + c + o`` pegs), which HiGHS solves in about a second, occasionally tens of
seconds (40 pegs: some 45 s for its 77 programs).

**LP relaxation** (:func:`lp_relaxation`). Drop :math:`r` and ask for the smallest
maxima instead:

.. math::

    \min \sum_{k \in K_2} m_k \quad \text{subject to the shared constraints.}

For a one-player game every :math:`q_j` rises with every :math:`m_k`, so the least
point makes each :math:`m_k` a max. When turns pass, a larger :math:`m_k` for one player
lowers :math:`1 - v` for the other, and the sum can be made smaller by leaving some
:math:`m_k` above its max. The result reports, per outcome in :math:`K_2`, the gap
:math:`m_k - \max_j q_j` at the LP's own values and that gap relative to the max.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import scipy.optimize
import scipy.sparse

from ._checks import check_positive
from ._memory import check_memory
from .errors import ConvergenceError, InvalidArgumentError, UnknownNameError
from .graph import StateGraph, expand_ranges
from .policy import Policy
from .values import option_values, passing_value

__all__ = ["milp", "lp_relaxation", "MilpResult", "LPRelaxation", "option_values"]


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------
@dataclass(eq=False)
class MilpResult:
    r"""What :func:`milp` found.

    Attributes
    ----------
    graph : StateGraph
    values : ndarray of float
        Per state of the graph: the MILP's value for non-terminal states, the rules'
        value for terminal ones.
    policy : Policy
        The option each outcome picks (the binary set to 1; 0 for single-option
        outcomes, -1 where there is no option). Named ``"milp"``.
    residual : float
        :math:`\max_s |(Tv)(s) - v(s)|` at :attr:`values`: how far they are from a
        solution of the Bellman equations (HiGHS's tolerances are about 1e-7 to 1e-6).
    status : int
        HiGHS's status through scipy: always 0 (solved), as any other status raises.
    message : str
        HiGHS's message for the last program solved.
    programs : int
        How many MILPs were solved (one per level with ``split="levels"``).
    seconds : float
        Wall time to assemble the programs and solve them.
    n_variables, n_binaries, n_constraints : int
        Size of the programs, summed.
    """

    graph: StateGraph
    values: np.ndarray
    policy: Policy
    residual: float
    status: int
    message: str
    programs: int
    seconds: float
    n_variables: int
    n_binaries: int
    n_constraints: int

    @property
    def start_value(self) -> float:
        """Value of the graph's start state."""
        return float(self.values[self.graph.start])

    def value(self, state) -> float:
        """Value of a state given by its rules-level value."""
        return float(self.values[self.graph.state_number(state)])


@dataclass(eq=False)
class LPRelaxation:
    r"""What :func:`lp_relaxation` found.

    Attributes
    ----------
    graph : StateGraph
    values : ndarray of float
        Per state: the LP's values (terminal states hold the rules' values).
    outcomes : ndarray of int
        The outcomes with two or more options, the ones that have an ``m_k``.
    m : ndarray of float
        The LP's ``m_k``, aligned with :attr:`outcomes`.
    best : ndarray of float
        :math:`\max_j q_j` at the LP's own values, aligned with :attr:`outcomes`.
    error : ndarray of float
        ``m - best``: by how much ``m_k`` fails to be the max (0 up to the solver's
        tolerance where it is one).
    relative_error : ndarray of float
        ``error / best``; where ``best`` is 0 it is ``error`` itself.
    objective : float
        :math:`\sum_k m_k` at the optimum.
    status : int
        HiGHS's status through scipy (0: solved).
    message : str
    seconds : float
        Wall time to assemble the program and solve it.
    """

    graph: StateGraph
    values: np.ndarray
    outcomes: np.ndarray
    m: np.ndarray
    best: np.ndarray
    error: np.ndarray
    relative_error: np.ndarray
    objective: float
    status: int
    message: str
    seconds: float

    @property
    def max_relative_error(self) -> float:
        """The largest relative error over all outcomes (0.0 when no outcome has a choice)."""
        return float(self.relative_error.max()) if len(self.relative_error) else 0.0

    @property
    def worst_outcome(self) -> int:
        """The outcome with the largest relative error (-1 when no outcome has a choice)."""
        return int(self.outcomes[np.argmax(self.relative_error)]) if len(self.outcomes) else -1

    @property
    def error_by_state(self) -> np.ndarray:
        """Per state, the largest relative error over its outcomes (0 for states without
        a choice).
        """
        out = np.zeros(self.graph.n_states)
        np.maximum.at(out, self.graph.outcome_state[self.outcomes], self.relative_error)
        return out


# ---------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------
def _best_options(graph: StateGraph, q: np.ndarray):
    """Per outcome: the best option worth (0 where none) and whether it has any option."""
    counts = np.diff(graph.option_ptr)
    alive = counts > 0
    best = np.zeros(graph.n_outcomes)
    if alive.any():
        best[alive] = np.maximum.reduceat(q, graph.option_ptr[:-1][alive])
    return best, alive


def _bellman_residual(graph: StateGraph, values: np.ndarray) -> float:
    """:math:`\\max_s |(Tv)(s) - v(s)|` over non-terminal states."""
    live = ~graph.terminal
    if not live.any():
        return 0.0
    best, _ = _best_options(graph, option_values(graph, values))
    backed = np.bincount(
        graph.outcome_state, weights=graph.outcome_probability * best, minlength=graph.n_states
    )
    return float(np.max(np.abs(backed[live] - values[live])))


class _Program:
    """The shared part of both programs for a block of states, as index arrays (no Python
    loop per option).

    ``states`` are the non-terminal states whose values are variables; every other state
    counts as a constant taken from ``known`` (terminal values, or values solved in an
    earlier block). Variable layout: ``v`` for ``states`` in the order given, then ``m``
    for their outcomes with two or more options, then (MILP only) ``r`` for the options
    of those outcomes, in option order.
    """

    def __init__(self, graph: StateGraph, states: np.ndarray, known: np.ndarray):
        self.graph = graph
        self.states = states
        n_v = len(states)
        self.n_v = n_v
        column = np.full(graph.n_states, -1, dtype=np.int64)
        column[states] = np.arange(n_v)

        optr = graph.outcome_ptr
        outcomes = expand_ranges(optr[states], optr[states + 1])
        owner_row = np.repeat(np.arange(n_v), optr[states + 1] - optr[states])
        counts = graph.option_ptr[outcomes + 1] - graph.option_ptr[outcomes]
        is_multi = counts >= 2
        self.multi = outcomes[is_multi]
        n_m = len(self.multi)
        self.n_m = n_m
        m_column = np.full(len(outcomes), -1, dtype=np.int64)
        m_column[is_multi] = n_v + np.arange(n_m)

        # q_j = a_j + s_j * v[target_j] for every option of the block; s_j = 0 when the
        # target is a constant.
        options = expand_ranges(graph.option_ptr[outcomes], graph.option_ptr[outcomes + 1])
        option_local = np.repeat(np.arange(len(outcomes)), counts)  # outcome, block-local
        target = graph.option_target[options]
        v_col = column[target]
        constant = v_col < 0
        passes = graph.option_passes[options]
        u = known[target]
        a = np.where(constant, passing_value(u, passes), np.where(passes, 1.0, 0.0))
        s = np.where(constant, 0.0, np.where(passes, -1.0, 1.0))
        p = graph.outcome_probability[outcomes]

        # Bellman equalities: v_s - sum_k p_k w_k = sum over single-option outcomes of p_k a_j.
        first = np.cumsum(counts) - counts  # block-local first option
        single = np.flatnonzero(counts == 1)
        single_option = first[single]
        single_var = ~constant[single_option]
        rows = [np.arange(n_v), owner_row[is_multi], owner_row[single[single_var]]]
        cols = [np.arange(n_v), m_column[is_multi], v_col[single_option[single_var]]]
        data = [np.ones(n_v), -p[is_multi], -(p[single] * s[single_option])[single_var]]
        self.eq = scipy.sparse.csr_array(
            (np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))),
            shape=(n_v, n_v + n_m),
        )  # duplicates (self-loops) are summed
        self.eq_rhs = np.bincount(
            owner_row[single], weights=p[single] * a[single_option], minlength=n_v
        )

        # Options of the multi-option outcomes: m_k - s_j v_t >= a_j.
        j = np.flatnonzero(is_multi[option_local])
        self.multi_options = options[j]
        n_r = len(j)
        self.n_r = n_r
        var = ~constant[j]
        self.ge_rows = np.concatenate([np.arange(n_r), np.flatnonzero(var)])
        self.ge_cols = np.concatenate([m_column[option_local[j]], v_col[j][var]])
        self.ge_data = np.concatenate([np.ones(n_r), -s[j][var]])
        self.ge_rhs = a[j]
        # For each r_kj: its outcome's row among the m's ("pick one" constraint).
        self.r_outcome_row = m_column[option_local[j]] - n_v

    def ge(self, n_columns: int):
        """The matrix of ``m_k - s_j v_t`` rows, padded to ``n_columns`` variables."""
        return scipy.sparse.csr_array(
            (self.ge_data, (self.ge_rows, self.ge_cols)), shape=(self.n_r, n_columns)
        )


def _check_graph(graph):
    if not isinstance(graph, StateGraph):
        raise InvalidArgumentError(f"graph must be a StateGraph, got {type(graph).__name__}")
    if graph.objective != "win":
        raise InvalidArgumentError(
            f"the programs cross-check win chances, and this graph's objective is "
            f"{graph.objective!r} (its values are not bounded to [0, 1], so 1 is no big M); "
            "solve it with gamegraph.solve, and cross-check with gamegraph.simulate"
        )
    u = graph.terminal_value[graph.terminal]
    if len(u) and (u.min() < 0 or u.max() > 1):
        raise InvalidArgumentError(
            "terminal values must be probabilities in [0, 1] (the programs bound every "
            f"value to [0, 1]); this graph has values from {u.min():g} to {u.max():g}"
        )


#: Peak bytes per variable state of an LP handed to HiGHS, and a fixed part: measured
#: 11 to 17 kB per state on Super Six from 20 to 60 pegs (benchmarks/bench_memory.py).
LP_BYTES_PER_STATE = 20_000
LP_BYTES_FIXED = 4 * 2**20


def estimate_bytes(graph: StateGraph, *, kind: str = "lp", split: str = "levels") -> int:
    """Rough peak memory of :func:`lp_relaxation` (``kind="lp"``) or :func:`milp`
    (``kind="milp"``) on ``graph``: per state of the largest program, 20 kB for the LP,
    twice that for the MILP (its binaries double the matrix; not calibrated).

    >>> from gamegraph import build
    >>> from gamegraph.games.supersix import SuperSix
    >>> estimate_bytes(build(SuperSix(pegs=40))) // 2**20
    82
    """
    live = ~graph.terminal
    if kind == "lp" or split == "none":
        largest = int(live.sum())
    else:
        largest = max((int(live[level].sum()) for level in graph.condensation.levels), default=0)
    per_state = LP_BYTES_PER_STATE * (1 if kind == "lp" else 2)
    return LP_BYTES_FIXED + per_state * largest


def _check_program_memory(graph, kind, split="levels"):
    check_memory(
        estimate_bytes(graph, kind=kind, split=split),
        f"the {'LP' if kind == 'lp' else 'MILP'} of {getattr(graph.rules, 'name', 'the game')} "
        f"({graph.n_states:,} states)",
        "take a smaller game",
    )


# ---------------------------------------------------------------------------
# The two programs
# ---------------------------------------------------------------------------
SPLITS = ("levels", "none")


def milp(
    graph: StateGraph, *, split: str = "levels", time_limit: float | None = None
) -> MilpResult:
    """Solve the game as a mixed-integer linear program (one binary per choosable option).

    See the module docstring for the formulation. The objective is zero: the constraints
    alone pin the values when every policy ends the game.

    Parameters
    ----------
    graph : StateGraph
        Any game graph whose terminal values lie in [0, 1].
    split : {"levels", "none"}
        ``"levels"``: one program per level of ``graph.condensation``, bottom up, each
        taking the values below it as constants. ``"none"``: a single program for the
        whole graph (much slower beyond small games).
    time_limit : float, optional
        Seconds all programs together may take; past it ConvergenceError is raised.

    Returns
    -------
    MilpResult

    Raises
    ------
    InvalidArgumentError
        ``graph`` is not a StateGraph, a terminal value is outside [0, 1],
        ``time_limit`` is not a positive number, or ``split`` is unknown
        (UnknownNameError).
    ConvergenceError
        HiGHS stopped without a solution (time limit, infeasible, numerical trouble);
        the message is HiGHS's.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from gamegraph import build
    >>> from gamegraph.games.supersix import SuperSix, SixState
    >>> result = milp(build(SuperSix(pegs=4)))
    >>> result.status, abs(result.value(SixState(0, 2, 2)) - 36 / 41) < 1e-7
    (0, True)
    >>> Fraction(result.value(SixState(1, 1, 2))).limit_denominator(100)
    Fraction(35, 41)
    """
    _check_graph(graph)
    if time_limit is not None:
        time_limit = check_positive(time_limit, "time_limit (seconds)")
    if split not in SPLITS:
        raise UnknownNameError("split", split, SPLITS)
    _check_program_memory(graph, "milp", split)
    started = time.perf_counter()
    values = graph.terminal_value.astype(np.float64)
    choice = np.where(np.diff(graph.option_ptr) > 0, 0, -1).astype(np.int32)
    live = ~graph.terminal
    if split == "none":
        blocks = [np.flatnonzero(live)]
    else:
        blocks = [level[live[level]] for level in graph.condensation.levels]
    sizes = np.zeros(3, dtype=np.int64)  # variables, binaries, constraints
    programs, message = 0, "nothing to solve"
    for states in blocks:
        if not len(states):
            continue
        program = _Program(graph, states, values)
        left = None
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - started)
            if left <= 0:
                raise ConvergenceError(
                    f"the MILP of {graph.rules.name} ran out of its "
                    f"{time_limit:g} s before its last blocks"
                )
        x, message = _solve_block(graph, program, left)
        values[states] = x[: program.n_v]
        choice[program.multi] = _picks(graph, program, x[program.n_v + program.n_m :])
        sizes += (
            program.n_v + program.n_m + program.n_r,
            program.n_r,
            program.n_v + program.n_m + 2 * program.n_r,
        )
        programs += 1
    return MilpResult(
        graph=graph,
        values=values,
        policy=Policy(choice=choice, name="milp"),
        residual=_bellman_residual(graph, values),
        status=0,
        message=message,
        programs=programs,
        seconds=time.perf_counter() - started,
        n_variables=int(sizes[0]),
        n_binaries=int(sizes[1]),
        n_constraints=int(sizes[2]),
    )


def _solve_block(graph, program, time_limit):
    """Solve one block's MILP; the solution vector and HiGHS's message."""
    n_v, n_m, n_r = program.n_v, program.n_m, program.n_r
    n = n_v + n_m + n_r
    r_columns = n_v + n_m + np.arange(n_r)
    eq = scipy.sparse.hstack([program.eq, scipy.sparse.csr_array((n_v, n_r))])
    ge = program.ge(n)
    # m_k - s_j v_t + r_kj <= a_j + 1
    le = ge + scipy.sparse.csr_array((np.ones(n_r), (np.arange(n_r), r_columns)), shape=(n_r, n))
    pick = scipy.sparse.csr_array(
        (np.ones(n_r), (program.r_outcome_row, r_columns)), shape=(n_m, n)
    )
    constraints = [
        scipy.optimize.LinearConstraint(eq, program.eq_rhs, program.eq_rhs),
        scipy.optimize.LinearConstraint(ge, program.ge_rhs, np.inf),
        scipy.optimize.LinearConstraint(le, -np.inf, program.ge_rhs + 1.0),
        scipy.optimize.LinearConstraint(pick, 1.0, 1.0),
    ]
    integrality = np.zeros(n, dtype=np.uint8)
    integrality[r_columns] = 1
    options = {} if time_limit is None else {"time_limit": float(time_limit)}
    res = scipy.optimize.milp(
        np.zeros(n),
        integrality=integrality,
        bounds=scipy.optimize.Bounds(0.0, 1.0),
        constraints=constraints,
        options=options,
    )
    if res.status != 0 or res.x is None:
        raise ConvergenceError(
            f"HiGHS found no solution of the MILP for {n_v} states of {graph.rules.name} "
            f"(status {res.status}): {res.message}"
        )
    return res.x, str(res.message)


def _picks(graph, program, r):
    """Local index of the option whose binary is set, per multi-option outcome of a block."""
    if not program.n_r:
        return np.zeros(0, dtype=np.int32)
    starts = np.searchsorted(program.multi_options, graph.option_ptr[program.multi])
    owner = program.r_outcome_row
    local = program.multi_options - graph.option_ptr[program.multi][owner]
    top = np.maximum.reduceat(r, starts)
    first_top = np.where(r >= top[owner], local, np.iinfo(np.int64).max)
    return np.minimum.reduceat(first_top, starts).astype(np.int32)


def lp_relaxation(graph: StateGraph) -> LPRelaxation:
    """Minimise the sum of the maxima ``m_k`` by linear programming, without binaries.

    This is the natural first attempt at the max in the Bellman equations, and it is not
    exact for two-player games: see the module docstring. The result says by how much
    each ``m_k`` overshoots its max.

    Parameters
    ----------
    graph : StateGraph
        Any game graph whose terminal values lie in [0, 1].

    Returns
    -------
    LPRelaxation

    Raises
    ------
    InvalidArgumentError
        ``graph`` is not a StateGraph or a terminal value is outside [0, 1].
    ConvergenceError
        HiGHS did not reach an optimum; the message is HiGHS's.

    Examples
    --------
    Jackpot has one player, so the least maxima are the true ones:

    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot(cells=5))
    >>> lp = lp_relaxation(graph)
    >>> lp.max_relative_error < 1e-9, bool(abs(lp.values - solve(graph).values).max() < 1e-9)
    (True, True)
    """
    _check_graph(graph)
    _check_program_memory(graph, "lp")
    started = time.perf_counter()
    values = graph.terminal_value.astype(np.float64)
    program = _Program(graph, np.flatnonzero(~graph.terminal), values)
    n_v, n_m = program.n_v, program.n_m
    n = n_v + n_m
    if n == 0:
        x, objective, status, message = np.zeros(0), 0.0, 0, "nothing to solve"
    else:
        cost = np.concatenate([np.zeros(n_v), np.ones(n_m)])
        res = scipy.optimize.linprog(
            cost,
            A_ub=-program.ge(n),
            b_ub=-program.ge_rhs,
            A_eq=program.eq,
            b_eq=program.eq_rhs,
            bounds=(0.0, 1.0),
            method="highs",
        )
        if res.status != 0 or res.x is None:
            raise ConvergenceError(
                f"HiGHS LP did not solve the {graph.rules.name} graph "
                f"(status {res.status}): {res.message}"
            )
        x, objective, status, message = res.x, float(res.fun), res.status, res.message
    values[program.states] = x[:n_v]
    best, _ = _best_options(graph, option_values(graph, values))
    best = best[program.multi]
    m = x[n_v:]
    error = m - best
    safe = np.where(best > 0, best, 1.0)
    relative = np.where(best > 0, error / safe, error)
    return LPRelaxation(
        graph=graph,
        values=values,
        outcomes=program.multi,
        m=m,
        best=best,
        error=error,
        relative_error=relative,
        objective=objective,
        status=int(status),
        message=str(message),
        seconds=time.perf_counter() - started,
    )
