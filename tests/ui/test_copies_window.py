"""Case ▸ Copies of one story… in the window: a case holding a wire story and three copies of
it shows one cluster of four with why they were joined, the independent report stays out, and
activating a document of the cluster selects it in the Documents section."""

from __future__ import annotations

from casefile.ingest import ingest_bytes
from casefile.services import cases, documents
from tests.services.test_copies import stories


def test_the_copies_dialog_shows_one_cluster_and_opens_a_document(make_window, ui_workspace,
                                                                  qtbot):
    ids: dict[str, int] = {}
    with ui_workspace.transaction() as s:
        case_id = cases.create_case(s, "Levee").id
        for name, text in stories().items():
            if name == "paraphrased":
                continue
            raw = text.encode("utf-8")
            ids[name] = documents.store_document(
                s, case_id, raw, ingest_bytes(raw, f"{name}.txt"), title=name,
                published="2026-10-02").document_id
    window = make_window(case_id)
    window.case_menu.copies_action.trigger()
    dialog = window.case_menu.copies.dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.tree.topLevelItemCount() == 1
    top = dialog.tree.topLevelItem(0)
    assert top.text(0) == "4 copies of one AP story"
    assert "same text" in top.text(1)
    shown = {top.child(i).text(0) for i in range(top.childCount())}
    assert shown == {"original", "trimmed", "framed", "headline"}
    assert "4 documents" in dialog.summary.text()
    child = next(top.child(i) for i in range(top.childCount()) if top.child(i).text(0) == "framed")
    dialog.tree.itemActivated.emit(child, 0)
    qtbot.waitUntil(lambda: window.items.selected_item_ids() == [ids["framed"]], timeout=3000)
