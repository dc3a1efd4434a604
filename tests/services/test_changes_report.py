"""What changed is checked, not trusted (ARCHITECTURE.md, "One way in for changes"): every
registered action runs on a case, and the ``Changes`` it returns must name everything its
transaction wrote. The window refreshes from ``Changes`` alone, so a kind, an item, evidence or
a suggestion written but not reported is a table left stale.

What the transaction wrote is read from the database itself: every table of the schema before
and after the action (in the same transaction, flushed), compared row by row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.services import changes as changes_module
from casefile.services import items
from casefile.services.changes import Changes, Step, changes, registered_actions, run_step
from casefile.store import Base, Claim, Document, Organization, Person, Place, Question

#: Tables whose rows are items (one id across ``items`` and its kind's table).
ITEM_TABLES = frozenset({"items", "people", "organizations", "places", "documents", "events",
                         "claims", "questions"})
#: Bookkeeping no view shows from ``Changes``: the change log, blobs, the Trash's own rows
#: (the Trash dialog reloads on every change).
IGNORED = frozenset({"change_log", "blobs", "trash_entries", "trash_rows"})

Rows = dict[str, dict[tuple[Any, ...], dict[str, Any]]]


def snapshot(session: Session) -> Rows:
    """Every row of every table of the schema, ``{table: {primary key: {column: value}}}``."""
    session.flush()
    conn = session.connection()
    out: Rows = {}
    for table in Base.metadata.sorted_tables:
        keys = [c.name for c in table.primary_key.columns]
        out[table.name] = {tuple(r[k] for k in keys): dict(r)
                           for r in conn.execute(select(table)).mappings()}
    return out


@dataclass
class Written:
    """What a transaction wrote: per table, the primary keys of rows inserted, updated,
    deleted; and each row as it was (or is, for a new one)."""

    inserted: dict[str, set[tuple[Any, ...]]] = field(default_factory=dict)
    updated: dict[str, set[tuple[Any, ...]]] = field(default_factory=dict)
    deleted: dict[str, set[tuple[Any, ...]]] = field(default_factory=dict)
    rows: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = field(default_factory=dict)

    def touched(self, table: str) -> set[tuple[Any, ...]]:
        return (self.inserted.get(table, set()) | self.updated.get(table, set())
                | self.deleted.get(table, set()))


def written(before: Rows, after: Rows) -> Written:
    out = Written()
    for table in before:
        old, new = before[table], after[table]
        out.inserted[table] = set(new) - set(old)
        out.deleted[table] = set(old) - set(new)
        out.updated[table] = {k for k in set(old) & set(new) if old[k] != new[k]}
        out.rows[table] = {**old, **new}
    return out


def under_reported(done: Written, reported: Changes) -> list[str]:
    """What ``done`` wrote that ``reported`` does not say, one line each (empty: it says all).

    - an item row (``items`` or its kind's table) inserted: its id in ``created``, its kind in
      ``kinds``; deleted: in ``deleted``; updated: in any of the three, its kind in ``kinds``;
      a follow-up's status history counts as its follow-up updated; a document's own row
      updated (its text, pages, published date): also in ``documents`` (its page pane
      reloads from that);
    - a relationship written: both of its items as updated (or created, deleted), their kinds;
    - a passage or evidence link written: ``evidence``, and its document in ``documents`` (or
      created, deleted);
    - a mention written: ``suggestions``, and its document in ``documents`` (or created,
      deleted);
    - a case written: ``cases``;
    - a watched name or a watch hit written: ``watch`` (or ``cases``: a case's list goes and
      comes back with it; or, for a hit, its document created or deleted: an import and its
      undo).
    """
    problems: list[str] = []
    ids = reported.created | reported.updated | reported.deleted
    kind_of = {k[0]: r["kind"] for k, r in done.rows.get("items", {}).items()}

    def item(item_id: int, how: str, why: str) -> None:
        kind = kind_of.get(item_id, "?")
        wanted = {"inserted": reported.created, "deleted": reported.deleted}.get(how, ids)
        if item_id not in wanted:
            problems.append(f"{kind} {item_id} {how} ({why}) but not reported as such")
        if kind not in reported.kinds:
            problems.append(f"kind {kind!r} written ({why}) but not in kinds")

    for table in sorted(ITEM_TABLES):
        for how in ("inserted", "deleted", "updated"):
            for (item_id,) in getattr(done, how).get(table, ()):
                item(item_id, how if table == "items" else "updated", table)
    for (doc,) in done.updated.get("documents", ()):
        if doc not in reported.documents:
            problems.append(f"document {doc} updated (documents) but not in documents")
    for key in done.touched("question_status_changes"):
        item(done.rows["question_status_changes"][key]["question_id"], "updated",
             "status history")
    for key in done.touched("relationships"):
        row = done.rows["relationships"][key]
        for end in (row["source_id"], row["target_id"]):
            item(end, "updated", "relationship")
    for table, flag in (("passages", "evidence"), ("evidence_links", "evidence"),
                        ("mentions", "suggestions")):
        for key in done.touched(table):
            row = done.rows[table][key]
            if not getattr(reported, flag):
                problems.append(f"{table} written but {flag} is False")
            doc = row.get("document_id")
            if doc is not None and doc not in reported.documents | ids:
                problems.append(f"{table} of document {doc} written but the document is not "
                                "in documents")
    if done.touched("cases") and not reported.cases:
        problems.append("a case written but cases is False")
    for table in ("watch_names", "watch_hits"):
        for key in done.touched(table):
            doc = done.rows[table][key].get("document_id")
            if not (reported.watch or reported.cases
                    or doc in reported.created | reported.deleted):
                problems.append(f"{table} written but watch is False")
    unknown = {t for t in done.rows if done.touched(t)} - ITEM_TABLES - IGNORED - {
        "question_status_changes", "relationships", "passages", "evidence_links", "mentions",
        "cases", "watch_names", "watch_hits"}
    problems += [f"{t} written: no rule says what Changes must report" for t in sorted(unknown)]
    return sorted(set(problems))


class Checker:
    """Runs actions, each in its own transaction, checks each one's ``Changes`` against what
    it wrote, and remembers which registered actions ran."""

    def __init__(self, workspace: Any) -> None:
        self.workspace = workspace
        self.registry = registered_actions()
        self.names = {fn: name for name, fn in self.registry.items()}
        self.ran: set[str] = set()
        self.wrote: set[str] = set()  # actions whose transaction wrote rows a view shows
        self.problems: list[str] = []

    def call(self, name: str, action: Callable[[Session], Changes]) -> Changes:
        """Run ``action(session)`` (the action ``name``) in a transaction of its own and check
        its Changes; returns them."""
        with self.workspace.transaction() as s:
            before = snapshot(s)
            result = action(s)
            done = written(before, snapshot(s))
            found = under_reported(done, result)
        self.ran.add(name)
        if any(done.touched(t) for t in done.rows if t not in IGNORED):
            self.wrote.add(name)
        self.problems += [f"{name}: {p}" for p in found]
        return result

    def run(self, fn: Callable[..., Changes], *args: Any, undo: int = 2, **kwargs: Any
            ) -> Changes:
        """Run the registered action ``fn``, then up to ``undo`` steps of its undo chain
        (undo, then redo...); returns the action's own Changes."""
        name = self.names[fn]
        first = self.call(name, lambda s: fn(s, *args, **kwargs))
        step = first.undo
        for _ in range(undo):
            if step is None:
                break
            current: Step = step
            step = self.call(current.action, lambda s, st=current: run_step(s, st)).undo
        return first


#: A made-up article with names the demo case does not hold, so every kind has a pending
#: suggestion (rules mode finds them without a language model).
ARTICLE = """Dockside audit questioned

By Tamsin Veld

Harwick Port Authority officials met with Ansel Brightwater, a spokesman for the Merrow \
Shipping Company, on March 3, 2021, in Kellan Bay.
"We never moved the containers," Brightwater told the Kellan Bay Courier.
Reporters asked the Harwick Port Authority for the inspection records; the authority has not \
responded and promised to send them by March 20, 2021.
Odile Fenwick, a clerk at the Merrow Shipping Company, said the audit was cancelled.
"""


@pytest.fixture
def demo(sqlite_workspace: Any) -> Iterator[tuple[Any, int, int]]:
    """The demo case (``casefile demo``) plus :data:`ARTICLE` with its suggestions found
    (rules mode): (workspace, case id, the article's document id)."""
    from casefile.ingest import ingest_bytes
    from casefile.services import documents
    from casefile.services.demo import build_demo
    from casefile.services.suggestions import suggest_for_document

    raw = ARTICLE.encode()
    with sqlite_workspace.transaction() as s:
        case_id, _ = build_demo(s)
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, "audit.txt"),
                                          published="2021-03-04").document_id
    with sqlite_workspace.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    yield sqlite_workspace, case_id, doc_id


