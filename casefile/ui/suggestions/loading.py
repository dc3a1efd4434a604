"""Reading what the Suggestions panel shows (:func:`read_contents`, plain values, any thread),
read ahead by a job (:class:`PanelContents`) or on a worker when a case opens, with Python's
collector paused while a big read builds its objects (:func:`casefile.collector.paused`).
"""


from __future__ import annotations

import logging
import threading
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from sqlalchemy.orm import Session

from casefile.collector import paused as collector_paused
from casefile.services import decisions
from casefile.services.decisions import SuggestionList, pending_at_least
from casefile.services.suggestions import last_suggestion_run, unread_language_notes

if TYPE_CHECKING:
    from casefile.ui.operations import OperationRunner


log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PanelContents:
    """What the panel shows for a case, read ahead (e.g. on a job's worker thread right after
    its last commit, :meth:`SuggestionsPanel.prepare`): the pending suggestions, how the
    latest run found them ("spacy", "rules" or None) and its model. ``stamp`` is the panel's
    count of its own decisions when the read began: contents read before a later decision
    are not used."""

    case_id: int
    listing: SuggestionList
    mode: str | None
    suggested_by: str | None
    stamp: int
    unread: tuple[str, ...] = ()  # documents left unread for their language (their notes)


def read_listing(session: Session, case_id: int) -> SuggestionList:
    """The case's pending suggestions (``decisions.list_suggestions``, the rest of each row
    read when the panel first shows it: ``later``). Plain reads, no Qt: any thread."""
    return decisions.list_suggestions(session, case_id, later=True)


def read_status(session: Session, case_id: int
                ) -> tuple[str | None, str | None, tuple[str, ...]]:
    """What the panel's status says beside the list: the latest run's mode and model, and
    the notes of documents left unread for their language. Plain reads, no Qt: any
    thread."""
    return (*last_suggestion_run(session, case_id),
            tuple(unread_language_notes(session, case_id)))


def read_contents(session: Session, case_id: int
                  ) -> tuple[SuggestionList, str | None, str | None, tuple[str, ...]]:
    """What the panel shows: :func:`read_listing`, then :func:`read_status`. Plain reads, no
    Qt: callable from any thread."""
    return (read_listing(session, case_id), *read_status(session, case_id))


def _read_first_rows(listing: SuggestionList) -> None:
    """Read the rest of the row the panel selects and shows first (and the rows after it)."""
    first = next((es[0] for es in listing.by_kind.values() if es), None)
    if first is not None:
        first.snippet, first.documents  # noqa: B018


#: A case with at least this many pending mentions has its list read on a worker thread when
#: the panel shows it (a few ms of counting decides); fewer are read at once, on the GUI
#: thread (a few milliseconds), so the list is there as soon as the case is.
BACKGROUND_MENTIONS = 2000


def read_ahead(runner: OperationRunner, case_id: int, stamp: int) -> PanelContents | None:
    """What the panel shows for ``case_id``, read now in a read transaction of its own, with
    the collector paused; for any thread. None when the read failed (logged)."""
    try:
        with collector_paused(), runner.workspace.transaction(write=False) as session:
            listing, mode, model, unread = read_contents(session, case_id)
        _read_first_rows(listing)  # what the panel shows first, read here rather than there
    except Exception:  # the caller reads again, or says so
        log.warning("reading the suggestions failed:\n%s", traceback.format_exc())
        return None
    return PanelContents(case_id, listing, mode, model, stamp, unread)


class ContentsLoader(QObject):
    """Reads a case's suggestions on a worker thread of the runner's pool (the pool the window
    waits for when it closes); ``loaded(request, contents)`` arrives on the GUI thread
    (``contents`` None when the read failed). ``request`` is the number :meth:`start`
    returned: a later start makes earlier answers stale (the panel drops them)."""

    loaded = Signal(int, object)

    def __init__(self, runner: OperationRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.request = 0
        self.worker_threads: list[int] = []  # thread idents of the reads (tests look)

    def big(self, case_id: int) -> bool:
        """True when ``case_id``'s list should be read on a worker (BACKGROUND_MENTIONS)."""
        return bool(self.runner.read_plain(
            lambda r: pending_at_least(r, case_id, BACKGROUND_MENTIONS)))

    def start(self, case_id: int, stamp: int) -> int:
        """Read ``case_id``'s contents on a worker; returns the request's number. The list
        and the status beside it are read in one read transaction on one worker (the
        status's documents come from an index: a second thread's turn cost the machine more
        than the status's read, ~1 ms), then the rest of the first rows
        (:func:`_read_first_rows`, before the answer goes: the GUI thread would otherwise
        wait for this read when it shows the first row), and ``loaded`` comes."""
        self.request += 1
        request = self.request

        def read() -> None:
            self.worker_threads.append(threading.get_ident())
            try:
                with collector_paused(), \
                        self.runner.workspace.transaction(write=False) as session:
                    listing, mode, model, unread = read_contents(session, case_id)
                with collector_paused():
                    _read_first_rows(listing)
            except Exception:  # the panel says so
                log.warning("reading the suggestions failed:\n%s", traceback.format_exc())
                self.loaded.emit(request, None)
                return
            self.loaded.emit(request, PanelContents(case_id, listing, mode, model, stamp,
                                                    unread))

        self.runner.pool.start(read)
        return request
