"""The NamedTuple classes a file's states are built with: the caller's own, or gamegraph's
from a fixed table (:data:`OWN_STATE_TYPES`), never a path or name read from the file.
"""

from __future__ import annotations

import importlib

from .._files import _shown
from ..errors import InvalidArgumentError

#: gamegraph's own state types, by the name a file records: the only classes a file can
#: name without ``types=``. Each is looked up in this fixed table and imported from the
#: module written here, never from a path read from the file (a path would let a file
#: name any callable, such as a function that writes files).
OWN_STATE_TYPES = {
    "SixState": "gamegraph.games.supersix.state",
    "UrState": "gamegraph.games.ur.rules",
}


def _is_namedtuple_class(cls) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def _resolve_types(recorded: dict, given) -> dict:
    """NamedTuple classes by name: ``given`` first, then gamegraph's own
    (:data:`OWN_STATE_TYPES`); the file's recorded paths only say whose a type is.
    """
    classes = {}
    for cls in given:
        if not _is_namedtuple_class(cls):
            raise InvalidArgumentError(f"types must be NamedTuple classes, not {cls!r}")
        classes[cls.__name__] = cls
    for name, where in recorded.items():
        if name in classes:
            continue
        module = str(where).rpartition(".")[0]
        shown = _shown(str(name))
        if module != "gamegraph" and not module.startswith("gamegraph."):
            origin = _shown(module) if module else "an unknown module"
            raise InvalidArgumentError(
                f"states of type {shown} come from {origin}; pass types=[{shown}] to read them back"
            )
        if name not in OWN_STATE_TYPES:
            raise InvalidArgumentError(
                f"the state type {shown} is not one of gamegraph's own "
                f"({', '.join(sorted(OWN_STATE_TYPES))}); pass types=[{shown}] to read it back"
            )
        cls = getattr(importlib.import_module(OWN_STATE_TYPES[name]), name)
        assert _is_namedtuple_class(cls), cls  # OWN_STATE_TYPES names only such classes
        classes[name] = cls
    return classes
