"""Ur agents and tournaments: legal picks, each agent's rule, the paper's gain, losses
against the solved table, and Monte Carlo against exact values.

Most tests run on finkel with 2 pieces (12,870 positions, solved in about a second).
"""

from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest

from gamegraph import build, evaluate
from gamegraph._stats import wilson_interval
from gamegraph.errors import InvalidArgumentError, UnknownNameError
from gamegraph.games.ur import Ur, UrState, legal_moves, parse_position, play, rule_set
from gamegraph.games.ur.agents import (
    AGENT_TYPES,
    Expectimax,
    GainAgent,
    make_agent,
    outcome_throws,
    pip_count,
)
from gamegraph.games.ur.analysis import exact_win_probability, solve_table
from gamegraph.games.ur.gain import _pieces, gain_terms
from gamegraph.games.ur.graph_match import (
    _Chooser,
    agent_rows,
    format_rows,
    play_match,
    round_robin,
)

NAMES = ["random", "first", "last", "greedy", "gain", "expectimax-2", "optimal"]


@pytest.fixture(scope="module")
def graph():
    return Ur("finkel", pieces=2).build_graph()


@pytest.fixture(scope="module")
def table():
    return solve_table("finkel", pieces=2)


@pytest.fixture(scope="module")
def ruleset(graph):
    return graph.rules.ruleset


@pytest.fixture(scope="module")
def decisions(graph, ruleset):
    """300 sampled (state, throw, moves) with more than one legal move, plus outcome numbers."""
    throws = outcome_throws(graph)
    multi = np.flatnonzero(np.diff(graph.option_ptr) > 1)
    picked = np.random.default_rng(5).choice(multi, 300, replace=False)
    out = []
    for k in picked.tolist():
        state = graph.states[int(graph.outcome_state[k])]
        throw = int(throws[k])
        out.append((k, state, throw, legal_moves(state, throw, ruleset)))
    return out


@pytest.fixture(scope="module")
def rows(graph, table):
    return round_robin(graph, NAMES, games=1000, seed=11, table=table)


def agent(name, ruleset, table=None):
    return make_agent(name, ruleset=ruleset, table=table, seed=3)


# ---------------------------------------------------------------------------
# Each agent's rule
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_agents_pick_legal_moves(name, ruleset, table, decisions, graph):
    player = agent(name, ruleset, table)
    picks = [player.choose(state, throw, moves) for _, state, throw, moves in decisions]
    assert all(isinstance(p, int) and 0 <= p < len(d[3]) for p, d in zip(picks, decisions))
    if name == "first":
        assert set(picks) == {0}
    elif name == "last":
        assert picks == [len(d[3]) - 1 for d in decisions]
    else:
        assert len(set(picks)) > 1  # not stuck on one index
    if not player.randomised and name != "gain":
        player.policy(graph).check(graph)


def test_first_and_last_take_the_rearmost_and_most_advanced_piece():
    finkel = rule_set("finkel", pieces=3)
    state = parse_position("2,6/7", finkel)
    moves = legal_moves(state, 1, finkel)
    assert moves == [(0, 1, False), (2, 3, False), (6, 7, True)]
    assert make_agent("first", ruleset=finkel).choose(state, 1, moves) == 0
    assert make_agent("last", ruleset=finkel).choose(state, 1, moves) == 2


@pytest.mark.parametrize(
    "text, throw, expected",
    [
        ("2,5/7", 2, (5, 7, True)),  # a capture beats a rosette (2 -> 4)
        ("2,10/-", 2, (2, 4, False)),  # a rosette beats the most advanced piece
        ("9,13/-", 2, (13, 15, False)),  # bearing off
        ("5,9/-", 1, (9, 10, False)),  # otherwise the most advanced piece
    ],
)
def test_greedy_order(text, throw, expected):
    finkel = rule_set("finkel", pieces=3)
    state = parse_position(text, finkel)
    moves = legal_moves(state, throw, finkel)
    assert len(moves) > 1
    assert moves[make_agent("greedy", ruleset=finkel).choose(state, throw, moves)] == expected


