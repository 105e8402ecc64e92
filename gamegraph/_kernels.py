r"""Compiled kernels (numba, optional): the condensation and the float Bellman solve.

The numpy solver (:mod:`gamegraph.solve`) works level by level on whole arrays; on graphs
with thousands of small levels or components its time goes to per-call overhead. These
kernels walk the same arrays state by state in compiled code, on one core:

* :func:`condense` finds the strongly connected components with an iterative Tarjan
  search. Tarjan closes a component only after every component it leads to, so each
  component's height (longest path to a sink) is known when it is closed: the search
  keeps it as it goes, from the edges to closed components.
* :func:`solve` applies the Bellman operator component by component, in order of height.
  A state alone in its component takes one backup. A cyclic component is first copied
  into small local arrays that stay in cache: its own states renumbered from 0, every
  option that leaves it replaced by its solved value (a constant), and every outcome
  whose options all leave it folded into one constant per state (Super Six's pit), so
  that sweeps touch only the edges inside the component. It is then solved by
  Gauss-Seidel value iteration from 0.5, its states swept in depth-first post-order
  (successors before predecessors, except along the edges that close a cycle), each
  backup using the values updated earlier in the same sweep. A sweep changes
  no value by more than :math:`\delta_k`; with :math:`\rho` the larger of the last two
  ratios :math:`\delta_k / \delta_{k-1}`, the distance to the fixed point is about
  :math:`\delta_k \rho / (1 - \rho)`, and the sweeps stop once that is below
  ``tol / 100`` (or the changes are rounding noise: at most two units in the last place,
  or no smaller than the sweep before and below 1e-14). When the changes shrink at a
  steady ratio :math:`r` (three sweeps agreeing to 3 %), the values are moved to the
  limit of that geometric series, :math:`v + d\,r / (1 - r)`, and the sweeps go on from
  there: in Pig, where a bust hands the turn back and forth, the changes alternate in
  sign at :math:`r \approx -0.7` and this cuts 176 sweeps to 17. A component that has
  not settled after ``max_sweeps`` sweeps is handed back to the caller's ``fallback``;
  the kernel then resumes with the next component. A last pass takes the greedy choice
  at every outcome (the first option within ``tol`` of the best, as
  :func:`gamegraph.values.first_best`) and the residual :math:`\max_s |(Tv)(s) - v(s)|`.
* :func:`sure_to_end` checks that a policy ends the game from every state, the quick
  path of the solver's termination checks: at once when every state of a cycle has an
  outcome that leaves its component whatever is chosen, otherwise by two breadth-first
  searches over the policy's edges.

numba is imported when a kernel is first called, never at import, and the compiled code
is cached on disk (``cache=True``): the first call of an installation compiles (a few
seconds), later processes load the cache.

Examples
--------
>>> import numpy as np
>>> if available():  # a two-state cycle 0 <-> 1 and a sink 2
...     component, cyclic, levels = condense(
...         3, np.array([0, 1, 2, 2]), np.array([0, 2, 3]), np.array([1, 2, 0]))
...     print([level.tolist() for level in levels], cyclic[component].tolist())
... else:
...     print([[2], [0, 1]], [True, True, False])
[[2], [0, 1]] [True, True, False]
"""

from __future__ import annotations

import importlib.util
import math

import numpy as np

from ._extras import require

_compiled = False


def available() -> bool:
    """Whether numba is installed, so that the compiled kernels can run."""
    return importlib.util.find_spec("numba") is not None


def _compile() -> None:
    """Replace the kernels below by their numba versions (compiled or loaded from cache)."""
    global _compiled
    if _compiled:
        return
    numba = require("numba", "the compiled solver engine", "fast")
    module = globals()
    # Helpers first: a kernel finds the compiled helper under the same global name.
    # _backup is inlined into its callers: a call per state would count references to
    # every array it is passed, which took most of the time.
    module["_backup"] = numba.njit(cache=True, inline="always")(_backup)
    for name in (
        "_tarjan", "_solving_order", "_gather", "_postorder", "_solve", "_final", "_escapes",
        "_spread", "_sure",
    ):  # fmt: skip
        module[name] = numba.njit(cache=True)(module[name])
    _compiled = True


