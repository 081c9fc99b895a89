"""``stream_children`` and the mf1 include pattern inside a container.

An mf1 item in the container whose ``itemref`` (or ``a.include``) names a later
element is built when the container ends, with a copy of that element's whole
subtree. A later child streamed in the meantime would leave behind an emptied
placeholder (or nothing), so once an item of the container's own scope that
stays in it holds include markers, no later child of that container is
streamed: the output equals the default output and the full DOM's in every
chunking. Children before it still stream.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2 import ItemEvent, reassemble
from stream_mf2.core.events import Event
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support.chunking import chunkings
from tests.support.streamed import feed_events

URL = "http://example.com/dir/page.html"
ENTRIES = "".join(f"<i class=h-x>{i}</i>" for i in range(70))

DOCS = [
    # the fuzz finding: a <base> first, so children stream at once
    "<base href=/b/><y class=h-n><div class=vcard itemref=a></div><p id=a class=adr>-</p></y>",
    # without a <base>, past max_held_children (64) children stream too
    "<y class=h-n><div class=vcard itemref=a></div>" + ENTRIES + "<p id=a class=adr>-</p></y>",
    # the mf1 item is a property of the container, not a child
    "<base href=/b/><y class=h-n><div class='p-author vcard' itemref=a></div><p id=a class=h-x>-</p></y>",
    # the markers sit in an mf1 item inside a child; the target holds a child and text
    "<base href=/b/><y class=h-n><div class=h-entry><div class=vcard itemref=a></div></div>"
    "<div id=a><p class=h-x>-</p>t</div><p class=h-x>z</p></y>",
    # a.include: the marker is replaced by the target
    "<base href=/b/><y class=h-n><p class=vcard><a class=include href=#a></a></p><b class='h-card fn' id=a>-</b></y>",
    # children before the marker stream; the rest stay
    "<base href=/b/><y class=h-feed><p class=h-x>0</p><p class=h-x>1</p><div class=vcard itemref=a></div>"
    "<p class=h-x id=a><span class=fn>n</span></p><p class=h-x>3</p></y>",
]


def _stream(chunks: list[str] | list[bytes], **options: Any) -> tuple[list[Event], list[str]]:
    return feed_events(chunks, URL, **options)


@pytest.mark.parametrize("doc", DOCS)
def test_include_targets_stay_whole(doc: str) -> None:
    expected = stream_mf2.parse(doc, URL)
    assert expected["items"] == parse_dom(parse_document(doc), URL, Options())["items"]
    want = orjson.dumps(expected["items"])
    for mode in (True, frozenset({"h-n", "h-feed"})):
        for label, chunks in chunkings(doc, splits=len(doc) < 400):
            events, errors = _stream(chunks, stream_children=mode)
            assert orjson.dumps(reassemble(events)) == want, f"{label} stream_children={mode}"
            assert not errors
        for label, raw in chunkings(doc.encode(), splits=False):
            events, _errors = _stream(raw, stream_children=mode)
            assert orjson.dumps(reassemble(events)) == want, f"{label} (bytes) stream_children={mode}"


def test_children_before_the_markers_still_stream() -> None:
    events, _errors = _stream([DOCS[-1]], stream_children=True)
    paths = [e.path for e in events if isinstance(e, ItemEvent)]
    # the two children before the mf1 item stream; the ones after it stay in the container
    assert paths == [(0, 0), (0, 1), ()]



BACKWARD = [
    # the target is the first streamed child (left as an emptied placeholder)
    "<div class=h-feed><base href=/b/><p id=a class=adr>q</p><div class='p-author vcard' itemref=a></div></div>",
    # the target is inside a streamed child (removed); an item after the container
    "<div class=h-feed><base href=/b/><p class=h-x>1</p><p class=h-x><b id=a class=fn>q</b></p>"
    "<div class=vcard itemref=a></div></div><p class=h-card>after</p>",
]


@pytest.mark.parametrize("doc", BACKWARD)
def test_a_target_in_an_already_streamed_child_is_noted(doc: str) -> None:
    expected = stream_mf2.parse(doc, URL)
    for label, chunks in chunkings(doc, splits=False):
        events, errors = _stream(chunks, stream_children=True)
        items = reassemble(events)
        # the whole parse copies the target; the stream no longer has it, and says so
        assert items != expected["items"], label
        assert errors == ["include target(s) #a were in children already streamed (stream_children): not resolved"]
        # nothing else differs: the marker's item only lacks what the target gave it
        assert [c["type"] for c in items[0].get("children", [])] == [
            c["type"] for c in expected["items"][0].get("children", [])
        ], label
        assert items[1:] == expected["items"][1:], label
