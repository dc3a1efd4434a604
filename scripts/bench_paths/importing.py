"""Import from files on disk, committed and searchable, beside plain read + INSERT + FTS5; and
the window's responsiveness while a 1,000-file import and its suggestions run.

Run alone::

    python -m scripts.bench_paths.importing --sizes 1000 --rounds 3 --json OUT
    python -m scripts.bench_paths.importing --sizes 1000 --only-window [--explain]

Corpus (:func:`make_corpus`, seeded, nothing downloaded): ``n`` news-like articles
(``scripts/synthetic.py``, recurring names) written as ``.txt`` files, as web pages (``.html``:
head with title/author/date/canonical/site name meta tags, a menu, the article, a sidebar and a
footer, about 6 KB each) and a few reportlab PDFs (``pdf``: ``max(n // 100, 5)`` files of 3
pages).

Rows (unit docs/s; ``casefile`` and ``reference`` are the p50 rate over ``rounds`` turns):

- ``import txt|html|pdf (cli)``: ``casefile import DIR --case T --no-suggest`` as a subprocess
  into a fresh workspace (case made beforehand, not timed), then a search in the workspace
  finding the last file's unique marker word: the time from the process start to the hit.
- ``import txt|html|pdf (in process)``: ``services.batch.import_paths(ws.transaction, ...)``
  with ``guess_dates=True`` as the window's folder import calls it, then the same search.
- ``reference``: an independent implementation in the same run, one process: for each file
  ``open().read()``, decode (txt: UTF-8; HTML: one lxml parse, ``lxml.html.document_fromstring``
  and its ``text_content()``, no main-text extraction; PDF: pypdfium2's text of each page),
  INSERT the bytes and the text into a table and the text into an FTS5 table, all in one
  transaction into a fresh SQLite file (WAL, synchronous NORMAL), then the FTS5 query for the
  marker. The ``cli`` rows' reference runs as a process of its own too
  (``python -m scripts.bench_paths.importing --reference KIND DIR DB``: interpreter start and
  its imports counted, as Casefile's are). Turns alternate: casefile, reference, ...
- ``window import + suggestions``: the main window (offscreen) imports ``n`` txt files as a
  dropped folder with suggestions on (``FolderImport.start``, what a drop runs once the date
  question is answered); a 10 ms QTimer records the longest gap between its ticks from the
  drop until the suggestions are stored and shown (unit ms, target <= 100 ms; the reference is
  the same timer's longest gap while the event loop idles for 1 s). The window runs under a
  real event loop (``QEventLoop.exec``, as the app does; a poll timer closes the summary once
  the folder import says it finished, and quits when the suggestion job is done, with a hard
  time limit), so a gap is what a user would feel.
  The notes split it: while the import and the extraction run, and when the result reaches
  the window (the Suggestions panel reloads on the GUI thread); ``--explain`` adds what the
  GUI thread was running in each gap over the target (a stack sampler).

``os.getloadavg()`` is recorded before and after each row (``notes``).
"""

from __future__ import annotations

import argparse
import html
import io
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import synthetic  # noqa: E402

TARGETS = {"txt": 1500.0, "html": 600.0}
STALL_TARGET_MS = 100.0
CASE = "Bench"


def marker(i: int) -> str:
    """The unique word the ``i``-th file carries (a search for it finds that file only)."""
    letters = "".join(chr(ord("a") + int(d)) for d in f"{i:06d}")
    return f"zqmark{letters}"


def _page(title: str, text: str, i: int, rng: random.Random) -> str:
    person = f"{rng.choice(synthetic.FIRST)} {rng.choice(synthetic.LAST)}"
    day = f"2019-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
    paragraphs = "\n".join(f"<p>{html.escape(p)}</p>" for p in text.split("\n\n"))
    menu = "".join(f'<li><a href="/{t}">{t.title()}</a></li>' for t in synthetic.TOPICS)
    heads = [html.escape(synthetic.document(rng, 60).title) for _ in range(5)]
    related = "".join(f'<li><a href="/story/{rng.randrange(10**6)}">{h}</a></li>' for h in heads)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(title)} | The Harbor Ledger</title>
