r"""Seeded Monte Carlo tournaments between Ur agents, with each move's cost in win probability.

:func:`play_match` plays agent A against agent B on the state numbers of a full-board
graph (``Ur(...).build_graph()``), all games of a batch advancing together as numpy
arrays. Game ``i`` has A moving first when ``i`` is even and B when it is odd, so both
sides open equally often (one more game for A when the count is odd).

Each agent's choices come from, in order of preference:

* ``policy_array(graph)``: a choice at every outcome, computed once for the whole graph
  (first, last, greedy, expectimax, optimal);
* a cache filled at the outcomes games actually reach, by asking ``choose`` once per
  outcome (gain, and any agent without a vectorised form);
* a fresh uniform draw from the match's generator at every visit (random).

With a :class:`~.code_table.SolvedTable` the match also measures every
decision (a throw offering more than one legal move) against the optimum: the *loss* of
a move is the win probability of the best move minus that of the move played, both
read from the table. Its mean over a side's decisions is 0 for the optimal agent and
positive for anything that errs; a move counts as non-optimal when it loses more than
:data:`LOSS_TOLERANCE`.

Win rates carry Wilson 95 % intervals (:func:`gamegraph._stats.wilson_interval`, the
same as Monte Carlo simulation's). :func:`gamegraph.games.ur.analysis.exact_win_probability`
gives the exact value the Monte Carlo estimates for two deterministic agents, by
evaluating the Markov chain of the two-seat game.

Examples
--------
>>> from gamegraph.games.ur import Ur
>>> from gamegraph.games.ur.agents import make_agent
>>> graph = Ur("finkel", pieces=1).build_graph()
>>> ruleset = graph.rules.ruleset
>>> result = play_match(graph, make_agent("last", ruleset=ruleset),
...                     make_agent("random", ruleset=ruleset), games=2000, seed=7)
>>> result.games, result.a.name, result.b.name
(2000, 'last', 'random')
>>> low, high = result.interval()
>>> low < result.a.win_rate < high
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..._checks import MAX_GAMES, check_choice, check_games, check_int
from ..._progress import progress_bar, reporter
from ..._stats import wilson_interval
from ...errors import InvalidArgumentError
from ...graph import StateGraph
from ...tables import Table
from ...values import option_values
from .agents import Agent, as_agent, outcome_throws, table_values
from .positions import Positions
from .rules import legal_moves

LOSS_TOLERANCE = 1e-12
#: Throws after which a game still going is abandoned, at most.
MAX_THROWS = 10**9


@dataclass
class SideRecord:
    """One agent's results in a match.

    Attributes
    ----------
    name : str
    wins : int
    games : int
    decisions : int
        Throws after which the agent had more than one legal move.
    loss : float
        Sum over those decisions of (best move's win probability - the played move's);
        NaN without a table.
    nonoptimal : int
        Decisions that lost more than :data:`LOSS_TOLERANCE` (-1 without a table).
    """

    name: str
    wins: int = 0
    games: int = 0
    decisions: int = 0
    loss: float = 0.0
    nonoptimal: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Wilson interval of the win rate (:func:`gamegraph._stats.wilson_interval`)."""
        return wilson_interval(self.wins, self.games, confidence)

    @property
    def mean_loss(self) -> float:
        """Average win probability given up per decision."""
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def nonoptimal_fraction(self) -> float:
        return self.nonoptimal / self.decisions if self.decisions else 0.0


