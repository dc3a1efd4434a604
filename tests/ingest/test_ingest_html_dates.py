"""A web page's published date: its own metadata and address before dates inside embedded
content; the notes say where the date came from; disagreeing sources are flagged."""

from __future__ import annotations

import json

from casefile.ingest import ingest_bytes
from casefile.ingest.html import url_date

BODY = """<article><h1>Council delays the bridge vote</h1>
<p>The city council on Wednesday put off its vote on the river bridge for a second time,
saying the engineers' costing was not complete.</p>
<p>Residents who packed the hall said the delay would cost them another winter of detours.</p>
<blockquote class="embedded-post"><p>The bridge vote is off again. Another winter of detours
for the east side.</p>&mdash; A resident (@resident) <a href="https://social.example/1"><time
datetime="2024-03-01T18:02:00Z">March 1, 2024</time></a></blockquote>
<p>The council chair said a new date would be set once the costing arrives.</p>
</article>"""


def page(head: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Council delays the "
            f"bridge vote</title>{head}</head><body>{BODY}</body></html>").encode()


def test_meta_published_time_beats_an_embedded_posts_date() -> None:
    doc = ingest_bytes(page('<meta property="article:published_time" '
                            'content="2024-03-08T09:30:00-05:00">'), "bridge.html")
    assert doc.published == "2024-03-08"
    assert any("2024-03-08" in n and "metadata" in n for n in doc.notes)
    assert not doc.extra.get("published_disputed")


def test_json_ld_date_published() -> None:
    data = {"@context": "https://schema.org", "@type": "NewsArticle",
            "headline": "Council delays the bridge vote", "datePublished": "2024-03-08"}
    doc = ingest_bytes(page(f'<script type="application/ld+json">{json.dumps(data)}</script>'),
                       "bridge.html")
    assert doc.published == "2024-03-08"
    assert any("structured data" in n for n in doc.notes)


def test_a_date_in_the_address_path_beats_an_embedded_posts_date() -> None:
    doc = ingest_bytes(page('<link rel="canonical" '
                            'href="https://news.example/city/2024/mar/08/bridge-vote">'),
                       "bridge.html")
    assert doc.published == "2024-03-08"
    assert any("address" in n for n in doc.notes)


def test_disagreeing_sources_are_noted_and_flagged() -> None:
    doc = ingest_bytes(page('<meta property="article:published_time" content="2024-03-09">'
                            '<link rel="canonical" '
                            'href="https://news.example/2024/03/08/bridge-vote">'),
                       "bridge.html")
    assert doc.published == "2024-03-09"
    assert doc.extra.get("published_disputed") is True
    disagree = [n for n in doc.notes if "disagree" in n]
    assert disagree and "2024-03-08" in disagree[0] and "2024-03-09" in disagree[0]


def test_url_date_forms() -> None:
    assert url_date("https://x.example/2024/nov/18/story") == "2024-11-18"
    assert url_date("https://x.example/news/2024/11/18/story.html") == "2024-11-18"
    assert url_date("https://x.example/20241118/story") == "2024-11-18"
    assert url_date("https://x.example/2024/11/story") is None
    assert url_date("https://x.example/2024/02/30/story") is None


def test_a_page_stating_no_date_of_its_own_says_where_its_date_came_from() -> None:
    doc = ingest_bytes(page(""), "bridge.html")
    assert doc.published == "2024-03-01"  # the only date the page has, inside the quoted post
    assert any("none in its metadata or address" in n for n in doc.notes)


# A Korean page whose <title>, og:title and <meta name="title"> all carry the site's banner;
# the headline is only in the article's heading (and, on some pages, in its JSON-LD).
BANNER = "한빛일보"
HEADLINE = "시의회, 다리 표결 연기"
KOREAN_BODY = (f"<article><h1>{HEADLINE}</h1><p>시의회는 수요일 강 다리에 대한 표결을 두 번째로 "
               "연기했다. 기술자들의 비용 산정이 끝나지 않았다는 이유다.</p><p>주민들은 우회로 "
               "때문에 또 한 번의 겨울을 보내야 한다고 말했다.</p></article>")


def korean_page(head: str, body: str = KOREAN_BODY) -> bytes:
    return (f"<html><head><meta charset='utf-8'><title>{BANNER}</title>{head}</head>"
            f"<body><header><a href='/' class='logo'>{BANNER}</a></header>{body}</body>"
            "</html>").encode()


def test_title_is_the_headline_not_the_sites_banner() -> None:
    for head in ("", f'<meta property="og:title" content="{BANNER}">',
                 f'<meta name="title" content="{BANNER}">'):
        assert ingest_bytes(korean_page(head), "page.html").title == HEADLINE


def test_json_ld_headline_is_the_title() -> None:
    data = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": HEADLINE}
    head = (f'<meta property="og:title" content="{BANNER}">'
            f'<script type="application/ld+json">{json.dumps(data)}</script>')
    body = KOREAN_BODY.replace("<h1>", "<p>").replace("</h1>", "</p>")
    assert ingest_bytes(korean_page(head, body), "page.html").title == HEADLINE
