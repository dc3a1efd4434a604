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

Reading is defensive (:func:`open_archive`, :func:`read_archive`): member names must be
``manifest.json``, ``tables/NAME.json`` or ``blobs/HEX64`` (no absolute paths, no ``..``),
every size is checked against the manifest and the limits before anything is decompressed (a
blob at most :data:`MAX_BLOB`, the largest original Casefile imports; a table at most
:data:`MAX_TABLE`; all together at most :data:`MAX_TOTAL`; a member that would expand more than
:data:`MAX_RATIO` times its compressed size is refused as a zip bomb), reading never takes more
than a member's declared size, every SHA-256 is verified, and a blob's name must be its own
hash. Blobs are read one at a time, when asked for, and the file is never read whole: a sealed
archive's tag is checked in one streaming pass, then its members are decrypted where they lie
(AES-GCM is AES in counter mode, NIST SP 800-38D section 7.2). Any failure raises
:class:`ArchiveError` with one sentence a user understands; nothing else escapes for bad input.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from casefile.export.errors import ExportError

FORMAT = "casefile-case-archive"
VERSION = 1
MAGIC = b"CASEFILE-SEALED-ARCHIVE-1\n"
MAX_BLOB = 200 << 20  # the largest file Casefile imports (casefile.ingest.DEFAULT_MAX_BYTES)
MAX_TABLE = 256 << 20  # one table's JSON (the documents table holds every document's text)
MAX_MANIFEST = 64 << 20
MAX_TOTAL = 8 << 30
MAX_MEMBERS = 200_000
MAX_RATIO = 200  # deflate reaches ~1000x only on degenerate input such as runs of zeros
_CHUNK = 1 << 20
_TAG = 16
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


def _limit(name: str) -> int:
    if name.startswith("blobs/"):
        return MAX_BLOB
    return MAX_MANIFEST if name == "manifest.json" else MAX_TABLE


class _Reader:
    """One open archive's zip, with the archive's file name for messages."""

    def __init__(self, zf: zipfile.ZipFile, filename: str) -> None:
        self.zf = zf
        self.filename = filename

    def damaged(self, member: str) -> ArchiveError:
        return ArchiveError(f"{self.filename} is damaged: {member} inside it cannot be read "
                            "back as it was written (a changed or truncated file)")

    def read(self, info: zipfile.ZipInfo, size: int) -> bytes:
        """The member's bytes, at most ``size`` (its declared size; zipfile stops there)."""
        try:
            with self.zf.open(info) as fh:
                data = fh.read(size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, struct.error,
                NotImplementedError, RuntimeError) as exc:
            raise self.damaged(info.filename) from exc
        if len(data) != size:
            raise self.damaged(info.filename)
        return data


def _read_member(reader: _Reader, info: zipfile.ZipInfo, expected: dict[str, Any]) -> bytes:
    size = expected["size"]
    if info.file_size != size:
        raise ArchiveError(f"{info.filename} is {info.file_size:,} bytes, the manifest says "
                           f"{size:,}: the archive is damaged")
    data = reader.read(info, size)
    if hashlib.sha256(data).hexdigest() != expected["sha256"]:
        raise ArchiveError(f"{info.filename} does not match its SHA-256 in the manifest: the "
                           "archive is damaged or was changed")
    return data


class _SealedFile:
    """The plaintext of a sealed archive as a read-only, seekable binary file, decrypted where
    it is read (AES-CTR from the GCM counter block of its position; the tag was checked
    before). ``fh`` is the open sealed file; the plaintext is ``size`` bytes from ``start``."""

    def __init__(self, fh: BinaryIO, key: bytes, nonce: bytes, start: int, size: int) -> None:
        self.fh, self.key, self.nonce, self.start, self.size = fh, key, nonce, start, size
        self.pos = 0
        self._decryptor: Any = None
        self._decryptor_at = -1

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self.pos, 2: self.size}[whence]
        if base + offset < 0:
            raise ValueError("negative seek position")
        self.pos = base + offset
        return self.pos

    def read(self, n: int = -1) -> bytes:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        end = self.size if n is None or n < 0 else min(self.size, self.pos + n)
        if end <= self.pos:
            return b""
        block, skip = divmod(self.pos, 16)
        if self._decryptor_at != self.pos or skip:
            # GCM's first block for data is counter 2 after the 96-bit nonce (SP 800-38D 7.2)
            counter = self.nonce + ((2 + block) & 0xFFFFFFFF).to_bytes(4, "big")
            self._decryptor = Cipher(algorithms.AES(self.key), modes.CTR(counter)).decryptor()
            self.fh.seek(self.start + block * 16)
            ciphertext = self.fh.read(end - block * 16)
            data = self._decryptor.update(ciphertext)[skip:]
        else:
            self.fh.seek(self.start + self.pos)
            data = self._decryptor.update(self.fh.read(end - self.pos))
        self.pos += len(data)
        self._decryptor_at = self.pos if self.pos % 16 == 0 else -1
        return data

    def close(self) -> None:
        pass


