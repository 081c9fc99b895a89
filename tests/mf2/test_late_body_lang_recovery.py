"""A ``lang`` merged into ``<body>`` (or ``<html>``) by a later tag, with ``lang=True``.

HTML merges the attributes of a later ``<body>``/``<html>`` start tag into the
existing element, so the full DOM gives every item that inherits its language
through it that ``lang``. Items already yielded cannot change: the documented
recovery is a note in ``Parser.errors`` that says how many built items inherit
another language (only when one does: an item with a ``lang`` of its own or of
an ancestor below the body, or one that already had that language, is not
counted; with ``lang=False`` nothing is said). Items built after the tag carry
it. The note is the same in every chunking and with ``stream_children``.
"""

from __future__ import annotations

from typing import Any

import pytest

import stream_mf2
from stream_mf2 import Parser, reassemble
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support.chunking import chunkings
from tests.support.streamed import feed_events

URL = "http://example.com/dir/page.html"
ENTRIES = "".join(f"<p class=h-entry>{i}</p>" for i in range(70))
BODY = "the document language came from a <body lang> after {} item(s) inheriting another one were built"
HTML = "the document language came from a <html lang> after {} item(s) inheriting another one were built"

# a body container whose children stream (with stream_children) before the merge
BODY_FEED = (
    "<html lang=fr><base href=/><body class=h-feed><p class=h-entry>x</p><p class=h-entry>y</p>"
    "<body lang=en><p class=h-entry>z</p>"
)
# an html container past max_held_children, then a later <html lang>
HTML_FEED = "<html class=h-feed><base href=/>" + ENTRIES + "<html lang=en><p class=h-entry>z</p>"

# (document, the note's start or None when the output equals the full DOM's)
CASES: list[tuple[str, str | None]] = [
    # the fuzz finding: <pre> closes the p, so the h-card is yielded before the merge
    ("<p class=h-card><pre><body lang=en>", BODY.format(1)),
    # after </body></html> the tag still merges into the body
    ("<p class=h-card>x</p></body></html><body lang=en><i class=h-card>y</i>", BODY.format(1)),
    # the html element's language was inherited: the body's is nearer
    ("<html lang=fr><p class=h-card>x</p><p class=h-card>z</p><body lang=en><p class=h-card>y</p>", BODY.format(2)),
    # (quiet without stream_children: see the container tests below)
    (BODY_FEED, None),
    (HTML_FEED, None),
    # quiet: the item has its own lang, or an ancestor below the body gives it one
    ("<p class=h-card lang=de><pre><body lang=en>", None),
    ("<div lang=de><p class=h-card>x</p></div><body lang=en><p class=h-card>y</p>", None),
    # quiet: an item in <head> does not inherit through the body
    ("<head><title class=h-x>t</title></head><body><body lang=en>", None),
    # quiet: an item still open at the merge is built with the language
    ("<div class=h-feed><p class=h-entry>a</p><body lang=en>b</div>", None),
    # quiet: the items already had that language, or an empty lang changes nothing
    ("<html lang=en><p class=h-card>x</p><body lang=en>", None),
    ("<p class=h-card><pre><body lang=''>", None),
    # quiet: no item before the merge
    ("<p>x<body lang=en><p class=h-card>y</p>", None),
]


def _stream(chunks: list[str] | list[bytes], **options: Any) -> tuple[list[Any], list[str]]:
    events, errors = feed_events(chunks, URL, **options)
    return reassemble(events), errors


def _without_lang(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_lang(v) for k, v in value.items() if k != "lang"}
    if isinstance(value, list):
        return [_without_lang(v) for v in value]
    return value


@pytest.mark.parametrize(("doc", "note"), CASES)
def test_late_body_lang(doc: str, note: str | None) -> None:
    dom = parse_dom(parse_document(doc), URL, Options(lang=True))["items"]
    items, errors = _stream([doc], lang=True)
    if note is None:
        assert items == dom
        assert errors == []
    else:
        assert items != dom and _without_lang(items) == _without_lang(dom)
        assert len(errors) == 1 and errors[0].startswith(note), errors
    for mode in (False, True, frozenset({"h-feed"})):
        for label, chunks in chunkings(doc, splits=len(doc) < 300):
            got = _stream(chunks, lang=True, stream_children=mode)
            if doc in (BODY_FEED, HTML_FEED) and mode:
                continue  # (the children stream before the merge: below)
            assert got == (items, errors), f"{label} stream_children={mode}"
        for label, raw in chunkings(doc.encode(), splits=False):
            if not (doc in (BODY_FEED, HTML_FEED) and mode):
                assert _stream(raw, lang=True, stream_children=mode) == (items, errors), f"{label} (bytes)"
        # without lang the language does not matter: nothing is said
        assert _stream([doc], stream_children=mode)[1] == []


