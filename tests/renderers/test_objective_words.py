"""Pictures, pages and reports in the words of a game's objective (issue 27, item 4).

Two games written here: Pig alone to 20 counting turns (a score of -1 per turn, named
"expected turns" by its rules) and Banker, a two-player margin game small enough to solve
by hand. Their diagrams, explorer pages, reports and command-line outputs must name the
value as the game does, draw no won/lost colours, write no percentages for it, and colour
a margin on a scale diverging around 0. Win games keep their words (the other tests).
"""

from __future__ import annotations

import html
import re
from fractions import Fraction

import numpy as np
import pytest

from gamegraph import build, evaluate, solve
from gamegraph.analysis import explore_graph, layer_summary, policy_diff
from gamegraph.errors import InvalidArgumentError
from gamegraph.policy import Policy
from gamegraph.renderers import _colours as colours
from gamegraph.renderers.dot import policy_diff_dot
from gamegraph.renderers.explorer import decode, explore_figure
from gamegraph.renderers.figures import policy_bars
from gamegraph.reports.any_game import game_report
from gamegraph.rules import Option, Outcome, Rules, decision
from gamegraph.show import draw
from gamegraph.values import option_values
from tests.colour_vision import VISIONS, delta_e
from tests.pages import open_in_chromium

pytest.importorskip("graphviz")

SIXTH = Fraction(1, 6)
THIRD = Fraction(1, 3)
WIN_WORDS = re.compile(r"win probability|chance to win|% wins|\bwon\b|\bwins\b", re.IGNORECASE)


class PigTurns(Rules):
    """Pig alone: reach ``goal``; every turn costs 1, so the value is minus the turns."""

    objective = "score"
    value_name = "expected turns"

    def __init__(self, goal=20):
        self.goal, self.name = goal, f"pig turns to {goal}"

    def start(self):
        return ("choose", 0, 0)

    def terminal_value(self, state):
        return 0 if state[0] == "done" else None

    def outcomes(self, state):
        kind, score, turn = state
        if kind == "choose":
            done = score + turn >= self.goal
            hold = ("done", 0, 0) if done else ("choose", score + turn, 0)
            options = () if done else (Option(("roll", score, turn), 0),)
            if turn > 0:
                options += (Option(hold, 1, reward=-1),)
            return decision(*options)
        bust = Outcome(SIXTH, (Option(("choose", score, 0), 2, reward=-1),))
        return [bust] + [
            Outcome(SIXTH, (Option(("choose", score, turn + face), 0),)) for face in range(2, 7)
        ]


class Banker(Rules):
    """Two players, four throws of a d3 between them. The thrower banks the number (it is
    theirs, and the turn passes) or lets it go and throws again; whoever is to move after
    the fourth throw pays 3.

    By hand, from the end: V(4) = -3; at 3 banking f is worth f + 3 against -3 for letting
    go, so V(3) = 5; at 2, 1 and 0 banking is worth f - 5 and letting go 5: V = 5.
    Always banking: W(3) = 5, W(2) = 2 - 5 = -3, W(1) = 2 + 3 = 5, W(0) = -3.
    """

    objective = "margin"
    name = "banker"

    def start(self):
        return 0

    def terminal_value(self, state):
        return -3 if state == 4 else None

    def outcomes(self, state):
        return [
            Outcome(THIRD, (Option(state + 1, 0, passes=True, reward=f), Option(state + 1, 1)))
            for f in (1, 2, 3)
        ]

    def move_label(self, move):
        return ("bank", "let go")[move]


@pytest.fixture(scope="module")
def pig():
    return solve(build(PigTurns()))


@pytest.fixture(scope="module")
def banker():
    return solve(build(Banker()))


def _always(graph, move):
    """The policy that makes ``move`` wherever the rules offer it."""
    return Policy.from_agent(
        graph, lambda state, options: [o.move for o in options].index(move), name=f"{move}"
    )


def _fills(source: str) -> set:
    return {c.lower() for c in re.findall(r'(?:fillcolor|BGCOLOR)="?(#[0-9a-fA-F]{6})', source)}