def test_greedy_captures_whenever_it_can(graph, ruleset):
    greedy = make_agent("greedy", ruleset=ruleset)
    throws = outcome_throws(graph)
    seen = 0
    for k in np.flatnonzero(np.diff(graph.option_ptr) > 1)[::7].tolist():
        state = graph.states[int(graph.outcome_state[k])]
        moves = legal_moves(state, int(throws[k]), ruleset)
        if any(m[2] for m in moves):
            seen += 1
            assert moves[greedy.choose(state, int(throws[k]), moves)][2]
    assert seen > 100


@pytest.mark.parametrize("name", ["first", "last", "greedy"])
def test_vectorised_policy_equals_choose_everywhere(name, graph, ruleset):
    player = agent(name, ruleset)
    choice = player.policy_array(graph)
    throws = outcome_throws(graph)
    for k in np.flatnonzero(np.diff(graph.option_ptr) > 1).tolist():
        state = graph.states[int(graph.outcome_state[k])]
        moves = legal_moves(state, int(throws[k]), ruleset)
        assert player.choose(state, int(throws[k]), moves) == choice[k]


@pytest.mark.parametrize("name", ["expectimax-1", "expectimax-2", "expectimax-3", "optimal"])
def test_vectorised_search_equals_choose(name, graph, ruleset, table, decisions):
    player = agent(name, ruleset, table)
    choice = player.policy_array(graph)
    assert [player.choose(s, t, m) for _, s, t, m in decisions] == [
        choice[k] for k, *_ in decisions
    ]


def test_optimal_picks_the_tables_best_move(ruleset, table, decisions):
    optimal = make_agent("optimal", table=table)
    for _, state, throw, moves in decisions:
        assert moves[optimal.choose(state, throw, moves)] == table.best_move(state, throw)


def test_random_agent_is_seeded(ruleset, decisions):
    def picks(seed):
        player = make_agent("random", ruleset=ruleset, seed=seed)
        return [player.choose(s, t, m) for _, s, t, m in decisions]

    assert picks(1) == picks(1)
    assert picks(1) != picks(2)


def test_random_draws_afresh_at_every_visit_of_an_outcome(graph, ruleset):
    chooser = _Chooser(make_agent("random", ruleset=ruleset), graph)
    k = int(np.flatnonzero(np.diff(graph.option_ptr) == 2)[0])
    picks = chooser.pick(np.full(300, k), np.full(300, 2), np.random.default_rng(0)).tolist()
    assert 100 < picks.count(0) < 200 and picks.count(0) + picks.count(1) == 300


# ---------------------------------------------------------------------------
# Expectimax
# ---------------------------------------------------------------------------
def test_pip_count_and_depth_checks(ruleset):
    assert pip_count(UrState((4, 13), 1, (6,), 0), ruleset) == 4 + 13 + 15 - 6
    with pytest.raises(InvalidArgumentError, match="from 1 to 12"):
        Expectimax(ruleset, depth=0)
    assert make_agent("expectimax-5", ruleset=ruleset).depth == 5


def test_expectimax_finds_the_bear_off_that_can_win_next_turn(ruleset, table):
    """Pieces on 12 and 14, throw 1: bearing off from 14 leaves one piece that wins with
    the next 3; moving 12 -> 13 leaves two to bear off. Both walk one square, so the pip
    count ties (depth 1 and 2 keep the first move); from depth 3 (our next throw) the
    winning chance shows and the bear-off is played, as the table confirms."""
    state = parse_position("12,14/-", ruleset)
    moves = legal_moves(state, 1, ruleset)
    assert moves == [(12, 13, False), (14, 15, False)]
    picks = [Expectimax(ruleset, depth=d).choose(state, 1, moves) for d in (1, 2, 3, 4)]
    assert picks == [0, 0, 1, 1]
    assert table.best_move(state, 1) == (14, 15, False)


