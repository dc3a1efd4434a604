"""One import path: every way into an import (a drop, File ▸ Import documents…, File ▸ Import
folder…, ``casefile import``) reaches :func:`casefile.services.imports.import_documents`, and
a 300-page PDF dropped on the window never stalls its event loop, from the drop to the end of
the suggestions and OCR that follow (ARCHITECTURE.md, "Import: the document first,
suggestions after")."""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFileDialog
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from casefile.services import imports
from casefile.services.batch import BatchResult
from casefile.store import Document
from tests.ui.helpers import answer_date_questions, drop_files, make_case

#: The longest the GUI thread may work without running its event loop, in ms. The
#: end-of-import turn (the document opened, its pages pane making widgets only for the pages in
#: view) measured 26-31 ms of the thread's own CPU on a quiet machine, 42-47 ms with a busy
#: loop in another process and 59 ms with the suite and other jobs loading both cores (the old
#: import froze the window 12-14 s; the gaps before the pieces mode were 431-647 ms, and
#: 74-119 ms while the pane made all 300 page widgets).
MOST_GAP_MS = 100.0

SENTENCES = [
    "Sheriff Scott Israel told reporters on Friday that the county would review the radio "
    "records of the Broward deputies.",
    "The school district released a timeline of the response, and the Coral Springs police "
    "department is expected to publish its report next week.",
    "Deputy Scot Peterson stayed outside the building for four minutes, according to the "
    "surveillance video reviewed by the commission.",
]


def _pdf(path: Path, pages: int) -> Path:
    """A PDF of ``pages`` pages with a few lines of text on every page."""
    pdf = canvas.Canvas(str(path), pagesize=letter)
    for page in range(pages):
        y = 740.0
        for line in range(12):
            sentence = SENTENCES[(page + line) % len(SENTENCES)]
            pdf.drawString(40, y, f"{page + 1}.{line + 1} {sentence[:95]}")
            y -= 16
        pdf.showPage()
    pdf.save()
    return path


def test_a_300_page_pdf_dropped_on_the_window_never_stalls_it(make_window, ui_workspace, qtbot,
                                                             tmp_path, monkeypatch):
    """From the drop to the end of the import and of the OCR and suggestion jobs after it,
    a 10 ms timer of the GUI thread keeps firing: between two of its ticks the GUI thread
    never works more than 100 ms (its own CPU time, ``time.thread_time``, which a loaded
    machine taking the CPU away does not inflate), and never waits a whole second (the
    old import parsed the file on the GUI thread first: 12-14 s). The wall-clock gaps are
    printed (``-s``) with the CPU ones."""
    big = _pdf(tmp_path / "commission-transcript.pdf", 300)
    cid = make_case(ui_workspace)
    window = make_window(cid, suggest_after_import=True, ocr_after_import=True)
    answer_date_questions(monkeypatch)  # the transcript carries no date: asked mid-job
    ticks: list[tuple[float, float]] = []  # (wall, GUI thread CPU) seconds at each tick

    def tick() -> None:
        ticks.append((time.perf_counter(), time.thread_time()))

    collections: list[tuple[int, float]] = []  # (generation, ms) of each collection here
    started: list[float] = []

    def collecting(phase: str, info: dict[str, int]) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            collections.append((info["generation"], (time.perf_counter() - started[0]) * 1000))

    gc.callbacks.append(collecting)
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()
    try:
        tick()
        drop_files(window, big)
        job = window.last_job
        assert job is not None
        qtbot.waitUntil(lambda: job.done, timeout=180000)
        assert job.outcome == "succeeded", job.error
        # then the suggestions (and OCR, had a page needed it) run and end
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=600000)
        qtbot.wait(300)  # what the GUI thread does after the last job (the panel, the status)
    finally:
        timer.stop()
        gc.callbacks.remove(collecting)
    walls = [(b[0] - a[0]) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]
    cpus = [(b[1] - a[1]) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]

    def spread(gaps: list[float]) -> str:
        ordered = sorted(gaps)
        return (f"median {ordered[len(ordered) // 2]:.1f}, p99 "
                f"{ordered[int(len(ordered) * 0.99)]:.1f}, max {ordered[-1]:.1f}; over 50 ms: "
                f"{sum(g > 50 for g in gaps)}, over 100 ms: {sum(g > 100 for g in gaps)}")

    print(f"\n300-page drop: {len(ticks)} ticks over {ticks[-1][0] - ticks[0][0]:.1f} s\n"
          f"  wall gaps ms: {spread(walls)}\n  GUI-thread CPU between ticks ms: {spread(cpus)}\n"
          f"  gaps over 100 ms (wall/CPU): "
          f"{[(round(w), round(c)) for w, c in zip(walls, cpus, strict=True) if w > 100]}\n"
          f"  garbage collections on the GUI thread (generation, ms), the longest: "
          f"{sorted(collections, key=lambda c: -c[1])[:3]}")
    with ui_workspace.transaction() as s:
        (doc,) = s.query(Document).all()
        assert len(doc.page_starts or []) == 300 and "Peterson" in doc.text
    assert doc.id in window.documents.viewers  # the import opened it
    assert window.suggestions.last_job is not None and window.suggestions.last_job.done
    busy = [round(c) for c in cpus if c > MOST_GAP_MS]
    assert not busy, (f"the GUI thread worked {busy} ms without turning its event loop "
                      f"(its longest garbage collections: "
                      f"{sorted(collections, key=lambda c: -c[1])[:3]})")
    assert max(walls) < 1000, f"the window froze {max(walls):.0f} ms"


def test_every_way_into_an_import_reaches_the_one_import_function(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    """The drop, File ▸ Import documents…, File ▸ Import folder… and ``casefile import`` all
    call :func:`casefile.services.imports.import_documents`."""
    from tests.e2e.cli_helpers import casefile

    note = tmp_path / "notes" / "memo.txt"
    note.parent.mkdir()
    note.write_text("Published March 1, 2018\n\nThe commission met.", encoding="utf-8")
    reached: list[tuple[str, list[str]]] = []
    real = imports.import_documents

    def spy(transaction, case_id, paths, **kwargs) -> BatchResult:
        reached.append((kwargs.get("ask") is not None and "window" or "cli",
                        [Path(p).name for p in paths]))
        return real(transaction, case_id, paths, **kwargs)

    monkeypatch.setattr(imports, "import_documents", spy)
    cid = make_case(ui_workspace)
    window = make_window(cid)

    def ends(start) -> None:
        start()
        job = window.last_job
        qtbot.waitUntil(lambda: job.done, timeout=30000)

    ends(lambda: drop_files(window, note))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(note)], ""))
    ends(window.import_action.trigger)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(note.parent))
    ends(window.folder_import.action.trigger)
    window.runner.shutdown()
    window.close()
    ui_workspace.close()
    run = casefile(ui_workspace.folder, "import", "--case", "Parkland", "--no-ocr",
                   "--no-suggest", str(note))
    assert run.code == 0, run.err
    assert reached == [("window", ["memo.txt"]), ("window", ["memo.txt"]),
                       ("window", ["notes"]), ("cli", ["memo.txt"])]
