"""The reporter's whole job in the real window, on the Parkland article,
touching only what a user touches: the menus and their shortcuts, the dialogs, the panels'
widgets. Then the same journey through the CLI, where the CLI has the action, must leave the
same rows (compared without ids or clocks).

New case with a summary → import, answering the date question with 2018-02-23 → the Suggestions
panel lists people, organizations, places, events, the report follow-up due 2018-03-02 and
claims → accept Scott Israel (the status line names the organization it also made) → Ctrl+Z
(both gone) → Ctrl+Shift+Z → accept Scot Peterson and the report follow-up → the Follow-ups view
shows it due 2018-03-02 → link a sentence to Peterson (the Evidence panel shows him, the quote
first) → set the document's published date to 2018-02-24 (due 2018-03-03) → search → Ctrl+E
with the focus in the search box writes the brief, which holds the follow-up due 2018-03-03.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLineEdit
from sqlalchemy import select

from casefile.store import Document, Item, Organization, Person, Question
from tests.conftest import ARTICLE
from tests.e2e.case_rows import case_rows
from tests.e2e.cli_helpers import casefile, pdf_text, squash
from tests.ui.new_case import answer_new_case

TITLE = "Parkland deputies"
SUMMARY = "Why deputies stayed outside Stoneman Douglas; the Coral Springs report."
REPORT = "a report by the Coral Springs Police Department"
SENTENCE = "Peterson has already resigned."


def _items(ws, kind: str) -> dict[str, Item]:
    with ws.transaction() as s:
        return {i.title: i for i in s.scalars(select(Item).where(Item.kind == kind))}


def _due(ws, title_part: str) -> date | None:
    with ws.transaction() as s:
        q = next(q for q in s.scalars(select(Question)) if title_part in q.title)
        return q.due


def _accept(window, qtbot, kind: str, name: str) -> str:
    """Select a suggestion in the panel and press its Accept button; returns the status line."""
    panel = window.suggestions_panel
    assert panel.select(kind, name), f"no {kind} suggestion {name!r}"
    assert panel.accept_button.isEnabled()
    qtbot.mouseClick(panel.accept_button, Qt.MouseButton.LeftButton)
    return window.statusBar().currentMessage()


def test_the_reporters_whole_job_in_the_window_and_the_same_rows_from_the_cli(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path: Path) -> None:
    window = make_window(suggest_after_import=True)
    ws = ui_workspace

    # -- File ▸ New case…, with a summary
    answer_new_case(monkeypatch, TITLE, SUMMARY)
    window.new_case_action.trigger()
    assert window.case_title() == TITLE

    # -- File ▸ Import documents… (Ctrl+I); the article carries no date: the window asks
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda *a, **k: ([str(ARTICLE)], "Documents"))
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    # asked once the import's job has read the file (off the GUI thread)
    qtbot.waitUntil(lambda: window.imports.date_dialog is not None, timeout=20000)
    dialog = window.imports.date_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.date_edit.setFocus()
    dialog.date_edit.selectAll()
    qtbot.keyClicks(dialog.date_edit, "2018-02-3")  # a typo: OK waits for a real date
    assert not dialog.ok_button.isEnabled()
    dialog.date_edit.selectAll()
    qtbot.keyClicks(dialog.date_edit, "2018-02-23")
    assert dialog.ok_button.isEnabled()
    qtbot.keyClick(dialog.date_edit, Qt.Key.Key_Return)
    job = window.last_job
    qtbot.waitUntil(lambda: job.done, timeout=30000)
    assert job.outcome == "succeeded"
    suggesting = window.suggestions.last_job
    assert suggesting is not None
    qtbot.waitUntil(lambda: suggesting.done, timeout=120000)
    assert suggesting.outcome == "succeeded"
    (document,) = _items(ws, "document").values()
    doc_id = document.id
    with ws.transaction() as s:
        doc = s.get(Document, doc_id)
        assert doc is not None and doc.published == date(2018, 2, 23)

    # -- the Suggestions panel is in front and lists every kind
    dock = window.docks["suggestions_dock"]
    assert dock.isVisible() and not dock.visibleRegion().isEmpty()
    listing = window.suggestions_panel.listing
    assert listing is not None
    for kind in ("person", "organization", "place", "event", "question", "claim"):
        assert listing.by_kind.get(kind), f"no {kind} suggested"
    assert {"2018-02-14", "2018-02-15"} <= {e.detail.get("date")
                                             for e in listing.by_kind["event"]}
    report = next(e for e in listing.by_kind["question"] if REPORT in e.name)
    assert report.detail.get("due") == "2018-03-02"
    assert f"Suggestions ({listing.total})" == dock.windowTitle()

    # -- accept Scott Israel: the status line names the organization made with him
    message = _accept(window, qtbot, "person", "Scott Israel")
    made_orgs = set(_items(ws, "organization"))
    assert "Scott Israel" in _items(ws, "person")
    (org,) = made_orgs
    assert "Sheriff" in org and org.replace("’", "'") in message.replace("’", "'")

    # -- Ctrl+Z: both gone; Ctrl+Shift+Z: both back
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _items(ws, "person") == {} and _items(ws, "organization") == {}
    assert window.suggestions_panel.select("person", "Scott Israel")  # undecided again
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert set(_items(ws, "person")) == {"Scott Israel"}
    assert set(_items(ws, "organization")) == made_orgs
    with ws.transaction() as s:
        israel = s.scalar(select(Person).where(Person.title == "Scott Israel"))
        assert israel is not None and israel.affiliation is not None
        assert isinstance(israel.affiliation, Organization)

    # -- accept Scot Peterson and the report follow-up
    _accept(window, qtbot, "person", "Scot Peterson")
    message = _accept(window, qtbot, "question", report.name)
    assert "2018-03-02" in message
    assert _due(ws, "Coral Springs Police Department") == date(2018, 3, 2)
    after_decisions = _rows(ws)

    # -- Ctrl+U: the Follow-ups view shows it due 2018-03-02
    qtbot.keyClick(window, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.followups_view
    rows = [window.followups_model.row_at(r) for r in range(window.followups_model.rowCount())]
    (shown,) = [r for r in rows if "Coral Springs Police Department" in r.text]
    assert shown.due == "2018-03-02"
    row = rows.index(shown)
    model = window.followups_model
    cells = [str(model.index(row, c).data()) for c in range(model.columnCount())]
    assert any("2018-03-02" in c for c in cells), cells  # what the view shows

    # -- select a sentence in the document and link it to Scot Peterson
    viewer = window.open_document(doc_id)
    assert viewer is not None
    start = viewer.text.index(SENTENCE)
    viewer.select_span(start, start + len(SENTENCE))
    viewer.link_action.trigger()
    link = window.items.link_dialog
    assert link is not None
    link.item_edit.setText("Scot Peterson")
    link.relation_box.setCurrentText("supports")
    link.buttons.button(link.buttons.StandardButton.Ok).click()
    peterson = _items(ws, "person")["Scot Peterson"].id
    panel = window.evidence.panel
    assert panel.item_id == peterson  # the item just linked, not the document
    assert window.evidence.dock.isVisible()
    first = panel.model.evidence_at(panel.link_indexes()[0])
    assert first is not None and not first.mention and SENTENCE in first.quote

    # -- the document's Published date, edited in its editor: the due date follows
    window.picker.navigator.setCurrentRow(3)  # Documents
    qtbot.waitUntil(lambda: window.items.current_item_id() == doc_id, timeout=3000)
    field = window.items.editor.widgets["published"]
    assert isinstance(field, QLineEdit)
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "2018-02-24")
    window.items.editor.flush()
    assert _due(ws, "Coral Springs Police Department") == date(2018, 3, 3)

    # -- search, then Ctrl+E with the focus in the search box writes the brief
    search = window.search_panel
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # Search panel
    search.edit.setFocus()
    qtbot.keyClicks(search.edit, "deputies")
    search.run_search()
    assert search.hits(), "the search found nothing"
    out = tmp_path / "brief.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "PDF"))
    assert search.edit.hasFocus()
    qtbot.keyClick(search.edit, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    brief_job = window.last_job
    assert brief_job is not None and brief_job is not job
    qtbot.waitUntil(lambda: brief_job.done, timeout=60000)
    assert brief_job.outcome == "succeeded" and out.is_file()
    text = squash(pdf_text(out))
    assert SUMMARY in text
    assert "2018-03-03" in text and "Coral Springs Police Department" in text
    assert "2018-03-02" not in text

    # -- the same journey through the CLI leaves the same rows
    cli_ws = tmp_path / "cli-ws"
    assert casefile(cli_ws, "case", "new", TITLE, "--summary", SUMMARY).code == 0
    run = casefile(cli_ws, "import", str(ARTICLE), "--case", TITLE, "--published", "2018-02-23")
    assert run.code == 0, run.err
    waiting = json.loads(casefile(cli_ws, "suggestions", "--case", TITLE, "--json").out)

    def sid(kind: str, name: str) -> str:
        return str(next(r["id"] for r in waiting if r["kind"] == kind and r["name"] == name))

    for kind, name in (("person", "Scott Israel"), ("person", "Scot Peterson"),
                       ("question", report.name)):
        done = casefile(cli_ws, "suggestions", "accept", sid(kind, name), "--case", TITLE)
        assert done.code == 0, done.err
    from casefile.store.workspace import open_workspace

    other = open_workspace(cli_ws)
    try:
        assert _rows(other) == after_decisions
    finally:
        other.close()


#: What the window records of the reporter's own reading (a document shown for a few seconds
#: becomes "read"), which the command line, showing nothing, does not: not compared.
READING = ("reading", "read_at")


def _rows(ws) -> dict:
    with ws.transaction() as s:
        rows = case_rows(s, TITLE)
    rows["items"] = [(kind, title, [(k, v) for k, v in fields if k not in READING])
                     if kind == "document" else (kind, title, fields)
                     for kind, title, fields in rows["items"]]
    return rows
