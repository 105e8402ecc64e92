"""Shut the Box: shut tiles that sum to the throw, with a choice of one die or two.

The box has ``tiles`` numbered tiles (9 in the common game), all open at the start.
Each turn the player throws the dice and shuts any set of open tiles whose numbers sum
to the throw (a throw of 8 may shut 8, 7+1, 6+2, 5+3 or 5+2+1, ...). When no set of
open tiles sums to the throw the game is lost; shutting every tile wins. It is a
one-player game: the value is the probability of shutting the box.

Late in the game the player may throw **one die instead of two**. This is a decision
*before* the throw (:func:`~gamegraph.rules.decision`), and ``one_die`` names when it is
offered:

``"sum6"`` (the default)
    when the open tiles sum to 6 or less (the rule Bill Butler analyses, except that
    here the single die is a choice, not an obligation);
``"789"``
    when every tile above 6 (the 7, 8 and 9) is shut, as in The Riddler's "Lever Box";
``"never"``
    always two dice.

This differs from :mod:`gamegraph.games.jackpot`, which is played on the same box: in
Jackpot a throw (A, B) flips exactly one of the cells A, B or A+B, while here any set of
tiles whose sum is the total may be shut, and the player may pick the number of dice.

A state is a pair ``(dice, open)``: ``open`` is the bit mask of the open tiles (tile t is
bit t-1), ``dice`` is 1 or 2 when that many dice are about to be thrown and 0 at the
choice between one die and two. The box shut, ``(0, 0)``, is the win. A move that shuts
tiles is numbered by the mask of the tiles it shuts; the two decisions are
:data:`ONE_DIE` and :data:`TWO_DICE`. :class:`ShutTheBoxBatch` is the same game on
arrays of codes ``dice << tiles | open`` (the batch path).

Bill Butler's tables give the chance of shutting the box with optimal play as
7.1432 % with two dice always and 9.7614 % with one die when the open tiles sum to 6 or
less (:data:`PUBLISHED_WIN_PERCENT`); the exact values are in :data:`EXACT_WIN`.

Examples
--------
>>> from gamegraph import build, solve
>>> solution = solve(build(ShutTheBox()), exact=True)
>>> solution.start_value == EXACT_WIN["sum6"], f"{float(solution.start_value):.4%}"
(True, '9.7614%')
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np

from .._checks import check_int
from ..batch import BatchRules, Expansion
from ..errors import UnknownNameError
from ..rules import Option, Outcome, Rules, decision

__all__ = [
    "ShutTheBox",
    "ShutTheBoxBatch",
    "ONE_DIE_RULES",
    "ONE_DIE",
    "TWO_DICE",
    "WON",
    "AGENTS",
    "EXACT_WIN",
    "PUBLISHED_WIN_PERCENT",
    "subsets",
]

#: When a single die may be thrown instead of two (see the module docstring).
ONE_DIE_RULES = ("sum6", "789", "never")
#: Move numbers of the decision before the throw (moves that shut tiles are tile masks).
ONE_DIE, TWO_DICE = 1 << 16, 2 << 16
#: The box shut: the win.
WON = (0, 0)
#: Bill Butler's published chances (percent) of shutting 9 tiles with optimal play.
PUBLISHED_WIN_PERCENT = {"never": 7.1432, "sum6": 9.7614}
#: The exact chances of shutting 9 tiles with optimal play, by ``one_die`` rule.
EXACT_WIN = {
    "sum6": Fraction(956177159, 9795520512),
    "789": Fraction(956177159, 9795520512),
    "never": Fraction(466473281, 6530347008),
}

#: Ways to throw each total: one die (faces 1..6, out of 6) and two dice (2..12, of 36).
ONE_DIE_WAYS = {face: 1 for face in range(1, 7)}
TWO_DICE_WAYS = {total: 6 - abs(total - 7) for total in range(2, 13)}


def subsets(total: int, tiles: int) -> list[tuple[int, ...]]:
    """Every set of distinct tiles 1..``tiles`` that sums to ``total``, in the order offered.

    Fewest tiles first; among as many tiles, the one with the largest tile first.

    >>> subsets(8, 9)
    [(8,), (7, 1), (6, 2), (5, 3), (5, 2, 1), (4, 3, 1)]
    """
    found = [
        tuple(sorted(chosen, reverse=True))
        for size in range(1, tiles + 1)
        for chosen in combinations(range(1, tiles + 1), size)
        if sum(chosen) == total
    ]
    return sorted(found, key=lambda s: (len(s), [-t for t in s]))


def _mask(chosen) -> int:
    return sum(1 << (t - 1) for t in chosen)


def _tiles_of(mask: int) -> list[int]:
    return [t for t in range(1, mask.bit_length() + 1) if mask >> (t - 1) & 1]


class ShutTheBox(Rules):
    """Shut the Box with ``tiles`` tiles and the ``one_die`` rule (see the module docstring).

    Parameters
    ----------
    tiles : int
        The number of tiles, 1 to 12 (9 in the common game).
    one_die : {"sum6", "789", "never"}
        When the player may choose to throw a single die.

    Examples
    --------
    >>> rules = ShutTheBox(tiles=4)
    >>> rules.start(), rules.label(rules.start())
    ((2, 15), '1234 2d')
    >>> [(o.probability, [rules.move_label(x.move) for x in o.options])
    ...  for o in rules.outcomes((2, 15))][:4]  # doctest: +NORMALIZE_WHITESPACE
    [(Fraction(1, 36), ['2']), (Fraction(1, 18), ['3', '2+1']),
     (Fraction(1, 12), ['4', '3+1']), (Fraction(1, 9), ['4+1', '3+2'])]
    >>> rules.outcomes((0, 3))  # 1 and 2 open: one die or two?  # doctest: +ELLIPSIS
    [Outcome(probability=Fraction(1, 1), options=(Option(target=(1, 3), move=65536, ...
    """

    def __init__(self, *, tiles: int = 9, one_die: str = "sum6"):
        self.tiles = check_int(tiles, "tiles", low=1, high=12)
        if one_die not in ONE_DIE_RULES:
            raise UnknownNameError("one_die", one_die, ONE_DIE_RULES)
        self.one_die = one_die
        self.name = f"shut the box ({tiles} tiles, one die: {one_die})"
        # The sets of tiles (as masks) that make each total, computed once.
        self.ways = {total: [_mask(s) for s in subsets(total, tiles)] for total in range(1, 13)}

    def may_throw_one_die(self, open_tiles: int) -> bool:
        """Whether the rule lets the player choose one die with these tiles open."""
        if self.one_die == "sum6":
            return sum(_tiles_of(open_tiles)) <= 6
        if self.one_die == "789":
            return open_tiles >> 6 == 0  # no tile above 6 is open
        return False

    def turn(self, open_tiles: int):
        """The state a turn starts in, with these tiles open."""
        if open_tiles == 0:
            return WON
        return (0 if self.may_throw_one_die(open_tiles) else 2, open_tiles)

    def start(self):
        return self.turn((1 << self.tiles) - 1)

    def terminal_value(self, state):
        return Fraction(1) if state == WON else None

    def outcomes(self, state):
        dice, open_tiles = state
        if dice == 0:  # choose before the throw
            return decision(
                Option((1, open_tiles), move=ONE_DIE), Option((2, open_tiles), move=TWO_DICE)
            )
        ways = ONE_DIE_WAYS if dice == 1 else TWO_DICE_WAYS
        return [
            Outcome(
                Fraction(count, 6**dice),
                tuple(
                    Option(self.turn(open_tiles & ~shut), move=shut)
                    for shut in self.ways[total]
                    if shut & open_tiles == shut
                ),
            )
            for total, count in ways.items()
        ]

    def label(self, state):
        """The open tiles and what comes next: ``"1234 2d"``, ``"12 ?"``, ``"SHUT"``."""
        if state == WON:
            return "SHUT"
        dice, open_tiles = state
        tiles = "".join(str(t % 10) for t in _tiles_of(open_tiles))
        return f"{tiles} {('?', '1d', '2d')[dice]}"

    def layer(self, state):
        """The number of tiles shut."""
        return self.tiles - bin(state[1]).count("1")

    def move_label(self, move):
        if move == ONE_DIE:
            return "one die"
        if move == TWO_DICE:
            return "two dice"
        return "+".join(str(t) for t in reversed(_tiles_of(move)))


class ShutTheBoxBatch(BatchRules):
    """The same game as :class:`ShutTheBox` on arrays of codes ``dice << tiles | open``.

    Every state of a phase (choose, one die, two dice) has the same outcomes, and each
    outcome the same candidate sets of tiles: a candidate is an option where all its
    tiles are open. So :meth:`expand` is a lookup in three small tables and a mask test,
    with no Python loop over states. ``state`` and ``code`` convert, so the graph's
    states, labels and values are those of :class:`ShutTheBox`.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> graph = build(ShutTheBoxBatch())
    >>> graph.n_states, graph.states[0], solve(graph, exact=True).start_value == EXACT_WIN["sum6"]
    (537, (2, 511), True)
    """

    def __init__(self, *, tiles: int = 9, one_die: str = "sum6"):
        self.rules = ShutTheBox(tiles=tiles, one_die=one_die)
        self.tiles, self.one_die, self.name = tiles, one_die, self.rules.name
        self.code_bound = 3 << tiles
        full = 1 << tiles
        # The code a turn starts in, for every mask of open tiles.
        self.turn_code = np.array(
            [self.code(self.rules.turn(m)) for m in range(full)], dtype=np.int64
        )
        # Per phase (0 choose, 1 one die, 2 two dice): outcome weights (of 36, 0 = no such
        # outcome), and per outcome the candidate options: tiles shut, move, whether real,
        # and for the decision the number of dice chosen (-1 for a shutting move).
        slots, width = 11, max(2, *(len(w) for w in self.rules.ways.values()))
        self.weight = np.zeros((3, slots), dtype=np.int64)
        self.shut = np.zeros((3, slots, width), dtype=np.int64)
        self.move = np.zeros((3, slots, width), dtype=np.int64)
        self.real = np.zeros((3, slots, width), dtype=bool)
        self.chosen = np.full((3, slots, width), -1, dtype=np.int64)
        self.weight[0, 0] = 36
        self.move[0, 0, :2] = ONE_DIE, TWO_DICE
        self.real[0, 0, :2] = True
        self.chosen[0, 0, :2] = 1, 2
        for dice, ways in ((1, ONE_DIE_WAYS), (2, TWO_DICE_WAYS)):
            for k, (total, count) in enumerate(ways.items()):
                self.weight[dice, k] = count * 36 // 6**dice
                masks = self.rules.ways[total]
                self.shut[dice, k, : len(masks)] = masks
                self.move[dice, k, : len(masks)] = masks
                self.real[dice, k, : len(masks)] = True

    def start(self):
        return self.code(self.rules.start())

    def terminal_values(self, codes):
        return np.where(codes == 0, 1.0, np.nan)

    def expand(self, codes):
        dice, open_tiles = codes >> self.tiles, codes & ((1 << self.tiles) - 1)
        has_outcome = self.weight[dice] > 0  # (m, slots)
        shut = self.shut[dice]  # (m, slots, width)
        chosen = self.chosen[dice]
        open3 = open_tiles[:, None, None]
        valid = self.real[dice] & (shut & open3 == shut) & has_outcome[:, :, None]
        target = np.where(chosen >= 0, chosen << self.tiles | open3, self.turn_code[open3 & ~shut])
        # Number the outcomes that exist, in order; options point at their outcome.
        outcome_number = np.cumsum(has_outcome.ravel()).reshape(has_outcome.shape) - 1
        where = np.nonzero(valid)
        return Expansion(
            outcome_state=np.nonzero(has_outcome)[0],
            outcome_weight=self.weight[dice][has_outcome],
            denominator=36,
            option_outcome=outcome_number[where[0], where[1]],
            option_target=target[valid],
            option_move=self.move[dice][valid].astype(np.int32),
        )

    def state(self, code):
        return (code >> self.tiles, code & ((1 << self.tiles) - 1))

    def code(self, state):
        dice, open_tiles = state
        if dice not in (0, 1, 2) or not 0 <= open_tiles < 1 << self.tiles:
            raise KeyError(state)
        return dice << self.tiles | open_tiles

    def label(self, state):
        return self.rules.label(state)

    def layer(self, state):
        return self.rules.layer(state)

    def move_label(self, move):
        return self.rules.move_label(move)


def _decide(state, options, shutting):
    """Common to the agents: one die when the open tiles sum to 6 or less."""
    if options[0].move == ONE_DIE:
        return 0 if sum(_tiles_of(state[1])) <= 6 else 1
    return shutting(options)


def largest_tile(state, options):
    """Shut the set holding the largest tile (fewer tiles on a tie); one die at sum <= 6."""
    return _decide(
        state,
        options,
        lambda opts: max(
            range(len(opts)), key=lambda i: (opts[i].move.bit_length(), -opts[i].move.bit_count())
        ),
    )


def fewest_tiles(state, options):
    """Shut as few tiles as possible (the largest on a tie); one die at sum <= 6."""
    return _decide(
        state,
        options,
        lambda opts: min(
            range(len(opts)), key=lambda i: (opts[i].move.bit_count(), -opts[i].move.bit_length())
        ),
    )


def most_tiles(state, options):
    """Shut as many tiles as possible (the smallest largest tile on a tie); one die at sum <= 6."""
    return _decide(
        state,
        options,
        lambda opts: max(
            range(len(opts)), key=lambda i: (opts[i].move.bit_count(), -opts[i].move.bit_length())
        ),
    )


#: The ready-made agents, by name.
AGENTS = {"largest tile": largest_tile, "fewest tiles": fewest_tiles, "most tiles": most_tiles}
