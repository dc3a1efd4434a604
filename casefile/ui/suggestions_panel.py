"""The Suggestions panel: now the package :mod:`casefile.ui.suggestions` (model, loading,
dialogs, undo command, panel); this module re-exports its names so older imports keep
working."""

from casefile.ui.suggestions import *  # noqa: F403
from casefile.ui.suggestions import __all__  # noqa: F401
