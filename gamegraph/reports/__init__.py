"""Ready-made reports for the bundled games, built from computed results.

An application layer, like the command line and the gallery: each function computes what
its game's report shows (with :mod:`gamegraph.analysis` and the algorithms) and lays it out
as a :class:`gamegraph.renderers.report.Report`, which saves as one HTML file or as
Markdown with images beside it.

* :func:`.jackpot.jackpot_report` -- policies, HiLo against the optimum, diagrams, loss by
  layer, a Monte Carlo check;
* :func:`.supersix.supersix_report` -- start values, the roll/stop map, strategy strings;
* :func:`.ur.ur_report` -- start values, a board with its move values, a tournament.

The modules are imported on use (``from gamegraph.reports.jackpot import jackpot_report``),
so importing this package draws nothing in.
"""
