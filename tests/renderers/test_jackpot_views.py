"""The Jackpot views fit a page: PNG at most 4000 px long, PDF within A3, fonts >= ~6.5 pt.

Sizes are measured on the real output: the PNG header's width and height, the PDF's
MediaBox, and the scale Graphviz applied (the SVG's transform) times each font size.
"""

from __future__ import annotations

import re
import struct

import pytest

pytest.importorskip("graphviz")
pytest.importorskip("pygraphviz")

from gamegraph.analysis import (  # noqa: E402
    compare,
    decision_costs,
    likely_paths,
    neighbourhood,
    policy_view,
    reach_above,
)
from gamegraph.propagate import propagate  # noqa: E402
from gamegraph.renderers import dot  # noqa: E402
from gamegraph.renderers.diagram import Diagram  # noqa: E402

#: `make test-fast` leaves these out: every Jackpot view rendered to PNG and PDF.
pytestmark = pytest.mark.heavy

A3_POINTS = (297 / 25.4 * 72, 420 / 25.4 * 72)  # 841.9 x 1190.6
MIN_FONT_PT = 6.5
VIEWS = ("full", "moves", "likely", "threshold", "frequent", "around", "diff")


@pytest.fixture(scope="module")
def diagrams(jackpot_graph, jackpot_optimum, jackpot_policies):
    """Every view for hilo and the optimum, made once."""
    graph = jackpot_graph
    made = {}
    for name, policy in (("hilo", jackpot_policies["hilo"]), ("optimal", jackpot_optimum.policy)):
        view = policy_view(graph, policy, reach=True)
        title = f"Jackpot: {name}"
        made[name, "full"] = dot.policy_dot(view, title=title)
        made[name, "moves"] = dot.policy_dot(view, title=title, style="moves")
        for kind, selection in (
            ("likely", likely_paths(view.chain, 10)),
            ("threshold", reach_above(view.chain, view.reach, 0.03)),  # edges with text
            ("frequent", reach_above(view.chain, view.reach, 0.01)),  # too many for text
            ("around", neighbourhood(view.chain, graph.state_number(164), 2)),
        ):
            made[name, kind] = dot.policy_dot(view, title=title, style="moves", selection=selection)
        costs = decision_costs(
            compare(jackpot_optimum, policy), propagate(graph, policy, exact=True)
        )
        made[name, "diff"] = dot.diff_dot(
            graph, costs, title=f"Jackpot: where {name} differs from the optimum"
        )
    return made


def png_size(data: bytes):
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def pdf_page(data: bytes):
    box = re.search(rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    x0, y0, x1, y1 = map(float, box.groups())
    return x1 - x0, y1 - y0


def smallest_font(source: str, svg: str) -> float:
    """The smallest node or edge font in points once Graphviz has fitted the drawing."""
    scale = float(re.search(r'transform="scale\(([\d.]+)', svg).group(1))
    sizes = [float(x) for x in re.findall(r"\bfontsize=\"?([\d.]+)", source)]
    sizes += [float(x) for x in re.findall(r'POINT-SIZE="([\d.]+)"', source)]
    return scale * min(sizes)


def test_every_view_is_a_diagram(diagrams):
    assert all(isinstance(d, Diagram) for d in diagrams.values())
    assert set(diagrams) == {(n, v) for n in ("hilo", "optimal") for v in VIEWS}
    assert repr(diagrams["hilo", "full"]).startswith("<Diagram 'Jackpot: hilo': ")


# Every view of both policies, but the full graph (3-5 s to rasterise) for HiLo only: the
# optimum's full graph has the same page settings, and its text is checked below.
@pytest.mark.parametrize(
    "name, view",
    [("hilo", "full")]
    + [
        (name, view)
        for name in ("hilo", "optimal")
        for view in ("likely", "threshold", "frequent", "around", "diff")
    ],
)
def test_png_and_pdf_fit_the_page(diagrams, name, view):
    diagram = diagrams[name, view]
    width, height = png_size(diagram.render("png"))
    assert max(width, height) <= dot.PNG_MAX_PIXELS, (width, height)
    page = sorted(pdf_page(diagram.render("pdf")))
    assert page[0] <= A3_POINTS[0] and page[1] <= A3_POINTS[1], page
    if view == "full":  # the big one uses the page: more than 3000 px, most of A3
        assert max(width, height) > 3000 and page[1] > 0.9 * A3_POINTS[1]
        # The PNG is the PDF's page at one resolution: the same proportions.
        assert abs(width / height - page[0] / page[1]) < 0.02


@pytest.mark.parametrize("name", ["hilo", "optimal"])
@pytest.mark.parametrize("view", ["full", "threshold", "frequent", "around", "diff"])
def test_text_stays_readable_once_fitted(diagrams, name, view):
    diagram = diagrams[name, view]
    svg = diagram.svg()
    assert smallest_font(diagram.source, svg) >= MIN_FONT_PT
    if view == "full":  # all 512 positions and every move, nothing merged or lost
        assert svg.count('class="node"') == 512
    if view == "threshold":  # few edges: each carries its move and chance
        assert re.search(r'-> n\d+ \[label="\d \(\d+/36\)"', diagram.source)
    if view == "frequent":  # hundreds of edges: colour and width only
        assert "/36" not in diagram.source


def test_svg_keeps_the_layout_of_the_png(diagrams):
    """SVG is the lossless choice: the same page size, in points, as the PDF."""
    diagram = diagrams["hilo", "threshold"]
    svg = diagram.svg()
    width, height = (
        float(x) for x in re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups()
    )
    pdf_width, pdf_height = pdf_page(diagram.render("pdf"))
    assert abs(width - pdf_width) <= 2 and abs(height - pdf_height) <= 2


def test_full_view_legend_and_labels(diagrams):
    source = diagrams["hilo", "full"].source
    for text in ("start", "won", "games lost here", "width: share of games making the move"):
        assert text in source
    moves = diagrams["hilo", "moves"].source
    assert "cell flipped" in moves
    # One colour per cell in the moves style, nine in all, each named in the legend.
    colours = set(re.findall(r'-> n\d+ \[color="(#[0-9a-f]{6})[0-9a-f]{2}"', moves))
    assert len(colours) == 9
    assert all(c in moves.split("subgraph")[0] for c in colours)
    assert 'label="1 2 4 5 7 9" ' in source  # board 164: cells 3, 6, 8 up


def test_png_resolution_follows_the_page():
    assert dot.png_dpi(dot.chain_dot.__doc__ or "") is None
    assert dot.png_dpi('digraph { graph [size="16,11.2"] }') == int(4000 // 16.2)
