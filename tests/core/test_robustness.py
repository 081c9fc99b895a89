"""Hostile and broken input: deep nesting, huge pages, broken URLs and bytes, limits, EOF.

The contract checked here: for any input the parser returns a result or raises
a :class:`~stream_mf2.errors.StreamMF2Error` subclass, never anything else;
nothing recurses on input depth; a limit is reported as
:class:`~stream_mf2.errors.LimitExceeded` naming itself, after which the
parser refuses further input with :class:`~stream_mf2.errors.ParserStateError`.
No timing assertions (``bench/scaling.py`` measures time).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stream_mf2 import LimitExceeded, Parser, ParserStateError, StreamMF2Error, parse
from tests.support.chunking import chunkings

BASE = "http://example.com/"
Item = dict[str, Any]


def _feed_all(chunks: list[bytes], **options: Any) -> tuple[list[Item], Parser]:
    parser = Parser(BASE, **options)
    items: list[Item] = []
    for chunk in chunks:
        items.extend(parser.feed(chunk))
    items.extend(parser.close())
    return items, parser


def _chain(item: Item, key: str) -> Iterator[Item]:
    """Follow the first nested item under ``children`` or property ``key``, iteratively."""
    while True:
        yield item
        nested = item.get("children") if key == "children" else item["properties"].get(key)
        if not nested:
            return
        item = nested[0]


@contextmanager
def _shallow_stack(headroom: int = 120) -> Iterator[None]:
    """Allow only ``headroom`` more Python frames: anything recursing on input depth fails."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + headroom)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


# -- depth --------------------------------------------------------------------------
def test_items_nested_1000_deep_as_children() -> None:
    doc = b'<div class="h-card"><span class="p-name">n</span>' * 1000 + b"</div>" * 1000
    items, _ = _feed_all([doc[i : i + 7] for i in range(0, len(doc), 7)])
    assert len(items) == 1
    chain = list(_chain(items[0], "children"))
    assert len(chain) == 1000
    assert all(i["type"] == ["h-card"] and i["properties"]["name"] == ["n"] for i in chain)


def test_items_nested_1000_deep_as_properties() -> None:
    doc = b'<div class="h-entry">' + b'<div class="p-author h-card">' * 999 + b"x" + b"</div>" * 1000
    items, _ = _feed_all([doc])
    chain = list(_chain(items[0], "author"))
    assert len(chain) == 1000
    assert chain[-1] == {"value": "x", "type": ["h-card"], "properties": {"name": ["x"]}}
    # no implied name where there are nested microformats; a p-* item's value is then its text
    assert all(set(link["properties"]) == {"author"} for link in chain[:-1])
    assert all(link["value"] == "x" for link in chain[1:])


def test_nothing_recurses_on_depth() -> None:
    """2,000 levels of items, markup inside e-*, text, VCP and include parts, on a tiny stack."""
    deep_html = b"<b><i>" * 1500 + b"t" + b"</i></b>" * 1500
    doc = (
        b'<div class="h-entry"><div class="e-content">' + deep_html + b"</div>"
        b'<p class="p-summary">' + deep_html + b"</p>"
        b'<span class="dt-start">'
        + b"<span>" * 1000
        + b'<span class="value">2020-01-01</span>'
        + b"</span>" * 1000
        + b"</span>"
        + b'<div class="h-card">' * 2000
        + b"</div>" * 2000
        + b"</div>"
        b'<div class="vcard" itemref="t"><span class="fn">x</span></div>'
        b'<div id="t">' + b"<div>" * 2000 + b'<span class="org">o</span>' + b"</div>" * 2000 + b"</div>"
    )
    with _shallow_stack():
        items, _ = _feed_all([doc], text="normalized", lang=True)
        entry, card = items
        content = entry["properties"]["content"][0]
        assert content["value"] == "t"
        assert content["html"].startswith("<b><i><b><i>") and content["html"].endswith("</i></b></i></b>")
        assert entry["properties"]["summary"] == ["t"]
        assert entry["properties"]["start"] == ["2020-01-01"]
        assert sum(1 for _ in _chain(entry["children"][0], "children")) == 2000
        assert card["properties"] == {"name": ["x"], "org": ["o"]}


