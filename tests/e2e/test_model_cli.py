"""`casefile extract --model` / `casefile import --model` and CASEFILE_SPACY_MODEL as a reporter
uses them: an unknown model is one line and exit 1, with nothing imported; a model
given as a pipeline folder gives the default model's suggestions; the JSON says which model."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from casefile.extract import model_available
from tests.conftest import ARTICLE
from tests.e2e.cli_helpers import casefile
from tests.model_dir import MODEL_DIR

MISSING = "no_such_spacy_model"
needs_model = pytest.mark.skipif(not model_available() or MODEL_DIR is None,
                                 reason="no spaCy English model installed")


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line, no traceback
    return lines[0]


def test_extract_with_an_unknown_model_is_one_line_and_exit_1() -> None:
    run = casefile(None, "extract", str(ARTICLE), "--model", MISSING)
    assert run.code == 1
    assert run.out == ""
    assert one_error_line(run.err).startswith(
        f"casefile: spaCy model '{MISSING}' is not installed or cannot be loaded: ")
    env = casefile(None, "extract", str(ARTICLE), "--json", env={"CASEFILE_SPACY_MODEL": MISSING})
    assert env.code == 1 and env.out == ""
    assert one_error_line(env.err).startswith(f"casefile: spaCy model '{MISSING}' ")
    # --rules-only uses no model at all, so the setting cannot stop it
    rules = casefile(None, "extract", str(ARTICLE), "--rules-only", "--json",
                     env={"CASEFILE_SPACY_MODEL": MISSING})
    assert rules.code == 0, rules.err
    assert json.loads(rules.out)["model"] is None


def test_import_with_an_unknown_model_stops_before_importing(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "T").code == 0
    run = casefile(ws, "import", str(ARTICLE), "--case", "T", "--published", "2018-02-23",
                   "--model", MISSING)
    assert run.code == 1
    assert one_error_line(run.err).startswith(f"casefile: spaCy model '{MISSING}' ")
    listed = casefile(ws, "case", "list", "--json")
    assert listed.code == 0, listed.err
    [case] = json.loads(listed.out)
    assert case["counts"]["document"] == 0  # nothing half-done: the file was not imported


@needs_model
@pytest.mark.nlp
def test_a_model_folder_in_the_environment_gives_the_same_suggestions(tmp_path: Path) -> None:
    from casefile.extract import extract_suggestions

    default = json.loads(json.dumps(extract_suggestions(  # what the default model suggests
        ARTICLE.read_text(encoding="utf-8"), date(2018, 2, 23))))
    run = casefile(None, "extract", str(ARTICLE), "--published", "2018-02-23", "--json",
                   env={"CASEFILE_SPACY_MODEL": str(MODEL_DIR)})
    assert run.code == 0, run.err
    chosen = json.loads(run.out)
    assert chosen["mode"] == "spacy"
    assert chosen["model"].startswith("en_core_web_sm") and chosen["model"] == default["model"]
    for key in ("people", "organizations", "places", "events", "followups", "claims"):
        assert chosen[key] == default[key], key
    assert [p["name"] for p in chosen["people"]]  # the article has people to compare

    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "T").code == 0
    run = casefile(ws, "import", str(ARTICLE), "--case", "T", "--published", "2018-02-23",
                   "--model", str(MODEL_DIR), "--json")
    assert run.code == 0, run.err
    [entry] = json.loads(run.out)["files"]
    assert entry["suggestions"]["model"] == default["model"]
    assert entry["suggestions"]["counts"]["person"] > 0
