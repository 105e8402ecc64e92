"""Vectorised, seeded Monte Carlo play of a game under a policy.

All games advance together, one throw per step, as numpy arrays. A throw is drawn
exactly: an integer ``r`` uniform in ``[0, denominator)`` selects the chain edge whose
cumulative integer weight first exceeds it, so the sampled probabilities are the
graph's exact fractions, with no float rounding.

A ``"win"`` game counts the first player's wins (a Wilson interval for the win
probability). A ``"score"`` or ``"margin"`` game adds up, game by game, the rewards
collected on the way and the terminal value, from the first player's side (a reward or
terminal value of the other player counts negatively in a margin game), and reports the
mean with a normal interval from the sample variance.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ._checks import check_games, check_int
from ._progress import reporter
from ._stats import combine_moments, normal_interval, wilson_interval
from .errors import InvalidArgumentError
from .graph import StateGraph
from .policy import Policy
from .values import passing_value


@dataclass(frozen=True)
class SimulationResult:
    """Outcome of a Monte Carlo run.

    Attributes
    ----------
    games : int
    wins : float
        Games won by the player who moved first (a terminal value between 0 and 1
        counts fractionally); nan in a score or margin game.
    throws : int
        Throws made in all games together.
    unfinished : int
        Games still going after ``max_throws`` throws: neither won nor lost, they are left
        out of :attr:`estimate` and :meth:`interval` (see :attr:`note`).
    seconds : float
    seed : int or None
    max_throws : int or None
        The cap on throws per game the games were played with.
    objective : str
        The game's: ``"win"``, ``"score"`` or ``"margin"``.
    mean, variance : float or None
        Score and margin games: the mean of the finished games' totals for the first
        player (rewards collected plus terminal value) and their sample variance
        (``ddof=1``; nan with fewer than two games). None in a win game.
    """

    games: int
    wins: float
    throws: int
    unfinished: int
    seconds: float
    seed: int | None
    max_throws: int | None = None
    objective: str = "win"
    mean: float | None = None
    variance: float | None = None

    @property
    def finished(self) -> int:
        """Games that reached the end within ``max_throws`` throws."""
        return self.games - self.unfinished

    @property
    def estimate(self) -> float:
        """Over the finished games (nan if none finished): the first player's win rate in a
        win game, the mean total (:attr:`mean`) in a score or margin game.
        """
        if not self.finished:
            return float("nan")
        if self.objective != "win":
            return self.mean
        return self.wins / self.finished

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The ``confidence`` interval for the estimate, over the finished games: a Wilson
        score interval for a win probability ((0, 1) when no game finished), a normal
        interval from the sample variance for a mean score or margin (unbounded with
        fewer than two games).

        >>> [round(x, 4) for x in SimulationResult(100, 50, 0, 0, 0.0, 1).interval()]
        [0.4038, 0.5962]
        >>> SimulationResult(100, 0, 10**7, 100, 0.0, 1, max_throws=100_000).interval()
        (0.0, 1.0)
        >>> scored = SimulationResult(100, float("nan"), 900, 0, 0.0, 1, 100, "score", 5.0, 4.0)
        >>> [round(x, 4) for x in scored.interval()]
        [4.608, 5.392]
        """
        if self.objective != "win":
            return normal_interval(self.mean, self.variance, self.finished, confidence)
        if not self.finished:
            return (0.0, 1.0)
        return wilson_interval(self.wins, self.finished, confidence)

    @property
    def note(self) -> str:
        """'' when every game finished, else the sentence the command line prints.

        >>> SimulationResult(100, 0, 10**7, 100, 0.0, 1, max_throws=100_000).note
        '100 games did not finish within 100,000 throws (left out of the estimate)'
        """
        if not self.unfinished:
            return ""
        within = f" within {self.max_throws:,} throws" if self.max_throws is not None else ""
        games = "game" if self.unfinished == 1 else "games"
        return f"{self.unfinished:,} {games} did not finish{within} (left out of the estimate)"


