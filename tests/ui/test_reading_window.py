"""The reading ledger in the window: 20 documents imported, 5 opened long enough to count as
read, 2 of them marked relevant from the keyboard (one mark undone and redone); after a restart
the window says "15 unread" and the Documents section's state filter shows the right rows."""

from __future__ import annotations

from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, reading


def _states(ws, case_id: int) -> dict[int, str]:
    with ws.transaction(write=False) as s:
        return {d.id: d.reading for d in reading.case_documents(s, case_id)}


def test_open_mark_undo_restart_and_filter(make_window, ui_workspace, qtbot):
    ws = ui_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
        ids = []
        for n in range(20):
            raw = f"Memo {n:02d}: the dredging contract, page {n}.".encode()
            ids.append(documents.store_document(s, case_id, raw,
                                                ingest_bytes(raw, f"memo{n:02d}.txt"),
                                                title=f"Memo {n:02d}").document_id)
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
    assert "15 unread" in again.statusBar().currentMessage()
    assert "5 of 20 documents reviewed (2 relevant" in again.statusBar().currentMessage()
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