# ---------------------------------------------------------------------------
# The paper's gain
# ---------------------------------------------------------------------------
FIGURE_8 = UrState((2,), 5, (3, 6, 8), 4)  # A waiting, B on 2; grey on 3, 6, 8
A, B = 0, 2
P = {t: F(c, 16) for t, c in enumerate((1, 4, 6, 4, 1))}


def test_gain_walking_reproduces_table_5():
    finkel = rule_set("finkel", pieces=7)
    table_5 = {
        (A, A): 2 - 2 * P[2] + 2 * P[4] - (4 + 4) * P[4] * P[4],
        (A, B): 2 - 2 * P[2] + 2 * P[4] - (4 + 2) * P[4] * P[2],
        (B, A): 2 - 0 + 2 * P[2] - (2 + 4) * P[2] * P[4],
        (B, B): 2 - 0 + 2 * P[2] - (2 + 4) * P[2] * P[4],
    }
    for sequence, walk in table_5.items():
        assert gain_terms(FIGURE_8, sequence, finkel).walk == walk


def test_gain_attack_and_capture_reproduce_table_6():
    finkel = rule_set("finkel", pieces=7)
    terms = {seq: gain_terms(FIGURE_8, seq, finkel) for seq in product((A, B), repeat=2)}
    assert terms[A, A].attack == 6 * P[4] * P[2]  # sequence 42
    assert terms[A, B].attack == 6 * P[4] * P[4]  # sequence 44
    assert terms[B, A].attack == 6 * P[4]  # sequence 4
    assert terms[B, B].attack == 6 * P[4] + 6 * P[2] * P[2]  # sequences 4 and 22
    on_5 = -5 * (P[2] + P[1] * P[1])  # grey's 2 or 11
    on_6 = -6 * (P[3] + P[1] * P[2])  # grey's 3 or 12
    on_7 = -7 * (P[4] + P[1] * P[3])  # grey's 4 or 13
    assert terms[A, B].capture == terms[B, A].capture == on_5 + on_6 == F(-17, 4)
    # AA and BB: the paper leaves out grey's piece on 6 reaching 7 with a 1.
    missed = -7 * P[1]
    assert terms[A, A].capture == on_5 + on_6 + on_7 + missed
    assert terms[B, B].capture == 2 * (on_5 + on_6) + on_7 + missed
    # Table 3: BA is the best sequence, G = -1.27.
    totals = {seq: t.total for seq, t in terms.items()}
    assert max(totals, key=totals.get) == (B, A)
    assert round(float(totals[B, A]), 2) == -1.27


def test_gain_with_a_known_throw_by_hand():
    one = rule_set("finkel", pieces=1)
    start = UrState((), 0, (), 0)
    # Enter with 4 onto the rosette, throw again (mean 2), and after another 4 (onto
    # the rosette on 8) once more: 4 + 2 + 2/16 squares.
    assert gain_terms(start, (0, 0, 0), one, throw=4) == (F(49, 8), 0, 0)
    assert gain_terms(start, (0, 0, 0), one, throw=4, max_moves=2) == (6, 0, 0)
    # 5 -> 6 with grey on its 3: grey hits 6 with a 3, or a 1 onto its rosette then a 2.
    two = rule_set("finkel", pieces=2)
    state = parse_position("5/3", two)
    assert gain_terms(state, (5,), two, throw=1) == (1, 0, -6 * (P[3] + P[1] * P[2]))
    assert gain_terms(state, (0,), two, throw=1) == (1, 0, 0)
    moves = legal_moves(state, 1, two)
    assert moves[make_agent("gain", ruleset=two).choose(state, 1, moves)] == (0, 1, False)