def test_streamed_children_of_a_body_container() -> None:
    doc = BODY_FEED
    dom = parse_dom(parse_document(doc), URL, Options(lang=True))["items"]
    # the default parse builds the children when the container ends: all carry "en"
    assert stream_mf2.parse(doc, URL, lang=True)["items"] == dom
    for label, chunks in chunkings(doc):
        items, errors = _stream(chunks, lang=True, stream_children=True)
        # x and y streamed with the html element's "fr" before the merge
        assert [c.get("lang") for c in items[0]["children"]] == ["fr", "fr", "en"], label
        assert _without_lang(items) == _without_lang(dom), label
        assert errors == [BODY.format(2) + ": they do not carry it"], label


def test_streamed_children_of_an_html_container() -> None:
    doc = HTML_FEED
    for label, chunks in chunkings(doc, splits=False):
        items, errors = _stream(chunks, lang=True, stream_children=True)
        # 64 children held while the language was open, 6 streamed without it
        assert sum(1 for c in items[0]["children"] if "lang" not in c) == 6, label
        assert errors == [HTML.format(6) + ": they do not carry it"], label


def test_meta_item_before_a_late_html_lang() -> None:
    doc = "<head><title>T</title></head><p>x</p><html lang=en><p class=h-card>x</p>"
    dom = parse_dom(parse_document(doc), URL, Options(lang=True, metaformats=True))
    for label, chunks in chunkings(doc):
        parser = Parser(URL, lang=True, metaformats=True)
        items = [item for c in chunks for item in parser.feed(c)]
        items += parser.close()
        assert parser.meta_item is not None and "lang" not in parser.meta_item, label
        assert dom["meta-item"]["lang"] == "en"
        assert items == dom["items"], label
        assert parser.errors == [HTML.format(1) + ": they do not carry it"], label


HELD = [
    # an mf1 item held for its itemref target: its ancestors are released meanwhile
    "<span lang=de>t<div class='p-author vcard' itemref=a></div><p id=a class=adr>x</p>",
    "<meta http-equiv=content-language content=it><body lang=''><div class=vcard itemref=a></div><b id=a class=fn>n</b>",
    # built after a later <body lang> merged: it carries it, as in the full DOM
    "<div class=vcard itemref=a>t</div><body lang=en><b id=a class=fn>x</b>",
    "<html lang=fr><div lang=es><i>t<div class=vcard itemref=a></div></i></div><b id=a class=fn>x</b>",
]


@pytest.mark.parametrize("doc", HELD)
def test_items_held_for_include_targets_keep_their_language(doc: str) -> None:
    dom = parse_dom(parse_document(doc), URL, Options(lang=True))["items"]
    assert any("lang" in item for item in dom) or "lang=''" in doc
    for mode in (False, True):
        for label, chunks in chunkings(doc, splits=len(doc) < 300):
            assert _stream(chunks, lang=True, stream_children=mode) == (dom, []), f"{label} stream_children={mode}"


INERT = [
    # template contents are not part of the document: their <meta>/<base> set nothing
    "<body class=h-entry><y class=h-n><template><meta http-equiv=content-language content=it></template></y>",
    "<title>T</title><template><meta http-equiv=content-language content=it></template><p class=h-card>x</p>",
    "<head><template><meta http-equiv=content-language content=it></template>"
    "<meta http-equiv=content-language content=de></head><p class=h-card>x</p>",
]


@pytest.mark.parametrize("doc", INERT)
def test_metadata_inside_template_contents_is_inert(doc: str) -> None:
    options = Options(lang=True, metaformats=True)
    dom = parse_dom(parse_document(doc), URL, options)
    assert "'it'" not in str(dom)
    for label, chunks in chunkings(doc, splits=len(doc) < 300):
        parser = Parser(URL, lang=True, metaformats=True)
        items = [item for c in chunks for item in parser.feed(c)]
        items += parser.close()
        assert items == dom["items"], label
        assert parser.meta_item == dom.get("meta-item"), label


def test_a_base_inside_template_contents_is_inert() -> None:
    doc = "<template><base href=/t/></template><a class=h-card href=x>x</a><base href=/b/><a class=h-card href=y>y</a>"
    dom = parse_dom(parse_document(doc), URL, Options())
    # the first base of the document is /b/ (the full DOM applies it everywhere; the
    # stream from where it appears): never /t/
    for label, chunks in chunkings(doc, splits=False):
        items = _stream(chunks)[0]
        urls = [item["properties"]["url"][0] for item in items]
        assert urls == ["http://example.com/dir/x", "http://example.com/b/y"], label
    assert [item["properties"]["url"][0] for item in dom["items"]] == ["http://example.com/b/x", "http://example.com/b/y"]
