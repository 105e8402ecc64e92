r"""The library's value conventions, one per objective, written once.

A game's *objective* says what its values mean:

* ``"win"`` (the default): a state's value is the probability that the player to move
  wins. An option that keeps the turn is worth the value of its target; an option that
  passes the turn is worth :math:`1 - v(\text{target})`, because the opponent moves there.
* ``"score"``: one player; a state's value is the expected total of the rewards of the
  moves still to come plus the terminal value. An option is worth
  :math:`r + v(\text{target})`.
* ``"margin"``: two players, zero-sum; a state's value is the expected margin of the
  player to move. An option is worth :math:`r + v(\text{target})` if the turn stays and
  :math:`r - v(\text{target})` if it passes.

In every case an option is worth :math:`r + v` or :math:`r + c - v`, where :math:`c`
(:func:`pass_constant`) is 1 for ``"win"`` and 0 otherwise. Every solver, agent, table and
picture reads option values through :func:`passing_value` or :func:`option_values`, and
picks a best option through :func:`first_best`.

Examples
--------
>>> import numpy as np
>>> passing_value(np.array([0.25, 0.25]), np.array([False, True])).tolist()
[0.25, 0.75]
>>> first_best(np.array([0.1, 0.3, 0.3, 0.7, 0.2]), np.array([0, 3])).tolist()
[1, 0]
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .errors import InvalidArgumentError, UnknownNameError

#: The objectives a game may declare (:attr:`gamegraph.rules.Rules.objective`).
OBJECTIVES = ("win", "score", "margin")

#: What a value is called, per objective: for titles, table headings and hover text.
VALUE_NAMES = {"win": "win probability", "score": "expected score", "margin": "expected margin"}


def check_objective(objective, where="objective") -> str:
    """``objective`` if it is one of :data:`OBJECTIVES`; UnknownNameError naming them if not.

    >>> check_objective("score")
    'score'
    """
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise UnknownNameError(where, objective, OBJECTIVES)
    return objective


def objective_of(game) -> str:
    """The objective of a graph, solution or rules object (``"win"`` when it names none).

    >>> from gamegraph.games.pig import Pig
    >>> objective_of(Pig(goal=10))
    'win'
    """
    for holder in (game, getattr(game, "graph", None), getattr(game, "rules", None)):
        objective = getattr(holder, "objective", None)
        if isinstance(objective, str):
            return objective
    return "win"


def value_name(game) -> str:
    """What a value of ``game`` (graph, solution or rules) is called: "win probability",
    "expected score" or "expected margin"; a game may name its own (``value_name``
    attribute of its rules, such as "expected turns").

    >>> from gamegraph.games.pig import Pig
    >>> value_name(Pig(goal=10))
    'win probability'
    """
    for holder in (game, getattr(game, "graph", None)):
        rules = getattr(holder, "rules", None)
        named = getattr(rules, "value_name", None)
        if isinstance(named, str) and named:
            return named
    named = getattr(game, "value_name", None)
    if isinstance(named, str) and named:
        return named
    return VALUE_NAMES[objective_of(game)]


def pass_constant(objective: str) -> int:
    """The :math:`c` of :math:`r + c - v`, the worth of an option that passes the turn: 1 for
    ``"win"`` (the opponent's chance to win is the mover's chance to lose), 0 for the others.

    >>> pass_constant("win"), pass_constant("margin")
    (1, 0)
    """
    return 1 if check_objective(objective) == "win" else 0


def passing_value(target_values, passes, one=1.0):
    """Option values from their targets' values: ``one - v`` where the turn passes.

    Works on numpy arrays of floats and of Fractions (``one`` is then ``Fraction(1)``), and
    on plain scalars; ``1 - v`` is only computed where the turn passes.
    """
    if np.ndim(target_values) == 0:
        return one - target_values if passes else target_values
    q = np.array(target_values, copy=True)
    passes = np.asarray(passes, dtype=bool)
    if passes.any():
        q[passes] = one - q[passes]
    return q


def option_values(graph, values) -> np.ndarray:
    """The worth of every option of ``graph`` to the player choosing it, as floats.

    ``values`` holds one number per state; terminal states take the rules' terminal values.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.supersix import SuperSix
    >>> graph = build(SuperSix(pegs=4))
    >>> q = option_values(graph, np.full(graph.n_states, 0.25))
    >>> sorted(set(q[graph.option_passes].tolist()))     # passing options: 1 - 0.25
    [0.75]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.shape != (graph.n_states,):
        raise InvalidArgumentError(
            f"values must hold one number per state ({graph.n_states}), got shape {values.shape}"
        )
    v = np.where(graph.terminal, graph.terminal_value, values)[graph.option_target]
    q = passing_value(v, graph.option_passes, float(graph.pass_constant))
    reward = graph.option_reward
    return q if reward is None else q + reward


def option_worths(graph, values, options=None) -> np.ndarray:
    """The worth of options of ``graph`` to the player choosing them: all, or the option
    numbers ``options``; from ``values``, one per state (terminal states included), floats
    or an object array of Fractions (then the worths are Fractions too).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from gamegraph import build
    >>> from gamegraph.games.pig import Pig
    >>> graph = build(Pig(goal=4))
    >>> values = np.empty(graph.n_states, dtype=object)
    >>> values[:] = Fraction(1, 4)
    >>> sorted(set(option_worths(graph, values)))
    [Fraction(1, 4), Fraction(3, 4)]
    """
    exact = np.asarray(values).dtype == object
    targets, passes = graph.option_target, graph.option_passes
    if options is not None:
        targets, passes = targets[options], passes[options]
    c = graph.pass_constant
    q = passing_value(np.asarray(values)[targets], passes, Fraction(c) if exact else float(c))
    reward = graph.rewards(exact)
    if reward is not None:
        q = q + (reward if options is None else reward[options])
    return q


def first_best(q: np.ndarray, starts: np.ndarray, *, tol: float = 0.0) -> np.ndarray:
    """For each segment of ``q`` starting at ``starts``, the local index of its first best entry.

    Entries within ``tol`` of the segment's maximum count as best; ties go to the lowest
    index, so choices are reproducible. Every segment must be non-empty.
    """
    q = np.asarray(q)
    starts = np.asarray(starts, dtype=np.int64)
    if not len(starts):
        return np.zeros(0, dtype=np.int32)
    lengths = np.diff(np.append(starts, len(q)))
    owner = np.repeat(np.arange(len(starts)), lengths)
    best = np.maximum.reduceat(q, starts)
    local = np.arange(len(q)) - starts[owner]
    local = np.where(q >= best[owner] - tol, local, np.iinfo(np.int64).max)
    return np.minimum.reduceat(local, starts).astype(np.int32)
