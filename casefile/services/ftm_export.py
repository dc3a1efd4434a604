"""A case as FollowTheMoney entities (JSON lines), the format Aleph, OpenAleph and OpenSanctions
exchange.

Shape: :func:`case_entities` returns entity dicts (``{"id", "schema", "properties": {name:
[str, ...]}}``, what ``EntityProxy.to_dict()`` gives) in a fixed order: places, organizations,
people, documents, events, claims and follow-ups, relationships, evidence. :func:`export_ftm`
writes them one per line (UTF-8) to a file, replaced atomically.

How items become entities (the import, :mod:`casefile.services.ftm_import`, reads the same):

* Person -> ``Person`` (name, alias, position = role, email / phone / website from the contact
  details when the profile shows them); Organization -> ``PublicBody`` (agencies, government
  bodies, courts), ``Company`` (companies) or ``Organization``, with ``classification`` = the
  Casefile kind, ``parent``, and a jurisdiction that names a country as ``jurisdiction``, any
  other as a ``summary`` line "Jurisdiction: ..."; Place -> ``Address`` (name and full).
* Document -> ``Pages`` (PDF and office files), ``Email``, ``HyperText`` (HTML), ``Image``
  (image files) or ``PlainText`` (anything else), with ``contentHash`` = the SHA-1 of the
  original (FtM's checksum type and Aleph's archive key are SHA-1; a SHA-256 fails
  ``Schema.validate``), a ``summary`` line "SHA-256: ..." (Casefile's own provenance hash),
  ``sourceUrl``, ``bodyText``, author, publisher = outlet, ``keywords`` = its kind (and its
  status when not "obtained").
* Event -> ``Event`` (``date`` cut to its precision, "2026-10" for a month; ``keywords``
  "exact date" / "approximate date" for the precisions a date prefix cannot say).
* Claim and follow-up -> ``Note`` (``keywords`` "claim" + status, or "follow-up" + kind +
  status; ``entity`` = who it is attributed to / whom to ask; ``proof`` = the document it came
  through or that answered it; ``publisher`` = the outlet it came through; ``summary`` lines
  "Status reason: ...", "Attributed to: ...", "Due: YYYY-MM-DD", "Answered: YYYY-MM-DD").
* Relationship -> ``Employment`` (employed by), ``Membership`` (part of), ``Associate`` (two
  people related to each other) or ``UnknownLink`` (any other, ``role`` = the kind).
* Evidence link -> ``Documentation`` (``document``, ``entity``, ``role`` = the relation,
  ``summary`` = the quoted passage, ``description`` = the link's note).
* Every entity: ``notes`` = the item's notes (lines "FtM id: ..." kept by an import are left
  out), ``keywords`` "confidential" for confidential items an internal export includes.

Ids are ``make_entity_id(case key, kind, item id)`` where the case key is made of the case's id
and creation time: the same item gets the same id in every export of the case, and two cases
(two workspaces) do not collide. Under a profile with pseudonyms (legal, public) every id also
takes the profile's name (``make_entity_id(case key, profile, kind, item id)``) and a
pseudonymous person's id is made from the profile and the pseudonym, not the item id
(``make_entity_id(case key, profile, "pseudonym", "Source A")``): no entity of such an export
has the id it has in an internal export, so someone holding both files cannot match "Source A"
to the named person by id, directly or through an Employment, Documentation or Note that points
to them; two exports of the same case under the same profile still give the same ids. Of a
pseudonymous person's evidence only supports / contradicts links become Documentation (the rule
of :mod:`casefile.services.disclosure`, "What travels with a pseudonym"); under public, a
document whose text names a pseudonymous person is exported without ``bodyText`` (the words
around the name would describe the source; a published article's text is available anyway to
anyone who knows where it ran). Confidentiality follows the export profiles as the spreadsheets
do (:mod:`casefile.services.sheets`): hidden items, links to them and evidence quoted from
hidden documents are left out, confidential people are "Source A"... under legal and public,
every text goes through :meth:`Disclosure.substitute`, and the written values are searched for
the protected strings before anything is written. The properties a schema requires are checked
here (``Schema.validate`` does not): a missing one raises :class:`FtmExportError`.

The ``followthemoney`` library is imported inside the functions (it takes seconds to load).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session, with_polymorphic

from casefile.errors import CasefileError
from casefile.export.errors import ExportError
from casefile.export.profiles import ExportProfile, get_profile
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.disclosure import (
    Disclosure,
    case_evidenced,
    case_links,
    contact_pieces,
    disclosure_for,
)
from casefile.services.relationships import AUTO_NOTE
from casefile.store.evidence import Relationship
from casefile.store.items import Claim, Document, Event, Item, Organization, Person, Place, Question

if TYPE_CHECKING:
    from followthemoney.proxy import EntityProxy

#: Organization kinds exported as ``PublicBody`` / ``Company``; the others as ``Organization``.
PUBLIC_BODY_KINDS = ("law enforcement agency", "government body", "government agency", "court")
COMPANY_KINDS = ("company",)
#: The keyword that carries a document's reading state ("reading: relevant").
READING_KEYWORD = "reading: "
#: Document mime types exported as ``Pages`` (paged formats Aleph shows page by page).
PAGED_MIME = ("application/pdf",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
              "application/msword")
#: A line of an item's notes that records the FtM id it was imported from.
FTM_ID_LINE = re.compile(r"^FtM id: (\S+)$", re.MULTILINE)
#: ``summary`` line prefixes carrying fields FtM has no property for.
JURISDICTION, STATUS_REASON, ATTRIBUTED_TO, DUE, ANSWERED, SHA256 = (
    "Jurisdiction: ", "Status reason: ", "Attributed to: ", "Due: ", "Answered: ", "SHA-256: ")
#: ``summary`` lines of a saved web page's capture: FtM's ``retrievedAt`` holds no time zone
#: and there is no property for the captured page's own hash or the archive's format.
CAPTURED_UTC, PAGE_SHA256, CAPTURE_FORMAT = (
    "Captured (UTC): ", "Page SHA-256: ", "Capture format: ")
CONFIDENTIAL_KEYWORD = "confidential"
CLAIM_KEYWORD, FOLLOWUP_KEYWORD = "claim", "follow-up"
#: Casefile precisions a date prefix cannot express, kept as a keyword ("approximate date").
PRECISION_KEYWORDS = ("exact", "approximate")


class FtmExportError(ExportError):
    """The FollowTheMoney file cannot be written (an entity lacks a property its schema
    requires, or the file is not writable)."""


@dataclass(frozen=True)
class FtmExport:
    """What :func:`export_ftm` wrote: ``path``, ``counts`` (schema name -> entities) and
    ``profile`` (the export profile's name)."""

    path: Path
    counts: dict[str, int] = field(default_factory=dict)
    profile: str = ""

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        parts = ", ".join(f"{n} {schema}" for schema, n in sorted(self.counts.items()))
        return f"wrote {self.total} entities to {self.path} ({parts}; profile {self.profile})"


def case_key(session: Session, case_id: int) -> str:
    """The case's part of every entity id: its id and creation time (stable for the case)."""
    case = get_case(session, case_id)
    return f"casefile-case:{case.id}:{case.created.isoformat()}"


def document_schema(doc: Document) -> str:
    """The FtM schema of a document: Email, Pages, HyperText, Image (a scan or photo read by
    OCR) or PlainText (module docstring)."""
    mime = (doc.mime_type or "").split(";")[0].strip().casefold()
    if doc.doc_kind == "email" or mime == "message/rfc822":
        return "Email"
    if mime in PAGED_MIME:
        return "Pages"
    if mime in ("text/html", "application/xhtml+xml"):
        return "HyperText"
    if mime.startswith("image/"):
        return "Image"
    return "PlainText"


def organization_schema(org_kind: str | None) -> str:
    """``PublicBody``, ``Company`` or ``Organization`` for a Casefile organization kind."""
    if org_kind in PUBLIC_BODY_KINDS:
        return "PublicBody"
    if org_kind in COMPANY_KINDS:
        return "Company"
    return "Organization"


def strip_ftm_ids(notes: str | None) -> str | None:
    """``notes`` without the "FtM id: ..." lines an import added (None when nothing is left)."""
    if not notes:
        return notes
    kept = FTM_ID_LINE.sub("", notes)
    kept = re.sub(r"\n{3,}", "\n\n", kept).strip()
    return kept or None


def sha1_of_original(session: Session, sha256: str | None) -> str | None:
    """The SHA-1 of a stored original (what FtM's ``contentHash`` holds: its checksum type,
    like Aleph's archive, is SHA-1), or None when the workspace has no such original."""
    if not sha256:
        return None
    import hashlib

    from casefile.store import Blob

    data = session.scalar(select(Blob.data).where(Blob.sha256 == sha256))
    return hashlib.sha1(data).hexdigest() if data is not None else None


def _date_prefix(value: date | None, precision: str) -> str | None:
    if value is None:
        return None
    iso = value.isoformat()
    return iso[:4] if precision == "year" else iso[:7] if precision == "month" else iso


#: What to tell a reporter whose install has no followthemoney library.
MISSING_FTM = ("FollowTheMoney files need the followthemoney package: pip install "
               "'casefile[ftm]' (it builds PyICU: on Debian install libicu-dev, pkg-config and "
               "g++ first)")


def followthemoney_installed() -> bool:
    """True when the followthemoney library can be imported (found, not loaded: cheap)."""
    import importlib.util

    return importlib.util.find_spec("followthemoney") is not None


def require_followthemoney() -> None:
    """Raise CasefileError (one line) when the followthemoney library is not installed: it is
    an extra (``pip install 'casefile[ftm]'``), because its ICU binding (PyICU) is built from
    source where no wheel exists (Debian: libicu-dev, pkg-config and a C++ compiler first)."""
    try:
        import followthemoney  # noqa: F401
    except ImportError as exc:
        raise CasefileError(MISSING_FTM) from exc


class _Builder:
    """Makes the entities of one export (ids, texts through the disclosure, required check)."""

    def __init__(self, key: str, d: Disclosure, profile: ExportProfile) -> None:
        from followthemoney import model
        from followthemoney.util import make_entity_id

        self.model, self.make_id = model, make_entity_id
        self.key, self.d, self.profile = key, d, profile
        self.entities: list[EntityProxy] = []

    def entity_id(self, kind: str, row_id: int) -> str:
        """The id of row ``row_id`` of ``kind`` (module docstring, "Ids")."""
        if not self.profile.pseudonyms:
            made = self.make_id(self.key, kind, str(row_id))
        elif kind == "person" and row_id in self.d.pseudonyms:
            made = self.make_id(self.key, self.profile.name, "pseudonym",
                                self.d.pseudonyms[row_id])
        else:
            made = self.make_id(self.key, self.profile.name, kind, str(row_id))
        assert made is not None
        return made

    def make(self, schema: str, kind: str, row_id: int) -> EntityProxy:
        entity = self.model.make_entity(schema)
        entity.id = self.entity_id(kind, row_id)
        self.entities.append(entity)
        return entity

    def add(self, entity: EntityProxy, prop: str, values: Any, *, quoted: bool = False) -> None:
        """Add text value(s), each through the disclosure's substitution."""
        if values is None:
            return
        for value in values if isinstance(values, list | tuple) else [values]:
            if isinstance(value, str):
                value = self.d.substitute(value, quoted=quoted)
            if value not in (None, ""):
                entity.add(prop, value, quiet=True)

    def common(self, entity: EntityProxy, item: Item) -> None:
        if self.profile.notes and item.id not in self.d.pseudonyms:
            self.add(entity, "notes", strip_ftm_ids(item.notes))
        if item.confidential:  # only an export that includes confidential items gets here
            entity.add("keywords", CONFIDENTIAL_KEYWORD)


def case_entities(session: Session, case_id: int, *, include_confidential: bool = False,
                  profile: str | ExportProfile | None = None) -> list[dict[str, Any]]:
    """The case's FtM entities as dicts, in the module docstring's order, filtered by the
    export ``profile`` (None: "editor", or "internal" with ``include_confidential``).

    Raises NotFoundError (case), ValidationError (profile), FtmExportError (a required property
    missing), ProtectedStringFoundError (a protected string still in a value), CasefileError
    (the followthemoney library is not installed)."""
    require_followthemoney()
    key = case_key(session, case_id)
    chosen = get_profile(profile, include_confidential=include_confidential)
    every_kind = with_polymorphic(Item, "*")
    items: list[Item] = list(session.scalars(
        select(every_kind).where(every_kind.case_id == case_id).order_by(every_kind.id)))
    d = disclosure_for(items, chosen, evidenced=case_evidenced(session, case_id))
    b = _Builder(key, d, chosen)
    by_id = {i.id: i for i in items}
    shown = [i for i in items if i.id not in d.hidden]
    ids = {i.id: b.entity_id(i.kind, i.id) for i in shown}

    def of(kind: type[Item]) -> list[Any]:
        return [i for i in shown if isinstance(i, kind)]

    def ref(item_id: int | None) -> str | None:
        return ids.get(item_id) if item_id is not None else None

    for pl in of(Place):
        e = b.make("Address", "place", pl.id)
        b.add(e, "name", pl.title)
        b.add(e, "full", pl.title)
        b.add(e, "alias", list(pl.aliases or []))
        b.common(e, pl)
    for o in of(Organization):
        e = b.make(organization_schema(o.org_kind), "organization", o.id)
        b.add(e, "name", o.title)
        b.add(e, "alias", list(o.aliases or []))
        b.add(e, "classification", o.org_kind)
        if o.jurisdiction:
            from followthemoney import registry

            country = registry.country.clean(o.jurisdiction)
            if country:
                e.add("jurisdiction", country)
            else:
                b.add(e, "summary", JURISDICTION + o.jurisdiction)
        if ref(o.parent_id):
            e.add("parent", ref(o.parent_id))
        b.common(e, o)
    for p in of(Person):
        e = b.make("Person", "person", p.id)
        if p.id in d.pseudonyms:  # a confidential source: the pseudonym, the role if allowed
            e.add("name", d.pseudonyms[p.id])
            if chosen.source_details:
                b.add(e, "position", p.role)
            continue
        b.add(e, "name", p.title)
        b.add(e, "alias", list(p.aliases or []))
        b.add(e, "position", p.role)
        contact = d.contact_of(p)
        for piece in contact_pieces(contact):  # a handle ("@name") has no FtM property
            if piece.startswith(("http", "www.")):
                e.add("website", piece, quiet=True)
            elif "@" in piece[1:]:
                e.add("email", piece, quiet=True)
            elif not piece.startswith("@"):
                e.add("phone", piece, quiet=True)
        b.common(e, p)
    for doc in of(Document):
        e = b.make(document_schema(doc), "document", doc.id)
        b.add(e, "title", doc.title)
        if e.schema.name == "Email":
            b.add(e, "subject", doc.title)
        b.add(e, "fileName", doc.filename)
        if doc.mime_type:
            e.add("mimeType", doc.mime_type.split(";")[0].strip(), quiet=True)
        meta = doc.meta or {}
        content_hash = sha1_of_original(session, doc.sha256) or meta.get("ftm_content_hash")
        if content_hash:
            e.add("contentHash", content_hash)
        sha256 = doc.sha256 or meta.get("ftm_sha256")
        if sha256:
            e.add("summary", SHA256 + sha256)
        url = d.url(doc.url)
        if url:
            e.add("sourceUrl", url, quiet=True)
        b.add(e, "author", doc.author)
        b.add(e, "publisher", doc.outlet)
        if doc.published:
            e.add("publishedAt", doc.published.isoformat())
        captured = capture.get("captured") if isinstance(
            capture := meta.get("capture"), dict) else None
        if isinstance(captured, str) and captured:  # a saved web page: when it was captured
            e.add("retrievedAt", captured.rstrip("Z"), quiet=True)
            e.add("summary", CAPTURED_UTC + captured)
            for prefix, key in ((PAGE_SHA256, "sha256"), (CAPTURE_FORMAT, "format")):
                if isinstance(capture, dict) and capture.get(key):
                    e.add("summary", prefix + str(capture[key]))
        elif doc.retrieved:
            e.add("retrievedAt", doc.retrieved.isoformat())
        e.add("keywords", doc.doc_kind)
        if doc.status != "obtained":
            e.add("keywords", doc.status)
        e.add("keywords", READING_KEYWORD + doc.reading)
        # legal (a profile with notes: readers inside the review) gets the text, names
        # substituted and descriptions cut; public none that names a source (module docstring)
        if chosen.source_details or chosen.notes or not d.names_pseudonym(doc.text):
            b.add(e, "bodyText", doc.text or None, quoted=True)
        b.common(e, doc)
    for ev in of(Event):
        e = b.make("Event", "event", ev.id)
        b.add(e, "name", ev.title)
        day = _date_prefix(ev.date, ev.precision)
        if day:
            e.add("date", day)
        if ev.precision in PRECISION_KEYWORDS:
            e.add("keywords", f"{ev.precision} date")
        end = _date_prefix(ev.end, ev.precision)
        if end:
            e.add("endDate", end)
        if ref(ev.place_id):
            e.add("addressEntity", ref(ev.place_id))
            b.add(e, "location", by_id[ev.place_id].title)
        b.add(e, "description", ev.description)
        b.common(e, ev)
    for c in of(Claim):
        e = b.make("Note", "claim", c.id)
        b.add(e, "name", c.title)
        b.add(e, "description", c.statement or None)
        e.add("keywords", [CLAIM_KEYWORD, c.status])
        if ref(c.attributed_to_id):
            e.add("entity", ref(c.attributed_to_id))
        elif c.attributed_to_text:
            b.add(e, "summary", ATTRIBUTED_TO + c.attributed_to_text)
        via = by_id.get(c.via_id) if c.via_id else None
        if isinstance(via, Document) and ref(via.id):
            e.add("proof", ref(via.id))
        elif isinstance(via, Organization) and ref(via.id):
            b.add(e, "publisher", via.title)
        if c.status_reason:
            b.add(e, "summary", STATUS_REASON + c.status_reason)
        b.common(e, c)
    for q in of(Question):
        e = b.make("Note", "question", q.id)
        b.add(e, "name", q.title)
        e.add("keywords", [FOLLOWUP_KEYWORD, q.question_kind, q.status])
        if ref(q.ask_id):
            e.add("entity", ref(q.ask_id))
        if q.due:
            e.add("summary", DUE + q.due.isoformat())
        if q.answered_at:
            e.add("summary", ANSWERED + q.answered_at.isoformat())
        b.add(e, "description", q.answer)
        if ref(q.answered_by_document_id):
            e.add("proof", ref(q.answered_by_document_id))
        b.common(e, q)
    _relationships(session, case_id, b, by_id, ids)
    _evidence(session, case_id, b, ids)
    out = [e.to_dict() for e in b.entities]
    check_required(out)
    _check_protected(out, d.protected)
    return out


def _relationships(session: Session, case_id: int, b: _Builder, by_id: dict[int, Item],
                   ids: dict[int, str]) -> None:
    rels = session.scalars(select(Relationship).where(Relationship.case_id == case_id)
                           .order_by(Relationship.id))
    for rel in rels:
        source, target = by_id.get(rel.source_id), by_id.get(rel.target_id)
        if source is None or target is None or source.id not in ids or target.id not in ids:
            continue
        pseudonymous = {source.id, target.id} & set(b.d.pseudonyms)
        if pseudonymous and not (rel.kind == "employed by" and b.profile.source_details):
            continue  # a source's links could name them: only the affiliation, if allowed
        s_id, t_id = ids[source.id], ids[target.id]
        if rel.kind == "employed by" and isinstance(source, Person) \
                and isinstance(target, Organization):
            e = b.make("Employment", "relationship", rel.id)
            e.add("employee", s_id)
            e.add("employer", t_id)
        elif rel.kind == "part of" and isinstance(source, Person | Organization) \
                and isinstance(target, Organization):
            e = b.make("Membership", "relationship", rel.id)
            e.add("member", s_id)
            e.add("organization", t_id)
        elif rel.kind == "related to" and isinstance(source, Person) \
                and isinstance(target, Person):
            e = b.make("Associate", "relationship", rel.id)
            e.add("person", s_id)
            e.add("associate", t_id)
        else:
            e = b.make("UnknownLink", "relationship", rel.id)
            e.add("subject", s_id)
            e.add("object", t_id)
            e.add("role", rel.kind)
        if rel.note and rel.note != AUTO_NOTE and b.profile.notes:
            b.add(e, "description", rel.note)


def _evidence(session: Session, case_id: int, b: _Builder, ids: dict[int, str]) -> None:
    for link, passage, doc_id in case_links(session, case_id):
        if link.item_id not in ids or doc_id not in ids or link.item_id == doc_id \
                or not b.d.evidence_shown(link.item_id, link.relation):
            continue
        e = b.make("Documentation", "evidence", link.id)
        e.add("document", ids[doc_id])
        e.add("entity", ids[link.item_id])
        e.add("role", link.relation)
        if passage is not None:
            b.add(e, "summary", passage.quote, quoted=True)
        if link.note and b.profile.notes:
            b.add(e, "description", link.note)


def check_required(entities: Iterable[dict[str, Any]]) -> None:
    """Raise FtmExportError naming the first entity that lacks a property its schema
    requires (FtM's own ``Schema.validate`` lets a missing one through) or whose schema is
    unknown."""
    from followthemoney import model

    for data in entities:
        schema = model.get(data.get("schema") or "")
        if schema is None:
            raise FtmExportError(f"entity {data.get('id')}: unknown schema "
                                 f"{data.get('schema')!r}")
        props = data.get("properties") or {}
        for name in sorted(schema.required):
            if not props.get(name):
                raise FtmExportError(
                    f"{schema.name} entity {data.get('id')} has no {name!r}, which "
                    "FollowTheMoney requires; nothing was written")


def _check_protected(entities: Sequence[dict[str, Any]], protected: Sequence[str]) -> None:
    if not protected:
        return
    from casefile.export.pdf_check import ProtectedStringFoundError, find_in_places

    places = ((f"{e['schema']} entity {e['id']}, property {prop!r}", value)
              for e in entities for prop, values in e["properties"].items()
              for value in values if isinstance(value, str))
    found = find_in_places(places, protected)
    if found is not None:
        raise ProtectedStringFoundError(found.text, found.place, deleted=False)


def write_jsonl(entities: Sequence[dict[str, Any]], target: Path) -> Path:
    """Write ``entities`` one JSON object per line (UTF-8) to ``target``, atomically and
    owner-only (:func:`casefile.export.files.write_private`). Raises FtmExportError when it
    cannot be written."""
    from casefile.export.files import write_private

    if target.is_dir():
        raise FtmExportError(f"{target} is a folder; give a file name such as case.ftm.json")

    def write(tmp: Path) -> None:
        with tmp.open("w", encoding="utf-8", newline="\n") as fh:
            for data in entities:
                fh.write(json.dumps(data, ensure_ascii=False, sort_keys=True))
                fh.write("\n")

    try:
        write_private(target, write)
    except OSError as exc:
        raise FtmExportError(f"could not write {target}: {exc.strerror}") from exc
    return target


def export_ftm(session: Session, case_id: int, target: Path, *,
               include_confidential: bool = False,
               profile: str | ExportProfile | None = None) -> FtmExport:
    """Write the case's entities (:func:`case_entities`) as JSON lines to ``target``; logs
    ``ftm.export``. Returns an :class:`FtmExport`. The written file is read back and searched
    for the strings the profile protects (``Disclosure.protected``). Raises what
    :func:`case_entities` raises, ProtectedStringFoundError when the re-read finds one (the
    file is deleted), and FtmExportError for a file that cannot be written (nothing is
    half-written)."""
    chosen = get_profile(profile, include_confidential=include_confidential)
    from casefile.export.file_check import check_written, jsonl_places
    from casefile.services.disclosure import case_disclosure

    entities = case_entities(session, case_id, profile=chosen)
    write_jsonl(entities, target)
    check_written([target], jsonl_places(target), case_disclosure(session, case_id,
                                                                  chosen).protected)
    counts = dict(Counter(str(e["schema"]) for e in entities))
    log_change(session, "ftm.export", case_id=case_id, summary=str(target),
               data={"profile": chosen.name, "entities": len(entities)})
    return FtmExport(target, counts, chosen.name)
