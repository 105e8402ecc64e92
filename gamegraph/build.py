"""Explore a game's rules and materialise every reachable state as a :class:`StateGraph`."""

from __future__ import annotations

import gc
import struct
from contextlib import contextmanager
from fractions import Fraction
from math import isfinite, lcm
from numbers import Rational, Real
from operator import attrgetter

import numpy as np

from ._checks import check_int
from ._progress import progress_bar
from .batch import BatchRules, build_batch
from .csr import pointers
from .errors import InvalidRulesError
from .graph import StateGraph, terminal_arrays
from .rules import Option, Outcome
from .tables import format_value, shown_integer, shown_repr
from .values import check_objective

try:  # the walk's compiled loop, built by pip where a C compiler is present
    from ._walk import DONE as _DONE
    from ._walk import IRREGULAR as _IRREGULAR
    from ._walk import REWARDS as _REWARDS
    from ._walk import TERMINAL as _TERMINAL
    from ._walk import walk_plain as _walk_plain
except ImportError:  # pragma: no cover (the Python loop walks every state)
    # (A walk compiled before options had rewards has no REWARDS: it is not used.)
    _DONE, _TERMINAL, _IRREGULAR, _walk_plain, _REWARDS = 0, 1, 2, None, None

#: The reward of an option that names none (the object :class:`Option` defaults to): the
#: walks record a reward only for an option whose reward is another object.
_NO_REWARD = Option._field_defaults["reward"]

#: Options the walk gathers, about, between two readings of its lists into arrays (and
#: updates of the progress bar): few enough that the lists stay in the processor's cache.
_READ_EVERY = 16384

#: The most states the state-by-state exploration visits unless ``max_states`` says
#: otherwise: a game whose state space never closes stops with a clear message here
#: (about 10 GB of Python state objects and arrays) instead of filling memory.
DEFAULT_MAX_STATES = 10_000_000

_MOVE_LOW, _MOVE_HIGH = -(2**31), 2**31 - 1  # move numbers are stored as int32


def build(
    rules,
    *,
    max_states: int | None = None,
    explore: bool = False,
    progress: bool | None = None,
) -> StateGraph:
    """Visit every state reachable from the rules' roots once and return the explicit graph.

    The start state is number 0; the other roots (``rules.roots()``, by default just the
    start) and everything reachable from them follow.

    Parameters
    ----------
    rules : gamegraph.rules.Rules
        The game.
    max_states : int, optional
        Refuse to grow past this many states (InvalidRulesError), a guard for games whose
        state space is huge or never closes: a whole number >= 1; None means
        ``DEFAULT_MAX_STATES`` (10,000,000). A vectorised ``build_graph()`` has its own
        guards and ignores it.
    explore : bool
        Use the generic state-by-state exploration even when the rules offer a
        vectorised ``build_graph()`` (tests compare the two). Rules whose
        ``build_graph()`` returns None are explored state by state too.
    progress : bool or None
        A bar on stderr counting the states explored: None shows it when stderr is a
        terminal, True always, False never (:mod:`gamegraph._progress`). A vectorised
        build shows its bar while it runs and counts its states at the end.

    Raises
    ------
    InvalidRulesError
        When the rules break their contract (:mod:`gamegraph.rules`), checked state by
        state as they are explored, the message naming the state and the field: a state
        that is not hashable; a terminal value that is not a number in [0, 1]; outcomes
        that are not a list of :class:`~gamegraph.rules.Outcome`; a probability that is
        not an int, Fraction or finite float in (0, 1]; probabilities whose exact sum is
        not 1; options that are not :class:`~gamegraph.rules.Option`; a ``move`` that is
        not an int (32 bits) or a ``passes`` that is not a bool; or more states than
        ``max_states``.
    InvalidArgumentError
        When ``max_states`` is not a whole number >= 1.

    Examples
    --------
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot())
    >>> graph.n_states, graph.layer_counts()
    (512, [1, 9, 36, 84, 126, 126, 84, 36, 9, 1])
    """
    if max_states is None:
        max_states = DEFAULT_MAX_STATES
    max_states = check_int(max_states, "max_states", low=1)
    name = getattr(rules, "name", "game")
    if isinstance(rules, BatchRules):
        return build_batch(rules, max_states=max_states, progress=progress)
    with progress_bar(desc=f"building {name}", unit=" states", progress=progress) as bar:
        if not explore and hasattr(rules, "build_graph"):
            graph = rules.build_graph()
            if graph is not None:
                bar.update(graph.n_states)
                return graph
        with _collector_paused():
            return _explore(rules, max_states, bar)


