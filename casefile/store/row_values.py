"""Table rows as JSON can hold them, and back: the one conversion the case archive and the
Trash both use.

A row is a mapping of column name to value. :func:`plain_value` turns a date or a time into
its ISO 8601 text (JSON has neither); :func:`typed_row` turns the ISO 8601 text of a
``Date``/``DateTime`` column back into its Python value, keeping only the columns the table
has. Raises ValueError for text that is not ISO 8601 (the caller says which file or entry).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Date, DateTime, Table


def plain_value(value: Any) -> Any:
    """``value`` as JSON holds it: a date or datetime as ISO 8601 text, the rest as it is."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def typed_row(table: Table, row: Mapping[str, Any]) -> dict[str, Any]:
    """The values of ``row`` for ``table``'s columns, dates and times parsed back from ISO
    8601; names that are not columns of ``table`` are left out."""
    out: dict[str, Any] = {}
    for column in table.columns:
        if column.name not in row:
            continue
        value = row[column.name]
        if value is not None and isinstance(column.type, DateTime):
            value = dt.datetime.fromisoformat(value)
        elif value is not None and isinstance(column.type, Date):
            value = dt.date.fromisoformat(value)
        out[column.name] = value
    return out
