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


#: Longest text (in characters) given to the model in one piece; longer texts go in chunks.
CHUNK_CHARS = 60_000
#: Context (characters, rounded out to whole lines) run with a chunk on each side, so the words
#: at a chunk's edges are read as in one pass over the whole text.
CONTEXT_CHARS = 300


def text_chunks(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """Split ``text`` into consecutive ``(start, end)`` str-offset spans of at most ``size``
    characters where it can, cutting only right after a blank line ("\n\n"), else after a line
    break. A stretch with no line break in ``size`` characters stays whole (up to its next line
    break). The spans cover ``text`` in order; a text of at most ``size`` characters is one span.
    Raises ValueError if ``size`` < 1."""
    if size < 1:
        raise ValueError(f"chunk size must be positive, not {size}")
    out: list[tuple[int, int]] = []
    start = 0
    while len(text) - start > size:
        limit = start + size
        cut = text.rfind("\n\n", start, limit)
        if cut >= start:
            cut += 2
        else:
            cut = text.rfind("\n", start, limit)
            if cut < start:
                cut = text.find("\n", limit)
                if cut < 0:
                    break
            cut += 1
        out.append((start, cut))
        start = cut
    if start < len(text) or not out:
        out.append((start, len(text)))
    return out


def model_entities(nlp: Any, text: str, chunk_chars: int = CHUNK_CHARS) -> list[ModelEntity]:
    """Run ``nlp`` on ``text`` and return its named entities with str offsets into ``text``.

    A text longer than ``chunk_chars`` characters goes through the model in chunks, one at a
    time (``nlp.pipe``), so memory stays bounded: :func:`text_chunks` cuts it at blank lines or
    line breaks, and each chunk is run with ``CONTEXT_CHARS`` of whole lines before and after
    it; an entity belongs to the chunk it starts in, so none is cut or found twice. Offsets are
    shifted back into ``text``. A text of one chunk is run exactly as ``nlp(text)``."""
    chunks = text_chunks(text, chunk_chars)
    if len(chunks) == 1:
        doc = nlp(text)
        return [ModelEntity(e.label_, e.start_char, e.end_char, tuple(t.pos_ for t in e),
                            tuple(t.idx for t in e)) for e in doc.ents]
    windows = []
    for start, end in chunks:
        lo = text.rfind("\n", 0, max(0, start - CONTEXT_CHARS)) + 1 if start else 0
        hi = text.find("\n", min(len(text), end + CONTEXT_CHARS))
        windows.append((lo, len(text) if hi < 0 or end == len(text) else hi))
    docs = nlp.pipe((text[lo:hi] for lo, hi in windows), batch_size=1)
    out: list[ModelEntity] = []
    last_end = 0
    for (start, end), (lo, _hi), doc in zip(chunks, windows, docs, strict=True):
        for e in doc.ents:
            s = e.start_char + lo
            if start <= s < end and s >= last_end:
                out.append(ModelEntity(e.label_, s, e.end_char + lo, tuple(t.pos_ for t in e),
                                       tuple(t.idx + lo for t in e)))
                last_end = e.end_char + lo
    return out


def preload() -> bool:
    """Load the spaCy pipeline (if installed) and dateparser's data now, e.g. in a background
    thread at app start, so the first extraction is fast. Returns True if the model loaded."""
    from casefile.extract.dates import warm_up

    warm_up()
    return load_pipeline() is not None
