"""The archive pre-filter (``stream_mf2.warc.prefilter``): conservative, cheap, chunking-proof.

Every "skip" here is checked against ``stream_mf2.parse`` (no item, no ``meta-item``
with metaformats); every tricky "maybe" (a name written with references) is checked
to really give an item, so the test is not vacuous.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

import stream_mf2
from stream_mf2.html.charrefs import NAMED
from stream_mf2.warc.prefilter import BLOCK, OVERLAP, Prefilter, may_hold_items
from tests.fuzz import prefilter as fuzz
from tests.support.suites import REPO

FIXTURES = REPO / "fixtures" / "bench"


def _doc(body: str) -> bytes:
    return f"<!doctype html><html><head></head><body>{body}</body></html>".encode()


#: Documents that give an item, spelt the ways the argument must cover.
ITEMS = [
    '<div class="h-entry">x</div>',
    "<div CLASS=h-entry>x</div>",
    "<div class = 'a\th-card'>x</div>",
    '<div class="a\fh-card">x</div>',
    '<div class="a\r\nh-card">x</div>',
    '<div class=" vcard ">x</div>',
    '<div class="hreview-aggregate">x</div>',
    '<div class="hnews">x</div>',
    '<div class="adr">x</div>',
    '<div class="geo">x</div>',
    '<div class="h-x-vendor-thing">x</div>',
    '<div class="h-a1-b">x</div>',
    '<div class="&#104;-entry">x</div>',
    '<div class="h&#45;entry">x</div>',
    '<div class="&#x68;-card">x</div>',
    '<div class="&#X68;-card">x</div>',
    '<div class="&#0000104;-entry">x</div>',
    '<div class="&#104-entry">x</div>',
    '<div class="v&#99;ard">x</div>',
    '<div class="x&#32;h-entry">x</div>',
    '<div class="x&#32h-entry">x</div>',
    '<div class="x&#xah-entry">x</div>',
    '<div class="x&Tab;h-entry">x</div>',
    '<div class="x&NewLine;vcard">x</div>',
    '<div class="vcard&#32;x">x</div>',
    '<div class="vcard&Tab;x">x</div>',
    '<div class="h-&fjlig;ord">x</div>',
    '<svg><g class="h-card"><title>t</title></g></svg>',
    '<a href="/a" class="h-card">x</a>',
    '<div class=" href= h-entry">x</div>',
    '<div class="h-card"><div class="p-author h-card">a</div></div>',
]

#: Documents with no item that the scan can prove so.
SKIPS = [
    "<p>Plain text, a <a href='/a'>link</a>, &#8217;quotes&#039; and &amp; &nbsp;.</p>",
    '<form class="search-form"><input class="search-field"></form>',
    '<div class="x-h-entry">x</div>',
    '<div class="H-entry">x</div>',
    '<div class="hcard vcards geography address">x</div>',
    '<div class="h-4 h-1/2">x</div>',
    "<pre>&lt;article class=&quot;h-entry&quot;&gt;</pre>",
    '<div class="a&quot;h-entry">x</div>',
    '<div class="&hyphen;h-entry">x</div>',
    '<div class="h&hyphen;entry">x</div>',
    '<div class="a&nbsp;h-entry">x</div>',
    '<div class="a\xa0h-entry">x</div>',
    "<style>.h-entry{margin:0}</style>",
    '<script>var a="x.h-card";</script>',
    '<div class="p-name u-url">no root</div>',
    '<div class="h-entry1 vcard2 x-vcard-y">x</div>',
    '<meta name="description" content="d"><title>T</title>',
]

#: Documents with no item that the scan cannot tell apart (conservative "maybe").
CONSERVATIVE = [
    '<!-- <div class="h-entry">x</div> -->',
    '<p>The "h-entry" class.</p>',
    '<div data-class="vcard">x</div>',
    "<p>Is this a vcard or an hentry?</p>",
]


@pytest.mark.parametrize("body", ITEMS)
def test_a_document_with_an_item_is_never_skipped(body: str) -> None:
    data = _doc(body)
    assert stream_mf2.parse(data)["items"], "the case must really give an item"
    assert may_hold_items(data)


@pytest.mark.parametrize("body", SKIPS)
def test_a_skipped_document_has_no_item(body: str) -> None:
    data = _doc(body)
    assert not may_hold_items(data)
    assert not stream_mf2.parse(data)["items"]
    if not may_hold_items(data, metaformats=True):
        result = stream_mf2.parse(data, metaformats=True, url="https://a.example/")
        assert not result["items"] and "meta-item" not in result


@pytest.mark.parametrize("body", CONSERVATIVE)
def test_some_documents_without_items_are_parsed_anyway(body: str) -> None:
    data = _doc(body)
    assert not stream_mf2.parse(data)["items"]
    assert may_hold_items(data)


def test_metaformats_keeps_pages_with_head_metadata() -> None:
    for head in ('<meta name="description" content="d">', "<TITLE>t</TITLE>", '<link rel=canonical href="/c">'):
        data = f"<!doctype html><html><head>{head}</head><body><p>x</p></body></html>".encode()
        assert "meta-item" in stream_mf2.parse(data, metaformats=True, url="https://a.example/")
        assert not may_hold_items(data)
        assert may_hold_items(data, metaformats=True)


def test_a_name_at_the_very_start_of_the_body_counts() -> None:
    assert may_hold_items(b"h-entry")
    assert may_hold_items(b"vcard")
    assert not may_hold_items(b"h-4")


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-16-le", b""), ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-32-le", b"\xff\xfe\x00\x00")],
)
def test_encodings_with_nul_bytes_are_parsed(encoding: str, bom: bytes) -> None:
    data = bom + _doc('<div class="h-entry">x</div>').decode().encode(encoding)
    assert b"h-entry" not in data
    assert may_hold_items(data)


def test_utf16_with_a_bom_really_gives_the_item() -> None:
    data = b"\xff\xfe" + _doc('<div class="h-entry">x</div>').decode().encode("utf-16-le")
    assert stream_mf2.parse(data)["items"]
    assert may_hold_items(data)


def test_iso_2022_jp_escapes_are_parsed() -> None:
    # In ISO-2022-JP an escape sequence can sit between the letters of a name.
    data = b'<div class="h\x1b(B-entry">x</div>'
    assert stream_mf2.parse(data, encoding="iso-2022-jp")["items"]
    assert may_hold_items(data)


def test_no_named_reference_gives_a_name_character_but_the_known_ones() -> None:
    """The argument's point 2, checked on the tokenizer's own table."""
    relevant = set("abcdefghijklmnopqrstuvwxyz0123456789-\t\n\f\r ")
    found = {name: text for name, text in NAMED.items() if relevant & set(text)}
    assert found == {"fjlig;": "fj", "Tab;": "\t", "NewLine;": "\n"}


def test_fixture_pages() -> None:
    assert not may_hold_items((FIXTURES / "news-no-microformats.html").read_bytes())
    for name in ("blog-home.html", "events.html", "profile.html", "product.html", "wordpress-mf1.html"):
        data = (FIXTURES / name).read_bytes()
        assert stream_mf2.parse(data)["items"] and may_hold_items(data)
    legacy = (FIXTURES / "legacy-cms-windows-1252.html").read_bytes()
    assert stream_mf2.parse(legacy, encoding="windows-1252")["items"] and may_hold_items(legacy)


def _pieces(data: bytes, seed: int, *, metaformats: bool = False) -> bool:
    rng = random.Random(seed)
    # (a small block: searched as the pieces come, not only at the end)
    pf = Prefilter(metaformats=metaformats, max_bytes=None, block=rng.choice((1, 5, 64, 700)))
    pos = 0
    while pos < len(data):
        n = rng.choice((1, 2, 3, 7, 64, 300, 5000))
        pf.feed(data[pos : pos + n])
        pos += n
    return pf.finish()


@pytest.mark.parametrize("body", ITEMS + SKIPS + CONSERVATIVE)
def test_pieces_give_the_whole_answer(body: str) -> None:
    data = _doc(body)
    whole = may_hold_items(data)
    for seed in range(8):
        assert _pieces(data, seed) == whole
    for cut in range(len(data) + 1):
        pf = Prefilter(max_bytes=None, block=1)
        pf.feed(data[:cut])
        pf.feed(data[cut:])
        assert pf.finish() == whole, cut


def test_a_name_that_continues_in_the_next_piece_is_not_counted_early() -> None:
    pf = Prefilter(max_bytes=None, block=1)
    assert not pf.feed(b'<div class="h-abc')  # "h-abc1" is no root name
    assert not pf.feed(b'1">x</div>')
    assert not pf.finish()
    assert stream_mf2.parse(b'<div class="h-abc1">x</div>')["items"] == []


@pytest.mark.parametrize("n", [1, 100, 127, 128, 129, 200, 254, 255, 256, 257, 400, 1000])
def test_a_long_name_across_pieces(n: int) -> None:
    """Every match is at most OVERLAP bytes long, however long the name: a long one is found by its start."""
    for tail in (b"", b"-b", b"&fjlig;x", b"1"):
        data = b'<div class="h-' + b"a" * n + tail + b'">x</div>'
        whole = may_hold_items(data)
        assert whole == bool(stream_mf2.parse(data)["items"]) or n >= 126
        for step in (1, 7, 100, 255, 256):
            pf = Prefilter(max_bytes=None, block=step)
            for i in range(0, len(data), step):
                pf.feed(data[i : i + step])
            assert pf.finish() == whole, (n, tail, step)


def test_the_cap_makes_a_long_body_parsed() -> None:
    data = (FIXTURES / "news-no-microformats.html").read_bytes()
    pf = Prefilter(max_bytes=100_000)
    pos = 0
    while not pf.feed(data[pos : pos + 8192]):
        pos += 8192
    assert pf.maybe and 100_000 <= len(pf.held) < 100_000 + 8192
    assert pf.held == data[: len(pf.held)]


def test_work_is_linear_in_the_body() -> None:
    """Each piece is searched with at most OVERLAP bytes before it: bytes searched grow linearly."""
    data = (FIXTURES / "news-no-microformats.html").read_bytes()[:40_000]
    for step in (1, 10, 100):
        pf = Prefilter(max_bytes=None, block=1)
        for i in range(0, len(data), step):
            pf.feed(data[i : i + step])
        pf.finish()
        assert pf.searched_bytes <= len(data) * (1 + OVERLAP // step + 1) + OVERLAP


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(fuzz.documents())
def test_fuzz_skip_means_no_item(case: tuple[bytes, dict[str, object], int]) -> None:
    fuzz.check_prefilter(*case)


def test_fuzz_target_is_registered() -> None:
    from tests.fuzz import runner

    assert "prefilter" in runner.TARGETS


@pytest.mark.parametrize("at", [-300, -130, -10, -3, -1, 0, 1, 5, 200])
def test_a_name_at_a_block_boundary(at: int) -> None:
    """The default search block: a root name anywhere around its end is found, in any pieces."""
    page = (FIXTURES / "news-no-microformats.html").read_bytes()
    assert not may_hold_items(page)
    for where in (BLOCK, 2 * BLOCK):
        cut = page.rfind(b">", 0, where + at) + 1  # (a name between tags)
        data = page[:cut] + b'<p class="h-entry">' + page[cut:]
        for step in (1000, 4096, 8192, BLOCK, 100_000):
            pf = Prefilter(max_bytes=None)
            for i in range(0, len(data), step):
                pf.feed(data[i : i + step])
            assert pf.finish(), (where, step)
