"""Web pages: main text and metadata through trafilatura, charsets, pages with no text."""

from __future__ import annotations

import pytest

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes
from casefile.ingest.html import html_to_text

ARTICLE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Deputies waited outside | The Ledger</title>
<meta name="author" content="Jane Roe">
<meta property="og:title" content="Deputies waited outside">
<meta property="og:site_name" content="The Ledger">
<meta property="article:published_time" content="2018-02-23T10:00:00Z">
<link rel="canonical" href="https://ledger.example.org/2018/02/deputies">
</head><body>
<nav><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sports">Sports</a></nav>
<article><h1>Deputies waited outside</h1>
<p>Three deputies stayed outside the building during the shooting, officials said on Friday.</p>
<p>The sheriff said a report from the neighbouring city\u2019s police would be ready in a week.</p>
</article>
<footer>Subscribe to our newsletter. Copyright 2018 The Ledger.</footer>
</body></html>
"""


def test_article_text_and_metadata() -> None:
    doc = ingest_bytes(ARTICLE.encode("utf-8"), "deputies.html")
    assert doc.mime_type == "text/html"
    assert "Three deputies stayed outside the building" in doc.text
    assert "neighbouring city\u2019s police" in doc.text
    assert "Subscribe to our newsletter" not in doc.text
    assert doc.title == "Deputies waited outside"
    assert doc.author == "Jane Roe"
    assert doc.published == "2018-02-23"
    assert doc.url == "https://ledger.example.org/2018/02/deputies"
    assert doc.outlet == "The Ledger"
    assert doc.notes == ["Published date 2018-02-23 from the page's metadata "
                         "(article:published_time)"]


@pytest.mark.parametrize(
    ("text", "encoding", "label"),
    [
        ("Полиция округа Броуард начала расследование после стрельбы в школе. "
         "Шериф заявил журналистам, что отчёт будет готов через неделю.", "cp1251", "Windows-1251"),
        ("경찰은 학교 총격 사건 이후 조사를 시작했다. 보안관은 기자들에게 보고서가 "
         "일주일 후에 준비될 것이라고 말했다.", "euc-kr", "Korean"),
    ],
)
def test_non_latin_page_without_declared_charset_is_not_garbled(
    text: str, encoding: str, label: str
) -> None:
    page = f"<html><body><article><p>{text}</p></article></body></html>".encode(encoding)
    doc = ingest_bytes(page, "page.html")
    assert text in doc.text
    assert len(doc.notes) == 1 and label in doc.notes[0]


def test_declared_latin1_page_decodes_like_a_browser() -> None:
    page = ("<html><head><meta charset=iso-8859-1></head><body><p>L\u2019\u00e9l\u00e8ve "
            "a dit \u00ab non \u00bb au caf\u00e9 de la gare ce matin-l\u00e0.</p></body></html>")
    doc = ingest_bytes(page.encode("cp1252"), "fr.html")
    assert "L\u2019\u00e9l\u00e8ve a dit \u00ab non \u00bb au caf\u00e9" in doc.text
    assert doc.notes == []


def test_wrong_declared_charset_is_noted() -> None:
    page = "<html><head><meta charset=utf-8></head><body><p>Caf\u00e9 cr\u00e8me, "
    page += "pr\u00e8s de la mairie, o\u00f9 le maire a parl\u00e9.</p></body></html>"
    doc = ingest_bytes(page.encode("latin-1"), "wrong.html")
    assert "Caf\u00e9 cr\u00e8me" in doc.text
    assert doc.notes == ["Declared charset 'utf-8' does not fit the bytes; decoded as "
                         "Latin-1 (ISO-8859-1)"]


def test_html_named_txt_is_read_as_html() -> None:
    doc = ingest_bytes(ARTICLE.encode(), "saved.txt")
    assert doc.mime_type == "text/html"
    assert "<p>" not in doc.text


@pytest.mark.parametrize(
    "page",
    [
        b"<html><head><title>Nothing</title><script>var x = 1;</script></head><body></body></html>",
        b"<!DOCTYPE html><html><body>   <div> </div><style>p{}</style></body></html>",
    ],
)
def test_page_without_body_text_is_refused(page: bytes) -> None:
    with pytest.raises(IngestError, match=r"^page\.html has no readable body text$"):
        ingest_bytes(page, "page.html")


def test_short_page_keeps_its_text() -> None:
    doc = ingest_bytes(b"<html><body><p>Call back Tuesday.</p></body></html>", "short.html")
    assert "Call back Tuesday." in doc.text


def test_html_to_text_keeps_blocks_on_lines_and_drops_scripts() -> None:
    text = html_to_text("<div>Hello <b>there</b></div><script>evil()</script><p>Line two<br>three"
                        "</p><table><tr><td>a</td><td>b</td></tr></table>")
    assert text == "Hello there\n\nLine two\nthree\n\na b"


HEADLINE = "서울시 예산 삭감에 시민단체 반발"
SITE = "엔터 미디어"


def _korean_page(head: str) -> bytes:
    body = "서울시는 내년 예산을 크게 줄이기로 했다고 밝혔다. 시민단체는 즉시 반발했다. " * 4
    return (f'<html><head><meta charset="utf-8">{head}</head><body><div class="site">{SITE}'
            f'</div><article><h1>{HEADLINE}</h1><p>{body}</p></article></body></html>'
            ).encode()


@pytest.mark.parametrize("head", [
    # the CMS puts the site's name in <meta name="title">, which trafilatura prefers
    f'<title>{HEADLINE} | {SITE}</title><meta name="title" content="{SITE}">'
    f'<meta property="og:site_name" content="{SITE}">',
    f'<title>{SITE}</title><meta name="title" content="{SITE}">'
    f'<meta property="og:site_name" content="{SITE}"><meta property="og:title" content="{SITE}">',
    f'<title>{HEADLINE} - {SITE}</title><meta name="title" content="{SITE}">',
])
def test_korean_page_is_titled_by_its_headline_not_its_site(head: str) -> None:
    doc = ingest_bytes(_korean_page(head), "news.html")
    assert doc.title == HEADLINE
    assert "시민단체는 즉시 반발했다" in doc.text


def test_page_titled_by_site_name_alone_keeps_it() -> None:
    page = (f'<html><head><meta charset="utf-8"><title>{SITE}</title></head><body><p>'
            + "짧은 공지 사항입니다. " * 10 + "</p></body></html>").encode("utf-8")
    assert ingest_bytes(page, "notice.html").title == SITE


@pytest.mark.parametrize("depth", [300, 20000])
def test_text_nested_deeper_than_the_tree_parser_goes_is_still_read(depth: int) -> None:
    page = ("<html><head><title>Minutes</title><script>var x = 1;</script></head><body>"
            + "<div>" * depth + "<p>The harbor commission signed the dredging contract.</p>"
            + "</div>" * depth + "</body></html>")
    doc = ingest_bytes(page.encode(), "deep.html")
    assert doc.text == "The harbor commission signed the dredging contract."
    assert any(note.startswith("The HTML parser could not build the page") for note in doc.notes)


_READ_PAGES = """
import json, sys
from pathlib import Path
if sys.argv[2] == "with":
    import py3langid  # loaded first: trafilatura then imports it as it always did
