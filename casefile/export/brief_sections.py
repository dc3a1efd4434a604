"""The brief's sections as platypus flowables: the title page, questions and follow-ups,
people, organizations and places, the relationship figure, the timeline, claims and sources
(:func:`_story` puts them in order). Text goes through :mod:`casefile.export.brief_layout`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import (
    Flowable,
    HRFlowable,
    KeepTogether,
    PageBreak,
    Spacer,
    Table,
    TableStyle,
)

from casefile.export.brief_data import (
    BriefData,
    EntityEntry,
    EventEntry,
    MentionEntry,
    QuoteEntry,
)
from casefile.export.brief_layout import (
    _STATUS_COLOURS,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    MARGIN_X,
    PAGE_SIZE,
    RULE,
    _chunks,
    _clean,
    _event_sort_key,
    _Paragraph,
    _paragraphs,
    _present,
    _Styles,
    _text,
    format_event_date,
    sort_questions,
)
from casefile.export.profiles import DEFAULT_PROFILE, PROFILES, ExportProfile
from casefile.export.textruns import (
    active_runs,
    escape,
)
from casefile.quoting import self_quoted


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 document"``, ``"2 documents"``, ``"0 documents"`` (``many``: an irregular plural,
    e.g. ``plural(2, "person", "people")``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _citations(sources: Sequence[QuoteEntry]) -> str:
    """Citation markup for passages that are an entry's own text (`` [1], [2], p. 2``), each
    source and page once."""
    seen: list[QuoteEntry] = []
    for q in sources:
        if all((q.source_number, q.page) != (s.source_number, s.page) for s in seen):
            seen.append(q)
    return (" " + ", ".join(_citation(q) for q in seen)) if seen else ""


def _mentioned(entry: MentionEntry, styles: _Styles) -> list[Flowable]:
    """One line for an item's bare-name mentions in one source: how many, and the words around
    the first."""
    cite = _citation(QuoteEntry("", entry.source_number, page=entry.page))
    times = "once" if entry.count == 1 else f"{entry.count} times"
    line = f"<i>mentioned {times}</i> in {cite}"
    if _present(entry.context):
        line += f": “{_text(entry.context)}”"
    return [_Paragraph(line, styles.quote)]


def _citation(quote: QuoteEntry) -> str:
    cite = f"[{int(quote.source_number)}]"
    if quote.page is not None:
        cite += f", p. {int(quote.page)}"
    return f'<font color="#1f3a5f">{cite}</font>'



def _quote(
    quote: QuoteEntry,
    style: ParagraphStyle,
    cont_style: ParagraphStyle,
    note_style: ParagraphStyle,
) -> list[Flowable]:
    """A quote verbatim in curly quotes with its citation, chunked when long.

    A passage that is itself a whole quotation (starts and ends with quotation marks) is printed
    as it is, without a second pair of marks around it.
    """
    body = _clean(quote.text).strip()
    opening, closing = ("", "") if self_quoted(body) else ("“", "”")  # casefile.quoting
    pieces = _chunks(body)
    prefix = ""
    relation = _clean(quote.relation).strip()
    if relation and relation not in ("supports",):
        prefix = f"<i>{escape(relation)}:</i> "
    if quote.confidential:
        prefix = '<font color="#b3261e"><b>[confidential]</b></font> ' + prefix
    out: list[Flowable] = []
    last = len(pieces) - 1
    for i, piece in enumerate(pieces):
        markup = _text(piece, keep_newlines=True)
        if i == 0:
            markup = prefix + opening + markup
        if i == last:
            markup = markup + closing + " " + _citation(quote)
        out.append(_Paragraph(markup, style if i == 0 else cont_style))
    if _present(quote.note):
        out.extend(_paragraphs("Note: " + _clean(quote.note), note_style))
    return out


def _quotes(
    quotes: Sequence[QuoteEntry], styles: _Styles, *, timeline: bool = False
) -> list[Flowable]:
    if timeline:
        style, cont, note = styles.timeline_quote, styles.timeline_quote_cont, styles.timeline_note
    else:
        style, cont, note = styles.quote, styles.quote_cont, styles.quote_note
    out: list[Flowable] = []
    for quote in quotes:
        out.extend(_quote(quote, style, cont, note))
    return out


def _section(title: str, styles: _Styles) -> list[Flowable]:
    rule = HRFlowable(width="100%", thickness=0.8, color=RULE, spaceBefore=1, spaceAfter=6)
    return [_Paragraph(escape(title), styles.h1), rule]


def _empty(message: str, styles: _Styles) -> list[Flowable]:
    return [_Paragraph(escape(message), styles.muted)]


def _confidential_tag(flag: bool) -> str:
    return ' <font color="#b3261e" size="8">[CONFIDENTIAL]</font>' if flag else ""


def _meta_line(parts: Sequence[tuple[str, str | None]]) -> str:
    """``Label: value · Label: value`` from the parts whose value is present (escaped)."""
    shown = [
        f"<b>{escape(label)}:</b> {_text(value)}" if label else _text(value)
        for label, value in parts
        if value is not None and _present(value)
    ]
    return " · ".join(shown)


# --------------------------------------------------------------------------------------------
# Sections


def key_counts(data: BriefData) -> list[tuple[int, str]]:
    """The cover page's counts, ``(number, label)``, each label in the right number."""
    overdue = sum(1 for q in data.questions if q.overdue)

    def counted(n: int, word: str, many: str | None = None) -> tuple[int, str]:
        return n, plural(n, word, many).split(" ", 1)[1]

    return [
        counted(len(data.people), "person", "people"),
        counted(len(data.organizations), "organization"),
        counted(len(data.sources), "document"),
        counted(len(data.events), "event"),
        counted(len(data.claims), "claim"),
        counted(len(data.questions), "open follow-up"),
        (overdue, "overdue"),
    ]


