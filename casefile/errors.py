"""Errors a user can act on.

Every exception in this module carries one clear sentence meant for the reporter; the CLI prints
it on one line of stderr with exit code 1, the window shows it in a message box. Anything else
that escapes is a bug.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


class CasefileError(Exception):
    """Base of all user-facing errors; ``str(err)`` is the one-line message."""


class IngestError(CasefileError):
    """A file cannot be imported (missing, empty, unreadable, unsupported, too big, damaged)."""


class PdfPasswordError(IngestError):
    """The PDF is encrypted and the password is missing (``wrong`` False) or wrong (True);
    raised by ``casefile.ingest``.

    The window catches this to ask for a password; the CLI prints it (it names ``--password``).
    """

    def __init__(self, message: str, *, wrong: bool) -> None:
        super().__init__(message)
        self.wrong = wrong


class NotFoundError(CasefileError):
    """A case, item, document or passage named by the user does not exist."""


@dataclass(frozen=True)
class FieldConflict:
    """One field of an item that two writers both saved: the value ``base`` the user started
    from, the user's value ``yours`` and the value stored now, ``theirs`` (the other writer's).

    ``yours`` / ``theirs`` / ``base`` are plain values as the services take them (dates as
    ``datetime.date``, references as item ids, aliases as lists); the ``*_text`` twins are the
    same values for a person to read ("" for no value, dates ISO 8601, a reference as the
    item's title, lists joined by ", "). ``base_text`` is None when the value the user started
    from is not known.
    """

    name: str
    yours: Any
    theirs: Any
    yours_text: str
    theirs_text: str
    base: Any = None
    base_text: str | None = None

    @property
    def same(self) -> bool:
        """True when the other writer stored the very value the user wanted."""
        return bool(self.yours == self.theirs
                    or (self.yours in (None, "", []) and self.theirs in (None, "", [])))


class ConflictError(CasefileError):
    """Someone else saved the same item since it was loaded (optimistic locking).

    ``str(err)`` is the one sentence. Raised by ``services.items.update_item`` it also carries
    what a window needs to show both sides: ``item_id``, ``title`` and ``kind`` of the item as
    stored now, ``version`` (the stored version, to save on top of), and ``fields``, one
    :class:`FieldConflict` per field the user changed. Other raisers may leave them empty.
    """

    def __init__(self, message: str, *, item_id: int | None = None, title: str = "",
                 kind: str = "", version: int | None = None,
                 fields: Sequence[FieldConflict] = ()) -> None:
        super().__init__(message)
        self.item_id = item_id
        self.title = title
        self.kind = kind
        self.version = version
        self.fields: tuple[FieldConflict, ...] = tuple(fields)

    def __reduce__(self) -> tuple[Any, ...]:  # keep the details when pickled (e.g. logging)
        return (_rebuild_conflict, (str(self), self.item_id, self.title, self.kind,
                                    self.version, self.fields))

    @property
    def theirs(self) -> dict[str, Any]:
        """field -> the value stored now, for the fields the user changed."""
        return {f.name: f.theirs for f in self.fields}

    @property
    def yours(self) -> dict[str, Any]:
        """field -> the user's value, for the fields the user changed."""
        return {f.name: f.yours for f in self.fields}


def _rebuild_conflict(message: str, item_id: int | None, title: str, kind: str,
                      version: int | None, fields: tuple[FieldConflict, ...]) -> ConflictError:
    return ConflictError(message, item_id=item_id, title=title, kind=kind, version=version,
                         fields=fields)


class ValidationError(CasefileError):
    """A value given by the user is not acceptable (empty title, bad date, unknown kind...)."""