from casefile.ingest.html import ingest_html
pages = sorted(Path(sys.argv[1]).iterdir())
out = [[p.name, r.text, r.title, r.author, r.outlet, r.url, r.published, r.notes, r.extra]
       for p in pages for r in [ingest_html(p.read_bytes(), p.name)]]
print(json.dumps({"pages": out, "numpy": "numpy" in sys.modules}))
"""


def test_pages_read_the_same_without_trafilaturas_language_identifier(tmp_path) -> None:
    """Web pages are read without loading py3langid and numpy (a cold import's time), and
    their text, title, dates and notes are what trafilatura gives with them loaded."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    from scripts.bench_paths.importing import make_corpus

    make_corpus(tmp_path / "pages", 12, "html")
    (tmp_path / "pages" / "article.html").write_text(ARTICLE, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get(
        "PYTHONPATH", "")])}
    runs = {how: json.loads(subprocess.run(
        [sys.executable, "-c", _READ_PAGES, str(tmp_path / "pages"), how], check=True,
        capture_output=True, text=True, env=env, cwd=root, timeout=300).stdout)
        for how in ("with", "without")}
    assert runs["without"]["pages"] == runs["with"]["pages"]
    assert len(runs["without"]["pages"]) == 13
    assert runs["without"]["pages"][0][2] == "Deputies waited outside"
    assert runs["without"]["numpy"] is False


def test_a_pages_heading_and_paragraphs_are_separated_as_in_a_plain_text_article() -> None:
    """The heading stays out of the first sentence, so no claim or event quotes it."""
    from casefile.extract.text import sentence_spans

    page = ("<html><head><title>Harbor board under fire</title></head><body><nav>Home | News"
            "</nav><article><h1>Harbor board under fire</h1><p>Board chair Ana Ruiz said on "
            "Friday that the permit should never have been signed.</p><p>The county will "
            "release its audit next week, a spokesman said.</p></article></body></html>")
    text = ingest_bytes(page.encode(), "board.html").text
    assert text == ("Harbor board under fire\n\nBoard chair Ana Ruiz said on Friday that the "
                    "permit should never have been signed.\n\nThe county will release its "
                    "audit next week, a spokesman said.")
    first = sentence_spans(text)[1]
    assert text[first[0]:first[1]].startswith("Board chair Ana Ruiz said")
