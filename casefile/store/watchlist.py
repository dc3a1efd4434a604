"""The watch list: names the reporter wants to hear about, and where imported documents
mention them (revision 0013). ARCHITECTURE.md, "The watch list".

``watch_names``: one name to watch, with its other spellings (``aliases``), for one case
(``case_id``) or for every case of the workspace (``case_id`` NULL); ``kind`` one of
:data:`WATCH_KINDS`; ``source`` where it came from ("typed", "case", a file's name).
``watch_hits``: a name found in a document (one row per name and document): the words as
written (``variant``), where the first one is (``start``/``end``, Python str offsets of the
document's text) and how many times the document has it (``count``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from casefile.store.base import Base, utcnow

#: What a watched name is: a person's, an organization's, or a name of either.
WATCH_KINDS = ("person", "organization", "name")


class WatchName(Base):
    """A name on the watch list (module docstring)."""

    __tablename__ = "watch_names"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int | None] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"),
                                                index=True)
    name: Mapped[str] = mapped_column(String(500))
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)
    kind: Mapped[str] = mapped_column(String(20), default="name")
    source: Mapped[str] = mapped_column(String(300), default="typed")
    created: Mapped[datetime] = mapped_column(default=utcnow)


class WatchHit(Base):
    """A watched name found in a document (module docstring)."""

    __tablename__ = "watch_hits"
    __table_args__ = (UniqueConstraint("watch_name_id", "document_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    watch_name_id: Mapped[int] = mapped_column(
        ForeignKey("watch_names.id", ondelete="CASCADE"), index=True)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    variant: Mapped[str] = mapped_column(String(500))
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    count: Mapped[int] = mapped_column(Integer, default=1)
    found: Mapped[datetime] = mapped_column(default=utcnow)
