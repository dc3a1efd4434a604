"""The window's status bar (:class:`MessageBar`: messages cut to fit) and its permanent part:
a busy bar while a quiet job runs, the case's counts ("12 items: 3 people, 2 documents"),
follow-ups due this week, and the workspace."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QProgressBar, QSizeGrip, QStatusBar, QToolButton, QWidget

from casefile.services.reading import ReadingSummary
from casefile.services.views import CaseStatus
from casefile.ui.operations import Job, OperationRunner


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``count`` and the noun in the right number: "1 document", "2 documents"."""
    return f"{count} {singular if count == 1 else (plural_form or singular + 's')}"


class MessageBar(QStatusBar):
    """The window's status bar: a message longer than the room left of the permanent widgets
    is cut with "…" (it ran under the counts before), the whole of it in the bar's tooltip
    and in :meth:`currentMessage`. The room is measured where Qt paints the message: from
    its left margin to the first permanent widget shown, as laid out now; it is measured
    again whenever a permanent widget shows, hides, moves or resizes (a busy bar appearing,
    the counts growing) and when the bar is resized."""

    #: Qt's margins around the message (QStatusBar paints it from x = 6 to 2 px before the
    #: first permanent widget), and a few pixels kept free before that widget.
    LEFT, GAP, SPARE = 6, 2, 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""
        self._until: float | None = None  # time.monotonic() when the message goes
        self._permanent: list[QWidget] = []
        self._fitting = False

    def addPermanentWidget(self, widget: QWidget, stretch: int | None = 0) -> None:  # noqa: N802
        self._permanent.append(widget)
        super().addPermanentWidget(widget, stretch or 0)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.Show, QEvent.Type.Hide, QEvent.Type.Move,
                            QEvent.Type.Resize) and watched in self._permanent:
            self.refit()
        return super().eventFilter(watched, event)

    def showMessage(self, text: str, timeout: int | None = 0) -> None:  # noqa: N802 (Qt's)
        self._whole = text
        self._until = time.monotonic() + timeout / 1000 if timeout else None
        self._show_fitted(timeout or 0)

    def message_room(self) -> int:
        """The width in pixels the message may take now: from where Qt paints it to the
        first permanent widget shown (or the size grip), less :attr:`SPARE`."""
        layout = self.layout()
        if layout is not None:
            layout.activate()  # the widgets' places after their last change
        right = self.width() - 12  # Qt's own right margin with nothing permanent
        grip = self.findChild(QSizeGrip)
        if grip is not None and grip.isVisible():
            right = min(right, grip.mapTo(self, QPoint(0, 0)).x())
        for widget in self._permanent:
            if widget.isVisible():
                right = min(right, widget.mapTo(self, QPoint(0, 0)).x() - self.GAP)
        return max(right - self.LEFT - self.SPARE, 40)

    def _show_fitted(self, timeout: int) -> None:
        if self._fitting:
            return
        self._fitting = True
        try:
            text = self._whole
            if self.isVisible():  # before the first show the bar's width means nothing yet
                text = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight,
                                                     self.message_room())
            self.setToolTip(self._whole if text != self._whole else "")
            super().showMessage(text, timeout)
        finally:
            self._fitting = False

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.refit()

    def refit(self) -> None:
        """Cut the shown message again to the room left now (after a resize, or after a
        permanent widget changed), keeping what is left of its timeout."""
        if self._whole and super().currentMessage():
            left = 0 if self._until is None else int((self._until - time.monotonic()) * 1000)
            if self._until is None or left > 0:
                self._show_fitted(left)

    def currentMessage(self) -> str:  # noqa: N802 (Qt's name)
        return self._whole if super().currentMessage() else ""


