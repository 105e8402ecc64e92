"""Super Six (also sold as Rio): a two-player race to shed pegs into a lid and its pit.

The package keeps one concern per module; every public name is re-exported here, so
``from gamegraph.games.supersix import SuperSix, decision_table`` works.

========================  ==================================================================
:mod:`.state`             ``SixState`` (b/c/o and the first-round phase) and the constants:
                          ``SOCKETS``, ``RULESETS``, ``WIN``, moves and phases
:mod:`.rules`             the :class:`SuperSix` rules (rule sets ``free`` and ``first-round``),
                          ``count_states`` and the memory guard ``estimate_bytes``
:mod:`.positions`         the batch form of the rules: ``SuperSixBatch`` (positions as
                          integer codes, the rules on whole arrays) and ``SixPositions``,
                          the lazy table of a built graph's positions
:mod:`.notation`          the published analyses' views: ``decision_table`` (P_roll, P_end,
                          P_choice), ``strategy_string`` and ``PUBLISHED_STRATEGIES``
:mod:`.crosscheck`        what the mathematical-programming cross-checks need:
                          ``decision_positions`` and ``by_position``
========================  ==================================================================

The package knows the rules only; solving is :func:`gamegraph.solve`'s job, and results
built from solutions (start values over many sizes) are in :mod:`gamegraph.games.supersix.analysis`.

Examples
--------
>>> from gamegraph import build, solve
>>> solve(build(SuperSix(pegs=4)), exact=True).start_value
Fraction(36, 41)
"""

from ..._memory import MEMORY_LIMIT
from .crosscheck import by_position, decision_positions
from .notation import (
    PUBLISHED_STRATEGIES,
    DecisionTable,
    decision_table,
    play_positions,
    strategy_string,
)
from .positions import SixPositions, SuperSixBatch
from .rules import SuperSix, count_states, estimate_bytes
from .state import (
    CONTINUE,
    FIRST_THROW,
    PLAY,
    RULESETS,
    SECOND_THROW,
    SOCKETS,
    STOP,
    TAKE,
    WIN,
    SixState,
)

__all__ = [
    "CONTINUE",
    "FIRST_THROW",
    "MEMORY_LIMIT",
    "PLAY",
    "PUBLISHED_STRATEGIES",
    "RULESETS",
    "SECOND_THROW",
    "SOCKETS",
    "STOP",
    "TAKE",
    "WIN",
    "DecisionTable",
    "SixPositions",
    "SixState",
    "SuperSix",
    "SuperSixBatch",
    "by_position",
    "count_states",
    "decision_positions",
    "decision_table",
    "estimate_bytes",
    "play_positions",
    "strategy_string",
]
