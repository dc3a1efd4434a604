"""Assemble a case into :class:`~casefile.export.brief_data.BriefData` and print the PDF brief.

Confidentiality (ARCHITECTURE.md, "Exports protect confidential sources") follows
the export profile (:mod:`casefile.services.disclosure`: internal, editor -- the default --,
legal, public). Under every profile but internal, items flagged confidential are left out,
passages and documents from confidential documents are left out, and the names and aliases of
left-out people and organizations are replaced by "[withheld]" wherever they would still appear
in printed text (quotes, question texts, event and claim text, titles, notes). Under legal and
public, confidential people are not left out but printed as "Source A", "Source B"… (in quotes
"[Source A]"), and no contact detail is printed; what else is left out around them (their
mention-only evidence, mention contexts that name them, their node or edges in the graph figure)
is the rule of :mod:`casefile.services.disclosure`, "What travels with a pseudonym". All of it
is done here, in the data the renderer is given (one function, :meth:`Disclosure.substitute`);
the renderer prints what it gets, and the written PDF is re-read and refused if a protected
string is in it anyway.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, with_polymorphic

from casefile.collector import paused as collector_paused
from casefile.export.brief_data import (
    BriefData,
    ClaimEntry,
    EntityEntry,
    EventEntry,
    GraphFigure,
    GraphNodeEntry,
    MentionEntry,
    QuestionEntry,
    QuoteEntry,
    SourceEntry,
)
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.disclosure import (
    WITHHELD,
    Disclosure,
    ExportProfile,
    case_evidenced,
    contact_pieces,
    disclosure_for,
    get_profile,
)
from casefile.store.evidence import EvidenceLink, Passage
from casefile.store.items import (
    QUESTION_STATUSES,
    Claim,
    Document,
    Event,
    Item,
    Organization,
    Person,
    Place,
    Question,
)
from casefile.web_capture import capture_line

if TYPE_CHECKING:
    from casefile.services.graph import CaseGraph

__all__ = ["WITHHELD", "build_brief_data", "contact_pieces", "export_brief"]


def build_brief_data(
    session: Session, case_id: int, *, include_confidential: bool = False,
    profile: str | ExportProfile | None = None, today: date | None = None,
) -> BriefData:
    """Everything the brief prints for a case under ``profile`` (module docstring; None: the
    default, or "internal" with ``include_confidential``). Raises ValidationError for an
    unknown profile or ``include_confidential`` with another profile than internal."""
    chosen = get_profile(profile, include_confidential=include_confidential)
    return _gather(session, case_id, chosen, today=today)[0]


def _capture(doc: Document, url: Callable[[str | None], str | None]) -> str | None:
    """A saved web page's capture line with its URL as the disclosure shows URLs (left out
    when it holds a protected string)."""
    capture = (doc.meta or {}).get("capture")
    if not isinstance(capture, dict):
        return None
    return capture_line({**capture, "url": url(capture.get("url"))})


def _gather(
    session: Session, case_id: int, profile: ExportProfile, *, today: date | None,
) -> tuple[BriefData, Disclosure]:
    """The brief's data and the disclosure it was made under (its ``protected`` strings are
    what the written PDF is searched for)."""
    case = get_case(session, case_id)
    today = today or date.today()
    every_kind = with_polymorphic(Item, "*")  # one query for the items with all their fields
    items: list[Item] = list(session.scalars(
        select(every_kind).where(every_kind.case_id == case_id).order_by(every_kind.id)))
    shown = disclosure_for(items, profile, evidenced=case_evidenced(session, case_id))
    hidden_ids = shown.hidden
    red = shown.substitute
    visible = [i for i in items if i.id not in hidden_ids]
    by_id = {i.id: i for i in items}

    documents = sorted(
        (i for i in visible if isinstance(i, Document)),
        key=lambda d: (d.published or date.max, d.title.lower(), d.id),
    )
    numbers = {d.id: n for n, d in enumerate(documents, start=1)}
    sources = [
        SourceEntry(
            number=numbers[d.id], title=red(d.title) or "", sha256=d.file_sha256 or "",
            published=d.published.isoformat() if d.published else None,
            outlet=red(d.outlet), author=red(d.author), kind=d.doc_kind, url=shown.url(d.url),
            status=d.status, capture=_capture(d, shown.url),
        )
        for d in documents
    ]

    links = _case_evidence(session, case_id, by_id)

    def evidence(item_id: int, own_text: str | None = None) -> _Evidence:
        """The item's evidence as the window's evidence panel counts it: every passage linked
        to it (in a source the brief prints), by relation. Passages that are the item's own
        text become citations of it; bare-name mentions fold into one line per source."""
        out = _Evidence()
        own = _fold(own_text) if own_text else ""
        seen: set[tuple[str, int, str]] = set()
        folded: dict[int, MentionEntry] = {}
        for ev in links.views.get(item_id, []):
            if ev.document_id not in numbers or ev.quote is None:
                continue
            if not shown.evidence_shown(item_id, ev.relation):
                out.withheld += 1  # the profile leaves it out: said, not counted as none
                continue
            number = numbers[ev.document_id]
            words = _fold(ev.quote)
            if ev.relation == "mentions" and _is_bare_mention(ev.quote):
                entry = folded.get(number)
                if entry is None:
                    folded[number] = MentionEntry(number, 1, _context(by_id, ev, shown), ev.page)
                else:
                    entry.count += 1
                continue
            key = (words, ev.document_id, ev.relation)
            if key in seen:  # the same words from the same source, once is enough
                continue
            seen.add(key)
            quote = _quote(ev, number, shown)
            if own and _same_words(words, own):
                out.text_sources.append(quote)
            else:
                out.quotes.append(quote)
        out.mentioned = sorted(folded.values(), key=lambda m: m.source_number)
        return out

    def name_of(ref: int | None) -> str | None:
        return shown.name_of(by_id.get(ref)) if ref is not None else None

    def notes(text: str | None) -> str | None:
        return red(text) if profile.notes else None

    def entity(item: Person | Organization | Place) -> EntityEntry:
        role = getattr(item, "role", None) if isinstance(item, Person) else getattr(
            item, "org_kind", None)
        affiliation = name_of(item.affiliation_id) if isinstance(item, Person) else (
            name_of(item.parent_id) if isinstance(item, Organization) else None)
        found = evidence(item.id)
        own_notes = notes(item.notes)
        if item.id in shown.pseudonyms:  # no alias, no notes; role and affiliation as the
            aliases: list[str] = []      # profile says
            own_notes = None
            if not profile.source_details:
                role = affiliation = None
        else:
            aliases = [red(a) or "" for a in (item.aliases or []) if a != item.title]
        return EntityEntry(
            name=shown.name_of(item) or "", kind=item.kind, role=red(role),
            affiliation=affiliation, aliases=aliases, notes=own_notes,
            quotes=found.quotes, mentioned=found.mentioned, withheld=found.withheld,
        )

    def by_name(entries: Iterable[Person | Organization | Place]) -> list[EntityEntry]:
        return sorted((entity(i) for i in entries), key=lambda e: e.name.lower())

    def question(q: Question) -> QuestionEntry:
        found = evidence(q.id, q.title)
        own = _own_text(shown, found)
        return QuestionEntry(
            text=own(q.title) or "", kind=q.question_kind, status=q.status,
            due=q.due.isoformat() if q.due else None,
            overdue=bool(q.due and q.due < today), ask=name_of(q.ask_id),
            quotes=found.quotes, text_sources=found.text_sources,
        )

    def event(e: Event) -> EventEntry:
        found = evidence(e.id, e.description or e.title)
        own = _own_text(shown, found)
        return EventEntry(
            title=own(e.title) or "", date=e.date.isoformat() if e.date else None,
            precision=e.precision, end=e.end.isoformat() if e.end else None,
            place=name_of(e.place_id), description=own(e.description),
            quotes=found.quotes, text_sources=found.text_sources,
        )

    questions = [question(q) for q in visible
                 if isinstance(q, Question) and q.status in ("open", "waiting")]
    events = sorted(
        (i for i in visible if isinstance(i, Event)), key=lambda e: (e.date or date.max, e.title)
    )
    claims = [i for i in visible if isinstance(i, Claim)]
    statuses = {status: 0 for status in QUESTION_STATUSES}
    for q in visible:
        if isinstance(q, Question) and q.status in statuses:
            statuses[q.status] += 1
    data = BriefData(
        case_title=case.title,
        generated=today.isoformat(),
        summary=red(case.summary),
        questions=questions,
        people=by_name(i for i in visible if isinstance(i, Person)),
        organizations=by_name(i for i in visible if isinstance(i, Organization)),
        places=by_name(i for i in visible if isinstance(i, Place)),
        events=[event(e) for e in events],
        claims=[_claim_entry(session, c, links.of_claims.get(c.id, []), name_of, shown, evidence)
                for c in claims],
        sources=sources,
        includes_confidential=profile.confidential_items,
        profile=profile.name,
        cover_note=profile.cover_note,
        graph=_graph_figure(session, case_id, shown, by_id),
        followup_statuses=list(statuses.items()),
    )
    return data, shown


def _graph_figure(session: Session, case_id: int, shown: Disclosure,
                  by_id: dict[int, Item]) -> GraphFigure | None:
    """The case's relationship graph as the profile may show it: hidden items left out,
    pseudonymous people under their pseudonym with only their affiliation edges
    (:data:`SOURCE_EDGES`), or left out under a profile without source details (public: an
    edge to their organization is their affiliation), connections whose every passage is in
    a hidden document left out; at the positions the Graph tab keeps (:func:`_kept_positions`:
    a node without one is laid out once and its position kept)."""
    from casefile.services import graph

    whole = graph.case_graph(session, case_id)
    if not whole.nodes:
        return None
    passage_docs = dict(session.execute(
        select(Passage.id, Passage.document_id).where(Passage.case_id == case_id)).all())
    sources = set(shown.pseudonyms)
    nodes = tuple(n for n in whole.nodes if shown.shows(n.id) and (
        n.id not in sources or shown.profile.source_details))
    keep = {n.id for n in nodes}
    edges = tuple(e for e in whole.edges if e.source in keep and e.target in keep and (
        not e.passages or any(shown.shows(passage_docs.get(p)) for p in e.passages)) and (
        not {e.source, e.target} & sources or e.relation in SOURCE_EDGES))
    total = len(nodes)
    if total > FIGURE_NODES:  # a page holds the best-connected part readably, not all of it
        degree: dict[int, int] = {}
        for e in edges:
            degree[e.source] = degree.get(e.source, 0) + e.weight
            degree[e.target] = degree.get(e.target, 0) + e.weight
        nodes = tuple(sorted(nodes, key=lambda n: (-degree.get(n.id, 0), n.id))[:FIGURE_NODES])
        keep = {n.id for n in nodes}
        edges = tuple(e for e in edges if e.source in keep and e.target in keep)
    positions = _kept_positions(session, case_id, whole)
    return GraphFigure(
        nodes=[GraphNodeEntry(n.id, n.kind, shown.name_of(by_id.get(n.id)) or "",
                              *positions[n.id], confidential=n.confidential) for n in nodes],
        edges=[(e.source, e.target, e.relation, e.weight) for e in edges],
        total_nodes=total,
    )


def _kept_positions(session: Session, case_id: int, whole: CaseGraph
                   ) -> dict[int, tuple[float, float]]:
    """A position ``{item id: (x, y)}`` (scene units) for every node of the case's graph
    ``whole``: the Graph tab's kept ones; when some node has none, the nodes without one are
    laid out around the kept ones (which stay put) once, and the new positions are kept for the
    Graph tab and the next brief (``graph.save_layout``, a view state). When the workspace
    refuses that write (another process wrote meanwhile, a reader of a team case), the
    positions are used all the same and not kept."""
    from casefile.services import graph

    saved = graph.saved_layout(session, case_id).positions
    kept = {n.id: saved[n.id] for n in whole.nodes if n.id in saved}
    if len(kept) == len(whole.nodes):
        return kept
    laid = graph.layout_graph(whole, kept, fixed=set(kept))
    try:
        with session.begin_nested():  # a refused write leaves the transaction as it was
            graph.save_layout(session, case_id, laid, alive=[n.id for n in whole.nodes])
    except DBAPIError:
        pass
    return {i: (round(x, 1), round(y, 1)) for i, (x, y) in laid.items()}


#: The edges of a pseudonymous person the graph figure keeps under legal (what the profile
#: prints as their affiliation anyway); "quoted together" and "quoted in" would place them.
SOURCE_EDGES = ("affiliated with", "employed by")

#: The brief's graph figure shows at most this many items (the best connected).
FIGURE_NODES = 80


class _View(NamedTuple):
    """A linked passage (or whole document) of an item, as the brief reads it: what the
    evidence panel's ``EvidenceView`` holds, less what the brief does not print."""

    link_id: int
    relation: str
    note: str | None
    document_id: int
    published: str | None  # the source's date, ISO
    passage_id: int | None
    quote: str | None
    start: int | None
    end: int | None
    page: int | None


