"""The installed default spaCy pipeline as a folder, for tests of a model chosen by path."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from casefile.extract.model import default_model_name


def installed_model_dir() -> Path | None:
    """The data folder (the one holding config.cfg and meta.json) of the installed default
    pipeline package, found through importlib; None if no model is installed."""
    name = default_model_name()
    spec = importlib.util.find_spec(name) if name else None
    if spec is None or spec.origin is None:
        return None
    package = Path(spec.origin).parent
    found = sorted(p.parent for p in package.glob("*/config.cfg"))
    return found[0] if found else None


MODEL_DIR = installed_model_dir()
DEFAULT_MODEL = default_model_name()
