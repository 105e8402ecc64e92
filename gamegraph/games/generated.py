"""A generated layered game of any size, for trying the tools at scale.

:class:`LayeredGame` is not a game anyone plays: it is a graph with the shape of one, as
large as asked. A state is a place ``(layer, position)``; each turn a fair coin is thrown
and either side offers two moves to places in the next layer, spread by fixed
multipliers so that layers fill up after a few steps. The last layer ends the game, won
at every third position. It is written in batch form (:class:`~gamegraph.batch.BatchRules`),
so a million states build in about a second.

Examples
--------
>>> from gamegraph import build, solve
>>> graph = build(LayeredGame(layers=4, width=10))
>>> graph.n_states, graph.layer_counts()
(14, [1, 3, 5, 5])
>>> round(float(solve(graph).start_value), 4)
0.75
"""

from __future__ import annotations

import numpy as np

from .._checks import check_int
from ..batch import BatchRules, Expansion

__all__ = ["LayeredGame"]


class LayeredGame(BatchRules):
    """``layers`` layers of up to ``width`` places each (see the module docstring)."""

    name = "layered"

    def __init__(self, layers: int = 1_000, width: int = 1_000):
        check_int(layers, "layers", low=2)
        check_int(width, "width", low=1)
        self.layers, self.width = layers, width
        self.code_bound = layers * width

    def start(self) -> int:
        return 0

    def terminal_values(self, codes: np.ndarray) -> np.ndarray:
        layer, place = np.divmod(codes, self.width)
        return np.where(layer == self.layers - 1, (place % 3 == 0).astype(float), np.nan)

    def expand(self, codes: np.ndarray) -> Expansion:
        m = len(codes)
        layer, place = np.divmod(codes, self.width)
        following = (layer + 1) * self.width
        targets = [
            following + (place + step) % self.width
            for step in (1, 6 * place + 3, 12 * place + 5, self.width // 2)
        ]
        return Expansion(
            outcome_state=np.repeat(np.arange(m), 2),
            outcome_weight=np.ones(2 * m),
            denominator=2,
            option_outcome=np.repeat(np.arange(2 * m), 2),
            option_target=np.stack(targets, axis=1).ravel(),
            option_move=np.tile([0, 1, 0, 1], m),
            option_passes=np.zeros(4 * m, dtype=bool),
        )

    def layer(self, state) -> int:
        return int(state) // self.width

    def layer_name(self, layer: int) -> str:
        return f"layer {layer}"

    def label(self, state) -> str:
        layer, place = divmod(int(state), self.width)
        return f"{layer}:{place}"

    def move_label(self, move: int) -> str:
        return "left" if move == 0 else "right"
