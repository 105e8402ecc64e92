"""The graph explorer: a game graph of any size as one interactive, offline page.

:func:`explore_figure` turns an :class:`~gamegraph.analysis.explore.Exploration` into an
:class:`ExplorerPage` (the numbers come from :func:`gamegraph.analysis.explore_graph`;
nothing is computed here but their encoding). The page works the way people explore
large graphs: overview first, then filter, then details on demand.

* **Overview.** A bar chart of the groups of states (layers, or the game's own blocks):
  expected visits and where the game ends under the selected policy, and below it the
  value the policy gives away in each group (win chance, expected score or margin, in the
  objective's words). Hovering a bar gives its states and value
  range; clicking it shows the group.
* **Filtered views**, drawn with WebGL (plotly ``scattergl``: one canvas, however many
  states): the most likely states, a group, the states around a position (k moves either
  way), those above a reach threshold, the most likely path to a position, or everything
  when it is small. States sit in their layer (across) in barycentre order (down), from
  :func:`gamegraph.analysis.layout.layered_layout`. A dot's colour is its reach (viridis,
  log scale; grey: never reached) or, at the reader's choice, its value on the
  objective's scale (:func:`gamegraph.renderers._colours.value_scale`: [0, 1] for a win
  probability, the data's range for a score, diverging around 0 for a margin); its
  shape says start (star) or end (square); a line's width and shade follow the chance
  the policy takes that move.
* **Details.** Clicking a state lists every throw with its chance, the options after it
  with their values and the policies that pick each, the state's predecessors and the
  most likely path to it from the start. States are links. A search box finds labels.
* The address keeps the view (``#policy=...&view=...&state=...``), so a view can be shared.
* **Words.** Values are named as the game's objective says ("win probability" and
  percentages only for ``win``; "expected score", "expected margin" or the game's own
  ``value_name`` otherwise), and an option's worth includes its reward.

The data travels inside the page as one gzip-compressed binary block (numbers as typed
arrays, labels as UTF-8 text), which the browser unpacks with its own
``DecompressionStream``: Ur with 3 pieces (263,122 states, 2.5 M options) fits in about
20 MB. Every text from the game reaches the page through ``textContent`` or escaped for
plotly's hover labels, never as HTML.

Once drawn, the page sets ``data-rendered="yes"`` on ``<body>``, records script errors in
``data-errors`` and the time of the last action in ``data-action-ms``. Opened as
``page.html#selftest`` it hovers and clicks the start, switches to the last policy and
searches, writing what it saw into ``data-*`` attributes (docs/explorer.md).
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import uuid
from importlib import resources

import numpy as np

from .._escape import html_text, visible
from .._extras import require
from .._files import check_output, write_atomic
from ..errors import UnknownNameError
from ._colours import value_scale

#: The extensions :meth:`ExplorerPage.save` writes.
EXTENSIONS = (".html",)

#: Pages up to this size display inline in Jupyter (larger: saved and opened instead).
INLINE_BYTES = 12_000_000

#: Reach probabilities below this get the lowest colour (the scale is log10).
REACH_FLOOR = 1e-6


class ExplorerPage:
    """The explorer as one self-contained HTML page (:func:`explore_figure`).

    ``save(path)`` writes it (``.html``, all or nothing); ``html()`` returns it; in
    Jupyter it displays inline (up to :data:`INLINE_BYTES`).
    """

    def __init__(self, data, title: str | None = None, policy: str | None = None):
        if policy is not None and policy not in data.policies:
            raise UnknownNameError("policy to open on", policy, data.policies)
        self.data = data
        self.title = title or data.name
        self.policy = policy

    def html(self) -> str:
        """The page as text: the same bytes for the same data."""
        plotly = require("plotly.offline", "the graph explorer")
        meta, blob = encode(self.data)
        meta["title"] = visible(self.title)
        meta["reachFloor"] = REACH_FLOOR
        if self.policy is not None:
            meta["openPolicy"] = self.policy
        style = _asset("explorer.css")
        script = _asset("explorer.js")
        return (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html_text(visible(self.title))}</title>\n<style>{style}</style>\n"
            f"<script>{plotly.get_plotlyjs()}</script>\n</head>\n<body>\n{_asset('explorer.html')}"
            f'<script type="application/json" id="gg-meta">{_json(meta)}</script>\n'
            f'<script type="application/octet-stream" id="gg-data">{blob}</script>\n'
            f"<script>{script}</script>\n</body>\n</html>\n"
        )

    def save(self, path) -> None:
        """Write the page to ``path`` (``.html``); nothing is left half-written."""
        path, _ = check_output(path, EXTENSIONS)
        write_atomic(path, self.html())

    def _repr_html_(self) -> str:
        page = self.html()
        if len(page) > INLINE_BYTES:
            return f"<p>{html_text(repr(self))}: too large to show inline; save() it.</p>"
        return _frame(page)

    def static_png(self) -> bytes:
        """The overview picture a notebook or a Markdown report shows (PNG): the groups and
        the most likely states (:func:`gamegraph.renderers.static.explorer_image`).
        """
        from .static import explorer_image, png

        opening = self.data.policies.index(self.policy) if self.policy is not None else 0
        return png(explorer_image(self.data, policy=opening))

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs) -> dict:
        """What a notebook shows (IPython prefers this to :meth:`_repr_html_`).

        ``text/html``: the page in an iframe (up to :data:`INLINE_BYTES`) under a static
        overview that a script removes once the page has drawn (``data-rendered`` with no
        ``data-errors``), so readers that run no scripts (GitHub, nbviewer) still see a
        picture; ``image/png``: that overview, of the policy the page opens on
        (:func:`gamegraph.renderers.static.explorer_image`); ``text/plain``.
        """
        from .static import explorer_image, png

        opening = self.data.policies.index(self.policy) if self.policy is not None else 0

        picture = base64.b64encode(png(explorer_image(self.data, policy=opening))).decode("ascii")
        name = f"gg-explorer-{uuid.uuid4().hex[:12]}"
        still = (
            f'<img id="{name}" src="data:image/png;base64,{picture}" '
            f'alt="{html.escape(repr(self), quote=True)}" style="max-width:100%">'
        )
        page = self.html()
        if len(page) > INLINE_BYTES:
            shown = (
                f"{still}<p>{html_text(repr(self))}: too large to show inline; "
                "save() it and open the page.</p>"
            )
        else:
            frame = _frame(page, name=f"{name}-frame")
            shown = still + frame + _UNVEIL.replace("NAME", name)
        bundle = {"text/html": shown, "image/png": picture, "text/plain": repr(self)}
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle

    def __repr__(self) -> str:
        return f"<ExplorerPage {self.title!r}: {self.data!r}>"


#: Removes the static overview once the page in the iframe has drawn without errors.
_UNVEIL = (
    "<script>(function () { var tries = 0; (function look() {"
    " var frame = document.getElementById('NAME-frame'), body = null;"
    " try { body = frame.contentDocument.body; } catch (e) { return; }"
    " if (body && body.dataset.rendered === 'yes' && !body.dataset.errors) {"
    " var still = document.getElementById('NAME'); if (still) { still.remove(); } return; }"
    " if (++tries < 120) { setTimeout(look, 250); } }()); }());</script>"
)


def _frame(page: str, *, name: str | None = None) -> str:
    """The page in an iframe (``srcdoc``; its script keeps no address there)."""
    named = f' id="{name}"' if name else ""
    return (
        f'<iframe{named} style="width:100%;height:900px;border:0" '
        f'srcdoc="{html.escape(page, quote=True)}"></iframe>'
    )


def explore_figure(data, *, title: str | None = None, policy: str | None = None) -> ExplorerPage:
    """The explorer page of ``data`` (an :class:`~gamegraph.analysis.explore.Exploration`).

    ``policy`` names the policy the page opens on (one of ``data.policies``; default the
    first, ``optimal``); it travels in the page's metadata as ``openPolicy``.

    Examples
    --------
    >>> from gamegraph import build
    >>> from gamegraph.analysis import explore_graph
    >>> from gamegraph.games.jackpot import Jackpot, AGENTS
    >>> page = explore_figure(explore_graph(build(Jackpot(cells=3)), policies=AGENTS))
    >>> page
    <ExplorerPage 'jackpot': Exploration('jackpot': 8 states in 4 groups, policies optimal, ...)>
    >>> text = page.html()
    >>> 'id="gg-data"' in text and "<script src" not in text  # nothing fetched
    True
    """
    return ExplorerPage(data, title, policy)


# ---------------------------------------------------------------------------
# The data block
# ---------------------------------------------------------------------------
def encode(data) -> tuple[dict, str]:
    """The page's metadata (JSON-ready) and its arrays (gzip, then base64).

    Counts are sent instead of running offsets (they compress far better); the page adds
    them up again. Each array is padded to 8 bytes so the page can view it in place.
    """
    p = len(data.policies)
    objective = getattr(data, "objective", "win")
    reward = getattr(data, "option_reward", None)
    shown = [visible(label) for label in data.labels]  # control characters as escapes
    labels = "".join(shown)
    arrays = {
        "layer": data.layers,
        "order": data.y,
        "terminal": data.terminal,
        "values": data.values.astype(np.float32),
        "reach": data.reach.astype(np.float32).ravel(),
        "parent": data.path_parent.ravel(),
        "throwCount": np.diff(data.outcome_ptr),
        "weight": data.outcome_weight.astype(np.float64),
        "optionCount": np.diff(data.option_ptr),
        "target": data.option_target,
        "move": data.option_move,
        "passes": data.option_passes,
        "outside": data.outside_value.astype(np.float32),
        "choice": data.choice.ravel(),
        **({} if reward is None else {"reward": np.asarray(reward, dtype=np.float64)}),
        "group": data.group,
        # Offsets in UTF-16 code units: what JavaScript strings count.
        "labelLength": np.array([len(s.encode("utf-16-le")) // 2 for s in shown]),
    }
    parts, index, offset = [], [], 0
    for name, array in arrays.items():
        array = _compact(np.ascontiguousarray(array))
        raw = array.tobytes()
        index.append(
            {"name": name, "type": array.dtype.str[1:], "offset": offset, "length": len(array)}
        )
        parts.append(raw + b"\0" * (-len(raw) % 8))
        offset += len(parts[-1])
    text = labels.encode("utf-8")
    index.append({"name": "labels", "type": "text", "offset": offset, "length": len(text)})
    parts.append(text)
    blob = gzip.compress(b"".join(parts), compresslevel=6, mtime=0)
    meta = {
        "name": visible(data.name),
        "n": data.n_states,
        "totalStates": data.total_states,
        "minReach": data.min_reach,
        "start": data.start,
        "denominator": data.denominator,
        "policies": [visible(name) for name in data.policies],
        "wins": [float(w) for w in data.wins],
        "moveLabels": [visible(name) for name in data.move_labels],
        "throwLabels": data.throw_labels and [visible(name) for name in data.throw_labels],
        "drawing": data.drawing,
        "groupNames": [visible(name) for name in data.group_names],
        "groupStates": data.group_states.tolist(),
        "groupValue": np.round(data.group_value, 6).tolist(),
        "groupReach": _rounded(data.group_reach, p),
        "groupEnds": _rounded(data.group_ends, p),
        "groupGiven": _rounded(data.group_given, p),
        "objective": objective,
        "valueName": visible(getattr(data, "value_name", "win probability")),
        "valueScale": _scale(objective, data.values, data.outside_value),
        "arrays": index,
    }
    return meta, base64.b64encode(blob).decode("ascii")


def decode(page: str) -> tuple[dict, dict]:
    """The metadata and arrays a page carries (:func:`encode`'s inverse, for tests and tools).

    Counts come back as they were sent (``throwCount``, ``optionCount``, ``labelLength``);
    ``labels`` is the list of labels.

    >>> from gamegraph import build
    >>> from gamegraph.analysis import explore_graph
    >>> from gamegraph.games.jackpot import Jackpot
    >>> data = explore_graph(build(Jackpot(cells=3)))
    >>> meta, arrays = decode(explore_figure(data).html())
    >>> meta["policies"], arrays["labels"] == data.labels, arrays["reach"].dtype
    (['optimal'], True, dtype('float32'))
    """
    import re

    def element(name):
        found = re.search(rf'<script type="[^"]+" id="gg-{name}">([^<]*)</script>', page)
        if found is None:
            raise ValueError(f"not an explorer page: no gg-{name} block")
        return found.group(1)

    meta = json.loads(element("meta"))
    blob = gzip.decompress(base64.b64decode(element("data")))
    arrays = {}
    for entry in meta["arrays"]:
        text_block = entry["type"] == "text"
        size = entry["length"] * (1 if text_block else np.dtype(entry["type"]).itemsize)
        raw = blob[entry["offset"] : entry["offset"] + size]
        if text_block:
            text = raw.decode("utf-8")
        else:
            arrays[entry["name"]] = np.frombuffer(raw, dtype="<" + entry["type"])
    lengths = np.concatenate([[0], np.cumsum(arrays["labelLength"])]).astype(int)
    units = text.encode("utf-16-le")
    arrays["labels"] = [
        units[2 * a : 2 * b].decode("utf-16-le") for a, b in zip(lengths[:-1], lengths[1:])
    ]
    return meta, arrays


def _compact(array: np.ndarray) -> np.ndarray:
    """Integers in the smallest type that holds them (little-endian); floats as they are."""
    if array.dtype == bool:
        return array.astype(np.uint8)
    if array.dtype.kind in "iu":
        low, high = (int(array.min()), int(array.max())) if len(array) else (0, 0)
        for kind in (np.int8, np.int16, np.int32):
            info = np.iinfo(kind)
            if info.min <= low and high <= info.max:
                return array.astype(kind)
        return array.astype(np.float64)  # exact below 2**53; JavaScript has no int64 view
    return array.astype(array.dtype.newbyteorder("<"))


def _scale(objective, values, outside) -> dict:
    """The value colour scale (:func:`._colours.value_scale`) over every value on the page."""
    every = np.concatenate([np.asarray(values, float), np.asarray(outside, float)])
    scale = value_scale(objective, every)
    return {
        "colorscale": scale["colorscale"],
        "cmin": float(f"{scale['cmin']:.6g}"),
        "cmax": float(f"{scale['cmax']:.6g}"),
        "diverging": scale["diverging"],
    }


def _rounded(table, p) -> list:
    return [[float(f"{v:.6g}") for v in row] for row in np.asarray(table).reshape(p, -1)]


def _json(meta: dict) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>`` or ``<!--`` can form."""
    text = json.dumps(meta, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")
