"""The hand-over helpers that share walks give what the separate functions give.

``collect_rels_and_markers`` also answers the include pattern's marker pre-check: when it
says ``False``, :func:`include_references` of the same subtree must be empty.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from stream_mf2.html.dom import Element, Node
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Mf2Context, collect_rels, collect_rels_and_markers
from stream_mf2.mf2.include import include_references
from tests.mf2_suite import document, el
from tests.suites import mf2_pages


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
