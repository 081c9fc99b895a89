"""Records and their JSON-LD (issue 25, item 10) on realistic templates and pages.

A record shop's label listing (URL captures, a repeatable row with nested captures and a
nested repeatable, an RDF description about the page), a news article (a typed RDF node
naming schema.org properties, concepts beside it) and a forum thread (posts, nested
repeatables, users with ids). The JSON-LD is read back by rdflib's JSON-LD parser and
checked as triples; records and JSON-LD are the same in every chunking of the page.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.wpt import collect_pages, load, merge_by_id, records
from stream_mf2.wpt.jsonld import default_vocab, page_jsonld
from tests.support import chunking

rdflib = pytest.importorskip("rdflib")

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
DC = "http://purl.org/dc/elements/1.1/"
SDO = "https://schema.org/"

SHOP_WPT = f"""<?xml version="1.0" encoding="UTF-8"?>
<ow:wpt {OW} xmlns:rdf="{RDF}" xmlns:dc="{DC}" ow:host="https://vinyl.example">
  <ow:template ow:name="Label listing" ow:ontology="shop"
      ow:url="https://vinyl.example/label/(label.id[[a-z0-9-]+])?page=(page.number[[0-9]+])">
    <ow:block ow:xpath="/html/body/header/h1">label.name</ow:block>
    <ow:block ow:tagid="intro">
      <rdf:Description rdf:about=""><dc:description/><dc:language>en</dc:language></rdf:Description>
    </ow:block>
    <ow:block ow:xpath='//*[@id="stock"]/tbody/tr' ow:type="repeatable">
      record
      <ow:block ow:xpath="td[1]/a/@href" ow:pattern="/r/(record.id[[0-9]+])">record.link</ow:block>
      <ow:block ow:xpath="td[1]">record.title</ow:block>
      <ow:block ow:xpath="td[2]" ow:pattern="(record.year[[0-9]{{4}}])">record.year</ow:block>
      <ow:block ow:xpath="td[3]" ow:pattern="(record.price[[0-9]+\\.[0-9]{{2}}]) (record.currency[[A-Z]{{3}}])">record.price</ow:block>
      <ow:block ow:xpath="td[4]/a" ow:type="repeatable">record.artist</ow:block>
    </ow:block>
  </ow:template>
  <ow:ontology ow:name="shop">
    <ow:concept ow:name="label"><ow:has>name</ow:has><ow:has>record</ow:has></ow:concept>
    <ow:concept ow:name="record"><ow:inherit>product</ow:inherit><ow:has>title</ow:has><ow:has>year</ow:has>
      <ow:has>artist</ow:has><ow:has>link</ow:has></ow:concept>
    <ow:concept ow:name="product"><ow:has>price</ow:has><ow:has>currency</ow:has></ow:concept>
    <ow:concept ow:name="page"><ow:has>number</ow:has></ow:concept>
  </ow:ontology>
