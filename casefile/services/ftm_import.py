"""FollowTheMoney entities (e.g. an OpenSanctions or Aleph export) into a case, as one undoable
user action.

:func:`read_ftm` reads a JSON-lines file of entities (fragments with the same id are merged, as
``ftm aggregate`` does); :func:`import_entities` stores them. Mapping (the reverse of
:mod:`casefile.services.ftm_export`, so an export imports back into the same items):

* ``Person`` -> person (first name the title, other names and aliases as aliases, position as
  role, email / phone / website as contact details); ``Organization`` / ``Company`` /
  ``PublicBody`` / ``LegalEntity`` -> organization (kind from ``classification`` when it is a
  Casefile kind, else Company -> company, PublicBody -> government body); ``Address`` -> place.
* Documents (``Document`` and its descendants) -> a document with the entity's text and
  metadata but no original file (an import note says so); ``Event`` -> event; ``Note`` with the
  keyword "claim" -> claim, "follow-up" -> follow-up, any other Note about an item -> a
  paragraph of that item's notes.
* ``Employment`` -> a person's affiliation (or an "employed by" relationship when they have
  one), ``Membership`` / ``Directorship`` -> "part of", ``Associate`` -> "related to",
  ``Ownership`` -> "part of" between organizations, else "related to", ``UnknownLink`` -> its
  ``role`` when that is a Casefile relationship kind, else "related to" (the role in the note).
* ``Documentation`` -> evidence: the passage whose text is its ``summary`` when the document's
  text holds it, else the whole document (the quote in the note).

Other schemata (Sanction, Family, Vessel...) are counted and skipped. An entity merges into an
item of the same kind already in the case whose notes record its FtM id ("FtM id: ..."), then
whose name or alias equals one of its names (case and spacing aside); a document also merges by
its hashes (the "SHA-256: ..." summary line against the original's SHA-256, or its
contentHash). Merging fills empty fields and adds aliases,
never overwrites. Every item made or merged records the FtM id in its notes.

Errors: :class:`~casefile.errors.ValidationError` for a file that is not FtM JSON lines (the
line named); nothing is stored then.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session, with_polymorphic

from casefile.errors import ValidationError
from casefile.services import evidence, items, passages, questions, relationships
from casefile.services.cases import get_case
from casefile.services.changes import Changes, Step, action, changes
from casefile.services.ftm_export import (
    ANSWERED,
    ATTRIBUTED_TO,
    CAPTURE_FORMAT,
    CAPTURED_UTC,
    CLAIM_KEYWORD,
    CONFIDENTIAL_KEYWORD,
    DUE,
    FOLLOWUP_KEYWORD,
    FTM_ID_LINE,
    JURISDICTION,
    PAGE_SHA256,
    PRECISION_KEYWORDS,
    READING_KEYWORD,
    SHA256,
    STATUS_REASON,
)
from casefile.store.evidence import (
    EVIDENCE_RELATIONS,
    RELATIONSHIP_KINDS,
    EvidenceLink,
    Passage,
    Relationship,
)
from casefile.store.items import (
    CLAIM_STATUSES,
    DOCUMENT_KINDS,
    DOCUMENT_STATUSES,
    ORGANIZATION_KINDS,
    QUESTION_KINDS,
    QUESTION_STATUSES,
    READING_STATES,
    Document,
    Event,
    Item,
    Organization,
    Person,
    Place,
)

if TYPE_CHECKING:
    from followthemoney.proxy import EntityProxy

MAX_ENTITIES = 200_000
#: Import order: things first, then what refers to them.
_ORDER = ("place", "organization", "person", "document", "event", "note", "link", "evidence")


def read_ftm(path: Path) -> list[dict[str, Any]]:
    """The entities of a FtM JSON-lines file as dicts (blank lines skipped; fragments sharing
    an id merged; properties cleaned by the library). Raises ValidationError naming the line
    of a value that is not a FtM entity, or for an unreadable or empty file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ValidationError(f"cannot read {path.name}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{path.name} is not UTF-8 text (FtM files are JSON lines)") \
            from exc
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"{path.name}, line {number}: not JSON ({exc.msg}); "
                                  "a FollowTheMoney file has one entity per line") from exc
        if not isinstance(data, dict):
            raise ValidationError(f"{path.name}, line {number}: not a FollowTheMoney entity")
        rows.append(data)
        if len(rows) > MAX_ENTITIES:
            raise ValidationError(f"{path.name} has over {MAX_ENTITIES:,} entities; the most "
                                  "Casefile imports at once")
    if not rows:
        raise ValidationError(f"{path.name} holds no entities")
    return clean_entities(rows, path.name)


