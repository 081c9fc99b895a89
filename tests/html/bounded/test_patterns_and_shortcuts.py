"""The bounded sink's decisions on completed kept elements, on the inputs that were once superlinear.

* ``_classify`` climbed every open ancestor of each completed kept element:
  ``'<div>' * k + '<i class=h-cite></i>' * k`` was quadratic (fuzz findings F5
  and F7). Past a few open ancestors it now uses climb summaries remembered per
  open element.
* Candidates held by a formatting element above a special one were woken and
  held again at every level of n nested such pairs (the fuzz example below);
  now they are passed on as one group while nothing between them and the
  blocker is open.
* ``_hand_over`` sorted every held and waiting item into document order at each
  call (``'<p><button>x<code><pre class=h-card>' * k``): the pending items are
  now kept in document order as they come.

Their growth is measured in ``test_growth.py`` (the table ``growth.py``); here
output is checked against the full-DOM parse, whole and in every chunking, with and without
``stream_children``. The sink's debug switch (``check_shortcuts``) checks every
remembered climb against a plain walk, every group passed on against the classification each of its
candidates would get, and the kept order against a sort, on the
tree-construction suite, tag soup and these patterns.
"""

from __future__ import annotations

import random

import pytest

import stream_mf2
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.testing import parse_document
from stream_mf2.html.testing.tree import build, context_element
from stream_mf2.mf2 import Options, parse_dom
from tests.html.bounded.growth import NESTED_PATTERNS, TABLE_PATTERNS
from tests.html.bounded.growth import PARSE_PATTERNS as PATTERNS
from tests.support import chunking
from tests.support.bounded_sink import KEEPS, bounded, expected, tag_soup
from tests.support.sink_shortcuts import checked_sink
from tests.support.tree_cases import require_cases

_TABLE_SOUP_TAGS = (
    "table",
    "td",
    "th",
    "tr",
    "tbody",
    "caption",
    "b",
    "a",
    "nobr",
    "i",
    "div",
    "span",
    "p",
    "template",
)


def _table_soup(rng: random.Random) -> str:
    """Tables, cells and captions among misnested formatting elements and runs of open ``div``s."""
    out: list[str] = []
    for _ in range(rng.randint(1, 40)):
        r = rng.random()
        if r < 0.1:
            out.append("<div>" * rng.randint(2, 24))
        elif r < 0.2:
            # a table holding an item, after its cell if any
            cls = f' class="h-{rng.randint(0, 3)}"'
            out.append(rng.choice(["<table><td>", "<table><caption>", "<table>", "<td>"]) + f"<i{cls}></i>")
        elif r < 0.6:
            tag = rng.choice(_TABLE_SOUP_TAGS)
            cls = f' class="h-{rng.randint(0, 3)}"' if rng.random() < 0.4 else ""
            out.append(f"<{tag}{cls}>")
        elif r < 0.85:
            out.append(f"</{rng.choice(_TABLE_SOUP_TAGS)}>")
        else:
            out.append(rng.choice(["x", " ", "text "]))
    return "".join(out)


@pytest.mark.parametrize("name", sorted(NESTED_PATTERNS))
def test_nested_patterns_equal_the_full_dom(name: str) -> None:
    doc = NESTED_PATTERNS[name](6)
    for label, chunks in chunking.chunkings(doc, splits=False):
        for stream_children in (False, True):
            url = "http://example.com/"
            parser = stream_mf2.Parser(url, stream_children=stream_children)
            items = [i for c in chunks for i in parser.feed(c)] + parser.close()
            assert items == parse_dom(parse_document(doc), url, Options())["items"], label


@pytest.mark.parametrize("stream_children", [False, True])
@pytest.mark.parametrize("name", sorted(PATTERNS) + [f"tables/{name}" for name in sorted(TABLE_PATTERNS)])
def test_output_equals_full_dom_in_every_chunking(name: str, stream_children: bool) -> None:
    doc = TABLE_PATTERNS[name[7:]](6) if name.startswith("tables/") else PATTERNS[name](5)
    url = "http://example.com/"
    expected_items = parse_dom(parse_document(doc), url, Options())["items"]
    assert expected_items, "the pattern must make items"
    for label, chunks in chunking.chunkings(doc, splits=False):
        parser = stream_mf2.Parser(url, stream_children=stream_children)
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert items == expected_items, label


