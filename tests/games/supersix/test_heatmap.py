"""The interactive Super Six page: offline, and drawn by a real browser with working controls.

The figure object itself (traces, slider steps, cell text, axis ranges, the start cell's
marks) is tested in tests/renderers/test_supersix_maps.py; here the page is opened in
headless Chromium: the URL hash is read and written back (rule set, total, view), the
controls work, the start cell is marked and the hover gives each throw's chance.
"""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from pages import open_in_chromium

pytest.importorskip("plotly")

from gamegraph import build, solve  # noqa: E402
from gamegraph.errors import UnknownNameError  # noqa: E402
from gamegraph.games.supersix import RULESETS, SuperSix, decision_table  # noqa: E402
from gamegraph.games.supersix.analysis import start_values, throw_values  # noqa: E402
from gamegraph.renderers import heatmap  # noqa: E402

HIGH = 16


@pytest.fixture(scope="module")
def table():
    return decision_table(solve(build(SuperSix(pegs=HIGH))))


@pytest.fixture(scope="module")
def page_text(table):
    starts = {rules: start_values(table, range(4, HIGH + 1), rules) for rules in RULESETS}
    return heatmap.page(
        table,
        pegs=10,
        pegs_range=(4, HIGH),
        start_values=starts,
        rules_name="free",
        after_throws=throw_values(table),
    )


