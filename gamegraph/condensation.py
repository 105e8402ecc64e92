"""Strongly connected components of a state graph, grouped into solving levels.

A state's value depends only on the states its options lead to. Condensing the graph
into strongly connected components (SCCs) gives a DAG of components; a component's
*height* is the length of the longest path from it to a sink of that DAG. Every
component of height h depends only on components of smaller height, so solving the
levels h = 0, 1, 2, ... in turn visits each state once, and all components of one level
can be solved together, vectorised. A component is *cyclic* when it has more than one
state or a state with an option back to itself; only those need iteration or a linear
solve. A DAG such as Jackpot has no cyclic components at all.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _kernels, _small
from .csr import expand_ranges

#: Graphs with at least this many states are condensed by the compiled kernel when numba
#: is installed (below it scipy is as quick, and numba's import is not worth it).
KERNEL_MIN_STATES = 50_000


@dataclass(frozen=True)
class Condensation:
    """Components of a graph and the order to solve them in.

    Attributes
    ----------
    component : ndarray
        Component number of every state.
    cyclic : ndarray of bool
        Whether each component needs a fixed-point (more than one state, or a self-loop).
    levels : list of ndarray
        State numbers by component height: ``levels[0]`` holds the sinks (terminal
        states among them); solve in this order, propagate forward in reverse.
    """

    component: np.ndarray
    cyclic: np.ndarray
    levels: list

    @property
    def n_components(self) -> int:
        return len(self.cyclic)


def condense(graph) -> Condensation:
    """Find the SCCs of ``graph`` and sort its states into solving levels.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot
    >>> c = build(Jackpot(cells=3)).condensation
    >>> [len(level) for level in c.levels], bool(c.cyclic.any())
    ([1, 3, 3, 1], False)
    """
    n = graph.n_states
    if n >= KERNEL_MIN_STATES and _kernels.available():
        component, cyclic, levels = _kernels.condense(
            n, graph.outcome_ptr, graph.option_ptr, graph.option_target
        )
        return Condensation(component=component, cyclic=cyclic, levels=levels)
    sources = graph.outcome_state[graph.option_outcome]
    targets = graph.option_target
    if n <= _small.SEARCH_MAX_STATES:  # in Python: less time than importing scipy
        n_comp, component = _small.strong_components(graph.option_ptr[graph.outcome_ptr], targets)
    else:
        from scipy.sparse import csr_matrix  # here, not at import: scipy takes 0.2 s to load
        from scipy.sparse.csgraph import connected_components

        adjacency = csr_matrix(
            (np.ones(len(targets), dtype=np.int8), (sources, targets)), shape=(n, n)
        )
        n_comp, component = connected_components(adjacency, directed=True, connection="strong")

    sizes = np.bincount(component, minlength=n_comp)
    cyclic = sizes > 1
    self_loops = sources[sources == targets]
    cyclic[component[self_loops]] = True

    # Edges of the component DAG, without duplicates.
    cs, ct = component[sources], component[targets]
    between = cs != ct
    pairs = np.unique(cs[between].astype(np.int64) * n_comp + ct[between])
    up, down = pairs // n_comp, pairs % n_comp
    out_degree = np.bincount(up, minlength=n_comp)
    # Predecessor lists, CSR by the lower component.
    order = np.argsort(down, kind="stable")
    pred = up[order]
    pred_ptr = np.concatenate([[0], np.cumsum(np.bincount(down, minlength=n_comp))])

    height = np.full(n_comp, -1, dtype=np.int64)
    frontier = np.flatnonzero(out_degree == 0)
    h = 0
    while len(frontier):
        height[frontier] = h
        above = pred[expand_ranges(pred_ptr[frontier], pred_ptr[frontier + 1])]
        # Touch only the components just reached: O(edges) over all levels, not O(n * levels).
        candidates, hits = np.unique(above, return_counts=True)
        out_degree[candidates] -= hits
        frontier = candidates[out_degree[candidates] == 0]
        h += 1

    state_height = height[component]
    order = np.argsort(state_height, kind="stable")
    bounds = np.searchsorted(state_height[order], np.arange(h + 1))
    levels = [order[bounds[i] : bounds[i + 1]] for i in range(h)]
    return Condensation(component=component, cyclic=cyclic, levels=levels)
