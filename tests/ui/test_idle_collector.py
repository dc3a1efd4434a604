"""Cyclic garbage of a long session is still collected although jobs leave the heap frozen
(ARCHITECTURE.md, "The window": cold start and responsiveness): the full collection waits
for the user to be idle, input postpones it, and it frees garbage the freeze had put out of
the automatic collections' reach."""

from __future__ import annotations

import gc
import time
import weakref

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QLineEdit

from casefile.services import cases
from casefile.ui import idle_collector as idle_module
from casefile.ui.idle_collector import idle_collector
from casefile.ui.operations import OperationRunner


class Node:
    """One half of a reference cycle."""

    other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """A pair of objects referring to each other, referred to by nothing else once returned:
    only a cyclic collection frees them. A weak reference to one."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_garbage_frozen_by_a_job_is_collected_once_the_user_is_idle(ui_workspace, qtbot,
                                                                   monkeypatch) -> None:
    monkeypatch.setattr(idle_module, "IDLE_MS", 200)
    runner = OperationRunner(ui_workspace)
    collector = idle_collector()
    before = collector.collections
    held = Node()
    held.other = Node()
    held.other.other = held
    ref = weakref.ref(held)

    job = runner.start(lambda s, job: cases.create_case(s, "A case").id, label="Making…",
                       change=None, progress=False)
    del held  # garbage now, but frozen with the rest of the heap when the job started
    qtbot.waitUntil(lambda: job.done, timeout=20000)
    assert job.outcome == "succeeded"
    # the job's end leaves the heap frozen: no full pass over it right after a job
    assert gc.get_freeze_count() > 0 and collector.pending
    gc.collect()  # what the automatic collections do: frozen garbage is out of their reach
    assert ref() is not None
    made_later = cycle()

    qtbot.waitUntil(lambda: ref() is None, timeout=20000)  # the user idle: collected
    assert made_later() is None
    assert collector.collections == before + 1 and not collector.pending
    assert gc.get_freeze_count() > 0  # what lives on is frozen again


def test_input_postpones_the_collection(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(idle_module, "IDLE_MS", 10_000)
    collector = idle_collector()
    field = QLineEdit()
    qtbot.addWidget(field)
    collector.request()
    try:
        assert collector.pending
        qtbot.wait(100)
        waited = collector._idle.remainingTime()
        QApplication.sendEvent(field, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_A,
                                                Qt.KeyboardModifier.NoModifier, "a"))
        assert collector._idle.remainingTime() > waited  # the idle wait began again
        assert collector.pending
        move = QEvent(QEvent.Type.Paint)  # not input: the wait goes on
        waited = collector._idle.remainingTime()
        QApplication.sendEvent(field, move)
        assert collector._idle.remainingTime() <= waited
    finally:
        collector.collect()
    assert not collector.pending



def test_a_busy_window_postpones_the_collection(qtbot, monkeypatch) -> None:
    """No input, but the event loop busy with slices of work (a graph being drawn): the
    collection waits until the slices end."""
    monkeypatch.setattr(idle_module, "IDLE_MS", 20)
    collector = idle_collector()
    before = collector.collections
    slices = {"left": 15, "collected during": 0}

    def one_slice() -> None:
        time.sleep(0.06)  # a slice of the window's own work
        slices["left"] -= 1
        if collector.collections != before:
            slices["collected during"] += 1
        if slices["left"] > 0:
            QTimer.singleShot(0, one_slice)

    collector.request()
    QTimer.singleShot(0, one_slice)
    qtbot.waitUntil(lambda: slices["left"] == 0, timeout=20000)
    assert slices["collected during"] == 0 and collector.pending
    qtbot.waitUntil(lambda: collector.collections == before + 1, timeout=20000)
    assert not collector.pending


def test_a_running_job_holds_the_collection_until_it_ends(ui_workspace, qtbot,
                                                           monkeypatch) -> None:
    """A user watching an import's progress makes no input; the full pass must not stop the
    progress (it held the window 1.4 s on a test process's heap), not even when the longest
    wait runs out: it runs once the job ended."""
    monkeypatch.setattr(idle_module, "IDLE_MS", 20)
    monkeypatch.setattr(idle_module, "LONGEST_WAIT_MS", 50)
    runner = OperationRunner(ui_workspace)
    collector = idle_collector()
    collector.request()
    before = collector.collections
    seen = {"during": 0, "ticks": 0}

    def work(_s: object, _job: object) -> None:
        time.sleep(0.8)

    job = runner.start(work, label="Working…", change=None, progress=False)

    def tick() -> None:
        if not job.done:
            seen["ticks"] += 1
            seen["during"] += collector.collections - before

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(10)
    try:
        qtbot.waitUntil(lambda: job.done, timeout=20000)
    finally:
        timer.stop()
    assert seen["ticks"] > 10 and seen["during"] == 0 and collector.pending
    qtbot.waitUntil(lambda: collector.collections == before + 1, timeout=20000)
    assert not collector.pending
