"""Results built from solutions: policy comparisons, distributions, match play, maps.

The layer between the algorithms (solve, propagate, simulate) and the renderers: what a
picture or a report shows is computed here, where tests and notebooks can reach it too.
"""

from .policies import (
    PolicyComparison,
    PolicyResult,
    PolicyView,
    compare,
    compare_policies,
    policy_view,
)

__all__ = [
    "PolicyComparison",
    "PolicyResult",
    "PolicyView",
    "compare",
    "compare_policies",
    "policy_view",
]
