"""The case archive file: a zip of JSON tables, original bytes and a manifest, optionally
sealed with a passphrase. Pure: no database, no Qt.

Layout of the zip::

    manifest.json          {"format": "casefile-case-archive", "version": 1, "schema": REV,
                            "case": TITLE, "created": ISO 8601, "files": {NAME: {"sha256", "size"}}}
    tables/TABLE.json      a JSON list of rows (dicts of column -> value)
    blobs/SHA256           a document's original bytes

Sealed (``passphrase`` given): the whole zip is encrypted with AES-256-GCM (authenticated; the
``cryptography`` library) under a key derived from the passphrase with scrypt (n=2**15, r=8,
p=1; RFC 7914), written as ``MAGIC + salt (16 bytes) + nonce (12 bytes) + ciphertext``.

Reading is defensive (:func:`read_archive`): member names must be ``manifest.json``,
``tables/NAME.json`` or ``blobs/HEX64`` (no absolute paths, no ``..``), every size is checked
against the manifest and :data:`MAX_MEMBER` / :data:`MAX_TOTAL` before reading, a member that
would expand more than :data:`MAX_RATIO` times its compressed size is refused (zip bombs), every
SHA-256 is verified, and a blob's name must be its own hash. Any failure raises
:class:`ArchiveError` with one sentence; nothing is returned half-read.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casefile.export.errors import ExportError

FORMAT = "casefile-case-archive"
VERSION = 1
MAGIC = b"CASEFILE-SEALED-ARCHIVE-1\n"
MAX_MEMBER = 1 << 30  # 1 GiB: more than any document Casefile imports (200 MiB)
MAX_TOTAL = 8 << 30
MAX_RATIO = 200  # deflate reaches ~1000x only on degenerate input such as runs of zeros
_NAME = re.compile(r"manifest\.json|tables/[a-z_]{1,60}\.json|blobs/[0-9a-f]{64}")


class ArchiveError(ExportError):
    """A case archive cannot be written or read (damaged, hostile, wrong passphrase…)."""


class ArchivePassphraseError(ArchiveError):
    """The archive is sealed and no passphrase, or a wrong one, was given."""


@dataclass
class ArchiveContent:
    """What an archive holds: ``manifest`` (dict, see module docstring), ``tables`` (table name
    -> list of row dicts) and ``blobs`` (SHA-256 hex -> bytes)."""

    manifest: dict[str, Any]
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)


def _derive(passphrase: str, salt: bytes) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=2**15, r=8, p=1).derive(passphrase.encode("utf-8"))


def _seal(data: bytes, passphrase: str) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    salt, nonce = os.urandom(16), os.urandom(12)
    return MAGIC + salt + nonce + AESGCM(_derive(passphrase, salt)).encrypt(nonce, data, MAGIC)


def _unseal(data: bytes, passphrase: str | None) -> bytes:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    if not passphrase:
        raise ArchivePassphraseError("the archive is sealed with a passphrase; give it to open "
                                     "the archive")
    head = len(MAGIC)
    salt, nonce, body = data[head:head + 16], data[head + 16:head + 28], data[head + 28:]
    try:
        return AESGCM(_derive(passphrase, salt)).decrypt(nonce, body, MAGIC)
    except InvalidTag as exc:
        raise ArchivePassphraseError("wrong passphrase for this archive (or the file was "
                                     "changed since it was sealed)") from exc


def is_sealed(path: Path) -> bool:
    """True when the file at ``path`` is a sealed archive (starts with :data:`MAGIC`)."""
    with path.open("rb") as fh:
        return fh.read(len(MAGIC)) == MAGIC


def write_archive(content: ArchiveContent, target: Path, *,
                  passphrase: str | None = None) -> Path:
    """Write ``content`` (its manifest's ``files`` filled in here) to ``target`` through a
    temporary file renamed into place; sealed when ``passphrase`` is given. Raises
    ArchiveError when the file cannot be written."""
    buffer = io.BytesIO()
    files: dict[str, dict[str, Any]] = {}
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        members: list[tuple[str, bytes]] = [
            (f"tables/{name}.json",
             json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
            for name, rows in sorted(content.tables.items())]
        members += [(f"blobs/{sha}", data) for sha, data in sorted(content.blobs.items())]
        for name, data in members:
            files[name] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            zf.writestr(name, data)
        manifest = {**content.manifest, "format": FORMAT, "version": VERSION, "files": files}
        zf.writestr("manifest.json", json.dumps(manifest, ensure_ascii=False, indent=1))
    data = buffer.getvalue()
    if passphrase:
        data = _seal(data, passphrase)
    from casefile.export.files import write_private

    try:
        write_private(target, lambda tmp: tmp.write_bytes(data))
    except OSError as exc:
        raise ArchiveError(f"cannot write {target}: {exc.strerror}") from exc
    return target


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, expected: dict[str, Any]) -> bytes:
    size = int(expected.get("size", -1))
    if info.file_size != size:
        raise ArchiveError(f"{info.filename} is {info.file_size:,} bytes, the manifest says "
                           f"{size:,}: the archive is damaged")
    with zf.open(info) as fh:
        data = fh.read(size + 1)
    if len(data) != size:
        raise ArchiveError(f"{info.filename} does not hold the {size:,} bytes it declares")
    if hashlib.sha256(data).hexdigest() != expected.get("sha256"):
        raise ArchiveError(f"{info.filename} does not match its SHA-256 in the manifest: the "
                           "archive is damaged or was changed")
    return data


def read_archive(path: Path, *, passphrase: str | None = None) -> ArchiveContent:
    """Read and verify the archive at ``path`` (module docstring). Raises ArchiveError (or
    ArchivePassphraseError) with one sentence for anything wrong."""
    try:
        size = path.stat().st_size
        if size > MAX_TOTAL:
            raise ArchiveError(f"{path.name} is {size:,} bytes; larger than any case archive "
                               "Casefile writes")
        data = path.read_bytes()
    except OSError as exc:
        raise ArchiveError(f"cannot read {path}: {exc.strerror}") from exc
    if data.startswith(MAGIC):
        data = _unseal(data, passphrase)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise ArchiveError(f"{path.name} is not a Casefile case archive") from exc
    with zf:
        infos = zf.infolist()
        names = [i.filename for i in infos]
        bad = next((n for n in names if not _NAME.fullmatch(n)), None)
        if bad is not None:
            raise ArchiveError(f"the archive holds an unexpected path {bad!r}; refused")
        if len(set(names)) != len(names):
            raise ArchiveError("the archive holds the same name twice; refused")
        total = 0
        for info in infos:
            total += info.file_size
            if info.file_size > MAX_MEMBER or total > MAX_TOTAL:
                raise ArchiveError(f"{info.filename} declares {info.file_size:,} bytes, more "
                                   "than a case archive holds; refused")
            if info.file_size > (1 << 20) and info.file_size > MAX_RATIO * max(
                    info.compress_size, 1):
                raise ArchiveError(f"{info.filename} would expand {info.file_size:,} bytes "
                                   f"from {info.compress_size:,} (a zip bomb?); refused")
        if "manifest.json" not in names:
            raise ArchiveError(f"{path.name} has no manifest: not a Casefile case archive")
        try:
            manifest = json.loads(zf.read("manifest.json").decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ArchiveError("the archive's manifest is not readable JSON") from exc
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise ArchiveError(f"{path.name} is not a Casefile case archive")
        if manifest.get("version") != VERSION:
            raise ArchiveError(f"the archive is format version {manifest.get('version')}; this "
                               f"Casefile reads version {VERSION}")
        files = manifest.get("files")
        if not isinstance(files, dict) or set(files) != set(names) - {"manifest.json"}:
            raise ArchiveError("the archive's files do not match its manifest: damaged or "
                               "changed")
        for entry in files.values():
            if not isinstance(entry, dict) or int(entry.get("size", -1)) > MAX_MEMBER:
                raise ArchiveError("the manifest declares a file larger than a case archive "
                                   "holds; refused")
        content = ArchiveContent(manifest)
        for info in infos:
            if info.filename == "manifest.json":
                continue
            raw = _read_member(zf, info, files[info.filename])
            kind, _, name = info.filename.partition("/")
            if kind == "blobs":
                if hashlib.sha256(raw).hexdigest() != name:
                    raise ArchiveError(f"{info.filename} is not named by its own SHA-256")
                content.blobs[name] = raw
            else:
                try:
                    rows = json.loads(raw.decode("utf-8"))
                except (ValueError, UnicodeDecodeError) as exc:
                    raise ArchiveError(f"{info.filename} is not readable JSON") from exc
                if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                    raise ArchiveError(f"{info.filename} is not a list of rows")
                content.tables[name.removesuffix(".json")] = rows
    return content
