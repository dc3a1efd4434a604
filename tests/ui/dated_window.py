"""Helpers of the follow-ups, timeline and claims tests: a window with its clock set, and a
small Coral Springs-like case built through the services."""

from __future__ import annotations

from datetime import date

from casefile.services import items, passages, questions
from tests.ui.helpers import add_text_document, make_case

ARTICLE = (
    "Coral Springs sources tell CNN that three other deputies were at the school and did not "
    "enter. The Coral Springs police department is expected to release its report on the "
    "response next week."
)
REPORT = (
    "Coral Springs Police Department report. Officers arriving at the school found three "
    "Broward deputies outside the building. The report was released on March 5."
)


def open_window(qtbot, workspace, case_id: int, today: date):
    """A shown MainWindow on ``case_id`` whose today is ``today``."""
    from casefile.ui.main_window import MainWindow

    window = MainWindow(workspace, case_id=case_id, suggest_after_import=False,
                        today=lambda: today, auto_backup=False)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    return window


def coral_springs_case(ws) -> dict[str, int]:
    """A case with the article, a later police report, whom to ask (with contact details)
    and the report follow-up due 2018-03-02; returns the ids by name."""
    cid = make_case(ws, "Parkland")
    article = add_text_document(ws, cid, ARTICLE, "article.txt", outlet="CNN",
                                published="2018-02-23")
    report = add_text_document(ws, cid, REPORT, "report.txt", outlet="Coral Springs PD",
                               published="2018-03-05")
    with ws.transaction() as s:
        police = items.create_item(s, cid, "organization", "Coral Springs Police Department",
                                   org_kind="law enforcement agency")
        chief = items.create_item(s, cid, "person", "Tony Pustizzi", role="Police chief",
                                  affiliation_id=police.id,
                                  contact="954-555-0100\ntpustizzi@example.org")
        q = questions.create_question(
            s, cid, "Coral Springs police report on the deputies' response",
            kind="expected record", due="2018-03-02", ask_id=chief.id, on="2018-02-23")
        questions.create_question(s, cid, "Call the sheriff's office back", kind="call back",
                                  due="2018-03-20", on="2018-02-23")
        answer = passages.add_passage_by_quote(
            s, report, "found three Broward deputies outside the building")
        return {"case": cid, "article": article, "report": report, "police": police.id,
                "chief": chief.id, "question": q.id, "answer_passage": answer.id}