class _Link(NamedTuple):
    """An evidence link as a claim's assessment reads it (``claims.assessment_of``)."""

    relation: str
    note: str | None


class _Quoted(NamedTuple):
    """A linked passage's words, as a claim's assessment reads them."""

    quote: str


@dataclass
class _CaseEvidence:
    """A case's evidence read at once: ``views`` per item, as ``evidence_for`` gives them (by
    document date, document, position); ``of_claims`` per claim, the (link, passage, document)
    rows ``claims.assessment_of`` counts, in link id order."""

    views: dict[int, list[_View]] = field(default_factory=dict)
    of_claims: dict[int, list[tuple[_Link, _Quoted | None, Document]]] = field(
        default_factory=dict)


def _case_evidence(session: Session, case_id: int, by_id: dict[int, Item]) -> _CaseEvidence:
    """Every evidence link of the case's items with its passage, in one query of plain rows;
    sources are looked up in ``by_id`` (the case's items, already loaded)."""
    rows = session.execute(
        select(EvidenceLink.id, EvidenceLink.item_id, EvidenceLink.relation, EvidenceLink.note,
               EvidenceLink.document_id, Passage.id, Passage.document_id, Passage.quote,
               Passage.start, Passage.end, Passage.page)
        .outerjoin(Passage, Passage.id == EvidenceLink.passage_id)
        .where(EvidenceLink.item_id.in_(select(Item.id).where(Item.case_id == case_id)))
        .order_by(EvidenceLink.id)
    ).all()
    out = _CaseEvidence()
    for (link_id, item_id, relation, note, link_doc, passage_id, passage_doc, quote, start, end,
         page) in rows:
        doc = by_id.get(passage_doc if passage_id is not None else link_doc or -1)
        if not isinstance(doc, Document):
            continue
        if isinstance(by_id.get(item_id), Claim):
            out.of_claims.setdefault(item_id, []).append(
                (_Link(relation, note), _Quoted(quote) if passage_id is not None else None, doc))
        out.views.setdefault(item_id, []).append(_View(
            link_id, relation, note, doc.id,
            doc.published.isoformat() if doc.published else None,
            passage_id, quote, start, end, page,
        ))
    for views in out.views.values():
        views.sort(key=lambda v: (v.published or "9999", v.document_id, v.start or 0))
    return out


