"""Rebuild the full-text search index from the data: ``casefile reindex``, for repair only.

The index changes in the same transaction as the data it indexes (an import through
``services.documents.store_document``, an edit, delete or merge through ``services.items``), so
no manual re-index step exists or is needed. This module repairs an index that went wrong anyway:
a database restored from a dump with its triggers off, a hand edit, a bug in an older version,
or an FTS5 index that fails SQLite's own integrity check.

What :func:`rebuild_search_index` does, in the caller's transaction (one transaction, so a
failure leaves the old index as it was):

1. It looks at what is wrong, before changing anything (:class:`ReindexReport`): items of the
   scope with no index row (``missing``), index rows of items that no longer exist
   (``orphans``), index rows whose stored copy of the title, body or case differs from the item
   (``stale``), and, on SQLite, whether FTS5's ``integrity-check`` command passes
   (sqlite.org/fts5.html, "The 'integrity-check' Command": the full-text index agrees with the
   table's own content). These are the checks that are cheap next to the rebuild itself; the
   token index is not compared with the data item by item (it is rebuilt, not diagnosed).
2. It removes the index rows of the scope (every row of the workspace, or those of the case's
   items) and every orphan row.
3. It indexes every item of the scope again with exactly what the normal path indexes:
   ``services.items.search_parts`` (title, body, document text) written by
   ``store.search.index_rows(..., new=True)``. Items are read :data:`BATCH_SIZE` at a time in id
   order, subclass columns (a document's text) in the same query, so 100,000 documents never
   have all their texts in memory.

The tables are those of ``casefile.store.search``: on SQLite ``search_fts`` (FTS5, rowid = item
id, the folded tokens), ``search_fts_docs`` (title and body copy) and ``search_fts_vocab``
(every indexed word; a whole rebuild empties it first); on PostgreSQL
``search_pg``. The few statements that name them are in the ``_SQLite`` and ``_Postgres``
classes below (ARCHITECTURE.md, "Layers", wants engine-specific SQL in ``store/``; they can move to
``store.search`` as a ``repair`` interface without changing this module's contract).

Cost: what indexing the data again costs (``index_rows`` tokenises every text: here about 1 ms
per 3 KB document on SQLite, 3.5 ms on PostgreSQL), plus on SQLite the integrity check (it reads
the whole full-text index: 1.3 s for 20,000 documents of 500 words). A whole-workspace rebuild on
SQLite drops and re-creates ``search_fts`` from its own ``CREATE VIRTUAL TABLE`` statement
instead of deleting its rows (an FTS5 delete reads and tokenises the row again: 10 s for those
20,000 documents, against 0.2 s to drop the table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, func, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, with_polymorphic

from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.items import search_parts
from casefile.store import Item
from casefile.store.search import IndexRow, index_rows

#: Items read, indexed and let go at a time.
BATCH_SIZE = 500

#: ``progress(done, total)``: items indexed so far and in all (called after each batch).
ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class ReindexReport:
    """What a rebuild found before it ran, and what it indexed.

    - ``case_id``: the case rebuilt, or None for the whole workspace.
    - ``items``: items indexed (every item of the scope).
    - ``missing``: items of the scope that had no index row (on SQLite: no row in the full-text
      table or no row in its copy table; either makes search miss it or show it without its
      snippet text).
    - ``orphans``: index entries of items that no longer exist, removed (an entry counts once
      even with a row in both SQLite tables). Counted and removed for the whole workspace even
      when ``case_id`` is given: an orphan belongs to no item, so to no case, and it still takes
      a place in a search's LIMIT (search ranks before it reads the items).
    - ``stale``: items whose index row keeps another title, body (notes, aliases, author...) or
      case than the item has now. Compares the stored copy, not the tokens: a token index that
      disagrees with its own copy is caught, on SQLite, by the integrity check only.
    - ``integrity_ok``: on SQLite, whether FTS5's ``integrity-check`` passed before the rebuild
      (when it failed and only a case was rebuilt, FTS5's ``rebuild`` command re-made the
      full-text index of every case from its stored rows first); None on PostgreSQL, which has no
      such check of a GIN index.
    """

    case_id: int | None
    items: int
    missing: int
    orphans: int
    stale: int
    integrity_ok: bool | None

    @property
    def problems(self) -> int:
        """How many things were wrong (a failed integrity check counts one)."""
        return self.missing + self.orphans + self.stale + (self.integrity_ok is False)

    def as_json(self) -> dict[str, Any]:
        """``{"case_id", "items", "missing", "orphans", "stale", "integrity_ok"}`` (README,
        "JSON output")."""
        return asdict(self)

    def summary(self) -> str:
        """One line for the command line, e.g. ``reindexed 1234 items (3 were missing from the
        index, 2 orphan rows removed)``."""
        found: list[str] = []
        if self.missing:
            found.append(f"{self.missing} {'was' if self.missing == 1 else 'were'} missing "
                         "from the index")
        if self.orphans:
            found.append(f"{_n(self.orphans, 'orphan row')} removed")
        if self.stale:
            found.append(f"{self.stale} {'was' if self.stale == 1 else 'were'} stale")
        if self.integrity_ok is False:
            found.append("the full-text index failed SQLite's integrity check")
        if not found:
            found.append("nothing was missing, orphaned or stale"
                         + ("; the integrity check passed" if self.integrity_ok else ""))
        return f"reindexed {_n(self.items, 'item')} ({', '.join(found)})"


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def rebuild_search_index(
    session: Session,
    case_id: int | None = None,
    progress: ProgressCallback | None = None,
    *,
    batch_size: int = BATCH_SIZE,
) -> ReindexReport:
    """Rebuild the search index of one case (``case_id``) or of the whole workspace (None).

    Runs in the caller's transaction (the caller commits: ``with workspace.transaction()``) and
    writes one ChangeLog row, ``search.reindex``, with the report. Finds what was wrong, removes
    the scope's index rows and every orphan row, and indexes each item of the scope again with
    ``services.items.search_parts`` and ``store.search.index_rows`` (module docstring). Rows of
    other cases' items are left as they are (on SQLite with a failed integrity check, FTS5 re-makes
    its full-text index from them, unchanged).

    ``progress(done, total)`` is called after each batch of ``batch_size`` items. Returns a
    :class:`ReindexReport`. Raises NotFoundError for an unknown case, ValueError for a batch size
    below 1; a database error (a damaged file, or on PostgreSQL an item deleted by someone else
    during the rebuild) propagates and nothing changes.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size}")
    if case_id is not None:
        get_case(session, case_id)
    session.flush()  # the raw statements below must see the session's pending changes
    engine: _Engine = _SQLite() if session.get_bind().dialect.name == "sqlite" else _Postgres()
    count = select(func.count()).select_from(Item)
    if case_id is not None:
        count = count.where(Item.case_id == case_id)
    total = session.scalar(count) or 0

    missing = engine.count_missing(session, case_id)
    orphans = engine.count_orphans(session)
    integrity_ok = engine.check_integrity(session)
    engine.clear(session, whole=case_id is None, integrity_ok=integrity_ok)

    items = with_polymorphic(Item, "*")  # a document's text comes in the same query
    stmt = select(items).order_by(items.id).limit(batch_size)
    if case_id is not None:
        stmt = stmt.where(items.case_id == case_id)
    done = stale = last = 0
    while True:
        batch = session.scalars(stmt.where(items.id > last)).all()
        if not batch:
            break
        rows = [IndexRow(i.id, i.case_id, i.title, *search_parts(i)) for i in batch]
        last = batch[-1].id
        del batch  # unmodified objects leave the session's (weak) identity map with it
        stale += engine.replace(session, rows)
        done += len(rows)
        del rows
        if progress is not None:
            progress(done, total)

    report = ReindexReport(case_id, done, missing, orphans, stale, integrity_ok)
    log_change(session, "search.reindex", case_id=case_id, summary=report.summary(),
               data=report.as_json())
    return report


