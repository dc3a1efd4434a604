"""Grouped imports (one duplicate check per file, multi-row inserts, slow formats read in worker
processes) store the same rows as importing each file alone in its own transaction, the way
every file went before; the cheaper HTML pass equals trafilatura's own call; suggestions made
in worker processes equal those made in process."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from casefile.errors import CasefileError
from casefile.ingest import ingest_file
from casefile.ingest.html import KEPT_METADATA, main_text_and_metadata, trafilatura_result
from casefile.services import batch
from casefile.services.cases import create_case
from casefile.services.dating import guess_published, new_note
from casefile.services.documents import store_document
from casefile.services.items import parse_date
from casefile.services.suggest_pool import SuggestionPool, suggest_in_background
from casefile.services.suggestions import suggest_documents
from casefile.store import ChangeLog, Document
from casefile.store.workspace import open_workspace
from scripts.bench_paths.importing import make_corpus
from tests.e2e.case_rows import case_rows
from tests.e2e.make_files import mixed_folder

CASE = "Harbor"


def _one_by_one(ws, case_id: int, files: list[Path]) -> list[tuple[str, str]]:
    """Each file read, dated (as ``guess_dates`` does) and stored in its own transaction,
    checked for duplicates first: the import as it was before files were grouped."""
    outcomes = []
    for path in files:
        try:
            data, ingested = ingest_file(path)
            try:
                in_metadata = parse_date(ingested.published)
            except CasefileError:
                in_metadata = None
            guess = guess_published(path, ingested.text, in_metadata)
            note = new_note(guess, ingested.notes)
            if note:
                ingested.notes.append(note)
            with ws.transaction() as s:
                result = store_document(s, case_id, data, ingested, published=guess.date,
                                        filename=path.name)
        except CasefileError as exc:
            outcomes.append((path.name, f"failed: {exc}"))
            continue
        outcomes.append((path.name, "imported" if result.created else "already there"))
    return outcomes


def _documents(session, case_id: int) -> list[tuple]:
    """Every document row that a reporter sees, in id order (ids themselves left out)."""
    docs = session.scalars(select(Document).where(Document.case_id == case_id)
                           .order_by(Document.id)).all()
    titles = {d.id: d.title for d in docs}
    return [(d.title, d.filename, d.doc_kind, d.mime_type, d.author, d.outlet, d.url,
             d.published, d.sha256, d.text, d.page_starts, d.import_notes, d.meta,
             titles.get(d.parent_id)) for d in docs]


def _workspace_with_case(where: Path):
    ws = open_workspace(where)
    with ws.transaction() as s:
        case_id = create_case(s, CASE).id
    return ws, case_id


@pytest.mark.parametrize("workers", [0, 1], ids=["in-process", "worker-process"])
def test_grouped_import_stores_what_one_file_per_transaction_stored(
        tmp_path: Path, workers: int, monkeypatch) -> None:
    folder = tmp_path / "inbox"
    expected = mixed_folder(folder)
    make_corpus(folder / "pages", 12, "html")  # enough slow files for the worker process
    files = list(batch.iter_import_files([folder]))
    monkeypatch.setattr("casefile.ingest.pool.MIN_SLOW_FILES", 1)

    old_ws, old_case = _workspace_with_case(tmp_path / "old")
    old = _one_by_one(old_ws, old_case, files)
    new_ws, new_case = _workspace_with_case(tmp_path / "new")
    done = batch.import_paths(new_ws.transaction, new_case, [folder], guess_dates=True,
                              workers=workers)

    got = [(o.path.name, o.status if o.status != "failed" else f"failed: {o.error}")
           for o in done.outcomes]
    assert got == old
    statuses = {o.path.relative_to(folder).as_posix(): o.status for o in done.outcomes}
    assert {rel: statuses[rel] for rel in expected} == expected
    with old_ws.transaction() as a, new_ws.transaction() as b:
        assert _documents(b, new_case) == _documents(a, old_case)
        assert case_rows(b, CASE) == case_rows(a, CASE)
        logged = [(c.action, c.summary, c.data) for c in b.scalars(
            select(ChangeLog).where(ChangeLog.action == "document.import")
            .order_by(ChangeLog.id))]
        assert logged == [(c.action, c.summary, c.data) for c in a.scalars(
            select(ChangeLog).where(ChangeLog.action == "document.import")
            .order_by(ChangeLog.id))]
    # and a second run finds every stored file already there, without storing anything
    again = batch.import_paths(new_ws.transaction, new_case, [folder], workers=workers)
    assert again.count("imported") == 0
    assert again.count("already there") == done.count("imported") + done.count("already there")
    old_ws.close()
    new_ws.close()


def test_a_file_that_cannot_be_stored_fails_alone_and_its_group_is_stored(
        tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for n in range(5):
        (folder / f"note-{n}.txt").write_text(f"Note {n} on the harbor audit.\n")
    ws, case_id = _workspace_with_case(tmp_path / "ws")
    real = batch._guess

    def odd_date(path, ingested, fallback=None, by_file=None):  # a date that is no date
        result = real(path, ingested, fallback, by_file)
        if path.name == "note-2.txt":
            ingested.published = "2018-02-30"
            return None
        return result

    monkeypatch.setattr(batch, "_guess", odd_date)
    done = batch.import_paths(ws.transaction, case_id, [folder], guess_dates=True)
    assert [o.status for o in done.outcomes] == ["imported"] * 2 + ["failed"] + ["imported"] * 2
    assert "2018-02-30" in (done.outcomes[2].error or "")
    with ws.transaction() as s:
        names = [d.filename for d in s.scalars(select(Document).order_by(Document.id))]
    assert names == ["note-0.txt", "note-1.txt", "note-3.txt", "note-4.txt"]
    ws.close()


def test_same_bytes_twice_in_one_group_are_stored_once(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("The harbor audit memo.\n")
    (folder / "b.txt").write_text("Another memo.\n")
    shutil.copy(folder / "a.txt", folder / "c.txt")
    ws, case_id = _workspace_with_case(tmp_path / "ws")
    done = batch.import_paths(ws.transaction, case_id, [folder], published=date(2020, 1, 2))
    assert [o.status for o in done.outcomes] == ["imported", "imported", "already there"]
    first, third = done.outcomes[0].result, done.outcomes[2].result
    assert first is not None and third is not None
    assert third.document_id == first.document_id and third.title == first.title
    ws.close()


def test_cheaper_html_pass_equals_trafilaturas_own_call(tmp_path: Path) -> None:
    pages = [p.read_text(encoding="utf-8") for p, _ in make_corpus(tmp_path, 20, "html")]
    body = "<p>" + "The council delayed the harbor audit again. " * 12 + "</p>"
    pages += [
        f"<html><head><title>Plain</title></head><body><article>{body}</article></body></html>",
        '<html><head><meta name="twitter:site" content="@ledger"><script type="application/'
        'ld+json">{"@type":"NewsArticle","headline":"From JSON","author":{"@type":"Person",'
        '"name":"Ana Silva"},"datePublished":"2020-02-03","publisher":{"name":"harbor news"}}'
        f"</script></head><body><div>{body}</div></body></html>",
        '<html><head><meta name="author" content="single"><link rel="canonical" '
        f'href="https://example.org/a/1"></head><body><main>{body}</main><footer><a href='
        '"https://creativecommons.org/licenses/by/4.0/">CC BY</a></footer></body></html>',
        "<html><body><p>too short</p></body></html>",
    ]
    for page in pages:
        own = trafilatura_result(page)
        assert main_text_and_metadata(page) == (
            None if own is None else {k: own.get(k) for k in ("text", *KEPT_METADATA)})


def test_suggestions_in_worker_processes_equal_those_made_in_process(tmp_path: Path) -> None:
    files = make_corpus(tmp_path / "docs", 6, "txt")
    stored = {}
    for name in ("here", "pool"):
        ws, case_id = _workspace_with_case(tmp_path / name)
        done = batch.import_paths(ws.transaction, case_id, [files[0][0].parent],
                                  published="2019-03-01")
        ids = [o.result.document_id for o in done.outcomes if o.result is not None]
        if name == "here":
            with ws.transaction() as s:
                made = suggest_documents(s, ids)
        else:
            pool = SuggestionPool(2)
            try:
                made = suggest_in_background(ws.transaction, ids, pool=pool)
            finally:
                pool.close()
        assert made.documents == frozenset(ids) and made.suggestions
        with ws.transaction() as s:
            stored[name] = (case_rows(s, CASE), made.message)
        ws.close()
    assert stored["pool"] == stored["here"]
    assert sum(stored["here"][0]["mentions"].values()) > 0
