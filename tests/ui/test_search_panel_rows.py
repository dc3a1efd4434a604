"""The Search panel's list at scale: every hit is counted and kept at once, but the list view
gets the rows a chunk at a time as it scrolls; each row is drawn from plain text runs laid out
once (no rich text parsed per row), the same title, kind and snippet with the matched words in
bold, in the service's order."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from casefile.services.search import search_workspace
from casefile.ui import search_panel as panel_module
from casefile.ui.search_panel import FETCH_ROWS, SearchPanel, hit_text, short_snippet
from tests.ui.helpers import add_text_document, make_case

WORDS = ("audit", "harbor", "ledger", "pension", "Łódź", "invoice")


def _case(ws, n: int = 45) -> int:
    case = make_case(ws, "Harbor ledgers")
    for k in range(n):
        extra = " 😀 " + WORDS[4] if k % 7 == 0 else ""
        add_text_document(ws, case, f"Memo {k}: the {WORDS[k % 3]} ledger of the harbor "
                                    f"board{extra}, filed as number {k}.", f"memo{k}.txt")
    return case


def _search(window, qtbot, query: str) -> SearchPanel:
    panel = window.search_panel
    panel.dock.show()
    panel.edit.setText(query)
    with qtbot.waitSignal(panel.searched, timeout=5000):
        panel.run_search()
    return panel


def test_all_hits_counted_at_once_rows_fetched_as_the_list_scrolls(make_window, ui_workspace,
                                                                   qtbot) -> None:
    case = _case(ui_workspace)
    window = make_window(case)
    panel = _search(window, qtbot, "ledger")
    with ui_workspace.reading() as r:
        want = search_workspace(r, "ledger", case, panel_module.RESULT_LIMIT)
    assert [h.item_id for h in panel.hits()] == [h.item_id for h in want.hits]
    assert panel.hits() == list(want.hits) and len(want.hits) == 45
    assert panel.count_label.text() == "45 results"
    assert panel.model.rowCount() < 45  # the view has the first rows only
    assert panel.model.rowCount() >= FETCH_ROWS
    # scrolling down hands the view the rest, in order
    for _ in range(20):
        panel.list.verticalScrollBar().setValue(panel.list.verticalScrollBar().maximum())
        qtbot.wait(10)
        if panel.model.rowCount() == 45:
            break
    assert panel.model.rowCount() == 45
    assert [panel.model.index(k, 0).data(panel_module.HIT_ROLE).item_id
            for k in range(45)] == [h.item_id for h in want.hits]


def test_the_keyboard_reaches_hits_not_yet_in_the_list(make_window, ui_workspace,
                                                       qtbot) -> None:
    case = _case(ui_workspace)
    window = make_window(case)
    panel = _search(window, qtbot, "ledger")
    fetched = panel.model.rowCount()
    for _ in range(fetched // 5 + 2):
        qtbot.keyClick(panel.edit, Qt.Key.Key_PageDown)
    row = panel.list.currentIndex().row()
    assert row > fetched - 1
    assert panel.list.currentIndex().data(panel_module.HIT_ROLE) == panel.hits()[row]


def test_rows_are_drawn_from_text_runs_laid_out_once(make_window, ui_workspace, qtbot) -> None:
    case = _case(ui_workspace)
    window = make_window(case)
    panel = _search(window, qtbot, "Łódź")
    panel.list.viewport().repaint()
    delegate = panel.delegate
    built = delegate.built
    assert built >= panel.model.rowCount() > 0
    panel.list.viewport().repaint()  # painted again: the layouts are reused
    for k in range(panel.model.rowCount()):
        delegate.sizeHint(_option(panel), panel.model.index(k, 0))
    assert delegate.built == built
    for key, laid in delegate.layouts.items():
        hit = next(h for h in panel.hits() if id(h) == key[0])
        runs = hit_text(hit, show_case=False)
        assert laid.header.text() == runs.header
        assert runs.header.startswith(hit.title) and runs.header.endswith("Document")
        text, spans = short_snippet(hit)
        assert laid.snippet is not None and laid.snippet.text() == text == runs.snippet
        # the matched words, and only they, are bold in the snippet
        bold = [r for r in laid.snippet.formats()
                if r.format.fontWeight() == QFont.Weight.Bold]
        utf16 = text.encode("utf-16-le")
        shown = [utf16[2 * r.start:2 * (r.start + r.length)].decode("utf-16-le")
                 for r in bold]
        assert shown == [text[a:b] for a, b in spans] == ["Łódź"] * len(spans)
    # a new search lays out its own rows
    panel.edit.setText("pension")
    panel.run_search()
    assert not delegate.layouts or all(
        any(id(h) == key[0] for h in panel.hits()) for key in delegate.layouts)


def _option(panel: SearchPanel):
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    option.initFrom(panel.list)
    option.widget = panel.list
    option.font = panel.list.font()
    return option
