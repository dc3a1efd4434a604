"""Hooks the follow-ups, timeline, claims and graph views into the main window.

:func:`install_case_views` adds the Timeline, Claims and Graph tabs after Follow-ups, their View
menu entries, File ▸ Export follow-ups to calendar…, the overdue notice shown on opening a
case, "Answers follow-up…" in document viewers' selection menus, and makes the evidence panel
follow the event or claim selected in those views. The window calls
:meth:`CaseViews.set_case` whenever it opens a case.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from casefile.services import questions, views
from casefile.ui.actions import menu_named
from casefile.ui.docks import show_dock
from casefile.ui.items import keep_title_readable
from casefile.ui.recent_folder import dialog_folder
from casefile.ui.viewer import DocumentViewer
from casefile.ui.widgets import flat_button, wrapped_label

if TYPE_CHECKING:
    from typing import Protocol

    from PySide6.QtWidgets import QTabWidget

    from casefile.services.calendar import CalendarExport
    from casefile.services.graph import GraphEdge
    from casefile.ui.claims_view import ClaimsView
    from casefile.ui.evidence_dock import EvidenceDock
    from casefile.ui.followups_view import FollowupsPage
    from casefile.ui.graph_view import GraphView
    from casefile.ui.items import ItemsController
    from casefile.ui.navigator import CaseNavigator
    from casefile.ui.shell import WindowShell
    from casefile.ui.timeline import TimelineView

    class ViewsWindow(WindowShell, Protocol):
        """The window as the case's views see it: the shell, its tabs, the Follow-ups page, the
        Evidence dock, the Items page and the case picker."""

        tabs: QTabWidget
        followups_view: FollowupsPage
        evidence: EvidenceDock
        items: ItemsController
        picker: CaseNavigator


def overdue_message(count: int) -> str:
    """What the window says on opening a case with ``count`` overdue follow-ups."""
    if count == 0:
        return "No follow-ups overdue."
    return (f"{count} follow-up{'s are' if count != 1 else ' is'} overdue: "
            "see Follow-ups \u25b8 Overdue (Ctrl+U).")


class OverdueNotice(QFrame):
    """A non-modal notice above the items table: "N follow-ups are overdue", a button showing
    them and a close button."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__()
        self.setObjectName("overdue_notice")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = wrapped_label()
        self.show_button = QPushButton("Show overdue")
        self.close_button = flat_button("\u2715", "Hide this notice", self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.show_button)
        layout.addWidget(self.close_button)
        self.setVisible(False)


class LazyTab(QWidget):
    """A tab's page that builds its view the first time it is shown or asked for (the
    Timeline, Claims and Graph views, their modules and their first query stay out of a cold
    start: ARCHITECTURE.md, "The window"). ``build`` returns the view; it fills the page."""

    def __init__(self, build: Callable[[], QWidget]) -> None:
        super().__init__()
        self._build = build
        self._view: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    @property
    def built(self) -> bool:
        """Whether the view exists yet."""
        return self._view is not None

    def view(self) -> QWidget:
        """The view, built now if it was not."""
        if self._view is None:
            self._view = self._build()
            layout = self.layout()
            assert layout is not None
            layout.addWidget(self._view)
            if self.isVisible():  # built while shown: lay it out and show it now, not later
                layout.activate()
                self._view.show()
        return self._view

    def showEvent(self, event: QShowEvent) -> None:
        self.view()
        super().showEvent(event)


