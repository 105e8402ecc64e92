"""Policies side by side: the win probability of each agent and of the optimum."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .graph import StateGraph
from .policy import Policy
from .solve import Solution, evaluate, solve


@dataclass(frozen=True)
class PolicyResult:
    """One row of a comparison: a policy and the start player's win probability under it."""

    name: str
    policy: Policy
    win: Fraction | float

    @property
    def percent(self) -> float:
        return 100 * float(self.win)

    def as_dict(self) -> dict:
        win = (
            f"{self.win.numerator}/{self.win.denominator}"
            if isinstance(self.win, Fraction)
            else float(self.win)
        )
        return {"win": win, "percent": self.percent}


def compare_policies(
    graph: StateGraph, agents: dict, *, exact: bool = True, solution: Solution | None = None
) -> list[PolicyResult]:
    """Evaluate every agent in ``agents`` and the optimal policy on ``graph``.

    Returns one :class:`PolicyResult` per agent, in the order given, then ``optimal``.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> rows = compare_policies(build(Jackpot()), AGENTS)
    >>> [(row.name, round(row.percent, 4)) for row in rows][-2:]
    [('hilo2', 7.9855), ('optimal', 7.9987)]
    """
    rows = []
    for name, agent in agents.items():
        policy = Policy.from_agent(graph, agent, name=name)
        rows.append(PolicyResult(name, policy, evaluate(graph, policy, exact=exact).start_value))
    if solution is None:
        solution = solve(graph, exact=exact)
    rows.append(PolicyResult("optimal", solution.policy, solution.start_value))
    return rows
