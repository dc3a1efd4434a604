"""Cases, original file bytes (blobs) and the change log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from casefile.store.base import Base, utcnow


class Case(Base):
    """One story: the container of items, documents and evidence.

    ``graph_layout`` keeps where the relationship graph drew each item, so the picture does
    not jump between opens: ``{"positions": {"<item id>": [x, y], ...}, "pinned": [item ids]}``
    in scene units (see :mod:`casefile.services.graph`); None until the graph is first drawn.
    """

    __tablename__ = "cases"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(300), unique=True)
    summary: Mapped[str | None] = mapped_column(Text)
    graph_layout: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    updated: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Blob(Base):
    """The original bytes of an imported file, keyed by their SHA-256 (64 lower-case hex digits).

    Stored inside the database so an import is one transaction and a workspace is self-contained.
    """

    __tablename__ = "blobs"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class ChangeLog(Base):
    """Who did what, when: one row per service action (provenance; the base of undo history)."""

    __tablename__ = "change_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int | None] = mapped_column(
        ForeignKey("cases.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor: Mapped[str] = mapped_column(String(120), default="")
    action: Mapped[str] = mapped_column(String(60))
    item_id: Mapped[int | None] = mapped_column(Integer)
    summary: Mapped[str] = mapped_column(Text, default="")
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON)
