"""Yahtzee and Yatzy, solved at full size by a compact solver of their own.

A whole game is far too large for one explicit graph (about 10^9 states), so the package
follows Ur's pattern: a compact, game-specific solver over the positions between turns,
checked against the generic graph solver on small versions written as ordinary
:class:`~gamegraph.rules.Rules`. Every public name is re-exported here.

========================  ==================================================================
:mod:`.dice`              five dice as multisets: the 252 throws, the 462 keeps, the chances
                          between them
:mod:`.scoring`           the rule sets (``yahtzee``, ``yatzy``; Yahtzee's two joker readings,
                          Yatzy's ``kth-2012`` variant): ``scoring``, ``Scoring``
:mod:`.rules`             ``YahtzeeRules``: the small versions as score ``Rules``
:mod:`.solver`            the compact solver: ``solve_values`` -> ``ValueTable``
:mod:`.table_file`        a solved table as one memory-mapped ``.npy`` file: ``save_table``,
                          ``load_table``
:mod:`.advice`            the best keep or box for a card: ``advise``
:mod:`.strategies`        simple strategies evaluated exactly: ``evaluate_strategy``
:mod:`.distribution`      the exact final-score distribution: ``score_distribution``
:mod:`.simulate`          Monte Carlo games: ``simulate_games``
========================  ==================================================================

Examples
--------
>>> small = scoring("yahtzee", boxes=("sixes", "chance"))
>>> round(solve_values(small).start_value, 6)
37.343785
"""

from .advice import advise
from .distribution import score_distribution
from .rules import YahtzeeRules
from .scoring import RULESETS, Scoring, scoring
from .simulate import simulate_games
from .solver import ValueTable, solve_values
from .strategies import evaluate_strategy
from .table_file import load_table, save_table

__all__ = [
    "RULESETS",
    "Scoring",
    "ValueTable",
    "YahtzeeRules",
    "advise",
    "evaluate_strategy",
    "load_table",
    "save_table",
    "score_distribution",
    "scoring",
    "simulate_games",
    "solve_values",
]