def _first(s: Session, model: Any, case_id: int) -> int:
    found = s.scalar(select(model.id).where(model.case_id == case_id).order_by(model.id))
    assert found is not None, f"the demo case holds no {model.__name__}"
    return int(found)


def _pending(s: Session, case_id: int, kind: str, skip: int = 0) -> tuple[str, str]:
    """(name, variant) of a pending suggestion of ``kind``."""
    from casefile.services.decisions import list_suggestions

    entries = list_suggestions(s, case_id, kind).by_kind.get(kind, [])
    assert len(entries) > skip, f"no pending {kind} suggestion"
    return entries[skip].name, entries[skip].variant


def run_every_action(check: Checker, case_id: int, doc_id: int) -> None:
    """Each user action once on the demo case, with its undo and redo."""
    from casefile.errors import CasefileError
    from casefile.services import (
        case_actions,
        claim_actions,
        decisions,
        evidence_actions,
        followup_actions,
        ftm_import,
        item_actions,
        passages,
        published,
        reading,
        rejections,
        relationship_actions,
        table_import,
        team,
        trash,
        watch_list,
    )

    ws = check.workspace
    with ws.transaction(write=False) as s:
        person = _first(s, Person, case_id)
        org = _first(s, Organization, case_id)
        claim = _first(s, Claim, case_id)
        question = _first(s, Question, case_id)
        text = s.get(Document, doc_id).text
    start = text.index("the inspection records")
    span = (doc_id, start, start + len("the inspection records"))

    made = check.run(item_actions.create, case_id, "place", "Harbour Annex",
                     span=span, relation="mentions", undo=0).value.item_id
    check.run(item_actions.create, case_id, "person", "Wren Halloway", undo=2)
    check.run(item_actions.edit, made, {"notes": "checked twice"})
    check.run(item_actions.delete, [made])
    check.run(relationship_actions.add, person, org, "related to", undo=2)
    check.run(case_actions.rename, case_id, "Renamed case")
    check.run(case_actions.edit_summary, case_id, "A new summary.")
    check.run(followup_actions.set_status, question, "waiting")
    check.run(followup_actions.answer, question, "They said no.", span=span)
    check.run(claim_actions.set_override, claim, "false", reason="a record says otherwise")
    link = check.run(evidence_actions.link_span, person, doc_id, span[1], span[2],
                     undo=2).value.link_id
    check.run(evidence_actions.set_relation, link, "contradicts")
    check.run(published.set_published, doc_id, "2020-05-04")
    check.run(reading.mark_documents, [doc_id], "relevant")
    with ws.transaction() as s:
        starred = passages.add_passage_by_quote(s, doc_id, "the inspection records").id
    check.run(reading.star_passage, starred)
    for kind in ("person", "organization", "place", "event", "question", "claim"):
        name, variant = _pending_in(ws, case_id, kind)
        check.run(decisions.accept, case_id, kind, name, variant=variant or None)
    name, variant = _pending_in(ws, case_id, "person")
    check.run(decisions.accept_as, case_id, "person", name, f"{name} (as named)",
              variant=variant or None)
    name, variant = _pending_in(ws, case_id, "person")
    check.run(decisions.merge, case_id, "person", name, person, variant=variant or None)
    name, variant = _pending_in(ws, case_id, "organization")
    check.run(decisions.reject, case_id, "organization", name, variant=variant or None,
              undo=0)
    check.run(rejections.restore_rejected, "organization", name, case_id=case_id)
    check.run(table_import.import_records, case_id, "person",
              [{"title": "Ivo Marsh", "role": "clerk"}, {"title": "Wren Halloway"}])
    check.run(ftm_import.import_entities, case_id, [
        {"id": "p1", "schema": "Person", "properties": {"name": ["Lena Ortt"]}},
        {"id": "c1", "schema": "Company", "properties": {"name": ["Ortt Freight"]}},
        {"id": "e1", "schema": "Employment",
         "properties": {"employee": ["p1"], "employer": ["c1"]}}])
    for fn, args in ((team.add_member, (case_id, "someone", "reader")),
                     (team.remove_member, (case_id, "someone"))):
        with pytest.raises(CasefileError, match="team"):  # PostgreSQL only
            check.run(fn, *args)
        check.ran.add(check.names[fn])
    watched = check.run(watch_list.add_names, [watch_list.WatchEntry("Odile Fenwick", (),
                                                                     "person")], case_id)
    assert watched.value["hits"] == 1 and watched.watch
    everywhere = check.run(watch_list.add_names, [{"name": "Merrow Shipping Company"}],
                           undo=0).value["added"]
    check.run(watch_list.remove_names, everywhere, undo=2)
    with ws.transaction() as s:
        other = items.create_item(s, case_id, "place", "Old Pier").id
    check.run(item_actions.delete, [other], undo=0)
    check.run(trash.empty)
    check.run(trash.delete_case, case_id, undo=2)


