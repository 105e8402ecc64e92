"""What the graph explorer shows: a game graph of any size, summarised and in detail.

:func:`explore_graph` gathers, for a game graph, a solution and a few named policies,
everything the explorer page (:mod:`gamegraph.renderers.explorer`) draws. The page works
overview first, then filter, then details, so the data comes in the same three parts.

The overview: **groups** of states
    by the caller's key (``groups=``), else the game's natural blocks (a rules method
    ``group(state)``: Ur by pieces borne off), else its layers (:meth:`Rules.layer
    <gamegraph.rules.Rules.layer>`: Jackpot's cells flipped, Super Six's pegs left), else
    the distance from the start in moves. Per group and policy: the states, the reach mass
    (expected visits), where the game ends (at an end state, or on a throw that leaves no
    move), and the value the policy *gives away*
    there (win chance, expected score or margin, as the game's objective says): the sum
    over its states of reach x (best option's value - chosen option's value), weighted by
    each throw's chance. For a one-player game the groups' shares add
    up to what the policy loses against the optimum (the performance-difference identity);
    for the optimal policy they are 0.
The filtered views: **positions**
    from :func:`gamegraph.analysis.layout.layered_layout` (layer across, barycentre order
    within), computed in numpy for every state, so the page can draw any subset at once.
The details: **the graph itself**
    every throw with its chance, every option with its move, target and value, the option
    each policy picks, reach per policy, and the predecessor on the most likely path from
    the start under each policy (so the page walks the path back without a search).

A graph can be larger than one self-contained page holds (:data:`PAGE_STATES`). Then the
groups still summarise every state, and the details keep the states of highest reach
under some policy (the start always), with options that lead elsewhere carrying their
value but no state; :attr:`Exploration.total_states` says how many there were.

Values follow the game's objective (:mod:`gamegraph.values`): a win probability, an
expected score or an expected margin, with the option worths (rewards and passing turns
included) from :func:`gamegraph.values.option_values`. :attr:`Exploration.objective` and
:attr:`Exploration.value_name` carry the objective and its words to the page.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import check_int
from ..errors import InvalidArgumentError
from ..graph import StateGraph
from ..propagate import propagate
from ..solve import Solution, solve, throw_names
from ..values import objective_of, option_values, pass_constant, passing_value, value_name
from .layout import distance_layers, layered_layout
from .policies import as_policies
from .views import best_paths

#: The most states one self-contained page holds in detail (Ur with 3 pieces fits).
PAGE_STATES = 300_000

#: The most options (moves after a throw) one page holds in detail.
PAGE_OPTIONS = 3_000_000

#: Moves listed per state in :meth:`Exploration.best_moves`.
BEST_MOVES_SHOWN = 3


@dataclass(eq=False)
class Exploration:
    """The explorer's data for one graph (see the module docstring).

    Per-state arrays are indexed 0..n-1 over the states kept (``states``); outcome and
    option arrays follow the graph's own layout restricted to those states.

    Attributes
    ----------
    name : str
    states : ndarray of int, shape (n,)
        The graph's state numbers kept, in the graph's order.
    labels : list of str
    layers : ndarray of int, shape (n,)
        The layer of each state in the layout (the game's, or the distance from the start),
        numbered so that the start's end of the game comes first.
    x, y : ndarray of float, shape (n,)
        Positions from :func:`~gamegraph.analysis.layout.layered_layout`: ``x`` the layer
        as ``layers`` numbers it, ``y`` the order within it.
    terminal : ndarray of bool
    start : int
        Index of the start state.
    values : ndarray of float
        The value of each state to the player to move, under optimal play: the
        probability that they win, their expected score or their expected margin
        (``objective``).
    policies : tuple of str
        The optimal policy first.
    wins : ndarray of float, shape (p,)
        The start's value under each policy: the probability that the player who moves
        first wins, or their expected score or margin.
    reach : ndarray of float, shape (p, n)
        Expected visits under each policy (the reach probability in a game without cycles).
    path_parent : ndarray of int, shape (p, n)
        The state before each one on the most likely path from the start under each policy
        (-1 at the start and where the policy never gets; :func:`.views.best_paths`).
    outcome_ptr : ndarray of int, shape (n + 1,)
        The throws of state ``i`` are ``outcome_ptr[i]:outcome_ptr[i + 1]``.
    outcome_weight : ndarray of int
        Each throw's chance times ``denominator``.
    denominator : int
    option_ptr : ndarray of int
        The options after throw ``k`` are ``option_ptr[k]:option_ptr[k + 1]``.
    option_target : ndarray of int
        The target's index, or ``-1 - j`` for a target not kept, whose value is
        ``outside_value[j]``.
    option_move : ndarray of int
        Index into ``move_labels``.
    option_passes : ndarray of bool
    option_reward : ndarray of float or None
        Each option's reward, where the game pays any (score and margin games).
    outside_value : ndarray of float
    move_labels : list of str
    throw_labels : list of str or None
        The game's name for each throw, where it has one (Ur: the number thrown).
    choice : ndarray of int, shape (p, outcomes)
        The option (counted from the throw's first) each policy picks; -1 with no option.
    group : ndarray of int, shape (n,)
        Index into ``group_names``.
    group_names : list of str
    group_states : ndarray of int, shape (g,)
        States in each group, over the whole graph.
    group_value : ndarray of float, shape (g, 2)
        The lowest and highest value in each group.
    group_reach, group_ends, group_given : ndarray of float, shape (p, g)
        Per policy: expected visits, the probability that the game ends there, and the
        value given away there (see the module docstring).
    total_states : int
        States in the whole graph.
    drawing : dict or None
        How the page draws a position from its label, where the game says
        (``rules.drawing()``: Jackpot's cells, Super Six's lid, Ur's board).
    min_reach : float
        The threshold the caller kept states by (0: none).
    objective : str
        ``"win"``, ``"score"`` or ``"margin"`` (:attr:`gamegraph.rules.Rules.objective`).
    value_name : str
        What a value is called (:func:`gamegraph.values.value_name`: "win probability",
        "expected score", "expected margin", or the game's own such as "expected turns").
    """

    name: str
    states: np.ndarray
    labels: list
    layers: np.ndarray
    x: np.ndarray
    y: np.ndarray
    terminal: np.ndarray
    start: int
    values: np.ndarray
    policies: tuple
    wins: np.ndarray
    reach: np.ndarray
    path_parent: np.ndarray
    outcome_ptr: np.ndarray
    outcome_weight: np.ndarray
    denominator: int
    option_ptr: np.ndarray
    option_target: np.ndarray
    option_move: np.ndarray
    option_passes: np.ndarray
    outside_value: np.ndarray
    move_labels: list
    throw_labels: list | None
    choice: np.ndarray
    group: np.ndarray
    group_names: list
    group_states: np.ndarray
    group_value: np.ndarray
    group_reach: np.ndarray
    group_ends: np.ndarray
    group_given: np.ndarray
    total_states: int
    drawing: dict | None = None
    min_reach: float = 0.0
    objective: str = "win"
    value_name: str = "win probability"
    option_reward: np.ndarray | None = None

    @property
    def n_states(self) -> int:
        return len(self.states)

    @property
    def n_options(self) -> int:
        return len(self.option_target)

    def option_values(self) -> np.ndarray:
        """Every option's worth to the player who chooses it: its reward plus the target's
        value, or ``c - v`` where the turn passes (``c`` 1 for ``win``, else 0).
        """
        target = self.option_target
        inside = target >= 0
        v = np.empty(len(target))
        v[inside] = self.values[target[inside]]
        v[~inside] = self.outside_value[-1 - target[~inside]]
        q = passing_value(v, self.option_passes, float(pass_constant(self.objective)))
        return q if self.option_reward is None else q + self.option_reward

    def best_moves(self, i: int, policy: int = 0) -> list:
        """The moves ``policy`` makes at state ``i``, the most likely first, with the
        chance that a throw calls for each (at most :data:`BEST_MOVES_SHOWN`).
        """
        totals: dict = {}
        for k in range(self.outcome_ptr[i], self.outcome_ptr[i + 1]):
            pick = self.choice[policy, k]
            if pick >= 0:
                move = self.move_labels[self.option_move[self.option_ptr[k] + pick]]
                totals[move] = totals.get(move, 0) + int(self.outcome_weight[k])
        ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
        return [(move, w / self.denominator) for move, w in ranked[:BEST_MOVES_SHOWN]]

    def path(self, i: int, policy: int = 0) -> list:
        """The most likely path from the start to state ``i`` under ``policy`` (indices);
        empty where the policy never gets there.
        """
        parent = self.path_parent[policy]
        steps = [i]
        while steps[-1] != self.start:
            before = int(parent[steps[-1]])
            if before < 0 or len(steps) > self.n_states:
                return []
            steps.append(before)
        return steps[::-1]

    def __repr__(self) -> str:
        kept = f"{self.n_states:,} states"
        if self.n_states < self.total_states:
            kept = f"{self.n_states:,} of {self.total_states:,} states"
        return (
            f"Exploration({self.name!r}: {kept} in {len(self.group_names)} groups, "
            f"policies {', '.join(self.policies)})"
        )


def explore_graph(
    graph: StateGraph,
    solution: Solution | None = None,
    policies: dict | None = None,
    *,
    groups=None,
    min_reach: float = 0.0,
    max_states: int = PAGE_STATES,
    progress: bool | None = None,
) -> Exploration:
    """The explorer's data for ``graph``: groups, positions, values, reach and moves.

    Parameters
    ----------
    graph : StateGraph
    solution : Solution, optional
        Optimal values and policy; solved (in floats) when not given.
    policies : dict, list or one policy, optional
        More policies: a dict by name, a list, or one of Policy, agent or name
        (:func:`.policies.as_policies`). The optimal policy comes first as ``optimal``.
    groups : callable or array, optional
        The overview's groups: a function of a state giving its group's name, or one
        name per state. Default: the rules' ``group(state)``, else the layers, else the
        distance from the start.
    min_reach : float
        Keep in detail only the states some policy reaches with at least this probability
        (expected visits in a cyclic game); the start is always kept. The groups still
        count every state.
    max_states : int
        Keep at most this many states in detail (those of highest reach under some
        policy); default :data:`PAGE_STATES`.
    progress : bool, optional
        Progress bars on stderr for the solve (see :mod:`gamegraph._progress`).

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot(cells=3))
    >>> data = explore_graph(graph, policies={"max": AGENTS["max"]})
    >>> data
    Exploration('jackpot': 8 states in 4 groups, policies optimal, max)
    >>> data.labels[data.start], data.best_moves(data.start)
    ('START', [('1', 0.3055...), ('2', 0.25), ('3', 0.1944...)])
    >>> [round(float(r), 4) for r in data.reach[:, data.labels.index("WIN")]]
    [0.1436, 0.1371]
    >>> data.group_names, [round(float(g), 4) for g in data.group_given[1]]
    (['0 flipped', '1 flipped', '2 flipped', '3 flipped'], [0.0038, 0.0027, 0.0, 0.0])
    """
    check_int(max_states, "max_states", low=1)
    if not (isinstance(min_reach, (int, float)) and 0 <= min_reach <= 1):
        raise InvalidArgumentError(f"min_reach {min_reach!r}: accepted a number from 0 to 1")
    name = getattr(graph.rules, "name", "game")
    if solution is None:
        solution = solve(graph, progress=progress)
    named = {"optimal": solution.policy}
    for key, policy in as_policies(graph, policies, solution=solution).items():
        if key != "optimal":
            named[key] = policy
    n = graph.n_states
    values = np.array(solution.values, dtype=float)
    runs = [propagate(graph, policy) for policy in named.values()]
    reach = np.array([np.asarray(run.reach_probability, float) for run in runs])
    choice = _choices(graph, named.values())
    objective = objective_of(graph)
    layout = layered_layout(graph)
    layers = layout.layers
    downwards = bool(layers[graph.start] > np.median(layers))  # the game runs down its layers
    if downwards:  # (Super Six's pegs in play): read from the start on the left
        layers = layers.max() - layers
    group, group_names = _groups(graph, groups, downwards)
    kept = _kept(graph, reach, min_reach, max_states)
    parents = np.array([best_paths(graph, policy)[1] for policy in named.values()])
    return Exploration(
        name=name,
        labels=[graph.label(int(i)) for i in kept],
        layers=layers[kept],
        x=layers[kept].astype(float),
        y=layout.y[kept],
        terminal=graph.terminal[kept].copy(),
        values=values[kept],
        policies=tuple(named),
        wins=_start_values(runs, objective),
        reach=reach[:, kept],
        path_parent=_remap(parents, kept, n),
        **_structure(graph, kept, values, choice),
        group=group[kept],
        group_names=group_names,
        **_group_totals(graph, group, len(group_names), values, reach, choice),
        total_states=n,
        drawing=graph.rules.drawing() if callable(getattr(graph.rules, "drawing", None)) else None,
        min_reach=float(min_reach),
        objective=objective,
        value_name=value_name(graph),
    )


def _choices(graph: StateGraph, policies) -> np.ndarray:
    """Per policy and outcome, the option chosen, counted from the outcome's first (-1:
    none offered).
    """
    first_option = graph.option_ptr[:-1]
    return np.array(
        [
            np.where(chosen >= 0, chosen - first_option, -1)
            for chosen in (policy.chosen_option(graph) for policy in policies)
        ]
    )


def _group_totals(graph: StateGraph, group, size: int, values, reach, choice) -> dict:
    """Per group: its states, the lowest and highest value, and under each policy the
    reach, the games ending there and the value given away there.
    """
    no_move = np.diff(graph.option_ptr) == 0  # a throw that leaves no move ends the game
    stuck = np.bincount(
        graph.outcome_state, graph.outcome_probability * no_move, minlength=graph.n_states
    )
    ends = np.where(graph.terminal, reach, reach * stuck)
    option_value = option_values(graph, values)
    given = np.array([_given_away(graph, option_value, row, r) for row, r in zip(choice, reach)])
    # Rounding, not a mistake: the optimum gives nothing away (relative to a score's size).
    if objective_of(graph) == "win":
        scale = 1.0
    else:
        scale = max(1.0, float(np.abs(option_value).max(initial=0)))
    given[given < 1e-12 * scale] = 0.0
    return dict(
        group_states=np.bincount(group, minlength=size),
        group_value=np.column_stack(
            [
                np.minimum.reduceat(*_sorted_by(values, group)),
                np.maximum.reduceat(*_sorted_by(values, group)),
            ]
        ),
        group_reach=np.array([np.bincount(group, r, minlength=size) for r in reach]),
        group_ends=np.array([np.bincount(group, e, minlength=size) for e in ends]),
        group_given=np.array([np.bincount(group, g, minlength=size) for g in given]),
    )


def _start_values(runs, objective) -> np.ndarray:
    """The start's value under each policy, from its propagation: the win probability for
    ``win``, the expected score or margin otherwise.
    """
    if objective == "win":
        return np.array([float(run.win_probability) for run in runs])
    return np.array([float(run.expected_value) for run in runs])


def _sorted_by(values, group):
    """``values`` sorted by group and the start of each group, for ``ufunc.reduceat``."""
    order = np.argsort(group, kind="stable")
    starts = np.searchsorted(group[order], np.arange(group.max() + 1))
    return values[order], starts


def _given_away(graph: StateGraph, option_value, choice, reach) -> np.ndarray:
    """Per state: reach x the chance-weighted value lost by ``choice`` against the best."""
    ptr = graph.option_ptr
    has = ptr[1:] > ptr[:-1]
    best = np.zeros(graph.n_outcomes)
    if has.any():
        best[has] = np.maximum.reduceat(option_value, ptr[:-1][has])
    chosen = np.flatnonzero(choice >= 0)
    lost = np.zeros(graph.n_outcomes)
    lost[chosen] = best[chosen] - option_value[ptr[chosen] + choice[chosen]]
    per_state = np.bincount(
        graph.outcome_state, lost * graph.outcome_probability, minlength=graph.n_states
    )
    return np.maximum(per_state, 0.0) * reach


def _groups(graph: StateGraph, groups, downwards: bool = False):
    """Each state's group number and the groups' names, in a natural order."""
    rules = graph.rules
    if groups is None and callable(getattr(rules, "group", None)):
        groups = rules.group
    if groups is None and graph.layers is not None:
        layer = np.asarray(graph.layers, dtype=np.int64)
        names = {int(k): _layer_name(rules, int(k)) for k in np.unique(layer)}
        return _numbered(layer, names, downwards)
    if groups is None:
        depth = distance_layers(graph)
        reached = depth <= depth[graph.start] + graph.n_states  # every state has a depth
        names = {int(k): f"{int(k)} moves in" for k in np.unique(depth[reached])}
        return _numbered(depth, names)
    if callable(groups):
        keys = [groups(graph.states[i]) for i in range(graph.n_states)]
    else:
        keys = list(groups)
        if len(keys) != graph.n_states:
            raise InvalidArgumentError(
                f"groups has {len(keys):,} entries; the graph has {graph.n_states:,} states"
            )
    order = sorted(set(keys), key=lambda key: (str(type(key)), key))
    number = {key: k for k, key in enumerate(order)}
    return np.array([number[key] for key in keys], dtype=np.int64), [str(k) for k in order]


def _numbered(keys, names, downwards=False):
    """Group numbers for integer ``keys``: by increasing key, or decreasing where the game
    runs down its layers, so that the overview starts at the start's end too.
    """
    ascending = np.array(sorted(names))
    where = np.searchsorted(ascending, keys)
    if downwards:
        where = len(ascending) - 1 - where
    order = ascending[::-1] if downwards else ascending
    return where.astype(np.int64), [names[int(k)] for k in order]


def _layer_name(rules, layer: int) -> str:
    namer = getattr(rules, "layer_name", None)
    return str(namer(layer)) if callable(namer) else f"layer {layer}"


def _kept(graph, reach, min_reach, max_states) -> np.ndarray:
    """The states the page holds in detail: reached enough, at most ``max_states``."""
    top = reach.max(axis=0)
    keep = np.ones(graph.n_states, dtype=bool) if min_reach == 0 else top >= min_reach
    keep[graph.start] = True
    if keep.sum() > max_states:
        ranked = np.argsort(-np.where(keep, top, -1.0), kind="stable")[:max_states]
        keep[:] = False
        keep[ranked] = True
        keep[graph.start] = True
        if keep.sum() > max_states:
            keep[ranked[-1]] = False
    return np.flatnonzero(keep)


def _structure(graph, kept, values, choice) -> dict:
    """Throws and options of the kept states, re-indexed; targets elsewhere by value."""
    n = graph.n_states
    index = np.full(n, -1, dtype=np.int64)
    index[kept] = np.arange(len(kept))
    first, last = graph.outcome_ptr[kept], graph.outcome_ptr[kept + 1]
    outcomes = _ranges(first, last)
    option_first, option_last = graph.option_ptr[outcomes], graph.option_ptr[outcomes + 1]
    options = _ranges(option_first, option_last)
    target = graph.option_target[options]
    mapped = index[target]
    outside = mapped < 0
    mapped[outside] = -1 - np.arange(int(outside.sum()))
    moves, move_index = np.unique(graph.option_move[options], return_inverse=True)
    names = throw_names(graph, graph.start)  # the same throws at every state, or none
    counts = np.diff(graph.outcome_ptr)
    throw_labels = None
    if names and np.all((counts == len(names)) | graph.terminal):
        throw_labels = [str(name) for name in names]
    return {
        "states": kept,
        "start": int(index[graph.start]),
        "outcome_ptr": np.concatenate([[0], np.cumsum(last - first)]),
        "outcome_weight": graph.outcome_weight[outcomes],
        "denominator": int(graph.denominator),
        "option_ptr": np.concatenate([[0], np.cumsum(option_last - option_first)]),
        "option_target": mapped,
        "option_move": move_index.astype(np.int64).ravel(),
        "option_passes": graph.option_passes[options].astype(bool),
        "option_reward": (
            None if graph.option_reward is None else graph.option_reward[options].astype(float)
        ),
        "outside_value": values[target[outside]],
        "move_labels": [graph.rules.move_label(int(m)) for m in moves],
        "throw_labels": throw_labels,
        "choice": choice[:, outcomes],
    }


def _ranges(first, last) -> np.ndarray:
    """The concatenation of ``range(first[i], last[i])`` for every i, in numpy."""
    counts = last - first
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.repeat(first - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    return starts + np.arange(total)


def _remap(parents, kept, n) -> np.ndarray:
    """Parents as indices among the kept states (-1 where the parent is not kept)."""
    index = np.full(n + 1, -1, dtype=np.int64)
    index[kept] = np.arange(len(kept))
    return index[parents[:, kept]]
