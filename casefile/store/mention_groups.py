"""A case's pending mentions grouped by the database, for the Suggestions list.

A case may hold 50,000 suggested mentions of about a thousand names; the window lists them when
it opens the case. Reading every mention into Python (an ORM row and a parsed ``detail`` each)
took most of a second there, so the list is one statement returning a row per name (how many
mentions, which is the first: :func:`mention_groups`), and the rest of a row (in how many
documents, every id: :func:`group_members`; the first role and affiliation, the text around
the first mention: :func:`group_details`) is read for the rows the list shows, a batch at a
time. Plain SQL through the driver (:mod:`casefile.store.reader`); the two engines get each
their own form of it (JSON access, string aggregation, "first in order"), so it lives here, in
the store (ARCHITECTURE.md, "Layers").

What tells two suggestions of one kind and name apart (their *variant*) is computed in SQL from
``detail`` as ``services.suggestion_list.variant_of`` computes it in Python: "" for every kind
but events (the date) and follow-ups (``"<kind>|<due>"``, the kind mapped and checked against
the values the caller passes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from casefile.store.reader import Reader

#: Characters of a first mention's document read on each side of the mention: enough for a
#: context snippet looking at most this far minus a few characters (the caller's limit).
WINDOW = 320


class MentionGroup(NamedTuple):
    """One ``(kind, name, variant)`` of pending mentions, as the list is read: ``mentions``,
    how many; ``first_id`` / ``first_document`` / ``first_start``: the first mention (first by
    document id, then start, then id), its document and its start (a Python str offset).
    What else a row shows is read for the rows shown (:func:`group_details`)."""

    kind: str
    name: str
    variant: str
    mentions: int
    first_id: int
    first_document: int
    first_start: int


class GroupDetails(NamedTuple):
    """What a row of a :class:`MentionGroup` shows beside its name: ``role`` /
    ``affiliation``, the first non-empty one in mention order (None if none); the first
    mention's ``first_end``, ``first_text`` and ``first_detail`` as stored (JSON text, or a
    value the driver decoded); ``title``, its document's title; ``window``, its document's
    text from ``window_start`` (str offset) to ``WINDOW`` characters past the mention's end;
    ``text_length``, the whole text's length."""

    role: str | None
    affiliation: str | None
    first_end: int
    first_text: str
    first_detail: Any
    title: str
    window: str
    window_start: int
    text_length: int


class GroupMembers(NamedTuple):
    """Every mention of a :class:`MentionGroup`: ``documents``, in how many documents they
    are; ``ids``, their ids, comma-separated in no given order (:func:`ordered_ids` puts them
    in order)."""

    documents: int
    ids: str


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
#: A mention's position as one integer (a document id below 2**31, a start below 2**32).
_POSITION = "document_id * 4294967296 + start"
#: The indexes only SQLite has, made by the migrations outside the models (revision 0015).
SQLITE_INDEXES = ("ix_mentions_variants",)
#: Mentions of one group read for their details in one statement (:func:`group_details`).
DETAILS_BATCH = 200


def _kinds(kinds: Sequence[str]) -> str:
    return ", ".join(repr(k) for k in kinds)


def _grouped_sql(dialect: str, variant: str, one_kind: bool, kinds: Sequence[str]) -> str:
    """The statement listing the groups (:func:`mention_groups`): a row ``(kind, name,
    variant, count, first id, first document, first start)`` per group, in no order (on
    SQLite, the kinds with variants give their ``detail`` as stored in place of the variant,
    one row per detail, and every row has a last column more)."""
    pending = "case_id = :case_id AND status = 'suggested'" + (
        " AND kind = :kind" if one_kind else "")
    if dialect != "sqlite":
        first = "min(ARRAY[CAST(document_id AS BIGINT), CAST(start AS BIGINT), id])"
        return (f"SELECT kind, name, variant, n, f[3], f[1], f[2] FROM (SELECT kind, "
                f"name, variant, count(*) AS n, {first} AS f FROM (SELECT id, kind, name, "
                f"document_id, start, {variant} AS variant FROM mentions WHERE {pending} "
                f"AND kind IN ({_kinds(kinds)})) m GROUP BY kind, name, variant) g")
    plain = [k for k in kinds if k not in VARIANT_KINDS]
    varied = [k for k in kinds if k in VARIANT_KINDS]
    parts: list[str] = []
    if plain:
        # Read from the index ix_mentions_pending alone, in its order (kind, name, document,
        # start, id). The bare columns come from the row of the smallest document; of rows
        # with it SQLite keeps the first it met, the one of the smallest start, then id, in
        # that order (tests/services/test_suggestion_list.py holds such ties).
        parts.append(
            "SELECT kind, name, '', count(*), id, document_id, start, min(document_id) "
            f"FROM mentions WHERE {pending} GROUP BY kind, name "
            f"HAVING kind IN ({_kinds(plain)})")
    if varied:
        # Grouped by ``detail`` as stored (the caller works out each one's variant and joins
        # those of one variant), from the partial index ix_mentions_variants (revision 0015)
        # in its order: the condition is the index's own, word for word, or SQLite would not
        # use it. The first mention is taken as above.
        where = "case_id = :case_id AND status = 'suggested' AND kind IN ('event', 'question')"
        if tuple(varied) != VARIANT_KINDS:
            where += f" AND kind IN ({_kinds(varied)})"
        parts.append(
            "SELECT kind, name, detail, count(*), id, document_id, start, min(document_id) "
            f"FROM mentions WHERE {where}{' AND kind = :kind' if one_kind else ''} "
            "GROUP BY kind, name, detail")
    return " UNION ALL ".join(parts) or "SELECT 1 WHERE 0"


