"""The batch path (gamegraph.batch): BatchRules explored a frontier at a time.

PigBatch is checked against Pig (the same game through the per-state path) state by
state; small games with known answers check the numbering contract, sparse and dense
numbering, chunking, denominators that change between calls, extra roots, CodeTable and
exact terminal values.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import factorial, lcm

import numpy as np
import pytest
from same_graph import assert_same_graph

import gamegraph.batch as batch_module
from gamegraph import Option, Outcome, Rules, build, solve
from gamegraph.batch import BatchRules, CodeTable, Expansion
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.pig import BUST, HOLD, ROLL, WON, Pig, PigBatch


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------
def structure(graph):
    """Every state's outcomes in readable form: state -> terminal value, or a tuple of
    (probability, ((target state, move, passes), ...)) in the graph's order."""
    states = list(graph.states)
    result = {}
    ptr, optr = graph.outcome_ptr, graph.option_ptr
    for i, state in enumerate(states):
        if graph.terminal[i]:
            result[state] = ("terminal", graph.terminal_exact[i])
            continue
        outcomes = []
        for k in range(ptr[i], ptr[i + 1]):
            options = tuple(
                (
                    states[graph.option_target[j]],
                    int(graph.option_move[j]),
                    bool(graph.option_passes[j]),
                )
                for j in range(optr[k], optr[k + 1])
            )
            outcomes.append((F(int(graph.outcome_weight[k]), graph.denominator), options))
        result[state] = tuple(outcomes)
    return result


def bfs_order(rules):
    """The numbering a plain queue gives: roots first, then targets by first appearance."""
    order, seen = [], set()
    for code in (rules.start(), *rules.roots()):
        if code not in seen:
            seen.add(code)
            order.append(code)
    done = 0
    while done < len(order):
        code = order[done]
        done += 1
        if not np.isnan(rules.terminal_values(np.array([code]))[0]):
            continue
        for target in rules.expand(np.array([code])).option_target.tolist():
            if target not in seen:
                seen.add(target)
                order.append(target)
    return order


class CoinRace(BatchRules):
    """The module docstring's game: heads (1/2) wins, tails passes the turn; v = 2/3."""

    name = "coin race"
    code_bound = 2

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.where(codes == 1, 1.0, np.nan)

    def expand(self, codes):
        m = len(codes)
        return Expansion(
            outcome_state=np.repeat(np.arange(m), 2),
            outcome_weight=np.ones(2 * m),
            denominator=2,
            option_outcome=np.arange(2 * m),
            option_target=np.tile([1, 0], m),
            option_passes=np.tile([False, True], m),
        )


class Unbounded(BatchRules):
    """Another batch game seen through codes ``c * 2**40 + 7`` and no ``code_bound``, so
    it is numbered through the sorted (sparse) table."""

    SCALE = 2**40

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name

    def _in(self, codes):
        return (np.asarray(codes, dtype=np.int64) - 7) // self.SCALE

    def _out(self, codes):
        return np.asarray(codes, dtype=np.int64) * self.SCALE + 7

    def start(self):
        return int(self._out(self.inner.start()))

    def roots(self):
        return tuple(int(c) for c in self._out(list(self.inner.roots())))

    def terminal_values(self, codes):
        return self.inner.terminal_values(self._in(codes))

    def terminal_fraction(self, code, value):
        return self.inner.terminal_fraction(int(self._in(code)), value)

    def expand(self, codes):
        e = self.inner.expand(self._in(codes))
        return e._replace(option_target=self._out(e.option_target))

    def state(self, code):
        return self.inner.state(int(self._in(code)))

    def code(self, state):
        return int(self._out(self.inner.code(state)))