</ow:wpt>"""

SHOP_URL = "https://vinyl.example/label/blue-note?page=2"
SHOP_PAGE = """<!DOCTYPE html>
<html lang=en><head><meta charset=utf-8><title>Blue Note &mdash; Vinyl Example</title>
<link rel=stylesheet href=/s.css></head>
<body>
<header><nav><a href=/>Home</a> | <a href=/labels>Labels</a></nav><h1>Blue Note</h1></header>
<p id=intro>Hard bop and beyond: <b>original pressings</b> &amp; reissues.</p>
<table id=stock class="wp-list-table">
<thead><tr><th>Title<th>Year<th>Price<th>Artists</tr></thead>
<tr><td><a href="/r/1501">Blue Train</a><td>1958<td>34.00 EUR<td><a href=/a/coltrane>John Coltrane</a>
<tr class=alt><td><a href="/r/1595">Somethin' Else</a><td>released 1958<td>29.50 EUR<td><a href=/a/adderley>Cannonball Adderley</a>, <a href=/a/davis>Miles Davis</a>
<tr><td><a href="/r/4003">Moanin'</a><td>1959<td>27.00 EUR<td><a href=/a/blakey>Art Blakey</a>
</table>
<footer><p>&copy; 2024 Vinyl Example</p></footer>
</body></html>
"""

NEWS_WPT = f"""<?xml version="1.0" encoding="UTF-8"?>
<ow:wpt {OW} xmlns:rdf="{RDF}" xmlns:schema="{SDO}" ow:host="news.example">
  <ow:template ow:name="Story" ow:url="https://news.example/(story.section[[a-z]+])/(story.year[[0-9]{{4}}])/(story.slug[[a-z0-9-]+])" ow:ontology="news">
    <ow:block ow:xpath="//article/header/h1">
      <schema:NewsArticle xml:lang="en"><schema:headline/><schema:publisher rdf:resource="https://news.example/"/></schema:NewsArticle>
    </ow:block>
    <ow:block ow:xpath="//article/header//a[@rel='author']">
      <rdf:Description><schema:author/></rdf:Description>
    </ow:block>
    <ow:block ow:xpath="//article/header/time/@datetime">story.published</ow:block>
    <ow:block ow:xpath="//div[contains(@class, 'entry-content')]/p" ow:type="repeatable">story.paragraph</ow:block>
    <ow:block ow:xpath="//ul[@class='tags']/li/a" ow:type="repeatable">
      <rdf:Description><schema:name/></rdf:Description>
    </ow:block>
  </ow:template>
  <ow:ontology ow:name="news">
    <ow:concept ow:name="story"><ow:has>section</ow:has><ow:has>year</ow:has><ow:has>slug</ow:has>
      <ow:has>published</ow:has><ow:has>paragraph</ow:has></ow:concept>
  </ow:ontology>
</ow:wpt>"""

NEWS_URL = "https://news.example/world/2024/harbour-reopens"
NEWS_PAGE = """<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Harbour reopens after storm | News Example</title>
<meta property="og:type" content="article"><script>window.dataLayer=[];</script></head>
<body class="single single-post">
<div id="page"><header id="masthead"><a href="/">News Example</a></header>
<main id="primary"><article id="post-9812" class="post-9812 post type-post">
<header class="entry-header"><h1 class="entry-title">Harbour reopens after storm</h1>
<time datetime="2024-03-02T08:15:00Z">2 March</time> by <a rel="author" href="/author/mwong">Mei Wong</a></header>
<div class="entry-content"><p>The harbour reopened on Saturday.<p>Ferries resume <em>on Monday</em>.</p>
<figure><img src=/h.jpg alt=""><figcaption>The quay</figcaption></figure></div>
<footer><ul class="tags"><li><a href="/tag/ports">ports</a><li><a href="/tag/weather">weather</a></ul></footer>
</article></main></div></body></html>
"""

FORUM_WPT = f"""<ow:wpt {OW} ow:host="https://forum.example">
<ow:template ow:name="thread" ow:url="https://forum.example/t/(thread.id[[0-9]+])" ow:ontology="forum">
  <ow:block ow:xpath="//h2[@class='topic-title']/a">thread.title</ow:block>
  <ow:block ow:xpath="//div[contains(@class, 'post ')]" ow:type="repeatable">post
    <ow:block ow:xpath=".//a[@class='username']">post.author</ow:block>
    <ow:block ow:xpath=".//a[@class='username']/@href" ow:pattern="u=(user.id[[0-9]+])">user</ow:block>
    <ow:block ow:xpath=".//div[@class='content']">post.text</ow:block>
    <ow:block ow:xpath=".//li" ow:type="repeatable">post.item</ow:block>
  </ow:block>
  <ow:block ow:xpath="//span[@class='tag']" ow:type="repeatable">thread.tag</ow:block>
</ow:template>
<ow:ontology ow:name="forum">
  <ow:concept ow:name="thread"><ow:has>title</ow:has><ow:has>post</ow:has><ow:has>tag</ow:has></ow:concept>
  <ow:concept ow:name="post"><ow:has>author</ow:has><ow:has>text</ow:has><ow:has>item</ow:has></ow:concept>
  <ow:concept ow:name="user"/>
