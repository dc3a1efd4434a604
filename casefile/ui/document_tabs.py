"""Document viewer tabs of the window: open (or bring forward) a document at a passage, close,
and keep the open viewers current after a change.

:class:`DocumentTabs` adds viewer tabs to the window's central ``tabs`` and forwards a viewer's
selection actions as its own signals; it uses only the window's public interface
(``tabs``, ``runner``, ``report_error``, and ``pdf_passwords`` through
:func:`~casefile.ui.pdf_pages.install_pdf_pages`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal, Slot

from casefile.errors import CasefileError
from casefile.services import views
from casefile.ui.operations import CaseChange
from casefile.ui.viewer import DocumentViewer

if TYPE_CHECKING:
    from typing import Protocol

    from PySide6.QtWidgets import QTabWidget

    from casefile.ui.pdf_pages import PagesWindow

    class TabsWindow(PagesWindow, Protocol):
        """The window as its document tabs see it: the shell, its tab widget and what the
        pages pane asks of it."""

        tabs: QTabWidget


class DocumentTabs(QObject):
    """The open document viewers (``viewers``: document id -> DocumentViewer).

    Signals, from a viewer's selection menu: ``link_requested(document_id, start, end)`` and
    ``new_item_requested(kind, document_id, start, end)`` (Python str offsets).
    """

    link_requested = Signal(int, int, int)
    new_item_requested = Signal(str, int, int, int)

    def __init__(self, window: TabsWindow) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.viewers: dict[int, DocumentViewer] = {}
        #: what :meth:`prepare` read ahead, by document id: (its view, its original)
        self._ahead: dict[int, tuple[views.DocumentView, Any]] = {}
        window.tabs.tabCloseRequested.connect(self._on_tab_close_requested)

    def prepare(self, document_id: int) -> None:
        """Read what opening ``document_id`` needs (its text and passages, its original's
        pages), off the GUI thread: a job calls it on its worker thread after its commit, so
        the next :meth:`open` of it only builds widgets (a 300-page PDF's reads took the GUI
        thread ~0.1 s). Touches no widget; never raises (the open reads for itself)."""
        from casefile.services.originals import document_original
        from casefile.ui import pdf_pages  # noqa: F401  # its first import, here

        try:
            with self.window.workspace.transaction(write=False) as session:
                read = (views.document_view(session, document_id),
                        document_original(session, document_id))
        except Exception:  # the open reads again and says what is wrong
            return
        self._ahead[document_id] = read  # one assignment: atomic for the GUI thread

    def open(self, document_id: int, start: int | None = None,
             end: int | None = None) -> DocumentViewer | None:
        """Open a document in a viewer tab (or bring its tab forward); with ``start``/``end``
        (Python str offsets) the passage is selected and scrolled into view. A document that
        cannot be read is reported (one message) and None returned."""
        tabs = self.window.tabs
        viewer = self.viewers.get(document_id)
        ahead = self._ahead.pop(document_id, None)
        if viewer is None:
            try:
                view = ahead[0] if ahead is not None else self.window.runner.read(
                    lambda s: views.document_view(s, document_id))
            except CasefileError as exc:
                self.window.report_error(str(exc))
                return None
            viewer = DocumentViewer()
            viewer.set_document(view)
            viewer.link_requested.connect(self.link_requested)
            viewer.new_item_requested.connect(self.new_item_requested)
            self.viewers[document_id] = viewer
            from casefile.ui.pdf_pages import install_pdf_pages  # pdfium: on first open

            install_pdf_pages(self.window, viewer, document_id,
                              original=ahead[1] if ahead is not None else None)
            title = view.title if len(view.title) <= 32 else view.title[:31] + "…"
            n = tabs.addTab(viewer, title)
            tabs.setTabToolTip(n, view.title)
        tabs.setCurrentWidget(viewer)
        if start is not None and end is not None and 0 <= start < end:
            viewer.select_span(start, end)
        return viewer

    def close(self, document_id: int) -> None:
        """Close a document's viewer tab."""
        viewer = self.viewers.pop(document_id, None)
        if viewer is not None:
            self.window.tabs.removeTab(self.window.tabs.indexOf(viewer))
            viewer.deleteLater()

    def close_all(self) -> None:
        """Close every viewer tab (another case was opened)."""
        for document_id in list(self.viewers):
            self.close(document_id)

    def text(self, document_id: int) -> str:
        """A document's text: the open viewer's, else the stored one (the same offsets).
        Raises NotFoundError for a document that is gone."""
        viewer = self.viewers.get(document_id)
        if viewer is not None:
            return viewer.text
        return self.window.runner.read(lambda s: views.document_view(s, document_id).text)

    def on_case_changed(self, ch: CaseChange) -> None:
        """Close the viewers of deleted documents; show the others' new passages and text."""
        for document_id in list(self.viewers):
            if document_id in ch.deleted:
                self.close(document_id)
            elif ch.evidence or ch.structural or document_id in ch.updated:
                try:
                    view = self.window.runner.read(
                        partial(views.document_view, document_id=document_id))
                except CasefileError:
                    self.close(document_id)
                    continue
                viewer = self.viewers[document_id]
                viewer.update_document(view)
                if document_id in ch.documents:
                    self._update_pages(document_id, viewer)

    def _update_pages(self, document_id: int, viewer: DocumentViewer) -> None:
        """Give the page pane the document's new page offsets and OCR word boxes."""
        pane = getattr(viewer, "side_pane", None)
        if pane is None or not hasattr(pane, "update_original"):
            return
        from casefile.services.originals import document_original

        try:
            original = self.window.runner.read(lambda s: document_original(s, document_id))
        except CasefileError:
            return
        pane.update_original(original, viewer.text)

    @Slot(int)
    def _on_tab_close_requested(self, index: int) -> None:
        widget = self.window.tabs.widget(index)
        for document_id, viewer in list(self.viewers.items()):
            if viewer is widget:
                self.close(document_id)