class Ladder(BatchRules):
    """From rung c < top, a fair (c + 2)-sided die: face 1 climbs, the c + 1 others fall
    to the lost state. The win probability from rung 0 is 1 / (top + 1)!.

    Each frontier holds one rung, so every call of ``expand`` has its own denominator
    (c + 2) and earlier parts must be rescaled to the common one, lcm(2..top + 1).
    """

    name = "ladder"

    def __init__(self, top=8):
        self.top = top
        self.lost = top + 1
        self.code_bound = top + 2
        self.denominators = []

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.select([codes == self.top, codes == self.lost], [1.0, 0.0], np.nan)

    def expand(self, codes):
        (c,) = codes.tolist()  # one rung per frontier
        self.denominators.append(c + 2)
        return Expansion(
            outcome_state=np.array([0, 0]),
            outcome_weight=np.array([1, c + 1]),
            denominator=c + 2,
            option_outcome=np.array([0, 1]),
            option_target=np.array([c + 1, self.lost]),
            option_move=np.array([1, 0]),
        )


class LadderRules(Rules):
    """:class:`Ladder` through the per-state Rules API."""

    name = "ladder"

    def __init__(self, top=8):
        self.top = top

    def start(self):
        return 0

    def terminal_value(self, state):
        return {self.top: F(1), self.top + 1: F(0)}.get(state)

    def outcomes(self, c):
        return [
            Outcome(F(1, c + 2), (Option(c + 1, move=1),)),
            Outcome(F(c + 1, c + 2), (Option(self.top + 1, move=0),)),
        ]


# ---------------------------------------------------------------------------
# The module's example, and Pig against PigBatch
# ---------------------------------------------------------------------------
def test_coin_race_of_the_module_docstring():
    graph = build(CoinRace())
    assert isinstance(graph.states, CodeTable)
    assert graph.n_states == 2 and graph.start == 0
    assert graph.denominator == 2
    assert graph.outcome_weight.tolist() == [1, 1]
    assert graph.option_passes.tolist() == [False, True]
    assert graph.terminal.tolist() == [False, True]
    assert solve(graph, exact=True).start_value == F(2, 3)
    assert solve(graph).start_value == pytest.approx(2 / 3, abs=1e-12)


@pytest.mark.parametrize("goal", range(2, 26))
def test_pig_batch_is_pig_state_by_state(goal):
    natural, batch = build(Pig(goal)), build(PigBatch(goal))
    assert batch.n_states == natural.n_states
    # Both number by first appearance from the start, so even the numbering agrees, and
    # then equal arrays mean the same outcomes (probabilities, options in order with
    # their targets, moves and passes) state by state.
    assert list(batch.states) == list(natural.states)
    assert_same_graph(natural, batch)
    values = solve(batch).values
    assert np.allclose(values, solve(natural).values, rtol=0, atol=1e-12)


@pytest.mark.parametrize("goal", [2, 3, 7])
def test_pig_batch_outcomes_read_as_pig_states(goal):
    a, b = structure(build(Pig(goal))), structure(build(PigBatch(goal)))
    assert a == b
    assert b[WON] == ("terminal", F(1))
    start = b[("roll", 0, 0, 0)]
    assert [p for p, _ in start] == [F(1, 6)] * 6
    assert start[0][1] == ((("roll", 0, 0, 0), BUST, True),)
    if goal > 2:
        assert b[("choose", 0, 0, 2)] == (
            (F(1), ((("roll", 0, 0, 2), ROLL, False), (("roll", 0, 2, 0), HOLD, True))),
        )
    else:
        assert all(options == ((WON, -1, False),) for _, options in start[1:])


@pytest.mark.parametrize("goal", [2, 3, 5, 10])
def test_pig_batch_exact_values_equal_pig(goal):
    natural, batch = solve(build(Pig(goal)), exact=True), solve(build(PigBatch(goal)), exact=True)
    assert list(natural.values) == list(batch.values)
    if goal == 10:
        assert batch.start_value == F(7776, 10961)


# ---------------------------------------------------------------------------
# Numbering
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("goal", [4, 9])
def test_numbering_is_roots_then_first_appearance(goal):
    rules = PigBatch(goal)
    graph = build(rules)
    assert graph.start == 0 and graph.states.codes[0] == rules.start()
    assert graph.states.codes.tolist() == bfs_order(rules)


