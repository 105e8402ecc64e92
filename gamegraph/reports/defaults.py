"""The reports' default sizes, in a module of their own so that the command line can show
them in its help without importing the drawing code (which needs the ``render`` extra).
"""

#: Jackpot: Monte Carlo games per policy (about half a second each).
JACKPOT_GAMES = 1_000_000
#: Super Six: the game mapped (the blog's 40 pegs).
SUPERSIX_PEGS = 40
#: Ur: pieces a side unless asked otherwise.
UR_PIECES = 2
#: Ur: the most pieces a side the report solves (seconds); four take minutes.
UR_MAX_PIECES = 3
#: Ur: tournament games per pairing.
UR_GAMES = 200