def test_the_two_games_solve_to_their_values_by_hand(pig, banker):
    assert solve(build(Banker()), exact=True).start_value == 5
    assert evaluate(banker.graph, _always(banker.graph, 0), exact=True).start_value == -3
    # Pig alone to 20 takes 2.6634 turns with the best play (its own exact solve agrees).
    exact = solve(pig.graph, exact=True).start_value
    assert abs(float(exact) - pig.start_value) < 1e-12 and -2.664 < float(exact) < -2.663


def test_a_score_diagram_names_its_value_and_draws_no_won_or_lost(pig):
    diagram = draw(pig)
    source = str(diagram)
    assert diagram.title == "Pig turns to 20: optimal (expected turns -2.663)"
    assert not WIN_WORDS.search(source) and " %" not in diagram.title
    assert not {colours.WON.lower(), colours.LOST.lower()} & _fills(source)
    # The one end state, drawn neutrally, with its value written in it.
    end = [line for line in source.splitlines() if "'done'" in line and "label=" in line]
    assert len(end) == 1 and "done', 0, 0): 0\"" in end[0] and 'fillcolor="#eeeeee"' in end[0]
    assert "end of the game, its value written in it" in source


def test_a_score_comparison_says_what_is_given_up(pig):
    graph = pig.graph
    source = str(draw(pig, _always(graph, 1)))  # hold at once: costly
    assert "gives up expected turns" in source and not WIN_WORDS.search(source)
    # Holding after every roll, by hand: T(s) = (1 + sum over faces 2..6 of T(s + f) / 6)
    # / (5/6), T = 0 from 20 on, exactly.
    turns = {}
    for score in range(19, -1, -1):
        ahead = sum(turns.get(score + face, Fraction(0)) for face in range(2, 7))
        turns[score] = (1 + ahead / 6) / Fraction(5, 6)
    holding = evaluate(graph, _always(graph, 1), exact=True).start_value
    assert holding == -turns[0] and f"(expected turns {float(-turns[0]):.4g})" in source


def test_a_margin_diagram_and_its_diff(banker):
    graph = banker.graph
    source = str(draw(banker))
    assert "Banker: optimal (expected margin 5)" in source
    assert '"4: -3"' in source  # the end state, with its value
    assert not WIN_WORDS.search(source)
    assert not {colours.WON.lower(), colours.LOST.lower()} & _fills(source)
    diff = policy_diff(solve(graph, exact=True), _always(graph, 0), name="always bank")
    diagram = policy_diff_dot(graph, diff)
    assert "(expected margin -3 vs 5)" in diagram.source
    assert "cost 8 of the expected margin" in diagram.source
    assert "expected margin given up" in diagram.source
    assert not WIN_WORDS.search(diagram.source) and "per million" not in diagram.source


def test_value_scales_follow_the_objective():
    win = colours.value_scale("win", [0.2, 0.3])
    assert (win["cmin"], win["cmax"]) == (0.0, 1.0)
    score = colours.value_scale("score", np.array([-2.5, -0.5, np.nan]))
    assert (score["cmin"], score["cmax"], score["diverging"]) == (-2.5, -0.5, False)
    margin = colours.value_scale("margin", [-1, 3, 2])
    assert (margin["cmin"], margin["cmax"], margin["diverging"]) == (-3.0, 3.0, True)
    steps = dict((position, colour) for position, colour in margin["colorscale"])
    assert steps[0.5] == "#f7f7f7"  # 0 is the white middle
    # The two sides differ for every reader, at the ends and halfway out.
    for low, high in ((0.0, 1.0), (0.25, 0.75)):
        for vision in VISIONS:
            assert delta_e(steps[low], steps[high], vision) >= 20, (low, high, vision)
    # Orange below 0 (red over blue), blue above.
    below, above = (tuple(int(steps[k][i : i + 2], 16) for i in (1, 3, 5)) for k in (0.0, 1.0))
    assert below[0] > below[2] and above[2] > above[0]


