"""``gamegraph <game> explore``: the page is written at any size, paths are checked first."""

from __future__ import annotations

import re

import pytest
from cli_run import run

pytest.importorskip("plotly")

from gamegraph.renderers.explorer import decode  # noqa: E402


def test_jackpot_explore(tmp_path, capsys):
    page = tmp_path / "jackpot.html"
    status, out, err = run(["jackpot", "explore", "--agents", "hilo,max", "-o", page], capsys)
    assert status == 0, err
    assert re.match(
        rf"wrote {re.escape(str(page))}: 512 states in 10 groups, policies optimal, hilo, max \(",
        out,
    )
    meta, arrays = decode(page.read_text())
    assert meta["policies"] == ["optimal", "hilo", "max"] and len(arrays["labels"]) == 512
    assert meta["title"] == "Jackpot"


def test_supersix_and_ur_explore(tmp_path, capsys):
    page = tmp_path / "six.html"
    status, out, err = run(["supersix", "explore", "-o", page], capsys)
    assert status == 0, err
    assert "84 states in 8 groups, policies optimal, always stop, always roll" in out
    page = tmp_path / "ur.html"
    status, out, err = run(["ur", "explore", "--agents", "greedy", "-o", page], capsys)
    assert status == 0, err
    meta, _ = decode(page.read_text())
    assert meta["policies"] == ["optimal", "greedy"] and meta["n"] == 218
    assert meta["groupNames"][0] == "borne off 0-0"


def test_min_reach_keeps_a_smaller_page(tmp_path, capsys):
    page = tmp_path / "ur2.html"
    status, out, err = run(
        ["ur", "explore", "--pieces", "2", "--agents", "", "--min-reach", "0.01", "-o", page],
        capsys,
    )
    assert status == 0, err
    assert re.search(r"12,870 states \(\d{3},?\d* of them in detail\) in 5 groups", out), out
    meta, _ = decode(page.read_text())
    assert meta["totalStates"] == 12_870 and meta["n"] < 12_870 and meta["minReach"] == 0.01


@pytest.mark.parametrize(
    "argv, message",
    [
        (["ur", "explore", "--pieces", "4"], "invalid choice: 4"),
        (["ur", "explore", "--agents", "random"], "unknown agent 'random'; accepted: first"),
        (["jackpot", "explore", "--agents", "hilo,bogus"], "unknown agent 'bogus'"),
        (["jackpot", "explore", "--min-reach", "2"], "accepted a number from 0 to 1"),
        (["supersix", "explore", "--pegs", "1"], "pegs"),
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
