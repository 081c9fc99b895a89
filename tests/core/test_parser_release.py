"""A closed (or failed) Parser leaves no reference cycles among its stages, and stays readable.

Tokenizer, tree builder, sink and parser refer to each other while a document is
parsed; :meth:`Parser.close` breaks those links so that reference counting frees
the stages at once, instead of the cyclic garbage collector. Checked with the
collector off: an engine object still alive after the parser is dropped was held
by a cycle.
"""

from __future__ import annotations

import gc

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.errors import LimitExceeded
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.dom import Document, Element
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from tests.support.chunking import chunkings

PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ana</title>'
    '<link rel="me" href="https://ana.example/"></head>'
    '<body class="x"><div class="h-card"><a class="p-name u-url" href="/ana">Ana Example</a>'
    "<p>Hello, <b>world</b>, from me.</p></div><table><tr><td>1</td></tr></table>"
    "<template><p>t</p></template></body></html>"
)

_ENGINE = (Parser, Tokenizer, TreeBuilder, BoundedSink, Document, Element)


def _engine_objects() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, _ENGINE))


@pytest.mark.parametrize("doc", [PAGE, PAGE.encode()], ids=["str", "bytes"])
def test_parse_leaves_no_engine_cycles(no_gc: None, doc: str | bytes) -> None:
    before = _engine_objects()
    result = parse(doc, "http://example.com/")
    assert result["items"] and result["rels"]
    assert _engine_objects() == before


def test_results_readable_after_close_whatever_the_chunking(no_gc: None) -> None:
    expected = parse(PAGE, "http://example.com/")
    before = _engine_objects()
    for _name, chunks in chunkings(PAGE.encode(), splits=False):
        parser = Parser("http://example.com/", collect_parse_errors=True)
        items = []
        for chunk in chunks:
            items += parser.feed(chunk)
        items += parser.close()
        assert items == expected["items"]
        assert parser.rels == expected["rels"] and parser.rel_urls == expected["rel-urls"]
        assert parser.encoding is not None
        assert isinstance(parser.errors, list)
        del parser
        assert _engine_objects() == before


@pytest.mark.parametrize(
    "doc",
    ["<div>" * 10, '<table><tr><td><div class="h-card"><b><p>' + "<span>x" * 10, "<template><p><i>" * 4],
    ids=["plain", "kept-inside-table", "templates"],
)
def test_failed_parser_is_released_and_readable(no_gc: None, doc: str) -> None:
    before = _engine_objects()
    parser = Parser("http://example.com/", max_depth=9)
    with pytest.raises(LimitExceeded):
        parser.feed(doc)
    assert isinstance(parser.errors, list)
    del parser
    assert _engine_objects() == before


@pytest.mark.parametrize(
    "doc",
    [
        "<body><table><tr>" + "<td>cell</td>" * 40 + "</tr></table>",
        "<body><ul>" + '<li><a href="/x">link</a></li>' * 40 + "</ul>",
    ],
    ids=["cells", "links"],
)
def test_leaf_that_ends_the_tentative_body_leaves_no_cycle(no_gc: None, doc: str) -> None:
    # A leaf with text (the fused call) stored as tentative body content can take the
    # stored nodes past max_prefix_nodes: the demotion releases that very leaf, whose
    # text must then not be attached to it (its parent link back would be a cycle).
    expected = parse(doc, "http://example.com/", tokenizer_fast_path=False, max_prefix_nodes=5)
    gc.collect()
    result = parse(doc, "http://example.com/", max_prefix_nodes=5)
    assert result == expected
    assert gc.collect() == 0


@pytest.mark.parametrize(
    "syntaxes",
    [{"mf2"}, {"rdfa"}, {"json-ld"}, {"opengraph", "twitter", "dublincore"}],
    ids=["mf2", "rdfa", "json-ld", "head-metadata"],
)
def test_a_syntax_consumer_leaves_no_cycle(no_gc: None, syntaxes: set[str]) -> None:
    # (the RDFa consumer was its own placement observer through an attribute: a cycle)
    page = PAGE.replace(
        "<body", '<body vocab="https://schema.org/" typeof="WebPage"><meta property="og:title" content="Ana"'
    ).replace("<title>", '<script type="application/ld+json">{"@type": "Person"}</script><title>')
    parse(page, "http://example.com/", syntaxes=syntaxes)  # (imports and caches made once)
    gc.collect()
    result = parse(page, "http://example.com/", syntaxes=syntaxes)
    assert result
    assert gc.collect() == 0