class Islands(BatchRules):
    """A path of step 1 from the start 2 to the terminal 9 (value 1), and an island
    21 -> 20 -> 9 that only ``roots()`` reaches, listed before the start."""

    name = "islands"
    code_bound = 32

    def start(self):
        return 2

    def roots(self):
        return (21, 2)

    def terminal_values(self, codes):
        return np.where(codes == 9, 1.0, np.nan)

    def expand(self, codes):
        nxt = np.select([codes == 21, codes == 20], [20, 9], codes + 1)
        m = len(codes)
        return Expansion(np.arange(m), np.ones(m, dtype=np.int64), 1, np.arange(m), nxt)


def test_roots_beyond_the_start_are_kept_and_numbered_after_it():
    graph = build(Islands())
    # The start is 0 even though roots() lists 21 first; the roots follow it.
    assert graph.states.codes.tolist() == [2, 21, 3, 20, 4, 9, 5, 6, 7, 8]
    assert graph.start == 0
    assert graph.state_number(20) == 3
    assert graph.option_target[graph.outcome_ptr[1]] == 3  # 21 -> 20
    assert solve(graph, exact=True).values[1] == 1


# ---------------------------------------------------------------------------
# Sparse numbering, chunks, denominators
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("inner", [PigBatch(7), Islands(), Ladder(6)], ids=lambda r: r.name)
def test_a_game_without_code_bound_gives_the_assert_same_graph(inner):
    dense = build(inner)
    sparse_rules = Unbounded(inner)
    assert sparse_rules.code_bound is None
    sparse = build(sparse_rules)
    assert sparse.states.codes.tolist() == [c * Unbounded.SCALE + 7 for c in dense.states.codes]
    assert_same_graph(dense, sparse)


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_several_chunks_give_the_assert_same_graph(monkeypatch, chunk):
    whole = build(PigBatch(8))
    whole_sparse = build(Unbounded(PigBatch(8)))
    monkeypatch.setattr(batch_module, "CHUNK", chunk)
    calls = []
    rules = PigBatch(8)
    expand = rules.expand
    rules.expand = lambda codes: calls.append(len(codes)) or expand(codes)
    assert_same_graph(whole, build(rules))
    assert max(calls) <= chunk and len(calls) > 10
    assert_same_graph(whole_sparse, build(Unbounded(PigBatch(8))))


def test_denominators_that_change_between_calls_are_rescaled():
    top = 8
    rules = Ladder(top)
    graph = build(rules)
    assert rules.denominators == list(range(2, top + 2))
    assert graph.denominator == lcm(*range(2, top + 2)) == 2520
    # Every outcome keeps its probability after the rescaling of earlier parts.
    for c in range(top):
        i = graph.state_number(c)
        ks = range(graph.outcome_ptr[i], graph.outcome_ptr[i + 1])
        probabilities = [F(int(graph.outcome_weight[k]), graph.denominator) for k in ks]
        assert probabilities == [F(1, c + 2), F(c + 1, c + 2)]
    assert solve(graph, exact=True).start_value == F(1, factorial(top + 1))
    assert structure(graph) == structure(build(LadderRules(top)))


def test_denominators_change_across_chunks_of_one_frontier(monkeypatch):
    """Pig's choose states give 6/6 and its roll states 1/6; with chunks of one state the
    calls alternate between denominator 6 and a game-specific 1 (a choose-only chunk
    written over 1), and the graph still equals the per-state one."""

    class OverOne(PigBatch):
        def expand(self, codes):
            e = super().expand(codes)
            if len(codes) == 1 and len(e.outcome_state) == 1:  # one choose state
                return e._replace(outcome_weight=np.array([1]), denominator=1)
            return e

    monkeypatch.setattr(batch_module, "CHUNK", 1)
    assert structure(build(OverOne(6))) == structure(build(Pig(6)))


