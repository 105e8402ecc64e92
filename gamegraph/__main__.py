"""``python -m gamegraph`` runs the ``gamegraph`` command."""

import sys

from .cli import main

sys.exit(main())
