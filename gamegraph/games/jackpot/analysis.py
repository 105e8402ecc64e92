"""What the ``gamegraph jackpot`` commands compute, as results that print and serialise.

- :func:`compare_agents`: every agent's exact win probability and the optimum's
  (``jackpot analyse``), an :class:`AgentComparison`;
- :func:`simulate_agent`: seeded Monte Carlo games of one policy beside its exact value
  (``jackpot simulate``), an :class:`AgentSimulation`;
- :func:`jackpot_drawing`: what a diagram of one policy shows, the whole game or a view
  of it (``jackpot graph``, the gallery's Jackpot diagrams), a :class:`JackpotDrawing`
  that :func:`gamegraph.renderers.dot.policy_dot` or
  :func:`~gamegraph.renderers.dot.policy_diff_dot` draws;
- :func:`compare_layers`: layer by layer, where each policy's games go and end
  (``jackpot layers``), a :class:`~gamegraph.analysis.LayerSummary`.

A policy is named as on the command line: one of :data:`~.agents.AGENTS` or
``"optimal"`` (:func:`agent_policy`).

Examples
--------
>>> print(compare_agents().to_text())  # doctest: +ELLIPSIS
Jackpot, 512 positions: exact win probability of each policy
<BLANKLINE>
policy                  win probability    percent
min       ...
optimal   ...   7.9987 %
>>> jackpot_drawing("hilo", "threshold").title
'Jackpot: hilo (7.9855 % wins)'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...analysis import (
    LayerSummary,
    PolicyDiff,
    PolicyView,
    Selection,
    compare_policies,
    layer_summary,
    likely_paths,
    neighbourhood,
    policy_diff,
    policy_view,
    reach_above,
)
from ...analysis.policies import PolicyTable
from ...build import build
from ...errors import InvalidArgumentError, UnknownNameError
from ...graph import StateGraph
from ...policy import Policy
from ...simulate import SimulationResult, simulate
from ...solve import Solution, evaluate, solve
from ...tables import format_value, fraction_text
from .agents import AGENTS
from .rules import Jackpot, parse_position

#: The policies by name: the six agents and the optimum.
POLICIES = (*AGENTS, "optimal")
#: What :func:`jackpot_drawing` draws: every position, the most likely games, the positions
#: reached often enough, one position's neighbourhood, or the costly decisions.
VIEWS = ("full", "likely", "threshold", "around", "diff")
#: The games the ``likely`` view draws unless told otherwise.
DEFAULT_PATHS = 10
#: The least reach the ``threshold`` view draws unless told otherwise.
DEFAULT_MIN_REACH = 0.02
#: Moves the ``around`` view draws before and after the position unless told otherwise.
DEFAULT_DEPTH = 2
#: The most moves the ``around`` view draws on each side of the position.
MAX_DEPTH = 50
#: The policies :func:`compare_layers` compares unless told otherwise.
LAYER_POLICIES = ("min", "last", "hilo", "optimal")


def agent_policy(graph: StateGraph, name: str, solution: Solution | None = None) -> Policy:
    """The policy ``name`` on Jackpot's ``graph``: an agent of :data:`AGENTS`, or
    ``"optimal"`` (from ``solution``, else solved exactly).

    >>> graph = build(Jackpot())
    >>> agent_policy(graph, "hilo").name
    'hilo'
    """
    if name == "optimal":
        return (solution or solve(graph, exact=True)).policy
    if name not in AGENTS:
        raise UnknownNameError("agent", name, POLICIES)
    return Policy.from_agent(graph, AGENTS[name], name=name)


@dataclass(eq=False)
class AgentComparison:
    """Every agent's exact win probability and the optimum's: what ``jackpot analyse``
    prints (:meth:`to_text`) and writes as JSON (:meth:`as_dict`).
    """

    graph: StateGraph
    rows: PolicyTable

    def as_dict(self) -> dict:
        return {
            "game": "jackpot",
            "states": self.graph.n_states,
            "agents": {row.name: row.as_dict() for row in self.rows},
        }

    def to_text(self) -> str:
        lines = [
            f"Jackpot, {self.graph.n_states} positions: exact win probability of each policy",
            "",
            f"{'policy':<9} {'win probability':>30}   {'percent':>8}",
        ]
        for row in self.rows:
            lines.append(f"{row.name:<9} {format_value(row.win):>30}   {row.percent:>8.4f} %")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        best = max(self.rows, key=lambda row: row.win)
        return f"<AgentComparison {len(self.rows)} policies, best {best.name} {best.percent:.4f} %>"


def compare_agents(graph: StateGraph | None = None) -> AgentComparison:
    """The six agents and the optimal policy, each valued exactly (``graph``: Jackpot's,
    built when not given).

    >>> compare_agents()
    <AgentComparison 7 policies, best optimal 7.9987 %>
    """
    graph = build(Jackpot()) if graph is None else graph
    return AgentComparison(graph, compare_policies(graph, AGENTS, exact=True))


@dataclass(eq=False)
class AgentSimulation:
    """Seeded Monte Carlo games of one policy beside its exact win probability: what
    ``jackpot simulate`` prints (:meth:`to_text`) and writes as JSON (:meth:`as_dict`).
    """

    agent: str
    seed: int
    result: SimulationResult
    exact: Fraction

    @property
    def inside(self) -> bool:
        """Whether the exact value lies in the estimate's 95 % interval."""
        low, high = self.result.interval()
        return low <= self.exact <= high

    def as_dict(self) -> dict:
        result = self.result
        low, high = result.interval()
        return {
            "game": "jackpot",
            "agent": self.agent,
            "games": result.games,
            "seed": self.seed,
            "wins": result.wins,
            "unfinished": result.unfinished,
            "estimate": result.estimate,
            "interval95": [low, high],
            "exact": fraction_text(self.exact),
            "exact_percent": 100 * float(self.exact),
            "seconds": result.seconds,
        }

    def to_text(self) -> str:
        result = self.result
        low, high = result.interval()
        text = (
            f"{self.agent}: won {int(result.wins):,} of {result.games:,} games = "
            f"{100 * result.estimate:.4f} % (95 % interval {100 * low:.4f} .. {100 * high:.4f} %)\n"
            f"exact {100 * float(self.exact):.4f} % "
            f"({'inside' if self.inside else 'OUTSIDE'} the interval); "
            f"seed {self.seed}; {result.seconds:.2f} s, "
            f"{result.games / max(result.seconds, 1e-9):,.0f} games/s\n"
        )
        return text + (f"{result.note}\n" if result.unfinished else "")

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return (
            f"<AgentSimulation {self.agent}: {100 * self.result.estimate:.4f} % of "
            f"{self.result.games:,} games, exact {100 * float(self.exact):.4f} %>"
        )