@contextmanager
def _python_walk_only():
    """Build with the Python walk alone, as where the compiled walk is not built: for the
    tests that compare the two walks and the benchmark that times both.
    """
    global _walk_plain
    compiled = _walk_plain
    _walk_plain = None
    try:
        yield
    finally:
        _walk_plain = compiled


@contextmanager
def _collector_paused():
    """Pause Python's cyclic garbage collector while millions of states are made.

    The walk creates only acyclic objects (tuples, ints, lists it keeps), yet every few
    thousand allocations the collector would scan all of them again: pausing it makes
    the build about a sixth faster. It is switched back on even if the rules raise.

    The walk still collects the youngest generation each time it reads its lists (every
    few thousand states): that pass is what untracks the new states' tuples, and done
    while they are fresh in the cache it costs about a tenth of what the first automatic
    collection after the walk would (0.12 s on Pig to 100, 2.5 % of the build).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _label(rules, state) -> str:
    """The rules' label for a state, for messages; never raises."""
    try:
        return str(rules.label(state))
    except Exception:  # noqa: BLE001 (a message must not fail on a broken label)
        return repr(state)


def _fail(rules, state, field, problem):
    raise InvalidRulesError(
        f"{getattr(rules, 'name', 'game')}: {field} of state {_label(rules, state)}: {problem}"
    )


def _number(value, rules, state, field, low_open, bounded=True):
    """``value`` (int, Fraction or finite float) as a Fraction in (0, 1] or [0, 1] (any
    finite number when not ``bounded``).
    """
    kind = type(value)
    if kind is Fraction and 0 < value.numerator <= value.denominator:
        return value  # the common case, without Fraction arithmetic
    if kind is Fraction or kind is int:
        result = Fraction(value)
    elif kind is float or (isinstance(value, Real) and not isinstance(value, (bool, np.bool_))):
        if not isinstance(value, Rational) and not isfinite(float(value)):
            _fail(rules, state, field, f"{shown_repr(value)} is not a finite number")
        result = Fraction(value)
    else:
        _fail(
            rules, state, field, f"{shown_repr(value)} is not a number (an int, Fraction or float)"
        )
    if bounded and (result > 1 or result < 0 or (low_open and result == 0)):
        accepted = "(0, 1]" if low_open else "[0, 1]"
        _fail(rules, state, field, f"{shown_repr(value)} is outside {accepted}")
    return result


def _terminal_number(rules, objective):
    """The check of a terminal value for ``objective``: in [0, 1] for "win", finite else."""
    if objective == "win":
        return _number
    return lambda value, rules, state, field, low_open: _number(
        value, rules, state, field, low_open, bounded=False
    )


def _check_option(option, rules, state, k, j):
    if not isinstance(option, Option):
        _fail(rules, state, f"outcome {k} option {j}", f"{option!r} is not an Option")
    move, passes = option.move, option.passes
    if type(move) is not int:
        if not isinstance(move, (int, np.integer)) or isinstance(move, (bool, np.bool_)):
            _fail(rules, state, f"outcome {k} option {j} move", f"{move!r} is not an int")
        move = int(move)
    if not _MOVE_LOW <= move <= _MOVE_HIGH:
        _fail(rules, state, f"outcome {k} option {j} move", f"{move} does not fit in 32 bits")
    if type(passes) is not bool:
        if not isinstance(passes, np.bool_):
            _fail(rules, state, f"outcome {k} option {j} passes", f"{passes!r} is not a bool")
        passes = bool(passes)
    return move, passes