@pytest.mark.slow
def test_100k_nested_plain_divs() -> None:
    """html + body + 100,000 divs is deeper than the default ``max_depth`` (100,000)."""
    doc = b"<div>" * 100_000 + b'<p class="h-card">deep</p>'
    parser = Parser(BASE)
    with pytest.raises(LimitExceeded) as info:
        parser.feed(doc)
    assert (info.value.limit, info.value.value) == ("max_depth", 100_000)
    with pytest.raises(ParserStateError):
        parser.feed(b"</div>")
    # raising the limit parses it; nothing recurses
    items, _ = _feed_all([doc], max_depth=200_000)
    assert items == [{"type": ["h-card"], "properties": {"name": ["deep"]}}]
    # just under the default limit
    items, _ = _feed_all([b"<div>" * 99_990 + b'<p class="h-card">deep</p>'])
    assert len(items) == 1


@pytest.mark.slow
def test_100k_nested_roots() -> None:
    """100,000 nested h-* roots exceed the default ``max_depth``; 99,000 are parsed."""
    parser = Parser(BASE)
    with pytest.raises(LimitExceeded) as info:
        parser.feed(b'<div class="h-card">' * 100_000)
    assert info.value.limit == "max_depth"
    with pytest.raises(ParserStateError):
        parser.close()
    items, _ = _feed_all([b'<div class="h-card">' * 99_000 + b"x"])
    assert len(items) == 1
    chain = list(_chain(items[0], "children"))
    assert len(chain) == 99_000
    # no implied name where there are nested microformats; the innermost has one
    assert all(link["properties"] == {} for link in chain[:-1])
    assert chain[-1] == {"type": ["h-card"], "properties": {"name": ["x"]}}


def test_kept_nodes_limit() -> None:
    parser = Parser(BASE, max_kept_nodes=1000)
    with pytest.raises(LimitExceeded) as info:
        parser.feed(b'<div class="h-card">' + b"<span>x</span>" * 2000)
    assert (info.value.limit, info.value.value) == ("max_kept_nodes", 1000)
    with pytest.raises(ParserStateError):
        parser.feed(b"</div>")


# -- size ---------------------------------------------------------------------------
@pytest.mark.slow
def test_100k_items_come_out_as_they_close() -> None:
    n = 100_000
    head = b'<!doctype html><meta charset="utf-8"><body>'
    parts = [head]
    ends: list[int] = []  # offset just after each item's closing tag
    size = len(head)
    for i in range(n):
        part = f'<a class="h-card" href="/p/{i}">n</a>\n'.encode()
        parts.append(part)
        size += len(part)
        ends.append(size - 1)  # before the newline
    doc = b"".join(parts)
    parser = Parser(BASE)
    out = 0
    closed = 0
    chunk = 65_536
    for start in range(0, len(doc), chunk):
        got = parser.feed(doc[start : start + chunk])
        fed = min(start + chunk, len(doc))
        while closed < n and ends[closed] <= fed:
            closed += 1
        for k, item in enumerate(got, out):
            assert item["properties"]["url"] == [f"{BASE}p/{k}"]
        out += len(got)
        assert out == closed, f"after {fed} bytes: {out} items out, {closed} closed"
    assert parser.close() == []
    assert out == n


def test_many_rels() -> None:
    doc = b"".join(f'<a rel="me tag" href="/r/{i % 5000}">{i}</a>'.encode() for i in range(20_000))
    items, parser = _feed_all([doc[i : i + 4096] for i in range(0, len(doc), 4096)])
    assert items == []
    assert len(parser.rels["me"]) == 5000 == len(parser.rels["tag"])
    assert len(parser.rel_urls) == 5000
    # the first link's text wins (duplicate rel URLs keep the first text)
    assert parser.rel_urls[f"{BASE}r/7"]["text"] == "7"