def simulate(
    graph: StateGraph,
    policy: Policy,
    *,
    games: int,
    seed: int | None = None,
    max_throws: int = 100_000,
    batch: int = 1_000_000,
    progress=None,
) -> SimulationResult:
    """Play ``games`` games under ``policy``: count the first player's wins (a win game)
    or add up the first player's totals (a score or margin game).

    Games are played ``batch`` at a time.

    Parameters
    ----------
    max_throws : int
        Stop a game after this many throws; such games are counted as unfinished
        (``SimulationResult.unfinished``), never as won or lost.
    progress : bool, None or callable
        A bar on stderr advanced after each batch: None shows it when stderr is a
        terminal, True always, False never. A callable is called as
        ``progress(done, total)`` after each batch instead.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> graph = build(Jackpot())
    >>> result = simulate(graph, Policy.from_agent(graph, AGENTS["hilo"]), games=20000, seed=1)
    >>> low, high = result.interval()
    >>> low < 0.079855 < high
    True

    A score game: throw a die and score its face, but a 1 or a 2 costs 1 and is thrown
    again; the expected score v = 3 + (v - 1) / 3 is 4:

    >>> from fractions import Fraction
    >>> from gamegraph.rules import Option, Outcome, Rules
    >>> class Again(Rules):
    ...     objective = "score"
    ...     def start(self): return "throw"
    ...     def terminal_value(self, s): return 0 if s == "kept" else None
    ...     def outcomes(self, s):
    ...         keep = lambda f: Option("kept", 0, reward=f) if f > 2 else Option(s, 1, reward=-1)
    ...         return [Outcome(Fraction(1, 6), (keep(f),)) for f in range(1, 7)]
    >>> graph = build(Again())
    >>> result = simulate(graph, Policy.preferring(graph, 0), games=20000, seed=2)
    >>> low, high = result.interval()
    >>> bool(low < 4 < high), result.objective
    (True, 'score')
    """
    games = check_games(games)
    max_throws = check_int(max_throws, "max_throws", low=1)
    batch = check_int(batch, "batch", low=1)
    chain = policy.chain(graph)
    n, denominator = graph.n_states, graph.denominator
    if n * denominator >= 2**62:
        raise InvalidArgumentError(
            f"{n:,} states with probability denominator {denominator} are too many to sample "
            "exactly in 64-bit keys"
        )
    # One row per chain edge plus a "stuck" row per state (target -1), keyed so that a
    # single searchsorted over all states finds the edge a throw selects.
    counts = np.diff(chain.edge_ptr) + 1
    rows = int(counts.sum())
    owner = np.repeat(np.arange(n, dtype=np.int64), counts)
    slot = np.arange(rows) - np.repeat(np.cumsum(counts) - counts, counts)
    is_stuck = slot == counts[owner] - 1
    target = np.full(rows, -1, dtype=np.int64)
    weight = np.empty(rows, dtype=np.int64)
    passes = np.zeros(rows, dtype=bool)
    target[~is_stuck] = chain.edge_target
    weight[~is_stuck] = chain.edge_weight
    passes[~is_stuck] = chain.edge_passes
    weight[is_stuck] = chain.stuck_weight
    running = np.cumsum(weight)
    first_row = np.cumsum(counts) - counts
    within = running - np.repeat(running[first_row] - weight[first_row], counts)
    key = owner * denominator + within  # strictly increasing where weights are positive
    value_for_mover = np.where(graph.terminal, graph.terminal_value, 0.0)
    reward = None
    edge_reward = chain.edge_rewards()
    if edge_reward is not None:
        reward = np.zeros(rows)
        reward[~is_stuck] = edge_reward
    tables = (key, target, passes, value_for_mover, reward)

    if seed is not None:
        seed = check_int(seed, "seed", low=0)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    scored = graph.objective != "win"
    with reporter(games, desc="simulating", unit=" games", progress=progress) as report:
        play = _play_scores if scored else _play
        wins, throws, unfinished = play(graph, games, batch, max_throws, rng, tables, report)
    moments = {}
    if scored:
        count, mean, squares = wins
        wins = float("nan")
        moments = {
            "mean": mean if count else float("nan"),
            "variance": squares / (count - 1) if count > 1 else float("nan"),
        }
    return SimulationResult(
        games=int(games),
        wins=wins,
        throws=throws,
        unfinished=unfinished,
        seconds=time.perf_counter() - started,
        seed=seed,
        max_throws=max_throws,
        objective=graph.objective,
        **moments,
    )


