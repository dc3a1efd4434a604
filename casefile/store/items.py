"""Everything a case holds: the ``items`` base table and its joined-table subclasses.

Item kinds and their vocabularies: ARCHITECTURE.md, "Data model". ``Item.title`` is the display
name; ``Person.name``, ``Organization.name`` and ``Place.name`` are synonyms of it. Dates are
``datetime.date`` (ISO 8601 in every export). ``version`` is SQLAlchemy's optimistic-locking
counter: saving a stale copy raises ``StaleDataError``, which services turn into ConflictError.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from sqlalchemy import JSON, Boolean, Date, ForeignKey, Integer, String, Text, event
from sqlalchemy.orm import Mapped, mapped_column, object_session, relationship, synonym

from casefile.store.base import Base, utcnow

ITEM_KINDS = ("person", "organization", "place", "document", "event", "claim", "question")
ORGANIZATION_KINDS = (
    "law enforcement agency", "government body", "government agency", "news outlet", "school",
    "company", "court", "nonprofit", "political party", "other",
)
#: The key of ``Document.meta`` (value True) marking a document imported and not yet read for
#: suggestions: set by the import, dropped by the suggestion run that reads it, so a run cut
#: short (cancelled, the window ended, a CLI ``--no-suggest``) leaves the rest marked
#: (ARCHITECTURE.md, "Import: the document first, suggestions after").
SUGGESTIONS_WAITING = "suggestions_waiting"
DOCUMENT_KINDS = (
    "article", "report", "email", "court filing", "transcript", "note", "letter", "record",
    "web page", "other",
)
DOCUMENT_STATUSES = ("obtained", "expected", "requested")
DATE_PRECISIONS = ("exact", "day", "month", "year", "approximate")
#: A document's reading states (``Document.reading``): not yet read; read; read and relevant
#: to the story; read and not relevant.
READING_STATES = ("unread", "read", "relevant", "irrelevant")
CLAIM_STATUSES = ("unverified", "single-source", "corroborated", "disputed", "false")
QUESTION_KINDS = ("question", "expected record", "records request", "right of reply", "call back",
                  "scheduled event")
QUESTION_STATUSES = ("open", "waiting", "answered", "dropped")


class Item(Base):
    """The base row of everything a case holds (polymorphic on ``kind``)."""

    __tablename__ = "items"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20), index=True)
    title: Mapped[str] = mapped_column(String(500))
    notes: Mapped[str | None] = mapped_column(Text)
    confidential: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    version: Mapped[int] = mapped_column(Integer, default=1)

    __mapper_args__ = {"polymorphic_on": "kind", "version_id_col": version}


def _item_fk() -> Any:
    return mapped_column(ForeignKey("items.id", ondelete="CASCADE"), primary_key=True)


def _ref(nullable: bool = True) -> Any:
    return mapped_column(ForeignKey("items.id", ondelete="SET NULL"), nullable=nullable)


class Person(Item):
    """A person: ``name`` (= title), aliases, role/title, affiliation, contact details, and
    ``identifying_phrases``: the reporter's own phrases that identify a confidential person
    ("the clerk who signed the contract"), withheld by exports as the name is (revision
    0010)."""

    __tablename__ = "people"

    id: Mapped[int] = _item_fk()
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)
    role: Mapped[str | None] = mapped_column(String(300))
    affiliation_id: Mapped[int | None] = _ref()
    contact: Mapped[str | None] = mapped_column(Text)
    identifying_phrases: Mapped[list[str]] = mapped_column(JSON, default=list)

    name = synonym("title")
    affiliation: Mapped[Organization | None] = relationship(
        foreign_keys=[affiliation_id], primaryjoin="Person.affiliation_id == Organization.id"
    )
    __mapper_args__ = {"polymorphic_identity": "person", "inherit_condition": id == Item.id}


class Organization(Item):
    """An organization or agency: name, aliases, kind, jurisdiction, parent organization."""

    __tablename__ = "organizations"

    id: Mapped[int] = _item_fk()
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)
    org_kind: Mapped[str | None] = mapped_column(String(60))
    jurisdiction: Mapped[str | None] = mapped_column(String(300))
    parent_id: Mapped[int | None] = _ref()

    name = synonym("title")
    __mapper_args__ = {"polymorphic_identity": "organization", "inherit_condition": id == Item.id}


class Place(Item):
    """A place: name and aliases."""

    __tablename__ = "places"

    id: Mapped[int] = _item_fk()
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)

    name = synonym("title")
    __mapper_args__ = {"polymorphic_identity": "place"}


class Document(Item):
    """A source: its extracted text, metadata and the SHA-256 of its original bytes.

    ``page_starts`` lists the str offset at which each page starts (paged formats only).
    ``import_notes`` keeps remarks made while reading the file (e.g. the encoding assumed).
    ``reading``: the reporter's reading state, one of :data:`READING_STATES`; ``read_at``
    when it was first read or decided (UTC), None while unread.
    """

    __tablename__ = "documents"

    id: Mapped[int] = _item_fk()
    doc_kind: Mapped[str] = mapped_column(String(40), default="article")
    author: Mapped[str | None] = mapped_column(String(300))
    outlet: Mapped[str | None] = mapped_column(String(300))
    url: Mapped[str | None] = mapped_column(Text)
    published: Mapped[dt.date | None] = mapped_column(Date)
    retrieved: Mapped[dt.date | None] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(20), default="obtained")
    sha256: Mapped[str | None] = mapped_column(
        ForeignKey("blobs.sha256", ondelete="RESTRICT"), index=True
    )
    mime_type: Mapped[str | None] = mapped_column(String(100))
    filename: Mapped[str | None] = mapped_column(String(500))
    text: Mapped[str] = mapped_column(Text, default="")
    page_starts: Mapped[list[int] | None] = mapped_column(JSON)
    import_notes: Mapped[list[str]] = mapped_column(JSON, default=list)
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    parent_id: Mapped[int | None] = _ref()
    reading: Mapped[str] = mapped_column(String(12), default="unread",
                                         server_default="unread")
    read_at: Mapped[dt.datetime | None] = mapped_column()

    __mapper_args__ = {"polymorphic_identity": "document", "inherit_condition": id == Item.id}

    @property
    def file_sha256(self) -> str | None:
        """The SHA-256 of the document's original file: ``sha256`` when the original is stored,
        else the one its source recorded (a FollowTheMoney entity's, kept in ``meta``)."""
        recorded = (self.meta or {}).get("ftm_sha256")
        return self.sha256 or (recorded if isinstance(recorded, str) and recorded else None)

    def page_at(self, offset: int) -> int | None:
        """The 1-based page holding str offset ``offset``, or None for unpaged documents."""
        if not self.page_starts:
            return None
        page = 1
        for number, start in enumerate(self.page_starts, start=1):
            if start <= offset:
                page = number
        return page


class Event(Item):
    """Something that happened: a date with its precision, an optional end and place."""

    __tablename__ = "events"

    id: Mapped[int] = _item_fk()
    date: Mapped[dt.date | None] = mapped_column(Date)
    precision: Mapped[str] = mapped_column(String(20), default="day")
    end: Mapped[dt.date | None] = mapped_column(Date)
    place_id: Mapped[int | None] = _ref()
    description: Mapped[str | None] = mapped_column(Text)

    __mapper_args__ = {"polymorphic_identity": "event", "inherit_condition": id == Item.id}


class Claim(Item):
    """A statement someone made, its verification status and its attribution chain.

    ``status`` is proposed from the evidence by ``casefile.services.claims`` (unverified,
    single-source, corroborated, disputed) and kept current when evidence changes. A non-empty
    ``status_reason`` marks a manual override: the reporter chose ``status`` for that reason
    and the evidence no longer changes it (``false`` is only ever set this way).
    ``attributed_to_id`` names a Person/Organization; for unnamed sources it is None and
    ``attributed_to_text`` describes them. ``via_id`` is the outlet (Organization) or Document
    the claim came through.
    """

    __tablename__ = "claims"

    id: Mapped[int] = _item_fk()
    statement: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(20), default="unverified")
    status_reason: Mapped[str | None] = mapped_column(Text)
    attributed_to_id: Mapped[int | None] = _ref()
    attributed_to_text: Mapped[str | None] = mapped_column(String(500))
    via_id: Mapped[int | None] = _ref()

    __mapper_args__ = {"polymorphic_identity": "claim", "inherit_condition": id == Item.id}


