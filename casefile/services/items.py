"""Create, edit, delete and list the items of a case (people, organizations, places, events...).

Every function takes an open Session and plain values, does one user action, writes one
ChangeLog row and keeps the search index current; the caller commits (one transaction).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from casefile.errors import (
    CasefileError,
    ConflictError,
    FieldConflict,
    NotFoundError,
    ValidationError,
)
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.relationships import sync_affiliation
from casefile.store import search, utcnow
from casefile.store.conflicts import is_write_conflict
from casefile.store.items import (
    CLAIM_STATUSES,
    DATE_PRECISIONS,
    DOCUMENT_STATUSES,
    MODELS,
    QUESTION_KINDS,
    QUESTION_STATUSES,
    Document,
    Item,
    Organization,
    Person,
    Place,
    Question,
)

#: Editable fields of each kind besides the common ones (title, notes, confidential).
FIELDS: dict[str, tuple[str, ...]] = {
    "person": ("aliases", "role", "affiliation_id", "contact", "identifying_phrases"),
    "organization": ("aliases", "org_kind", "jurisdiction", "parent_id"),
    "place": ("aliases",),
    "document": ("doc_kind", "author", "outlet", "url", "published", "retrieved", "status"),
    "event": ("date", "precision", "end", "place_id", "description"),
    "claim": ("statement", "status", "status_reason", "attributed_to_id", "attributed_to_text",
              "via_id"),
    "question": ("question_kind", "status", "due", "ask_id", "answer", "answered_at",
                 "answered_by_passage_id", "answered_by_document_id"),
}
COMMON_FIELDS = ("title", "notes", "confidential")
DATE_FIELDS = {"published", "retrieved", "date", "end", "due", "answered_at"}
REF_FIELDS = {
    "affiliation_id": (Organization,),
    "parent_id": (Organization, Document),
    "place_id": (Place,),
    "attributed_to_id": (Person, Organization),
    "via_id": (Document, Organization),
    "ask_id": (Person, Organization),
    "answered_by_document_id": (Document,),
}
VOCABULARIES: dict[str, tuple[str, ...]] = {
    "precision": DATE_PRECISIONS,
    "question_kind": QUESTION_KINDS,
    "claim.status": CLAIM_STATUSES,
    "question.status": QUESTION_STATUSES,
    "document.status": DOCUMENT_STATUSES,
}


def parse_date(value: date | str | None, field: str = "date") -> date | None:
    """Accept a date, an ISO 8601 ``YYYY-MM-DD`` string, or None. Raises ValidationError."""
    if value is None or value == "":
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError as exc:
        raise ValidationError(f"{field} must be a date like 2018-02-23, not {value!r}") from exc


def _check_value(session: Session, item: Item, field: str, value: Any) -> Any:
    if field in DATE_FIELDS:
        return parse_date(value, field)
    if field == "title":
        value = (value or "").strip()
        if not value:
            raise ValidationError(f"a {item.kind} needs a name or title")
        return value
    if field == "aliases":
        return [a.strip() for a in (value or []) if a and a.strip()]
    if field == "identifying_phrases":
        if isinstance(value, str):
            raise ValidationError("identifying phrases are a list of phrases, not one string")
        phrases = [" ".join(p.split()) for p in (value or []) if p and p.strip()]
        short = [p for p in phrases if len(p) < 3]
        if short:
            raise ValidationError(f"an identifying phrase needs at least 3 characters, not "
                                  f"{short[0]!r} (it would be withheld everywhere it appears)")
        return list(dict.fromkeys(phrases))
    if field == "confidential":
        return bool(value)
    vocab = VOCABULARIES.get(f"{item.kind}.{field}") or VOCABULARIES.get(field)
    if vocab is not None and value not in vocab:
        raise ValidationError(f"{field} must be one of {', '.join(vocab)}; got {value!r}")
    if field in REF_FIELDS and value is not None:
        target = session.get(Item, value)
        allowed = REF_FIELDS[field]
        if target is None or target.case_id != item.case_id or not isinstance(target, allowed):
            kinds = " or ".join(m.__name__.lower() for m in allowed)
            raise ValidationError(f"{field} must name a {kinds} of the same case")
    return value


def search_parts(item: Item) -> tuple[str, str]:
    """What is indexed for an item besides its title: ``(body, text)``, where ``body`` is the
    notes, aliases, role, description, statement, answer, author, outlet... joined by newlines,
    and ``text`` a document's extracted text ("" for other items), which the index does not copy
    (``casefile.store.search.IndexRow``)."""
    parts: list[str] = [item.notes or ""]
    for attr in ("aliases", "identifying_phrases"):
        parts.extend(getattr(item, attr, None) or [])
    is_document = isinstance(item, Document)
    for attr in ("role", "description", "statement", "answer", "author", "outlet", "text",
                 "attributed_to_text"):
        if attr == "text" and is_document:
            continue  # last of a document's parts, kept apart
        value = getattr(item, attr, None)
        if isinstance(value, str):
            parts.append(value)
    doc_text = item.text if isinstance(item, Document) else None
    return "\n".join(p for p in parts if p), doc_text or ""


def search_body(item: Item) -> str:
    """The text indexed for an item besides its title (notes, aliases, role, document text...)."""
    body, doc_text = search_parts(item)
    return body + "\n" + doc_text if body and doc_text else body or doc_text


def reindex(session: Session, item: Item, *, new: bool = False) -> None:
    """Refresh the search index row of ``item`` (``new``: it was never indexed, just inserted)."""
    body, doc_text = search_parts(item)
    search.index_item(session, item.id, item.case_id, item.title, body, text=doc_text, new=new)


def model_of(kind: str) -> type[Item]:
    """The model class of an item kind ("person", ...). Raises ValidationError for an unknown
    kind, naming the kinds there are."""
    model = MODELS.get(kind)
    if model is None:
        raise ValidationError(f"unknown item kind {kind!r}; use one of {', '.join(MODELS)}")
    return model


def create_item(session: Session, case_id: int, kind: str, title: str, **fields: Any) -> Item:
    """Create an item of ``kind`` ("person", "organization", ...) titled ``title``.

    ``fields`` are the kind's editable fields (see FIELDS), e.g. ``role="Sheriff"``,
    ``affiliation_id=7``, ``due="2018-03-02"``. Raises ValidationError for an unknown kind or
    field, a bad value, or a reference to an item of another case; NotFoundError for no case.
    """
    get_case(session, case_id)
    item = model_of(kind)(case_id=case_id)
    allowed = set(FIELDS[kind]) | set(COMMON_FIELDS)
    values = {"title": title, **fields}
    for field, value in values.items():
        if field not in allowed:
            raise ValidationError(f"a {kind} has no field {field!r}")
        setattr(item, field, _check_value(session, item, field, value))
    if isinstance(item, Question) and item.status is None:
        item.status = "open"
    session.add(item)
    session.flush()
    reindex(session, item, new=True)
    log_change(session, f"{kind}.create", case_id=case_id, item_id=item.id, summary=item.title)
    if isinstance(item, Person) and item.affiliation_id is not None:
        sync_affiliation(session, item.id)
    return item


def get_item(session: Session, item_id: int) -> Item:
    """The item with this id (its subclass instance). Raises NotFoundError."""
    item = lookup.row(session, Item, item_id,
                      f"no item with id {item_id} (it may have been deleted)")
    return item


def update_item(
    session: Session, item_id: int, *, expected_version: int | None = None,
    loaded: Mapping[str, Any] | None = None, **fields: Any,
) -> Item:
    """Change some fields of an item; returns it with its new version.

    ``expected_version`` is the version the editor loaded: if the stored item has moved on
    (checked here, or found by the version column or the database when writing), ConflictError
    names the item and nothing of this call is stored (the caller's transaction cannot commit
    after a failed write; roll it back). The error carries, for each field in ``fields``, your
    value, the value stored now and the stored version (see ``errors.ConflictError``);
    ``loaded`` (optional, field -> value) gives the values the editor started from, shown as
    each field's ``base``. Raises ValidationError for unknown fields or bad values,
    NotFoundError when the item is gone (also when another writer deleted it meanwhile).
    """
    item = get_item(session, item_id)
    kind, title = item.kind, item.title
    if expected_version is not None and item.version != expected_version:
        raise _conflict(session, item_id, kind, title, fields, dict(loaded or {}))
    allowed = set(FIELDS[item.kind]) | set(COMMON_FIELDS)
    before: dict[str, Any] = {}
    started: dict[str, Any] = {}
    for field, value in fields.items():
        if field not in allowed:
            raise ValidationError(f"a {item.kind} has no field {field!r}")
        new = _check_value(session, item, field, value)
        old = getattr(item, field)
        started[field] = list(old) if isinstance(old, list) else old
        before[field] = _jsonable(old)
        setattr(item, field, new)
        if field == "status" and isinstance(item, Question):
            item.status_changed = utcnow()
    try:
        session.flush()
    except StaleDataError as exc:  # the version column moved on: another session saved first
        raise _conflict(session, item_id, kind, title, fields,
                        {**started, **(loaded or {})}) from exc
    except DBAPIError as exc:  # SQLite: a stale snapshot may not write (store.conflicts)
        if is_write_conflict(exc):
            raise _conflict(session, item_id, kind, title, fields,
                            {**started, **(loaded or {})}) from exc
        raise
    reindex(session, item)
    log_change(
        session, f"{item.kind}.update", case_id=item.case_id, item_id=item.id,
        summary=", ".join(sorted(fields)), data={"before": before},
    )
    if isinstance(item, Person) and "affiliation_id" in fields \
            and before.get("affiliation_id") != item.affiliation_id:
        sync_affiliation(session, item.id)
    return item


def display_value(session: Session, field: str, value: Any) -> str:
    """A field's value as a person reads it: "" for no value, dates ISO 8601 (2018-02-23),
    lists joined by ", ", yes/no, a reference field (``affiliation_id``...) as the title of the
    item it names (or "item 12 (deleted)")."""
    if value is None or value == "" or value == []:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if field in REF_FIELDS or field == "answered_by_passage_id":
        target = session.get(Item, value) if field in REF_FIELDS else None
        if target is not None:
            return target.title
        return f"item {value} (deleted)" if field in REF_FIELDS else f"passage {value}"
    return str(value)


def _conflict(session: Session, item_id: int, kind: str, title: str,
              yours: Mapping[str, Any], started: Mapping[str, Any]) -> CasefileError:
    """The ConflictError describing ``yours`` against what is stored now (or NotFoundError if
    the other writer deleted the item).

    The stored values are read in a new session on the same engine: the caller's transaction
    may be failed (a refused write) or, on SQLite, hold a snapshot older than the other
    writer's commit; it is left alone for the caller to roll back.
    """
    bind = session.get_bind()
    engine = bind.engine if isinstance(bind, Connection) else bind
    with Session(engine) as fresh, fresh.begin():
        stored = fresh.get(Item, item_id)
        if stored is None:
            return NotFoundError(f"{kind} {title!r} was deleted by someone else since you "
                                 "opened it")
        allowed = set(FIELDS[stored.kind]) | set(COMMON_FIELDS)
        details = []
        for name in sorted(yours, key=_field_order(stored.kind)):
            if name not in allowed:
                continue
            theirs = getattr(stored, name)
            theirs = list(theirs) if isinstance(theirs, list) else theirs
            known = name in started
            base = started.get(name)
            details.append(FieldConflict(
                name=name, yours=yours[name], theirs=theirs,
                yours_text=display_value(fresh, name, yours[name]),
                theirs_text=display_value(fresh, name, theirs),
                base=base, base_text=display_value(fresh, name, base) if known else None,
            ))
        return ConflictError(
            f"{stored.kind} {stored.title!r} was changed by someone else since you opened it; "
            "reload it and apply your change again",
            item_id=stored.id, title=stored.title, kind=stored.kind, version=stored.version,
            fields=details,
        )


def _field_order(kind: str) -> Callable[[str], int]:
    """Sort key putting fields in the order an editor shows them (title first, notes last)."""
    order = ("title", *FIELDS[kind], "notes", "confidential")
    return lambda name: order.index(name) if name in order else len(order)


def _jsonable(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    return value


def delete_item(session: Session, item_id: int) -> None:
    """Delete an item with its evidence links (and, for a document, its passages)."""
    item = get_item(session, item_id)
    search.unindex_item(session, item.id)
    log_change(session, f"{item.kind}.delete", case_id=item.case_id, item_id=item.id,
               summary=item.title)
    session.delete(item)
    session.flush()


def list_items(session: Session, case_id: int, kind: str | None = None) -> list[Item]:
    """Items of a case, optionally of one kind, ordered by kind then title."""
    model = model_of(kind) if kind else Item
    stmt = select(model).where(model.case_id == case_id).order_by(model.kind, model.title)
    return list(session.scalars(stmt))


def find_item(session: Session, case_id: int, title: str, kind: str | None = None) -> Item:
    """The item of the case with this exact title (or alias). Raises NotFoundError."""
    for item in list_items(session, case_id, kind):
        if item.title == title or title in (getattr(item, "aliases", None) or []):
            return item
    raise NotFoundError(f"no {kind or 'item'} named {title!r} in this case")
