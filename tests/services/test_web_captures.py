"""A saved web page stored as evidence: its capture (URL, time, hash) is on the document, in
the window's document header, beside its citation in the brief and in the FtM export."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path

import pytest

from casefile.ingest import ingest_bytes
from casefile.services import brief, documents, views
from casefile.services.ftm_export import followthemoney_installed
from casefile.store import Document
from tests.e2e.cli_helpers import pdf_text, squash
from tests.ingest.test_ingest_webarchive import PAGE, URL, mhtml, warc


@pytest.fixture
def stored(workspace, case_id) -> tuple[int, int]:
    """An MHTML and a WARC capture of the page, imported; their document ids."""
    ids = []
    for name, data in (("fees.mhtml", mhtml(PAGE)),
                       ("fees.warc.gz", warc([(URL, PAGE, "2026-11-30T22:40:05Z")]))):
        with workspace.transaction() as s:
            ids.append(documents.store_document(s, case_id, data, ingest_bytes(data, name),
                                                published="2026-11-30").document_id)
    return ids[0], ids[1]


def test_the_capture_is_kept_and_shown_in_the_document_header(workspace, stored) -> None:
    mhtml_id, warc_id = stored
    with workspace.transaction() as s:
        doc = s.get(Document, warc_id)
        assert doc.url == URL and doc.retrieved == date(2026, 11, 30)  # the capture's day
        assert doc.meta["capture"]["captured"] == "2026-11-30T22:40:05Z"
        assert doc.meta["capture"]["sha256"] == hashlib.sha256(PAGE).hexdigest()
        header = views.document_view(s, warc_id).capture
        assert s.get(Document, mhtml_id).retrieved == date(2026, 12, 2)
    assert header == (f"Saved from {URL} on 2026-11-30 22:40:05 UTC (WARC), page SHA-256 "
                      f"{hashlib.sha256(PAGE).hexdigest()}")


def test_the_brief_prints_the_capture_beside_the_source(workspace, case_id, stored,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "brief.pdf"
    with workspace.transaction() as s:
        brief.export_brief(s, case_id, out, today=date(2026, 12, 3))
    text = squash(pdf_text(out))
    assert "Web capture: Saved from" in text
    assert "on 2026-11-30 22:40:05 UTC (WARC)" in text
    assert "on 2026-12-02 09:15:00 UTC (MHTML)" in text
    assert text.count(hashlib.sha256(PAGE).hexdigest()[:24]) >= 2


@pytest.mark.skipif(not followthemoney_installed(), reason="followthemoney not installed")
def test_ftm_has_source_url_and_the_capture_time(workspace, case_id, stored) -> None:
    from casefile.services.ftm_export import case_entities

    with workspace.transaction() as s:
        entities = case_entities(s, case_id)
    docs = [e for e in entities if "sourceUrl" in e["properties"]]
    assert len(docs) == 2
    assert sorted(v for e in docs for v in e["properties"]["retrievedAt"]) == [
        "2026-11-30T22:40:05", "2026-12-02T09:15:00"]
    assert all(e["properties"]["sourceUrl"] == [URL] for e in docs)
    page = hashlib.sha256(PAGE).hexdigest()
    summaries = sorted(line for e in docs for line in e["properties"]["summary"]
                       if not line.startswith("SHA-256: "))
    assert summaries == [  # the time zone, the page's own hash and the format kept too
        "Capture format: MHTML", "Capture format: WARC",
        "Captured (UTC): 2026-11-30T22:40:05Z", "Captured (UTC): 2026-12-02T09:15:00Z",
        f"Page SHA-256: {page}", f"Page SHA-256: {page}"]


@pytest.mark.skipif(not followthemoney_installed(), reason="followthemoney not installed")
def test_a_capture_comes_back_whole_from_an_ftm_round_trip(workspace, case_id, stored) -> None:
    from casefile.services import cases
    from casefile.services.ftm_export import case_entities
    from casefile.services.ftm_import import import_entities

    _mhtml_id, warc_id = stored
    with workspace.transaction() as s:
        entities = case_entities(s, case_id)
        before = s.get(Document, warc_id).meta["capture"]
        other = cases.create_case(s, "Round trip").id
    with workspace.transaction() as s:
        import_entities(s, other, entities)
    with workspace.transaction() as s:
        back = [d.meta.get("capture") for d in s.query(Document).filter(
            Document.case_id == other)]
    assert {k: before[k] for k in ("url", "captured", "sha256", "format")} in back


def test_the_command_line_imports_a_web_archive_and_lists_its_capture(tmp_path: Path) -> None:
    import json

    from tests.e2e.cli_helpers import casefile

    archive = tmp_path / "fees.warc.gz"
    archive.write_bytes(warc([(URL, PAGE, "2026-11-30T22:40:05Z")]))
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "Fees").code == 0
    done = casefile(ws, "import", str(archive), "--case", "Fees", "--no-suggest", "--no-ocr",
                    "--published", "2026-11-30")
    assert done.code == 0, done.err
    listed = casefile(ws, "items", "--case", "Fees", "--json")
    assert listed.code == 0, listed.err
    [doc] = [i for i in json.loads(listed.out) if i["kind"] == "document"]
    assert doc["url"] == URL
    assert doc["capture"] == {"url": URL, "captured": "2026-11-30T22:40:05Z",
                              "sha256": hashlib.sha256(PAGE).hexdigest(), "format": "WARC"}


def test_a_saved_page_says_once_where_its_date_came_from(tmp_path: Path) -> None:
    """The page's reader names where it found the date; the import does not say it again as
    "taken from the file's metadata"."""
    from casefile.services.batch import import_paths
    from casefile.services.cases import create_case
    from casefile.store.workspace import open_workspace

    page = (b"<html><head><title>Fees</title><meta property='article:published_time' "
            b"content='2026-11-29T08:00:00Z'></head><body><article><p>The harbour board "
            b"raised fees for every berth on Monday, the board said.</p></article></body>"
            b"</html>")
    path = tmp_path / "fees.warc.gz"
    path.write_bytes(warc([(URL, page, "2026-11-30T22:40:05Z")]))
    ws = open_workspace(tmp_path / "ws")
    try:
        with ws.transaction() as s:
            case_id = create_case(s, "Fees").id
        import_paths(ws.transaction, case_id, [path], workers=0, guess_dates=True)
        with ws.transaction() as s:
            (doc,) = s.query(Document).all()
            notes = [n for n in doc.import_notes if "ublished date" in n]
    finally:
        ws.close()
    assert doc.published == date(2026, 11, 29)
    assert len(notes) == 1 and notes[0].startswith("Published date 2026-11-29 from ")
