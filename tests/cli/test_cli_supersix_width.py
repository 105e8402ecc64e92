"""``gamegraph supersix map --width``: the maps drawn a document's width, text at 7 pt or more."""

from __future__ import annotations

import pytest
from cli_run import run
from pdf_text import page_width, text_sizes

#: `make test-fast` leaves these out: Super Six maps rendered at document widths.
pytestmark = pytest.mark.heavy

pytest.importorskip("matplotlib")


def test_maps_at_sixteen_centimetres(tmp_path, capsys):
    path = tmp_path / "m.pdf"
    status, _, err = run(["supersix", "map", "--pegs", "40", "--width", "16cm", "-o", path], capsys)
    assert status == 0, err
    data = path.read_bytes()
    assert page_width(data) / 72 * 2.54 == pytest.approx(16.0, abs=0.1)
    assert min(text_sizes(data)) >= 7.0  # printed at 16 cm, nothing smaller than 7 pt


def test_too_narrow_is_refused_before_writing(tmp_path, capsys):
    path = tmp_path / "m.pdf"
    status, out, err = run(["supersix", "map", "--pegs", "8", "--width", "8cm", "-o", path], capsys)
    assert status == 2 and out == "" and not path.exists()
    assert "needs at least 12.1 cm" in err and err.count("\n") == 1