def test_the_explorer_data_speaks_the_objective(pig, banker):
    data = explore_graph(pig.graph, pig)
    assert (data.objective, data.value_name) == ("score", "expected turns")
    assert data.wins[0] == pytest.approx(pig.start_value, abs=1e-12)
    # Option worths include the rewards: the page's and the library's agree everywhere.
    assert np.allclose(data.option_values(), option_values(pig.graph, pig.values), atol=1e-12)
    meta, arrays = decode(explore_figure(data).html())
    assert meta["objective"] == "score" and meta["valueName"] == "expected turns"
    assert meta["valueScale"]["cmax"] == 0 and meta["valueScale"]["cmin"] < -2.66
    assert sorted(set(arrays["reward"].tolist())) == [-1.0, 0.0]
    margin = explore_graph(banker.graph, banker, {"always bank": _always(banker.graph, 0)})
    assert margin.wins.tolist() == [5.0, -3.0]
    scale = decode(explore_figure(margin).html())[0]["valueScale"]
    assert scale["cmin"] == -scale["cmax"] == -5 and scale["diverging"]


def test_the_explorer_page_in_chromium_says_expected_turns(tmp_path, pig):
    page = tmp_path / "pig.html"
    explore_figure(explore_graph(pig.graph, pig)).save(page)
    loaded = open_in_chromium(page, tmp_path, "#selftest")
    attributes = loaded.data
    assert loaded.console == [] and "errors" not in attributes, attributes.get("errors")
    assert attributes["selftest"] == "done"
    assert f"expected turns: {pig.start_value:.6g}" in attributes["hover-text"]
    shown = re.sub(r"<script.*?</script>", "", loaded.dom, flags=re.DOTALL)
    assert "optimal: expected turns -2.66341" in shown
    assert "expected turns given away" in shown
    assert "(the expected turns of the player to move, under optimal play)" in shown
    assert not WIN_WORDS.search(html.unescape(shown))


def test_the_report_of_a_score_game(pig):
    text, images = game_report(pig.graph).to_markdown()
    assert "the expected turns of the player to move at the start is -2.66341" in text
    assert "| start value (expected turns) | -2.66341 |" in text
    assert "each end state gives its value" in text
    assert not WIN_WORDS.search(text) and "lost" not in text
    assert sorted(images) == ["optimal-play.png", "optimal-play.svg"]
    svg = html.unescape(images["optimal-play.svg"].decode())
    assert "expected turns -2.663" in svg and not WIN_WORDS.search(svg)


def test_win_only_summaries_refuse_a_score_game(pig):
    with pytest.raises(InvalidArgumentError, match="valued by its expected turns"):
        layer_summary(pig.graph, {"optimal": pig.policy})


def test_the_command_line_on_a_score_game(tmp_path, capsys):
    from tests.cli_run import run

    game = tmp_path / "pigturns.py"
    source = open(__file__, encoding="utf-8").read()
    start = source.index("class PigTurns")
    game.write_text(
        "from fractions import Fraction\n"
        "from gamegraph.rules import Option, Outcome, Rules, decision\n"
        "SIXTH = Fraction(1, 6)\n\n\n" + source[start : source.index("class Banker")]
    )
    spec = f"{game}:PigTurns"
    dot = tmp_path / "pig.dot"
    assert run(["graph", spec, "--arg", "goal=10", "-o", dot], capsys)[0] == 0
    text = dot.read_text()
    assert "pig turns to 10: optimal play (expected turns " in text
    assert not WIN_WORDS.search(text)
    report = tmp_path / "pig.md"
    assert run(["report", spec, "--arg", "goal=10", "-o", report], capsys)[0] == 0
    assert "start value (expected turns)" in report.read_text()
    page = tmp_path / "pig.html"
    assert run(["explore", spec, "--arg", "goal=10", "-o", page], capsys)[0] == 0
    assert decode(page.read_text())[0]["valueName"] == "expected turns"


def test_policy_bars_of_a_margin_game(banker):
    from gamegraph.analysis import compare_policies

    rows = compare_policies(
        banker.graph, {"always bank": _always(banker.graph, 0)}, solution=banker
    )
    figure = policy_bars(rows, title="Banker", value_name="expected margin")
    axes = figure.axes[0]
    assert axes.get_xlabel() == "expected margin"
    texts = sorted(t.get_text().strip() for t in axes.texts)
    assert texts == ["-3", "5"]  # the values by hand, no percentages
    low, high = axes.get_xlim()
    assert low < -3 and high > 5