# -- broken URLs ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "href",
    [
        "http://[::1",
        "http://[::1]:99999/x",
        "javascript:alert(1)",
        "http://example.com:99999999999999999999/x",
        "http://exa\x00mple.com/",
        "\x00",
        "http://%zz/",
        "http://ex ample.com/",
        "//",
        "https:",
        "data:text/html,<p>",
        "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
        "a" * 100_000,
    ],
)
def test_broken_urls(href: str) -> None:
    doc = (
        f'<a class="h-card" href="{href}">n</a><a rel="me" href="{href}">me</a>'
        f'<img class="h-card u-photo" src="{href}" srcset="{href} 2x, {href}">'
    ).encode()
    for text in ("spec", "normalized"):
        result = parse(doc, BASE, text=text)
        card, photo = result["items"]
        (url,) = card["properties"]["url"]
        assert isinstance(url, str) and "\x00" not in url
        assert isinstance(photo["properties"]["photo"][0], (str, dict))
        (rel,) = result["rels"]["me"]
        assert rel == url and list(result["rel-urls"]) == [url]


def test_urls_kept_or_resolved() -> None:
    result = parse(
        '<a class="h-card" href="javascript:alert(1)">a</a>'
        '<a class="h-card" href="">b</a>'
        '<a class="h-card" href="  /x\t\n ">c</a>'
        '<a class="h-card" href="\x00">d</a>',
        BASE + "dir/",
    )
    urls = [i["properties"]["url"][0] for i in result["items"]]
    # a URL that is not a relative reference is kept; empty means the base; whitespace is stripped;
    # NUL in an attribute value is a parse error and becomes U+FFFD (tokenizer)
    assert urls[:3] == ["javascript:alert(1)", BASE + "dir/", BASE + "x"]
    assert "\ufffd" in urls[3] and urls[3].startswith(BASE + "dir/")


def test_broken_document_url() -> None:
    result = parse('<a class="h-card" href="/x">n</a>', "http://[::1")
    assert result["items"] == [{"type": ["h-card"], "properties": {"name": ["n"], "url": ["/x"]}}]


def test_broken_base_href_falls_back_to_document_url() -> None:
    result = parse('<base href="http://[::1"><a class="h-card" href="/x">n</a>', BASE)
    assert result["items"][0]["properties"]["url"] == [BASE + "x"]


# -- empty and whitespace-only values -------------------------------------------------------
@pytest.mark.parametrize("text", ["spec", "normalized"])
def test_empty_values(text: str) -> None:
    doc = (
        '<p class="h-card"></p>'
        '<p class="h-card">  \n\t </p>'
        '<p class="h-card"><span class="p-name"> </span><span class="p-note"></span></p>'
        '<div class="h-entry"><a class="u-url" href="">x</a><a class="u-url" href="   ">y</a>'
        '<img class="u-photo" src="" alt=""><time class="dt-published" datetime="">t</time>'
        '<data class="p-x" value="">d</data><div class="e-content"></div><div class="e-summary">  </div></div>'
        '<p class="">x</p><p class=" \t h-card \n">y</p><p class="h-">z</p><p class="h-card p- u- dt- e-">w</p>'
    )
    items = parse(doc, BASE, text=text)["items"]
    assert items == [
        {"type": ["h-card"], "properties": {"name": [""]}},
        {"type": ["h-card"], "properties": {"name": [""]}},
        {"type": ["h-card"], "properties": {"name": [""], "note": [""]}},
        {
            "type": ["h-entry"],
            "properties": {
                "url": [BASE, BASE],
                "photo": [{"value": BASE, "alt": ""}],
                "published": [""],
                "x": [""],
                "content": [{"html": "", "value": ""}],
                "summary": [{"html": "", "value": ""}],
            },
        },
        {"type": ["h-card"], "properties": {"name": ["y"]}},
        {"type": ["h-card"], "properties": {"name": ["w"]}},
    ]


