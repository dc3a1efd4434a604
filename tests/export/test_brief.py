"""The PDF brief (casefile.export.brief): content, order, exact text, robustness, validity."""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import (
    assert_in_order,
    flat,
    gray_pixels,
    make_sample_brief,
    pdftotext_body,
    pdftotext_text,
    pypdf_pages,
    pypdf_text,
    run_tool,
    word_boxes,
)
from pypdf import PdfReader

from casefile.errors import CasefileError
from casefile.export.brief import (
    CHUNK_CHARS,
    CONFIDENTIAL_LINE,
    _chunks,
    format_event_date,
    render_brief,
    sort_questions,
)
from casefile.export.brief_data import (
    BriefData,
    EntityEntry,
    EventEntry,
    QuestionEntry,
    QuoteEntry,
    SourceEntry,
)
from casefile.export.errors import ExportError

LETTER_W, LETTER_H = 612.0, 792.0
MARGIN = 72.0

Render = Callable[[BriefData], Path]


@pytest.fixture
def render(tmp_path: Path) -> Render:
    """Render a BriefData to a fresh PDF file in tmp_path and return its path."""
    counter = iter(range(1000))

    def _render(data: BriefData) -> Path:
        out = tmp_path / f"brief-{next(counter)}.pdf"
        render_brief(data, out)
        return out

    return _render


@pytest.fixture
def sample_pdf(render: Render) -> Path:
    return render(make_sample_brief())


def assert_qpdf_ok(pdf: Path) -> None:
    done = run_tool("qpdf", "--check", pdf)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No syntax or stream encoding errors" in done.stdout


# ---------------------------------------------------------------- validity and fonts


def test_sample_passes_qpdf_check(sample_pdf: Path) -> None:
    assert_qpdf_ok(sample_pdf)


def test_every_font_is_embedded_dejavu(sample_pdf: Path) -> None:
    done = run_tool("pdffonts", sample_pdf)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()[2:]
    assert rows, done.stdout
    names = set()
    for row in rows:
        cols = row.split()
        name, emb = cols[0], cols[-5]
        names.add(name.split("+")[-1])
        assert emb == "yes", f"font not embedded: {row}"
    # the family is registered, so <b> and <i> pick the real bold and oblique faces
    assert {"DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique"} <= names
    assert not names & {"Helvetica", "Times-Roman", "Courier"}


def test_pages_are_us_letter(sample_pdf: Path) -> None:
    reader = PdfReader(str(sample_pdf))
    assert len(reader.pages) >= 3
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (LETTER_W, LETTER_H)


# ---------------------------------------------------------------- text exactly as typed

EXACT = ["Łódź Wałęsa", 'He wrote "<REDACTED>" & left', "S&P 500", "“", "”", "’"]


@pytest.mark.parametrize("extract", [pypdf_text, pdftotext_text], ids=["pypdf", "pdftotext"])
def test_user_text_comes_out_exactly(sample_pdf: Path, extract: Callable[[Path], str]) -> None:
    text = flat(extract(sample_pdf))
    for needle in EXACT:
        assert needle in text, needle
    assert "&amp;" not in text and "&lt;" not in text and "&quot;" not in text
    # the quote is in curly quotes and cites its source number
    assert '“He wrote "<REDACTED>" & left” [2]' in text


def test_markup_in_user_text_is_printed_not_obeyed(render: Render) -> None:
    data = BriefData(
        case_title="<b>Bold?</b> & <i>",
        generated="2024-01-02",
        summary="<para>not a tag</para> &amp; <font color='red'>x</font> <br/> <unclosed",
        people=[EntityEntry(name="A <b>B</b> &nbsp; C", kind="person", role="<i>")],
    )
    pdf = render(data)
    assert_qpdf_ok(pdf)
    text = flat(pdftotext_text(pdf))
    for needle in [
        "<b>Bold?</b> & <i>",
        "<para>not a tag</para> &amp; <font color='red'>x</font> <br/> <unclosed",
        "A <b>B</b> &nbsp; C",
        "Role: <i>",
    ]:
        assert needle in text, needle


def test_quotes_cite_source_number_and_page(sample_pdf: Path) -> None:
    text = flat(pdftotext_text(sample_pdf))
    assert "“The chair called for a vote on the revised recommendation.” [1], p. 4" in text
    assert "contradicts: “Pruitt said he had “nothing to disclose” about the contract.” [3]" in text
    assert "Note: Compare with the 2021 disclosure form." in text


