"""The graph explorer page: its data round-trips, it is offline and inert, and it works in a
real browser (overview, views, hover, details, policy switch, search, the address).
"""

from __future__ import annotations

import html
import re
from collections import deque

import numpy as np
import pytest
from pages import EXTERNAL, open_in_chromium

pytest.importorskip("plotly")

from gamegraph import build  # noqa: E402
from gamegraph._extras import require  # noqa: E402
from gamegraph.analysis import explore_graph  # noqa: E402
from gamegraph.errors import UnknownNameError  # noqa: E402
from gamegraph.renderers import explorer  # noqa: E402
from gamegraph.rules import Option, Outcome, Rules  # noqa: E402

HOSTILE = '</script><img src=x onerror="alert(1)">'


@pytest.fixture(scope="module")
def jackpot_data(jackpot_graph, jackpot_optimum, jackpot_policies):
    return explore_graph(jackpot_graph, jackpot_optimum, jackpot_policies)


@pytest.fixture(scope="module")
def jackpot_page(jackpot_data):
    return explorer.explore_figure(jackpot_data, title="Jackpot")


class Hostile(Rules):
    """Two steps to the end, with labels that are markup."""

    name = "hostile"

    def start(self):
        return 0

    def outcomes(self, state):
        if state == 2:
            return []
        return [Outcome(1, (Option(state + 1, 0), Option(2, 1)))]

    def terminal_value(self, state):
        return 1 if state == 2 else None

    def label(self, state):
        return f"{HOSTILE} {state}"

    def move_label(self, move):
        return f"<b>move</b> {move}"


@pytest.fixture(scope="module")
def hostile_data():
    return explore_graph(build(Hostile()))


def test_the_data_round_trips(jackpot_page, jackpot_data):
    meta, arrays = explorer.decode(jackpot_page.html())
    data = jackpot_data
    assert meta["policies"] == list(data.policies) and meta["n"] == data.n_states == 512
    assert arrays["labels"] == data.labels
    np.testing.assert_array_equal(np.cumsum(arrays["throwCount"]), data.outcome_ptr[1:])
    np.testing.assert_array_equal(np.cumsum(arrays["optionCount"]), data.option_ptr[1:])
    np.testing.assert_array_equal(arrays["target"], data.option_target)
    np.testing.assert_array_equal(arrays["choice"].reshape(data.choice.shape), data.choice)
    np.testing.assert_allclose(arrays["reach"].reshape(data.reach.shape), data.reach, rtol=1e-7)
    parent = arrays["parent"].reshape(data.path_parent.shape)
    np.testing.assert_array_equal(parent, data.path_parent)
    assert meta["groupNames"] == data.group_names
    assert meta["groupStates"] == data.group_states.tolist()
    # Small integers travel small: 512 labels need two bytes each for their lengths at most.
    assert arrays["throwCount"].dtype == np.int8 and arrays["target"].dtype == np.int16


def test_page_is_offline_inert_and_only_html(tmp_path, jackpot_page, hostile_data):
    with pytest.raises(UnknownNameError):
        jackpot_page.save(tmp_path / "page.json")
    assert list(tmp_path.iterdir()) == []
    jackpot_page.save(tmp_path / "page.html")
    text = (tmp_path / "page.html").read_text()
    bundle = require("plotly.offline", "").get_plotlyjs()  # its own links, never followed
    assert bundle in text and not EXTERNAL.search(text.replace(bundle, ""))
    assert text == jackpot_page.html()  # the same bytes for the same data
    page = explorer.explore_figure(hostile_data, title=HOSTILE).html()
    assert page.count("</script>") == 4  # plotly, meta, data, script: no label closes one
    assert HOSTILE not in page and "&lt;/script&gt;&lt;img" in page  # the <title>
    _, arrays = explorer.decode(page)
    assert arrays["labels"][0] == f"{HOSTILE} 0"


def test_repr_and_notebook_display(jackpot_page):
    assert repr(jackpot_page).startswith("<ExplorerPage 'Jackpot': Exploration('jackpot'")
    shown = jackpot_page._repr_html_()
    assert shown.startswith("<iframe") and "<script" not in shown  # escaped into srcdoc


def around(data, centre, steps):
    """States within ``steps`` moves of ``centre``, either way (a breadth-first search)."""
    neighbours = {i: set() for i in range(data.n_states)}
    for i in range(data.n_states):
        for k in range(data.outcome_ptr[i], data.outcome_ptr[i + 1]):
            for t in data.option_target[data.option_ptr[k] : data.option_ptr[k + 1]]:
                if t >= 0 and t != i:
                    neighbours[i].add(int(t))
                    neighbours[int(t)].add(i)
    depth, queue = {centre: 0}, deque([centre])
    while queue:
        i = queue.popleft()
        if depth[i] < steps:
            for t in neighbours[i] - depth.keys():
                depth[t] = depth[i] + 1
                queue.append(t)
    return len(depth)


