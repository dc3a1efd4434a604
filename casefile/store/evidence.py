"""Passages of documents and what they are evidence for; relationships; mentions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from casefile.store.base import Base, utcnow

EVIDENCE_RELATIONS = ("supports", "contradicts", "mentions", "context")
RELATIONSHIP_KINDS = ("employed by", "part of", "reports to", "related to")
MENTION_STATUSES = ("suggested", "confirmed", "rejected")


class Passage(Base):
    """A span of a document's text: ``text[start:end]`` in Python str offsets.

    ``quote`` is a snapshot of the quoted text as it was when marked, so the quote survives a
    later re-extraction of the document; ``page`` is 1-based for paged documents.
    """

    __tablename__ = "passages"
    __table_args__ = (CheckConstraint("start >= 0 AND \"end\" > start", name="span"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    page: Mapped[int | None] = mapped_column(Integer)
    quote: Mapped[str] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)
    starred: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[datetime] = mapped_column(default=utcnow)


class EvidenceLink(Base):
    """A passage (or a whole document) is evidence for an item, with a relation."""

    __tablename__ = "evidence_links"
    __table_args__ = (
        CheckConstraint(
            "passage_id IS NOT NULL OR document_id IS NOT NULL", name="passage_or_document"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    passage_id: Mapped[int | None] = mapped_column(
        ForeignKey("passages.id", ondelete="CASCADE"), index=True
    )
    document_id: Mapped[int | None] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )
    item_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"), index=True)
    relation: Mapped[str] = mapped_column(String(20), default="supports")
    note: Mapped[str | None] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(default=utcnow)


class Relationship(Base):
    """A typed link between two items (employed by, part of, reports to, related to)."""

    __tablename__ = "relationships"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    source_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(40), default="related to")
    passage_id: Mapped[int | None] = mapped_column(ForeignKey("passages.id", ondelete="SET NULL"))
    note: Mapped[str | None] = mapped_column(Text)


class Mention(Base):
    """A suggested or confirmed occurrence of a name in a document (``text[start:end]``).

    ``item_id`` is set once the mention is tied to an item (confirmed, or matched to a name the
    case already holds); ``name`` is the suggested canonical name; ``kind`` the suggested item kind
    (person, organization, place, event, question, claim). ``detail`` holds kind-specific
    suggestion data, e.g. ``{"date": "2018-02-14", "precision": "day"}`` for an event or
    ``{"due": "2018-03-02", "question_kind": "expected record"}`` for a follow-up.
    """

    __tablename__ = "mentions"
    # a case's pending mentions in the Suggestions list's order, read from the index alone
    # (store/mention_groups.py; revision 0014)
    __table_args__ = (Index("ix_mentions_pending", "case_id", "status", "kind", "name",
                            "document_id", "start", "id", "role", "affiliation"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )
    item_id: Mapped[int | None] = mapped_column(
        ForeignKey("items.id", ondelete="SET NULL"), index=True
    )
    kind: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(500))
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    role: Mapped[str | None] = mapped_column(String(300))
    affiliation: Mapped[str | None] = mapped_column(String(300))
    status: Mapped[str] = mapped_column(String(20), default="suggested")
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(default=utcnow)
