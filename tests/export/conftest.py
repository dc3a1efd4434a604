"""Shared helpers for the PDF export tests: text extraction and the poppler / qpdf tools.

The command line tools (pdftotext, pdffonts, pdftoppm, qpdf) are test tools only; a test that
needs one is skipped when it is not installed (``apt-get install poppler-utils qpdf``).
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from casefile.export.brief_data import (
    BriefData,
    ClaimEntry,
    EntityEntry,
    EventEntry,
    QuestionEntry,
    QuoteEntry,
    SourceEntry,
)


def require_tool(name: str) -> str:
    """Path of a command line tool, or skip the calling test when it is missing."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (apt-get install poppler-utils qpdf)")
    return path


def run_tool(name: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run a test tool with a timeout and return the finished process (output as text)."""
    exe = require_tool(name)
    return subprocess.run(
        [exe, *map(str, args)], capture_output=True, text=True, timeout=120, check=False
    )


def pypdf_text(pdf: Path) -> str:
    """Text of every page, extracted with pypdf, pages joined by newlines."""
    reader = PdfReader(str(pdf))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def pdftotext_text(pdf: Path) -> str:
    """Text extracted with poppler's pdftotext (UTF-8); skips when pdftotext is missing."""
    done = run_tool("pdftotext", "-enc", "UTF-8", pdf, "-")
    assert done.returncode == 0, done.stderr
    return done.stdout


def pdftotext_body(pdf: Path) -> str:
    """Text of the page bodies only (pdftotext cropped), without the header and footer lines,
    so text that runs across a page break reads as one piece."""
    done = run_tool(
        "pdftotext", "-enc", "UTF-8", "-x", "0", "-y", "60", "-W", "612", "-H", "680", pdf, "-"
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def flat(text: str) -> str:
    """Collapse every run of whitespace (line ends included) to one space."""
    return re.sub(r"\s+", " ", text).strip()


def assert_in_order(body: str, texts: list[str]) -> None:
    """Each of ``texts`` is in ``body``, their first occurrences in the order given."""
    positions = [body.find(t) for t in texts]
    assert -1 not in positions, dict(zip(texts, positions, strict=True))
    assert positions == sorted(positions), dict(zip(texts, positions, strict=True))


def pypdf_pages(pdf: Path) -> list[str]:
    """Text of each page, extracted with pypdf."""
    return [page.extract_text() or "" for page in PdfReader(str(pdf)).pages]


@dataclass(frozen=True)
class Word:
    """One word as pdftotext -bbox places it: page (1-based) and box in points, y downwards."""

    page: int
    text: str
    x_min: float
    y_min: float
    x_max: float
    y_max: float


def word_boxes(pdf: Path) -> list[Word]:
    """Every word with its bounding box (pdftotext -bbox); skips when pdftotext is missing."""
    done = run_tool("pdftotext", "-bbox", "-enc", "UTF-8", pdf, "-")
    assert done.returncode == 0, done.stderr
    words: list[Word] = []
    page = 0
    for line in done.stdout.splitlines():
        if "<page " in line:
            page += 1
            continue
        match = _WORD.search(line)
        if match:
            x0, y0, x1, y1, text = match.groups()
            words.append(
                Word(page, html.unescape(text), float(x0), float(y0), float(x1), float(y1))
            )
    return words


_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)</word>'
)