class Question(Item):
    """An open question or follow-up (``title`` is its text) with kind, status and due date.

    ``uid`` is a random UUID given at creation and never changed: calendar exports derive the
    iCalendar UID from it, so a second export updates the same entries (RFC 5545, 3.8.4.7).
    Every change of ``status`` (including the first) appends a :class:`QuestionStatusChange`
    to ``status_history`` (see ``_record_status_change``). ``answered_at`` is the date of the
    answer; ``answered_by_passage_id`` / ``answered_by_document_id`` what answered it.
    """

    __tablename__ = "questions"

    id: Mapped[int] = _item_fk()
    question_kind: Mapped[str] = mapped_column(String(30), default="question")
    status: Mapped[str] = mapped_column(String(20), default="open")
    status_changed: Mapped[dt.datetime | None] = mapped_column()
    due: Mapped[dt.date | None] = mapped_column(Date, index=True)
    ask_id: Mapped[int | None] = _ref()
    answer: Mapped[str | None] = mapped_column(Text)
    answered_at: Mapped[dt.date | None] = mapped_column(Date)
    answered_by_passage_id: Mapped[int | None] = mapped_column(
        ForeignKey("passages.id", ondelete="SET NULL")
    )
    answered_by_document_id: Mapped[int | None] = _ref()
    uid: Mapped[str] = mapped_column(String(36), unique=True, default=lambda: str(uuid.uuid4()))

    status_history: Mapped[list[QuestionStatusChange]] = relationship(
        back_populates="question", cascade="all, delete-orphan", passive_deletes=True,
        order_by="QuestionStatusChange.id",
    )

    text = synonym("title")
    __mapper_args__ = {"polymorphic_identity": "question", "inherit_condition": id == Item.id}