def _counts_table(data: BriefData, styles: _Styles) -> Table:
    counts = key_counts(data)
    numbers = [_Paragraph(str(value), styles.count) for value, _label in counts]
    labels = [_Paragraph(escape(label), styles.count_label) for _value, label in counts]
    width = (PAGE_SIZE[0] - 2 * MARGIN_X) / len(counts)
    table = Table([numbers, labels], colWidths=[width] * len(counts))
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), styles.body.fontName),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, RULE),
        ("LINEBELOW", (0, 1), (-1, 1), 0.8, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, 0), 8),
        ("BOTTOMPADDING", (0, 1), (-1, 1), 8),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
    ]
    table.setStyle(TableStyle(commands))
    return table


def _profile_of(data: BriefData) -> ExportProfile:
    """The export profile the brief's data was made under (its handling mark)."""
    return PROFILES.get(data.profile) or PROFILES[DEFAULT_PROFILE]


def _title_page(data: BriefData, styles: _Styles) -> list[Flowable]:
    """The cover: title, confidentiality, the key counts, the case summary, contents. The
    summary is printed here only (a long one flows on to the next pages)."""
    marking = _profile_of(data)
    overdue = sum(1 for q in data.questions if q.overdue)
    contents = [
        ("Open questions and follow-ups",
         f"{len(data.questions)}, {overdue} overdue" if overdue else str(len(data.questions))),
        ("People", str(len(data.people))),
        ("Organizations", str(len(data.organizations))),
        ("Places", str(len(data.places))),
        ("Timeline", plural(len(data.events), "event")),
        ("Claims", str(len(data.claims))),
        ("Sources", plural(len(data.sources), "document")),
    ]
    if data.cover_note:
        inclusion = _text(data.cover_note)
    elif data.includes_confidential:
        inclusion = (
            '<font color="#b3261e"><b>Confidential items and sources are INCLUDED in this '
            "brief.</b></font> Handle it as you would the source material itself."
        )
    else:
        inclusion = (
            "Confidential items and sources are <b>left out</b> of this brief "
            "(export with confidential material included to print them)."
        )
    summary = _paragraphs(data.summary, styles.cover_summary) or _empty(
        "No summary written yet.", styles)
    story: list[Flowable] = [
        Spacer(1, 0.5 * inch),
        _Paragraph("CASE BRIEF", styles.kicker),
        *_paragraphs(data.case_title or "Untitled case", styles.title),
        _Paragraph(f"Generated {_text(data.generated)} by Casefile", styles.title_meta),
        *([_Paragraph(
            escape(marking.marking)
            + f'<br/><font size="9.5" color="#1b1b1b">{escape(marking.marking_detail)}</font>',
            styles.banner,
        )] if marking.marking else []),
        _counts_table(data, styles),
        Spacer(1, 0.1 * inch),
        _Paragraph("Summary", styles.h2),
        *summary,
        Spacer(1, 0.1 * inch),
        _Paragraph(inclusion, styles.meta),
        _Paragraph("Contents", styles.h2),
    ]
    for name, count in contents:
        suffix = f' <font color="#5a5f66">({escape(count)})</font>' if count else ""
        story.append(_Paragraph(escape(name) + suffix, styles.contents, bulletText="•"))
    story.append(PageBreak())
    return story