def clean_entities(rows: Sequence[Mapping[str, Any]], name: str = "the file"
                   ) -> list[dict[str, Any]]:
    """``rows`` parsed by the FtM library (unknown schema or no id: ValidationError), values
    cleaned, fragments with one id merged; returned as dicts in first-seen order."""
    from casefile.services.ftm_export import require_followthemoney

    require_followthemoney()
    from followthemoney import model
    from followthemoney.exc import FollowTheMoneyException

    merged: dict[str, EntityProxy] = {}
    for number, data in enumerate(rows, start=1):
        try:
            proxy = model.get_proxy(dict(data), cleaned=False)
        except (FollowTheMoneyException, KeyError, TypeError, ValueError) as exc:
            raise ValidationError(f"{name}, entity {number}: not a FollowTheMoney entity "
                                  f"({exc})") from exc
        if not proxy.id:
            raise ValidationError(f"{name}, entity {number}: a FollowTheMoney entity needs "
                                  "an id")
        if proxy.id in merged:
            try:
                merged[proxy.id].merge(proxy)
            except FollowTheMoneyException as exc:
                raise ValidationError(f"{name}: fragments of {proxy.id} disagree ({exc})") \
                    from exc
        else:
            merged[proxy.id] = proxy
    return [p.to_dict() for p in merged.values()]


def _role(schema: Any) -> str | None:
    """Which import step handles a schema (a ``_ORDER`` name), or None to skip it."""
    name = schema.name
    if name == "Address":
        return "place"
    if schema.is_a("Person"):
        return "person"
    if schema.is_a("Organization") or name == "LegalEntity":
        return "organization"
    if schema.is_a("Document"):
        return "document"
    if name == "Event":
        return "event"
    if name == "Note":
        return "note"
    if name == "Documentation":
        return "evidence"
    if name in ("Employment", "Membership", "Directorship", "Associate", "Ownership",
                "UnknownLink"):
        return "link"
    return None


def _key(name: str) -> str:
    return " ".join(name.replace("\u2019", "'").casefold().split())


