"""Rejected names: list them, and suggest one again.

A name the reporter rejects is not suggested again in any case of the workspace
(:func:`casefile.services.suggestions.rejected_names`). The window's undo history ends with the
session (and is cleared when another case is opened), so this module is the way back that does
not depend on it: :func:`rejected_suggestions` lists every rejected person, organization and
place name of the workspace, and :func:`restore_rejected` puts one name's rejected mentions in
every case back to "suggested" (they wait again in the Suggestions panel of their case, and the
name is found again in new documents). Its undo rejects them again.

Names are compared as the extractor compares rejected names (``norm_key``: case, apostrophe
style, spacing, a leading "the" and a possessive ending ignored), so "HOPE" and "Hope" are one
rejected name. No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ConflictError, NotFoundError, ValidationError
from casefile.services.audit import log_change
from casefile.services.changes import Changes, Step, action, changes
from casefile.store import Case, ChangeLog, Mention

#: The kinds whose rejected names are kept out of later suggestions (and can be restored).
REJECTABLE_KINDS = ("person", "organization", "place")
_KIND_WORDS = {"person": "person", "organization": "organization", "place": "place"}


@dataclass(frozen=True)
class RejectedName:
    """One rejected name of one kind, over the whole workspace.

    ``kind``: person, organization or place. ``name``: the name as last rejected. ``cases``:
    titles of the cases where it was rejected (sorted); ``case_ids`` their ids, in the same
    order. ``mentions``: how many rejected mentions; ``documents``: in how many documents.
    ``when``: when it was last rejected (ISO 8601, UTC, seconds), None when the change log
    does not say."""

    kind: str
    name: str
    cases: tuple[str, ...]
    case_ids: tuple[int, ...]
    mentions: int
    documents: int
    when: str | None

    def as_json(self) -> dict[str, Any]:
        """The ``suggestions rejected --json`` shape of one row."""
        return {"kind": self.kind, "name": self.name, "cases": list(self.cases),
                "case_ids": list(self.case_ids), "mentions": self.mentions,
                "documents": self.documents, "when": self.when}


def _key(name: str) -> str:
    from casefile.extract.text import norm_key

    return norm_key(name)


def _check_kind(kind: str) -> None:
    if kind not in REJECTABLE_KINDS:
        raise ValidationError(f"unknown kind {kind!r}; use one of {', '.join(REJECTABLE_KINDS)}")


def _rejected_mentions(session: Session, kind: str | None = None) -> list[Mention]:
    kinds = (kind,) if kind else REJECTABLE_KINDS
    return list(session.scalars(
        select(Mention).where(Mention.status == "rejected", Mention.kind.in_(kinds))
        .order_by(Mention.id)))


def _last_rejects(session: Session) -> dict[tuple[str, str], datetime]:
    """When each (kind, name key) was last rejected, from the change log."""
    out: dict[tuple[str, str], datetime] = {}
    rows = session.execute(
        select(ChangeLog.data, ChangeLog.at).where(
            ChangeLog.action.in_(("suggestion.reject", "suggestion.reject_again"))))
    for data, at in rows:
        if not isinstance(data, dict) or not data.get("kind") or not data.get("name"):
            continue
        key = (str(data["kind"]), _key(str(data["name"])))
        if key not in out or at > out[key]:
            out[key] = at
    return out


def rejected_suggestions(session: Session) -> list[RejectedName]:
    """Every rejected person, organization and place name of the workspace, the most recently
    rejected first (then by kind and name). Reads only."""
    groups: dict[tuple[str, str], list[Mention]] = {}
    for m in _rejected_mentions(session):
        groups.setdefault((m.kind, _key(m.name)), []).append(m)
    if not groups:
        return []
    titles: dict[int, str] = {i: t for i, t in session.execute(select(Case.id, Case.title))}
    when = _last_rejects(session)
    out: list[tuple[datetime | None, RejectedName]] = []
    for key, mentions in groups.items():
        case_ids = sorted({m.case_id for m in mentions}, key=lambda i: titles.get(i, ""))
        at = when.get(key)
        out.append((at, RejectedName(
            kind=key[0], name=mentions[-1].name,
            cases=tuple(titles.get(i, f"case {i}") for i in case_ids), case_ids=tuple(case_ids),
            mentions=len(mentions), documents=len({m.document_id for m in mentions}),
            when=at.isoformat(timespec="seconds") if at is not None else None)))
    order = list(REJECTABLE_KINDS)
    out.sort(key=lambda pair: (order.index(pair[1].kind), pair[1].name.casefold()))
    out.sort(key=lambda pair: pair[0] or datetime.min, reverse=True)
    return [row for _at, row in out]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _quoted(kind: str, name: str) -> str:
    short = " ".join(name.split())
    return f"{_KIND_WORDS.get(kind, kind)} “{short if len(short) <= 60 else short[:59] + '…'}”"


@action("suggestion.restore")
def restore_rejected(session: Session, kind: str, name: str, *,
                     case_id: int | None = None) -> Changes:
    """Suggest a rejected name again: every rejected ``kind`` mention named ``name`` (compared
    as the extractor compares names) in every case becomes "suggested" again, so it waits in
    the Suggestions panel of its case, and new documents suggest the name again. ``case_id``:
    the case the reporter acts from (the Changes' case, so its views refresh; None: none in
    particular). Returns Changes (``suggestions`` set, ``documents`` every document touched,
    ``value`` the number of mentions restored) whose ``undo`` rejects them again.
    ValidationError for an unknown kind; NotFoundError (one line) when no such name is
    rejected."""
    _check_kind(kind)
    key = _key(name)
    mentions = [m for m in _rejected_mentions(session, kind) if _key(m.name) == key]
    if not key or not mentions:
        raise NotFoundError(f"no rejected {_KIND_WORDS[kind]} named {name!r} (list them: "
                            "casefile suggestions rejected)")
    for m in mentions:
        m.status, m.item_id = "suggested", None
    session.flush()
    shown = mentions[-1].name
    cases = sorted({m.case_id for m in mentions})
    titles = [t for (t,) in session.execute(
        select(Case.title).where(Case.id.in_(cases)).order_by(Case.title))]
    documents = sorted({m.document_id for m in mentions})
    log_change(session, "suggestion.restore", case_id=case_id,
               summary=f"suggested {kind} {shown!r} again",
               data={"kind": kind, "name": shown, "mentions": len(mentions), "cases": cases})
    label = f"suggest {_quoted(kind, shown)} again"
    message = (f"{_quoted(kind, shown)[0].upper()}{_quoted(kind, shown)[1:]} is suggested "
               f"again: {_plural(len(mentions), 'mention')} wait in "
               f"{'case' if len(titles) == 1 else 'cases'} {', '.join(map(repr, titles))}.")
    return changes(
        case_id, documents=documents, suggestions=True, label=label, message=message,
        value=len(mentions),
        undo=Step("suggestion.reject_again",
                  {"kind": kind, "name": shown, "documents": documents, "case_id": case_id},
                  f"undo {label}"))


@action("suggestion.reject_again")
def reject_again(session: Session, kind: str, name: str, documents: list[int], *,
                 case_id: int | None = None) -> Changes:
    """The undo of :func:`restore_rejected`: the waiting ``kind`` mentions named ``name`` in
    ``documents`` (document ids) are rejected again, so the name is not suggested anywhere.
    Returns Changes whose ``undo`` suggests the name again. ConflictError when none of them is
    waiting any more (decided since)."""
    _check_kind(kind)
    key = _key(name)
    mentions = [m for m in session.scalars(
        select(Mention).where(Mention.status == "suggested", Mention.kind == kind,
                              Mention.document_id.in_([int(d) for d in documents])))
        if _key(m.name) == key]
    label = f"suggest {_quoted(kind, name)} again"
    if not mentions:
        raise ConflictError(f"cannot undo {label}: it was decided again since")
    for m in mentions:
        m.status, m.item_id = "rejected", None
    session.flush()
    log_change(session, "suggestion.reject_again", case_id=case_id,
               summary=f"rejected {kind} {name!r} again",
               data={"kind": kind, "name": name, "mentions": len(mentions)})
    return changes(
        case_id, documents=sorted({m.document_id for m in mentions}), suggestions=True,
        label=f"undo {label}",
        message=(f"Rejected {_quoted(kind, name)} again; it will not be suggested in this or "
                 "any other case."),
        value=len(mentions),
        undo=Step("suggestion.restore", {"kind": kind, "name": name, "case_id": case_id},
                  f"redo {label}"))
