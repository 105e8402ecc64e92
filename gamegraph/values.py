r"""The library's one value convention, written once.

A state's value is the probability that the player to move wins. An option that keeps
the turn is worth the value of its target; an option that passes the turn is worth
:math:`1 - v(\text{target})`, because the opponent moves there. Every solver, agent,
table and picture reads option values through :func:`passing_value` or
:func:`option_values`, and picks a best option through :func:`first_best`.

Examples
--------
>>> import numpy as np
>>> passing_value(np.array([0.25, 0.25]), np.array([False, True])).tolist()
[0.25, 0.75]
>>> first_best(np.array([0.1, 0.3, 0.3, 0.7, 0.2]), np.array([0, 3])).tolist()
[1, 0]
"""

from __future__ import annotations

import numpy as np

from .errors import InvalidArgumentError


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
    return passing_value(v, graph.option_passes)


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
