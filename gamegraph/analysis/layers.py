"""Where games go, layer by layer: the layer summary of a layered one-player game.

A game is *layered* when its rules give every state a layer (``Rules.layer``) and every
move goes to a higher layer, as in Jackpot, where the layer is the number of cells
flipped (0 to 9). A game then passes through each layer at most once, so under a policy
the reach probabilities of a layer's states (from :func:`gamegraph.propagate.propagate`)
add up to the probability of reaching that layer, and the game ends in exactly one
layer: stuck there (lost), or at a terminal state (won with the terminal's value).

:func:`layer_summary` gives, per policy and per layer,

- ``positions``: how many of the layer's positions the policy can reach (reach > 0);
- ``reach``: the probability of reaching the layer;
- ``lost``: the probability that the game is lost in the layer (the mover has no option,
  :meth:`~gamegraph.propagate.Propagation.stuck_by_layer`, or a terminal worth less
  than 1);
- ``won``: the probability that the game is won in the layer (a terminal state, weighted
  by its value: Jackpot's full board, layer 9).

For every policy ``sum(lost) + sum(won) == 1``, and ``sum(won)`` is the policy's win
probability (the start value of :func:`gamegraph.solve.evaluate`).

Games are won and lost only under the ``win`` objective: a score or margin game is
refused, with a pointer to what measures it (its value under a policy from
:func:`gamegraph.solve.evaluate`, where its games go from
:func:`gamegraph.propagate.propagate`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import InvalidArgumentError, UnknownNameError
from ..graph import StateGraph
from ..propagate import propagate
from ..tables import Table, json_number
from ..values import objective_of, value_name
from .policies import as_policies


def _percent(value) -> str:
    return f"{100 * float(value):.4f} %"


@dataclass(frozen=True, eq=False)
class LayerSummary:
    """Positions reached, reach probability and where the game ends, per policy and layer.

    Attributes
    ----------
    game : str
        The rules' name.
    layer_name : str
        What a layer counts (axis labels and table titles): ``"cells flipped"`` for Jackpot.
    counts : tuple of int
        Positions in each layer of the graph (``graph.layer_counts()``).
    playing : tuple of bool
        Layers holding at least one non-terminal position (where a game can be lost).
    policies : tuple of str
        Policy names, in the order given.
    positions, reach, lost, won : dict
        Policy name -> a tuple with one entry per layer (see the module docstring).
        Probabilities are ``Fraction`` when ``exact``, else floats.
    exact : bool
    """

    game: str
    layer_name: str
    counts: tuple
    playing: tuple
    policies: tuple
    positions: dict
    reach: dict
    lost: dict
    won: dict
    exact: bool

    @property
    def layers(self) -> range:
        """The layer numbers, 0 first."""
        return range(len(self.counts))

    def win(self, policy: str):
        """The policy's win probability: ``won`` summed over the layers."""
        return sum(self.won[self._name(policy)], Fraction(0) if self.exact else 0.0)

    def lost_share(self, policy: str) -> tuple:
        """Of the games that reach each layer, the share lost there (0 where none reach it)."""
        name = self._name(policy)
        return tuple(
            lost / reach if reach else 0 * lost
            for lost, reach in zip(self.lost[name], self.reach[name])
        )

    def table(self, policy: str | None = None) -> Table:
        """One row per policy and layer: positions reached, reach, lost and won.

        ``policy`` keeps one policy's rows only.
        """
        names = self.policies if policy is None else (self._name(policy),)
        rows = []
        for name in names:
            for layer in self.layers:
                rows.append(
                    (
                        name,
                        layer,
                        self.positions[name][layer],
                        self.counts[layer],
                        self.reach[name][layer],
                        self.lost[name][layer],
                        self.won[name][layer],
                    )
                )
        notes = tuple(f"{name}: wins {_percent(self.win(name))}" for name in names)
        return Table(
            ("policy", self.layer_name, "positions", "of", "reach", "lost", "won"),
            rows,
            title=f"{self.game}: where games go, by {self.layer_name}",
            notes=notes,
            formats={name: _percent for name in ("reach", "lost", "won")},
        )

    def to_pandas(self):
        """:meth:`table` as a ``pandas.DataFrame`` of the raw values (the ``pandas`` extra)."""
        return self.table().to_pandas()

    def as_dict(self) -> dict:
        """Plain JSON-ready data: fractions as ``"p/q"`` strings when exact, else floats."""
        return {
            "game": self.game,
            "layer_name": self.layer_name,
            "layer_counts": list(self.counts),
            "policies": {
                name: {
                    "win": json_number(self.win(name)),
                    "positions": list(self.positions[name]),
                    "reach": [json_number(v) for v in self.reach[name]],
                    "lost": [json_number(v) for v in self.lost[name]],
                    "won": [json_number(v) for v in self.won[name]],
                }
                for name in self.policies
            },
        }

    def __repr__(self) -> str:
        wins = ", ".join(f"{name} {_percent(self.win(name))}" for name in self.policies)
        return (
            f"<LayerSummary {self.game!r}: {len(self.counts)} layers ({self.layer_name}), "
            f"{len(self.policies)} {'policy' if len(self.policies) == 1 else 'policies'}; "
            f"wins: {wins}>"
        )

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def _name(self, policy) -> str:
        name = getattr(policy, "name", policy)
        if name not in self.positions:
            raise UnknownNameError("policy", name, self.policies)
        return name


