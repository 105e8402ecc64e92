"""A small reader of the text sizes a PDF prints: enough for the PDFs Graphviz (cairo) writes.

No PDF library is needed: the page streams are inflated, and the operators that set the size
of text (``cm`` with ``q``/``Q``, ``Tm``, ``Tf``) are followed to the points each text object
prints at.
"""

from __future__ import annotations

import math
import re
import zlib

_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)
_TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|\[|\]|/[^\s/\[\]()<>]+|[^\s/\[\]()<>]+")
_MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)")


def _multiply(a, b):
    """Product of two PDF matrices [a b c d e f] (a applied first)."""
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def page_width(data: bytes) -> float:
    """The first page's width in points."""
    found = _MEDIA_BOX.search(data)
    return float(found.group(3)) - float(found.group(1))


def text_sizes(data: bytes) -> list[float]:
    """The size in points of every text-showing operation of the PDF's content streams."""
    sizes = []
    for match in _STREAM.finditer(data):
        try:
            content = zlib.decompress(match.group(1))
        except zlib.error:
            continue
        if b"Tf" not in content:
            continue
        ctm, stack, tm, font, operands = [1, 0, 0, 1, 0, 0], [], [1, 0, 0, 1, 0, 0], 0.0, []
        for token in _TOKEN.findall(content):
            if token == b"q":
                stack.append(ctm)
            elif token == b"Q":
                ctm = stack.pop() if stack else ctm
            elif token == b"cm":
                ctm = _multiply([float(x) for x in operands[-6:]], ctm)
            elif token == b"BT":
                tm = [1, 0, 0, 1, 0, 0]
            elif token == b"Tm":
                tm = [float(x) for x in operands[-6:]]
            elif token == b"Tf":
                font = float(operands[-1])
            elif token in (b"Tj", b"TJ", b"'", b'"'):
                m = _multiply(tm, ctm)
                sizes.append(abs(font) * math.sqrt(abs(m[0] * m[3] - m[1] * m[2])))
            if re.fullmatch(rb"[A-Za-z'\"*]+", token) and token not in (b"[", b"]"):
                operands = []
            else:
                operands.append(token)
        # Operand lists of TJ arrays are dropped with the operator above.
    return sizes
