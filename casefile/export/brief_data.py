"""Plain data the PDF brief is drawn from.

The services build a :class:`BriefData` from the database (already filtered for confidentiality);
the renderer in :mod:`casefile.export.brief` only lays it out. Keeping the two apart lets the
renderer be tested without a database. Dates are ISO 8601 strings (``YYYY-MM-DD``) or None.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SourceEntry:
    """One document in the sources list; ``number`` is what quotes cite as ``[n]``."""

    number: int
    title: str
    sha256: str
    published: str | None = None
    outlet: str | None = None
    author: str | None = None
    kind: str | None = None
    url: str | None = None
    status: str | None = None
    confidential: bool = False  # only ever True when the brief includes confidential material
    #: a saved web page's capture: "Saved from URL on 2026-12-02 09:15 UTC (WARC), page
    #: SHA-256 ..." (:func:`casefile.web_capture.capture_line`); None otherwise
    capture: str | None = None


@dataclass
class QuoteEntry:
    """A quoted passage, printed verbatim, citing ``source_number``; ``page`` is 1-based or None."""

    text: str
    source_number: int
    relation: str = "supports"
    page: int | None = None
    note: str | None = None
    confidential: bool = False  # only ever True when the brief includes confidential material


@dataclass
class MentionEntry:
    """Bare-name mentions of an item in one source, folded into one line (as the window's
    evidence panel folds them): ``count`` mentions in source ``source_number``; ``context`` is
    the words around the first one (its sentence, or about 60 characters either side)."""

    source_number: int
    count: int
    context: str | None = None
    page: int | None = None


@dataclass
class EntityEntry:
    """A person, organization or place with the quotes that are evidence for it, and its
    bare-name mentions folded per source (``mentioned``)."""

    name: str
    kind: str
    role: str | None = None
    affiliation: str | None = None
    aliases: list[str] = field(default_factory=list)
    notes: str | None = None
    quotes: list[QuoteEntry] = field(default_factory=list)
    mentioned: list[MentionEntry] = field(default_factory=list)
    confidential: bool = False  # only ever True when the brief includes confidential material
    withheld: int = 0  # evidence links the export profile leaves out (mentions of a source)


@dataclass(kw_only=True)
class TextEntry:
    """What a question, an event and a claim share: the passages that are evidence for the
    entry's text. ``quotes`` are printed as quotes; ``text_sources`` are passages whose words
    are the entry's own text, printed as citations after the text, not as a second copy of
    it. Given by keyword."""

    quotes: list[QuoteEntry] = field(default_factory=list)
    text_sources: list[QuoteEntry] = field(default_factory=list)
    confidential: bool = False  # only ever True when the brief includes confidential material


@dataclass
class QuestionEntry(TextEntry):
    """An open question or follow-up; ``overdue`` is computed against the brief's date."""

    text: str
    kind: str
    status: str
    due: str | None = None
    overdue: bool = False
    ask: str | None = None


@dataclass
class EventEntry(TextEntry):
    """A dated event; ``precision`` is exact / day / month / approximate."""

    title: str
    date: str | None
    precision: str = "day"
    end: str | None = None
    place: str | None = None
    description: str | None = None


@dataclass
class ClaimEntry(TextEntry):
    """A claim with its status and attribution chain (statement ← ``attributed_to`` ← ``via``
    ← the quoted passages).

    ``status_reason`` is set when the reporter overrode the status, with ``computed_status``
    what the evidence alone gives; ``evidence`` a one-line account of the evidence counted
    (e.g. "2 supporting passages from 1 independent origin").
    """

    statement: str
    status: str
    attributed_to: str | None = None
    via: str | None = None
    status_reason: str | None = None
    computed_status: str | None = None
    evidence: str | None = None


@dataclass
class GraphNodeEntry:
    """A node of the brief's graph figure: ``x``/``y`` in the graph's scene units (y down),
    ``label`` already substituted (a pseudonym for a confidential person)."""

    id: int
    kind: str
    label: str
    x: float
    y: float
    confidential: bool = False  # only ever True when the brief includes confidential material


@dataclass
class GraphFigure:
    """The relationship graph as the brief draws it: nodes and ``edges`` as (source id, target
    id, relation, weight)."""

    nodes: list[GraphNodeEntry] = field(default_factory=list)
    edges: list[tuple[int, int, str, int]] = field(default_factory=list)
    #: How many items the whole graph has (more than ``nodes`` when only the best-connected
    #: part is drawn).
    total_nodes: int = 0


@dataclass
class BriefData:
    """Everything one brief prints, in print order.

    ``profile`` names the export profile the data was made under (internal, editor, legal,
    public: :mod:`casefile.services.disclosure`); ``cover_note``, when set, is what the cover
    says about confidential material instead of the renderer's own line.
    """

    case_title: str
    generated: str
    summary: str | None = None
    questions: list[QuestionEntry] = field(default_factory=list)
    people: list[EntityEntry] = field(default_factory=list)
    organizations: list[EntityEntry] = field(default_factory=list)
    places: list[EntityEntry] = field(default_factory=list)
    events: list[EventEntry] = field(default_factory=list)
    claims: list[ClaimEntry] = field(default_factory=list)
    sources: list[SourceEntry] = field(default_factory=list)
    includes_confidential: bool = False
    profile: str = "editor"
    cover_note: str | None = None
    #: The relationship graph figure (None: not drawn).
    graph: GraphFigure | None = None
    #: Follow-ups and questions by status, (status, count) in the order of QUESTION_STATUSES.
    followup_statuses: list[tuple[str, int]] = field(default_factory=list)
