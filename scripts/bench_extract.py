"""Benchmark suggestions on a long PDF against the raw spaCy model on the same text. Not run by
pytest.

Usage::

    .venv/bin/python scripts/bench_extract.py [--pages 100] [--rounds 3] [--json OUT]
                                              [--keep PDF]

A news-like English PDF of ``--pages`` pages (~3,000 characters a page, paragraphs, a recurring
cast of invented people, organisations and places whose names are made from syllables by a
seeded RNG) is written with reportlab to a temporary folder. Each round then runs, each in a new
process (so every peak memory is that run's own ``ru_maxrss``, read with ``os.wait4``) and in
turns (each round starts with another of them):

- ``cli``: ``python -m casefile extract FILE --json`` (what the CLI waits on: start-up, reading
  and parsing the PDF, loading the model, suggesting, printing);
- ``cli rules``: the same with ``--rules-only``;
- ``raw cli``: the independent reference: a new Python that ``spacy.load``s the same model
  package (the full pipeline, the way peer_spacy.py and Aleph use it), reads the PDF's text
  with pypdfium2 and runs ``nlp(text)``;
- ``in process``: what the window waits on once the model is preloaded: ``ingest_file`` +
  ``extract_suggestions`` (model loaded before the clock starts);
- ``in process rules``: the same with ``mode="rules"``;
- ``raw in process``: the reference for it: the PDF text read (pypdfium2) + ``nlp(text)`` with
  the raw model loaded before the clock starts;
- ``raw in process ner``: the same with the model loaded as Casefile loads it (parser,
  lemmatizer and senter excluded), for information: how much Casefile's own layers add to the
  model they run (not part of the target).

Printed: p50 of the rounds per run, the ratios ``cli / raw cli`` and ``in process / raw in
process``, peak memory (MB), the load average at the start and end (the machine may be shared),
and whether the target (both ratios <= 1.3) is met. ``--json OUT`` writes the same numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.3
CHARS_PER_PAGE = 3000

# ---------------------------------------------------------------------------- the document

_ONSETS = ("b", "br", "c", "d", "dr", "f", "g", "gr", "h", "j", "k", "l", "m", "n", "p", "r",
           "s", "st", "t", "tr", "v", "w", "z")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "ou")
_CODAS = ("", "", "n", "r", "l", "s", "m", "th", "nd", "rk")


def _word(rng: random.Random, syllables: int) -> str:
    w = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                for _ in range(syllables))
    return w.capitalize()


class _Cast:
    """Invented people, organisations and places; every name is made up from syllables."""

    def __init__(self, rng: random.Random) -> None:
        self.people = [(_word(rng, rng.choice((1, 2))), _word(rng, rng.choice((2, 3))))
                       for _ in range(40)]
        self.places = [_word(rng, rng.choice((2, 3))) for _ in range(14)]
        kinds = ("Department of {}", "{} City Council", "{} Water Authority",
                 "{} Holdings", "{} University", "{} Police Department", "{} Transit Agency",
                 "Bank of {}", "{} Hospital", "{} Port Authority")
        self.orgs = [rng.choice(kinds).format(_word(rng, 2)) for _ in range(14)]


_ROLES = ("director", "spokeswoman", "spokesman", "treasurer", "chief executive", "auditor",
          "chairman", "lawyer", "deputy mayor", "analyst")
_TITLES = ("Mayor", "Senator", "Judge", "Commissioner", "Dr.", "Chief")
_THINGS = ("contract", "audit", "budget", "report", "inquiry", "tender", "permit", "lawsuit",
           "bond issue", "pension fund", "shipment", "memo")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_ADJ = ("unpaid", "confidential", "late", "disputed", "internal", "revised", "annual",
        "independent", "quarterly")


def _sentence(rng: random.Random, cast: _Cast, seen: set[int]) -> str:
    i = rng.randrange(len(cast.people))
    first, last = cast.people[i]
    person = last if i in seen and rng.random() < 0.5 else f"{first} {last}"
    seen.add(i)
    org, place, thing = rng.choice(cast.orgs), rng.choice(cast.places), rng.choice(_THINGS)
    kind = rng.randrange(8)
    if kind == 0:
        return (f"{first} {last}, the {rng.choice(_ROLES)} of the {org}, said on "
                f"{rng.choice(_DAYS)} that the {rng.choice(_ADJ)} {thing} would be reviewed.")
    if kind == 1:
        return f"\u201cWe were never told about the {thing},\u201d {person} said in {place}."
    if kind == 2:
        return (f"{rng.choice(_TITLES)} {first} {last} told reporters in {place} that the "
                f"{org} had not answered questions about the {thing}.")
    if kind == 3:
        return (f"The {org} paid ${rng.randrange(2, 900)},{rng.randrange(100, 999)} for the "
                f"{rng.choice(_ADJ)} {thing} in {rng.randrange(2009, 2024)}, records show.")
    if kind == 4:
        return (f"{person} met officials of the {org} in {place} on {rng.choice(_DAYS)}, "
                f"according to a {rng.choice(_ADJ)} memo.")
    if kind == 5:
        return (f"Residents of {place} have asked the {org} to publish the {thing} before "
                f"the council votes next month.")
    if kind == 6:
        return f"{person} declined to comment on the {thing}."
    return (f"In {place}, the {thing} was signed by {person} and approved by the "
            f"{rng.choice(cast.orgs)} a week later.")


def page_texts(pages: int, seed: int = 15) -> list[list[str]]:
    """The paragraphs of each page: ``pages`` lists of paragraphs of ~3,000 characters."""
    rng = random.Random(seed)
    cast = _Cast(rng)
    seen: set[int] = set()
    out = []
    for _ in range(pages):
        paras: list[str] = []
        length = 0
        while length < CHARS_PER_PAGE - 200:
            para = " ".join(_sentence(rng, cast, seen) for _ in range(rng.randrange(2, 5)))
            paras.append(para)
            length += len(para) + 2
        out.append(paras)
    return out


def write_pdf(path: Path, pages: int) -> int:
    """Write the ``pages``-page PDF to ``path``; return its number of text characters."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("Invented long report")
    c.setAuthor("bench_extract.py")
    width, height = A4
    font, size, lead = "Helvetica", 9, 11
    chars = 0
    for paras in page_texts(pages):
        y = height - 50
        for para in paras:
            chars += len(para) + 2
            for line in simpleSplit(para, font, size, width - 100):
                c.setFont(font, size)
                c.drawString(50, y, line)
                y -= lead
            y -= lead  # a blank line between paragraphs
        c.showPage()
    c.save()
    return chars


