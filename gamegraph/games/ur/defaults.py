"""What the Ur services do when the caller does not say: sizes, tolerance, agents, solvers.

Plain constants, importing nothing, so that the command line can show them in its help
without loading the solvers (:mod:`.solving`, :mod:`.tournament`, :mod:`.optimum_duel`
use them as their defaults).

>>> SOLVE_PIECES, BLOCKS_TOL, DEFAULT_AGENTS[-1]
(3, 1e-10, 'optimal')
"""

#: Pieces per side when a rule set is solved and no count is given: seconds of work
#: (263,121 positions), where the rule sets' own 7 or 5 pieces are out of reach of the graph.
SOLVE_PIECES = 3

#: Exact fractions are offered for one piece; with two they run to thousands of digits.
EXACT_MAX_PIECES = 1

#: The block solver's target distance to the fixed point (ten times inside the 1e-9 of
#: issue 13); the exact duel's too.
BLOCKS_TOL = 1e-10

#: The agents of a tournament unless others are named.
DEFAULT_AGENTS = ("random", "first", "last", "greedy", "gain", "expectimax-2", "optimal")

#: How a rule set is solved: ``graph`` builds the explicit graph and solves it (up to about
#: 4 pieces), ``blocks`` runs the block solver (no graph; 7 pieces in about 2 GiB), ``auto``
#: chooses by the file the table goes to (:func:`.solving.choose_solver`).
SOLVERS = ("auto", "graph", "blocks")

#: Where a tournament's games are played: on the explicit graph (:mod:`.graph_match`), on
#: positions (:mod:`.position_match`, any size), or ``auto``: on positions when a table
#: is given, else on the graph (:func:`.tournament.choose_engine`).
MATCH_ENGINES = ("auto", "graph", "positions")
