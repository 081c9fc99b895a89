"""Chained mf1 includes: a target that is itself an include of later targets.

``<div class=vcard itemref=s>`` includes ``#s``, whose ``<span class=adr itemref=l>``
includes ``#l``. The held root waits for the whole chain, so the streamed items equal
the full-DOM parse in every chunking, with no note. A link of the chain that went by
before anything named it (outside any kept subtree) cannot be resolved by a streaming
parser: that is a note, never silence.
"""

from __future__ import annotations

import orjson
import pytest

from stream_mf2 import reassemble
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support.chunking import chunkings
from tests.support.streamed import feed_events

URL = "http://example.com/"

CHAINS = [
    # the report: vcard -> #s (an adr with itemref) -> #l
    '<div class="vcard" itemref="s"></div><div id="s"><span itemref="l" class="adr"></span></div>'
    '<div id="l"><span class=locality>Berlin</span></div>',
    # three links
    "<div class=vcard itemref=a></div><div id=a><span class=adr itemref=b></span></div>"
    "<div id=b><span class=locality itemref=c>Berlin</span></div><p id=c class=region>BE</p>",
    # the include class pattern in the chain
    "<div class=vcard><a class=include href=#s></a></div><div id=s><span class=adr itemref=l></span></div>"
    "<p id=l class=locality>Paris</p>",
    # two roots sharing the chain's end
    "<div class=vcard itemref=s></div><div class=vcard itemref=s></div>"
    "<div id=s><span class=adr itemref=l></span></div><div id=l><span class=locality>Rome</span></div>",
    # a chain with text and other elements between its links
    "<div class=vcard itemref=s><span class=fn>Ann</span></div><p>text</p>"
    "<div id=s><span class=adr itemref=l></span></div><ul><li>x</li></ul><div id=l><span class=locality>Oslo</span></div>",
]


@pytest.mark.parametrize("doc", CHAINS)
def test_chained_includes_equal_the_full_dom(doc: str) -> None:
    want = orjson.dumps(parse_dom(parse_document(doc), URL, Options())["items"])
    for mode in (False, True):
        for label, chunks in chunkings(doc):
            events, errors = feed_events(chunks, URL, stream_children=mode)
            assert orjson.dumps(reassemble(events)) == want, f"{label} stream_children={mode}"
            assert errors == [], f"{label} stream_children={mode}"


def test_a_chained_target_seen_before_is_a_note() -> None:
    doc = (
        "<div id=l><span class=locality>Berlin</span></div>"
        "<div class=vcard itemref=s></div><div id=s><span class=adr itemref=l></span></div>"
    )
    for label, chunks in chunkings(doc):
        _, errors = feed_events(chunks, URL)
        assert any("#l named inside an include target appeared before it" in e for e in errors), label
