"""The Trash: a deleted case or deleted items leave every list and search, survive a restart,
and come back row for row; renaming a case and editing its summary, with their undo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from casefile.errors import ConflictError, NotFoundError, ValidationError
from casefile.services import (
    archive,
    case_actions,
    cases,
    evidence_actions,
    item_actions,
    items,
    trash,
)
from casefile.services.changes import run_step
from casefile.services.demo import build_demo
from casefile.services.search import search_workspace
from casefile.store import Document, EvidenceLink, Item, Mention, Passage, Person
from casefile.store.workspace import open_workspace


def _rows(ws, case_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every row of the case in every table, ids included (the change log apart)."""
    with ws.transaction() as s:
        tables = archive.case_content(s, case_id).tables
    return {name: rows for name, rows in tables.items() if name != "change_log"}


def _log(ws, case_id: int) -> list[dict[str, Any]]:
    with ws.transaction() as s:
        return archive.case_content(s, case_id).tables["change_log"]


def test_a_deleted_case_leaves_lists_and_search_and_comes_back_row_for_row(workspace, demo):
    before, log_before = _rows(workspace, demo), _log(workspace, demo)
    with workspace.transaction() as s:
        title = cases.get_case(s, demo).title
        word = s.scalar(select(Document.title).where(Document.case_id == demo)).split()[0]
        assert search_workspace(s, word).hits
        done = trash.delete_case(s, demo)
    assert done.cases and done.value is not None and "Trash" in done.message
    with workspace.transaction() as s:
        assert cases.list_cases(s) == []
        with pytest.raises(NotFoundError):
            cases.find_case(s, title)
        assert search_workspace(s, word).hits == ()
        assert s.scalar(select(Item.id).limit(1)) is None
        (entry,) = trash.list_trash(s)
    assert (entry.what, entry.label, entry.case_title) == ("case", f"case “{title}”", title)
    assert entry.counts["items"] == len(before["items"]) and entry.counts["passages"] > 0
    with workspace.transaction() as s:
        back = trash.restore(s, entry.id)
    assert back.value == demo and back.cases
    assert _rows(workspace, demo) == before  # every row of every table, ids included
    log_after = _log(workspace, demo)
    assert log_after[:len(log_before)] == log_before
    assert [r["action"] for r in log_after[len(log_before):]] == ["case.restore"]
    with workspace.transaction() as s:
        assert [c.title for c in cases.list_cases(s)] == [title]
        assert search_workspace(s, word).hits
        assert trash.list_trash(s) == []


def test_undo_of_a_case_delete_restores_it_and_redo_deletes_it_again(workspace, case_id):
    with workspace.transaction() as s:
        done = trash.delete_case(s, case_id)
    assert done.undo is not None
    with workspace.transaction() as s:
        back = run_step(s, done.undo)
        assert cases.get_case(s, case_id).title == "Test case"
    assert back.undo is not None
    with workspace.transaction() as s:
        run_step(s, back.undo)
        assert cases.list_cases(s) == [] and len(trash.list_trash(s)) == 1


def test_a_deleted_document_survives_a_restart_and_comes_back_with_its_evidence(
        sqlite_workspace, tmp_path: Path):
    ws = sqlite_workspace
    with ws.transaction() as s:
        case_id = build_demo(s)[0]
    with ws.transaction() as s:
        link = s.scalars(select(EvidenceLink).where(EvidenceLink.case_id == case_id,
                                                    EvidenceLink.passage_id.is_not(None))
                         .order_by(EvidenceLink.id)).first()
        assert link is not None
        doc_id = s.get(Passage, link.passage_id).document_id
        doc_title = s.get(Document, doc_id).title
    before = _rows(ws, case_id)
    with ws.transaction() as s:
        done = item_actions.delete(s, [doc_id])
    assert doc_id in done.deleted and done.value is not None
    with ws.transaction() as s:
        assert s.get(Document, doc_id) is None
        assert s.scalar(select(Passage.id).where(Passage.document_id == doc_id)) is None
    folder = ws.folder
    ws.close()  # the app quits: the window's undo history is gone

    again = open_workspace(folder)
    try:
        with again.transaction() as s:
            (entry,) = trash.list_trash(s)
        assert entry.label == f"document “{doc_title}”" and entry.item_ids == (doc_id,)
        assert entry.counts["passages"] > 0 and entry.counts["evidence_links"] > 0
        with again.transaction() as s:
            back = trash.restore(s, entry.id)
        assert back.created == {doc_id} and back.case_id == case_id
        assert _rows(again, case_id) == before
    finally:
        again.close()


