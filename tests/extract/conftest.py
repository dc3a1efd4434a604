"""Fixtures for the extraction tests: the sample article and the spaCy-model switch."""

from __future__ import annotations

from pathlib import Path

import pytest

from casefile.extract import model_available

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "samples"
ARTICLE = SAMPLES / "parkland-coral-springs-article.txt"
GOLD = SAMPLES / "parkland-gold.json"
SCORER = SAMPLES.parent / "tools" / "score_extraction.py"

HAS_MODEL = model_available()
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="no spaCy English model installed")

# Both extraction modes; "auto" (spaCy) only where a model is installed.
MODES = ["rules", pytest.param("auto", marks=[pytest.mark.nlp, needs_model])]


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    """Each extraction mode in turn."""
    return str(request.param)
