"""Case archives: a lossless round trip between workspaces, sealed archives, and
hostile files refused in one line with nothing stored."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from casefile.export.archive_file import (
    ArchiveError,
    ArchivePassphraseError,
    is_sealed,
    read_archive,
)
from casefile.services import archive, items
from casefile.services.archive import ArchiveImport
from casefile.services.demo import build_demo
from casefile.services.search import search_workspace
from casefile.store import Blob, Case, Item
from casefile.store.base import Base


def test_every_table_has_a_rule():
    from casefile.store.trash import TRASH_TABLES

    # blobs are shared by cases; the Trash holds deleted cases and items, not a live case
    covered = set(archive.CASE_TABLES) | {"blobs", *TRASH_TABLES}
    assert set(Base.metadata.tables) == covered


def _round_trip(workspace, case_id: int, other, tmp_path: Path) -> tuple[ArchiveImport,
                                                                        Path, Path]:
    """Export ``case_id`` of ``workspace`` to an archive, import it into ``other`` and export
    the imported case again; (the import's result, first archive, second archive)."""
    first, second = tmp_path / "first.casefile", tmp_path / "second.casefile"
    with workspace.transaction() as s:
        archive.export_archive(s, case_id, first)
    with other.transaction() as s:
        done = archive.import_archive(s, first)
    with other.transaction() as s:
        archive.export_archive(s, done.case_id, second)
    return done, first, second


def test_round_trip_into_a_fresh_workspace_keeps_every_row_and_byte(
        workspace, demo, other_workspace, tmp_path: Path):
    done, first, second = _round_trip(workspace, demo, other_workspace, tmp_path)
    with other_workspace.transaction() as s:
        assert done.rows["items"] == s.scalar(select(func.count()).select_from(Item)) > 10
        assert s.scalars(select(Case.title)).all() == [done.title]
    a, b = read_archive(first), read_archive(second)
    assert sorted(a.tables) == sorted(archive.CASE_TABLES)
    assert archive.normalized_rows(a) == archive.normalized_rows(b)
    assert a.blobs == b.blobs and a.blobs  # the original bytes, byte for byte
    assert sum(len(rows) for rows in a.tables.values()) > 50


def test_round_trip_of_an_imported_article_with_its_suggestions(
        workspace, parkland, other_workspace, tmp_path: Path):
    case_id, _doc = parkland
    _done, first, second = _round_trip(workspace, case_id, other_workspace, tmp_path)
    a, b = read_archive(first), read_archive(second)
    assert len(a.tables["mentions"]) > 20  # the waiting suggestions travel too
    assert archive.normalized_rows(a) == archive.normalized_rows(b)
    assert a.blobs == b.blobs


def test_import_into_the_same_workspace_shares_bytes_and_renames(workspace, demo,
                                                                 tmp_path: Path):
    out = tmp_path / "case.casefile"
    with workspace.transaction() as s:
        archive.export_archive(s, demo, out)
        blobs_before = s.scalar(select(func.count()).select_from(Blob))
    with workspace.transaction() as s:
        done = archive.import_archive(s, out)
    assert done.title.endswith("(imported)") and done.shared_blobs == blobs_before
    with workspace.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Blob)) == blobs_before
        found = search_workspace(s, "flood", case_id=done.case_id)
        assert len(found.hits) > 0, "the imported case is searchable"


def test_sealed_archive_needs_its_passphrase(workspace, demo, tmp_path: Path):
    out = tmp_path / "sealed.casefile"
    with workspace.transaction() as s:
        archive.export_archive(s, demo, out, passphrase="correct horse")
        some_quote = s.scalars(select(Item.title)).first()
    assert is_sealed(out)
    assert some_quote.encode() not in out.read_bytes()
    with pytest.raises(ArchivePassphraseError, match="sealed"):
        read_archive(out)
    with pytest.raises(ArchivePassphraseError, match="wrong passphrase"):
        read_archive(out, passphrase="wrong")
    assert read_archive(out, passphrase="correct horse").tables["cases"]


def test_confidential_items_need_a_deliberate_choice(workspace, demo, tmp_path: Path):
    with workspace.transaction() as s:
        items.create_item(s, demo, "person", "Quiet Source", confidential=True)
    out = tmp_path / "c.casefile"
    with workspace.transaction() as s, pytest.raises(Exception, match="Quiet Source"):
        archive.export_archive(s, demo, out)
    assert not out.exists()
    with workspace.transaction() as s:
        archive.export_archive(s, demo, out, include_confidential=True)
    assert out.exists()


def _zip(path: Path, members: dict[str, bytes], manifest: dict | None = None) -> Path:
    files = {n: {"sha256": hashlib.sha256(d).hexdigest(), "size": len(d)}
             for n, d in members.items()}
    man = manifest or {"format": "casefile-case-archive", "version": 1, "files": files}
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        zf.writestr("manifest.json", json.dumps(man))
    return path


@pytest.mark.parametrize("case", ["traversal", "declared_10gb", "wrong_hash", "bomb",
                                  "not_zip"])
def test_hostile_archives_are_refused_and_change_nothing(sqlite_workspace, demo_in_sqlite,
                                                         tmp_path: Path, case: str):
    path = tmp_path / f"{case}.casefile"
    table = json.dumps([]).encode()
    if case == "traversal":
        _zip(path, {"../../evil.json": b"{}"})
    elif case == "declared_10gb":
        data = b"x" * 10
        _zip(path, {"blobs/" + hashlib.sha256(data).hexdigest(): data}, {
            "format": "casefile-case-archive", "version": 1,
            "files": {"blobs/" + hashlib.sha256(data).hexdigest():
                      {"sha256": hashlib.sha256(data).hexdigest(), "size": 10 * 2**30}}})
    elif case == "wrong_hash":
        _zip(path, {"tables/cases.json": table}, {
            "format": "casefile-case-archive", "version": 1,
            "files": {"tables/cases.json": {"sha256": "0" * 64, "size": len(table)}}})
    elif case == "bomb":
        _zip(path, {"tables/cases.json": b" " * (20 << 20)})
    else:
        path.write_bytes(b"%PDF-1.4 this is not an archive")
    with sqlite_workspace.transaction() as s:
        before = s.scalar(select(func.count()).select_from(Item))
    with pytest.raises(ArchiveError) as caught, sqlite_workspace.transaction() as s:
        archive.import_archive(s, path)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 200
    with sqlite_workspace.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Item)) == before
        assert s.scalar(select(func.count()).select_from(Case)) == 1


@pytest.fixture
def demo_in_sqlite(sqlite_workspace) -> int:
    with sqlite_workspace.transaction() as s:
        return build_demo(s)[0]
