"""The Claims view: statuses from independent evidence (coloured), who said it and via what,
counts of independent support, the attribution chain, and an override that needs a reason."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt

from casefile.services import claims, editing, items
from casefile.store import Claim
from casefile.ui.claims_view import ClaimsModel
from tests.ui.dated_window import ARTICLE, REPORT, open_window
from tests.ui.helpers import add_text_document, make_case

STATEMENT = "Three other deputies were at the school and did not enter"
SUN = "The Sun Sentinel confirmed that deputies remained outside the building for minutes."


def _case(ws, *, second_source: bool) -> dict[str, int]:
    cid = make_case(ws)
    cnn_article = add_text_document(ws, cid, ARTICLE, "article.txt", outlet="CNN")
    other = add_text_document(ws, cid, SUN, "sun.txt", outlet="Sun Sentinel")
    report = add_text_document(ws, cid, REPORT, "report.txt", outlet="Coral Springs PD")
    with ws.transaction() as s:
        cnn = items.create_item(s, cid, "organization", "CNN", org_kind="news outlet")
        claim = claims.create_claim(s, cid, STATEMENT, attributed_to_text="Coral Springs sources",
                                    via_id=cnn.id)
        start = ARTICLE.index("three other deputies")
        editing.link_span(s, claim.id, cnn_article, start,
                          start + len("three other deputies were at the school and did not "
                                      "enter"), relation="supports")
        if second_source:
            start = SUN.index("deputies remained outside")
            editing.link_span(s, claim.id, other, start,
                              start + len("deputies remained outside the building"),
                              relation="supports")
        lone = claims.create_claim(s, cid, "Nobody called for backup")
    return {"case": cid, "claim": claim.id, "lone": lone.id, "report": report, "cnn": cnn.id,
            "sun": other}


def _row(view, claim_id):
    model = view.model
    return model.row_at(model.row_of_id(claim_id))


def test_two_independent_supporting_passages_show_corroborated(qtbot, ui_workspace,
                                                               qtmodeltester):
    ids = _case(ui_workspace, second_source=True)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    window.case_views.claims_action.trigger()
    view = window.case_views.claims
    assert window.tabs.currentWidget() is window.case_views.claims_tab
    assert view.parent() is window.case_views.claims_tab and view.isVisible()
    qtmodeltester.check(view.model)
    model = view.model
    row = model.row_of_id(ids["claim"])
    cells = [model.index(row, c).data() for c in range(model.columnCount())]
    assert cells == [STATEMENT, "corroborated", "Coral Springs sources", "CNN", "2", "0"]
    colour = model.index(row, 1).data(Qt.ItemDataRole.BackgroundRole)
    lone = model.row_of_id(ids["lone"])
    assert model.index(lone, 1).data() == "unverified"
    assert colour != model.index(lone, 1).data(Qt.ItemDataRole.BackgroundRole)
    assert "2 independent origins" in model.index(row, 4).data(Qt.ItemDataRole.ToolTipRole)
    assert view.heading.text() == "Claims: 2 (1 unverified, 1 corroborated)"
    # selecting the claim shows its chain and fills the evidence panel
    assert view.select_claim(ids["claim"])
    assert window.evidence.panel.item_id == ids["claim"]
    assert window.evidence.panel.model.link_count() == 2
    root = view.chain_tree.topLevelItem(0)
    said = root.child(0)
    via = said.child(0)
    assert root.text(0).startswith("Claim: \u201cThree other deputies")
    assert said.text(0) == "said by: Coral Springs sources (unnamed sources)"
    assert via.text(0) == "via: CNN (organization)"
    quotes = [via.child(n).text(0) for n in range(via.childCount())]
    assert quotes[0].startswith("supports: \u201cthree other deputies were at the school")
    assert quotes[1].startswith("supports: \u201cdeputies remained outside the building\u201d")
    assert "Sun Sentinel" in quotes[1]
    assert "from the evidence" in view.status_label.text()


def test_single_source_then_a_contradicting_passage_disputes(qtbot, ui_workspace):
    ids = _case(ui_workspace, second_source=False)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    view = window.case_views.claims
    assert _row(view, ids["claim"]).assessment.status == "single-source"
    view.select_claim(ids["claim"])
    assert "single-source: all supporting passages come from one origin (CNN)" in (
        view.computed_label.text())
    # linking a contradicting passage from the window: the view follows case_changed
    start = REPORT.index("Officers arriving")
    assert window.items.link_span(ids["claim"], ids["report"], start, start + 30,
                            relation="contradicts")
    assert _row(view, ids["claim"]).assessment.status == "disputed"
    assert view.current_claim_id() == ids["claim"]  # the selection is kept
    assert view.model.index(view.model.row_of_id(ids["claim"]), 5).data() == "1"


def test_override_requires_a_reason_and_shows_the_computed_status(qtbot, ui_workspace):
    ids = _case(ui_workspace, second_source=False)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    window.case_views.claims_action.trigger()
    view = window.case_views.claims
    view.select_claim(ids["claim"])
    view.override_box.setCurrentText("false")
    view.reason_edit.clear()
    assert not view.override_button.isEnabled()
    assert view.override_problem.text() == "A reason is required to set the status by hand."
    assert view.apply_override() is False  # nothing changes without a reason
    with ui_workspace.transaction() as s:
        assert s.get(Claim, ids["claim"]).status == "single-source"
    view.reason_edit.setFocus()
    qtbot.keyClicks(view.reason_edit, "Police report: they went in")
    assert view.override_button.isEnabled()
    qtbot.mouseClick(view.override_button, Qt.MouseButton.LeftButton)
    with ui_workspace.transaction() as s:
        stored = s.get(Claim, ids["claim"])
        assert (stored.status, stored.status_reason) == ("false", "Police report: they went in")
        assessment = claims.assess_claim(s, ids["claim"])
    assert (assessment.status, assessment.computed) == ("false", "single-source")
    model = view.model
    row = model.row_of_id(ids["claim"])
    assert model.index(row, 1).data() == "false (by hand)"
    assert "set by hand" in view.status_label.text()
    assert "Police report: they went in" in view.status_label.text()
    assert view.computed_label.text().startswith("The evidence alone gives single-source")
    assert view.clear_button.isEnabled()
    window.undo()
    with ui_workspace.transaction() as s:
        stored = s.get(Claim, ids["claim"])
        assert (stored.status, stored.status_reason) == ("single-source", None)
    window.redo()
    view.select_claim(ids["claim"])
    view.clear_button.click()
    with ui_workspace.transaction() as s:
        assert s.get(Claim, ids["claim"]).status_reason is None
    assert view.model.index(view.model.row_of_id(ids["claim"]), 1).data() == "single-source"


def test_claims_model_passes_the_model_tester_when_empty(qtmodeltester):
    model = ClaimsModel()
    qtmodeltester.check(model)
