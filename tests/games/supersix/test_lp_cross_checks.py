"""The blog's two programs against the solver: the MILP agrees, the LP relaxation fails."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pytest

from gamegraph import build, solve
from gamegraph.cli import main
from gamegraph.games.jackpot import Jackpot
from gamegraph.games.supersix import SixState, SuperSix, by_position
from gamegraph.mathprog import lp_relaxation, milp


@pytest.mark.parametrize("rules", ["free", "first-round"])
@pytest.mark.parametrize("pegs", [4, 8])
def test_milp_values_match_the_solver(rules, pegs):
    graph = build(SuperSix(pegs=pegs, rules=rules))
    exact = solve(graph)
    program = milp(graph)
    assert np.max(np.abs(program.values - exact.values)) < 1e-7


def test_milp_finds_jehns_exact_values():
    graph = build(SuperSix(pegs=4))
    program = milp(graph)
    assert program.value(SixState(0, 2, 2)) == pytest.approx(float(Fraction(36, 41)), abs=1e-7)
    assert program.value(SixState(1, 1, 2)) == pytest.approx(float(Fraction(35, 41)), abs=1e-7)


def test_milp_on_a_one_player_game():
    graph = build(Jackpot(cells=4))
    assert milp(graph).start_value == pytest.approx(
        float(solve(graph, exact=True).start_value), abs=1e-7
    )


def test_lp_relaxation_is_exact_on_a_small_game():
    # Measured: the relaxation still finds the true values at 10 pegs ...
    graph = build(SuperSix(pegs=10))
    relaxation = lp_relaxation(graph)
    assert relaxation.max_relative_error < 1e-7
    assert np.max(np.abs(relaxation.values - solve(graph).values)) < 1e-7


def test_lp_relaxation_fails_with_four_pegs_on_the_lid():
    # ... but at 20 pegs some P_choice variables sit above the maximum they stand for,
    # all of them at positions with 4 pegs on the lid, as the blog found at 40.
    graph = build(SuperSix(pegs=20))
    relaxation = lp_relaxation(graph)
    b, c, o, error = by_position(graph, relaxation.outcomes, relaxation.relative_error)
    wrong = error > 1e-6
    assert wrong.any()
    assert set(b[wrong].tolist()) == {4}
    assert relaxation.max_relative_error == pytest.approx(error.max())


def test_lp_command_reports_where_it_fails(tmp_path):
    out = io.StringIO()
    assert main(["supersix", "lp", "--pegs", "20", "-o", str(tmp_path / "lp.png")], out=out) == 0
    text = out.getvalue()
    assert "by pegs on the lid: [0, 0, 0, 0, " in text
    assert (tmp_path / "lp.png").read_bytes()[:4] == b"\x89PNG"