def test_gain_capture_with_known_throw():
    finkel = rule_set("finkel", pieces=7)
    terms = gain_terms(FIGURE_8, (B,), finkel, throw=4)
    assert terms == (4, 6, -6 * (P[3] + P[1] * P[2]))


@pytest.mark.parametrize("rules", ["finkel", "masters", "blitz"])
def test_gain_agent_takes_the_best_sequence(rules):
    """The agent's one-pass best continuation equals the maximum over every sequence."""
    graph = Ur(rules, pieces=2).build_graph()
    ruleset = graph.rules.ruleset
    gain = GainAgent(ruleset)
    throws = outcome_throws(graph)
    multi = np.flatnonzero(np.diff(graph.option_ptr) > 1)
    for k in np.random.default_rng(2).choice(multi, 150, replace=False).tolist():
        state = graph.states[int(graph.outcome_state[k])]
        throw = int(throws[k])
        moves = legal_moves(state, throw, ruleset)
        pieces = _pieces(state, ruleset)
        brute = [
            max(
                sum(gain.calculator.sequence(state, pieces, (pieces.index(m[0]),) + rest, throw))
                for rest in product(range(len(pieces)), repeat=2)
            )
            for m in moves
        ]
        assert gain.gains(state, throw, moves) == brute


@pytest.mark.parametrize("rules", ["finkel", "masters", "blitz", "aseb"])
def test_gain_moves_follow_the_rules(rules):
    """The calculator's own move maker agrees with legal_moves and play."""
    graph = Ur(rules, pieces=2).build_graph()
    ruleset = graph.rules.ruleset
    calculator = GainAgent(ruleset).calculator
    for i in np.random.default_rng(4).choice(graph.n_states - 1, 500, replace=False).tolist():
        state = graph.states[i]
        for throw, _ in ruleset.throws:
            if not throw:
                continue
            moves = {m[0]: m for m in legal_moves(state, throw, ruleset)}
            sources = set(state.mover) | ({0} if state.waiting(ruleset.pieces)[0] else set())
            for source in sources:
                got = calculator.step(state.mover, state.opponent, source, throw)
                if source not in moves:
                    assert got is None
                    continue
                dest, captured, again = got
                assert (source, dest, bool(captured)) == moves[source]
                after, passes = play(state, moves[source], ruleset)
                assert again == (not passes and after != "WIN")
                if captured:
                    assert captured == ruleset.opponent_square(dest)


def test_gain_terms_checks_its_input():
    finkel = rule_set("finkel", pieces=7)
    with pytest.raises(InvalidArgumentError, match="stand on 2"):
        gain_terms(FIGURE_8, (5,), finkel)
    with pytest.raises(InvalidArgumentError, match="accepted: 0, 1, 2, 3, 4"):
        gain_terms(FIGURE_8, (2,), finkel, throw=5)
    with pytest.raises(InvalidArgumentError, match="none is waiting"):
        gain_terms(UrState((2,), 6, (3,), 0), (0,), finkel)


# ---------------------------------------------------------------------------
# Names and errors
# ---------------------------------------------------------------------------
def test_agents_by_name(ruleset, table):
    assert list(AGENT_TYPES) == [
        "random",
        "first",
        "last",
        "greedy",
        "gain",
        "expectimax",
        "optimal",
    ]
    assert [make_agent(n, ruleset=ruleset, table=table).name for n in NAMES] == NAMES
    with pytest.raises(UnknownNameError, match="accepted: random, first"):
        make_agent("hilo", ruleset=ruleset)
    with pytest.raises(InvalidArgumentError, match="needs a solved table"):
        make_agent("optimal", ruleset=ruleset)
    with pytest.raises(InvalidArgumentError, match="not aseb with 2"):
        make_agent("optimal", ruleset=rule_set("aseb", 2), table=table)
    with pytest.raises(InvalidArgumentError, match="no legal move"):
        make_agent("first", ruleset=ruleset).choose(UrState((), 0, (), 0), 0, [])