def test_empty_and_whitespace_documents() -> None:
    for doc in (b"", b" ", b"\n\t\r\n ", b"\xef\xbb\xbf", b"\xfe\xff", b"<!---->", b"<"):
        result = parse(doc, BASE)
        assert result == {"items": [], "rels": {}, "rel-urls": {}}, doc
    parser = Parser(BASE)
    assert parser.feed(b"") == [] and parser.feed(b"") == [] and parser.close() == []


# -- limits on one token -----------------------------------------------------------------
def test_giant_attribute_beyond_max_token_chars() -> None:
    parser = Parser(BASE, max_token_chars=10_000)
    assert parser.feed(b'<meta charset="utf-8"><p class="h-card">ok</p>') == [
        {"type": ["h-card"], "properties": {"name": ["ok"]}}
    ]
    parser.feed(b'<a class="h-card" title="' + b"x" * 5_000)
    with pytest.raises(LimitExceeded) as info:
        for _ in range(10):
            parser.feed(b"x" * 5_000)
    assert (info.value.limit, info.value.value) == ("max_token_chars", 10_000)
    assert isinstance(info.value, StreamMF2Error)
    with pytest.raises(ParserStateError):
        parser.feed(b'">')
    with pytest.raises(ParserStateError):
        parser.close()


def test_giant_attribute_within_default_limit() -> None:
    big = "a" * 2_000_000
    items = parse(f'<a class="h-card" href="/{big}">n</a>'.encode(), BASE)["items"]
    assert items[0]["properties"]["url"] == [BASE + big]


def test_giant_comment() -> None:
    comment = b"<!--" + (b"x" * 999 + b"-") * 4_000 + b"-- ->" + b"x-" * 100_000 + b"-->"
    doc = b'<p class="h-card">a</p>' + comment + b'<p class="h-card">b</p>'
    items, _ = _feed_all([doc[i : i + 65_536] for i in range(0, len(doc), 65_536)])
    assert [i["properties"]["name"] for i in items] == [["a"], ["b"]]
    # inside an item, a comment is not text
    items, _ = _feed_all([b'<p class="h-card">a' + comment + b"b</p>"])
    assert items[0]["properties"]["name"] == ["ab"]
    parser = Parser(BASE, max_token_chars=1_000)
    with pytest.raises(LimitExceeded) as info:
        parser.feed(b"<!--" + b"x" * 2_000)
    assert info.value.limit == "max_token_chars"


def test_long_text_is_not_a_token() -> None:
    items, _ = _feed_all([b'<p class="h-card">' + b"y" * 50_000 + b"</p>"], max_token_chars=1_000)
    assert items[0]["properties"]["name"] == ["y" * 50_000]