<meta name="author" content="{html.escape(person)}">
<meta property="og:title" content="{html.escape(title)}">
<meta property="og:site_name" content="The Harbor Ledger">
<meta property="article:published_time" content="{day}T08:30:00Z">
<meta name="description" content="{html.escape(text[:150])}">
<link rel="canonical" href="https://ledger.example.org/story/{i}">
<style>body{{font-family:serif}} nav li{{display:inline}}</style>
<script>window.dataLayer=[];function track(){{return 1}}</script>
</head><body>
<header><a href="/">The Harbor Ledger</a><nav><ul>{menu}</ul></nav></header>
<main><article>
<h1>{html.escape(title)}</h1>
<p class="byline">By {html.escape(person)}, {day}</p>
{paragraphs}
</article>
<aside><h2>Related</h2><ul>{related}</ul></aside></main>
<footer><p>&copy; 2019 The Harbor Ledger. All rights reserved.</p>
<ul><li><a href="/about">About</a></li><li><a href="/privacy">Privacy</a></li></ul></footer>
</body></html>
"""


def _pdf(title: str, text: str) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=True)
    words = (title + "\n" + text).split()
    lines: list[str] = []
    line = ""
    for word in words:
        if len(line) + len(word) > 90:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    lines.append(line)
    for start in range(0, len(lines), 45):
        y = 800.0
        for row in lines[start:start + 45]:
            pdf.drawString(40, y, row)
            y -= 16
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def make_corpus(folder: Path, n: int, kind: str, seed: int = 16) -> list[tuple[Path, str]]:
    """Write ``n`` files of ``kind`` ("txt", "html" or "pdf") into ``folder``; returns
    ``(path, marker word)`` in import order (names sort as the batch walks them)."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    out: list[tuple[Path, str]] = []
    for i, doc in enumerate(synthetic.documents(n, seed=seed, size=3000 if kind != "pdf"
                                                else 6000)):
        word = marker(i)
        text = f"{doc.text}\n\nRef {word}."
        if kind == "txt":
            path = folder / f"doc-{i:06d}.txt"
            path.write_text(f"{doc.title}\n\n{text}\n", encoding="utf-8")
        elif kind == "html":
            path = folder / f"doc-{i:06d}.html"
            path.write_text(_page(doc.title, text, i, rng), encoding="utf-8")
        else:
            path = folder / f"doc-{i:06d}.pdf"
            path.write_bytes(_pdf(doc.title, text))
        out.append((path, word))
    return out


# --- the Casefile side ---------------------------------------------------------------------


def _fresh_workspace(where: Path) -> Path:
    from tests.e2e.cli_helpers import workspace_with_case

    return workspace_with_case(where / "ws", CASE)


def _found(folder: Path, word: str) -> bool:
    from casefile.services.search import search_workspace
    from casefile.store.workspace import open_workspace

    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            hits = search_workspace(s, word, limit=10)
    finally:
        ws.close()
    return len(hits.hits) >= 1


def _cli(files: list[tuple[Path, str]], tmp: Path) -> float:
    """Seconds from ``casefile import`` starting to the last file being found by a search."""
    folder = _fresh_workspace(tmp)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)  # compiled bytecode, as an installed app runs (see measure)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "casefile", "--workspace", str(folder), "import",
         str(files[0][0].parent), "--case", CASE, "--no-suggest", "--json"],
        capture_output=True, text=True, env=env, cwd=str(ROOT))
    if done.returncode != 0:
        raise RuntimeError(f"casefile import failed: {done.stderr[-2000:]}")
    if not _found(folder, files[-1][1]):
        raise RuntimeError("the last file is not searchable after the CLI import")
    return time.perf_counter() - start


