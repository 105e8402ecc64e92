"""Reading back the DOT text that gamegraph.renderers.dot writes, for the tests that check it."""

from __future__ import annotations

import re

_ATTRIBUTE = re.compile(r'(\w+)=("[^"]*"|[^\s\]]+)')
_NODE = re.compile(r'^[ \t]*([^\s\[]+) \[(label=(?:"[^"]*"|[^\s\]]+)[^\n]*)\]$', re.M)
_EDGE = re.compile(r"^[ \t]*(\S+) -> (\S+)(?: \[(.*)\])?$", re.M)


def attributes(text):
    return {k: v.strip('"') for k, v in _ATTRIBUTE.findall(text or "")}


def parse_dot(source):
    """({node id: attributes}, [(source id, target id, attributes)]) of chain_dot output.

    Only a quoted label may span lines (the reach probability is a second line). ``source``
    is DOT text or a Diagram.
    """
    source = str(source)
    nodes = {m.group(1): attributes(m.group(2)) for m in _NODE.finditer(source)}
    edges = [(m.group(1), m.group(2), attributes(m.group(3))) for m in _EDGE.finditer(source)]
    return nodes, edges


def board(label, full=511):
    """The Jackpot board index a node label shows (its first line; START and WIN by name).

    Labels list the cells still open ("2 5 7"); a node's ``tooltip`` is its board index.
    """
    first = label.split("\n")[0]
    if first in ("START", "WIN"):
        return {"START": 0, "WIN": full}[first]
    return full ^ sum(1 << (int(c) - 1) for c in first.split())
