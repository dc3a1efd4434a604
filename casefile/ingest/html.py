"""Web pages: the article's main text and its metadata, through trafilatura.

Also :func:`html_to_text`, the whole visible text of a fragment of HTML (used for HTML email
bodies, where there is no "main text" to find, and as the fallback for pages trafilatura
cannot make sense of).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from copy import copy
from functools import cache
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlparse

import lxml.etree
import lxml.html

from casefile.errors import IngestError
from casefile.ingest.detect import HTML
from casefile.ingest.text import decode_text, normalise_newlines
from casefile.ingest.types import Ingested

# WHATWG HTML, "prescan a byte stream to determine its encoding": a <meta charset> or
# <meta http-equiv=content-type content="...; charset=..."> in the first 1024 bytes.
_META_CHARSET = re.compile(
    rb"<meta[^>]+?charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.IGNORECASE
)
_XML_ENCODING = re.compile(rb"^\s*<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)", re.I)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)

# WHATWG Encoding Standard: these labels all mean windows-1252 on the web.
_WEB_1252 = {"iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii",
             "windows-1252", "cp1252", "iso_8859-1", "cp819", "ibm819"}

_BLOCK_TAGS = {
    "p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
    "table", "ul", "ol", "dl", "dt", "dd", "section", "article", "header", "footer", "hr",
    "address", "figure", "figcaption", "main", "nav", "aside", "form", "fieldset", "title",
}
_DROP_TAGS = ("script", "style", "noscript", "template", "head", "svg", "object", "iframe")


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in its first 1024 bytes (meta tag or XML declaration)."""
    head = data[:1024]
    found = _XML_ENCODING.match(head) or _META_CHARSET.search(head)
    if not found:
        return None
    label = found.group(1).decode("ascii", errors="replace").strip().lower()
    return "cp1252" if label in _WEB_1252 else label


def decode_html(data: bytes, filename: str) -> tuple[str, list[str]]:
    """Decode an HTML page: BOM, then the declared charset, then UTF-8, then a guess.

    Returns (markup as str, notes). A declared charset that is unknown or does not fit the bytes
    is noted; so is a guess for a page that declares nothing and is not UTF-8 (for example a
    Cyrillic page in Windows-1251 without a meta tag is detected and decoded correctly).
    """
    declared = declared_charset(data)
    if declared == "cp1252":
        try:
            return data.decode("cp1252"), []
        except UnicodeDecodeError:
            return data.decode("latin_1"), []
    text, notes = decode_text(data, filename, declared=declared)
    if not declared and notes:
        notes = [note.replace("Not valid UTF-8", "No charset declared and not valid UTF-8")
                 for note in notes]
    return text, notes


_BLANK_LINES = re.compile(r"\n{3,}")


def _tidy(line: str) -> bool:
    """Whether ``" ".join(line.split())`` is ``line`` itself: no space at either end, no two in
    a row, and no other whitespace (every whitespace character but the space is unprintable
    to ``str.isprintable``). Four C scans instead of cutting the line into its words."""
    return line.isprintable() and "  " not in line and line[:1] != " " and line[-1:] != " "


def _squeeze(text: str) -> str:
    """``text`` with each line's runs of whitespace made one space (none at the ends) and at
    most one blank line in a row, stripped."""
    lines = [line if _tidy(line) else " ".join(line.split())
             for line in normalise_newlines(text).split("\n")]
    text = "\n".join(lines)
    if "\n\n\n" in text:
        text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


def _paragraphs(text: str) -> str:
    """The main text found on a page (one line per paragraph, heading, list item or line
    break) squeezed (:func:`_squeeze`), a blank line between two lines, as a plain-text article
    separates its paragraphs: a heading is then no part of the sentence after it."""
    return "\n\n".join(line for line in _squeeze(text).split("\n") if line)