# -- truncated input ----------------------------------------------------------------------
CARD_A = {"type": ["h-card"], "properties": {"name": ["A"]}}


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        # EOF in an attribute name / value: the tag is dropped (13.2.5.33, .36-.38 "eof-in-tag")
        (b'<div class="h-card"><span class="p-name">A</span><a class="u-url" hre', [CARD_A]),
        (b'<div class="h-card"><span class="p-name">A</span><a class="u-url" href="/x', [CARD_A]),
        (b'<div class="h-card"><span class="p-name">A</span><a class="u-url" href=/x', [CARD_A]),
        # EOF in a tag name, in the root's own start tag: nothing at all
        (b'<div class="h-card', []),
        (b"<div class=h-card", []),
        # EOF in a comment: the comment is emitted, the open elements close
        (b'<div class="h-card"><span class="p-name">A</span><!-- unterminated', [CARD_A]),
        # EOF inside an item and a nested item: every open element is popped
        (b'<div class="h-card"><p class="p-name">A', [CARD_A]),
        (
            b'<div class="h-card"><span class="p-name">A</span><div class="p-note h-card"><span class="p-name">B',
            [
                {
                    "type": ["h-card"],
                    "properties": {
                        "name": ["A"],
                        "note": [{"value": "B", "type": ["h-card"], "properties": {"name": ["B"]}}],
                    },
                }
            ],
        ),
        (
            b'<div class="h-card"><span class="p-name">A</span><a class="u-url" href="/x">',
            [{"type": ["h-card"], "properties": {"name": ["A"], "url": [BASE + "x"]}}],
        ),
        # EOF in script data: script text is never part of a name
        (b'<div class="h-card">A<script>var x = "', [CARD_A]),
        (b'<div class="h-card">A<textarea>zz', [{"type": ["h-card"], "properties": {"name": ["Azz"]}}]),
        (b'<div class="h-card">A<svg><title>t', [{"type": ["h-card"], "properties": {"name": ["At"]}}]),
        # EOF in a character reference, after "<" and "</": emitted as text
        (b'<div class="h-card">A&am', [{"type": ["h-card"], "properties": {"name": ["A&am"]}}]),
        (b'<div class="h-card">A<', [{"type": ["h-card"], "properties": {"name": ["A<"]}}]),
        (b'<div class="h-card">A</', [{"type": ["h-card"], "properties": {"name": ["A</"]}}]),
        (b'<div class="h-card">A<!DOCTYPE', [CARD_A]),
        (b'<div class="h-card">A<![CDATA[x', [CARD_A]),
        # EOF in a multi-byte UTF-8 sequence: U+FFFD
        (
            b'<meta charset="utf-8"><div class="h-card">A\xe2\x82',
            [{"type": ["h-card"], "properties": {"name": ["A\ufffd"]}}],
        ),
    ],
)
def test_truncated_input(doc: bytes, expected: list[Item]) -> None:
    for label, chunks in chunkings(doc, splits=len(doc) < 80):
        items, _ = _feed_all(chunks)
        assert items == expected, label


# -- bytes ---------------------------------------------------------------------------
def test_invalid_utf8() -> None:
    doc = b'<meta charset="utf-8"><p class="h-card">a\xffb\xc3(c\xe2\x82</p><p class="h-card">d\xf0\x9f\x98</p>'
    for label, chunks in chunkings(doc, splits=False):
        items, parser = _feed_all(chunks)
        # one U+FFFD per maximal subpart (Encoding Standard's UTF-8 decoder)
        assert [i["properties"]["name"] for i in items] == [["a\ufffdb\ufffd(c\ufffd"], ["d\ufffd"]], label
        assert parser.encoding == "UTF-8"


def test_undeclared_invalid_utf8_falls_back() -> None:
    # not valid UTF-8 and nothing declared: windows-1252
    items = parse(b'<p class="h-card">caf\xe9 \x80</p>', BASE)["items"]
    assert items[0]["properties"]["name"] == ["caf\u00e9 \u20ac"]


def test_shift_jis() -> None:
    doc = '<meta charset="shift_jis"><p class="h-card">日本語ｶﾅ</p>'.encode("shift_jis")
    for label, chunks in chunkings(doc, splits=False):
        items, parser = _feed_all(chunks)
        assert items[0]["properties"]["name"] == ["日本語ｶﾅ"], label
        assert parser.encoding == "Shift_JIS"


def test_invalid_shift_jis() -> None:
    # 0x81 0x7F: a lead byte with an invalid trail; the ASCII trail byte is kept.
    # 0x82 at the end: a lead byte cut off by EOF.
    doc = b'<meta charset="shift_jis"><p class="h-card">\x82\xa0\x81\x7fx\x82</p><p class="h-card">ok\x82'
    for label, chunks in chunkings(doc, splits=False):
        items, _ = _feed_all(chunks)
        assert [i["properties"]["name"] for i in items] == [["\u3042\ufffd\x7fx\ufffd"], ["ok\ufffd"]], label


def test_shift_jis_unassigned_single_bytes() -> None:
    # Python's cp932 maps the single bytes 0xA0 and 0xFD-0xFF to private-use
    # U+F8F0-U+F8F3; the Encoding Standard's Shift_JIS decoder gives U+FFFD.
    doc = b'<meta charset="shift_jis"><p class="h-card">\xa0\xfd\xfe\xff\x80</p>'
    for label, chunks in chunkings(doc, splits=False):
        items, _ = _feed_all(chunks)
        assert items[0]["properties"]["name"] == ["\ufffd\ufffd\ufffd\ufffd\x80"], label


