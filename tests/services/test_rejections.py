"""A way back from a reject that does not depend on the session's undo history: the
rejected names of the workspace are listed, and one can be suggested again in every case; that
restore is itself undoable."""

from __future__ import annotations

import pytest

from casefile.errors import NotFoundError, ValidationError
from casefile.services import decisions
from casefile.services.changes import run_step
from casefile.services.rejections import rejected_suggestions, restore_rejected
from casefile.services.suggestions import rejected_names, suggest_for_document
from tests.conftest import ARTICLE
from tests.services.test_learning import import_raw, new_case, pending


def test_a_rejected_name_is_listed_and_suggested_again_in_every_case(workspace, parkland) -> None:
    case_a, _doc_a = parkland
    with workspace.transaction() as s:
        decisions.reject(s, case_a, "person", "Patterico")
    with workspace.transaction() as s:
        decisions.reject(s, case_a, "place", "Sunrise")
    case_b = new_case(workspace, "Second story")
    doc_b = import_raw(workspace, case_b, ARTICLE.read_bytes(), ARTICLE.name)
    assert "Sunrise" not in pending(workspace, case_b, "place")

    # a later session: no undo history, only the list of rejected names
    with workspace.transaction() as s:
        listed = rejected_suggestions(s)
    by_name = {(r.kind, r.name): r for r in listed}
    assert set(by_name) == {("place", "Sunrise"), ("person", "Patterico")}
    sunrise = by_name[("place", "Sunrise")]
    assert sunrise.cases == ("Test case",) and sunrise.case_ids == (case_a,)
    assert sunrise.mentions >= 1 and sunrise.documents == 1
    assert sunrise.when is not None and sunrise.when[:4].isdigit()  # ISO 8601
    assert listed[0].name == "Sunrise"  # the latest reject first

    with workspace.transaction() as s:
        restored = restore_rejected(s, "place", "sunrise", case_id=case_b)
    assert restored.suggestions and restored.value == sunrise.mentions
    assert restored.case_id == case_b
    assert "Sunrise" in restored.message and "'Test case'" in restored.message
    assert "Sunrise" in pending(workspace, case_a, "place")  # waits again in its case
    with workspace.transaction() as s:
        assert [(r.kind, r.name) for r in rejected_suggestions(s)] == [("person", "Patterico")]
        assert "Sunrise" not in rejected_names(s)
        suggest_for_document(s, doc_b, mode="rules")  # the next run finds it again
    assert "Sunrise" in pending(workspace, case_b, "place")
    assert "Patterico" not in pending(workspace, case_b, "person")  # still rejected

    # undo: rejected again where it was restored; the next run leaves it out again
    assert restored.undo is not None
    with workspace.transaction() as s:
        undone = run_step(s, restored.undo)
        suggest_for_document(s, doc_b, mode="rules")
    assert "not be suggested" in undone.message
    assert "Sunrise" not in pending(workspace, case_a, "place")
    assert "Sunrise" not in pending(workspace, case_b, "place")
    with workspace.transaction() as s:
        assert ("place", "Sunrise") in {(r.kind, r.name) for r in rejected_suggestions(s)}
    # redo: suggested again
    assert undone.undo is not None
    with workspace.transaction() as s:
        run_step(s, undone.undo)
    assert "Sunrise" in pending(workspace, case_a, "place")


def test_restoring_a_name_that_is_not_rejected_says_so(workspace, parkland) -> None:
    case_a, _doc = parkland
    with workspace.transaction() as s:
        assert rejected_suggestions(s) == []
        with pytest.raises(NotFoundError, match="no rejected place named 'Sunrise'"):
            restore_rejected(s, "place", "Sunrise")
        with pytest.raises(ValidationError, match="unknown kind 'planet'"):
            restore_rejected(s, "planet", "Sunrise")
        decisions.reject(s, case_a, "place", "Sunrise")
        # rejected as a place, not as a person
        with pytest.raises(NotFoundError):
            restore_rejected(s, "person", "Sunrise")


def test_undoing_a_restore_after_it_was_decided_again_is_refused(workspace, parkland) -> None:
    from casefile.errors import ConflictError

    case_a, _doc = parkland
    with workspace.transaction() as s:
        decisions.reject(s, case_a, "place", "Sunrise")
        restored = restore_rejected(s, "place", "Sunrise", case_id=case_a)
        decisions.accept(s, case_a, "place", "Sunrise")
    assert restored.undo is not None
    with workspace.transaction() as s, pytest.raises(ConflictError, match="decided again"):
        run_step(s, restored.undo)