def html_to_text(markup: str) -> str:
    """All visible text of an HTML document or fragment, one line per block element.

    Scripts, styles and the <head> are dropped; runs of spaces collapse; at most one blank line
    in a row. Returns "" when there is no text or the markup cannot be parsed.
    """
    markup = _XML_DECL.sub("", markup, count=1)
    if not markup.strip():
        return ""
    try:
        root = lxml.html.document_fromstring(markup)
    except (lxml.etree.ParserError, ValueError):
        return ""
    for element in list(root.iter(*_DROP_TAGS)):
        parent = element.getparent()
        if parent is not None:
            tail = element.tail
            parent.remove(element)
            if tail:  # keep the text that followed the dropped element
                previous = parent[-1] if len(parent) else None
                if previous is not None:
                    previous.tail = (previous.tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
    for element in root.iter(*_BLOCK_TAGS):
        element.tail = "\n" + (element.tail or "")
        if element.tag != "br":
            element.text = "\n" + (element.text or "")
    for cell in root.iter("td", "th"):
        cell.tail = " " + (cell.tail or "")
    return _squeeze(root.text_content())


class _TextOnly(HTMLParser):
    """The character data of a page outside scripts, styles and the head, a line per block
    element: a tokenizer, so no depth of nesting stops it (libxml2 gives up at 256 levels)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in _DROP_TAGS:
            self._hidden += 1
        elif tag in _BLOCK_TAGS:
            self.pieces.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROP_TAGS:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCK_TAGS:
            self.pieces.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.pieces.append(data)


def flat_text(markup: str) -> str:
    """The visible text of ``markup`` read as a stream of tags (see :class:`_TextOnly`), for
    pages the tree parser cannot build; "" when there is none."""
    reader = _TextOnly()
    reader.feed(markup)
    reader.close()
    return _squeeze("".join(reader.pieces))


def ingest_html(data: bytes, filename: str) -> Ingested:
    """Read a web page: main text, title, author, published date, URL and site name.

    trafilatura finds the main text (boilerplate such as menus and footers left out) and the
    metadata, in the tree it parsed, which the title and the dates are then read from (the page
    is parsed once, see :func:`_extract`); ``published`` is the page's date as ``YYYY-MM-DD``
    (its own metadata and address first, see :func:`_date_the_page`; the notes say where it
    came from), ``url`` its canonical URL, ``outlet`` the site name; ``title`` follows
    :func:`page_title`. When trafilatura finds no main text but the page has visible text, that
    text is kept with a note. Raises IngestError when the page has no readable body text.
    """
    markup, notes = decode_html(data, filename)
    if not data.strip():
        raise IngestError(f"{filename} is empty")
    tree: Any = None
    try:
        found, tree = _extract(markup)
    except Exception:  # trafilatura raises various lxml/parser errors on broken markup
        found = None
    root = tree if tree is not None else _page_tree(markup)
    text = ""
    meta: dict[str, Any] = found or {}
    raw = meta.get("text")
    if isinstance(raw, str):
        text = _paragraphs(raw)
    if not text:
        text = html_to_text(markup)
        if text:
            notes.append("The main text of the page was not recognised; all its text was kept")
    if not text:
        text = flat_text(markup)
        if text:
            notes.append("The HTML parser could not build the page (its elements nest too "
                         "deeply or are broken); its text was read without its layout")
    if not text:
        raise IngestError(f"{filename} has no readable body text")

    def meta_str(key: str) -> str | None:
        value = meta.get(key)
        return value.strip() or None if isinstance(value, str) else None

    result = Ingested(
        text=text,
        mime_type=HTML,
        title=_title_of(root, meta_str("title"), meta_str("sitename")),
        author=meta_str("author"),
        outlet=meta_str("sitename"),
        url=meta_str("url"),
        published=meta_str("date"),
        notes=notes,
        filename=filename,
    )
    _date_the_page(result, root)
    description = meta_str("description")
    if description:
        result.extra["description"] = description
    language = meta_str("language")
    if language:
        result.extra["language"] = language
    return result


#: The page's own publication metadata, most specific first (property or name, lower case).
_DATE_META = ("article:published_time", "og:published_time", "datepublished",
              "publish-date", "publish_date", "pubdate", "parsely-pub-date", "sailthru.date",
              "dc.date.issued", "dc.date", "date")
#: A date in an address's path: /2019/11/18/, /2019/nov/18/, /2019-11-18/, /20191118/.
_URL_DATE = re.compile(
    r"/(?P<y>(?:19|20)\d\d)[/-](?P<m>0?[1-9]|1[0-2]|[a-z]{3,9})[/-](?P<d>0?[1-9]|[12]\d|3[01])"
    r"(?=[/._-]|$)|/(?P<y2>(?:19|20)\d\d)(?P<m2>0[1-9]|1[0-2])(?P<d2>0[1-9]|[12]\d|3[01])(?=/)",
    re.I)
_MONTH_ABBR = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
               "dec")
_ISO_DAY = re.compile(r"((?:19|20)\d\d)-(\d\d)-(\d\d)")


def _iso_day(value: str) -> str | None:
    """``YYYY-MM-DD`` from the start of an ISO 8601 date or timestamp, or None."""
    m = _ISO_DAY.match(value.strip())
    if not m:
        return None
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3])).isoformat()
    except ValueError:
        return None


def url_date(url: str | None) -> str | None:
    """The ``YYYY-MM-DD`` date in an address's path ("/2019/nov/18/", "/2019/11/18/",
    "/20191118/"), or None."""
    if not url:
        return None
    m = _URL_DATE.search(urlparse(url).path)
    if not m:
        return None
    year, month, day = (m["y"], m["m"], m["d"]) if m["y"] else (m["y2"], m["m2"], m["d2"])
    if not month.isdigit():
        abbr = month[:3].lower()
        if abbr not in _MONTH_ABBR:
            return None
        month = str(_MONTH_ABBR.index(abbr) + 1)
    try:
        return dt.date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return None


def page_dates(markup: str) -> list[tuple[str, str]]:
    """The publication dates a page states about itself, as (``YYYY-MM-DD``, where) pairs in
    order of trust: its publication meta tags (``article:published_time``...), then the
    ``datePublished`` of its JSON-LD (the first object that has one, the page's own
    description), then an ``itemprop="datePublished"`` element, then a date in its canonical
    or og:url address's path. Dates inside embedded content (a quoted post's signature, a
    related-article list) are not among them. Empty when the page states none."""
    return _dates_of(_page_tree(markup))


def _page_tree(markup: str) -> Any:
    """The page parsed by lxml (an HtmlElement), or None when it cannot be."""
    try:
        return lxml.html.document_fromstring(_XML_DECL.sub("", markup, count=1))
    except (lxml.etree.ParserError, ValueError):
        return None


def _dates_of(root: Any) -> list[tuple[str, str]]:
    """:func:`page_dates` of a parsed page (None: no dates)."""
    if root is None:
        return []
    out: list[tuple[str, str]] = []
    metas = {}
    meta_elements = list(root.iter("meta"))  # walked once, read twice below
    for element in meta_elements:
        key = (element.get("property") or element.get("name") or element.get("itemprop")
               or "").lower()
        if key in _DATE_META and key not in metas and element.get("content"):
            metas[key] = element.get("content")
    for key in _DATE_META:
        day = _iso_day(metas[key]) if key in metas else None
        if day:
            out.append((day, f"the page's metadata ({key})"))
            break
    for item in _json_ld_objects(root):
        found = _iso_day(item["datePublished"]) if isinstance(
            item.get("datePublished"), str) else None
        if found:
            out.append((found, "the page's structured data (datePublished)"))
            break
    for element in root.xpath("//*[@itemprop='datePublished']"):  # in document order
        day = _iso_day(element.get("datetime") or element.get("content") or "")
        if day:
            out.append((day, "the page's markup (itemprop datePublished)"))
            break
    url = None
    for element in root.iter("link"):
        if (element.get("rel") or "").lower() == "canonical" and element.get("href"):
            url = element.get("href")
            break
    if url is None:  # the first og:url meta with a content attribute
        for element in meta_elements:
            if (element.get("property") or "").lower() == "og:url":
                url = element.get("content")
                if url is not None:
                    break
    day = url_date(url)
    if day:
        out.append((day, "the page's address"))
    return out


def _date_the_page(result: Ingested, root: Any) -> None:
    """Set ``result.published`` from the page's own dates (:func:`page_dates` of the parsed
    page ``root``, an HtmlElement or None; the address
    from ``result.url`` counts too), ahead of the date trafilatura guessed, which may come from
    embedded content. Says in the notes where the date came from; when the page's sources
    disagree, says so and marks ``result.extra["published_disputed"]`` (the window then asks
    for the date)."""
    found = _dates_of(root)
    address = url_date(result.url)
    if address and not any(where == "the page's address" for _d, where in found):
        found.append((address, "the page's address"))
    if not found:
        if result.published:
            result.notes.append(f"Published date {result.published} found in the page's text "
                                "(it states none in its metadata or address)")
        return
    day, where = found[0]
    result.published = day
    result.notes.append(f"Published date {day} from {where}")
    others = sorted({d for d, _w in found if d != day})
    if others:
        result.extra["published_disputed"] = True
        result.notes.append("The page's dates disagree: " + "; ".join(
            f"{d} from {w}" for d, w in found) + f". {day} was used; check it")


# " | Site", " - Site", " – Site", " — Site", " :: Site", " · Site" at the end of a <title>
_TITLE_SUFFIX = re.compile(
    r"^(?P<head>.+?)\s+(?:[|\u2013\u2014\u00b7-]|::)\s+(?P<site>[^|]{1,60})$"
)


def _same(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


#: Elements with a class or an id, the only ones :func:`_banners` reads for "logo", "brand"
#: or "masthead" (one XPath with a test per element in C; the words themselves are looked for
#: in Python: an XPath ``contains(translate(...))`` per word walked the whole tree three times,
#: about a sixth of a web page's import).
_CLASSED = lxml.etree.XPath("//*[@class or @id]")
#: ASCII letters lower-cased, nothing else (as XPath's ``translate`` with A-Z would).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_BRAND_WORDS = ("logo", "brand", "masthead")


def _branded(root: Any) -> list[Any]:
    """The elements whose class or id (joined by a space, ASCII letters lower-cased) holds
    "logo", "brand" or "masthead", in document order."""
    out = []
    for element in _CLASSED(root):
        words = f"{element.get('class') or ''} {element.get('id') or ''}".translate(_ASCII_LOWER)
        if any(word in words for word in _BRAND_WORDS):
            out.append(element)
    return out


def _banners(root: Any) -> set[str]:
    """Texts that name the site, not the article: the page's logo or brand element (class or
    id with "logo", "brand" or "masthead") and its link to its own home page ("/")."""
    out = set()
    home = [a for a in root.iter("a") if (a.get("href") or "").strip() in ("/", "./")]
    for element in [*_branded(root), *home]:
        text = " ".join(element.text_content().split())
        if 0 < len(text) <= 60:
            out.add(text)
    return out


def _json_ld_objects(root: Any) -> Iterator[dict[str, Any]]:
    """Every object of the page's JSON-LD scripts, in order (a script's top-level list and
    ``@graph`` members included); scripts that do not parse are skipped."""
    for script in root.iter("script"):
        if (script.get("type") or "").lower() != "application/ld+json" or not script.text:
            continue
        try:
            data = json.loads(script.text)
        except ValueError:
            continue
        stack = data if isinstance(data, list) else [data]
        while stack:
            item = stack.pop(0)
            if isinstance(item, dict):
                yield item
                stack.extend(v for v in item.get("@graph", []) if isinstance(v, dict))


def _json_ld_headline(root: Any) -> str:
    """The ``headline`` of the page's JSON-LD article object (NewsArticle, Article, ...), or
    ""."""
    for item in _json_ld_objects(root):
        kind = item.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if (any(isinstance(k, str) and k.endswith("Article") for k in kinds)
                and isinstance(item.get("headline"), str) and item["headline"].strip()):
            return " ".join(item["headline"].split())
    return ""


def page_title(markup: str, found: str | None, sitename: str | None) -> str | None:
    """The page's headline: trafilatura's title (``found``) unless it is the site's name.

    The headline of the page's JSON-LD article object wins when there is one. Else ``found``
    wins when it is not the site's name, where the site's name is ``sitename``
    (trafilatura's), the page's og:site_name, the part after the last " | ", " - ", " – ",
    " — ", " :: " or " · " of its ``<title>``, the text of its logo or home link, or a bare
    ``<title>`` (no such separator) that differs from the article's own ``<h1>``. Otherwise
    the first of these that is not empty and not the site's name is the title: og:title,
    twitter:title, the ``<title>`` minus that site suffix, the article's (else the first)
    ``<h1>``. When all fail, ``found``
    stays (a page titled only by its site's name is still titled). Returns None when the page
    has no title at all. Some news CMSs put the site's name in ``<meta name="title">``, which
    trafilatura prefers over ``<title>``; this is why.
    """
    return _title_of(_page_tree(markup), found, sitename)


def _title_of(root: Any, found: str | None, sitename: str | None) -> str | None:
    """:func:`page_title` of a parsed page (None: ``found``)."""
    if root is None:
        return found

    def squeeze(value: object) -> str:
        return " ".join(str(value).split()) if value else ""

    meta_elements = list(root.iter("meta"))  # walked once, read for each name asked

    def meta(*names: str) -> str:
        for name in names:
            for element in meta_elements:
                key = element.get("property") or element.get("name") or ""
                if key.lower() == name and squeeze(element.get("content")):
                    return squeeze(element.get("content"))
        return ""

    head_title = next((squeeze(e.text_content()) for e in root.iter("title")), "")
    suffix = _TITLE_SUFFIX.match(head_title)
    sites = {s for s in (sitename, meta("og:site_name"), suffix and suffix["site"]) if s}
    sites |= _banners(root)
    headline = _json_ld_headline(root)
    # the article's own heading: the first <h1> inside <article> or <main>, else the first
    article_heading = next((squeeze(h.text_content()) for box in root.iter("article", "main")
                            for h in box.iter("h1") if squeeze(h.text_content())), "")

    def is_site(value: str | None) -> bool:
        return any(_same(value, site) for site in sites)

    if headline and not is_site(headline):
        return headline  # the page's own structured statement of its headline
    if (found and _same(found, head_title) and not suffix and article_heading
            and not _same(article_heading, found)):
        sites.add(found)  # the bare <title> and the article's heading differ: a banner
    if found and not is_site(found):
        return found
    stripped = suffix["head"] if suffix and is_site(suffix["site"]) else head_title
    heading = article_heading or next((squeeze(e.text_content()) for e in root.iter("h1")), "")
    for candidate in (meta("og:title"), meta("twitter:title"), stripped, heading):
        if candidate and not is_site(candidate):
            return candidate
    return found or head_title or None


#: The metadata :func:`ingest_html` keeps (trafilatura's names).
KEPT_METADATA = ("title", "author", "sitename", "url", "date", "description", "language")


def trafilatura_result(markup: str) -> dict[str, Any] | None:
    """What ``trafilatura.bare_extraction(markup, fast=True, with_metadata=True,
    include_comments=False, include_tables=True)`` gives, as a dict (None when it finds
    nothing): the library's own call, which :func:`main_text_and_metadata` must equal."""
    with _no_language_identifier():
        import trafilatura

    found = trafilatura.bare_extraction(markup, fast=True, with_metadata=True,
                                        include_comments=False, include_tables=True)
    if found is None:
        return None
    return found if isinstance(found, dict) else dict(found.as_dict())


def main_text_and_metadata(markup: str) -> dict[str, Any] | None:
    """The page's main text (``"text"``) and the metadata :data:`KEPT_METADATA`, as
    :func:`trafilatura_result` finds them, or None when trafilatura finds nothing.

    Cheaper than the library call (about a quarter of an HTML import was its metadata pass):
    the extraction options are built once, not read from the configuration per page, and the
    metadata pass leaves out what is not kept (categories, tags, licence). Falls back to the
    library call when this trafilatura's internals differ from those this was written for
    (2.x). Raises what trafilatura raises on broken markup."""
    return _extract(markup)[0]


@contextmanager
def _no_language_identifier() -> Iterator[None]:
    """While trafilatura is imported for the first time, hide py3langid from it.

    trafilatura imports py3langid (and with it numpy: about 0.13 s of every process that
    reads a web page) only for its ``target_language`` filter, which Casefile never asks for;
    without it the same text and metadata come out. py3langid stays importable afterwards
    (``casefile.extract.language`` uses it). Nothing is hidden when either is loaded already."""
    if "trafilatura" in sys.modules or "py3langid" in sys.modules:
        yield
        return
    # a None entry makes ``import py3langid`` raise ImportError
    sys.modules["py3langid"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if "py3langid" in sys.modules and sys.modules["py3langid"] is None:
            del sys.modules["py3langid"]


#: What lxml.html.fromstring reads as a whole page rather than a fragment.
_WHOLE_PAGE = re.compile(r"^\s*<(?:html|!doctype)", re.IGNORECASE)
#: Characters trafilatura removes before parsing (its ``repair_faulty_html``).
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _extract(markup: str) -> tuple[dict[str, Any] | None, Any]:
    """(:func:`main_text_and_metadata`, the page tree it was read from), so the page is
    parsed once: the tree is trafilatura's parse (an lxml.html HtmlElement, which its
    extraction copies before cleaning, so it is left whole) when that is the tree
    :func:`_page_tree` would build: a whole page (starting ``<html`` or ``<!doctype``) with no
    character trafilatura removes first. Otherwise the tree is None (parse it apart)."""
    fast = _fast_extraction()
    if fast is None:
        found = trafilatura_result(markup)
        return (None if found is None else {k: found.get(k) for k in ("text", *KEPT_METADATA)},
                None)
    options, load_html, metadata_of, bare_extraction = fast
    tree = load_html(markup, options.max_file_size)
    if tree is None:
        return None, None
    same = (getattr(tree, "tag", None) == "html" and _WHOLE_PAGE.match(markup) is not None
            and _NOT_XML.search(markup) is None)
    page = tree if same else None
    meta = metadata_of(tree, options)
    run = copy(options)
    # bare_extraction gives the metadata's URL to the extraction; nothing else reads it with
    # these options (no links, fast mode)
    run.url = meta.url
    run.source = meta.url
    found = bare_extraction(tree, options=run)
    if found is None:
        return None, page
    out = {k: getattr(meta, k, None) for k in KEPT_METADATA}
    out["text"] = found.text
    return out, page


@cache
def _fast_extraction() -> tuple[Any, Any, Any, Any] | None:
    """(prebuilt Extractor, load_html, metadata function, bare_extraction), or None when this
    trafilatura does not have the internals they use."""
    try:
        with _no_language_identifier():
            import trafilatura.core  # noqa: F401  (first, without py3langid: see that function)
        from trafilatura.core import bare_extraction
        from trafilatura.metadata import (
            META_URL,
            examine_meta,
            extract_author,
            extract_domain,
            extract_meta_json,
            extract_sitename,
            extract_title,
            extract_url,
            find_date,
        )
        from trafilatura.settings import Extractor, set_date_params
        from trafilatura.utils import load_html
    except ImportError:  # another trafilatura layout: use the library call
        return None
    # the options bare_extraction builds for its call in trafilatura_result
    options = Extractor(output_format="python", fast=True, comments=False, tables=True,
                        with_metadata=False)

    def metadata_of(tree: Any, opts: Any) -> Any:
        """trafilatura.metadata.extract_metadata (2.x) as bare_extraction calls it, without
        the categories, tags and licence, which ingest_html does not keep."""
        date_config = {**opts.date_params} if opts.date_params else set_date_params(opts.fast)
        metadata = examine_meta(tree)
        if metadata.author and " " not in metadata.author:
            metadata.author = None
        with suppress(Exception):  # bugs in trafilatura's json_metadata (it goes on too)
            metadata = extract_meta_json(tree, metadata)
        if not metadata.title:
            metadata.title = extract_title(tree)
        if not metadata.author:
            metadata.author = extract_author(tree)
        if not metadata.url:
            metadata.url = extract_url(tree, None)
        if metadata.url:
            metadata.hostname = extract_domain(metadata.url, fast=True)
        date_config["url"] = metadata.url
        metadata.date = find_date(tree, **date_config)
        if not metadata.sitename:
            metadata.sitename = extract_sitename(tree)
        if metadata.sitename:
            metadata.sitename = metadata.sitename.lstrip("@")
            if (metadata.sitename and "." not in metadata.sitename
                    and not metadata.sitename[0].isupper()):
                metadata.sitename = metadata.sitename.title()
        elif metadata.url:
            matched = META_URL.match(metadata.url)
            if matched:
                metadata.sitename = matched[1]
        metadata.filedate = date_config.get("max_date")
        metadata.clean_and_trim()
        return metadata

    return options, load_html, metadata_of, bare_extraction


__all__ = ["decode_html", "declared_charset", "html_to_text", "ingest_html",
           "main_text_and_metadata", "page_dates", "page_title", "url_date"]
