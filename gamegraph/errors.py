"""The exceptions gamegraph raises.

Every error the library raises on purpose derives from :class:`GameGraphError`, so a
caller can catch one type. Errors about bad input also derive from :class:`ValueError`.
"""


class GameGraphError(Exception):
    """Base class of every error gamegraph raises on purpose."""


class InvalidArgumentError(GameGraphError, ValueError):
    """A parameter is out of range or of the wrong kind; the message says what is accepted."""


class UnknownNameError(InvalidArgumentError):
    """A name (agent, style, rule set, output format) is not one of the accepted names."""

    def __init__(self, kind, name, accepted):
        self.kind = kind
        self.name = name
        self.accepted = tuple(accepted)
        super().__init__(f"unknown {kind} {name!r}; accepted: {', '.join(map(str, self.accepted))}")


class InvalidRulesError(GameGraphError):
    """A game's rules are inconsistent (for example chance weights that do not sum to one)."""


class ConvergenceError(GameGraphError, RuntimeError):
    """An iterative solve stopped at its iteration cap before reaching the tolerance."""


class NonTerminatingGameError(ConvergenceError):
    """Play from some states would never reach the end of the game, so they have no value.

    Raised by :func:`gamegraph.solve.solve` when no choice of moves ends the game from some
    states, or when optimal play would keep it going for ever, and by
    :func:`gamegraph.solve.evaluate` when the given policy never ends it. The message
    names a few of those states and how many there are; ``states`` holds their numbers.
    """

    def __init__(self, message, states=()):
        super().__init__(message)
        self.states = tuple(states)


class OutputError(GameGraphError, OSError):
    """A result could not be written where it was asked to go."""


class RenderError(GameGraphError):
    """Graphviz could not be found or failed to lay out a diagram."""


class MissingExtraError(GameGraphError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it.

    >>> str(MissingExtraError("matplotlib", "drawing a figure"))
    'drawing a figure needs matplotlib: pip install "gamegraph[render]"'
    """

    def __init__(self, package: str, purpose: str, extra: str = "render"):
        self.package = package
        self.extra = extra
        super().__init__(f'{purpose} needs {package}: pip install "gamegraph[{extra}]"')
        self.name = package
