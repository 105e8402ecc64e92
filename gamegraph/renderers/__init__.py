"""Drawing: gamegraph's results as diagrams, figures and pages. Renderers compute nothing.

They are given results (a chain, a :class:`~gamegraph.analysis.PolicyView`, a solved
table, a map) and draw them; what a picture shows is computed in
:mod:`gamegraph.analysis`. The applications (:mod:`gamegraph.reports`,
:mod:`gamegraph.gallery`, :mod:`gamegraph.cli`) and notebooks use them; they need the
``render`` extra. Every drawing returns an object that displays itself in Jupyter and has
``save(path)``.

* :mod:`.diagram` -- :class:`~.diagram.Diagram`, Graphviz DOT shown as SVG;
  :mod:`._graphviz` lays it out (system ``dot`` or pygraphviz's bundled Graphviz).
* :mod:`.dot` -- page-sized views of a policy's game graph: full, pruned, and diffs.
* :mod:`.figures` -- matplotlib figures (``ax=``; no pyplot: the user's backend is left
  alone); :mod:`.supersix_maps` -- Super Six's six-panel roll/stop maps.
* :mod:`.interactive` -- plotly figures that save as offline pages; :mod:`.heatmap`
  (the Super Six page) and :mod:`.explorer` (any game's graph) build on it.
* :mod:`.report` -- :class:`~.report.Report`: sections saved as HTML or Markdown.
* :mod:`.ur_board`, :mod:`.ur_figures` -- the Ur board, its graph, and borne-off maps.
"""
