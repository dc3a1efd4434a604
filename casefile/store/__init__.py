"""Storage: SQLAlchemy models, workspace open/create and the search backend.

Everything SQLite-specific (PRAGMAs, FTS5) lives in this package behind small functions, so the
same services run on PostgreSQL.
"""

from casefile.store.base import Base, utcnow
from casefile.store.case import Blob, Case, ChangeLog
from casefile.store.evidence import EvidenceLink, Mention, Passage, Relationship
from casefile.store.items import (
    Claim,
    Document,
    Event,
    Item,
    Organization,
    Person,
    Place,
    Question,
    QuestionStatusChange,
)
from casefile.store.trash import TrashEntry, TrashRow
from casefile.store.watchlist import WatchHit, WatchName

__all__ = [
    "Base", "Blob", "Case", "ChangeLog", "Claim", "Document", "Event", "EvidenceLink", "Item",
    "Mention", "Organization", "Passage", "Person", "Place", "Question", "QuestionStatusChange",
    "Relationship", "TrashEntry", "TrashRow", "WatchHit", "WatchName", "utcnow",
]