# ---------------------------------------------------------------------------- the runs

_RAW_TEXT = """
import pypdfium2 as pdfium
def pdf_text(path):
    pdf = pdfium.PdfDocument(path)
    try:
        return "\\n\\n".join(p.get_textpage().get_text_range() for p in pdf)
    finally:
        pdf.close()
"""

_WORKERS = {
    # each prints {"seconds": ...} (its own clock) on its last line
    "raw cli": _RAW_TEXT + """
import json, sys, time
t0 = float(sys.argv[3])
import spacy
nlp = spacy.load(sys.argv[2])
text = pdf_text(sys.argv[1])
doc = nlp(text)
print(json.dumps({"seconds": time.time() - t0, "entities": len(doc.ents), "chars": len(text)}))
""",
    "raw in process": _RAW_TEXT + """
import json, sys, time
import spacy
nlp = (spacy.load(sys.argv[2]) if sys.argv[3] == "full"
       else spacy.load(sys.argv[2], exclude=["parser", "lemmatizer", "senter"]))
nlp("Warm up, said Ann Lee of the Water Authority in Boston.")
t0 = time.perf_counter()
text = pdf_text(sys.argv[1])
doc = nlp(text)
print(json.dumps({"seconds": time.perf_counter() - t0, "entities": len(doc.ents)}))
""",
    "in process": """
import json, sys, time
from pathlib import Path
from casefile.extract import extract_suggestions
from casefile.extract.model import preload
from casefile.ingest import ingest_file
mode = sys.argv[3]
if mode == "auto":
    assert preload(), "no spaCy model"
t0 = time.perf_counter()
_data, ing = ingest_file(Path(sys.argv[1]))
res = extract_suggestions(ing.text, None, mode=mode)
print(json.dumps({"seconds": time.perf_counter() - t0, "mode": res["mode"],
                  "people": len(res["people"]), "organizations": len(res["organizations"])}))
""",
}


