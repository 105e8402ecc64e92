"""``gamegraph jackpot|supersix|ur report -o FILE``: each game's report as one offline HTML
page and as Markdown with its images beside it, with the key values checked against the
published figures and the solver. Each report is built once per format for the module.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html
import io
import os
import re
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest
from cli_run import run
from pages import EXTERNAL, PNG

from gamegraph import build, solve
from gamegraph.cli import main
from gamegraph.games.supersix import PUBLISHED_STRATEGIES
from gamegraph.games.ur import Ur

#: `make test-fast` leaves these out: every game's report written as HTML and Markdown.
pytestmark = pytest.mark.heavy

DATA_URI = re.compile(r'src="data:(image/[a-z+]+);base64,([A-Za-z0-9+/=]+)"')
MD_REFERENCE = re.compile(r"\]\(([^)#]+)\)")

# Fewer Monte Carlo games than the default keep the Jackpot run short; the interval still
# has to contain the exact value.
ARGUMENTS = {
    "jackpot": ["--games", "200000"],
    "supersix": ["--pegs", "12"],
    "ur": ["--pieces", "2", "--games", "60"],
}


def invoke(argv):
    """Run the command in-process outside a test (a module fixture has no capsys)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv], out=out)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Every game's report as .html and .md: {(game, extension): (path, stdout)}.

    Both commands of a game run in full, but share one built report (its figures are
    rendered once per format), which halves the module's time.
    """
    import gamegraph.reports.jackpot
    import gamegraph.reports.supersix
    import gamegraph.reports.ur

    folder = tmp_path_factory.mktemp("reports")
    out = {}
    with pytest.MonkeyPatch.context() as patch:
        for module in (gamegraph.reports.jackpot, gamegraph.reports.supersix, gamegraph.reports.ur):
            name = module.__name__.rsplit(".", 1)[1] + "_report"
            patch.setattr(module, name, functools.cache(getattr(module, name)))
        for game, extra in ARGUMENTS.items():
            for extension in (".html", ".md"):
                path = folder / f"{game}{extension}"
                status, stdout, stderr = invoke([game, "report", "-o", path, *extra])
                assert status == 0, stderr
                out[game, extension] = (path, stdout)
    return out


def page(written, game) -> str:
    """The HTML page's text, entities decoded."""
    return html.unescape(written[game, ".html"][0].read_text(encoding="utf-8"))