@dataclass
class MatchResult:
    """A played match: both sides' records and the match's totals.

    ``first_wins`` counts games won by the side that moved first.
    """

    a: SideRecord
    b: SideRecord
    games: int
    first_wins: int
    throws: int
    unfinished: int
    seconds: float
    seed: int | None
    measured: bool = False

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Wilson interval of A's win rate."""
        return self.a.interval(confidence)

    @property
    def first_rate(self) -> float:
        return self.first_wins / self.games

    def table(self) -> Table:
        """Both sides as a table: wins, win rate with its 95 % interval, decisions and, when
        the match was measured against a table, the mean loss and non-optimal fraction.
        """
        rows = []
        for record in (self.a, self.b):
            low, high = record.interval()
            rows.append(
                (
                    record.name,
                    record.wins,
                    record.games,
                    record.win_rate,
                    f"[{low:.4f}, {high:.4f}]",
                    record.decisions,
                    record.mean_loss if self.measured else None,
                    record.nonoptimal_fraction if self.measured else None,
                )
            )
        return Table(
            (
                "agent",
                "wins",
                "games",
                "win_rate",
                "interval",
                "decisions",
                "mean_loss",
                "nonoptimal",
            ),
            rows,
            title=f"{self.a.name} against {self.b.name}: {self.games:,} games, seed {self.seed}",
            notes=(f"the side moving first won {self.first_rate:.4f} of the games",),
            formats=_FORMATS,
        )

    def __repr__(self) -> str:
        low, high = self.interval()
        return (
            f"<MatchResult {self.a.name} vs {self.b.name}: {self.games:,} games, "
            f"{self.a.name} wins {self.a.win_rate:.4f} [{low:.4f}, {high:.4f}]>"
        )

    def _repr_html_(self) -> str:
        return self.table().to_html()

    def to_pandas(self):
        """:meth:`table` as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.table().to_pandas()

    def row(self) -> dict:
        """The match as one table row (win rates of A; each side's move losses)."""
        low, high = self.interval()
        row = {
            "a": self.a.name,
            "b": self.b.name,
            "games": self.games,
            "a_wins": self.a.wins,
            "a_rate": self.a.win_rate,
            "low": low,
            "high": high,
            "first_rate": self.first_rate,
        }
        for side, record in (("a", self.a), ("b", self.b)):
            row[f"{side}_decisions"] = record.decisions
            row[f"{side}_loss"] = record.mean_loss if self.measured else float("nan")
            row[f"{side}_nonoptimal"] = (
                record.nonoptimal_fraction if self.measured else float("nan")
            )
        row["seconds"] = self.seconds
        row["games_per_second"] = self.games / self.seconds if self.seconds > 0 else float("inf")
        return row


def _four_decimals(value) -> str:
    return "" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)


#: Cells as :func:`format_rows` writes them: floats to 4 decimals, counts without commas.
_FORMATS = {
    name: _four_decimals
    for name in (
        "games",
        "wins",
        "win_rate",
        "decisions",
        "mean_loss",
        "nonoptimal",
        "A wins",
        "first mover wins",
    )
}


class RoundRobin(list):
    """The rows of :func:`round_robin`, one dict per pairing (:meth:`MatchResult.row`),
    that also display as tables: each agent's totals and the pairings.

    It is a list, so code that reads the rows keeps working; :meth:`agent_table` and
    :meth:`pairing_table` hold the columns ``gamegraph ur tournament`` prints.
    """

    def agents(self) -> list[dict]:
        """Each agent's totals (:func:`agent_rows`), best win rate first."""
        return sorted(agent_rows(self), key=lambda row: -row["win_rate"])

    def agent_table(self, title: str | None = None) -> Table:
        """Each agent over all its games: win rate, mean loss per decision and the fraction
        of non-optimal moves (NaN where no table measured the moves).
        """
        columns = ("agent", "games", "win_rate", "mean_loss", "nonoptimal")
        return Table(
            columns,
            [tuple(row[c] for c in columns) for row in self.agents()],
            title="Each agent over all its games" if title is None else title,
            notes=("loss: win probability given up per decision, against the solved values",),
            formats=_FORMATS,
        )

    def pairing_table(self, title: str | None = None) -> Table:
        """Every pairing: A's win rate with its 95 % interval, and the first mover's."""
        return Table(
            ("A", "B", "A wins", "interval", "first mover wins"),
            [
                (
                    row["a"],
                    row["b"],
                    row["a_rate"],
                    f"[{row['low']:.4f}, {row['high']:.4f}]",
                    row["first_rate"],
                )
                for row in self
            ],
            title="Pairings: A's win rate with its 95 % interval" if title is None else title,
            formats=_FORMATS,
        )

    def table(self) -> Table:
        """The agent table (:meth:`agent_table`)."""
        return self.agent_table()

    def to_pandas(self):
        """The agent table as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.agent_table().to_pandas()

    def _repr_html_(self) -> str:
        return self.agent_table().to_html() + self.pairing_table().to_html()

    def __repr__(self) -> str:
        if not self:
            return "<RoundRobin: no pairings>"
        best = self.agents()[0]
        return (
            f"<RoundRobin: {len(self.agents())} agents, {len(self)} pairings; "
            f"best {best['agent']} wins {best['win_rate']:.4f}>"
        )


class _Chooser:
    """Supplies one agent's choices at batches of outcomes of one graph."""

    def __init__(self, agent: Agent, graph: StateGraph):
        self.agent = agent
        self.graph = graph
        self.choice = None
        self.lazy = False
        if not agent.randomised:
            choice = agent.policy_array(graph)
            if choice is None:
                choice = np.full(graph.n_outcomes, -1, dtype=np.int32)
                self.lazy = True
            self.choice = np.asarray(choice, dtype=np.int32)
        self.throws = None

    def pick(self, outcomes: np.ndarray, counts: np.ndarray, rng) -> np.ndarray:
        if self.choice is None:
            return rng.integers(0, counts)
        if self.lazy:
            unknown = np.unique(outcomes[self.choice[outcomes] < 0])
            if len(unknown):
                self._fill(unknown)
        return self.choice[outcomes]

    def _fill(self, outcomes):
        graph, agent = self.graph, self.agent
        if self.throws is None:
            self.throws = outcome_throws(graph)
        owner = graph.outcome_state
        for k in outcomes.tolist():
            state = graph.states[int(owner[k])]
            throw = int(self.throws[k])
            moves = legal_moves(state, throw, agent.ruleset)
            count = int(graph.option_ptr[k + 1] - graph.option_ptr[k])
            if len(moves) != count:
                raise InvalidArgumentError(
                    f"the graph offers {count} options after throw {throw} at {state}, the "
                    f"rules {len(moves)} moves: graph and agent play different rules"
                )
            picked = agent.choose(state, throw, moves)
            self.choice[k] = check_choice(picked, count, f"agent {agent.name!r} at {state}")


