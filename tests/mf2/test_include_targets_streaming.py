"""mf1 include targets created before the bounded sink completes the root.

While ``<frameset>`` could still replace the body (the frameset-ok flag), the
sink holds a root at the start of the body past its end tag, so elements after
it, such as its ``itemref`` / ``a.include`` / ``object.include`` targets, are
created before the capture is asked to complete it. The capture watches the ids
an include marker names as soon as the marker's element is created, so the
first element with each id is kept and the item equals the full DOM's, in
every chunking, with and without ``stream_children``.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from stream_mf2 import reassemble
from stream_mf2.core.events import Event
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.chunking import chunkings
from tests.streamed import feed_events

URL = "http://example.com/dir/page.html"

DOCS = [
    # the defect: itemref on the root, the target right after it, at the start of the body
    "<div class=vcard itemref=x></div><p id=x class=fn>N</p>",
    "<div class=vcard itemref=x></div><span id=x class=fn>N</span>",
    "<body><div class=vcard itemref='x y'></div><p id=x class=fn>N</p><i id=y class=org>O</i>",
    # a.include / object.include inside the root (a marker that is not a root)
    "<div class=vcard><a class=include href=#x></a></div><p id=x class=fn>N</p>",
    "<div class=vcard><object class=include data=#x></object></div><p id=x class=fn>N</p>",
    # a classic root nested in an mf2 container, the target after the container
    "<div class=h-feed><div class=vcard itemref=x></div></div><p id=x class=fn>N</p>",
    "<div class=h-feed><div class=h-entry><div class='p-author vcard' itemref=x></div></div></div>"
    "<p id=x><b class=fn>N</b></p>",
    # a <base> first: the included url resolves against it
    "<base href=http://b.org/d/><div class=vcard itemref=x></div><p id=x><a class=url href=u>N</a></p>",
    "<head><base href=/b/></head><div class=vcard itemref=x></div><p id=x><img class=photo src=p.png></p>",
    # the target inside the root
    "<div class=vcard itemref=x><p id=x class=fn>N</p></div><p id=x class=org>later duplicate</p>",
    # several roots naming one id (and one of them a second id)
    "<div class=vcard itemref='x y'></div><div class=vcard itemref=x></div>"
    "<p id=x class=fn>N</p><span id=y class=org>O</span>",
    # a later element repeating the id does not stand in for the first
    "<div class=vcard itemref=x></div><p id=x class=fn>first</p><p id=x class=fn>second</p>",
    # the target is itself a root
    "<div class=vcard itemref=x></div><div id=x class=adr><span class=locality>L</span></div>",
    # include markers outside any classic root are not the include pattern
    "<div itemscope itemref=x></div><p id=x class=h-card>N</p>",
    "<div class=h-card><a class=include href=#x></a></div><p id=x class=p-name>N</p>",
    # text first: the sink completes the root at its end tag (unchanged)
    "<p>a</p><div class=vcard itemref=x></div><p id=x class=fn>N</p>",
]

# The target appeared before the root, outside any kept subtree: gone, as documented.
BEFORE = "<p id=x class=fn>N</p><div class=vcard itemref=x></div><span id=x class=fn>later</span>"


def _stream(chunks: list[str] | list[bytes], **options: Any) -> tuple[list[Event], list[str]]:
    return feed_events(chunks, URL, **options)


@pytest.mark.parametrize("doc", DOCS)
def test_target_after_the_root_equals_the_full_dom(doc: str) -> None:
    want = orjson.dumps(parse_dom(parse_document(doc), URL, Options())["items"])
    for mode in (False, True):
        for label, chunks in chunkings(doc):
            events, errors = _stream(chunks, stream_children=mode)
            assert orjson.dumps(reassemble(events)) == want, f"{label} stream_children={mode}"
            assert errors == [], f"{label} stream_children={mode}"
        for label, raw in chunkings(doc.encode(), splits=False):
            events, errors = _stream(raw, stream_children=mode)
            assert orjson.dumps(reassemble(events)) == want, f"{label} (bytes) stream_children={mode}"
            assert errors == [], f"{label} (bytes) stream_children={mode}"


def test_the_defect_resolves() -> None:
    # what the full DOM gives, spelled out (the test above compares with it)
    events, errors = _stream([DOCS[0]])
    assert reassemble(events) == [{"type": ["h-card"], "properties": {"name": ["N"]}}]
    assert errors == []


def test_a_target_before_the_root_is_still_gone() -> None:
    dom = parse_dom(parse_document(BEFORE), URL, Options())["items"]
    assert dom == [{"type": ["h-card"], "properties": {"name": ["N"]}}]
    for mode in (False, True):
        for label, chunks in chunkings(BEFORE, splits=False):
            events, errors = _stream(chunks, stream_children=mode)
            # the later duplicate never stands in for the first element
            assert reassemble(events) == [{"type": ["h-card"], "properties": {}}], label
            assert errors == [
                "include target(s) #x appeared before the item, outside any kept subtree: not resolved"
            ], label
