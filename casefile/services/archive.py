"""Case archives: one case, whole, in one file to hand to a colleague or move to another
machine. The file format is :mod:`casefile.export.archive_file`.

:func:`export_archive` writes the case's rows of every table (:data:`CASE_TABLES`: the case,
its items with their kind tables, passages, evidence links, relationships, mentions, follow-up
status history, change log, the names its watch list holds with their hits) and the original
bytes of its documents. :func:`import_archive` reads one back into a workspace as a new case:
every id is given anew and every reference remapped, original bytes the workspace already
holds are shared rather than stored twice (a document with the same bytes merges its blob), and
the search index is built for the new items.
A case title already taken gets " (imported)" added; a follow-up's calendar UID already taken
gets a new one. The round trip is lossless: exporting the imported case gives the same rows and
bytes, ids aside (tests/services/test_case_archive.py compares every row of every table).

Confidentiality (the brief's rule, ARCHITECTURE.md, "Exports protect confidential sources"):
unless ``include_confidential`` is set, a case holding confidential items is refused
with a message naming them, because the archive carries every document's text and every quote
whole, where a withheld source's name would still stand. ``include_confidential`` is the
deliberate choice of handing sources on; sealing the archive with a passphrase is then advised.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Table, insert, select, text, update
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.orm import Session

from casefile import __version__
from casefile.errors import ValidationError
from casefile.export.archive_file import (
    ArchiveContent,
    ArchiveError,
    OpenArchive,
    open_archive,
    write_archive,
)
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.store import Case, Item
from casefile.store.base import Base
from casefile.store.row_values import plain_value, typed_row

#: The tables an archive holds, in insert order (parents first).
CASE_TABLES = ("cases", "items", "people", "organizations", "places", "documents", "events",
               "claims", "passages", "questions", "evidence_links", "relationships", "mentions",
               "question_status_changes", "change_log", "watch_names", "watch_hits")
#: Tables added after the first archives: an archive without them has none of their rows.
LATER_TABLES = ("watch_names", "watch_hits")
#: Tables whose primary key is an item id (one row per item of that kind).
KIND_TABLES = ("people", "organizations", "places", "documents", "events", "claims",
               "questions")
#: Loose references (no foreign key in the schema) that still name rows: (table, column) ->
#: the table they name.
LOOSE_REFS = {("change_log", "item_id"): "items"}


def _table(name: str) -> Table:
    return Base.metadata.tables[name]


def _refs(table: Table) -> dict[str, str]:
    """Column -> the table its values name (foreign keys and :data:`LOOSE_REFS`); a kind
    table's ``id`` names ``items``."""
    out = {c.name: next(iter(c.foreign_keys)).column.table.name
           for c in table.columns if c.foreign_keys}
    out.update({col: target for (tab, col), target in LOOSE_REFS.items() if tab == table.name})
    return out


def _select_rows(session: Session, name: str, case_id: int,
                 item_ids: list[int], question_ids: list[int]) -> list[dict[str, Any]]:
    table = _table(name)
    if name == "cases":
        where: Any = table.c.id == case_id
    elif name == "watch_hits":  # the case's own names; the workspace's stay in the workspace
        names = _table("watch_names")
        where = table.c.watch_name_id.in_(select(names.c.id).where(names.c.case_id == case_id))
    elif "case_id" in table.c:
        where = table.c.case_id == case_id
    elif name in KIND_TABLES:
        where = table.c.id.in_(item_ids)
    elif name == "question_status_changes":
        where = table.c.question_id.in_(question_ids)
    else:  # a new table without a rule here: the archive would lose it
        raise ArchiveError(f"the archive has no rule for table {name!r}")
    rows = session.execute(select(table).where(where).order_by(*table.primary_key.columns))
    return [{k: plain_value(v) for k, v in row._mapping.items()} for row in rows]


def confidential_titles(session: Session, case_id: int) -> list[str]:
    """Titles of the case's items flagged confidential, by id."""
    return list(session.scalars(select(Item.title).where(
        Item.case_id == case_id, Item.confidential.is_(True)).order_by(Item.id)))


def case_content(session: Session, case_id: int) -> ArchiveContent:
    """Every row of the case (:data:`CASE_TABLES`) and its documents' original bytes."""
    from casefile.store import Blob, Document, Question

    case = get_case(session, case_id)
    item_ids = list(session.scalars(select(Item.id).where(Item.case_id == case_id)))
    question_ids = list(session.scalars(select(Question.id).where(Question.case_id == case_id)))
    tables = {name: _select_rows(session, name, case_id, item_ids, question_ids)
              for name in CASE_TABLES}
    shas = sorted({s for s in session.scalars(select(Document.sha256).where(
        Document.case_id == case_id)) if s})
    blobs = {b.sha256: bytes(b.data) for b in session.scalars(
        select(Blob).where(Blob.sha256.in_(shas)))}
    manifest = {"case": case.title, "created": dt.datetime.now(dt.UTC).isoformat(),
                "casefile": __version__, "schema": session.execute(
                    text("SELECT version_num FROM alembic_version")).scalar()}
    return ArchiveContent(manifest, tables, blobs)


