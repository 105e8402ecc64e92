"""Explore a game's rules and materialise every reachable state as a :class:`StateGraph`."""

from __future__ import annotations

import gc
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
from .graph import StateGraph
from .rules import Option, Outcome

#: States explored between two updates of the progress bar.
_PROGRESS_EVERY = 4096

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
def _collector_paused():
    """Pause Python's cyclic garbage collector while millions of states are made.

    The walk creates only acyclic objects (tuples, ints, lists it keeps), yet every few
    thousand allocations the collector would scan all of them again: pausing it makes
    the build about a sixth faster. It is switched back on even if the rules raise.
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


def _number(value, rules, state, field, low_open):
    """``value`` (int, Fraction or finite float) as a Fraction in (0, 1] or [0, 1]."""
    kind = type(value)
    if kind is Fraction and 0 < value.numerator <= value.denominator:
        return value  # the common case, without Fraction arithmetic
    if kind is Fraction or kind is int:
        result = Fraction(value)
    elif kind is float or (isinstance(value, Real) and not isinstance(value, (bool, np.bool_))):
        if not isinstance(value, Rational) and not isfinite(float(value)):
            _fail(rules, state, field, f"{value!r} is not a finite number")
        result = Fraction(value)
    else:
        _fail(rules, state, field, f"{value!r} is not a number (an int, Fraction or float)")
    if result > 1 or result < 0 or (low_open and result == 0):
        accepted = "(0, 1]" if low_open else "[0, 1]"
        _fail(rules, state, field, f"{value!r} is outside {accepted}")
    return result


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
    state for its outcomes, number every new target) plus appending the fields to flat
    lists; checking the fields' types and values is done afterwards, on whole arrays, and
    a failure is traced back to its state, outcome and option for the message.
    """
    start = rules.start()
    try:
        index = {start: 0}
    except TypeError:
        _fail(rules, start, "start()", f"the state {start!r} is not hashable")
    states = [start]  # also the queue: the walk reaches the states it appends
    lookup = index.get
    terminal_value = rules.terminal_value
    outcomes_of = rules.outcomes

    # Plain lists: an append to one costs a fifth of an append to an array("q"), whose
    # every item goes through an argument parser; numpy converts them once at the end.
    outcome_counts = []  # per state, in numbering order
    probabilities = []  # per outcome, as the rules gave them
    option_counts = []  # per outcome
    targets, moves, passes = [], [], []
    targets_append, moves_append, passes_append = targets.append, moves.append, passes.append
    states_append = states.append
    count_outcomes, add_probability = outcome_counts.append, probabilities.append
    count_options = option_counts.append
    terminal_values = {}

    def new_state(state, source, k=None, options=()):
        """Number a state not seen before; ``k``/``options`` place it for a message."""
        try:
            i = index[state] = len(states)
        except TypeError:
            if k is None:
                field = "roots()"
            else:
                j = next(j for j, o in enumerate(options) if o[0] is state)
                field = f"outcome {k} option {j} target"
            _fail(rules, source, field, f"the state {state!r} is not hashable")
        states.append(state)
        if len(states) > max_states:
            _too_many(rules, max_states)
        return i

    for root in rules.roots():
        try:
            known = lookup(root)
        except TypeError:
            known = None
        if known is None:
            new_state(root, start)
    n = len(states)  # numbered so far
    claim = index.setdefault  # the number of a known state, or n for a new one
    done = 0
    next_report = _PROGRESS_EVERY
    try:
        for state in states:  # the list grows as the walk numbers new states
            done += 1
            if done == next_report:
                bar.update(done - bar.n)
                next_report += _PROGRESS_EVERY
            value = terminal_value(state)
            if value is not None:
                terminal_values[done - 1] = _number(value, rules, state, "terminal_value", False)
                count_outcomes(0)
                continue
            outcomes = outcomes_of(state)
            if type(outcomes) is not list and type(outcomes) is not tuple:
                outcomes = _as_list(outcomes, rules, state)
            if not outcomes:
                _fail(
                    rules, state, "outcome probabilities", "there are none (they sum to 0, not 1)"
                )
            count_outcomes(len(outcomes))
            for outcome in outcomes:  # the loop every option goes through: kept lean
                if type(outcome) is not Outcome:
                    _check_outcome(outcome, outcomes, rules, state)
                p, options = outcome
                add_probability(p)
                if type(options) is not tuple and type(options) is not list:
                    _check_options(options, outcome, outcomes, rules, state)
                count_options(len(options))
                for option in options:
                    if type(option) is not Option:
                        option = _as_option(option, rules, state, outcomes.index(outcome), options)
                    target, move, passing = option
                    try:
                        i = claim(target, n)
                    except TypeError:
                        i = new_state(target, state, outcomes.index(outcome), options)  # reports it
                    if i == n:  # a new state, numbered inline: this runs once per state
                        states_append(target)
                        n += 1
                        if n > max_states:
                            _too_many(rules, max_states)
                    targets_append(i)
                    moves_append(move)
                    passes_append(passing)
    except InvalidRulesError:
        raise
    except Exception as error:
        # The rules failed on a state, perhaps one reached only through an outcome that
        # breaks the contract: report that breach if there is one.
        _check_walked(rules, states, outcome_counts, option_counts, probabilities, moves, passes)
        raise error
    bar.update(done - bar.n)

    outcome_ptr = _pointers(outcome_counts)
    option_ptr = _pointers(option_counts)
    where = _Locator(rules, states, outcome_ptr, option_ptr)
    weights, denominator = _weights(probabilities, outcome_ptr, where)
    terminal = np.zeros(n, dtype=bool)
    terminal_value_array = np.zeros(n, dtype=np.float64)
    for i, v in terminal_values.items():
        terminal[i] = True
        terminal_value_array[i] = float(v)
    return StateGraph(
        rules=rules,
        states=states,
        start=0,
        outcome_ptr=outcome_ptr,
        outcome_weight=weights,
        denominator=denominator,
        option_ptr=option_ptr,
        option_target=_int64(targets),
        option_move=_moves(moves, where),
        option_passes=_passes(passes, where),
        terminal=terminal,
        terminal_value=terminal_value_array,
        terminal_exact=terminal_values,
    )


