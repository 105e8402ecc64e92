"""networkx, GraphML and node-link JSON as interchange formats, both ways and lossless.

:func:`to_networkx` turns a :class:`~gamegraph.StateGraph` (every legal move) or a
:class:`~gamegraph.MarkovChain` (the moves a policy takes, with their probabilities)
into a ``networkx.DiGraph`` whose nodes are the game's own state values (for Jackpot,
the board index). :func:`from_networkx` goes the other way.

What a StateGraph export holds
------------------------------
A DiGraph has one edge per pair of nodes, but a game can reach the same position through
several outcomes of one throw (in Ur a throw of 0 and a throw with no legal move both
pass the turn to the same position), so the structure the solver needs is kept on the
nodes, and the edges are a summary for people and networkx algorithms:

- graph: ``name``, ``start`` (a state), ``objective`` (``"win"``, ``"score"`` or
  ``"margin"``, see :mod:`gamegraph.values`) and ``gamegraph`` (the format number, 1),
  which marks the export.
- node: ``label``; ``layer`` when the game has layers; ``terminal``; for a terminal
  state its exact ``value`` (Fraction) for the player to move there; for any other state
  ``outcomes``, the list :meth:`Rules.outcomes <gamegraph.rules.Rules.outcomes>` would
  return: :class:`~gamegraph.rules.Outcome` (exact probability, options in order), each
  option an :class:`~gamegraph.rules.Option` (target state, move, passes, and its exact
  ``reward`` where it is not 0).
- edge ``s -> t``: ``probability``, the chance that a throw offers a move from s to t
  (offers overlap, so these do not sum to one), ``moves`` (the move numbers leading
  there, in increasing order) and ``passes`` (whether one of them passes the turn).

:func:`from_networkx` rebuilds such a graph exactly: the same states numbered in node
order, the same outcomes and options in the same order, the same exact probabilities,
terminal values, labels and layers, positions the start cannot reach included. The
``outcomes`` attribute is what counts; edges are not read, and an edge attribute other
than the three written is refused rather than left unread. A DiGraph without
``outcomes`` is read as a plain probability graph (see :func:`from_networkx`), which is
how a MarkovChain export reads back (its edges carry the ``reward`` the policy collects
along them, where it is not 0).

Rewards and objectives
----------------------
A game's objective and its options' rewards travel both ways, exactly. A plain DiGraph
declares its objective in ``g.graph["objective"]`` (``"win"`` by default) and a reward on
an edge (``reward=5``, ``"1/3"``); a reward other than 0 in a ``"win"`` graph, a
terminal ``value`` outside [0, 1] there, and any edge attribute :func:`from_networkx` does
not read are refused with the edge named (``ignore=`` leaves attributes of your own
unread on purpose).

Files
-----
:func:`write_graphml` / :func:`read_graphml` and :func:`write_json` / :func:`read_json`
(``networkx.node_link_data``'s layout) store any DiGraph. Node ids in the file are the node
numbers ``"0"``, ``"1"``, ... in node order; the state is the node attribute ``state``,
written as Python text (``"('roll', 3, 0, 0)"``, ``"SixState(b=4, c=1, o=1, phase=0)"``)
and read back without running code. Exact numbers are strings (``"1/36"``); lists,
tuples, sets, dicts and ``None`` are Python text; ``outcomes`` is JSON with targets as
node numbers, ``[["1/36", [[5, 2, false]]], ...]``, an option with a reward holding it
fourth (``[5, 2, false, "-1/2"]``), a string in GraphML. The graph
attribute ``gamegraph_encoding`` records how each attribute was written, and
``gamegraph_types`` where each NamedTuple state type comes from: gamegraph's own
(:data:`OWN_STATE_TYPES`) are found by name in a fixed table, others must be passed as
``types=``. A file is data: no path or name in it is imported or called. A GraphML or
node-link file written by another program reads as networkx reads it (string node ids);
:func:`from_networkx` then reads its attributes strictly (``"false"`` is false, ``2.7``
is not a move) and bounds every number before any arithmetic (:func:`exact_number`).

Modules
-------
``export`` (:func:`to_networkx`); ``rebuild`` (:func:`from_networkx`), which reads a plain
DiGraph through ``plain`` (:class:`NetworkxRules`) and an export through ``stored``
(:class:`StoredRules`); ``attributes`` (:func:`exact_number` and the other strict
readers); the files: ``graphml`` and ``node_link`` write the ``records`` of a DiGraph and
read them back through ``restore``, with values as ``python_text``, NamedTuple classes
from ``state_types`` only, and bytes read by ``files``.
"""

# Beside __all__, the public names the single interchange module had (its constants, the
# two Rules classes, exact_number) stay reachable here: gamegraph.interchange.exact_number.
from .attributes import MAX_DIGITS, exact_number  # noqa: F401
from .export import FORMAT, to_networkx  # noqa: F401
from .graphml import read_graphml, write_graphml
from .node_link import read_json, write_json
from .plain import EDGE_ATTRIBUTES, NetworkxRules  # noqa: F401
from .rebuild import from_networkx
from .records import ENCODING, TYPES  # noqa: F401
from .restore import MAX_TEXT  # noqa: F401
from .state_types import OWN_STATE_TYPES  # noqa: F401
from .stored import SUMMARY_ATTRIBUTES, StoredRules  # noqa: F401

__all__ = [
    "from_networkx",
    "read_graphml",
    "read_json",
    "to_networkx",
    "write_graphml",
    "write_json",
]
