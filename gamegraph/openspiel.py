"""Build a :class:`~gamegraph.graph.StateGraph` from an OpenSpiel game.

`OpenSpiel <https://github.com/google-deepmind/open_spiel>`_ (``pyspiel``) holds dozens of
games as C++ state machines. :func:`from_openspiel` walks one of them and writes the
states it reaches as gamegraph rules, so that any turn-based game with chance nodes and
perfect information gets the whole toolkit: solve, evaluate, propagate, draw. It needs
the ``openspiel`` extra (``pip install "gamegraph[openspiel]"``).

The mapping, to gamegraph's conventions (:mod:`gamegraph.values`). A game that pays only
at the end becomes a ``"win"`` game (a state's value is the probability that the player to
move wins; an option that passes the turn is worth ``1 - v``); a game that pays rewards
along the way becomes a ``"score"`` game if it has one player and a ``"margin"`` game if
it has two whose rewards are zero-sum (see *Rewards along the way* below):

* a **decision node** becomes a :func:`~gamegraph.rules.decision` state: one certain
  outcome whose options are the legal actions, in OpenSpiel's order (``move`` is the
  action id, its label OpenSpiel's ``action_to_string``);
* a **chance node** becomes a :func:`~gamegraph.rules.throw` state: one outcome per chance
  outcome, each with one option, the probability made an exact Fraction (``move`` is
  ``game.num_distinct_actions()`` plus the outcome id, so that its label stays apart
  from the players' actions). It belongs to the player who moved into it (player 0 at
  the root);
* a **terminal node** belongs to the player who made the last move into it; its
  utility ``u`` for that player, in ``[min_utility, max_utility]``, becomes the win
  probability ``(u - min) / (max - min)``;
* an option passes the turn when the node it leads to belongs to another player.

Rewards along the way
---------------------
A game whose reward model is ``REWARDS`` (OpenSpiel's ``state.rewards()`` after each
transition, summing to ``state.returns()``) keeps its rewards on the options: the option
from node ``s`` to child ``c`` carries ``c.rewards()[p]``, where ``p`` is the player ``s``
belongs to (the nearest fraction with a denominator of at most :data:`MAX_DENOMINATOR`
when that rounds to the same float, so 0.1 is 1/10; else the float's exact value), and a
terminal node is worth 0 more. A state's value is then the expected total
of the rewards still to come for the player it belongs to: with one player the graph's
objective is ``"score"``; with two, whose utility must be zero-sum (each transition's
rewards sum to 0, which is checked), ``"margin"``. :func:`openspiel_values` adds the
returns already collected at the node standing for a key, which gives player 0's
expected final return, what OpenSpiel's ``value_iteration`` computes; that one reads the
returns at terminal nodes only, so the two agree where the state string determines the
returns (a game that shows its scores), and ours is the one that counts every reward
where it does not.

States are keyed as OpenSpiel's own ``get_all_states(to_string=str)`` and
``value_iteration`` key them: a decision or terminal node by its ``str(state)`` (the
graph's state is that very string, so value dictionaries compare directly), a chance
node by :class:`ChanceNode` ``(str(state))``. Nodes with the same string are one state;
where the string leaves something out (Pig's move counter, which only its ``horizon``
reads) the first node met in OpenSpiel's depth-first order stands for all of them, as
it does in OpenSpiel's value iteration. :func:`openspiel_values` maps a solution back to
OpenSpiel's scale: the value for player 0, in utilities.

Examples
--------
The examples need the ``openspiel`` extra, so the doctests skip them;
tests/test_openspiel.py checks the same figures.

>>> from gamegraph import solve
>>> graph = from_openspiel("pig(winscore=10,horizon=20)")  # doctest: +SKIP
>>> graph.n_states, graph.label(0)  # doctest: +SKIP
(2412, 'Scores: 0 0, Turn total: 0 / Current player: 0')
>>> solution = solve(graph, exact=True)  # doctest: +SKIP
>>> solution.start_value  # the natural-form Pig(goal=10) gives the same  # doctest: +SKIP
Fraction(7776, 10961)
>>> openspiel_value(solution, graph.states[0])  # player 0's utility in [-1, 1]  # doctest: +SKIP
0.41884864519660625
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from ._extras import require
from ._progress import progress_bar
from .build import DEFAULT_MAX_STATES, build
from .errors import InvalidArgumentError, InvalidRulesError, UnknownNameError
from .graph import StateGraph
from .rules import Option, Rules, decision, throw

__all__ = ["ChanceNode", "OpenSpielRules", "from_openspiel", "openspiel_value", "openspiel_values"]

#: Chance probabilities are read as the nearest fraction with at most this denominator.
MAX_DENOMINATOR = 1_000_000
#: How far (absolutely) a float chance probability may lie from the fraction it becomes.
_FLOAT_SLACK = 1e-12
#: States walked between two updates of the progress bar.
_PROGRESS_EVERY = 1024


class ChanceNode(NamedTuple):
    """The key of a chance node in a graph from :func:`from_openspiel`: its ``str(state)``."""

    text: str


class OpenSpielRules(Rules):
    """The rules of an OpenSpiel game as walked by :func:`from_openspiel` (use that).

    Holds every state's outcomes, ready made: ``outcomes`` and ``terminal_value`` look
    them up. ``game`` is the ``pyspiel.Game``; :meth:`player` gives the player a state
    belongs to; :meth:`key` the graph's key of a ``pyspiel.State``.
    """

    def __init__(
        self, game, start, outcomes, terminal, players, move_labels, objective="win", past=None
    ):
        self.game = game
        self.name = str(game)
        self.objective = objective
        self._start = start
        self._outcomes = outcomes
        self._terminal = terminal
        self._players = players
        self._move_labels = move_labels
        self._past = past or {}
        self.min_utility = Fraction(game.min_utility())
        self.max_utility = Fraction(game.max_utility())

    def start(self):
        return self._start

    def roots(self):
        """Every node the walk met, so that the graph holds what OpenSpiel's walk holds."""
        return (self._start, *self._outcomes, *self._terminal)

    def terminal_value(self, state):
        return self._terminal.get(state)

    def outcomes(self, state):
        return self._outcomes[state]

    def label(self, state):
        """OpenSpiel's string on one line (its lines joined by " / ")."""
        if isinstance(state, ChanceNode):
            return "chance: " + _one_line(state.text)
        return _one_line(state)

    def move_label(self, move):
        return self._move_labels.get(move, str(move))

    def player(self, state) -> int:
        """The player ``state`` belongs to: the one to move, or who moved into it."""
        return self._players[state]

    def past_return(self, state) -> float:
        """Player 0's returns already collected at the node standing for ``state`` (0 in a
        game that pays only at the end).
        """
        return self._past.get(state, 0.0)

    @staticmethod
    def key(state):
        """The graph's key of a ``pyspiel.State``: its string, or a :class:`ChanceNode`."""
        text = str(state)
        if state.is_chance_node() and not state.is_terminal():
            return ChanceNode(text)
        return text


