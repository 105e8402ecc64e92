"""gamegraph: dice games as explicit state graphs, solved exactly and drawn.

The flow runs one way: rules -> :func:`build` -> :class:`StateGraph` ->
:func:`solve` / :func:`evaluate` / :func:`propagate` / :func:`simulate` ->
:mod:`gamegraph.analysis` (results) -> :mod:`gamegraph.renderers` (drawings) ->
:mod:`gamegraph.cli` (the ``gamegraph`` command).
"""

from . import _environment

# Under an address-space limit (ulimit -v), BLAS must not start a thread per core: set
# before numpy is imported (gamegraph._environment).
_environment.cap_blas_threads()

try:
    from .batch import BatchRules, Expansion
    from .build import build
    from .errors import (
        ConvergenceError,
        GameGraphError,
        InvalidArgumentError,
        InvalidRulesError,
        MissingExtraError,
        NonTerminatingGameError,
        OutputError,
        RenderError,
        UnknownNameError,
    )
    from .graph import StateGraph
    from .policy import MarkovChain, Policy
    from .rules import Option, Outcome, Rules, decision, throw
    from .solve import Solution, evaluate, solve
except (ImportError, MemoryError, OSError, SystemError) as _error:  # ulimit -v
    _environment.failed_to_start(_error)

__all__ = [
    "build",
    "StateGraph",
    "Rules",
    "BatchRules",
    "Expansion",
    "Option",
    "Outcome",
    "decision",
    "throw",
    "Policy",
    "MarkovChain",
    "solve",
    "evaluate",
    "Solution",
    "GameGraphError",
    "InvalidArgumentError",
    "UnknownNameError",
    "InvalidRulesError",
    "MissingExtraError",
    "ConvergenceError",
    "NonTerminatingGameError",
    "OutputError",
    "RenderError",
]
__version__ = "0.1.0"  # the one place the version is written; pyproject.toml reads it
