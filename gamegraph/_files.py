"""Writing output files all-or-nothing: check the path first, write a temporary file, rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import OutputError, UnknownNameError


def check_output(path, accepted: tuple[str, ...]) -> tuple[Path, str]:
    """Validate an output path before any work is done; return it with its extension.

    Raises UnknownNameError for an extension not in ``accepted`` and OutputError when
    the folder is missing or not writable.

    >>> check_output("picture.png", (".png", ".svg"))[1]
    '.png'
    >>> check_output("picture.gif", (".png", ".svg"))
    Traceback (most recent call last):
    ...
    gamegraph.errors.UnknownNameError: unknown output extension '.gif'; accepted: .png, .svg
    """
    path = Path(path)
    extension = path.suffix.lower()
    if not extension:
        error = UnknownNameError("output extension", "", accepted)
        error.args = (f"{path.name!r} has no extension; accepted: {', '.join(accepted)}",)
        raise error
    if extension not in accepted:
        raise UnknownNameError("output extension", extension, accepted)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"cannot write {path}: folder {folder} does not exist")
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a folder")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputError(f"cannot write {path}: permission denied")
    return path, extension


def write_atomic(path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {error.strerror}") from None
    except BaseException:  # bad data, Ctrl-C: still leave no temporary file behind
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