def _figure(drawing: Any, caption: str, styles: _Styles) -> list[Flowable]:
    """A drawing with its caption under it, to be kept together by the caller's section
    (:func:`_compose`). Not a KeepTogether of its own: one nested in another measures as
    endless, which sent every section with a figure to a new page, the page before it left
    two-thirds empty."""
    return [drawing, _Paragraph(escape(caption), styles.meta), Spacer(1, 6)]


class _FitTogether(KeepTogether):
    """A KeepTogether holding one figure that is drawn smaller where it is, rather than moved
    to the next page, when at least ``min_height`` points of it fit in the room left on this
    one. ``make(height)`` draws the figure into at most ``height`` points (None: cannot)."""

    def __init__(self, flowables: list[Flowable], figure: Flowable,
                 make: Callable[[float], Flowable | None], min_height: float) -> None:
        super().__init__(flowables)
        self._figure = figure
        self._make = make
        self._min_height = min_height

    def split(self, aW: float, aH: float) -> list[Flowable]:  # noqa: N803 - reportlab's names
        self.wrap(aW, aH)
        if aH < self._H and self._figure in self._content:
            room = aH - (self._H - self._figure.height) - 2
            if room >= self._min_height:
                smaller = self._make(room)
                if smaller is not None and smaller.height <= room:
                    return [smaller if f is self._figure else f for f in self._content]
        return super().split(aW, aH)


def _questions(data: BriefData, styles: _Styles) -> list[Flowable]:
    from casefile.export.figures import status_drawing

    heading = _section("Open questions and follow-ups", styles)
    chart = status_drawing(data.followup_statuses, PAGE_SIZE[0] - 2 * MARGIN_X,
                           styles.fonts.regular)
    if chart is not None:
        heading = heading + _figure(chart, "Questions and follow-ups by status.", styles)
    if not data.questions:
        return heading + _empty("No open questions.", styles)
    entries: list[list[Flowable]] = []
    for q in sort_questions(data.questions):
        head = []
        if q.overdue:
            head.append('<font color="#b3261e"><b>OVERDUE</b></font>')
        head.append(f"<b>due {_text(q.due)}</b>" if _present(q.due) else "<b>no due date</b>")
        for value in (q.kind, q.status):
            if _present(value):
                head.append(_text(value))
        block: list[Flowable] = [
            _Paragraph(" · ".join(head) + _confidential_tag(q.confidential), styles.item)
        ]
        block.extend(_paragraphs(q.text, styles.body, suffix=_citations(q.text_sources)))
        if _present(q.ask):
            block.append(_Paragraph(_meta_line([("Ask", q.ask)]), styles.meta))
        block.extend(_quotes(q.quotes, styles))
        entries.append(block)
    return _compose(heading, entries)


def _entity(entity: EntityEntry, styles: _Styles, generic_kind: str) -> list[Flowable]:
    block: list[Flowable] = _paragraphs(entity.name or "(unnamed)", styles.h2)
    if block and entity.confidential:
        block.append(_Paragraph(_confidential_tag(True).strip(), styles.meta))
    kind = entity.kind if entity.kind and entity.kind != generic_kind else None
    meta = _meta_line([("Type", kind), ("Role", entity.role), ("Affiliation", entity.affiliation)])
    if meta:
        block.append(_Paragraph(meta, styles.meta))
    aliases = [a for a in entity.aliases if _present(a)]
    if aliases:
        block.append(_Paragraph(_meta_line([("Also known as", "; ".join(aliases))]), styles.meta))
    block.extend(_paragraphs(entity.notes, styles.body))
    block.extend(_quotes(entity.quotes, styles))
    for entry in entity.mentioned:
        block.extend(_mentioned(entry, styles))
    if entity.withheld:
        n = entity.withheld
        block.append(_Paragraph(f"{n} mention{'s' if n != 1 else ''} left out of this export "
                                "(where a source is named).", styles.meta))
    elif not entity.quotes and not entity.mentioned:
        block.append(_Paragraph("No evidence linked yet.", styles.meta))
    return block


