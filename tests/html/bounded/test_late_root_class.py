"""An h-* class on a late ``<body>`` or ``<html>`` (attributes merged into the existing element).

HTML "in body", start tag ``body``/``html``: the attributes of a second tag are
added to the element already there. The bounded sink asks the keep predicate
again after the merge, and keeps the content an ``html``/``body`` held before it
(up to ``max_prefix_nodes``, until the first kept element), so the result equals
the full-DOM parse (``mf2.parse_dom``) in every chunking. Past the budget the early
content is gone and ``Parser.errors`` says so.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2 import Parser
from stream_mf2.html.dom import Element
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support.chunking import chunkings
from tests.support.streamed import stream_events

URL = "http://example.com/"

ISSUE = [
    '<html><head><title>t</title><img src=/pixel.gif></head><body class="h-entry"><p class="p-name">Hello</p>'
    "</body></html>",
    '<html><head><title>t</title></head><p>x</p><body class="h-feed"><div class=h-entry>e</div></body></html>',
    '<p>x</p><html class="h-card"><span class=p-name>n</span>',
]

MORE = [
    # text before the merge is part of the implied name
    'stray <body class="h-card">Tom</body>',
    # both merged: html becomes the root, body a nested one
    '<p>x<body class="h-entry"><html class="h-feed"><b class=p-name>n</b>',
    # html first, then body: body is nested inside the html item
    '<p>a</p><html class="h-feed"><body class="h-entry"><a class=u-url href=/e>e</a>',
    # a merge that adds nothing new, and a class that is no root
    '<body class="x"><p>1</p><body class="h-entry"><p class=p-name>2</p>',
    '<p>1<body class="h-entry" id=b><body class="h-card"><span class=p-name>2</span>',
    # rels inside the promoted body
    '<p>x</p><body class="h-card"><a rel=author href=/a class=u-url>a</a><a rel=me href=/me>me</a>',
    # a table and misnested formatting in the early content
    '<table><tr><td>c</td></tr></table><b>1<p>2</b>3<body class="h-entry"><i class=p-name>n</i>',
    # frameset after the early content replaces the body
    '<div></div><body class="h-entry"><frameset></frameset>',
    '<frameset><body class="h-entry">',
    # a template in the early content
    '<template><p>t</p></template><body class="h-entry"><p class=p-name>n</p>',
    # lang merged into html is seen by items after it
    '<p>x<html lang=fr><div class=h-card><span class=p-name>n</span></div>',
]


def _stream(chunks: list[str] | list[bytes], **options: Any) -> dict[str, Any]:
    return stream_events(chunks, URL, **options)[0]


def _full_dom(doc: str, **options: Any) -> dict[str, Any]:
    return parse_dom(parse_document(doc), URL, Options(**options))


@pytest.mark.parametrize("doc", ISSUE + MORE)
def test_late_root_class_equals_full_dom_in_every_chunking(doc: str) -> None:
    expected = orjson.dumps(_full_dom(doc))
    assert orjson.dumps(stream_mf2.parse(doc, URL)) == expected
    for label, chunks in chunkings(doc):
        assert orjson.dumps(_stream(chunks)) == expected, label
    data = doc.encode()
    for label, byte_chunks in chunkings(data, splits=False):
        assert orjson.dumps(_stream(byte_chunks)) == expected, f"bytes {label}"


@pytest.mark.parametrize("doc", ISSUE + MORE)
@pytest.mark.parametrize("mode", [True, frozenset({"h-feed"})])
def test_late_root_class_with_stream_children(doc: str, mode: bool | frozenset[str]) -> None:
    expected = orjson.dumps(stream_mf2.parse(doc, URL))
    for label, chunks in chunkings(doc, splits=False):
        assert orjson.dumps(_stream(chunks, stream_children=mode)) == expected, label


def test_issue_examples_give_the_items() -> None:
    first = stream_mf2.parse(ISSUE[0], URL)["items"]
    assert first == [
        {"type": ["h-entry"], "properties": {"name": ["Hello"], "photo": ["http://example.com/pixel.gif"]}}
    ]
    feed = stream_mf2.parse(ISSUE[1], URL)["items"]
    assert [i["type"] for i in feed] == [["h-feed"]]
    assert feed[0]["children"][0]["type"] == ["h-entry"]
    assert stream_mf2.parse(ISSUE[2], URL)["items"][0]["type"] == ["h-card"]


def test_metaformats_on_equals_full_dom() -> None:
    for doc in ISSUE:
        expected = _full_dom(doc, metaformats=True)
        got = stream_mf2.parse(doc, URL, metaformats=True)
        assert got["items"] == expected["items"], doc


def _noted(parser: Parser) -> bool:
    return any("became an item root" in e for e in parser.errors)


@pytest.mark.parametrize("n", [1, 30, 100])
def test_past_max_prefix_nodes_the_early_content_is_dropped_and_noted(n: int) -> None:
    doc = "<img src=/pixel.gif>" + "<span>s</span>" * n + '<body class="h-entry"><p class=p-name>Hello</p>'
    full = _full_dom(doc)
    for label, chunks in chunkings(doc, splits=False):
        parser = Parser(URL, max_prefix_nodes=20)
        items = []
        for c in chunks:
            items.extend(parser.feed(c))
        items.extend(parser.close())
        if n < 15:  # head, body, img and n spans (text is counted in characters): within it
            assert items == full["items"], label
            assert not _noted(parser)
        else:
            # the item is there, from the merge on (no implied photo: the img is gone)
            assert items == [{"type": ["h-entry"], "properties": {"name": ["Hello"]}}], label
            assert _noted(parser), label


def test_text_budget() -> None:
    doc = "x" * 5000 + '<body class="h-card"><p class=p-name>n</p>'
    parser = Parser(URL, max_prefix_nodes=10)  # 640 characters of text
    items = parser.feed(doc) + parser.close()
    assert items == [{"type": ["h-card"], "properties": {"name": ["n"]}}]
    assert _noted(parser)
    assert stream_mf2.parse(doc, URL) == _full_dom(doc)  # default budget: 512 x 64 characters


def test_a_kept_element_first_ends_the_early_content() -> None:
    # The h-card is handed over at once (never held for the body); the body's
    # later root class then covers only what follows, with a note.
    doc = '<p>1</p><div class=h-card>c</div><body class="h-entry"><p class=p-name>2</p>'
    parser = Parser(URL)
    first = parser.feed(doc[: doc.index("<body")])
    assert [i["type"] for i in first] == [["h-card"]]
    rest = parser.feed(doc[doc.index("<body") :]) + parser.close()
    assert [i["type"] for i in rest] == [["h-entry"]]
    assert _noted(parser)


def test_early_content_is_released_when_the_body_ends() -> None:
    from stream_mf2.html.bounded import BoundedSink
    from stream_mf2.html.testing.tree import build

    got: list[str] = []

    def complete(el: Element) -> bool:
        got.append(el.name)
        return True

    sink = BoundedSink(lambda el: "h-x" in el.attrs.get("class", ""), complete)
    build(["<p>" + "<i>x</i>" * 50 + "</p>"], sink, None)
    assert got == []
    assert sink.tracked <= 2  # html and head
    assert sink.kept_nodes == 0
    assert sink.open_inside == 0


def test_a_rel_link_first_is_handed_over_and_the_merge_noted() -> None:
    # A rel link is kept: the early content ends there (the link's rel is final at
    # once); the body's name then lacks the link's text, which the note says.
    doc = '<a rel=me href=/me>me</a><body class="h-card"><a rel=author href=/a class=u-url>a</a>'
    for label, chunks in chunkings(doc, splits=False):
        parser = Parser(URL)
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert items == [{"type": ["h-card"], "properties": {"url": ["http://example.com/a"], "name": ["a"]}}], label
        assert parser.rels == _full_dom(doc)["rels"]
        assert _noted(parser), label


@pytest.mark.parametrize(
    "doc",
    [
        # the h-feed container is open (its children may already be streamed) when
        # the body gets its root class: the class is not applied, in both modes
        '<div class="h-feed"><div class=h-entry>a</div><span class="h-card">c<body class="h-feed">'
        "<div class=h-entry>b</div></span></div>",
        '<div class="h-feed"><col class="h-feed"><pre><form rel="tag" href="/t"><caption><svg class="h-feed">'
        '</tbody>text </font><noscript><nobr></dt></col><img class="h-card"></h1><body class="h-feed"></table>'
        '&amp;<template rel="tag" href="/t"><h1 rel="me" href="/m"><area></tr>x<img><h1></dt>'
        '<span class="h-card"></noscript>',
    ],
)
def test_a_merge_while_items_are_open_is_refused_and_noted(doc: str) -> None:
    expected = orjson.dumps(stream_mf2.parse(doc, URL))
    for mode in (True, frozenset({"h-feed"})):
        for label, chunks in chunkings(doc, splits=False):
            assert orjson.dumps(_stream(chunks, stream_children=mode)) == expected, f"{label} {mode}"
    parser = Parser(URL)
    parser.feed(doc + '<body class="h-entry">' * 50)
    parser.close()
    assert sum("the class was not applied" in e for e in parser.errors) == 1
