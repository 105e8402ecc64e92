"""Run the ``gamegraph`` command in-process, for the CLI tests."""

from __future__ import annotations

import io

from gamegraph.cli import main


def run(argv, capsys):
    """Run the command in-process; return (exit status, stdout text, stderr text)."""
    out = io.StringIO()
    try:
        status = main([str(a) for a in argv], out=out)
    except SystemExit as stop:  # argparse errors
        status = stop.code
    return status, out.getvalue(), capsys.readouterr().err