def _entities(
    title: str, entries: Sequence[EntityEntry], empty: str, generic: str, styles: _Styles
) -> list[Flowable]:
    heading = _section(title, styles)
    if not entries:
        return heading + _empty(empty, styles)
    return _compose(heading, [_entity(entity, styles, generic) for entity in entries])


def _timeline(data: BriefData, styles: _Styles) -> list[Flowable]:
    from casefile.export.figures import timeline_drawing

    heading = _section("Timeline", styles)
    if not data.events:
        return heading + _empty("No events on the timeline.", styles)
    figure = timeline_drawing(data.events, PAGE_SIZE[0] - 2 * MARGIN_X, styles.fonts.regular,
                              runs=active_runs())
    if figure is not None:
        heading = heading + _figure(
            figure, "The dated events, first to last (hollow: date approximate).", styles)
    entries: list[list[Flowable]] = []
    for event in sorted(data.events, key=_event_sort_key):
        when = format_event_date(event.date, event.precision, event.end)
        cites = _citations(event.text_sources)
        tag = _confidential_tag(event.confidential)
        description: str | None = event.description
        if _title_is_description(event):
            # The title is the description cut short: print the sentence once, whole.
            block: list[Flowable] = [_Paragraph(_text(event.description) + cites + tag,
                                               styles.timeline, bulletText=when)]
            description = None
        else:
            title = _text(event.title) or "(untitled event)"
            block = [_Paragraph(f"<b>{title}</b>" + ("" if _present(description) else cites)
                               + tag, styles.timeline, bulletText=when)]
        meta = _meta_line([("Place", event.place)])
        if meta:
            block.append(_Paragraph(meta, styles.timeline_meta))
        block.extend(_paragraphs(description, styles.timeline_meta, suffix=cites))
        block.extend(_quotes(event.quotes, styles, timeline=True))
        entries.append(block)
    return _compose(heading, entries)


def _network(data: BriefData, styles: _Styles) -> list[Flowable]:
    """The relationship graph as a figure (nothing when the case has no graph)."""
    from casefile.export.figures import graph_drawing

    if data.graph is None or not data.graph.nodes:
        return []
    width = PAGE_SIZE[0] - 2 * MARGIN_X
    runs = active_runs()

    def make(height: float) -> Any:
        return graph_drawing(graph, width, styles.fonts.regular, max_height=height, runs=runs)

    graph = data.graph
    drawing = make(PAGE_SIZE[1] - MARGIN_TOP - MARGIN_BOTTOM - 2.2 * inch)
    if drawing is None:
        return []
    n, m = len(data.graph.nodes), len(data.graph.edges)
    total = max(data.graph.total_nodes, n)
    shown = plural(n, "item") if total == n else f"The {n} best-connected of {total} items"
    caption = (f"{shown} and {plural(m, 'connection')}: typed relationships dark, "
               "quoted together light, quoted in a document dotted.")
    # on a page with room for at least 45% of it (and 3 inches), the graph is drawn there
    min_height = min(drawing.height, max(3.0 * inch, 0.45 * drawing.height))
    return [_FitTogether([*_section("Relationship graph", styles),
                          *_figure(drawing, caption, styles)], drawing, make, min_height)]


def _title_is_description(event: EventEntry) -> bool:
    """True when an event's title is its description, whole or cut short with "…"."""
    title = " ".join(_clean(event.title).split())
    text = " ".join(_clean(event.description).split())
    if not text or not title:
        return False
    return title == text or (title.endswith("…") and text.startswith(title[:-1].rstrip()))


