"""gamegraph: dice games as explicit state graphs, solved exactly and drawn.

The flow runs one way: rules -> :func:`build` -> :class:`StateGraph` ->
:func:`solve` / :func:`evaluate` / :func:`propagate` / :func:`simulate` ->
:mod:`gamegraph.analysis` (results) -> :mod:`gamegraph.renderers` (drawings) ->
:mod:`gamegraph.cli` (the ``gamegraph`` command).

``import gamegraph`` loads only the errors: every other name is imported from its module
each time it is used (the first time loads it), so that ``gamegraph --help`` loads no
numpy, and a notebook only what it uses.
"""

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING

from . import _environment
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

# Under an address-space limit (ulimit -v), BLAS must not start a thread per core: set
# before numpy is imported (gamegraph._environment).
_environment.cap_blas_threads()

if TYPE_CHECKING:
    from .batch import BatchRules, Expansion
    from .build import build
    from .graph import StateGraph
    from .policy import MarkovChain, Policy
    from .rules import Option, Outcome, Rules, decision, throw
    from .solve import Solution, evaluate, solve

#: The module each public name other than the errors is imported from.
_HOMES = {
    "BatchRules": "batch",
    "Expansion": "batch",
    "build": "build",
    "StateGraph": "graph",
    "MarkovChain": "policy",
    "Policy": "policy",
    "Option": "rules",
    "Outcome": "rules",
    "Rules": "rules",
    "decision": "rules",
    "throw": "rules",
    "Solution": "solve",
    "evaluate": "solve",
    "solve": "solve",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Not kept here: the name follows its module's (a test that replaces solve.solve for a
    # while replaces gamegraph.solve for as long, not for the rest of the session).
    try:
        return getattr(import_module(f"{__name__}.{home}"), name)
    except (ImportError, MemoryError, OSError, SystemError) as error:  # ulimit -v
        _environment.failed_to_start(error)


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


class _Package(types.ModuleType):
    """The package, whose attributes ``build`` and ``solve`` are the functions.

    The import system binds each submodule it loads to the package's attribute of that
    name; the modules ``gamegraph.build`` and ``gamegraph.solve`` must not take the place
    of the functions (they stay in ``sys.modules``).
    """

    def __setattr__(self, name: str, value) -> None:
        if name in _HOMES and getattr(value, "__name__", None) == f"{__name__}.{name}":
            return  # the submodule, not the name imported from it
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
