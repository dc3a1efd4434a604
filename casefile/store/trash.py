"""The Trash: what a delete took out of a workspace, kept row for row until it is restored or
the Trash is emptied.

How it is kept (revision 0009): a delete copies every row it takes away into ``trash_rows``
(one JSON row per deleted row, under one ``trash_entries`` row per delete), then deletes them
for real. A deleted-at marker was the other choice; it was not taken because every query of
the application (lists, search, exports, the graph, suggestions, the CLI) would have had to
learn to skip marked rows, and one that forgot would show a deleted case; with a copy, a
deleted case or item is simply not in the tables the rest of the code reads.

What a delete takes away is found from the schema's foreign keys (:func:`collect`): the root
rows (a case, or some items), then every row that names a taken row through an ``ON DELETE
CASCADE`` key, and so on (an item's kind row, a document's passages and mentions, the
evidence links of a passage or an item, a follow-up's status history, a case's change log).
A row that stays but names a taken row through an ``ON DELETE SET NULL`` key (a person's
affiliation, a mention tied to a deleted item, a relationship's passage) keeps its id and the
old value is recorded as an ``unset`` row, so a restore puts the reference back.

:func:`put_back` inserts the rows again, parents first, under their own ids. An id taken
since (SQLite gives the highest id again after the row holding it was deleted) gets a new one,
and every reference to it in the entry follows. A reference to a row outside the entry that
no longer exists is set to NULL when the column allows it, else the row is left out (an
evidence link whose item was deleted since) and counted in ``left_out``. A case title or a
follow-up's calendar UID taken since gets " (restored)" / a new UUID. Original file bytes
(``blobs``) stay while any document or Trash entry names them, so the documents of an entry
always find theirs; emptying the Trash (:func:`drop_for_good`) deletes those nothing names any
more (ARCHITECTURE.md, "The Trash": deleted for good means gone from the file).

Row values are stored as JSON: dates and times as ISO 8601 text, turned back into their
column's type on the way in. No Qt, no services here.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    delete,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from casefile.errors import ConflictError
from casefile.store.base import Base, utcnow
from casefile.store.row_values import plain_value, typed_row

#: The Trash's own tables (never collected into an entry).
TRASH_TABLES = ("trash_entries", "trash_rows")
#: References without a foreign key that still name rows: (table, column) -> the table named.
LOOSE_REFS = {("change_log", "item_id"): "items"}
#: Rows per ``IN (...)`` list (SQLite allows 32,766 bound values; PostgreSQL more).
CHUNK = 500


class TrashEntry(Base):
    """One delete: ``what`` is ``"case"`` or ``"items"``; ``case_id`` / ``case_title`` the case
    it came from (for a case, the case itself; no foreign key, since the case may be in the
    Trash too); ``label`` what was deleted, for people ("case “Harbor audit”", "person “Ann
    Lee”", "3 items"); ``deleted`` when (UTC); ``counts`` rows by table; ``item_ids`` the ids
    the deleted items had (in the order asked for)."""

    __tablename__ = "trash_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    what: Mapped[str] = mapped_column(String(20))
    case_id: Mapped[int | None] = mapped_column(Integer, index=True)
    case_title: Mapped[str] = mapped_column(String(300), default="")
    label: Mapped[str] = mapped_column(Text, default="")
    deleted: Mapped[dt.datetime] = mapped_column(default=utcnow)
    counts: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    item_ids: Mapped[list[int]] = mapped_column(JSON, default=list)


class TrashRow(Base):
    """One row an entry took away (``op`` ``"row"``: ``data`` is the row, column -> value) or
    one reference it unset in a row that stayed (``op`` ``"unset"``: ``data`` is ``{"id",
    "column", "value"}``), of table ``table_name``; ``seq`` keeps the order they are put back
    in."""

    __tablename__ = "trash_rows"

    id: Mapped[int] = mapped_column(primary_key=True)
    entry_id: Mapped[int] = mapped_column(
        ForeignKey("trash_entries.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    table_name: Mapped[str] = mapped_column(String(60))
    op: Mapped[str] = mapped_column(String(10), default="row")
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


def _tables() -> list[Table]:
    """The workspace's tables in insert order (parents first), the Trash's own left out."""
    return [t for t in Base.metadata.sorted_tables if t.name not in TRASH_TABLES]


def _table(name: str) -> Table:
    return Base.metadata.tables[name]


def _family(table: Table) -> str:
    """The table whose ids a table's ``id`` column holds: an item kind table's ids are item
    ids (``items``); every other table has its own."""
    fks = [fk for fk in table.c.id.foreign_keys] if "id" in table.c else []
    return fks[0].column.table.name if fks else table.name


def _chunks(values: Sequence[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(values), CHUNK):
        yield list(values[start:start + CHUNK])


@dataclass
class Removal:
    """What deleting some root rows takes away: ``rows`` (table -> rows as plain values,
    parents first, each table's rows by id) and ``unset`` (``(table, id, column, old value)``
    for references in rows that stay)."""

    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    unset: list[tuple[str, int, str, Any]] = field(default_factory=list)

    def ids(self, table: str) -> list[int]:
        """The ids of the rows of ``table`` taken away."""
        return [int(r["id"]) for r in self.rows.get(table, [])]

    def counts(self) -> dict[str, int]:
        """Rows taken away by table."""
        return {name: len(rows) for name, rows in self.rows.items() if rows}


def collect(session: Session, roots: Mapping[str, Iterable[int]]) -> Removal:
    """Everything deleting the rows ``roots`` (table name -> ids) takes away, found through the
    foreign keys (module docstring). Reads only. Raises ConflictError when a row outside would
    block the delete (a foreign key without ON DELETE CASCADE or SET NULL)."""
    session.flush()
    tables = _tables()
    taken: dict[str, set[int]] = defaultdict(set)
    unset: dict[tuple[str, int, str], Any] = {}
    queue: deque[tuple[str, list[int]]] = deque()
    for name, ids in roots.items():
        fresh = sorted({int(i) for i in ids})
        taken[name].update(fresh)
        queue.append((name, fresh))
    while queue:
        parent, ids = queue.popleft()
        for child in tables:
            for fk in child.foreign_keys:
                if fk.column.table.name != parent:
                    continue
                column = fk.parent
                found: list[tuple[int, Any]] = []
                for chunk in _chunks(ids):
                    found += [(int(r[0]), r[1]) for r in session.execute(
                        select(child.c.id, column).where(column.in_(chunk)))]
                rule = (fk.ondelete or "").upper()
                if rule == "CASCADE":
                    new = sorted({i for i, _v in found} - taken[child.name])
                    if new:
                        taken[child.name].update(new)
                        queue.append((child.name, new))
                elif rule == "SET NULL":
                    for row_id, value in found:
                        unset[(child.name, row_id, column.name)] = value
                elif found:
                    raise ConflictError(f"cannot delete: {len(found)} {child.name} row(s) "
                                        f"still name the {parent} row(s) taken away")
    removal = Removal()
    for table in tables:
        ids = sorted(taken.get(table.name, ()))
        if not ids:
            continue
        rows: list[dict[str, Any]] = []
        for chunk in _chunks(ids):
            rows += [{k: plain_value(v) for k, v in r._mapping.items()} for r in session.execute(
                select(table).where(table.c.id.in_(chunk)).order_by(table.c.id))]
        removal.rows[table.name] = sorted(rows, key=lambda r: int(r["id"]))
    removal.unset = [(t, i, c, v) for (t, i, c), v in sorted(unset.items(), key=str)
                     if i not in taken.get(t, set())]
    return removal


def remove(session: Session, removal: Removal) -> None:
    """Delete what :func:`collect` found: unset the references that stay, then delete the rows,
    children first. The session's objects for deleted rows are let go and the others expired
    (so they are read again)."""
    session.flush()
    by_column: dict[tuple[str, str], list[int]] = defaultdict(list)
    for name, row_id, column, _value in removal.unset:
        by_column[(name, column)].append(row_id)
    for (name, column), ids in by_column.items():
        table = _table(name)
        for chunk in _chunks(ids):
            session.execute(update(table).where(table.c.id.in_(chunk)).values({column: None}))
    for table in reversed(_tables()):
        ids = removal.ids(table.name)
        for chunk in _chunks(ids):
            session.execute(delete(table).where(table.c.id.in_(chunk)))
    _forget(session, {name: set(removal.ids(name)) for name in removal.rows})


def _forget(session: Session, gone: Mapping[str, set[int]]) -> None:
    """Expunge the session's objects whose rows are in ``gone``; expire the rest."""
    for obj in list(session.identity_map.values()):
        ident: tuple[Any, ...] = inspect(obj).identity or ()  # the key, without a load
        tables = [t.name for t in getattr(inspect(type(obj)), "tables", ())]
        if len(ident) == 1 and any(ident[0] in gone.get(t, set()) for t in tables):
            session.expunge(obj)
    session.expire_all()


def store(session: Session, entry: TrashEntry, removal: Removal) -> None:
    """Write ``removal`` into the Trash under ``entry`` (added and flushed here)."""
    entry.counts = removal.counts()
    session.add(entry)
    session.flush()
    rows: list[dict[str, Any]] = []
    for name, table_rows in removal.rows.items():
        rows += [{"entry_id": entry.id, "seq": len(rows) + n, "table_name": name, "op": "row",
                  "data": row} for n, row in enumerate(table_rows)]
    rows += [{"entry_id": entry.id, "seq": len(rows) + n, "table_name": name, "op": "unset",
              "data": {"id": row_id, "column": column, "value": plain_value(value)}}
             for n, (name, row_id, column, value) in enumerate(removal.unset)]
    table = _table("trash_rows")
    for chunk in _chunks(rows):
        session.execute(insert(table), chunk)


def load(session: Session, entry_id: int) -> Removal:
    """The rows kept under entry ``entry_id`` (empty when it has none)."""
    removal = Removal()
    table = _table("trash_rows")
    for name, op, data in session.execute(
            select(table.c.table_name, table.c.op, table.c.data)
            .where(table.c.entry_id == entry_id).order_by(table.c.seq)):
        if op == "row":
            removal.rows.setdefault(name, []).append(dict(data))
        else:
            removal.unset.append((name, int(data["id"]), str(data["column"]), data["value"]))
    return removal


@dataclass
class PutBack:
    """What :func:`put_back` did: ``ids`` (id family -> {id in the entry: id now}; ``items``
    for every item kind), ``left_out`` (table -> rows that could not come back), ``renamed``
    (a case title taken since: (kept title, title given))."""

    ids: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(dict))
    left_out: Counter[str] = field(default_factory=Counter)
    renamed: tuple[str, str] | None = None

    def new_id(self, family: str, old: int) -> int | None:
        """The id the row ``old`` of ``family`` has now (None: left out)."""
        return self.ids.get(family, {}).get(int(old))

    @property
    def remapped(self) -> bool:
        """True when some row came back under another id."""
        return any(old != new for ids in self.ids.values() for old, new in ids.items())