def _pending_in(ws: Any, case_id: int, kind: str) -> tuple[str, str]:
    with ws.transaction(write=False) as s:
        return _pending(s, case_id, kind)


def test_every_registered_action_reports_what_it_wrote(demo: tuple[Any, int, int]) -> None:
    ws, case_id, doc_id = demo
    check = Checker(ws)
    run_every_action(check, case_id, doc_id)
    assert check.problems == [], "\n".join(check.problems)
    assert sorted(set(check.registry) - check.ran) == []  # every registered action ran
    # ... and wrote (the team's are refused on SQLite; emptying the Trash writes only its own)
    assert sorted(check.ran - check.wrote) == ["team.add", "team.remove", "trash.empty"]
    assert len(check.registry) >= 30


#: Public service functions that return Changes without being registered step actions (no
#: undo of their own): checked here by running them, or made of functions checked here.
UNREGISTERED = {
    "ftm_import.import_file": "run below",
    "ocr.apply_ocr": "run below",
    "suggestions.suggest_documents": "run below",
    "ocr.ocr_document": "reads, recognises, then stores with ocr.apply_ocr",
    "ocr.ocr_documents": "ocr.ocr_document for each document",
    "suggest_pool.suggest_in_background": "stores with suggestions.suggest_for_document, "
                                          "as suggestions.suggest_documents does",
}