def _run(argv: list[str], cwd: Path) -> tuple[float, float, str]:
    """Run ``argv``; return (wall seconds, peak MB of that process, its stdout)."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.PIPE)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        err = proc.stderr.read().decode() if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{argv[:4]} failed:\n{err}")
        out.seek(0)
        text = out.read().decode()
    peak_kb = usage.ru_maxrss  # kilobytes on Linux
    return wall, peak_kb / 1024, text


def _one(kind: str, pdf: Path, model: str) -> dict[str, Any]:
    py = sys.executable
    if kind in ("cli", "cli rules"):
        argv = [py, "-m", "casefile", "extract", str(pdf), "--json"]
        if kind == "cli rules":
            argv.append("--rules-only")
        wall, peak, out = _run(argv, ROOT)
        res = json.loads(out)
        return {"seconds": wall, "peak_mb": peak, "mode": res["mode"],
                "people": len(res["people"]), "organizations": len(res["organizations"])}
    if kind == "raw cli":
        wall, peak, out = _run([py, "-c", _WORKERS[kind], str(pdf), model, repr(time.time())],
                               ROOT)
        return {"seconds": wall, "peak_mb": peak, **json.loads(out.splitlines()[-1])}
    if kind in ("in process", "in process rules"):
        mode = "rules" if kind.endswith("rules") else "auto"
        wall, peak, out = _run([py, "-c", _WORKERS["in process"], str(pdf), model, mode], ROOT)
        return {**json.loads(out.splitlines()[-1]), "peak_mb": peak}
    wall, peak, out = _run([py, "-c", _WORKERS["raw in process"], str(pdf), model,
                            "ner" if kind.endswith("ner") else "full"], ROOT)
    return {**json.loads(out.splitlines()[-1]), "peak_mb": peak}


KINDS = ("cli", "raw cli", "in process", "raw in process", "cli rules", "in process rules",
         "raw in process ner")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", metavar="OUT", help="write the numbers to this file")
    ap.add_argument("--keep", metavar="PDF", help="also save the generated PDF here")
    args = ap.parse_args()

    sys.path.insert(0, str(ROOT))
    from casefile.extract.model import find_model_name

    model = find_model_name()
    if model is None:
        raise SystemExit("no en_core_web_* spaCy model is installed")
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / f"bench-{args.pages}-pages.pdf"
        chars = write_pdf(pdf, args.pages)
        if args.keep:
            Path(args.keep).write_bytes(pdf.read_bytes())
        runs: dict[str, list[dict[str, Any]]] = {k: [] for k in KINDS}
        for r in range(args.rounds):
            order = KINDS[r % len(KINDS):] + KINDS[:r % len(KINDS)]
            for kind in order:
                got = _one(kind, pdf, model)
                runs[kind].append(got)
                print(f"  round {r + 1} {kind:18} {got['seconds']:7.2f} s "
                      f"{got['peak_mb']:7.0f} MB", flush=True)
    load_end = os.getloadavg()

    p50 = {k: statistics.median(x["seconds"] for x in v) for k, v in runs.items()}
    peak = {k: max(x["peak_mb"] for x in v) for k, v in runs.items()}
    ratio_cli = p50["cli"] / p50["raw cli"]
    ratio_in = p50["in process"] / p50["raw in process"]
    ratio_ner = p50["in process"] / p50["raw in process ner"]
    met = ratio_cli <= TARGET and ratio_in <= TARGET
    print(f"\n{args.pages} pages, {chars} characters, model {model}, {args.rounds} rounds "
          f"(p50 seconds, peak MB)")
    for k in KINDS:
        print(f"  {k:18} {p50[k]:7.2f} s {peak[k]:7.0f} MB")
    print(f"  ratio cli / raw cli               {ratio_cli:.2f}")
    print(f"  ratio in process / raw in process {ratio_in:.2f}")
    print(f"  ratio in process / raw in process ner {ratio_ner:.2f} (information only)")
    print(f"  load average start {load_start[0]:.2f}, end {load_end[0]:.2f}")
    print(f"  target <= {TARGET}x: {'met' if met else 'NOT met'}")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "pages": args.pages, "chars": chars, "model": model, "rounds": args.rounds,
            "p50_seconds": p50, "peak_mb": peak, "ratio_cli": ratio_cli,
            "ratio_in_process": ratio_in, "ratio_in_process_ner": ratio_ner, "target": TARGET,
            "target_met": met,
            "loadavg_start": load_start, "loadavg_end": load_end, "runs": runs,
        }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