def _check_layered(graph: StateGraph) -> np.ndarray:
    layers = graph.layers
    if layers is None:
        raise InvalidArgumentError(
            f"{graph.rules.name} states have no layers (Rules.layer returns None); "
            "layer_summary needs a layered game such as Jackpot"
        )
    if graph.option_passes.any():
        raise InvalidArgumentError(
            f"{graph.rules.name} passes the turn; layer_summary is for one-player games"
        )
    source = graph.outcome_state[graph.option_outcome]
    if (layers[graph.option_target] <= layers[source]).any():
        raise InvalidArgumentError(
            f"in {graph.rules.name} some moves stay in their layer or go back, so a game "
            "can visit a layer more than once; layer_summary needs every move to go to a "
            "higher layer"
        )
    return layers


def _check_win_game(graph: StateGraph) -> None:
    """Refuse a score or margin game: nothing is won or lost there."""
    objective = objective_of(graph)
    if objective != "win":
        raise InvalidArgumentError(
            f"layer_summary counts games won and lost, and {graph.rules.name!r} is valued "
            f"by its {value_name(graph)} (objective {objective!r}): its value under a "
            "policy is gamegraph.evaluate(graph, policy).start_value, and where its games "
            "go, gamegraph.propagate(graph, policy)"
        )


def _by_layer(graph: StateGraph, policy, layers, n_layers: int, exact: bool):
    """One policy's ``(positions, reach, lost, won)`` per layer: the positions it reaches,
    the chance of reaching the layer, of losing there (an end lost, or a throw that offers
    no move) and of winning there.
    """
    zero = Fraction(0) if exact else 0.0
    terminal = np.flatnonzero(graph.terminal)
    if exact:
        values = np.array([Fraction(graph.terminal_exact[i]) for i in terminal], dtype=object)
    else:
        values = graph.terminal_value[terminal].astype(float)
    result = propagate(graph, policy, exact=exact)
    probability = result.reach_probability
    by_layer = [zero] * n_layers
    for i in np.flatnonzero(probability != 0):
        by_layer[layers[i]] += probability[i]
    stuck = list(result.stuck_by_layer())
    stuck += [zero] * (n_layers - len(stuck))
    ended_won, ended_lost = [zero] * n_layers, list(stuck)
    for i, value in zip(terminal, values):
        mass = probability[i]
        ended_won[layers[i]] += mass * value
        ended_lost[layers[i]] += mass * (1 - value)
    positions = tuple(np.bincount(layers[probability != 0], minlength=n_layers).tolist())
    return (
        positions,
        tuple(by_layer if exact else map(float, by_layer)),
        tuple(ended_lost if exact else map(float, ended_lost)),
        tuple(ended_won if exact else map(float, ended_won)),
    )


def layer_summary(
    graph: StateGraph, policies, *, exact: bool = True, layer_name: str | None = None
) -> LayerSummary:
    """Per policy and layer: positions reached, reach probability, lost and won.

    Parameters
    ----------
    graph : StateGraph
        A layered one-player game: every state has a layer and every move goes to a
        higher one (Jackpot).
    policies : dict, list or one policy argument
        The policies to follow, as :func:`.policies.as_policies` reads them (Policy
        objects, agents, a Solution, names of the game's agents); a list is named by
        each one's own name.
    exact : bool
        Fractions (default) or floats.
    layer_name : str, optional
        What a layer counts, for tables and axes; default ``"cells flipped"`` for
        Jackpot, ``"layer"`` otherwise.

    Returns
    -------
    LayerSummary

    Raises
    ------
    InvalidArgumentError
        A score or margin game (nothing is won or lost there), a game without layers,
        with moves that do not go up a layer, or that passes the turn; no policies, or
        something that is not a Policy.

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> from gamegraph.games.jackpot import AGENTS, Jackpot
    >>> graph = build(Jackpot())
    >>> from gamegraph import Policy
    >>> hilo = Policy.from_agent(graph, AGENTS["hilo"], name="hilo")
    >>> summary = layer_summary(graph, {"hilo": hilo, "optimal": solve(graph).policy})
    >>> summary
    <LayerSummary 'jackpot': 10 layers (cells flipped), 2 policies;
                 wins: hilo 7.9855 %, optimal 7.9987 %>
    >>> summary.win("hilo")
    Fraction(660001525, 8264970432)
    >>> summary.positions["hilo"], summary.counts
    ((1, 9, 36, 84, 126, 126, 84, 36, 9, 1), (1, 9, 36, 84, 126, 126, 84, 36, 9, 1))
    >>> summary.lost["hilo"][:3]
    (Fraction(0, 1), Fraction(1, 324), Fraction(523, 46656))
    >>> sum(summary.lost["optimal"]) + summary.win("optimal")
    Fraction(1, 1)
    >>> print(summary.table("hilo").to_text().splitlines()[3])
    hilo                1         9   9  100.0000 %    0.3086 %    0.0000 %
    """
    _check_win_game(graph)
    layers = _check_layered(graph)
    named = as_policies(graph, policies)
    if not named:
        raise InvalidArgumentError("layer_summary needs at least one policy")
    counts = np.bincount(layers)
    if layer_name is None:
        layer_name = "cells flipped" if graph.rules.name == "jackpot" else "layer"
    playing = np.bincount(layers[~graph.terminal], minlength=len(counts)) > 0

    positions, reach, lost, won = {}, {}, {}, {}
    for name, policy in named.items():
        policy.check(graph)
        positions[name], reach[name], lost[name], won[name] = _by_layer(
            graph, policy, layers, len(counts), exact
        )
    return LayerSummary(
        game=graph.rules.name,
        layer_name=layer_name,
        counts=tuple(counts.tolist()),
        playing=tuple(bool(p) for p in playing),
        policies=tuple(named),
        positions=positions,
        reach=reach,
        lost=lost,
        won=won,
        exact=exact,
    )
