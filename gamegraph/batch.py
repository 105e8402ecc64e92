r"""Rules that work on whole arrays of states, and the build that explores them.

The state-by-state :class:`~gamegraph.rules.Rules` cost a Python call per state and an
object per option. A game whose rules vectorise can instead subclass
:class:`BatchRules`: states are int64 *codes* (the game packs its fields into one
integer), and one call expands a whole array of codes into an :class:`Expansion`, the
same flat arrays a :class:`~gamegraph.graph.StateGraph` holds::

    outcome k    belongs to input state outcome_state[k]    (grouped, in order)
                 probability outcome_weight[k] / denominator
    option j     belongs to outcome option_outcome[j]        (grouped, in order)
                 leads to code option_target[j], move option_move[j], passes option_passes[j]
                 pays option_reward[j] to the mover (score and margin games)

:func:`build_batch` explores from the roots a frontier at a time: it asks which codes
are terminal, expands the others, numbers the targets it has not seen, and repeats with
those. Every array is checked on the way (probabilities in (0, 1] that sum to exactly 1
per state, grouping, move range, rewards), and a breach raises
:class:`~gamegraph.errors.InvalidRulesError` naming the state by its label.

A game's objective (:attr:`BatchRules.objective`, ``"win"`` by default; see
:mod:`gamegraph.values`) is checked as :func:`gamegraph.build` checks it state by state:
terminal values in [0, 1] and no rewards for ``"win"``; any finite terminal values and
rewards for ``"score"`` and ``"margin"``; no option that passes the turn for ``"score"``.

A game that knows a bound on its codes (``code_bound``: every code is in
``[0, code_bound)``) is numbered through a dense lookup table, the fastest way; without
one, a sorted table of the codes seen so far is searched instead.

Examples
--------
A coin race in batch form: code 0 is the game in play, code 1 the win. Heads (1/2)
wins, tails passes the turn.

>>> import numpy as np
>>> class CoinRace(BatchRules):
...     name = "coin race"
...     code_bound = 2
...     def start(self):
...         return 0
...     def terminal_values(self, codes):
...         return np.where(codes == 1, 1.0, np.nan)
...     def expand(self, codes):
...         m = len(codes)
...         return Expansion(
...             outcome_state=np.repeat(np.arange(m), 2), outcome_weight=np.ones(2 * m),
...             denominator=2, option_outcome=np.arange(2 * m),
...             option_target=np.tile([1, 0], m), option_passes=np.tile([False, True], m))
>>> from gamegraph import solve
>>> from gamegraph import build
>>> graph = build(CoinRace())
>>> graph.n_states, solve(graph, exact=True).start_value
(2, Fraction(2, 3))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from fractions import Fraction
from functools import cached_property
from math import isfinite, lcm
from numbers import Rational, Real
from typing import NamedTuple

import numpy as np

from ._progress import progress_bar
from .csr import expand_ranges, pointers
from .errors import InvalidRulesError
from .graph import PositionTable, StateGraph, terminal_arrays
from .values import check_objective

__all__ = ["BatchRules", "Expansion", "CodeTable", "build_batch", "DENSE_TABLE_LIMIT"]

#: Largest ``code_bound`` numbered through a dense table (8 bytes per possible code).
DENSE_TABLE_LIMIT = 1 << 28
#: States expanded per call of ``expand`` (bounds the memory of one call's arrays).
CHUNK = 1 << 20

_MOVE_LOW, _MOVE_HIGH = -(2**31), 2**31 - 1


class Expansion(NamedTuple):
    """The outcomes and options of an array of states (see the module docstring).

    ``outcome_state`` indexes the array of codes given to ``expand`` and must be
    non-decreasing, every state having at least one outcome; ``option_outcome`` indexes
    the outcomes and must be non-decreasing (an outcome without options is a throw that
    leaves the mover stuck). ``option_move`` defaults to -1 and ``option_passes`` to
    False for every option.

    ``option_reward`` (None: every reward is 0) is what the mover gains by each option,
    in games whose objective is ``"score"`` or ``"margin"``: ints, finite floats (each
    taken at its exact binary value, as :class:`~gamegraph.rules.Option` takes them), or
    an object array of ints and Fractions for rewards such as 1/3.
    """

    outcome_state: np.ndarray
    outcome_weight: np.ndarray
    denominator: int
    option_outcome: np.ndarray
    option_target: np.ndarray
    option_move: np.ndarray | None = None
    option_passes: np.ndarray | None = None
    option_reward: np.ndarray | None = None

    @classmethod
    def from_grid(cls, weights, denominator, targets, valid, moves=None, passes=None, rewards=None):
        """An expansion where every state has the same outcomes, each with up to J options.

        Parameters
        ----------
        weights : array of int, shape (K,)
            The K outcomes' probabilities times ``denominator``, the same for every state.
        denominator : int
        targets, valid : arrays of shape (m, K, J)
            Option j of outcome k of state i leads to ``targets[i, k, j]`` where
            ``valid[i, k, j]``; invalid slots are dropped (an outcome keeps its options in
            slot order, and may end up with none).
        moves, passes, rewards : arrays of shape (m, K, J) or broadcastable to it, optional

        Examples
        --------
        >>> e = Expansion.from_grid([1, 1], 2, targets=[[[5, 6], [7, 0]]],
        ...                         valid=[[[True, True], [True, False]]])
        >>> e.outcome_state.tolist(), e.option_outcome.tolist(), e.option_target.tolist()
        ([0, 0], [0, 0, 1], [5, 6, 7])
        """
        # No casts: the explorer checks the arrays' types (a weight of 1.5 or a target of
        # 2.2 is refused there, not rounded here).
        targets, valid = np.asarray(targets), np.asarray(valid)
        weights = np.asarray(weights)
        if targets.ndim != 3 or valid.shape != targets.shape or valid.dtype != bool:
            raise InvalidRulesError(
                "Expansion.from_grid: targets must have shape (states, outcomes, options) and "
                f"valid the same shape of bools; got {targets.shape} and {valid.shape} "
                f"({valid.dtype})"
            )
        m, k, _ = targets.shape
        if weights.shape != (k,):
            raise InvalidRulesError(
                f"Expansion.from_grid: weights must hold one number per outcome ({k}), "
                f"got shape {weights.shape}"
            )
        try:
            moves, passes, rewards = (
                None if values is None else np.broadcast_to(values, targets.shape)[valid]
                for values in (moves, passes, rewards)
            )
        except ValueError:
            raise InvalidRulesError(
                "Expansion.from_grid: moves, passes and rewards must fit the targets' shape "
                f"{targets.shape}"
            ) from None
        return cls(
            outcome_state=np.repeat(np.arange(m, dtype=np.int64), k),
            outcome_weight=np.tile(weights, m),
            denominator=denominator,
            option_outcome=np.nonzero(valid.reshape(m * k, -1))[0],
            option_target=targets[valid],
            option_move=moves,
            option_passes=passes,
            option_reward=rewards,
        )


class BatchRules(ABC):
    """The rules of a game stated on arrays of int64 state codes.

    Implement :meth:`start`, :meth:`terminal_values` and :meth:`expand`; set ``name`` and,
    when the codes are known to lie in ``[0, code_bound)``, ``code_bound``; a game that is
    not about winning sets ``objective`` and gives its options rewards
    (``Expansion.option_reward``). Readable states are optional: :meth:`state` turns a code
    into the value shown in tables and diagrams (the code itself by default), :meth:`code`
    goes back.
    """

    name: str = "game"
    #: What the values mean: ``"win"``, ``"score"`` or ``"margin"`` (:mod:`gamegraph.values`).
    objective: str = "win"
    #: Every code is in [0, code_bound), or None if the game gives no bound.
    code_bound: int | None = None
    #: Number the states by ascending code (the start wherever its code falls) instead of
    #: the start first and the others in the order found: for games whose tables are
    #: kept in code order.
    number_by_code: bool = False

    @abstractmethod
    def start(self) -> int:
        """The code of the start state."""

    @abstractmethod
    def terminal_values(self, codes: np.ndarray) -> np.ndarray:
        """For each code, the value of a terminal state for the player to move there (in
        [0, 1] for a ``"win"`` game, any finite number for the others), or NaN where the
        game goes on. Values are taken at their exact binary value (0, 1/2, 1 are exact);
        override :meth:`terminal_fraction` for others.
        """

    @abstractmethod
    def expand(self, codes: np.ndarray) -> Expansion:
        """The outcomes and options of non-terminal states (see :class:`Expansion`)."""

    def roots(self):
        """Codes the graph must hold besides those reachable from the start, as an iterable
        or an int array; just the start by default. States are numbered the start first,
        then the roots in this order.
        """
        return (self.start(),)

    def table(self, codes: np.ndarray) -> CodeTable:
        """The graph's ``states``: the codes in state-number order, as a table (a
        :class:`CodeTable` unless a game offers a richer one).
        """
        return CodeTable(codes, self)

    def terminal_fraction(self, code: int, value: float) -> Fraction:
        """The exact value of terminal ``code`` whose float value is ``value``."""
        return Fraction(value)

    def state(self, code: int):
        """The readable state of a code (the code itself unless overridden)."""
        return code

    def code(self, state) -> int:
        """The code of a readable state: the inverse of :meth:`state`."""
        return state

    def label(self, state) -> str:
        """Readable text for a state (as returned by :meth:`state`)."""
        return str(state)

    def layer(self, state) -> int | None:
        """The layer of a state in a layered drawing, or None."""
        return None

    def move_label(self, move: int) -> str:
        """Readable text for a move number."""
        return str(move)


class CodeTable(PositionTable):
    """The states of a graph built from batch rules: their codes in state-number order.

    ``table[i]`` is ``rules.state(codes[i])``; :meth:`index_of` finds a state's number by
    binary search on the sorted codes.
    """

    def __init__(self, codes: np.ndarray, rules: BatchRules):
        self.codes = codes
        self.rules = rules

    @cached_property
    def _order(self) -> np.ndarray:
        """State numbers in code order (made at the first lookup, not at the build)."""
        return np.argsort(self.codes, kind="stable")

    @cached_property
    def _sorted(self) -> np.ndarray:
        return self.codes[self._order]

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, i):
        return self.rules.state(int(self.codes[i]))

    def __iter__(self):
        return (self.rules.state(c) for c in self.codes.tolist())

    def index_of(self, state) -> int:
        try:
            code = self.rules.code(state)
        except (TypeError, ValueError, OverflowError, KeyError):
            raise KeyError(state) from None
        if isinstance(code, (bool, np.bool_)) or not isinstance(code, (int, np.integer)):
            raise KeyError(state)  # 1.5 or True is not the state with code 1
        code = int(code)
        at = int(np.searchsorted(self._sorted, code))
        if at >= len(self._sorted) or self._sorted[at] != code:
            raise KeyError(state)
        return int(self._order[at])

    def numbers(self, codes) -> np.ndarray:
        """State numbers of an array of codes (KeyError for the first code not held)."""
        codes = np.asarray(codes, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._sorted, codes), len(self._sorted) - 1)
        held = self._sorted[at] == codes
        if not held.all():
            raise KeyError(int(codes[np.argmin(held)]))
        return self._order[at]


class _Numbering:
    """Code -> state number, for the codes seen so far (dense table or sorted arrays)."""

    def __init__(self, bound, max_states):
        self.dense = None
        if bound is not None and bound <= DENSE_TABLE_LIMIT:
            # int32 where the numbers fit: half the memory, and a lookup misses the cache less
            small = max_states < 2**31
            self.dense = np.full(int(bound), -1, dtype=np.int32 if small else np.int64)
        self.keys = np.zeros(0, dtype=np.int64)  # sorted codes (sparse mode)
        self.values = np.zeros(0, dtype=np.int64)

    def lookup(self, codes):
        """Numbers of ``codes``, -1 where not seen."""
        if self.dense is not None:
            return self.dense[codes].astype(np.int64, copy=False)
        at = np.minimum(np.searchsorted(self.keys, codes), max(len(self.keys) - 1, 0))
        if not len(self.keys):
            return np.full(len(codes), -1, dtype=np.int64)
        return np.where(self.keys[at] == codes, self.values[at], -1)

    def add(self, codes, numbers):
        if self.dense is not None:
            self.dense[codes] = numbers
            return
        at = np.searchsorted(self.keys, codes)
        order = np.argsort(codes, kind="stable")
        self.keys = np.insert(self.keys, at[order], codes[order])
        self.values = np.insert(self.values, at[order], numbers[order])


def build_batch(rules: BatchRules, *, max_states: int, progress: bool | None = None):
    """Explore batch rules from their roots and return the :class:`StateGraph`.

    States are numbered roots first (the start is 0, the others in the order ``roots()``
    gives them), then frontier by frontier in the order their codes first appear among
    the targets; or, for rules with ``number_by_code``, by ascending code.
    ``graph.states`` is ``rules.table(codes)``, a
    :class:`CodeTable` by default. Use :func:`gamegraph.build`, which calls this for
    :class:`BatchRules` and checks ``max_states``.
    """
    name = getattr(rules, "name", "game")
    with progress_bar(desc=f"building {name}", unit=" states", progress=progress) as bar:
        return _Explorer(rules, max_states, bar).run()


class _Explorer:
    def __init__(self, rules, max_states, bar):
        self.rules, self.max_states, self.bar = rules, max_states, bar
        self.bound = getattr(rules, "code_bound", None)
        if self.bound is not None and (type(self.bound) is not int or self.bound < 1):
            raise InvalidRulesError(f"{rules.name}: code_bound must be a whole number >= 1")
        self.objective = check_objective(
            getattr(rules, "objective", "win"), f"{rules.name}: objective"
        )
        self.numbering = _Numbering(self.bound, max_states)
        self.codes = []  # arrays of codes, in numbering order
        self.n = 0
        self.parts = []  # per chunk: (first state, live mask, expansion with numbered targets)
        self.denominator = 1
        self.terminal_exact = {}
        self.n_options = 0  # options expanded so far
        self.reward_exact = {}  # option number (in expansion order): exact reward, not 0

    def text(self, code):
        """The label of a code's state, for messages; never raises."""
        try:
            return str(self.rules.label(self.rules.state(int(code))))
        except Exception:  # noqa: BLE001 (a message must not fail on a broken label)
            return str(int(code))

    def fail(self, code, field, problem):
        raise InvalidRulesError(f"{self.rules.name}: {field} of state {self.text(code)}: {problem}")

    @staticmethod
    def array(values):
        """``values`` as an array; one of dtype object (refused by the checks) if ragged."""
        try:
            return np.asarray(values)
        except (TypeError, ValueError):
            return np.asarray(None)

    def indices(self, values, what):
        """Integer indices as int64; InvalidRulesError for anything else."""
        values = self.array(values)
        if values.dtype.kind not in "iu" and not (values.size == 0 and values.dtype.kind == "f"):
            raise InvalidRulesError(
                f"{self.rules.name}: {what} must be integer indices, not {values.dtype}"
            )
        return values.astype(np.int64, copy=False)

    def check_codes(self, codes, what, source=None):
        """``codes`` as int64, each in [0, code_bound); ``source(i)`` names the state
        that gave code i, for the message.
        """
        codes = self.array(codes)
        if codes.dtype.kind not in "iu" and not (codes.size == 0 and codes.dtype.kind == "f"):
            raise InvalidRulesError(f"{self.rules.name}: {what} must be integer codes")
        if codes.dtype.kind == "u" and codes.size and codes.max() >= 2**63:
            raise InvalidRulesError(f"{self.rules.name}: {what} {codes.max()} is not an int64")
        codes = codes.astype(np.int64, copy=False)
        bad = codes < 0
        if self.bound is not None:
            bad |= codes >= self.bound
        if bad.any():
            i = int(np.argmax(bad))
            where = f" (from state {source(i)})" if source is not None else ""
            raise InvalidRulesError(
                f"{self.rules.name}: {what} {int(codes[i])}{where} is outside "
                f"[0, {self.bound if self.bound is not None else 'inf'})"
            )
        return codes

    def number_new(self, codes):
        """Number the codes not seen before (first appearance order); all codes' numbers."""
        found = self.numbering.lookup(codes)
        unseen = codes[found < 0]
        if len(unseen):
            if (np.diff(unseen) > 0).all():
                fresh = unseen  # already distinct (roots listed in code order, say)
            else:
                fresh, first = np.unique(unseen, return_index=True)
                fresh = fresh[np.argsort(first, kind="stable")]
            numbers = np.arange(self.n, self.n + len(fresh), dtype=np.int64)
            if self.n + len(fresh) > self.max_states:
                raise InvalidRulesError(
                    f"{self.rules.name} has more than {self.max_states:,} states (max_states);"
                    " pass a larger max_states if the game is finite but bigger"
                )
            self.numbering.add(fresh, numbers)
            self.codes.append(fresh)
            self.n += len(fresh)
            found = self.numbering.lookup(codes)
            return found, fresh
        return found, unseen

    def run(self) -> StateGraph:
        rules = self.rules
        start = self.check_codes(np.array([rules.start()]), "start()")
        roots = rules.roots()
        if not isinstance(roots, np.ndarray):
            roots = list(roots)
        roots = self.check_codes(roots, "roots()")
        _, frontier = self.number_new(np.concatenate([start, roots]))
        first = 0
        while len(frontier):
            new = []
            for lo in range(0, len(frontier), CHUNK):
                chunk = frontier[lo : lo + CHUNK]
                new.append(self.expand(chunk, first + lo))
                self.bar.update(len(chunk))
            first += len(frontier)
            frontier = np.concatenate(new) if new else np.zeros(0, dtype=np.int64)
        return self.assemble(int(self.numbering.lookup(start)[0]))

    def expand(self, codes, first):
        """Expand one chunk of states numbered first .. first + len(codes) - 1."""
        rules = self.rules
        try:
            values = np.asarray(rules.terminal_values(codes), dtype=np.float64)
        except (TypeError, ValueError):
            raise InvalidRulesError(
                f"{rules.name}: terminal_values must give one float per code (its value in "
                "[0, 1], or NaN where the game goes on)"
            ) from None
        if values.shape != codes.shape:
            raise InvalidRulesError(
                f"{rules.name}: terminal_values gave shape {values.shape} for {len(codes)} codes"
            )
        terminal = ~np.isnan(values)
        if self.objective == "win":
            bad = terminal & ~((values >= 0) & (values <= 1))
            problem = 'is not in [0, 1] (the objective is "win")'
        else:
            bad = terminal & ~np.isfinite(values)
            problem = "is not a finite number"
        if bad.any():
            i = int(np.argmax(bad))
            self.fail(codes[i], "terminal_values", f"{float(values[i])!r} {problem}")
        for i in np.flatnonzero(terminal).tolist():
            self.terminal_exact[first + i] = rules.terminal_fraction(int(codes[i]), values[i])
        live = np.flatnonzero(~terminal)
        if not len(live):
            self.parts.append((first, len(codes), live, None))
            return np.zeros(0, dtype=np.int64)
        expansion, rewards = self.checked(rules.expand(codes[live]), codes[live])
        if rewards is not None:
            where, exact = rewards
            self.reward_exact.update(zip((where + self.n_options).tolist(), exact, strict=True))
        self.n_options += len(expansion.option_target)
        targets, fresh = self.number_new(expansion.option_target)
        self.parts.append((first, len(codes), live, expansion._replace(option_target=targets)))
        return fresh

    def checked(self, e, codes) -> tuple[Expansion, tuple | None]:
        """The expansion with its arrays typed and every contract checked, and its rewards
        that are not 0 (:meth:`rewards`).
        """
        rules, m = self.rules, len(codes)
        if not isinstance(e, Expansion):
            raise InvalidRulesError(f"{rules.name}: expand() must return an Expansion, not {e!r}")
        state = self.indices(e.outcome_state, "outcome_state")
        weight = self.array(e.outcome_weight)
        if weight.dtype.kind not in "iu" and not (
            weight.dtype.kind == "f"
            and np.all(weight == np.round(weight))
            and np.all(np.abs(weight) < 2**62)
        ):
            raise InvalidRulesError(
                f"{rules.name}: outcome_weight must be whole numbers below 2**62 (ints, or "
                "floats with nothing after the point)"
            )
        weight = weight.astype(np.int64)
        denominator = e.denominator
        if type(denominator) is not int and not isinstance(denominator, np.integer):
            raise InvalidRulesError(f"{rules.name}: denominator must be an int")
        denominator = int(denominator)
        if not 1 <= denominator < 2**62:
            raise InvalidRulesError(f"{rules.name}: denominator {denominator} is not in [1, 2**62)")
        if state.shape != weight.shape or state.ndim != 1:
            raise InvalidRulesError(f"{rules.name}: outcome_state and outcome_weight differ")
        if len(state) and (state.min() < 0 or state.max() >= m or (np.diff(state) < 0).any()):
            raise InvalidRulesError(
                f"{rules.name}: outcome_state must be non-decreasing indices into the codes"
            )
        counts = np.bincount(state, minlength=m)
        if (counts == 0).any():
            self.fail(codes[np.argmin(counts)], "outcomes", "there are none (they sum to 0, not 1)")
        bad = (weight <= 0) | (weight > denominator)
        if bad.any():
            k = int(np.argmax(bad))
            self.fail(
                codes[state[k]],
                "outcome probability",
                f"{weight[k]}/{denominator} is outside (0, 1]",
            )
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        totals = np.add.reduceat(weight, starts)
        wrong = (totals != denominator) | (np.add.reduceat(weight / denominator, starts) > 1.5)
        if wrong.any():
            i = int(np.argmax(wrong))
            total = Fraction(sum(weight[starts[i] : starts[i] + counts[i]].tolist()), denominator)
            self.fail(codes[i], "outcome probabilities", f"they sum to {total}, not 1")
        owner = self.indices(e.option_outcome, "option_outcome")
        target = self.array(e.option_target)
        if owner.shape != target.shape or owner.ndim != 1:
            raise InvalidRulesError(f"{rules.name}: option_outcome and option_target differ")
        k = len(state)
        if len(owner) and (owner.min() < 0 or owner.max() >= k or (np.diff(owner) < 0).any()):
            raise InvalidRulesError(
                f"{rules.name}: option_outcome must be non-decreasing indices into the outcomes"
            )
        target = self.check_codes(
            target, "option target", lambda j: self.text(codes[state[owner[j]]])
        )
        move = e.option_move
        if move is None:
            move = np.full(len(owner), -1, dtype=np.int32)
        else:
            move = np.asarray(move)
            if move.shape != owner.shape or move.dtype.kind not in "iu":
                raise InvalidRulesError(f"{rules.name}: option_move must be ints, one per option")
            if len(move) and (move.min() < _MOVE_LOW or move.max() > _MOVE_HIGH):
                raise InvalidRulesError(f"{rules.name}: option_move does not fit in 32 bits")
            move = move.astype(np.int32)
        passes = e.option_passes
        if passes is None:
            passes = np.zeros(len(owner), dtype=bool)
        else:
            passes = np.asarray(passes)
            if passes.shape != owner.shape or passes.dtype != bool:
                raise InvalidRulesError(
                    f"{rules.name}: option_passes must be bools, one per option"
                )
        if self.objective == "score" and passes.any():
            self.fail(
                codes[state[owner[np.argmax(passes)]]],
                "option passes",
                "a score game has one player, so no option passes the turn (a two-player game "
                'whose players trade points is a "margin" game)',
            )
        rewards = self.rewards(e.option_reward, owner.shape, lambda j: codes[state[owner[j]]])
        if denominator != self.denominator:
            common = lcm(self.denominator, denominator)
            if common >= 2**62:
                raise InvalidRulesError(
                    f"{rules.name}: the probabilities' common denominator {common} does not fit "
                    "in 62 bits; use probabilities with smaller denominators"
                )
            for i, (a, b, live, part) in enumerate(self.parts):
                if part is not None:
                    scaled = part.outcome_weight * (common // part.denominator)
                    self.parts[i] = (
                        a,
                        b,
                        live,
                        part._replace(outcome_weight=scaled, denominator=common),
                    )
            self.denominator = common
        weight = weight * (self.denominator // denominator)
        return Expansion(state, weight, self.denominator, owner, target, move, passes), rewards

    def rewards(self, reward, shape, code_of) -> tuple | None:
        """The options' rewards that are not 0: (their positions, exact values), or None.

        Checked as :func:`gamegraph.build` checks an :class:`~gamegraph.rules.Option`'s:
        numbers (no bools), finite, none other than 0 in a ``"win"`` game. ``code_of(j)``
        is the code of option j's state, for the message.
        """
        if reward is None:
            return None
        values = self.array(reward)
        if values.shape != shape or values.dtype.kind not in "iufO":
            raise InvalidRulesError(
                f"{self.rules.name}: option_reward must hold one number per option (ints, "
                f"floats, or an object array of ints and Fractions), not {values.dtype} of "
                f"shape {values.shape}"
            )
        if values.dtype.kind == "f":
            bad = ~np.isfinite(values)
            if bad.any():
                j = int(np.argmax(bad))
                self.fail(
                    code_of(j), "option reward", f"{float(values[j])!r} is not a finite number"
                )
        where = np.flatnonzero(values != 0)
        if values.dtype.kind == "O":
            exact = [self.exact_reward(values[j], code_of(j)) for j in where.tolist()]
            kept = [r != 0 for r in exact]
            where, exact = where[kept], [r for r, k in zip(exact, kept, strict=True) if k]
        else:
            distinct, inverse = np.unique(values[where], return_inverse=True)
            number = int if values.dtype.kind in "iu" else float
            fractions = [Fraction(number(v)) for v in distinct.tolist()]
            exact = [fractions[i] for i in inverse.reshape(-1).tolist()]
        if not len(where):
            return None
        if self.objective == "win":
            j = int(where[0])
            self.fail(
                code_of(j),
                "option reward",
                f'{exact[0]}: a game whose objective is "win" has no rewards (its values are '
                'chances to win); set the rules\' objective to "score" (one player) or '
                '"margin" (two players, zero-sum)',
            )
        return where, exact

    def exact_reward(self, value, code) -> Fraction:
        """One reward of an object array, checked: an int, Fraction or finite float."""
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
            self.fail(code, "option reward", f"{value!r:.60} is not a number (an int or Fraction)")
        if not isinstance(value, Rational) and not isfinite(float(value)):
            self.fail(code, "option reward", f"{value!r} is not a finite number")
        return Fraction(value)

    def assemble(self, start) -> StateGraph:
        n = self.n
        outcome_counts = np.zeros(n, dtype=np.int64)
        weights, option_counts, targets, moves, passes = [], [], [], [], []
        for first, _, live, part in self.parts:
            if part is None:
                continue
            outcome_counts[first + live] = np.bincount(part.outcome_state, minlength=len(live))
            weights.append(part.outcome_weight)
            option_counts.append(
                np.bincount(part.option_outcome, minlength=len(part.outcome_state))
            )
            targets.append(part.option_target)
            moves.append(part.option_move)
            passes.append(part.option_passes)

        def joined(arrays, dtype):
            if not arrays:
                return np.zeros(0, dtype)
            whole = arrays[0] if len(arrays) == 1 else np.concatenate(arrays)
            return whole.astype(dtype, copy=False)

        codes = joined(self.codes, np.int64)
        outcome_ptr = pointers(outcome_counts)
        weights = joined(weights, np.int64)
        option_ptr = pointers(joined(option_counts, np.int64))
        targets, moves = joined(targets, np.int64), joined(moves, np.int32)
        passes = joined(passes, bool)
        terminal_exact, reward_exact = self.terminal_exact, self.reward_exact
        if getattr(self.rules, "number_by_code", False) and (np.diff(codes) < 0).any():
            order = np.argsort(codes, kind="stable")  # new number -> old
            new = np.empty(n, dtype=np.int64)
            new[order] = np.arange(n)
            outcomes = expand_ranges(outcome_ptr[order], outcome_ptr[order + 1])
            options = expand_ranges(option_ptr[outcomes], option_ptr[outcomes + 1])
            codes, start = codes[order], int(new[start])
            outcome_ptr = pointers(outcome_counts[order])
            option_ptr = pointers(np.diff(option_ptr)[outcomes])
            weights, targets = weights[outcomes], new[targets[options]]
            moves, passes = moves[options], passes[options]
            terminal_exact = {int(new[i]): v for i, v in terminal_exact.items()}
            if reward_exact:  # options[new place] = old place
                place = np.empty(len(options), dtype=np.int64)
                place[options] = np.arange(len(options))
                reward_exact = {int(place[j]): r for j, r in reward_exact.items()}
        terminal, terminal_value = terminal_arrays(n, terminal_exact)
        return StateGraph(
            rules=self.rules,
            states=self.rules.table(codes),
            start=start,
            outcome_ptr=outcome_ptr,
            outcome_weight=weights,
            denominator=self.denominator,
            option_ptr=option_ptr,
            option_target=targets,
            option_move=moves,
            option_passes=passes,
            terminal=terminal,
            terminal_value=terminal_value,
            terminal_exact=terminal_exact,
            objective=self.objective,
            reward_exact=reward_exact,
        )