def simulate_agent(
    agent: str, *, games: int, seed: int, progress: bool | None = None
) -> AgentSimulation:
    """Play ``games`` seeded games of the policy ``agent`` and value it exactly.

    >>> simulate_agent("hilo", games=1000, seed=1)  # doctest: +ELLIPSIS
    <AgentSimulation hilo: ... % of 1,000 games, exact 7.9855 %>
    """
    graph = build(Jackpot(), progress=progress)
    optimum = solve(graph, exact=True, progress=progress) if agent == "optimal" else None
    policy = agent_policy(graph, agent, optimum)
    result = simulate(graph, policy, games=games, seed=seed, progress=progress)
    exact = evaluate(graph, policy, exact=True, progress=progress).start_value
    return AgentSimulation(agent, seed, result, exact)


class NotReachedError(InvalidArgumentError):
    """The position of an ``around`` view is one the policy never reaches."""


@dataclass(eq=False)
class JackpotDrawing:
    """What a diagram of one Jackpot policy shows.

    Attributes
    ----------
    graph : StateGraph
    agent : str
        The policy's name.
    view : str
        One of :data:`VIEWS`.
    win : Fraction
        The policy's exact win probability.
    drawn : PolicyView or None
        The policy's chain and reach (every view but ``diff``).
    selection : Selection or None
        The part of the game drawn (None: the whole game, or the ``diff`` view).
    diff : PolicyDiff or None
        The ``diff`` view's costly decisions against the optimum.
    """

    graph: StateGraph
    agent: str
    view: str
    win: Fraction
    drawn: PolicyView | None = None
    selection: Selection | None = None
    diff: PolicyDiff | None = None

    @property
    def percent(self) -> str:
        return f"{100 * float(self.win):.4f} %"

    @property
    def title(self) -> str:
        """The diagram's title: ``'Jackpot: hilo (7.9855 % wins)'``."""
        return f"Jackpot: {self.agent} ({self.percent} wins)"

    def as_dict(self) -> dict:
        states = None if self.selection is None else len(self.selection.states)
        return {
            "game": "jackpot",
            "agent": self.agent,
            "view": self.view,
            "win": fraction_text(self.win),
            "percent": 100 * float(self.win),
            "states_drawn": states,
        }

    def __repr__(self) -> str:
        part = "" if self.selection is None else f", {len(self.selection.states)} positions"
        return f"<JackpotDrawing {self.agent}, view {self.view}: {self.percent} wins{part}>"


