"""The window's date question for several files: which files need it
(:func:`files_without_date`) and one answer per file going to the one import call
(``import_paths(published_by_file=...)``)."""

from __future__ import annotations

import os
import time
from datetime import date
from pathlib import Path

from casefile.services import batch, items
from casefile.services.undated import files_without_date
from tests.e2e.make_files import write_encrypted_pdf

BODY = "The county commission met on a Tuesday to discuss the harbor audit.\n"




def test_only_new_readable_files_without_a_date_need_one(workspace, case_id,
                                                         tmp_path: Path) -> None:
    folder = tmp_path / "tips"
    folder.mkdir()
    (folder / "a-plain.txt").write_text("A plain note. " + BODY, encoding="utf-8")
    (folder / "b-dated.txt").write_text("Published February 23, 2018\n\n" + BODY,
                                        encoding="utf-8")
    (folder / "c-empty.txt").write_bytes(b"")
    (folder / "d-binary.txt").write_bytes(bytes(range(256)) * 8)
    write_encrypted_pdf(folder / "e-sealed.pdf")
    (folder / "f-copy.txt").write_text("A plain note. " + BODY, encoding="utf-8")
    old = tmp_path / "old.txt"
    old.write_text("Already in the case. " + BODY, encoding="utf-8")
    (folder / "g-old-again.txt").write_bytes(old.read_bytes())
    (folder / "h-other.txt").write_text("Another plain note. " + BODY, encoding="utf-8")
    batch.import_paths(workspace.transaction, case_id, [old])
    with workspace.transaction() as s:
        undated = files_without_date(s, case_id, [folder])
    assert [p.name for p in undated] == ["a-plain.txt", "h-other.txt"]
    # the same paths as the import walks them (the keys of published_by_file)
    walked = list(batch.iter_import_files([folder]))
    assert all(p in walked for p in undated)


def test_each_file_gets_its_own_answer_in_one_call(workspace, case_id, tmp_path: Path) -> None:
    one, two, three = (tmp_path / f"{n}.txt" for n in ("one", "two", "three"))
    for n, p in enumerate((one, two, three)):
        p.write_text(f"Note {n}. " + BODY, encoding="utf-8")
    dated = tmp_path / "dated.txt"
    dated.write_text("Published February 23, 2018\n\n" + BODY, encoding="utf-8")
    done = batch.import_paths(
        workspace.transaction, case_id, [one, two, three, dated], guess_dates=True,
        published_by_file={one: date(2019, 1, 2), two: None, three: date(2019, 3, 4),
                           dated: date(2000, 1, 1)})  # a date of its own wins
    assert done.count("imported") == 4
    with workspace.transaction() as s:
        docs = {d.filename: d for d in items.list_items(s, case_id, "document")}
    assert docs["one.txt"].published == date(2019, 1, 2)
    assert docs["two.txt"].published is None
    assert "No published date (none given at import)" in docs["two.txt"].import_notes
    assert docs["three.txt"].published == date(2019, 3, 4)
    assert ("Published date given at import (the file carries none): 2019-03-04"
            in docs["three.txt"].import_notes)
    assert docs["dated.txt"].published == date(2018, 2, 23)


def test_checking_600_small_files_is_quick(workspace, case_id, tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(600):
        (folder / f"note-{n:03}.txt").write_text(f"Note {n} of the desk. " + BODY,
                                                 encoding="utf-8")
    started = time.perf_counter()
    with workspace.transaction() as s:
        undated = files_without_date(s, case_id, [folder])
    took = time.perf_counter() - started
    assert len(undated) == 600
    print(f"files_without_date on 600 small .txt files: {took:.3f} s "
          f"(cores: {os.cpu_count()})")


def test_a_page_whose_own_dates_disagree_is_asked_about(workspace, case_id,
                                                        tmp_path: Path) -> None:
    def page(meta_day: str, url_day: str) -> str:
        return (f"<html><head><title>Harbor audit</title>"
                f'<meta property="article:published_time" content="{meta_day}">'
                f'<link rel="canonical" href="https://news.example/{url_day}/harbor-audit">'
                f"</head><body><article><p>{BODY}</p><p>The audit is late, the clerk said."
                f"</p></article></body></html>")

    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "agree.html").write_text(page("2024-03-08", "2024/03/08"), encoding="utf-8")
    (folder / "disagree.html").write_text(page("2024-03-09", "2024/03/01"), encoding="utf-8")
    with workspace.transaction() as s:
        undated = files_without_date(s, case_id, [folder])
    assert [p.name for p in undated] == ["disagree.html"]


def test_the_date_question_for_a_page_is_prefilled_with_the_pages_own_date(
        tmp_path: Path) -> None:
    from casefile.services.undated import suggested_date

    page = tmp_path / "disagree.html"
    page.write_text('<html><head><meta property="article:published_time" content="2024-03-09">'
                    '<link rel="canonical" href="https://news.example/2024/03/01/audit">'
                    f"</head><body><p>{BODY}</p></body></html>", encoding="utf-8")
    day, source = suggested_date(page)
    assert (day, source) == (date(2024, 3, 9), "the page's metadata (article:published_time)")
    note = tmp_path / "note.txt"
    note.write_text(BODY, encoding="utf-8")
    os.utime(note, (time.time(), time.mktime((2023, 5, 6, 12, 0, 0, 0, 0, -1))))
    assert suggested_date(note) == (date(2023, 5, 6), "the file's modification date")