# ---------------------------------------------------------------------------
# Kernels (plain Python until _compile() swaps in their numba versions)
# ---------------------------------------------------------------------------
def _tarjan(n, outcome_ptr, option_ptr, target):  # pragma: no cover - runs compiled
    component = np.full(n, -1, dtype=np.int64)
    index = np.full(n, -1, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    cursor = np.zeros(n, dtype=np.int64)
    on_stack = np.zeros(n, dtype=np.bool_)
    stack = np.zeros(n, dtype=np.int64)
    calls = np.zeros(n, dtype=np.int64)
    cyclic = np.zeros(n, dtype=np.bool_)
    height = np.zeros(n, dtype=np.int64)
    reach = np.zeros(n, dtype=np.int64)  # 1 + the greatest height among closed successors
    loop = np.zeros(n, dtype=np.bool_)  # an edge to itself
    top = 0
    depth = 0
    counter = 0
    n_comp = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = counter
        low[root] = counter
        counter += 1
        cursor[root] = option_ptr[outcome_ptr[root]]
        stack[top] = root
        top += 1
        on_stack[root] = True
        calls[depth] = root
        depth += 1
        while depth > 0:
            v = calls[depth - 1]
            if cursor[v] < option_ptr[outcome_ptr[v + 1]]:
                w = target[cursor[v]]
                cursor[v] += 1
                if index[w] < 0:
                    index[w] = counter
                    low[w] = counter
                    counter += 1
                    cursor[w] = option_ptr[outcome_ptr[w]]
                    stack[top] = w
                    top += 1
                    on_stack[w] = True
                    calls[depth] = w
                    depth += 1
                elif on_stack[w]:  # w is in v's component
                    if index[w] < low[v]:
                        low[v] = index[w]
                    if w == v:
                        loop[v] = True
                elif height[component[w]] + 1 > reach[v]:  # a closed component below
                    reach[v] = height[component[w]] + 1
                continue
            depth -= 1
            if low[v] == index[v]:
                # v roots a component: the stack above it, down to v.
                first = top - 1
                while stack[first] != v:
                    first -= 1
                c = n_comp
                n_comp += 1
                h = 0
                for i in range(first, top):
                    component[stack[i]] = c
                    on_stack[stack[i]] = False
                    h = max(h, reach[stack[i]])
                height[c] = h
                cyclic[c] = top - first > 1 or loop[v]
                top = first
            if depth > 0:
                u = calls[depth - 1]
                if low[v] < low[u]:
                    low[u] = low[v]
                if component[v] >= 0 and height[component[v]] + 1 > reach[u]:
                    reach[u] = height[component[v]] + 1  # v's component is closed
    return component, cyclic[:n_comp].copy(), height[:n_comp].copy()


def _solving_order(component, comp_height, skip):  # pragma: no cover - runs compiled
    """States grouped by component, components by height; ``skip`` states left out."""
    n = len(component)
    n_comp = len(comp_height)
    size = np.zeros(n_comp + 1, dtype=np.int64)
    for s in range(n):
        if not skip[s]:
            size[component[s] + 1] += 1
    levels = 0
    for c in range(n_comp):
        if comp_height[c] + 1 > levels:
            levels = comp_height[c] + 1
    per_level = np.zeros(levels + 1, dtype=np.int64)
    for c in range(n_comp):
        per_level[comp_height[c] + 1] += 1
    for h in range(levels):
        per_level[h + 1] += per_level[h]
    comps = np.zeros(n_comp, dtype=np.int64)  # components by height
    for c in range(n_comp):
        comps[per_level[comp_height[c]]] = c
        per_level[comp_height[c]] += 1
    start = np.zeros(n_comp, dtype=np.int64)  # where each component's states go
    comp_ptr = np.zeros(n_comp + 1, dtype=np.int64)
    for i in range(n_comp):
        c = comps[i]
        start[c] = comp_ptr[i]
        comp_ptr[i + 1] = comp_ptr[i] + size[c + 1]
    order = np.zeros(comp_ptr[n_comp], dtype=np.int64)
    for s in range(n):
        if not skip[s]:
            c = component[s]
            order[start[c]] = s
            start[c] += 1
    return order, comp_ptr, comps


def _backup(s, outcome_ptr, weight, denominator, option_ptr, target, passes, values, choice, fixed):
    """(T v)(s), or with ``fixed`` the value of the policy's ``choice``."""
    total = 0.0  # pragma: no cover - runs compiled
    for k in range(outcome_ptr[s], outcome_ptr[s + 1]):
        a = option_ptr[k]
        if fixed:
            c = choice[k]
            if c < 0:
                continue
            best = values[target[a + c]]
            if passes[a + c]:
                best = 1.0 - best
        else:
            b = option_ptr[k + 1]
            if a == b:
                continue
            best = -np.inf
            for j in range(a, b):
                q = values[target[j]]
                if passes[j]:
                    q = 1.0 - q
                if q > best:
                    best = q
        total += weight[k] * best
    return total / denominator


def _gather(
    c, states, component, where, outcome_ptr, weight, denominator, option_ptr, target, passes,
    values, choice, fixed, base, l_first, l_weight, l_opt, l_target, l_passes, lv,
):  # fmt: skip
    """Copy cyclic component ``c`` (its ``states``) into the local arrays ``l_*``.

    Local state u is ``states[u]``; each local outcome keeps its options, those inside the
    component as local state numbers, those outside as constants (their solved values,
    the pass already applied) stored after the states in ``lv``. An outcome with every
    option outside adds a constant, ``weight * best``, to ``base[u]``. With ``fixed`` only
    the chosen option of each outcome is kept. Returns the length of ``lv`` used.
    """
    m = len(states)  # pragma: no cover - runs compiled
    for u in range(m):
        where[states[u]] = u
    nk = 0
    nj = 0
    ne = m
    l_opt[0] = 0
    for u in range(m):
        s = states[u]
        l_first[u] = nk
        total = 0.0
        for k in range(outcome_ptr[s], outcome_ptr[s + 1]):
            j0, j1 = option_ptr[k], option_ptr[k + 1]
            if fixed:
                if choice[k] < 0:
                    continue
                j0 += choice[k]
                j1 = j0 + 1
            elif j0 == j1:
                continue
            inside = False
            for j in range(j0, j1):
                if component[target[j]] == c:
                    inside = True
                    break
            if not inside:
                best = -np.inf
                for j in range(j0, j1):
                    q = values[target[j]]
                    if passes[j]:
                        q = 1.0 - q
                    if q > best:
                        best = q
                total += weight[k] * best
                continue
            l_weight[nk] = weight[k] / denominator
            for j in range(j0, j1):
                t = target[j]
                if component[t] == c:
                    l_target[nj] = where[t]
                    l_passes[nj] = passes[j]
                else:
                    q = values[t]
                    lv[ne] = 1.0 - q if passes[j] else q
                    l_target[nj] = ne
                    l_passes[nj] = False
                    ne += 1
                nj += 1
            nk += 1
            l_opt[nk] = nj
        base[u] = total / denominator
    l_first[m] = nk
    return ne


def _postorder(m, l_first, l_opt, l_target, post, visited, cursor, calls):
    """The local states 0 .. m-1 in depth-first post-order, into ``post`` (successors
    before predecessors, except along the edges that close a cycle).
    """
    for u in range(m):  # pragma: no cover - runs compiled
        visited[u] = False
    filled = 0
    for root in range(m):
        if visited[root]:
            continue
        visited[root] = True
        cursor[root] = l_opt[l_first[root]]
        calls[0] = root
        depth = 1
        while depth > 0:
            v = calls[depth - 1]
            if cursor[v] < l_opt[l_first[v + 1]]:
                w = l_target[cursor[v]]
                cursor[v] += 1
                if w < m and not visited[w]:
                    visited[w] = True
                    cursor[w] = l_opt[l_first[w]]
                    calls[depth] = w
                    depth += 1
            else:
                post[filled] = v
                filled += 1
                depth -= 1


def _solve(
    order, comp_ptr, comps, cyclic, component, outcome_ptr, weight, denominator, option_ptr,
    target, passes, values, choice, fixed, tol, max_sweeps, first,
):  # fmt: skip
    """Solve components ``first``, ``first + 1``, ... in place in ``values``.

    Component i (``comps[i]``) holds states ``order[comp_ptr[i]:comp_ptr[i + 1]]``; the
    components come in solving order. A cyclic component is copied into small local
    arrays first (:func:`_gather`), so that its sweeps read memory that stays in cache and
    skip the outcomes whose options all lie outside it.

    Returns (next, sweeps): ``next`` is the number of components solved, or the position of
    one that did not settle in ``max_sweeps`` sweeps (then < len(comps)); ``sweeps`` the
    most any cyclic component needed.
    """
    n = len(values)  # pragma: no cover - runs compiled
    most = 0
    stop = tol * 0.01
    largest = 1
    outcomes = 1
    options = 1
    for i in range(first, len(comps)):
        if not cyclic[comps[i]]:
            continue
        largest = max(largest, comp_ptr[i + 1] - comp_ptr[i])
        k_sum = 0
        j_sum = 0
        for r in range(comp_ptr[i], comp_ptr[i + 1]):
            s = order[r]
            k_sum += outcome_ptr[s + 1] - outcome_ptr[s]
            j_sum += option_ptr[outcome_ptr[s + 1]] - option_ptr[outcome_ptr[s]]
        outcomes = max(outcomes, k_sum)
        options = max(options, j_sum)
    where = np.zeros(n, dtype=np.int64)
    now = np.zeros(largest)  # each state's change in this sweep and the one before
    before = np.zeros(largest)
    base = np.zeros(largest)
    l_first = np.zeros(largest + 1, dtype=np.int64)
    l_weight = np.zeros(outcomes)
    l_opt = np.zeros(outcomes + 1, dtype=np.int64)
    l_target = np.zeros(options, dtype=np.int64)
    l_passes = np.zeros(options, dtype=np.bool_)
    lv = np.zeros(largest + options)
    post = np.zeros(largest, dtype=np.int64)
    visited = np.zeros(largest, dtype=np.bool_)
    cursor = np.zeros(largest, dtype=np.int64)
    calls = np.zeros(largest, dtype=np.int64)
    for i in range(first, len(comps)):
        a, b = comp_ptr[i], comp_ptr[i + 1]
        if not cyclic[comps[i]]:
            for r in range(a, b):
                s = order[r]
                values[s] = _backup(
                    s, outcome_ptr, weight, denominator, option_ptr, target, passes, values,
                    choice, fixed,
                )  # fmt: skip
            continue
        m = b - a
        states = order[a:b]
        _gather(
            comps[i], states, component, where, outcome_ptr, weight, denominator, option_ptr,
            target, passes, values, choice, fixed, base, l_first, l_weight, l_opt, l_target,
            l_passes, lv,
        )  # fmt: skip
        _postorder(m, l_first, l_opt, l_target, post, visited, cursor, calls)
        for u in range(m):
            lv[u] = 0.5
            now[u] = 0.0
        previous = np.inf
        rate = 1.0
        signed = old = older = 0.0
        sweeps = 0
        since = 0  # sweeps since the last extrapolation
        while True:
            sweeps += 1
            since += 1
            delta = 0.0
            peak = 0
            for q in range(m):
                u = post[q]
                new = base[u]
                for k in range(l_first[u], l_first[u + 1]):
                    best = -np.inf
                    for j in range(l_opt[k], l_opt[k + 1]):
                        v = lv[l_target[j]]
                        if l_passes[j]:
                            v = 1.0 - v
                        if v > best:
                            best = v
                    new += l_weight[k] * best
                before[u] = now[u]
                now[u] = new - lv[u]
                change = abs(new - lv[u])
                if change > delta:
                    delta = change
                    peak = u
                lv[u] = new
            if delta <= 4.5e-16 or (delta <= 1e-14 and delta >= previous):
                break  # settled, or rounding noise
            ratio = delta / previous
            estimate = max(rate, ratio)
            rate = ratio
            previous = delta
            if since >= 3 and estimate < 1.0 and delta * estimate <= stop * (1.0 - estimate):
                break
            if sweeps >= max_sweeps:
                return i, most
            # Once the changes shrink at a steady ratio r (the slowest mode of the component
            # dominates), the values move along a geometric series: jump to its limit,
            # v + d r / (1 - r), and go on sweeping from there to confirm it.
            older, old = old, signed
            signed = now[peak] / before[peak] if before[peak] != 0.0 else 0.0
            steady = 0.03 * abs(signed)
            if (
                since >= 4
                and 0.0 < abs(signed) < 0.98
                and abs(signed - old) <= steady
                and abs(old - older) <= steady
            ):
                factor = signed / (1.0 - signed)
                for u in range(m):
                    lv[u] += now[u] * factor
                since = 0
                previous = np.inf
                rate = 1.0
        for u in range(m):
            values[states[u]] = lv[u]
        if sweeps > most:
            most = sweeps
    return len(comps), most


def _final(
    outcome_ptr, weight, denominator, option_ptr, target, passes, terminal, values, choice,
    fixed, tol,
):  # fmt: skip
    """The greedy choices (unless ``fixed``) and the residual max |Tv - v|."""
    residual = 0.0  # pragma: no cover - runs compiled
    for s in range(len(terminal)):
        if terminal[s]:
            continue
        if not fixed:
            for k in range(outcome_ptr[s], outcome_ptr[s + 1]):
                a, b = option_ptr[k], option_ptr[k + 1]
                best = -np.inf
                for j in range(a, b):
                    q = values[target[j]]
                    if passes[j]:
                        q = 1.0 - q
                    if q > best:
                        best = q
                choice[k] = -1
                for j in range(a, b):
                    q = values[target[j]]
                    if passes[j]:
                        q = 1.0 - q
                    if q >= best - tol:
                        choice[k] = j - a
                        break
        new = _backup(
            s, outcome_ptr, weight, denominator, option_ptr, target, passes, values, choice,
            fixed,
        )  # fmt: skip
        residual = max(residual, abs(new - values[s]))
    return residual


def _escapes(outcome_ptr, option_ptr, target, weight, terminal, component, cyclic, choice):
    """Whether every policy that chooses at every outcome surely ends the game: every
    state that is not terminal has an outcome, ``choice`` chooses wherever there are
    options, and every state of a cyclic component has an outcome of positive weight
    whose options all leave that component (so each step may leave it, whatever the
    choice, and play cannot stay in it for ever).
    """
    for s in range(len(terminal)):  # pragma: no cover - runs compiled
        k0, k1 = outcome_ptr[s], outcome_ptr[s + 1]
        if terminal[s]:
            continue
        if k0 == k1:
            return False
        c = component[s]
        escape = not cyclic[c]
        for k in range(k0, k1):
            if option_ptr[k] < option_ptr[k + 1] and choice[k] < 0:
                return False
            if escape or weight[k] <= 0:
                continue
            leaves = True
            for j in range(option_ptr[k], option_ptr[k + 1]):
                if component[target[j]] == c:
                    leaves = False
                    break
            escape = leaves
        if not escape:
            return False
    return True


def _sure(outcome_ptr, option_ptr, target, terminal, choice):
    """Per state, whether play under ``choice`` surely ends (see :func:`sure_to_end`)."""
    n = len(terminal)  # pragma: no cover - runs compiled
    ending = np.zeros(n, dtype=np.bool_)  # terminal, or an outcome without options
    bad = np.zeros(n, dtype=np.bool_)  # an outcome with options but no choice
    count = np.zeros(n + 1, dtype=np.int64)  # reversed edges, CSR by target
    for s in range(n):
        if terminal[s]:
            ending[s] = True
        for k in range(outcome_ptr[s], outcome_ptr[s + 1]):
            if option_ptr[k] == option_ptr[k + 1]:
                ending[s] = True
            elif choice[k] < 0:
                bad[s] = True
            else:
                count[target[option_ptr[k] + choice[k]] + 1] += 1
    for t in range(n):
        count[t + 1] += count[t]
    source = np.zeros(count[n], dtype=np.int64)
    fill = count[:n].copy()
    for s in range(n):
        for k in range(outcome_ptr[s], outcome_ptr[s + 1]):
            if option_ptr[k] < option_ptr[k + 1] and choice[k] >= 0:
                t = target[option_ptr[k] + choice[k]]
                source[fill[t]] = s
                fill[t] += 1
    queue = np.zeros(n, dtype=np.int64)
    # 1. the states that can reach an end at all
    reach = ending.copy()
    _spread(reach, count, source, queue)
    # 2. the states that can reach one that cannot end (or has no choice) are not sure
    unsure = bad | ~reach
    _spread(unsure, count, source, queue)
    return ~unsure


def _spread(marked, count, source, queue):
    """Mark, in place, every state with a path to a marked one (a breadth-first search
    backwards along the reversed edges ``source[count[t] : count[t + 1]]`` into ``t``).
    """
    tail = 0  # pragma: no cover - runs compiled
    for s in range(len(marked)):
        if marked[s]:
            queue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        t = queue[head]
        head += 1
        for e in range(count[t], count[t + 1]):
            s = source[e]
            if not marked[s]:
                marked[s] = True
                queue[tail] = s
                tail += 1


# ---------------------------------------------------------------------------
# The Python side
# ---------------------------------------------------------------------------
def _ints(a):
    return np.ascontiguousarray(a, dtype=np.int64)


def condense(n, outcome_ptr, option_ptr, target):
    """Components of a graph given as arrays, and its solving levels.

    Parameters
    ----------
    n : int
        Number of states.
    outcome_ptr, option_ptr, target : ndarray
        The graph's CSR arrays (see :mod:`gamegraph.graph`).

    Returns
    -------
    (component, cyclic, levels)
        As the fields of :class:`gamegraph.structure.Condensation`: components are numbered
        sinks first (Tarjan's order), states within a level ascend.
    """
    _compile()
    component, cyclic, height = _tarjan(n, _ints(outcome_ptr), _ints(option_ptr), _ints(target))
    state_height = height[component]
    counts = np.bincount(state_height, minlength=int(height.max(initial=-1)) + 1)
    order = np.argsort(state_height, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(counts)])
    levels = [order[bounds[h] : bounds[h + 1]] for h in range(len(counts))]
    return component, cyclic, levels


