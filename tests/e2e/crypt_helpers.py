"""Helpers of the encrypted-workspace tests: invented canary words, a workspace holding a
document, a note and a passage that use them, and ``strings`` over a folder."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from casefile.services import items, passages
from casefile.store.workspace import Workspace

#: Invented words found nowhere else: one only in the document, one in the passage's quote,
#: one only in an item's note, one only in the passage's note.
DOC_WORD = "Zorbleflax"
QUOTE_WORD = "Quintessorium"
NOTE_WORD = "Vexillomancy"
PASSAGE_NOTE_WORD = "Glimmerwharf"
CANARIES = (DOC_WORD, QUOTE_WORD, NOTE_WORD, PASSAGE_NOTE_WORD)
QUOTE = f"the {QUOTE_WORD} ledger was never audited"


def write_document(folder: Path) -> Path:
    """A small article holding the document and quote words (outside any workspace)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "harbor-article.txt"
    path.write_text(
        "Harbor board minutes\n\n"
        f"Officials said the {DOC_WORD} contract was signed in March. "
        f"A clerk told reporters that {QUOTE}. "
        "The board meets again next month.\n", encoding="utf-8")
    return path


def add_note_and_passage(ws: Workspace, case_id: int) -> None:
    """A person with a note naming NOTE_WORD, and a passage on the imported document with a
    note naming PASSAGE_NOTE_WORD."""
    from sqlalchemy import select

    from casefile.store import Document

    with ws.transaction() as s:
        doc_id = s.scalars(select(Document.id).where(Document.case_id == case_id)).one()
        items.create_item(s, case_id, "person", "Board clerk",
                          notes=f"met at the {NOTE_WORD} cafe; call back Tuesday")
        passages.add_passage_by_quote(s, doc_id, QUOTE,
                                      note=f"check against the {PASSAGE_NOTE_WORD} filing")


def printable_runs(path: Path) -> str:
    """What ``strings -a`` prints for ``path`` (Python's equivalent where binutils is
    missing: runs of 4+ printable ASCII characters)."""
    if shutil.which("strings"):
        return subprocess.run(["strings", "-a", str(path)], capture_output=True, text=True,
                              check=True, errors="replace").stdout
    data = path.read_bytes()
    return "\n".join(m.decode() for m in re.findall(rb"[\x20-\x7e\t]{4,}", data))


def leaks(folder: Path, words: tuple[str, ...] = CANARIES) -> dict[str, list[str]]:
    """file (relative to ``folder``) -> the words of ``words`` that ``strings`` shows in it
    or whose UTF-8 bytes it holds (any case), for every file under ``folder``."""
    found: dict[str, list[str]] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        shown = printable_runs(path).lower()
        raw = path.read_bytes().lower()
        hits = [w for w in words if w.lower() in shown or w.lower().encode() in raw]
        if hits:
            found[str(path.relative_to(folder))] = hits
    return found