def _one_line(text: str) -> str:
    return " / ".join(line.strip() for line in text.strip().splitlines())


def _load(game):
    pyspiel = require("pyspiel", "reading an OpenSpiel game", "openspiel")
    if isinstance(game, str):
        name = game.split("(", 1)[0].strip()
        names = pyspiel.registered_names()
        if name not in names:
            raise UnknownNameError("OpenSpiel game", name, sorted(names))
        try:
            return pyspiel, pyspiel.load_game(game)
        except pyspiel.SpielError as error:
            raise InvalidArgumentError(f"OpenSpiel cannot load {game!r}: {error}") from None
    if not isinstance(game, pyspiel.Game):
        raise InvalidArgumentError(
            f"game must be a pyspiel.Game or an OpenSpiel game string such as "
            f"'pig(winscore=10,horizon=20)', not {type(game).__name__}"
        )
    return pyspiel, game


def _check_game(pyspiel, game):
    """Refuse games the mapping cannot express, naming the game and the property."""
    kind = game.get_type()
    kinds = pyspiel.GameType

    def refuse(problem, accepted):
        raise InvalidArgumentError(f"OpenSpiel game {game}: {problem}; accepted: {accepted}")

    if kind.dynamics != kinds.Dynamics.SEQUENTIAL:
        refuse(f"its dynamics are {kind.dynamics.name.lower()}", "sequential (turn-based) games")
    if kind.information != kinds.Information.PERFECT_INFORMATION:
        refuse(
            f"it has {kind.information.name.lower().replace('_', ' ')}",
            "perfect-information games",
        )
    if kind.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC:
        refuse("its chance outcomes are sampled, not listed", "explicit chance outcomes")
    players = game.num_players()
    if players not in (1, 2):
        refuse(f"it has {players} players", "one- or two-player games")
    if kind.reward_model != kinds.RewardModel.TERMINAL:
        if players == 2 and kind.utility != kinds.Utility.ZERO_SUM:
            refuse(
                f"it pays rewards along the way and its utility is {kind.utility.name.lower()}",
                "zero-sum games where two players trade rewards (a margin game)",
            )
        return
    low, high = game.min_utility(), game.max_utility()
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        refuse(f"its utility range [{low}, {high}] is empty or infinite", "a finite range")
    if players == 2:
        sums = (kinds.Utility.ZERO_SUM, kinds.Utility.CONSTANT_SUM)
        if kind.utility not in sums:
            refuse(f"its utility is {kind.utility.name.lower()}", "zero-sum or constant-sum")
        if low + high != game.utility_sum():
            refuse(
                f"its utility range [{low}, {high}] is not centred on the utility sum "
                f"{game.utility_sum()}, so one player's win is not the other's loss",
                "ranges with min + max = the utility sum",
            )