def _explore(rules, max_states, bar) -> StateGraph:
    """The generic build: a breadth-first walk from the roots, one state at a time.

    The walk does only what a plain dictionary BFS over the same rules must do (ask each
    state for its outcomes, number every new target), checks the shape of what the rules
    hand back (a list of outcomes, each an Outcome whose options are a tuple of Option)
    and appends each field to a plain list, as the rules gave it. A stretch of states at
    a time (about :data:`_READ_EVERY` options) :class:`_Walked` reads the lists into
    arrays and empties them, so they stay small and in the processor's cache; checking
    the fields' values (probabilities and their sums, moves, passes) is done there and at
    the end, a failure traced back to its state, outcome and option for the message.

    Each stretch is walked by the compiled loop (:mod:`gamegraph._walk`) when it is
    built, which leaves to :func:`_walk_states`, the same loop in Python, every state
    that is not plain; without the extension :func:`_walk_states` walks them all.
    """
    objective = check_objective(getattr(rules, "objective", "win"), f"{_name(rules)}: objective")
    walk = _Walk(rules, max_states, objective)
    for root in rules.roots():
        try:
            known = walk.index.get(root)
        except TypeError:
            known = None
        if known is None:
            _new_state(walk, root, walk.states[0])
    walked = _Walked()
    compiled = _walk_plain if _REWARDS is not None else None
    pos = read_at = 0  # the first state not walked; and at the last reading
    end = 64  # where the stretch ends: the first tells how many options a state has
    try:
        while pos < len(walk.states):
            if compiled is None:
                pos = _walk_states(walk, pos, end, walk.terminal_value, walk.outcomes_of)
            else:
                pos, kind, said = compiled(walk, pos, end)
                if kind != _DONE:  # a state the compiled loop leaves to the Python one
                    answer = _saying(said)  # what the rules said already
                    terminal_value = answer if kind == _TERMINAL else _saying(None)
                    pos = _walk_states(walk, pos, pos + 1, terminal_value, answer)
                    continue
            if pos == end:
                stretch = _READ_EVERY * (pos - read_at) // max(len(walk.targets), 1)
                walked.read(*walk.lists)
                gc.collect(0)  # see _collector_paused
                bar.update(pos - bar.n)
                read_at, end = pos, pos + min(max(stretch, 64), 8192)
    except InvalidRulesError:
        raise
    except Exception as error:
        # The rules failed on a state, perhaps one reached only through an outcome that
        # breaks the contract: report that breach if there is one.
        if walk.at is not None:
            walked.check_after(rules, walk.states, walk.lists, walk.at - read_at + 1)
        raise error
    walked.read(*walk.lists)
    bar.update(pos - bar.n)
    states, terminal_values = walk.states, walk.terminal_values
    outcome_ptr, option_ptr = walked.pointers()
    where = _Locator(rules, states, outcome_ptr, option_ptr)
    weights, denominator = walked.weights(outcome_ptr, where)
    option_move = walked.moves(where)
    option_passes = walked.passes(where)
    rewards = walked.rewards(where, objective)
    if objective == "score" and option_passes.any():
        where.fail_option(
            int(np.argmax(option_passes)),
            "passes",
            "a score game has one player, so no option passes the turn (a two-player game "
            'whose players trade points is a "margin" game)',
        )
    terminal, terminal_value_array = terminal_arrays(len(states), terminal_values)
    return StateGraph(
        rules=rules,
        states=states,
        start=0,
        outcome_ptr=outcome_ptr,
        outcome_weight=weights,
        denominator=denominator,
        option_ptr=option_ptr,
        option_target=np.concatenate(walked.targets_read),
        option_move=option_move,
        option_passes=option_passes,
        terminal=terminal,
        terminal_value=terminal_value_array,
        terminal_exact=terminal_values,
        objective=objective,
        reward_exact=rewards,
    )


def _name(rules) -> str:
    return getattr(rules, "name", "game")


class _Walk:
    """What the walk's two loops share: the states (also the queue) and their numbers,
    the rules' methods, the lists the loops append to, the terminal values found, and
    ``at``, the state the rules raised on if they did.
    """

    def __init__(self, rules, max_states, objective="win"):
        start = rules.start()
        try:
            self.index = {start: 0}
        except TypeError:
            _fail(rules, start, "start()", f"the state {start!r} is not hashable")
        self.states = [start]
        self.rules, self.max_states = rules, max_states
        self.terminal_value, self.outcomes_of = rules.terminal_value, rules.outcomes
        self.outcome_type, self.option_type = Outcome, Option
        self.outcome_counts = []  # per state, in numbering order
        self.probabilities = []  # per outcome, as the rules gave them
        self.option_counts = []  # per outcome
        self.targets, self.moves, self.passes = [], [], []  # per option, as given
        self.rewards = []  # (option's place in ``targets``, reward) where one is given
        self.no_reward = _NO_REWARD
        self.terminal_values = {}  # state number: exact value
        self.terminal_number = _terminal_number(rules, objective)
        self.at = None

    @property
    def lists(self):
        """The seven lists, in the order :meth:`_Walked.read` takes them."""
        return (
            self.outcome_counts,
            self.probabilities,
            self.option_counts,
            self.targets,
            self.moves,
            self.passes,
            self.rewards,
        )