def _check_walked(rules, states, outcome_counts, option_counts, probabilities, moves, passes):
    """Run the deferred checks on the states walked so far; raise InvalidRulesError for the
    first breach, or return if there is none (or the partial lists cannot be read).
    """
    try:
        outcome_ptr = _pointers(outcome_counts)
        walked = int(outcome_ptr[-1])
        option_ptr = _pointers(option_counts[:walked])
        where = _Locator(rules, states, outcome_ptr, option_ptr)
        _weights(probabilities[:walked], outcome_ptr, where)
        _moves(moves[: int(option_ptr[-1])], where)
        _passes(passes[: int(option_ptr[-1])], where)
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


def _pointers(counts: list) -> np.ndarray:
    return pointers(_int64(counts))


def _int64(values: list) -> np.ndarray:
    return np.array(values, dtype=np.int64) if len(values) else np.zeros(0, np.int64)


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


def _weights(probabilities, outcome_ptr, where):
    """Integer weights over one common denominator, every probability and sum checked.

    Rules usually hand out a few probability objects many times over (one ``Fraction(1,
    6)`` for every face), so the work is done once per distinct object: the objects are
    told apart by ``id`` (they are all alive in ``probabilities``) and the results spread
    back with numpy.
    """
    ids = np.fromiter(map(id, probabilities), dtype=np.uint64, count=len(probabilities))
    distinct, rest = [], ids
    while len(rest) and len(distinct) < 8:  # usually a handful: one comparison pass each
        distinct.append(rest[0])
        rest = rest[rest != rest[0]]
    if not len(rest):
        inverse = np.zeros(len(ids), dtype=np.intp)
        first = np.zeros(len(distinct), dtype=np.intp)
        for c, d in enumerate(distinct):
            hits = ids == d
            inverse[hits] = c
            first[c] = np.argmax(hits)
    else:
        _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)  # numpy 2.0 and 2.1 keep the input's shape
    exact, (numerators, denominators) = _distinct_fractions(
        [probabilities[k] for k in first.tolist()], first, where
    )
    if numerators is None:  # some part passes int64: so does the common denominator
        denominator = lcm(*{p.denominator for p in exact})
    else:
        denominator = lcm(*np.unique(denominators).tolist()) if len(exact) else 1
    live = np.flatnonzero(np.diff(outcome_ptr) > 0)
    if denominator >= 2**62:
        fractions = [exact[c] for c in inverse.tolist()]
        for i in live.tolist():  # a state whose sum is wrong is the better message
            _check_sum(fractions, outcome_ptr, i, where)
        raise InvalidRulesError(
            f"{where.rules.name}: the probabilities' common denominator {denominator} does "
            "not fit in 62 bits; use probabilities with smaller denominators"
        )
    weights = (numerators * (denominator // denominators))[inverse]
    if len(live):
        starts = outcome_ptr[live]
        totals = np.add.reduceat(weights, starts)  # int64 sums; the float sums catch wrapping
        approximate = np.add.reduceat(weights / denominator, starts)
        bad = (totals != denominator) | (np.abs(approximate - 1) > 1e-6)
        if bad.any():
            fractions = [exact[c] for c in inverse.tolist()]
            _check_sum(fractions, outcome_ptr, int(live[np.argmax(bad)]), where)
    return weights, denominator


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
        k = bad[0]
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
            f"they sum to {total}, not 1{near}",
        )


def _field(where, k):
    return f"outcome {where.outcome(k)[1]} probability"


def _moves(moves, where) -> np.ndarray:
    if not set(map(type, moves)) <= {int}:
        for j, move in enumerate(moves):
            if type(move) is not int and (
                not isinstance(move, (int, np.integer)) or isinstance(move, (bool, np.bool_))
            ):
                where.fail_option(j, "move", f"{move!r} is not an int")
        moves = [int(m) for m in moves]
    try:
        array = np.array(moves, dtype=np.int64)
    except OverflowError:
        array = None
    if array is None or len(array) and (array.min() < _MOVE_LOW or array.max() > _MOVE_HIGH):
        for j, move in enumerate(moves):
            if not _MOVE_LOW <= move <= _MOVE_HIGH:
                where.fail_option(j, "move", f"{move} does not fit in 32 bits")
    return array.astype(np.int32)


def _passes(passes, where) -> np.ndarray:
    # A pass over the types first: np.array would spend longer finding out the same.
    if not set(map(type, passes)) <= {bool, np.bool_}:
        for j, passing in enumerate(passes):
            if type(passing) is not bool and not isinstance(passing, np.bool_):
                where.fail_option(j, "passes", f"{passing!r} is not a bool")
    return np.fromiter(passes, dtype=bool, count=len(passes))
