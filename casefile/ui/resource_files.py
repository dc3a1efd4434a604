"""The app's own files in resources/ (style sheet, help pages)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: resources/ of a source checkout (next to the casefile package).
SOURCE_RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def resource_text(name: str) -> str:
    """The text of resources/``name``: from the source checkout when run from one, else from
    the installed ``casefile.resources`` package. Raises FileNotFoundError when missing."""
    path = SOURCE_RESOURCES / name
    if path.is_file():
        return path.read_text(encoding="utf-8")
    try:
        return (resources.files("casefile.resources") / name).read_text("utf-8")
    except ModuleNotFoundError as exc:
        raise FileNotFoundError(name) from exc
