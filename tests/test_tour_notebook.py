"""docs/notebooks/tour.ipynb runs headless from top to bottom, and each of its three parts
leaves at least one image (SVG or PNG) and one HTML table in its outputs.

Readers outside Jupyter see every output too (issue 26): each interactive output also
carries a static image, none loads a script from the network, and the notebook converted
by nbconvert to HTML shows a picture, a table or text in every output, even where no
script runs (GitHub, nbviewer)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
get_plotlyjs = pytest.importorskip("plotly.offline").get_plotlyjs

TOUR = Path(__file__).resolve().parents[1] / "docs" / "notebooks" / "tour.ipynb"
IMAGES = ("image/svg+xml", "image/png")
#: Forms that need a script to show anything: the plotly JSON, HTML with scripts or frames.
LIVE = "application/vnd.plotly.v1+json"
#: A script fetched from the network (plotly.js from its CDN, require.js, ...).
REMOTE_SCRIPT = re.compile(r"<script[^>]*\ssrc\s*=\s*[\"']?(https?:)?//", re.IGNORECASE)
CDN_LOADER = re.compile(r"cdn\.plot\.ly/plotly-|requirejs\.config|include_plotlyjs", re.I)


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    notebook = nbformat.read(TOUR, as_version=4)
    # The kernel is this environment's Python: ipykernel's own "python3" spec runs
    # sys.executable, so the notebook sees the gamegraph under test.
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path_factory.mktemp("tour"))}},
    )
    client.execute()
    return notebook


def _outputs(notebook, tag):
    for cell in notebook.cells:
        if cell.cell_type == "code" and tag in cell.metadata.get("tags", []):
            yield from cell.get("outputs", [])


def test_the_notebook_has_no_outputs_committed():
    notebook = nbformat.read(TOUR, as_version=4)
    nbformat.validate(notebook)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")


@pytest.mark.parametrize("part", ["jackpot", "supersix", "ur"])
def test_each_part_shows_an_image_and_a_table(executed, part):
    outputs = list(_outputs(executed, part))
    assert not [o for o in outputs if o.output_type == "error"]
    shown = ("display_data", "execute_result")
    data = [o.get("data", {}) for o in outputs if o.output_type in shown]
    assert any(any(kind in d for kind in IMAGES) for d in data), f"{part}: no image output"
    assert any("<table" in d.get("text/html", "") for d in data), f"{part}: no HTML table"


def test_the_values_shown_are_the_exact_ones(executed):
    html = "".join(
        o.get("data", {}).get("text/html", "")
        for o in _outputs(executed, "jackpot")
        if o.output_type == "execute_result"
    )
    assert "14103327415/176319369216" in html  # the optimal start value
    assert "660001525/8264970432" in html  # HiLo's
    printed = "".join(o.get("text", "") for o in _outputs(executed, "jackpot"))
    assert "69884645/528958107648" in printed  # what HiLo's decisions cost in total


def _shown(notebook):
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.output_type in ("display_data", "execute_result"):
                yield output


def test_every_interactive_output_also_carries_an_image(executed):
    interactive = [
        o.data
        for o in _shown(executed)
        if LIVE in o.data or re.search(r"<script|<iframe", o.data.get("text/html", ""))
    ]
    assert len(interactive) >= 2  # the Super Six page and the explorer
    for data in interactive:
        assert any(kind in data for kind in IMAGES), sorted(data)
        assert "text/plain" in data


def test_no_output_loads_anything_from_the_network(executed):
    for output in _shown(executed):
        text = json.dumps(output.data)
        assert not REMOTE_SCRIPT.search(text) and not CDN_LOADER.search(text)
        if LIVE in output.data:  # plotly.js inline, from the installed package
            assert get_plotlyjs()[-500:] in output.data["text/html"]  # inline, no CDN


def test_the_html_export_shows_every_output_without_scripts(executed):
    """nbconvert's HTML page: every output area holds a picture, a table or text once its
    scripts are taken out (what GitHub and nbviewer show), and loads no script from the
    network itself."""
    nbconvert = pytest.importorskip("nbconvert")
    bs4 = pytest.importorskip("bs4")
    body, _ = nbconvert.HTMLExporter().from_notebook_node(executed)
    page = bs4.BeautifulSoup(body, "html.parser")
    areas = page.select("div.jp-OutputArea-output")
    assert len(areas) == len(list(_shown(executed))) + sum(
        1 for cell in executed.cells for o in cell.get("outputs", []) if o.output_type == "stream"
    )
    for area in areas:
        assert not REMOTE_SCRIPT.search(str(area))
        for tag in area.find_all(["script", "iframe", "style"]):
            tag.decompose()
        text = area.get_text(" ", strip=True)
        picture = area.find(["img", "svg", "table"])
        assert picture is not None or text, str(area)[:300]
        for img in area.find_all("img"):
            assert img["src"].startswith("data:image/"), img["src"][:80]  # in the page