def export_archive(session: Session, case_id: int, target: Path, *,
                   passphrase: str | None = None, include_confidential: bool = False) -> Path:
    """Write the case's archive to ``target`` (sealed with ``passphrase`` when given); logs
    ``archive.export``. Raises NotFoundError (case), ValidationError (confidential items without
    ``include_confidential``, module docstring) or ArchiveError (file not writable)."""
    secret = confidential_titles(session, case_id)
    if secret and not include_confidential:
        shown = ", ".join(f"“{t}”" for t in secret[:3]) + (" …" if len(secret) > 3 else "")
        raise ValidationError(
            f"the case holds {len(secret)} confidential "
            f"{'item' if len(secret) == 1 else 'items'} ({shown}); an archive carries "
            "every document and quote whole, so export it with confidential items included "
            "(and a passphrase), or unmark them first")
    content = case_content(session, case_id)
    write_archive(content, target, passphrase=passphrase)
    log_change(session, "archive.export", case_id=case_id, summary=str(target),
               data={"sealed": bool(passphrase), "include_confidential": include_confidential})
    return target


@dataclass(frozen=True)
class ArchiveImport:
    """What :func:`import_archive` did: the new case's ``case_id`` and ``title``, ``rows``
    (table -> rows inserted), ``shared_blobs`` (original bytes the workspace already held)."""

    case_id: int
    title: str
    rows: dict[str, int]
    shared_blobs: int

    def summary(self) -> str:
        items = self.rows.get("items", 0)
        shared = (f"; {self.shared_blobs} document(s) share bytes already in this workspace"
                  if self.shared_blobs else "")
        return (f"imported case “{self.title}”: {items} items, {self.rows.get('passages', 0)} "
                f"passages, {self.rows.get('evidence_links', 0)} evidence links{shared}")


def _free_title(session: Session, title: str) -> str:
    taken = set(session.scalars(select(Case.title)))
    candidate, n = title, 1
    while candidate in taken:
        candidate = f"{title} (imported)" if n == 1 else f"{title} (imported {n})"
        n += 1
    return candidate


def import_archive(session: Session, path: Path, *, passphrase: str | None = None,
                   progress: Callable[[int, int], None] | None = None) -> ArchiveImport:
    """Read the archive at ``path`` (verified first, see
    :func:`casefile.export.archive_file.open_archive`) into the workspace as a new case, in the
    caller's transaction (module docstring). Original bytes are read and stored one document
    at a time, so memory holds the tables and one document's bytes, not the whole case.

    Raises ArchiveError (one sentence) for a damaged, truncated, hostile or foreign file, a
    row whose values do not fit its table, or a sealed file without its passphrase
    (ArchivePassphraseError); nothing is stored: the caller's transaction is not committed.
    """
    at: dict[str, Any] = {}  # the table and row being stored, for the message
    with open_archive(path, passphrase=passphrase) as opened:
        try:
            return _import_opened(session, path, opened, progress, at)
        except ArchiveError:
            raise
        except (StatementError, ValueError, TypeError, KeyError, AttributeError,
                OverflowError) as exc:
            if isinstance(exc, IntegrityError):  # a required value missing, a duplicate...
                problem = "a row that this workspace cannot store"
            else:
                problem = "values of the wrong kind"
            where = (f" (tables/{at['table']}.json, row {at.get('row', '?')})"
                     if "table" in at else "")
            raise ArchiveError(f"{path.name} was not imported: it holds {problem}{where}; "
                               "the archive was damaged or written by another program") \
                from exc


