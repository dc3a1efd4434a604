"""The statistical layer: find and lazily load a spaCy pipeline.

The default is the installed English ``en_core_web_*`` pipeline (en_core_web_sm ships with the
app). A reporter may choose another installed pipeline: an installed package name or a path to a
pipeline directory, given explicitly (``extract --model``, the window's Preferences) or in the
``CASEFILE_SPACY_MODEL`` environment variable.

Importing this module does not import spaCy. ``load_pipeline`` imports it on first use and caches
each loaded pipeline by name (thread-safe), so call it off the GUI thread.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from casefile.errors import CasefileError

#: The environment variable that chooses the spaCy pipeline (a package name or a directory).
MODEL_ENV = "CASEFILE_SPACY_MODEL"
#: What :func:`model_in_use` says when no model is used.
RULES_ONLY = "rules only"

_PREFERRED = ("en_core_web_sm", "en_core_web_md", "en_core_web_lg", "en_core_web_trf")
_EXCLUDE = ["parser", "lemmatizer", "senter"]
_lock = threading.Lock()
_pipelines: dict[str, Any] = {}  # model name or resolved directory -> loaded pipeline
_load_failed = False  # the default pipeline failed to load (a broken install: rules then)


class ModelError(CasefileError):
    """A chosen spaCy model is not installed or cannot be loaded; ``str(err)`` is the one
    line ("spaCy model 'X' is not installed or cannot be loaded: <reason>")."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"spaCy model {name!r} is not installed or cannot be loaded: {reason}")
        self.name = name
        self.reason = reason


def chosen_model(name_or_path: str | os.PathLike[str] | None = None) -> str | None:
    """The model the reporter chose: ``name_or_path`` if given (and not blank), else the
    ``CASEFILE_SPACY_MODEL`` environment variable (if not blank), else None (the default
    search). Surrounding blanks are dropped; nothing is checked or loaded."""
    for value in (name_or_path, os.environ.get(MODEL_ENV)):
        text = os.fspath(value).strip() if value is not None else ""
        if text:
            return text
    return None


def _is_path(choice: str) -> bool:
    """True if ``choice`` is written as a path (has a separator, starts with ~ or .) or names
    an existing directory; else it is a package name."""
    return (os.sep in choice or "/" in choice or choice.startswith(("~", "."))
            or Path(choice).is_dir())


def _cache_key(choice: str) -> str:
    return str(Path(choice).expanduser().resolve()) if _is_path(choice) else choice


def _check_chosen(choice: str) -> str:
    """The key to load ``choice`` under (a package name, or a resolved directory); raises
    ModelError if spaCy or the model is not there. Does not import spaCy."""
    if importlib.util.find_spec("spacy") is None:
        raise ModelError(choice, "spaCy is not installed")
    if _is_path(choice):
        folder = Path(choice).expanduser()
        if not folder.is_dir():
            raise ModelError(choice, f"no folder {str(folder)!r}")
        if not (folder / "config.cfg").is_file():
            raise ModelError(choice, f"{str(folder)!r} is not a spaCy pipeline folder "
                                     "(no config.cfg in it)")
        return str(folder.resolve())
    try:
        found = importlib.util.find_spec(choice) is not None
    except (ImportError, ValueError):  # "a.b" with no package a, an empty name part
        found = False
    if not found:
        raise ModelError(choice, "no installed package of that name (install it with pip, "
                                 "or give the path of a pipeline folder)")
    if not _is_pipeline_package(choice):
        raise ModelError(choice, "that package is not a spaCy pipeline (no config.cfg or "
                                 "meta.json in it)")
    return choice


def _is_pipeline_package(name: str) -> bool:
    """True if the installed package ``name`` is a spaCy pipeline: registered under the
    ``spacy_models`` entry point, or its folder (or a folder in it) holds a config.cfg, or it
    holds a meta.json. Does not import the package."""
    if name in _registered_models():
        return True
    spec = importlib.util.find_spec(name)
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        folder = Path(location)
        if ((folder / "config.cfg").is_file() or (folder / "meta.json").is_file()
                or any(folder.glob("*/config.cfg"))):
            return True
    return False


@functools.cache
def _registered_models() -> frozenset[str]:
    """The names registered under the ``spacy_models`` entry point, read once per process
    (reading every installed package's metadata takes about 10 ms, and suggestions ask for
    the model of every document)."""
    return frozenset(ep.name for ep in importlib.metadata.entry_points(group="spacy_models"))