def test_mentions_tied_to_a_deleted_person_are_tied_again_on_restore(workspace, parkland):
    case_id, doc_id = parkland
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Someone Named").id
        mention_ids = list(s.scalars(select(Mention.id).where(Mention.document_id == doc_id)
                                     .order_by(Mention.id).limit(2)))
        for m in mention_ids:
            s.get(Mention, m).item_id = pid
    before = _rows(workspace, case_id)
    with workspace.transaction() as s:
        done = item_actions.delete(s, [pid])
    with workspace.transaction() as s:
        assert [s.get(Mention, m).item_id for m in mention_ids] == [None, None]
    with workspace.transaction() as s:
        trash.restore(s, done.value)
    assert _rows(workspace, case_id) == before


def test_an_id_taken_since_gives_the_item_a_new_one_and_its_links_follow(
        sqlite_workspace):
    ws = sqlite_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Ids").id
        raw = b"Ann Lee runs the harbor office. She said so."
        from casefile.ingest import ingest_bytes
        from casefile.services import documents

        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, "a.txt"),
                                          published="2024-01-02").document_id
        pid = items.create_item(s, case_id, "person", "Ann Lee").id  # the newest id
        evidence_actions.link_span(s, pid, doc_id, 0, 7)
    with ws.transaction() as s:
        entry_id = item_actions.delete(s, [pid]).value
    with ws.transaction() as s:
        other = items.create_item(s, case_id, "person", "Bo Park").id
    assert other == pid  # SQLite hands the highest id out again
    with ws.transaction() as s:
        back = trash.restore(s, entry_id)
    (new_id,) = back.created
    with ws.transaction() as s:
        assert new_id != pid and s.get(Person, pid).title == "Bo Park"
        assert s.get(Person, new_id).title == "Ann Lee"
        (link,) = s.scalars(select(EvidenceLink).where(EvidenceLink.case_id == case_id))
        assert link.item_id == new_id and s.get(Passage, link.passage_id).quote == "Ann Lee"
        assert [h.item_id for h in search_workspace(s, "Ann Lee").hits
                if h.kind == "person"] == [new_id]


def test_items_of_a_deleted_case_come_back_only_with_their_case(workspace, case_id):
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Ann Lee").id
        entry_id = item_actions.delete(s, [pid]).value
        case_entry = trash.delete_case(s, case_id).value
    with workspace.transaction() as s, pytest.raises(NotFoundError, match="restore the case"):
        trash.restore(s, entry_id)
    with workspace.transaction() as s:
        trash.restore(s, case_entry)
    with workspace.transaction() as s:
        trash.restore(s, entry_id)
        assert items.get_item(s, pid).title == "Ann Lee"


def test_a_title_taken_since_is_kept_apart_on_restore(workspace, case_id):
    with workspace.transaction() as s:
        entry_id = trash.delete_case(s, case_id).value
        cases.create_case(s, "Test case")
    with workspace.transaction() as s:
        back = trash.restore(s, entry_id)
    assert "(“Test case” is taken now)" in back.message
    with workspace.transaction() as s:
        assert sorted(c.title for c in cases.list_cases(s)) == [
            "Test case", "Test case (restored)"]