class CaseViews(QObject):
    """The issue-6 views of a window: ``timeline``, ``claims`` (and the window's follow-ups
    page), the calendar export action and the overdue notice."""

    def __init__(self, window: ViewsWindow) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.overdue_count = 0
        self.overdue_text = ""
        self.case_id: int | None = None
        self.timeline_tab = LazyTab(self._make_timeline)
        self.timeline_tab.setObjectName("timeline_tab")
        self.claims_tab = LazyTab(self._make_claims)
        self.claims_tab.setObjectName("claims_tab")
        self.graph_tab = LazyTab(self._make_graph)
        self.graph_tab.setObjectName("graph_tab")
        tabs = window.tabs
        at = tabs.indexOf(window.followups_view) + 1
        tabs.insertTab(at, self.timeline_tab, "Timeline")
        tabs.insertTab(at + 1, self.claims_tab, "Claims")
        tabs.insertTab(at + 2, self.graph_tab, "Graph")
        bar = tabs.tabBar()
        for n in (at, at + 1, at + 2):
            for side in (bar.ButtonPosition.RightSide, bar.ButtonPosition.LeftSide):
                bar.setTabButton(n, side, None)
        window.followups_view.source_requested.connect(self._open_source)
        tabs.currentChanged.connect(self._on_tab_changed)

        self.notice = OverdueNotice()
        self.notice.show_button.clicked.connect(self.show_overdue)
        layout = window.items.page.layout()
        if isinstance(layout, QBoxLayout):
            layout.insertWidget(0, self.notice)

        self.timeline_action = QAction("&Timeline", window.qt_window())
        self.timeline_action.setShortcut(QKeySequence("Ctrl+Shift+T"))
        self.timeline_action.triggered.connect(
            lambda: window.tabs.setCurrentWidget(self.timeline_tab))
        self.claims_action = QAction("&Claims", window.qt_window())
        self.claims_action.setShortcut(QKeySequence("Ctrl+Shift+K"))
        self.claims_action.triggered.connect(
            lambda: window.tabs.setCurrentWidget(self.claims_tab))
        self.graph_action = QAction("&Graph", window.qt_window())
        self.graph_action.setShortcut(QKeySequence("Ctrl+Shift+G"))
        self.graph_action.triggered.connect(
            lambda: window.tabs.setCurrentWidget(self.graph_tab))
        self.calendar_action = QAction("Export follow-ups to &calendar\u2026", window.qt_window())
        self.calendar_action.triggered.connect(self.prompt_export_calendar)
        for action in (self.timeline_action, self.claims_action, self.graph_action,
                       self.calendar_action):
            window.addAction(action)
        view_menu = menu_named(window.menuBar(), "View")
        if view_menu is not None:
            for action in (self.timeline_action, self.claims_action, self.graph_action):
                view_menu.addAction(action)
        file_menu = menu_named(window.menuBar(), "File")
        if file_menu is not None:
            entries = file_menu.actions()
            anchor = next((a for a in entries if a.isSeparator()
                           and entries.index(a) > 0
                           and "Quit" in entries[entries.index(a) + 1].text()), None)
            if anchor is not None:
                file_menu.insertAction(anchor, self.calendar_action)
            else:
                file_menu.addAction(self.calendar_action)

    # -- the lazy views ------------------------------------------------------------------------

    @property
    def timeline(self) -> TimelineView:
        """The Timeline view (built on first use)."""
        return cast("TimelineView", self.timeline_tab.view())

    @property
    def claims(self) -> ClaimsView:
        """The Claims view (built on first use)."""
        return cast("ClaimsView", self.claims_tab.view())

    @property
    def graph(self) -> GraphView:
        """The Graph view (built on first use)."""
        return cast("GraphView", self.graph_tab.view())

    def _make_graph(self) -> QWidget:
        from casefile.ui.graph_view import GraphView

        window = self.window
        view = GraphView(window.runner)
        view.setObjectName("graph_view")
        view.item_selected.connect(self._on_graph_item_selected)
        view.item_activated.connect(window.select_item)
        view.edge_selected.connect(self._on_edge_selected)
        view.set_case(self.case_id)
        return view

    def _on_edge_selected(self, edge: GraphEdge) -> None:
        from casefile.services.graph import edge_evidence

        views = self.window.runner.read(lambda s: edge_evidence(s, edge))
        self.window.evidence.show_views(self.graph.edge_title(edge), views)
        show_dock(self.window.evidence.dock, focus=False)  # a click in the graph asks for it

    def _on_graph_item_selected(self, item_id: int) -> None:
        self.window.show_evidence(item_id)
        show_dock(self.window.evidence.dock, focus=False)  # even from behind the Search tab

    def _make_timeline(self) -> QWidget:
        from casefile.ui.timeline import TimelineView

        window = self.window
        view = TimelineView(window.runner)
        view.setObjectName("timeline_view")
        view.event_selected.connect(self._on_item_selected)
        view.event_activated.connect(lambda i: window.select_item(i, "event"))
        view.set_case(self.case_id)
        return view

    def _make_claims(self) -> QWidget:
        from casefile.ui.claims_view import ClaimsView

        window = self.window
        view = ClaimsView(window.runner, window.undo_stack)
        keep_title_readable(view.table.horizontalHeader())
        view.setObjectName("claims_view")
        view.claim_selected.connect(self._on_item_selected)
        view.claim_activated.connect(lambda i: window.select_item(i, "claim"))
        view.passage_activated.connect(window.open_passage)
        view.set_case(self.case_id)
        return view

    # -- case ---------------------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """Show a case in every view and say how many follow-ups are overdue (the Timeline and
        Claims views only once built; they open on the current case)."""
        self.case_id = case_id
        self.window.followups_view.set_case(case_id)
        if self.timeline_tab.built:
            self.timeline.set_case(case_id)
        if self.claims_tab.built:
            self.claims.set_case(case_id)
        if self.graph_tab.built:
            self.graph.set_case(case_id)
        self.calendar_action.setEnabled(case_id is not None)
        if case_id is None:
            self.overdue_count, self.overdue_text = 0, ""
            self.notice.setVisible(False)
            return
        today = self.window.clock()
        self.overdue_count = self.window.runner.read(
            lambda s: questions.overdue_count(s, case_id, today=today))
        self.overdue_text = overdue_message(self.overdue_count)
        self.notice.label.setText(self.overdue_text)
        self.notice.setVisible(self.overdue_count > 0)
        if self.overdue_count:
            self.window.statusBar().showMessage(self.overdue_text, 20000)

    def show_overdue(self) -> None:
        """Show the follow-ups view on its Overdue list."""
        self.window.tabs.setCurrentWidget(self.window.followups_view)
        self.window.followups_view.set_view("overdue")
        self.notice.setVisible(False)

    # -- evidence -----------------------------------------------------------------------------

    @Slot(int)
    def _on_item_selected(self, item_id: int) -> None:
        self.window.show_evidence(item_id)

    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        widget = self.window.tabs.widget(index)
        if widget is self.timeline_tab:
            self.window.show_evidence(self.timeline.selected_event_id())
        elif widget is self.claims_tab:
            self.window.show_evidence(self.claims.current_claim_id())
        elif widget is self.graph_tab:
            self.window.show_evidence(self.graph.selected_item_id())
        elif isinstance(widget, DocumentViewer) and not widget.property("answer_hooked"):
            self.hook_viewer(widget)

    def hook_viewer(self, viewer: DocumentViewer) -> None:
        """Add "Answers follow-up…" to a viewer's selection menu."""
        viewer.setProperty("answer_hooked", True)
        action = QAction("Answers follow-up\u2026", viewer)
        action.setObjectName("answers_followup_action")
        action.triggered.connect(lambda _c=False, v=viewer: self.answer_from_viewer(v))

        def add_answer_action(menu: QMenu) -> None:  # after the viewer's own actions
            action.setEnabled(viewer.selected_span() is not None)
            after = next((a for a in menu.actions() if a.isSeparator()), None)
            if after is not None:
                menu.insertAction(after, action)
            else:
                menu.addAction(action)

        viewer.menu_extensions.append(add_answer_action)

    def answer_from_viewer(self, viewer: DocumentViewer) -> object:
        """Answer a follow-up with the viewer's selection as the answering passage."""
        span = viewer.selected_span()
        if span is None or viewer.document_id is None:
            return None
        return self.window.followups_view.prompt_answer_from_span(
            viewer.document_id, span[0], span[1], viewer.text[span[0]:span[1]])

    @Slot(int, int)
    def _open_source(self, document_id: int, passage_id: int) -> None:
        start = end = None
        if passage_id >= 0:
            marks = self.window.runner.read(
                lambda s: views.document_view(s, document_id).passages)
            mark = next((m for m in marks if m.passage_id == passage_id), None)
            if mark is not None:
                start, end = mark.start, mark.end
        self.window.open_document(document_id, start, end)

    # -- calendar -----------------------------------------------------------------------------

    def prompt_export_calendar(self) -> CalendarExport | None:
        """File ▸ Export follow-ups to calendar…: choose an .ics file and write it."""
        if self.window.case_id is None:
            return None
        suggested = (dialog_folder(self.window.settings)
                     / f"{self.window.picker.case_box.currentText() or 'case'} follow-ups.ics")
        from casefile.export.profiles import DEFAULT_PROFILE
        from casefile.ui.exporting import profile_filters, profile_of_filter

        # The file type chosen is the export profile, as in the brief's save dialog.
        name, chosen = QFileDialog.getSaveFileName(
            self.window.qt_window(), "Export follow-ups to calendar", str(suggested),
            ";;".join(profile_filters(DEFAULT_PROFILE, "*.ics")))
        if not name:
            return None
        out = Path(name)
        if out.suffix.lower() != ".ics":
            out = out.with_name(out.name + ".ics")
        return self.export_calendar(out, profile=profile_of_filter(chosen, DEFAULT_PROFILE))

    def export_calendar(self, out: Path, profile: str | None = None) -> CalendarExport | None:
        """Write the case's dated follow-ups to ``out`` (.ics) under the export ``profile``
        (None: editor, confidential ones left out)."""
        case_id = self.window.case_id
        if case_id is None:
            return None
        from casefile.services import calendar  # icalendar loads with the first export

        result = self.window.runner.run(
            lambda s: calendar.export_followups_ics(s, case_id, out, profile=profile),
            change=None,
            label="exporting follow-ups to a calendar")
        if not result.ok or result.value is None:
            return None
        done = result.value
        parts = [f"{done.entries} follow-up{'s' if done.entries != 1 else ''} written to {out}"]
        if done.undated:
            parts.append(f"{done.undated} without a due date left out")
        if done.withheld:
            parts.append(f"{done.withheld} confidential left out")
        self.window.statusBar().showMessage("; ".join(parts) + ".", 10000)
        return done


def install_case_views(window: ViewsWindow) -> CaseViews:
    """Add the Timeline and Claims views, the calendar export and the overdue notice to the
    window (see module docstring); returns them."""
    return CaseViews(window)