def changes_functions() -> set[str]:
    """``module.function`` of every public module-level function of casefile.services
    annotated to return Changes, except the Changes helpers themselves."""
    import ast
    from pathlib import Path

    import casefile.services

    found = set()
    for path in Path(casefile.services.__file__).parent.glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
                    and node.returns is not None and ast.unparse(node.returns) == "Changes"
                    and path.stem != "changes"):
                found.add(f"{path.stem}.{node.name}")
    return found


def test_every_function_returning_changes_is_registered_or_checked_apart() -> None:
    registered = {f"{fn.__module__.rsplit('.', 1)[1]}.{fn.__name__}"
                  for fn in registered_actions().values()}
    assert sorted(changes_functions() - registered - set(UNREGISTERED)) == []
    assert sorted(set(UNREGISTERED) - changes_functions()) == []  # none listed needlessly


def test_actions_outside_the_registry_report_what_they_wrote(
        demo: tuple[Any, int, int], tmp_path: Any) -> None:
    """OCR storing a scanned page's text, a suggestion run, a FollowTheMoney file import."""
    import json

    from casefile.ingest import ingest_bytes
    from casefile.ingest.ocr import OcrLine, OcrPage, OcrWord
    from casefile.services import documents, ftm_import, ocr, suggestions
    from tests.e2e.make_files import scan_pdf

    ws, case_id, _doc_id = demo
    check = Checker(ws)
    scan = scan_pdf([["Cargo manifest", "signed by Talia Brenn"]])
    note = b"Talia Brenn met officials of the Ostrava Grain Board in Pell Harbor.\n"
    with ws.transaction() as s:
        scanned = documents.store_document(s, case_id, scan, ingest_bytes(scan, "scan.pdf")
                                           ).document_id
        noted = documents.store_document(s, case_id, note, ingest_bytes(note, "note.txt"),
                                         published="2022-05-03").document_id
    with ws.transaction(write=False) as s:
        source = ocr.read_source(s, scanned)
    assert source.pages == (1,)
    words = [OcrWord(w, (0.1 + 0.2 * n, 0.1, 0.28 + 0.2 * n, 0.14), 0.97)
             for n, w in enumerate(["Cargo", "manifest", "signed"])]
    page = OcrPage([OcrLine(tuple(words))])
    done = check.call("ocr.apply_ocr", lambda s: ocr.apply_ocr(s, source, {1: page}, "Fake 1"))
    assert done.value.pages == [1]
    check.call("suggestions.suggest_documents",
               lambda s: suggestions.suggest_documents(s, [noted]))
    path = tmp_path / "people.ftm.json"
    path.write_text(json.dumps({"id": "p9", "schema": "Person",
                                "properties": {"name": ["Mira Dunfield"]}}) + "\n",
                    encoding="utf-8")
    check.call("ftm_import.import_file",
               lambda s: ftm_import.import_file(s, case_id, path))
    assert check.problems == [], "\n".join(check.problems)
    assert check.wrote == {"ocr.apply_ocr", "suggestions.suggest_documents",
                           "ftm_import.import_file"}


