"""Errors a user can act on.

Every exception in this module carries one clear sentence meant for the reporter; the CLI prints
it on one line of stderr with exit code 1, the window shows it in a message box. Anything else
that escapes is a bug.
"""


class CasefileError(Exception):
    """Base of all user-facing errors; ``str(err)`` is the one-line message."""


class IngestError(CasefileError):
    """A file cannot be imported (missing, empty, unreadable, unsupported, too big, damaged)."""


class NotFoundError(CasefileError):
    """A case, item, document or passage named by the user does not exist."""


class ConflictError(CasefileError):
    """Someone else saved the same item since it was loaded (optimistic locking)."""


class ValidationError(CasefileError):
    """A value given by the user is not acceptable (empty title, bad date, unknown kind...)."""