def gray_pixels(pdf: Path, page: int, dpi: int = 40) -> tuple[int, int, bytes]:
    """Render one page with pdftoppm as 8-bit grey; return (width, height, pixel bytes)."""
    done = subprocess.run(
        [
            require_tool("pdftoppm"),
            "-r",
            str(dpi),
            "-gray",
            "-f",
            str(page),
            "-l",
            str(page),
            str(pdf),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = done.stdout
    # binary PGM: "P5" width height maxval, each separated by whitespace, then the pixels
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P5", fields[:4]
    width, height = int(fields[1]), int(fields[2])
    pixels = data[-width * height :]
    return width, height, pixels


def page_count(pdf: Path) -> int:
    """Number of pages according to pypdf."""
    return len(PdfReader(str(pdf)).pages)


def make_sample_brief() -> BriefData:
    """A realistic brief of an invented story (a county water contract), with every section."""
    src1 = SourceEntry(
        number=1,
        title="Board minutes, regular meeting of the Marlow County Water Board",
        sha256="3f5a0c9e1b7d2468ace0f13579bdf02468ace13579bdf02468ace13579bdf024",
        published="2023-03-14",
        outlet="Marlow County Water Board",
        kind="report",
        url="https://example.org/minutes/2023-03-14.pdf",
        status="obtained",
    )
    src2 = SourceEntry(
        number=2,
        title="Interview notes: former procurement clerk",
        sha256="9b2e4d6f8a0c1e3f5a7b9d1f3e5c7a9b0d2f4e6a8c0e2b4d6f8a1c3e5b7d9f01",
        published="2023-05-02",
        kind="note",
        author="R. Okafor",
        status="obtained",
    )
    src3 = SourceEntry(
        number=3,
        title="“Pipes, promises and a $4.1 million contract”",
        sha256="c0ffee00deadbeef0123456789abcdef0123456789abcdef0123456789abcdef",
        published="2023-06-20",
        outlet="The Harbor Ledger",
        author="Dana Whitcombe",
        kind="article",
        status="obtained",
    )
    return BriefData(
        case_title="Marlow County water contract: who steered the Brightline bid?",
        generated="2023-07-01",
        summary=(
            "The county water board awarded a $4.1 million pipe-replacement contract to "
            "Brightline Utilities in March 2023, although Brightline’s bid was the second "
            "highest of three. Minutes show the scoring sheet was changed the day before the "
            "vote.\n\nOpen threads: who asked for the rescoring, whether the board chair "
            "disclosed his brother-in-law’s stake in Brightline, and why the losing bidders "
            "were never told."
        ),
        questions=[
            QuestionEntry(
                text="Request the original and the revised scoring sheets.",
                kind="records request",
                status="waiting",
                due="2023-06-15",
                overdue=True,
                ask="Marlow County Clerk",
            ),
            QuestionEntry(
                text="Right of reply from the board chair before publication.",
                kind="right of reply",
                status="open",
                due="2023-07-10",
                ask="Gerald Pruitt",
            ),
            QuestionEntry(
                text="Did the other bidders file a protest?",
                kind="question",
                status="open",
            ),
            QuestionEntry(
                text="Call back the former clerk about the e-mail from the chair’s office.",
                kind="call back",
                status="open",
                due="2023-06-28",
                overdue=True,
                ask="former procurement clerk",
                quotes=[
                    QuoteEntry(
                        text="I got an e-mail at 6 p.m. saying “redo the numbers for Brightline.”",
                        source_number=2,
                    )
                ],
            ),
        ],
        people=[
            EntityEntry(
                name="Gerald Pruitt",
                kind="person",
                role="Board chair",
                affiliation="Marlow County Water Board",
                aliases=["Gerry Pruitt"],
                quotes=[
                    QuoteEntry(
                        text="The chair called for a vote on the revised recommendation.",
                        source_number=1,
                        page=4,
                    ),
                    QuoteEntry(
                        text="Pruitt said he had “nothing to disclose” about the contract.",
                        source_number=3,
                        relation="contradicts",
                        note="Compare with the 2021 disclosure form.",
                    ),
                ],
            ),
            EntityEntry(
                name="Łódź Wałęsa",
                kind="person",
                role="Senior engineer",
                affiliation="Brightline Utilities",
                quotes=[
                    QuoteEntry(text='He wrote "<REDACTED>" & left', source_number=2),
                ],
            ),
            EntityEntry(
                name="Dana Whitcombe",
                kind="person",
                role="Reporter",
                affiliation="The Harbor Ledger",
            ),
        ],
        organizations=[
            EntityEntry(
                name="Marlow County Water Board",
                kind="government body",
                aliases=["MCWB", "the water board"],
                quotes=[
                    QuoteEntry(
                        text="Motion carried 4–1 to award the contract to Brightline Utilities.",
                        source_number=1,
                        page=5,
                    )
                ],
            ),
            EntityEntry(
                name="Brightline Utilities",
                kind="company",
                notes="Registered in 2019; its bond filings mention the S&P 500 index.",
            ),
        ],
        places=[EntityEntry(name="Marlow County", kind="place")],
        events=[
            EventEntry(
                title="Board votes 4–1 to award the contract to Brightline",
                date="2023-03-14",
                precision="day",
                place="County building, room 2",
                quotes=[
                    QuoteEntry(
                        text="Motion carried 4–1 to award the contract to Brightline Utilities.",
                        source_number=1,
                        page=5,
                    )
                ],
            ),
            EventEntry(
                title="Scoring sheet revised",
                date="2023-03-13",
                precision="day",
                description="Brightline moves from second to first place.",
            ),
            EventEntry(
                title="Brightline registers with the state",
                date="2019-08",
                precision="month",
            ),
            EventEntry(
                title="Chair’s brother-in-law buys into Brightline",
                date="2022-02",
                precision="approximate",
            ),
        ],
        claims=[
            ClaimEntry(
                statement="The scoring sheet was changed at the chair’s request.",
                status="single-source",
                attributed_to="former procurement clerk",
                via="Interview notes: former procurement clerk",
                quotes=[
                    QuoteEntry(
                        text="I got an e-mail at 6 p.m. saying “redo the numbers for Brightline.”",
                        source_number=2,
                    )
                ],
            ),
            ClaimEntry(
                statement="Brightline’s bid was the second highest of three.",
                status="corroborated",
                attributed_to="Marlow County Water Board",
                via="The Harbor Ledger",
            ),
        ],
        sources=[src1, src2, src3],
    )


@pytest.fixture
def sample_brief() -> BriefData:
    """A fresh realistic :class:`BriefData` (tests may mutate it)."""
    return make_sample_brief()