class _GraphTurn:
    """One throw of every live game on a graph: the outcomes reached and their options."""

    def __init__(self, board, state: np.ndarray, k: np.ndarray):
        graph = board.graph
        self.board = board
        self.outcome = graph.outcome_ptr[state] + k
        self.first = graph.option_ptr[self.outcome]
        self.counts = graph.option_ptr[self.outcome + 1] - self.first

    def choose(self, chooser, asked, rng) -> np.ndarray:
        return chooser.pick(self.outcome[asked], self.counts[asked], rng)

    def loss(self, asked, chosen) -> np.ndarray:
        board = self.board
        return board.best[self.outcome[asked]] - board.q[self.first[asked] + chosen]


class _GraphBoard:
    """A match's games as state numbers of a full-board graph (see :func:`_play`).

    ``q`` holds every option's win probability for the side choosing it (None: no
    losses are measured).
    """

    def __init__(self, graph: StateGraph, q):
        self.graph = graph
        self.q = q
        self.measured = q is not None
        self.best = np.maximum.reduceat(q, graph.option_ptr[:-1]) if self.measured else None
        self.numerators = np.array([w for _, w in graph.rules.ruleset.throws], dtype=np.int64)
        self.denominator = graph.denominator

    def start(self, size: int) -> np.ndarray:
        return np.full(size, self.graph.start, dtype=np.int64)

    def throw(self, state, live, k) -> _GraphTurn:
        return _GraphTurn(self, state[live], k)

    def advance(self, state, live, turn, pick):
        """Play each live game's pick; (whether the turn passed, whether the mover won)."""
        graph = self.graph
        option = turn.first + pick
        state[live] = graph.option_target[option]
        return graph.option_passes[option], state[live] == graph.states.win


def play_match(
    graph: StateGraph,
    a,
    b,
    *,
    games: int,
    seed: int | None = None,
    table=None,
    batch: int = 100_000,
    max_throws: int = 100_000,
    progress=None,
) -> MatchResult:
    """Play ``games`` games of agent ``a`` against agent ``b`` and count the wins.

    Parameters
    ----------
    graph : StateGraph
        A full-board Ur graph (``Ur(rules, pieces).build_graph()``).
    a, b : Agent or str
        Agents, or names for :func:`~.agents.make_agent`. A random
        agent's draws come from the match's generator, not its own.
    games : int
        A moves first in the even-numbered games, B in the odd ones (at most
        :data:`gamegraph._checks.MAX_GAMES`).
    seed : int, optional
        Seeds the throws and the random agents' draws: the same seed replays the same
        match.
    table : SolvedTable, optional
        Measures every decision's loss of win probability (and serves ``optimal``).
    batch : int
        Games played side by side at once.
    max_throws : int
        Throws after which a game still going is abandoned (counted in ``unfinished``,
        won by neither side).
    progress : bool, None or callable
        A bar on stderr advanced after each batch: None shows it when stderr is a
        terminal, True always, False never; a callable is called as
        ``progress(done, games)`` after each batch instead.

    Returns
    -------
    MatchResult
    """
    check_int(batch, "batch", low=1, high=MAX_GAMES)
    check_int(max_throws, "max_throws", low=1, high=MAX_THROWS)
    _check_graph(graph)
    agents = [as_agent(x, graph.rules.ruleset, table=table, seed=seed) for x in (a, b)]
    q = option_values(graph, table_values(graph, table)) if table is not None else None
    choosers = [_Chooser(x, graph) for x in agents]
    desc = f"{agents[0].name} vs {agents[1].name}"
    with reporter(check_games(games), desc=desc, unit=" games", progress=progress) as report:
        return _play(
            _GraphBoard(graph, q),
            choosers,
            games=games,
            seed=seed,
            batch=batch,
            max_throws=max_throws,
            progress=report,
        )


