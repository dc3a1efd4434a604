"""Measure the import rate (files per second), without and with entity suggestions.

Not part of the test suite. Run from the repository root::

    .venv/bin/python scripts/bench_import.py [--samples ../shared/samples] [--repeat 3]

Sets measured, each into a fresh temporary workspace, in-process through the same service the
CLI uses (``casefile.services.batch.import_paths``, one transaction per file), so process start
(about 1 s, mostly imports) is left out; the ``cli`` rows time the real command end to end:

- ``samples``: the shared sample folder, recursively (the article, its gold file and real/).
- ``articles``: 200 copies of the sample article, each with its own first line (no duplicates).
- ``pdf-100``: one generated 100-page PDF (reportlab, ~40 lines per page).

"With suggestions" runs ``suggest_for_document`` on each new document in its own transaction
after the import, as ``casefile import`` without ``--no-suggest`` does; it is timed once, and for
``articles`` on the first 20 only (spaCy needs about a second per article). Without suggestions
the best of ``--repeat`` runs is reported (the machine may be shared).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from casefile.services.batch import import_paths  # noqa: E402
from casefile.services.cases import create_case  # noqa: E402
from casefile.store.workspace import open_workspace  # noqa: E402


def make_articles(folder: Path, article: Path, n: int = 200) -> list[Path]:
    """``n`` text files: the sample article, each with a unique first line."""
    folder.mkdir(parents=True, exist_ok=True)
    body = article.read_text(encoding="utf-8")
    paths = []
    for i in range(n):
        path = folder / f"article-{i:03}.txt"
        path.write_text(f"Copy {i} of the article\n\n{body}", encoding="utf-8")
        paths.append(path)
    return paths


def make_pdf(path: Path, pages: int = 100) -> Path:
    """A ``pages``-page PDF with about 40 lines of report text per page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for page in range(1, pages + 1):
        y = 800.0
        for line in range(40):
            day = page % 28 + 1
            pdf.drawString(50, y, f"Page {page}, line {line}: Deputy Ortiz reviewed the "
                                  f"harbor invoices with auditor Sam Reed on March {day}.")
            y -= 19
        pdf.showPage()
    pdf.save()
    path.write_bytes(buffer.getvalue())
    return path


def run_once(paths: list[Path], suggest: bool) -> tuple[int, float, float]:
    """Import ``paths`` into a fresh workspace; returns (files, import seconds, suggest seconds)."""
    from casefile.services.suggestions import suggest_for_document

    with tempfile.TemporaryDirectory() as tmp:
        ws = open_workspace(Path(tmp) / "ws")
        try:
            with ws.transaction() as s:
                case_id = create_case(s, "Bench").id
            start = time.perf_counter()
            result = import_paths(ws.transaction, case_id, paths)
            imported = time.perf_counter() - start
            suggesting = 0.0
            if suggest:
                start = time.perf_counter()
                for outcome in result.outcomes:
                    if outcome.result is not None and outcome.result.created:
                        with ws.transaction() as s:
                            suggest_for_document(s, outcome.result.document_id)
                suggesting = time.perf_counter() - start
            failed = [o for o in result.outcomes if o.status == "failed"]
            if failed:
                print(f"  ({len(failed)} failed: {failed[0].error})", file=sys.stderr)
            return len(result.outcomes), imported, suggesting
        finally:
            ws.close()


def best(repeat: int, fn: Callable[[], tuple[int, float, float]]) -> tuple[int, float, float]:
    """The run with the smallest total time of ``repeat`` runs."""
    runs = [fn() for _ in range(repeat)]
    return min(runs, key=lambda r: r[1] + r[2])


def cli_seconds(paths: list[Path], *extra: str) -> float:
    """Wall time of ``casefile import PATHS --case Bench EXTRA`` into a fresh workspace."""
    exe = [sys.executable, "-m", "casefile"]
    with tempfile.TemporaryDirectory() as tmp:
        ws = str(Path(tmp) / "ws")
        subprocess.run([*exe, "--workspace", ws, "case", "new", "Bench"], check=True,
                       capture_output=True)
        start = time.perf_counter()
        subprocess.run([*exe, "--workspace", ws, "import", *map(str, paths), "--case", "Bench",
                        *extra], capture_output=True)
        return time.perf_counter() - start


def main() -> int:
    """Print one line per set: files, files/s without and with suggestions, CLI wall time."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=Path, default=ROOT.parent / "shared" / "samples")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    # Load the readers and the spaCy model once, so the first set does not pay for them.
    from casefile.extract import extract_suggestions

    extract_suggestions("Warm up. Sam Reed met Lena Ortiz in Boston on Monday.", None)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sets = {
            "samples": [args.samples],
            "articles": [work / "articles"],
            "pdf-100": [make_pdf(work / "report-100-pages.pdf")],
        }
        make_articles(work / "articles", args.samples / "parkland-coral-springs-article.txt")
        print(f"{'set':<10} {'files':>5} {'no-suggest files/s':>19} {'with suggest files/s':>21}"
              f" {'cli --no-suggest s':>19} {'cli s':>7}", flush=True)
        # spaCy takes about a second per article: suggestions are timed once, on 20 articles
        sets_suggest = {**sets, "articles": sorted((work / "articles").iterdir())[:20]}
        for name, paths in sets.items():
            n, t_import, _ = best(args.repeat, partial(run_once, paths, False))
            m, t_imp2, t_sug = run_once(sets_suggest[name], True)
            cli_fast = cli_seconds(paths, "--no-suggest")
            cli_full = cli_seconds(sets_suggest[name])
            print(f"{name:<10} {n:>5} {n / t_import:>19.1f} {m / (t_imp2 + t_sug):>21.2f}"
                  f" {cli_fast:>19.2f} {cli_full:>7.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
