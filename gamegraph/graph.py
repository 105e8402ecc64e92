"""The explicit state graph: states numbered 0..n-1, outcomes and options in flat arrays.

Layout (compressed sparse rows, two levels deep)::

    state i      -> outcomes  outcome_ptr[i] .. outcome_ptr[i+1]-1
    outcome k    -> options   option_ptr[k]  .. option_ptr[k+1]-1
    outcome k    probability  outcome_weight[k] / denominator      (exact integers)
    option j     target state option_target[j], move option_move[j], passes option_passes[j]

Terminal states have no outcomes; their value (for the player to move there) is in
``terminal_value``. Memory is a few bytes per outcome and per option, whatever the game.

The ``objective`` (:mod:`gamegraph.values`) says what values mean. In ``"score"`` and
``"margin"`` games an option may carry a reward: ``option_reward`` holds every option's
as a float (None when every reward is 0) and ``reward_exact`` the exact ones that are not
0 (option number: Fraction).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

from .condensation import Condensation, condense
from .csr import expand_ranges
from .errors import InvalidArgumentError, InvalidRulesError

__all__ = ["PositionTable", "StateGraph", "expand_ranges", "terminal_arrays"]


#: The largest layer a state may have: layers count things on a board (pegs, pieces,
#: tiles), and drawings and :meth:`StateGraph.layer_counts` spend memory per layer.
MAX_LAYER = 1_000_000


def layer_problem(value) -> str | None:
    """What is wrong with ``value`` as a state's layer, or None for a whole number in
    0..:data:`MAX_LAYER`.

    >>> layer_problem(3), layer_problem(1.5)
    (None, 'layer 1.5 is not a whole number')
    >>> layer_problem(10**30)
    'layer 1000000000000000000000000000000 is outside 0..1,000,000'
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return f"layer {value!r:.60} is not a whole number"
    if not 0 <= value <= MAX_LAYER:
        shown = str(value) if abs(value) < 10**60 else "of more than 60 digits"
        return f"layer {shown} is outside 0..{MAX_LAYER:,}"
    return None


def terminal_arrays(n: int, exact: dict) -> tuple[np.ndarray, np.ndarray]:
    """A graph's ``terminal`` flags and float ``terminal_value`` for ``n`` states, from
    the exact values of its terminal states (state number: value).

    Examples
    --------
    >>> terminal, value = terminal_arrays(3, {2: Fraction(1, 4)})
    >>> terminal.tolist(), value.tolist()
    ([False, False, True], [0.0, 0.0, 0.25])
    """
    terminal = np.zeros(n, dtype=bool)
    terminal_value = np.zeros(n, dtype=np.float64)
    for i, v in exact.items():
        terminal[i] = True
        terminal_value[i] = float(v)
    return terminal, terminal_value


class PositionTable(Sequence):
    """The states of a graph built by a game's own vectorised builder, made on demand.

    A vectorised build numbers millions of positions without making a Python object for
    each; its ``graph.states`` is a subclass of this table. It behaves as a read-only
    sequence (``len``, ``table[i]``, iteration) and maps a state back to its number with
    :meth:`index_of`, which raises ``KeyError`` for a state it does not hold.
    """

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def __getitem__(self, i): ...

    @abstractmethod
    def index_of(self, state) -> int:
        """The number of ``state``; ``KeyError`` if the table does not hold it."""


