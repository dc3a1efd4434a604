"""The statistical layer: find and lazily load an installed English spaCy pipeline.

Importing this module does not import spaCy. ``load_pipeline`` imports it on first use and caches
the loaded pipeline (thread-safe), so call it off the GUI thread.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import threading
from dataclasses import dataclass
from typing import Any

_PREFERRED = ("en_core_web_sm", "en_core_web_md", "en_core_web_lg", "en_core_web_trf")
_lock = threading.Lock()
_pipeline: Any = None
_load_failed = False


def find_model_name() -> str | None:
    """Name of the installed en_core_web_* pipeline package to use, or None.

    Official names come first (small before large); otherwise any package registered under the
    ``spacy_models`` entry point, or importable, whose name starts with ``en_core_web``.
    Does not import spaCy.
    """
    if importlib.util.find_spec("spacy") is None:
        return None
    for name in _PREFERRED:
        if importlib.util.find_spec(name) is not None:
            return name
    names = sorted(ep.name for ep in importlib.metadata.entry_points(group="spacy_models")
                   if ep.name.startswith("en_core_web"))
    for name in names:
        if importlib.util.find_spec(name) is not None:
            return name
    return None


def model_available() -> bool:
    """True if spaCy and an English ``en_core_web_*`` pipeline are installed (nothing loaded)."""
    return not _load_failed and find_model_name() is not None


def load_pipeline() -> Any:
    """Load (once) and return the spaCy pipeline; None if no model is installed or it fails
    to load. The parser and lemmatizer are left out: only the tagger and NER are used."""
    global _pipeline, _load_failed
    with _lock:
        if _pipeline is not None or _load_failed:
            return _pipeline
        name = find_model_name()
        if name is None:
            return None
        try:
            import spacy

            _pipeline = spacy.load(name, exclude=["parser", "lemmatizer", "senter"])
        except Exception:  # a broken model install falls back to rules
            _load_failed = True
            return None
        return _pipeline


@dataclass(frozen=True)
class ModelEntity:
    """An entity the model found: label (PERSON, ORG, GPE, LOC, FAC, ...), str offsets, and
    the part-of-speech of each of its tokens."""

    label: str
    start: int
    end: int
    pos: tuple[str, ...]
    token_starts: tuple[int, ...]


def model_entities(nlp: Any, text: str) -> list[ModelEntity]:
    """Run ``nlp`` on ``text`` and return its named entities with str offsets."""
    doc = nlp(text)
    return [ModelEntity(e.label_, e.start_char, e.end_char, tuple(t.pos_ for t in e),
                        tuple(t.idx for t in e)) for e in doc.ents]


def preload() -> bool:
    """Load the spaCy pipeline (if installed) and dateparser's data now, e.g. in a background
    thread at app start, so the first extraction is fast. Returns True if the model loaded."""
    from casefile.extract.dates import warm_up

    warm_up()
    return load_pipeline() is not None
