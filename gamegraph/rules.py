"""How a game states its rules, so that :func:`gamegraph.build` can explore it.

Every non-terminal state offers a list of :class:`Outcome` s: a chance event followed by
a choice. Each outcome has an exact probability and a tuple of :class:`Option` s the
player may pick; an option names the successor state and says whether the turn passes to
the other side. An outcome with no options is a dead end: the player to move has lost.

The same shape holds a decision *before* chance and any mix of the two within a turn:
:func:`decision` is a state where the player chooses with nothing thrown (one certain
outcome, its options the choices), and :func:`throw` is a state where chance alone moves
the game (every outcome has one option). Pig's "roll or hold, then the die" is a
decision state whose "roll" leads to a throw state.

What a value means is the game's *objective* (:attr:`Rules.objective`, see
:mod:`gamegraph.values`):

* ``"win"`` (the default): the value of a state is the probability that the player to
  move wins, terminal values lie in [0, 1], and an option that passes the turn is worth
  ``1 - v(target)``. Options carry no reward.
* ``"score"``: one player collects the :attr:`Option.reward` of every move taken plus the
  terminal value, and the value is the expected total. Rewards and terminal values are
  any finite numbers (a negative reward is a cost: -1 per turn counts turns). No option
  passes the turn.
* ``"margin"``: two players, zero-sum; the value is the expected margin (what the mover
  gains minus what the opponent gains from here on). An option is worth its reward plus
  ``v(target)`` when the turn stays, and its reward minus ``v(target)`` when it passes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import NamedTuple

from .errors import InvalidRulesError


class Option(NamedTuple):
    """One choice after a throw.

    Parameters
    ----------
    target : hashable
        The state the choice leads to.
    move : int
        A small integer naming the move (a cell flipped, a piece moved); -1 if unnamed.
        It must fit in 32 bits.
    passes : bool
        True when the turn passes to the other side after this choice: a real bool
        (:func:`gamegraph.build` refuses ``"no"``, 0 or 1).
    reward : int, Fraction or float
        What the player choosing this option gains by it, in games whose objective is
        ``"score"`` or ``"margin"`` (a negative reward is a cost). A float is taken at its
        exact binary value, as probabilities are. A ``"win"`` game's options have none.

    Examples
    --------
    >>> Option("bank", passes=True)
    Option(target='bank', move=-1, passes=True)
    >>> Option("hold", reward=Fraction(7, 2))
    Option(target='hold', move=-1, passes=False, reward=Fraction(7, 2))
    """

    target: Hashable
    move: int = -1
    passes: bool = False
    reward: object = 0

    def __repr__(self) -> str:
        shown = f"target={self.target!r}, move={self.move!r}, passes={self.passes!r}"
        if not (type(self.reward) is int and self.reward == 0):
            shown += f", reward={self.reward!r}"
        return f"Option({shown})"


class Outcome(NamedTuple):
    """One result of a throw: its exact probability and the options it offers, in order.

    ``probability`` is an int, Fraction or finite float in (0, 1] (a float is taken at its
    exact binary value), and a state's probabilities sum to exactly 1; ``options`` is a
    tuple of :class:`Option`, empty when the mover is stuck. :func:`gamegraph.build` checks
    both and raises :class:`~gamegraph.errors.InvalidRulesError` naming the state.
    """

    probability: Fraction
    options: tuple[Option, ...]


#: The probability of a certain event, shared so that builds see one object.
CERTAIN = Fraction(1)


def decision(*options: Option) -> list[Outcome]:
    """The outcomes of a state where the player chooses before (or without) any throw.

    One certain outcome whose options are the choices, in order.

    Examples
    --------
    >>> decision(Option("roll"), Option("bank", passes=True))  # doctest: +NORMALIZE_WHITESPACE
    [Outcome(probability=Fraction(1, 1),
             options=(Option(target='roll', move=-1, passes=False),
                      Option(target='bank', move=-1, passes=True)))]
    """
    return [Outcome(CERTAIN, options)]


def throw(*chances) -> list[Outcome]:
    """The outcomes of a state where chance alone moves the game: no choice after it.

    Each argument is a pair ``(probability, option)``, the option being an
    :class:`Option` or just a target state (kept turn, move -1). Pairs that lead to the
    same option are not merged: each stays its own outcome.

    Examples
    --------
    >>> half = Fraction(1, 2)
    >>> [len(o.options) for o in throw((half, "heads"), (half, Option("tails", passes=True)))]
    [1, 1]
    """
    for chance in chances:
        if not isinstance(chance, tuple) or len(chance) != 2:
            raise InvalidRulesError(f"throw() takes (probability, option) pairs, not {chance!r}")
    return [
        Outcome(p, (option if isinstance(option, Option) else Option(option),))
        for p, option in chances
    ]


class Rules(ABC):
    """The rules of a game. Subclass it and implement the three abstract methods.

    Examples
    --------
    A coin-flip race: heads wins, tails passes the turn to the opponent.

    >>> from fractions import Fraction
    >>> class CoinRace(Rules):
    ...     name = "coin race"
    ...     def start(self):
    ...         return "play"
    ...     def terminal_value(self, state):
    ...         return Fraction(1) if state == "won" else None
    ...     def outcomes(self, state):
    ...         half = Fraction(1, 2)
    ...         return [Outcome(half, (Option("won"),)),
    ...                 Outcome(half, (Option("play", passes=True),))]
    >>> CoinRace().terminal_value("won")
    Fraction(1, 1)
    """

    name: str = "game"
    #: What the values mean: ``"win"``, ``"score"`` or ``"margin"`` (see the module docstring).
    objective: str = "win"

    @abstractmethod
    def start(self) -> Hashable:
        """The state the game starts in."""

    @abstractmethod
    def terminal_value(self, state) -> Fraction | None:
        """The value of a terminal state for the player to move there (in [0, 1] for the
        ``"win"`` objective, any finite number for ``"score"`` and ``"margin"``); None if
        the game goes on.
        """

    @abstractmethod
    def outcomes(self, state) -> Sequence[Outcome]:
        """The outcomes of the next throw from a non-terminal state."""

    def roots(self):
        """Every state the graph must contain besides those reachable from the start.

        Defaults to just the start. A game whose tables cover positions the start cannot
        reach (Super Six lists every (b, c, o)) returns them here.
        """
        return (self.start(),)

    def label(self, state) -> str:
        """Readable text for a state (used in diagrams and messages)."""
        return str(state)

    def layer(self, state) -> int | None:
        """The layer a state belongs to in a layered drawing, or None if the game has none."""
        return None

    def build_graph(self):
        """A :class:`~gamegraph.graph.StateGraph` made by the game's own vectorised code, or None.

        :func:`gamegraph.build` uses it when it returns a graph and otherwise explores the
        rules state by state (the default).
        """
        return None

    def move_label(self, move: int) -> str:
        """Readable text for a move number."""
        return str(move)
