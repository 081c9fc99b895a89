"""Items come out in final document order when the adoption agency algorithm moves a kept element.

In ``<a><span class=h-x><span><button><hr class=h-y></a>`` the ``hr`` is made
inside ``h-x``; the adoption agency algorithm at ``</a>`` moves the ``button``
(with the ``hr``) after the ``a``, so ``h-y`` becomes an outermost item that
follows ``h-x``. The tree builder reports the pops of the elements it removed
from the stack of open elements (the inner ``span``, then ``h-x``, then ``a``)
after the moves, and ``h-y`` used to be handed over at the first of them, while
``h-x`` still counted as open: before ``h-x``. Each variant below moves content
another way (a second ``<nobr>``, ``<p>`` inside a ``button``, foster parenting
from a ``table``) and is compared with the full-DOM parse, in every chunking and
with ``stream_children``.
"""

from __future__ import annotations

import random

import pytest

import stream_mf2
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support import chunking

URL = "http://example.com/"

CASES: dict[str, str] = {
    # the finding as reported
    "a-button-hr": "<a><span class=h-x><span><button><hr class=h-y></a>",
    # a formatting element's own start tag runs the algorithm
    "nobr-nobr": "<nobr><span class=h-x><span><div><hr class=h-y><nobr>",
    # the item has content and is closed before the misnested end tag
    "b-p-span-text": "<b><span class=h-x><span><p><span class=h-y>x</span></b>",
    # the furthest block is a p inside a button
    "b-button-p": "<b><span class=h-x><span><button><p><hr class=h-y></b>",
    # everything is foster-parented out of a table first
    "foster-table-b": "<table><b><span class=h-x><span><div><hr class=h-y></b>",
    # the furthest block is the one after a non-kept ancestor of h-x
    "a-p-h-b": "<a><p><span class=h-b><button><hr class=h-d></a>",
    # more items: before, inside the moved block, and after the moves
    "several": (
        "<p class=h-a>a</p><b><span class=h-x><span>1<div class=h-y>2<span class=h-z>3</span></div>"
        "tail</b><p class=h-w>w</p>"
    ),
}


def _expected(doc: str) -> list[dict[str, object]]:
    items = parse_dom(parse_document(doc), URL, Options())["items"]
    assert isinstance(items, list)
    return items


@pytest.mark.parametrize("name", sorted(CASES))
def test_order_equals_full_dom_in_every_chunking(name: str) -> None:
    doc = CASES[name]
    expected = _expected(doc)
    assert len(expected) >= 2, "the case must make at least two items"
    for label, chunks in chunking.chunkings(doc):
        parser = stream_mf2.Parser(URL)
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert items == expected, label
    for label, bchunks in chunking.chunkings(doc.encode(), splits=False):
        parser = stream_mf2.Parser(URL)
        items = [i for c in bchunks for i in parser.feed(c)] + parser.close()
        assert items == expected, label


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_children_equals_default(name: str) -> None:
    doc = CASES[name]
    for wrapped in (doc, f"<div class=h-feed>{doc}</div>"):
        expected = _expected(wrapped)
        for label, chunks in chunking.chunkings(wrapped, splits=False):
            parser = stream_mf2.Parser(URL, stream_children=True)
            items = [i for c in chunks for i in parser.feed(c)] + parser.close()
            assert items == expected, (wrapped, label)
        assert stream_mf2.parse(wrapped, URL, stream_children=True)["items"] == expected


_FORMATTING = ("a", "b", "nobr")
_OTHERS = ("span", "span", "div", "button", "p", "table", "td", "hr")


def _soup(rng: random.Random) -> str:
    """A short tag soup of formatting elements, blocks, tables and h-* roots, ending in misnested end tags."""
    parts: list[str] = []
    opened: list[str] = []
    n = rng.randint(4, 9)
    for k in range(n):
        r = rng.random()
        root = " class=h-" + "abcdefghij"[k]
        if k >= n - 2 and opened:
            parts.append(f"</{rng.choice(opened)}>")
        elif r < 0.2:
            t = rng.choice(_FORMATTING)
            opened.append(t)
            parts.append(f"<{t}{root if rng.random() < 0.3 else ''}>")
        elif r < 0.85:
            parts.append(f"<{rng.choice(_OTHERS)}{root if rng.random() < 0.45 else ''}>")
        elif r < 0.92:
            parts.append(f"</{rng.choice(_OTHERS)}>")
        else:
            parts.append("x")
    return "".join(parts)


def test_generated_soups_equal_the_full_dom() -> None:
    rng = random.Random(20261125)
    for _ in range(400):
        doc = _soup(rng)
        expected = _expected(doc)
        assert stream_mf2.parse(doc, URL)["items"] == expected, doc
        assert stream_mf2.parse(doc, URL, stream_children=True)["items"] == expected, doc
