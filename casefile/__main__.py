"""``python -m casefile`` runs the command line."""

from casefile.cli import run

run()
