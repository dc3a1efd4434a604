"""The watch list: names to hear about, checked against every imported document.

ARCHITECTURE.md, "The watch list". Names are watched for one case or for the whole workspace
(``case_id`` None); they are typed in, taken from the case's people and organizations
(:func:`names_from_case`) or read from a file (:func:`read_names_file`: CSV, XLSX or
FollowTheMoney entities such as an OpenSanctions or Aleph export). Every import checks its new
documents as it stores them (:func:`check_documents`, called by
:mod:`casefile.services.documents`), so the command line and the window get the same hits;
adding names checks the documents already there, removing names takes their hits away.

The list of a case (its names and the workspace's) is compiled once into a
:class:`casefile.extract.watch_names.Matcher` and kept until the list changes, so an import
of many groups of files compiles it once.

Actions (undoable, ``@action``): ``watch.add``, ``watch.remove``, ``watch.restore`` (the undo
of a removal). Reads: :func:`list_names`, :func:`case_hits`. No Qt here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case, delete, func, insert, or_, select
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError, ValidationError
from casefile.extract.watch_names import Match, Matcher, Name, meaningful, same_name_key
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.changes import Changes, Step, action, changes
from casefile.store import Document, Item, Organization, Person
from casefile.store.base import utcnow
from casefile.store.watchlist import WATCH_KINDS, WatchHit, WatchName

_NAMES = WatchName.metadata.tables["watch_names"]
_HITS = WatchHit.metadata.tables["watch_hits"]
_DOCS = Document.metadata.tables["documents"]
_ITEMS = Item.metadata.tables["items"]
#: Characters of text shown on each side of a hit in its passage.
PASSAGE_REACH = 160


@dataclass(frozen=True)
class WatchEntry:
    """A name to add: ``name``, its other spellings, its kind (:data:`WATCH_KINDS`)."""

    name: str
    aliases: tuple[str, ...] = ()
    kind: str = "name"


@dataclass(frozen=True)
class WatchedName:
    """A name on the list: ``case_id`` None for the whole workspace; ``documents`` how many
    documents (of the case asked about, or of all) mention it."""

    id: int
    case_id: int | None
    name: str
    aliases: tuple[str, ...]
    kind: str
    source: str
    documents: int = 0

    def as_json(self) -> dict[str, object]:
        """``{"id", "name", "aliases", "kind", "scope": "case"|"workspace", "source",
        "documents"}`` (README, ``casefile watch list --json``)."""
        return {"id": self.id, "name": self.name, "aliases": list(self.aliases),
                "kind": self.kind, "scope": "workspace" if self.case_id is None else "case",
                "source": self.source, "documents": self.documents}


@dataclass(frozen=True)
class Hit:
    """A watched name found in a document: the name, the words as written (``variant``),
    the document, where (``start``/``end``, str offsets of its text), how many times, the
    ``passage`` around the first one and when it was found (UTC)."""

    id: int
    name_id: int
    name: str
    variant: str
    document_id: int
    document: str
    start: int
    end: int
    count: int
    passage: str
    found: datetime

    def as_json(self) -> dict[str, object]:
        """``{"name", "variant", "document_id", "document", "start", "end", "count",
        "passage", "found"}`` (README, ``casefile watch hits --json``)."""
        return {"name": self.name, "variant": self.variant, "document_id": self.document_id,
                "document": self.document, "start": self.start, "end": self.end,
                "count": self.count, "passage": self.passage,
                "found": self.found.isoformat()}


# -- the compiled list -----------------------------------------------------------------------

@dataclass
class _Compiled:
    signature: tuple[Any, ...]
    matcher: Matcher
    names: dict[int, str] = field(default_factory=dict)


_COMPILED: dict[tuple[str, int | None], _Compiled] = {}


def _scope(case_id: int | None) -> Any:
    """Names watched in a case: its own and the workspace's."""
    if case_id is None:
        return _NAMES.c.case_id.is_(None)
    return or_(_NAMES.c.case_id == case_id, _NAMES.c.case_id.is_(None))


def _to_name(row: Any) -> Name:
    return Name(int(row.id), (row.name, *(row.aliases or [])), row.kind)