# --- the engine-specific statements (tables of casefile.store.search) -------------------------


def _ids_param(sql: str) -> Any:
    """``sql`` with ``:ids`` expanded to a list of item ids."""
    return text(sql).bindparams(bindparam("ids", expanding=True))


def _count_stale(old: dict[int, tuple[Any, ...]], rows: Sequence[IndexRow]) -> int:
    """Rows whose stored ``(case_id, title, body)`` differs from what is indexed now."""
    return sum(1 for r in rows if r.item_id in old
               and tuple(old[r.item_id]) != (r.case_id, r.title or "", r.body or ""))


class _Engine:
    """The statements of a rebuild on one engine (see the module docstring)."""

    def count_missing(self, session: Session, case_id: int | None) -> int:
        """Items (of the case, or all) without their index row(s)."""
        raise NotImplementedError

    def count_orphans(self, session: Session) -> int:
        """Item ids with an index row but no item."""
        raise NotImplementedError

    def check_integrity(self, session: Session) -> bool | None:
        """Whether the engine's own check of the index passes; None when there is none."""
        return None

    def clear(self, session: Session, *, whole: bool, integrity_ok: bool | None) -> None:
        """Remove every orphan row and, when ``whole``, every row there is."""
        raise NotImplementedError

    #: The table holding each indexed item's stored ``(case_id, title, body)``.
    stored_table = ""

    def delete(self, conn: Connection, ids: list[int]) -> None:
        """Delete the index rows of the items ``ids``."""
        raise NotImplementedError

    def replace(self, session: Session, rows: Sequence[IndexRow]) -> int:
        """Replace the index rows of ``rows``' items by ``rows``; returns how many were stale."""
        conn = session.connection()
        ids = [r.item_id for r in rows]
        old = {r[0]: tuple(r[1:]) for r in conn.execute(_ids_param(
            "SELECT item_id, case_id, title, body "
            f"FROM {self.stored_table} WHERE item_id IN :ids"), {"ids": ids})}
        self.delete(conn, ids)
        index_rows(session, rows, new=True)
        return _count_stale(old, rows)