def _in_process(files: list[tuple[Path, str]], tmp: Path) -> float:
    """Seconds for ``batch.import_paths`` (the window's folder import) and the search."""
    from casefile.services.batch import import_paths
    from casefile.services.cases import find_case
    from casefile.store.workspace import open_workspace

    folder = _fresh_workspace(tmp)
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            case_id = find_case(s, CASE).id
        start = time.perf_counter()
        batch = import_paths(ws.transaction, case_id, [files[0][0].parent], guess_dates=True)
        if batch.count("imported") != len(files):
            raise RuntimeError(f"in-process import: {batch.summary()}")
    finally:
        ws.close()
    if not _found(folder, files[-1][1]):
        raise RuntimeError("the last file is not searchable after the in-process import")
    return time.perf_counter() - start


# --- the reference -------------------------------------------------------------------------


def _reference_text(kind: str, data: bytes) -> str:
    if kind == "txt":
        return data.decode("utf-8")
    if kind == "html":
        import lxml.html

        return lxml.html.document_fromstring(data.decode("utf-8")).text_content()
    import pypdfium2

    pdf = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def _reference(files: list[tuple[Path, str]], tmp: Path, kind: str) -> float:
    """Seconds for read + INSERT + FTS5 in one transaction, then the FTS5 query (the reader
    imported before the clock, as Casefile's are after the first turn)."""
    _reference_text(kind, files[0][0].read_bytes())
    start = time.perf_counter()
    _reference_run([p for p, _w in files], files[-1][1], tmp / "reference.sqlite3", kind)
    return time.perf_counter() - start


def _reference_cli(files: list[tuple[Path, str]], tmp: Path, kind: str) -> float:
    """Seconds for :func:`_reference_run` as a process of its own (compiled bytecode)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "scripts.bench_paths.importing", "--reference", kind,
                    str(files[0][0].parent), str(tmp / "reference.sqlite3"), files[-1][1]],
                   check=True, env=env, cwd=str(ROOT), capture_output=True)
    return time.perf_counter() - start


def _reference_run(paths: list[Path], last_word: str, db: Path, kind: str) -> None:
    """The reference: read, decode, INSERT and FTS5 every file in one transaction, then find
    ``last_word``. Raises RuntimeError when it is not found once."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("CREATE TABLE docs (id INTEGER PRIMARY KEY, name TEXT, data BLOB, text TEXT)")
    conn.execute("CREATE VIRTUAL TABLE docs_fts USING fts5(text, tokenize='unicode61')")
    conn.execute("BEGIN")
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read()
        text = _reference_text(kind, data)
        cur = conn.execute("INSERT INTO docs (name, data, text) VALUES (?, ?, ?)",
                           (path.name, data, text))
        conn.execute("INSERT INTO docs_fts (rowid, text) VALUES (?, ?)", (cur.lastrowid, text))
    conn.execute("COMMIT")
    hit = conn.execute("SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?",
                       (last_word,)).fetchall()
    conn.close()
    if len(hit) != 1:
        raise RuntimeError("the reference did not find the last file")


# --- the window ----------------------------------------------------------------------------


