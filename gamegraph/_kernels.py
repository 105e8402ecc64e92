r"""Compiled kernels (numba, optional): the condensation and the float Bellman solve.

The numpy solver (:mod:`gamegraph.solve`) works level by level on whole arrays; on graphs
with thousands of small levels or components its time goes to per-call overhead. These
kernels walk the same arrays state by state in compiled code, on one core:

* :func:`condense` finds the strongly connected components with an iterative Tarjan
  search (Pearce's variant: one number per state serves as its visiting index while its
  component is open and as the component's number once closed). Tarjan closes a
  component only after every component it leads to, so each component's height (longest
  path to a sink) is known when it is closed: the search keeps it as it goes, from the
  edges to closed components.
* :func:`solve` applies the Bellman operator component by component, in order of height.
  A state alone in its component takes one backup. A cyclic component is first copied
  into small local arrays that stay in cache: its own states renumbered from 0, every
  option that leaves it replaced by its solved value (a constant), and every outcome
  whose options all leave it folded into one constant per state (Super Six's pit), so
  that the work on it touches only the edges inside the component.

  A component of at least 512 states whose states can be numbered so that every edge
  inside joins states at most 16 places apart (reverse Cuthill-McKee; a layer of Super
  Six fits in 9) is solved by policy iteration: take the greedy policy, solve its
  linear system :math:`v = c + P_\pi v` exactly by Gaussian elimination in that band (a
  passing option enters as :math:`p\,(c - v)`, with :math:`c` 1 for win chances and 0
  for scores and margins, and a reward :math:`r` as :math:`p\,r`), and repeat until no backup
  :math:`(Tv)(u)` differs from :math:`v(u)` by more than ``tol / 100`` (two or three
  rounds). The system is diagonally dominant by rows (a state's probabilities add up to
  at most 1), so the elimination needs no pivoting; a pivot that vanishes (a policy
  under which play never leaves the component) or twenty rounds without settling send
  the component to the sweeps below.

  Any other component is solved by Gauss-Seidel value iteration from 0.5, its states
  swept in depth-first post-order (successors before predecessors, except along the
  edges that close a cycle), each backup using the values updated earlier in the same
  sweep. A sweep changes no value by more than :math:`\delta_k`; with :math:`\rho` the
  larger of the last two ratios :math:`\delta_k / \delta_{k-1}`, the distance to the
  fixed point is about :math:`\delta_k \rho / (1 - \rho)`
  (:func:`gamegraph._stopping.near_fixed_point`), and the sweeps stop once that is below
  ``tol / 100`` (or the changes are rounding noise: at most two units in
  the last place, or no smaller than the sweep before and below 1e-14). When the
  changes shrink at a steady ratio :math:`r` (three sweeps agreeing to 3 %), the values
  are moved to the limit of that geometric series, :math:`v + d\,r / (1 - r)`, and the
  sweeps go on from there: in Pig, where a bust hands the turn back and forth, the
  changes alternate in sign at :math:`r \approx -0.7` and this cuts 176 sweeps to 17. A
  component that has not settled after ``max_sweeps`` sweeps is handed back to the
  caller's ``fallback``; the kernel then resumes with the next component. A last pass
  takes the greedy choice at every outcome (the first option within ``tol`` of the
  best, as :func:`gamegraph.values.first_best`) and the residual
  :math:`\max_s |(Tv)(s) - v(s)|`.
* :func:`sure_to_end` checks that a policy ends the game from every state, the quick
  path of the solver's termination checks: at once when every state of a cycle has an
  outcome that leaves its component whatever is chosen, otherwise by two breadth-first
  searches over the policy's edges.

Every kernel reads an option's worth as :mod:`gamegraph.values` defines it: ``one - v``
where the turn passes (``one`` is the objective's pass constant), plus the option's reward
when the graph has rewards (``rewarded``; win games skip that read). Scores and margins
have no scale, so for them (``relative``) the stopping bounds above are times the largest
value of the component, at least 1.

numba is imported when a kernel is first called, never at import, and the compiled code
is cached on disk (``cache=True``): the first call of an installation compiles (a few
seconds), later processes load the cache. Where numba finds no folder it can write (a
read-only install and HOME), :mod:`gamegraph._numba_cache` picks a private one or none.

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
from typing import NamedTuple

import numpy as np

from ._extras import require
from ._numba_cache import compile_kernels
from ._stopping import near_fixed_point
from .errors import UnknownNameError

_compiled = False
_BAND = 16  # cyclic components numbered within this band are solved by policy iteration
_BAND_MIN = 512  # ... if they have at least this many states
_BAND_ROUNDS = 20  # rounds of it before the sweeps take over
_SWEEP_ORDER_MIN = 16384  # components this large are gathered again in sweep order


def available() -> bool:
    """Whether numba is installed, so that the compiled kernels can run."""
    return importlib.util.find_spec("numba") is not None


#: The engines every compiled solver offers: numba when installed (``auto``), or insisted
#: on, or numpy.
ENGINES = ("auto", "numba", "numpy")


def resolve_engine(engine, purpose: str) -> str:
    """``"numba"`` or ``"numpy"``: the engine ``engine`` names, ``auto`` resolved, for every
    solver with compiled kernels (the graph solver, Ur's blocks and duel).

    Raises UnknownNameError for a name not in :data:`ENGINES`, and MissingExtraError
    naming the ``fast`` extra (and ``purpose``) when ``numba`` is asked for and missing.

    >>> resolve_engine("numpy", "a demo")
    'numpy'
    >>> resolve_engine("gpu", "a demo")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown engine 'gpu'; accepted: auto, numba, numpy
    """
    if not isinstance(engine, str) or engine not in ENGINES:
        raise UnknownNameError("engine", engine, ENGINES)
    if engine == "numba":
        require("numba", purpose, "fast")
    if engine == "auto":
        return "numba" if available() else "numpy"
    return engine


def _compile() -> None:
    """Replace the kernels below by their numba versions (compiled or loaded from cache)."""
    # _backup is inlined into its callers: a call per state would count references to
    # every array it is passed, which took most of the time. The sweeps are inlined into
    # _solve (and _assemble into _gather), where they ran before they were functions of
    # their own: called once per component, they took a tenth longer on Pig's many small
    # components.
    compile_kernels(
        globals(),
        require("numba", "the compiled solver engine", "fast"),
        inline=("_backup", "near_fixed_point", "_assemble", "_gauss_seidel", "_sweeps"),
        plain=(
            "_tarjan", "_by_height", "_solving_order", "_sizes", "_gather", "_postorder",
            "_search", "_band", "_greedy", "_policy_rows", "_band_solve", "_improve",
            "_policy_iteration", "_solve", "_final", "_escapes", "_spread", "_sure",
        ),
    )  # fmt: skip


# ---------------------------------------------------------------------------
# Kernels (plain Python until _compile() swaps in their numba versions)
# ---------------------------------------------------------------------------
def _tarjan(n, outcome_ptr, option_ptr, target):  # pragma: no cover - runs compiled
    # Pearce's variant of Tarjan's search: one number per state, 0 until it is visited,
    # then its visiting index while its component is open (1 .. n; an index is reused once
    # its state is closed) and n + 1 + its component's number once closed, so that "on the
    # stack" needs no array of its own and a visited state costs one read. The depth-first
    # path is kept in frames: the state, its next and last option, the greatest 1 + height
    # among the closed components it leads to (passed on to the frame below, in the same
    # component, when it closes none), whether it still roots a component, and whether it
    # has an edge to itself.
    rindex = np.zeros(n, dtype=np.int64)
    stack = np.zeros(n, dtype=np.int64)
    f_state = np.zeros(n, dtype=np.int64)
    f_next = np.zeros(n, dtype=np.int64)
    f_end = np.zeros(n, dtype=np.int64)
    f_reach = np.zeros(n, dtype=np.int64)
    f_root = np.zeros(n, dtype=np.bool_)
    f_loop = np.zeros(n, dtype=np.bool_)
    cyclic = np.zeros(n, dtype=np.bool_)
    height = np.zeros(n, dtype=np.int64)
    index = 1
    n_comp = 0
    top = 0
    for root in range(n):
        if rindex[root] != 0:
            continue
        rindex[root] = index
        index += 1
        f_state[0] = root
        f_next[0] = option_ptr[outcome_ptr[root]]
        f_end[0] = option_ptr[outcome_ptr[root + 1]]
        f_reach[0] = 0
        f_root[0] = True
        f_loop[0] = False
        depth = 1
        while depth > 0:
            d = depth - 1
            v = f_state[d]
            j = f_next[d]
            if j < f_end[d]:
                f_next[d] = j + 1
                w = target[j]
                r = rindex[w]
                if r == 0:  # not visited yet: go down to it
                    rindex[w] = index
                    index += 1
                    f_state[depth] = w
                    f_next[depth] = option_ptr[outcome_ptr[w]]
                    f_end[depth] = option_ptr[outcome_ptr[w + 1]]
                    f_reach[depth] = 0
                    f_root[depth] = True
                    f_loop[depth] = False
                    depth += 1
                elif r > n:  # a closed component below
                    f_reach[d] = max(f_reach[d], height[r - n - 1] + 1)
                elif r < rindex[v]:  # open, visited before v: in v's component
                    rindex[v] = r
                    f_root[d] = False
                elif w == v:
                    f_loop[d] = True
                continue
            depth -= 1
            if f_root[d]:
                # v roots a component: v and the states above it on the stack.
                index -= 1
                size = 1
                mine = rindex[v]
                while top > 0 and rindex[stack[top - 1]] >= mine:
                    top -= 1
                    rindex[stack[top]] = n + 1 + n_comp
                    index -= 1
                    size += 1
                rindex[v] = n + 1 + n_comp
                height[n_comp] = f_reach[d]
                cyclic[n_comp] = size > 1 or f_loop[d]
                if depth > 0:
                    f_reach[depth - 1] = max(f_reach[depth - 1], f_reach[d] + 1)
                n_comp += 1
            else:
                stack[top] = v
                top += 1
                u = f_state[depth - 1]
                if rindex[v] < rindex[u]:
                    rindex[u] = rindex[v]
                    f_root[depth - 1] = False
                f_reach[depth - 1] = max(f_reach[depth - 1], f_reach[d])
    for s in range(n):
        rindex[s] -= n + 1
    return rindex, cyclic[:n_comp].copy(), height[:n_comp].copy()


def _by_height(component, comp_height):  # pragma: no cover - runs compiled
    """The states sorted by their component's height, ascending within each height, and
    where each height starts (a counting sort).
    """
    levels = 0
    for c in range(len(comp_height)):
        levels = max(levels, comp_height[c] + 1)
    start = np.zeros(levels + 1, dtype=np.int64)
    for s in range(len(component)):
        start[comp_height[component[s]] + 1] += 1
    for h in range(levels):
        start[h + 1] += start[h]
    fill = start[:levels].copy()
    order = np.zeros(len(component), dtype=np.int64)
    for s in range(len(component)):
        h = comp_height[component[s]]
        order[fill[h]] = s
        fill[h] += 1
    return order, start


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


def _backup(s, g, values, choice, fixed, choose, tol):
    """(T v)(s), or with ``fixed`` the value of the policy's ``choice``: an option is worth
    ``v(t)``, or ``one - v(t)`` where it passes the turn, plus its reward if ``rewarded``
    (``g`` is the graph as a :class:`_Graph`).

    With ``choose`` (and not ``fixed``) the greedy choice at each outcome is written to
    ``choice``: the first option within ``tol`` of the best (with ``relative``, ``tol``
    times the size of the best, at least 1), -1 where there is no option.
    """
    outcome_ptr, option_ptr, target, passes = g.outcome_ptr, g.option_ptr, g.target, g.passes
    one, reward, rewarded = g.one, g.reward, g.rewarded  # pragma: no cover - runs compiled
    weight, relative = g.weight, g.relative
    total = 0.0
    for k in range(outcome_ptr[s], outcome_ptr[s + 1]):
        a = option_ptr[k]
        if fixed:
            c = choice[k]
            if c < 0:
                continue
            best = values[target[a + c]]
            if passes[a + c]:
                best = one - best
            if rewarded:
                best += reward[a + c]
        else:
            b = option_ptr[k + 1]
            if choose:
                choice[k] = -1
            if a == b:
                continue
            best = -np.inf
            for j in range(a, b):
                q = values[target[j]]
                if passes[j]:
                    q = one - q
                if rewarded:
                    q += reward[j]
                if q > best:
                    best = q
            if choose:
                near = tol * max(1.0, abs(best)) if relative else tol
                for j in range(a, b):  # the first option within tol of the best
                    q = values[target[j]]
                    if passes[j]:
                        q = one - q
                    if rewarded:
                        q += reward[j]
                    if q >= best - near:
                        choice[k] = j - a
                        break
        total += weight[k] * best
    return total / g.denominator


def _gather(states, g, values, choice, fixed, ws):
    """Copy a cyclic component (its ``states``) into the local arrays of ``ws``.

    Local state u is ``states[u]``; each local outcome keeps its options, those inside the
    component as local state numbers, those outside as constants (their solved values,
    the pass and the reward already applied) stored after the states in ``lv``; with
    ``rewarded`` the options inside keep their rewards in ``l_reward``. An outcome with every
    option outside adds a constant, ``weight * best``, to ``base[u]``. With ``fixed`` only
    the chosen option of each outcome is kept. ``where`` is -1 for every state on entry
    and on return. Returns the length of ``lv`` used.

    The states of a component may lie far apart in the graph's arrays (Super Six numbers
    a layer's states about 500 apart), so that nearly every read misses the cache. The
    copy is therefore made in passes, each reading one level of the arrays (outcomes,
    then options, then targets, then their values) at places the pass before wrote down:
    the reads of one pass do not wait for each other, and their misses overlap. ``r_*``
    hold what each pass writes down; :func:`_assemble` puts the local arrays together.
    """
    outcome_ptr, option_ptr, where = g.outcome_ptr, g.option_ptr, ws.where
    weight, target, passes, reward, rewarded = g.weight, g.target, g.passes, g.reward, g.rewarded
    l_first, l_weight, l_passes, l_reward = ws.l_first, ws.l_weight, ws.l_passes, ws.l_reward
    r_first, r_option, r_count = ws.r_first, ws.r_option, ws.r_count  # pragma: no cover
    r_target, r_inside, r_value = ws.r_target, ws.r_inside, ws.r_value
    m = len(states)
    nk = 0
    for u in range(m):  # outcomes
        s = states[u]
        where[s] = u
        k = outcome_ptr[s]
        r_first[u] = nk
        nk += outcome_ptr[s + 1] - k
        l_first[u] = k
    r_first[m] = nk
    nj = 0
    for u in range(m):  # options
        k0 = l_first[u]
        for i in range(r_first[u], r_first[u + 1]):
            k = k0 + i - r_first[u]
            j0, j1 = option_ptr[k], option_ptr[k + 1]
            l_weight[i] = weight[k]
            if fixed:
                if choice[k] < 0:
                    j1 = j0
                else:
                    j0 += choice[k]
                    j1 = j0 + 1
            r_option[i] = j0
            r_count[i] = j1 - j0
            nj += j1 - j0
    jj = 0
    for i in range(nk):  # targets
        j0 = r_option[i]
        r_option[i] = jj
        for j in range(j0, j0 + r_count[i]):
            r_target[jj] = target[j]
            l_passes[jj] = passes[j]
            if rewarded:
                l_reward[jj] = reward[j]
            jj += 1
    for jj in range(nj):  # inside or not, and the values outside
        t = r_target[jj]
        u = where[t]
        r_inside[jj] = u
        if u < 0:
            r_value[jj] = values[t]
    for u in range(m):
        where[states[u]] = -1
    return _assemble(m, g.denominator, g.one, rewarded, ws)


def _assemble(m, denominator, one, rewarded, ws):
    """Put a component's local arrays together from what :func:`_gather`'s passes read
    (all in cache now); returns the length of ``lv`` used.
    """
    l_first, l_weight, l_opt, l_target = ws.l_first, ws.l_weight, ws.l_opt, ws.l_target
    l_passes, l_reward, lv, base = ws.l_passes, ws.l_reward, ws.lv, ws.base  # pragma: no cover
    r_first, r_option, r_count, r_inside, r_value = (
        ws.r_first, ws.r_option, ws.r_count, ws.r_inside, ws.r_value,
    )  # fmt: skip
    kk = 0
    oj = 0
    ne = m
    l_opt[0] = 0
    for u in range(m):
        first = r_first[u]
        l_first[u] = kk
        total = 0.0
        for i in range(first, r_first[u + 1]):
            j0 = r_option[i]
            j1 = j0 + r_count[i]
            if j0 == j1:
                continue
            inside = False
            for j in range(j0, j1):
                if r_inside[j] >= 0:
                    inside = True
                    break
            if not inside:
                best = -np.inf
                for j in range(j0, j1):
                    q = r_value[j]
                    if l_passes[j]:
                        q = one - q
                    if rewarded:
                        q += l_reward[j]
                    if q > best:
                        best = q
                total += l_weight[i] * best
                continue
            for j in range(j0, j1):
                if r_inside[j] >= 0:
                    l_target[oj] = r_inside[j]
                    l_passes[oj] = l_passes[j]
                    if rewarded:
                        l_reward[oj] = l_reward[j]
                else:
                    q = r_value[j]
                    if l_passes[j]:
                        q = one - q
                    if rewarded:
                        q += l_reward[j]
                        l_reward[oj] = 0.0
                    lv[ne] = q
                    l_target[oj] = ne
                    l_passes[oj] = False
                    ne += 1
                oj += 1
            l_weight[kk] = l_weight[i] / denominator
            kk += 1
            l_opt[kk] = oj
        base[u] = total / denominator
    l_first[m] = kk
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


def _band(m, l_first, l_opt, l_target, limit, deg, adj, order, pos):
    """Number the local states 0 .. m-1 so that every edge inside stays near the diagonal.

    The numbering (``pos``; ``order`` is its inverse) is the reverse of Cuthill-McKee's:
    a breadth-first search over the edges taken both ways, the new neighbours of each
    state in order of their degree, from a far end of the component (George and Liu's
    pseudo-peripheral state: the least connected state of the last level, again while
    that deepens the search). Returns (lo, up), the most any edge ``u -> t`` has
    ``pos[u] - pos[t]`` and ``pos[t] - pos[u]``; or (-1, -1) when some state has more than
    ``4 limit`` edges, when no numbering keeps every edge within ``limit`` (the states
    within k steps of state 0 number more than ``2 k limit + 1``), or when this one does
    not.
    """
    for u in range(m + 1):  # pragma: no cover - runs compiled
        deg[u] = 0
    for u in range(m):
        for j in range(l_opt[l_first[u]], l_opt[l_first[u + 1]]):
            t = l_target[j]
            if t < m and t != u:
                deg[u + 1] += 1
                deg[t + 1] += 1
                if deg[t + 1] > 4 * limit:
                    return -1, -1
        if deg[u + 1] > 4 * limit:
            return -1, -1
    for u in range(m):
        deg[u + 1] += deg[u]
    # The bound along the edges as they are (no reverse edges needed yet): a state k
    # steps from state 0 is within k * limit places of it in any numbering that fits.
    for u in range(m):
        pos[u] = -1
    order[0] = 0
    pos[0] = 0
    head = 0
    tail = 1
    steps = 0
    while head < tail:
        end = tail
        steps += 1
        while head < end:
            x = order[head]
            head += 1
            for j in range(l_opt[l_first[x]], l_opt[l_first[x + 1]]):
                y = l_target[j]
                if y < m and pos[y] < 0:
                    pos[y] = tail
                    order[tail] = y
                    tail += 1
        if tail - 1 > 2 * steps * limit:
            return -1, -1
    for u in range(m):  # the edges both ways: adj[deg[u] : deg[u + 1]]
        for j in range(l_opt[l_first[u]], l_opt[l_first[u + 1]]):
            t = l_target[j]
            if t < m and t != u:
                adj[deg[u]] = t
                deg[u] += 1
                adj[deg[t]] = u
                deg[t] += 1
    for u in range(m, 0, -1):
        deg[u] = deg[u - 1]
    deg[0] = 0
    root = order[m - 1]
    depth = 0
    while True:
        levels, last = _search(m, root, deg, adj, order, pos, False)
        if levels <= depth:
            break
        depth = levels
        root = order[last]
        for i in range(last + 1, m):
            if deg[order[i] + 1] - deg[order[i]] < deg[root + 1] - deg[root]:
                root = order[i]
    _search(m, root, deg, adj, order, pos, True)
    for i in range(m):
        pos[order[i]] = m - 1 - i
    lo = 0
    up = 0
    for u in range(m):
        for j in range(l_opt[l_first[u]], l_opt[l_first[u + 1]]):
            t = l_target[j]
            if t < m:
                d = pos[t] - pos[u]
                up = max(up, d)
                lo = max(lo, -d)
    if lo > limit or up > limit:
        return -1, -1
    return lo, up


def _search(m, root, deg, adj, order, seen, by_degree):
    """Breadth-first search from ``root`` over ``adj`` into ``order`` (``seen`` is
    scratch): the new neighbours of each state sorted by degree if ``by_degree``.
    Returns the number of levels and where the last one starts in ``order``.
    """
    for u in range(m):  # pragma: no cover - runs compiled
        seen[u] = 0
    order[0] = root
    seen[root] = 1
    head = 0
    tail = 1
    levels = 0
    last = 0
    while head < tail:
        end = tail
        last = head
        levels += 1
        while head < end:
            x = order[head]
            head += 1
            first = tail
            for e in range(deg[x], deg[x + 1]):
                y = adj[e]
                if seen[y] == 0:
                    seen[y] = 1
                    order[tail] = y
                    tail += 1
            if by_degree:
                for a in range(first + 1, tail):
                    y = order[a]
                    d = deg[y + 1] - deg[y]
                    b = a - 1
                    while b >= first and deg[order[b] + 1] - deg[order[b]] > d:
                        order[b + 1] = order[b]
                        b -= 1
                    order[b + 1] = y
    return levels, last


def _policy_iteration(m, ws, lo, up, band, stop, max_rounds, one, rewarded, relative):
    r"""Solve a gathered component (as :func:`_gather` leaves it in ``ws``) by policy
    iteration.

    The policy (``ws.pick``, an option per local outcome) starts greedy for the values in
    ``lv``. Each round solves the policy's linear system exactly,
    :math:`v(u) - \sum p\, v(t) = \text{constants}` (a passing option entering as
    :math:`p (c - v(t))`, ``c`` being ``one``, and each option's reward as :math:`p r`),
    by Gaussian elimination in the band ``lo``, ``up`` of the numbering ``ws.pos``
    (:func:`_band`; ``band`` holds the rows, ``lo + up + 1`` entries each), then takes
    the greedy policy for the new values, keeping an option unless another is strictly
    better. It stops once no state's backup :math:`(Tv)(u)` differs from :math:`v(u)` by
    more than ``stop`` (or by at most 1e-14 and no less than in the round before:
    rounding noise; with ``relative`` both bounds are times the largest value, at least
    1). The matrix is diagonally dominant by rows (a state's probabilities add up to at
    most 1), so the elimination needs no pivoting; a pivot that vanishes means a policy
    under which play never leaves the component.

    Returns the number of rounds (values in ``lv[:m]``), or 0 when a pivot vanished or the
    policy had not settled after ``max_rounds`` rounds.
    """
    _greedy(ws.l_first[m], ws, one, rewarded)  # pragma: no cover - runs compiled
    previous = np.inf
    rhs, lv, pos = ws.now, ws.lv, ws.pos
    for rounds in range(1, max_rounds + 1):
        _policy_rows(m, ws, lo, up, band, rhs, one, rewarded)
        if not _band_solve(m, lo, up, band, rhs):
            return 0
        for u in range(m):
            lv[u] = rhs[pos[u]]
        residual, size = _improve(m, ws, one, rewarded, relative)
        if not residual <= size:  # nan: the system was singular after all
            return 0
        if residual <= stop * size or (residual <= 1e-14 * size and residual >= previous):
            return rounds
        previous = residual
    return 0


def _greedy(n_outcomes, ws, one, rewarded):
    """The first best option of each local outcome, for the values in ``lv``, into ``pick``."""
    l_opt, l_target, l_passes, l_reward = ws.l_opt, ws.l_target, ws.l_passes, ws.l_reward
    lv, pick = ws.lv, ws.pick
    for k in range(n_outcomes):  # pragma: no cover - runs compiled
        best = -np.inf
        for j in range(l_opt[k], l_opt[k + 1]):
            q = lv[l_target[j]]
            if l_passes[j]:
                q = one - q
            if rewarded:
                q += l_reward[j]
            if q > best:
                best = q
                pick[k] = j


def _policy_rows(m, ws, lo, up, band, rhs, one, rewarded):
    """The linear system of the policy ``pick``: row ``pos[u]`` of ``band`` and ``rhs``
    for each local state u (entry (i, c) at ``band[i * w + lo + c - i]``, ``w = lo + up + 1``).
    """
    w = lo + up + 1  # pragma: no cover - runs compiled
    l_first, l_weight, l_target, l_passes = ws.l_first, ws.l_weight, ws.l_target, ws.l_passes
    l_reward, base, pick, pos, lv = ws.l_reward, ws.base, ws.pick, ws.pos, ws.lv
    for u in range(m):
        i = pos[u]
        row = i * w + lo - i
        for c in range(i * w, i * w + w):
            band[c] = 0.0
        band[row + i] = 1.0
        total = base[u]
        for k in range(l_first[u], l_first[u + 1]):
            j = pick[k]
            t = l_target[j]
            p = l_weight[k]
            if rewarded:
                total += p * l_reward[j]
            if t >= m:
                total += p * lv[t]
            elif l_passes[j]:
                total += p * one
                band[row + pos[t]] += p
            else:
                band[row + pos[t]] -= p
        rhs[i] = total


def _band_solve(m, lo, up, band, rhs):
    """Solve the banded system of :func:`_policy_rows` in place (the solution in ``rhs``):
    elimination below the diagonal without pivoting, then back substitution. False if a
    pivot vanished.
    """
    w = lo + up + 1  # pragma: no cover - runs compiled
    for i in range(m):
        row = i * w + lo - i
        pivot = band[row + i]
        if not pivot > 1e-12:
            return False
        inverse = 1.0 / pivot
        band[row + i] = inverse
        last = min(i + up + 1, m)
        for r in range(i + 1, min(i + lo + 1, m)):
            other = r * w + lo - r
            f = band[other + i]
            if f != 0.0:
                f *= inverse
                for c in range(i + 1, last):
                    band[other + c] -= f * band[row + c]
                rhs[r] -= f * rhs[i]
    for i in range(m - 1, -1, -1):
        row = i * w + lo - i
        total = rhs[i]
        for c in range(min(i + up, m - 1), i, -1):  # the newest value last
            total -= band[row + c] * rhs[c]
        rhs[i] = total * band[row + i]
    return True


def _improve(m, ws, one, rewarded, relative):
    """Take the greedy policy for the values in ``lv`` into ``pick``, keeping an option
    unless another is strictly better; returns (max |Tv - v|, the largest value (at least
    1) with ``relative``, else 1).
    """
    l_first, l_weight, l_opt, l_target = ws.l_first, ws.l_weight, ws.l_opt, ws.l_target
    l_passes, l_reward, lv, pick = ws.l_passes, ws.l_reward, ws.lv, ws.pick
    base = ws.base
    residual = 0.0  # pragma: no cover - runs compiled
    size = 1.0
    for u in range(m):
        new = base[u]
        for k in range(l_first[u], l_first[u + 1]):
            j = pick[k]
            best = lv[l_target[j]]
            if l_passes[j]:
                best = one - best
            if rewarded:
                best += l_reward[j]
            for j in range(l_opt[k], l_opt[k + 1]):
                q = lv[l_target[j]]
                if l_passes[j]:
                    q = one - q
                if rewarded:
                    q += l_reward[j]
                if q > best:
                    best = q
                    pick[k] = j
            new += l_weight[k] * best
        residual = max(residual, abs(new - lv[u]))
        if relative:
            size = max(size, abs(new))
    return residual, size


def _sizes(comps, comp_ptr, cyclic, component, outcome_ptr, option_ptr):
    """The largest cyclic component's states, outcomes and options (each at least 1):
    summed per component in one pass over the graph in its own order.
    """
    n_comp = len(comps)  # pragma: no cover - runs compiled
    k_sum = np.zeros(n_comp, dtype=np.int64)
    j_sum = np.zeros(n_comp, dtype=np.int64)
    for s in range(len(component)):
        if cyclic[component[s]]:
            k0, k1 = outcome_ptr[s], outcome_ptr[s + 1]
            k_sum[component[s]] += k1 - k0
            j_sum[component[s]] += option_ptr[k1] - option_ptr[k0]
    largest = 1
    outcomes = 1
    options = 1
    for i in range(n_comp):
        if cyclic[comps[i]]:
            largest = max(largest, comp_ptr[i + 1] - comp_ptr[i])
            outcomes = max(outcomes, k_sum[comps[i]])
            options = max(options, j_sum[comps[i]])
    return largest, outcomes, options


def _solve(
    order, comp_ptr, comps, cyclic, g, values, choice, fixed, tol, max_sweeps, first, band_min,
    sweep_min, ws,
):  # fmt: skip
    """Solve components ``first``, ``first + 1``, ... in place in ``values``.

    Component i (``comps[i]``) holds states ``order[comp_ptr[i]:comp_ptr[i + 1]]``; the
    components come in solving order. A cyclic component is copied into small local
    arrays first (:func:`_gather`, into the workspace ``ws``), so that its sweeps read
    memory that stays in cache and skip the outcomes whose options all lie outside it.
    One of at least ``band_min`` states that :func:`_band` can number within ``_BAND``
    goes to :func:`_policy_iteration` first (at most ``min(max_sweeps, _BAND_ROUNDS)``
    rounds); the others, and those it does not settle, to :func:`_sweeps` (gathered again
    in their sweep order first if they have at least ``sweep_min`` states).

    Returns (next, sweeps): ``next`` is the number of components solved, or the position of
    one that did not settle in ``max_sweeps`` sweeps (then < len(comps)); ``sweeps`` the
    most sweeps (or rounds of policy iteration) any cyclic component needed. With
    ``relative`` (scores and margins, which have no scale) the stopping bounds are times
    the largest value of the component (at least 1).
    """
    most = 0  # pragma: no cover - runs compiled
    stop = tol * 0.01
    band = np.zeros(0)
    rounds_cap = min(max_sweeps, _BAND_ROUNDS)
    lv = ws.lv
    for i in range(first, len(comps)):
        a, b = comp_ptr[i], comp_ptr[i + 1]
        if not cyclic[comps[i]]:
            for r in range(a, b):
                s = order[r]
                values[s] = _backup(s, g, values, choice, fixed, False, tol)
            continue
        m = b - a
        states = order[a:b]
        _gather(states, g, values, choice, fixed, ws)
        for u in range(m):
            lv[u] = 0.5
        if m >= band_min:
            lo, up = _band(m, ws.l_first, ws.l_opt, ws.l_target, _BAND, ws.deg, ws.adj,
                           ws.numbering, ws.pos)  # fmt: skip
            if lo >= 0:
                if len(band) == 0:  # once, for the largest component and the widest band
                    band = np.zeros(len(ws.post) * (2 * _BAND + 1))
                rounds = _policy_iteration(
                    m, ws, lo, up, band, stop, rounds_cap, g.one, g.rewarded, g.relative
                )
                if rounds > 0:
                    for u in range(m):
                        values[states[u]] = lv[u]
                    most = max(most, rounds)
                    continue
                for u in range(m):
                    lv[u] = 0.5
        sweeps = _sweeps(states, g, values, choice, fixed, ws, stop, max_sweeps, sweep_min)
        if sweeps == 0:
            return i, most
        for u in range(m):
            values[states[u]] = lv[u]
        if sweeps > most:
            most = sweeps
    return len(comps), most


def _sweeps(states, g, values, choice, fixed, ws, stop, max_sweeps, sweep_min):
    """Solve a gathered component (values at 0.5) by Gauss-Seidel sweeps in depth-first
    post-order (:func:`_postorder`), in ``lv``; one of at least ``sweep_min`` states
    is gathered again in that order first. Returns the number of sweeps, or 0 if it did
    not settle in ``max_sweeps``.
    """
    m = len(states)  # pragma: no cover - runs compiled
    post, cursor = ws.post, ws.cursor
    _postorder(m, ws.l_first, ws.l_opt, ws.l_target, post, ws.visited, cursor, ws.calls)
    if m >= sweep_min:
        # Gather the component again, its states in sweep order, so that the sweeps
        # read its arrays front to back (in a component too large for the cache they
        # otherwise wait on a miss for nearly every state). The updates come in the
        # same order, so every value is the same to the bit.
        for q in range(m):
            cursor[q] = states[post[q]]
        for q in range(m):
            states[q] = cursor[q]
            post[q] = q
        _gather(states, g, values, choice, fixed, ws)
        lv = ws.lv
        for u in range(m):
            lv[u] = 0.5
    return _gauss_seidel(m, ws, stop, max_sweeps, g.one, g.rewarded, g.relative)


def _gauss_seidel(m, ws, stop, max_sweeps, one, rewarded, relative):
    """Sweep the gathered component in the order ``ws.post`` until the distance to the
    fixed point (:func:`gamegraph._stopping.near_fixed_point`) is below ``stop`` (times
    the largest value with ``relative``), jumping to the limit of a geometric series of
    changes once their ratio is steady (see the module docstring). Returns the number
    of sweeps, or 0 if that is more than ``max_sweeps``.
    """
    l_first, l_weight, l_opt, l_target = ws.l_first, ws.l_weight, ws.l_opt, ws.l_target
    l_passes, l_reward, lv, post = ws.l_passes, ws.l_reward, ws.lv, ws.post
    base, now, before = ws.base, ws.now, ws.before  # each state's change, this sweep and last
    for u in range(m):  # pragma: no cover - runs compiled
        now[u] = 0.0
    previous = np.inf
    rate = 1.0
    signed = old = older = 0.0
    sweeps = 0
    since = 0  # sweeps since the last extrapolation
    size = 1.0  # the largest value (scores and margins; win chances are at most 1)
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
                        v = one - v
                    if rewarded:
                        v += l_reward[j]
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
            if relative and abs(new) > size:
                size = abs(new)
        if delta <= 4.5e-16 * size or (delta <= 1e-14 * size and delta >= previous):
            return sweeps  # settled, or rounding noise
        ratio = delta / previous
        estimate = max(rate, ratio)
        rate = ratio
        previous = delta
        # Two ratios (three sweeps) since the start or the last jump before trusting them.
        if since >= 3 and near_fixed_point(delta, estimate, stop * size):
            return sweeps
        if sweeps >= max_sweeps:
            return 0
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


def _final(g, terminal, values, choice, fixed, tol):
    """The greedy choices (unless ``fixed``) and the residual max |Tv - v|; with
    ``relative``, options within ``tol`` times the size of the best (at least 1) tie.
    """
    residual = 0.0  # pragma: no cover - runs compiled
    for s in range(len(terminal)):
        if terminal[s]:
            continue
        new = _backup(s, g, values, choice, fixed, True, tol)
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


class _Graph(NamedTuple):
    """A float graph as the solve kernels read it (one argument instead of ten)."""

    outcome_ptr: np.ndarray  # int64, as the graph's CSR arrays
    weight: np.ndarray  # float64
    denominator: float
    option_ptr: np.ndarray  # int64
    target: np.ndarray  # int64
    passes: np.ndarray  # bool
    one: float  # the objective's pass constant: an option that passes is worth one - v
    reward: np.ndarray  # float64 per option; empty unless rewarded
    rewarded: bool
    relative: bool  # scores and margins: the stopping bounds are times the largest value

    @classmethod
    def of(cls, graph):
        rewarded = graph.option_reward is not None
        return cls(
            _ints(graph.outcome_ptr),
            np.ascontiguousarray(graph.outcome_weight, dtype=np.float64),
            float(graph.denominator),
            _ints(graph.option_ptr),
            _ints(graph.option_target),
            np.ascontiguousarray(graph.option_passes, dtype=np.bool_),
            float(graph.pass_constant),
            np.ascontiguousarray(graph.option_reward if rewarded else np.zeros(0)),
            rewarded,
            graph.objective != "win",
        )


class _Workspace(NamedTuple):
    """The scratch arrays of :func:`_solve`, allocated once for the largest cyclic
    component (``largest`` states, ``outcomes`` outcomes, ``options`` options).
    """

    where: np.ndarray  # per state of the graph: its local number while gathered, else -1
    # the gathered component (:func:`_gather`): local state u, outcome k, option j
    base: np.ndarray  # per u: the constant of its outcomes whose options all leave
    lv: np.ndarray  # values of the local states, then the constants of options leaving
    l_first: np.ndarray  # u's outcomes: l_first[u] .. l_first[u + 1]
    l_weight: np.ndarray  # per k: probability
    l_opt: np.ndarray  # k's options: l_opt[k] .. l_opt[k + 1]
    l_target: np.ndarray  # per j: a local state, or the place of a constant in lv
    l_passes: np.ndarray
    l_reward: np.ndarray  # empty unless rewarded
    # what the gather's passes read
    r_first: np.ndarray
    r_option: np.ndarray
    r_count: np.ndarray
    r_target: np.ndarray
    r_inside: np.ndarray
    r_value: np.ndarray
    # the sweep order (:func:`_postorder`)
    post: np.ndarray
    visited: np.ndarray
    cursor: np.ndarray
    calls: np.ndarray
    # the band's numbering (:func:`_band`) and the policy (:func:`_policy_iteration`)
    deg: np.ndarray
    adj: np.ndarray
    numbering: np.ndarray
    pos: np.ndarray
    pick: np.ndarray
    # each state's change in this sweep and the one before (now: also the band's solution)
    now: np.ndarray
    before: np.ndarray

    @classmethod
    def allocate(cls, n, largest, outcomes, options, rewarded):
        """Room for components up to the given sizes in a graph of ``n`` states."""

        def ints(size):
            return np.zeros(size, dtype=np.int64)

        return cls(
            where=np.full(n, -1, dtype=np.int32),
            base=np.zeros(largest),
            lv=np.zeros(largest + options),
            l_first=ints(largest + 1),
            l_weight=np.zeros(outcomes),
            l_opt=ints(outcomes + 1),
            l_target=ints(options),
            l_passes=np.zeros(options, dtype=np.bool_),
            l_reward=np.zeros(options if rewarded else 0),
            r_first=ints(largest + 1),
            r_option=ints(outcomes),
            r_count=ints(outcomes),
            r_target=ints(options),
            r_inside=ints(options),
            r_value=np.zeros(options),
            post=ints(largest),
            visited=np.zeros(largest, dtype=np.bool_),
            cursor=ints(largest),
            calls=ints(largest),
            deg=ints(largest + 1),
            adj=ints(2 * options),
            numbering=ints(largest),
            pos=ints(largest),
            pick=ints(outcomes),
            now=np.zeros(largest),
            before=np.zeros(largest),
        )


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
        As the fields of :class:`gamegraph.condensation.Condensation`: components are numbered
        sinks first (Tarjan's order), states within a level ascend.
    """
    _compile()
    component, cyclic, height = _tarjan(n, _ints(outcome_ptr), _ints(option_ptr), _ints(target))
    order, bounds = _by_height(component, height)
    levels = [order[bounds[h] : bounds[h + 1]] for h in range(len(bounds) - 1)]
    return component, cyclic, levels


def sure_to_end(graph, choice):
    """Per state, whether play under ``choice`` (one option index per outcome) ends the
    game with probability one: as :func:`gamegraph.termination.sure_to_end` on the whole
    graph, in two breadth-first searches over the policy's edges; or at once, all True,
    when every state of a cycle has an outcome that leaves its component whatever is
    chosen (Super Six: the pit), so that no policy can keep the game going for ever.
    """
    _compile()
    outcome_ptr, option_ptr = _ints(graph.outcome_ptr), _ints(graph.option_ptr)
    target = _ints(graph.option_target)
    choice = np.ascontiguousarray(choice)  # int32 or int64: no copy either way
    if choice.dtype.kind != "i":
        choice = _ints(choice)
    terminal = np.ascontiguousarray(graph.terminal, dtype=np.bool_)
    condensation = graph.condensation
    component = _ints(condensation.component)
    cyclic = np.ascontiguousarray(condensation.cyclic, dtype=np.bool_)
    weight = np.ascontiguousarray(graph.outcome_weight)  # only its sign is read
    if weight.dtype.kind not in "iuf":
        weight = np.ascontiguousarray(weight, dtype=np.float64)
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
        their estimated error is below ``tol / 100``, or solved by policy iteration until
        no backup changes a value by more than that.
    max_sweeps : int
        Sweeps allowed per cyclic component before it goes to ``fallback`` (and rounds of
        policy iteration, at most 20, before the sweeps take over).
    fallback : callable, optional
        ``fallback(states)`` solves the states of one component in place in ``values``
        (their successors outside it are solved). Without one, a component that does not
        settle raises ``RuntimeError``.

    Returns
    -------
    (sweeps, residual)
        The most sweeps (or rounds of policy iteration) any cyclic component took (0 for a
        DAG) and max |Tv - v|.
    """
    _compile()
    condensation = graph.condensation
    height = np.zeros(condensation.n_components, dtype=np.int64)
    for h, level in enumerate(condensation.levels):
        height[condensation.component[level]] = h
    component = _ints(condensation.component)
    g = _Graph.of(graph)
    terminal = np.ascontiguousarray(graph.terminal, dtype=np.bool_)
    cyclic = np.ascontiguousarray(condensation.cyclic, dtype=np.bool_)
    order, comp_ptr, comps = _solving_order(component, height, terminal)
    sizes = _sizes(comps, comp_ptr, cyclic, component, g.outcome_ptr, g.option_ptr)
    ws = _Workspace.allocate(len(component), *sizes, g.rewarded)
    most = 0
    first = 0
    while first < len(comps):
        first, sweeps = _solve(
            order, comp_ptr, comps, cyclic, g, values, choice, fixed, float(tol),
            int(max_sweeps), first, int(_BAND_MIN), int(_SWEEP_ORDER_MIN), ws,
        )  # fmt: skip
        most = max(most, sweeps)
        if first < len(comps):
            if fallback is None:
                raise RuntimeError("a cyclic component did not settle")
            fallback(np.sort(order[comp_ptr[first] : comp_ptr[first + 1]]))
            first += 1
    residual = _final(g, terminal, values, choice, fixed, float(tol))
    return most, float(residual) if math.isfinite(residual) else residual
