"""The evidence panel reads: quoted passages first, the bare name folded per document."""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from casefile.ingest import ingest_bytes
from casefile.services import cases, decisions, documents, editing, evidence, suggestions
from casefile.store import Document, Mention
from casefile.ui.models import SPAN_ROLE
from casefile.ui.panels import EvidencePanel
from casefile.ui.viewer import DocumentViewer
from tests.ui.conftest import SAMPLES

pytestmark = pytest.mark.gui

ARTICLE = SAMPLES / "parkland-coral-springs-article.txt"
PERSON = "Scot Peterson"  # the suggestion a reporter accepts


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence holding ``text[start:end]`` (ends at ". " or a line break)."""
    left = max(text.rfind(". ", 0, start) + 2, text.rfind("\n", 0, start) + 1)
    stops = [i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0]
    right = min(stops) + (1 if text[min(stops)] == "." else 0) if stops else len(text)
    return left, right


@pytest.fixture
def accepted(ui_workspace):
    """The article imported with its published date and suggested; the person accepted and the
    sentence of their last mention linked as "supports". Returns (case, doc, person, mentions,
    (start, end) of the sentence)."""
    ws = ui_workspace
    raw = ARTICLE.read_bytes()
    with ws.transaction() as s:
        cid = cases.create_case(s, "Parkland").id
    with ws.transaction() as s:
        doc = documents.store_document(s, cid, raw, ingest_bytes(raw, ARTICLE.name),
                                       published=dt.date(2018, 2, 23)).document_id
    with ws.transaction() as s:
        suggestions.suggest_for_document(s, doc)
    with ws.transaction() as s:
        person = decisions.accept_suggestion(s, cid, "person", PERSON).item_id
        assert person is not None
        mentions = [(m.start, m.end) for m in s.scalars(
            select(Mention).where(Mention.item_id == person).order_by(Mention.start))]
        text = s.get(Document, doc).text
    assert len(mentions) > 1
    start, end = _sentence_around(text, *mentions[-1])
    with ws.transaction() as s:
        editing.link_span(s, person, doc, start, end, relation="supports")
    return cid, doc, person, mentions, (start, end)


def _children(panel: EvidencePanel, parent: QModelIndex) -> list[QModelIndex]:
    return [panel.model.index(r, 0, parent) for r in range(panel.model.rowCount(parent))]


def test_quote_first_then_one_folded_row_of_mentions(make_window, ui_workspace, accepted,
                                                     qtbot):
    cid, doc, person, mentions, (start, end) = accepted
    window = make_window(cid)
    assert window.select_item(person, "person")
    panel = window.evidence_panel
    model = panel.model
    assert panel.item_id == person

    # the header names the item and its counts
    assert panel.title.text() == (
        f"{PERSON} — 1 quote, mentioned {len(mentions)} times in 1 document")

    # two top rows: the document with its one quote (open), then the folded mentions (closed)
    tops = [model.index(r, 0) for r in range(model.rowCount())]
    assert [model.is_fold(i) for i in tops] == [False, True]
    quotes, fold = tops
    (quote,) = _children(panel, quotes)
    view = model.evidence_at(quote)
    assert view is not None and (view.relation, view.start, view.end) == ("supports", start, end)
    assert panel.tree.isExpanded(quotes)
    assert not panel.tree.isExpanded(fold)
    assert fold.data().startswith(f"Mentioned {len(mentions)} times in ")
    assert fold.data(Qt.ItemDataRole.UserRole + 1) == doc

    # the reporter opens the fold: one child per mention, each the words around the name
    panel.tree.scrollTo(fold)
    before = window.tabs.currentWidget()
    rect = panel.tree.visualRect(fold)
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert panel.tree.isExpanded(fold)
    assert window.tabs.currentWidget() is before  # the fold row opened no document
    children = _children(panel, fold)
    assert len(children) == len(mentions)
    for child, (m_start, m_end) in zip(children, mentions, strict=True):
        v = model.evidence_at(child)
        assert v is not None and v.mention and (v.start, v.end) == (m_start, m_end)
        context = child.data()
        a, b = child.data(SPAN_ROLE)
        assert context[a:b] == v.quote  # the name, in bold, inside its context
        assert len(context) > len(v.quote) + 20  # words around it
        assert child.siblingAtColumn(1).data() == "mentions"
    assert panel.link_indexes() == [quote, *children]

    # double-click a mention: the document opens with that mention selected
    child = children[1]
    panel.tree.scrollTo(child)
    rect = panel.tree.visualRect(child)
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    viewer = window.tabs.currentWidget()
    assert isinstance(viewer, DocumentViewer) and viewer.document_id == doc
    assert viewer.selected_span() == mentions[1]

    panel.resize(360, 620)
    panel.tree.expand(fold)
    panel.grab().save("/tmp/evidence.png")

    # the quote's relation can still be changed, and the quote unlinked
    with qtbot.waitSignal(window.runner.case_changed, timeout=5000):
        assert model.setData(panel.link_indexes()[0].siblingAtColumn(1), "contradicts")
    first = panel.link_indexes()[0]
    assert model.evidence_at(first).relation == "contradicts"  # type: ignore[union-attr]
    assert not model.is_mention(first)
    panel.tree.setCurrentIndex(first)
    with qtbot.waitSignal(window.runner.case_changed, timeout=5000):
        panel.remove_button.click()
    assert panel.title.text() == f"{PERSON} — mentioned {len(mentions)} times in 1 document"
    assert [model.is_fold(model.index(r, 0)) for r in range(model.rowCount())] == [True]
    # with nothing quoted, the one short fold is open: the panel does not read as empty
    (fold,) = panel.fold_indexes()
    assert panel.tree.isExpanded(fold)
    panel.grab().save("/tmp/evidence_mentions_only.png")


def test_evidence_groups_split_quotes_from_the_bare_name(ui_workspace, accepted):
    _cid, doc, person, mentions, (start, end) = accepted
    with ui_workspace.transaction() as s:
        groups = evidence.evidence_groups(s, person)
    assert [(v.start, v.end, v.relation) for v in groups.quotes] == [(start, end, "supports")]
    (fold,) = groups.folds
    assert fold.document_id == doc
    assert [(m.start, m.end) for m in fold.mentions] == mentions
    # a surname-only mention ("Peterson") is still the bare name: it is tied to his Mention
    assert any(m.quote != PERSON for m in fold.mentions)
    assert groups.summary() == f"1 quote, mentioned {len(mentions)} times in 1 document"
    # the sentence a reporter linked as "mentions" is a quote too: only the name is folded
    with ui_workspace.transaction() as s:
        link = next(v for v in groups.quotes).link_id
        evidence.update_link(s, link, relation="mentions")
    with ui_workspace.transaction() as s:
        again = evidence.evidence_groups(s, person)
    assert [v.link_id for v in again.quotes] == [link]
    assert again.mention_count == len(mentions)


def _many_views(n: int) -> list[evidence.EvidenceView]:
    text = "word " * 40
    out = []
    for i in range(n):
        mention = i % 2 == 0
        doc = 1 + i // 2 % 20
        out.append(evidence.EvidenceView(
            link_id=i + 1, relation="mentions" if mention else "supports", note=None,
            document_id=doc, document_title=f"Document {doc}", outlet="Outlet",
            published="2020-01-01", confidential_source=False, passage_id=i + 1,
            quote="Name" if mention else text, start=i * 10, end=i * 10 + 4, page=None,
            mention=mention, context=f"before the Name after {i}" if mention else None,
            context_span=(11, 15) if mention else None))
    return out


def test_a_thousand_passages_fill_the_panel_quickly(qtbot):
    panel = EvidencePanel()
    qtbot.addWidget(panel)
    panel.resize(360, 700)
    panel.show()
    panel.show_evidence(2, "Nobody", _many_views(4))  # the first paint is not what is measured
    QApplication.processEvents()
    views = _many_views(1000)
    began = time.perf_counter()
    panel.show_evidence(1, "Someone", views)
    QApplication.processEvents()  # lay out and paint what shows
    elapsed = time.perf_counter() - began
    print(f"1,000 passages shown in {elapsed:.3f} s")
    assert elapsed < 1.0, elapsed
    folds = panel.fold_indexes()
    assert len(folds) == 20 and not any(panel.tree.isExpanded(f) for f in folds)
    assert len(panel.link_indexes()) == 1000
    assert re.fullmatch(r"Someone — 500 quotes, mentioned 500 times in 20 documents",
                        panel.title.text())