def mention_groups(reader: Reader, case_id: int, kinds: Sequence[str], kind: str | None,
                   question_kinds: Sequence[str], kind_map: Mapping[str, str],
                   variant_of: Callable[[str, Any], str]) -> list[MentionGroup]:
    """The case's pending mentions of ``kinds`` (or of ``kind`` alone) grouped by kind, name
    and variant, in order of first appearance (document id, then start, then mention id).
    One statement, read from the index alone on SQLite: what else a row shows is read by
    :func:`group_details` for the rows shown. ``question_kinds`` / ``kind_map``: a
    follow-up's known kinds and the names mapped onto them (the variant in SQL, module
    docstring); ``variant_of(kind, detail)``: the same in Python (SQLite's mentions of the
    kinds with variants come back grouped by their ``detail``). Every value in them and in
    ``kinds`` is written into the statement, so they must be the program's own constants,
    never user input."""
    variant = _variant(reader.dialect, question_kinds, kind_map)
    params: dict[str, object] = {"case_id": int(case_id)}
    if kind is not None:
        params["kind"] = kind
    out: list[MentionGroup] = []
    varied: dict[tuple[str, str, str], MentionGroup] = {}
    by_detail = reader.dialect == "sqlite"  # SQLite's kinds with variants: grouped by detail
    make = tuple.__new__  # MentionGroup._make without its check: every row has its columns
    variants: dict[tuple[str, Any], str] = {}  # the variant of each detail as stored
    for row in reader.run(_grouped_sql(reader.dialect, variant, kind is not None, kinds),
                          params):
        # the drivers give the counts, ids and offsets as int
        if not (by_detail and row[0] in VARIANT_KINDS):
            out.append(make(MentionGroup, row[:7]))
            continue
        g_kind, name, stored = row[:3]
        var = variants.get((g_kind, stored))
        if var is None:
            detail = json.loads(stored) if isinstance(stored, str | bytes) else stored
            var = variants[(g_kind, stored)] = variant_of(g_kind, detail)
        key = (g_kind, name, var)
        group = make(MentionGroup, (g_kind, name, var, *row[3:7]))
        had = varied.get(key)
        if had is not None:  # another detail of the same variant: one group
            first_of = min(had, group, key=lambda g: (g.first_document, g.first_start,
                                                      g.first_id))
            group = first_of._replace(mentions=had.mentions + group.mentions)
        varied[key] = group
    out += varied.values()
    out.sort(key=itemgetter(5, 6, 4))  # first document, start, id
    return out


def _keys(groups: Sequence[MentionGroup], params: dict[str, object]) -> str:
    """The CTE ``k(k_i, k_kind, k_name, k_variant)`` of ``groups`` (parameters into
    ``params``)."""
    for i, g in enumerate(groups):
        params[f"k{i}"], params[f"n{i}"], params[f"v{i}"] = g.kind, g.name, g.variant
    rows = ", ".join(f"({i}, :k{i}, :n{i}, :v{i})" for i in range(len(groups)))
    return f"WITH k(k_i, k_kind, k_name, k_variant) AS (VALUES {rows}) "


def _each_mention(dialect: str, variant: str) -> str:
    """Every pending mention of each group of ``k``, the groups the outer loop (SQLite's
    CROSS JOIN: else, without statistics, it may scan the case's mentions and look each
    one's group up)."""
    join = "CROSS JOIN" if dialect == "sqlite" else "JOIN"
    return (f"FROM k {join} mentions m ON m.case_id = :case_id AND m.status = 'suggested' "
            f"AND m.kind = k.k_kind AND m.name = k.k_name WHERE {variant} = k.k_variant "
            "GROUP BY k.k_i")


def _firsts_sql(dialect: str, variant: str, plain: bool) -> str:
    """Per group of ``k``: its first role and affiliation. Groups without variants: one
    index lookup each (the index's order is the mentions' order); with: over its mentions."""
    if plain:
        def first(column: str) -> str:
            return (f"(SELECT {column} FROM mentions m WHERE m.case_id = :case_id "
                    "AND m.status = 'suggested' AND m.kind = k.k_kind AND m.name = k.k_name "
                    f"AND m.{column} <> '' ORDER BY m.document_id, m.start, m.id LIMIT 1)")
        return f"SELECT k_i, {first('role')}, {first('affiliation')} FROM k"
    if dialect == "sqlite":
        def first(column: str) -> str:
            return (f"substr(min(CASE WHEN {column} <> '' THEN printf('%020d%020d', "
                    f"{_POSITION}, id) || {column} END), 41)")
    else:
        def first(column: str) -> str:
            return (f"(array_agg({column} ORDER BY document_id, start, id) "
                    f"FILTER (WHERE {column} <> ''))[1]")
    return (f"SELECT k.k_i, {first('role')}, {first('affiliation')} "
            f"{_each_mention(dialect, variant)}")