@pytest.mark.parametrize("reports", ["honestly", "ids only", "as updated"])
def test_the_check_fails_when_an_action_under_reports(demo: tuple[Any, int, int],
                                                      reports: str) -> None:
    """Self-test: a planted action writes a place with a passage of the article as its
    evidence; reporting only the place's id, or the new place as updated, is caught; the
    honest report passes."""
    ws, case_id, doc_id = demo

    @changes_module.action("test.planted")
    def planted(session: Session, case_id: int) -> Changes:
        from casefile.services import editing

        place = items.create_item(session, case_id, "place", "Planted Quay")
        editing.link_span(session, place.id, doc_id, 0, 5)
        if reports == "ids only":
            return changes(case_id, created={place.id})
        return changes(case_id, kinds={"place"}, evidence=True, documents={doc_id},
                       **{"created" if reports == "honestly" else "updated": {place.id}})

    try:
        check = Checker(ws)
        reported = check.run(planted, case_id)
        assert check.ran == {"test.planted"}
    finally:
        changes_module._ACTIONS.pop("test.planted", None)
    with ws.transaction(write=False) as s:
        place_id = s.scalar(select(Place.id).where(Place.title == "Planted Quay"))
    assert place_id is not None and reported.case_id == case_id
    assert sorted(set(check.problems)) == {
        "honestly": [],
        "ids only": [
            "test.planted: evidence_links written but evidence is False",
            "test.planted: kind 'place' written (items) but not in kinds",
            "test.planted: kind 'place' written (places) but not in kinds",
            f"test.planted: passages of document {doc_id} written but the document is not in "
            "documents",
            "test.planted: passages written but evidence is False"],
        "as updated": [f"test.planted: place {place_id} inserted (items) but not reported as "
                       "such"],
    }[reports]


def test_action_modules_are_found_not_listed() -> None:
    """Every casefile.services module that registers a step action is found by reading the
    package (so undo can run any step), and only those."""
    import importlib
    import pkgutil

    import casefile.services

    before = set(registered_actions())
    for info in pkgutil.iter_modules(casefile.services.__path__):
        importlib.import_module(f"casefile.services.{info.name}")
    every = changes_module._ACTIONS
    homes = {fn.__module__ for name, fn in every.items() if not name.startswith("test.")}
    assert set(changes_module.action_modules()) == homes
    assert before >= {n for n in every if not n.startswith("test.")}