def _present(session: Session, family: str, ids: Iterable[int]) -> set[int]:
    """Those of ``ids`` that are rows of table ``family`` now."""
    table = _table(family)
    found: set[int] = set()
    for chunk in _chunks(sorted({int(i) for i in ids})):
        found.update(int(i) for i in session.scalars(select(table.c.id).where(
            table.c.id.in_(chunk))))
    return found


def _free_unique(session: Session, table: Table, values: dict[str, Any],
                 put: PutBack) -> None:
    """Give a unique column's value taken since a free one (a case title gets " (restored)", a
    calendar UID a new UUID)."""
    for column in table.columns:
        if not column.unique or values.get(column.name) is None:
            continue
        value = values[column.name]
        if session.scalar(select(column).where(column == value).limit(1)) is None:
            continue
        if column.name == "uid":
            values[column.name] = str(uuid.uuid4())
            continue
        n, candidate = 1, f"{value} (restored)"
        while session.scalar(select(column).where(column == candidate).limit(1)) is not None:
            n += 1
            candidate = f"{value} (restored {n})"
        values[column.name] = candidate
        if table.name == "cases":
            put.renamed = (str(value), candidate)


def put_back(session: Session, removal: Removal) -> PutBack:
    """Insert the rows of ``removal`` again, parents first, under their own ids where free, and
    put back the references it unset (module docstring). Returns what happened."""
    session.flush()
    put = PutBack()
    gone: dict[str, set[int]] = defaultdict(set)  # entry ids left out, by family
    for table in _tables():
        rows = removal.rows.get(table.name)
        if not rows:
            continue
        family = _family(table)
        refs = [(fk.parent, fk.column.table.name) for fk in table.foreign_keys
                if fk.parent.name != "id" or family == table.name]
        own_is_ref = family != table.name
        outside: dict[str, set[int]] = defaultdict(set)
        for row in rows:
            for column, target in refs:
                value = row.get(column.name)
                target_family = _family(_table(target)) if target != "blobs" else target
                if (value is not None and target != "blobs"
                        and put.new_id(target_family, value) is None):
                    outside[target_family].add(int(value))
        present = {fam: _present(session, fam, ids) - gone[fam]
                   for fam, ids in outside.items()}
        taken = _present(session, table.name, [r["id"] for r in rows]) if not own_is_ref \
            else set()
        moved: list[tuple[int, dict[str, Any]]] = []
        for row in rows:
            values = typed_row(table, row)
            old_id = int(values["id"])
            keep = True
            if own_is_ref:
                new_id = put.new_id(family, old_id)
                if new_id is None:
                    keep = False
                else:
                    values["id"] = new_id
            for column, target in refs if keep else ():
                value = values.get(column.name)
                if value is None or target == "blobs":
                    continue
                target_family = _family(_table(target))
                mapped = put.new_id(target_family, value)
                if mapped is not None:
                    values[column.name] = mapped
                elif int(value) in present.get(target_family, set()):
                    pass  # a row outside the entry, still there
                elif column.nullable:
                    values[column.name] = None
                else:
                    keep = False
            if not keep:
                put.left_out[table.name] += 1
                gone[family].add(old_id)
                continue
            for (loose_table, loose_column), target in LOOSE_REFS.items():
                if loose_table == table.name and values.get(loose_column) is not None:
                    mapped = put.new_id(target, values[loose_column])
                    values[loose_column] = mapped if mapped is not None else values[
                        loose_column]
            _free_unique(session, table, values, put)
            if own_is_ref or old_id not in taken:
                session.execute(insert(table), values)
                if not own_is_ref:
                    put.ids[family][old_id] = old_id
            else:
                moved.append((old_id, values))
        for old_id, values in moved:  # after the rows kept under their ids: no clash
            values.pop("id")
            new = session.execute(insert(table).returning(table.c.id), values).scalar_one()
            put.ids[family][old_id] = int(new)
    for name, row_id, column_name, value in removal.unset:
        table = _table(name)
        column = table.c[column_name]
        target_family = _family(next(iter(column.foreign_keys)).column.table)
        mapped = put.new_id(target_family, value) if value is not None else None
        if mapped is None:
            continue
        session.execute(update(table).where(table.c.id == row_id, column.is_(None))
                        .values({column_name: mapped}))
    session.flush()
    session.expire_all()
    return put


