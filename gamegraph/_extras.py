"""Optional dependencies: import one, or say in one line which extra installs it."""

from __future__ import annotations

import importlib

from ._environment import load_failure
from .errors import MissingExtraError


def require(module: str, purpose: str, extra: str = "render"):
    """Import ``module`` and return it; raise :class:`MissingExtraError` if it is missing.

    The error names the top-level package and the extra, for example
    ``drawing a figure needs matplotlib: pip install "gamegraph[render]"``.

    >>> require("json", "reading").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if load_failure(error) is not None:  # there, but ulimit -v leaves no room to load it
            raise
        missing = (getattr(error, "name", None) or module).split(".")[0]
        raise MissingExtraError(missing, purpose, extra) from None