def sure_to_end(graph, choice):
    """Per state, whether play under ``choice`` (one option index per outcome) ends the
    game with probability one: as :func:`gamegraph.structure.sure_to_end` on the whole
    graph, in two breadth-first searches over the policy's edges; or at once, all True,
    when every state of a cycle has an outcome that leaves its component whatever is
    chosen (Super Six: the pit), so that no policy can keep the game going for ever.
    """
    _compile()
    outcome_ptr, option_ptr = _ints(graph.outcome_ptr), _ints(graph.option_ptr)
    target, choice = _ints(graph.option_target), _ints(choice)
    terminal = np.ascontiguousarray(graph.terminal, dtype=np.bool_)
    condensation = graph.condensation
    component = _ints(condensation.component)
    cyclic = np.ascontiguousarray(condensation.cyclic, dtype=np.bool_)
    weight = np.ascontiguousarray(graph.outcome_weight, dtype=np.float64)
    if _escapes(outcome_ptr, option_ptr, target, weight, terminal, component, cyclic, choice):
        return np.ones(len(terminal), dtype=np.bool_)  # every cycle can be left at each step
    return _sure(outcome_ptr, option_ptr, target, terminal, choice)


def solve(
    graph,
    values,
    choice,
    *,
    fixed: bool,
    tol: float,
    max_sweeps: int,
    fallback=None,
):
    """Solve a float graph in place: ``values`` of every state and, unless ``fixed``, the
    greedy ``choice`` at every outcome.

    Parameters
    ----------
    graph : StateGraph
        Read for its arrays and its ``condensation`` only.
    values : ndarray of float64
        Terminal values on entry (read), every value on return.
    choice : ndarray of int32
        One option index per outcome: read with ``fixed``, written otherwise.
    fixed : bool
        Evaluate ``choice`` instead of maximising.
    tol : float
        Ties within ``tol`` go to the first option; cyclic components are swept until
        their estimated error is below ``tol / 100``.
    max_sweeps : int
        Sweeps allowed per cyclic component before it goes to ``fallback``.
    fallback : callable, optional
        ``fallback(states)`` solves the states of one component in place in ``values``
        (their successors outside it are solved). Without one, a component that does not
        settle raises ``RuntimeError``.

    Returns
    -------
    (sweeps, residual)
        The most sweeps any cyclic component took (0 for a DAG) and max |Tv - v|.
    """
    _compile()
    condensation = graph.condensation
    height = np.zeros(condensation.n_components, dtype=np.int64)
    for h, level in enumerate(condensation.levels):
        height[condensation.component[level]] = h
    component = _ints(condensation.component)
    outcome_ptr, option_ptr = _ints(graph.outcome_ptr), _ints(graph.option_ptr)
    target = _ints(graph.option_target)
    passes = np.ascontiguousarray(graph.option_passes, dtype=np.bool_)
    terminal = np.ascontiguousarray(graph.terminal, dtype=np.bool_)
    cyclic = np.ascontiguousarray(condensation.cyclic, dtype=np.bool_)
    weight = np.ascontiguousarray(graph.outcome_weight, dtype=np.float64)
    denominator = float(graph.denominator)
    order, comp_ptr, comps = _solving_order(component, height, terminal)
    most = 0
    first = 0
    while first < len(comps):
        first, sweeps = _solve(
            order, comp_ptr, comps, cyclic, component, outcome_ptr, weight, denominator,
            option_ptr, target, passes, values, choice, fixed, float(tol), int(max_sweeps),
            first,
        )  # fmt: skip
        most = max(most, sweeps)
        if first < len(comps):
            if fallback is None:
                raise RuntimeError("a cyclic component did not settle")
            fallback(np.sort(order[comp_ptr[first] : comp_ptr[first + 1]]))
            first += 1
    residual = _final(
        outcome_ptr, weight, denominator, option_ptr, target, passes, terminal, values, choice,
        fixed, float(tol),
    )  # fmt: skip
    return most, float(residual) if math.isfinite(residual) else residual
