"""A seeded round robin of named Ur agents, on the graph or on positions, as one result.

:func:`play_tournament` measures every move against a solved table: a saved one (of
either kind, :func:`.table_files.open_table`), or the rule set solved on its graph
first. The games are played on the explicit graph (:func:`.graph_match.round_robin`, up
to about 4 pieces) or on the positions themselves (:func:`.position_match.round_robin_positions`,
any size); the same seed plays the same games on either. :class:`UrTournament` prints
what ``gamegraph ur tournament`` prints and serialises to its JSON.

Examples
--------
>>> result = play_tournament(["first", "last", "optimal"], rules="finkel", pieces=1,
...                          games=200, progress=False)
>>> result.engine, [row["agent"] for row in result.agents]
('graph', ['optimal', 'last', 'first'])
>>> print(result)  # doctest: +ELLIPSIS
Royal Game of Ur, finkel rules, 1 piece(s) each: 3 pairings of 200 games, seed 1, ... s
<BLANKLINE>
each agent over all its games (loss: win probability given up per move, against the solved values)
agent    games  win_rate  mean_loss  nonoptimal
...
pairings: A's win rate with its 95 % interval
A      B        A wins  interval          first mover wins
...

On positions instead of the graph, the same seed plays the same games:

>>> again = play_tournament(["first", "last", "optimal"], rules="finkel", pieces=1,
...                         games=200, engine="positions", progress=False)
>>> [row["a_wins"] for row in again.rows] == [row["a_wins"] for row in result.rows]
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ...build import build
from ...errors import UnknownNameError
from .agents import make_agent
from .code_table import table_from_solution
from .defaults import DEFAULT_AGENTS, MATCH_ENGINES, SOLVE_PIECES
from .game import Ur
from .graph_match import RoundRobin, format_rows, round_robin
from .position_match import round_robin_positions
from .rules import RuleSet, rule_set
from .solving import check_graph_memory, solve_graph
from .table_files import open_table


def choose_engine(engine: str = "auto", table=None) -> str:
    """``graph`` or ``positions``: the engine named, or for ``auto`` positions when a
    table is given (any size) and the graph otherwise.

    >>> choose_engine("auto", "finkel-7.npy"), choose_engine("auto"), choose_engine("graph")
    ('positions', 'graph', 'graph')
    >>> choose_engine("gpu")
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown match engine 'gpu'; accepted: auto, graph, positions
    """
    if engine not in MATCH_ENGINES:
        raise UnknownNameError("match engine", engine, MATCH_ENGINES)
    if engine != "auto":
        return engine
    return "graph" if table is None else "positions"


@dataclass(eq=False)
class UrTournament:
    """A round robin's rows and how it was played: what ``gamegraph ur tournament`` reports.

    ``str()`` gives its text (each agent's totals, then the pairings); :meth:`as_dict`
    the JSON payload; :meth:`to_pandas` the agents' totals.

    Attributes
    ----------
    ruleset : RuleSet
    rows : RoundRobin
        One row per pairing (:meth:`.graph_match.MatchResult.row`).
    games : int
        Games per pairing.
    seed : int or None
    seconds : float
        Time the games took (not the solve before them).
    engine : {"graph", "positions"}
    """

    ruleset: RuleSet
    rows: RoundRobin
    games: int
    seed: int | None
    seconds: float
    engine: str

    @property
    def agents(self) -> list[dict]:
        """Each agent's totals, best win rate first (:meth:`.graph_match.RoundRobin.agents`)."""
        return self.rows.agents()

    def as_dict(self) -> dict:
        """The result as ``gamegraph ur tournament --format json`` writes it."""
        return {
            "rules": self.ruleset.name,
            "pieces": self.ruleset.pieces,
            "games_per_pairing": self.games,
            "seed": self.seed,
            "seconds": self.seconds,
            "pairings": list(self.rows),
            "agents": self.agents,
        }

    def to_pandas(self):
        """Each agent's totals as a ``pandas.DataFrame`` (the ``pandas`` extra)."""
        return self.rows.to_pandas()

    def _repr_html_(self) -> str:
        return self.rows._repr_html_()

    def __repr__(self) -> str:
        return f"<UrTournament {self.ruleset.name} {self.ruleset.pieces}: {self.rows!r}>"

    def __str__(self) -> str:
        ruleset = self.ruleset
        pairings = [
            {
                "A": row["a"],
                "B": row["b"],
                "A wins": row["a_rate"],
                "interval": f"[{row['low']:.4f}, {row['high']:.4f}]",
                "first mover wins": row["first_rate"],
            }
            for row in self.rows
        ]
        columns = ["agent", "games", "win_rate", "mean_loss", "nonoptimal"]
        return (
            f"Royal Game of Ur, {ruleset.name} rules, {ruleset.pieces} piece(s) each: "
            f"{len(self.rows)} pairings of {self.games:,} games, seed {self.seed}, "
            f"{self.seconds:.1f} s\n\n"
            "each agent over all its games (loss: win probability given up per move, "
            "against the solved values)\n"
            f"{format_rows(self.agents, columns)}\n\n"
            "pairings: A's win rate with its 95 % interval\n"
            f"{format_rows(pairings)}"
        )


def play_tournament(agents=DEFAULT_AGENTS, *, table=None, rules: str | None = None,
                    pieces: int | None = None, games: int = 2000, seed: int | None = 1,
                    engine: str = "auto", check: str = "full",
                    progress: bool | None = None) -> UrTournament:  # fmt: skip
    """Every pair of ``agents`` plays ``games`` seeded games, half with each moving first.

    Parameters
    ----------
    agents : sequence of str
        Agent names (:func:`.agents.make_agent`): random, first, last, greedy, gain,
        expectimax-D, optimal. Unknown names are refused before any solve.
    table : str or PathLike, optional
        A saved table to measure the moves against (and for ``optimal`` to play by);
        None: the rule set is solved on its graph first.
    rules, pieces : optional
        With a table: what it must hold (None: its own). Without: the rule set to solve
        (finkel, :data:`~.defaults.SOLVE_PIECES` pieces when None).
    games : int
        Games per pairing.
    seed : int or None
        Pairing p is played with seed ``seed + p``; agents that draw (random) are
        seeded with it too.
    engine : {"auto", "graph", "positions"}
        Where the games are played (:func:`choose_engine`); the same games either way.
    check : {"full", "quick"}
        How a ``.npy`` table is checked when opened.
    progress : bool or None
        Progress bars on stderr (None: when stderr is a terminal).

    Returns
    -------
    UrTournament
    """
    where = choose_engine(engine, table)
    graph = None
    if table is not None:
        values = open_table(table, rules, pieces, check=check)
        ruleset = values.ruleset
        players = [make_agent(name, ruleset=ruleset, table=values, seed=seed) for name in agents]
        if where == "graph":
            check_graph_memory(ruleset)
            graph = build(Ur(ruleset), progress=progress)
    else:
        ruleset = rule_set(rules or "finkel", pieces, default_pieces=SOLVE_PIECES)
        for name in agents:  # refuse unknown names before solving
            if name != "optimal":
                make_agent(name, ruleset=ruleset, seed=seed)
        graph, solution = solve_graph(ruleset, progress=progress)
        values = table_from_solution(solution)
        players = [make_agent(name, ruleset=ruleset, table=values, seed=seed) for name in agents]
    started = time.perf_counter()
    if where == "graph":
        rows = round_robin(graph, players, games=games, seed=seed, table=values, progress=progress)
    else:
        rows = round_robin_positions(
            players, games=games, seed=seed, table=values, progress=progress
        )
    return UrTournament(ruleset, rows, games, seed, time.perf_counter() - started, where)
