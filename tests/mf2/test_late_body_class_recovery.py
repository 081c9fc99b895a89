"""A later ``<body>`` tag that gives the body an mf2 class, with ``stream_children``.

HTML merges the attributes of a later ``<body>`` start tag into the existing
body, so the whole parse of ``<html class=h-feed>…<i class=h-entry>…<body
class=h-entry>`` nests the ``i`` item in the body's item. With
``stream_children`` the ``i`` may have been yielded already as a child of the
``<html>`` item. Where no child was yielded yet (children held in the container
while the base URL or document language may still come, ``max_held_children``)
the output equals the default. Otherwise the documented recovery: the streamed
children stay children of the ``<html>`` item, the body's item is built without
them (never with an empty placeholder item), and ``Parser.errors`` says so.
"""

from __future__ import annotations

from typing import Any

import pytest

import stream_mf2
from stream_mf2 import Parser, reassemble
from stream_mf2.core.events import Event
from stream_mf2.events import ItemEvent
from tests.support.chunking import chunkings

URL = "http://e.com/"
NOTE = (
    "a later <body> tag gave <body> the class {cls!r} after {n} child item(s) of the <html> item had been"
    " streamed (stream_children): they stay children of the <html> item, and the body is built without them"
)
MODES: list[bool | frozenset[str]] = [True, frozenset({"h-feed"})]


def _run(chunks: list[str] | list[bytes], **options: Any) -> tuple[list[Event], list[Any], list[str]]:
    parser = Parser(URL, **options)
    events: list[Event] = []
    for chunk in chunks:
        events.extend(parser.feed_events(chunk))
    events.extend(parser.close_events())
    return events, reassemble(events), parser.errors


def _well_formed(items: list[Any]) -> None:
    """Every item has a type list and properties; nested items too."""
    for item in items:
        assert isinstance(item, dict) and item.get("type") and "properties" in item, item
        _well_formed(item.get("children", []))
        for values in item["properties"].values():
            _well_formed([v for v in values if isinstance(v, dict) and "type" in v])


def _paths(events: list[Event]) -> list[tuple[int, ...]]:
    return [e.path for e in events if type(e) is ItemEvent]


# (document, options): the children are not yielded before the merge, so the output is exact
EXACT: list[tuple[str, dict[str, Any]]] = [
    # no <base> yet: the children wait in the container (max_held_children)
    ("<html class=h-feed><i class=h-entry>e</i><body class=h-entry>", {}),
    ("<html class=h-feed>text<i class=h-entry>e</i><b class=h-entry>f</b><body class=h-feed>", {}),
    ("<html class=h-feed><i class=h-entry>e</i><i class=h-entry>f</i><body class=p-name>", {}),
    # with lang, the document language is still open
    ("<html class=h-feed><base href=/b/><i class=h-entry>e</i><body class=h-entry lang=en>", {"lang": True}),
    # the class is there from the start: the children are the body's
    ("<html class=h-feed><base href=/b/><body class=h-entry><i class=h-entry>e</i><body id=x>", {}),
    # the merge comes before any child
    ("<html class=h-feed><base href=/b/><body><body class=h-entry><i class=h-entry>e</i>", {}),
    # a child streamed from the head, the body's class there from the start, a later merge
    (
        "<html class=h-feed><head><base href=/b/><title class=h-entry>t</title></head>"
        "<body class=h-entry><i class=h-card>c</i><body lang=en>",
        {},
    ),
    # a merge without an mf2 class
    ("<html class=h-feed><base href=/b/><i class=h-entry>e</i><body class=dark lang=en>", {}),
]


@pytest.mark.parametrize(("doc", "options"), EXACT)
def test_exact_when_nothing_was_yielded(doc: str, options: dict[str, Any]) -> None:
    default = stream_mf2.parse(doc, URL, **options)
    for mode in MODES:
        for label, chunks in chunkings(doc):
            _, items, errors = _run(chunks, stream_children=mode, **options)
            assert items == default["items"], f"{label} {mode}"
            assert not [e for e in errors if "stream_children" in e], f"{label} {mode}"
        for label, raw in chunkings(doc.encode(), splits=False):
            assert _run(raw, stream_children=mode, **options)[1] == default["items"], f"{label} (bytes) {mode}"
    _well_formed(default["items"])


def _entry(name: str) -> dict[str, Any]:
    return {"type": ["h-entry"], "properties": {"name": [name]}}


