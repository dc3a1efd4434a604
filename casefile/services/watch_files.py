"""Names to watch read from a file: a spreadsheet (CSV or XLSX) or FollowTheMoney entities.

ARCHITECTURE.md, "The watch list". :func:`read_names_file` reads; nothing is stored until the
names go to :func:`casefile.services.watch_list.add_names`.

- CSV / XLSX: a column of names (headed ``name``, ``full name``, ``title``, ``caption`` or
  ``entity``; else the first column), optional ``aliases`` (several separated by ``;`` or
  ``|``) and ``kind`` (``person``, ``organization``, or an FtM schema such as ``Company``).
  A first row that is no header is a name too.
- FollowTheMoney (``.json``, ``.jsonl``, ``.ftm``, ``.ijson``; one entity per line, or a
  JSON list): every entity of a person or a legal entity (Person, Organization, Company,
  PublicBody, LegalEntity...) with its ``name``, ``alias``, ``weakAlias`` and
  ``previousName`` properties, as OpenSanctions and Aleph export them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from casefile.errors import ValidationError
from casefile.services.watch_list import WatchEntry

#: File name endings read as FollowTheMoney entities.
FTM_SUFFIXES = (".json", ".jsonl", ".ftm", ".ijson", ".ndjson")
#: Properties of an FtM entity read as its spellings, the first being its name.
FTM_NAME_PROPS = ("name", "alias", "weakAlias", "previousName")
#: Most names one file may hold.
MAX_NAMES = 200_000

_NAME_LABELS = ("name", "names", "fullname", "title", "caption", "entity")
_ALIAS_LABELS = ("aliases", "alias", "akas", "aka", "othernames", "weakalias")
_KIND_LABELS = ("kind", "type", "schema")
_PERSON_SCHEMATA = ("person",)
_ORG_SCHEMATA = ("organization", "organisation", "company", "publicbody", "legalentity",
                 "org")


def read_names_file(path: Path | str) -> list[WatchEntry]:
    """The names of a CSV, XLSX or FollowTheMoney file (module docstring), in file order.
    Raises ValidationError for a file that cannot be read or holds no name."""
    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        _check_text(path)
    if path.suffix.lower() in FTM_SUFFIXES:
        entries = list(_ftm_entries(path))
    else:
        entries = _sheet_entries(path)
    if not entries:
        raise ValidationError(f"{path.name} holds no name to watch")
    if len(entries) > MAX_NAMES:
        raise ValidationError(f"{path.name} holds {len(entries):,} names; the most Casefile "
                              f"watches from one file is {MAX_NAMES:,}")
    return entries


#: Bytes of a file's start read to tell text from binary data.
SNIFF_BYTES = 8192


def _check_text(path: Path) -> None:
    """Refuse a file that is no text (a NUL byte, or more than one byte in ten a control
    character, in its first :data:`SNIFF_BYTES`): ValidationError naming the file."""
    try:
        with path.open("rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError as exc:
        raise ValidationError(f"cannot read {path.name}: {exc.strerror}") from exc
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    if b"\0" in head or controls * 10 > len(head):
        raise ValidationError(f"{path.name} is not a CSV/XLSX/FtM file: it holds binary "
                              "data, not text; nothing was added")


def _squash(label: str) -> str:
    return "".join(c for c in label.casefold() if c.isalnum())


def _kind(value: str) -> str:
    squashed = _squash(value)
    if squashed in _PERSON_SCHEMATA:
        return "person"
    if squashed in _ORG_SCHEMATA:
        return "organization"
    return "name"


def _sheet_entries(path: Path) -> list[WatchEntry]:
    from casefile.services.table_import import read_table

    sheet = read_table(path)
    labels = [_squash(c) for c in sheet.columns]

    def column(wanted: Sequence[str]) -> int | None:
        return next((i for i, label in enumerate(labels) if label in wanted), None)

    name_at, alias_at, kind_at = column(_NAME_LABELS), column(_ALIAS_LABELS), column(
        _KIND_LABELS)
    rows = sheet.rows
    if name_at is None and alias_at is None and kind_at is None:  # no header: a name too
        rows = [list(sheet.columns), *rows]
    name_at = name_at or 0
    out = []
    for row in rows:
        name = row[name_at].strip() if name_at < len(row) else ""
        if not name:
            continue
        aliases: tuple[str, ...] = ()
        if alias_at is not None and alias_at < len(row):
            aliases = tuple(a.strip() for a in row[alias_at].replace("|", ";").split(";")
                            if a.strip())
        kind = _kind(row[kind_at]) if kind_at is not None and kind_at < len(row) else "name"
        out.append(WatchEntry(name, aliases, kind))
    return out


def _ftm_entries(path: Path) -> Iterator[WatchEntry]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValidationError(f"cannot read {path.name}: {exc}") from exc
    stripped = text.lstrip()
    try:
        if stripped.startswith("["):
            objects: list[Any] = json.loads(stripped)
        else:
            objects = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path.name} is not FollowTheMoney JSON (line {exc.lineno}: "
                              f"{exc.msg})") from exc
    for obj in objects:
        if not isinstance(obj, dict):
            continue
        kind = _ftm_kind(str(obj.get("schema") or ""))
        props = obj.get("properties") or {}
        if kind is None or not isinstance(props, dict):
            continue
        spellings = [str(v).strip() for prop in FTM_NAME_PROPS
                     for v in (props.get(prop) or []) if str(v).strip()]
        if not spellings and obj.get("caption"):
            spellings = [str(obj["caption"]).strip()]
        if spellings:
            yield WatchEntry(spellings[0], tuple(dict.fromkeys(spellings[1:])), kind)


def _ftm_kind(schema: str) -> str | None:
    """``person`` / ``organization`` / ``name`` for an FtM schema of a person or legal
    entity (followthemoney's model when installed, else the common schemata), None for
    anything else (documents, addresses, relationships...)."""
    try:
        from followthemoney import model
    except ImportError:  # pragma: no cover - the test install has it
        kind = _kind(schema)
        return None if kind == "name" and _squash(schema) != "legalentity" else kind
    found = model.get(schema)
    if found is None or not found.is_a("LegalEntity"):
        return None
    if found.is_a("Person"):
        return "person"
    return "organization" if found.name != "LegalEntity" else "name"
