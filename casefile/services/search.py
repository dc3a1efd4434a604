"""Search the workspace or one case (the window's Search panel). Read-only.

Wraps :func:`casefile.store.search.search` (ranking, snippets, query syntax: words, ``"exact
phrase"``, ``prefix*``, ``-exclude``, ``OR``; accents and case folded; Chinese, Japanese, Korean
and Thai words found inside longer runs of characters) and adds what the window
needs to show and open a hit: the case's title, and for a document the span of the first match
in its text (:func:`casefile.store.textfind.first_match`, folded like the index), so the viewer
opens with the matched words selected. The query is parsed once for the whole answer, and the
match is located for the returned hits only. Plain values only; nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from casefile.errors import NotFoundError
from casefile.store.reader import Reader, session_reader
from casefile.store.search import mark, parse_query, phrase_text, search
from casefile.store.textfind import first_match

#: Most hits one search returns (the panel asks for fewer).
MAX_LIMIT = 1000


@dataclass(frozen=True)
class SearchResult:
    """One hit.

    ``snippet`` is plain text around a match (:func:`casefile.store.search.make_snippet`;
    runs of whitespace made single spaces, "…" where cut); ``highlights`` are the
    ``(start, end)`` Python str offsets of the matched words *in the snippet*. ``match``, for
    a document whose text holds the query, is the ``(start, end)`` str offsets of the first
    match in the document's text (None for other kinds, and for a document found by its
    title or notes only).
    """

    item_id: int
    case_id: int
    case_title: str
    kind: str
    title: str
    snippet: str
    highlights: tuple[tuple[int, int], ...] = ()
    match: tuple[int, int] | None = None

    @property
    def marked_snippet(self) -> str:
        """``snippet`` with each highlighted span between the index's markers
        (:func:`casefile.store.search.mark`), as the command line prints it."""
        return mark(self.snippet, self.highlights)


@dataclass(frozen=True)
class SearchResults:
    """The answer to one query: ``hits`` best first (see :func:`search_workspace`); ``more``
    is True when more items matched than were returned; ``terms`` are the query's positive
    phrases as folded words (empty when the query has nothing to look for; a word of Chinese,
    Japanese, Korean, Thai... as typed, :func:`~casefile.store.search.phrase_text`)."""

    query: str
    hits: tuple[SearchResult, ...]
    more: bool = False
    terms: tuple[str, ...] = ()


def search_workspace(source: Session | Reader, query: str, case_id: int | None = None,
                     limit: int = 100) -> SearchResults:
    """Items of the whole workspace (``case_id=None``) or of one case whose title or text match
    ``query``, best first.

    ``source``: a session, or a :class:`~casefile.store.reader.Reader` (the Search panel's,
    ``Workspace.reading()``, which skips the ORM session). Order as
    :func:`casefile.store.search.search`: by relevance, the title weighing more (newest first
    when a query matches 2,000 items or more). At most ``limit`` hits (clamped to
    1..MAX_LIMIT). A blank query, or one with only exclusions, returns no hits and no terms.
    Raises :class:`~casefile.errors.NotFoundError` when ``case_id`` names no case.
    """
    reader = session_reader(source) if isinstance(source, Session) else source
    if case_id is not None and not reader.run(
            "SELECT 1 FROM cases WHERE id = :id", {"id": int(case_id)}):
        raise NotFoundError(f"There is no case with id {case_id}.")
    parsed = parse_query(query)
    phrases = parsed.phrases()
    terms = tuple(phrase_text(p) for p in phrases)
    if not terms:
        return SearchResults(query, ())
    limit = max(1, min(int(limit), MAX_LIMIT))
    found = search(reader, query, case_id, limit=limit + 1, parsed=parsed)
    more = len(found) > limit
    found = found[:limit]
    if not found:
        return SearchResults(query, (), False, terms)
    case_ids = ",".join(str(int(c)) for c in {h.case_id for h in found})
    case_titles: dict[int, str] = {
        int(cid): title
        for cid, title in reader.run(f"SELECT id, title FROM cases WHERE id IN ({case_ids})", {})}
    hits = []
    for h in found:
        match = (first_match(h.document_text, phrases)
                 if h.kind == "document" and h.document_text else None)
        hits.append(SearchResult(
            item_id=h.item_id, case_id=h.case_id, case_title=case_titles.get(h.case_id, ""),
            kind=h.kind, title=h.title, snippet=h.text, highlights=h.highlights, match=match))
    return SearchResults(query, tuple(hits), more, terms)
