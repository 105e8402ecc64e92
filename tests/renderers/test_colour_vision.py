"""Every categorical pair that carries meaning stays apart for every reader.

Colours are compared by CIE76 Delta E in CIE Lab (D65), under normal vision and under the
Machado, Oliveira & Fernandes (2009) simulations of protanopia, deuteranopia and
tritanopia at full severity (tests/colour_vision.py). A pair passes at Delta E >= 20.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colour_vision import VISIONS, delta_e, delta_es, lab, rgb, simulate, simulate_image

from gamegraph.renderers import _colours

#: `make test-fast` leaves these out: rendered diagrams under four kinds of colour vision.
pytestmark = pytest.mark.heavy

MIN_DELTA_E = 20

PAIRS = {
    "roll/stop": (_colours.ROLL, _colours.STOP),
    "better/worse": (_colours.BETTER, _colours.WORSE),
    "won/lost": (_colours.WON, _colours.LOST),
    "won/start": (_colours.WON, _colours.START),
    "lost/start": (_colours.LOST, _colours.START),
    **{
        f"policy {a}/{b}": (a, b)
        for a, b in itertools.combinations((*_colours.POLICY_CYCLE, _colours.OPTIMAL), 2)
    },
}


def _assert_apart(a, b, what: str) -> None:
    for vision, difference in delta_es(a, b).items():
        assert difference >= MIN_DELTA_E, f"{what} under {vision}: Delta E {difference:.1f}"


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_every_meaningful_pair_of_the_palette_stays_apart(pair, vision):
    a, b = PAIRS[pair]
    assert delta_e(a, b, vision) >= MIN_DELTA_E


def test_the_check_catches_red_against_green():
    # The colours the maps had before: the same olive under deuteranopia (issue 26).
    old = delta_es("#2ca02c", "#d62728")
    assert old["normal"] > 100 and old["deuteranopia"] < 10


def test_the_simulation_matches_known_values():
    # sRGB red in CIE Lab (D65) is (53.24, 80.09, 67.20); each simulation keeps white white
    # (the matrices' rows sum to 1) and makes red and green alike for red-green dichromats.
    assert lab(rgb("#ff0000")).tolist() == pytest.approx([53.24, 80.09, 67.20], abs=0.05)
    for vision in VISIONS:
        assert simulate(rgb("#ffffff"), vision).tolist() == pytest.approx([1, 1, 1], abs=2e-3)
    for vision in ("protanopia", "deuteranopia"):
        assert delta_e("#ff0000", "#00ff00", vision) < delta_e("#ff0000", "#00ff00") / 2


def _two_main_colours(pixels: np.ndarray) -> list[np.ndarray]:
    """The two most frequent saturated colours of a picture (not white, grey or black)."""
    flat = pixels[..., :3].reshape(-1, 3).astype(int)
    saturated = flat[(flat.max(axis=1) - flat.min(axis=1)) > 40]
    colours, counts = np.unique(saturated, axis=0, return_counts=True)
    return [colours[i] for i in np.argsort(-counts)[:2]]


@pytest.fixture(scope="module")
def map_png(tmp_path_factory):
    pytest.importorskip("matplotlib")
    from PIL import Image

    from gamegraph.cli.main import main

    path = tmp_path_factory.mktemp("map") / "m.png"
    assert main(["supersix", "map", "--pegs", "40", "-o", str(path)]) in (0, None)
    return np.asarray(Image.open(path).convert("RGB"))


def test_the_rendered_map_draws_roll_and_stop_in_the_palette(map_png):
    found = _two_main_colours(map_png)
    for role in (_colours.ROLL, _colours.STOP):
        assert min(delta_e(role, f / 255) for f in found) < 3, f"{role} is not drawn"


@pytest.mark.parametrize("vision", VISIONS)
def test_the_rendered_map_keeps_roll_and_stop_apart(map_png, vision):
    # The picture as the reader sees it: its two main colours must stay apart.
    first, second = _two_main_colours(simulate_image(map_png, vision))
    assert delta_e(first / 255, second / 255) >= MIN_DELTA_E


def test_the_static_map_has_a_second_cue_at_every_size():
    pytest.importorskip("matplotlib")
    from gamegraph import build, solve
    from gamegraph.games.supersix import SuperSix, decision_table
    from gamegraph.renderers.supersix_maps import STOP_HATCH, supersix_maps

    table = decision_table(solve(build(SuperSix(pegs=20))))
    # Large cells: a letter in every cell, R where the table rolls, S where it stops.
    small = supersix_maps(table, total=8)
    letters = [t.get_text() for ax in small.axes[:6] for t in ax.texts]
    keep = np.asarray(table.b) + table.c + table.o <= 8
    assert sorted(letters) == sorted("R" if r else "S" for r in np.asarray(table.roll)[keep])
    # Cells too small for a letter: every stop cell under a hatched patch, and no letters.
    large = supersix_maps(table, total=20)
    assert not any(ax.texts for ax in large.axes[:6])
    hatched = [p for ax in large.axes[:6] for p in ax.patches if p.get_hatch() == STOP_HATCH]
    stop = (np.asarray(table.b) + table.c + table.o <= 20) & ~np.asarray(table.roll, bool)
    assert sum(round(p.get_width()) for p in hatched) == int(stop.sum())


def _decision_colours(colorscale) -> list[str]:
    return sorted({colour for _, colour in colorscale})


def test_the_interactive_page_keeps_roll_and_stop_apart():
    pytest.importorskip("plotly")
    from gamegraph import build, solve
    from gamegraph.games.supersix import SuperSix, decision_table
    from gamegraph.renderers import heatmap

    fig = heatmap.figure(decision_table(solve(build(SuperSix(pegs=8)))))
    shown = fig.layout.coloraxis.colorscale
    button = next(b for b in fig.layout.updatemenus[0].buttons if b.name == "decision")
    scales = [shown, button.args[1]["coloraxis"]["colorscale"]]
    for scale in scales:
        colours = _decision_colours(scale)
        assert len(colours) == 2
        assert {tuple(rgb(c)) for c in colours} == {
            tuple(rgb(_colours.ROLL)),
            tuple(rgb(_colours.STOP)),
        }
        _assert_apart(*colours, "the page's roll/stop")


def test_policy_lines_stay_apart_and_differ_by_marker():
    pytest.importorskip("matplotlib")
    from gamegraph.renderers.figures import _series_styles

    names = ["optimal", "hilo", "a", "b", "c", "d", "e", "f"]
    styles = _series_styles(names)
    colours = [styles[n]["color"] for n in names[:5]]  # the optimum and four policies
    for a, b in itertools.combinations(colours, 2):
        _assert_apart(a, b, "policy lines")
    # Past the palette, every line still has its own marker and line style together.
    assert len({(s["marker"], s.get("linestyle", "-")) for s in styles.values()}) == len(names)


@pytest.fixture(scope="module")
def diff_png(tmp_path_factory):
    pytest.importorskip("graphviz")
    from PIL import Image

    from gamegraph.cli.main import main

    path = tmp_path_factory.mktemp("diff") / "d.png"
    assert main(["jackpot", "graph", "--view", "diff", "-o", str(path)]) in (0, None)
    return np.asarray(Image.open(path).convert("RGB"))


@pytest.mark.parametrize("vision", VISIONS)
def test_the_rendered_diff_diagram_keeps_its_two_moves_apart(diff_png, vision):
    # The pixels drawn in the policy's move colour and in the better move's, as the reader
    # sees them: each group's median colour, compared.
    flat = diff_png.reshape(-1, 3) / 255.0
    seen = simulate_image(diff_png, vision).reshape(-1, 3) / 255.0
    groups = []
    for role in (_colours.WORSE, _colours.BETTER):
        near = np.linalg.norm(lab(flat) - lab(rgb(role)), axis=1) < 8
        assert near.sum() > 200, f"{role} is hardly drawn ({near.sum()} pixels)"
        groups.append(np.median(seen[near], axis=0))
    assert delta_e(*groups) >= MIN_DELTA_E
