"""Choosing the spaCy model ("A better model when the user has one"): the explicit
choice, then CASEFILE_SPACY_MODEL, then the installed default; a chosen model that is missing is
one clear error, never a silent fall-back to rules; the result says which model was used."""

from __future__ import annotations

import datetime as dt
import importlib.metadata
from pathlib import Path

import pytest

from casefile.errors import CasefileError
from casefile.extract import extract_suggestions
from casefile.extract.model import (
    MODEL_ENV,
    ModelError,
    chosen_model,
    find_model_name,
    forget_pipelines,
    load_pipeline,
    model_available,
    model_in_use,
)
from tests.extract.conftest import needs_model
from tests.model_dir import DEFAULT_MODEL, MODEL_DIR

STORY = ("Harbor Police Chief Nadia Ferreira said Tuesday that Officer Tom Becker had been "
         "placed on leave. The Harbor Authority did not respond. Mayor Ann Lee of Port Alden "
         "called for an inquiry.")
PUB = dt.date(2024, 3, 8)
MISSING = "no_such_spacy_model"


def test_the_choice_is_the_argument_then_the_environment_then_the_default(monkeypatch) -> None:
    assert chosen_model() is None
    assert find_model_name() == DEFAULT_MODEL  # the default search, unchanged
    monkeypatch.setenv(MODEL_ENV, f"  {MISSING} ")
    assert chosen_model() == MISSING
    assert chosen_model("en_core_web_lg") == "en_core_web_lg"  # the argument wins
    assert chosen_model("  ") == MISSING  # a blank field is no choice
    monkeypatch.setenv(MODEL_ENV, "")
    assert chosen_model() is None


def test_a_missing_model_is_one_clear_error_not_rules(monkeypatch) -> None:
    with pytest.raises(ModelError) as err:
        load_pipeline(MISSING)
    assert str(err.value).startswith(
        f"spaCy model '{MISSING}' is not installed or cannot be loaded: ")
    assert "\n" not in str(err.value)
    assert isinstance(err.value, CasefileError)  # the CLI and the window say it in one line
    assert model_available(MISSING) is False
    with pytest.raises(ModelError):
        extract_suggestions(STORY, PUB, model=MISSING)
    monkeypatch.setenv(MODEL_ENV, MISSING)  # the same through the environment
    with pytest.raises(ModelError, match=MISSING):
        extract_suggestions(STORY, PUB)
    # rules mode loads no model, so the choice does not matter there
    assert extract_suggestions(STORY, PUB, mode="rules")["model"] is None


def test_a_folder_that_holds_no_pipeline_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a model", encoding="utf-8")
    with pytest.raises(ModelError, match="not a spaCy pipeline folder"):
        load_pipeline(str(tmp_path))
    with pytest.raises(ModelError, match="no folder"):
        load_pipeline(str(tmp_path / "missing"))


@needs_model
@pytest.mark.nlp
def test_a_broken_pipeline_folder_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "config.cfg").write_text("[nlp]\nlang = \"en\"\n", encoding="utf-8")
    with pytest.raises(ModelError) as err:
        load_pipeline(str(tmp_path))
    assert str(err.value).startswith(f"spaCy model '{tmp_path}' is not installed or cannot be "
                                     "loaded: ")


@needs_model
@pytest.mark.nlp
def test_the_result_says_which_model_made_the_suggestions() -> None:
    version = importlib.metadata.version(DEFAULT_MODEL or "")
    assert model_in_use().endswith(f" {version}")
    assert model_in_use().startswith("en_core_web_sm")  # the name from the pipeline's meta
    result = extract_suggestions(STORY, PUB)
    assert (result["mode"], result["model"]) == ("spacy", model_in_use())
    rules = extract_suggestions(STORY, PUB, mode="rules")
    assert (rules["mode"], rules["model"]) == ("rules", None)


@needs_model
@pytest.mark.nlp
def test_a_pipeline_folder_gives_the_default_models_suggestions(monkeypatch) -> None:
    assert MODEL_DIR is not None
    default = extract_suggestions(STORY, PUB)
    assert [p["name"] for p in default["people"]]  # something to compare
    by_path = extract_suggestions(STORY, PUB, model=str(MODEL_DIR))
    assert by_path == default  # same names, mentions, dates... and the same model's name
    monkeypatch.setenv(MODEL_ENV, str(MODEL_DIR))
    assert extract_suggestions(STORY, PUB) == default
    # each choice is loaded once and kept under its own name
    assert load_pipeline(str(MODEL_DIR)) is load_pipeline()
    assert load_pipeline(str(MODEL_DIR)) is not load_pipeline(DEFAULT_MODEL)
    assert load_pipeline(DEFAULT_MODEL) is load_pipeline(DEFAULT_MODEL)


@needs_model
@pytest.mark.nlp
def test_forgotten_folder_pipelines_are_read_again_and_the_installed_one_stays(
        tmp_path: Path) -> None:
    """A process that runs several commands (the tests run the CLI's main again and again)
    forgets the folder pipelines between two: a folder changed in between is read again."""
    import shutil

    import spacy

    def write(name: str) -> None:
        nlp = spacy.blank("en")
        nlp.meta["name"] = name
        shutil.rmtree(folder, ignore_errors=True)
        nlp.to_disk(folder)

    folder = tmp_path / "pipeline"
    write("harbor_first")
    default = load_pipeline(DEFAULT_MODEL)
    assert load_pipeline(str(folder)).meta["name"] == "harbor_first"
    write("harbor_second")
    assert load_pipeline(str(folder)).meta["name"] == "harbor_first"  # kept until forgotten
    forget_pipelines()
    assert load_pipeline(str(folder)).meta["name"] == "harbor_second"
    assert load_pipeline(DEFAULT_MODEL) is default


def test_an_installed_package_that_is_no_spacy_pipeline_is_refused() -> None:
    """Typing ``spacy`` (or any importable package) as the model is refused at once, not when a
    suggestion run fails later."""
    for name in ("spacy", "sqlalchemy", "json"):
        with pytest.raises(ModelError, match="not a spaCy pipeline"):
            find_model_name(name)
        assert model_available(name) is False


@needs_model
def test_an_installed_pipeline_package_is_accepted_by_name() -> None:
    assert DEFAULT_MODEL is not None
    assert find_model_name(DEFAULT_MODEL) == DEFAULT_MODEL
    assert model_available(DEFAULT_MODEL) is True
