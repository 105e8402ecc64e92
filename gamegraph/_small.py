"""Small graphs without scipy or numba: strongly connected components and block solves.

Loading numba (with its compiled kernels from the disk cache) takes about 0.7 s and scipy's
sparse modules about 0.2 s, while a graph of a few thousand states is solved in
milliseconds (Pig to 10, 604 states: 10 ms; Super Six at 40 pegs, 4,116 states: 80 ms).
A graph of at most :data:`MAX_STATES` states whose cyclic components have at most
:data:`MAX_COMPONENT` states each is therefore condensed and solved with numpy alone
(:func:`gamegraph.solve.solve` and :func:`~gamegraph.solve.evaluate` with
``engine="auto"``); on larger graphs the compiled kernels are 10 to 25 times faster once
loaded.

* :func:`strong_components` is Tarjan's search in plain Python on lists (under a
  microsecond an edge), in place of scipy's ``connected_components``: it condenses every
  graph of at most :data:`SEARCH_MAX_STATES` states, which it does in less time than
  importing scipy takes (30 ms for Ur with two pieces, 12,870 states);
* :func:`solve_block_diagonal` solves the linear systems of policy iteration, one per
  cyclic component, as dense matrices, the components of one size stacked into one call
  of ``numpy.linalg.solve`` (LU with partial pivoting), in place of scipy's sparse LU.
"""

from __future__ import annotations

import numpy as np

from .errors import ConvergenceError

#: The most states of a graph solved without scipy or numba. Measured on a busy 2-core
#: machine: Super Six at 40 pegs (4,116 states) 80 ms, Pig to 20 (6,214) 26 ms, Super Six
#: at 60 pegs (9,756) 210 ms, against 0.7 s to load numba, after which the kernels solve
#: them 10 to 25 times faster: past a few thousand states a notebook solving many graphs
#: would lose more than a fresh process gains.
MAX_STATES = 5000
#: The most states of a cyclic component solved as a dense matrix on that path (LU's
#: work grows as the cube: Ur with two pieces has one of 1,454, 650 ms in all).
MAX_COMPONENT = 250
#: The most states of a graph whose components :func:`strong_components` finds.
SEARCH_MAX_STATES = 20_000


def strong_components(edge_ptr, target) -> tuple[int, np.ndarray]:
    """The strongly connected components of a graph: their number and each state's.

    Parameters
    ----------
    edge_ptr : ndarray
        State ``s``'s edges are ``edge_ptr[s]`` to ``edge_ptr[s + 1]`` (length n + 1).
    target : ndarray
        The state each edge leads to.

    Returns
    -------
    (count, component)
        Components are numbered from 0 in the order Tarjan's search closes them: a
        component's successors get smaller numbers.

    Examples
    --------
    A cycle 0 -> 1 -> 0 and a sink 2 it leads to:

    >>> count, component = strong_components(np.array([0, 1, 3, 3]), np.array([1, 0, 2]))
    >>> count, component.tolist()
    (2, [1, 1, 0])
    """
    ptr = np.asarray(edge_ptr).tolist()
    tgt = np.asarray(target).tolist()
    n = len(ptr) - 1
    index = [0] * n  # 0 until visited, then the order of the visit (from 1)
    low = [0] * n
    label = [-1] * n  # -1 while open: a visited state without a label is on the stack
    stack: list[int] = []
    visits = 1
    count = 0
    for root in range(n):
        if index[root]:
            continue
        index[root] = low[root] = visits
        visits += 1
        stack.append(root)
        path = [root]  # the depth-first path, and the next edge of each state on it
        cursor = [ptr[root]]
        while path:
            v = path[-1]
            j, end = cursor[-1], ptr[v + 1]
            while j < end:
                w = tgt[j]
                j += 1
                if not index[w]:  # go down to w
                    cursor[-1] = j
                    index[w] = low[w] = visits
                    visits += 1
                    stack.append(w)
                    path.append(w)
                    cursor.append(ptr[w])
                    break
                if label[w] < 0 and index[w] < low[v]:
                    low[v] = index[w]
            else:  # v's edges are done: close its component if it roots one, go up
                path.pop()
                cursor.pop()
                if low[v] == index[v]:
                    while True:
                        w = stack.pop()
                        label[w] = count
                        if w == v:
                            break
                    count += 1
                if path and low[v] < low[path[-1]]:
                    low[path[-1]] = low[v]
    return count, np.array(label, dtype=np.int64)


def solve_block_diagonal(rows, cols, coefficients, b, group) -> np.ndarray:
    """Solve ``A x = b`` where ``A[rows[i], cols[i]] += coefficients[i]`` and A is block
    diagonal: unknown ``i`` belongs to block ``group[i]``, and no entry joins two blocks.

    Each block is solved as a dense matrix; blocks of one size are stacked into one call of
    ``numpy.linalg.solve``. A singular block (a policy under which play never leaves it)
    raises ConvergenceError, as :func:`gamegraph.linear.solve_sparse` does.

    Examples
    --------
    Two blocks: ``{0, 2}`` with ``x0 - x2/2 = 1/2, x2 = 1``, and ``{1}`` with ``2 x1 = 1``.

    >>> solve_block_diagonal([0, 0, 2, 1], [0, 2, 2, 1], [1.0, -0.5, 1.0, 2.0],
    ...                      [0.5, 1.0, 1.0], np.array([7, 3, 7])).tolist()
    [1.0, 0.5, 1.0]
    """
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    coefficients = np.asarray(coefficients, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    m = len(b)
    order = np.argsort(group, kind="stable")
    ordered = np.asarray(group)[order]
    starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    sizes = np.diff(np.append(starts, m))
    block = np.empty(m, dtype=np.int64)
    block[order] = np.repeat(np.arange(len(starts)), sizes)
    slot = np.empty(m, dtype=np.int64)  # each unknown's place within its block
    slot[order] = np.arange(m) - np.repeat(starts, sizes)
    x = np.empty(m)
    entry_size = sizes[block[rows]]
    unknown_size = sizes[block]
    for size in sorted(set(sizes.tolist())):
        batch = np.full(len(sizes), -1, dtype=np.int64)  # block -> its place in the stack
        same = np.flatnonzero(sizes == size)
        batch[same] = np.arange(len(same))
        here = np.flatnonzero(entry_size == size)
        flat = (batch[block[rows[here]]] * size + slot[rows[here]]) * size + slot[cols[here]]
        matrices = np.bincount(flat, weights=coefficients[here], minlength=len(same) * size**2)
        mine = np.flatnonzero(unknown_size == size)
        rhs = np.zeros((len(same), size, 1))
        rhs[batch[block[mine]], slot[mine], 0] = b[mine]
        try:
            solution = np.linalg.solve(matrices.reshape(len(same), size, size), rhs)
        except np.linalg.LinAlgError:
            solution = np.full_like(rhs, np.nan)
        x[mine] = solution[batch[block[mine]], slot[mine], 0]
    if not np.all(np.isfinite(x)):
        raise ConvergenceError(
            "singular system: under this policy some states never reach the end of the game"
        )
    return x
