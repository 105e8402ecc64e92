"""The Royal Game of Ur: rules, the whole graph of positions, solved tables, agents, counts.

One module per concern, in layers: each imports only from the layers below it (an
import-linter contract in pyproject.toml keeps it so). The rules layer imports no
algorithm; the solver and analysis layers may use the generic ones.

=======================  =================================================================
module                   job
=======================  =================================================================
*rules*
:mod:`.board`            each rule set's path, rosettes and split of private/shared tiles
:mod:`.dice`             the throws: four binary dice, and the other sets some rules use
:mod:`.defaults`         what the services do when the caller does not say (sizes,
                         tolerance, agents, solvers); imports nothing
:mod:`.rules`            rule sets, positions (:class:`UrState`) and their notation, legal
                         moves and their result
:mod:`.counting`         exact position counts for any board and piece count
:mod:`.positions`        positions packed as integers; the rules in batch form
                         (:class:`UrBatch`) and the full-board graph built from them
:mod:`.rank`             every position numbered densely by a rank (no hash map), in blocks
                         by pieces borne off; moves computed from the rank
:mod:`.game`             the :class:`Ur` rules as :func:`gamegraph.build` reads them
:mod:`.moves`            every legal move of many positions at once, as arrays (no graph)
:mod:`.gain`             the 2023 paper's gain heuristic G = W + A + C
*tables*
:mod:`.code_table`       a solved table by position code (small games, from a graph):
                         query any position or move, save and load one file
:mod:`.rank_table`       a solved table by rank as one ``.npy`` file, read through a
                         memory map (:func:`~.rank_table.open_values`), any size
:mod:`.table_files`      a saved table of either kind, opened by its extension
*solver*
:mod:`.sweeps`           the compiled sweeps over one block of ranks
:mod:`.arena`            memory for the solver's large arrays, kept from block to block
:mod:`.block_solver`     every position of any size solved block by block, without a graph
:mod:`.dask_plan`        the same blocks as a Dask graph, for a cluster
:mod:`.solving`          a rule set solved into a table by the solver that fits (graph or
                         blocks, by the file asked for), memory checked first: ``UrSolve``
*play*
:mod:`.agents`           agents from rules of thumb to the optimum; :func:`make_agent`
:mod:`.graph_match`      seeded matches and round robins on a full-board graph (to 4 pieces)
:mod:`.position_match`   the same matches on positions themselves: any size
:mod:`.exact_duel`       the exact win probability of an agent against the optimum, any size
*analysis and services* (what each ``gamegraph ur`` command calls; results print and
serialise)
:mod:`.analysis`         solve a rule set into a table, the exact value of two agents, the
                         map of values by pieces borne off
:mod:`.paper`            the 2023 paper's formula, program and tables against exact values
:mod:`.advice`           a position looked up in solved values: its value and every move's
:mod:`.tournament`       a seeded round robin of named agents, on the graph or on positions
:mod:`.optimum_duel`     the exact duel of a named agent against the optimum
=======================  =================================================================

The names most callers need are importable from here (each imported on first use).

Examples
--------
>>> from gamegraph import build, solve
>>> from gamegraph.games.ur import Ur
>>> game = Ur("finkel", pieces=1)
>>> round(float(solve(build(game)).start_value), 6)
0.53005
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import GEOMETRY, PATHS, PIECES, ROSETTES, dark_path, tile_split
    from .code_table import SolvedTable, load_table, table_from_solution
    from .game import Ur
    from .positions import (
        Geometry,
        Positions,
        UrBatch,
        build_board_graph,
        decode,
        encode,
        flip,
        state_codes,
        state_from_code,
        state_to_code,
    )
    from .rules import (
        MAX_PIECES,
        RULESETS,
        WIN,
        RuleSet,
        UrState,
        check_pieces,
        check_throw,
        format_position,
        legal_moves,
        parse_position,
        play,
        position_problem,
        rule_set,
        start_position,
    )

#: The module each name above is imported from, on first use: the command line reads
#: ``RULESETS`` and ``MAX_PIECES`` from the rules without loading numpy with the tables.
_HOMES = {
    "GEOMETRY": "board",
    "PATHS": "board",
    "PIECES": "board",
    "ROSETTES": "board",
    "dark_path": "board",
    "tile_split": "board",
    "SolvedTable": "code_table",
    "load_table": "code_table",
    "table_from_solution": "code_table",
    "Ur": "game",
    "Geometry": "positions",
    "Positions": "positions",
    "UrBatch": "positions",
    "build_board_graph": "positions",
    "decode": "positions",
    "encode": "positions",
    "flip": "positions",
    "state_codes": "positions",
    "state_from_code": "positions",
    "state_to_code": "positions",
    "MAX_PIECES": "rules",
    "RULESETS": "rules",
    "WIN": "rules",
    "RuleSet": "rules",
    "UrState": "rules",
    "check_pieces": "rules",
    "check_throw": "rules",
    "format_position": "rules",
    "legal_moves": "rules",
    "parse_position": "rules",
    "play": "rules",
    "position_problem": "rules",
    "rule_set": "rules",
    "start_position": "rules",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)  # not kept: see gamegraph


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "GEOMETRY",
    "MAX_PIECES",
    "PATHS",
    "PIECES",
    "ROSETTES",
    "RULESETS",
    "WIN",
    "Geometry",
    "Positions",
    "RuleSet",
    "SolvedTable",
    "Ur",
    "UrState",
    "UrBatch",
    "build_board_graph",
    "check_pieces",
    "check_throw",
    "dark_path",
    "decode",
    "encode",
    "flip",
    "format_position",
    "legal_moves",
    "load_table",
    "parse_position",
    "play",
    "position_problem",
    "rule_set",
    "start_position",
    "state_codes",
    "state_from_code",
    "state_to_code",
    "table_from_solution",
    "tile_split",
]