#: The model class of each item kind (``Item.kind``), in ``ITEM_KINDS`` order.
MODELS: dict[str, type[Item]] = {
    "person": Person,
    "organization": Organization,
    "place": Place,
    "document": Document,
    "event": Event,
    "claim": Claim,
    "question": Question,
}


class QuestionStatusChange(Base):
    """One status change of a question: ``previous`` → ``status`` on ``changed_on``.

    ``changed_on`` is the reporter's date of the change (the local date unless a service was
    told otherwise, e.g. "the answer came on Monday"); ``recorded`` is when it was written
    (UTC). ``previous`` is None for the status a question was created with.
    """

    __tablename__ = "question_status_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("questions.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(20))
    previous: Mapped[str | None] = mapped_column(String(20))
    changed_on: Mapped[dt.date] = mapped_column(Date)
    recorded: Mapped[dt.datetime] = mapped_column(default=utcnow)
    note: Mapped[str | None] = mapped_column(Text)

    question: Mapped[Question] = relationship(back_populates="status_history")


#: Instance attributes a service may set just before changing ``Question.status`` to date and
#: annotate the change it records (see ``casefile.services.questions.set_status``).
STATUS_DATE_ATTR = "_casefile_status_on"
STATUS_NOTE_ATTR = "_casefile_status_note"


@event.listens_for(Question.status, "set")
def _record_status_change(target: Question, value: Any, oldvalue: Any, _initiator: Any) -> None:
    """Append a QuestionStatusChange whenever a question's status is set to a new value.

    Listening on the attribute catches every way in (create_item, update_item from the editor,
    set_status, undo); values loaded from the database do not fire it.
    """
    if not isinstance(value, str) or value == oldvalue:
        return
    on = target.__dict__.pop(STATUS_DATE_ATTR, None) or dt.date.today()
    note = target.__dict__.pop(STATUS_NOTE_ATTR, None)
    previous = oldvalue if isinstance(oldvalue, str) else None
    change = QuestionStatusChange(status=value, previous=previous, changed_on=on, note=note)
    session = object_session(target)
    if session is None:  # a new question: saved with it through the collection's cascade
        target.status_history.append(change)
    else:  # a stored one: no lazy load (and no autoflush) from inside an attribute event
        change.question = target
        session.add(change)
