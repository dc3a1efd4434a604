"""Timers the window's views wait with."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer


def debounce_timer(parent: QObject, ms: int, slot: Callable[[], object]) -> QTimer:
    """A single-shot timer of ``ms`` milliseconds, owned by ``parent``, that calls ``slot``
    when it fires. Each ``start()`` waits ``ms`` again, so a burst of changes (keys typed,
    a scroll) runs ``slot`` once, after the last; ``ms`` 0 runs it once the event loop is
    free."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(ms)
    timer.timeout.connect(slot)
    return timer