def compiled_list(session: Session, case_id: int) -> _Compiled | None:
    """The case's list compiled (None when it has no names): one query to see whether it
    changed since it was last compiled in this process, else kept."""
    conn = session.connection()
    signature = tuple(conn.execute(select(func.count(), func.max(_NAMES.c.id),
                                          func.sum(_NAMES.c.id)).where(_scope(case_id))).one())
    if not signature[0]:
        return None
    key = (str(conn.engine.url), case_id)
    known = _COMPILED.get(key)
    if known is not None and known.signature == signature:
        return known
    rows = conn.execute(select(_NAMES.c.id, _NAMES.c.name, _NAMES.c.aliases, _NAMES.c.kind)
                        .where(_scope(case_id))).all()
    made = _Compiled(signature, Matcher(_to_name(r) for r in rows),
                     {int(r.id): r.name for r in rows})
    _COMPILED[key] = made
    return made


def _group(matches: Iterable[Match]) -> dict[int, tuple[Match, int]]:
    """Per name ref: its first match and how many."""
    out: dict[int, tuple[Match, int]] = {}
    for m in matches:
        first = out.get(m.ref)
        out[m.ref] = (m, 1) if first is None else (first[0], first[1] + 1)
    return out


def _hit_rows(case_id: int, document_id: int, found: Mapping[int, tuple[Match, int]],
              now: datetime) -> list[dict[str, Any]]:
    return [{"case_id": case_id, "watch_name_id": ref, "document_id": document_id,
             "variant": m.variant[:500], "start": m.start, "end": m.end, "count": n,
             "found": now} for ref, (m, n) in found.items()]


def check_documents(session: Session, case_id: int, documents: Sequence[tuple[int, str]],
                    vocabularies: Sequence[AbstractSet[str] | None] = ()
                    ) -> dict[int, list[tuple[str, str]]]:
    """Check new documents of the case (``(id, text)``, none checked before) against the
    case's list and store what is found, in the caller's transaction (the import's). Returns
    ``{document id: [(name, variant as written), ...]}`` for the documents with hits.

    ``vocabularies``, when given, holds per document its distinct words in lower-case ASCII
    (what the search index was given, ``store.search.index_rows``) or None; the matcher
    then does not cut the text again."""
    compiled = compiled_list(session, case_id) if documents else None
    if compiled is None:
        return {}
    now = utcnow()
    out: dict[int, list[tuple[str, str]]] = {}
    rows: list[dict[str, Any]] = []
    words = list(vocabularies) or [None] * len(documents)
    for (doc_id, text), known in zip(documents, words, strict=True):
        found = _group(compiled.matcher.find(text or "", known))
        if found:
            rows += _hit_rows(case_id, doc_id, found, now)
            out[doc_id] = [(compiled.names[ref], m.variant) for ref, (m, _n) in found.items()]
    if rows:
        session.connection().execute(insert(_HITS), rows)
    return out


def recheck_document(session: Session, document_id: int, text: str) -> int:
    """Check a document again after its text changed (OCR): its hits replaced. Returns how
    many hit rows were taken away and written (0: nothing changed)."""
    case_id = session.connection().scalar(select(_ITEMS.c.case_id).where(
        _ITEMS.c.id == document_id))
    if case_id is None:
        return 0
    gone = session.connection().execute(
        delete(_HITS).where(_HITS.c.document_id == document_id)).rowcount or 0
    return gone + len(check_documents(session, int(case_id), [(document_id, text)]).get(
        document_id, []))


# -- actions ---------------------------------------------------------------------------------

def _clean(entry: WatchEntry | Mapping[str, Any]) -> WatchEntry:
    if isinstance(entry, Mapping):
        entry = WatchEntry(str(entry.get("name") or ""), tuple(entry.get("aliases") or ()),
                           str(entry.get("kind") or "name"))
    name = " ".join(entry.name.split())
    if entry.kind not in WATCH_KINDS:
        raise ValidationError(f"unknown kind {entry.kind!r} for {name!r}; use one of "
                              f"{', '.join(WATCH_KINDS)}")
    # an alias without a word of two letters would never match or match anything: dropped
    aliases = tuple(dict.fromkeys(a for a in (" ".join(x.split()) for x in entry.aliases)
                                  if meaningful(a) and same_name_key(a) != same_name_key(name)))
    return WatchEntry(name[:500], aliases, entry.kind)


