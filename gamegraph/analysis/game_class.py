"""A game by its class, a user's own included: load the class a SPEC names, make the game,
build its graph, and find a state in it by text.

SPEC names a game's rules class as ``package.module:Class`` (imported) or
``path/to/file.py:Class`` (loaded from the file); keyword arguments for its constructor come
as ``(name, value)`` pairs. Loading a module or a file runs its code, as ``python file.py``
would: naming it is the user's choice to run it. Data files (tables, graphs) never run code
(docs/reliability.md, "Security").

The class must be a game: a subclass of :class:`gamegraph.Rules` or
:class:`gamegraph.batch.BatchRules`, or any class whose instances have ``build_graph()``
returning a graph. Every error is a one-line :class:`~gamegraph.errors.InvalidArgumentError`.
``gamegraph explore|report|graph SPEC`` (:mod:`gamegraph.cli.own_game`) is built on these.

Examples
--------
>>> rules, title = load_game("gamegraph.games.pig:Pig", [("goal", 10)])
>>> title, build_game(rules).n_states > 0
('pig to 10', True)
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import sys
from pathlib import Path

from ..batch import BatchRules
from ..build import build
from ..errors import GameGraphError, InvalidArgumentError
from ..graph import StateGraph
from ..rules import Rules


def _keywords(pairs) -> dict:
    keywords = {}
    for name, value in pairs:
        if name in keywords:
            raise InvalidArgumentError(f"--arg {name} is given twice")
        keywords[name] = value
    return keywords


def load_class(spec: str):
    """The class a SPEC names: ``package.module:Class`` or ``path/to/file.py:Class``.

    Importing the module or loading the file runs its code. Errors are one-line
    :class:`InvalidArgumentError` messages: no ``:``, a missing file or module, a missing
    attribute (naming the games the module has), something that is not a game's class.
    """
    where, colon, attribute = spec.rpartition(":")
    if not colon or not where or not attribute:
        raise InvalidArgumentError(
            f"{spec!r}: expected package.module:Class or path/to/file.py:Class"
        )
    is_file = where.endswith(".py") or "/" in where or os.sep in where
    module = _load_file(where) if is_file else _import(where)
    shown = where if is_file else f"module {where}"
    target = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            games = sorted(
                name
                for name, value in vars(module).items()
                if isinstance(value, type)
                and value not in (Rules, BatchRules)
                and _is_game(value, Rules, BatchRules)
            )
            known = f"; its games: {', '.join(games)}" if games else "; it defines no game class"
            raise InvalidArgumentError(f"{shown} has no attribute {attribute!r}{known}")
        target = getattr(target, part)
    if not isinstance(target, type):
        raise InvalidArgumentError(
            f"{spec}: {attribute} is not a class (it is of type {type(target).__name__}); "
            "give the game's rules class"
        )
    if not _is_game(target, Rules, BatchRules):
        raise InvalidArgumentError(
            f"{spec}: {attribute} is not a game: expected a subclass of gamegraph.Rules or "
            "gamegraph.batch.BatchRules (or a class with build_graph())"
        )
    return target


def _is_game(cls, rules, batch) -> bool:
    return issubclass(cls, (rules, batch)) or callable(getattr(cls, "build_graph", None))


def _import(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and (name == error.name or name.startswith(error.name + ".")):
            raise InvalidArgumentError(
                f"no module named {error.name!r} (give package.module:Class, or a path to a "
                ".py file such as ./my_game.py:Game)"
            ) from None
        raise InvalidArgumentError(f"importing {name} failed: {_one_line(error)}") from None
    except Exception as error:  # the module's own code failed; say so in one line
        raise InvalidArgumentError(f"importing {name} failed: {_one_line(error)}") from None


def _load_file(where: str):
    path = Path(where)
    if not path.is_file():
        missing = "no such file" if not path.exists() else "not a file"
        raise InvalidArgumentError(f"{where}: {missing} (SPEC is path/to/file.py:Class)")
    if path.suffix != ".py":
        raise InvalidArgumentError(f"{where}: not a .py file (SPEC is path/to/file.py:Class)")
    name = f"gamegraph_user_{abs(hash(str(path.resolve()))):x}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InvalidArgumentError(f"{where}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look a class's module up here
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)  # as python file.py: the file can import its neighbours
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the file's own code failed; say so in one line
        del sys.modules[name]
        raise InvalidArgumentError(f"loading {where} failed: {_one_line(error)}") from None
    finally:
        sys.path.remove(folder)
    return module


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    if isinstance(error, SyntaxError) and error.lineno:
        text = f"{error.msg} (line {error.lineno})"
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__


def load_game(spec: str, pairs=()):
    """The rules object a SPEC and its ``--arg`` pairs make, and a title for it."""
    cls = load_class(spec)
    keywords = _keywords(pairs)
    call = f"{cls.__name__}({', '.join(f'{k}={v!r}' for k, v in keywords.items())})"
    try:
        rules = cls(**keywords)
    except (TypeError, ValueError) as error:  # InvalidArgumentError is a ValueError too
        raise InvalidArgumentError(f"{call} failed: {_one_line(error)}") from None
    name = getattr(rules, "name", None)
    return rules, name if isinstance(name, str) and name else call


def build_game(rules, progress=None):
    """The game's graph: :func:`gamegraph.build` for rules, else its own ``build_graph()``."""
    if isinstance(rules, (Rules, BatchRules)):
        return build(rules, progress=progress)
    graph = rules.build_graph()
    if not isinstance(graph, StateGraph):
        raise InvalidArgumentError(
            f"{type(rules).__name__}.build_graph() returned {type(graph).__name__}, "
            "not a StateGraph"
        )
    return graph


def find_state(graph: StateGraph, text: str) -> int:
    """A state's number from text: START, #NUMBER, a Python literal of the state, or its
    label as the diagram writes it (the first state with that label).

    >>> from gamegraph.games.pig import Pig
    >>> graph = build(Pig(goal=4))
    >>> find_state(graph, "START") == graph.start, find_state(graph, "#3")
    (True, 3)
    >>> find_state(graph, "#99999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: #99999: the game has states #0 to #...
    """
    text = text.strip()
    if text.upper() == "START":
        return graph.start
    if text.startswith("#") and text[1:].isdigit() and text[1:].isascii():
        number = int(text[1:])
        if number < graph.n_states:
            return number
        raise InvalidArgumentError(f"{text}: the game has states #0 to #{graph.n_states - 1:,}")
    try:
        return graph.state_number(ast.literal_eval(text))
    except (ValueError, TypeError, SyntaxError, KeyError, MemoryError, RecursionError):
        pass
    except GameGraphError:
        pass
    for i in range(graph.n_states):
        if graph.label(i) == text:
            return i
    raise InvalidArgumentError(
        f"{text!r}: no state has that label (give it as the diagram writes it, "
        f"e.g. {graph.label(graph.start)!r}, as #NUMBER, or START)"
    )
