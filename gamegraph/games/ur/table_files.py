"""A saved Ur table of either kind, opened by its file extension.

``ur solve --save`` writes one of two files: a ``.npy`` table by rank from the block
solver (:mod:`.rank_table`, memory-mapped, any size) or the explicit graph's table by
position code (:mod:`.code_table`, any other name, usually ``.urtable``).
:func:`open_table` opens either and answers the same queries.

Examples
--------
>>> import os, tempfile
>>> from gamegraph.games.ur.block_solver import solve_file
>>> path = os.path.join(tempfile.mkdtemp(), "finkel-1.npy")
>>> _ = solve_file(path, "finkel", 1, progress=False)
>>> is_rank_table(path), round(open_table(path).start_value, 6)
(True, 0.53005)
>>> open_table(path, rules="masters")
Traceback (most recent call last):
...
gamegraph.errors.InvalidArgumentError: ...finkel-1.npy holds a table for finkel with 1 piece(s), ...
"""

from __future__ import annotations

import os

from ...errors import InvalidArgumentError
from .code_table import SolvedTable, load_table
from .rank_table import open_values

#: The extensions of a saved table: the explicit graph's table, and the block solver's
#: values by rank.
TABLE_EXTENSIONS = (".urtable", ".npy")


def is_rank_table(path) -> bool:
    """Whether ``path`` names a table by rank (``.npy``, any case) rather than by code.

    >>> is_rank_table("finkel-7.NPY"), is_rank_table("finkel-3.urtable")
    (True, False)
    """
    return os.fspath(path).lower().endswith(".npy")


def open_table(path, rules: str | None = None, pieces: int | None = None, *,
               check: str = "full") -> SolvedTable:  # fmt: skip
    """The table saved at ``path``: a ``.npy`` file mapped by
    :func:`~.rank_table.open_values`, any other read by :func:`~.code_table.load_table`.

    Parameters
    ----------
    path : str or PathLike
    rules : str, optional
        The rule set the table must hold (None: whichever it holds).
    pieces : int, optional
        The pieces per side it must hold (None: whichever it holds).
    check : {"full", "quick"}
        How a ``.npy`` table is checked when opened (:func:`~.rank_table.open_values`);
        a table by code is always read and checked whole.

    Raises
    ------
    InvalidArgumentError
        The file cannot be read, is damaged, or holds other rules or pieces than asked.
    """
    table = open_values(path, check=check) if is_rank_table(path) else load_table(path)
    held = table.ruleset
    if (rules not in (None, held.name)) or (pieces not in (None, held.pieces)):
        wanted = f"{rules or held.name} with {pieces or held.pieces} piece(s)"
        raise InvalidArgumentError(
            f"{os.fspath(path)} holds a table for {held.name} with "
            f"{held.pieces} piece(s), not {wanted}"
        )
    return table