@action("watch.add")
def add_names(session: Session, entries: Sequence[WatchEntry | Mapping[str, Any]],
              case_id: int | None = None, source: str = "typed") -> Changes:
    """Put names on the watch list of case ``case_id`` (None: every case of the workspace)
    and check the documents already there for them. A name already on that list (accents,
    case, punctuation and spacing aside: "Jose Alvarez" is "José Álvarez") is left as it is.
    ``value`` is ``{"added": [ids], "hits": documents that mention a new name}``; ``undo``
    removes the names added. Raises ValidationError (no name, an unknown kind, a name without
    a word of two or more letters: nothing is added), NotFoundError (case)."""
    if case_id is not None:
        get_case(session, case_id)
    cleaned = [e for e in (_clean(x) for x in entries) if e.name]
    if not cleaned:
        raise ValidationError("no name given to watch")
    pointless = list(dict.fromkeys(e.name for e in cleaned if not meaningful(e.name)))
    if pointless:
        shown = ", ".join(f"“{n}”" for n in pointless[:3]) + (
            f" and {len(pointless) - 3} more" if len(pointless) > 3 else "")
        raise ValidationError(f"cannot watch {shown}: a name needs a word of two or more "
                              "letters; nothing was added")
    conn = session.connection()
    where = (_NAMES.c.case_id.is_(None) if case_id is None else _NAMES.c.case_id == case_id)
    # one name however its accents, case and spacing are written ("Jose" is "José")
    taken = {same_name_key(n) for n in conn.execute(select(_NAMES.c.name).where(where))
             .scalars()}
    now = utcnow()
    added: list[int] = []
    for e in cleaned:
        if same_name_key(e.name) in taken:
            continue
        taken.add(same_name_key(e.name))
        key = conn.execute(insert(_NAMES).values(
            case_id=case_id, name=e.name, aliases=list(e.aliases), kind=e.kind,
            source=source[:300], created=now)).inserted_primary_key
        assert key is not None
        added.append(int(key[0]))
    hit_docs = _check_existing(session, case_id, added)
    what = (f"“{cleaned[0].name}”" if len(added) == 1 else f"{len(added)} names")
    scope = "the workspace's watch list" if case_id is None else "the watch list"
    if added:
        log_change(session, "watch.add", case_id=case_id, summary=f"{what} watched",
                   data={"names": added, "source": source})
    message = (f"Added {what} to {scope}" if added else "Those names are already watched")
    it = "it" if len(added) == 1 else "them"
    if added:
        one = len(hit_docs) == 1
        message += (f"; {len(hit_docs)} document{'' if one else 's'} mention{'s' if one else ''}"
                    f" {it}." if hit_docs else f"; no document mentions {it} yet.")
    return changes(case_id, watch=bool(added), documents=hit_docs,
                   label=f"watch {what}", message=message,
                   value={"added": added, "hits": len(hit_docs)},
                   undo=Step("watch.remove", {"name_ids": added}, label=f"Undo watch {what}")
                   if added else None)


def _check_existing(session: Session, case_id: int | None, name_ids: Sequence[int]
                    ) -> list[int]:
    """Check the documents in the names' scope (the case's, or every case's) for the new
    names ``name_ids``; stores the hits. Returns the ids of the documents with hits."""
    if not name_ids:
        return []
    conn = session.connection()
    new = set(name_ids)
    if case_id is not None:  # the case's whole list, compiled for its next imports too
        compiled = compiled_list(session, case_id)
        assert compiled is not None
        matcher = compiled.matcher
    else:
        listed = conn.execute(select(_NAMES.c.id, _NAMES.c.name, _NAMES.c.aliases,
                                     _NAMES.c.kind).where(_NAMES.c.id.in_(list(new)))).all()
        matcher = Matcher(_to_name(r) for r in listed)
    stmt = (select(_DOCS.c.id, _ITEMS.c.case_id, _DOCS.c.text)
            .join(_ITEMS, _ITEMS.c.id == _DOCS.c.id).order_by(_DOCS.c.id))
    if case_id is not None:
        stmt = stmt.where(_ITEMS.c.case_id == case_id)
    now = utcnow()
    hit_docs = []
    rows: list[dict[str, Any]] = []
    for doc_id, doc_case, text in conn.execute(stmt, execution_options={"yield_per": 200}):
        found = _group(m for m in matcher.find(text or "") if m.ref in new)
        if found:
            rows += _hit_rows(int(doc_case), int(doc_id), found, now)
            hit_docs.append(int(doc_id))
    for at in range(0, len(rows), 5000):
        conn.execute(insert(_HITS), rows[at:at + 5000])
    return hit_docs


