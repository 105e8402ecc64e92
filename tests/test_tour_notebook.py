"""docs/notebooks/tour.ipynb runs headless from top to bottom, and each of its three parts
leaves at least one image (SVG or PNG) and one HTML table in its outputs."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

TOUR = Path(__file__).resolve().parents[1] / "docs" / "notebooks" / "tour.ipynb"
IMAGES = ("image/svg+xml", "image/png")


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