def _new_state(walk, state, source, k=None, options=()):
    """Number a state not seen before; ``k``/``options`` place it for a message."""
    states, rules = walk.states, walk.rules
    try:
        i = walk.index[state] = len(states)
    except TypeError:
        if k is None:
            field = "roots()"
        else:
            j = next(j for j, o in enumerate(options) if o[0] is state)
            field = f"outcome {k} option {j} target"
        _fail(rules, source, field, f"the state {state!r} is not hashable")
    states.append(state)
    if len(states) > walk.max_states:
        _too_many(rules, walk.max_states)
    return i


def _saying(answer):
    """A stand-in for one of the rules' methods, giving ``answer`` for any state."""
    return lambda state: answer


def _walk_states(walk, pos, end, terminal_value, outcomes_of) -> int:
    """Walk the states from ``pos`` up to ``end`` (or the last), checking each; return
    the first state not walked.

    ``terminal_value`` and ``outcomes_of`` are the rules' methods, or stand-ins that
    give what the rules already said about the one state the compiled loop left here.
    Every step in the loop over options costs about as much as a line of the rules, so
    that loop is kept to the fewest: one type check, one unpacking, one dictionary
    lookup and three appends.
    """
    rules, states, index, max_states = walk.rules, walk.states, walk.index, walk.max_states
    lookup = index.get
    terminal_values = walk.terminal_values
    # Plain lists, appended as ``name.append(x)``, which the interpreter runs inline (an
    # append to an array("q") goes through an argument parser for every item).
    outcome_counts, probabilities, option_counts = (
        walk.outcome_counts,
        walk.probabilities,
        walk.option_counts,
    )
    targets, moves, passes, rewards = walk.targets, walk.moves, walk.passes, walk.rewards
    no_reward, terminal_number = walk.no_reward, walk.terminal_number
    n = len(states)  # numbered so far
    queue = iter(states)  # it reaches the states the walk appends
    queue.__setstate__(pos)
    try:
        for state in queue:
            if pos == end:
                break
            pos += 1
            value = terminal_value(state)
            if value is not None:
                terminal_values[pos - 1] = terminal_number(
                    value, rules, state, "terminal_value", False
                )
                outcome_counts.append(0)
                continue
            outcomes = outcomes_of(state)
            if type(outcomes) is not list and type(outcomes) is not tuple:
                outcomes = _as_list(outcomes, rules, state)
            if not outcomes:
                _fail(
                    rules, state, "outcome probabilities", "there are none (they sum to 0, not 1)"
                )
            outcome_counts.append(len(outcomes))
            for outcome in outcomes:  # the loop every option goes through: kept lean
                if type(outcome) is not Outcome:
                    _check_outcome(outcome, outcomes, rules, state)
                probabilities.append(outcome[0])
                options = outcome[1]
                if type(options) is not tuple and type(options) is not list:
                    _check_options(options, outcome, outcomes, rules, state)
                option_counts.append(len(options))
                for option in options:
                    if type(option) is not Option:
                        option = _as_option(option, rules, state, outcomes.index(outcome), options)
                    target, move, passing, reward = option
                    if reward is not no_reward:
                        rewards.append((len(targets), reward))
                    try:
                        i = lookup(target)
                    except TypeError:  # reports it
                        i = _new_state(walk, target, state, outcomes.index(outcome), options)
                    if i is None:  # a new state, numbered inline: this runs once per state
                        i = index[target] = n
                        states.append(target)
                        n += 1
                        if n > max_states:
                            _too_many(rules, max_states)
                    targets.append(i)
                    moves.append(move)
                    passes.append(passing)
    except BaseException:
        walk.at = pos - 1
        raise
    return pos