# ---------------------------------------------------------------- content and order


def test_title_page(sample_pdf: Path) -> None:
    first = flat(pypdf_pages(sample_pdf)[0])
    assert "CASE BRIEF" in first
    assert "Marlow County water contract: who steered the Brightline bid?" in first
    assert "Generated 2023-07-01" in first
    assert CONFIDENTIAL_LINE in first
    assert "left out" in first and "INCLUDED" not in first


def test_title_page_says_when_confidential_material_is_included(render: Render) -> None:
    data = make_sample_brief()
    data.includes_confidential = True
    data.people[0].confidential = True
    pdf = render(data)
    pages = pypdf_pages(pdf)
    assert "Confidential items and sources are INCLUDED" in flat(pages[0])
    assert "Gerald Pruitt [CONFIDENTIAL]" in flat(pdftotext_text(pdf))


def test_sections_in_order(sample_pdf: Path) -> None:
    body = flat(" ".join(pypdf_pages(sample_pdf)[1:]))  # after the title page's contents list
    headings = [
        "Open questions and follow-ups",
        "People",
        "Organizations",
        "Places",
        "Timeline",
        "Claims",
        "Sources",
    ]
    assert_in_order(body, [h + " " for h in headings])
    # people come before organizations, each with role, affiliation and aliases
    assert body.find("Gerald Pruitt Role: Board chair · Affiliation: Marlow County Water Board")
    assert "Also known as: MCWB; the water board" in body
    assert body.find("Dana Whitcombe") < body.find("Marlow County Water Board Type:")


def test_questions_overdue_first_then_by_due_date_undated_last(sample_pdf: Path) -> None:
    body = flat(" ".join(pypdf_pages(sample_pdf)[1:]))
    order = [
        "OVERDUE · due 2023-06-15 · records request · waiting",
        "OVERDUE · due 2023-06-28 · call back · open",
        "due 2023-07-10 · right of reply · open",
        "no due date · question · open",
    ]
    assert_in_order(body, order)
    assert body.count("OVERDUE") == 2


def test_sort_questions_rule() -> None:
    qs = [
        QuestionEntry("undated", "question", "open"),
        QuestionEntry("later", "question", "open", due="2024-05-01"),
        QuestionEntry("overdue late", "question", "open", due="2024-02-01", overdue=True),
        QuestionEntry("sooner", "question", "open", due="2024-04-01"),
        QuestionEntry("overdue early", "question", "open", due="2024-01-01", overdue=True),
        QuestionEntry("undated 2", "question", "open", due=""),
        QuestionEntry("answered, not overdue", "question", "answered", due="2023-12-01"),
    ]
    assert [q.text for q in sort_questions(qs)] == [
        "overdue early",
        "overdue late",
        "answered, not overdue",
        "sooner",
        "later",
        "undated",
        "undated 2",
    ]


@pytest.mark.parametrize(
    ("date", "precision", "end", "shown"),
    [
        ("2018-02-14", "day", None, "2018-02-14"),
        ("2018-02-14", "exact", None, "2018-02-14"),
        ("2018-02-14", "month", None, "2018-02"),
        ("2018-02", "month", None, "2018-02"),
        ("2018-02", "approximate", None, "~ 2018-02"),
        ("2018-02-14", "year", None, "2018"),
        ("2018-02-14", "day", "2018-02-16", "2018-02-14 – 2018-02-16"),
        (None, "day", None, "undated"),
    ],
)
def test_event_date_precision(
    date: str | None, precision: str, end: str | None, shown: str
) -> None:
    assert format_event_date(date, precision, end) == shown


def test_timeline_in_date_order_with_precision(sample_pdf: Path) -> None:
    body = flat(pdftotext_text(sample_pdf))
    order = [
        "2019-08 Brightline registers with the state",
        "~ 2022-02 Chair’s brother-in-law buys into Brightline",
        "2023-03-13 Scoring sheet revised",
        "2023-03-14 Board votes 4–1",
    ]
    assert_in_order(body, order)


def test_claims_with_status_and_attribution(sample_pdf: Path) -> None:
    body = flat(pdftotext_text(sample_pdf))
    assert "SINGLE-SOURCE The scoring sheet was changed at the chair’s request." in body
    assert (
        "Attributed to: former procurement clerk · via: Interview notes: former procurement clerk"
        in body
    )
    assert "CORROBORATED Brightline’s bid was the second highest of three." in body


