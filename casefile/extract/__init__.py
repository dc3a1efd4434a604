"""Text -> suggested people, organisations, places, events, follow-ups and claims.

Pure functions: no database, no Qt. spaCy is imported only when a model is first used, never at
import time of this package; the rules (large compiled patterns) load when first used too, so
a module that needs only :mod:`casefile.extract.lexicon` does not pay for them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from casefile.extract.model import model_available, preload
    from casefile.extract.pipeline import extract_suggestions
    from casefile.extract.types import KnownItem

__all__ = ["KnownItem", "extract_suggestions", "model_available", "preload"]

_HOMES = {
    "KnownItem": "casefile.extract.types",
    "extract_suggestions": "casefile.extract.pipeline",
    "model_available": "casefile.extract.model",
    "preload": "casefile.extract.model",
}


def __getattr__(name: str) -> Any:
    """The public names, imported from their modules on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
