"""Search: items holding CJK, Hangul, Thai... text are re-indexed with pairs of characters.

Written by hand (autogenerate ignores the search tables, db/env.py). No table changes: the
tokens change (``casefile.store.search.tokens``). A run of characters of the scripts written
without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar) or whose words are found
inside longer ones (Hangul) is now indexed as its pairs of adjacent characters and its last
character (``casefile.store.search.gram_tokens``), and those characters are folded one for one
(Hangul syllables no longer cut into Jamo, Thai vowels, tone marks and the kana voicing marks
kept). Before, such a run was one token if it had at most 64 characters and was left out
otherwise, so a word inside a sentence was never found.

Only the items whose title, indexed body or document text holds a character of
``GRAM_BLOCKS`` are re-indexed (every other item's tokens are the same as before), in id
order, in batches of 500, from the index's own copy of title and body and ``documents.text``
(as revision 0005 did). ``downgrade`` leaves the index as it is: the older code finds less in
it, nothing wrong.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from casefile.store.search import GRAM_BLOCKS, IndexRow, index_rows

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500


def _ranges() -> str:
    """``GRAM_BLOCKS`` as the inside of a bracket class, for SQLite GLOB (ranges compare code
    points, sqlite.org/lang_expr.html#glob) and a PostgreSQL regex (in a UTF-8 database)."""
    return "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in GRAM_BLOCKS)


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        table, cond = "search_fts_docs", "GLOB :g"
        pattern = f"*[{_ranges()}]*"
    else:
        table, cond = "search_pg", "~ :g"
        pattern = f"[{_ranges()}]"
    select = sa.text(
        f"SELECT s.item_id, s.case_id, s.title, s.body, d.text FROM {table} s "
        "LEFT JOIN documents d ON d.id = s.item_id WHERE s.item_id > :last "
        f"AND (s.title {cond} OR s.body {cond} OR d.text {cond}) "
        "ORDER BY s.item_id LIMIT :n")
    session = Session(bind=bind)
    try:
        last = 0
        while True:
            rows = bind.execute(select, {"last": last, "g": pattern, "n": BATCH}).all()
            if not rows:
                break
            index_rows(session, [IndexRow(int(i), int(c), t or "", b or "", x or "")
                                 for i, c, t, b, x in rows])
            last = rows[-1][0]
    finally:
        session.close()


def downgrade() -> None:
    """Nothing to undo (see the module docstring)."""
