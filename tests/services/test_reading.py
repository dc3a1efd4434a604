"""The reading ledger: documents start unread; marking them read, relevant or not relevant
counts in the case's summary, undo puts the exact state back (its time of reading too), a
starred passage is kept, the states travel in CSV/XLSX, FtM (and back) and case archives, and
the CLI lists and marks them. A 0011 workspace upgrades with its documents unread."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from casefile.errors import ConflictError, NotFoundError, ValidationError
from casefile.ingest import ingest_bytes
from casefile.services import (
    archive,
    cases,
    documents,
    ftm_export,
    ftm_import,
    passages,
    reading,
    sheets,
)
from casefile.services.changes import run_step


@pytest.fixture()
def ws(tmp_path: Path):
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path / "ws")
    yield ws
    ws.close()


def _case(ws, n: int = 4) -> tuple[int, list[int]]:
    ids = []
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Levee").id
        for i in range(n):
            raw = f"Memo {i}: the levee contract was reviewed {i} times.".encode()
            ids.append(documents.store_document(s, case_id, raw, ingest_bytes(raw, f"m{i}.txt"),
                                                title=f"Memo {i}").document_id)
    return case_id, ids


def test_marks_count_and_undo_puts_the_exact_state_back(ws):
    case_id, ids = _case(ws)
    with ws.transaction() as s:
        assert reading.reading_summary(s, case_id).unread == 4
        first = reading.mark_documents(s, ids[:2], "read")
    assert first.value == 2 and first.updated == set(ids[:2]) and "document" in first.kinds
    with ws.transaction() as s:
        when = {d.id: d.read_at for d in reading.case_documents(s, case_id)}
        assert all(when[i] is not None for i in ids[:2]) and when[ids[2]] is None
        second = reading.mark_documents(s, [ids[1], ids[2]], "relevant")
        summary = reading.reading_summary(s, case_id)
    assert (summary.unread, summary.read, summary.relevant, summary.reviewed) == (1, 1, 2, 3)
    assert summary.as_text() == "3 of 4 documents reviewed (2 relevant, 0 not relevant); 1 unread"
    with ws.transaction() as s:
        undone = run_step(s, second.undo)
        back = {d.id: (d.reading, d.read_at) for d in reading.case_documents(s, case_id)}
    assert back[ids[1]] == ("read", when[ids[1]])  # the first reading's time, not the undo's
    assert back[ids[2]] == ("unread", None)
    with ws.transaction() as s:
        run_step(s, undone.undo)  # redo
        assert [d.id for d in reading.case_documents(s, case_id, "relevant")] == ids[1:3]


def test_bad_marks_are_refused_with_the_reason(ws):
    case_id, ids = _case(ws, 1)
    with ws.transaction() as s, pytest.raises(ValidationError, match="unknown reading state"):
        reading.mark_documents(s, ids, "skimmed")
    with ws.transaction() as s, pytest.raises(NotFoundError, match="no document with id 999"):
        reading.mark_documents(s, [999], "read")


def test_a_starred_passage_stays_starred_and_undo_unstars(ws):
    case_id, ids = _case(ws, 1)
    with ws.transaction() as s:
        p = passages.add_passage_by_quote(s, ids[0], "the levee contract")
        starred = reading.star_passage(s, p.id)
    assert starred.evidence and starred.value is True
    with ws.transaction() as s:
        from casefile.store import Passage

        assert s.get(Passage, p.id).starred is True
        run_step(s, starred.undo)
        assert s.get(Passage, p.id).starred is False


@pytest.fixture()
def other(ws):
    """A second writer on the same workspace file: another program's own Workspace."""
    from casefile.store.workspace import open_workspace

    second = open_workspace(ws.folder)
    yield second
    second.close()


def test_an_undo_never_overwrites_another_programs_later_mark(ws, other):
    case_id, ids = _case(ws, 2)
    with ws.transaction() as s:
        marked = reading.mark_documents(s, [ids[0]], "relevant")
    with other.transaction() as s:  # another program, after this one
        reading.mark_documents(s, [ids[0]], "irrelevant")
    with ws.transaction() as s, pytest.raises(ConflictError) as refused:
        run_step(s, marked.undo)
    assert str(refused.value) == ("The reading state of “Memo 0” was changed since (by another "
                                  "program); nothing was undone")
    assert _states(ws, case_id)[ids[0]] == "irrelevant"
    # untouched by the other program, an undo and its redo still run; the redo checks too
    with ws.transaction() as s:
        marked = reading.mark_documents(s, ids, "relevant")
    with ws.transaction() as s:
        undone = run_step(s, marked.undo)
    assert _states(ws, case_id) == {ids[0]: "irrelevant", ids[1]: "unread"}
    with other.transaction() as s:
        reading.mark_documents(s, [ids[1]], "read")
    with ws.transaction() as s, pytest.raises(ConflictError, match="nothing was redone"):
        run_step(s, undone.undo)
    assert _states(ws, case_id) == {ids[0]: "irrelevant", ids[1]: "read"}


