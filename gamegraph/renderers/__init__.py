"""Renderers: draw gamegraph results. They import gamegraph; gamegraph never imports them.

* :mod:`gamegraph.renderers.dot` -- Graphviz DOT for graphs and policies, rendered to PNG/SVG/PDF.
* :mod:`gamegraph.renderers.output` -- safe, all-or-nothing writing of output files.
* :mod:`gamegraph.gallery` -- builds the gallery of diagrams and tables.
"""