def _claim_entry(
    session: Session,
    claim: Claim,
    links: list[tuple[_Link, _Quoted | None, Document]],
    name_of: Callable[[int | None], str | None],
    shown: Disclosure,
    evidence_of: Callable[[int, str | None], _Evidence],
) -> ClaimEntry:
    """A claim with the status its evidence gives now (or the reporter's override and reason)
    and its attribution chain; a description of unnamed sources is labelled as such, a
    name written as text (not an item of the case) is printed as written. The evidence line gives
    counts only, never the names of the documents (some may be confidential)."""
    from casefile.services.claims import (
        UNNAMED_SOURCES,
        assessment_of,
        describes_unnamed_sources,
    )

    red = shown.substitute
    verdict = assessment_of(session, claim, links)
    attributed = name_of(claim.attributed_to_id)
    if attributed is None and claim.attributed_to_text:
        text = red(claim.attributed_to_text) or ""
        attributed = (f"{text} ({UNNAMED_SOURCES})"
                      if describes_unnamed_sources(claim.attributed_to_text)
                      and "unnamed" not in text.casefold() else text)
    n, k = verdict.supporting, len(verdict.origins)
    evidence = (
        f"{n} supporting passage{'s' if n != 1 else ''} from {k} independent "
        f"origin{'s' if k != 1 else ''}" if n else "no supporting passage"
    )
    if verdict.contradicting:
        m = verdict.contradicting
        evidence += f"; {m} contradicting passage{'s' if m != 1 else ''}"
    found = evidence_of(claim.id, claim.statement or claim.title)
    return ClaimEntry(
        statement=_own_text(shown, found)(claim.statement or claim.title) or "",
        status=verdict.status,
        attributed_to=attributed, via=name_of(claim.via_id), quotes=found.quotes,
        text_sources=found.text_sources,
        status_reason=red(verdict.reason), computed_status=verdict.computed, evidence=evidence,
    )