def _objective(pyspiel, game) -> str:
    """The objective of ``game``: "win" if it pays at the end, else "score" or "margin"."""
    if game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL:
        return "win"
    return "score" if game.num_players() == 1 else "margin"


def _reward(value: float) -> Fraction:
    """A float reward as an exact number: the nearest fraction with a denominator of at
    most :data:`MAX_DENOMINATOR` when that rounds to this very float (0.1 is 1/10), else
    the float's own exact value.
    """
    exact = Fraction(value)
    near = exact.limit_denominator(MAX_DENOMINATOR)
    return near if float(near) == value else exact


def _fractions(probabilities, where):
    """Float chance probabilities as exact Fractions that sum to exactly 1."""
    exact = []
    for p in probabilities:
        f = Fraction(p).limit_denominator(MAX_DENOMINATOR)
        if not 0 < f <= 1 or abs(float(f) - p) > _FLOAT_SLACK:
            raise InvalidRulesError(
                f"{where}: chance probability {p!r} is not a fraction with denominator at "
                f"most {MAX_DENOMINATOR:,} in (0, 1]"
            )
        exact.append(f)
    if sum(exact) != 1:
        raise InvalidRulesError(
            f"{where}: chance probabilities {[str(f) for f in exact]} (read from "
            f"{list(probabilities)}) sum to {sum(exact)}, not exactly 1"
        )
    return exact


def _children(state):
    """The children of a non-terminal node, in OpenSpiel's order, made one at a time."""
    if state.is_chance_node():
        for outcome, _ in state.chance_outcomes():
            yield state.child(outcome)
    else:
        for action in state.legal_actions():
            yield state.child(action)


def _walk(game, max_states, revisit, bar):
    """Every node, keyed, with the node standing for its key and the key's player.

    A depth-first walk in the order of OpenSpiel's ``get_all_states``: a decision node
    met again is walked again only if ``revisit`` (``stop_if_encountered=False``); a
    chance node always is, as there; the first node met for a key stands for it.
    """
    key = OpenSpielRules.key
    root = game.new_initial_state()
    nodes, players = {}, {}

    def visit(state, mover):
        """Key a node; return its children and who moves into them, or None to stop."""
        k = key(state)
        new = k not in nodes
        terminal, chance = state.is_terminal(), state.is_chance_node()
        if new:
            nodes[k] = state
            players[k] = mover if terminal or chance else state.current_player()
            if len(nodes) > max_states:
                raise InvalidRulesError(
                    f"{game} has more than {max_states:,} states (max_states); pass a "
                    "larger max_states if the game is finite but bigger"
                )
            if not len(nodes) % _PROGRESS_EVERY:
                bar.update(len(nodes) - bar.n)
        if terminal or not (new or revisit or chance):
            return None
        return _children(state), mover if chance else state.current_player()

    stack = [visit(root, 0)]  # the player who moved into the root: player 0
    while stack:
        children, mover = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            continue
        walk = visit(child, mover)
        if walk is not None:
            stack.append(walk)
    bar.update(len(nodes) - bar.n)
    return root, nodes, players