def window_stalls(n: int, tmp: Path, *, explain: bool = False) -> dict[str, Any]:
    """The window imports ``n`` txt files (a dropped folder) with suggestions on: the longest
    gap (ms) between ticks of a 10 ms QTimer from the drop until the suggestions are stored
    and shown, and the same timer's longest gap over 1 s of idle event loop. Runs in this
    process, under a real event loop (``QEventLoop.exec``): a 20 ms poll timer accepts the
    summary dialog once the import is done and quits once the suggestion job is done; a hard
    time limit quits in any case (``suggest_done`` is then 0).

    With ``explain``, a thread samples the GUI thread's Python stack every 2 ms and
    ``"explained"`` lists, for each gap over the target, the innermost Casefile frames seen
    most often during it (what held the event loop)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from casefile.services.cases import find_case
    from casefile.store.workspace import open_workspace
    from casefile.ui.main_window import MainWindow

    files = make_corpus(tmp / "window-files", n, "txt")
    folder = _fresh_workspace(tmp)
    app = QApplication.instance() or QApplication(["bench"])
    ws = open_workspace(folder)
    with ws.transaction() as s:
        case_id = find_case(s, CASE).id
    window = MainWindow(ws, suggest_after_import=True)
    window.open_case(case_id)
    window.show()
    gaps: list[float] = []
    ends: list[float] = []  # when each gap ended (perf_counter)
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000.0)
        ends.append(now)
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(tick)
    loop = QEventLoop()

    def run_for(seconds: float) -> None:
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        loop.exec()

    sampler = _StackSampler() if explain else None
    run_for(0.5)  # settle: the window's first paints and deferred loads
    last[0] = time.perf_counter()
    timer.start()
    run_for(1.0)
    idle = max(gaps) if gaps else 0.0
    gaps.clear()
    ends.clear()
    state: dict[str, Any] = {"imported": None, "job": None, "finished": False}
    window.folder_import.finished.connect(lambda _batch: state.update(finished=True))

    def poll() -> None:
        folder_import = window.folder_import
        if state["imported"] is None and state["finished"] and (
                folder_import.summary is not None):
            state["imported"] = time.perf_counter() - start
            state["job"] = window.suggestions.last_job
            folder_import.summary.accept()
            if state["job"] is None:  # nothing to suggest for: done
                loop.quit()
        job = state["job"]
        if job is not None and job.done:
            loop.quit()

    poller = QTimer()
    poller.setInterval(20)
    poller.timeout.connect(poll)
    limit = QTimer()
    limit.setSingleShot(True)
    limit.setInterval(1800 * 1000)
    limit.timeout.connect(loop.quit)
    if sampler is not None:
        sampler.start()
    start = time.perf_counter()
    last[0] = start
    window.folder_import.start([files[0][0].parent])
    poller.start()
    limit.start()
    loop.exec()
    total = time.perf_counter() - start
    timer.stop()
    poller.stop()
    limit.stop()
    if sampler is not None:
        sampler.stop()
    job = state["job"]
    imported = state["imported"] if state["imported"] is not None else total
    stall = max(gaps) if gaps else 0.0
    # the gaps that ended once the suggestions' result reached the window (the panels reload)
    arrived = job.finished_at if job is not None and job.finished_at else start + total
    before = [g for g, end in zip(gaps, ends, strict=True) if end < arrived]
    after = [g for g, end in zip(gaps, ends, strict=True) if end >= arrived]
    explained: list[str] = []
    if sampler is not None:
        for g, end in zip(gaps, ends, strict=True):
            if g > STALL_TARGET_MS:
                where = "result" if end >= arrived else "running"
                explained.append(f"{g:.0f} ms at +{end - g / 1000 - start:.2f} s ({where}): "
                                 + sampler.explain(end - g / 1000.0, end))
    from sqlalchemy import func, select

    from casefile.store import Document, Mention

    with ws.transaction() as s:
        stored = int(s.scalar(select(func.count()).select_from(Mention)) or 0)
        documents = int(s.scalar(select(func.count()).select_from(Document)) or 0)
    shown = window.suggestions_panel.model.waiting()
    window.close()
    window.deleteLater()
    app.processEvents()
    ws.close()
    return {"stall_ms": stall, "idle_ms": idle, "import_s": imported, "total_s": total,
            "stall_running_ms": max(before, default=0.0),
            "stall_result_ms": max(after, default=0.0),
            "over_target": float(sum(1 for g in gaps if g > STALL_TARGET_MS)),
            "mentions": float(stored), "documents": float(documents),
            "shown": float(shown),
            "suggest_done": float(bool(job is not None and job.done
                                       and job.outcome == "succeeded")),
            "explained": explained}


class _StackSampler:
    """Samples the main thread's Python stack every 2 ms on a daemon thread (``--explain``)."""

    def __init__(self) -> None:
        import threading

        self._main = threading.main_thread().ident
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.samples: list[tuple[float, tuple[str, ...]]] = []
        self.collections: list[tuple[float, float, int]] = []  # (start, end, generation)
        self._gc_start = 0.0

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
        else:
            self.collections.append((self._gc_start, now, info.get("generation", -1)))

    def start(self) -> None:
        import gc

        gc.callbacks.append(self._on_gc)
        self._thread.start()

    def stop(self) -> None:
        import gc

        self._stop.set()
        self._thread.join()
        gc.callbacks.remove(self._on_gc)

    def _run(self) -> None:
        while not self._stop.wait(0.002):
            frame = sys._current_frames().get(self._main or 0)
            stack: list[str] = []
            innermost = frame
            while frame is not None:
                code = frame.f_code
                if "casefile" in code.co_filename or "sqlalchemy" in code.co_filename:
                    name = code.co_filename.rsplit("/", 2)
                    stack.append(f"{'/'.join(name[-2:])}:{frame.f_lineno} {code.co_name}")
                frame = frame.f_back
            if not stack and innermost is not None:  # in a library, or the benchmark itself
                name = innermost.f_code.co_filename.rsplit("/", 2)
                stack.append(f"(other) {'/'.join(name[-2:])}:{innermost.f_lineno} "
                             f"{innermost.f_code.co_name}")
            self.samples.append((time.perf_counter(), tuple(stack)))

    def explain(self, begin: float, end: float) -> str:
        """The most frequent casefile call chains (innermost 4 frames) sampled in the span."""
        from collections import Counter

        inside = [s for t, s in self.samples if begin <= t <= end]
        gc_ms = sum(min(b, end) - max(a, begin) for a, b, _g in self.collections
                    if a < end and b > begin) * 1000.0
        collected = f"; garbage collection {gc_ms:.0f} ms" if gc_ms >= 1 else ""
        if not inside:
            return "no samples" + collected
        counts = Counter(" < ".join(s[:4]) if s else "(Qt, no Python frame)" for s in inside)
        return "; ".join(f"{100 * c // len(inside)}% {chain}"
                         for chain, c in counts.most_common(3)) + collected


