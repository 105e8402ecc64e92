"""Outputs carry no live script from inputs (issue 24, part 2).

Hostile text (state and move labels, a game's name, policy names, report titles, headings,
paragraphs, table cells, captions and notes) is drawn into every output: DOT source, SVG
(pygraphviz's Graphviz, and the system ``dot`` when there is one), the HTML report, the
Markdown report and the explorer page. The files must hold no raw tag, event handler or
``javascript:`` link from the data, control characters must show as escapes, and in
headless Chromium no injected script may run: the pages override ``alert`` to leave a
mark, and the browser's own URL parser checks every link and image.
"""

from __future__ import annotations

import html
import os
import re
import shutil
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from pages import open_in_chromium

pytest.importorskip("graphviz")
pytest.importorskip("pygraphviz")

from gamegraph import Policy, build, solve  # noqa: E402
from gamegraph.analysis import compare, compare_policies, decision_costs  # noqa: E402
from gamegraph.errors import RenderError  # noqa: E402
from gamegraph.propagate import propagate  # noqa: E402
from gamegraph.renderers import dot  # noqa: E402
from gamegraph.renderers.diagram import Diagram  # noqa: E402
from gamegraph.renderers.report import Report  # noqa: E402
from gamegraph.rules import Option, Outcome, Rules  # noqa: E402
from gamegraph.tables import Table  # noqa: E402

PAYLOADS = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(1)>',
    "[x](\x01javascript:alert(1))",
    "javascript:alert(1)",
    "nul\x00here",
    "esc\x1b[31mred",
    "<start>",
    "<b>x</b>",
    "back\\N\\G slash",
)
#: Links a paragraph may hold that must never become a live link.
BAD_LINKS = (
    "[a](\x01javascript:alert(1))",
    "[b](java\tscript:alert(1))",
    "[c](JaVaScRiPt:alert(1))",
    "[d](&#106;avascript:alert(1))",
    "[e](javascript&#58;alert(1))",
    "[f](data:text/html,<script>alert(1)</script>)",
    "[g](vbscript:alert(1))",
    "[h](java\\script:alert(1))",
    "[i](\x00javascript:alert(1))",
)
GOOD_LINKS = ("[ok](https://example.org/a?b=1&c=2)", "[fig](#fig-board)", "[page](other.html)")
CONTROLS = ("\x00", "\x01", "\x1b")
#: Tags that only the data could bring (the payloads' tags).
DATA_TAGS = {"script", "svg:onload", "start", "b", "i", "iframe", "object", "embed"}
#: Attributes that hold a URL.
URL_ATTRIBUTES = {"href", "src", "xlink:href", "action", "formaction"}
#: The images a page may hold inline (the report's figures).
OWN_IMAGES = ("data:image/svg+xml;base64,", "data:image/png;base64,")