class StatusLine(QObject):
    """Labels ``counts_label``, ``due_label``, ``workspace_label`` and the ``job_bar`` on
    ``bar``; the job bar shows while ``runner`` runs a job without a progress dialog (busy,
    or how far once the job reports numbers), with ``cancel_button`` beside it for a job
    marked ``cancellable`` (OCR)."""

    def __init__(self, bar: QStatusBar, runner: OperationRunner, workspace_label: str) -> None:
        super().__init__(bar)
        self.bar = bar
        self.runner = runner
        # the folder's name only (the whole path in the tooltip), so the status bar keeps
        # room for the messages that name what an action made
        short = workspace_label.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1]
        from casefile.store.workspace import default_workspace_dir  # loaded by then

        if Path(workspace_label) == default_workspace_dir():
            short = "default"  # not the folder's generic name "workspace"
        self.workspace_label = QLabel(f"Workspace: {short or workspace_label}")
        self.workspace_label.setToolTip(workspace_label)
        self.counts_label = QLabel()
        self.due_label = QLabel()
        for label in (self.workspace_label, self.counts_label, self.due_label):
            label.setTextFormat(Qt.TextFormat.PlainText)
        self.job_bar = QProgressBar()
        self.job_bar.setRange(0, 0)
        self.job_bar.setMaximumWidth(120)
        self.job_bar.setVisible(False)
        self.cancel_button = QToolButton()
        self.cancel_button.setText("Cancel")
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.cancel_jobs)
        self._cancellable: list[Job] = []
        for widget in (self.job_bar, self.cancel_button, self.counts_label, self.due_label,
                       self.workspace_label):
            bar.addPermanentWidget(widget)
        runner.job_started.connect(self._on_job_started)
        runner.job_finished.connect(self._on_job_finished)
        runner.job_progressed.connect(self._on_job_progressed)

    def show_status(self, status: CaseStatus | None,
                    reviewed: ReadingSummary | None = None) -> None:
        """Show the open case's counts, how many of its documents are reviewed (``reviewed``,
        the whole line in the tooltip: "The reading ledger" of ARCHITECTURE.md) and
        follow-ups due (None: no case, blank)."""
        if status is None:
            self.counts_label.setText("")
            self.counts_label.setToolTip("")
            self.due_label.setText("")
            if isinstance(self.bar, MessageBar):
                self.bar.refit()
            return
        total = sum(status.counts.values())
        people, docs = status.counts["person"], status.counts["document"]
        read = f" ({reviewed.reviewed} reviewed)" if reviewed is not None and docs else ""
        self.counts_label.setText(f"{plural(total, 'item')}: {plural(people, 'person', 'people')}"
                                  f", {plural(docs, 'document')}{read}")
        self.counts_label.setToolTip(reviewed.as_text() if read and reviewed else "")
        text = f"{plural(status.due_this_week - status.overdue, 'follow-up')} due this week"
        if status.overdue:
            text = f"{status.overdue} overdue · " + text
        self.due_label.setText(text)
        if isinstance(self.bar, MessageBar):
            layout = self.bar.layout()
            if layout is not None:
                layout.activate()  # the labels' new widths, before measuring the room
            self.bar.refit()

    @Slot()
    def cancel_jobs(self) -> None:
        """Cancel the running jobs marked ``cancellable`` (what they finished stays)."""
        for job in self._cancellable:
            job.cancel()
        self.cancel_button.setEnabled(False)
        self.job_bar.setFormat("Cancelling…")

    @Slot(object)
    def _on_job_started(self, job: Job) -> None:
        if job.dialog is None:
            self.job_bar.setRange(0, 0)
            self.job_bar.setVisible(True)
            self.job_bar.setToolTip(job.label)
        if job.cancellable and job.dialog is None:
            self._cancellable.append(job)
            self.cancel_button.setToolTip(f"Stop: {job.label}")
            self.cancel_button.setEnabled(True)
            self.cancel_button.setVisible(True)

    @Slot(object, int, int)
    def _on_job_progressed(self, job: Job, done: int, total: int) -> None:
        if job.dialog is None and total > 0 and not job.cancelled:
            self.job_bar.setRange(0, total)
            self.job_bar.setValue(min(done, total))
            self.job_bar.setFormat(f"{job.label.rstrip('…')} %p%")

    @Slot(object)
    def _on_job_finished(self, job: Job) -> None:
        if job in self._cancellable:
            self._cancellable.remove(job)
        if not self._cancellable:
            self.cancel_button.setVisible(False)
        if not self.runner.busy:
            self.job_bar.setVisible(False)
            self.job_bar.setRange(0, 0)
