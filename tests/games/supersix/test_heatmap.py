"""The interactive Super Six page: offline, and drawn by a real browser with working controls.

The figure object itself (traces, slider steps, cell text, axis ranges) is tested in
tests/renderers/test_supersix_maps.py; here the page is opened in headless Chromium.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from pages import open_in_chromium

pytest.importorskip("plotly")

from gamegraph import build, solve  # noqa: E402
from gamegraph.analysis.supersix import start_values  # noqa: E402
from gamegraph.errors import UnknownNameError  # noqa: E402
from gamegraph.games.supersix import SuperSix, decision_table  # noqa: E402
from gamegraph.renderers import heatmap  # noqa: E402

HIGH = 16


@pytest.fixture(scope="module")
def table():
    return decision_table(solve(build(SuperSix(pegs=HIGH))))


@pytest.fixture(scope="module")
def page_text(table):
    starts = start_values(table, range(4, HIGH + 1), "free")
    return heatmap.page(
        table, pegs=10, pegs_range=(4, HIGH), start_values=starts, rules_name="free"
    )


def _own_start_value(total: int) -> float:
    """The start value of a game of ``total`` pegs, solved on its own (odd: 1 extra peg)."""
    hands = (total - total // 2, total // 2)
    return float(solve(build(SuperSix(hands=hands))).start_value)


def test_page_is_self_contained(page_text):
    # plotly.js is inlined: no script or stylesheet is fetched from anywhere.
    assert not re.search(r"<script[^>]+src=", page_text)
    assert not re.search(r"<link[^>]+href=", page_text)
    assert "Plotly.newPlot" in page_text and len(page_text) > 1_000_000
    # The controls are plotly's own; the only script of ours is the URL-hash hook.
    assert '"updatemenus"' in page_text and '"sliders"' in page_text
    assert "addEventListener" not in heatmap.HASH_SCRIPT


def test_the_start_value_of_four_pegs_is_jehns(page_text):
    # 36/41 = 87.805 %: the paper's P(0/2/2), shown in the 4-peg step's title.
    assert f"{100 * float(Fraction(36, 41)):.3f} % from the start" in page_text


def test_only_html_is_written(tmp_path, page_text):
    with pytest.raises(UnknownNameError):
        heatmap.write_page(tmp_path / "map.png", page_text)
    assert list(tmp_path.iterdir()) == []
    heatmap.write_page(tmp_path / "map.html", page_text)
    assert (tmp_path / "map.html").read_text() == page_text


def _open(tmp_path, text: str, fragment: str = ""):
    """Open the page in headless Chromium; its <body> tag and DOM once scripts ran."""
    page = tmp_path / "map.html"
    page.write_text(text)
    loaded = open_in_chromium(page, tmp_path, fragment)
    assert loaded.console == []  # no console message, no uncaught error
    return loaded.body, loaded.dom


def _shown_start(dom: str) -> float:
    shown = re.search(r"the first player wins ([0-9.]+) % from the start", dom)
    assert shown, "the title gives the start value"
    return float(shown.group(1))


def _cell_texts(dom: str) -> list[str]:
    return re.findall(r'<g class="heatmap-label"><text[^>]*data-unformatted="([^"]*)"', dom)


def _visible_cells(total: int) -> int:
    """Positions of the page's table inside the six panels' axes at ``total`` (the masked
    ones too, which a larger game reaches)."""
    return sum(
        1
        for lid in range(6)
        for mine in range(1, total - lid)
        for theirs in range(1, total - lid)
        if lid + mine + theirs <= HIGH
    )


# (choice is reached by a real click in the next test)
@pytest.mark.parametrize("metric, pegs", [("decision", 16), ("margin", 9)])
def test_a_url_hash_selects_the_state(tmp_path, page_text, metric, pegs):
    body, dom = _open(tmp_path, page_text, f"#metric={metric}&pegs={pegs}")
    assert 'data-rendered="yes"' in body
    assert f'data-metric="{metric}"' in body and f'data-pegs="{pegs}"' in body
    assert dom.count('class="heatmaplayer') == 6  # one panel per pegs on the lid
    assert _shown_start(dom) == pytest.approx(100 * _own_start_value(pegs), abs=0.0006)
    # Up to 16 cells across, every cell inside the axes carries its text (odd totals too).
    texts = [text for text in _cell_texts(dom) if text]
    assert len(texts) == _visible_cells(pegs)
    if metric == "decision":
        assert set(texts) == {"R", "S"}
    else:
        assert all(re.fullmatch(r"[+−]?(1)?\.\d\d", text) for text in texts)


_CLICKS = """<script>
function gamegraphTestClicks() {
  if (document.body.dataset.rendered !== 'yes') { setTimeout(gamegraphTestClicks, 50); return; }
  var button = Array.from(document.querySelectorAll('g.updatemenu-button'))
    .find(function (g) { return g.textContent.indexOf('P_choice') >= 0; });
  button.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  var label = Array.from(document.querySelectorAll('g.slider-label-group'))
    .find(function (g) { return g.textContent.trim() === 'PEGS'; });
  var box = label.getBoundingClientRect();
  var rail = document.querySelector('rect.slider-rail-touch-rect');
  var railBox = rail.getBoundingClientRect();
  var at = {bubbles: true, clientX: box.left + box.width / 2,
            clientY: railBox.top + railBox.height / 2};
  rail.dispatchEvent(new MouseEvent('mousedown', at));
  window.dispatchEvent(new MouseEvent('mouseup', at));
}
gamegraphTestClicks();
</script>"""


@pytest.mark.parametrize("pegs", [11])
def test_the_buttons_and_the_slider_work(tmp_path, page_text, pegs):
    # Real DOM events on plotly's own controls: a click on a button, a press on the rail.
    clicking = page_text.replace("</body>", _CLICKS.replace("PEGS", str(pegs)) + "</body>")
    body, dom = _open(tmp_path, clicking)
    assert 'data-metric="choice"' in body and f'data-pegs="{pegs}"' in body
    assert f"Super Six (free rules), {pegs} pegs ({pegs - pegs // 2} + {pegs // 2})" in dom
    assert _shown_start(dom) == pytest.approx(100 * _own_start_value(pegs), abs=0.0006)
    texts = [text for text in _cell_texts(dom) if text]
    assert len(texts) == _visible_cells(pegs) and "R" not in texts
