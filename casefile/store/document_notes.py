"""The documents of a case whose import notes say they got no suggestions for their language
(the Suggestions panel's status names them, and a case opens with this read).

Looked for in every document's notes, the read took every document row of the case, and a row's
notes come after its text: a case of long texts was read whole at each reload. On SQLite the
partial index ``ix_documents_language_notes`` (revision 0016) holds the documents whose notes
hold :data:`LANGUAGE_NOTE`; the statement repeats the index's condition word for word, and
reads the documents before their items (SQLite's CROSS JOIN), so that SQLite reads that index
alone. PostgreSQL reads the notes as text. The two forms live here, in the store
(ARCHITECTURE.md, "Layers").
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

#: How a note on a document left without suggestions for its language starts (the extractor's
#: ``extract.language.NOTE_PREFIX``, which the store does not import): plain ASCII without
#: LIKE's wildcards or what JSON escapes, so the stored notes hold it as written.
LANGUAGE_NOTE = "No suggestions: the text is in "
#: The indexes only SQLite has, made by the migrations outside the models (revision 0016).
SQLITE_INDEXES = ("ix_documents_language_notes",)

_SQLITE = ("SELECT i.title, d.import_notes FROM documents d CROSS JOIN items i ON i.id = d.id "
           f"WHERE instr(d.import_notes, '{LANGUAGE_NOTE}') > 0 AND i.case_id = :case_id "
           "ORDER BY d.id")
_OTHER = ("SELECT i.title, d.import_notes FROM documents d JOIN items i ON i.id = d.id "
          "WHERE CAST(d.import_notes AS TEXT) LIKE :pattern AND i.case_id = :case_id "
          "ORDER BY d.id")


def language_noted(session: Session, case_id: int) -> list[tuple[str, list[Any]]]:
    """``(title, notes)`` of the documents of case ``case_id`` whose notes hold
    :data:`LANGUAGE_NOTE` (maybe not at a note's start: the caller looks), in document id
    order; ``notes`` is the document's list of notes as stored."""
    if session.get_bind().dialect.name == "sqlite":
        rows = session.execute(text(_SQLITE), {"case_id": int(case_id)})
    else:
        rows = session.execute(text(_OTHER), {"case_id": int(case_id),
                                              "pattern": f"%{LANGUAGE_NOTE}%"})
    out: list[tuple[str, list[Any]]] = []
    for title, notes in rows:
        if isinstance(notes, str | bytes):
            notes = json.loads(notes)
        out.append((str(title or ""), list(notes or ())))
    return out
