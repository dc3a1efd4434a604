"""Text -> suggested people, organisations, places, events, follow-ups and claims.

Pure functions: no database, no Qt. spaCy is imported only when a model is first used, never at
import time of this package.
"""

from casefile.extract.model import model_available, preload
from casefile.extract.pipeline import extract_suggestions
from casefile.extract.types import KnownItem

__all__ = ["KnownItem", "extract_suggestions", "model_available", "preload"]
