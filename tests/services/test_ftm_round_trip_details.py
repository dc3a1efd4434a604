"""The FollowTheMoney round trip keeps what a reporter relies on: two events that share a title
stay two events, and a document's SHA-256 comes back and is shown like a stored file's."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from casefile.services import brief, cases, ftm_export, ftm_import, items
from casefile.services.demo import build_demo
from casefile.store import Document, Event

pytest.importorskip("followthemoney")


def test_events_sharing_a_title_and_documents_hashes_survive_the_round_trip(
        workspace, other_workspace, tmp_path: Path) -> None:
    with workspace.transaction() as s:
        case_id = build_demo(s)[0]
        items.create_item(s, case_id, "event", "Council meeting", date=date(2024, 1, 5))
        items.create_item(s, case_id, "event", "Council meeting", date=date(2024, 2, 9))
        hashes = sorted(d.sha256 for d in s.scalars(select(Document).where(
            Document.case_id == case_id)))
    out = tmp_path / "case.ftm.json"
    with workspace.transaction() as s:
        ftm_export.export_ftm(s, case_id, out)
    with other_workspace.transaction() as s:
        copy = cases.create_case(s, "Copy").id
        ftm_import.import_file(s, copy, out)
    with other_workspace.transaction() as s:
        meetings = sorted(e.date for e in s.scalars(select(Event).where(
            Event.case_id == copy, Event.title == "Council meeting")))
        assert meetings == [date(2024, 1, 5), date(2024, 2, 9)]
        docs = list(s.scalars(select(Document).where(Document.case_id == copy)))
        assert sorted(d.file_sha256 for d in docs) == hashes
        sources = brief.build_brief_data(s, copy).sources
        assert sorted(src.sha256 for src in sources) == hashes  # printed in the brief
    with other_workspace.transaction() as s:  # the same file again merges, it adds nothing
        ftm_import.import_file(s, copy, out)
    with other_workspace.transaction() as s:
        assert len(list(s.scalars(select(Event).where(
            Event.case_id == copy, Event.title == "Council meeting")))) == 2
        assert len(list(s.scalars(select(Document).where(Document.case_id == copy)))) == 1