class _Walked:
    """The walk's fields, read from its lists into arrays a stretch of states at a time.

    :meth:`read` converts what the walk appended since the last call and empties the
    lists. Rules hand out the same few objects for most fields (one ``Fraction(1, 6)``
    for every face, small ints for moves), so probabilities and moves are grouped by
    identity (:func:`_grouped`) and each distinct object is converted and checked once.
    A move that breaks the contract is remembered, not raised, so that the checks run in
    one order whatever the stretch: probabilities (and their sums), then moves, then
    passes, each failure naming the first option (or outcome) that has it.
    """

    def __init__(self):
        self.n_outcomes = self.n_options = 0  # read so far
        self.outcome_counts, self.option_counts = [], []  # int64 arrays
        self.targets_read, self.moves_read, self.passes_read = [], [], []  # per option
        self.rewards_read = []  # (option number, reward as given), where one is given
        self.groups = []  # per outcome: the number of its probability object
        self.distinct = []  # those objects, each where it was first seen in its stretch
        self.first_seen = []  # the flat outcome numbers of those, as arrays
        # The first option with a move of the wrong type, too large, a bad passes:
        self.bad_move_type = self.bad_move_range = self.bad_passes = None  # (j, problem)

    def read(self, outcome_counts, probabilities, option_counts, targets, moves, passes, rewards):
        """Convert the lists (whole states only) into arrays and empty them."""
        self.rewards_read.extend((j + self.n_options, r) for j, r in rewards)
        self.outcome_counts.append(_counts(outcome_counts))
        self.option_counts.append(_counts(option_counts))
        self.targets_read.append(_int64(targets))
        ids = _addresses(probabilities)
        grouped = _grouped(ids)
        if grouped is None:  # many objects (made afresh for every outcome): sort them
            _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
            grouped = first, inverse.reshape(-1)  # numpy 2.0 and 2.1 keep the input's shape
        first, inverse = grouped
        self.groups.append((inverse + len(self.distinct)).astype(np.int32))
        self.distinct.extend([probabilities[k] for k in first.tolist()])
        self.first_seen.append(first + self.n_outcomes)
        self.moves_read.append(self._moves(moves))
        self.passes_read.append(self._passes(passes))
        self.n_outcomes += len(probabilities)
        self.n_options += len(targets)
        for values in (
            outcome_counts, probabilities, option_counts, targets, moves, passes, rewards
        ):  # fmt: skip
            values.clear()

    def _moves(self, moves) -> np.ndarray:
        """The moves as int32; the first bad one (by type, by range) is remembered."""
        grouped = _grouped(_addresses(moves))
        if grouped is not None:
            first, inverse = grouped
            first = first.tolist()
        elif set(map(type, moves)) <= {int}:  # many move objects, all ints
            try:
                return _packed(moves, "i", np.int32)
            except struct.error:  # one does not fit: found below
                first, inverse = range(len(moves)), None
        else:
            first, inverse = range(len(moves)), None
        values = []
        for j, move in zip(first, [moves[j] for j in first]):
            if type(move) is not int:
                if not isinstance(move, (int, np.integer)) or isinstance(move, (bool, np.bool_)):
                    self._breach("bad_move_type", j, f"{move!r} is not an int")
                    move = 0
                move = int(move)
            if not _MOVE_LOW <= move <= _MOVE_HIGH:
                self._breach("bad_move_range", j, f"{move} does not fit in 32 bits")
                move = 0
            values.append(move)
        values = np.array(values, dtype=np.int32)
        return values if inverse is None else values.take(inverse)

    def _passes(self, passes) -> np.ndarray:
        """The passes flags as bools. Python's and numpy's bools are the same two objects
        wherever they come from, so they are told by address; anything else is a breach,
        the first one remembered.
        """
        ids = _addresses(passes)
        yes = (ids == _BOOLS[0]) | (ids == _BOOLS[1])
        odd = np.flatnonzero(~yes & (ids != _BOOLS[2]) & (ids != _BOOLS[3]))
        for j in odd.tolist():
            passing = passes[j]
            if isinstance(passing, (bool, np.bool_)):
                yes[j] = passing
            else:
                self._breach("bad_passes", j, f"{passing!r} is not a bool")
                break
        return yes

    def _breach(self, kind, j, problem):
        j += self.n_options
        if getattr(self, kind) is None or j < getattr(self, kind)[0]:
            setattr(self, kind, (j, problem))

    def pointers(self):
        """The outcome and option pointers of everything read."""
        return (
            pointers(np.concatenate(self.outcome_counts)),
            pointers(np.concatenate(self.option_counts)),
        )

    def weights(self, outcome_ptr, where):
        """The outcomes' integer weights and common denominator, checked (:func:`_weights`)."""
        first = np.concatenate(self.first_seen)
        return _weights(self.distinct, first, np.concatenate(self.groups), outcome_ptr, where)

    def moves(self, where) -> np.ndarray:
        for bad in (self.bad_move_type, self.bad_move_range):
            if bad is not None:
                where.fail_option(bad[0], "move", bad[1])
        return np.concatenate(self.moves_read)

    def passes(self, where) -> np.ndarray:
        if self.bad_passes is not None:
            where.fail_option(self.bad_passes[0], "passes", self.bad_passes[1])
        return np.concatenate(self.passes_read)

    def rewards(self, where, objective) -> dict:
        """The rewards that are not 0, checked, as exact numbers: option number: Fraction."""
        exact = {}
        for j, reward in self.rewards_read:
            if isinstance(reward, (bool, np.bool_)) or not isinstance(reward, Real):
                where.fail_option(
                    j, "reward", f"{shown_repr(reward)} is not a number (an int, Fraction or float)"
                )
            if not isinstance(reward, Rational) and not isfinite(float(reward)):
                where.fail_option(j, "reward", f"{shown_repr(reward)} is not a finite number")
            value = Fraction(reward)
            if value == 0:
                continue
            if objective == "win":
                where.fail_option(
                    j,
                    "reward",
                    f'{shown_repr(reward)}: a game whose objective is "win" has no rewards '
                    '(its values are chances to win); set the rules\' objective to "score" '
                    '(one player) or "margin" (two players, zero-sum)',
                )
            exact[j] = value
        return exact

    def check_after(self, rules, states, lists, begun):
        """After the rules raised: run the checks on the whole states walked (``begun``
        states were begun since the last :meth:`read`); raise InvalidRulesError for the
        first breach, or return if there is none (or the lists cannot be read).
        """
        outcome_counts, probabilities, option_counts, targets, moves, passes, rewards = lists
        try:
            if len(outcome_counts) == begun:  # the state that failed had begun: drop it
                del outcome_counts[-1]
                walked_outcomes = sum(outcome_counts)
                del probabilities[walked_outcomes:], option_counts[walked_outcomes:]
                walked_options = sum(option_counts)
                del targets[walked_options:], moves[walked_options:], passes[walked_options:]
                rewards[:] = [(j, r) for j, r in rewards if j < walked_options]
            self.read(*lists)
            outcome_ptr, option_ptr = self.pointers()
            where = _Locator(rules, states, outcome_ptr, option_ptr)
            self.weights(outcome_ptr, where)
            self.moves(where)
            self.passes(where)
        except InvalidRulesError:
            raise
        except Exception:  # noqa: BLE001 (the rules' own error is the one to show)
            return


