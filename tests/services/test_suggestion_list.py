"""The Suggestions list grouped by the database (services/suggestion_list.py over
store/mention_groups.py) gives the same entries as grouping every stored mention in Python:
kinds, names, variants (an event's date, a follow-up's kind and due date), counts, the first
mention, its snippet (read from a window of its document's text, at the start and the end of a
text too), roles and affiliations; on both engines."""

from __future__ import annotations

import json
import random
from typing import Any

from sqlalchemy import insert, select

from casefile.services import decisions
from casefile.services.suggestion_list import (
    SUGGESTION_KINDS,
    SuggestionEntry,
    SuggestionList,
    context_snippet,
    variant_of,
)
from casefile.store import Document, Mention
from scripts import synthetic


def grouped_in_python(session: Any, case_id: int, kind: str | None = None) -> SuggestionList:
    """Every pending mention read and grouped here, first mention first (the oracle)."""
    stmt = select(Mention).where(Mention.case_id == case_id, Mention.status == "suggested",
                                 Mention.kind.in_(SUGGESTION_KINDS))
    if kind is not None:
        stmt = stmt.where(Mention.kind == kind)
    rows = session.scalars(stmt.order_by(Mention.document_id, Mention.start, Mention.id)).all()
    groups: dict[tuple[str, str, str], list[Mention]] = {}
    for m in rows:
        groups.setdefault((m.kind, m.name, variant_of(m.kind, m.detail)), []).append(m)
    by_kind: dict[str, list[SuggestionEntry]] = {}
    for (k, name, variant), ms in groups.items():
        first = ms[0]
        doc = session.get(Document, first.document_id)
        text = doc.text if doc is not None else ""
        if text and 0 <= first.start < first.end <= len(text):
            snippet, highlight = context_snippet(text, first.start, first.end)
        else:
            snippet, highlight = first.text, (0, len(first.text))
        by_kind.setdefault(k, []).append(SuggestionEntry(
            kind=k, name=name, variant=variant,
            role=next((m.role for m in ms if m.role), None),
            affiliation=next((m.affiliation for m in ms if m.affiliation), None),
            detail=dict(first.detail or {}), mentions=len(ms),
            documents=len({m.document_id for m in ms}), snippet=snippet, highlight=highlight,
            document_id=first.document_id, document_title=doc.title if doc else "",
            start=first.start, end=first.end,
            mention_ids=(first.id, *sorted(m.id for m in ms[1:]))))
    return SuggestionList({k: by_kind[k] for k in SUGGESTION_KINDS if k in by_kind})


DETAILS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("person", "Nadia Ferreira", None),
    ("person", "Tom Becker", {}),
    ("organization", "Harbor Police Department", None),
    ("place", "Łódź", None),
    ("event", "The vote was held on 3 March.", {"date": "2024-03-03", "precision": "day"}),
    ("event", "The vote was held on 3 March.", {"date": "2024-03-04", "precision": "day"}),
    ("event", "A hearing without a date.", {}),
    ("question", "Records of the audit are due.", {"question_kind": "expected record",
                                                    "due": "2024-04-02"}),
    ("question", "Records of the audit are due.", {"question_kind": "open question"}),
    ("question", "Records of the audit are due.", {"kind": "question", "due": ""}),
    ("question", "Records of the audit are due.", {"question_kind": "no such kind"}),
    ("question", "Who paid?", None),
    ("claim", "We have nothing to hide.", {"attributed_to": "Tom Becker", "via": "Gazette"}),
    ("not a kind", "Ignored", None),
]


