"""What a watch list costs an import: the same files imported (``import_paths``, the path of
``casefile import`` and the window) into fresh workspaces without a list and with a list of
1,000 names, in the same run, alternating; prints the best time of each and their ratio.

    PYTHONPATH=. .venv/bin/python scripts/bench_watch.py [--copies 20] [--names 1000]
        [--mentioned 12] [--repeat 3]

The files: ``--copies`` copies of each development article (``/work/shared/samples``, each
copy with a first line of its own, so none is a duplicate), or invented news-like articles
(``scripts/synthetic.py``) when the samples are absent. The list: ``--mentioned`` people the
articles name (read from their gold files), then invented people and organizations up to
``--names``; ``--mentioned 1000`` puts every gold name on it (380: the worst case, every
document has hits). Adding the names compiles the list (as when the reporter changes it; about 15 ms
for 1,000 names here), so the timed import finds it compiled. Times are this process's CPU
time (the import runs in it, ``workers=0``), which other programs on the machine disturb less
than wall time; wall time is printed too.
ARCHITECTURE.md, "The watch list".
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from synthetic import news  # noqa: E402

from casefile.services.batch import import_paths  # noqa: E402
from casefile.services.cases import create_case  # noqa: E402
from casefile.services.watch_list import WatchEntry, add_names  # noqa: E402
from casefile.store.workspace import open_workspace  # noqa: E402

SAMPLES = ROOT.parent / "shared" / "samples"
_SYLLABLES = ("ka", "ro", "len", "vi", "dor", "sa", "mir", "tal", "bre", "nu", "gos", "el",
              "an", "tor", "ve", "lis", "ham", "quin", "zo", "per")


def make_files(folder: Path, copies: int) -> list[Path]:
    """``copies`` copies of each development article (else invented articles) as .txt."""
    folder.mkdir(parents=True, exist_ok=True)
    articles = [p for sub in ("articles", "articles-2") for p in sorted((SAMPLES / sub).glob(
        "*.txt"))]
    bodies = [p.read_text(encoding="utf-8") for p in articles] or [
        f"{d.title}\n\n{d.text}" for d in news(32, seed=11)]
    paths = []
    for i in range(copies):
        for n, body in enumerate(bodies):
            path = folder / f"copy-{i:03}-{n:02}.txt"
            path.write_text(f"Copy {i} of article {n}\n\n{body}", encoding="utf-8")
            paths.append(path)
    return paths


def gold_names() -> list[WatchEntry]:
    """The people and organizations the development articles' gold files name."""
    import json

    out: dict[str, WatchEntry] = {}
    for sub in ("articles", "articles-2"):
        for gold in sorted((SAMPLES / sub).glob("*-gold.json")):
            data = json.loads(gold.read_text(encoding="utf-8"))
            for kind, section in (("person", "people"), ("organization", "organizations")):
                for entity in data[section]["required"]:
                    out.setdefault(entity["name"], WatchEntry(entity["name"], (), kind))
    return list(out.values())


def make_names(n: int, mentioned: int) -> list[WatchEntry]:
    """``n`` names: ``mentioned`` gold names first, then invented ones."""
    rng = random.Random(5)
    known = gold_names()
    out = rng.sample(known, min(mentioned, len(known)))

    def word() -> str:
        return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randrange(2, 4))).title()

    while len(out) < n:
        if rng.random() < 0.7:
            out.append(WatchEntry(f"{word()} {word()}", (), "person"))
        else:
            out.append(WatchEntry(f"{word()} {rng.choice(('Holdings', 'Ltd', 'Group'))}", (),
                                  "organization"))
    return out[:n]


def run_once(paths: list[Path], names: list[WatchEntry]) -> tuple[float, float, int]:
    """Import ``paths`` into a fresh workspace whose list holds ``names``; returns (CPU
    seconds, wall seconds, documents with hits)."""
    with tempfile.TemporaryDirectory() as tmp:
        ws = open_workspace(Path(tmp) / "ws")
        try:
            with ws.transaction() as s:
                case_id = create_case(s, "Bench").id
                if names:
                    add_names(s, names, case_id)
            start, cpu = time.perf_counter(), time.process_time()
            result = import_paths(ws.transaction, case_id, paths, workers=0)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - start
            hit = sum(1 for o in result.outcomes if o.result is not None and o.result.watch)
            return cpu, wall, hit
        finally:
            ws.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--names", type=int, default=1000)
    parser.add_argument("--mentioned", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = make_names(args.names, args.mentioned)
    with tempfile.TemporaryDirectory() as tmp:
        paths = make_files(Path(tmp) / "files", args.copies)
        run_once(paths[:20], names)  # readers and caches warm
        plain, listed = [], []
        hits = 0
        for _ in range(args.repeat):
            plain.append(run_once(paths, []))
            listed.append(run_once(paths, names))
            hits = listed[-1][2]
    mentioned = min(args.mentioned, len(gold_names()))
    print(f"{len(paths)} files; list of {len(names)} names ({mentioned} named in the "
          f"articles); {hits} documents with hits")
    for label, runs in (("without a list", plain), ("with the list ", listed)):
        print(f"import {label}: CPU {min(r[0] for r in runs):.2f} s, wall "
              f"{min(r[1] for r in runs):.2f} s (best of {args.repeat}; CPU "
              f"{', '.join(f'{r[0]:.2f}' for r in runs)})")
    cpu = min(r[0] for r in listed) / min(r[0] for r in plain)
    wall = min(r[1] for r in listed) / min(r[1] for r in plain)
    print(f"ratio {cpu:.3f} CPU, {wall:.3f} wall (target <= 1.2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