def _as_list(outcomes, rules, state):
    try:
        return list(outcomes)
    except TypeError:
        _fail(rules, state, "outcomes()", f"{outcomes!r} is not a list of Outcome")


def _too_many(rules, max_states):
    raise InvalidRulesError(
        f"{rules.name} has more than {max_states:,} states (max_states); a game whose states "
        "never run out cannot be built; pass a larger max_states if the game is finite but "
        "bigger"
    )


def _check_outcome(outcome, outcomes, rules, state):
    if not isinstance(outcome, Outcome):
        k = next(k for k, o in enumerate(outcomes) if o is outcome)
        _fail(rules, state, f"outcome {k}", f"{outcome!r} is not an Outcome")


def _check_options(options, outcome, outcomes, rules, state):
    if not isinstance(options, (tuple, list)) or isinstance(options, Option):
        k = next(k for k, o in enumerate(outcomes) if o is outcome)
        _fail(rules, state, f"outcome {k} options", f"{options!r} is not a tuple")


def _as_option(option, rules, state, k, options):
    """An Option subclass as an Option; anything else fails with its place."""
    if not isinstance(option, Option):
        j = next(j for j, o in enumerate(options) if o is option)
        _fail(rules, state, f"outcome {k} option {j}", f"{option!r} is not an Option")
    return Option(*option)


