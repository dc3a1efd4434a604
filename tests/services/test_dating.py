"""The published date of a file imported without one: metadata, then the text, then the file."""

from __future__ import annotations

import os
from datetime import date, datetime
from pathlib import Path

import pytest

from casefile.ingest import ingest_file
from casefile.services import batch, items
from casefile.services.dating import DateGuess, guess_published
from tests.conftest import ARTICLE, SAMPLES

BODY = ARTICLE.read_text(encoding="utf-8")


def _mtime_day(path: Path) -> date:
    return datetime.fromtimestamp(path.stat().st_mtime).date()


def _write(tmp_path: Path, name: str, text: str, mtime: date = date(2020, 5, 4)) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    stamp = datetime(mtime.year, mtime.month, mtime.day, 12).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def test_the_sample_article_has_no_date_near_the_top_so_the_file_date_is_used() -> None:
    guess = guess_published(ARTICLE, BODY)
    assert guess == DateGuess(_mtime_day(ARTICLE), "file",
                              "Published date taken from the file's modification date: "
                              f"{_mtime_day(ARTICLE).isoformat()}")


def test_a_date_inside_a_sentence_dates_an_event_not_the_article() -> None:
    path = SAMPLES / "articles" / "b6906ca0.txt"  # "... a rally in Monroe, La., on Nov. 6, 2019."
    text = path.read_text(encoding="utf-8")
    assert "Nov. 6, 2019" in text[:400]
    assert guess_published(path, text).source == "file"


@pytest.mark.parametrize("top", [
    "The audit is due on March 3, 2018.",
    "Hearing set for 2018-03-03",
], ids=["due on", "set for"])
def test_a_short_sentence_about_a_day_is_no_publication_date(tmp_path: Path, top: str) -> None:
    path = _write(tmp_path, "memo.txt", top + "\n\n" + BODY)
    assert guess_published(path, path.read_text(encoding="utf-8")).source == "file"


def test_a_quoted_posts_signature_dates_the_post_not_the_article() -> None:
    path = SAMPLES / "articles-2" / "16c30add.txt"  # an embedded post signed "November 1, 2019"
    text = path.read_text(encoding="utf-8")
    assert "(@ArvindKejriwal) November 1, 2019" in text[:2000]
    assert guess_published(path, text).source == "file"


@pytest.mark.parametrize("top", [
    "Published February 23, 2018",
    "Updated: Feb. 23, 2018 at 4:05 p.m.",
    "By Jane Doe | February 23, 2018",
    "Friday, 23 February 2018",
    "PARKLAND, Fla., Feb. 23, 2018 \u2014 " + BODY.split("\n", 1)[0],
    "2018-02-23",
], ids=["published", "updated", "byline", "date line", "dateline", "iso"])
def test_a_publication_date_written_near_the_top_is_taken(tmp_path: Path, top: str) -> None:
    path = _write(tmp_path, "article.txt", top + "\n\n" + BODY)
    guess = guess_published(path, path.read_text(encoding="utf-8"))
    assert (guess.date, guess.source) == (date(2018, 2, 23), "text")
    assert guess.note == "Published date taken from the text: 2018-02-23"


def test_a_date_without_a_year_or_far_down_is_not_a_publication_date(tmp_path: Path) -> None:
    no_year = _write(tmp_path, "a.txt", "Published February 23\n\n" + BODY)
    assert guess_published(no_year, no_year.read_text(encoding="utf-8")).date == date(2020, 5, 4)
    far = _write(tmp_path, "b.txt", BODY + "\n\nPublished February 23, 2018\n")
    assert guess_published(far, far.read_text(encoding="utf-8")).source == "file"


def test_the_metadata_date_wins(tmp_path: Path) -> None:
    mail = _write(tmp_path, "tip.eml",
                  "From: Ana Ortiz <ana@example.org>\nTo: desk@example.org\n"
                  "Subject: Harbor audit\nDate: Tue, 27 Feb 2018 09:30:00 -0500\n\n"
                  "Published January 2, 2017\n\nThe audit is late.\n")
    _data, ingested = ingest_file(mail)
    assert ingested.published == "2018-02-27"
    guess = guess_published(mail, ingested.text, date.fromisoformat(ingested.published))
    assert (guess.date, guess.source) == (date(2018, 2, 27), "metadata")
    assert guess.note == "Published date taken from the file's metadata: 2018-02-27"


def test_import_without_a_date_stores_the_guess_and_says_which(workspace, case_id,
                                                              tmp_path: Path) -> None:
    dated = _write(tmp_path, "dated.txt", "Published February 23, 2018\n\n" + BODY)
    done = batch.import_paths(workspace.transaction, case_id, [ARTICLE, dated], guess_dates=True)
    assert done.count("imported") == 2
    with workspace.transaction() as s:
        docs = {d.filename: d for d in items.list_items(s, case_id, "document")}
    plain, written = docs[ARTICLE.name], docs["dated.txt"]
    assert plain.published == _mtime_day(ARTICLE)
    assert ("Published date taken from the file's modification date: "
            f"{_mtime_day(ARTICLE).isoformat()}") in plain.import_notes
    assert written.published == date(2018, 2, 23)
    assert "Published date taken from the text: 2018-02-23" in written.import_notes


def test_a_given_date_is_used_as_it_is_with_no_note(workspace, case_id) -> None:
    batch.import_paths(workspace.transaction, case_id, [ARTICLE], published="2018-02-23",
                       guess_dates=True)
    with workspace.transaction() as s:
        (doc,) = items.list_items(s, case_id, "document")
    assert doc.published == date(2018, 2, 23)
    assert not any(n.startswith("Published date") for n in doc.import_notes or [])