def fill(workspace: Any, case_id: int, seed: int) -> None:
    """Documents (a very short one, long ones) and ~600 mentions of DETAILS at random spans,
    the text's first and last characters among them; some rejected, some with roles."""
    rng = random.Random(seed)
    with workspace.transaction() as s:
        texts = ["Short text."] + [d.text for d in synthetic.documents(6, seed=seed, size=2500)]
        docs = []
        for k, text in enumerate(texts):
            doc = Document(case_id=case_id, title=f"Document {k}", text=text,
                           mime_type="text/plain")
            s.add(doc)
            docs.append(doc)
        s.flush()
        rows = []
        for n in range(600):
            doc = rng.choice(docs)
            text = doc.text
            kind, name, detail = rng.choice(DETAILS)
            start = rng.choice((0, len(text) - 5, rng.randrange(len(text) - 5)))
            end = start + rng.randrange(1, 6)
            if n % 97 == 0:
                start, end = len(text) + 3, len(text) + 9  # the text changed since
            rows.append({
                "case_id": case_id, "document_id": doc.id, "kind": kind, "name": name,
                "start": start, "end": end, "text": text[start:end] or "gone",
                "role": rng.choice((None, "", "clerk", "chief")) if kind == "person" else None,
                "affiliation": rng.choice((None, "", "Vale Transit Agency")),
                "status": "rejected" if n % 13 == 0 else "suggested", "detail": detail})
        s.execute(insert(Mention), rows)


def test_the_grouped_list_is_the_list_of_every_mention_grouped(workspace, case_id) -> None:
    fill(workspace, case_id, 29)
    with workspace.transaction(write=False) as s:
        for kind in (None, "question", "event", "person"):
            got = decisions.list_suggestions(s, case_id, kind)
            want = grouped_in_python(s, case_id, kind)
            assert list(got.by_kind) == list(want.by_kind)
            for k in want.by_kind:
                assert got.by_kind[k] == want.by_kind[k], k
        total = decisions.list_suggestions(s, case_id)
        # "open question", an unknown kind and a missing one read as "question", no due as ""
        assert {(e.name, e.variant) for e in total.by_kind["question"]} == {
            ("Records of the audit are due.", "expected record|2024-04-02"),
            ("Records of the audit are due.", "question|"), ("Who paid?", "question|")}
        assert {e.variant for e in total.by_kind["event"]} == {"2024-03-03", "2024-03-04", ""}
        assert sum(e.mentions for es in total.by_kind.values() for e in es) == len(
            {i for es in total.by_kind.values() for e in es for i in e.mention_ids})


def test_a_case_without_suggestions_lists_none(workspace, case_id) -> None:
    with workspace.transaction(write=False) as s:
        assert decisions.list_suggestions(s, case_id).by_kind == {}
        assert not decisions.pending_at_least(s, case_id, 1)


def test_pending_at_least_counts_only_waiting_mentions(workspace, case_id) -> None:
    fill(workspace, case_id, 7)
    with workspace.transaction(write=False) as s:
        waiting = len(s.scalars(select(Mention.id).where(
            Mention.case_id == case_id, Mention.status == "suggested")).all())
        assert decisions.pending_at_least(s, case_id, waiting)
        assert not decisions.pending_at_least(s, case_id, waiting + 1)


def test_details_are_plain_dicts(workspace, case_id) -> None:
    fill(workspace, case_id, 3)
    with workspace.transaction(write=False) as s:
        for entries in decisions.list_suggestions(s, case_id).by_kind.values():
            for e in entries:
                assert isinstance(e.detail, dict)
                json.dumps(e.detail)


def test_unread_language_notes_are_found_among_every_documents_notes(workspace,
                                                                     case_id) -> None:
    from casefile.extract.language import NOTE_PREFIX
    from casefile.services.suggestions import unread_language_notes

    korean = f"{NOTE_PREFIX}Korean; ko_core_news_sm would read its names."
    greek = f"{NOTE_PREFIX}Greek; el_core_news_sm would read its names."
    notes: list[list[str] | None] = [[korean], ["Published date from the page."], None,
                                     [korean, "OCR: 2 pages."], [greek], [],
                                     ["no suggestions: the text is in Korean (not the note)"]]
    with workspace.transaction() as s:
        for k, n in enumerate(notes):
            s.add(Document(case_id=case_id, title=f"Document {k}", text="Text.",
                           mime_type="text/plain", import_notes=n))
    with workspace.transaction(write=False) as s:
        assert unread_language_notes(s, case_id) == [
            f"{korean} (2 documents: “Document 0”, “Document 3”)", f"“Document 4”: {greek}"]