#: Items packed by one ``struct.pack`` call (:func:`_packed`).
_PACK_BLOCK = 1 << 14


def _int64(values: list) -> np.ndarray:
    return _packed(values, "q", np.int64)


def _counts(counts: list) -> np.ndarray:
    """Counts (ints >= 0) as an array: bytes when all are below 256, as they usually are
    (``bytes`` reads a small int faster still than ``struct.pack``).
    """
    try:
        return np.frombuffer(bytes(counts), dtype=np.uint8)
    except ValueError:
        return _int64(counts)


def _packed(values: list, code: str, dtype) -> np.ndarray:
    """A list of Python ints as a numpy array, packed with the ``struct`` code ``code``
    ("q": int64, "i": int32) a block at a time: ``struct.pack`` converts an int in half
    the time ``np.fromiter`` takes (a third of ``np.array``'s). It raises
    ``struct.error`` for an int outside the code's range.
    """
    out = np.empty(len(values), dtype=dtype)
    for start in range(0, len(values), _PACK_BLOCK):
        part = values[start : start + _PACK_BLOCK]
        out[start : start + len(part)] = np.frombuffer(
            struct.pack(f"={len(part)}{code}", *part), dtype=dtype
        )
    return out


def _addresses(objects: list) -> np.ndarray:
    """The addresses of a list's items (what ``id`` gives), as uint64, read in one pass.

    The items go into an object array, whose buffer holds their pointers: a fifth of the
    cost of ``map(id, objects)``, where each ``id`` call is audited and makes a new int.
    The addresses tell the items apart only while they are alive (the list holds them).
    """
    held = np.fromiter(objects, dtype=object, count=len(objects))
    try:
        return np.frombuffer(memoryview(held).cast("B"), dtype=np.uint64)
    except (TypeError, ValueError, BufferError):  # an object array without a buffer
        return np.fromiter(map(id, objects), dtype=np.uint64, count=len(objects))


#: The addresses of True, numpy's True, False and numpy's False (:meth:`_Walked._passes`).
_BOOLS = _addresses([True, np.True_, False, np.False_]).copy()

#: The most distinct objects :func:`_grouped` groups by; and the items it samples first.
_FEW, _SAMPLE = 8, 64


def _grouped(ids: np.ndarray):
    """Group items by their addresses (:func:`_addresses`): ``(first, inverse)``, the
    position of each distinct object's first appearance (groups in order of address)
    and each item's group number; None when there are more than :data:`_FEW` groups.

    The groups are found in a sample, then every item is compared with each: a few
    vectorised passes per group, and one more round if the sample missed a group.
    """
    if not len(ids):
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    heads = np.unique(ids[:_SAMPLE])
    while len(heads) <= _FEW:
        inverse = np.zeros(len(ids), dtype=np.intp)
        matched = ids == heads[0]
        first = [int(np.argmax(matched))]
        for c in range(1, len(heads)):
            hits = ids == heads[c]
            first.append(int(np.argmax(hits)))
            matched |= hits
            inverse += hits * c
        if matched.all():
            return np.array(first, dtype=np.intp), inverse
        heads = np.union1d(heads, ids[~matched][: _FEW + 1])
    return None


class _Locator:
    """Finds the state, outcome and option behind a flat index, for error messages."""

    def __init__(self, rules, states, outcome_ptr, option_ptr):
        self.rules, self.states = rules, states
        self.outcome_ptr, self.option_ptr = outcome_ptr, option_ptr

    def outcome(self, k):
        """(state, outcome number within the state) of flat outcome ``k``."""
        i = int(np.searchsorted(self.outcome_ptr, k, side="right")) - 1
        return self.states[i], k - int(self.outcome_ptr[i])

    def fail_option(self, j, field, problem):
        k = int(np.searchsorted(self.option_ptr, j, side="right")) - 1
        state, local = self.outcome(k)
        at = f"outcome {local} option {j - int(self.option_ptr[k])}"
        _fail(self.rules, state, f"{at} {field}", problem)

    def fail_outcome(self, k, field, problem):
        state, local = self.outcome(k)
        _fail(self.rules, state, f"outcome {local} {field}", problem)


