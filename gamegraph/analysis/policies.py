"""Policies measured against each other and against the optimum.

:func:`compare` says, outcome by outcome, how much value a policy gives up against a
solved game; :func:`compare_policies` evaluates several named agents and the optimum side
by side. Values are in the game's objective (:mod:`gamegraph.values`): win probabilities,
expected scores or expected margins, and the tables say which.

Every function of :mod:`gamegraph.analysis` that takes a policy takes the same things
(:func:`as_policy` for one, :func:`as_policies` for several):

* a :class:`~gamegraph.policy.Policy` (``solve(graph).policy``, ``Policy.from_agent``);
* an agent: a function ``agent(state, options) -> index`` or an object with
  ``.policy(graph)`` (the :class:`~gamegraph.policy.Agent` protocol);
* a :class:`~gamegraph.solve.Solution`, which stands for its optimal policy;
* a name: ``"optimal"`` (the solution's policy, solved when none is given), or a key of
  the game's ``AGENTS``, the dict of named agents in the module that defines the rules'
  class (Jackpot's ``"hilo"``, Pig's ``"hold at 20"``, a user's own game's ``AGENTS``);
* where several are taken, a list of those (each named by its own name) or a dict
  ``{name: policy}``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import InvalidArgumentError, UnknownNameError
from ..graph import StateGraph
from ..policy import Agent, MarkovChain, Policy
from ..propagate import Propagation, propagate
from ..solve import Solution, evaluate, solve
from ..tables import Table, json_number
from ..values import option_worths, value_name

#: What a policy argument may be, for error messages.
ACCEPTED = (
    "a Policy, an agent (a function agent(state, options) or an object with .policy(graph)), "
    "a Solution, a name ('optimal' or one of the game's AGENTS), or a list or dict of them"
)


def game_agents(rules) -> dict:
    """The game's named agents: ``AGENTS`` in the module that defines the rules' class
    (or in its package), else an empty dict.

    Examples
    --------
    >>> from gamegraph.games.pig import Pig
    >>> list(game_agents(Pig(goal=10)))
    ['hold at 10', 'hold at 20', 'hold at 25']
    """
    module_name = type(rules).__module__
    for name in (module_name, module_name.rpartition(".")[0]):
        agents = getattr(sys.modules.get(name), "AGENTS", None)
        if isinstance(agents, dict):
            return agents
    return {}


def as_policy(
    graph: StateGraph, policy, *, solution: Solution | None = None, name: str | None = None
) -> Policy:
    """One policy argument as a :class:`~gamegraph.policy.Policy` of ``graph``.

    ``policy`` is anything listed in the module docstring but a list or dict; ``solution``
    is the optimum a name ``"optimal"`` stands for (solved in floats when not given);
    ``name`` renames the result. Raises InvalidArgumentError, in one line, for anything
    else or for a policy of another graph.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot(cells=3))
    >>> as_policy(graph, AGENTS["hilo"]).name, as_policy(graph, "max").name
    ('hilo', 'max')
    >>> as_policy(graph, "optimal").name
    'optimal'
    >>> as_policy(graph, "best")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown policy 'best'; accepted: optimal, min, max, ...
    >>> as_policy(graph, 3)
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: policy 3 (int): give a Policy, an agent ...
    """
    if isinstance(policy, (list, tuple, dict)):
        raise InvalidArgumentError(
            f"one policy is taken here, not a {type(policy).__name__}; give {_ONE}"
        )
    return _one(graph, policy, solution, name)


def as_policies(graph: StateGraph, policies, *, solution: Solution | None = None) -> dict:
    """Policy arguments as an ordered dict ``{name: Policy}`` of ``graph``.

    ``policies`` is one policy argument (see the module docstring), a list of them (each
    named by its own name: a Policy's or an agent's ``name``, a function's, the name
    given), a dict ``{name: policy}`` (the key names it), or None (no policies). Two
    policies of one name are refused: give a dict to name them apart.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot(cells=3))
    >>> list(as_policies(graph, [AGENTS["hilo"], "max", solve(graph).policy]))
    ['hilo', 'max', 'optimal']
    >>> {name: p.name for name, p in as_policies(graph, {"mine": AGENTS["min"]}).items()}
    {'mine': 'mine'}
    >>> list(as_policies(graph, AGENTS)) == list(AGENTS)
    True
    >>> as_policies(graph, ["max", AGENTS["max"]])
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: two policies are named 'max'; give a dict ...
    """
    if policies is None:
        return {}
    if isinstance(policies, dict):
        return {str(key): _one(graph, value, solution, str(key)) for key, value in policies.items()}
    if not isinstance(policies, (list, tuple)):
        policies = [policies]
    named: dict = {}
    for item in policies:
        if isinstance(item, (list, tuple, dict)):
            raise InvalidArgumentError(
                f"policies holds a {type(item).__name__}; give a list or dict of {_ONE}"
            )
        policy = _one(graph, item, solution, None)
        if policy.name in named:
            raise InvalidArgumentError(
                f"two policies are named {policy.name!r}; give a dict to name them apart"
            )
        named[policy.name] = policy
    return named


_ONE = ACCEPTED.removesuffix(", or a list or dict of them").replace(", a name", " or a name")


def _one(graph, policy, solution, name) -> Policy:
    """One policy argument as a Policy."""
    if isinstance(policy, str):
        if policy == "optimal":
            if solution is None:
                solution = solve(graph, exact=False)
            return _renamed(solution.policy, name or "optimal", graph)
        agents = game_agents(graph.rules)
        if policy not in agents:
            raise UnknownNameError("policy", policy, ["optimal", *agents])
        return Policy.from_agent(graph, agents[policy], name=name or policy)
    if isinstance(policy, Solution):
        if policy.graph is not graph:
            raise InvalidArgumentError("the solution given as a policy is of another graph")
        return _renamed(policy.policy, name or "optimal", graph)
    if isinstance(policy, Policy):
        return _renamed(policy, name, graph)
    if isinstance(policy, Agent) or (callable(policy) and not isinstance(policy, type)):
        if name is None:  # the game's own agents by their AGENTS name ("hilo", not agent_hilo)
            known = [key for key, agent in game_agents(graph.rules).items() if agent is policy]
            name = known[0] if known else getattr(policy, "name", None)
        return Policy.from_agent(graph, policy, name=name)
    raise InvalidArgumentError(f"policy {policy!r} ({type(policy).__name__}): give {_ONE}")


def _renamed(policy: Policy, name: str | None, graph: StateGraph) -> Policy:
    policy.check(graph)
    if name is None or name == policy.name:
        return policy
    return Policy(choice=policy.choice, name=name)


@dataclass(eq=False)
class PolicyComparison:
    """A policy measured against a solved game.

    Attributes
    ----------
    loss : ndarray
        For every outcome, how much value the policy's choice gives up against the best
        option (0 where it picks a best option or has no choice): the difference of the
        two options' worths (:func:`gamegraph.values.option_worths`: rewards included).
    differs : ndarray of bool
        Outcomes where the policy's choice differs from the solution's, ties included.
    """

    solution: Solution
    policy: Policy
    loss: np.ndarray
    differs: np.ndarray

    @property
    def suboptimal(self) -> np.ndarray:
        """Outcomes where the policy's choice is strictly worse than the best one (in
        floats: by more than 1e-12, times the size of the values in a score or margin
        game).
        """
        if self.solution.exact:
            return self.loss > 0
        tol = 1e-12
        values = self.solution.values
        if self.solution.graph.objective != "win" and len(values):
            tol *= max(1.0, float(np.max(np.abs(values))))
        return self.loss > tol

    def suboptimal_states(self) -> np.ndarray:
        """States with at least one outcome where the policy gives up value."""
        graph = self.solution.graph
        mask = np.zeros(graph.n_states, dtype=bool)
        mask[graph.outcome_state[self.suboptimal]] = True
        return mask

    def edge_mask(self, chain: MarkovChain) -> np.ndarray:
        """Chain edges taken at some outcome where the choice gives up value."""
        graph = self.solution.graph
        bad = self.suboptimal
        option = self.policy.chosen_option(graph)[bad]
        source = graph.outcome_state[bad]
        keys = set(zip(source.tolist(), graph.option_target[option].tolist()))
        return np.array(
            [(int(s), int(t)) in keys for s, t in zip(chain.edge_source, chain.edge_target)],
            dtype=bool,
        )

    def start_loss(self):
        """Value the policy gives up at the start (win probability, expected score or
        expected margin): the optimum's start value minus the policy's (one evaluation
        of the policy, cached).
        """
        if not hasattr(self, "_start_loss"):
            mine = evaluate(self.solution.graph, self.policy, exact=self.solution.exact)
            self._start_loss = self.solution.start_value - mine.start_value
        return self._start_loss

    def summary(self) -> Table:
        """Where the policy differs from the optimum, and what it costs, as a table."""
        graph = self.solution.graph
        decisions = int(np.count_nonzero(np.diff(graph.option_ptr) > 1))
        rows = [
            ("outcomes", graph.n_outcomes),
            ("outcomes with a choice", decisions),
            ("choices that differ (ties included)", int(np.count_nonzero(self.differs))),
            ("choices that give up value", int(np.count_nonzero(self.suboptimal))),
            ("positions that give up value", int(np.count_nonzero(self.suboptimal_states()))),
            ("largest loss at one choice", self.loss.max() if len(self.loss) else 0),
            (f"{value_name(graph)} lost at the start", self.start_loss()),
        ]
        if graph.objective == "win":
            rows.append(("lost at the start, in percentage points", 100 * float(self.start_loss())))
        return Table(("", "value"), rows, title=f"{self._name()} against the optimum")

    def _name(self) -> str:
        return self.policy.name or "policy"

    def __repr__(self) -> str:
        graph = self.solution.graph
        return (
            f"<PolicyComparison {self._name()!r} vs optimal: "
            f"{int(np.count_nonzero(self.suboptimal)):,} of {graph.n_outcomes:,} outcomes give "
            f"up value, at {int(np.count_nonzero(self.suboptimal_states())):,} positions>"
        )

    def _repr_html_(self) -> str:
        return self.summary().to_html()

    def better_moves(self) -> list[tuple[int, int, int]]:
        """(state, optimal target, move) for every outcome where the policy gives up value."""
        graph = self.solution.graph
        best = self.solution.policy.chosen_option(graph)
        result = set()
        for k in np.flatnonzero(self.suboptimal):
            j = best[k]
            result.add(
                (
                    int(graph.outcome_state[k]),
                    int(graph.option_target[j]),
                    int(graph.option_move[j]),
                )
            )
        return sorted(result)


def compare(solution: Solution, policy: Policy) -> PolicyComparison:
    """Measure ``policy`` against the optimal values in ``solution``.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> solution = solve(graph, exact=True)
    >>> hilo = compare(solution, Policy.from_agent(graph, AGENTS["hilo"]))
    >>> int(hilo.suboptimal.sum()) > 0, bool((hilo.loss >= 0).all())
    (True, True)
    """
    graph = solution.graph
    policy.check(graph)
    values = solution.values
    q = option_worths(graph, values)
    mine = solution.policy.chosen_option(graph)
    theirs = policy.chosen_option(graph)
    alive = theirs >= 0
    loss = np.zeros(graph.n_outcomes, dtype=values.dtype)
    if solution.exact:
        loss[:] = Fraction(0)
    loss[alive] = q[mine[alive]] - q[theirs[alive]]
    return PolicyComparison(solution=solution, policy=policy, loss=loss, differs=mine != theirs)


@dataclass(frozen=True)
class PolicyResult:
    """One row of a comparison: a policy and the start value under it.

    Attributes
    ----------
    name : str
    policy : Policy
    value : Fraction or float
        The start value for the player who moves first, in the game's objective: the win
        probability, the expected score or the expected margin.
    objective : str
        ``"win"``, ``"score"`` or ``"margin"``.
    """

    name: str
    policy: Policy
    value: Fraction | float
    objective: str = "win"

    @property
    def win(self) -> Fraction | float:
        """The win probability: :attr:`value` of a win game (InvalidArgumentError for a
        score or margin game, whose value is no probability).
        """
        self._check_win("win")
        return self.value

    @property
    def percent(self) -> float:
        """The win probability in percent (win games only, as :attr:`win`)."""
        self._check_win("percent")
        return 100 * float(self.value)

    def _check_win(self, what: str) -> None:
        if self.objective != "win":
            raise InvalidArgumentError(
                f"{what} is for win games; {self.name!r} is valued in a {self.objective} "
                "game: read .value"
            )

    def as_dict(self) -> dict:
        value = json_number(self.value)
        if self.objective != "win":
            return {"value": value, "objective": self.objective}
        return {"win": value, "percent": self.percent}


class PolicyTable(list):
    """The rows of :func:`compare_policies` (a list of :class:`PolicyResult`) that display
    as a table: each policy's start value, exact where it was solved exactly; in a win
    game the win probability and in percent, in a score or margin game the expected score
    or margin under the game's own name for it (:func:`gamegraph.values.value_name`).

    Examples
    --------
    >>> rows = PolicyTable([PolicyResult("a", None, Fraction(1, 3)),
    ...                     PolicyResult("b", None, Fraction(1, 2))])
    >>> rows
    <PolicyTable: 2 policies; best b 50.0000 %>
    >>> print(rows)
    policy  win probability  percent
    a                   1/3  33.3333 %
    b                   1/2  50.0000 %
    >>> rows[-1].name, "<td" in rows._repr_html_()
    ('b', True)
    """

    title = ""
    #: What the values are called (a table's column), and whether they are win chances.
    value_name = "win probability"
    objective = "win"

    def table(self, title: str | None = None) -> Table:
        """The rows as a :class:`~gamegraph.tables.Table`: policy, win probability and
        percent (a win game) or policy and value (score and margin games).
        """
        title = self.title if title is None else title
        if self.objective != "win":
            return Table(
                ("policy", self.value_name), [(row.name, row.value) for row in self], title=title
            )
        return Table(
            ("policy", self.value_name, "percent"),
            [(row.name, row.value, row.percent) for row in self],
            title=title,
            formats={"percent": lambda value: f"{value:.4f} %"},
        )

    def to_pandas(self):
        """The table as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.table().to_pandas()

    def _repr_html_(self) -> str:
        return self.table().to_html()

    def __str__(self) -> str:
        return self.table().to_text()

    def __repr__(self) -> str:
        if not self:
            return "<PolicyTable: no policies>"
        best = max(self, key=lambda row: row.value)
        shown = (
            f"{best.percent:.4f} %"
            if self.objective == "win"
            else f"{self.value_name} {float(best.value):.6g}"
        )
        return (
            f"<PolicyTable: {len(self)} {'policy' if len(self) == 1 else 'policies'}; "
            f"best {best.name} {shown}>"
        )