def _first_sql(ids: str) -> str:
    return ("SELECT m.id, m.document_id, m.start, m.\"end\", m.text, m.detail, i.title, "
            f"substr(d.text, {{lo}}, {2 * WINDOW} + m.\"end\" - m.start), length(d.text) "
            "FROM mentions m LEFT JOIN documents d ON d.id = m.document_id "
            f"LEFT JOIN items i ON i.id = m.document_id WHERE m.id IN ({ids})")


def group_details(reader: Reader, case_id: int, groups: Sequence[MentionGroup],
                  question_kinds: Sequence[str], kind_map: Mapping[str, str]
                  ) -> list[GroupDetails]:
    """The :class:`GroupDetails` of each of ``groups`` (of case ``case_id``, read by
    :func:`mention_groups`), in their order, a few statements per :data:`DETAILS_BATCH`
    groups: the first mentions by id, the first roles and affiliations by index lookups
    (over the mentions of each group with variants). A group with no pending mention left
    (decided since it was listed) has no role or affiliation; its first mention is read all
    the same."""
    variant = _variant(reader.dialect, question_kinds, kind_map)
    lo = f"max(1, m.start + 1 - {WINDOW})" if reader.dialect == "sqlite" else \
        f"greatest(1, m.start + 1 - {WINDOW})"
    out: list[GroupDetails] = []
    for at in range(0, len(groups), DETAILS_BATCH):
        batch = groups[at:at + DETAILS_BATCH]
        firsts: dict[int, Sequence[Any]] = {}
        for plain in (True, False):
            some = [(i, g) for i, g in enumerate(batch) if (g.kind in VARIANT_KINDS) != plain]
            if some:
                params: dict[str, object] = {"case_id": int(case_id)}
                sql = _keys([g for _i, g in some], params) + _firsts_sql(
                    reader.dialect, variant, plain)
                firsts.update((some[int(r[0])][0], r) for r in reader.run(sql, params))
        rows = {int(r[0]): r for r in reader.run(
            _first_sql(",".join(str(g.first_id) for g in batch)).replace("{lo}", lo), {})}
        for i, g in enumerate(batch):
            f = firsts.get(i)
            r = rows.get(g.first_id)
            out.append(GroupDetails(
                role=(f[1] or None) if f else None, affiliation=(f[2] or None) if f else None,
                first_end=int(r[3]) if r else g.first_start, first_text=(r[4] or "") if r else "",
                first_detail=r[5] if r else None, title=(r[6] or "") if r else "",
                window=(r[7] or "") if r else "", window_start=max(0, g.first_start - WINDOW),
                text_length=int(r[8] or 0) if r else 0))
    return out


def group_members(reader: Reader, case_id: int, groups: Sequence[MentionGroup],
                  question_kinds: Sequence[str], kind_map: Mapping[str, str]
                  ) -> list[GroupMembers]:
    """The :class:`GroupMembers` of each of ``groups`` (of case ``case_id``), in their order:
    one statement per :data:`DETAILS_BATCH` groups, over their pending mentions (none left:
    no documents, no ids)."""
    variant = _variant(reader.dialect, question_kinds, kind_map)
    ids = "group_concat(id)" if reader.dialect == "sqlite" else \
        "string_agg(CAST(id AS TEXT), ',')"
    out: list[GroupMembers] = []
    for at in range(0, len(groups), DETAILS_BATCH):
        batch = groups[at:at + DETAILS_BATCH]
        params: dict[str, object] = {"case_id": int(case_id)}
        sql = (_keys(batch, params) + f"SELECT k.k_i, count(DISTINCT document_id), {ids} "
               + _each_mention(reader.dialect, variant))
        found = {int(r[0]): r for r in reader.run(sql, params)}
        out += [GroupMembers(int(found[i][1]), str(found[i][2] or "")) if i in found
                else GroupMembers(0, "") for i in range(len(batch))]
    return out


def pending_at_least(reader: Reader, case_id: int, n: int) -> bool:
    """True when the case has ``n`` pending mentions or more (counted up to ``n`` only, from
    the index: under a millisecond whatever the case holds)."""
    rows = reader.run("SELECT count(*) FROM (SELECT 1 FROM mentions WHERE case_id = :case_id "
                      "AND status = 'suggested' LIMIT :n) m",
                      {"case_id": int(case_id), "n": max(1, int(n))})
    return int(rows[0][0]) >= n


def ordered_ids(first_id: int, ids: str) -> tuple[int, ...]:
    """A group's mention ids in order: ``first_id``, then the others of ``ids`` (a
    :class:`GroupMembers`' comma-separated ids) by id."""
    others = sorted(json.loads(f"[{ids}]"))  # the ids as a JSON list: parsed in C
    if first_id in others:  # not when the group was decided since it was listed
        others.remove(first_id)
    return (first_id, *others)
