"""Event-loop gaps: how long the GUI thread was away while something ran (a 10 ms QTimer's ticks
under a real event loop), for the benchmarks of the window's stalls."""

from __future__ import annotations

import time
from collections.abc import Callable

#: The GUI thread's own CPU time (ms) in the largest gaps of the last :func:`gaps_until`:
#: ``(gap ms, CPU ms)``, largest gap first. On a loaded machine a gap is longer than the work
#: the GUI thread did in it (it waited for a core, or for the interpreter lock).
LAST_CPU: list[tuple[float, float]] = []


def gaps_until(start: Callable[[], None], done: Callable[[], bool], *, settle: float = 0.3,
               timeout: float = 60.0) -> tuple[float, float, list[float]]:
    """Call ``start()`` inside a running event loop, then spin it until ``done()`` and
    ``settle`` seconds more (the paints that follow); ``(seconds to done, largest gap in ms,
    every gap in ms)``. The gaps are the times between ticks of a 10 ms timer, the first one
    from just before ``start()``: a gap over 100 ms is a stall the reporter feels. The GUI
    thread's CPU time in the largest gaps is left in :data:`LAST_CPU`."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    ticks: list[float] = []
    cpu: list[float] = []
    state: dict[str, float] = {}

    def tick() -> None:
        now = time.perf_counter()
        ticks.append(now)
        cpu.append(time.thread_time())
        if "done" not in state and done():
            state["done"] = now
        if "done" in state and now - state["done"] >= settle or now - state["t0"] > timeout:
            loop.quit()

    def begin() -> None:
        state["t0"] = time.perf_counter()
        ticks.append(state["t0"])
        cpu.append(time.thread_time())
        start()

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()
    QTimer.singleShot(0, begin)
    loop.exec()
    timer.stop()
    if "done" not in state:
        raise RuntimeError(f"not done within {timeout} s")
    gaps = [(b - a) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]
    work = [(b - a) * 1000 for a, b in zip(cpu, cpu[1:], strict=False)]
    LAST_CPU[:] = sorted(zip(gaps, work, strict=False), reverse=True)[:3]
    return state["done"] - state["t0"], max(gaps, default=0.0), gaps
