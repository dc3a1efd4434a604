"""Which language a document is written in, and whether the suggestions can read it.

The language is identified by py3langid (langid.py's model, shipped inside the package: nothing
is downloaded). Suggestions read English: the rules are English and the default spaCy pipeline
is an English one. A chosen pipeline (``CASEFILE_SPACY_MODEL`` or ``--model``) named for
another language ("de_core_news_sm") or the multi-language one ("xx_ent_wiki_sm") reads that
language too. A text identified with confidence as another language gets no suggestions (they
would be noise: every capitalised word a name) and a note naming what would read it
(:func:`unread_note`).
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

#: Characters of the text the language is identified from (the start of a long document).
SAMPLE_CHARS = 5_000
#: Fewest letters a text needs before its language is identified (below: unknown).
MIN_LETTERS = 20
#: Least probability (0..1, normalised over the model's languages) for a language to count as
#: identified.
MIN_CONFIDENCE = 0.90
#: Languages with a trained spaCy pipeline of their own (spaCy 3.8); the package is
#: "<code>_core_news_sm" ("<code>_core_web_sm" for English and Chinese). Others: the
#: multi-language "xx_ent_wiki_sm".
SPACY_LANGUAGES = frozenset(("ca", "zh", "hr", "da", "nl", "en", "fi", "fr", "de", "el", "it",
                             "ja", "ko", "lt", "mk", "nb", "pl", "pt", "ro", "ru", "sl", "es",
                             "sv", "uk"))
#: py3langid's codes that spaCy names otherwise.
_SPACY_CODE = {"no": "nb"}
#: The prefix of every note :func:`unread_note` writes (the panel finds them by it).
NOTE_PREFIX = "No suggestions: the text is in "

_lock = threading.Lock()


@dataclass(frozen=True)
class Language:
    """An identified language: ISO 639 code ("ko"), English name ("Korean") and the model's
    probability (0..1)."""

    code: str
    name: str
    confidence: float


@cache
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def language_name(code: str) -> str:
    """The English name of a language code ("ko" -> "Korean"); the code itself if unknown."""
    if code == "zxx":
        return "no language (symbols or numbers only)"
    try:
        from babel import Locale

        return str(Locale.parse(code).get_display_name("en"))
    except Exception:  # babel missing, or a code it does not know
        return code


def identify(text: str) -> Language | None:
    """The language ``text`` is written in, or None when it is too short (fewer than
    :data:`MIN_LETTERS` letters) or no language reaches :data:`MIN_CONFIDENCE`. Reads the
    first :data:`SAMPLE_CHARS` characters. Loads the model once per process (about 2 s)."""
    sample = text[:SAMPLE_CHARS]
    if sum(ch.isalpha() for ch in sample) < MIN_LETTERS:
        return None
    with _lock:
        code, prob = _identifier().classify(sample)
    if prob < MIN_CONFIDENCE:
        return None
    return Language(str(code), language_name(str(code)), float(prob))


def model_language(model: str | os.PathLike[str] | None) -> str | None:
    """The language a chosen spaCy pipeline reads, from its package name ("de_core_news_sm"
    -> "de", "xx_..." -> "xx") or its folder's meta.json; None when it cannot be told."""
    if model is None:
        return None
    text = os.fspath(model)
    meta = Path(text) / "meta.json"
    if meta.is_file():
        import json

        try:
            lang = json.loads(meta.read_text(encoding="utf-8")).get("lang")
        except (OSError, ValueError):
            return None
        return str(lang) if lang else None
    m = re.match(r"([a-z]{2,3})_", Path(text).name)
    return m.group(1) if m else None


def reads(language: Language | None, model: str | os.PathLike[str] | None = None) -> bool:
    """True if suggestions can read a text in ``language`` (unknown counts as readable):
    English always; another language when the chosen pipeline ``model`` is for it or is the
    multi-language one."""
    if language is None or language.code == "en":
        return True
    chosen = model_language(model)
    return chosen is not None and (chosen == "xx" or chosen == _SPACY_CODE.get(
        language.code, language.code))


def reader_for(code: str) -> str:
    """The spaCy pipeline package that reads ``code``: "ko_core_news_sm", "zh_core_web_sm", or
    the multi-language "xx_ent_wiki_sm" for a language without its own."""
    code = _SPACY_CODE.get(code, code)
    if code in ("en", "zh"):
        return f"{code}_core_web_sm"
    return f"{code}_core_news_sm" if code in SPACY_LANGUAGES else "xx_ent_wiki_sm"


def unread_note(language: Language) -> str:
    """What the reporter is told about a document the suggestions cannot read: "No
    suggestions: the text is in Korean; Casefile's suggestions read English. A spaCy pipeline
    for Korean (ko_core_news_sm, chosen with CASEFILE_SPACY_MODEL or --model) would read its
    names." """
    if language.code == "zxx":
        return (f"{NOTE_PREFIX}no language Casefile can read (symbols, numbers or damaged "
                "text); no names were suggested from it.")
    reader = reader_for(language.code)
    which = ("the multi-language spaCy pipeline" if reader.startswith("xx_")
             else f"a spaCy pipeline for {language.name}")
    return (f"{NOTE_PREFIX}{language.name}; Casefile's suggestions read English. "
            f"{which[0].upper()}{which[1:]} ({reader}, chosen with CASEFILE_SPACY_MODEL or "
            f"--model) would read its names.")


def unread_result(language: Language) -> dict[str, Any]:
    """What :func:`casefile.extract.extract_suggestions` returns for a text in a language it
    cannot read: the usual shape with no suggestion, ``"mode": "skipped"``, ``"skipped"``: the
    note (:func:`unread_note`) and ``"language"``: the code."""
    return {"people": [], "organizations": [], "places": [], "events": [], "followups": [],
            "claims": [], "mode": "skipped", "model": None, "skipped": unread_note(language),
            "language": language.code}
