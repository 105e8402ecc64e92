"""``gamegraph gallery`` (gamegraph.gallery): the published diagrams, figures and tables.

Building the gallery renders five full Jackpot diagrams and plays seven million games
(about 12 s), so it is built once, into a temporary folder, for the whole session.
"""

from __future__ import annotations

import io
import math
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from published import JACKPOT_PERCENT

pytest.importorskip("graphviz")
pytest.importorskip("matplotlib")

from gamegraph.renderers import _colours, dot  # noqa: E402

if dot.graphviz_engine() == "pygraphviz":
    pytest.importorskip("pygraphviz")

from gamegraph.cli import main  # noqa: E402
from gamegraph.gallery import MONTE_CARLO_GAMES  # noqa: E402

#: `make test-fast` leaves these out: the whole gallery, built once (about a minute).
pytestmark = pytest.mark.heavy

DIAGRAMS = [
    "jackpot-hilo-layers.png",
    "jackpot-hilo-moves.png",
    "jackpot-optimal-layers.png",
    "jackpot-hilo-diff.png",
    "jackpot-hilo-moves-weights.svg",
]
FIGURES = ["jackpot-policies.png", "jackpot-lost-at.png"]
EXACT = {
    "min": "12512725423/940369969152",
    "max": "25234366265/528958107648",
    "first": "13864347355/1057916215296",
    "last": "221094284005/4231664861184",
    "hilo": "660001525/8264970432",
    "hilo2": "660001525/8264970432",
    "optimal": "14103327415/176319369216",
}
PUBLISHED = {**JACKPOT_PERCENT, "optimal": "(not published)"}
SMALL_YAHTZEE = ("threes", "fours", "fives", "sixes", "chance", "yahtzee")


@pytest.fixture(scope="session")
def gallery(tmp_path_factory):
    from gamegraph import gallery

    folder = tmp_path_factory.mktemp("gallery")
    log = io.StringIO()
    # Yahtzee with six boxes: the section's code in seconds (the full game takes minutes;
    # its figures are checked in tests/games/yahtzee and benchmarks/bench_yahtzee.py).
    boxes, gallery.YAHTZEE_BOXES = gallery.YAHTZEE_BOXES, SMALL_YAHTZEE
    try:
        assert main(["gallery", str(folder)], out=log) == 0  # what `make gallery` runs
    finally:
        gallery.YAHTZEE_BOXES = boxes
    text = log.getvalue()
    index = folder / "index.html"
    assert text.rstrip().endswith(f"open {index}")
    return folder, index, text


def test_every_file_is_written(gallery):
    folder, index, log = gallery
    assert index == folder / "index.html"
    names = sorted(p.name for p in folder.iterdir())
    expected = sorted(
        DIAGRAMS
        + FIGURES
        + ["index.html", "results.md"]
        + [name.rsplit(".", 1)[0] + ".dot" for name in DIAGRAMS]
    )
    assert set(expected) <= set(names)
    assert [n for n in names if n.startswith(".") or n.endswith(".tmp")] == []  # no leftovers
    for name in expected:
        data = (folder / name).read_bytes()
        if name.endswith(".png"):
            assert data.startswith(b"\x89PNG\r\n\x1a\n")
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert width > 300 and height > 200
        elif name.endswith(".svg"):
            assert b"<svg" in data
        elif name.endswith(".dot"):
            assert data.startswith(b"digraph jackpot {")
    assert log.splitlines()[-1].startswith("done in ")


def test_diagram_sources(gallery):
    folder, _, _ = gallery
    layers = (folder / "jackpot-hilo-layers.dot").read_text()
    assert "cluster_layer9" in layers and "Jackpot: hilo (7.9855 % wins)" in layers
    assert len(re.findall(r"^\t+n\d+ \[label=", layers, re.M)) == 512
    optimal = (folder / "jackpot-optimal-layers.dot").read_text()
    assert "Jackpot: optimal (7.9987 % wins)" in optimal
    diff = (folder / "jackpot-hilo-diff.dot").read_text()
    # The policy's move and the better one in colours every reader tells apart (_colours).
    assert _colours.WORSE.lower() in diff.lower() and _colours.BETTER.lower() in diff.lower()
    weights = (folder / "jackpot-hilo-moves-weights.dot").read_text()
    assert 'label="9 (4/36)"' in weights and "cluster_layer9" in weights
    svg = (folder / "jackpot-hilo-moves-weights.svg").read_text()
    assert svg.count('class="node"') == 512 and svg.count('class="edge"') == 2304


def results_rows(text):
    """The Jackpot table's rows by policy name."""
    section = text.split("## Jackpot", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] in EXACT:
            rows[cells[0]] = cells
    return rows


def test_results_table(gallery):
    folder, _, _ = gallery
    text = (folder / "results.md").read_text()
    assert "512 positions; layers [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]" in text
    rows = results_rows(text)
    assert list(rows) == list(EXACT)
    for name, (_, exact, percent, published, monte_carlo, throws) in rows.items():
        assert exact == EXACT[name]
        win = Fraction(exact)
        assert percent == f"{100 * float(win):.4f}"
        assert published == PUBLISHED[name]
        if name != "optimal":
            assert percent == published
        estimate, low, high = map(
            float, re.fullmatch(r"([\d.]+) \(([\d.]+) \.\. ([\d.]+)\)", monte_carlo).groups()
        )
        assert low <= estimate <= high
        # Within five standard errors of the exact value (robust to any seed).
        p = float(win)
        assert abs(estimate / 100 - p) < 5 * math.sqrt(p * (1 - p) / MONTE_CARLO_GAMES)
        assert 1 <= float(throws) <= 9  # a game lasts one to nine throws


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("src", "href"):
                self.links.append(value)


def test_index_links_only_existing_files(gallery):
    folder, index, _ = gallery
    page = index.read_text()
    parser = _Links()
    parser.feed(page)
    links = set(parser.links)
    assert links, "the index links nothing"
    for link in links:
        # relative and inside the folder, so the gallery works offline and when moved
        assert ":" not in link and not link.startswith("/") and ".." not in link, link
        assert (folder / link).is_file(), link
    assert set(DIAGRAMS + FIGURES) <= links
    # Every file the gallery wrote is linked from the index, and every card has a thumbnail.
    written = {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name != "index.html" and "thumbs" not in p.parts
    }
    assert written <= links
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) == page.count('class="card"') > 20
    assert all(src.startswith("thumbs/") for src in images)
    for name in ("explore-jackpot.html", "report-jackpot.html", "report-ur.md"):
        assert name in links
    assert {name.rsplit(".", 1)[0] + ".dot" for name in DIAGRAMS} <= links
    # The results table is on the page too, with the exact fractions.
    for name, fraction in EXACT.items():
        assert f"<td>{name}</td><td>{fraction}</td>" in page


def test_gallery_command_refuses_extra_arguments_and_unwritable_folders(tmp_path, capsys):
    from cli_run import run

    status, out, err = run(["gallery", tmp_path / "a", tmp_path / "b"], capsys)
    assert status == 2 and "unrecognized arguments" in err and err.count("\n") == 1
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status, out, err = run(["gallery", blocker / "inside"], capsys)
    assert status == 2 and err.startswith("gamegraph: error: cannot create gallery folder")
    assert err.count("\n") == 1 and not (blocker / "inside").exists()