class Tags(HTMLParser):
    """Every tag of a page with its attributes, as a browser would read them."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.found = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


class Hostile(Rules):
    """A small game whose every label is hostile: state i is labelled PAYLOADS[i].

    From state i a throw of 1/2 offers "advance" (to i + 1) or "give up" (lost), the other
    half only "advance"; the last state is won. A policy that gives up differs from the
    optimum at every state, so every view has something to draw.
    """

    name = "<b>hostile</b> game\x00"
    LOST = -1

    def start(self):
        return 0

    def terminal_value(self, state):
        if state == self.LOST:
            return Fraction(0)
        return Fraction(1) if state == len(PAYLOADS) - 1 else None

    def outcomes(self, state):
        advance = Option(state + 1, move=state)
        give_up = Option(self.LOST, move=len(PAYLOADS))
        return [Outcome(Fraction(1, 2), (advance, give_up)), Outcome(Fraction(1, 2), (advance,))]

    def label(self, state):
        return "lost \x1b" if state == self.LOST else PAYLOADS[state]

    def move_label(self, move):
        return PAYLOADS[move] if move < len(PAYLOADS) else "give up <i>"


def give_up(state, options):
    return len(options) - 1


@pytest.fixture(scope="module")
def game():
    graph = build(Hostile())
    optimum = solve(graph, exact=True)
    policy = Policy.from_agent(graph, give_up)
    return graph, optimum, policy


@pytest.fixture(scope="module")
def diagrams(game):
    graph, optimum, policy = game
    comparison = compare(optimum, policy)
    reach = propagate(graph, policy)
    chain = policy.chain(graph)
    title, subtitle = PAYLOADS[1], PAYLOADS[2]
    return {
        "chain": dot.chain_dot(
            chain,
            style="moves",
            weights="count",
            reach=reach,
            comparison=comparison,
            title=title,
            subtitle=subtitle,
        ),
        "compact": dot.chain_dot(chain, title=PAYLOADS[0]),
        "diff": dot.diff_dot(
            graph, decision_costs(comparison, reach), title=title, subtitle=subtitle
        ),
        "house": Diagram(
            dot.new_digraph(PAYLOADS[8], title=PAYLOADS[7]).source, title="new_digraph"
        ),
    }


def visible_controls_only(text: str, where: str) -> None:
    """No control character is left raw; the labels show them as escapes."""
    for control in CONTROLS:
        assert control not in text, f"{where}: a raw {control!r}"


def scheme(url: str) -> str | None:
    """The scheme a browser reads: control characters and spaces do not hide one."""
    found = re.match(r"([a-z][a-z0-9+.-]*):", re.sub(r"[\x00-\x20\x7f]", "", url).lower())
    return found.group(1) if found else None


def inert_markup(text: str, where: str, own_tags=("svg",)) -> None:
    """No tag the data brought, no event handler, only http(s) or relative links (and the
    report's own inline images), no raw control character.
    """
    for tag, attributes in Tags(text).found:
        assert tag not in DATA_TAGS or tag in own_tags, f"{where}: raw tag <{tag}>"
        assert tag != "img" or attributes.get("src") != "x", f"{where}: the payload's <img>"
        for name, value in attributes.items():
            assert not name.startswith("on"), f"{where}: event handler {name}= on <{tag}>"
            if name in URL_ATTRIBUTES and value is not None:
                live = scheme(value) not in (None, "http", "https")
                assert not live or value.startswith(OWN_IMAGES), f"{where}: {value[:60]!r}"
    visible_controls_only(text, where)


# ---------------------------------------------------------------------------
# DOT and SVG
# ---------------------------------------------------------------------------
def test_dot_source_quotes_every_label_from_data(diagrams):
    for name, diagram in diagrams.items():
        source = diagram.source
        visible_controls_only(source, name)
        for tag in ("<script", "<img", "<svg", "<start>", "<b>x", "<i>"):
            assert tag not in source, f"{name}: raw {tag}"
        # An HTML-like label (label=<...>) is only ever the legend the renderer builds.
        for line in source.splitlines():
            if re.match(r"\s*(n\d+|lost-?\d+)\s*\[", line) and name != "diff":
                assert not re.search(r"\b(label|tooltip)=<", line), f"{name}: {line}"
    chain = diagrams["chain"].source
    assert "\\\\x00" in chain and "\\\\x1b" in chain  # NUL and ESC drawn as escapes
    assert "\\\\N\\\\G" in chain  # not Graphviz's node and graph name


ENGINES = ["pygraphviz"] + (["system"] if shutil.which("dot") else [])


@pytest.fixture(scope="module", params=ENGINES)
def svgs(request, diagrams):
    saved = os.environ.get("GAMEGRAPH_GRAPHVIZ")
    os.environ["GAMEGRAPH_GRAPHVIZ"] = request.param
    try:
        return {name: diagram.svg() for name, diagram in diagrams.items()}
    finally:
        if saved is None:
            del os.environ["GAMEGRAPH_GRAPHVIZ"]
        else:
            os.environ["GAMEGRAPH_GRAPHVIZ"] = saved


def test_svg_shows_every_label_as_text(svgs):
    for name, svg in svgs.items():
        inert_markup(svg, name)
    texts = html.unescape(" ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svgs["chain"])))
    for payload in PAYLOADS:
        shown = payload.replace("\x00", "\\x00").replace("\x1b", "\\x1b").replace("\x01", "\\x01")
        assert shown in texts, f"{payload!r} is not drawn as {shown!r}"
    assert ">&lt;start&gt;</text>" in svgs["house"]  # the title, not an HTML-like label


def test_graphviz_errors_name_the_offending_line():
    broken = Diagram("digraph g {\n  n0 [label=START]\n  n9 [label=<b>x</b>]\n}")
    for engine in ENGINES:
        os.environ["GAMEGRAPH_GRAPHVIZ"] = engine
        try:
            with pytest.raises(RenderError) as error:
                broken.svg()
        finally:
            del os.environ["GAMEGRAPH_GRAPHVIZ"]
        message = str(error.value)
        assert "\n" not in message and "line 3" in message and "<b>x</b>" in message, message


# ---------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report(game, diagrams):
    graph, optimum, _ = game
    agents = {payload: give_up for payload in PAYLOADS[:3]}
    policies = compare_policies(graph, agents, solution=optimum)
    cells = Table(
        PAYLOADS[:3],
        [PAYLOADS[3:6], PAYLOADS[6:9]],
        title=PAYLOADS[0],
        notes=(PAYLOADS[1], PAYLOADS[3]),
    )
    report = Report(PAYLOADS[0], footer=PAYLOADS[2])
    for payload in PAYLOADS:
        report.heading(payload)
        report.text(f"{payload} and `{payload}`")
    report.text(" ".join(BAD_LINKS + GOOD_LINKS))
    report.table(policies.table(title=PAYLOADS[1]))
    report.table(cells)
    report.figure(diagrams["compact"], caption=PAYLOADS[1], name=PAYLOADS[0])
    return report


def test_html_report_escapes_everything(report, tmp_path):
    page = report.save(tmp_path / "report.html").read_text(encoding="utf-8")
    inert_markup(page, "report.html")
    links = re.findall(r'<a href="([^"]*)"', page)
    assert links == ["https://example.org/a?b=1&amp;c=2", "#fig-board", "other.html"]
    assert "nul\\x00here" in page and "esc\\x1b[31mred" in page


def test_markdown_report_has_no_raw_html(report, tmp_path):
    path = report.save(tmp_path / "report.md")
    text = path.read_text(encoding="utf-8")
    visible_controls_only(text, "report.md")
    # Outside code spans (literal text), any '<' opening a tag is escaped; only the images
    # in report_files/ and the good links are links.
    prose = re.sub(r"`[^`]*`", "", text)
    assert not re.search(r"(?<!\\)<[A-Za-z/!?]", prose), prose
    targets = re.findall(r"(?<!\\)\]\(([^)]*)\)", prose)
    for target in targets:
        assert target.startswith(("https://", "#", "other.html", "report_files/")), target
    assert "https://example.org/a?b=1&c=2" in targets
    # A table cell cannot break out of its row: every row has its three cells.
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert all(len(re.findall(r"(?<!\\)\|", row)) == 4 for row in rows), rows


def test_report_with_a_name_that_is_not_utf8(tmp_path, diagrams):
    report = Report("bytes").figure(diagrams["house"], name="house")
    path = tmp_path / os.fsdecode(b"r\xff.md")
    report.save(path)
    text = path.read_text(encoding="utf-8")
    assert "(r%FF_files/house.png)" in text, text
    assert (tmp_path / os.fsdecode(b"r\xff_files") / "house.png").is_file()


# ---------------------------------------------------------------------------
# In a browser: nothing runs
# ---------------------------------------------------------------------------
#: Runs first: any alert the data manages to call leaves a mark on the page.
TRAP = """<script>
function pwned(){document.documentElement.setAttribute('data-pwned','yes');}
window.alert=window.confirm=window.prompt=pwned;
</script>"""
#: Runs last: the browser's own parser judges every link and image source.
LINKS = """<script>
var live = [];
document.querySelectorAll('a, area, img, image, iframe, embed, object').forEach(function (el) {
  var url = el.getAttribute('href') || el.getAttribute('xlink:href') || el.getAttribute('src');
  if (!url) { return; }
  var scheme = new URL(url, document.baseURI).protocol;
  var image = /^data:image\\/(png|svg\\+xml);base64,/.test(url);
  if (['http:', 'https:', 'file:'].indexOf(scheme) < 0 && !image) { live.push(url); }
});
document.body.setAttribute('data-live', String(live.length));
document.body.setAttribute('data-checked', 'yes');
</script>"""


def markdown_as_html(text: str) -> str:
    """The Markdown as a permissive renderer shows it: raw HTML on, every link allowed."""
    markdown_it = pytest.importorskip("markdown_it")
    renderer = markdown_it.MarkdownIt("commonmark", {"html": True}).enable("table")
    renderer.validateLink = lambda url: True
    return renderer.render(text)


def no_script_ran(loaded, where):
    html_tag = re.search(r"<html[^>]*>", loaded.dom).group(0)
    assert "data-pwned" not in html_tag, f"{where}: an injected script ran"


def test_nothing_runs_in_chromium(report, svgs, tmp_path):
    html_page = report.to_html()
    markdown, _ = report.to_markdown()
    parts = [TRAP, html_page, markdown_as_html(markdown)]
    parts += [re.sub(r"<\?xml[^>]*>|<!DOCTYPE[^>]*>", "", svg) for svg in svgs.values()]
    page = tmp_path / "all.html"
    page.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
        + "\n".join(parts)
        + LINKS
        + "</body></html>",
        encoding="utf-8",
    )
    loaded = open_in_chromium(page, tmp_path)
    assert loaded.data.get("checked") == "yes", loaded.console
    no_script_ran(loaded, "report and diagrams")
    assert loaded.data["live"] == "0"


def strings(value):
    """Every string inside nested dicts, lists and tuples."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def test_explorer_page_runs_no_injected_script(game, tmp_path):
    pytest.importorskip("plotly")
    from gamegraph._escape import visible
    from gamegraph.analysis import explore_graph
    from gamegraph.renderers.explorer import decode, explore_figure

    graph, optimum, _ = game
    data = explore_graph(graph, optimum, {payload: give_up for payload in PAYLOADS[:5]})
    figure = explore_figure(data, title=PAYLOADS[2])
    text = figure.html()
    # The game's text travels as data: JSON with < > & escaped, labels in the gzip block,
    # and the browser sets it as text (or escaped for plotly's labels), never as markup.
    for payload in PAYLOADS[:3]:
        assert payload not in text
    meta, arrays = decode(text)
    assert meta["policies"][1:] == [visible(payload) for payload in PAYLOADS[:5]]
    for string in [*strings(meta), *arrays["labels"]]:
        visible_controls_only(string, "explorer data")
    page = tmp_path / "explorer.html"
    page.write_text(text.replace("<head>", "<head>" + TRAP, 1), encoding="utf-8")
    loaded = open_in_chromium(page, tmp_path, "#selftest")
    assert loaded.data.get("selftest") == "done", (loaded.data, loaded.console)
    assert "errors" not in loaded.data
    shown = re.sub(r"<script.*?</script>", "", loaded.dom, flags=re.DOTALL)
    # The payloads show as text (&lt;img ...), and no element carries their handlers.
    assert "&lt;img src=x onerror=alert(1)&gt;" in shown
    assert not re.search(r"<[^>]*\son(error|load)\s*=", shown), "explorer: a payload became markup"
    no_script_ran(loaded, "explorer")