def _scope(case_id: int | None) -> tuple[str, dict[str, Any]]:
    if case_id is None:
        return "", {}
    return "i.case_id = :case_id AND ", {"case_id": case_id}


class _SQLite(_Engine):
    def count_missing(self, session: Session, case_id: int | None) -> int:
        where, params = _scope(case_id)
        return session.connection().execute(text(
            f"SELECT count(*) FROM items i WHERE {where}("
            "NOT EXISTS (SELECT 1 FROM search_fts f WHERE f.rowid = i.id) OR "
            "NOT EXISTS (SELECT 1 FROM search_fts_docs d WHERE d.item_id = i.id))"), params
        ).scalar_one()

    def count_orphans(self, session: Session) -> int:
        return session.connection().execute(text(
            "SELECT count(*) FROM ("
            "SELECT f.rowid FROM search_fts f "
            "WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = f.rowid) UNION "
            "SELECT d.item_id FROM search_fts_docs d "
            "WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = d.item_id))")
        ).scalar_one()

    def check_integrity(self, session: Session) -> bool | None:
        # sqlite.org/fts5.html: the command raises SQLITE_CORRUPT_VTAB when the full-text index
        # does not match the table's content. In a savepoint, so a failure leaves the
        # transaction as it was.
        try:
            with session.begin_nested():
                session.connection().exec_driver_sql(
                    "INSERT INTO search_fts(search_fts) VALUES('integrity-check')")
        except DBAPIError as exc:
            name = getattr(exc.orig, "sqlite_errorname", "")
            if name.startswith("SQLITE_CORRUPT") or "malformed" in str(exc.orig):
                return False
            raise
        return True

    def clear(self, session: Session, *, whole: bool, integrity_ok: bool | None) -> None:
        conn = session.connection()
        if whole:
            # Dropping the FTS5 table drops its index at once, even a damaged one; the same
            # statement made it (the trigger on items that deletes its rows stays).
            create = conn.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'search_fts'"
            ).scalar_one()
            conn.exec_driver_sql("DROP TABLE search_fts")
            conn.exec_driver_sql(create)
            # Its word list is made again by index_rows (store.search.prefix_words).
            conn.exec_driver_sql("DELETE FROM search_fts_vocab")
        else:
            if integrity_ok is False:
                # Deleting rows from a damaged index can fail or damage it further; 'rebuild'
                # re-makes the full-text index from the table's stored rows (sqlite.org/fts5.html).
                conn.exec_driver_sql("INSERT INTO search_fts(search_fts) VALUES('rebuild')")
            conn.execute(text(
                "DELETE FROM search_fts WHERE rowid IN (SELECT f.rowid FROM search_fts f "
                "WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = f.rowid))"))
        conn.execute(text(
            "DELETE FROM search_fts_docs WHERE NOT EXISTS "
            "(SELECT 1 FROM items i WHERE i.id = search_fts_docs.item_id)"))

    stored_table = "search_fts_docs"

    def delete(self, conn: Connection, ids: list[int]) -> None:
        conn.execute(text("DELETE FROM search_fts WHERE rowid = :i"), [{"i": i} for i in ids])
        conn.execute(_ids_param("DELETE FROM search_fts_docs WHERE item_id IN :ids"),
                     {"ids": ids})


class _Postgres(_Engine):
    def count_missing(self, session: Session, case_id: int | None) -> int:
        where, params = _scope(case_id)
        return session.connection().execute(text(
            f"SELECT count(*) FROM items i WHERE {where}"
            "NOT EXISTS (SELECT 1 FROM search_pg s WHERE s.item_id = i.id)"), params
        ).scalar_one()

    def count_orphans(self, session: Session) -> int:
        # The foreign key on search_pg.item_id prevents them, unless it was bypassed (a restore
        # with triggers disabled, session_replication_role = replica).
        return session.connection().execute(text(
            "SELECT count(*) FROM search_pg s "
            "WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = s.item_id)")
        ).scalar_one()

    def clear(self, session: Session, *, whole: bool, integrity_ok: bool | None) -> None:
        # The scope's live rows are deleted batch by batch (replace), after their copy is read.
        session.connection().execute(text(
            "DELETE FROM search_pg s WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = "
            "s.item_id)"))

    stored_table = "search_pg"

    def delete(self, conn: Connection, ids: list[int]) -> None:
        conn.execute(_ids_param("DELETE FROM search_pg WHERE item_id IN :ids"), {"ids": ids})