def test_sources_list_number_title_date_outlet_and_full_hash(sample_pdf: Path) -> None:
    data = make_sample_brief()
    # the page bodies: a page's running header must not land inside an entry it starts
    text = flat(pdftotext_body(sample_pdf))
    sources_part = text[text.rfind("Sources") :]
    for src in data.sources:
        assert f"[{src.number}] {src.title}" in sources_part
        assert f"SHA-256: {src.sha256}" in sources_part
        assert src.published is not None and src.published in sources_part
    assert "Outlet: The Harbor Ledger" in sources_part


def test_header_and_page_numbers(sample_pdf: Path) -> None:
    pages = [flat(p) for p in pypdf_pages(sample_pdf)]
    total = len(pages)
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of {total}" in page
        if number > 1:
            assert "Marlow County water contract: who steered the Brightline bid?" in page


def test_empty_sections_are_said_to_be_empty(render: Render) -> None:
    pdf = render(BriefData(case_title="Nothing yet", generated="2024-01-02"))
    assert_qpdf_ok(pdf)
    text = flat(pdftotext_text(pdf))
    for message in [
        "No summary written yet.",
        "No open questions.",
        "No people recorded.",
        "No organizations recorded.",
        "No places recorded.",
        "No events on the timeline.",
        "No claims recorded.",
        "No source documents.",
    ]:
        assert message in text


# ---------------------------------------------------------------- robustness


def _words(n: int) -> str:
    vocab = ["council", "minutes", "contract", "Brightline", "voted", "the", "of", "Łódź", "&"]
    return " ".join(vocab[(i * 7) % len(vocab)] + str(i % 13) for i in range(n))


def test_quote_of_20000_characters(render: Render) -> None:
    quote = _words(4000)[:20000]
    assert len(quote) == 20000
    data = make_sample_brief()
    data.people[0].quotes = [QuoteEntry(text=quote, source_number=1, page=7)]
    pdf = render(data)
    assert_qpdf_ok(pdf)
    assert len(pypdf_pages(pdf)) > len(pypdf_pages(render(make_sample_brief())))
    text = flat(pdftotext_body(pdf))
    assert "Page 3 of" not in text  # the footer is cropped off
    assert "“" + flat(quote) + "” [1], p. 7" in text


@pytest.mark.parametrize(
    "text",
    ["", "short", _words(4000), "x" * 5000, ("word " * 900) + "y" * 3000, "a\nb " * 2000],
    ids=["empty", "short", "words", "one-word", "mixed", "lines"],
)
def test_long_text_is_cut_into_page_sized_chunks(text: str) -> None:
    pieces = _chunks(text)
    assert all(len(p) <= CHUNK_CHARS for p in pieces)
    assert "".join(pieces).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace(
        "\n", ""
    )
    if " " in text and len(text) > CHUNK_CHARS:
        assert len(pieces) > 1 and all(not p.startswith(" ") for p in pieces)


def test_word_of_5000_characters_without_spaces(render: Render) -> None:
    word = ("Wałęsa" * 1000)[:5000]
    data = make_sample_brief()
    data.people[1].quotes = [QuoteEntry(text=word, source_number=2)]
    data.organizations[0].name = "X" * 3000
    data.sources[0].title = "T" * 4000
    pdf = render(data)
    assert_qpdf_ok(pdf)
    squeezed = "".join(pdftotext_body(pdf).split())
    assert word in squeezed
    assert "X" * 3000 in squeezed and "T" * 4000 in squeezed
    assert_within_margins(pdf)


def test_long_title_and_many_lines(render: Render) -> None:
    data = make_sample_brief()
    data.case_title = "A very long case title about the county " * 40
    data.summary = "\n".join(f"line {i}" for i in range(3000))
    data.questions[0].text = "\n\n".join(f"paragraph {i}" for i in range(500))
    pdf = render(data)
    assert_qpdf_ok(pdf)
    pages = pypdf_pages(pdf)
    assert "…" in pages[1]  # header title shortened to fit the line
    text = flat(pdftotext_text(pdf))
    assert "line 2999" in text and "paragraph 499" in text
    assert_within_margins(pdf)


def test_odd_characters_do_not_break_the_pdf(render: Render) -> None:
    data = make_sample_brief()
    data.summary = "bell\x07 nul\x00 tab\tcr\r\nlone \ud800 surrogate, emoji 📰, CJK 記者, RTL שלום"
    data.people[0].name = "Zoë\x0bO’Brien"
    pdf = render(data)
    assert_qpdf_ok(pdf)
    text = flat(pdftotext_text(pdf))
    assert "bell nul tab cr" in text
    assert "ZoëO’Brien" in text