# --- measure -------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _rate_row(path: str, n: int, ours: list[float], ref: list[float], target: float | None,
              notes: str) -> dict[str, Any]:
    ours_rate = [n / s for s in ours]
    ref_rate = [n / s for s in ref]
    casefile = statistics.median(ours_rate)
    reference = statistics.median(ref_rate)
    return {
        "path": path, "n": n, "casefile": round(casefile, 1), "reference": round(reference, 1),
        "unit": "docs/s", "ratio": round(reference / casefile, 2),
        "target": f">= {target:.0f} docs/s" if target else "reported (no target)",
        "met": casefile >= target if target else True,
        "p50": {"casefile": round(casefile, 1), "reference": round(reference, 1)},
        # for a rate the slow end is the 5th percentile of the rate (the p95 of the time)
        "p95": {"casefile": round(n / _pct(ours, 0.95), 1),
                "reference": round(n / _pct(ref, 0.95), 1)},
        "notes": notes,
    }


def _load() -> str:
    return "load " + "/".join(f"{x:.2f}" for x in os.getloadavg())


def plan(sizes: list[int], rounds: int) -> tuple[list[int], int]:
    """For ``scripts/bench.py``: the 1,000 files the import targets are stated on (10,000 or
    100,000 files would take most of an hour per kind), at most 3 turns."""
    return [1000], min(rounds, 3)