def _rows(session: Session, table: Any, where: Any) -> list[dict[str, Any]]:
    return [{k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in r.items()}
            for r in session.connection().execute(select(table).where(where)).mappings()]


@action("watch.remove")
def remove_names(session: Session, name_ids: Sequence[int]) -> Changes:
    """Take names off the watch list, with their hits. ``undo`` puts both back as they were.
    Raises ValidationError (no ids), NotFoundError (an id not on the list)."""
    ids = list(dict.fromkeys(int(i) for i in name_ids))
    if not ids:
        raise ValidationError("no watched name given")
    names = _rows(session, _NAMES, _NAMES.c.id.in_(ids))
    missing = set(ids) - {r["id"] for r in names}
    if missing:
        raise NotFoundError(f"no watched name with id {min(missing)}")
    hits = _rows(session, _HITS, _HITS.c.watch_name_id.in_(ids))
    conn = session.connection()
    conn.execute(delete(_HITS).where(_HITS.c.watch_name_id.in_(ids)))
    conn.execute(delete(_NAMES).where(_NAMES.c.id.in_(ids)))
    cases = {r["case_id"] for r in names}
    case_id = next(iter(cases)) if len(cases) == 1 else None
    what = f"“{names[0]['name']}”" if len(names) == 1 else f"{len(names)} names"
    log_change(session, "watch.remove", case_id=case_id, summary=f"{what} no longer watched",
               data={"names": ids})
    return changes(case_id, watch=True, documents={h["document_id"] for h in hits},
                   label=f"stop watching {what}",
                   message=f"Stopped watching {what}.", value=len(names),
                   undo=Step("watch.restore", {"names": names, "hits": hits},
                             label=f"Undo stop watching {what}"))


@action("watch.restore")
def restore_names(session: Session, names: Sequence[Mapping[str, Any]],
                  hits: Sequence[Mapping[str, Any]] = ()) -> Changes:
    """Put removed names and their hits back under their ids (the undo of
    :func:`remove_names`; rows given as that step recorded them). Hits of documents deleted
    since are left out. ``undo`` removes them again."""
    conn = session.connection()
    def typed(row: Mapping[str, Any], stamp: str) -> dict[str, Any]:
        out = dict(row)
        if isinstance(out.get(stamp), str):
            out[stamp] = datetime.fromisoformat(out[stamp])
        return out

    if names:
        conn.execute(insert(_NAMES), [typed(r, "created") for r in names])
    docs = {int(d) for d in conn.execute(select(_DOCS.c.id).where(
        _DOCS.c.id.in_({int(h["document_id"]) for h in hits}))).scalars()} if hits else set()
    kept = [typed(h, "found") for h in hits if int(h["document_id"]) in docs]
    if kept:
        conn.execute(insert(_HITS), kept)
    ids = [int(r["id"]) for r in names]
    cases = {r["case_id"] for r in names}
    case_id = next(iter(cases)) if len(cases) == 1 else None
    what = f"“{names[0]['name']}”" if len(names) == 1 else f"{len(names)} names"
    log_change(session, "watch.add", case_id=case_id, summary=f"{what} watched again",
               data={"names": ids, "restored": True})
    return changes(case_id, watch=True, documents={int(h["document_id"]) for h in kept},
                   label=f"watch {what} again", message=f"Watching {what} again.",
                   value=len(ids), undo=Step("watch.remove", {"name_ids": ids},
                                             label=f"Redo stop watching {what}"))


