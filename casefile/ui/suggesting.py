"""Entity suggestions from the window: run the extractor over newly imported documents in the
background, then bring the Suggestions panel forward saying how many wait.

:class:`SuggestionsController` uses the window's public interface only (``case_id``,
``runner``, ``notify``, ``docks``) and the panel's public ``listing`` (reloaded from
``case_changed`` before the job's ``on_done`` runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.services.changes import Changes
from casefile.ui.docks import show_dock
from casefile.ui.operations import Job
from casefile.ui.preferences import suggestion_model
from casefile.ui.status_line import plural

if TYPE_CHECKING:
    from typing import Protocol

    from PySide6.QtWidgets import QDockWidget, QTabWidget

    from casefile.ui.document_tabs import DocumentTabs
    from casefile.ui.shell import WindowShell
    from casefile.ui.suggestions import SuggestionsPanel

    class SuggestingWindow(WindowShell, Protocol):
        """The window as the suggestion runs see it: the shell, its tabs and docks, the document
        tabs and the Suggestions panel."""

        tabs: QTabWidget
        docks: dict[str, QDockWidget]
        documents: DocumentTabs
        suggestions_panel: SuggestionsPanel


def suggestions_available() -> bool:
    """True when the entity extractor is installed: imports then run suggestions."""
    from casefile.services.suggestion_models import extractor_available

    return extractor_available()


class SuggestionsController(QObject):
    """Runs suggestions for a window. ``enabled`` (the window's ``suggest_after_import``) says
    whether :meth:`after_import` runs them at all."""

    def __init__(self, window: SuggestingWindow, *, enabled: bool = True) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.enabled = enabled
        self.last_job: Job | None = None

    def after_import(self, document_ids: list[int]) -> Job | None:
        """Suggest for freshly imported documents when enabled and the extractor is there."""
        if not document_ids or not self.enabled or not suggestions_available():
            return None
        return self.start(document_ids)

    def start(self, document_ids: list[int]) -> Job:
        """Run entity suggestions for these documents in the background (progress in the
        status bar; no dialog; the extraction in worker processes, see
        :func:`casefile.services.suggest_pool.suggest_in_background`), with the suggestion
        model chosen in Edit ▸ Preferences… (else the default). A chosen model that cannot
        load stops the run with one message box saying so (never a silent fall-back to
        rules)."""
        from casefile.services.suggest_pool import suggest_in_background

        model = suggestion_model(self.window.settings)
        transaction = self.window.workspace.transaction
        panel = self.window.suggestions_panel

        def work(_session: Session, job: Job) -> Changes:
            # The extraction runs in worker processes (one per core); this thread stores the
            # results a few documents per transaction, so the window never waits on spaCy.
            from casefile.services.suggestion_models import ModelError

            try:
                done = suggest_in_background(transaction, document_ids, model=model,
                                             progress=job.report,
                                             cancelled=lambda: job.cancelled)
                panel.prepare(done.case_id)  # the panel's list, read here, not on the GUI
                return done
            except ModelError as exc:
                raise CasefileError(f"No suggestions: {str(exc).rstrip('.')}. Choose another "
                                    "suggestion model in Edit ▸ Preferences…") from exc

        job = self.window.runner.start(
            work, label="Finding names and dates…", progress=False,
            change=lambda c: c, parent=self.window.qt_window(), on_done=self._on_done)
        self.last_job = job
        return job

    def current_document_id(self) -> int | None:
        """The document whose viewer tab is shown, or None (another tab, or none open)."""
        shown = self.window.tabs.currentWidget()
        for document_id, viewer in self.window.documents.viewers.items():
            if viewer is shown:
                return document_id
        return None

    def suggest_again(self, document_id: int | None = None) -> Job | None:
        """"Suggest again": run the import's suggestion job on a document already in the case
        (``document_id``, else the one shown), e.g. after a failed run or a model chosen in
        Preferences (re-importing it only says it is already there). Its undecided suggestions
        are found afresh; decided ones stay as they are. Returns the job, or None when there is
        no document to run on or no extractor (said in the status bar)."""
        doc = document_id if document_id is not None else self.current_document_id()
        if doc is None:
            self.window.notify("Suggest again works on a document: open it in its tab first.",
                               8000)
            return None
        return self._start_if_available([doc])

    def _start_if_available(self, document_ids: list[int]) -> Job | None:
        """:meth:`start`, or None and a word in the status bar without an extractor."""
        if not suggestions_available():
            self.window.notify("No suggestions: the name finder is not installed.", 8000)
            return None
        return self.start(document_ids)

    def waiting_in_case(self, case_id: int) -> list[int]:
        """The documents of the case never read for suggestions (a run cancelled or ended with
        the window, a CLI import with ``--no-suggest``), in id order; [] when unreadable."""
        from casefile.services.waiting import waiting_for_suggestions

        try:
            return self.window.runner.read(lambda s: waiting_for_suggestions(s, case_id))
        except CasefileError:
            return []

    def run_waiting(self) -> Job | None:
        """Case ▸ Suggest for documents never read: the suggestion job on every document of
        the open case still marked as waiting; None (and a word in the status bar) when none
        is, a run is going on, or there is no extractor."""
        case_id = self.window.case_id
        if case_id is None:
            return None
        if self.last_job is not None and not self.last_job.outcome:
            self.window.notify("Suggestions are being found already (see the status bar).",
                               5000)
            return None
        waiting = self.waiting_in_case(case_id)
        if not waiting:
            self.window.notify("Every document of this case has been read for suggestions.",
                               5000)
            return None
        return self._start_if_available(waiting)

    def install_tab_menu(self) -> None:
        """Give the document tabs a context menu with "Suggest again" (the tabs must exist:
        call after the window built its widgets). ``suggest_again_action`` is the window's
        own action for the document shown."""
        self.suggest_again_action = QAction("Suggest &again", self.window.qt_window())
        self.suggest_again_action.setStatusTip(
            "Find names, dates, follow-ups and claims again in the document shown")
        self.suggest_again_action.triggered.connect(lambda _checked=False: self.suggest_again())
        bar = self.window.tabs.tabBar()
        bar.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        bar.customContextMenuRequested.connect(self._on_tab_menu)
        self.tab_menu: QMenu | None = None

    def tab_menu_for(self, index: int) -> QMenu | None:
        """The context menu of the tab at ``index`` (None unless it is a document's tab)."""
        widget = self.window.tabs.widget(index)
        doc = next((d for d, v in self.window.documents.viewers.items() if v is widget), None)
        if doc is None:
            return None
        menu = QMenu(self.window.qt_window())
        again = menu.addAction("Suggest &again")
        again.setStatusTip(self.suggest_again_action.statusTip())
        again.triggered.connect(lambda _checked=False: self.suggest_again(doc))
        return menu

    @Slot(QPoint)
    def _on_tab_menu(self, pos: QPoint) -> None:
        bar = self.window.tabs.tabBar()
        menu = self.tab_menu_for(bar.tabAt(pos))
        if menu is None:
            return
        self.tab_menu = menu
        menu.aboutToHide.connect(menu.deleteLater)
        menu.popup(bar.mapToGlobal(pos))

    def _on_done(self, job: Job) -> None:
        if job.outcome != "succeeded":
            self.window.notify("Suggestions stopped.", 5000)
            return
        self.announce()

    def announce(self) -> int:
        """Bring the Suggestions dock forward when suggestions wait (its title says how many)
        and say it in the status bar; returns how many wait."""
        panel = self.window.suggestions_panel
        listing = panel.listing
        waiting = listing.total if listing is not None else 0
        if not waiting:
            self.window.notify("Suggestions ready: nothing new to decide.", 6000)
            return 0
        dock = self.window.docks.get("suggestions_dock")
        if dock is not None:
            show_dock(dock, focus=False)
        self.window.notify(f"{plural(waiting, 'suggestion')} to decide in the Suggestions "
                           "panel (Ctrl+Shift+S).", 10000)
        return waiting
