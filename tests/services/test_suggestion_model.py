"""The suggestion step records which model made the suggestions: the result, the
change log and what the window reads back; a chosen model that cannot load stores nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from casefile.extract import model_available
from casefile.extract.model import ModelError, model_in_use
from casefile.services.suggestions import (
    last_suggestion_model,
    pending_suggestions,
    suggest_documents,
    suggest_for_document,
)
from casefile.store import ChangeLog, Mention
from tests.model_dir import MODEL_DIR
from tests.services.test_decisions import STORY, add_document

needs_model = pytest.mark.skipif(not model_available() or MODEL_DIR is None,
                                 reason="no spaCy English model installed")


def suggest_log(ws) -> dict:
    with ws.transaction() as s:
        data = s.scalar(select(ChangeLog.data).where(ChangeLog.action == "document.suggest")
                        .order_by(ChangeLog.id.desc()).limit(1))
    assert isinstance(data, dict)
    return data


def test_rules_mode_records_no_model(workspace, case_id) -> None:
    doc_id = add_document(workspace, case_id, STORY)
    with workspace.transaction() as s:
        assert last_suggestion_model(s, case_id) is None  # nothing ran yet
        result = suggest_for_document(s, doc_id, mode="rules")
    assert (result.mode, result.model) == ("rules", None)
    assert suggest_log(workspace)["model"] is None
    with workspace.transaction() as s:
        assert last_suggestion_model(s, case_id) == "rules only"


def test_a_chosen_model_that_is_missing_stores_nothing(workspace, case_id) -> None:
    doc_id = add_document(workspace, case_id, STORY)
    with pytest.raises(ModelError, match="no_such_spacy_model"), workspace.transaction() as s:
        suggest_documents(s, [doc_id], model="no_such_spacy_model")
    with workspace.transaction() as s:
        assert pending_suggestions(s, case_id) == []  # no silent fall-back to rules
        assert s.scalar(select(Mention.id).limit(1)) is None
        assert last_suggestion_model(s, case_id) is None


@needs_model
@pytest.mark.nlp
def test_the_model_that_made_the_suggestions_is_recorded(workspace, case_id) -> None:
    first = add_document(workspace, case_id, STORY)
    with workspace.transaction() as s:
        result = suggest_for_document(s, first)
    described = model_in_use()
    assert (result.mode, result.model) == ("spacy", described)
    assert suggest_log(workspace)["model"] == described
    second = add_document(workspace, case_id, STORY + " More to come.", "later.txt")
    with workspace.transaction() as s:
        done = suggest_documents(s, [second], model=str(MODEL_DIR))  # the folder of that model
        assert [r.model for r in done.value] == [described]
        assert last_suggestion_model(s, case_id) == described
        names = {m.name for m in pending_suggestions(s, case_id, "person")}
    assert "Nadia Ferreira" in names