def test_quote_citations_never_collide_with_markup_numbers(render: Render) -> None:
    data = make_sample_brief()
    data.sources.append(SourceEntry(number=12, title="S&P 500 filing <10-K>", sha256="ab" * 32))
    data.events.append(
        EventEntry(
            title="Filing <10-K> lodged",
            date=None,
            quotes=[QuoteEntry(text="x < y & y > z", source_number=12, page=3)],
        )
    )
    pdf = render(data)
    text = flat(pdftotext_text(pdf))
    assert "[12] S&P 500 filing <10-K>" in text
    assert "undated Filing <10-K> lodged" in text
    assert "“x < y & y > z” [12], p. 3" in text


# ---------------------------------------------------------------- layout


def assert_within_margins(pdf: Path) -> None:
    for w in word_boxes(pdf):
        assert w.x_min >= MARGIN - 1 and w.x_max <= LETTER_W - MARGIN + 1, w
        assert w.y_min >= 0 and w.y_max <= LETTER_H, w


def test_sample_text_stays_inside_margins_and_never_overlaps(sample_pdf: Path) -> None:
    words = word_boxes(sample_pdf)
    assert words
    assert_within_margins(sample_pdf)
    by_page: dict[int, list] = {}
    for w in words:
        by_page.setdefault(w.page, []).append(w)
    for page_words in by_page.values():
        for i, a in enumerate(page_words):
            for b in page_words[i + 1 :]:
                overlap_x = min(a.x_max, b.x_max) - max(a.x_min, b.x_min)
                overlap_y = min(a.y_max, b.y_max) - max(a.y_min, b.y_min)
                assert overlap_x <= 0.5 or overlap_y <= 0.5, (a, b)


def test_page_one_renders_with_ink(sample_pdf: Path) -> None:
    width, height, pixels = gray_pixels(sample_pdf, 1)
    assert (width, height) == (340, 440)  # Letter at 40 dpi
    dark = sum(1 for p in pixels if p < 128)
    assert 0.005 < dark / len(pixels) < 0.2


# ---------------------------------------------------------------- output and progress


def test_writes_to_a_binary_file_object() -> None:
    buffer = io.BytesIO()
    render_brief(make_sample_brief(), buffer)
    assert buffer.getvalue().startswith(b"%PDF-")
    assert not buffer.closed


def test_path_output_replaces_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "brief.pdf"
    out.write_bytes(b"old")
    render_brief(make_sample_brief(), out)
    assert out.read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["brief.pdf"]


def test_missing_folder_is_a_user_error(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "brief.pdf"
    with pytest.raises(ExportError) as info:
        render_brief(make_sample_brief(), out)
    assert isinstance(info.value, CasefileError)
    assert "does not exist" in str(info.value)


def test_progress_is_monotonic_and_finishes() -> None:
    calls: list[tuple[int, int]] = []
    data = make_sample_brief()
    data.people[0].quotes.append(QuoteEntry(text=_words(3000), source_number=1))
    render_brief(data, io.BytesIO(), progress=lambda done, total: calls.append((done, total)))
    assert calls[0][0] == 0 and len(calls) > 3
    total = calls[0][1]
    assert all(t == total for _, t in calls)
    dones = [d for d, _ in calls]
    assert dones == sorted(dones) and len(set(dones)) == len(dones)
    assert calls[-1] == (total, total)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_written_brief_is_private_to_its_owner(tmp_path: Path) -> None:
    out = tmp_path / "brief.pdf"
    render_brief(make_sample_brief(), out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_a_passage_that_is_a_whole_quotation_is_not_quoted_twice(render: Render) -> None:
    data = BriefData(
        case_title="Quotes",
        generated="2024-01-02",
        people=[EntityEntry(name="Ada Ruiz", kind="person", quotes=[
            QuoteEntry(text="\u201cWe were never told.\u201d", source_number=1),
            QuoteEntry(text="nobody answered", source_number=1),
        ])],
    )
    text = flat(pdftotext_text(render(data)))
    assert "\u201cWe were never told.\u201d [1]" in text
    assert "\u201c\u201c" not in text and "\u201d\u201d" not in text
    assert "\u201cnobody answered\u201d [1]" in text