def test_a_mark_that_changed_nothing_leaves_a_later_mark_alone_on_undo(ws, other):
    case_id, ids = _case(ws, 2)
    with ws.transaction() as s:
        reading.mark_documents(s, [ids[0]], "relevant")
        marked = reading.mark_documents(s, ids, "relevant")  # only the second one changes
    with other.transaction() as s:
        reading.mark_documents(s, [ids[0]], "irrelevant")
    with ws.transaction() as s:
        run_step(s, marked.undo)
    assert _states(ws, case_id) == {ids[0]: "irrelevant", ids[1]: "unread"}


def test_an_unstar_undo_never_overwrites_another_programs_star(ws, other):
    _case_id, ids = _case(ws, 1)
    with ws.transaction() as s:
        p = passages.add_passage_by_quote(s, ids[0], "the levee contract").id
        starred = reading.star_passage(s, p)
    with other.transaction() as s:
        reading.star_passage(s, p, False)
    with ws.transaction() as s, pytest.raises(ConflictError) as refused:
        run_step(s, starred.undo)
    assert "“the levee contract” was changed since (by another program); nothing was " \
        "undone" in str(refused.value)


def _states(ws, case_id: int) -> dict[int, str]:
    with ws.transaction(write=False) as s:
        return {d.id: d.reading for d in reading.case_documents(s, case_id)}


def test_new_since_counts_documents_added_after_the_last_opening(ws):
    case_id, _ids = _case(ws, 2)
    with ws.transaction() as s:
        assert reading.new_since(s, case_id, None) == 0
        stamp = max(d.added for d in reading.case_documents(s, case_id))
        raw = b"A third memo arrived later."
        documents.store_document(s, case_id, raw, ingest_bytes(raw, "late.txt"))
        assert reading.new_since(s, case_id, stamp) == 1
        assert reading.new_since(s, case_id, stamp - dt.timedelta(days=1)) == 3


def test_states_travel_in_tables_ftm_and_archives(ws, tmp_path):
    case_id, ids = _case(ws, 3)
    with ws.transaction() as s:
        reading.mark_documents(s, [ids[0]], "relevant")
        reading.mark_documents(s, [ids[1]], "irrelevant")
        table = next(t for t in sheets.case_tables(s, case_id, profile="internal")
                     if t.name == "documents")
    col = table.columns.index("reading")
    assert [r[col] for r in table.rows] == ["relevant", "irrelevant", "unread"]
    if ftm_export.followthemoney_installed():
        with ws.transaction() as s:
            ftm_export.export_ftm(s, case_id, tmp_path / "c.ftm.json", profile="internal")
            other = cases.create_case(s, "Copy").id
            ftm_import.import_entities(s, other, ftm_import.read_ftm(tmp_path / "c.ftm.json"))
            states = sorted(d.reading for d in reading.case_documents(s, other))
        assert states == ["irrelevant", "relevant", "unread"]
    with ws.transaction() as s:
        archive.export_archive(s, case_id, tmp_path / "levee.casefile")
    from casefile.store.workspace import open_workspace

    fresh = open_workspace(tmp_path / "fresh")
    try:
        with fresh.transaction() as s:
            new_id = archive.import_archive(s, tmp_path / "levee.casefile").case_id
            got = sorted(d.reading for d in reading.case_documents(s, new_id))
        assert got == ["irrelevant", "relevant", "unread"]
    finally:
        fresh.close()


def test_the_cli_lists_and_marks(ws, tmp_path):
    case_id, ids = _case(ws, 3)
    folder = tmp_path / "ws"
    ws.close()

    def run(*args: str) -> str:
        return subprocess.run([sys.executable, "-m", "casefile", "--workspace", str(folder),
                               *args], capture_output=True, text=True, check=True).stdout

    assert run("mark", "relevant", str(ids[0]), str(ids[2])).strip() == \
        "Marked 2 documents relevant."
    listed = json.loads(run("documents", "--case", "Levee", "--state", "unread", "--json"))
    assert [d["id"] for d in listed] == [ids[1]]
    assert "2 of 3 documents reviewed (2 relevant" in run("documents", "--case", "Levee")
    # the word the listing shows is accepted too
    assert run("mark", "not relevant", str(ids[1])).strip() == "Marked “Memo 1” not relevant."


def test_the_command_line_offers_the_stored_states() -> None:
    from casefile import cli
    from casefile.store.items import READING_STATES

    assert cli.READING_STATES == READING_STATES