</ow:ontology></ow:wpt>"""

FORUM_URL = "https://forum.example/t/7"
FORUM_PAGE = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN">
<html><head><title>Belts - Tape decks</title></head><body id="phpbb">
<h2 class=topic-title><a href=/t/7>Belts</a></h2>
<div class="post bg1"><a class=username href="/u?u=118">reelfan</a><div class=content>Wow is worse.<ul><li>one<li>two</ul></div></div>
<div class="post bg2"><a class=username href="/u?u=52">capman</a><div class=content>Replace the roller.</div></div>
<span class=tag>tape</span> <span class=tag>akai</span>
</body></html>"""


def _graph(doc: dict[str, Any]) -> Any:
    return rdflib.Graph().parse(data=json.dumps(doc), format="json-ld")


def _values(g: Any, subject: Any, prop: str) -> set[str]:
    return {str(o) for o in g.objects(subject, rdflib.URIRef(prop))}


def _page(wpt_xml: str, html: str, url: str) -> tuple[Any, dict[str, Any]]:
    wpt = load(wpt_xml)
    assert wpt.warnings == ()
    (page,) = parse(html, url, wpt=wpt)["wpt"]
    return wpt, page


def test_record_shop_listing_records() -> None:
    _, page = _page(SHOP_WPT, SHOP_PAGE, SHOP_URL)
    recs = records(page)
    assert recs[0]["data"] == {"label": {"id": "blue-note", "name": "Blue Note"}, "page": {"number": "2"}}
    assert recs[0]["host"] == "https://vinyl.example"
    rows = [r["data"]["record"] for r in recs if r["block"] == "2"]
    assert [(r["id"], r["title"], r["year"], r["price"], r["currency"]) for r in rows] == [
        ("1501", "Blue Train", "1958", "34.00", "EUR"),
        ("1595", "Somethin' Else", "1958", "29.50", "EUR"),
        ("4003", "Moanin'", "1959", "27.00", "EUR"),
    ]
    # the nested repeatable artists are records of their own, after their row
    assert [(r["block"], r["data"]) for r in recs[2:5]] == [
        ("2.4", {"record": {"artist": "John Coltrane"}}),
        ("2", recs[3]["data"]),
        ("2.4", {"record": {"artist": "Cannonball Adderley"}}),
    ]


def test_record_shop_listing_jsonld() -> None:
    wpt, page = _page(SHOP_WPT, SHOP_PAGE, SHOP_URL)
    doc = page_jsonld(page, wpt)
    vocab, ids = default_vocab("https://vinyl.example", "shop")
    assert doc["@context"]["@vocab"] == vocab == "https://vinyl.example/wpt/shop#"
    g = _graph(doc)
    label = rdflib.URIRef(ids + "label/blue-note")
    assert (label, rdflib.RDF.type, rdflib.URIRef(vocab + "label")) in g
    assert _values(g, label, vocab + "name") == {"Blue Note"}
    # the label has records (ontology: label ow:has record), each the row's node with its id
    held = {str(o) for o in g.objects(label, rdflib.URIRef(vocab + "record"))}
    assert held == {ids + "record/1501", ids + "record/1595", ids + "record/4003"}
    second = rdflib.URIRef(ids + "record/1595")
    assert (second, rdflib.RDF.type, rdflib.URIRef(vocab + "record")) in g
    assert _values(g, second, vocab + "price") == {"29.50"}
    assert _values(g, second, vocab + "currency") == {"EUR"}
    # the nested repeatable's matches add to their row's node
    assert _values(g, second, vocab + "artist") == {"Cannonball Adderley", "Miles Davis"}
    # the RDF description about the page: the empty property gets the match, the other is stated
    me = rdflib.URIRef(SHOP_URL)
    assert _values(g, me, DC + "description") == {"Hard bop and beyond: original pressings & reissues."}
    assert _values(g, me, DC + "language") == {"en"}


