"""Which name finder suggestions run with: is the extractor installed, can a chosen spaCy model
be used, what a blank choice means. Read-only; the window's Preferences and its suggestion runs
ask here (ARCHITECTURE.md, "Layers": the window never imports ``casefile.extract``).

Nothing here loads a model: spaCy is imported only when a suggestion run first needs it.
"""

from __future__ import annotations

from casefile.extract.model import ModelError

__all__ = ["ModelError", "check_model", "default_choice", "extractor_available",
           "load_chosen_model"]


def extractor_available() -> bool:
    """True when the entity extractor is installed, so imports run suggestions."""
    try:
        from casefile.extract import extract_suggestions  # noqa: F401
    except ImportError:
        return False
    return True


def check_model(choice: str) -> str | None:
    """Why ``choice`` (a spaCy package name or a pipeline folder) cannot be used as the
    suggestion model ("spaCy model 'X' is not installed…"), or None if it is installed (not
    loaded: loading waits for the next suggestion run, which says if the pipeline is broken).
    Blank is the default: None."""
    if not choice.strip():
        return None
    from casefile.extract.model import find_model_name

    try:
        find_model_name(choice)
    except ModelError as exc:
        return str(exc)
    return None


def default_choice() -> str:
    """What a blank suggestion model means on this machine: the ``CASEFILE_SPACY_MODEL``
    setting, else the installed default pipeline's name, else "rules only"."""
    from casefile.extract.model import chosen_model, default_model_name

    return chosen_model() or default_model_name() or "rules only: no model installed"


def load_chosen_model(model: str | None) -> None:
    """Load the chosen spaCy model (``model``, else ``$CASEFILE_SPACY_MODEL``) now, so a
    missing one is one :class:`ModelError` before anything is imported rather than one per
    file; nothing when no model is chosen (the default loads on first use)."""
    from casefile.extract.model import chosen_model, load_pipeline

    if chosen_model(model) is not None:
        load_pipeline(model)