# ------------------------------------------------------------------ shortcuts checked


def _check(chunks: list[str], keep_name: str, fragment: str | None, inline_open: int, **kw: int) -> BoundedSink:
    """Build with every shortcut checked (remembered climbs, groups passed on, the kept
    order, the runs), remembered climbs from ``inline_open`` open ancestors on."""
    sink = checked_sink(
        KEEPS[keep_name], inline_climbs=(inline_open, kw.get("inline_tables", 1)), max_pending=kw.get("max_pending")
    )
    build(chunks, sink, context_element(fragment) if fragment else None)
    return sink


@pytest.mark.parametrize("inline_open", [0, 2])
def test_checked_tree_construction(inline_open: int) -> None:
    from stream_mf2.html.testing.tree import TreeTest

    climbs = 0
    for case in require_cases():
        assert isinstance(case, TreeTest)
        # (the suite has few h-* classes: keep every b, a and div)
        climbs += _check([case.data], "b-a-div", case.fragment_context, inline_open).checks.get("climb", 0)
    assert climbs > 400


@pytest.mark.parametrize("inline_open", [0, 3])
def test_checked_tag_soup_and_patterns(inline_open: int) -> None:
    rng = random.Random(chunking.SEED + inline_open)
    passed_on = tables = 0
    docs = [tag_soup(rng) for _ in range(300)] + [_table_soup(rng) for _ in range(150)]
    docs += [make(12) for make in (*PATTERNS.values(), *NESTED_PATTERNS.values())]
    inline_tables = 2 if inline_open else 0  # (0: _outer_table never calls _next_table)
    for html in docs:
        chunks = chunking.random_chunks(html, rng.randint(0, 10**6))
        for keep_name in KEEPS:
            sink = _check(chunks, keep_name, None, inline_open, inline_tables=inline_tables)
            passed_on += sink.checks.get("passed_on", 0)
            tables += sink.checks.get("next_table", 0) + sink.checks.get("outer_table", 0)
            _check(chunks, keep_name, None, inline_open, max_pending=3)
    assert passed_on > 20
    assert tables > 100


@pytest.mark.parametrize("seed", range(chunking.SEED, chunking.SEED + 4))
def test_deep_tag_soup_equals_the_full_dom(seed: int) -> None:
    # soups under 20 open elements: the remembered climbs decide every item
    rng = random.Random(seed)
    for _ in range(60):
        html = "<div><span><s><fieldset>" * 5 + tag_soup(rng) + "<b><p>" * 3 + tag_soup(rng)
        chunks = chunking.random_chunks(html, rng.randint(0, 10**6))
        for keep in KEEPS.values():
            assert bounded(chunks, keep)[0] == expected(chunks, keep), f"seed={seed} {html!r}"


@pytest.mark.parametrize("seed", range(chunking.SEED, chunking.SEED + 4))
def test_table_soup_equals_the_full_dom(seed: int) -> None:
    # tables among misnested formatting elements, below a table and 16 open elements
    rng = random.Random(seed)
    for _ in range(60):
        html = "<table><td>" + "<div><span>" * 8 + _table_soup(rng) + "<b><div>" * 3 + _table_soup(rng)
        chunks = chunking.random_chunks(html, rng.randint(0, 10**6))
        for keep in KEEPS.values():
            assert bounded(chunks, keep)[0] == expected(chunks, keep), f"seed={seed} {html!r}"


def test_moves_inside_an_open_feed_stream_children_at_size() -> None:
    # Every misnested </b> moved the open <div>s out of and back into the feed; each item
    # below was queued for a new decision at each move, and with stream_children a streamed
    # child came with an index past its parent's known children (ValueError) at n=500.
    doc = "<div class=h-feed>x<b>" + "<div>" * 500 + "</b><i class=h-x></i>" * 500
    url = "http://example.com/"
    assert stream_mf2.parse(doc, url, stream_children=True) == stream_mf2.parse(doc, url)