def _check_graph(graph):
    if not isinstance(graph.states, Positions):
        raise InvalidArgumentError(
            "a tournament needs the graph of every position "
            "(Ur(...).build_graph() without a custom start)"
        )


def _play(board, choosers, *, games, seed, batch=100_000, max_throws=100_000, progress=None):
    """The match itself (see :func:`play_match`), on any *board*: the graph's state numbers
    (:class:`_GraphBoard`) or positions themselves (:mod:`.position_match`).

    A board gives ``numerators`` and ``denominator`` of the throws, ``measured``,
    ``start(size)`` (the games' states), ``throw(state, live, k)`` (a turn: ``counts`` of
    options per live game, ``choose(chooser, asked, rng)`` and ``loss(asked, chosen)``) and
    ``advance(state, live, turn, pick)``. Both boards draw the same random numbers in the
    same order, so the same seed plays the same games on either.
    """
    games = check_games(games)
    measured = board.measured
    rng = np.random.default_rng(seed)
    cumulative = np.cumsum(board.numerators)
    records = [SideRecord(name=c.agent.name, games=int(games)) for c in choosers]
    first_wins = throws = unfinished = 0
    started = time.perf_counter()
    for begin in range(0, games, batch):
        size = min(batch, games - begin)
        game = np.arange(begin, begin + size)
        state = board.start(size)
        a_moves = game % 2 == 0  # whose turn: True when A's
        a_first = a_moves.copy()
        live = np.arange(size)
        for _ in range(max_throws):
            if not len(live):
                break
            throws += len(live)
            k = np.searchsorted(
                cumulative, rng.integers(0, board.denominator, size=len(live)), side="right"
            )
            turn = board.throw(state, live, k)
            counts = turn.counts
            pick = np.zeros(len(live), dtype=np.int64)
            mover_is_a = a_moves[live]
            for side, chooser in enumerate(choosers):
                asked = np.flatnonzero((counts > 1) & (mover_is_a == (side == 0)))
                if not len(asked):
                    continue
                chosen = turn.choose(chooser, asked, rng)
                pick[asked] = chosen
                record = records[side]
                record.decisions += len(asked)
                if measured:
                    lost = turn.loss(asked, chosen)
                    record.loss += float(lost.sum())
                    record.nonoptimal += int((lost > LOSS_TOLERANCE).sum())
            passes, done = board.advance(state, live, turn, pick)
            a_moves[live] ^= passes
            ended = live[done]  # the side that moved there won
            a_won = int(a_moves[ended].sum())
            records[0].wins += a_won
            records[1].wins += len(ended) - a_won
            first_wins += int((a_moves[ended] == a_first[ended]).sum())
            live = live[~done]
        unfinished += len(live)
        if progress is not None:
            progress(begin + size, games)
    return MatchResult(
        a=records[0],
        b=records[1],
        games=int(games),
        first_wins=first_wins,
        throws=throws,
        unfinished=unfinished,
        seconds=time.perf_counter() - started,
        seed=seed,
        measured=measured,
    )