@pytest.mark.parametrize("which", ["jackpot", "hostile"])
def test_the_page_works_in_headless_chromium(tmp_path, request, which):
    data = request.getfixturevalue(f"{which}_data")
    page = tmp_path / "page.html"
    explorer.explore_figure(data, title=which).save(page)
    loaded = open_in_chromium(page, tmp_path, "#selftest")
    attributes = loaded.data
    assert loaded.console == [] and "errors" not in attributes, attributes.get("errors")
    assert attributes["rendered"] == "yes" and attributes["selftest"] == "done"
    start = data.start
    # Hovering the start shows its label and value; its details list every throw.
    hover = attributes["hover-text"]
    assert hover.startswith(html.escape(data.labels[start]))  # as the DOM dump writes it
    assert f"value: {data.values[start]:.5f}" in hover
    throws = data.outcome_ptr[start + 1] - data.outcome_ptr[start]
    assert attributes["details-throws"] == str(throws)
    assert attributes["policy"] == data.policies[-1]
    assert attributes["drawing"] == ("cells" if which == "jackpot" else "none")  # the cells
    assert int(attributes["search-hits"]) >= 1
    assert attributes["around-states"] == str(around(data, start, 2))
    if which == "hostile":  # the label arrived as text: no element was made from it
        assert "<img" not in loaded.dom.split("<body", 1)[1].split("<script", 1)[0]


def test_the_address_keeps_the_view(tmp_path, jackpot_data):
    page = tmp_path / "page.html"
    explorer.explore_figure(jackpot_data).save(page)
    loaded = open_in_chromium(page, tmp_path, "#policy=hilo&view=around&steps=1&state=1%203")
    attributes = loaded.data
    assert attributes["rendered"] == "yes" and "errors" not in attributes
    i = jackpot_data.labels.index("1 3")
    assert attributes["view-states"] == str(around(jackpot_data, i, 1))
    assert 'id="gg-details"' in loaded.dom and ">1 3<" in loaded.dom
    # Nonsense in the address is ignored, not shown or run.
    loaded = open_in_chromium(page, tmp_path, "#policy=%3Cb%3E&view=evil&count=-5&state=nope")
    assert loaded.data["rendered"] == "yes" and "errors" not in loaded.data
    assert loaded.data["view-states"] == "150"


def test_ur_positions_are_drawn(tmp_path):
    from gamegraph.games.ur import Ur

    data = explore_graph(Ur("finkel", pieces=1).build_graph())
    page = tmp_path / "page.html"
    explorer.explore_figure(data).save(page)
    loaded = open_in_chromium(page, tmp_path, "#view=around&state=4/6")
    assert loaded.data["drawing"] == "ur" and "errors" not in loaded.data
    board = re.search(r'<svg[^>]*class="gg-picture".*?</svg>', loaded.dom).group(0)
    # 20 tiles, 3 rosettes marked, one piece a side: a circle (to move) and a square.
    assert board.count("<rect") == 20 + 1 and board.count("✱") == 5 and "<circle" in board
    assert "the board: 4/6" in board


def test_large_pages_say_what_they_left_out(tmp_path):
    from gamegraph.games.ur import Ur

    graph = Ur("finkel", pieces=2).build_graph()
    data = explore_graph(graph, max_states=2000)
    page = tmp_path / "page.html"
    explorer.explore_figure(data).save(page)
    loaded = open_in_chromium(page, tmp_path)
    assert "errors" not in loaded.data and loaded.data["rendered"] == "yes"
    summary = re.search(r'<p id="gg-summary">([^<]*)</p>', loaded.dom).group(1)
    assert summary.startswith("12,870 states in 5 groups; this page holds 2,000 of them")
    assert "--min-reach" in summary


def test_the_page_opens_on_a_chosen_policy(tmp_path, jackpot_data):
    page = tmp_path / "page.html"
    explorer.explore_figure(jackpot_data, policy="hilo").save(page)
    loaded = open_in_chromium(page, tmp_path)
    assert loaded.data["policy"] == "hilo" and "errors" not in loaded.data
    # The address still wins over the page's default.
    loaded = open_in_chromium(page, tmp_path, "#policy=max")
    assert loaded.data["policy"] == "max"