def _rules(game, root, nodes, players):
    """The walked nodes as :class:`OpenSpielRules` (outcomes made once per key)."""
    pyspiel = require("pyspiel", "reading an OpenSpiel game", "openspiel")
    key = OpenSpielRules.key
    objective = _objective(pyspiel, game)
    paying = objective != "win"
    low, high = Fraction(game.min_utility()), Fraction(game.max_utility())
    offset = game.num_distinct_actions()
    labels: dict[int, set] = {}
    outcomes, terminal, past = {}, {}, {}
    rewards = {}  # float reward: exact

    def option(child, move, player):
        target = key(child)
        passes = players[target] != player
        if not paying:
            return Option(target, move, passes)
        paid = child.rewards()
        if objective == "margin" and abs(paid[0] + paid[1]) > _FLOAT_SLACK * max(1.0, abs(paid[0])):
            raise InvalidRulesError(
                f"{game}: the rewards {list(paid)} after {child.history_str()} do not sum to "
                "0, though the game says it is zero-sum"
            )
        r = paid[player]
        if r not in rewards:
            rewards[r] = _reward(r)
        return Option(target, move, passes, rewards[r]) if r else Option(target, move, passes)

    for k, state in nodes.items():
        player = players[k]
        if paying:
            past[k] = float(state.returns()[0])
        if state.is_terminal():
            if paying:
                terminal[k] = Fraction(0)  # every reward is on the options
                continue
            u = Fraction(state.player_return(player))
            terminal[k] = (u - low) / (high - low)
            continue
        if state.is_chance_node():
            chances = state.chance_outcomes()
            where = f"{game}: chance node {state.history_str() or 'at the root'}"
            exact = _fractions([p for _, p in chances], where)
            pairs = []
            for (action, _), p in zip(chances, exact):
                move = offset + action
                text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
                labels.setdefault(move, set()).add(text)
                pairs.append((p, option(state.child(action), move, player)))
            outcomes[k] = throw(*pairs)
        else:
            options = []
            for action in state.legal_actions():
                labels.setdefault(action, set()).add(state.action_to_string(player, action))
                options.append(option(state.child(action), action, player))
            outcomes[k] = decision(*options)
    move_labels = {
        move: next(iter(texts)) if len(texts) == 1 else f"action {move}"
        for move, texts in labels.items()
    }
    return OpenSpielRules(
        game, key(root), outcomes, terminal, players, move_labels, objective, past
    )


