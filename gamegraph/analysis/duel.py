r"""Policy against policy in a two-player game, exactly and by Monte Carlo, from either seat.

A game's states are written from the mover's side, and a :class:`~gamegraph.Policy` gives
one choice per outcome, so on the game's own graph both players follow the same policy.
To pit policy A against policy B the graph is *seated*: every state is held twice, as
``(state, seat)``, seat 0 with A's player to move and seat 1 with B's. An option that
passes the turn moves to the other seat; one that keeps it stays. On the seated graph
the combined policy takes A's choices at seat 0 and B's at seat 1, and the ordinary
:func:`~gamegraph.evaluate` and :func:`~gamegraph.simulate.simulate` do the rest:

.. math::

    P(\text{A wins} \mid \text{A moves first}) = v(\text{start}, 0), \qquad
    P(\text{A wins} \mid \text{B moves first}) = 1 - v(\text{start}, 1),

with :math:`v` the seated graph's values under the combined policy (the probability that
the player to move wins, as everywhere in the library). The rules are not touched: the
seated graph is made from the game's arrays with numpy, twice the states, outcomes and
options (rewards too), and its states are ``(state, seat)`` pairs made on demand.

A margin game (:attr:`gamegraph.rules.Rules.objective` ``"margin"``) is duelled the same
way, its values are A's expected margin instead, and B moving first leaves A
:math:`-v(\text{start}, 1)`: in general :math:`c - v`, with :math:`c` the pass constant
(:func:`gamegraph.values.pass_constant`).

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.pig import Pig, hold_at
>>> graph = build(Pig(goal=10))
>>> optimal = solve(graph, exact=True).policy
>>> result = duel(graph, optimal, optimal, exact=True)
>>> result.moving_first, result.moving_second
(Fraction(7776, 10961), Fraction(3185, 10961))
>>> print(duel(graph, optimal, hold_at(5)))
pig to 10: optimal against hold at 5
moves first  optimal wins  hold at 5 wins
optimal          0.870497        0.129503
hold at 5        0.683826        0.316174
either           0.777161        0.222839
either: each player moves first in half of the games
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from .._checks import check_int
from ..errors import InvalidArgumentError
from ..graph import PositionTable, StateGraph
from ..policy import Policy
from ..rules import Option, Outcome, Rules
from ..simulate import SimulationResult, simulate
from ..solve import Solution, evaluate
from ..tables import Table
from ..values import value_name

__all__ = [
    "DuelResult",
    "DuelSimulation",
    "Seated",
    "SeatedStates",
    "duel",
    "seated_graph",
    "simulate_duel",
]

#: The two seats' letters in labels: seat 0 is the first policy's player, seat 1 the second's.
SEATS = ("A", "B")


class Seated(Rules):
    """A two-player game's rules with a seat added to every state: ``(state, seat)``.

    Seat 0 is the first policy's player, seat 1 the second's; an option that passes the
    turn flips the seat. :func:`seated_graph` makes the same graph from a built one without
    calling the rules; these rules let :func:`gamegraph.build` make it too, and give the
    seated graph its labels.

    Examples
    --------
    >>> from gamegraph.games.pig import Pig
    >>> rules = Seated(Pig(goal=10))
    >>> rules.start(), rules.label(rules.start())
    ((('roll', 0, 0, 0), 0), 'A: roll 0-0 +0')
    >>> [o.options[0].target for o in rules.outcomes(rules.start())][:2]
    [(('roll', 0, 0, 0), 1), (('choose', 0, 0, 2), 0)]
    """

    def __init__(self, rules):
        self.rules = rules
        self.name = getattr(rules, "name", "game")
        self.objective = getattr(rules, "objective", "win")
        named = getattr(rules, "value_name", None)
        if isinstance(named, str) and named:
            self.value_name = named

    def start(self):
        return (self.rules.start(), 0)

    def roots(self):
        return tuple((state, 0) for state in self.rules.roots())

    def terminal_value(self, state):
        return self.rules.terminal_value(state[0])

    def outcomes(self, state):
        inner, seat = state
        return [
            Outcome(
                outcome.probability,
                tuple(
                    Option((o.target, seat ^ bool(o.passes)), o.move, o.passes, o.reward)
                    for o in outcome.options
                ),
            )
            for outcome in self.rules.outcomes(inner)
        ]

    def label(self, state) -> str:
        inner, seat = state
        return f"{SEATS[seat]}: {self.rules.label(inner)}"

    def layer(self, state):
        return self.rules.layer(state[0])

    def move_label(self, move: int) -> str:
        return self.rules.move_label(move)


class SeatedStates(PositionTable):
    """The states of a seated graph, ``(state, seat)`` for number ``seat * n + i``, made on
    demand from the game graph's own states.
    """

    def __init__(self, graph: StateGraph):
        self.graph = graph

    def __len__(self) -> int:
        return 2 * self.graph.n_states

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = self.graph.n_states
        i = int(i) + (2 * n if i < 0 else 0)
        if not 0 <= i < 2 * n:
            raise IndexError(f"state number {i} out of range for {2 * n} seated states")
        return (self.graph.states[i % n], i // n)

    def index_of(self, state) -> int:
        try:
            inner, seat = state
        except (TypeError, ValueError):
            raise KeyError(state) from None
        if seat not in (0, 1) or isinstance(seat, float):
            raise KeyError(state)
        try:
            return self.graph.state_number(inner) + int(seat) * self.graph.n_states
        except InvalidArgumentError:
            raise KeyError(state) from None


def _check_two_players(graph: StateGraph) -> None:
    if not graph.option_passes.any():
        name = getattr(graph.rules, "name", "this game")
        raise InvalidArgumentError(
            f"{name} has no opponent: no option passes the turn, so one player plays alone "
            "and there is no policy against policy; evaluate or simulate a single policy "
            "instead (gamegraph.evaluate(graph, policy))"
        )


def seated_graph(graph: StateGraph) -> StateGraph:
    """``graph`` with every state held twice, ``(state, 0)`` and ``(state, 1)``: see the
    module docstring. Built from the arrays alone; state ``i`` at seat ``s`` is number
    ``s * n + i``, and so are its outcomes and options (``s * n_outcomes + k``, ...).

    Raises InvalidArgumentError for a one-player game (no option passes the turn).

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.pig import Pig
    >>> graph = build(Pig(goal=10))
    >>> seated = seated_graph(graph)
    >>> seated.n_states == 2 * graph.n_states, seated.states[graph.n_states + graph.start]
    (True, (('roll', 0, 0, 0), 1))
    >>> seated.state_number((("roll", 0, 0, 0), 1)) - graph.n_states == graph.start
    True
    """
    _check_two_players(graph)
    n, k, m = graph.n_states, graph.n_outcomes, graph.n_options
    seat = np.repeat(np.array([0, 1], dtype=graph.option_target.dtype), m)
    passes = np.tile(graph.option_passes, 2)
    target = np.tile(graph.option_target, 2) + n * (seat ^ passes)
    return StateGraph(
        rules=Seated(graph.rules),
        states=SeatedStates(graph),
        start=graph.start,
        outcome_ptr=np.concatenate([graph.outcome_ptr, graph.outcome_ptr[1:] + k]),
        outcome_weight=np.tile(graph.outcome_weight, 2),
        denominator=graph.denominator,
        option_ptr=np.concatenate([graph.option_ptr, graph.option_ptr[1:] + m]),
        option_target=target.astype(graph.option_target.dtype, copy=False),
        option_move=np.tile(graph.option_move, 2),
        option_passes=passes,
        terminal=np.tile(graph.terminal, 2),
        terminal_value=np.tile(graph.terminal_value, 2),
        terminal_exact={
            **graph.terminal_exact,
            **{i + n: v for i, v in graph.terminal_exact.items()},
        },
        objective=graph.objective,
        option_reward=None if graph.option_reward is None else np.tile(graph.option_reward, 2),
        reward_exact={
            **graph.reward_exact,
            **{j + m: r for j, r in graph.reward_exact.items()},
        },
    )


def _policy(graph: StateGraph, player, name: str) -> Policy:
    """A Policy for ``graph`` from a Policy, a Solution, an Agent or a choice function."""
    if isinstance(player, Solution):
        player = player.policy
    if isinstance(player, Policy):
        player.check(graph)
        return player
    if callable(player) or hasattr(player, "policy"):
        return Policy.from_agent(graph, player)
    raise InvalidArgumentError(
        f"{name} must be a Policy, a Solution, an agent or a choice function "
        f"agent(state, options), got {type(player).__name__}"
    )


def _names(first: Policy, second: Policy) -> tuple[str, str]:
    a, b = first.name or "first", second.name or "second"
    return (a, b) if a != b else (f"{a} (A)", f"{b} (B)")


def _combined(graph: StateGraph, first, second) -> tuple[Policy, Policy, Policy]:
    a = _policy(graph, first, "first")
    b = _policy(graph, second, "second")
    names = _names(a, b)
    both = Policy(np.concatenate([a.choice, b.choice]), name=f"{names[0]} vs {names[1]}")
    return a, b, both


@dataclass(eq=False)
class DuelResult:
    """Two policies evaluated against each other, from both seats (see :func:`duel`).

    Attributes
    ----------
    graph : StateGraph
        The game.
    first, second : Policy
        Policy A and policy B.
    solution : Solution
        The seated graph (:attr:`Solution.graph`) evaluated under A's choices at seat 0 and
        B's at seat 1: ``solution.values[s * n + i]`` is the value to the player to move at
        state ``i``, seat ``s``: the probability of winning, or the expected margin in a
        margin game.
    """

    graph: StateGraph
    first: Policy
    second: Policy
    solution: Solution

    @property
    def exact(self) -> bool:
        return self.solution.exact

    @property
    def objective(self) -> str:
        """The game's objective: ``"win"`` or ``"margin"``."""
        return self.graph.objective

    @property
    def names(self) -> tuple[str, str]:
        """The two policies' names (suffixed A and B when they are the same)."""
        return _names(self.first, self.second)

    def value(self, state=None, mover: int = 0):
        """The first policy's (A's) value from ``state`` (default: the start) with
        ``mover`` to move, 0 for A's player, 1 for B's: the probability that A wins, or
        A's expected margin in a margin game. A Fraction when exact, else a float.
        """
        mover = check_int(mover, "mover", low=0, high=1)
        i = self.graph.start if state is None else self.graph.state_number(state)
        v = self.solution.values[mover * self.graph.n_states + i]
        v = v if self.exact else float(v)
        c = self.graph.pass_constant
        return v if mover == 0 else (Fraction(c) if self.exact else float(c)) - v

    @property
    def moving_first(self):
        """A's value (win probability or expected margin) when A moves first."""
        return self.value(None, 0)

    @property
    def moving_second(self):
        """A's value (win probability or expected margin) when B moves first."""
        return self.value(None, 1)

    @property
    def alternating(self):
        """A's value when each side moves first in half of the games."""
        return (self.moving_first + self.moving_second) / 2

    def table(self) -> Table:
        """Who wins, by who moves first: one row per seat order and one for alternating.

        Probabilities are Fractions when the duel was exact, A's then also in percent. In
        a margin game: each side's expected margin (B's is minus A's).
        """
        a, b = self.names
        if self.objective != "win":
            return _margin_table(self.graph, a, b, self.moving_first, self.moving_second)
        one = Fraction(1) if self.exact else 1.0
        rows = [
            (who, p, one - p, 100 * float(p))[: 4 if self.exact else 3]
            for who, p in (
                (a, self.moving_first),
                (b, self.moving_second),
                ("either", self.alternating),
            )
        ]
        columns = ("moves first", f"{a} wins", f"{b} wins", f"{a} wins (%)")
        return Table(
            columns[: 4 if self.exact else 3],
            rows,
            title=f"{getattr(self.graph.rules, 'name', 'game')}: {a} against {b}",
            notes=("either: each player moves first in half of the games",),
            formats={f"{a} wins (%)": lambda value: f"{value:.4f} %"},
        )

    def to_pandas(self):
        """:meth:`table` as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.table().to_pandas()

    def __str__(self) -> str:
        return self.table().to_text()

    def _repr_html_(self) -> str:
        return self.table().to_html()

    def __repr__(self) -> str:
        a, b = self.names
        kind = "exact" if self.exact else "float"
        what = "wins" if self.objective == "win" else "expects a margin of"
        return (
            f"<DuelResult {a} vs {b}: {a} {what} {float(self.moving_first):.6f} moving first, "
            f"{float(self.moving_second):.6f} moving second ({kind})>"
        )


def _margin_table(graph, a, b, first, second) -> Table:
    """A margin duel's table: each side's expected margin by who moves first (and A's as a
    float beside exact values).
    """
    name = value_name(graph)
    exact = isinstance(first, Fraction)
    rows = [
        (who, p, -p, float(p))[: 4 if exact else 3]
        for who, p in ((a, first), (b, second), ("either", (first + second) / 2))
    ]
    columns = ("moves first", f"{a}: {name}", f"{b}: {name}", f"{a} (float)")
    return Table(
        columns[: 4 if exact else 3],
        rows,
        title=f"{getattr(graph.rules, 'name', 'game')}: {a} against {b}",
        notes=("either: each player moves first in half of the games",),
    )


def duel(
    graph: StateGraph, first, second, *, exact: bool = False, progress: bool | None = None
) -> DuelResult:
    """Policy ``first`` (A) against policy ``second`` (B) on a two-player game, exactly.

    Parameters
    ----------
    graph : StateGraph
        A two-player game: some option passes the turn (InvalidArgumentError otherwise).
    first, second : Policy, Solution, agent or choice function
        The two players; anything :meth:`gamegraph.Policy.from_agent` accepts, a Policy of
        ``graph``, or a Solution (its policy).
    exact : bool
        Fractions instead of floats.
    progress : bool or None
        A bar on stderr while evaluating, as for :func:`gamegraph.evaluate`.

    Returns
    -------
    DuelResult
        A's win probability (a margin game: A's expected margin) moving first and moving
        second, and the values of every seated state.

    Examples
    --------
    With the same policy on both sides, moving first is worth the policy's own start value
    (:func:`gamegraph.evaluate` on the game itself):

    >>> from gamegraph import Policy, build, evaluate
    >>> from gamegraph.games.pig import Pig, hold_at
    >>> graph = build(Pig(goal=10))
    >>> same = duel(graph, hold_at(5), hold_at(5), exact=True)
    >>> alone = evaluate(graph, Policy.from_agent(graph, hold_at(5)), exact=True)
    >>> same.moving_first == alone.start_value, same.moving_second == 1 - alone.start_value
    (True, True)

    Two different policies, from each seat:

    >>> result = duel(graph, hold_at(4), hold_at(6))
    >>> round(result.moving_first, 6), round(result.moving_second, 6)
    (0.574141, 0.232939)
    """
    _check_two_players(graph)
    a, b, both = _combined(graph, first, second)
    seated = seated_graph(graph)
    solution = evaluate(seated, both, exact=exact, progress=progress)
    return DuelResult(graph=graph, first=a, second=b, solution=solution)


@dataclass(frozen=True)
class DuelSimulation:
    """Two policies played against each other by Monte Carlo, from both seats.

    Attributes
    ----------
    names : tuple of str
        Policy A's and policy B's names.
    first_moves : SimulationResult
        The games where A moved first (its ``wins`` are A's).
    second_moves : SimulationResult
        The games where B moved first (its ``wins`` are B's; in a margin game its mean is
        B's margin).
    value_name : str
        What the values are called ("win probability", "expected margin", the game's own).
    """

    game: str
    names: tuple[str, str]
    first_moves: SimulationResult
    second_moves: SimulationResult
    value_name: str = "win probability"

    @property
    def objective(self) -> str:
        """The game's objective: ``"win"`` or ``"margin"``."""
        return self.first_moves.objective

    @property
    def _constant(self) -> int:
        return 1 if self.objective == "win" else 0

    @property
    def moving_first(self) -> float:
        """A's win rate (or mean margin) in the games where A moved first."""
        return self.first_moves.estimate

    @property
    def moving_second(self) -> float:
        """A's win rate (or mean margin) in the games where B moved first."""
        return self._constant - self.second_moves.estimate

    def interval(self, mover: int = 0, confidence: float = 0.95) -> tuple[float, float]:
        """The interval for A's win probability (Wilson) or expected margin (normal) with
        ``mover`` (0: A, 1: B) moving first.
        """
        mover = check_int(mover, "mover", low=0, high=1)
        if mover == 0:
            return self.first_moves.interval(confidence)
        low, high = self.second_moves.interval(confidence)
        return (self._constant - high, self._constant - low)

    def table(self, confidence: float = 0.95) -> Table:
        """A's win rate (or mean margin) and its interval, by who moved first."""
        a, b = self.names
        rows = []
        for mover, who, result, rate in (
            (0, a, self.first_moves, self.moving_first),
            (1, b, self.second_moves, self.moving_second),
        ):
            low, high = self.interval(mover, confidence)
            rows.append((who, result.finished, rate, f"[{low:.4f}, {high:.4f}]"))
        notes = [note for note in (self.first_moves.note, self.second_moves.note) if note]
        seeds = f"seeds {self.first_moves.seed}, {self.second_moves.seed}"
        what = f"{a} wins" if self.objective == "win" else f"{a}: {self.value_name}"
        return Table(
            ("moves first", "games", what, f"{100 * confidence:g} % interval"),
            rows,
            title=f"{self.game}: {a} against {b}, Monte Carlo ({seeds})",
            notes=tuple(notes),
        )

    def __str__(self) -> str:
        return self.table().to_text()

    def _repr_html_(self) -> str:
        return self.table().to_html()

    def __repr__(self) -> str:
        a, b = self.names
        what = "wins" if self.objective == "win" else "expects a margin of"
        return (
            f"<DuelSimulation {a} vs {b}: {a} {what} {self.moving_first:.4f} moving first, "
            f"{self.moving_second:.4f} moving second>"
        )


def simulate_duel(
    graph: StateGraph,
    first,
    second,
    *,
    games: int,
    seed: int | None = None,
    max_throws: int = 100_000,
    progress=None,
) -> DuelSimulation:
    """Play ``games`` games with A moving first and ``games`` with B moving first.

    ``first`` and ``second`` are taken as by :func:`duel`; the games are played on the
    seated graph by :func:`gamegraph.simulate.simulate` (exact sampling of every throw).
    ``seed`` seeds both runs (through ``numpy.random.SeedSequence(seed)``, one child seed
    per seat order); None draws fresh entropy.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.pig import Pig, hold_at
    >>> graph = build(Pig(goal=10))
    >>> optimal = solve(graph).policy
    >>> played = simulate_duel(graph, optimal, hold_at(5), games=4000, seed=7)
    >>> exact = duel(graph, optimal, hold_at(5))
    >>> low, high = played.interval(0, 0.99)
    >>> bool(low < exact.moving_first < high)
    True
    >>> low, high = played.interval(1, 0.99)
    >>> bool(low < exact.moving_second < high)
    True
    """
    _check_two_players(graph)
    a, b, both = _combined(graph, first, second)
    seated = seated_graph(graph)
    if seed is not None:
        seed = check_int(seed, "seed", low=0)
    if seed is None:
        seeds = (None, None)
    else:
        seeds = tuple(int(s) for s in np.random.SeedSequence(seed).generate_state(2))
    n = graph.n_states
    results = []
    for mover, child in enumerate(seeds):
        start = replace(seated, start=graph.start + mover * n)
        results.append(
            simulate(
                start,
                both,
                games=games,
                seed=child,
                max_throws=max_throws,
                progress=progress,
            )
        )
    return DuelSimulation(
        game=getattr(graph.rules, "name", "game"),
        names=_names(a, b),
        first_moves=results[0],
        second_moves=results[1],
        value_name=value_name(graph),
    )
