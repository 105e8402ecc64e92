"""Drawing: gamegraph's results as diagrams, figures and pages. Renderers compute nothing.

They are given results (a chain, a :class:`~gamegraph.analysis.PolicyView`, a solved
table, a map) and draw them; what a picture shows is computed in
:mod:`gamegraph.analysis`. Only the applications (:mod:`gamegraph.cli`,
:mod:`gamegraph.gallery`) import them, and they need the ``render`` extra.

* :mod:`.dot` -- Graphviz DOT for policies' chains, rendered to PNG/SVG/PDF.
* :mod:`.figures` -- matplotlib figures (no pyplot: the user's backend is left alone).
* :mod:`.heatmap` -- the Super Six roll/stop page, self-contained and offline.
* :mod:`.ur_board`, :mod:`.ur_figures` -- the Ur board, its graph, and borne-off maps.
"""
