"""Text from games, agents and callers, made inert for each output it goes into.

Labels, policy names, titles and report text come from outside the library, so none of
them may become markup, a link or a script in what gamegraph writes. One function per
target:

:func:`visible`
    control characters (NUL, ESC, DEL, C1, line separators, lone surrogates) as escapes
    such as ``\\x00``: shown, never silently dropped by a browser or Graphviz;
:func:`html_text`
    text and attribute values in HTML and SVG (also plotly's text and Graphviz's
    HTML-like labels);
:func:`safe_url`
    a link target: http(s) or relative, else refused;
:func:`markdown_text`
    Markdown headings, paragraphs and table cells: no raw HTML, link or block from data;
:func:`dot_text`
    a Graphviz DOT string (a label or a tooltip), never an HTML-like label.

Examples
--------
>>> html_text('<img src=x onerror="alert(1)">')
'&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
>>> safe_url("\\x01java\\tscript:alert(1)") is None, safe_url("report_files/a b.png")
(True, 'report_files/a%20b.png')
>>> markdown_text("<b>x</b> | y")
'\\\\<b\\\\>x\\\\</b\\\\> \\\\| y'
>>> print(dot_text("<start>\\x00"))
&lt;start&gt;\\\\x00
"""

from __future__ import annotations

import html
import re
import urllib.parse

# C0 and C1 controls, DEL, the Unicode line and paragraph separators, and lone
# surrogates (a file name that is not UTF-8): none of them displays as itself.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_WHITESPACE = "\t\n\r"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_LINK_SCHEMES = ("http", "https")
# What a URL may keep as it is; everything else is percent-encoded, so that a target
# cannot close a Markdown link, an attribute or a tag.
_URL_SAFE = "/:?#[]@!$&'*+,;=%-._~"
# Characters with a meaning in inline Markdown, and a '&' that starts an entity.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~]|&(?=#?\w+;))")
# A paragraph that would start a list, a thematic break or a setext underline.
_MARKDOWN_BLOCK = re.compile(r"^(\d{1,9})([.)])(?=\s|$)|^([-+=])(?=[-=\s]|$)")


def visible(text: str, keep: str = "") -> str:
    """``text`` with each control character written as its Python escape (``\\x1b``),
    except those in ``keep``.

    >>> visible("a\\x00b\\x1b[0m\\tc\\udcff", keep="\\t")
    'a\\\\x00b\\\\x1b[0m\\tc\\\\udcff'
    """
    return _CONTROL.sub(lambda m: m.group(0) if m.group(0) in keep else _escaped(m.group(0)), text)


def _escaped(character: str) -> str:
    return repr(character)[1:-1]


def html_text(text) -> str:
    """``text`` for HTML or SVG, in an element or a quoted attribute: ``& < > " '`` as
    entities, control characters visible (tabs and line breaks stay whitespace).

    >>> html_text("\\"><svg onload=alert(1)>\\x00")
    '&quot;&gt;&lt;svg onload=alert(1)&gt;\\\\x00'
    """
    return html.escape(visible(str(text), keep=_WHITESPACE), quote=True)


def safe_url(url) -> str | None:
    """``url`` if it is an http(s) or relative link, percent-encoded where needed; None
    for any other scheme (``javascript:``, ``data:``, ``vbscript:``, ``file:``, ...).

    The scheme is judged as a browser or a Markdown renderer would read it: control
    characters and spaces removed everywhere (browsers strip them at the ends and drop
    tabs and line breaks inside), HTML entities decoded (``&#106;avascript:``) and
    backslash escapes removed (``java\\script:``). What is returned has no control
    character, space, quote or bracket that could end the attribute or link around it.

    >>> [safe_url(u) for u in ("JaVaScRiPt:x", "&#106;avascript:x", "data:text/html,x")]
    [None, None, None]
    >>> safe_url(" https://example.org/a?b=1&c=(2) "), safe_url("#fig-1")
    ('https://example.org/a?b=1&c=%282%29', '#fig-1')
    """
    url = str(url)
    cleaned = _CONTROL.sub("", url).strip(" ")
    for seen in (cleaned, html.unescape(cleaned).replace("\\", "")):
        scheme = _SCHEME.match(re.sub(r"[\x00-\x20\x7f-\x9f]", "", seen))
        if scheme and scheme.group(1).lower() not in _LINK_SCHEMES:
            return None
    return urllib.parse.quote(cleaned, safe=_URL_SAFE, errors="backslashreplace")


def markdown_text(text) -> str:
    """``text`` for a Markdown heading, paragraph or table cell: every character with a
    meaning in inline Markdown backslash-escaped (so no raw HTML, link, image or
    emphasis), line breaks and tabs as spaces (a cell or heading stays on its line),
    control characters visible, and no list, rule or underline at the start. A
    paragraph's leading spaces are the caller's to strip: four would make it code.

    >>> markdown_text("- [x](javascript:alert(1))\\n# not a heading")
    '\\\\- \\\\[x\\\\](javascript:alert(1)) \\\\# not a heading'
    """
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", one_line(text))
    return _MARKDOWN_BLOCK.sub(_escape_block, text)


def _escape_block(match) -> str:
    number, mark, sign = match.groups()
    return f"{number}\\{mark}" if number else f"\\{sign}"


def one_line(text) -> str:
    """``text`` on one line: tabs and line breaks as spaces, other controls visible.

    >>> one_line("a\\tb\\r\\nc\\x00")
    'a b  c\\\\x00'
    """
    return re.sub(f"[{_WHITESPACE}]", " ", visible(str(text), keep=_WHITESPACE))


def dot_text(text, *, tooltip: bool = False) -> str:
    """``text`` as the content of a Graphviz DOT string: a label (or with ``tooltip``, a
    tooltip), drawn exactly as given.

    ``& < > "`` become entities (Graphviz decodes them in labels and tooltips), so the
    string can never be taken for an HTML-like label ``<...>``; backslashes are doubled
    (a tooltip's twice over: Graphviz reads escapes in tooltips twice), so ``\\N`` is not
    the node's name; control characters are visible; a line break in a label stays one
    (Graphviz starts a new line there), in a tooltip it is a space.

    >>> print(dot_text('<b>x</b> "q" \\\\N\\nline 2'))
    &lt;b&gt;x&lt;/b&gt; &quot;q&quot; \\\\N
    line 2
    >>> print(dot_text("\\\\N\\n\\x1b", tooltip=True))
    \\\\\\\\N \\\\\\\\x1b
    """
    text = html.escape(visible(str(text), keep="\n"), quote=False).replace('"', "&quot;")
    if tooltip:
        return text.replace("\\", "\\\\\\\\").replace("\n", " ")
    return text.replace("\\", "\\\\")