def _own_start_value(total: int, rules: str = "free") -> float:
    """The start value of a game of ``total`` pegs, solved on its own (odd: 1 extra peg)."""
    hands = (total - total // 2, total // 2)
    return float(solve(build(SuperSix(hands=hands, rules=rules))).start_value)


def test_page_is_self_contained(page_text):
    # plotly.js is inlined: no script or stylesheet is fetched from anywhere.
    assert not re.search(r"<script[^>]+src=", page_text)
    assert not re.search(r"<link[^>]+href=", page_text)
    assert "Plotly.newPlot" in page_text and len(page_text) > 1_000_000
    # The controls are plotly's own; the only script of ours is the URL-hash hook, which
    # never writes into the document (what it reads is only compared with the page's data).
    assert '"updatemenus"' in page_text and '"sliders"' in page_text
    assert heatmap.HASH_SCRIPT.split("{plot_id}")[1][:200] in page_text
    assert not re.search(
        r"innerHTML|outerHTML|document\.write|insertAdjacent|eval\(", heatmap.HASH_SCRIPT
    )


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
    page.write_text(text.replace("</body>", _PROBE + "</body>"))
    loaded = open_in_chromium(page, tmp_path, fragment)
    assert loaded.console == []  # no console message, no uncaught error
    return loaded.body, loaded.dom


#: Once the page has drawn: where the start label stands (from the live layout), the
#: address after the hash was written, and the hover over the start cell (plotly's own
#: hover, called on the lid-0 panel), all as data-probe-* attributes on the body.
_PROBE = """<script>
function gamegraphProbe() {
  var data = document.body.dataset;
  if (data.rendered !== 'yes' || data.hash === undefined || data.clicked === 'no') {
    setTimeout(gamegraphProbe, 50); return;
  }
  var gd = document.querySelector('.js-plotly-plot'), label = gd.layout.annotations[6];
  data.probeStart = label.x + '/' + label.y;
  data.probeUrl = location.hash;
  Plotly.Fx.hover(gd, {xval: label.x, yval: label.y}, 'xy');
  setTimeout(function () {
    var hover = document.querySelector('g.hovertext');
    data.probeHover = hover ? hover.textContent : '';
  }, 50);
}
gamegraphProbe();
</script>"""


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


def _data(body: str) -> dict:
    return {
        key: html.unescape(value) for key, value in re.findall(r'data-([a-z-]+)="([^"]*)"', body)
    }


# (choice is reached by a real click in the next test)
@pytest.mark.parametrize(
    "rules, metric, pegs", [("free", "decision", 16), ("first-round", "margin", 9)]
)
def test_a_url_hash_selects_the_state(tmp_path, page_text, rules, metric, pegs):
    body, dom = _open(tmp_path, page_text, f"#rules={rules}&metric={metric}&pegs={pegs}")
    data = _data(body)
    assert data["rendered"] == "yes"
    assert (data["rules"], data["metric"], data["pegs"]) == (rules, metric, str(pegs))
    # The hash is written back in one order, so one view has one address.
    assert data["hash"] == f"rules={rules}&pegs={pegs}&metric={metric}"
    assert data["probe-url"] == "#" + data["hash"]
    assert dom.count('class="heatmaplayer') == 6  # one panel per pegs on the lid
    assert f"({rules} rules), {pegs} pegs" in dom
    assert _shown_start(dom) == pytest.approx(100 * _own_start_value(pegs, rules), abs=0.0006)
    # The start cell: outlined, labelled, and said so on hover, with each throw's chance.
    first, second = pegs - pegs // 2, pegs // 2
    assert data["probe-start"] == f"{first}/{second}"
    assert re.search(r'<g class="annotation"[^>]*>.*?>start<', dom)
    hover = data["probe-hover"]
    assert f"you {first} · opponent {second} · the start of a {pegs}-peg game" in hover
    assert "5/6 1–5 on an empty socket: you place a peg; then you win 0." in hover
    assert "1/6 6: a peg goes down the pit; then you win 0." in hover
    # Up to 16 cells across, every cell inside the axes carries its text (odd totals too).
    texts = [text for text in _cell_texts(dom) if text]
    assert len(texts) == _visible_cells(pegs)
    if metric == "decision":
        assert set(texts) == {"R", "S"}
    else:
        assert all(re.fullmatch(r"[+−]?(1)?\.\d\d", text) for text in texts)


_CLICKS = """<script>
document.body.dataset.clicked = 'no';  // the probe waits for the clicks
function gamegraphClick(text) {
  Array.from(document.querySelectorAll('g.updatemenu-button'))
    .find(function (g) { return g.textContent.indexOf(text) >= 0; })
    .dispatchEvent(new MouseEvent('click', {bubbles: true}));
}
function gamegraphTestClicks() {
  if (document.body.dataset.rendered !== 'yes') { setTimeout(gamegraphTestClicks, 50); return; }
  gamegraphClick('P_choice');
  gamegraphClick('first-round rules');
  var label = Array.from(document.querySelectorAll('g.slider-label-group'))
    .find(function (g) { return g.textContent.trim() === 'PEGS'; });
  var box = label.getBoundingClientRect();
  var rail = document.querySelector('rect.slider-rail-touch-rect');
  var railBox = rail.getBoundingClientRect();
  var at = {bubbles: true, clientX: box.left + box.width / 2,
            clientY: railBox.top + railBox.height / 2};
  rail.dispatchEvent(new MouseEvent('mousedown', at));
  window.dispatchEvent(new MouseEvent('mouseup', at));
  setTimeout(function () { document.body.dataset.clicked = 'yes'; }, 500);
}
gamegraphTestClicks();
</script>"""


@pytest.mark.parametrize("pegs", [11])
def test_the_buttons_and_the_slider_work(tmp_path, page_text, pegs):
    # Real DOM events on plotly's own controls: clicks on two buttons (the metric, the
    # rule set), a press on the slider's rail; the address follows.
    clicking = page_text.replace("</body>", _CLICKS.replace("PEGS", str(pegs)) + "</body>")
    body, dom = _open(tmp_path, clicking)
    data = _data(body)
    assert (data["rules"], data["metric"], data["pegs"]) == ("first-round", "choice", str(pegs))
    assert data["hash"] == f"rules=first-round&pegs={pegs}&metric=choice"
    assert data["probe-url"] == "#" + data["hash"]
    first, second = pegs - pegs // 2, pegs // 2
    assert f"Super Six (first-round rules), {pegs} pegs ({first} + {second})" in dom
    assert _shown_start(dom) == pytest.approx(
        100 * _own_start_value(pegs, "first-round"), abs=0.0006
    )
    assert data["probe-start"] == f"{first}/{second}"  # the slider moved the start's label
    texts = [text for text in _cell_texts(dom) if text]
    assert len(texts) == _visible_cells(pegs) and "R" not in texts


def test_a_hash_that_names_nothing_is_ignored_and_replaced(tmp_path, page_text):
    # Values are only compared with the page's own buttons and steps: markup, an unknown
    # total and a name from JavaScript's object prototype select nothing and run nothing.
    hostile = "#rules=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&pegs=999&metric=constructor"
    body, dom = _open(tmp_path, page_text, hostile)
    data = _data(body)
    assert (data["rules"], data["pegs"], data["metric"]) == ("free", "10", "decision")
    assert data["hash"] == "rules=free&pegs=10&metric=decision"  # the address now names a view
    assert "onerror" not in dom.split("<script", 1)[0]