def compare_policies(
    graph: StateGraph, agents, *, exact: bool = True, solution: Solution | None = None
) -> PolicyTable:
    """Evaluate every agent in ``agents`` and the optimal policy on ``graph``.

    ``agents`` is a dict ``{name: agent or Policy}``, a list, or one policy argument
    (:func:`as_policies`). Returns a :class:`PolicyTable`: one :class:`PolicyResult` per
    agent, in the order given, then ``optimal``.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> rows = compare_policies(build(Jackpot()), AGENTS)
    >>> [(row.name, round(row.percent, 4)) for row in rows][-2:]
    [('hilo2', 7.9855), ('optimal', 7.9987)]
    """
    rows = PolicyTable()
    rows.objective, rows.value_name = graph.objective, value_name(graph)
    rows.title = f"{getattr(graph.rules, 'name', 'game').capitalize()}: {rows.value_name} by policy"
    if solution is None:
        solution = solve(graph, exact=exact)
    for name, policy in as_policies(graph, agents, solution=solution).items():
        if name != "optimal":
            value = evaluate(graph, policy, exact=exact).start_value
            rows.append(PolicyResult(name, policy, value, graph.objective))
    rows.append(PolicyResult("optimal", solution.policy, solution.start_value, graph.objective))
    return rows


def edge_flow(chain: MarkovChain, reach: Propagation) -> np.ndarray:
    """The probability that a game moves along each chain edge: reach(source) x p(edge).

    Exact (Fractions) when ``reach`` is, floats otherwise.

    Examples
    --------
    >>> from gamegraph import Policy, build
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> from gamegraph.propagate import propagate
    >>> graph = build(Jackpot(cells=3))
    >>> policy = Policy.from_agent(graph, AGENTS["max"])
    >>> chain = policy.chain(graph)
    >>> flow = edge_flow(chain, propagate(graph, policy, exact=True))
    >>> [str(f) for f in flow[chain.edge_source == 0]]  # the first throw: 6, 8, 13 of 36
    ['1/6', '2/9', '13/36']
    >>> into_win = flow[chain.edge_target == graph.state_number(7)]
    >>> str(sum(into_win))  # the win probability, 6396/46656
    '533/3888'
    """
    r = reach.reach_probability
    if reach.exact:
        d = chain.denominator
        return np.array(
            [r[s] * Fraction(int(w), d) for s, w in zip(chain.edge_source, chain.edge_weight)],
            dtype=object,
        )
    return np.asarray(r, dtype=float)[chain.edge_source] * chain.edge_probability


