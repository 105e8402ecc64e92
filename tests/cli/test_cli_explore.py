"""``gamegraph <game> explore``: the page is written, sizes are guarded, paths checked first."""

from __future__ import annotations

import json
import re

import pytest
from cli_run import run

pytest.importorskip("plotly")
pytest.importorskip("pygraphviz")


def figure_data(path):
    """The traces embedded in a page: (node trace names, hover texts per node trace)."""
    text = path.read_text()
    start = re.search(r'Plotly\.newPlot\(\s*"explorer",\s*', text).end()
    traces = json.JSONDecoder().raw_decode(text, start)[0]
    nodes = [t for t in traces if t.get("meta") == "nodes"]
    return [t["name"] for t in nodes], [len(t["hovertext"]) for t in nodes]


def test_jackpot_explore(tmp_path, capsys):
    page = tmp_path / "jackpot.html"
    status, out, err = run(["jackpot", "explore", "--agents", "hilo,max", "-o", page], capsys)
    assert status == 0, err
    assert re.match(
        rf"wrote {re.escape(str(page))}: 512 states, 2,304 edges, "
        r"policies optimal, hilo, max \(",
        out,
    )
    names, hovers = figure_data(page)
    assert names == ["optimal", "hilo", "max"] and hovers == [512, 512, 512]
    assert "hilo: wins 7.99 %" in page.read_text()


def test_supersix_and_ur_explore(tmp_path, capsys):
    page = tmp_path / "six.html"
    status, out, err = run(["supersix", "explore", "-o", page], capsys)
    assert status == 0, err
    assert "84 states" in out and "policies optimal, always stop, always roll" in out
    assert figure_data(page)[1] == [84, 84, 84]
    page = tmp_path / "ur.html"
    status, out, err = run(["ur", "explore", "--agents", "greedy", "-o", page], capsys)
    assert status == 0, err
    assert figure_data(page) == (["optimal", "greedy"], [218, 218])


@pytest.mark.parametrize(
    "argv, message",
    [
        (["supersix", "explore", "--pegs", "44"], "5,052 states; the explorer draws at most 5,000"),
        (["ur", "explore", "--pieces", "2", "--min-reach", "0"], "12,870 states.*--min-reach"),
        (["ur", "explore", "--pieces", "3"], "invalid choice: 3"),
        (["ur", "explore", "--agents", "random"], "unknown agent 'random'; accepted: first"),
        (["jackpot", "explore", "--agents", "hilo,bogus"], "unknown agent 'bogus'"),
        (["jackpot", "explore", "--min-reach", "2"], "accepted a number from 0 to 1"),
    ],
)
def test_refusals(tmp_path, capsys, argv, message):
    page = tmp_path / "page.html"
    status, out, err = run([*argv, "-o", page], capsys)
    assert status == 2 and out == "" and re.search(message, err), err
    assert not page.exists()


def test_output_checked_before_any_work(tmp_path, capsys):
    status, _, err = run(["jackpot", "explore", "-o", tmp_path / "page.png"], capsys)
    assert status == 2 and "unknown output extension '.png'; accepted: .html" in err
    status, _, err = run(["ur", "explore", "-o", tmp_path / "missing" / "page.html"], capsys)
    assert status == 2 and "does not exist" in err
    assert list(tmp_path.iterdir()) == []