def drop(session: Session, entry_ids: Iterable[int]) -> int:
    """Delete Trash entries with their rows, for good; returns how many went."""
    ids = sorted({int(i) for i in entry_ids})
    entries, rows = _table("trash_entries"), _table("trash_rows")
    for chunk in _chunks(ids):
        session.execute(delete(rows).where(rows.c.entry_id.in_(chunk)))
        session.execute(delete(entries).where(entries.c.id.in_(chunk)))
    _forget(session, {"trash_entries": set(ids)})
    return len(ids)


def _kept_documents_blobs(session: Session, entry_ids: Sequence[int]) -> set[str]:
    """The SHA-256s of the original files of documents kept under ``entry_ids``."""
    rows = _table("trash_rows")
    found: set[str] = set()
    for chunk in _chunks(list(entry_ids)):
        for (data,) in session.execute(select(rows.c.data).where(
                rows.c.entry_id.in_(chunk), rows.c.table_name == "documents",
                rows.c.op == "row")):
            if isinstance(data, Mapping) and data.get("sha256"):
                found.add(str(data["sha256"]))
    return found


def drop_for_good(session: Session, entry_ids: Iterable[int]) -> tuple[int, int]:
    """:func:`drop` the entries, then delete the original file bytes (``blobs``) that only
    their documents used: no document in the workspace and none left in the Trash names them.
    Returns (entries dropped, blobs deleted)."""
    ids = sorted({int(i) for i in entry_ids})
    candidates = _kept_documents_blobs(session, ids)
    n = drop(session, ids)
    if not candidates:
        return n, 0
    documents, blobs, rows = _table("documents"), _table("blobs"), _table("trash_rows")
    used = set(session.scalars(select(documents.c.sha256).where(
        documents.c.sha256.in_(sorted(candidates)))))
    others = [int(i) for i in session.scalars(select(rows.c.entry_id).distinct())]
    used |= _kept_documents_blobs(session, others)
    gone = sorted(candidates - used)
    for chunk in _chunks(gone):
        session.execute(delete(blobs).where(blobs.c.sha256.in_(chunk)))
    return n, len(gone)