def _claims(data: BriefData, styles: _Styles) -> list[Flowable]:
    heading = _section("Claims", styles)
    if not data.claims:
        return heading + _empty("No claims recorded.", styles)
    entries: list[list[Flowable]] = []
    for claim in data.claims:
        status = _clean(claim.status).strip() or "unverified"
        colour = _STATUS_COLOURS.get(status.lower(), "#5a5f66")
        head = f'<font color="{colour}"><b>{escape(status.upper())}</b></font>'
        block: list[Flowable] = [
            _Paragraph(head + _confidential_tag(claim.confidential), styles.item)
        ]
        block.extend(_paragraphs(claim.statement, styles.body,
                                 suffix=_citations(claim.text_sources)))
        chain = _meta_line([("Attributed to", claim.attributed_to), ("via", claim.via)])
        if chain:
            block.append(_Paragraph(chain, styles.meta))
        if _present(claim.status_reason):
            evidence_says = (
                f" (the evidence alone: {_text(claim.computed_status)})"
                if _present(claim.computed_status) and claim.computed_status != claim.status
                else ""
            )
            block.append(_Paragraph(
                f"<b>Status set by the reporter:</b> {_text(claim.status_reason)}{evidence_says}",
                styles.meta,
            ))
        if _present(claim.evidence):
            block.append(_Paragraph(_meta_line([("Evidence", claim.evidence)]), styles.meta))
        block.extend(_quotes(claim.quotes, styles))
        entries.append(block)
    return _compose(heading, entries)


def _sources(data: BriefData, styles: _Styles) -> list[Flowable]:
    heading = _section("Sources", styles)
    if not data.sources:
        return heading + _empty("No source documents.", styles)
    entries: list[list[Flowable]] = []
    for src in sorted(data.sources, key=lambda s: s.number):
        block: list[Flowable] = []
        title = _chunks(_clean(src.title).strip() or "(untitled document)")
        block.append(
            _Paragraph(
                f"<b>{_text(title[0])}</b>" + _confidential_tag(src.confidential),
                styles.source,
                bulletText=f"[{int(src.number)}]",
            )
        )
        block.extend(_Paragraph(f"<b>{_text(t)}</b>", styles.source) for t in title[1:])
        meta = _meta_line(
            [
                ("", src.kind),
                ("Outlet", src.outlet),
                ("Author", src.author),
                ("Published", src.published),
                ("Status", src.status),
            ]
        )
        if meta:
            block.append(_Paragraph(meta, styles.source_meta))
        if _present(src.url) and not (src.capture and src.url and src.url in src.capture):
            block.append(_Paragraph(_meta_line([("URL", src.url)]), styles.source_meta))
        if _present(src.capture):
            block.append(_Paragraph(_meta_line([("Web capture", src.capture)]),
                                    styles.source_meta))
        block.append(_Paragraph(f"<b>SHA-256:</b> {_text(src.sha256)}", styles.hash))
        entries.append(block)
    return _compose(heading, entries)


def _keep_head(block: list[Flowable], head: int = 3) -> list[Flowable]:
    """Keep the first ``head`` flowables of an entry together (no heading alone at a page foot).

    Only the head is kept together and it holds at most ``head`` chunk-sized paragraphs (plus
    a section heading), so it always fits on a page; the rest flows freely.
    """
    if len(block) <= 1:
        return block
    return [KeepTogether(block[:head]), *block[head:]]


def _compose(heading: list[Flowable], entries: list[list[Flowable]]) -> list[Flowable]:
    """A section: its heading kept with the head of its first entry, then the other entries."""
    story: list[Flowable] = []
    for i, block in enumerate(entries):
        if i == 0:
            story.extend(_keep_head(heading + block, head=len(heading) + 3))
        else:
            story.extend(_keep_head(block))
    return story


def _story(data: BriefData, styles: _Styles) -> list[Flowable]:
    return [
        *_title_page(data, styles),
        *_questions(data, styles),
        *_entities("People", data.people, "No people recorded.", "person", styles),
        *_entities(
            "Organizations",
            data.organizations,
            "No organizations recorded.",
            "organization",
            styles,
        ),
        *_entities("Places", data.places, "No places recorded.", "place", styles),
        *_network(data, styles),
        *_timeline(data, styles),
        *_claims(data, styles),
        *_sources(data, styles),
    ]