def _open_sealed(fh: BinaryIO, size: int, name: str, passphrase: str | None) -> _SealedFile:
    """Check the sealed archive's tag in one streaming pass, then return its plaintext as a
    file. Raises ArchivePassphraseError (no or wrong passphrase, or a changed file) and
    ArchiveError (a file cut short)."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    head = len(MAGIC) + 16 + 12
    if size < head + _TAG:
        raise ArchiveError(f"{name} is a sealed case archive cut short: it holds no case, "
                           "only the start of one")
    if not passphrase:
        raise ArchivePassphraseError("the archive is sealed with a passphrase; give it to open "
                                     "the archive")
    fh.seek(len(MAGIC))
    salt, nonce = fh.read(16), fh.read(12)
    fh.seek(size - _TAG)
    tag = fh.read(_TAG)
    key = _derive(passphrase, salt)
    check = Cipher(algorithms.AES(key), modes.GCM(nonce, tag)).decryptor()
    check.authenticate_additional_data(MAGIC)
    fh.seek(head)
    left = size - head - _TAG
    while left > 0:
        chunk = fh.read(min(_CHUNK, left))
        if not chunk:
            raise ArchiveError(f"{name} changed while it was read")
        check.update(chunk)  # the plaintext is dropped: this pass only checks the tag
        left -= len(chunk)
    try:
        check.finalize()
    except InvalidTag as exc:
        raise ArchivePassphraseError("wrong passphrase for this archive (or the file was "
                                     "changed since it was sealed)") from exc
    return _SealedFile(fh, key, nonce, head, size - head - _TAG)


def _valid_files(files: Any, names: list[str]) -> dict[str, dict[str, Any]]:
    """The manifest's ``files``, checked: each entry {"sha256": 64 hex, "size": int >= 0},
    one for every member but the manifest."""
    if not isinstance(files, dict) or set(files) != set(names) - {"manifest.json"}:
        raise ArchiveError("the archive's files do not match its manifest: damaged or changed")
    for name, entry in files.items():
        if (not isinstance(entry, dict) or not isinstance(entry.get("size"), int)
                or isinstance(entry.get("size"), bool) or entry["size"] < 0
                or not isinstance(entry.get("sha256"), str)
                or not re.fullmatch(r"[0-9a-f]{64}", entry["sha256"])):
            raise ArchiveError(f"the archive's manifest describes {name} wrongly: damaged or "
                               "changed")
        if entry["size"] > _limit(name):
            raise ArchiveError(f"the manifest declares {name} as {entry['size']:,} bytes, more "
                               "than a case archive holds; refused")
    return files


@dataclass
class OpenArchive:
    """A verified archive being read (see :func:`open_archive`): ``manifest`` (dict),
    ``tables`` (table name -> list of row dicts, all read and verified) and ``blobs`` (the
    SHA-256 hex of every blob it holds, sorted); :meth:`read_blob` reads one."""

    manifest: dict[str, Any]
    tables: dict[str, list[dict[str, Any]]]
    blobs: list[str]
    _reader: _Reader
    _infos: dict[str, zipfile.ZipInfo]

    def read_blob(self, sha: str) -> bytes:
        """The original bytes named ``sha`` (at most :data:`MAX_BLOB`), verified against the
        manifest and their name. Raises ArchiveError (damaged, or not in the archive)."""
        name = f"blobs/{sha}"
        info = self._infos.get(name)
        if info is None:
            raise ArchiveError(f"the archive holds no {name}")
        data = _read_member(self._reader, info, self.manifest["files"][name])
        if hashlib.sha256(data).hexdigest() != sha:
            raise ArchiveError(f"{name} is not named by its own SHA-256")
        return data


def _short(member: str) -> str:
    """A member's name for a message: a blob's 64-digit hash cut to 12."""
    return member[:18] + "…" if member.startswith("blobs/") else member


def _size(n: int) -> str:
    from casefile.ingest.limits import size_text

    return size_text(n)


def _check_declared(infos: list[zipfile.ZipInfo], archive: str) -> None:
    names = [i.filename for i in infos]
    bad = next((n for n in names if not _NAME.fullmatch(n)), None)
    if bad is not None:
        raise ArchiveError(f"the archive holds an unexpected path {bad!r}; refused")
    if len(set(names)) != len(names):
        raise ArchiveError("the archive holds the same name twice; refused")
    total = 0
    for info in infos:
        total += info.file_size
        limit = _limit(info.filename)
        if info.file_size > limit:
            what = ("the largest document Casefile imports" if limit == MAX_BLOB
                    else "a case archive holds there")
            raise ArchiveError(f"{archive} was not imported: {_short(info.filename)} inside it "
                               f"would expand to {_size(info.file_size)}, more than the "
                               f"{_size(limit)} of {what} (a zip bomb?)")
        if total > MAX_TOTAL:
            raise ArchiveError(f"{archive} was not imported: it would expand to more than "
                               f"{_size(MAX_TOTAL)} (a zip bomb?)")
        if info.file_size > (1 << 20) and info.file_size > MAX_RATIO * max(
                info.compress_size, 1):
            raise ArchiveError(f"{archive} was not imported: {_short(info.filename)} inside it "
                               f"would expand {info.file_size // max(info.compress_size, 1):,} "
                               f"times, to {_size(info.file_size)} (a zip bomb?)")


def _tables(reader: _Reader, infos: list[zipfile.ZipInfo],
            files: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    tables: dict[str, list[dict[str, Any]]] = {}
    for info in infos:
        if not info.filename.startswith("tables/"):
            continue
        raw = _read_member(reader, info, files[info.filename])
        try:
            rows = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise ArchiveError(f"{info.filename} is not readable JSON") from exc
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise ArchiveError(f"{info.filename} is not a list of rows")
        name = info.filename.removeprefix("tables/").removesuffix(".json")
        tables[name] = rows
    return tables


def _zip_of(fh: Any, name: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(fh)
    except (zipfile.BadZipFile, EOFError, OSError, ValueError, struct.error,
            NotImplementedError) as exc:
        fh.seek(0)
        if fh.read(4) == b"PK\x03\x04":
            raise ArchiveError(f"{name} is damaged or truncated: the end of the archive, "
                               "which lists its contents, is missing or broken") from exc
        raise ArchiveError(f"{name} is not a Casefile case archive") from exc


@contextlib.contextmanager
def open_archive(path: Path, *, passphrase: str | None = None) -> Iterator[OpenArchive]:
    """Open and verify the archive at ``path`` (module docstring): its manifest and tables are
    read and checked, its blobs are read one at a time with :meth:`OpenArchive.read_blob`
    while the ``with`` block lasts. Memory: the tables plus one blob, never the whole file.
    Raises ArchiveError (or ArchivePassphraseError) with one sentence for anything wrong."""
    name = path.name
    with contextlib.ExitStack() as stack:
        try:
            fh = stack.enter_context(path.open("rb"))
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_TOTAL:
                raise ArchiveError(f"{name} is {size:,} bytes; larger than any case archive "
                                   "Casefile writes")
            sealed = fh.read(len(MAGIC)) == MAGIC
            fh.seek(0)
            source: Any = _open_sealed(fh, size, name, passphrase) if sealed else fh
            zf = stack.enter_context(_zip_of(source, name))
            reader = _Reader(zf, name)
            infos = zf.infolist()
        except OSError as exc:
            raise ArchiveError(f"cannot read {path}: {exc.strerror or exc}") from exc
        if len(infos) > MAX_MEMBERS:
            raise ArchiveError(f"{name} holds {len(infos):,} files, more than a case archive "
                               "holds; refused")
        names = [i.filename for i in infos]
        if "manifest.json" not in names:
            raise ArchiveError(f"{name} has no manifest: not a Casefile case archive")
        _check_declared(infos, name)
        manifest_info = infos[names.index("manifest.json")]
        try:
            manifest = json.loads(reader.read(manifest_info, manifest_info.file_size)
                                  .decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise ArchiveError("the archive's manifest is not readable JSON") from exc
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise ArchiveError(f"{name} is not a Casefile case archive")
        if manifest.get("version") != VERSION:
            raise ArchiveError(f"the archive is format version {manifest.get('version')}; this "
                               f"Casefile reads version {VERSION}")
        manifest["files"] = _valid_files(manifest.get("files"), names)
        tables = _tables(reader, infos, manifest["files"])
        blobs = sorted(n.removeprefix("blobs/") for n in names if n.startswith("blobs/"))
        yield OpenArchive(manifest, tables, blobs, reader,
                          {i.filename: i for i in infos})


def read_archive(path: Path, *, passphrase: str | None = None) -> ArchiveContent:
    """Read and verify the whole archive at ``path``, blobs included (for checks and tests;
    an import reads blobs one at a time with :func:`open_archive`). Raises ArchiveError (or
    ArchivePassphraseError) with one sentence for anything wrong."""
    with open_archive(path, passphrase=passphrase) as opened:
        content = ArchiveContent(opened.manifest, opened.tables)
        for sha in opened.blobs:
            content.blobs[sha] = opened.read_blob(sha)
    return content