@dataclass(frozen=True)
class PolicyView:
    """What a diagram of a policy shows, computed once: its chain, reach, and losses.

    Attributes
    ----------
    chain : MarkovChain
        The graph under the policy (edges are the moves it takes, weighted by chance).
    reach : Propagation or None
        Forward propagation from the start, when asked for.
    comparison : PolicyComparison or None
        The policy against an optimal solution, when one was given.
    flow : ndarray or None
        With ``reach``: the probability that a game makes each chain edge's move
        (:func:`edge_flow`).
    lost : ndarray or None
        With ``reach``: the probability that the game ends stuck at each state (a throw
        with no option: lost, in a win game).
    """

    chain: MarkovChain
    reach: Propagation | None = None
    comparison: PolicyComparison | None = None
    flow: np.ndarray | None = None
    lost: np.ndarray | None = None

    @property
    def title(self) -> str:
        """A title for a diagram of this view: the game, the policy, and with reach its
        value: the win probability ("Jackpot: hilo (7.99 % wins)"), or the expected score
        or margin under the game's name for it ("... (expected score 4.25)").
        """
        graph = self.chain.graph
        game = str(getattr(graph.rules, "name", "game"))
        text = f"{game[:1].upper()}{game[1:]}: {self.chain.policy.name or 'policy'}"
        if self.reach is not None:
            value = float(self.reach.expected_value)
            if graph.objective == "win":
                text += f" ({100 * value:.2f} % wins)"
            else:
                text += f" ({value_name(graph)} {value:.4g})"
        return text

    def __repr__(self) -> str:
        extras = [
            name
            for name, value in (("reach", self.reach), ("comparison", self.comparison))
            if value is not None
        ]
        with_ = f" with {' and '.join(extras)}" if extras else ""
        return (
            f"<PolicyView of {self.chain.policy.name or 'a policy'!r}: "
            f"{self.chain.n_edges:,} moves{with_}>"
        )