# ---------------------------------------------------------------------------
# Expansion.from_grid
# ---------------------------------------------------------------------------
def test_from_grid_drops_invalid_slots_and_broadcasts_moves_and_passes():
    targets = [[[5, 6], [7, 0], [8, 9]], [[1, 2], [3, 4], [0, 0]]]
    valid = [
        [[True, True], [True, False], [False, False]],
        [[False, True], [True, True], [True, False]],
    ]
    e = Expansion.from_grid(
        [1, 2, 3], 6, targets, valid, moves=[[10, 11]], passes=[[[False], [True], [False]]]
    )
    assert e.outcome_state.tolist() == [0, 0, 0, 1, 1, 1]
    assert e.outcome_weight.tolist() == [1, 2, 3, 1, 2, 3]
    assert e.denominator == 6
    # Outcome 2 of state 0 is left with no option (a throw that leaves the mover stuck).
    assert e.option_outcome.tolist() == [0, 0, 1, 3, 4, 4, 5]
    assert e.option_target.tolist() == [5, 6, 7, 2, 3, 4, 0]
    assert e.option_move.tolist() == [10, 11, 10, 11, 10, 11, 10]
    assert e.option_passes.tolist() == [False, False, True, False, True, True, False]


def test_from_grid_without_moves_and_passes_leaves_them_to_the_defaults():
    e = Expansion.from_grid([1], 1, [[[3]]], [[[True]]])
    assert e.option_move is None and e.option_passes is None


class GridRace(BatchRules):
    """A race to 6 with a coin through from_grid: heads may move 1 or 2 squares (two
    options), tails moves 1 and passes. From square s, landing on 6 or beyond wins."""

    name = "grid race"
    code_bound = 8

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.where(codes == 6, 1.0, np.nan)

    def expand(self, codes):
        ahead = np.minimum(codes[:, None, None] + np.array([[1, 2], [1, 1]]), 6)
        valid = np.array([[True, True], [True, False]])
        return Expansion.from_grid(
            [1, 1],
            2,
            ahead,
            np.broadcast_to(valid, ahead.shape),
            moves=np.array([[1, 2], [1, 1]]),
            passes=np.array([[False, False], [True, True]]),
        )


class GridRaceRules(Rules):
    name = "grid race"

    def start(self):
        return 0

    def terminal_value(self, s):
        return F(1) if s == 6 else None

    def outcomes(self, s):
        return [
            Outcome(F(1, 2), (Option(min(s + 1, 6), move=1), Option(min(s + 2, 6), move=2))),
            Outcome(F(1, 2), (Option(min(s + 1, 6), move=1, passes=True),)),
        ]


def test_a_game_through_from_grid_equals_its_per_state_rules():
    batch, natural = build(GridRace()), build(GridRaceRules())
    assert structure(batch) == structure(natural)
    assert solve(batch, exact=True).start_value == solve(natural, exact=True).start_value


# ---------------------------------------------------------------------------
# CodeTable and state_number
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pig6():
    return build(PigBatch(6))


def test_code_table_index_of_numbers_and_iteration(pig6):
    table = pig6.states
    assert isinstance(table, CodeTable)
    assert len(table) == pig6.n_states == len(list(table))
    for i, state in enumerate(table):
        assert table[i] == state
        assert table.index_of(state) == i
    assert table.numbers(table.codes[::-1]).tolist() == list(range(len(table)))[::-1]
    assert table.numbers([]).tolist() == []
    won = PigBatch(6).won
    assert table[table.numbers([won])[0]] == WON
    with pytest.raises(KeyError):
        table.numbers([table.codes[0], won + 1])
    with pytest.raises(KeyError):
        table.index_of(("choose", 0, 0, 0))  # holding on 0 is not in the game
    with pytest.raises(KeyError):
        table.index_of("nonsense")


