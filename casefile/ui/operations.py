"""The one way the window changes data: run a service call, commit, announce what changed.

:class:`OperationRunner` runs a function ``fn(session) -> result`` in one transaction, either
at once on the GUI thread (quick actions: edits, links) or on a worker thread of a QThreadPool
with a cancellable QProgressDialog (exports, suggestion runs). After a commit it emits
``case_changed`` with a :class:`CaseChange`; views refresh from that signal only (ARCHITECTURE.md,
"One way in for changes"). A cancelled job is rolled back: nothing it did is stored.

A job that commits in pieces (an import, one group of files per transaction; OCR, one
document per transaction) runs with :meth:`OperationRunner.start_pieces`: the service gets the
workspace's transaction factory instead of one session, returns a typed partial result
(:class:`Partial`: what committed, what failed and why, whether it was cancelled), and the
runner emits ``case_changed`` with what the committed pieces changed whether the job ended or
was cancelled. A worker asks the user something mid-job with :meth:`Job.ask` (a typed
:class:`casefile.services.prompts.Question`), answered on the GUI thread.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
import traceback
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal, Slot
from PySide6.QtWidgets import QProgressDialog, QWidget
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.services.changes import Changes, Step, changes, run_step
from casefile.services.prompts import Question
from casefile.store.conflicts import retry_on_conflict
from casefile.store.reader import Reader
from casefile.store.workspace import Workspace
from casefile.ui.idle_collector import idle_collector

log = logging.getLogger(__name__)

#: A job's progress dialog shows once the job has run this long (milliseconds).
SHOW_PROGRESS_AFTER_MS = 300
_NEVER_MS = 24 * 3600 * 1000  # Qt's own showing of a progress dialog, put out of reach
T = TypeVar("T")
A = TypeVar("A")


class Partial(Protocol):
    """What a job that commits in pieces returns, also when cancelled (e.g.
    :class:`casefile.services.batch.BatchResult`: each file's outcome, committed or failed
    with its reason): ``cancelled`` when it stopped early, the pieces committed before it
    staying."""

    @property
    def cancelled(self) -> bool: ...


P = TypeVar("P", bound=Partial)
#: The workspace's transaction factory, handed to a job that commits in pieces.
Transactions = Callable[[], AbstractContextManager[Session]]


class _Reply:
    """The answer to one question, handed from the GUI thread to the waiting worker."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.value: Any = None

    def __call__(self, value: Any) -> None:
        if not self.event.is_set():
            self.value = value
            self.event.set()


#: What one operation changed, as carried by ``case_changed``: the services' own value
#: (:class:`casefile.services.changes.Changes`), so views refresh from what the service said.
CaseChange = Changes


def change(
    case_id: int | None, *, kinds: tuple[str, ...] | set[str] = (), created: Any = (),
    updated: Any = (), deleted: Any = (), evidence: bool = False, cases: bool = False,
    label: str = "", documents: Any = (), suggestions: bool = False,
) -> CaseChange:
    """Build a Changes value from plain iterables (a convenience for callers)."""
    return changes(case_id, kinds=kinds, created=created, updated=updated, deleted=deleted,
                   evidence=evidence, cases=cases, label=label, documents=documents,
                   suggestions=suggestions)


class Cancelled(Exception):
    """Raised inside a background job (by :meth:`Job.check` or a progress callback) to stop it;
    the job's transaction is rolled back."""


@dataclass
class Outcome(Generic[T]):
    """The result of a quick operation: ``ok`` with ``value``, or not ok with ``error``."""

    ok: bool
    value: T | None = None
    error: str | None = None


class _JobSignals(QObject):
    """Carries a worker's news to the GUI thread.

    It lives in the GUI thread and its slots are bound methods of itself, so a signal emitted on
    the worker thread is queued and the handlers run on the GUI thread.
    """

    progressed = Signal(int, int)
    labelled = Signal(str)
    asked = Signal(object, object)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.on_progress: Callable[[int, int], None] = lambda done, total: None
        self.on_finish: Callable[[str, Any, str | None], None] = lambda *args: None
        self.on_label: Callable[[str], None] = lambda text: None
        self.on_ask: Callable[[Any, _Reply], None] = lambda question, reply: reply(None)
        self.progressed.connect(self._on_progressed)
        self.labelled.connect(self._on_labelled)
        self.asked.connect(self._on_asked)
        self.succeeded.connect(self._on_succeeded)
        self.failed.connect(self._on_failed)
        self.cancelled.connect(self._on_cancelled)

    @Slot(int, int)
    def _on_progressed(self, done: int, total: int) -> None:
        self.on_progress(done, total)

    @Slot(str)
    def _on_labelled(self, text: str) -> None:
        self.on_label(text)

    @Slot(object, object)
    def _on_asked(self, question: Any, reply: _Reply) -> None:
        self.on_ask(question, reply)

    @Slot(object)
    def _on_succeeded(self, result: Any) -> None:
        self.on_finish("succeeded", result, None)

    @Slot(str)
    def _on_failed(self, error: str) -> None:
        self.on_finish("failed", None, error)

    @Slot()
    def _on_cancelled(self) -> None:
        self.on_finish("cancelled", None, None)


