"""Results built from solutions: policy comparisons, distributions, match play, maps.

The layer between the algorithms (solve, propagate, simulate) and the renderers: what a
picture or a report shows is computed here, where tests and notebooks can reach it too.
"""

from .duel import DuelResult, DuelSimulation, duel, seated_graph, simulate_duel
from .explore import Exploration, explore_graph
from .layers import LayerSummary, layer_summary
from .policies import (
    PolicyComparison,
    PolicyResult,
    PolicyView,
    as_policies,
    as_policy,
    compare,
    compare_policies,
    edge_flow,
    policy_view,
)
from .pruning import (
    DecisionCost,
    GamePath,
    PolicyDiff,
    Selection,
    decision_costs,
    likely_paths,
    neighbourhood,
    outcome_costs,
    policy_diff,
    reach_above,
)

__all__ = [
    "DuelResult",
    "DuelSimulation",
    "duel",
    "seated_graph",
    "simulate_duel",
    "Exploration",
    "explore_graph",
    "LayerSummary",
    "PolicyComparison",
    "PolicyResult",
    "PolicyView",
    "as_policies",
    "as_policy",
    "compare",
    "compare_policies",
    "layer_summary",
    "policy_view",
    # pruning: what the readable Jackpot diagrams keep
    "DecisionCost",
    "GamePath",
    "PolicyDiff",
    "Selection",
    "decision_costs",
    "edge_flow",
    "likely_paths",
    "neighbourhood",
    "outcome_costs",
    "policy_diff",
    "reach_above",
]