def table_cells(text: str, caption: str) -> list[list[str]]:
    """The body rows of the HTML table with this caption (a prefix), as cell texts."""
    start = text.index(f"<caption>{caption}")
    body = text[start : text.index("</table>", start)]
    rows = [
        [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]
    return [row for row in rows if row]


def table_rows(text: str, caption: str) -> dict:
    """The same rows keyed by their first cell (which must be unique)."""
    rows = table_cells(text, caption)
    keyed = {row[0]: row[1:] for row in rows}
    assert len(keyed) == len(rows), f"first cells repeat in table {caption!r}"
    return keyed


@pytest.mark.parametrize("game", list(ARGUMENTS))
def test_html_is_self_contained(written, game):
    path, stdout = written[game, ".html"]
    assert stdout.startswith(f"wrote {path} (")
    text = page(written, game)
    assert text.startswith("<!DOCTYPE html>")
    assert EXTERNAL.findall(text) == []
    assert "<script" not in text and "<link" not in text
    # Every figure is an inline <svg> (its text selectable) or an image inside the page.
    images = DATA_URI.findall(text)
    inline = text.count('<div class="svg" role="img"')
    assert len(images) + inline == text.count("<figure ") >= 1
    assert inline >= 1  # the diagrams and matplotlib figures are SVG
    for kind, data in images:
        raw = base64.b64decode(data, validate=True)
        assert raw.startswith(PNG) if kind == "image/png" else b"<svg" in raw
    assert os.listdir(path.parent).count(path.name) == 1


@pytest.mark.parametrize("game", list(ARGUMENTS))
def test_markdown_images_exist_beside_it(written, game):
    path, stdout = written[game, ".md"]
    folder = path.with_name(f"{game}_files")
    assert f"images in {folder}" in stdout
    text = path.read_text(encoding="utf-8")
    referenced = MD_REFERENCE.findall(text)
    pngs = [name for name in referenced if name.endswith(".png")]
    assert pngs and len(pngs) == text.count("![")
    for name in referenced:
        assert name.startswith(f"{game}_files/"), name  # relative, in the folder beside it
        data = (path.parent / name).read_bytes()
        assert data.startswith(PNG) if name.endswith(".png") else b"<svg" in data
    assert sorted(os.listdir(folder)) == sorted(os.path.basename(n) for n in referenced)


def test_jackpot_key_values(written):
    text = page(written, "jackpot")
    policies = table_rows(text, "Win probability of each policy")
    assert policies["optimal"][:2] == ["14103327415/176319369216", "7.99874 %"]
    # HiLo's exact value is 7.9855280 %, so 7.98553 to five decimals; the reference
    # README's 7.9855 (four decimals) is shown beside it.
    assert policies["hilo"][:3] == ["660001525/8264970432", "7.98553 %", "7.9855 %"]
    assert list(policies) == ["min", "max", "first", "last", "hilo", "hilo2", "optimal"]
    assert "69884645/528958107648" in text  # what HiLo's decisions cost, in total
    assert "differs from the optimum's at 184 outcomes" in text
    assert "gives up win probability at 173 outcomes" in text
    # The ten costliest decisions, in wins per million games: costliest first, and less
    # than the 132.1 per million all 77 of them cost.
    costs = [float(r[-1]) for r in table_cells(text, "Where hilo gives up win probability")]
    assert len(costs) == 10 and costs == sorted(costs, reverse=True) and sum(costs) < 132.1
    assert costs[0] == pytest.approx(22.08, abs=0.01)
    lost = table_rows(text, "Probability that the game is lost")
    for column in range(4):  # lost at each layer + won = 1, per policy
        total = sum(float(row[column].rstrip(" %")) for row in lost.values())
        assert total == pytest.approx(100, abs=1e-4)


def test_jackpot_monte_carlo_contains_the_exact_values(written):
    rows = table_rows(page(written, "jackpot"), "Seeded simulation")
    assert list(rows) == ["hilo", "optimal"]
    for name, exact in (("hilo", "7.98553 %"), ("optimal", "7.99874 %")):
        games, _, _, interval, shown, inside = rows[name]
        assert games == "200,000" and shown == exact and inside == "yes"
        low, high = (float(x.rstrip(" %")) for x in interval.split(" .. "))
        assert low < float(exact.rstrip(" %")) < high


def test_supersix_key_values(written):
    text = page(written, "supersix")
    starts = table_rows(text, "The first player's win probability")
    # Jehn (2021): 31/36, 36/41 and 45324/63919 for 3, 4 and 5 pegs.
    for pegs, value in (("3", "31/36"), ("4", "36/41"), ("5", "45324/63919")):
        hands, wins, decimal, published = starts[pegs]
        assert wins == published == value
        assert float(decimal) == pytest.approx(float(Fraction(value)), abs=1e-6)
    exact = solve(build_supersix(12), exact=True).start_value
    assert float(starts["12"][2]) == pytest.approx(float(exact), abs=1e-6)
    strategies = table_rows(text, "Optimal strategies by pegs in play")
    for pegs, published in PUBLISHED_STRATEGIES.items():  # the paper's strings, 7 to 15
        mine, paper = strategies[str(pegs)]
        if pegs in (13, 15):  # the paper's extra 0 in the last group (docs/games/supersix.md)
            assert paper == "same, plus a 0 at the end" and published[:-2] + ")" == mine
        else:
            assert mine == published and paper == "same"
    assert strategies["4"] == ["(1/1)", ""]


def build_supersix(pegs):
    from gamegraph.games.supersix import SuperSix

    return build(SuperSix(pegs=pegs))


def test_ur_start_values_match_the_solver(written):
    text = page(written, "ur")
    starts = table_rows(text, "Win probability of the side that moves first")
    assert list(starts) == ["1", "2"]
    for pieces, positions in ((1, "217"), (2, "12,869")):
        shown, wins = starts[str(pieces)][:2]
        assert shown == positions
        exact = float(solve(build(Ur("finkel", pieces))).start_value)
        assert float(wins) == pytest.approx(exact, abs=1e-10)
    agents = table_rows(text, "Each agent over all its games")
    assert set(agents) == {"random", "first", "last", "greedy", "gain", "optimal"}
    assert agents["optimal"][3:] == ["0.00000", "0.0 %"]  # the optimum gives up nothing
    assert all(float(row[3]) > 0 for name, row in agents.items() if name != "optimal")
    assert len(table_cells(text, "Pairings")) == 15  # every pair of six agents


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["jackpot", "report", "-o", "{tmp}/missing/r.html"], "does not exist"),
        (["supersix", "report", "-o", "{tmp}/r.pdf"], "accepted: .html, .md"),
        (["ur", "report", "-o", "{tmp}/r.docx"], "accepted: .html, .md"),
        (["ur", "report", "-o", "{tmp}/blocked.md"], "is not a folder"),
    ],
)
def test_bad_paths_fail_before_work(argv, message, tmp_path, capsys, monkeypatch):
    import gamegraph.reports.jackpot
    import gamegraph.reports.supersix
    import gamegraph.reports.ur

    def never(**_):
        raise AssertionError("the report was built before the path was checked")

    for module in (gamegraph.reports.jackpot, gamegraph.reports.supersix, gamegraph.reports.ur):
        name = module.__name__.rsplit(".", 1)[1] + "_report"
        monkeypatch.setattr(module, name, never)
    (tmp_path / "blocked_files").write_text("a file where the images folder goes")
    status, out, err = run([a.format(tmp=tmp_path) for a in argv], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err
    assert os.listdir(tmp_path) == ["blocked_files"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["supersix", "report", "-o", "r.html", "--pegs", "3"], "accepted 4 or more"),
        (["ur", "report", "-o", "r.html", "--pieces", "4"], "accepted whole numbers 1 to 3"),
        (["ur", "report", "-o", "r.html", "--rules", "chess"], "invalid choice"),
        (["jackpot", "report"], "required: -o/--output"),
    ],
)
def test_bad_arguments(argv, message, capsys):
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    assert message in err


@pytest.mark.parametrize("game", list(ARGUMENTS))
def test_without_the_render_extra_one_line_and_nothing_written(game, tmp_path):
    """The parser builds without the drawing libraries; the report says which extra."""
    code = textwrap.dedent(
        f"""
        import sys
        for name in ("matplotlib", "plotly", "graphviz", "pygraphviz"):
            sys.modules[name] = None
        from gamegraph.cli import main
        sys.exit(main([{game!r}, "report", "-o", "r.md"]))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and 'pip install "gamegraph[render]"' in run.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", list(ARGUMENTS))
def test_markdown_keeps_every_table_title(written, game):
    path, _ = written[game, ".md"]
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = [
        k
        for k, line in enumerate(lines)
        if line.startswith("|") and not lines[k - 1].startswith("|")
    ]
    assert starts
    for k in starts:  # a bold title, a blank line, then the table
        assert lines[k - 1] == "" and re.fullmatch(r"\*\*.+\*\*", lines[k - 2]), lines[
            k - 2 : k + 1
        ]
    print(f"{game}: {len(starts)} tables, each titled")