def _same(a: str, b: str) -> bool:
    """Names equal case and spacing aside (an alias differing only in its apostrophe is kept:
    Casefile matches names in text by their aliases)."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def _first(values: Sequence[str]) -> str | None:
    return values[0] if values else None


def _day(values: Sequence[str]) -> tuple[date | None, str]:
    """The first full or partial FtM date and its Casefile precision."""
    for value in sorted(values):
        try:
            if len(value) >= 10:
                return date.fromisoformat(value[:10]), "day"
            if len(value) == 7:
                return date.fromisoformat(value + "-01"), "month"
            if len(value) == 4:
                return date.fromisoformat(value + "-01-01"), "year"
        except ValueError:
            continue
    return None, "day"


def _lines(values: Sequence[str], prefix: str) -> str | None:
    for value in values:
        for line in value.splitlines():
            if line.startswith(prefix) and line[len(prefix):].strip():
                return line[len(prefix):].strip()
    return None


@dataclass(frozen=True)
class FtmImport:
    """``Changes.value`` of :func:`import_entities`: ids of the items ``created``; ``merged``
    as ``(item id, item title, FtM caption, schema)`` for each entity merged into an item
    already in the case; ``relationships`` and ``evidence`` added; ``skipped`` (schema ->
    entities not imported)."""

    created: list[int] = field(default_factory=list)
    merged: list[tuple[int, str, str, str]] = field(default_factory=list)
    relationships: int = 0
    evidence: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        text = (f"{len(self.created)} items added, {len(self.merged)} entities merged into "
                f"existing items, {self.relationships} relationships, {self.evidence} "
                "evidence links")
        if self.skipped:
            text += "; not imported: " + ", ".join(
                f"{n} {schema}" for schema, n in sorted(self.skipped.items()))
        return text


class _Importer:
    def __init__(self, session: Session, case_id: int) -> None:
        self.session, self.case_id = session, case_id
        self.created: list[int] = []
        self.before: dict[int, dict[str, Any]] = {}  # merged item id -> its earlier values
        self.merged: list[tuple[int, str, str, str]] = []
        self.relationships: list[int] = []
        self.affiliations = 0  # Employment entities stored as a person's affiliation
        self.links: list[int] = []
        self.passages: list[int] = []
        self.documents: set[int] = set()
        self.kinds: set[str] = set()
        self.skipped: Counter[str] = Counter()
        self.by_ftm: dict[str, int] = {}  # FtM id -> item id
        self.names: dict[tuple[str, str], Item] = {}  # (kind, folded name) -> item
        self.hashes: dict[str, Document] = {}
        self.events: dict[tuple[str, date | None], Item] = {}  # (folded title, day) -> event
        every = with_polymorphic(Item, "*")
        for item in session.scalars(select(every).where(every.case_id == case_id)
                                    .order_by(every.id)):
            self._remember(item)
            for match in FTM_ID_LINE.finditer(item.notes or ""):
                self.by_ftm.setdefault(match.group(1), item.id)

    def _remember(self, item: Item) -> None:
        if isinstance(item, Event):
            self.events.setdefault((_key(item.title), item.date), item)
        for name in [item.title, *(getattr(item, "aliases", None) or [])]:
            self.names.setdefault((item.kind, _key(name)), item)
        if isinstance(item, Document):
            meta = item.meta or {}
            for digest in (item.sha256, meta.get("ftm_sha256"), meta.get("ftm_content_hash")):
                if digest:
                    self.hashes.setdefault(str(digest), item)

    def item(self, ftm_id: str | None) -> Item | None:
        found = self.by_ftm.get(ftm_id or "")
        return self.session.get(Item, found) if found is not None else None

    def find(self, kind: str, entity: EntityProxy, names: Sequence[str],
             fields: Mapping[str, Any] | None = None) -> Item | None:
        known = self.item(entity.id)
        if known is not None and known.kind == kind:
            return known
        day = (fields or {}).get("date")
        for name in names:
            # events are told apart by their day too: two council meetings are two events
            match = (self.events.get((_key(name), day)) if kind == "event"
                     else self.names.get((kind, _key(name))))
            if match is not None:
                return match
        return None

    def store(self, kind: str, entity: EntityProxy, title: str, fields: dict[str, Any],
              names: Sequence[str] = (), *, extra: Mapping[str, Any] | None = None) -> Item:
        """Create the item of ``entity`` or merge into the one it matches; record its id."""
        keywords = entity.get("keywords")
        if CONFIDENTIAL_KEYWORD in keywords:
            fields["confidential"] = True
        existing = self.find(kind, entity, [title, *names], fields) if kind != "document" \
            else self._find_document(entity, title)
        line = f"FtM id: {entity.id}"
        if existing is None:
            notes = "\n\n".join(n for n in (fields.pop("notes", None), line) if n)
            item = items.create_item(self.session, self.case_id, kind, title, notes=notes,
                                     **fields)
            self.created.append(item.id)
            for attr, value in (extra or {}).items():
                setattr(item, attr, value)
            if extra:
                self.session.flush()
                items.reindex(self.session, item)
        else:
            item = existing
            if item.id not in self.created:
                shown = _first(entity.get("name", quiet=True)) or entity.caption
                self.merged.append((item.id, item.title, shown, entity.schema.name))
            notes = fields.pop("notes", None)
            self._merge(item, fields, [title, *names], notes, line)
        self.kinds.add(kind)
        assert entity.id is not None
        self.by_ftm[entity.id] = item.id
        self._remember(item)
        return item

    def _find_document(self, entity: EntityProxy, title: str) -> Item | None:
        known = self.item(entity.id)
        if isinstance(known, Document):
            return known
        sha256 = _lines(entity.get("summary"), SHA256)
        for digest in [*([sha256] if sha256 else []), *entity.get("contentHash")]:
            if digest in self.hashes:
                return self.hashes[digest]
        match = self.names.get(("document", _key(title)))
        urls = set(entity.get("sourceUrl"))
        if isinstance(match, Document) and (not urls or match.url in urls):
            theirs = (match.meta or {}).get("ftm_sha256") or match.sha256
            if sha256 and theirs and theirs != sha256:
                return None  # another file of the same title (two captures of one page)
            return match
        return None

    def _merge(self, item: Item, fields: Mapping[str, Any], names: Sequence[str],
               notes: str | None, line: str) -> None:
        update: dict[str, Any] = {}
        for fld, value in fields.items():
            old = getattr(item, fld)
            if fld == "confidential":
                if value and not old:
                    update[fld] = True
            elif fld != "aliases" and old in (None, "", []):
                update[fld] = value
        if isinstance(item, Person | Organization | Place):
            have = [item.title, *(item.aliases or [])]
            extra = []
            for name in [*names, *(fields.get("aliases") or [])]:
                if not any(_same(name, h) for h in have):
                    have.append(name)
                    extra.append(name)
            if extra:
                update["aliases"] = [*(item.aliases or []), *extra]
        old_notes = item.notes or ""
        add = [n for n in (notes, line) if n and n not in old_notes]
        if add:
            update["notes"] = "\n\n".join([p for p in (old_notes.strip(),) if p] + add)
        self.remember_before(item, update)
        if update:
            items.update_item(self.session, item.id, **update)

    def remember_before(self, item: Item, update: Mapping[str, Any]) -> None:
        if item.id in self.created:
            return
        saved = self.before.setdefault(item.id, {})
        for fld in update:
            if fld not in saved:
                old = getattr(item, fld)
                saved[fld] = (list(old) if isinstance(old, list)
                              else old.isoformat() if isinstance(old, date) else old)

    def relate(self, source: Item, target: Item, kind: str, note: str | None) -> None:
        if source.id == target.id:
            return
        exists = self.session.scalar(select(Relationship.id).where(
            Relationship.source_id == source.id, Relationship.target_id == target.id,
            Relationship.kind == kind))
        if exists is not None:
            return
        rel = relationships.add_relationship(self.session, source.id, target.id, kind,
                                             note=note)
        self.relationships.append(rel.id)
        self.kinds.update({source.kind, target.kind})


def _person(imp: _Importer, e: EntityProxy) -> None:
    names = [*e.get("name"), *e.get("alias")]
    title = e.caption
    contact = "; ".join([*e.get("email"), *e.get("phone"), *e.get("website")]) or None
    fields: dict[str, Any] = {
        "aliases": [n for n in names if not _same(n, title)],
        "role": _first(e.get("position")),
        "contact": contact,
        "notes": _notes(e),
    }
    imp.store("person", e, title, {k: v for k, v in fields.items() if v},
              [n for n in names if not _same(n, title)])


def _notes(e: EntityProxy) -> str | None:
    parts = [*e.get("notes"), *e.get("description", quiet=True)] if e.schema.name not in (
        "Note", "Event") else list(e.get("notes"))
    return "\n\n".join(p.strip() for p in parts if p.strip()) or None


def _organization(imp: _Importer, e: EntityProxy) -> None:
    from followthemoney import registry

    names = [*e.get("name"), *e.get("alias"), *e.get("abbreviation", quiet=True)]
    title = e.caption
    kind = next((c for c in e.get("classification", quiet=True) if c in ORGANIZATION_KINDS),
                None)
    if kind is None and e.schema.is_a("Company"):
        kind = "company"
    elif kind is None and e.schema.name == "PublicBody":
        kind = "government body"
    countries = [*e.get("jurisdiction", quiet=True), *e.get("country", quiet=True)]
    jurisdiction = (registry.country.caption(countries[0]) if countries
                    else _lines(e.get("summary", quiet=True), JURISDICTION))
    fields: dict[str, Any] = {
        "aliases": [n for n in names if not _same(n, title)],
        "org_kind": kind, "jurisdiction": jurisdiction, "notes": _notes(e),
    }
    imp.store("organization", e, title, {k: v for k, v in fields.items() if v},
              [n for n in names if not _same(n, title)])


def _place(imp: _Importer, e: EntityProxy) -> None:
    names = [*e.get("name"), *e.get("full"), *e.get("alias")]
    title = e.caption
    aliases = [n for n in dict.fromkeys(names) if not _same(n, title)]
    fields: dict[str, Any] = {"aliases": aliases, "notes": _notes(e)}
    imp.store("place", e, title, {k: v for k, v in fields.items() if v}, aliases)


def _document(imp: _Importer, e: EntityProxy) -> None:
    keywords = e.get("keywords")
    title = (_first(e.get("title")) or _first(e.get("subject", quiet=True))
             or _first(e.get("fileName")) or e.caption)
    kind = next((k for k in keywords if k in DOCUMENT_KINDS), None) or (
        "email" if e.schema.is_a("Email") else "web page" if e.schema.is_a("HyperText")
        else "other")
    status = next((k for k in keywords if k in DOCUMENT_STATUSES), "obtained")
    published, _ = _day(e.get("publishedAt"))
    retrieved, _ = _day(e.get("retrievedAt"))
    fields: dict[str, Any] = {
        "doc_kind": kind, "status": status, "author": _first(e.get("author")),
        "outlet": _first(e.get("publisher")), "url": _first(e.get("sourceUrl")),
        "published": published, "retrieved": retrieved, "notes": _notes(e),
    }
    text = "\n\n".join(e.get("bodyText"))
    summary = e.get("summary")
    hashes = {"ftm_content_hash": _first(e.get("contentHash")),
              "ftm_sha256": _lines(summary, SHA256)}
    meta: dict[str, Any] = {k: v for k, v in hashes.items() if v}
    captured, page_sha = _lines(summary, CAPTURED_UTC), _lines(summary, PAGE_SHA256)
    if captured and page_sha:  # a saved web page's capture, as the export wrote it
        meta["capture"] = {"url": fields["url"], "captured": captured, "sha256": page_sha,
                           "format": _lines(summary, CAPTURE_FORMAT)}
    extra: dict[str, Any] = {
        "text": text, "mime_type": _first(e.get("mimeType")),
        "filename": _first(e.get("fileName")),
        "meta": meta,
        "import_notes": ["imported from a FollowTheMoney entity: the text and metadata are "
                         "here, the original file is not"],
    }
    reading = next((k.removeprefix(READING_KEYWORD) for k in keywords
                    if k.startswith(READING_KEYWORD)
                    and k.removeprefix(READING_KEYWORD) in READING_STATES), None)
    if reading is not None:
        extra["reading"] = reading
    doc = imp.store("document", e, title, {k: v for k, v in fields.items() if v},
                    extra=extra)
    imp.documents.add(doc.id)


def _event(imp: _Importer, e: EntityProxy) -> None:
    day, precision = _day([*e.get("date"), *e.get("startDate")])
    for word in PRECISION_KEYWORDS:
        if f"{word} date" in e.get("keywords"):
            precision = word
    end, _ = _day(e.get("endDate"))
    place = next((imp.item(ref) for ref in e.get("addressEntity")), None)
    if not isinstance(place, Place):
        place = None
        for name in e.get("location"):
            known = imp.names.get(("place", _key(name)))
            place = known if isinstance(known, Place) else None
            if place is None:
                place = items.create_item(imp.session, imp.case_id, "place", name)
                imp.created.append(place.id)
                imp._remember(place)
            break
    fields: dict[str, Any] = {"date": day, "precision": precision, "end": end,
                              "place_id": place.id if place else None,
                              "description": "\n\n".join(e.get("description")) or None,
                              "notes": _notes(e)}
    imp.store("event", e, e.caption, {k: v for k, v in fields.items() if v})


def _note(imp: _Importer, e: EntityProxy) -> None:
    keywords = e.get("keywords")
    about = [imp.item(ref) for ref in e.get("entity")]
    target = next((i for i in about if i is not None), None)
    summary = e.get("summary")
    if CLAIM_KEYWORD in keywords:
        statement = "\n\n".join(e.get("description")) or e.caption
        via: Item | None = next((imp.item(ref) for ref in e.get("proof")), None)
        if via is None:
            for name in e.get("publisher"):
                via = imp.names.get(("organization", _key(name)))
        fields: dict[str, Any] = {
            "statement": statement,
            "status": next((k for k in keywords if k in CLAIM_STATUSES), "unverified"),
            "status_reason": _lines(summary, STATUS_REASON),
            "attributed_to_id": target.id if isinstance(target, Person | Organization)
            else None,
            "attributed_to_text": _lines(summary, ATTRIBUTED_TO),
            "via_id": via.id if isinstance(via, Document | Organization) else None,
            "notes": _notes(e),
        }
        title = _first(e.get("name")) or statement[:200]
        imp.store("claim", e, title, {k: v for k, v in fields.items() if v})
    elif FOLLOWUP_KEYWORD in keywords:
        due, _ = _day([_lines(summary, DUE) or ""])
        answered, _ = _day([_lines(summary, ANSWERED) or ""])
        answer_doc = next((imp.item(ref) for ref in e.get("proof")), None)
        text = _first(e.get("name")) or "\n\n".join(e.get("description"))
        kind = next((k for k in keywords if k in QUESTION_KINDS), "question")
        status = next((k for k in keywords if k in QUESTION_STATUSES), "open")
        ask = target.id if isinstance(target, Person | Organization) else None
        existing = imp.find("question", e, [text])
        if existing is None:
            q = questions.create_question(imp.session, imp.case_id, text, kind=kind, due=due,
                                          status=status, ask_id=ask)
            imp.created.append(q.id)
            imp._remember(q)
            existing = q
        rest: dict[str, Any] = {
            "question_kind": kind, "due": due, "ask_id": ask,
            "answer": "\n\n".join(e.get("description")) or None, "answered_at": answered,
            "answered_by_document_id": answer_doc.id if isinstance(answer_doc, Document)
            else None, "notes": _notes(e),
        }
        imp.store("question", e, existing.title, {k: v for k, v in rest.items() if v})
    elif target is not None:  # a note about an item: a paragraph of its notes
        text = "\n\n".join([*e.get("description"), *summary]) or e.caption
        imp.remember_before(target, {"notes": None})
        old = target.notes or ""
        if text and text not in old:
            items.update_item(imp.session, target.id,
                              notes="\n\n".join(p for p in (old.strip(), text) if p))
            imp.kinds.add(target.kind)
    else:
        imp.skipped["Note"] += 1


def _link(imp: _Importer, e: EntityProxy) -> None:
    name = e.schema.name
    ends = {"Employment": ("employee", "employer"), "Membership": ("member", "organization"),
            "Directorship": ("director", "organization"), "Associate": ("person", "associate"),
            "Ownership": ("asset", "owner"), "UnknownLink": ("subject", "object")}[name]
    source = next((imp.item(r) for r in e.get(ends[0])), None)
    target = next((imp.item(r) for r in e.get(ends[1])), None)
    if source is None or target is None:
        imp.skipped[name] += 1
        return
    roles = [*e.get("role", quiet=True), *e.get("relationship", quiet=True)]
    note_parts = [*roles, *e.get("description"), *e.get("summary")]
    kind = "related to"
    if name == "Employment":
        kind = "employed by"
        if isinstance(source, Person) and isinstance(target, Organization) \
                and source.affiliation_id is None:
            imp.remember_before(source, {"affiliation_id": None})
            items.update_item(imp.session, source.id, affiliation_id=target.id)
            imp.kinds.update({"person", "organization"})
            imp.affiliations += 1
            return
    elif name in ("Membership", "Directorship"):
        kind = "part of"
        if name == "Directorship":
            note_parts.insert(0, "director")
    elif name == "Ownership":
        note_parts.insert(0, "owned by")
        if isinstance(source, Organization) and isinstance(target, Organization):
            kind = "part of"
    elif name == "UnknownLink":
        known = [r for r in roles if r in RELATIONSHIP_KINDS]
        if known:
            kind = known[0]
            note_parts = [p for p in note_parts if p != kind]
    note = "; ".join(dict.fromkeys(p.strip() for p in note_parts if p.strip())) or None
    imp.relate(source, target, kind, note)


def _evidence(imp: _Importer, e: EntityProxy) -> None:
    doc = next((imp.item(r) for r in e.get("document")), None)
    item = next((imp.item(r) for r in e.get("entity")), None)
    if not isinstance(doc, Document) or item is None or item.id == doc.id:
        imp.skipped["Documentation"] += 1
        return
    relation = next((r for r in e.get("role") if r in EVIDENCE_RELATIONS), "mentions")
    quote = _first(e.get("summary"))
    note = "\n\n".join(e.get("description")) or None
    passage_id: int | None = None
    if quote:
        try:
            start, end = passages.find_quote(doc.text or "", quote)
        except ValidationError:
            note = "\n\n".join(p for p in (f"“{quote}”", note) if p)
        else:
            passage_id = imp.session.scalar(select(Passage.id).where(
                Passage.document_id == doc.id, Passage.start == start, Passage.end == end))
            if passage_id is None:
                passage_id = passages.add_passage(imp.session, doc.id, start, end).id
                imp.passages.append(passage_id)
    same = select(EvidenceLink.id).where(EvidenceLink.item_id == item.id,
                                         EvidenceLink.relation == relation)
    same = same.where(EvidenceLink.passage_id == passage_id) if passage_id is not None else \
        same.where(EvidenceLink.document_id == doc.id, EvidenceLink.passage_id.is_(None))
    if imp.session.scalar(same) is not None:
        return
    link = evidence.link_evidence(imp.session, item.id, passage_id=passage_id,
                                  document_id=None if passage_id else doc.id,
                                  relation=relation, note=note)
    imp.links.append(link.id)
    imp.documents.add(doc.id)


_STEPS = {"place": _place, "organization": _organization, "person": _person,
          "document": _document, "event": _event, "note": _note, "link": _link,
          "evidence": _evidence}


@action("ftm.import")
def import_entities(session: Session, case_id: int, entities: Sequence[Mapping[str, Any]],
                    source: str = "a FollowTheMoney file") -> Changes:
    """Store FtM ``entities`` (dicts, e.g. from :func:`read_ftm`) in the case (module
    docstring); one transaction. ``value`` is an :class:`FtmImport`; the message names the
    merges; ``undo`` removes what was added and gives merged items their earlier values.
    Raises ValidationError for an entity the library refuses, NotFoundError for no case."""
    from followthemoney import model

    get_case(session, case_id)
    proxies = [model.get_proxy(dict(d), cleaned=False) for d in clean_entities(entities)]
    imp = _Importer(session, case_id)
    by_role: dict[str, list[EntityProxy]] = {r: [] for r in _ORDER}
    for proxy in proxies:
        role = _role(proxy.schema)
        if role is None:
            imp.skipped[proxy.schema.name] += 1
        else:
            by_role[role].append(proxy)
    for role in _ORDER:
        for proxy in by_role[role]:
            _STEPS[role](imp, proxy)
    result = FtmImport(list(imp.created), list(imp.merged),
                       len(imp.relationships) + imp.affiliations,
                       len(imp.links), dict(imp.skipped))
    label = f"import {len(proxies)} FollowTheMoney entities from {source}"
    undo = Step("ftm.unimport", {
        "case_id": case_id, "created": list(imp.created), "relationships": imp.relationships,
        "links": imp.links, "passages": imp.passages,
        "before": {str(k): v for k, v in imp.before.items()},
        "entities": [dict(d) for d in entities], "source": source}, label=f"Undo {label}")
    merged = "; ".join(f"{t} ← {c} ({s})" for _i, t, c, s in imp.merged[:10])
    more = f" and {len(imp.merged) - 10} more" if len(imp.merged) > 10 else ""
    message = f"Imported from FollowTheMoney: {result.summary()}."
    if merged:
        message += f" Merged: {merged}{more}."
    return changes(case_id, kinds=imp.kinds | {"person", "organization"},
                   created=imp.created, updated=[int(k) for k in imp.before],
                   documents=imp.documents, evidence=bool(imp.links or imp.passages),
                   label=label, message=message, value=result, undo=undo)


@action("ftm.unimport")
def unimport(session: Session, case_id: int, created: Sequence[int],
             relationships: Sequence[int], links: Sequence[int], passages: Sequence[int],
             before: Mapping[str, Mapping[str, Any]], entities: Sequence[Mapping[str, Any]],
             source: str = "a FollowTheMoney file") -> Changes:
    """Undo of :func:`import_entities`: remove the evidence, passages and relationships it
    added, delete the items it created and give merged items their earlier values; ``undo``
    imports the same entities again."""
    from casefile.services.evidence import unlink_evidence
    from casefile.services.passages import delete_passage
    from casefile.services.relationships import remove_relationship

    for link_id in links:
        if session.get(EvidenceLink, link_id) is not None:
            unlink_evidence(session, int(link_id))
    for passage_id in passages:
        if session.get(Passage, passage_id) is not None:
            delete_passage(session, int(passage_id))
    for rel_id in relationships:
        if session.get(Relationship, rel_id) is not None:
            remove_relationship(session, int(rel_id))
    for key, values in before.items():
        if values and session.get(Item, int(key)) is not None:
            items.update_item(session, int(key), **dict(values))
    for item_id in reversed(list(created)):
        if session.get(Item, item_id) is not None:
            items.delete_item(session, int(item_id))
    label = f"import {len(entities)} FollowTheMoney entities from {source}"
    redo = Step("ftm.import", {"case_id": case_id, "entities": list(entities),
                               "source": source}, label=f"Redo {label}")
    return changes(case_id, kinds={"person", "organization", "place", "document", "event",
                                   "claim", "question"},
                   deleted=created, updated=[int(k) for k in before], evidence=True,
                   label=f"undo {label}",
                   message=f"Removed what the FollowTheMoney import added ({len(created)} "
                           "items).", undo=redo)


def import_file(session: Session, case_id: int, path: Path) -> Changes:
    """:func:`read_ftm` then :func:`import_entities` (the CLI's and the window's call)."""
    return import_entities(session, case_id, read_ftm(path), source=path.name)