def jackpot_drawing(
    agent: str = "hilo",
    view: str = "full",
    *,
    paths: int | None = None,
    min_reach: float | None = None,
    around: int | str | None = None,
    depth: int | None = None,
    graph: StateGraph | None = None,
    solution: Solution | None = None,
    policy: Policy | None = None,
) -> JackpotDrawing:
    """What the diagram of policy ``agent`` shows in ``view``.

    Parameters
    ----------
    agent : str
        A name of :data:`POLICIES`; with ``policy`` given, only the policy's name.
    view : str
        ``full``: every position; ``likely``: the ``paths`` most likely games (default
        :data:`DEFAULT_PATHS`); ``threshold``: the positions reached with at least
        ``min_reach`` (default :data:`DEFAULT_MIN_REACH`); ``around``: the moves within
        ``depth`` of the position ``around`` (default :data:`DEFAULT_DEPTH`); ``diff``: the
        decisions where the policy gives up win probability against the optimum.
    around : int or str
        A position (its bit mask) or its cells still open (:func:`.rules.parse_position`).
    graph, solution, policy
        What the caller has computed already (Jackpot's graph, its exact solution, the
        policy); computed when not given.

    Raises
    ------
    NotReachedError
        The ``around`` position is one the policy never reaches.

    Examples
    --------
    >>> jackpot_drawing("hilo", "around", around="2579")
    <JackpotDrawing hilo, view around: 7.9855 % wins, 26 positions>
    """
    if view not in VIEWS:
        raise UnknownNameError("view", view, VIEWS)
    graph = build(Jackpot()) if graph is None else graph
    if view == "around":
        if around is None:
            raise InvalidArgumentError("the around view needs a position (around=...)")
        if isinstance(around, str):
            around = parse_position(around, graph.rules)
        state = graph.state_number(around)
    if solution is None and (view == "diff" or (agent == "optimal" and policy is None)):
        solution = solve(graph, exact=True)
    policy = agent_policy(graph, agent, solution) if policy is None else policy
    win = evaluate(graph, policy, exact=True).start_value
    if view == "diff":
        diff = policy_diff(solution, policy, name=agent)
        return JackpotDrawing(graph, agent, view, win, diff=diff)
    drawn = policy_view(graph, policy, reach=True)
    selection = None
    if view == "likely":
        selection = likely_paths(drawn.chain, paths or DEFAULT_PATHS)
    elif view == "threshold":
        selection = reach_above(drawn.chain, drawn.reach, min_reach or DEFAULT_MIN_REACH)
    elif view == "around":
        if drawn.reach.reach_probability[state] == 0:
            raise NotReachedError(f"{agent} never reaches that position")
        selection = neighbourhood(drawn.chain, state, depth or DEFAULT_DEPTH)
    return JackpotDrawing(graph, agent, view, win, drawn, selection)


def compare_layers(policies=LAYER_POLICIES, graph: StateGraph | None = None) -> LayerSummary:
    """Layer by layer, for each named policy (repeated names once, in order): positions
    reached, reach probability, lost and won, exactly.

    >>> compare_layers(["hilo"]).policies
    ('hilo',)
    """
    graph = build(Jackpot()) if graph is None else graph
    names = list(dict.fromkeys(policies))
    solution = solve(graph, exact=True) if "optimal" in names else None
    return layer_summary(
        graph, {name: agent_policy(graph, name, solution) for name in names}, exact=True
    )
