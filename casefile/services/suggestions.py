"""Step two of an import: run the extractor on a document and store its suggestions as Mentions.

Names the case already holds (titles and aliases of people, organizations and places) are passed
to the extractor so they are found in every new document; a mention of such a name is tied to
the existing item at once (status "confirmed"), so no new suggestion appears for it. Names the
reporter rejected in any case of the workspace are not suggested again (until that reject is
undone), unless this case holds an item of that name.

Events, follow-ups and claims are stored as Mentions of kind "event", "question" and "claim"
over their sentence, with what the extractor says of them in ``detail``: ``{"date",
"precision"}`` for an event, ``{"kind", "due"}`` for a follow-up, ``{"attributed_to", "via",
"status"}`` for a claim (who said it, through which outlet, the extractor's status).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError
from casefile.extract.language import NOTE_PREFIX
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.changes import Changes, changes
from casefile.services.decisions import link_mention, variant_of
from casefile.store import ChangeLog, Document, Item, Mention, Organization, Person, Place
from casefile.store.document_notes import LANGUAGE_NOTE, language_noted
from casefile.store.items import SUGGESTIONS_WAITING

if TYPE_CHECKING:
    from casefile.extract.types import EntityKind, KnownItem

ENTITY_KEYS = {"people": "person", "organizations": "organization", "places": "place"}


@dataclass
class SuggestionResult:
    """Counts of what one suggestion run stored, by kind; the extractor's mode ("spacy",
    "rules", or "skipped" for a text too long, ``skipped`` then saying why) and the model that
    made the suggestions ("en_core_web_sm 3.8.0"; None in rules mode)."""

    document_id: int
    mode: str
    counts: dict[str, int] = field(default_factory=dict)
    linked_to_known: int = 0
    model: str | None = None
    #: why no suggestion was looked for (a text too long), else None
    skipped: str | None = None


def extract_file(path: Path, *, published: date | None = None,
                 mode: Literal["auto", "rules"] = "auto", model: str | None = None,
                 password: str | None = None) -> dict[str, Any]:
    """What the extractor finds in a file, stored nowhere (``casefile extract``): the file
    read as an import reads it, then :func:`casefile.extract.extract_suggestions` with
    ``published`` (else the date in the file's metadata). The result's shape is that
    function's. Raises IngestError (PdfPasswordError) for a file that cannot be read,
    ModelError for a chosen model that cannot load."""
    from casefile.extract import extract_suggestions
    from casefile.ingest import ingest_file

    _data, ingested = ingest_file(path, password=password)
    if published is None and ingested.published:
        published = date.fromisoformat(ingested.published)
    return dict(extract_suggestions(ingested.text, published, mode=mode, model=model))


def _known_items(session: Session, case_id: int) -> tuple[list[KnownItem], dict[str, int]]:
    from casefile.extract import KnownItem

    known: list[KnownItem] = []
    ids: dict[str, int] = {}
    stmt = select(Item).where(
        Item.case_id == case_id, Item.kind.in_(("person", "organization", "place"))
    )
    for item in session.scalars(stmt):
        assert isinstance(item, Person | Organization | Place)
        aliases = tuple(item.aliases or ())
        kind: EntityKind = "person" if isinstance(item, Person) else (
            "organization" if isinstance(item, Organization) else "place")
        role = item.role if isinstance(item, Person) else None
        known.append(KnownItem(kind=kind, name=item.title, aliases=aliases, role=role))
        ids[f"{item.kind}:{item.title.casefold()}"] = item.id
    return known, ids


def rejected_names(session: Session, known: Sequence[KnownItem] = ()) -> set[str]:
    """Names of people, organizations and places the reporter rejected in any case of the
    workspace (a reject's undo puts its mentions back to "suggested", so the name leaves this
    set). Names in ``known`` (titles and aliases of the case's own items) are left out: an item
    the case holds is still found in its documents when another case rejected its name."""
    from casefile.extract.text import norm_key

    rejected = set(session.scalars(
        select(Mention.name).where(Mention.status == "rejected",
                                   Mention.kind.in_(tuple(ENTITY_KEYS.values()))).distinct()))
    held = {norm_key(form) for k in known for form in (k.name, *k.aliases)}
    return {name for name in rejected if norm_key(name) not in held}


def extraction_context(session: Session, case_id: int) -> tuple[list[KnownItem], set[str]]:
    """What the extractor is given besides a document of the case: the case's known names
    (people, organizations and places with their aliases) and the workspace's rejected names
    (:func:`rejected_names`). Reads only."""
    known, _ids = _known_items(session, case_id)
    return known, rejected_names(session, known)


def extract_for_document(
    session: Session, document_id: int, *, mode: Literal["auto", "rules"] = "auto",
    model: str | None = None,
) -> dict[str, Any]:
    """Run the extractor on a stored document, with the case's known names and the workspace's
    rejected names (:func:`rejected_names`).

    Reads only: callers that must not hold a write transaction during extraction (two imports
    into one workspace at once) run this first, then pass its result to
    :func:`suggest_for_document`. ``model`` chooses the spaCy pipeline (a package name or a
    pipeline folder; None: ``CASEFILE_SPACY_MODEL``, else the installed default). Returns the
    ``extract --json`` shape. NotFoundError; ModelError if the chosen model cannot load.
    """
    from casefile.extract import extract_suggestions
    from casefile.extract.types import skipped_result

    length = session.execute(select(func.length(Document.text))
                             .where(Document.id == document_id)).first()
    if length is None:
        raise NotFoundError(f"no document with id {document_id}")
    skipped = skipped_result(int(length[0] or 0))  # a text too long is not even loaded
    if skipped is not None:
        return skipped
    doc = session.get(Document, document_id)
    assert doc is not None
    known, rejected = extraction_context(session, doc.case_id)
    return extract_suggestions(doc.text, doc.published, known=known, rejected=rejected, mode=mode,
                               model=model)


def suggest_for_document(
    session: Session, document_id: int, *, mode: Literal["auto", "rules"] = "auto",
    extracted: dict[str, Any] | None = None, model: str | None = None,
) -> SuggestionResult:
    """Extract suggestions from a stored document and store them as Mentions (one transaction).

    ``mode`` is "auto" (spaCy when a model is installed, else rules) or "rules"; ``model``
    chooses the spaCy pipeline (see :func:`extract_for_document`); the result and the change
    log ("document.suggest" data ``{"mode", "model", "linked_to_known"}``) say which model
    made the suggestions. Previous
    suggested (not confirmed or rejected) mentions of the document are replaced; spans already
    decided are left alone, so a re-run suggests nothing twice. A mention of a name the case
    already holds is tied to that item at once: status "confirmed", and its span becomes a
    passage linked to the item as "mentions" evidence (it shows in the evidence panel).
    ``extracted`` is a result of :func:`extract_for_document` computed beforehand (then no
    extraction runs inside this transaction). A text too long for suggestions
    (:func:`casefile.extract.types.skipped_result`) gets none, and the note saying so joins
    the document's import notes; so does the note for a text in a language the suggestions do
    not read (:mod:`casefile.extract.language`), dropped again when a later run reads it. The
    text's language goes to the document's ``meta["language"]``. Raises NotFoundError for an
    unknown document,
    ModelError if the chosen model cannot load.
    """
    doc = lookup.row(session, Document, document_id, f"no document with id {document_id}")
    _known, known_ids = _known_items(session, doc.case_id)
    result = extracted if extracted is not None else extract_for_document(
        session, document_id, mode=mode, model=model)
    session.query(Mention).filter(
        Mention.document_id == doc.id, Mention.status == "suggested"
    ).delete()
    # spans the reporter already decided (or that are already tied to an item) stay as they are
    decided = {(m.kind, m.start, m.end, variant_of(m.kind, m.detail)) for m in session.scalars(
        select(Mention).where(Mention.document_id == doc.id))}
    out = SuggestionResult(document_id=doc.id, mode=str(result.get("mode", mode)),
                           model=result.get("model"), skipped=result.get("skipped"))
    if out.skipped and out.skipped not in (doc.import_notes or []):
        doc.import_notes = [*(doc.import_notes or []), out.skipped]  # shown with the document
    elif not out.skipped and any(str(n).startswith(NOTE_PREFIX) for n in doc.import_notes or ()):
        # read now (a pipeline for its language was chosen): the old note no longer holds
        doc.import_notes = [n for n in doc.import_notes if not str(n).startswith(NOTE_PREFIX)]
    meta = dict(doc.meta or {})
    if result.get("language"):
        meta["language"] = result["language"]
    meta.pop(SUGGESTIONS_WAITING, None)  # read now, whatever a later step does
    if meta != (doc.meta or {}):
        doc.meta = meta
    for key, kind in ENTITY_KEYS.items():
        for entry in result.get(key, []):
            item_id = known_ids.get(f"{kind}:{entry['name'].casefold()}")
            item = session.get(Item, item_id) if item_id else None
            for m in entry.get("mentions", []):
                if (kind, m["start"], m["end"], "") in decided:
                    continue
                mention = Mention(
                    case_id=doc.case_id, document_id=doc.id, item_id=item_id, kind=kind,
                    name=entry["name"], start=m["start"], end=m["end"], text=m["text"],
                    role=entry.get("role"), affiliation=entry.get("affiliation"),
                    status="confirmed" if item_id else "suggested",
                    detail={"org_kind": entry["kind"]} if entry.get("kind") else None,
                )
                session.add(mention)
                if item is not None:  # a name the case holds: its passage is evidence at once
                    link_mention(session, mention, item, "mentions")
            if item_id:
                out.linked_to_known += 1
            else:
                out.counts[kind] = out.counts.get(kind, 0) + 1
    for key, kind in (("events", "event"), ("followups", "question"), ("claims", "claim")):
        for entry in result.get(key, []):
            detail = {k: v for k, v in entry.items() if k not in ("start", "end", "text")}
            if (kind, entry["start"], entry["end"], variant_of(kind, detail)) in decided:
                continue
            session.add(Mention(
                case_id=doc.case_id, document_id=doc.id, kind=kind, name=entry["text"][:500],
                start=entry["start"], end=entry["end"], text=entry["text"], detail=detail,
            ))
            out.counts[kind] = out.counts.get(kind, 0) + 1
    session.flush()
    log_change(session, "document.suggest", case_id=doc.case_id, item_id=doc.id,
               summary=", ".join(f"{n} {k}" for k, n in sorted(out.counts.items())),
               data={"mode": out.mode, "model": out.model,
                     "linked_to_known": out.linked_to_known}
               | ({"skipped": out.skipped} if out.skipped else {}))
    return out


def last_suggestion_model(session: Session, case_id: int) -> str | None:
    """Which model made the latest suggestion run of the case: the spaCy pipeline's name and
    version ("en_core_web_sm 3.8.0"), "rules only" for a run without a model, or None if no
    run is recorded (or it predates this record)."""
    return last_suggestion_run(session, case_id)[1]


def last_suggestion_run(session: Session, case_id: int) -> tuple[str | None, str | None]:
    """How the latest suggestion run of the case found its names and with which model, from
    one read of its record: ``(decisions.last_suggestion_mode, last_suggestion_model)``."""
    data = session.scalar(
        select(ChangeLog.data).where(ChangeLog.case_id == case_id,
                                     ChangeLog.action == "document.suggest")
        .order_by(ChangeLog.id.desc()).limit(1))
    if not isinstance(data, dict):
        return None, None
    mode = str(data["mode"]) if data.get("mode") else None
    if data.get("model"):
        return mode, str(data["model"])
    return mode, "rules only" if data.get("mode") == "rules" else None


def unread_language_notes(session: Session, case_id: int) -> list[str]:
    """The notes of the case's documents that got no suggestions because of their language,
    each note once, naming its document ("“Title”: No suggestions: the text is in Korean;
    ... ko_core_news_sm ... would read its names.") or, for several, how many and the first
    three titles ("... (3 documents: “A”, “B”, “C”)")."""
    titles: dict[str, list[str]] = {}
    # only the documents whose notes hold the prefix are read (a case opens with this read;
    # parsing every document's notes took 0.2 s at 10,000 documents), on SQLite from an index
    # of them (store.document_notes), which knows the prefix as the extractor writes it
    assert NOTE_PREFIX == LANGUAGE_NOTE
    for title, notes in language_noted(session, case_id):
        for note in notes:
            if isinstance(note, str) and note.startswith(NOTE_PREFIX):
                titles.setdefault(note, []).append(f"“{title}”")
    out = []
    for note, named in titles.items():
        if len(named) == 1:
            out.append(f"{named[0]}: {note}")
        else:
            more = ", …" if len(named) > 3 else ""
            out.append(f"{note} ({len(named)} documents: {', '.join(named[:3])}{more})")
    return out


def pending_suggestions(session: Session, case_id: int, kind: str | None = None) -> list[Mention]:
    """Suggested (undecided) mentions of a case, optionally of one kind."""
    stmt = select(Mention).where(Mention.case_id == case_id, Mention.status == "suggested")
    if kind:
        stmt = stmt.where(Mention.kind == kind)
    return list(session.scalars(stmt.order_by(Mention.document_id, Mention.start)))


def suggest_documents(
    session: Session, document_ids: Sequence[int], *,
    progress: Callable[[int, int], None] | None = None, model: str | None = None,
) -> Changes:
    """Step two of an import for several documents: :func:`suggest_for_document` on each, in
    the caller's transaction (the window's background job; the CLI runs one per document).
    ``progress(done, total)`` is called before each document (it may raise to stop: the
    transaction is then rolled back). Returns Changes with ``suggestions`` set, ``documents``
    the documents, ``value`` the :class:`SuggestionResult` list and ``message`` the count of
    new suggestions. ``model`` chooses the spaCy pipeline (see :func:`extract_for_document`).
    There is no undo: the reporter decides each suggestion (and undoes those decisions).
    Raises NotFoundError for an unknown document, ModelError if the chosen model cannot
    load."""
    ids = [int(i) for i in document_ids]
    results: list[SuggestionResult] = []
    for n, doc_id in enumerate(ids):
        if progress is not None:
            progress(n, len(ids))
        results.append(suggest_for_document(session, doc_id, model=model))
    case_id = session.get(Document, ids[0]).case_id if ids else None  # type: ignore[union-attr]
    # each document's meta changes too (its language, the waiting mark gone)
    return changes(case_id, kinds=("document",) if ids else (), updated=ids, documents=ids,
                   suggestions=True, label="suggestions", message=found_message(results),
                   value=results)


def found_message(results: Sequence[SuggestionResult]) -> str:
    """"12 suggestions found." and, when some documents were too long, what was skipped
    ("12 suggestions found; skipped in 1 document: suggestions skipped: the text is …")."""
    found = sum(sum(r.counts.values()) for r in results)
    message = f"{found} suggestion{'s' if found != 1 else ''} found."
    skipped = [r.skipped for r in results if r.skipped]
    if skipped:
        message = (f"{message[:-1]}; skipped in {len(skipped)} "
                   f"document{'s' if len(skipped) != 1 else ''}: {skipped[0]}.")
    return message