def test_tournament_refuses_mismatched_input(graph, ruleset):
    with pytest.raises(InvalidArgumentError, match="games must be a whole number"):
        play_match(graph, "first", "last", games=0)
    with pytest.raises(InvalidArgumentError, match="the agent for finkel with 3"):
        play_match(graph, make_agent("first", ruleset=rule_set("finkel", 3)), "last", games=10)
    endgame = build(Ur("finkel", pieces=2, start="14/14"))
    with pytest.raises(InvalidArgumentError, match="graph of every position"):
        play_match(endgame, "first", "last", games=10)
    with pytest.raises(InvalidArgumentError, match="names must differ"):
        round_robin(graph, ["first", "first"], games=10)


# ---------------------------------------------------------------------------
# Tournaments
# ---------------------------------------------------------------------------
def test_optimal_beats_random(graph, table):
    result = play_match(graph, "optimal", "random", games=4000, seed=1, table=table)
    low, high = result.interval()
    assert low > 0.5 and result.a.win_rate > 0.6
    assert result.a.wins + result.b.wins == result.games == 4000
    assert result.unfinished == 0


def test_losses_against_the_table(rows):
    totals = {row["agent"]: row for row in agent_rows(rows)}
    assert abs(totals["optimal"]["mean_loss"]) < 1e-12
    assert totals["optimal"]["nonoptimal"] == 0
    for name in NAMES:
        assert totals[name]["mean_loss"] >= 0 and totals[name]["decisions"] > 1000
    for name in ("random", "first", "last", "greedy"):
        assert totals[name]["mean_loss"] > 1e-3 and totals[name]["nonoptimal"] > 0.1
    assert totals["random"]["mean_loss"] > totals["greedy"]["mean_loss"]
    assert totals["optimal"]["win_rate"] > max(
        t["win_rate"] for n, t in totals.items() if n != "optimal"
    )
    assert sum(t["wins"] for t in totals.values()) == sum(row["games"] for row in rows)


def test_round_robin_rows(rows):
    assert len(rows) == 21
    assert all(row["games"] == 1000 and row["low"] < row["a_rate"] < row["high"] for row in rows)
    text = format_rows(rows, ["a", "b", "a_rate"])
    assert text.splitlines()[1].split() == ["random", "first", f"{rows[0]['a_rate']:.4f}"]


def test_tournament_is_reproducible(graph, table):
    def run(seed):
        row = play_match(graph, "random", "gain", games=500, seed=seed, table=table).row()
        return {k: v for k, v in row.items() if k not in ("seconds", "games_per_second")}

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_optimal_self_play_matches_the_start_value(graph, table):
    result = play_match(graph, "optimal", "optimal", games=20000, seed=2, table=table)
    low, high = wilson_interval(result.first_wins, result.games)
    assert low < table.start_value < high
    assert result.a.loss == result.b.loss == 0


def test_monte_carlo_matches_exact_two_policy_play(graph, ruleset):
    greedy, last = agent("greedy", ruleset), agent("last", ruleset)
    greedy_first = exact_win_probability(graph, greedy, last)
    last_first = exact_win_probability(graph, last, greedy)
    assert 0 < last_first < greedy_first < 1
    expected = (greedy_first + 1 - last_first) / 2  # A opens half the games
    result = play_match(graph, greedy, last, games=20000, seed=9)
    low, high = result.interval()
    assert low < expected < high
    # Self-play is one policy for both sides: gamegraph.evaluate gives the same value.
    same = exact_win_probability(graph, greedy, greedy)
    assert same == pytest.approx(evaluate(graph, greedy.policy(graph)).start_value, abs=1e-12)


def test_progress_callback(graph):
    calls = []
    play_match(
        graph,
        "first",
        "last",
        games=250,
        seed=1,
        batch=100,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(100, 250), (200, 250), (250, 250)]