def _own_text(shown: Disclosure, found: _Evidence) -> Callable[[str | None], str | None]:
    """How an entry's own text is substituted: as a quote ("[Source A]") when a passage of a
    document is that text (``found.text_sources``: the words are the document's), else as the
    reporter's text ("Source A")."""
    return shown.quote if found.text_sources else shown.substitute


@dataclass
class _Evidence:
    """An item's evidence, sorted for print: ``quotes`` to print, ``text_sources`` (passages
    that are the item's own text: cited, not printed again), ``mentioned`` (bare-name mentions
    folded per source)."""

    quotes: list[QuoteEntry] = field(default_factory=list)
    text_sources: list[QuoteEntry] = field(default_factory=list)
    mentioned: list[MentionEntry] = field(default_factory=list)
    withheld: int = 0  # links the export profile leaves out


#: A "mentions" passage of at most this many words, with no sentence end inside, is a name.
BARE_MENTION_WORDS = 8


def _is_bare_mention(quote: str) -> bool:
    """True for a passage that is only a name ("Peterson", "Coral Springs police"), not a
    sentence or a phrase that says something."""
    words = quote.split()
    return len(words) <= BARE_MENTION_WORDS and not re.search(r"[.!?;:]\s", quote.strip() + " ")


def _same_words(quote: str, own: str) -> bool:
    """True when a folded passage is the item's own folded text (or that text cut short with
    an ellipsis, as long sentences are when they become titles)."""
    if quote == own:
        return True
    cut = own.rstrip("…").rstrip()
    return own.endswith("…") and len(cut) >= 20 and quote.startswith(cut)


