"""The hand-over helpers that share walks give what the separate functions give.

``collect_rels_and_markers`` also answers the include pattern's marker pre-check: when it
says ``False``, :func:`include_references` of the same subtree must be empty.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from stream_mf2.html.dom import Element, Node
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import (
    Mf2Context,
    Options,
    collect_rels,
    collect_rels_and_markers,
    items_and_rels,
    items_from_subtree,
    keeps,
)
from stream_mf2.mf2.include import include_references
from tests.support.mf2_suite import document, el
from tests.support.suites import mf2_pages


def _elements(root: Node) -> list[Element]:
    out: list[Element] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Element):
            out.append(node)
        stack.extend(getattr(node, "children", ()))
    return out


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ({"class": "vcard"}, False),
        ({"class": "vcard", "itemref": "x"}, True),
        ({"headers": "h1"}, True),
        ({"class": "include"}, True),
        ({"class": "p-include-not"}, True),  # the pre-check is a substring test, like include's
        ({}, False),
    ],
)
def test_markers_on_root_and_below(attrs: dict[str, str], expected: bool) -> None:
    for root in (el("div", attrs, "text"), el("div", {"class": "h-card"}, el("p"), el("span", attrs, "x"))):
        document(root)
        assert collect_rels_and_markers(root, Mf2Context("http://example.com/")) is expected


def test_rels_are_still_collected() -> None:
    root = el("div", {"class": "h-card"}, el("a", {"rel": "me", "href": "/me"}, "me"), el("td", {"headers": "h"}))
    document(root)
    ctx = Mf2Context("http://example.com/")
    assert collect_rels_and_markers(root, ctx) is True
    plain = Mf2Context("http://example.com/")
    collect_rels(root, plain)
    assert ctx.rels.rels == plain.rels.rels == {"me": ["http://example.com/me"]}
    assert ctx.rels.rel_urls == plain.rels.rel_urls


@pytest.mark.parametrize(("path", "url"), list(mf2_pages()))
def test_no_markers_means_no_include_references(path: Path, url: str) -> None:
    doc = parse_document(path.read_text(encoding="utf-8", errors="replace"))
    for element in _elements(doc):
        if not collect_rels_and_markers(element, Mf2Context(url)):
            assert include_references(element) == [], element
    # and the rels are those of collect_rels, in the same order
    html = next(element for element in _elements(doc) if element.name == "html")
    plain, both = Mf2Context(url), Mf2Context(url)
    collect_rels(html, plain)
    collect_rels_and_markers(html, both)
    assert orjson.dumps([plain.rels.rels, plain.rels.rel_urls]) == orjson.dumps([both.rels.rels, both.rels.rel_urls])


# -- items_and_rels: the item walk that also collects rels and the marker check ----------

_OPTION_SETS = (Options(), Options(text="normalized", lang=True, filter_roots=True))


def _separate(element: Element, url: str, options: Options) -> tuple[bytes, bool]:
    ctx = Mf2Context(url, options)
    markers = collect_rels_and_markers(element, ctx)
    items = items_from_subtree(element, ctx, includes=False)
    return orjson.dumps([items, ctx.rels.rels, ctx.rels.rel_urls, ctx.notes]), markers


def _together(element: Element, url: str, options: Options) -> tuple[bytes, bool]:
    ctx = Mf2Context(url, options)
    items, markers = items_and_rels(element, ctx)
    return orjson.dumps([items, ctx.rels.rels, ctx.rels.rel_urls, ctx.notes]), markers


def _same_as_separate(element: Element, url: str) -> None:
    for options in _OPTION_SETS:
        assert _together(element, url, options) == _separate(element, url, options), (element, options)


@pytest.mark.parametrize(("path", "url"), list(mf2_pages()))
def test_items_and_rels_equal_the_separate_walks(path: Path, url: str) -> None:
    """On the subtrees the streaming parse hands over (roots, rel links, head, body, html)."""
    doc = parse_document(path.read_text(encoding="utf-8", errors="replace"))
    probe = Mf2Context(url)
    for element in _elements(doc):
        if element.name in ("html", "head", "body") or keeps(element, probe):
            _same_as_separate(element, url)


def _nofollow(text: str = "link") -> Element:
    return el("a", {"rel": "nofollow", "href": f"/{text}"}, text)


@pytest.mark.parametrize(
    "root",
    [
        # rel links in e-* content the walker does not enter (no class below matters)
        lambda: el(
            "div",
            {"class": "h-entry"},
            el("div", {"class": "e-content"}, el("p", None, _nofollow("a")), _nofollow("b")),
        ),
        # ... and where it does enter after some links (a nested root further on)
        lambda: el(
            "div",
            {"class": "h-entry"},
            el(
                "div",
                {"class": "e-content"},
                _nofollow("a"),
                el("span", {"class": "h-card"}, _nofollow("b")),
                _nofollow("c"),
            ),
            _nofollow("d"),
        ),
        # an include marker inside skipped e-* content still counts
        lambda: el(
            "div", {"class": "h-entry"}, el("div", {"class": "e-content"}, el("p", {"itemref": "x"}), _nofollow())
        ),
        lambda: el("div", {"class": "h-entry"}, el("div", {"class": "e-content"}, el("i", {"class": "include"}))),
        # nested e-* values, an e-* nested root, a rel link that is the root itself
        lambda: el(
            "div",
            {"class": "h-feed"},
            el(
                "div",
                {"class": "e-content"},
                el("div", {"class": "e-x h-entry"}, el("div", {"class": "e-content"}, _nofollow())),
            ),
        ),
        lambda: el("a", {"class": "h-card", "rel": "me", "href": "/me"}, "me", _nofollow("inner")),
        # classic items: every element is classified there
        lambda: el(
            "div",
            {"class": "hentry"},
            el("div", {"class": "entry-content"}, _nofollow(), el("a", {"rel": "tag", "href": "/t"}, "t")),
        ),
        # a template's content is inert (not descendants); children of a hand-built template are walked
        lambda: el(
            "div", {"class": "h-card"}, el("template", None, _nofollow("in-template"), el("b")), _nofollow("after")
        ),
        lambda: el("div", None, el("template", {"class": "p-x"}, _nofollow("in-template"), el("b", {"headers": "h"}))),
    ],
)
def test_items_and_rels_crafted(root: Any) -> None:
    element = root()
    document(element)
    _same_as_separate(element, "http://example.com/dir/")


def test_items_and_rels_template_contents_in_e_html() -> None:
    """A rel link inside template contents (in e-* html) is not a rel of the page."""
    doc = parse_document(
        '<div class="h-entry"><div class="e-content"><template><a rel="me" href="/t">t</a></template>'
        '<a rel="me" href="/x">x</a></div></div>'
    )
    root = next(e for e in _elements(doc) if e.attrs.get("class") == "h-entry")
    ctx = Mf2Context("http://example.com/")
    items_and_rels(root, ctx)
    assert ctx.rels.rels == {"me": ["http://example.com/x"]}
    _same_as_separate(root, "http://example.com/")