def _play(graph, games, batch, max_throws, rng, tables, report):
    """The games, ``batch`` at a time; ``report(done, games)`` after each batch."""
    key, target, passes, value_for_mover, _ = tables
    denominator = graph.denominator
    wins = 0.0
    throws = 0
    unfinished = 0
    for first in range(0, games, batch):
        size = min(batch, games - first)
        state = np.full(size, graph.start, dtype=np.int64)
        other = np.zeros(size, dtype=bool)  # True when the second player is to move
        live = np.flatnonzero(~graph.terminal[state])
        if graph.terminal[graph.start]:  # a game that is over before the first throw
            wins += size * float(value_for_mover[graph.start])
        for _ in range(max_throws):
            if not len(live):
                break
            s = state[live]
            r = rng.integers(0, denominator, size=len(live))
            row = np.searchsorted(key, s * denominator + r, side="right")
            throws += len(live)
            nxt = target[row]
            stuck = nxt < 0
            # A stuck mover loses: the first player wins if the other side was stuck.
            wins += float(other[live[stuck]].sum())
            live = live[~stuck]
            row = row[~stuck]
            state[live] = target[row]
            other[live] ^= passes[row]
            done = graph.terminal[state[live]]
            ended = live[done]
            v = value_for_mover[state[ended]]
            wins += float(passing_value(v, other[ended]).sum())  # for the first player
            live = live[~done]
        unfinished += len(live)
        report(first + size, games)
    return wins, throws, unfinished


def _play_scores(graph, games, batch, max_throws, rng, tables, report):
    """As :func:`_play` for a score or margin game: each game's total for the first player
    (rewards on the way, then the terminal value; the other player's count negatively).
    Returns the finished games' (count, mean, sum of squared deviations) in place of wins.
    """
    key, target, passes, value_for_mover, reward = tables
    denominator = graph.denominator
    moments = (0, 0.0, 0.0)
    throws = 0
    unfinished = 0
    sign = np.array([1.0, -1.0])  # by side: the first player's, the other's
    for first in range(0, games, batch):
        size = min(batch, games - first)
        state = np.full(size, graph.start, dtype=np.int64)
        other = np.zeros(size, dtype=bool)
        total = np.zeros(size)
        finished = np.zeros(size, dtype=bool)
        live = np.flatnonzero(~graph.terminal[state])
        if graph.terminal[graph.start]:
            total[:] = value_for_mover[graph.start]
            finished[:] = True
        for _ in range(max_throws):
            if not len(live):
                break
            s = state[live]
            r = rng.integers(0, denominator, size=len(live))
            row = np.searchsorted(key, s * denominator + r, side="right")
            throws += len(live)
            stuck = target[row] < 0  # no option: the game ends, worth 0 more
            finished[live[stuck]] = True
            live = live[~stuck]
            row = row[~stuck]
            if reward is not None:
                total[live] += sign[other[live].astype(np.int64)] * reward[row]
            state[live] = target[row]
            other[live] ^= passes[row]
            done = graph.terminal[state[live]]
            ended = live[done]
            total[ended] += sign[other[ended].astype(np.int64)] * value_for_mover[state[ended]]
            finished[ended] = True
            live = live[~done]
        unfinished += len(live)
        values = total[finished]
        if len(values):
            mean = float(values.mean())
            moments = combine_moments(
                moments, (len(values), mean, float(((values - mean) ** 2).sum()))
            )
        report(first + size, games)
    return moments, throws, unfinished
