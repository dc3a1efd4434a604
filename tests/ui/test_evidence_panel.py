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
from casefile.ingest.types import Ingested
from casefile.services import (
    cases,
    decisions,
    documents,
    editing,
    evidence,
    items,
    passages,
    suggestions,
)
from casefile.store import Document, Mention
from casefile.ui.models import SPAN_ROLE
from casefile.ui.panels import EvidencePanel
from casefile.ui.viewer import DocumentViewer
from tests.ui.conftest import SAMPLES

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
    print(f"1,000 passages shown in {elapsed:.3f} s")  # reported; the bench times it
    # the tree lays out the first rows, not every passage: the others come as it scrolls
    assert panel.model.rowCount() < 40
    assert _scroll_to_the_end(panel) > 1
    assert panel.model.rowCount() == 40
    folds = panel.fold_indexes()
    assert len(folds) == 20 and not any(panel.tree.isExpanded(f) for f in folds)
    quotes = [panel.model.index(r, 0) for r in range(20)]
    assert all(panel.tree.isExpanded(q) and panel.tree.isFirstColumnSpanned(q.row(), QModelIndex())
               for q in quotes)
    assert len(panel.link_indexes()) == 1000
    assert re.fullmatch(r"Someone — 500 quotes, mentioned 500 times in 20 documents",
                        panel.title.text())


MEMO = ("Officer Dee Park spoke first. Later, Park said \u201cwe waited\u201d. Nobody else did.\n"
        "officer d. park signed the log; DEE PARK left at noon.")
SECOND = "A second memo. Dee Park agreed. Park, 41, did not answer."
LONG = ("The undated note runs on.   " + "Dee Park was seen near the\n\ndock " * 14
        + "and then the note ends.")


@pytest.fixture
def fixed_case(ui_workspace):
    """A person with quotes, a whole-document link and bare-name mentions over three documents
    (one paged, one undated). Returns (case id, person id)."""
    ws = ui_workspace

    def doc(s, cid, title, text, **kw):
        return documents.store_document(
            s, cid, text.encode(), Ingested(text=text, mime_type="text/plain", title=title, **kw),
            filename=f"{title}.txt").document_id

    with ws.transaction() as s:
        cid = cases.create_case(s, "Fixed").id
        memo = doc(s, cid, "Harbor memo", MEMO, outlet="Harbor Gazette", published="2024-05-02",
                   page_starts=[0, MEMO.index("officer")])
        second = doc(s, cid, "Second memo", SECOND, published="2024-05-01")
        note = doc(s, cid, "Undated note", LONG)
        pid = items.create_item(s, cid, "person", "Dee Park", aliases=["D. Park"]).id
        someone = items.create_item(s, cid, "person", "Someone Else").id

        def link(d, quote, relation, occurrence=1, note=None):
            p = passages.add_passage_by_quote(s, d, quote, occurrence=occurrence)
            evidence.link_evidence(s, pid, passage_id=p.id, relation=relation, note=note)

        link(memo, "DEE PARK", "mentions")
        link(memo, "Dee Park", "mentions")
        link(memo, "d. park", "mentions")
        link(memo, "Later, Park said \u201cwe waited\u201d.", "supports", note="on the record")
        link(memo, "Park", "mentions", occurrence=2)  # a reporter's own pick: a quote
        link(memo, "Nobody else did.", "contradicts")
        link(second, "Dee Park", "mentions")
        # a surname tied to the person by a Mention is the bare name too
        start = SECOND.index("Park,")
        s.add(Mention(case_id=cid, document_id=second, item_id=pid, kind="person",
                      name="Dee Park", start=start, end=start + 4, text="Park",
                      status="accepted"))
        s.flush()
        link(second, "Park", "mentions", occurrence=2)
        evidence.link_evidence(s, pid, document_id=second, relation="context")
        link(note, LONG[LONG.index("Dee"):-len(" and then the note ends.")], "supports")
        link(note, "Dee Park", "mentions", occurrence=3)
        # another person's links, one of them the same passage: a quote for them
        p = passages.add_passage_by_quote(s, memo, "Dee Park")
        evidence.link_evidence(s, someone, passage_id=p.id, relation="mentions")
        evidence.link_evidence(s, someone, document_id=note, relation="supports")
    return cid, pid


