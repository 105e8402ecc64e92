"""Explore a game's rules and materialise every reachable state as a :class:`StateGraph`."""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from math import lcm

import numpy as np

from ._progress import progress_bar
from .errors import InvalidRulesError
from .graph import StateGraph

#: States explored between two updates of the progress bar.
_PROGRESS_EVERY = 4096


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
        Refuse to grow past this many states (InvalidRulesError), a guard for huge games.
    explore : bool
        Use the generic state-by-state exploration even when the rules offer a
        vectorised ``build_graph()`` (tests compare the two). Rules whose
        ``build_graph()`` returns None are explored state by state too.
    progress : bool or None
        A bar on stderr counting the states explored: None shows it when stderr is a
        terminal, True always, False never (:mod:`gamegraph._progress`). A vectorised
        build shows its bar while it runs and counts its states at the end.

    Examples
    --------
    >>> from gamegraph.games.jackpot import Jackpot
    >>> graph = build(Jackpot())
    >>> graph.n_states, graph.layer_counts()
    (512, [1, 9, 36, 84, 126, 126, 84, 36, 9, 1])
    """
    name = getattr(rules, "name", "game")
    with progress_bar(desc=f"building {name}", unit=" states", progress=progress) as bar:
        if not explore and hasattr(rules, "build_graph"):
            graph = rules.build_graph()
            if graph is not None:
                bar.update(graph.n_states)
                return graph
        return _explore(rules, max_states, bar)


def _explore(rules, max_states, bar) -> StateGraph:
    """The generic build: a breadth-first walk from the roots, one state at a time."""
    start = rules.start()
    index = {start: 0}
    states = [start]
    queue = deque([start])

    outcome_counts = []  # per state, in numbering order
    weights: list[Fraction] = []
    option_counts = []  # per outcome
    targets, moves, passes = [], [], []
    terminal_values = {}

    def number(state):
        i = index.get(state)
        if i is None:
            i = index[state] = len(states)
            states.append(state)
            queue.append(state)
            if max_states is not None and len(states) > max_states:
                raise InvalidRulesError(f"{rules.name} has more than {max_states} states")
        return i

    for root in rules.roots():
        number(root)
    while queue:
        state = queue.popleft()
        if not len(outcome_counts) % _PROGRESS_EVERY:
            bar.update(len(outcome_counts) - bar.n)
        value = rules.terminal_value(state)
        if value is not None:
            terminal_values[index[state]] = Fraction(value)
            outcome_counts.append(0)
            continue
        outcomes = rules.outcomes(state)
        probabilities = [Fraction(outcome.probability) for outcome in outcomes]
        if any(p <= 0 for p in probabilities):
            raise InvalidRulesError(
                f"an outcome of {rules.label(state)} has probability {min(probabilities)}"
            )
        common = lcm(*(p.denominator for p in probabilities)) if probabilities else 1
        total = Fraction(
            sum(p.numerator * (common // p.denominator) for p in probabilities), common
        )
        weights.extend(probabilities)
        for outcome in outcomes:
            option_counts.append(len(outcome.options))
            for option in outcome.options:
                targets.append(number(option.target))
                moves.append(option.move)
                passes.append(option.passes)
        if total != 1:
            raise InvalidRulesError(
                f"outcome probabilities of {rules.label(state)} sum to {total}, not 1"
            )
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