def test_nul_bytes() -> None:
    doc = (
        b'<p class="h-card">a\x00b</p>'
        b'<a class="h-card" href="/\x00" title="t\x00">x</a>'
        b'<p class="h\x00-card">z</p>'
        b'<p class="h-card"><!--\x00-->c<script>\x00</script></p>'
    )
    for label, chunks in chunkings(doc, splits=False):
        items, _ = _feed_all(chunks)
        # NUL in text is ignored in body; in attribute values it becomes U+FFFD
        assert items == [
            {"type": ["h-card"], "properties": {"name": ["ab"]}},
            {"type": ["h-card"], "properties": {"name": ["x"], "url": [BASE + "\ufffd"]}},
            {"type": ["h-card"], "properties": {"name": ["c"]}},
        ], label
    items = parse('<p class="h-card">a\x00b</p>')["items"]
    assert items[0]["properties"]["name"] == ["ab"]


# -- fuzz ----------------------------------------------------------------------------
FRAGMENTS = [
    "<div",
    "<span",
    "<a",
    "<img",
    "<p",
    "<table>",
    "<td",
    "<th",
    "<template>",
    "<svg>",
    "<math>",
    "<script>",
    "<style>",
    "<textarea>",
    "<base",
    "<meta charset=utf-8>",
    "<meta charset=shift_jis>",
    "</div>",
    "</p>",
    "</a>",
    "</table>",
    "</template>",
    "</svg>",
    ">",
    "/>",
    ' class="h-card"',
    ' class="vcard"',
    ' class="h-entry p-author"',
    ' class="p-name"',
    ' class="u-url u-photo"',
    ' class="dt-start"',
    ' class="e-content"',
    ' class="value"',
    ' class="value-title"',
    ' class="include"',
    ' class="fn org"',
    ' href="/x"',
    ' href="http://[::1"',
    ' src="a.png"',
    ' alt="alt"',
    ' datetime="2020-01-01T10:00+01:00"',
    ' title="2020-01-01"',
    ' id="t"',
    ' itemref="t"',
    ' headers="t"',
    ' rel="me"',
    ' lang="fr"',
    "<!--",
    "-->",
    "<!DOCTYPE html>",
    "&amp;",
    "&#x0;",
    "&",
    "text ",
    "\x00",
    "\r\n",
    "é",
    "\ufeff",
    '"',
    "'",
    "=",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=3000), cut=st.integers(min_value=1, max_value=64))
def test_fuzz_random_bytes(data: bytes, cut: int) -> None:
    _never_anything_else([data[i : i + cut] for i in range(0, len(data), cut)])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    parts=st.lists(st.sampled_from(FRAGMENTS), max_size=200),
    cut=st.integers(min_value=1, max_value=64),
    text=st.sampled_from(["spec", "normalized"]),
)
def test_fuzz_markup(parts: list[str], cut: int, text: str) -> None:
    data = "".join(parts).encode()
    result = _never_anything_else([data[i : i + cut] for i in range(0, len(data), cut)], text=text, lang=True)
    if result is not None:
        # streaming gives what one whole feed gives
        assert result == parse(data, BASE, text=text, lang=True)


def _never_anything_else(chunks: list[bytes], **options: Any) -> dict[str, Any] | None:
    """Parse; a StreamMF2Error is an allowed outcome, any other exception fails the test."""
    parser = Parser(BASE, metaformats=True, max_token_chars=500, max_depth=300, **options)
    items: list[Item] = []
    try:
        for chunk in chunks:
            items.extend(parser.feed(chunk))
        items.extend(parser.close())
    except StreamMF2Error:
        with pytest.raises(ParserStateError):
            parser.feed(b"x")
        return None
    assert all(isinstance(i, dict) and i["type"] for i in items)
    result: dict[str, Any] = {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}
    if parser.meta_item is not None:
        result["meta-item"] = parser.meta_item
    return result