def _import_opened(session: Session, path: Path, opened: OpenArchive,
                   progress: Callable[[int, int], None] | None,
                   at: dict[str, Any]) -> ArchiveImport:
    from casefile.services.items import reindex
    from casefile.store import Blob, Question
    from casefile.store.teams import insert_blobs

    tables = opened.tables
    for later in LATER_TABLES:
        tables.setdefault(later, [])
    missing = [t for t in CASE_TABLES if t not in tables]
    if missing or len(tables.get("cases", [])) != 1:
        raise ArchiveError(f"the archive lacks table(s) {', '.join(missing) or 'cases'}")
    ids: dict[str, dict[int, int]] = {name: {} for name in CASE_TABLES}
    ids["items"] = {}
    counts: dict[str, int] = {}
    shared = 0
    wanted = {str(row["sha256"]) for row in tables["documents"] if row.get("sha256")}
    if wanted - set(opened.blobs):
        raise ArchiveError("the archive lacks the original bytes of a document it lists")
    have = set(session.scalars(select(Blob.sha256).where(Blob.sha256.in_(wanted))))
    for sha in sorted(wanted):
        if sha in have:
            shared += 1
        else:
            data = opened.read_blob(sha)
            insert_blobs(session.connection(), _table("blobs"),
                         [{"sha256": sha, "size": len(data), "data": data}])
            del data
    taken_uids = set(session.scalars(select(Question.uid).where(Question.uid.in_(
        [r.get("uid") for r in tables["questions"]]))))
    total = sum(len(tables[t]) for t in CASE_TABLES)
    done = 0
    for name in CASE_TABLES:
        table = _table(name)
        refs = _refs(table)
        columns = {c.name for c in table.columns}
        at["table"] = name
        for number, row in enumerate(tables[name], start=1):
            at["row"] = number
            unknown = set(row) - columns
            if unknown:
                raise ArchiveError(f"tables/{name}.json has an unknown column "
                                   f"{sorted(unknown)[0]!r}")
            values = dict(row)
            old_id = int(values.get("id") or 0)
            for column, target in refs.items():
                value = values.get(column)
                if value is None or target == "blobs":
                    continue
                mapped = ids["items" if target in KIND_TABLES else target].get(int(value))
                if mapped is None:
                    if (name, column) in LOOSE_REFS:
                        values[column] = None  # an item deleted before the export
                        continue
                    raise ArchiveError(f"tables/{name}.json row {old_id} names a missing "
                                       f"{target} row {value}")
                values[column] = mapped
            if name == "cases":
                values["title"] = _free_title(session, str(values["title"]))
            if name == "questions" and values.get("uid") in taken_uids:
                values["uid"] = str(uuid.uuid4())
            if name in KIND_TABLES:  # the id is the item's own, already mapped
                session.execute(insert(table), typed_row(table, values))
            else:
                values.pop("id", None)
                result = session.execute(insert(table).returning(table.c.id),
                                         typed_row(table, values))
                ids[name][old_id] = int(result.scalar_one())
            done += 1
            if progress is not None and done % 200 == 0:
                progress(done, total)
        counts[name] = len(tables[name])
    at.clear()
    case_id = ids["cases"][int(tables["cases"][0]["id"])]
    session.flush()
    from casefile.services.graph import remap_layout  # the graph's positions name items

    kept_layout = tables["cases"][0].get("graph_layout")
    if kept_layout:  # (``updated`` kept as exported)
        session.execute(update(Case).where(Case.id == case_id).values(
            graph_layout=remap_layout(kept_layout, ids["items"]), updated=Case.updated))
    for item in session.scalars(select(Item).where(Item.case_id == case_id)):
        reindex(session, item, new=True)
    title = session.get(Case, case_id).title  # type: ignore[union-attr]
    # Logged outside the case, so the imported case's own change log stays as it was exported.
    log_change(session, "archive.import", case_id=None,
               summary=f"{path.name} -> case {title}", data={"case_id": case_id})
    return ArchiveImport(case_id, title, counts, shared)


def normalized_rows(content: ArchiveContent) -> dict[str, list[dict[str, Any]]]:
    """The archive's rows with every id and reference replaced by its row's rank in its table
    (so two archives of the same case compare equal whatever ids the workspaces gave), and the
    manifest's "created" time left out. For tests and checks."""
    rank = {name: {int(r["id"]): n for n, r in enumerate(rows)}
            for name, rows in content.tables.items() if rows and "id" in rows[0]}
    rank["items"] = rank.get("items", {})
    out: dict[str, list[dict[str, Any]]] = {}
    for name, rows in content.tables.items():
        refs = _refs(_table(name))
        own = "items" if name in KIND_TABLES else name
        fixed = []
        for row in rows:
            values = dict(row)
            if "id" in values:
                values["id"] = rank.get(own, {}).get(int(values["id"]))
            for column, target in refs.items():
                if values.get(column) is not None and target != "blobs":
                    key = "items" if target in KIND_TABLES else target
                    values[column] = rank.get(key, {}).get(int(values[column]))
            fixed.append(values)
        out[name] = fixed
    return out


def blob_digests(content: ArchiveContent) -> Iterable[str]:
    """The SHA-256s of the original bytes in the archive, sorted."""
    return sorted(content.blobs)