def test_state_number_of_a_batch_graph(pig6):
    assert pig6.state_number(("roll", 0, 0, 0)) == 0
    assert pig6.state_number(WON) == pig6.states.index_of(WON)
    assert pig6.label(pig6.state_number(("choose", 0, 0, 3))) == "choose 0-0 +3"
    for bad in [("roll", 9, 9, 9), ("choose", 0, 0, 0), "nonsense", None, ("roll", 0.5, 0, 0)]:
        with pytest.raises(InvalidArgumentError, match="is not in this graph"):
            pig6.state_number(bad)


# ---------------------------------------------------------------------------
# Terminal values
# ---------------------------------------------------------------------------
class Thirds(BatchRules):
    """A coin: heads ends in code 1 (value 1/3, exact through terminal_fraction), tails
    hands the turn over into code 2 (value 1/4 for the opponent, an exact binary float).
    v = 1/2 * 1/3 + 1/2 * (1 - 1/4) = 13/24."""

    name = "thirds"
    code_bound = 3

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.select([codes == 1, codes == 2], [1 / 3, 0.25], np.nan)

    def terminal_fraction(self, code, value):
        return F(1, 3) if code == 1 else F(value)

    def expand(self, codes):
        return Expansion([0, 0], [1, 1], 2, [0, 1], [1, 2], option_passes=[False, True])


def test_terminal_values_other_than_zero_and_one():
    graph = build(Thirds())
    assert graph.terminal_exact == {1: F(1, 3), 2: F(1, 4)}
    assert graph.terminal_value.tolist() == [0.0, 1 / 3, 0.25]
    assert solve(graph, exact=True).start_value == F(13, 24)
    assert solve(graph).start_value == pytest.approx(13 / 24, abs=1e-15)


def test_terminal_values_default_to_their_exact_binary_value():
    class Plain(Thirds):
        terminal_fraction = BatchRules.terminal_fraction

    graph = build(Plain())
    assert graph.terminal_exact[1] == F(1 / 3) != F(1, 3)
    assert solve(graph, exact=True).start_value == F(1 / 3) / 2 + F(3, 8)


# ---------------------------------------------------------------------------
# Objectives and rewards
# ---------------------------------------------------------------------------
class PigTurnsGrid(BatchRules):
    """Pig alone to ``goal`` in batch form, a throw first: -1 per turn (a score game).

    Code ``score * goal + turn`` is a turn about to throw; ``goal**2`` is done. A 1 ends
    the turn (reward -1); another face offers hold (reward -1) or going on, which is
    only there while the total stays below the goal.
    """

    objective = "score"

    def __init__(self, goal):
        self.goal, self.name = goal, f"pig turns grid {goal}"
        self.code_bound = goal * goal + 1

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.where(codes == self.goal**2, 0.0, np.nan)

    def expand(self, codes):
        g = self.goal
        score, turn = codes // g, codes % g
        faces = np.arange(1, 7)
        total = (score + turn)[:, None] + faces  # (m, 6)
        hold = np.where(total >= g, g * g, total * g)
        hold[:, 0] = score * g  # a 1: the turn ends with nothing banked
        go_on = score[:, None] * g + turn[:, None] + faces
        targets = np.stack([hold, np.where(total < g, go_on, 0)], axis=2)
        valid = np.stack([np.ones_like(total, bool), (total < g) & (faces > 1)], axis=2)
        return Expansion.from_grid(
            np.ones(6, np.int64), 6, targets, valid, moves=[0, 1], rewards=[-1, 0]
        )


class PigTurnsNatural(Rules):
    """The same game state by state in Pig's natural form (roll or hold, then the die)."""

    objective = "score"

    def __init__(self, goal):
        self.goal = goal

    def start(self):
        return ("roll", 0, 0)

    def terminal_value(self, s):
        return 0 if s[0] == "done" else None

    def outcomes(self, s):
        kind, score, turn = s
        if kind == "choose":
            total = score + turn
            hold = ("done", 0, 0) if total >= self.goal else ("roll", total, 0)
            going = (Option(("roll", score, turn)),) if total < self.goal else ()
            return [Outcome(F(1), (Option(hold, reward=-1), *going))]
        sixth = F(1, 6)
        return [Outcome(sixth, (Option(("roll", score, 0), reward=-1),))] + [
            Outcome(sixth, (Option(("choose", score, turn + f)),)) for f in range(2, 7)
        ]


