"""``gamegraph gallery [FOLDER]``: build the gallery of diagrams, figures and tables."""

from __future__ import annotations

from ._common import add_quiet

#: The top-level command registered here, with its line in ``gamegraph --help``.
COMMANDS = {
    "gallery": "build the gallery: Jackpot, Super Six, Ur and Yahtzee diagrams, figures, tables"
}


def add_commands(subparsers) -> None:
    """Register ``gallery`` on the top-level subparsers."""
    gallery = subparsers.add_parser(
        "gallery",
        help=COMMANDS["gallery"],
        description="Build every diagram, figure, interactive page and results table into "
        "FOLDER, with an index.html to open (about a minute).",
    )
    gallery.add_argument(
        "folder", nargs="?", default="gallery", help="where to write (default: gallery)"
    )
    add_quiet(gallery)
    gallery.set_defaults(run=_gallery)


def _gallery(args, out):
    from ..gallery import build_gallery

    build_gallery(args.folder, stream=out, progress=args.progress)