def _weights(distinct, first, inverse, outcome_ptr, where):
    """Integer weights over one common denominator, every probability and sum checked.

    ``distinct`` are the probability objects (first seen at outcomes ``first``) and
    ``inverse[k]`` the one outcome k has: the work is done once per object and the
    results spread back with numpy.
    """
    exact, (numerators, denominators) = _distinct_fractions(distinct, first, where)
    if numerators is None:  # some part passes int64: so does the common denominator
        denominator = _bounded_lcm({p.denominator for p in exact})
    else:
        denominator = lcm(*np.unique(denominators).tolist()) if len(exact) else 1
    counts = np.diff(outcome_ptr)
    live = np.flatnonzero(counts > 0)
    if denominator >= 2**62:
        shown = shown_integer(denominator)
        if numerators is None:  # long fractions: their sums would be slow to check
            shown = f"(a multiple of {shown})"
        else:
            fractions = [exact[c] for c in inverse.tolist()]
            for i in live.tolist():  # a state whose sum is wrong is the better message
                _check_sum(fractions, outcome_ptr, i, where)
        raise InvalidRulesError(
            f"{where.rules.name}: the probabilities' common denominator {shown} does not "
            "fit in 62 bits; use probabilities with smaller denominators"
        )
    weights = (numerators * (denominator // denominators)).take(inverse)
    if len(live):
        starts = outcome_ptr[live]
        totals = np.add.reduceat(weights, starts)  # int64 sums
        bad = totals != denominator
        if denominator * int(counts.max()) >= 2**63:  # the int64 sums may wrap:
            approximate = np.add.reduceat(weights / denominator, starts)  # floats catch it
            bad |= np.abs(approximate - 1) > 1e-6
        if bad.any():
            fractions = [exact[c] for c in inverse.tolist()]
            _check_sum(fractions, outcome_ptr, int(live[np.argmax(bad)]), where)
    return weights, denominator


def _bounded_lcm(denominators) -> int:
    """The least common multiple of ``denominators``, or the first partial one past 62
    bits: a hostile file's hundreds of long denominators would otherwise take minutes.
    """
    denominator = 1
    for d in denominators:
        denominator = lcm(denominator, d)
        if denominator >= 2**62:
            break
    return denominator


def _distinct_fractions(probabilities, first, where):
    """Distinct probability objects (first seen at outcomes ``first``) as checked Fractions
    (or ints), each in (0, 1], with their numerators and denominators (:func:`_parts`).
    """
    if not set(map(type, probabilities)) <= {Fraction, int}:
        probabilities = [
            _number(p, where.rules, where.outcome(k)[0], _field(where, k), True)
            for k, p in zip(first.tolist(), probabilities)
        ]
    numerators, denominators = _parts(probabilities)
    if numerators is None:  # too large for int64: compare in Python
        bad = [k for k, p in enumerate(probabilities) if not 0 < p <= 1]
    else:
        bad = np.flatnonzero((numerators <= 0) | (numerators > denominators)).tolist()
    if bad:
        k = min(bad, key=lambda b: first[b])  # the bad probability seen first
        _number(
            probabilities[k], where.rules, where.outcome(first[k])[0], _field(where, first[k]), True
        )
    return probabilities, (numerators, denominators)


def _parts(fractions):
    """Numerators and denominators of Fractions (or ints) as int64 arrays; (None, None)
    when one does not fit.
    """
    try:
        numerators = np.fromiter(map(_numerator, fractions), dtype=np.int64, count=len(fractions))
        denominators = np.fromiter(
            map(_denominator, fractions), dtype=np.int64, count=len(fractions)
        )
    except OverflowError:
        return None, None
    return numerators, denominators


_numerator, _denominator = attrgetter("numerator"), attrgetter("denominator")


def _check_sum(fractions, outcome_ptr, i, where):
    """Fail unless the probabilities of state ``i`` (``fractions[k]`` per outcome) sum to 1."""
    total = sum(fractions[k] for k in range(int(outcome_ptr[i]), int(outcome_ptr[i + 1])))
    if total != 1:
        near = " (floats are taken exactly: use Fractions)" if abs(total - 1) < 1e-12 else ""
        _fail(
            where.rules,
            where.states[i],
            "outcome probabilities",
            f"they sum to {format_value(total)}, not 1{near}",
        )


def _field(where, k):
    return f"outcome {where.outcome(k)[1]} probability"
