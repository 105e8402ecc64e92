"""Explore a game's rules and materialise every reachable state as a :class:`StateGraph`."""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from math import isfinite, lcm
from numbers import Rational, Real

import numpy as np

from ._checks import check_int
from ._progress import progress_bar
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
    with progress_bar(desc=f"building {name}", unit=" states", progress=progress) as bar:
        if not explore and hasattr(rules, "build_graph"):
            graph = rules.build_graph()
            if graph is not None:
                bar.update(graph.n_states)
                return graph
        return _explore(rules, max_states, bar)


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
    """The generic build: a breadth-first walk from the roots, one state at a time."""
    start = rules.start()
    try:
        index = {start: 0}
    except TypeError:
        _fail(rules, start, "start()", f"the state {start!r} is not hashable")
    states = [start]
    queue = deque([start])

    outcome_counts = []  # per state, in numbering order
    weights: list[Fraction] = []
    option_counts = []  # per outcome
    targets, moves, passes = [], [], []
    terminal_values = {}

    def number(state, source, field):
        try:
            i = index.get(state)
        except TypeError:
            _fail(rules, source, field, f"the state {state!r} is not hashable")
        if i is None:
            i = index[state] = len(states)
            states.append(state)
            queue.append(state)
            if len(states) > max_states:
                raise InvalidRulesError(
                    f"{rules.name} has more than {max_states:,} states (max_states); a game "
                    "whose states never run out cannot be built; pass a larger max_states "
                    "if the game is finite but bigger"
                )
        return i

    for root in rules.roots():
        number(root, start, "roots()")
    while queue:
        state = queue.popleft()
        if not len(outcome_counts) % _PROGRESS_EVERY:
            bar.update(len(outcome_counts) - bar.n)
        value = rules.terminal_value(state)
        if value is not None:
            value = _number(value, rules, state, "terminal_value", False)
            terminal_values[index[state]] = value
            outcome_counts.append(0)
            continue
        outcomes = rules.outcomes(state)
        if not isinstance(outcomes, (list, tuple)):
            try:
                outcomes = list(outcomes)
            except TypeError:
                _fail(rules, state, "outcomes()", f"{outcomes!r} is not a list of Outcome")
        probabilities = []
        for k, outcome in enumerate(outcomes):
            if not isinstance(outcome, Outcome):
                _fail(rules, state, f"outcome {k}", f"{outcome!r} is not an Outcome")
            p = outcome.probability
            if type(p) is not Fraction or not 0 < p.numerator <= p.denominator:
                p = _number(p, rules, state, f"outcome {k} probability", True)
            probabilities.append(p)
        common = lcm(*(p.denominator for p in probabilities)) if probabilities else 1
        total = Fraction(
            sum(p.numerator * (common // p.denominator) for p in probabilities), common
        )
        if total != 1:
            near = " (floats are taken exactly: use Fractions)" if abs(total - 1) < 1e-12 else ""
            _fail(rules, state, "outcome probabilities", f"they sum to {total}, not 1{near}")
        weights.extend(probabilities)
        for k, outcome in enumerate(outcomes):
            options = outcome.options
            if not isinstance(options, (tuple, list)) or isinstance(options, Option):
                _fail(rules, state, f"outcome {k} options", f"{options!r} is not a tuple")
            option_counts.append(len(options))
            for j, option in enumerate(options):
                if type(option) is Option:
                    target, move, passing = option
                    if (
                        type(move) is not int
                        or type(passing) is not bool
                        or not _MOVE_LOW <= move <= _MOVE_HIGH
                    ):
                        move, passing = _check_option(option, rules, state, k, j)
                else:
                    move, passing = _check_option(option, rules, state, k, j)
                    target = option.target
                targets.append(number(target, state, f"outcome {k} option {j} target"))
                moves.append(move)
                passes.append(passing)
        outcome_counts.append(len(outcomes))
    bar.update(len(outcome_counts) - bar.n)

    denominator = lcm(*(w.denominator for w in weights)) if weights else 1
    if denominator >= 2**62:
        raise InvalidRulesError(
            f"{rules.name}: the probabilities' common denominator {denominator} does not fit "
            "in 62 bits; use probabilities with smaller denominators"
        )
    n = len(states)
    terminal = np.zeros(n, dtype=bool)
    terminal_value = np.zeros(n, dtype=np.float64)
    for i, v in terminal_values.items():
        terminal[i] = True
        terminal_value[i] = float(v)
    return StateGraph(
        rules=rules,
        states=states,
        start=0,
        outcome_ptr=np.concatenate([[0], np.cumsum(outcome_counts)]).astype(np.int64),
        outcome_weight=np.array([int(w * denominator) for w in weights], dtype=np.int64),
        denominator=denominator,
        option_ptr=np.concatenate([[0], np.cumsum(option_counts)]).astype(np.int64),
        option_target=np.array(targets, dtype=np.int64),
        option_move=np.array(moves, dtype=np.int32),
        option_passes=np.array(passes, dtype=bool),
        terminal=terminal,
        terminal_value=terminal_value,
        terminal_exact=terminal_values,
    )
