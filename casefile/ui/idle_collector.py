"""Python's full garbage collection, run when the user is idle (ARCHITECTURE.md, "The window":
cold start and responsiveness).

A job freezes the heap when it starts (``gc.freeze``: the collections its allocations bring
then scan only what it made) and leaves it frozen when it ends: handing the heap back at once
(``gc.unfreeze``) let the next burst of allocations (the Graph tab filling its scene right
after its layout job) set off a full pass over every object of the window, 80-170 ms with the
GUI thread waiting. Frozen objects are out of the automatic collections' reach, so cyclic
garbage among them would stay for good; :class:`IdleCollector` collects it when the user has
made no input for :data:`IDLE_MS` and the window has nothing to do (a timer's ticks come on
time: no slices of a graph being drawn, no rows being filled) and no job is running, with
:func:`casefile.collector.collect_all` (unfreeze, collect, freeze again); for a user never
idle that long, :data:`LONGEST_WAIT_MS` after it was asked. A running job holds it
(:meth:`IdleCollector.hold`): a user watching an import's progress makes no input, and a full
pass then would stop the progress and the window with it (over a second on a large heap).
"""

from __future__ import annotations

import logging
import time

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Slot

from casefile.collector import collect_all

log = logging.getLogger(__name__)

#: Milliseconds without keyboard, mouse or touch input after which a pending collection runs.
IDLE_MS = 3000
#: The quiet check before collecting: :data:`QUIET_TICKS` ticks of a :data:`QUIET_TICK_MS`
#: timer, none of them more than :data:`QUIET_LATE_MS` late (else the window is busy: the
#: idle wait begins again).
QUIET_TICK_MS = 20
QUIET_TICKS = 4
QUIET_LATE_MS = 15
#: Milliseconds after the first request at which a pending collection runs however busy the
#: user is (garbage never waits longer than this for a pause that does not come).
LONGEST_WAIT_MS = 120_000

_INPUT = frozenset(int(t) for t in (
    QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.MouseButtonPress,
    QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick, QEvent.Type.MouseMove,
    QEvent.Type.Wheel, QEvent.Type.TouchBegin, QEvent.Type.TouchUpdate, QEvent.Type.TouchEnd,
    QEvent.Type.TabletPress, QEvent.Type.TabletMove, QEvent.Type.TabletRelease,
    QEvent.Type.ShortcutOverride))


class IdleCollector(QObject):
    """Runs a full collection (frozen objects included) once the user is idle, when asked
    (:meth:`request`). While one is pending it watches the application's input events (an
    event filter on the application, removed once the collection ran): each one restarts the
    idle wait; at its end a few ticks of a short timer must come on time (the window is not
    busy) before it collects. ``collections``: how many it ran (tests look)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.collections = 0
        self.pending = False
        self.held = False
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setTimerType(Qt.TimerType.PreciseTimer)  # a restart never comes sooner
        self._idle.timeout.connect(self._check_quiet)
        self._quiet = QTimer(self)
        self._quiet.setTimerType(Qt.TimerType.PreciseTimer)
        self._quiet.timeout.connect(self._tick)
        self._ticks: list[float] = []
        self._longest = QTimer(self)
        self._longest.setSingleShot(True)
        self._longest.timeout.connect(self.collect)

    def request(self) -> None:
        """Collect once the user has been idle for :data:`IDLE_MS` (at the latest
        :data:`LONGEST_WAIT_MS` from the first request not yet served)."""
        if not self.pending:
            self.pending = True
            app = QCoreApplication.instance()
            if app is not None:
                app.installEventFilter(self)
            self._longest.start(LONGEST_WAIT_MS)
        elif self.held:
            self._longest.start(LONGEST_WAIT_MS)
        self.held = False
        self._wait()

    def hold(self) -> None:
        """A job started: a pending collection waits (its timers stop) until the next
        :meth:`request`, which the runner makes when its last job ends."""
        self.held = True
        self._idle.stop()
        self._quiet.stop()
        self._longest.stop()

    def _wait(self) -> None:
        self._quiet.stop()
        self._idle.start(IDLE_MS)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.pending and not self.held and int(event.type()) in _INPUT:
            self._wait()
        return False

    @Slot()
    def _check_quiet(self) -> None:
        self._ticks = [time.perf_counter()]
        self._quiet.start(QUIET_TICK_MS)

    @Slot()
    def _tick(self) -> None:
        now = time.perf_counter()
        if (now - self._ticks[-1]) * 1000 > QUIET_TICK_MS + QUIET_LATE_MS:
            self._wait()  # the window is busy: wait for another idle spell
            return
        self._ticks.append(now)
        if len(self._ticks) > QUIET_TICKS:
            self.collect()

    @Slot()
    def collect(self) -> None:
        """Run the pending collection now (:func:`casefile.collector.collect_all`); not
        while a job holds it."""
        if not self.pending or self.held:
            return
        self.pending = False
        self._idle.stop()
        self._quiet.stop()
        self._longest.stop()
        app = QCoreApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        found = collect_all()
        self.collections += 1
        log.debug("idle collection: %d unreachable objects", found)


_instance: IdleCollector | None = None


def idle_collector() -> IdleCollector:
    """The process's one collector (the heap is the process's), owned by the application."""
    global _instance
    if _instance is None:
        _instance = IdleCollector(QCoreApplication.instance())
        _instance.destroyed.connect(_forget)
    return _instance


def _forget() -> None:
    global _instance
    _instance = None