def test_news_article_rdf_description_names_schema_org_properties() -> None:
    wpt, page = _page(NEWS_WPT, NEWS_PAGE, NEWS_URL)
    recs = records(page)
    assert recs[0]["data"] == {
        "story": {"section": "world", "year": "2024", "slug": "harbour-reopens", "published": "2024-03-02T08:15:00Z"}
    }
    assert [r["data"] for r in recs[1:]] == [
        {"story": {"paragraph": "The harbour reopened on Saturday."}},
        {"story": {"paragraph": "Ferries resume on Monday."}},
    ]
    doc = page_jsonld(page, wpt, vocab=SDO)
    g = _graph(doc)
    me = rdflib.URIRef(NEWS_URL)
    assert (me, rdflib.RDF.type, rdflib.URIRef(SDO + "NewsArticle")) in g
    assert set(g.objects(me, rdflib.URIRef(SDO + "headline"))) == {rdflib.Literal("Harbour reopens after storm")}
    assert _values(g, me, SDO + "author") == {"Mei Wong"}
    assert _values(g, me, SDO + "publisher") == {"https://news.example/"}
    # each tag of the repeatable block is a node of its own with the described property
    tags = {str(o) for s in g.subjects(rdflib.URIRef(SDO + "name"), None) for o in g.objects(s, rdflib.URIRef(SDO + "name"))}
    assert tags == {"ports", "weather"}
    # the concepts: one story node, the paragraphs merged into it (same concept), in the given vocabulary
    (story,) = g.subjects(rdflib.RDF.type, rdflib.URIRef(SDO + "story"))
    assert _values(g, story, SDO + "paragraph") == {"The harbour reopened on Saturday.", "Ferries resume on Monday."}
    assert _values(g, story, SDO + "section") == {"world"}


def test_forum_thread_jsonld_nests_as_the_ontology_says() -> None:
    wpt, page = _page(FORUM_WPT, FORUM_PAGE, FORUM_URL)
    doc = page_jsonld(page, wpt, ids="https://forum.example/id/")
    (thread,) = (n for n in doc["@graph"] if n.get("@type") == "thread")
    assert thread["@id"] == "https://forum.example/id/thread/7"
    assert thread["tag"] == ["tape", "akai"]  # thread.tag rows add to the thread
    assert [p["author"] for p in thread["post"]] == ["reelfan", "capman"]  # thread ow:has post
    assert thread["post"][0]["item"] == ["one", "two"]  # post.item rows add to their post
    users = [n for n in doc["@graph"] if n.get("@type") == "user"]
    assert [u["@id"] for u in users] == ["https://forum.example/id/user/118", "https://forum.example/id/user/52"]
    g = _graph(doc)
    assert len(set(g.subjects(rdflib.RDF.type, rdflib.URIRef(doc["@context"]["@vocab"] + "post")))) == 2


def test_a_template_alone_or_no_template_gives_the_records_only() -> None:
    wpt, page = _page(SHOP_WPT, SHOP_PAGE, SHOP_URL)
    names = {"vocab": "https://vinyl.example/v#", "ids": "https://vinyl.example/id/"}
    alone = page_jsonld(page, wpt.templates[0], **names)
    bare = page_jsonld(page, **names)
    assert page_jsonld(page)["@context"]["@vocab"] == "https://vinyl.example/wpt/concepts#"  # no ontology name
    # no ontology: the rows are not placed under the label, and no RDF description is read
    assert [n.get("@type") for n in bare["@graph"]] == ["label", "page", "record", "record", "record"]
    assert alone["@graph"] == bare["@graph"] + [
        {"@id": SHOP_URL, f"{DC}description": "Hard bop and beyond: original pressings & reissues.", f"{DC}language": "en"}
    ]