EXPECTED_ROWS = [
    ('top', 'Second memo\n2024-05-01 · 1 passage', 'Second memo', True, False, True, True),
    (   'child',
        '(the whole document)',
        'context',
        'Second memo\n— Second memo (2024-05-01)',
        None),
    (   'top',
        'Harbor memo\nHarbor Gazette · 2024-05-02 · 3 passages',
        'Harbor memo',
        True,
        False,
        True,
        True),
    (   'child',
        '“Later, Park said “we waited”.”',
        'supports',
        'Later, Park said “we waited”.\n— Harbor memo, page 1 (Harbor Gazette, 2024-05-02)',
        None),
    (   'child',
        '“Park”',
        'mentions',
        'Park\n— Harbor memo, page 1 (Harbor Gazette, 2024-05-02)',
        None),
    (   'child',
        '“Nobody else did.”',
        'contradicts',
        'Nobody else did.\n— Harbor memo, page 1 (Harbor Gazette, 2024-05-02)',
        None),
    ('top', 'Undated note\n1 passage', 'Undated note', True, False, True, True),
    (   'child',
        '“Dee Park was seen near the dock Dee Park was seen near the dock Dee Park was seen '
        'near the dock Dee Park was seen near the dock Dee Park was seen near the dock Dee '
        'Park was seen near the dock Dee Park was seen near the dock Dee Park was seen near '
        'the dock Dee Park was seen near the dock Dee Park was seen near the dock Dee Park was '
        'seen near the dock Dee Park was seen near the dock Dee Park was se…”',
        'supports',
        'Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock Dee Park was seen near the\n'
        '\n'
        'dock\n'
        '— Undated note',
        None),
    (   'top',
        'Mentioned 2 times in Second memo\n2024-05-01',
        'Second memo: the name alone, 2× — expand to read each with the words around it',
        False,
        True,
        False,
        True),
    (   'child',
        'Dee Park agreed.',
        'mentions',
        'Dee Park agreed.\n— Second memo (2024-05-01)',
        (0, 8)),
    (   'child',
        'Park, 41, did not answer.',
        'mentions',
        'Park, 41, did not answer.\n— Second memo (2024-05-01)',
        (0, 4)),
    (   'top',
        'Mentioned 3 times in Harbor memo\nHarbor Gazette · 2024-05-02',
        'Harbor memo: the name alone, 3× — expand to read each with the words around it',
        False,
        True,
        False,
        True),
    (   'child',
        'Officer Dee Park spoke first.',
        'mentions',
        'Officer Dee Park spoke first.\n— Harbor memo, page 1 (Harbor Gazette, 2024-05-02)',
        (8, 16)),
    (   'child',
        'officer d. park signed the log; DEE PARK left at noon.',
        'mentions',
        'officer d. park signed the log; DEE PARK left at noon.\n'
        '— Harbor memo, page 2 (Harbor Gazette, 2024-05-02)',
        (8, 15)),
    (   'child',
        'park signed the log; DEE PARK left at noon.',
        'mentions',
        'park signed the log; DEE PARK left at noon.\n'
        '— Harbor memo, page 2 (Harbor Gazette, 2024-05-02)',
        (21, 29)),
    (   'top',
        'Mentioned once in Undated note',
        'Undated note: the name alone, 1× — expand to read each with the words around it',
        False,
        True,
        False,
        True),
    (   'child',
        'dock Dee Park was seen near the',
        'mentions',
        'dock Dee Park was seen near the\n— Undated note',
        (5, 13)),
]
"""The rows of :func:`fixed_case` as the panel showed them before its model was made lazy
the quotes grouped by document (dated first, the undated last), then one fold per
document of the bare name, closed."""


def _rows(panel: EvidencePanel) -> list[tuple]:
    """What the panel shows, top to bottom: per top row its text, tooltip, bold/italic, open,
    spanned; per child its text, relation, tooltip and the name's place in it."""
    model, tree = panel.model, panel.tree
    out: list[tuple] = []
    for r in range(model.rowCount()):
        top = model.index(r, 0)
        font = top.data(Qt.ItemDataRole.FontRole)
        out.append(("top", top.data(), top.data(Qt.ItemDataRole.ToolTipRole), font.bold(),
                    font.italic(), tree.isExpanded(top),
                    tree.isFirstColumnSpanned(r, QModelIndex())))
        for c in range(model.rowCount(top)):
            child = model.index(c, 0, top)
            out.append(("child", child.data(), child.siblingAtColumn(1).data(),
                        child.data(Qt.ItemDataRole.ToolTipRole), child.data(SPAN_ROLE)))
    return out


def _scroll_to_the_end(panel: EvidencePanel) -> int:
    """Scroll the tree down as a reporter would until no more rows come; the number of
    batches of top rows the tree fetched on the way."""
    batches = 0
    bar = panel.tree.verticalScrollBar()
    while True:
        QApplication.processEvents()
        before = panel.model.rowCount()
        bar.setValue(bar.maximum())
        QApplication.processEvents()
        if panel.model.rowCount() == before and not panel.model.has_more_rows():
            return batches
        batches += panel.model.rowCount() > before


@pytest.mark.parametrize("batch", [None, 1])
def test_the_evidence_rows_of_a_fixed_case(make_window, fixed_case, batch):
    cid, pid = fixed_case
    window = make_window(cid)
    panel = window.evidence_panel
    if batch is not None:  # top rows one at a time, fetched as the tree scrolls
        panel.model.FETCH_ROWS = batch
    window.show_evidence(pid)
    if batch is not None:
        assert panel.model.rowCount() < 6
        _scroll_to_the_end(panel)
    got = _rows(panel)
    assert got == EXPECTED_ROWS
    assert panel.title.text() == (
        "Dee Park — 4 quotes, 1 whole document, mentioned 6 times in 3 documents")


def test_the_evidence_of_several_items_at_once_is_each_ones_own(ui_workspace, fixed_case):
    cid, pid = fixed_case
    with ui_workspace.transaction() as s:
        ids = [i.id for i in items.list_items(s, cid)]
        one_by_one = {i: evidence.evidence_for(s, i) for i in ids}
        together = evidence.evidence_for_items(s, [*ids, 10_000])
        by_case = evidence.items_with_evidence(s, cid)
    assert together == by_case == {i: v for i, v in one_by_one.items() if v}
    other = next(i for i in together if i != pid)
    # the passage that is Dee Park's bare name is a quote for someone else
    assert [(v.quote, v.mention) for v in together[other]] == [
        ("Dee Park", False), (None, False)]
    assert len(together[pid]) == 11
