"""Declarative base, naming convention and small column helpers shared by all models."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

#: Constraint names follow one convention so Alembic migrations are stable on SQLite and
#: PostgreSQL alike (the approach Taguette and the SQLAlchemy docs recommend).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Base class of every Casefile table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    """Now, in UTC, as a naive datetime (stored the same way on SQLite and PostgreSQL)."""
    return datetime.now(UTC).replace(tzinfo=None)


def configure_models() -> None:
    """Finish the models' mappers now (``sqlalchemy.orm.configure_mappers``) rather than at
    the first ORM query: about 0.02 s that the window's start spends on its loading thread with
    the collector paused (``ui/preload.py``), and that its first read otherwise spent on the
    GUI thread. Idempotent."""
    from sqlalchemy.orm import configure_mappers

    configure_mappers()
