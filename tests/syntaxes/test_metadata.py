"""OpenGraph, Twitter cards and Dublin Core: equal to extruct's extractors on the pages and
fixtures, OpenGraph arrays and declared prefixes, delivered at the head's end, the same in
every chunking."""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from extruct.dublincore import DublinCoreExtractor
from extruct.opengraph import OpenGraphExtractor

from stream_mf2 import DocumentEnd, DublinCoreItem, OpenGraphItem, Parser
from stream_mf2.metadata import dublincore_result, opengraph_result, twitter_result
from tests.support.chunking import chunkings
from tests.syntaxes.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.html"), recursive=True))
META = {"opengraph", "twitter", "dublincore"}


def _events(chunks: list[str] | list[bytes], **options: Any) -> list[object]:
    parser = Parser(syntaxes=META, **options)
    events = [e for chunk in chunks for e in parser.feed_events(chunk)]
    return events + parser.close_events()


def _tree(html: str | bytes) -> Any:
    return lxml.html.fromstring(html, parser=lxml.html.HTMLParser(encoding="UTF-8"))


@pytest.mark.parametrize("name", sorted(PAGES))
def test_opengraph_equal_to_extruct(name: str) -> None:
    html = PAGES[name]
    expected = list(OpenGraphExtractor().extract_items(_tree(html)))
    assert opengraph_result(_events([html])) == expected


@pytest.mark.parametrize("name", sorted(PAGES))
def test_dublincore_equal_to_extruct(name: str) -> None:
    html = PAGES[name]
    expected = list(DublinCoreExtractor().extract_items(_tree(html)))
    assert dublincore_result(_events([html])) == expected


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: Path(p).name)
def test_fixture_pages_equal_extruct(path: str) -> None:
    data = Path(path).read_bytes()
    events = _events([data], encoding="utf-8")
    assert opengraph_result(events) == list(OpenGraphExtractor().extract_items(_tree(data)))
    assert dublincore_result(events) == list(DublinCoreExtractor().extract_items(_tree(data)))


def test_opengraph_arrays_and_prefixes() -> None:
    (og,) = [e for e in _events([PAGES["wordpress-post"]]) if type(e) is OpenGraphItem]
    images = [v for k, v in og.properties if k == "og:image"]
    assert images == [
        "https://blog.example.com/wp-content/uploads/hero.jpg",
        "https://blog.example.com/wp-content/uploads/diagram.png",
        "",
    ]
    assert [v for k, v in og.properties if k == "article:tag"] == ["hosting", "static sites"]
    # the declared og IRI is replaced by OpenGraph's own, as extruct does
    assert og.namespace == {"og": "http://ogp.me/ns#", "article": "http://ogp.me/ns/article#"}
    (shop,) = [e for e in _events([PAGES["shop-product"]]) if type(e) is OpenGraphItem]
    assert shop.namespace["fb"] == "http://ogp.me/ns/fb#"
    assert ("fb:app_id", "1234567890") in shop.properties
    # twitter: was not declared as a prefix: not OpenGraph
    assert not [k for k, _ in shop.properties if k.startswith("twitter:")]


def test_twitter_cards() -> None:
    assert twitter_result(_events([PAGES["wordpress-post"]])) == [
        {
            "properties": [
                ("twitter:card", "summary_large_image"),
                ("twitter:site", "@exampleblog"),
                ("twitter:label1", "Written by"),
                ("twitter:data1", "Ada"),
            ]
        }
    ]
    # property= and value= as some pages write them
    assert twitter_result(_events([PAGES["shop-product"]])) == [
        {"properties": [("twitter:card", "product"), ("twitter:title", "Wanderschuh Alpin")]}
    ]


def test_dublin_core_in_two_parts() -> None:
    events = _events([PAGES["news-dublin-core"]])
    parts = [e for e in events if type(e) is DublinCoreItem]
    assert len(parts) == 2
    head, body = parts
    assert head.namespaces == {"DC": "http://purl.org/dc/elements/1.1/", "DCTERMS": "http://purl.org/dc/terms/"}
    assert [e["name"] for e in head.elements[: len(head.elements) - head.link_elements]][:2] == [
        "DC.title",
        "DC.creator",
    ]
    assert body.elements == [
        {"name": "DC.publisher", "content": "Le Journal SA", "URI": "http://purl.org/dc/elements/1.1/publisher"}
    ]
    # the head's part comes as the body starts, before anything of the body
    assert events.index(head) < events.index(body) and type(events[-1]) is DocumentEnd


def test_head_inside_a_kept_subtree() -> None:
    # <html class="h-entry"> keeps the whole document for mf2: the head is found inside it.
    html = '<html class="h-entry"><head><meta property="og:title" content="x"></head><body><p class="p-name">n</p>'
    parser = Parser(syntaxes={"mf2", "opengraph"})
    events = parser.feed_events(html) + parser.close_events()
    assert opengraph_result(events) == [{"namespace": {"og": "http://ogp.me/ns#"}, "properties": [("og:title", "x")]}]


def test_meta_after_head_end_is_in_head() -> None:
    # WHATWG: a <meta> between </head> and <body> goes into the head (libxml2 puts it in the body).
    html = '<head><meta property="og:a" content="1"></head>\n<meta property="og:b" content="2"><body><p>x'
    (og,) = [e for e in _events([html]) if type(e) is OpenGraphItem]
    assert og.properties == [("og:a", "1"), ("og:b", "2")]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_chunking(name: str) -> None:
    html = PAGES[name]
    whole = _events([html])
    for label, chunks in chunkings(html, splits=False):
        assert _events(chunks) == whole, label
    for label, byte_chunks in chunkings(html.encode(), splits=False):
        got = _events(byte_chunks, encoding="utf-8")
        assert got[:-1] == whole[:-1], label


def test_two_and_three_way_splits() -> None:
    html = PAGES["news-dublin-core"][:900]
    whole = _events([html])
    assert any(type(e) is DublinCoreItem for e in whole)
    for label, chunks in chunkings(html):
        assert _events(chunks) == whole, label
