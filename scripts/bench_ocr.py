"""Time OCR of a generated 20-page scan: seconds per page on this machine.

Usage: ``python scripts/bench_ocr.py [--pages 20] [--engine rapidocr]``. Each page is a
letter-size 150 dpi greyscale image of 30 lines of DejaVu Sans (tests/e2e/make_files.py),
saved as one image-only PDF; the time is :func:`casefile.services.ocr.ocr_document` end to
end (pages rendered, read, stored, search index refreshed), the engine's model load apart.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from casefile.ingest import ingest_bytes  # noqa: E402
from casefile.ingest.ocr import get_engine  # noqa: E402
from casefile.services import cases, documents  # noqa: E402
from casefile.services.ocr import ocr_document  # noqa: E402
from casefile.store.workspace import open_workspace  # noqa: E402
from tests.e2e.make_files import scan_pdf  # noqa: E402

WORDS = ["the", "council", "harbor", "inspector", "report", "pier", "budget", "vote", "minutes",
         "county", "sheriff", "records", "request", "deputy", "school", "board", "meeting",
         "contract", "ferry", "police"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--engine", default="rapidocr")
    args = parser.parse_args()
    rng = random.Random(17)
    pages = [[" ".join(rng.choice(WORDS) for _ in range(8)) for _ in range(30)]
             for _ in range(args.pages)]
    data = scan_pdf(pages)
    started = time.perf_counter()
    engine = get_engine(args.engine)
    load = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        ws = open_workspace(Path(folder) / "ws")
        with ws.transaction() as s:
            case_id = cases.create_case(s, "Bench").id
            doc_id = documents.store_document(s, case_id, data,
                                              ingest_bytes(data, "scan.pdf")).document_id
        started = time.perf_counter()
        ch = ocr_document(ws.transaction, doc_id, engine=engine)
        took = time.perf_counter() - started
        ws.close()
    result = ch.value
    print(f"{args.pages} pages, {result.words} words, engine {engine.name} {engine.version} "
          f"(loaded in {load:.1f} s): {took:.1f} s, {took / args.pages:.2f} s/page, "
          f"mean confidence {result.mean_confidence:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