def test_documents_waiting_for_suggestions_are_those_no_run_has_read(workspace,
                                                                     case_id) -> None:
    """Imported documents wait for a suggestion run until one reads them; an attachment and
    a document of the sample case never wait (in both database engines)."""
    from casefile.ingest import ingest_bytes
    from casefile.services import documents
    from casefile.services.suggestions import suggest_for_document
    from casefile.services.waiting import waiting_for_suggestions

    ids = []
    with workspace.transaction() as s:
        for n in range(3):
            raw = f"Mayor Lena Holt said report {n} is due Friday.".encode()
            ids.append(documents.store_document(s, case_id, raw,
                                                ingest_bytes(raw, f"r{n}.txt")).document_id)
        raw = b"A note kept for the record."
        quiet = documents.store_document(s, case_id, raw, ingest_bytes(raw, "q.txt"),
                                         suggestions_follow=False).document_id
        child = documents.store_document(s, case_id, b"An attachment.",
                                         ingest_bytes(b"An attachment.", "a.txt"),
                                         parent_id=ids[0]).document_id
    with workspace.transaction() as s:
        assert waiting_for_suggestions(s, case_id) == ids
        suggest_for_document(s, ids[1], mode="rules")
    with workspace.transaction(write=False) as s:
        assert waiting_for_suggestions(s, case_id) == [ids[0], ids[2]]
        assert quiet not in waiting_for_suggestions(s, case_id)
        assert child not in waiting_for_suggestions(s, case_id)


def test_a_list_read_for_later_reads_each_rows_rest_when_asked_and_gives_the_same_entries(
        workspace, case_id, monkeypatch) -> None:
    """With ``later`` the list is read alone; the rest of an entry (role, snippet...; its
    mentions: documents, ids) is read when first asked for, in a transaction of its own, for
    it and the next entries at once; the entries are the same as those read whole."""
    from casefile.services import suggestion_list

    fill(workspace, case_id, 41)
    batches: dict[str, list[int]] = {"details": [], "members": []}

    def counting(name, original):
        def counted(reader, case, groups, *args):
            batches[name].append(len(groups))
            return original(reader, case, groups, *args)
        return counted

    monkeypatch.setattr(suggestion_list, "group_details",
                        counting("details", suggestion_list.group_details))
    monkeypatch.setattr(suggestion_list, "group_members",
                        counting("members", suggestion_list.group_members))
    monkeypatch.setattr(suggestion_list, "LATER_BATCH", 3)
    monkeypatch.setattr(suggestion_list, "MEMBERS_BATCH", 2)
    with workspace.transaction(write=False) as s:
        listed = decisions.list_suggestions(s, case_id, later=True)
    assert batches == {"details": [], "members": []}  # nothing but the list read yet
    entries = [e for es in listed.by_kind.values() for e in es]
    assert len(entries) > 3
    first = entries[0].snippet  # read with the two after it, after the list's transaction
    assert entries[2].role is None or entries[2].role
    assert batches == {"details": [3], "members": []} and first
    assert entries[0].mention_ids and entries[1].documents
    assert batches == {"details": [3], "members": [2]}
    with workspace.transaction(write=False) as s:
        want = grouped_in_python(s, case_id)
    assert listed == want
    assert sum(batches["details"]) == sum(batches["members"]) == len(entries)


def test_an_entry_decided_before_its_rest_was_read_is_read_again_once_pending(
        workspace, case_id) -> None:
    """Read after a decision, an entry of a list read for later has no mentions left;
    ``read_again_later`` (the panel's undo of the decision) reads them again."""
    from sqlalchemy import update

    from casefile.services.suggestion_list import read_again_later

    fill(workspace, case_id, 5)
    with workspace.transaction(write=False) as s:
        whole = decisions.list_suggestions(s, case_id)
        listed = decisions.list_suggestions(s, case_id, later=True)
    person = listed.by_kind["person"][0]
    want = whole.by_kind["person"][0]
    with workspace.transaction() as s:
        s.execute(update(Mention).where(Mention.id.in_(want.mention_ids)).values(
            status="rejected"))
    assert person.documents == 0 and person.role is None
    with workspace.transaction() as s:
        s.execute(update(Mention).where(Mention.id.in_(want.mention_ids)).values(
            status="suggested"))
    read_again_later(person)
    assert person == want