def policy_view(
    graph: StateGraph, policy, *, reach: bool = False, optimal: Solution | None = None
) -> PolicyView:
    """The data a policy diagram draws (see :func:`gamegraph.renderers.dot.policy_dot`).

    ``policy`` is a Policy, an agent, a Solution or a name (:func:`as_policy`; the name
    ``"optimal"`` stands for ``optimal``'s policy). ``reach`` adds forward propagation of
    the start state's probability; ``optimal``, a solved game, adds how much value (win
    probability, expected score or margin) each of the policy's choices gives up.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> hilo = Policy.from_agent(graph, AGENTS["hilo"], name="hilo")
    >>> view = policy_view(graph, hilo, reach=True, optimal=solve(graph))
    >>> view.chain.n_edges > 0, round(float(view.reach.win_probability), 6)
    (True, 0.079855)
    >>> int(view.comparison.suboptimal.sum()) > 0
    True
    """
    policy = as_policy(graph, policy, solution=optimal)
    chain = policy.chain(graph)
    propagation = propagate(graph, policy) if reach else None
    return PolicyView(
        chain=chain,
        reach=propagation,
        comparison=compare(optimal, policy) if optimal is not None else None,
        flow=edge_flow(chain, propagation) if reach else None,
        lost=propagation.stuck[0] + propagation.stuck[1] if reach else None,
    )
