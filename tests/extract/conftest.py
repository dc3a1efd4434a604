"""Fixtures for the extraction tests: the sample article, the spaCy-model switch, and the shared
scorer run over a result with the floors its scores must reach."""

from __future__ import annotations

import json
import re
import subprocess
import sys
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


def run_scorer(gold: Path, result: dict, tmp_path: Path) -> dict[str, dict[str, float]]:
    """Run the shared scorer (:data:`SCORER`) on ``result`` against ``gold``; print its lines
    and parse them: per kind recall, precision, f1, duplicates; the follow-ups' due dates."""
    path = tmp_path / "suggestions.json"
    path.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    out = subprocess.run([sys.executable, str(SCORER), str(gold), str(path)],
                         capture_output=True, text=True, check=True).stdout
    print(f"\n[{gold.name} {result['mode']}]\n{out}", end="")
    scores: dict[str, dict[str, float]] = {}
    for key in ("people", "organizations"):
        m = re.search(rf"^{key}: recall ([\d.]+) precision ([\d.]+) F1 ([\d.]+) duplicates (\d+)",
                      out, re.M)
        assert m, out
        scores[key] = {"recall": float(m.group(1)), "precision": float(m.group(2)),
                       "f1": float(m.group(3)), "duplicates": float(m.group(4))}
    m = re.search(r"^followup due dates: (\d+)/(\d+)", out, re.M)
    assert m, out
    scores["due"] = {"got": float(m.group(1)), "want": float(m.group(2))}
    return scores


def assert_floors(scores: dict[str, dict[str, float]], floors: dict[str, float]) -> None:
    """People and organizations at or above their recall and precision ``floors``, no name
    suggested twice, every follow-up's due date found."""
    assert scores["people"]["recall"] >= floors["people_recall"]
    assert scores["people"]["precision"] >= floors["people_precision"]
    assert scores["organizations"]["recall"] >= floors["org_recall"]
    assert scores["organizations"]["precision"] >= floors["org_precision"]
    assert scores["people"]["duplicates"] == 0
    assert scores["organizations"]["duplicates"] == 0
    assert scores["due"]["got"] == scores["due"]["want"]


def norm(s: str | None) -> str:
    """A name or role as compared with the gold: straight apostrophe, stripped, lower case."""
    return (s or "").replace("\u2019", "'").strip().lower()


def role_right(pred: dict | None, want: dict) -> bool:
    """The predicted role's head (before any parenthesis) starts the gold role ("Deputy" for
    "Deputy (school resource officer)"), and the affiliation is equal (None for none)."""
    if pred is None:
        return False
    role = norm((pred["role"] or "").split(" (")[0])
    return (bool(role) and norm(want["role"]).startswith(role)
            and norm(pred["affiliation"]) == norm(want["affiliation"]))