def _context(by_id: dict[int, Item], ev: _View, shown: Disclosure) -> str | None:
    """The words around a mention (its sentence, or ~60 characters either side), substituted
    as a quote; None when they name a pseudonymous person (``Disclosure.names_pseudonym``)."""
    from casefile.services.suggestion_list import context_snippet

    doc = by_id.get(ev.document_id)
    text = doc.text if isinstance(doc, Document) else None
    if not text or ev.start is None or ev.end is None:
        return None
    snippet, _span = context_snippet(text, ev.start, ev.end)
    if shown.names_pseudonym(snippet):  # the words around a source's name describe them
        return None
    return shown.quote(snippet)


def _fold(text: str) -> str:
    """Compare names and quotes ignoring case, spacing, curly vs straight apostrophes and a
    possessive ending."""
    folded = " ".join(text.replace("\u2019", "'").casefold().split()).strip(" .,;:")
    return folded.removesuffix("'s")


def _quote(ev: _View, number: int, shown: Disclosure) -> QuoteEntry:
    return QuoteEntry(
        text=shown.quote(ev.quote) or "", source_number=number, relation=ev.relation,
        page=ev.page, note=shown.substitute(ev.note) if shown.profile.notes else None,
    )


def export_brief(
    session: Session,
    case_id: int,
    out: Path | BinaryIO,
    *,
    include_confidential: bool = False,
    profile: str | ExportProfile | None = None,
    today: date | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BriefData:
    """Write the case's PDF brief to ``out`` (a path or binary file); returns what was printed.

    ``profile`` is the export profile's name (internal, editor, legal, public; see
    :data:`casefile.services.disclosure.PROFILES`); None is the default, editor, or internal
    when ``include_confidential`` is set.

    The written PDF is checked before it is put in place: it is
    re-read and searched for every string the profile protects (``Disclosure.protected``:
    names, aliases and contact details of left-out and pseudonymous people...); if one is
    there, no file is left at ``out``.

    Raises:
        ValidationError: an unknown profile, or ``include_confidential`` with a profile other
            than internal.
        ProtectedStringFoundError: the check found a withheld string; the message names it and
            the place ("text of page 3", "metadata Title"...). An ExportError.
        ExportError (a CasefileError): the PDF cannot be written.
    """
    chosen = get_profile(profile, include_confidential=include_confidential)
    # reportlab's modules, the case's rows and the flowables are many objects that live until
    # the file is written: the collector's passes over the whole heap meanwhile free nothing
    with collector_paused():
        from casefile.export.brief import render_brief  # reportlab loads when a brief is printed

        data, shown = _gather(session, case_id, chosen, today=today)
        render_brief(data, out, progress=progress, protected=shown.protected)
    log_change(session, "brief.export", case_id=case_id,
               summary=str(out) if isinstance(out, Path) else "brief",
               data={"include_confidential": chosen.confidential_items,
                     "profile": chosen.name})
    return data
