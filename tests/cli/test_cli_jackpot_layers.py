"""``gamegraph jackpot layers``: the layer summary as a table, JSON, or a figure.

Values are checked against the exact win probabilities and against the invariants of
the summary (lost plus won is one, positions reached fit the layer); bad input exits
with status 2 on one stderr line and writes nothing.
"""

from __future__ import annotations

import io
import json
import os
from fractions import Fraction

import pytest
from cli_run import run

from gamegraph.cli import main

HILO_WIN = Fraction(660001525, 8264970432)
OPTIMAL_WIN = Fraction(14103327415, 176319369216)
JACKPOT_LAYERS = [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]
MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".svg": b"<?xml"}


@pytest.fixture(scope="module")
def text():
    out = io.StringIO()
    assert main(["jackpot", "layers"], out=out) == 0
    return out.getvalue()


def test_text_table_default_agents(text):
    lines = text.splitlines()
    assert lines[0] == "jackpot: where games go, by cells flipped"
    header = ["policy", "cells", "flipped", "positions", "of", "reach", "lost", "won"]
    assert lines[1].split() == header
    rows = [line.split() for line in lines[2:42]]
    assert [row[0] for row in rows[::10]] == ["min", "last", "hilo", "optimal"]
    assert [int(row[3]) for row in rows[20:30]] == JACKPOT_LAYERS  # hilo reaches them all
    assert lines[42:] == [
        "min: wins 1.3306 %",
        "last: wins 5.2248 %",
        "hilo: wins 7.9855 %",
        "optimal: wins 7.9987 %",
    ]


def test_json_is_exact(capsys):
    argv = ["jackpot", "layers", "--agents", "hilo", "optimal", "hilo", "--format", "json"]
    status, out, err = run(argv, capsys)
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["layer_counts"] == JACKPOT_LAYERS
    assert list(data["policies"]) == ["hilo", "optimal"]  # a repeated name counts once
    for name, win in (("hilo", HILO_WIN), ("optimal", OPTIMAL_WIN)):
        entry = data["policies"][name]
        assert Fraction(entry["win"]) == win
        lost, won = map(Fraction, entry["lost"]), map(Fraction, entry["won"])
        assert sum(lost) + sum(won) == 1
        assert Fraction(entry["won"][9]) == win == Fraction(entry["reach"][9])
        assert all(p <= c for p, c in zip(entry["positions"], JACKPOT_LAYERS))


# PDF output is covered in tests/renderers/test_figures.py.
@pytest.mark.parametrize("extension", [".png", ".svg"])
def test_figure(tmp_path, capsys, extension):
    pytest.importorskip("matplotlib")
    path = tmp_path / f"layers{extension}"
    status, out, err = run(["jackpot", "layers", "-o", path], capsys)
    assert status == 0 and out == f"wrote {path}\n" and err == ""
    data = path.read_bytes()
    assert data.startswith(MAGIC[extension])
    if extension == ".svg":
        page = data.decode()  # text stays text: the legend carries the win probabilities
        for label in ("min (wins 1.331 %)", "hilo (wins 7.986 %)", "optimal (wins 7.999 %)"):
            assert label in page
        assert "cells flipped" in page
    assert os.listdir(tmp_path) == [path.name]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-o", "{tmp}/layers.gif"], "unknown output extension '.gif'; accepted: .png, .svg, .pdf"),
        (["-o", "{tmp}/missing/layers.png"], "does not exist"),
        (["--agents", "bob"], "invalid choice: 'bob'"),
        (["--format", "xml"], "invalid choice: 'xml'"),
    ],
)
def test_bad_input(tmp_path, capsys, argv, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    status, out, err = run(["jackpot", "layers", *argv], capsys)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1
    assert os.listdir(tmp_path) == []
