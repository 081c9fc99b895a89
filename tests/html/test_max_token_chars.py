"""Engine defects found by fuzzing: each reproduction, whole and in every chunking.

* ``max_token_chars`` counts only what one token really spans: not the rest of
  a chunk left unconsumed after the tokenizer paused at a ``<meta charset>``,
  and not a ``<`` that starts no tag;
* "in column group" with a ``template`` current node handles each character
  token on its own (the whitespace between ignored characters is inserted);
* ``stream_children`` resolves a container's rels against a ``<base>`` that
  arrives before the container ends, as the default output does.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2 import Parser
from stream_mf2.html.testing import tree_for_test
from tests.chunking import chunkings
from tests.streamed import stream_events


def _parse_chunks(chunks: list[bytes] | list[str], url: str | None = None, **options: Any) -> dict[str, Any]:
    return stream_events(chunks, url, **options)[0]


# ------------------------------------------------------------- max_token_chars


META_DOCS = {
    # The tokenizer pauses after the <meta> (the parser may switch the decoder):
    # what is left of the chunk is not lookahead.
    "meta-first": b"<meta charset=utf-8><p class=h-card>" + b"x" * 3000 + b"</p>",
    "meta-late": b"<p>" + b"a" * 1500 + b"<meta charset=utf-8><p class=h-card>" + b"x" * 3000 + b"</p>",
    "meta-switch": b"<p>" + b"a" * 1500 + b"<meta charset=windows-1251><p class=h-card>\xe0" + b"x" * 3000 + b"</p>",
}


@pytest.mark.parametrize("name", sorted(META_DOCS))
def test_meta_pause_does_not_count_the_rest_of_the_chunk(name: str) -> None:
    data = META_DOCS[name]
    expected = stream_mf2.parse(data)  # default limit: nothing near it
    assert len(expected["items"]) == 1
    for label, chunks in chunkings(data, splits=False):
        assert _parse_chunks(chunks, max_token_chars=1000) == expected, label
    # 2-way splits around the tag and inside the long text
    for i in range(1, len(data), 97):
        assert _parse_chunks([data[:i], data[i:]], max_token_chars=1000) == expected, f"split@{i}"


@pytest.mark.parametrize("lead", ["1 <2", "<\xa6", "a < b ", "<p class=h-card>1 <2"])
@pytest.mark.parametrize("limit", [64, 1000, 2047])
def test_lt_that_starts_no_tag_is_not_a_long_token(lead: str, limit: int) -> None:
    doc = lead + "x" * 3000 + "</p>"
    expected = stream_mf2.parse(doc)
    for label, chunks in chunkings(doc, splits=False):
        assert _parse_chunks(chunks, max_token_chars=limit) == expected, label
    for i in range(1, len(doc), 89):
        assert _parse_chunks([doc[:i], doc[i:]], max_token_chars=limit) == expected, f"split@{i}"
        data = doc.encode("utf-8")
        assert _parse_chunks([data[:i], data[i:]], max_token_chars=limit) == expected, f"bytes split@{i}"


def test_a_real_long_tag_still_raises_in_every_chunking() -> None:
    doc = "<p title='" + "y" * 200 + "'>text"
    for label, chunks in chunkings(doc):
        with pytest.raises(stream_mf2.LimitExceeded) as info:
            _parse_chunks(chunks, max_token_chars=100)
        assert info.value.limit == "max_token_chars", label


# ------------------------------------------------------------- in column group


@pytest.mark.parametrize(
    "doc",
    [
        "<template><col>x y",
        "<template><col> a\tb \nc ",
        "<table><template><col>1 2</template></table>",
        "<div class=h-x><div class=e-content><template><col>x y z</template></div></div>",
    ],
)
def test_column_group_under_template_is_chunk_independent(doc: str) -> None:
    expected = tree_for_test(list(doc))  # one character token at a time
    for label, chunks in chunkings(doc):
        assert tree_for_test(chunks) == expected, label
    if "h-x" in doc:
        want = orjson.dumps(stream_mf2.parse(doc))
        for label, chunks in chunkings(doc):
            assert orjson.dumps(_parse_chunks(chunks)) == want, label


def test_column_group_under_template_keeps_the_space() -> None:
    assert '"  "' not in tree_for_test(["<template><col>x y"])
    assert '" "' in tree_for_test(["<template><col>x y"])


# ------------------------------------------------------------- stream_children and <base>

URL = "http://example.com/dir/page.html"
BASE_DOCS = [
    "<div class='h-y'><a href=l rel=r>d<a><base href=/>",
    "<div class='h-feed'><div class=h-entry><a href=a rel=tag>t</a></div><div class=h-entry>2</div>"
    "<base href=/x/><a href=b rel=me>m</a></div><a href=c rel=tag>c</a>",
    "<base href=/first/><div class='h-feed'><div class=h-entry><a href=a rel=tag>t</a></div>"
    "<base href=/second/><a href=b rel=me>m</a></div>",
    "<div class='h-feed'><a href=a rel=tag>t</a></div><base href=/late/><a href=b rel=tag>b</a>",
]


@pytest.mark.parametrize("doc", BASE_DOCS)
def test_stream_children_equals_default_with_a_late_base(doc: str) -> None:
    # Children stay in their container while no <base href> has been seen (up to
    # max_held_children), so a late <base> resolves them as the whole parse does.
    expected = orjson.dumps(stream_mf2.parse(doc, URL))
    for mode in (True, frozenset({"h-feed"})):
        for label, chunks in [("parse", [doc]), *chunkings(doc, splits=False)]:
            got = _parse_chunks(chunks, URL, stream_children=mode)
            assert orjson.dumps(got) == expected, f"{label} stream_children={mode}"


def test_late_base_after_a_streamed_child_is_noted() -> None:
    # max_held_children=0: children stream at once, so a later first <base> cannot reach
    # the two already yielded; Parser.errors says so.
    parser = Parser(URL, stream_children=True, max_held_children=0)
    parser.feed(BASE_DOCS[1])
    parser.close()
    assert any("<base href> after 2 child item(s) were streamed" in e for e in parser.errors)
    for doc in BASE_DOCS:
        quiet = Parser(URL, stream_children=True)
        quiet.feed(doc)
        quiet.close()
        assert not quiet.errors


def test_issue_example_resolves_against_the_base() -> None:
    doc = BASE_DOCS[0]
    assert stream_mf2.parse(doc, URL, stream_children=True)["rels"] == {"r": ["http://example.com/l"]}


# ------------------------------------------------------------- include pattern, duplicate ids


def test_include_id_seen_before_the_item_is_not_taken_from_a_later_duplicate() -> None:
    # The DOM resolves an id to its first element; here that one (before the item,
    # outside any kept subtree) is gone, and a later element with the same id must
    # not stand in for it (a fuzz finding). The reference stays unresolved, with a note.
    from stream_mf2.html.testing import parse_document
    from stream_mf2.mf2 import Options, parse_dom

    doc = (
        '<p id="mozilla-adr"><div class="vcard"itemref="mozilla-org mozilla-adr">></div>'
        '<p id="mozilla-org"><p id="mozilla-adr"class="adr">'
    )
    url = "http://example.com/"
    expected = orjson.dumps(parse_dom(parse_document(doc), url, Options())["items"])
    for label, chunks in chunkings(doc):
        parser = Parser(url)
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert orjson.dumps(items) == expected, label
        assert any("#mozilla-adr appeared before the item" in e for e in parser.errors), label


@pytest.mark.parametrize(
    "doc",
    [
        # a header cell whose id an element foster-parented before the table had first (a fuzz finding)
        '<table><h id="org"class=url><th id="org"class=url>O<td class="vcard"headers="org">',
        # a header cell whose id an element before the table had first
        "<p id=org class=fn>x</p><table><tr><th id=org class=fn>O<td class=vcard headers=org>",
        # two header cells with one id: the DOM's answer is the first, which is held in the
        # open table when the second is created; the sink cannot tell their order then
        "<table><tr><th id=org class=fn>A<th id=org class=fn>B<td class=vcard headers=org>",
    ],
)
def test_headers_reference_is_not_taken_from_a_later_cell_with_a_duplicate_id(doc: str) -> None:
    # The DOM resolves an id to its first element in tree order. A remembered header cell
    # answers a ``headers`` reference only when no element outside it had the id before it
    # completed; otherwise the reference is the documented "target gone" recovery (a note),
    # never a later cell's content.
    url = "http://example.com/dir/page.html"
    for label, chunks in chunkings(doc):
        parser = Parser(url)
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert items == [{"type": ["h-card"], "properties": {}}], label
        assert any(e.startswith("include target(s) #org appeared before the item") for e in parser.errors), label


def test_headers_reference_to_a_unique_header_cell_is_resolved() -> None:
    from stream_mf2.html.testing import parse_document
    from stream_mf2.mf2 import Options, parse_dom

    doc = "<table><tr><th id=org class=fn>A<th id=other>B<td class=vcard headers=org>"
    url = "http://example.com/dir/page.html"
    expected = parse_dom(parse_document(doc), url, Options())["items"]
    assert expected == [{"type": ["h-card"], "properties": {"name": ["A"]}}]
    for label, chunks in chunkings(doc):
        parser = Parser(url)
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert items == expected, label
        assert not parser.errors, label
