"""The Suggestions list's model: after the list is read again, the row now where the selected
one was (the next one when its kind has fewer rows, else the last) is found by walking the
kinds, not every row."""

from __future__ import annotations

from casefile.services.suggestion_list import SuggestionEntry, SuggestionList
from casefile.ui.suggestions.model import KIND_TITLES, SuggestionsModel


def entry(kind: str, name: str) -> SuggestionEntry:
    return SuggestionEntry(kind=kind, name=name, variant="", role=None, affiliation=None,
                           detail={}, mentions=1, documents=1, snippet=name,
                           highlight=(0, len(name)), document_id=1, document_title="Doc",
                           start=0, end=len(name), mention_ids=(1,))


def test_the_row_at_a_position_is_the_same_as_walking_every_row(qtbot) -> None:
    model = SuggestionsModel()
    model.set_listing(SuggestionList({
        "person": [entry("person", f"P{n}") for n in range(3)],
        "place": [entry("place", "Q0")],
        "claim": [entry("claim", f"C{n}") for n in range(2)]}))
    order = list(KIND_TITLES)

    def walked(kind: str, row: int) -> tuple[str, str] | None:
        rank = order.index(kind)
        rows = model.entry_indexes()
        for index in rows:
            e = model.entry(index)
            assert e is not None
            if (order.index(e.kind), index.row()) >= (rank, row):
                return (e.kind, e.name)
        e = model.entry(rows[-1]) if rows else None
        return (e.kind, e.name) if e else None

    for kind in order:
        for row in range(5):
            index = model.first_at(order.index, order.index(kind), row)
            found = model.entry(index)
            assert (None if found is None else (found.kind, found.name)) == walked(kind, row), (
                kind, row)
    model.set_listing(None)
    assert not model.first_at(order.index, 0, 0).isValid()


def test_a_cell_reads_the_same_through_the_delegate_whatever_was_drawn_before(qtbot) -> None:
    """The list hands a delegate every role of a cell at once (``multiData``); what a cell
    shows is what it holds role by role, and nothing of the cell drawn before it (a group
    row's bold title) is carried over."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

    model = SuggestionsModel()
    model.set_listing(SuggestionList({"person": [entry("person", "P0"), entry("person", "P1")],
                                      "claim": [entry("claim", "C0")]}))
    model.set_decided([("person", "P1", "")], "reject")
    delegate = QStyledItemDelegate()
    cells = []
    for g in range(model.rowCount()):
        group = model.index(g, 0)
        cells.append(group)
        cells += [model.index(r, c, group) for r in range(model.rowCount(group))
                  for c in range(model.columnCount())]
    for index in cells:
        option = QStyleOptionViewItem()
        delegate.initStyleOption(option, index)
        assert option.text == (index.data(Qt.ItemDataRole.DisplayRole) or ""), index
        assert option.font.bold() == (index.parent().isValid() is False), index
        alignment = index.data(Qt.ItemDataRole.TextAlignmentRole)
        if alignment is not None:
            assert int(option.displayAlignment) == int(alignment)