def test_empty_deletes_for_good(workspace, case_id):
    with workspace.transaction() as s:
        entry_id = trash.delete_case(s, case_id).value
    with workspace.transaction() as s:
        done = trash.empty(s)
    assert done.value == 1 and done.undo is None
    with workspace.transaction() as s:
        assert trash.list_trash(s) == []
        with pytest.raises(NotFoundError):
            trash.restore(s, entry_id)


def test_rename_and_summary_with_their_undo(workspace, case_id):
    with workspace.transaction() as s:
        cases.create_case(s, "Other")
        renamed = case_actions.rename(s, case_id, "  Harbor audit ")
        summed = case_actions.edit_summary(s, case_id, "Who paid for the dredging.")
    assert renamed.cases and renamed.value == "Harbor audit"
    assert summed.message == "Saved the summary of case “Harbor audit”."
    with workspace.transaction() as s:
        assert cases.find_case(s, "Harbor audit").summary == "Who paid for the dredging."
        with pytest.raises(ValidationError, match="already exists"):
            case_actions.rename(s, case_id, "Other")
        with pytest.raises(ValidationError):
            case_actions.rename(s, case_id, "  ")
    with workspace.transaction() as s:
        run_step(s, summed.undo)
        run_step(s, renamed.undo)
        assert (cases.get_case(s, case_id).title, cases.get_case(s, case_id).summary) == (
            "Test case", None)


@pytest.mark.parametrize("title", ["Harbor\naudit", "Harbor\x07audit", "Harbor\x1b[2Jaudit"])
def test_a_title_with_control_characters_is_refused_naming_the_character(workspace, case_id,
                                                                          title):
    with workspace.transaction() as s:
        with pytest.raises(ValidationError, match=r"cannot hold control characters \(it has U\+"):
            case_actions.rename(s, case_id, title)
        with pytest.raises(ValidationError, match="cannot hold control characters"):
            cases.create_case(s, title)
        assert cases.get_case(s, case_id).title == "Test case"


def test_an_undo_of_a_rename_after_another_rename_is_refused(workspace, case_id):
    with workspace.transaction() as s:
        done = case_actions.rename(s, case_id, "First")
    with workspace.transaction() as s:
        case_actions.rename(s, case_id, "Second")  # someone else, later
    with workspace.transaction() as s, pytest.raises(ConflictError):
        run_step(s, done.undo)
    with workspace.transaction() as s:
        assert cases.get_case(s, case_id).title == "Second"


def test_an_emptied_case_leaves_no_word_of_it_in_the_database_file(sqlite_workspace):
    """Deleted for good means gone from the file: after the Trash is emptied, no byte of the
    workspace's files holds the case's title, a name in it, its document's text or the
    document's original bytes (free pages zeroed, index merged, vocabulary trimmed, blob
    deleted, the delete's change-log row blanked)."""
    from casefile.ingest import ingest_bytes
    from casefile.services import documents
    from casefile.store import Blob

    ws = sqlite_workspace
    secret = (b"Quillfeather told the reporter that Marrowgate Holdings paid the inspector "
              b"in cash.")
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Vexmoor inquiry").id
        kept = cases.create_case(s, "Other story").id
        documents.store_document(s, case_id, secret, ingest_bytes(secret, "tip.txt"))
        documents.store_document(s, kept, b"Council minutes of May 2.",
                                 ingest_bytes(b"Council minutes of May 2.", "minutes.txt"))
        items.create_item(s, case_id, "person", "Quillfeather")
    with ws.transaction() as s:
        trash.delete_case(s, case_id)
    words = [b"Vexmoor", b"Quillfeather", b"Marrowgate", b"quillfeather", b"marrowgate"]
    with ws.transaction() as s:
        trash.empty(s)
    with ws.transaction() as s:
        assert s.scalar(select(Blob.sha256).where(Blob.size == len(secret))) is None
        assert s.scalar(select(Blob.sha256).where(Blob.size == 25)) is not None  # the other case's
    folder = ws.folder
    ws.close()
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert any(p.name == "casefile.sqlite3" for p in files)
    for path in files:
        data = path.read_bytes()
        assert not [w for w in words if w in data], path.name
