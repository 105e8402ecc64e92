"""``gamegraph jackpot graph --width``: a diagram drawn to a document's width, its text
at least 7 pt there, or refused in one line that names the views that fit."""

from __future__ import annotations

import shutil

import pytest
from cli_run import run
from pdf_text import page_width, text_sizes

from gamegraph.cli._common import width

#: `make test-fast` leaves these out: Jackpot diagrams rendered at document widths.
pytestmark = pytest.mark.heavy


def needs_renderer():
    pytest.importorskip("graphviz")
    if shutil.which("dot") is None:
        pytest.importorskip("pygraphviz")


def test_diff_at_16_cm_prints_no_text_below_7_pt(tmp_path, capsys):
    needs_renderer()
    path = tmp_path / "d.pdf"
    status, out, err = run(
        ["jackpot", "graph", "--view", "diff", "--width", "16cm", "-o", path], capsys
    )
    assert status == 0, err
    data = path.read_bytes()
    assert abs(page_width(data) - 16 / 2.54 * 72) <= 1.0  # 16 cm wide, to the point
    sizes = text_sizes(data)
    assert len(sizes) > 500  # every line of every box
    assert min(sizes) >= 7.0


def test_width_scales_the_page_both_ways(tmp_path, capsys):
    needs_renderer()
    for text, points in (("12in", 864), ("250mm", 708.7)):
        path = tmp_path / "d.pdf"
        status, _, err = run(
            ["jackpot", "graph", "--view", "diff", "--width", text, "-o", path], capsys
        )
        assert status == 0, err
        assert abs(page_width(path.read_bytes()) - points) <= 1.0


def test_a_view_too_large_for_the_width_is_refused_naming_the_pruned_views(tmp_path, capsys):
    needs_renderer()
    path = tmp_path / "f.pdf"
    status, _, err = run(["jackpot", "graph", "--width", "16cm", "-o", path], capsys)
    assert status == 2 and not path.exists()
    assert len(err.strip().splitlines()) == 1
    assert "at 16 cm (6.3 in) this diagram's smallest text would print at 4.0 pt" in err
    assert "it needs 28.4 cm" in err
    assert "--view likely" in err and "--view threshold" in err and "--view around" in err
    status, _, err = run(
        ["jackpot", "graph", "--view", "likely", "--width", "16cm", "-o", path], capsys
    )
    assert status == 2 and "fewer games (--paths N" in err


def test_width_argument():
    assert width("16cm") == pytest.approx(16 / 2.54)
    assert width(" 6.3 in ") == 6.3
    assert width("160mm") == pytest.approx(16 / 2.54)
    for text in ("16", "16 px", "-3cm", "1cm", "500cm", "\uff11\uff16cm", "nan cm"):
        with pytest.raises(Exception, match="width"):
            width(text)