def round_robin(
    graph: StateGraph,
    agents,
    *,
    games: int,
    seed: int | None = None,
    table=None,
    games_for=None,
    progress=None,
) -> RoundRobin:
    """Every pair of ``agents`` plays a match; one row (:meth:`MatchResult.row`) per pair.

    Parameters
    ----------
    agents : sequence of Agent or str
        Each pair (i < j) plays once, agent i as A. A vectorised policy or a lazy cache
        is made once per agent and shared by all its matches.
    games : int
        Games per pairing.
    seed : int, optional
        Pairing number p is played with seed ``seed + p`` (None: unseeded).
    games_for : callable, optional
        ``games_for(a_name, b_name)`` overrides the count for a pairing (slow agents may
        need fewer games).
    progress : bool, None or callable
        A bar on stderr counting the games of all pairings, advanced after each batch:
        None shows it when stderr is a terminal, True always, False never. A callable is
        called as ``progress(pairings_done, pairings, row)`` after each pairing instead.

    Returns
    -------
    RoundRobin
        A list of the rows that also displays as tables (:meth:`RoundRobin.agent_table`).

    Examples
    --------
    >>> from gamegraph import solve
    >>> from gamegraph.games.ur import Ur, table_from_solution
    >>> graph = Ur("finkel", pieces=1).build_graph()
    >>> rows = round_robin(graph, ["first", "last", "optimal"], games=1000, seed=1,
    ...                    table=table_from_solution(solve(graph)))
    >>> [(row["a"], row["b"]) for row in rows]
    [('first', 'last'), ('first', 'optimal'), ('last', 'optimal')]
    >>> rows[1]["b_loss"]
    0.0
    >>> rows
    <RoundRobin: 3 agents, 3 pairings; best optimal wins 0.5...>
    """
    _check_graph(graph)
    agents = [as_agent(x, graph.rules.ruleset, table=table, seed=seed) for x in agents]
    _check_names(agents)
    q = option_values(graph, table_values(graph, table)) if table is not None else None
    choosers = [_Chooser(x, graph) for x in agents]
    return _pairings(_GraphBoard(graph, q), choosers, games, seed, games_for, progress)


def _check_names(agents) -> list[str]:
    if len(agents) < 2:
        raise InvalidArgumentError(f"a round robin needs at least two agents, got {len(agents)}")
    names = [x.name for x in agents]
    if len(set(names)) != len(names):
        raise InvalidArgumentError(f"agent names must differ, got {', '.join(names)}")
    return names


def _pairings(board, choosers, games, seed, games_for, progress) -> RoundRobin:
    """Every pair of ``choosers`` plays a match on ``board`` (see :func:`round_robin`)."""
    names = [c.agent.name for c in choosers]
    pairs = [(i, j) for i in range(len(choosers)) for j in range(i + 1, len(choosers))]
    counts = [
        check_games(games if games_for is None else games_for(names[i], names[j])) for i, j in pairs
    ]
    rows = RoundRobin()
    bar = progress_bar(
        sum(counts),
        desc="tournament",
        unit=" games",
        progress=False if callable(progress) else progress,
    )
    with bar:
        for p, ((i, j), count) in enumerate(zip(pairs, counts)):
            played = bar.n
            result = _play(
                board,
                [choosers[i], choosers[j]],
                games=count,
                seed=None if seed is None else seed + p,
                progress=lambda done, total, played=played: bar.update(played + done - bar.n),
            )
            rows.append(result.row())
            if callable(progress):
                progress(p + 1, len(pairs), rows[-1])
    return rows


def agent_rows(rows: list[dict]) -> list[dict]:
    """Each agent's totals over a round robin's rows: games, wins, win rate, decisions,
    mean loss per decision and the fraction of non-optimal moves (decision-weighted).
    """
    totals = {}
    for row in rows:
        for side in ("a", "b"):
            name = row[side]
            t = totals.setdefault(
                name,
                {
                    "agent": name,
                    "games": 0,
                    "wins": 0,
                    "decisions": 0,
                    "loss": 0.0,
                    "nonoptimal": 0.0,
                },
            )
            wins = row["a_wins"] if side == "a" else row["games"] - row["a_wins"]
            t["games"] += row["games"]
            t["wins"] += wins
            t["decisions"] += row[f"{side}_decisions"]
            t["loss"] += row[f"{side}_loss"] * row[f"{side}_decisions"]
            t["nonoptimal"] += row[f"{side}_nonoptimal"] * row[f"{side}_decisions"]
    out = []
    for t in totals.values():
        d = t["decisions"]
        out.append(
            {
                "agent": t["agent"],
                "games": t["games"],
                "wins": t["wins"],
                "win_rate": t["wins"] / t["games"],
                "decisions": d,
                "mean_loss": t["loss"] / d if d else 0.0,
                "nonoptimal": t["nonoptimal"] / d if d else 0.0,
            }
        )
    return out


def format_rows(rows: list[dict], columns=None) -> str:
    """Rows as an aligned text table (floats to 4 decimals).

    >>> rows = [{"agent": "first", "win_rate": 0.25}, {"agent": "last", "win_rate": 0.5}]
    >>> print(format_rows(rows))
    agent  win_rate
    first    0.2500
    last     0.5000
    """
    if not rows:
        return ""
    columns = list(columns or rows[0])

    def cell(value):
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    cells = [[cell(row[c]) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(columns, widths))
        )
    ]
    for r in cells:
        lines.append(
            "  ".join(
                v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))
            )
        )
    return "\n".join(lines)