@dataclass
class Job:
    """A background operation. ``cancel()`` asks it to stop; the worker calls ``report(done,
    total)`` and ``check()``; ``dialog`` is its progress dialog (None for a quiet job)."""

    label: str
    signals: _JobSignals
    dialog: QProgressDialog | None = None
    _cancel: threading.Event = field(default_factory=threading.Event)
    done: bool = False
    outcome: str = ""  # "succeeded", "failed" or "cancelled" once done
    started_at: float = 0.0  # time.perf_counter() when started / when its result arrived
    finished_at: float = 0.0
    result: Any = None
    error: str | None = None
    cancellable: bool = False  # a quiet job the status line offers to cancel
    #: a job that commits in pieces: its partial result, also when cancelled (set by the
    #: worker before the outcome is announced; ``result`` then holds it too)
    partial: Any = None
    label_text: str = ""  # the progress label the job gave last (:meth:`progress`)
    #: a question of the job is open: its progress dialog stays hidden meanwhile
    asking: bool = False

    @property
    def cancelled(self) -> bool:
        """True once cancel() was called."""
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Ask the job to stop; what it did is rolled back."""
        self._cancel.set()

    def check(self) -> None:
        """Raise Cancelled if the job was cancelled (call between steps, from the worker)."""
        if self._cancel.is_set():
            raise Cancelled()

    def report(self, done: int, total: int) -> None:
        """Report progress from the worker (thread-safe); raises Cancelled once cancelled."""
        self.signals.progressed.emit(int(done), int(total))
        self.check()

    def progress(self, done: int, total: int, text: str = "") -> None:
        """Report progress from the worker (thread-safe) without raising (a job that commits
        in pieces checks :attr:`cancelled` itself); ``text`` replaces the progress dialog's
        label ("Importing memo.pdf (2 of 6)")."""
        if text:
            self.signals.labelled.emit(text)
        self.signals.progressed.emit(int(done), int(total))

    def ask(self, question: Question[A]) -> A | None:
        """Ask the user ``question`` from the worker: the GUI thread shows it (the job's
        ``answer`` handler) and this waits for the reply. None when the user declined or the
        job was cancelled meanwhile. Implements :class:`casefile.services.prompts.Ask`."""
        reply = _Reply()
        self.signals.asked.emit(question, reply)
        while not reply.event.wait(0.05):
            if self.cancelled:
                return None
        value: A | None = reply.value
        return value


def _reporting_failures(job: Job, work: Callable[[], T]) -> tuple[bool, T | None]:
    """Run a job's ``work`` on its worker thread: ``(True, result)``, or ``(False, None)`` once
    the job's ``cancelled`` or ``failed`` signal said why it stopped (a CasefileError's own
    line; an unexpected error logged with its traceback, the window kept alive)."""
    try:
        return True, work()
    except Cancelled:
        job.signals.cancelled.emit()
    except CasefileError as exc:
        job.signals.failed.emit(str(exc))
    except Exception as exc:  # a bug: report it, keep the window alive
        log.error("background job %r failed:\n%s", job.label, traceback.format_exc())
        job.signals.failed.emit(f"unexpected error: {exc}")
    return False, None


class _Worker(QRunnable):
    """Runs ``fn(session, job)`` in one transaction (``_PiecesWorker``: ``fn(transactions,
    job)``)."""

    def __init__(self, workspace: Workspace, job: Job, fn: Callable[[Any, Job], Any]):
        super().__init__()
        self.setAutoDelete(False)
        self._workspace = workspace
        self._job = job
        self._fn = fn

    def run(self) -> None:
        job = self._job

        def work() -> Any:
            with self._workspace.sessions() as session, session.begin():
                result = self._fn(session, job)
                job.check()  # cancelled while the last step ran: roll back
            return result

        ok, result = _reporting_failures(job, work)
        if not ok:
            return
        if job.cancelled:
            job.signals.cancelled.emit()
        else:
            job.signals.succeeded.emit(result)


class _PiecesWorker(_Worker):
    """Runs ``fn(transactions, job)``: the job opens its own transactions, one per piece."""

    def run(self) -> None:
        job = self._job
        ok, result = _reporting_failures(job, lambda: self._fn(self._workspace.transaction, job))
        if not ok or result is None:
            return
        job.partial = result
        if result.cancelled or job.cancelled:
            job.signals.cancelled.emit()
        else:
            job.signals.succeeded.emit(result)


class OperationRunner(QObject):
    """Runs service calls for the window and emits ``case_changed`` after each commit.

    Signals: ``case_changed(CaseChange)``; ``operation_failed(str)`` with the one-line message
    for the reporter; ``job_started(Job)`` / ``job_finished(Job)`` around background jobs, and
    ``job_progressed(Job, done, total)`` as one reports progress.

    Every call takes ``on_failed(message)``, a per-call failure callback: when given it is
    called instead of emitting ``operation_failed`` (the caller says it its own way), and
    ``parent``, the widget that started the call: while ``operation_failed`` is emitted for
    it, :attr:`failure_parent` is that widget, so the error box is parented there.
    """

    case_changed = Signal(object)
    operation_failed = Signal(str)
    job_started = Signal(object)
    job_finished = Signal(object)
    job_progressed = Signal(object, int, int)

    def __init__(self, workspace: Workspace, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self._jobs: dict[int, tuple[Job, QRunnable]] = {}
        #: The widget that started the call whose failure is being announced, else None.
        self.failure_parent: QWidget | None = None

    def fail(self, message: str, *, on_failed: Callable[[str], None] | None = None,
             parent: QWidget | None = None) -> None:
        """Announce a failure: ``on_failed(message)`` when given, else ``operation_failed``
        with :attr:`failure_parent` set to ``parent`` meanwhile."""
        if on_failed is not None:
            on_failed(message)
            return
        self.failure_parent = parent
        try:
            self.operation_failed.emit(message)
        finally:
            self.failure_parent = None

    # -- quick operations -------------------------------------------------------------------

    def run(
        self, fn: Callable[[Session], T], *,
        change: CaseChange | Callable[[T], CaseChange] | None, label: str = "",
        on_failed: Callable[[str], None] | None = None, parent: QWidget | None = None,
    ) -> Outcome[T]:
        """Run ``fn(session)`` now, in one transaction, then emit ``case_changed``.

        ``change`` describes what changed (or computes it from the result); None emits nothing
        (reads). When another process's commit got in first, ``fn`` runs again in a new
        transaction (a few times, 0.05 s, 0.1 s, … apart). A CasefileError is rolled back and
        reported (:meth:`fail`: ``on_failed``,
        else ``operation_failed`` with ``parent``).
        """
        def attempt() -> T:
            with self.workspace.transaction() as session:
                return fn(session)

        try:
            # another process committed between this transaction's first read and its first
            # write (SQLite refuses the stale snapshot): run it again on a fresh one
            value = retry_on_conflict(attempt)
        except CasefileError as exc:
            self.fail(str(exc), on_failed=on_failed, parent=parent)
            return Outcome(False, error=str(exc))
        except Exception as exc:
            log.error("operation %r failed:\n%s", label, traceback.format_exc())
            message = f"unexpected error while {label or 'saving'}: {exc}"
            self.fail(message, on_failed=on_failed, parent=parent)
            return Outcome(False, error=message)
        if change is not None:
            self.case_changed.emit(change(value) if callable(change) else change)
        return Outcome(True, value)

    def checked(self, fn: Callable[[], T]) -> T | None:
        """``fn()``, work outside the database done before an action (reading the file the
        user chose, mapping its columns), or None after announcing the CasefileError it
        raised (:meth:`fail`)."""
        try:
            return fn()
        except CasefileError as exc:
            self.fail(str(exc))
            return None

    def apply(self, fn: Callable[[Session], Changes], *, label: str = "",
              on_failed: Callable[[str], None] | None = None,
              parent: QWidget | None = None) -> Outcome[Changes]:
        """Run one service action ``fn(session) -> Changes`` now, in one transaction, then emit
        ``case_changed`` with the Changes the service returned (views refresh from what the
        service said changed). Failures as for :meth:`run`."""
        return self.run(fn, change=lambda c: c, label=label, on_failed=on_failed, parent=parent)

    def apply_step(self, step: Step, *, on_failed: Callable[[str], None] | None = None,
                   parent: QWidget | None = None) -> Outcome[Changes]:
        """Run an undo or redo :class:`~casefile.services.changes.Step` (a service call) as
        :meth:`apply` does; the returned Changes' ``undo`` is the step that reverses it."""
        return self.apply(lambda s: run_step(s, step), label=step.label, on_failed=on_failed,
                          parent=parent)

    def read(self, fn: Callable[[Session], T]) -> T:
        """Run a read-only query ``fn(session)`` on the GUI thread and return its result.

        Errors propagate (reads of ids that vanished raise NotFoundError).
        """
        with self.workspace.transaction(write=False) as session:
            return fn(session)

    def read_plain(self, fn: Callable[[Reader], T]) -> T:
        """Run a read-only ``fn(reader)`` on the GUI thread, with plain SQL and no ORM session
        (:meth:`Workspace.reading`; the Search panel's path). Errors propagate."""
        with self.workspace.reading() as reader:
            return fn(reader)

    # -- background jobs --------------------------------------------------------------------

    def start(
        self, fn: Callable[[Session, Job], T], *, label: str,
        change: Callable[[T], CaseChange] | CaseChange | None,
        parent: QWidget | None = None, progress: bool = True,
        on_done: Callable[[Job], None] | None = None,
        on_failed: Callable[[str], None] | None = None, cancellable: bool = False,
    ) -> Job:
        """Run ``fn(session, job)`` on a worker thread in one transaction.

        With ``progress`` a window-modal QProgressDialog (busy until the job reports numbers)
        offers Cancel; cancelling rolls the transaction back. On success ``case_changed`` is
        emitted with ``change``; a failure is reported as :meth:`fail` says (``on_failed``, else
        ``operation_failed`` with ``parent``); ``on_done(job)`` runs on the GUI thread in every
        case, after that. A quiet job (no ``progress``) with ``cancellable`` gets a Cancel
        button in the status line.
        """
        job = Job(label=label, signals=_JobSignals(), cancellable=cancellable)

        def changed(outcome: str, result: Any) -> CaseChange | None:
            if outcome != "succeeded" or change is None:
                return None
            return change(result) if callable(change) else change

        return self._launch(job, _Worker(self.workspace, job, fn), changed, parent=parent,
                            progress=progress, on_done=on_done, on_failed=on_failed,
                            cancel_text="Cancelling… nothing of this will be stored.")

    def start_pieces(
        self, fn: Callable[[Transactions, Job], P], *, label: str,
        change: Callable[[P], CaseChange | None],
        parent: QWidget | None = None, progress: bool = True,
        answer: Callable[[Any, Callable[[Any], None]], None] | None = None,
        on_done: Callable[[Job], None] | None = None,
        on_failed: Callable[[str], None] | None = None, cancellable: bool = False,
        cancel_text: str = "Cancelling after this step… what is done already stays.",
    ) -> Job:
        """Run a job that commits in pieces: ``fn(transactions, job)`` on a worker thread,
        opening one transaction per piece with ``transactions()`` (the workspace's, so each
        piece retries a lost write race as its service does) and returning its partial
        result ``P`` (:class:`Partial`).

        Cancel (the progress dialog's button, saying ``cancel_text``; the status line's for a
        quiet ``cancellable`` job) sets :attr:`Job.cancelled`; ``fn`` stops at its next piece
        and returns what it did with ``cancelled`` set. Whether the job ended or was cancelled,
        ``job.result`` is that result and ``case_changed`` is emitted with ``change(result)``
        (None: nothing committed, nothing emitted), so the views show what stays. A failure
        raised by ``fn`` is reported as :meth:`fail` says; the pieces committed before it
        stay. ``fn`` asks the user with :meth:`Job.ask`: the GUI thread calls
        ``answer(question, reply)``, which shows the question (the progress dialog steps
        aside meanwhile) and calls ``reply(value)`` once answered (None: declined); without
        ``answer`` every question is declined. ``parent`` is the widget that started the
        job (the dialogs' and error boxes' parent); ``on_done(job)`` runs last, in every case.
        """
        job = Job(label=label, signals=_JobSignals(), cancellable=cancellable)

        def changed(outcome: str, result: Any) -> CaseChange | None:
            partial = job.partial
            if partial is None or outcome == "failed":
                return None
            job.result = partial
            return change(partial)

        if answer is not None:
            def on_ask(question: Any, reply: _Reply) -> None:
                dialog = job.dialog
                if job.done:
                    reply(None)
                    return
                shown = dialog is not None and dialog.isVisible()
                job.asking = True  # the question goes in front, the progress waits
                if dialog is not None:
                    dialog.hide()

                def replied(value: Any) -> None:
                    job.asking = False
                    reply(value)
                    if job.dialog is not None and not job.done and (
                            shown or job.dialog.property("due")):
                        job.dialog.show()

                answer(question, replied)

            job.signals.on_ask = on_ask
        return self._launch(job, _PiecesWorker(self.workspace, job, fn), changed,
                            parent=parent, progress=progress, on_done=on_done,
                            on_failed=on_failed, cancel_text=cancel_text)

    def _launch(self, job: Job, worker: QRunnable,
                changed: Callable[[str, Any], CaseChange | None], *, parent: QWidget | None,
                progress: bool, on_done: Callable[[Job], None] | None,
                on_failed: Callable[[str], None] | None, cancel_text: str) -> Job:
        """Start ``worker`` for ``job``: its progress dialog, progress and ending (see
        :meth:`start`); ``changed(outcome, result)`` is what to emit as ``case_changed``."""
        if progress:
            dialog = QProgressDialog(job.label, "Cancel", 0, 0, parent)
            dialog.setWindowTitle("Casefile")
            dialog.setWindowModality(Qt.WindowModality.WindowModal)
            # shown by the timer below, never by Qt's own: its timer, once started, shows
            # the dialog even after it was hidden for a question of the job, and the
            # window-modal box then blocks the question's buttons
            dialog.setMinimumDuration(_NEVER_MS)
            dialog.setAutoClose(False)
            dialog.setAutoReset(False)
            dialog.canceled.connect(job.cancel)
            dialog.canceled.connect(lambda: dialog.setLabelText(cancel_text))
            job.dialog = dialog
            dialog.setValue(0)

            def due() -> None:
                dialog.setProperty("due", True)  # shown now, or once a question is answered
                if job.dialog is dialog and not job.done and not job.asking:
                    dialog.show()

            QTimer.singleShot(SHOW_PROGRESS_AFTER_MS, dialog, due)

        def on_progress(done: int, total: int) -> None:
            if job.dialog is not None and not job.done and not job.cancelled:
                job.dialog.setMaximum(max(total, 1))
                job.dialog.setValue(min(done, total))
            if not job.done:
                self.job_progressed.emit(job, done, total)

        def on_label(text: str) -> None:
            job.label_text = text
            if job.dialog is not None and not job.done and not job.cancelled:
                job.dialog.setLabelText(text)

        def finish(outcome: str, result: Any, error: str | None) -> None:
            if job.done:
                return
            job.finished_at = time.perf_counter()
            job.done, job.outcome, job.result, job.error = True, outcome, result, error
            if job.dialog is not None:
                job.dialog.canceled.disconnect(job.cancel)
                job.dialog.close()
                job.dialog.deleteLater()
                job.dialog = None
            self._jobs.pop(id(job), None)
            emitted = changed(outcome, result)
            if emitted is not None:
                self.case_changed.emit(emitted)
            if outcome == "failed" and error:
                self.fail(error, on_failed=on_failed, parent=parent)
            if on_done is not None:
                on_done(job)
            self.job_finished.emit(job)
            if not self._jobs:
                idle_collector().request()

        job.signals.on_progress = on_progress
        job.signals.on_label = on_label
        job.signals.on_finish = finish
        # The objects alive now (the window, its models, every module: ~100,000) stay alive
        # through the job; moved out of the collector's reach, the full collections the
        # job's allocations bring (they hold the interpreter lock, so the GUI thread waits)
        # scan only what the job made: a few ms instead of 100-300 ms each. They stay frozen
        # when the last job ends (finish): handed back at once, the allocations of what the
        # window does next (a graph filling its scene) set off a full pass over all of them;
        # the full collection runs when the user is idle instead, so nothing is kept for
        # good (ui/idle_collector.py; ARCHITECTURE.md, "The window"), never while a job runs.
        idle_collector().hold()
        gc.freeze()
        job.started_at = time.perf_counter()
        self._jobs[id(job)] = (job, worker)
        self.job_started.emit(job)
        self.pool.start(worker)
        return job

    @property
    def busy(self) -> bool:
        """True while a background job is running."""
        return bool(self._jobs)

    def running_labels(self) -> list[str]:
        """The labels of the jobs running now ("Finding names and dates…"), oldest first."""
        return [job.label for job, _worker in self._jobs.values()]

    def shutdown(self, timeout_ms: int = 30000) -> None:
        """Cancel running jobs and wait for the workers (called when the window closes)."""
        for job, _worker in list(self._jobs.values()):
            job.cancel()
        self.pool.waitForDone(timeout_ms)