# (document, options, the items with stream_children, the note's class, the streamed children's indices)
RECOVERED: list[tuple[str, dict[str, Any], list[Any], str, list[int]]] = [
    # the reported case: an empty {} child in the body's item before
    (
        "<html class=h-feed><base href=/b/><i class=h-entry>e</i><body class=h-entry>",
        {},
        [{"type": ["h-feed"], "properties": {}, "children": [_entry("e"), {"type": ["h-entry"], "properties": {}}]}],
        "h-entry",
        [0],
    ),
    # text before, more children, a child after the merge (the body's own)
    (
        "<html class=h-feed><base href=/b/>text<i class=h-entry>e</i><i class=h-entry>f</i>"
        "<body class=h-entry><b class=h-card>c</b>",
        {},
        [
            {
                "type": ["h-feed"],
                "properties": {},
                "children": [
                    _entry("e"),
                    _entry("f"),
                    {
                        "type": ["h-entry"],
                        "properties": {},
                        "children": [{"type": ["h-card"], "properties": {"name": ["c"]}}],
                    },
                ],
            }
        ],
        "h-entry",
        [0, 1],
    ),
    # a body feed
    (
        "<html class=h-feed><base href=/b/><i class=h-entry>e</i><i class=h-entry>f</i><body class=h-feed>",
        {},
        [
            {
                "type": ["h-feed"],
                "properties": {},
                "children": [_entry("e"), _entry("f"), {"type": ["h-feed"], "properties": {}}],
            }
        ],
        "h-feed",
        [0, 1],
    ),
    # with lang: the document language was known, the children streamed
    (
        "<html class=h-feed lang=en><base href=/b/><i class=h-entry>e</i><body class=h-entry>",
        {"lang": True},
        [
            {
                "type": ["h-feed"],
                "properties": {},
                "children": [
                    {"type": ["h-entry"], "properties": {"name": ["e"]}, "lang": "en"},
                    {"type": ["h-entry"], "properties": {}, "lang": "en"},
                ],
                "lang": "en",
            }
        ],
        "h-entry",
        [0],
    ),
    # without <base>: past max_held_children the children stream
    (
        "<html class=h-feed><i class=h-entry>e</i><i class=h-entry>f</i><i class=h-entry>g</i><body class=h-entry>",
        {"max_held_children": 1},
        [
            {
                "type": ["h-feed"],
                "properties": {},
                "children": [
                    # the child held in the container is the body's, as in the whole parse
                    {"type": ["h-entry"], "properties": {}, "children": [_entry("e")]},
                    _entry("f"),
                    _entry("g"),
                ],
            }
        ],
        "h-entry",
        [1, 2],
    ),
    # a child streamed from the head, then children in the body: the body's item has no
    # implied name (the whole parse gives it nested items; a placeholder stands for them)
    (
        "<html class=h-feed><head><base href=/b/><title class=h-entry>t</title></head>"
        "<i class=h-entry>e</i><i class=h-entry>f</i><body class=h-entry>",
        {},
        [
            {
                "type": ["h-feed"],
                "properties": {},
                "children": [_entry("t"), _entry("e"), _entry("f"), {"type": ["h-entry"], "properties": {}}],
            }
        ],
        "h-entry",
        [0, 1, 2],
    ),
    # children held in the container before a streamed one: the body's item takes them, and
    # the streamed child's index is past the container's children (reassemble puts it last)
    (
        "<html class=h-feed><i class=h-entry>e</i><i class=h-entry>e2</i><i class=h-entry>f</i><body class=h-entry>",
        {"max_held_children": 2},
        [
            {
                "type": ["h-feed"],
                "properties": {},
                "children": [
                    {"type": ["h-entry"], "properties": {}, "children": [_entry("e"), _entry("e2")]},
                    _entry("f"),
                ],
            }
        ],
        "h-entry",
        [2],
    ),
    (
        "<html class=h-feed><i class=h-entry>e</i><i class=h-entry>f</i><body class='h-card p-author'>",
        {"max_held_children": 1},
        [
            {
                "type": ["h-feed"],
                "properties": {
                    "author": [{"value": "e", "type": ["h-card"], "properties": {}, "children": [_entry("e")]}]
                },
                "children": [_entry("f")],
            }
        ],
        "h-card p-author",
        [1],
    ),
    # the body becomes a property of the feed: its text lacks the streamed children
    (
        "<html class=h-feed><base href=/b/><i class=h-entry>e</i><i class=h-entry>f</i><body class=p-name>",
        {},
        [{"type": ["h-feed"], "properties": {"name": [""]}, "children": [_entry("e"), _entry("f")]}],
        "p-name",
        [0, 1],
    ),
    # an item property of the feed
    (
        "<html class=h-feed><base href=/b/><i class=h-entry>e</i><body class='h-card p-author'>",
        {},
        [
            {
                "type": ["h-feed"],
                "properties": {"author": [{"type": ["h-card"], "properties": {}, "value": ""}]},
                "children": [_entry("e")],
            }
        ],
        "h-card p-author",
        [0],
    ),
]


@pytest.mark.parametrize(("doc", "options", "want", "cls", "streamed"), RECOVERED)
def test_recovery_after_children_were_yielded(
    doc: str, options: dict[str, Any], want: list[Any], cls: str, streamed: list[int]
) -> None:
    default = stream_mf2.parse(doc, URL, **options)
    _well_formed(default["items"])
    # the default builds the children when the container ends: they are the body's
    assert default["items"] != want
    note = NOTE.format(cls=cls, n=len(streamed))
    assert note not in default.get("errors", [])
    for mode in MODES:
        for label, chunks in chunkings(doc):
            events, items, errors = _run(chunks, stream_children=mode, **options)
            assert items == want, f"{label} {mode}"
            _well_formed(items)
            assert errors.count(note) == 1, f"{label} {mode}: {errors}"
            assert _paths(events) == [*((0, j) for j in streamed), ()], label
        for label, raw in chunkings(doc.encode(), splits=False):
            assert _run(raw, stream_children=mode, **options)[1:] == (items, errors), f"{label} (bytes) {mode}"
    # without stream_children the children are not yielded early: nothing is said
    for label, chunks in chunkings(doc, splits=False):
        _, items, errors = _run(chunks, **options)
        assert items == default["items"], label
        assert note not in errors, label


def test_other_types_do_not_stream() -> None:
    """A set of container types without the html item's: nothing streams, exact."""
    doc = RECOVERED[0][0]
    default = stream_mf2.parse(doc, URL)
    for label, chunks in chunkings(doc):
        events, items, errors = _run(chunks, stream_children=frozenset({"h-entry"}))
        assert items == default["items"] and _paths(events) == [()], label
        assert not [e for e in errors if "stream_children" in e], label
