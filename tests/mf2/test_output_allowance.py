"""The output of each unit is bounded relative to the input that produced it.

A unit (an item at any level, one rel link, the meta-item) may give at most
``output_floor_chars + max_output_ratio * span`` characters, ``span`` being the
length of its element's source span less its children's. Past it an item's
values are emptied, a rel link is left out, the meta-item's values emptied, and
``Parser.errors`` says so. Without it a long ``<base href>`` resolved by many
short links, or a chain of nested items each resolving it, made the output grow
with the square of the input; many separate bombs each just under
``max_item_chars`` made it thousands of times the input.

The spans come from the tokenizer's markup positions, which text never moves,
so they (and the reductions) are the same in every chunking, from bytes and
str, with ``stream_children``, and in the full-DOM parse (``mf2.parse_dom``).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import stream_mf2
from stream_mf2 import Parser
from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.dom import Element, Node, ParentNode
from stream_mf2.html.testing import parse_document
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.mf2 import Options, parse_dom
from stream_mf2.mf2.options import DEFAULT_MAX_OUTPUT_RATIO, DEFAULT_OUTPUT_FLOOR_CHARS
from tests.fuzz.growth import output_size
from tests.support.chunking import chunkings
from tests.support.streamed import stream_events
from tests.support.suites import REPO

URL = "http://example.com/"
ALLOWANCE = "output allowance"
OFF = {"max_output_ratio": 10**9}  # the allowance out of the way


# -- the amplifying patterns, each scaled by k (input about proportional to k) ------------


def base_rels(k: int) -> str:
    """A long <base href> resolved by many short rel links (rels and rel-urls)."""
    base = "http://e.com/" + "a" * (10_000 * k)
    return f'<base href="{base}">' + "".join(f"<a rel=me href=?{i}>x</a>" for i in range(50 * k))


def base_cards(k: int) -> str:
    """The same with h-card links (an implied url each)."""
    base = "http://e.com/" + "a" * (10_000 * k)
    return f'<base href="{base}">' + "".join(f"<a class=h-card href=?{i}>x</a>" for i in range(50 * k))


def base_chain(k: int) -> str:
    """Nested child items, each with a u-url resolved against a long base: each item's
    span holds all the items below it, so its allowance must leave its children out."""
    base = "http://e.com/" + "a" * (10_000 * k)
    return f'<base href="{base}">' + "".join(f"<div class=h-x><a class=u-url href=?{i}>x</a>" for i in range(50 * k))


def base_meta(k: int) -> str:
    """Metaformats: many og:image metas under a long base."""
    base = "http://e.com/" + "a" * (10_000 * k)
    metas = "".join(f"<meta property=og:image content=?{i}>" for i in range(50 * k))
    return f'<head><base href="{base}">{metas}</head><p>x'


BOMB = (
    "<section><ins class=item>"
    + "<mo class='dt-end h-x-y p-category'>" * 14
    + "</br>7pm"
    + "<dd class='include h-adr p-a'>" * 14
    + "</mo></ins>" * 14
    + "</section>"
)


def bombs(k: int) -> str:
    """Separate nested-property-roots bombs (1.1 KB each, ~4 MB of JSON each under max_item_chars)."""
    return BOMB * (4 * k)


def _result(doc: str, **options: Any) -> tuple[dict[str, Any], list[str]]:
    parser = Parser(URL, **options)
    events = [*parser.feed_events(doc), *parser.close_events()]
    out = {"items": stream_mf2.reassemble(events), "rels": parser.rels, "rel-urls": parser.rel_urls}
    if parser.meta_item is not None:
        out["meta-item"] = parser.meta_item
    return out, parser.errors


def _units(result: dict[str, Any], doc: str) -> int:
    """Items at every level, rel links and the meta-item: what gets an allowance."""
    count = doc.count(" rel=") + ("meta-item" in result)
    stack: list[object] = [result["items"]]
    while stack:
        obj = stack.pop()
        if isinstance(obj, dict):
            count += "type" in obj
            stack.extend(obj.values())
        elif isinstance(obj, list):
            stack.extend(obj)
    return count


PATTERNS: list[tuple[Callable[[int], str], dict[str, Any]]] = [
    (base_rels, {}),
    (base_cards, {}),
    (base_chain, {}),
    (base_meta, {"metaformats": True}),
    (bombs, {}),
]


@pytest.mark.parametrize(("pattern", "options"), PATTERNS, ids=[p.__name__ for p, _ in PATTERNS])
def test_output_is_bounded_by_the_input(pattern: Callable[[int], str], options: dict[str, Any]) -> None:
    sizes = []
    for k in (1, 2, 4):
        doc = pattern(k)
        result, errors = _result(doc, **options)
        size = output_size(result)
        sizes.append(size)
        assert any(ALLOWANCE in e for e in errors), (pattern.__name__, k)
        # the stated bound: units x floor + ratio x input (plus the keys around them)
        bound = _units(result, doc) * (DEFAULT_OUTPUT_FLOOR_CHARS + 64) + DEFAULT_MAX_OUTPUT_RATIO * len(doc)
        assert size <= bound, (pattern.__name__, k, size, bound)
    # the input doubles each time: the output at most about doubles
    for smaller, larger in itertools.pairwise(sizes):
        assert larger <= 2.5 * smaller + 1000, (pattern.__name__, sizes)


@pytest.mark.parametrize("pattern", [base_rels, base_cards, base_chain, base_meta])
def test_without_the_allowance_the_output_grows_with_the_square(pattern: Callable[[int], str]) -> None:
    # what the test above guards against (so it can fail): 4x per doubling
    options = {"metaformats": True} if pattern is base_meta else {}
    small, large = (output_size(_result(pattern(k), **OFF, **options)[0]) for k in (1, 2))
    assert large > 3.5 * small


def test_bombs_without_the_allowance_amplify_thousands_of_times() -> None:
    doc = bombs(1)
    assert output_size(_result(doc, **OFF)[0]) > 1000 * len(doc)
    assert output_size(_result(doc)[0]) < 64 * len(doc)


# -- what a reduction looks like ---------------------------------------------------------------


def test_a_reduced_item_keeps_type_and_children() -> None:
    doc = (
        "<div class=h-feed><p class=p-name>" + "n" * 300 + "</p><a class=u-url href=/feed>f</a>"
        "<div class=h-entry><p class=p-name>entry</p></div></div>"
    )
    # the feed's own span is its tags and text; its values repeat them, so a ratio of 0 and
    # a small floor reduce it, while the entry (short values) stays whole
    items = stream_mf2.parse(doc, URL, max_output_ratio=0, output_floor_chars=120)["items"]
    feed = items[0]
    assert feed["type"] == ["h-feed"]
    assert feed["properties"] == {"name": [""], "url": [""]}
    assert feed["children"] == [{"type": ["h-entry"], "properties": {"name": ["entry"]}}]
    # no implied properties on a reduced item
    doc = "<a class=h-card href=/" + "x" * 400 + ">" + "name" * 100 + "</a>"
    assert stream_mf2.parse(doc, URL, max_output_ratio=0, output_floor_chars=100)["items"] == [
        {"type": ["h-card"], "properties": {}}
    ]
    assert stream_mf2.parse(doc, URL)["items"][0]["properties"]["url"] == ["http://example.com/" + "x" * 400]


def test_a_nested_item_placed_as_a_value_is_reduced_to_its_type() -> None:
    doc = "<div class=h-entry><div class='p-author h-card'><p class=p-name>" + "a" * 400 + "</p></div></div>"
    full = stream_mf2.parse(doc, URL)["items"][0]
    assert full["properties"]["author"][0]["value"] == "a" * 400
    # the entry's own output repeats the author's name (its value and its item): past a
    # 1x ratio; the card alone is within it
    items = stream_mf2.parse(doc, URL, max_output_ratio=1, output_floor_chars=100)["items"]
    assert items[0]["properties"] == {"author": [{"value": "", "type": ["h-card"], "properties": {}}]}


def test_rel_links_past_their_allowance_are_left_out() -> None:
    long = "http://e.com/" + "b" * 2000
    doc = f"<a rel=me href={long}>me</a><a rel='me author' href='?short'>s</a>"
    parser = Parser(URL, max_output_ratio=4, output_floor_chars=64)
    parser.feed(doc)
    parser.close()
    # the long link's own href is in its span: it stays; the short one too
    assert parser.rels == {"me": [long, "http://example.com/?short"], "author": ["http://example.com/?short"]}
    assert not parser.errors
    doc = f'<base href="{long}/">' + doc.replace(long, "x")
    parser = Parser(URL, max_output_ratio=4, output_floor_chars=64)
    parser.feed(doc)
    parser.close()
    # both hrefs now resolve against a base outside their span
    assert parser.rels == {}
    assert parser.rel_urls == {}
    assert [e for e in parser.errors if ALLOWANCE in e] == [
        "2 rel link(s) left out of rels and rel-urls past their output allowance"
        " (output_floor_chars=64 + max_output_ratio=4 per source character)"
    ]


def test_rel_link_copied_attributes_count_in_its_size() -> None:
    # ratio 0: the allowance is the floor whatever the span; the links fit it but for a long title
    title = "t" * 500
    doc = f"<a rel=me href=/a title='{title}' type=text/html>a</a><a rel=me href=/b title=short type=text/html>b</a>"
    for label, chunks in chunkings(doc):
        parser = Parser(URL, max_output_ratio=0, output_floor_chars=200)
        for chunk in chunks:
            parser.feed(chunk)
        parser.close()
        assert parser.rels == {"me": ["http://example.com/b"]}, label
        assert list(parser.rel_urls) == ["http://example.com/b"]
        assert parser.rel_urls["http://example.com/b"]["title"] == "short"
    parser = Parser(URL, max_output_ratio=0, output_floor_chars=1000)
    parser.feed(doc)
    parser.close()
    assert parser.rels == {"me": ["http://example.com/a", "http://example.com/b"]}


def test_defaults_change_nothing_on_ordinary_pages() -> None:
    doc = (
        '<html lang=en><head><base href="http://example.com/blog/"><link rel=stylesheet href=s.css></head>'
        "<body><div class=h-feed><div class=h-entry><a class='p-author h-card' href=/me>"
        "<img src=me.png alt=Me> Me</a><a class=u-url href=p1>Post</a><div class=e-content><p>Hi</p></div>"
        "</div></div><a rel=me href=https://social.example/@me>me</a>"
    )
    assert stream_mf2.parse(doc, URL) == stream_mf2.parse(doc, URL, **OFF)


# -- the same answer everywhere ----------------------------------------------------------------

# small allowances, so that reductions happen (each document is changed by one of them at least)
SMALL = [{"max_output_ratio": 1, "output_floor_chars": 0}, {"max_output_ratio": 2, "output_floor_chars": 40}]

DOCS = [
    # a feed: some children and its own values past a 1x ratio, some not; rel links inside
    '<base href="http://e.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"><div class=h-feed><p class=p-name>Feed</p>'
    "<div class=h-entry><a class=u-url href=x1>a</a><a rel=me href=y1>m</a></div>"
    "<div class=h-entry><span class=p-name>a rather long name that fits its own span</span></div>"
    "<div class=h-entry><a class=u-url href=x3>c</a></div>"
    "<div class=h-entry><p class=e-content>e <b>bold</b></p></div></div><a rel=author href=z>z</a>",
    # pops triggered by text and by later tags, implied ends, EOF with open elements
    "<head class=h-x><title class=p-name>t</title>text after<div class=h-y><a class=u-url href=/"
    + "u" * 60
    + ">u</a>",
    "<table><colgroup class=h-x>x<col class=h-y><p class=h-z>after</p></table>",
    "<p class=h-x>aaa<a class=u-u href=/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb>b</a><p class=h-y>"
    + "c" * 40
    + "<ul class=h-z><li class=p-n>one<li class=p-n>two",
    # a long attribute in the start tag counts in the span (a data: URL)
    "<img class=h-card src='data:image/png;base64," + "Q" * 300 + "' alt=x><a rel=icon href='data:," + "R" * 200 + "'>i</a>",
    # text before a late <body class>/<html class>: the implied body is made inside the tentative
    # html, and the merge makes it kept (its span starts where it was made)
    "x<body class=h-e><a class=u-url href=/" + "w" * 60 + ">w</a>",
    "<p>x</p><html class=h-e><a class=u-url href=/" + "w" * 60 + ">w</a>",
    # CR LF and CR count as one character each, in every split
    "<div class=h-x>\r\n<p class=p-a>x\r\ny\r</p>\r\n<a class=u-b href=\r\n/" + "v" * 50 + ">v</a></div>",
]


def _expected(doc: str, **options: Any) -> dict[str, Any]:
    mf2 = {k: v for k, v in options.items() if k in ("max_output_ratio", "output_floor_chars", "metaformats")}
    return parse_dom(parse_document(doc), URL, Options(**mf2))


@pytest.mark.parametrize("doc", DOCS)
def test_the_small_allowances_change_each_document(doc: str) -> None:
    assert any(_expected(doc, **small) != _expected(doc) for small in SMALL)


@pytest.mark.parametrize("doc", DOCS)
@pytest.mark.parametrize("small", SMALL, ids=["1x", "2x"])
def test_equal_in_every_chunking_and_to_the_full_dom(doc: str, small: dict[str, int]) -> None:
    expected = _expected(doc, **small)
    for label, chunks in chunkings(doc):
        assert stream_events(chunks, URL, **small)[0] == expected, label
    data = doc.encode()
    for label, byte_chunks in chunkings(data, splits=False):
        assert stream_events(byte_chunks, URL, **small)[0] == expected, label
    assert stream_events([doc], URL, tokenizer_fast_path=False, **small)[0] == expected


@pytest.mark.parametrize("doc", DOCS)
@pytest.mark.parametrize("small", SMALL, ids=["1x", "2x"])
@pytest.mark.parametrize("mode", [True, frozenset({"h-feed"})], ids=["all", "h-feed"])
def test_stream_children_gives_the_same(doc: str, small: dict[str, int], mode: bool | frozenset[str]) -> None:
    expected = _expected(doc, **small)
    for label, chunks in chunkings(doc, splits=False):
        assert stream_events(chunks, URL, stream_children=mode, **small)[0] == expected, label


def test_children_really_stream_and_the_container_allowance_leaves_them_out() -> None:
    entry = "<div class=h-entry><a class=u-url href=e{i}>entry {i}</a></div>"
    doc = (
        '<base href="http://e.com/cccccccccccccccccccccccccccccccccccc/"><div class=h-feed>'
        "<a class=u-url href=feed>" + "f" * 30 + "</a>" + "".join(entry.format(i=i) for i in range(8)) + "</div>"
    )
    for options in ({"max_output_ratio": 1, "output_floor_chars": 60}, {"max_output_ratio": 0, "output_floor_chars": 90}):
        expected = _expected(doc, **options)
        parser = Parser(URL, stream_children=True, **options)
        events = [*parser.feed_events(doc), *parser.close_events()]
        streamed = [e for e in events if isinstance(e, stream_mf2.ItemEvent) and e.path is not None]
        assert len(streamed) >= 7
        assert stream_mf2.reassemble(events) == expected["items"]
    # the feed's own span (its tag and its url link) allows its url only when its children's
    # spans are left out consistently: reduced with 0x, whole with 1x
    assert _expected(doc, max_output_ratio=0, output_floor_chars=90)["items"][0]["properties"]["url"] == [""]
    feed = _expected(doc, max_output_ratio=1, output_floor_chars=60)["items"][0]
    assert feed["properties"]["url"] == ["http://e.com/cccccccccccccccccccccccccccccccccccc/feed"]


def test_metaformats_the_same_in_every_chunking() -> None:
    metas = "".join(f"<meta property=og:image content=?{i}>" for i in range(4))
    doc = '<head><base href="http://e.com/' + "m" * 100 + '/">' + metas + "<title>T</title></head><p>x"
    options = {"metaformats": True, "max_output_ratio": 1, "output_floor_chars": 90}
    expected = _expected(doc, **options)
    assert expected["meta-item"]["properties"]["photo"][0] == ""
    for label, chunks in chunkings(doc, splits=False):
        assert stream_events(chunks, URL, **options)[0] == expected, label


# -- the spans themselves ----------------------------------------------------------------------


def _elements(root: ParentNode) -> list[Element]:
    out: list[Element] = []
    stack: list[Node] = list(reversed(root.children))
    while stack:
        node = stack.pop()
        if isinstance(node, Element):
            out.append(node)
            stack.extend(reversed(node.children))
            if node.template_contents is not None:
                stack.extend(reversed(node.template_contents.children))
    return out


def _spans(root: ParentNode, doc: str) -> dict[str, str]:
    """The source text of each element with an id."""
    return {el.attrs["id"]: doc[el.source_start : el.source_end] for el in _elements(root) if "id" in el.attrs}


def test_spans_of_a_few_elements() -> None:
    attr = "data:," + "d" * 100
    doc = (
        f"<!doctype html><head id=h class=h-x>text<p id=p1 title='{attr}'>one<p id=p2>two</p>"
        "<table id=t><colgroup id=c class=h-y>x</table><div id=d>open at the end"
    )
    spans = _spans(parse_document(doc), doc)
    # head: from the end of the doctype to its own tag (text pops it, and text never counts)
    assert spans["h"] == "<head id=h class=h-x>"
    # an implied end: p1 is popped by p2's start tag; its span starts at the last markup
    # token before its own (the head tag: the text between is not a token boundary)
    assert spans["p1"] == f"text<p id=p1 title='{attr}'>one<p id=p2>"
    assert spans["p2"] == "one<p id=p2>two</p>"
    # text in a colgroup pops it: its span ends with its own tag
    assert spans["c"] == "<colgroup id=c class=h-y>"
    assert spans["t"].startswith("<table id=t>") and spans["t"].endswith("</table>")
    # open at EOF: up to the end of the input
    assert spans["d"] == "<div id=d>open at the end"


def test_spans_count_normalised_newlines() -> None:
    doc = "<div id=a>\r\n\r\n</div><p id=b>\rx\r\n</p>"
    normalised = doc.replace("\r\n", "\n").replace("\r", "\n")
    spans = _spans(parse_document(doc), normalised)
    assert spans == {"a": "<div id=a>\n\n</div>", "b": "<p id=b>\nx\n</p>"}


def _bounded_spans(chunks: list[str], fast_path: bool = True) -> dict[str, tuple[int, int]]:
    """Spans of the kept elements (those with a class) from the bounded sink."""
    done: list[Element] = []

    def complete(element: Element) -> bool:
        done.append(element)
        return False

    sink = BoundedSink(lambda el: "class" in el.attrs, complete)
    builder = TreeBuilder(sink)
    tokenizer = Tokenizer(builder, fast_path=fast_path)
    for chunk in chunks:
        tokenizer.feed(chunk)
    tokenizer.close()
    out: dict[str, tuple[int, int]] = {}
    for root in done:
        for el in (root, *_elements(root)):
            if "class" in el.attrs:
                out[el.attrs["id"]] = (el.source_start, el.source_end)
    return out


def test_bounded_sink_records_the_same_spans_as_the_full_dom_in_every_chunking() -> None:
    doc = (
        "<head id=h0 class=k>t<p id=a class=k>x<b id=b class=k>y<p id=c class=k>z</b>"
        "<table id=t class=k><tr id=r class=k><td id=d class=k>1<td id=e class=k>2</table>"
        "<a id=l class=k rel=me href=/x>l</a><img id=i class=k src=x><ul><li id=li class=k>open"
    )
    dom = parse_document(doc)
    expected = {
        el.attrs["id"]: (el.source_start, el.source_end) for el in _elements(dom) if "class" in el.attrs
    }
    assert len(expected) == 11 and all(0 <= s <= e for s, e in expected.values())
    for label, chunks in chunkings(doc):
        assert _bounded_spans(chunks) == expected, label
    # the tokenizer's state machine alone (no fast paths, no fused leaf calls) gives the same
    assert _bounded_spans([doc], fast_path=False) == expected
    assert _bounded_spans(list(doc), fast_path=False) == expected


def test_dropped_elements_get_no_span_and_hand_made_elements_none() -> None:
    seen: list[Element] = []
    sink = BoundedSink(lambda el: el.attrs.get("class") == "k", lambda el: bool(seen.append(el)) or True)
    builder = TreeBuilder(sink)
    tokenizer = Tokenizer(builder)
    tokenizer.feed("<div class=k><span>inner</span></div>")
    tokenizer.close()
    (kept,) = seen
    assert (kept.source_start, kept.source_end) == (0, 37)
    inner = kept.children[0]
    assert isinstance(inner, Element) and (inner.source_start, inner.source_end) == (-1, -1)
    assert Element("div").source_length == -1
    # a DOM without spans gets no allowance: only max_item_chars
    doc = parse_document("<a class=h-card href=/" + "x" * 200 + ">x</a>")
    for el in _elements(doc):
        el.source_start = el.source_end = -1
    items = parse_dom(doc, URL, Options(max_output_ratio=0, output_floor_chars=0))["items"]
    assert items[0]["properties"]["url"] == ["http://example.com/" + "x" * 200]


# -- options -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["max_output_ratio", "output_floor_chars"])
def test_options_are_checked(name: str) -> None:
    with pytest.raises(TypeError, match=name):
        stream_mf2.parse("<p>x", URL, **{name: "4"})  # type: ignore[misc]
    with pytest.raises(ValueError, match=name):
        stream_mf2.parse("<p>x", URL, **{name: -1})  # type: ignore[misc]
    # the compiled build's own argument check comes first there and names only the type
    with pytest.raises(TypeError):
        Parser(URL, **{name: "4"})  # type: ignore[arg-type]
    assert stream_mf2.parse("<p class=h-x>x", URL, **{name: 0})["items"]  # type: ignore[misc]


def test_cli_flags(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<a class=h-card href=/" + "x" * 200 + ">x</a>")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-m", "stream_mf2", "--max-output-ratio", "0", "--output-floor-chars", "50", str(page)],
        capture_output=True,
        timeout=120,
        env=env,
        check=True,
    )
    assert json.loads(done.stdout)["items"] == [{"type": ["h-card"], "properties": {}}]