def from_openspiel(game, *, max_states=None, revisit=False, progress=None) -> StateGraph:
    """The graph of every state of an OpenSpiel game (see the module docstring).

    Parameters
    ----------
    game : pyspiel.Game or str
        The game, or a game string for ``pyspiel.load_game`` such as
        ``"pig(winscore=10,horizon=20)"``. It must be sequential, of perfect information,
        with listed chance outcomes, and have one player or two. A game paying at the end
        needs utilities that are zero-sum or constant-sum (between two players) and
        becomes a ``"win"`` game; one paying rewards along the way becomes a ``"score"``
        game (one player) or a ``"margin"`` game (two, zero-sum).
    max_states : int, optional
        Stop with InvalidRulesError past this many states (decision, chance and terminal
        nodes together); None means ``gamegraph.build.DEFAULT_MAX_STATES``.
    revisit : bool
        Walk on from a decision node each time it is met, not just the first time, as
        OpenSpiel's ``value_iteration(..., cyclic_game=False)`` (its default) does. It
        changes nothing when ``str(state)`` is the whole state, and costs a walk of the
        whole game tree (exponential; endless in a game with cycles); it matters only
        where the string leaves something out, such as Pig's move counter against a
        binding ``horizon``. False matches ``cyclic_game=True``.
    progress : bool or None
        A bar on stderr counting the states walked (None: when stderr is a terminal).

    Returns
    -------
    StateGraph
        Its ``rules`` is an :class:`OpenSpielRules`; its states are OpenSpiel's state
        strings, and :class:`ChanceNode` s; its ``objective`` is ``"win"``, ``"score"`` or
        ``"margin"`` as above.

    Raises
    ------
    MissingExtraError
        When pyspiel is not installed (``pip install "gamegraph[openspiel]"``).
    UnknownNameError
        For a game string whose name OpenSpiel does not know.
    InvalidArgumentError
        For a game the mapping cannot express (the message names the property), a game
        string OpenSpiel cannot load, or a ``max_states`` that is not a whole number >= 1.
    InvalidRulesError
        When chance probabilities are not fractions summing to 1, a zero-sum game's
        rewards do not sum to 0, or the game has more than ``max_states`` states.

    Examples
    --------
    >>> graph = from_openspiel("tic_tac_toe")  # doctest: +SKIP
    >>> graph.n_states  # doctest: +SKIP
    5478
    """
    pyspiel, game = _load(game)
    _check_game(pyspiel, game)
    if max_states is None:
        max_states = DEFAULT_MAX_STATES
    if type(max_states) is not int or max_states < 1:
        raise InvalidArgumentError(f"max_states must be a whole number >= 1, not {max_states!r}")
    if type(revisit) is not bool:
        raise InvalidArgumentError(f"revisit must be True or False, not {revisit!r}")
    with progress_bar(desc=f"walking {game}", unit=" states", progress=progress) as bar:
        root, nodes, players = _walk(game, max_states, revisit, bar)
    rules = _rules(game, root, nodes, players)
    del nodes
    return build(rules, max_states=max_states, progress=False)


def _rules_of(solution) -> OpenSpielRules:
    graph = getattr(solution, "graph", None)
    rules = getattr(graph, "rules", None)
    if not isinstance(rules, OpenSpielRules) or getattr(solution, "values", None) is None:
        raise InvalidArgumentError(
            "expected the Solution of a graph made by from_openspiel (solve(graph) or "
            f"evaluate(graph, policy)), not {type(solution).__name__}"
        )
    return rules


def _player0(rules, state, value) -> float:
    value = float(value)
    if rules.objective != "win":  # the rewards still to come, plus those collected
        if rules.player(state) != 0:
            value = -value
        return rules.past_return(state) + value
    if rules.player(state) != 0:
        value = 1.0 - value
    return float(rules.min_utility + (rules.max_utility - rules.min_utility) * Fraction(value))


def openspiel_value(solution, state) -> float:
    """A state's value as OpenSpiel states it: for player 0, in the game's utilities (in a
    game paying rewards along the way, player 0's expected final return: the returns
    collected at the node standing for ``state`` plus those still to come).

    Parameters
    ----------
    solution : Solution
        ``solve(graph)`` or ``evaluate(graph, policy)`` of a graph from
        :func:`from_openspiel`.
    state : str, ChanceNode or pyspiel.State
        A state key of the graph, or an OpenSpiel state (keyed as the graph keys it).

    Raises
    ------
    InvalidArgumentError
        For a solution of another kind of graph, or a state not in the graph.
    """
    rules = _rules_of(solution)
    if not isinstance(state, (str, ChanceNode)) and hasattr(state, "is_chance_node"):
        state = rules.key(state)
    i = solution.graph.state_number(state)
    return _player0(rules, state, solution.values[i])


def openspiel_values(solution, *, chance=False) -> dict:
    """Every state's value as OpenSpiel's ``value_iteration`` returns them.

    A dict from ``str(state)`` to the value for player 0 in the game's utilities, for
    every decision and terminal state: the same keys and scale as
    ``open_spiel.python.algorithms.value_iteration.value_iteration``. With
    ``chance=True`` the chance nodes are included too, keyed by :class:`ChanceNode`.
    """
    rules = _rules_of(solution)
    graph = solution.graph
    return {
        state: _player0(rules, state, solution.values[i])
        for i, state in enumerate(graph.states)
        if chance or not isinstance(state, ChanceNode)
    }
