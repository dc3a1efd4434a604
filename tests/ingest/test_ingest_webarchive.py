"""Saved web pages as evidence: MHTML, WARC and WACZ files made here import with the page's
URL, capture time and hash, and their text is what importing the same page as .html gives."""

from __future__ import annotations

import email.policy
import hashlib
import io
import json
import zipfile
import zlib
from email.message import EmailMessage

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes, webarchive
from casefile.ingest.limits import MiB, shared_budget

URL = "https://ledger.example/2026/harbour-fees"
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Harbour fees rise again | Coastal Ledger</title>
<meta name="author" content="Mira Okafor"></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article>
<h1>Harbour fees rise again</h1>
<p>The port authority raised mooring fees by twelve percent on Tuesday, the third rise this
year, according to a notice posted at the harbour office.</p>
<p>Fishermen in Kellby said the increase would force smaller boats out of the harbour before
winter; one skipper, Jonas Ärnlöf, called it "the end of the day boats".</p>
<p>A spokesperson for the authority declined to comment on the timing of the decision.</p>
</article><footer>© Coastal Ledger</footer></body></html>""".encode()


def mhtml(html: bytes, *, url: str = URL, date: str | None = "Wed, 2 Dec 2026 10:15:00 +0100",
          cte: str = "quoted-printable") -> bytes:
    """A page saved as one file the way Chromium writes it: a multipart/related message
    "Saved by Blink" with Snapshot-Content-Location, the HTML part first, then an image."""
    msg = EmailMessage()
    msg["From"] = "<Saved by Blink>"
    msg["Snapshot-Content-Location"] = url
    msg["Subject"] = "Harbour fees rise again"
    if date:
        msg["Date"] = date
    msg.make_related()
    msg.add_related(html, maintype="text", subtype="html", cte=cte)
    msg.add_related(b"\x89PNG\r\n\x1a\n" + bytes(64), maintype="image", subtype="png",
                    cid="<logo@ledger>")
    parts = list(msg.iter_parts())
    parts[0].set_param("charset", "utf-8")
    parts[0]["Content-Location"] = url
    parts[1]["Content-Location"] = "https://ledger.example/logo.png"
    return msg.as_bytes(policy=email.policy.SMTP)


HTML_UTF8 = [("Content-Type", "text/html; charset=utf-8")]


def write_response(writer: WARCWriter, url: str, body: bytes, headers: list[tuple[str, str]],
                   **warc_headers: str) -> None:
    """Write a 200 response record of ``body`` with the HTTP ``headers`` (name, value) and,
    if given, WARC headers such as ``{"WARC-Date": ...}``."""
    http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                  length=len(body), http_headers=http,
                                                  warc_headers_dict=warc_headers or None))


def response_record(body: bytes, headers: list[tuple[str, str]], *, url: str = URL,
                    gzip: bool = True) -> bytes:
    """One WARC response record (:func:`write_response`), alone: the bytes of a WARC."""
    buffer = io.BytesIO()
    write_response(WARCWriter(buffer, gzip=gzip), url, body, headers)
    return buffer.getvalue()


def warc(pages: list[tuple[str, bytes, str]], *, gzip: bool = True,
         extra: list[tuple[str, bytes]] = ()) -> bytes:
    """A WARC (warcio's writer) with a warcinfo record, then for each (url, html, date) a
    request and a 200 response; ``extra`` adds image responses (url, bytes) first."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gzip)
    writer.write_record(writer.create_warcinfo_record("test.warc", {"software": "tests"}))
    for url, body in extra:
        write_response(writer, url, body, [("Content-Type", "image/png")])
    for url, html, date in pages:
        request = StatusAndHeaders("GET / HTTP/1.1", [("Host", "ledger.example")],
                                   is_http_request=True)
        writer.write_record(writer.create_warc_record(url, "request", http_headers=request,
                                                      warc_headers_dict={"WARC-Date": date}))
        write_response(writer, url, html, HTML_UTF8, **{"WARC-Date": date})
    return buffer.getvalue()


def wacz(warc_bytes: bytes, first_url: str) -> bytes:
    """A WACZ (Webrecorder's zip): datapackage.json, pages/pages.jsonl, archive/data.warc.gz."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("datapackage.json", json.dumps({"profile": "data-package",
                                                   "wacz_version": "1.1.1"}))
        z.writestr("pages/pages.jsonl", json.dumps({"format": "json-pages-1.0"}) + "\n"
                   + json.dumps({"url": first_url, "ts": "2026-12-02T09:15:00Z"}) + "\n")
        z.writestr("archive/data.warc.gz", warc_bytes, compress_type=zipfile.ZIP_STORED)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def as_html():
    return ingest_bytes(PAGE, "harbour-fees.html")


def test_an_mhtml_page_has_the_html_text_its_url_capture_time_and_hash(as_html) -> None:
    data = mhtml(PAGE)
    got = ingest_bytes(data, "Harbour fees rise again.mhtml")
    assert got.mime_type == "multipart/related"
    assert got.text == as_html.text and "Jonas Ärnlöf" in got.text
    assert (got.title, got.author) == (as_html.title, as_html.author)
    assert got.url == URL
    assert got.captured == "2026-12-02T09:15:00Z"  # the Date header, in UTC
    capture = got.extra["capture"]
    assert capture["url"] == URL and capture["captured"] == got.captured
    assert capture["format"] == "MHTML"
    # the hash of the page's HTML as saved (the quoted-printable part decoded)
    assert capture["sha256"] == hashlib.sha256(PAGE).hexdigest()


def test_an_mhtml_file_not_named_mhtml_is_still_a_saved_page_and_an_html_email_an_email(
        as_html) -> None:
    assert ingest_bytes(mhtml(PAGE, cte="base64"), "download").text == as_html.text
    mail = EmailMessage()
    mail["From"], mail["To"] = "Ana <ana@example.org>", "desk@example.org"
    mail["Subject"], mail["Message-ID"] = "Fees", "<1@example.org>"
    mail["Date"] = "Wed, 2 Dec 2026 10:15:00 +0100"
    mail.make_related()
    mail.add_related("<p>The fees rose again on Tuesday.</p>", subtype="html")
    got = ingest_bytes(mail.as_bytes(), "fees.eml")
    assert got.mime_type == "message/rfc822" and "capture" not in got.extra


@pytest.mark.parametrize("gzip", [True, False])
def test_a_warc_page_has_the_html_text_its_url_capture_time_and_hash(as_html, gzip) -> None:
    data = warc([(URL, PAGE, "2026-12-02T09:15:00Z")], gzip=gzip,
                extra=[("https://ledger.example/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(99))])
    got = ingest_bytes(data, "harbour.warc.gz" if gzip else "harbour.warc")
    assert got.mime_type == "application/warc"
    assert got.text == as_html.text and got.title == as_html.title
    assert (got.url, got.captured) == (URL, "2026-12-02T09:15:00Z")
    capture = got.extra["capture"]
    assert capture["sha256"] == hashlib.sha256(PAGE).hexdigest()
    assert capture["digest"].startswith("sha1:") and capture["format"] == "WARC"
    assert got.attachments == []


def test_a_wacz_opens_on_the_page_its_page_list_names_and_attaches_the_others(as_html) -> None:
    other = PAGE.replace(b"Harbour fees rise again", b"Ferry timetable cut")
    data = wacz(warc([("https://ledger.example/ferry", other, "2026-12-01T08:00:00Z"),
                      (URL, PAGE, "2026-12-02T09:15:00Z")]), first_url=URL)
    got = ingest_bytes(data, "crawl.wacz")
    assert got.mime_type == "application/wacz" and got.text == as_html.text
    assert (got.url, got.captured) == (URL, "2026-12-02T09:15:00Z")
    [child] = got.attachments
    assert child.title == "Ferry timetable cut" and child.url == "https://ledger.example/ferry"
    assert child.original == other  # stored as its own blob, hashed
    assert any("2 pages" in note for note in got.notes)


def test_a_gzip_bomb_in_a_warc_is_refused_by_the_expansion_budget() -> None:
    # a 40 MB image of zeros squeezed into a few KB, before the page
    data = warc([(URL, PAGE, "2026-12-02T09:15:00Z")],
                extra=[("https://ledger.example/bomb.png", bytes(40 * MiB))])
    assert len(data) < 200_000
    with shared_budget(16 * MiB), pytest.raises(IngestError) as refused:
        ingest_bytes(data, "bomb.warc.gz")
    assert str(refused.value) == ("bomb.warc.gz was not imported: it would expand to more "
                                  "than 16 MB (a zip bomb?)")


def test_too_many_records_and_too_big_a_page_are_refused_in_one_sentence(monkeypatch) -> None:
    monkeypatch.setattr(webarchive, "MAX_RECORDS", 5)
    many = warc([(f"{URL}/{n}", PAGE, "2026-12-02T09:15:00Z") for n in range(4)])
    with pytest.raises(IngestError, match=r"^many.warc.gz was not imported: it holds more "
                                          r"than 5 records$"):
        ingest_bytes(many, "many.warc.gz")
    monkeypatch.setattr(webarchive, "MAX_RECORDS", 50_000)
    monkeypatch.setattr(webarchive, "MAX_PAGE_BYTES", 500)
    with pytest.raises(IngestError, match="over the 500 bytes allowed for one page"):
        ingest_bytes(warc([(URL, PAGE, "2026-12-02T09:15:00Z")]), "big.warc.gz")
    with pytest.raises(IngestError, match="over the 500 bytes allowed for one page"):
        ingest_bytes(mhtml(PAGE), "big.mhtml")


def test_more_pages_than_allowed_are_named_in_a_note_not_lost(monkeypatch) -> None:
    monkeypatch.setattr(webarchive, "MAX_PAGES", 2)
    got = ingest_bytes(warc([(f"{URL}/{n}", PAGE, "2026-12-02T09:15:00Z") for n in range(4)]),
                       "site.warc.gz")
    assert len(got.attachments) == 1
    note = next(n for n in got.notes if "not imported" in n)
    assert f"{URL}/2" in note and f"{URL}/3" in note


def test_a_web_archive_without_a_page_or_broken_says_so() -> None:
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    writer.write_record(writer.create_warcinfo_record("x.warc", {"software": "tests"}))
    with pytest.raises(IngestError, match="^empty.warc.gz was not imported: the web archive "
                                          "holds no HTML page"):
        ingest_bytes(buffer.getvalue(), "empty.warc.gz")
    broken = zlib.compress(b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99999\r\n\r\nx",
                           wbits=31)
    with pytest.raises(IngestError, match="^cut.warc.gz is damaged"):
        ingest_bytes(broken, "cut.warc.gz")
    whole = warc([(URL, PAGE, "2026-11-30T22:40:05Z")])
    for cut in (len(whole) // 2, len(whole) - 5):  # a download stopped part way
        with pytest.raises(IngestError, match="^half.warc.gz is damaged: it ends in the "
                                              "middle of a record"):
            ingest_bytes(whole[:cut], "half.warc.gz")


def test_a_warc_page_sent_gzipped_and_chunked_reads_as_the_page(as_html) -> None:
    body = zlib.compress(PAGE, wbits=31)
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 500]), body[i:i + 500])
                       for i in range(0, len(body), 500)) + b"0\r\n\r\n"
    record = response_record(chunked, [*HTML_UTF8, ("Content-Encoding", "gzip"),
                                       ("Transfer-Encoding", "chunked")])
    got = ingest_bytes(record, "crawl.warc.gz")
    assert got.text == as_html.text and got.url == URL
    assert got.extra["capture"]["sha256"] == hashlib.sha256(PAGE).hexdigest()  # as decoded


def test_a_page_whose_charset_only_the_http_header_gives_is_read_and_hashed_as_sent() -> None:
    page = ("<html><head><title>Caf\u00e9 fees</title></head><body><article><p>The caf\u00e9 "
            "on the quay pays \u201cmore than ever\u201d for its mooring, its owner said on "
            "Tuesday, and the harbour office did not answer.</p></article></body></html>"
            ).encode("cp1252")
    record = response_record(page, [("Content-Type", "text/html; charset=windows-1252")])
    got = ingest_bytes(record, "cafe.warc.gz")
    assert "caf\u00e9 on the quay pays \u201cmore than ever\u201d" in got.text
    assert got.extra["capture"]["sha256"] == hashlib.sha256(page).hexdigest()
