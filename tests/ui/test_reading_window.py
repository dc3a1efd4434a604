"""The reading ledger in the window: 20 documents imported, 5 opened long enough to count as
read, 2 of them marked relevant from the keyboard (one mark undone and redone); after a restart
the status line says "5 reviewed" of 20 documents and the Documents section's state filter
shows the right rows. A file the window opened by itself after an import is not read until the
reporter works with it; the reviewed count follows a command-line import and never mixes two
cases; an undo never overwrites a later mark from the command line."""

from __future__ import annotations

from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, reading


def _states(ws, case_id: int) -> dict[int, str]:
    with ws.transaction(write=False) as s:
        return {d.id: d.reading for d in reading.case_documents(s, case_id)}


def _memo(ws, case_id: int, n: int) -> int:
    """Store "Memo NN: the dredging contract, page N." as a document titled "Memo NN"; its id."""
    with ws.transaction() as s:
        raw = f"Memo {n:02d}: the dredging contract, page {n}.".encode()
        return documents.store_document(s, case_id, raw, ingest_bytes(raw, f"memo{n:02d}.txt"),
                                        title=f"Memo {n:02d}").document_id


def test_open_mark_undo_restart_and_filter(make_window, ui_workspace, qtbot):
    ws = ui_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
    ids = [_memo(ws, case_id, n) for n in range(20)]
    window = make_window(case_id)
    window.reading.timer.setInterval(50)  # "a few seconds", shortened for the test
    for doc in ids[:5]:
        window.open_document(doc)
        qtbot.waitUntil(lambda d=doc: _states(ws, case_id)[d] == "read", timeout=5000)
    assert list(_states(ws, case_id).values()).count("unread") == 15
    for doc in ids[:2]:  # the keyboard mark acts on the document on screen
        window.open_document(doc)
        window.reading.relevant_action.trigger()
    assert [_states(ws, case_id)[d] for d in ids[:3]] == ["relevant", "relevant", "read"]
    window.undo_stack.undo()
    assert _states(ws, case_id)[ids[1]] == "read"
    window.undo_stack.redo()
    assert _states(ws, case_id)[ids[1]] == "relevant"
    window.runner.shutdown()
    window.close()

    again = make_window(case_id)
    counts = again.status_line.counts_label
    assert counts.text().endswith("20 documents (5 reviewed)")
    assert counts.toolTip() == ("5 of 20 documents reviewed (2 relevant, 0 not relevant); "
                                "15 unread")
    again.items.show_section("document")
    box, proxy = again.items.state_box, again.items.proxy
    assert box.isVisible()

    def shown() -> set[str]:
        return {proxy.index(r, 0).data() for r in range(proxy.rowCount())}

    box.setCurrentIndex(box.findData("unread"))
    assert proxy.rowCount() == 15 and "Memo 19" in shown() and "Memo 00" not in shown()
    box.setCurrentIndex(box.findData("relevant"))
    assert shown() == {"Memo 00", "Memo 01"}
    box.setCurrentIndex(box.findData("read"))
    assert shown() == {"Memo 02", "Memo 03", "Memo 04"}
    box.setCurrentIndex(0)
    assert proxy.rowCount() == 20


def test_undo_refuses_to_overwrite_a_mark_the_cli_made_since(make_window, ui_workspace):
    """Marked relevant in the window, then not relevant from the command line: Ctrl+Z in the
    window says the document changed since and keeps the command line's state."""
    from tests.e2e.cli_helpers import casefile

    ws = ui_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
    doc = _memo(ws, case_id, 13)
    window = make_window(case_id)
    window.open_document(doc)
    window.reading.relevant_action.trigger()
    assert _states(ws, case_id)[doc] == "relevant"

    done = casefile(ws.folder, "mark", "irrelevant", str(doc))
    assert done.code == 0, done.err
    window.undo_stack.undo()  # Ctrl+Z
    assert _states(ws, case_id)[doc] == "irrelevant"
    said = "The reading state of “Memo 13” was changed since (by another program); nothing " \
        "was undone"
    assert said in window.statusBar().currentMessage()
    assert [box.text() for box in window.messages] == [said]
    window.runner.shutdown()
    window.close()


def test_a_file_the_window_opened_after_an_import_is_read_only_once_worked_with(
        make_window, ui_workspace, qtbot, tmp_path):
    from PySide6.QtCore import Qt

    ws = ui_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
    window = make_window(case_id)
    window.reading.timer.setInterval(50)  # "a few seconds", shortened for the test
    path = tmp_path / "tender.txt"
    path.write_text("The tender for the dredging contract closed on Friday.\n" * 40)
    window.imports.import_files([path], published=None)
    qtbot.waitUntil(lambda: len(window.documents.viewers) == 1, timeout=20000)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=20000)
    (doc, viewer), = window.documents.viewers.items()
    assert window.tabs.currentWidget() is viewer  # on screen, as the trial saw it
    qtbot.wait(300)  # six times the shortened reading time
    assert _states(ws, case_id)[doc] == "unread"
    assert "read." not in window.statusBar().currentMessage()

    qtbot.mouseClick(viewer.text_view.viewport(), Qt.MouseButton.LeftButton)  # works with it
    qtbot.waitUntil(lambda: _states(ws, case_id)[doc] == "read", timeout=5000)


def test_the_reviewed_count_follows_a_cli_import_and_never_mixes_cases(
        make_window, ui_workspace, qtbot, tmp_path):
    from tests.e2e.cli_helpers import casefile

    ws = ui_workspace
    with ws.transaction() as s:
        small = cases.create_case(s, "Pier").id
        big = cases.create_case(s, "Harbor").id
    _memo(ws, small, 0)
    big_docs = [_memo(ws, big, n) for n in range(1, 21)]
    with ws.transaction() as s:
        reading.mark_documents(s, big_docs[:6], "read")
    window = make_window(small)
    counts = window.status_line.counts_label
    assert counts.text().endswith("1 document (0 reviewed)")

    path = tmp_path / "late.txt"
    path.write_text("A late memo about the pier lease.")
    done = casefile(ws.folder, "import", str(path), "--case", "Pier", "--no-suggest",
                    "--no-ocr")
    assert done.code == 0, done.err
    qtbot.waitUntil(lambda: counts.text().endswith("2 documents (0 reviewed)"), timeout=10000)
    assert counts.toolTip().startswith("0 of 2 documents reviewed")

    window.open_case(big)
    assert counts.text().endswith("20 documents (6 reviewed)")
    assert counts.toolTip().startswith("6 of 20 documents reviewed")
    said = window.statusBar().currentMessage()
    assert "of 1 " not in said and "of 2 " not in said  # nothing about the other case
