"""Document metadata that arrives late: a first ``<base href>`` and the document language.

* ``stream_children``: a child is kept in its container (not streamed) while a
  first ``<base href>`` (or, with ``lang``, the document language) may still come
  before the container ends, up to ``max_held_children`` per container; so the
  output equals the default output in every chunking. Past the budget children
  stream, and a late ``<base>`` is recorded in ``Parser.errors``. A container's own
  rels resolve against a ``<base>`` that arrives before the container ends, as in the
  default output (a fuzz finding).
* ``lang``: a later ``<html lang>`` tag (merged into the html element) or a late
  Content-Language ``<meta>`` cannot reach items already yielded; the full DOM
  gives them the language, so ``Parser.errors`` says so. Items after it carry it.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2 import ItemEvent, Parser, reassemble
from stream_mf2.core.events import Event
from stream_mf2.events import DocumentEnd
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support.chunking import chunkings
from tests.support.streamed import feed_events, stream_events

URL = "http://example.com/dir/page.html"
ENTRY = '<div class="h-entry"><a class="u-url p-name" href="e{i}">e{i}</a><img class=u-photo src=p{i}.png></div>'


def _feed(children: int, tail: str = "") -> str:
    return '<div class="h-feed">' + "".join(ENTRY.format(i=i) for i in range(children)) + tail + "</div>"


def _events(chunks: list[str] | list[bytes], **options: Any) -> tuple[list[Event], list[str]]:
    return feed_events(chunks, URL, **options)


def _result(events: list[Event]) -> dict[str, Any]:
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    return {"items": reassemble(events), "rels": end.rels, "rel-urls": end.rel_urls}


def _paths(events: list[Event]) -> list[tuple[int, ...]]:
    return [e.path for e in events if isinstance(e, ItemEvent)]


LATE_BASE = [
    _feed(3, "<base href=/b/>"),
    _feed(2, '<base href=/b/><a rel=me href="m">m</a>') + ENTRY.format(i=9),
    '<div class="h-feed"><div class="h-entry"><div class="h-cite"><a class=u-url href=c>c</a></div></div>'
    '<p class="h-entry"><span class="p-author h-card"><a class=u-url href=a>a</a></span></p><base href=/b/></div>',
]


@pytest.mark.parametrize("doc", LATE_BASE)
def test_children_wait_for_a_late_base(doc: str) -> None:
    expected = orjson.dumps(stream_mf2.parse(doc, URL))
    assert b"http://example.com/b/" in expected
    for mode in (True, frozenset({"h-feed"})):
        for label, chunks in chunkings(doc):
            events, errors = _events(chunks, stream_children=mode)
            assert orjson.dumps(_result(events)) == expected, f"{label} stream_children={mode}"
            assert not errors


def test_children_stream_once_the_base_is_known() -> None:
    doc = "<head><base href=/b/></head>" + _feed(3)
    events, errors = _events([doc], stream_children=True)
    assert _paths(events) == [(0, 0), (0, 1), (0, 2), ()]
    assert _result(events)["items"] == stream_mf2.parse(doc, URL)["items"]
    assert not errors


def test_the_hold_is_bounded_and_a_later_base_is_noted() -> None:
    doc = _feed(5, "<base href=/b/>")
    whole = stream_mf2.parse(doc, URL)
    for label, chunks in chunkings(doc, splits=False):
        events, errors = _events(chunks, stream_children=True, max_held_children=2)
        # the first two stay in the container; the other three stream, resolved before the <base>
        assert _paths(events) == [(0, 2), (0, 3), (0, 4), ()], label
        items = _result(events)["items"]
        assert items[0]["children"][:2] == whole["items"][0]["children"][:2]
        assert items[0]["children"][2]["properties"]["url"] == ["http://example.com/dir/e2"]
        assert any("<base href> after 3 child item(s) were streamed" in e for e in errors), errors
    # without a late <base> the bounded hold changes nothing
    plain = _feed(5)
    events, errors = _events([plain], stream_children=True, max_held_children=2)
    assert _result(events)["items"] == stream_mf2.parse(plain, URL)["items"] and not errors


def test_memory_stays_bounded_by_the_hold() -> None:
    parser = Parser(URL, stream_children=True, max_held_children=4)
    items = parser.feed('<div class="h-feed">')
    for i in range(300):
        items += parser.feed(ENTRY.format(i=i))
    # four held entries (div, a, img) plus one placeholder: not growing with the entries
    assert parser._sink.kept_nodes < 30
    assert len(items) == 300 - 4
    last = parser.feed("</div>") + parser.close()
    assert len(last) == 1 and len(last[0]["children"]) == 4


def test_lang_holds_children_until_the_document_language_is_known() -> None:
    late = _feed(2, '<html lang="fr">')
    whole = stream_mf2.parse(late, URL, lang=True)
    assert whole["items"][0]["children"][0]["lang"] == "fr"
    for label, chunks in chunkings(late):
        events, errors = _events(chunks, stream_children=True, lang=True)
        assert _result(events)["items"] == whole["items"], label
        assert not errors
    # <html lang> known (and a base): children stream
    early = '<html lang="fr"><base href="/">' + _feed(2)
    events, _ = _events([early], stream_children=True, lang=True)
    assert _paths(events) == [(0, 0), (0, 1), ()]
    # without lang the language does not matter: only the base holds
    events, _ = _events(['<base href="/">' + late], stream_children=True)
    assert _paths(events) == [(0, 0), (0, 1), ()]


LATE_LANG = [
    '<div class=h-card><span class=p-name>n</span></div><html lang=fr><p class=h-card>after</p>',
    '<p class=h-entry>x</p><meta http-equiv=content-language content=de><b class=h-card>y</b>',
    '<p class=h-entry>x</p><meta http-equiv=content-language content=de><html lang=fr><i class=h-card>y</i>',
]


@pytest.mark.parametrize("doc", LATE_LANG)
def test_late_document_language_is_noted(doc: str) -> None:
    dom = parse_dom(parse_document(doc), URL, Options(lang=True))["items"]
    whole = stream_mf2.parse(doc, URL, lang=True)
    # the item before the tag cannot carry the language; the ones after do, as in the DOM
    assert "lang" not in whole["items"][0] and "lang" in dom[0]
    assert whole["items"][1:] == dom[1:]
    for label, chunks in chunkings(doc):
        events, errors = _events(chunks, lang=True)
        assert _result(events)["items"] == whole["items"], label
        assert any(e.startswith("the document language came from a") for e in errors), (label, errors)
        # without lang nothing is missing, and nothing is said
        _, quiet = _events(chunks)
        assert not quiet, label


def test_html_lang_before_any_item_is_quiet() -> None:
    doc = '<p>x<html lang=fr><div class=h-card><span class=p-name>n</span></div>'
    events, errors = _events([doc], lang=True)
    assert _result(events)["items"] == parse_dom(parse_document(doc), URL, Options(lang=True))["items"]
    assert not errors


def test_include_id_of_an_earlier_element_is_not_taken_from_the_root_itself() -> None:
    # The DOM resolves headers="org" to the first element with that id: the fostered <h>
    # before the table (dropped by the bounded tree), not the cell's own id (a fuzz finding).
    # The reference stays unresolved, with a note, instead of silently using the wrong one.
    doc = '<table><h id="org" class=url><td class="vcard" headers="org" id="org"><a class=url>'
    for label, chunks in chunkings(doc):
        events, errors = _events(chunks)
        items = _result(events)["items"]
        assert items == [{"type": ["h-card"], "properties": {"url": [URL]}}], label
        assert any(e.startswith("include target(s) #org appeared before the item") for e in errors), label
    # a root's own id, seen nowhere else, still resolves inside it
    own = '<table><tr><td class="vcard" headers="org"><b id="org" class="fn">n</b></td></tr></table>'
    dom = parse_dom(parse_document(own), URL, Options())["items"]
    events, errors = _events([own])
    assert _result(events)["items"] == dom and not errors


# ------------------------------------------------------------- stream_children and <base>

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


def _parse_chunks(chunks: list[bytes] | list[str], url: str | None = None, **options: Any) -> dict[str, Any]:
    return stream_events(chunks, url, **options)[0]
