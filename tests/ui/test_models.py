"""Every item model of the window passes pytest-qt's model tester, and behaves as shown."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from PySide6.QtCore import QModelIndex, Qt

from casefile.services import editing, evidence, items, questions, views
from casefile.ui.evidence_model import EvidenceModel
from casefile.ui.models import (
    ID_ROLE,
    FollowupsModel,
    ItemTableModel,
    SectionProxyModel,
    warning_colour,
)
from tests.ui.helpers import add_text_document, make_case

TEXT = "Deputy Scot Peterson stayed outside. Sheriff Scott Israel spoke."


def _section_model(ws, case_id, kind, page=None):
    def read(fn):
        with ws.transaction() as s:
            return fn(s)

    model = ItemTableModel(
        kind,
        counter=lambda: read(lambda s: views.count_items(s, case_id, kind)),
        loader=lambda o, n: read(lambda s: views.item_rows(s, case_id, kind, offset=o, limit=n)),
        refresher=lambda ids: read(lambda s: views.item_rows_by_id(s, case_id, kind, ids)),
    )
    if page:
        model.PAGE = page
    model.reload()
    return model


@pytest.fixture
def filled(ui_workspace):
    ws = ui_workspace
    cid = make_case(ws)
    doc = add_text_document(ws, cid, TEXT, outlet="Sun Sentinel", published="2018-02-23")
    with ws.transaction() as s:
        org = items.create_item(s, cid, "organization", "Broward Sheriff's Office").id
        ids = [items.create_item(s, cid, "person", f"Person {n:02d}", role="Deputy",
                                 affiliation_id=org).id for n in range(25)]
        peterson = items.create_item(s, cid, "person", "Scot Peterson", role="Deputy").id
        editing.link_span(s, peterson, doc, 7, 20, relation="supports")
        editing.link_span(s, peterson, doc, 0, 6, relation="mentions")
        questions.create_question(s, cid, "Late records", due=date.today() - timedelta(days=3))
        questions.create_question(s, cid, "Call back", due=date.today() + timedelta(days=2))
    return ws, cid, doc, peterson, ids


def test_section_model_passes_modeltester_while_fetching_lazily(qtmodeltester, filled):
    ws, cid, _doc, _peterson, _ids = filled
    model = _section_model(ws, cid, "person", page=10)
    assert (model.rowCount(), model.total) == (10, 26)
    assert model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    assert model.rowCount() == 20
    qtmodeltester.check(model)  # (the tester fetches more rows itself)
    model.fetch_all()
    assert model.rowCount() == 26 and not model.canFetchMore(QModelIndex())
    qtmodeltester.check(model)


def test_section_proxy_filters_as_you_type_and_sorts_all_rows(qtmodeltester, filled):
    ws, cid, _doc, peterson, _ids = filled
    model = _section_model(ws, cid, "person", page=5)
    proxy = SectionProxyModel()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    proxy.set_filter_text("scot pet")
    assert proxy.rowCount() == 1  # found although it was not loaded yet
    assert proxy.index(0, 0).data(ID_ROLE) == peterson
    proxy.set_filter_text("")
    proxy.sort(0, Qt.SortOrder.DescendingOrder)
    assert proxy.index(0, 0).data() == "Scot Peterson"
    assert proxy.rowCount() == 26
    proxy.sort(3, Qt.SortOrder.DescendingOrder)  # evidence count
    assert proxy.index(0, 3).data() == "2"
    qtmodeltester.check(proxy)


def test_section_model_refreshes_an_edited_row_in_place(filled, qtbot):
    ws, cid, _doc, peterson, _ids = filled
    model = _section_model(ws, cid, "person")
    row = model.row_of_id(peterson)
    with qtbot.waitSignal(model.dataChanged):
        with ws.transaction() as s:
            items.update_item(s, peterson, role="School resource officer")
        model.refresh_items([peterson])
    assert model.index(row, 1).data() == "School resource officer"


def test_followups_model_orders_by_due_date_and_marks_overdue(qtmodeltester, filled, qtbot):
    ws, cid, *_ = filled

    def load():
        with ws.transaction() as s:
            return questions.followups(s, cid)

    model = FollowupsModel(load)
    model.reload()
    qtmodeltester.check(model)
    assert [model.index(r, 2).data() for r in range(2)] == ["Late records", "Call back"]
    assert model.index(0, 1).data() == "3 days overdue"
    assert model.index(0, 2).data(Qt.ItemDataRole.ForegroundRole) == warning_colour()
    assert model.index(1, 2).data(Qt.ItemDataRole.ForegroundRole) is None
    status = model.index(1, 4)
    assert model.flags(status) & Qt.ItemFlag.ItemIsEditable
    with qtbot.waitSignal(model.status_change_requested) as blocker:
        assert model.setData(status, "answered")
    assert blocker.args[1] == "answered"


def test_evidence_model_groups_by_document(qtmodeltester, filled, qtbot):
    ws, _cid, doc, peterson, _ids = filled
    with ws.transaction() as s:
        rows = evidence.evidence_for(s, peterson)
    model = EvidenceModel()
    model.set_evidence(rows)
    qtmodeltester.check(model)
    assert model.rowCount() == 1
    top = model.index(0, 0)
    assert model.rowCount(top) == 2
    assert "Sun Sentinel" in top.data() and "2018-02-23" in top.data()
    quotes = {model.index(r, 0, top).data() for r in range(2)}
    assert quotes == {"“Scot Peterson”", "“Deputy”"}
    child = model.index(0, 1, top)
    assert child.data() in {"supports", "mentions"}
    assert model.index(0, 3, top).data() == "Sun Sentinel"
    with qtbot.waitSignal(model.relation_change_requested):
        model.setData(child, "contradicts")
    model.set_evidence([])
    qtmodeltester.check(model)


def test_filter_follows_edits_and_multiword_any_order(filled):
    ws, cid, _doc, peterson, _ids = filled
    model = _section_model(ws, cid, "person", page=5)
    proxy = SectionProxyModel()
    proxy.setSourceModel(model)
    proxy.set_filter_text("peterson DEPUTY")  # every word, any order, any case
    assert proxy.rowCount() == 1
    with ws.transaction() as s:
        items.update_item(s, peterson, role="School resource officer")
    model.refresh_items([peterson])
    assert proxy.rowCount() == 0  # no longer a deputy: the edited row leaves the filter
    proxy.set_filter_text("resource scot")
    assert proxy.rowCount() == 1
    model.reload()
    assert proxy.rowCount() == 1
