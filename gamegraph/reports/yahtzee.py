"""The Yahtzee (or Yatzy) report: the optimum, the simple strategies, the exact
distribution of the final score, what each open box is worth as a game goes on, and the
advice for one throw.

Everything comes from one solved table (:func:`~gamegraph.games.yahtzee.solver.solve_values`,
about 35 s, or a saved one through ``table=``): the optimal expected score is its start
value; the three distributions of the final score (optimal play, "most of a kind",
"greedy best box") are exact, by forward propagation
(:func:`~gamegraph.games.yahtzee.distribution.score_distribution`: about 40 s for
optimal play at full size, 11 s for each strategy), and so are the chances of the
positions behind the boxes' average worth (:func:`worth_by_turn`, about 25 s).

**What a box is worth.** At a turn-start position p (the filled boxes, the upper total,
the Yahtzee flag) the table gives V(p), the expected score still to come under optimal
play. Writing 0 in an open box b this turn, whatever the dice, leaves the position p with
b filled and the upper total and flag unchanged, worth V(p + b). The difference

.. math::

    W_b(p) = V(p) - V(p + b)

is what the box is worth at p: the expected final score that giving this turn up to a 0 in
b would cost. :func:`box_worth` computes it for every open box; :func:`worth_by_turn`
averages it by turn over the positions optimal play reaches, and :func:`optimal_game`
plays one game optimally (seeded dice) and records it at every turn; both are drawn by
:func:`~gamegraph.renderers.yahtzee_figures.box_values_figure`.

:func:`yahtzee_report` returns a :class:`~gamegraph.renderers.report.Report`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..games.yahtzee.advice import Position, advice_table, alternatives
from ..games.yahtzee.distribution import score_distribution
from ..games.yahtzee.scoring import BONUS_THRESHOLD, scoring
from ..games.yahtzee.solver import ValueTable, solve_values
from ..games.yahtzee.table_file import describe, load_table
from ..renderers.report import Report
from ..renderers.yahtzee_figures import box_values_figure, score_distribution_figure
from ..tables import Table

__all__ = [
    "MEASURED",
    "box_worth",
    "distribution_figure",
    "game_figure",
    "worth_by_turn_figure",
    "optimal_game",
    "GameTurn",
    "WorthByTurn",
    "worth_by_turn",
    "rules_note",
    "yahtzee_report",
]

#: Optimal expected scores measured by ``gamegraph yahtzee solve`` (each about 35 s), by
#: rule set, Yahtzee's joker or Yatzy's scoring variant; quoted in the report's text.
MEASURED = {
    ("yahtzee", "free"): 254.58960948196366,
    ("yahtzee", "forced"): 254.5877287344961,
    ("yatzy", "standard"): 248.43998937785508,
    ("yatzy", "kth-2012"): 248.6328539,
}
#: The simple strategies drawn against optimal play.
STRATEGIES = ("most of a kind", "greedy")


def box_worth(table: ValueTable, used: int, upper: int, flag: int = 0) -> np.ndarray:
    """What each box is worth at a turn-start position: V(p) - V(p with the box filled
    by a 0), NaN for a box already filled (see the module docstring).

    One die, sixes and chance: with sixes struck out, one turn in chance is left (worth
    14/3: keep a 5 or 6 first, a 4 or more next); with chance struck out, one turn in
    sixes (6 x 91/216: a six in three throws).

    >>> small = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=1))
    >>> worth = box_worth(small, 0b00, 0)
    >>> [round(float(w), 4) for w in worth]
    [3.3194, 5.4583]
    >>> bool(abs(small.start_value - worth[0] - 14 / 3) < 1e-12)
    True
    >>> bool(abs(small.start_value - worth[1] - 6 * 91 / 216) < 1e-12)
    True
    >>> box_worth(small, 0b10, 0).tolist()
    [2.5277777777777777, nan]
    """
    here = table.values[table.index(used, upper, flag)]
    worth = np.full(len(table.scoring.boxes), np.nan)
    for b in range(len(worth)):
        if not used >> b & 1:
            worth[b] = here - table.values[table.index(used | 1 << b, upper, flag)]
    return worth


@dataclass(frozen=True)
class WorthByTurn:
    """Each box's worth by turn under optimal play, over the positions play reaches.

    Attributes
    ----------
    mean : ndarray, shape (boxes, turns)
        The average of :func:`box_worth` over the positions optimal play reaches at the
        start of each turn with the box still open, weighted by their chances (NaN where
        the box is never open then).
    open : ndarray, shape (boxes, turns)
        The chance that the box is still open at the start of each turn.
    positions : tuple of int
        How many positions play reaches at the start of each turn.
    """

    mean: np.ndarray
    open: np.ndarray
    positions: tuple


def worth_by_turn(table: ValueTable) -> WorthByTurn:
    """:class:`WorthByTurn` of a solved table: the chance of every turn-start position
    under optimal play, turn by turn, and each open box's worth there.

    The chances are propagated forward with the turn outcomes of
    :mod:`gamegraph.games.yahtzee.distribution` (its compiled kernel: every reached
    position's turn, the best keeps and box, ties to the first), so optimal play here is
    the same player as the exact score distribution's; about a minute at full size.

    One die, sixes and chance: the first turn's last throw goes in sixes on a 1, 2 or 6
    (a 0 in sixes keeps chance's 14/3 for later) and in chance on a 3, 4 or 5, each half
    the time under optimal play.

    >>> small = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=1))
    >>> by_turn = worth_by_turn(small)
    >>> by_turn.open[:, 0].tolist(), by_turn.positions
    ([1.0, 1.0], (1, 3))
    >>> [round(float(x), 12) for x in by_turn.open[:, 1]]  # sixes open, chance open
    [0.5, 0.5]
    """
    from ..games.yahtzee import distribution, solver

    distribution._compile()
    rules = table.scoring
    tables = solver._tables(rules)
    n_boxes, n_throws = len(rules.boxes), tables.score.shape[0]
    flags, upper_states = tables.flags, solver.UPPER_STATES
    keeps = np.zeros((2, 1), dtype=np.int64)
    positions, reach = np.zeros(1, dtype=np.int64), np.ones(1)
    mean = np.full((n_boxes, n_boxes), np.nan)
    open_ = np.zeros((n_boxes, n_boxes))
    reached = []
    for turn in range(n_boxes):
        reached.append(len(positions))
        flag = positions % flags
        upper = positions // flags % upper_states
        used = positions // flags // upper_states
        here = table.values[positions]
        for b in range(n_boxes):
            is_open = (used >> b & 1) == 0
            chance = float(reach[is_open].sum())
            open_[b, turn] = chance
            if chance > 0:
                after = ((used[is_open] | 1 << b) * upper_states + upper[is_open]) * flags
                worth = here[is_open] - table.values[after + flag[is_open]]
                mean[b, turn] = float(worth @ reach[is_open]) / chance
        if turn == n_boxes - 1:
            break
        targets, weights = [], []
        for begin in range(0, len(positions), distribution.CHUNK):
            chunk = positions[begin : begin + distribution.CHUNK]
            out_next = np.empty((len(chunk), n_throws), dtype=np.int64)
            out_points = np.empty((len(chunk), n_throws), dtype=np.int64)
            out_prob = np.empty((len(chunk), n_throws))
            out_count = np.empty(len(chunk), dtype=np.int64)
            distribution._chunk_outcomes(
                chunk, table.values, True, keeps, out_next, out_points, out_prob, out_count,
                *tables.arguments(),
            )  # fmt: skip
            mask = np.arange(n_throws) < out_count[:, None]
            rows = np.nonzero(mask)[0] + begin
            targets.append(out_next[mask])
            weights.append(out_prob[mask] * reach[rows])
        positions, where = np.unique(np.concatenate(targets), return_inverse=True)
        reach = np.bincount(where, weights=np.concatenate(weights), minlength=len(positions))
    return WorthByTurn(mean, open_, tuple(reached))


@dataclass(frozen=True)
class GameTurn:
    """One turn of :func:`optimal_game`.

    Attributes
    ----------
    position : Position
        The card at the turn's start.
    worth : ndarray
        :func:`box_worth` of every box at the turn's start (NaN: filled).
    throws : tuple of tuple
        The dice after each throw (sorted faces).
    keeps : tuple of tuple
        The dice kept after the first and the second throw (as many as were thrown again).
    box : str
        The box scored.
    points : int
        What it earned (box, and any upper or Yahtzee bonus).
    """

    position: Position
    worth: np.ndarray
    throws: tuple
    keeps: tuple
    box: str
    points: int


def optimal_game(table: ValueTable, *, seed: int = 1) -> list[GameTurn]:
    """One game played optimally, its dice thrown by a seeded generator: at each
    decision the best choice of :func:`~gamegraph.games.yahtzee.advice.alternatives`
    (ties to the first listed).

    >>> small = solve_values(scoring("yahtzee", boxes=("sixes", "chance"), dice=2))
    >>> game = optimal_game(small, seed=3)
    >>> [turn.box for turn in game], sum(turn.points for turn in game) > 0
    (['chance', 'sixes'], True)
    """
    rules = table.scoring
    rng = np.random.default_rng(seed)
    position = Position(0, 0, 0, 0)
    turns = []
    full = (1 << len(rules.boxes)) - 1
    while position.used != full:
        worth = box_worth(table, position.used, min(position.upper, BONUS_THRESHOLD), position.flag)
        dice = tuple(sorted(int(f) for f in rng.integers(1, 7, rules.dice)))
        throws, keeps = [dice], []
        for left in (2, 1):
            kept = alternatives(table, position, dice, left)[0].choice
            keeps.append(tuple(kept))
            again = rng.integers(1, 7, rules.dice - len(kept))
            dice = tuple(sorted((*kept, *(int(f) for f in again))))
            throws.append(dice)
        best = alternatives(table, position, dice, 0)[0]
        b = rules.boxes.index(best.choice)
        face = int(rules.upper[b])
        upper = position.upper + face * dice.count(face) if face else position.upper
        flag = position.flag
        if b == rules.yahtzee_box and len(set(dice)) == 1:
            flag = 1
        turns.append(
            GameTurn(position, worth, tuple(throws), tuple(keeps), best.choice, best.points)
        )
        position = Position(position.used | 1 << b, upper, flag, position.points + best.points)
    return turns


def rules_note(rules) -> str:
    """A sentence on the published optima of a full-size rule set (Yahtzee's two joker
    readings; why Yatzy's is 248.44 and not 248.63), or "" for a small version.

    >>> rules_note(scoring("yatzy", variant="kth-2012")).split(". ")[0]
    'Larsson and Sjöberg (2012) published 248.63 for Yatzy'
    >>> rules_note(scoring("yahtzee", boxes=("sixes", "chance")))
    ''
    """
    every_box = len(rules.boxes) == (13 if rules.ruleset == "yahtzee" else 15)
    if not (every_box and rules.dice == 5):
        return ""
    if rules.ruleset == "yahtzee":
        return (
            "Yahtzee's joker rule is read two ways. Read freely (a further Yahtzee may go in "
            "any open box, full house and straights in full once its own upper box is "
            f"filled, as Verhoeff's optimal player does) the optimum is "
            f"{MEASURED[('yahtzee', 'free')]:.4f}, the published figure (Verhoeff 1999, "
            f"Glenn 2006); forced (its own upper box first, then a lower box, as Hasbro's "
            f"score sheet says) it is {MEASURED[('yahtzee', 'forced')]:.4f}: the readings "
            "differ by two thousandths of a point."
        )
    return (
        f"Larsson and Sjöberg (2012) published 248.63 for Yatzy. The rules as stated "
        f"give {MEASURED[('yatzy', 'standard')]:.4f}; their program scores a single pair "
        "in the two-pairs box, and with that scoring (variant kth-2012) the optimum is "
        f"{MEASURED[('yatzy', 'kth-2012')]:.4f}, their figure."
    )


def yahtzee_report(
    *,
    rules: str = "yahtzee",
    joker: str = "free",
    variant: str = "standard",
    table=None,
    distributions: dict | None = None,
    by_turn: WorthByTurn | None = None,
    seed: int = 1,
    progress: bool | None = None,
) -> Report:
    """Build the Yahtzee (or Yatzy) report.

    Parameters
    ----------
    rules : {"yahtzee", "yatzy"}
    joker : {"free", "forced"}
        Yahtzee's joker reading.
    variant : str
        A scoring variant (Yatzy: ``"kth-2012"``).
    table : ValueTable or path, optional
        A solved table (or a file from ``gamegraph yahtzee solve --save``): its rule set
        is the report's (``rules``, ``joker`` and ``variant`` are then not used), and the
        35-s solve is skipped. A small version's table gives a small report.
    distributions : dict, optional
        The final score's distributions already computed for this table's rules (player
        -> :class:`~gamegraph.games.yahtzee.distribution.ScoreDistribution`, players
        ``"optimal"`` and :data:`STRATEGIES`); those missing are computed.
    by_turn : WorthByTurn, optional
        :func:`worth_by_turn` of this table, if already computed (about 25 s at full
        size).
    seed : int
        Seeds the dice of the game drawn and of the advice example.
    progress : bool, optional
        Accepted for the report command's sake; the steps show no bars.
    """
    started = time.perf_counter()
    table, how = _value_table(table, rules, joker, variant)
    rules_ = table.scoring
    name = describe(rules_)
    solved = time.perf_counter() - started
    dists = _distributions(table, distributions)
    if by_turn is None:
        by_turn = worth_by_turn(table)
    game = optimal_game(table, seed=seed)
    seconds = time.perf_counter() - started

    report = Report(
        f"{name}: the optimal strategy, solved",
        footer=(
            f"{name}: {len(table.values):,} turn-start positions (table {how} in "
            f"{solved:.1f} s); three exact score distributions (propagated in "
            f"{sum(d.seconds for d in dists.values()):.1f} s); one game with seed {seed}; "
            f"report built in {seconds:.1f} s"
        ),
    )
    report.text(
        f"Every turn-start position is solved: its value is the expected score still to "
        f"come when every keep and every box is chosen to make the expected final score as "
        f"large as it can be. Under these rules, {name}, the optimal expected final score "
        f"is **{table.start_value:.4f}**."
    )
    note = rules_note(rules_)
    if note:
        report.text(note)
    report.heading("Optimal play against two simple strategies")
    _strategies_section(report, dists, name)
    report.heading("What each open box is worth as the game goes on")
    _worth_section(report, rules_.boxes, by_turn, game, seed, name)
    report.heading("Advice for one throw")
    _advice_section(report, table, game)
    return report


def _value_table(table, rules: str, joker: str, variant: str) -> tuple[ValueTable, str]:
    """The solved table (solved here, given, or read from a file) and how it was had."""
    if table is None:
        return solve_values(scoring(rules, joker=joker, variant=variant)), "solved"
    if not isinstance(table, ValueTable):
        table = load_table(table)
    return table, "loaded"


def _distributions(table: ValueTable, given: dict | None) -> dict:
    """The final score's distribution for optimal play and each of :data:`STRATEGIES`:
    those ``given`` as they are, the others computed.
    """
    given = dict(given or {})
    dists = {"optimal": given.get("optimal") or score_distribution(table)}
    for strategy in STRATEGIES:
        dists[strategy] = given.get(strategy) or score_distribution(table.scoring, strategy)
    return dists


def distribution_figure(dists: dict, name: str):
    """The final score's distributions (player -> distribution) in one figure, as the
    report and the gallery draw them.
    """
    return score_distribution_figure(
        {player: d.probabilities for player, d in dists.items()},
        title=f"{name}: the final score under three ways of playing",
    )


def worth_by_turn_figure(boxes, by_turn: WorthByTurn, name: str):
    """Each box's average worth by turn under optimal play, and its chance to be open."""
    return box_values_figure(
        boxes,
        by_turn.mean,
        chances=by_turn.open,
        title=f"{name}: each box's worth by turn under optimal play",
        colour_label="worth: expected points lost by a 0 now",
    )


def game_figure(boxes, game: list, name: str):
    """One game's open boxes' worth at each turn, the box scored each turn outlined."""
    scored = [None] * len(boxes)
    for k, turn in enumerate(game):
        scored[boxes.index(turn.box)] = (k, turn.points)
    return box_values_figure(
        boxes,
        np.column_stack([turn.worth for turn in game]),
        scored=scored,
        title=f"{name}: one optimal game, {sum(turn.points for turn in game)} points",
        colour_label="worth: expected points lost by a 0 now",
    )


def _strategies_section(report: Report, dists: dict, name: str) -> None:
    """The three players' final scores: the table of their statistics and the figure."""
    report.text(
        "Greedy best box: never throw again, and score the first throw in the box that "
        "adds the most points now. Most of a kind: after the first and the second throw "
        "keep every die of the most common face (ties: the higher face) and throw the "
        "others again, then score as the greedy player does. Each distribution is exact, "
        "by forward propagation over the positions each player reaches (no sampling); "
        "its mean is the player's expected score."
    )
    rows = []
    for player, d in dists.items():
        rows.append(
            (player, d.mean, d.std, d.quantile(0.05), d.median, d.quantile(0.95),
             float(d.probabilities.sum()))
        )  # fmt: skip
    report.table(
        Table(
            ("player", "expected score", "sd", "5 %", "median", "95 %", "total chance"),
            rows,
            title=f"The final score, exactly ({name})",
            formats={
                "expected score": lambda v: f"{v:.4f}",
                "sd": lambda v: f"{v:.4f}",
                "total chance": lambda v: f"{v:.12f}",
            },
        )
    )
    report.figure(
        distribution_figure(dists, name),
        caption=(
            "The exact distribution of the final score, as the chance of each 5 points "
            "(0-4, 5-9, ...): optimal play (black, solid, stars), most of a kind (dashed, "
            "squares), greedy best box (dash-dot, triangles); each mean a vertical line "
            "of the player's style"
        ),
        name="distribution",
    )


def _worth_section(report: Report, boxes, by_turn: WorthByTurn, game, seed: int, name: str):
    """The boxes' worth: averaged by turn under optimal play, then through one game."""
    report.text(
        "A box's worth at the start of a turn is how much the expected final score would "
        "drop if that turn's dice were ignored and a 0 written in the box: the table's "
        "value of the position minus its value with the box filled by 0 (the upper total "
        "unchanged). First on average: the chance of every position at every turn under "
        "optimal play is propagated forward, and each cell is the box's worth averaged "
        "over the positions where it is still open, with the chance that it is open "
        f"({sum(by_turn.positions):,} positions reached in all)."
    )
    report.figure(
        worth_by_turn_figure(boxes, by_turn, name),
        caption=(
            "Each box's worth at the start of each turn under optimal play, averaged over "
            "the positions where it is open (first line), and the chance that it is still "
            "open then (second line)"
        ),
        name="box-worth-by-turn",
    )
    report.text(
        f"Then one game played optimally (dice seeded with {seed}), "
        f"{sum(turn.points for turn in game)} points in all: "
        "each column is the start of a turn, each cell an open box's worth then, and the "
        "outlined cell the box scored in that turn with the points it earned (bonuses "
        "included)."
    )
    report.figure(
        game_figure(boxes, game, name),
        caption=(
            "What each open box is worth at the start of each turn of one optimal game "
            "(expected final score lost by writing 0 in it then); outlined with ▸: the box "
            "scored that turn and its points"
        ),
        name="box-worth",
    )


def _advice_section(report: Report, table: ValueTable, game) -> None:
    """The advice for the first throw of the game drawn: its best keeps."""
    first = game[0]
    dice = first.throws[0]
    advice = advice_table(table, first.position, dice, 2)
    shown = advice.rows[:8]
    report.text(
        f"The first throw of that game, {','.join(map(str, dice))}, with two throws left "
        f"and an empty card: every distinct keep with the expected final score it leads to "
        f"under optimal play (the best {min(8, len(advice.rows))} of {len(advice.rows)}), "
        "as `gamegraph yahtzee advise` prints it."
    )
    report.table(Table(advice.columns, shown, title=advice.title, notes=advice.notes,
                       formats=advice.formats))  # fmt: skip
