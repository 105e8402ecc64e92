"""The games gamegraph knows by name."""