# -- reads -----------------------------------------------------------------------------------

def list_names(session: Session, case_id: int | None = None) -> list[WatchedName]:
    """The names watched in case ``case_id`` (its own, then the workspace's), or only the
    workspace's (None), by name; each with how many documents of that case (or of any case)
    mention it. Reads only."""
    counts = select(_HITS.c.watch_name_id, func.count().label("n")).group_by(
        _HITS.c.watch_name_id)
    if case_id is not None:
        counts = counts.where(_HITS.c.case_id == case_id)
    sub = counts.subquery()
    rows = session.connection().execute(
        select(_NAMES, func.coalesce(sub.c.n, 0).label("documents"))
        .outerjoin(sub, sub.c.watch_name_id == _NAMES.c.id).where(_scope(case_id))).all()
    out = [WatchedName(int(r.id), r.case_id, r.name, tuple(r.aliases or ()), r.kind, r.source,
                       int(r.documents)) for r in rows]
    out.sort(key=lambda n: (n.case_id is None, n.name.casefold()))
    return out


def case_hits(session: Session, case_id: int, document_ids: Iterable[int] | None = None
              ) -> list[Hit]:
    """The case's hits (of the documents ``document_ids`` only, when given), newest
    document first, then by name; each with the passage around it (about
    :data:`PASSAGE_REACH` characters each side, cut at line ends). Reads only."""
    reach = PASSAGE_REACH
    lo = case((_HITS.c.start < reach, 0), else_=_HITS.c.start - reach)  # both engines
    stmt = (select(_HITS.c.id, _HITS.c.watch_name_id, _NAMES.c.name, _HITS.c.variant,
                   _HITS.c.document_id, _ITEMS.c.title, _HITS.c.start, _HITS.c.end,
                   _HITS.c.count.label("times"), _HITS.c.found, lo.label("lo"),
                   func.substr(_DOCS.c.text, lo + 1, _HITS.c.end - lo + reach).label("around"))
            .join(_NAMES, _NAMES.c.id == _HITS.c.watch_name_id)
            .join(_ITEMS, _ITEMS.c.id == _HITS.c.document_id)
            .join(_DOCS, _DOCS.c.id == _HITS.c.document_id)
            .where(_HITS.c.case_id == case_id))
    if document_ids is not None:
        wanted = [int(i) for i in document_ids]
        if not wanted:
            return []
        stmt = stmt.where(_HITS.c.document_id.in_(wanted))
    out = []
    for r in session.connection().execute(stmt.order_by(_HITS.c.document_id.desc(),
                                                        _NAMES.c.name)):
        out.append(Hit(int(r.id), int(r.watch_name_id), r.name, r.variant,
                       int(r.document_id), r.title, int(r.start), int(r.end), int(r.times),
                       _passage(r.around or "", int(r.start) - int(r.lo),
                                int(r.end) - int(r.lo)), r.found))
    return out


def _passage(around: str, start: int, end: int) -> str:
    """The line(s) of ``around`` holding ``around[start:end]``, spaces squashed, with "…"
    where it was cut."""
    a = around.rfind("\n", 0, start) + 1
    b = around.find("\n", end)
    b = len(around) if b < 0 else b
    text = " ".join(around[a:b].split())
    return ("…" if a == 0 and start > PASSAGE_REACH - 1 else "") + text + (
        "…" if b == len(around) and len(around) > end + PASSAGE_REACH - 1 else "")


def names_from_case(session: Session, case_id: int) -> list[WatchEntry]:
    """The case's people and organizations as names to watch (titles, with their aliases),
    but for titles without a word of two or more letters. Reads only."""
    get_case(session, case_id)
    out = [WatchEntry(p.title, tuple(p.aliases or ()), "person") for p in session.scalars(
        select(Person).where(Person.case_id == case_id).order_by(Person.id))]
    out += [WatchEntry(o.title, tuple(o.aliases or ()), "organization") for o in
            session.scalars(select(Organization).where(Organization.case_id == case_id)
                            .order_by(Organization.id))]
    return [e for e in out if meaningful(e.name)]

