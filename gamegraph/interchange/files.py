"""Reading a graph file's bytes, and checking what networkx made of another program's file:
every failure is one line naming the file.
"""

from __future__ import annotations

import os

import networkx as nx

from ..errors import InvalidArgumentError


def _first_line(error) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _read_bytes(path) -> tuple[bytes, str]:
    try:
        raw = os.fspath(path)
    except TypeError:
        raise InvalidArgumentError(
            f"a path must be a str or os.PathLike, not {type(path).__name__}"
        ) from None
    source = os.fsdecode(raw)
    try:
        with open(raw, "rb") as stream:
            return stream.read(), source
    except FileNotFoundError:
        raise InvalidArgumentError(f"cannot read {source}: no such file") from None
    except IsADirectoryError:
        raise InvalidArgumentError(f"cannot read {source}: it is a folder") from None
    except (OSError, ValueError) as e:
        raise InvalidArgumentError(f"cannot read {source}: {_first_line(e)}") from None


def _directed(g, source: str) -> nx.DiGraph:
    if not g.is_directed():
        raise InvalidArgumentError(f"{source} holds an undirected graph; gamegraph reads DiGraphs")
    if g.is_multigraph():
        if g.number_of_edges() != nx.DiGraph(g).number_of_edges():
            raise InvalidArgumentError(
                f"{source} holds parallel edges; gamegraph reads DiGraphs (one edge per pair)"
            )
        g = nx.DiGraph(g)
    return g
