"""What the mathematical-programming cross-checks need from Super Six's graph.

The blog solved Super Six as a linear program with one constraint per roll-or-stop
choice, that is per outcome of a throw; :mod:`gamegraph.mathprog` reports its
per-outcome quantities (slack, relative error) in the same way. These functions map them
back onto the positions (b, c, o) they decide, so they can be tabulated and drawn like
the decision table.

Examples
--------
>>> from gamegraph import build
>>> from gamegraph.games.supersix import SuperSix
>>> graph = build(SuperSix(pegs=4))
>>> outcomes = np.arange(graph.n_outcomes)
>>> b, c, o, most = by_position(graph, outcomes, np.ones(graph.n_outcomes))
>>> [f"{x}/{y}/{z}" for x, y, z, m in zip(b, c, o, most) if not m]  # no throw leads there
['0/1/3', '0/2/2', '0/3/1']
"""

from __future__ import annotations

import numpy as np

from .notation import play_positions
from .state import CONTINUE


def decision_positions(graph, outcomes) -> np.ndarray:
    """For outcomes offering roll-or-stop, the state number of the position decided.

    The position after a throw that shed a peg is the target of the CONTINUE option;
    this maps per-outcome quantities (such as a linear program's slack) onto (b, c, o).
    Outcomes without a CONTINUE option map to -1.
    """
    outcomes = np.asarray(outcomes, dtype=np.int64)
    starts, stops = graph.option_ptr[outcomes], graph.option_ptr[outcomes + 1]
    result = np.full(len(outcomes), -1, dtype=np.int64)
    two = stops - starts >= 2
    first = starts[two]
    is_continue = graph.option_move[first] == CONTINUE
    result[np.flatnonzero(two)[is_continue]] = graph.option_target[first[is_continue]]
    return result


def by_position(graph, outcomes, per_outcome):
    """Spread a per-outcome quantity onto the normal-play positions it decides.

    Returns aligned arrays ``b, c, o, value``: for every normal-play position, the
    largest value among the roll-or-stop outcomes deciding it (0 where none does). Used
    to draw a linear program's per-outcome error the way the blog did.
    """
    position = decision_positions(graph, outcomes)
    value = np.zeros(graph.n_states)
    hit = position >= 0
    np.maximum.at(value, position[hit], np.asarray(per_outcome, dtype=float)[hit])
    rows, b, c, o = play_positions(graph)
    return b, c, o, value[rows]
