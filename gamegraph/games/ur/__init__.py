"""The Royal Game of Ur: rules, the whole graph of positions, solved tables, agents, counts.

One module per concern, each importing only those above it in this list:

====================  ====================================================================
module                job
====================  ====================================================================
:mod:`.board`         each rule set's path, rosettes and split of private/shared tiles
:mod:`.rules`         rule sets, positions (:class:`UrState`) and their notation, legal
                      moves and their result
:mod:`.positions`     positions packed as integers; the rules in batch form (:class:`UrBatch`)
                      and the full-board graph built from them
:mod:`.rank`          every position numbered densely by a rank (no hash map), in blocks by
                      pieces borne off; moves computed from the rank (numba-compilable)
:mod:`.value_file`    a table of values by rank as one ``.npy`` file, read through a memory
                      map (:func:`~.value_file.open_values`)
:mod:`.moves`         every legal move of many positions at once, as arrays (no graph)
:mod:`.game`          the :class:`Ur` rules as :func:`gamegraph.build` reads them
:mod:`.table`         solved tables: query any position or move, save and load one file
:mod:`.gain`          the 2023 paper's gain heuristic G = W + A + C
:mod:`.agents`        agents from rules of thumb to the optimum; :func:`make_agent`
:mod:`.tournament`    seeded matches and round robins between agents
:mod:`.match`         the tournament's matches on positions, without a graph: any size
:mod:`.counting`      exact position counts for any board and piece count
:mod:`.paper`         the 2023 paper's formula, program and tables against exact values
====================  ====================================================================

Solving lives above the games: :mod:`gamegraph.analysis.ur` solves a rule set into a
table (``solve_table``), gives the exact win probability of two agents, and the map of
values by pieces borne off; :mod:`gamegraph.analysis.ur_blocks` solves every position of
any size block by block, without a graph, and :mod:`gamegraph.analysis.ur_dask` runs the
same blocks as a Dask graph.

The names most callers need are importable from here.

Examples
--------
>>> from gamegraph import build, solve
>>> game = Ur("finkel", pieces=1)
>>> round(float(solve(build(game)).start_value), 6)
0.53005
"""

from .board import GEOMETRY, PATHS, PIECES, ROSETTES, dark_path, tile_split
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
from .table import SolvedTable, load_table, table_from_solution

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