@functools.cache
def default_model_name() -> str | None:
    """The installed English pipeline used when nothing is chosen (see
    :func:`find_model_name`), or None; searched once per process. Does not import spaCy."""
    if importlib.util.find_spec("spacy") is None:
        return None
    for name in _PREFERRED:
        if importlib.util.find_spec(name) is not None:
            return name
    names = sorted(name for name in _registered_models() if name.startswith("en_core_web"))
    for name in names:
        if importlib.util.find_spec(name) is not None:
            return name
    return None


def find_model_name(name_or_path: str | os.PathLike[str] | None = None) -> str | None:
    """The spaCy pipeline to use: a package name or a pipeline directory (absolute), or None.

    The choice comes from ``name_or_path``, else ``CASEFILE_SPACY_MODEL`` (see
    :func:`chosen_model`); a chosen model must be installed (a package spaCy can import, or a
    folder holding a pipeline's config.cfg), else ModelError. With no choice, the default
    search: the official en_core_web_* names first (small before large), then any package
    registered under the ``spacy_models`` entry point, or importable, whose name starts with
    ``en_core_web``; None if there is none (or no spaCy). Does not import spaCy.
    """
    choice = chosen_model(name_or_path)
    if choice is not None:
        return _check_chosen(choice)
    return default_model_name()


def model_available(name_or_path: str | os.PathLike[str] | None = None) -> bool:
    """True if spaCy and the pipeline :func:`find_model_name` picks are installed (nothing is
    loaded; a chosen model that is missing gives False)."""
    try:
        name = find_model_name(name_or_path)
    except ModelError:
        return False
    if name is None:
        return False
    return chosen_model(name_or_path) is not None or not _load_failed


def load_pipeline(name_or_path: str | os.PathLike[str] | None = None) -> Any:
    """Load (once per model) and return the spaCy pipeline :func:`find_model_name` picks.

    With no choice (no argument, no ``CASEFILE_SPACY_MODEL``): None if no model is installed
    or the default one fails to load (suggestions then come from the rules). A chosen model
    that is missing or fails to load raises ModelError (never a silent fall-back to rules).
    The parser and lemmatizer are left out: only the tagger and NER are used.
    """
    global _load_failed
    chosen = chosen_model(name_or_path) is not None
    with _lock:
        name = find_model_name(name_or_path)
        if name is None:
            return None
        if name in _pipelines:
            return _pipelines[name]
        if not chosen and _load_failed:
            return None
        try:
            import spacy

            nlp = spacy.load(name, exclude=_EXCLUDE)
        except Exception as exc:
            if chosen:
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                raise ModelError(chosen_model(name_or_path) or name,
                                 reason or type(exc).__name__) from exc
            _load_failed = True  # a broken default install falls back to rules
            return None
        _pipelines[name] = nlp
        return nlp


def forget_pipelines() -> None:
    """Drop the pipelines loaded from folders and forget a failed load of the default one, so
    the next :func:`load_pipeline` reads them again; pipelines of installed packages stay
    loaded. For a host that runs several commands in one process (the test suite runs the
    CLI's ``main`` again and again): a folder may change between two commands."""
    global _load_failed
    with _lock:
        for key in [k for k in _pipelines if _is_path(k)]:
            del _pipelines[key]
        _load_failed = False


def describe_pipeline(nlp: Any) -> str:
    """A loaded pipeline's name and version from its meta: "en_core_web_sm 3.8.0" (or
    :data:`RULES_ONLY` for None)."""
    if nlp is None:
        return RULES_ONLY
    meta = getattr(nlp, "meta", None) or {}
    lang, name, version = (str(meta.get(k) or "") for k in ("lang", "name", "version"))
    full = f"{lang}_{name}" if lang and name and not name.startswith(f"{lang}_") else (
        name or lang or "spaCy pipeline")
    return f"{full} {version}".strip()


def model_in_use(name_or_path: str | os.PathLike[str] | None = None) -> str:
    """Which model suggestions with this choice come from: "en_core_web_sm 3.8.0" (name and
    version from the pipeline's meta), or "rules only" when no model is installed. Loads the
    pipeline if it is not loaded yet (slow once); raises ModelError like
    :func:`load_pipeline`."""
    return describe_pipeline(load_pipeline(name_or_path))


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


def preload(name_or_path: str | os.PathLike[str] | None = None) -> bool:
    """Load the spaCy pipeline (the chosen one, else the default, if installed) and
    dateparser's data and the language identifier now, e.g. in a background thread at app
    start, so the first extraction is fast. Returns True if the model loaded (False for a
    chosen model that cannot load: the suggestion run says why)."""
    from casefile.extract.dates import warm_up
    from casefile.extract.language import identify

    warm_up()
    identify("The language identifier loads its model on first use.")
    try:
        return load_pipeline(name_or_path) is not None
    except ModelError:
        return False
