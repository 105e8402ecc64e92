"""The ``gamegraph`` command: the application layer on top of the library and renderers.

:mod:`.main` builds the parser and runs it; each game's subcommands live in a module of
their own (:mod:`.jackpot`, :mod:`.supersix`, :mod:`.ur`), and :mod:`.gallery` builds the
gallery.
"""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
