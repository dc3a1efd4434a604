"""A case's pending mentions grouped by the database, for the Suggestions list.

A case may hold 50,000 suggested mentions of about a thousand names; the window lists them when
it opens the case. Reading every mention into Python (an ORM row and a parsed ``detail`` each)
took most of a second there, so the grouping is one statement that returns a row per name, and
only the first mention of each name is read whole. Plain SQL through the driver
(:mod:`casefile.store.reader`); the two engines get each their own form of it (JSON access,
string aggregation, "first in order"), so it lives here, in the store (ARCHITECTURE.md,
"Layers").

What tells two suggestions of one kind and name apart (their *variant*) is computed in SQL from
``detail`` as ``services.suggestion_list.variant_of`` computes it in Python: "" for every kind
but events (the date) and follow-ups (``"<kind>|<due>"``, the kind mapped and checked against
the values the caller passes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casefile.store.reader import Reader

#: Characters of a first mention's document read on each side of the mention: enough for a
#: context snippet looking at most this far minus a few characters (the caller's limit).
WINDOW = 320


@dataclass(frozen=True)
class MentionGroup:
    """One ``(kind, name, variant)`` of pending mentions.

    ``mentions`` / ``documents``: how many mentions, in how many documents; ``first_id``: the
    first mention's id (first by document id, then start, then id); ``ids``: every mention's
    id, comma-separated in no given order (:func:`ordered_ids` puts them in order, when they
    are asked for: a case's 50,000 ids took ~6 ms to parse and sort); ``role`` /
    ``affiliation``: the first non-empty one in mention order (None if none); ``first_*``:
    the first mention's document, span (Python str offsets), text and ``detail`` as stored
    (JSON text, or a value the driver decoded); ``title``: its document's title;
    ``window``: its document's text from ``window_start`` (str offset) to ``WINDOW``
    characters past the mention's end; ``text_length``: the whole text's length.
    """

    kind: str
    name: str
    variant: str
    mentions: int
    documents: int
    first_id: int
    ids: str
    role: str | None
    affiliation: str | None
    first_document: int
    first_start: int
    first_end: int
    first_text: str
    first_detail: Any
    title: str
    window: str
    window_start: int
    text_length: int


def _json(dialect: str, key: str) -> str:
    if dialect == "sqlite":
        return f"CAST(json_extract(detail, '$.{key}') AS TEXT)"
    return f"(CAST(detail AS jsonb) ->> '{key}')"


def _variant(dialect: str, question_kinds: Sequence[str], kind_map: Mapping[str, str]) -> str:
    """The SQL expression of a mention's variant (see the module docstring)."""
    raw = (f"COALESCE(NULLIF({_json(dialect, 'question_kind')}, ''), "
           f"NULLIF({_json(dialect, 'kind')}, ''), 'question')")
    mapped = "".join(f"WHEN {raw} = '{a}' THEN '{b}' " for a, b in kind_map.items())
    known = ", ".join(f"'{k}'" for k in question_kinds)
    question = f"(CASE {mapped}WHEN {raw} IN ({known}) THEN {raw} ELSE 'question' END)"
    return (f"CASE kind WHEN 'event' THEN COALESCE({_json(dialect, 'date')}, '') "
            f"WHEN 'question' THEN {question} || '|' || COALESCE({_json(dialect, 'due')}, '') "
            "ELSE '' END")


#: The kinds whose suggestions of one name may differ by their variant (read from ``detail``).
VARIANT_KINDS = ("event", "question")


def _grouped_sql(dialect: str, variant: str, one_kind: bool, kinds: Sequence[str]) -> str:
    if dialect == "sqlite":
        return _grouped_sqlite(variant, one_kind, kinds)
    where = ("FROM mentions WHERE case_id = :case_id AND status = 'suggested' "
             f"AND kind IN ({', '.join(repr(k) for k in kinds)})"
             + (" AND kind = :kind" if one_kind else ""))
    order = "ORDER BY document_id, start, id"
    first_id = f"(array_agg(id {order}))[1]"
    role = f"(array_agg(role {order}) FILTER (WHERE role <> ''))[1]"
    affiliation = f"(array_agg(affiliation {order}) FILTER (WHERE affiliation <> ''))[1]"
    ids = "string_agg(CAST(id AS TEXT), ',')"
    return (f"SELECT kind, name, variant, count(*), count(DISTINCT document_id), {first_id}, "
            f"{role}, {affiliation}, {ids} FROM (SELECT id, kind, name, document_id, start, "
            f"role, affiliation, {variant} AS variant {where}) m GROUP BY kind, name, variant")


def _grouped_sqlite(variant: str, one_kind: bool, kinds: Sequence[str]) -> str:
    """SQLite's statement. The kinds without variants are grouped from the index
    ``ix_mentions_pending`` alone: its order within a kind and name is the mentions' order
    (document, start, id), so a name's first mention, and its first role and affiliation when
    it has one, is the first row of an index lookup. The kinds with variants
    (:data:`VARIANT_KINDS`) read ``detail`` from the table."""
    pending = "case_id = :case_id AND status = 'suggested'" + (
        " AND kind = :kind" if one_kind else "")
    plain = [k for k in kinds if k not in VARIANT_KINDS]
    varied = [k for k in kinds if k in VARIANT_KINDS]
    parts: list[str] = []
    if plain:
        def first(column: str, condition: str = "") -> str:
            return (f"(SELECT {column} FROM mentions f WHERE f.case_id = :case_id "
                    "AND f.status = 'suggested' AND f.kind = g.kind AND f.name = g.name"
                    f"{condition} ORDER BY f.document_id, f.start, f.id LIMIT 1)")

        role = first("role", " AND f.role <> ''")
        affiliation = first("affiliation", " AND f.affiliation <> ''")
        parts.append(
            f"SELECT kind, name, '', n, docs, {first('id')}, "
            f"CASE WHEN has_role THEN {role} END, CASE WHEN has_aff THEN {affiliation} END, "
            "ids FROM (SELECT kind, name, count(*) AS n, count(DISTINCT document_id) AS docs, "
            "max(role <> '') AS has_role, max(affiliation <> '') AS has_aff, "
            f"group_concat(id) AS ids FROM mentions WHERE {pending} "
            f"AND kind IN ({', '.join(repr(k) for k in plain)}) GROUP BY kind, name) g")
    if varied:
        # fixed-width keys (position, then id) compare as text in that order; the first
        # mention's id is the last 20 digits of the smallest key
        pos = "printf('%020d%020d', document_id * 4294967296 + start, id)"
        role = f"substr(min(CASE WHEN role <> '' THEN {pos} || role END), 41)"
        affiliation = f"substr(min(CASE WHEN affiliation <> '' THEN {pos} || affiliation END), 41)"
        parts.append(
            "SELECT kind, name, variant, count(*), count(DISTINCT document_id), "
            f"CAST(substr(min({pos}), 21) AS INTEGER), {role}, {affiliation}, group_concat(id) "
            "FROM (SELECT id, kind, name, document_id, start, role, affiliation, "
            f"{variant} AS variant FROM mentions WHERE {pending} "
            f"AND kind IN ({', '.join(repr(k) for k in varied)})) m GROUP BY kind, name, variant")
    return " UNION ALL ".join(parts) or "SELECT 1 WHERE 0"


def _first_sql(ids: str) -> str:
    return ("SELECT m.id, m.document_id, m.start, m.\"end\", m.text, m.detail, i.title, "
            f"substr(d.text, {{lo}}, {2 * WINDOW} + m.\"end\" - m.start), length(d.text) "
            "FROM mentions m LEFT JOIN documents d ON d.id = m.document_id "
            f"LEFT JOIN items i ON i.id = m.document_id WHERE m.id IN ({ids})")


def mention_groups(reader: Reader, case_id: int, kinds: Sequence[str], kind: str | None,
                   question_kinds: Sequence[str], kind_map: Mapping[str, str]
                   ) -> list[MentionGroup]:
    """The case's pending mentions of ``kinds`` (or of ``kind`` alone) grouped by kind, name
    and variant, in order of first appearance (document id, then start, then mention id).
    ``question_kinds`` / ``kind_map``: a follow-up's known kinds and the names mapped onto
    them (the variant, module docstring). Every value in them and in ``kinds`` is written
    into the statement, so they must be the program's own constants, never user input."""
    variant = _variant(reader.dialect, question_kinds, kind_map)
    params: dict[str, object] = {"case_id": int(case_id)}
    if kind is not None:
        params["kind"] = kind
    grouped = reader.run(_grouped_sql(reader.dialect, variant, kind is not None, kinds), params)
    if not grouped:
        return []
    firsts = [int(g[5]) for g in grouped]
    # the lower end of a first mention's window (1-based, as substr counts)
    lo = f"max(1, m.start + 1 - {WINDOW})" if reader.dialect == "sqlite" else \
        f"greatest(1, m.start + 1 - {WINDOW})"
    rows = {int(r[0]): r for r in reader.run(
        _first_sql(",".join(map(str, firsts))).replace("{lo}", lo), {})}
    out: list[MentionGroup] = []
    for g_kind, name, var, count, docs, first_id, g_role, g_aff, ids in grouped:
        r = rows[int(first_id)]
        first_start = int(r[2])
        out.append(MentionGroup(
            kind=g_kind, name=name, variant=var, mentions=int(count), documents=int(docs),
            first_id=int(first_id), ids=str(ids), role=g_role or None,
            affiliation=g_aff or None, first_document=int(r[1]), first_start=first_start,
            first_end=int(r[3]), first_text=r[4] or "", first_detail=r[5], title=r[6] or "",
            window=r[7] or "", window_start=max(0, first_start - WINDOW),
            text_length=int(r[8] or 0)))
    out.sort(key=lambda g: (g.first_document, g.first_start, g.first_id))
    return out


def ordered_ids(first_id: int, ids: str) -> tuple[int, ...]:
    """A group's mention ids in order: ``first_id``, then the others of ``ids`` (a
    :class:`MentionGroup`'s comma-separated ids) by id."""
    others = sorted(json.loads(f"[{ids}]"))  # the ids as a JSON list: parsed in C
    others.remove(first_id)
    return (first_id, *others)