@pytest.mark.parametrize("goal", [8, 12])
def test_a_score_game_in_batch_form_solves_as_its_natural_form(goal):
    batch = build(PigTurnsGrid(goal))
    assert batch.objective == "score" and batch.has_rewards
    # Every hold and every 1 costs a turn; going on costs nothing.
    paying = sorted(batch.reward_exact)
    assert set(batch.reward_exact.values()) == {-1}
    assert set(batch.option_move[paying].tolist()) == {0}
    assert set(batch.option_move[batch.option_reward == 0].tolist()) == {1}
    natural = solve(build(PigTurnsNatural(goal)), exact=True).start_value
    value = solve(batch, exact=True).start_value
    assert value == natural == {8: F(-324, 209), 12: F(-1296, 697)}[goal]
    assert solve(batch).start_value == pytest.approx(float(value), rel=1e-12)


def test_rewards_follow_their_options_when_numbered_by_code():
    class ByCode(PigTurnsGrid):
        number_by_code = True

    found, by_code = build(PigTurnsGrid(12)), build(ByCode(12))
    assert by_code.states.codes.tolist() == sorted(found.states.codes.tolist())

    def paid(graph):
        source = graph.outcome_state[graph.option_outcome]
        codes = graph.states.codes
        return sorted(
            (
                int(codes[source[j]]),
                int(codes[graph.option_target[j]]),
                int(graph.option_move[j]),
                r,
            )
            for j, r in graph.reward_exact.items()
        )

    assert paid(by_code) == paid(found) and len(paid(found)) > 100
    assert solve(by_code, exact=True).start_value == F(-1296, 697)


class CoinMargin(BatchRules):
    """Two players trade thirds: heads pays the mover 1/3 and ends the game, tails passes
    the turn. v = 1/2 (1/3) + 1/2 (-v): v = 1/9. The reward is an exact Fraction."""

    name = "coin margin"
    objective = "margin"
    code_bound = 2

    def start(self):
        return 0

    def terminal_values(self, codes):
        return np.where(codes == 1, 0.0, np.nan)

    def expand(self, codes):
        m = len(codes)
        return Expansion(
            outcome_state=np.repeat(np.arange(m), 2),
            outcome_weight=np.ones(2 * m, np.int64),
            denominator=2,
            option_outcome=np.arange(2 * m),
            option_target=np.tile([1, 0], m),
            option_passes=np.tile([False, True], m),
            option_reward=np.array([F(1, 3), 0] * m, dtype=object),
        )


def test_a_margin_game_with_fraction_rewards_in_batch_form():
    graph = build(CoinMargin())
    assert graph.objective == "margin" and graph.reward_exact == {0: F(1, 3)}
    assert solve(graph, exact=True).start_value == F(1, 9)
    assert solve(graph).start_value == pytest.approx(1 / 9, abs=1e-15)


def test_terminal_values_of_score_games_may_be_any_finite_number():
    class Big(CoinMargin):
        def terminal_values(self, codes):
            return np.where(codes == 1, -12.5, np.nan)

    # v = 1/2 (1/3 - 25/2) + 1/2 (-v): v = (1/3 - 25/2) / 3 = -73/18.
    assert solve(build(Big()), exact=True).start_value == F(-73, 18)


def test_from_grid_broadcasts_rewards():
    e = Expansion.from_grid([1], 1, [[[3, 4]], [[5, 6]]], [[[True, True]], [[False, True]]],
                            rewards=[F(1, 2), 0])  # fmt: skip
    assert e.option_reward.tolist() == [F(1, 2), 0, 0]
    assert Expansion.from_grid([1], 1, [[[3]]], [[[True]]]).option_reward is None