@dataclass(eq=False)
class StateGraph:
    """A game's reachable states and every legal move, as flat numpy arrays.

    Build one with :func:`gamegraph.build`; see the module docstring for the layout.
    """

    rules: object
    states: list
    start: int
    outcome_ptr: np.ndarray
    outcome_weight: np.ndarray
    denominator: int
    option_ptr: np.ndarray
    option_target: np.ndarray
    option_move: np.ndarray
    option_passes: np.ndarray
    terminal: np.ndarray
    terminal_value: np.ndarray
    terminal_exact: dict = field(default_factory=dict)
    objective: str = "win"
    option_reward: np.ndarray | None = None
    reward_exact: dict = field(default_factory=dict)

    def __post_init__(self):
        from .values import check_objective

        check_objective(self.objective)
        if self.option_reward is not None and not self.reward_exact:
            # Floats alone (a vectorised build): each taken at its exact binary value.
            given = np.asarray(self.option_reward, dtype=np.float64)
            self.reward_exact = {int(j): Fraction(float(given[j])) for j in np.flatnonzero(given)}
            self.option_reward = given if self.reward_exact else None
        if self.reward_exact and self.option_reward is None:
            reward = np.zeros(len(self.option_target), dtype=np.float64)
            for j, r in self.reward_exact.items():
                reward[j] = float(r)
            self.option_reward = reward

    @property
    def pass_constant(self) -> int:
        """1 for a ``"win"`` game (a passing option is worth ``1 - v``), else 0 (``r - v``)."""
        return 1 if self.objective == "win" else 0

    @property
    def has_rewards(self) -> bool:
        """Whether some option carries a reward that is not 0."""
        return bool(self.reward_exact)

    def rewards(self, exact: bool = False) -> np.ndarray | None:
        """Every option's reward: floats, or with ``exact`` an object array of Fractions;
        None when every reward is 0.
        """
        if not self.reward_exact:
            return None
        if not exact:
            return self.option_reward
        out = np.empty(len(self.option_target), dtype=object)
        out[:] = Fraction(0)
        for j, r in self.reward_exact.items():
            out[j] = r
        return out

    # ---- sizes -------------------------------------------------------------
    @property
    def n_states(self) -> int:
        return len(self.states)

    @property
    def n_outcomes(self) -> int:
        return len(self.outcome_weight)

    @property
    def n_options(self) -> int:
        return len(self.option_target)

    @property
    def nbytes(self) -> int:
        """Bytes held by the numeric arrays (the Python state objects are not counted)."""
        arrays = (
            self.outcome_ptr,
            self.outcome_weight,
            self.option_ptr,
            self.option_target,
            self.option_move,
            self.option_passes,
            self.terminal,
            self.terminal_value,
        )
        extra = 0 if self.option_reward is None else self.option_reward.nbytes
        return sum(a.nbytes for a in arrays) + extra

    # ---- derived arrays (computed once) -------------------------------------
    @cached_property
    def index(self) -> dict:
        """Map from state value to its number."""
        return {state: i for i, state in enumerate(self.states)}

    @cached_property
    def outcome_state(self) -> np.ndarray:
        """For every outcome, the state it belongs to."""
        return np.repeat(np.arange(self.n_states, dtype=np.int64), np.diff(self.outcome_ptr))

    @cached_property
    def option_outcome(self) -> np.ndarray:
        """For every option, the outcome it belongs to."""
        return np.repeat(np.arange(self.n_outcomes, dtype=np.int64), np.diff(self.option_ptr))

    @cached_property
    def outcome_probability(self) -> np.ndarray:
        """Float probability of every outcome."""
        return self.outcome_weight / self.denominator

    @cached_property
    def condensation(self) -> Condensation:
        """Strongly connected components in solving order (see :mod:`gamegraph.condensation`)."""
        return condense(self)

    # ---- lookups -----------------------------------------------------------
    def state_number(self, state) -> int:
        """The number of a state value; raises InvalidArgumentError if it is not in the graph."""
        try:
            if isinstance(self.states, PositionTable):
                return self.states.index_of(state)
            return self.index[state]
        except (KeyError, TypeError):
            raise InvalidArgumentError(f"state {state!r} is not in this graph") from None

    def label(self, i: int) -> str:
        return self.rules.label(self.states[i])

    def layer(self, i: int):
        return self.rules.layer(self.states[i])

    @cached_property
    def layers(self) -> np.ndarray | None:
        """The layer of every state, or None for a game without layers.

        A game without layers is one whose :meth:`Rules.layer` returns None for every
        state; rules that give some states a layer and others None raise
        InvalidRulesError naming the first state without one.
        """
        values = [self.rules.layer(s) for s in self.states]
        missing = [i for i, v in enumerate(values) if v is None]
        if len(missing) == len(values):
            return None
        if missing:
            raise InvalidRulesError(
                f"{self.rules.name}: Rules.layer gives some states a layer and "
                f"{self.label(missing[0])!r} None; give every state a layer, or none"
            )
        for i, value in enumerate(values):
            problem = layer_problem(value)
            if problem:
                raise InvalidRulesError(
                    f"{self.rules.name}: Rules.layer of state {self.label(i)!r}: {problem}"
                )
        return np.array(values, dtype=np.int64)

    def layer_counts(self) -> list[int]:
        """How many states each layer holds, layer 0 first.

        Raises InvalidArgumentError for games without layers.
        """
        if self.layers is None:
            raise InvalidArgumentError(f"{self.rules.name} states have no layers")
        return np.bincount(self.layers).tolist()

    def probability(self, k: int) -> Fraction:
        """Exact probability of outcome k."""
        return Fraction(int(self.outcome_weight[k]), self.denominator)

    def outcomes_of(self, i: int) -> range:
        return range(int(self.outcome_ptr[i]), int(self.outcome_ptr[i + 1]))

    def options_of(self, k: int) -> range:
        return range(int(self.option_ptr[k]), int(self.option_ptr[k + 1]))

    def is_acyclic(self) -> bool:
        return not self.condensation.cyclic.any()

    def __repr__(self) -> str:
        return (
            f"StateGraph({self.rules.name!r}: {self.n_states} states, "
            f"{self.n_outcomes} outcomes, {self.n_options} options)"
        )