@pytest.mark.parametrize(
    ("wpt_xml", "html", "url"),
    [(SHOP_WPT, SHOP_PAGE, SHOP_URL), (NEWS_WPT, NEWS_PAGE, NEWS_URL), (FORUM_WPT, FORUM_PAGE, FORUM_URL)],
    ids=["shop", "news", "forum"],
)
def test_records_and_jsonld_are_the_same_in_every_chunking(wpt_xml: str, html: str, url: str) -> None:
    wpt = load(wpt_xml)
    data = html.encode("utf-8")
    (want,) = parse(data, url, wpt=wpt)["wpt"]
    want_records, want_jsonld = records(want), page_jsonld(want, wpt)
    assert len(want_records) > 1
    for label, chunks in chunking.chunkings(data, splits=False):
        parser = Parser(url, wpt=wpt)
        events = [e for c in chunks for e in parser.feed_events(c)] + parser.close_events()
        (page,) = collect_pages(events)
        assert records(page) == want_records, label
        assert page_jsonld(page, wpt) == want_jsonld, label
    for label, chunks in chunking.two_way(data):
        parser = Parser(url, wpt=wpt)
        events = [e for c in chunks for e in parser.feed_events(c)] + parser.close_events()
        assert records(collect_pages(events)[0]) == want_records, label


def test_ids_merge_within_one_site_only() -> None:
    tpl = """<ow:wpt {ow} ow:host="{host}"><ow:template ow:name="A" ow:url="{host}/ar-(artist.id[[0-9]+])">
      <ow:block ow:xpath="//h1">artist.name</ow:block>
      <ow:block ow:xpath="//p[@class='by']/a/@href" ow:pattern="u(artist.editor.id[[0-9]+])">artist.editor.url</ow:block>
      </ow:template></ow:wpt>"""
    one = load(tpl.format(ow=OW, host="https://a.example"))
    two = load(tpl.format(ow=OW, host="https://b.example"))
    html = '<h1>{}</h1><p class=by><a href="/u5">ed</a></p>'
    pages = [
        parse(html.format("Nina Simone"), "https://a.example/ar-42", wpt=one)["wpt"][0],
        parse(html.format("Nina"), "https://a.example/ar-42", wpt=one)["wpt"][0],
        parse(html.format("Someone else"), "https://b.example/ar-42", wpt=[one, two])["wpt"][0],
    ]
    objects = merge_by_id(r for p in pages for r in records(p))
    by_key = {(o["host"], o["concept"], o["id"]): o["object"] for o in objects}
    assert by_key[("https://a.example", "artist", "42")]["name"] == ["Nina Simone", "Nina"]
    assert by_key[("https://b.example", "artist", "42")]["name"] == "Someone else"
    # a nested object with an id (artist.editor.id) is merged too, under its own concept
    assert by_key[("https://a.example", "editor", "5")] == {"id": "5", "url": "/u5"}
    assert len(objects) == 4


class _Counted(str):
    """A value that counts the equality tests made on it (how a list search costs)."""

    tests = 0

    def __eq__(self, other: object) -> bool:
        _Counted.tests += 1
        return str.__eq__(self, other)

    def __hash__(self) -> int:
        return str.__hash__(self)


def _tag_page(n: int) -> dict[str, Any]:
    """The forum page object with ``n`` tags (a repeatable ``thread.tag`` block), values counted."""
    wpt = load(FORUM_WPT)
    (page,) = parse("<h2 class=topic-title><a>Belts</a></h2><span class=tag>x</span>", FORUM_URL, wpt=wpt)["wpt"]
    (match,) = page["blocks"][2]["matches"]
    page["blocks"][2]["matches"] = [{**match, "text": _Counted(f"tag {i}")} for i in range(n)]
    return page


def test_many_values_of_one_concept_cost_linear_comparisons() -> None:
    """Records and JSON-LD gather n values of one concept with O(n) equality tests, not O(n²)."""
    wpt = load(FORUM_WPT)
    counts = []
    for n in (500, 1000, 2000):
        page = _tag_page(n)
        _Counted.tests = 0
        recs = records(page)
        doc = page_jsonld(page, wpt)
        merge_by_id(recs)
        counts.append(_Counted.tests)
        (thread,) = (node for node in doc["@graph"] if node.get("@type") == "thread")
        assert len(thread["tag"]) == n
    assert counts[1] <= 2.2 * counts[0] + 10 and counts[2] <= 2.2 * counts[1] + 10, counts
