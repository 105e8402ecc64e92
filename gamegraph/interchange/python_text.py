"""Values as Python text: written by :func:`_code`, read back by :func:`_decode` without
running code (a fixed set of literals and calls, NamedTuples only from a given table), and
many at once by :func:`_decode_all`.
"""

from __future__ import annotations

import ast
import json
import math
import re
from fractions import Fraction

import numpy as np

from ..errors import InvalidArgumentError


def _code(value, types: dict) -> str:
    """Python text for ``value``; NamedTuple classes met are recorded in ``types``."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return repr(value)
    if kind is float:
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, np.generic):
        return _code(value.item(), types)
    if kind is Fraction:
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, tuple) and hasattr(kind, "_fields"):
        where = f"{kind.__module__}.{kind.__qualname__}"
        if types.setdefault(kind.__name__, where) != where:
            raise InvalidArgumentError(
                f"two state types are called {kind.__name__} ({types[kind.__name__]} and "
                f"{where}); rename one to write them to one file"
            )
        fields = ", ".join(f"{f}={_code(v, types)}" for f, v in zip(kind._fields, value))
        return f"{kind.__name__}({fields})"
    if kind is tuple:
        items = [_code(v, types) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if kind is list:
        return f"[{', '.join(_code(v, types) for v in value)}]"
    if kind in (set, frozenset):
        items = sorted(_code(v, types) for v in value)
        text = f"{{{', '.join(items)}}}" if items else ""
        return f"{kind.__name__}({text})"
    if kind is dict:
        items = (f"{_code(k, types)}: {_code(v, types)}" for k, v in value.items())
        return f"{{{', '.join(items)}}}"
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise InvalidArgumentError(
        f"cannot write {shown} (a {kind.__name__}) to a file; accepted: None, bool, int, "
        "float, str, Fraction, and tuples, NamedTuples, lists, sets, frozensets and dicts "
        "of them"
    )


def _decode(text: str, types: dict):
    """Read text written by :func:`_code`; ``types`` maps NamedTuple names to classes."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not text")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except MemoryError:  # the parser's stack overflows on deep nesting ("-" * 6000 + "1")
        raise ValueError("nested too deeply") from None
    return _literal(tree.body, types)


def _literal(node, types):
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes | complex):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _literal(node.operand, types)
        if isinstance(operand, bool) or not isinstance(operand, int | float):
            raise ValueError("a sign before something that is not a number")
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Tuple):
        return tuple(_literal(e, types) for e in node.elts)
    if isinstance(node, ast.List):
        return [_literal(e, types) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_literal(e, types) for e in node.elts}
    if isinstance(node, ast.Dict):
        if None in node.keys:
            raise ValueError("** in a dict")
        return {_literal(k, types): _literal(v, types) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        args = [_literal(a, types) for a in node.args]
        keywords = {k.arg: _literal(k.value, types) for k in node.keywords if k.arg}
        if len(keywords) != len(node.keywords):
            raise ValueError("** in a call")
        if name == "Fraction" and len(args) == 2 and not keywords:
            if all(type(a) is int for a in args):
                return Fraction(*args)
        elif name in ("set", "frozenset") and len(args) <= 1 and not keywords:
            return {"set": set, "frozenset": frozenset}[name](*args)
        elif name == "float" and len(args) == 1 and isinstance(args[0], str) and not keywords:
            if args[0].lower() in ("nan", "inf", "-inf"):
                return float(args[0])
        elif name in types:
            return types[name](*args, **keywords)
        else:
            raise ValueError(f"unknown type {name}")
    raise ValueError(f"unexpected {ast.unparse(node)[:40]!r}")


_UNREAD = object()


def _decode_all(texts: list, types: dict) -> list:
    """Decode many texts in one parse (one parse per text costs more than the parsing).

    Texts that :func:`_code` would not write back the same (a hand-edited file) come out
    as ``_UNREAD``, and the caller decodes those one by one.
    """
    joined = f"[{','.join(texts)}]"
    values = _decode_as_json(joined, types)
    if values is None:
        try:
            values = _decode(joined, types)
        except (ValueError, TypeError, SyntaxError, ZeroDivisionError, RecursionError):
            return [_UNREAD] * len(texts)
    if len(values) != len(texts):
        return [_UNREAD] * len(texts)
    written: dict = {}
    try:
        return [v if _code(v, written) == t else _UNREAD for v, t in zip(values, texts)]
    except InvalidArgumentError:
        return [_UNREAD] * len(texts)


#: Python text _decode_as_json can turn into JSON: no sets, dicts or quotes in strings.
_JSON_READY = re.compile(r"""(?:[\w ,()\[\].+=-]|'[\w .+/-]*')*""")
_QUOTED = re.compile(r"'([\w .+/-]*)'")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")
_TUPLE = re.compile(r"(?<![\w\"])\(")
_FIELD = re.compile(r"\b[A-Za-z_]\w*=")
_CONSTANTS = re.compile(r"\b(None|True|False)\b")
_JSON_CONSTANTS = {"None": "null", "True": "true", "False": "false"}


def _decode_as_json(text: str, types: dict):
    """Decode Python text of tuples, NamedTuples, lists, numbers and plain strings by
    rewriting it as JSON (many times faster than parsing it); None if it does not fit.

    Tuples become ``["(", ...]`` and calls ``["(Name", ...]`` (no string can hold a
    parenthesis here), then :func:`_from_json` builds the values. The caller checks every
    value against its text with :func:`_code`, so a rewrite that went wrong is caught.
    """
    if not _JSON_READY.fullmatch(text):
        return None
    text = _QUOTED.sub(r'"\1"', text)
    text = _TUPLE.sub('["(",', _CALL.sub(r'["(\1",', text))
    text = _FIELD.sub("", text).replace(",)", ")").replace(")", "]")
    text = _CONSTANTS.sub(lambda m: _JSON_CONSTANTS[m.group(1)], text)
    try:
        return _from_json(json.loads(text), types)
    except (ValueError, TypeError, KeyError, RecursionError, ZeroDivisionError):
        return None


def _from_json(value, types: dict):
    if type(value) is not list:
        return value
    items = [_from_json(v, types) for v in value]
    head = items[0] if items else None
    if type(head) is str and head.startswith("("):
        if head == "(":
            return tuple(items[1:])
        name = head[1:]
        if name == "Fraction":
            return Fraction(*items[1:])
        return types[name](*items[1:])
    return items