def measure(sizes: list[int], rounds: int, *, kinds: tuple[str, ...] = ("txt", "html", "pdf"),
            window: bool = True, explain: bool = False) -> list[dict[str, Any]]:
    """The rows (see the module docstring) for each size in ``sizes``; ``rounds`` turns each
    (the window row runs once per size). ``kinds=()`` leaves the import rows out; ``explain``
    adds to the window row's notes what held the event loop in each gap over the target."""
    rows: list[dict[str, Any]] = []
    if kinds:  # the CLI rows run compiled bytecode: compile Casefile once
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "casefile")],
                       check=True, env={k: v for k, v in os.environ.items()
                                        if k != "PYTHONDONTWRITEBYTECODE"})
    for n in sizes:
        for kind in kinds:
            count = max(n // 100, 5) if kind == "pdf" else n
            with tempfile.TemporaryDirectory(prefix="cf-bench-import-") as tmp_name:
                tmp = Path(tmp_name)
                files = make_corpus(tmp / "files", count, kind)
                for mode, runner, reference in (("cli", _cli, _reference_cli),
                                                ("in process", _in_process, _reference)):
                    before = _load()
                    ours: list[float] = []
                    ref: list[float] = []
                    for r in range(rounds):
                        with tempfile.TemporaryDirectory(dir=tmp) as a:
                            ours.append(runner(files, Path(a)))
                        with tempfile.TemporaryDirectory(dir=tmp) as b:
                            ref.append(reference(files, Path(b), kind))
                        print(f"  import {kind} ({mode}) n={count} round {r + 1}: "
                              f"{count / ours[-1]:.0f} vs {count / ref[-1]:.0f} docs/s",
                              file=sys.stderr)
                    rows.append(_rate_row(
                        f"import {kind} ({mode})", count, ours, ref, TARGETS.get(kind),
                        f"{before} -> {_load()}; reference: read + INSERT + FTS5 in one "
                        "transaction" + (" (a process of its own, from its start)"
                                         if mode == "cli" else "")
                        + {"html": "; HTML text by one lxml parse",
                           "pdf": "; PDF text by pypdfium2"}.get(kind, "")))
        if window:
            before = _load()
            with tempfile.TemporaryDirectory(prefix="cf-bench-window-") as tmp_name:
                got = window_stalls(n, Path(tmp_name), explain=explain)
            print(f"  window n={n}: {got}", file=sys.stderr)
            why = ("; what held the event loop: " + " | ".join(got["explained"])
                   if got["explained"] else "")
            rows.append({
                "path": "window import + suggestions (max stall)", "n": n,
                "casefile": round(got["stall_ms"], 1), "reference": round(got["idle_ms"], 1),
                "unit": "ms", "ratio": round(got["stall_ms"] / max(got["idle_ms"], 1e-3), 2),
                "target": f"<= {STALL_TARGET_MS:.0f} ms",
                "met": (got["stall_ms"] <= STALL_TARGET_MS and bool(got["suggest_done"])
                        and got["documents"] == n),
                "p50": {}, "p95": {},
                "notes": (f"{before} -> {_load()}; reference: the same timer over 1 s idle; "
                          f"import {got['import_s']:.1f} s, import + suggestions "
                          f"{got['total_s']:.1f} s, {got['documents']:.0f} documents and "
                          f"{got['mentions']:.0f} mentions stored, {got['shown']:.0f} "
                          f"suggestions shown; longest stall while the import and the "
                          f"extraction ran {got['stall_running_ms']:.0f} ms, when the "
                          f"suggestions' result reached the window (panels reload) "
                          f"{got['stall_result_ms']:.0f} ms; {got['over_target']:.0f} gaps "
                          f"over {STALL_TARGET_MS:.0f} ms{why}"),
            })
    return rows


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--reference"] and len(args) == 5:  # the cli rows' reference process
        kind, folder, db, word = args[1:]
        _reference_run(sorted(Path(folder).iterdir()), word, Path(db), kind)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", default="txt,html,pdf")
    parser.add_argument("--no-window", action="store_true")
    parser.add_argument("--only-window", action="store_true",
                        help="the window row alone (no import rows)")
    parser.add_argument("--explain", action="store_true",
                        help="sample the GUI thread: say what held it in each long gap")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    kinds = () if args.only_window else tuple(args.kinds.split(","))
    rows = measure([int(s) for s in args.sizes.split(",")], args.rounds, kinds=kinds,
                   window=not args.no_window, explain=args.explain)
    for row in rows:
        print(f"{row['path']:<44} n={row['n']:<6} {row['casefile']:>9} {row['unit']:<6} "
              f"ref {row['reference']:>9}  ratio {row['ratio']:>6}  {row['target']:<16} "
              f"{'met' if row['met'] else 'NOT met'}  {row['notes']}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "load": list(os.getloadavg())},
                                        indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
