"""The bounded sink's decisions on completed kept elements cost linear time.

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

Work is the number of engine lines executed (deterministic, see
``tests/support/work.py``) at n, 2n and 4n; output is checked against the
full-DOM parse, whole and in every chunking, with and without
``stream_children``. The sink's debug switch (``check_shortcuts``) checks every
remembered climb against a plain walk, every group passed on against the classification each of its
candidates would get, and the kept order against a sort, on the
tree-construction suite, tag soup and these patterns.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

import stream_mf2
from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.testing import parse_document
from stream_mf2.html.testing.tree import build, context_element
from stream_mf2.mf2 import Options, parse_dom
from tests.support import chunking
from tests.support.bounded_sink import KEEPS, bounded, expected, tag_soup
from tests.support.builds import pure_only
from tests.support.sink_shortcuts import checked_sink
from tests.support.tree_cases import CASES
from tests.support.work import lines_executed

_FUZZ_F7 = (
    '<svg class="dt-end"><input class="h-x-y h-event p-a" id="i" itemref="id2 id1"/><s lang="" headers="id2"'
    ' data="#id1"><fieldset class=\'fn\' itemref="id1" title="T" href="//h/p">\r'
)

_FUZZ_AAA = (
    '<A class="hentry" src="" alt="" charset="utf-8"></caption></html><li class="include u-photo p-summary"/>'
    '<span alt="Alt">\r<dt alt=" A ">]]>'
)

PATTERNS: dict[str, Callable[[int], str]] = {
    # options nested in other options' content, outside items (a fuzz finding): each new
    # option looked for its select through every ancestor, and each loss marked every open option
    "options-nested-in-options": lambda n: "x<abbr class=h-x>" + "<select><option><tt>" * (4 * n),
    # _classify: n items under n open elements (the text first: a frameset could
    # otherwise still replace the body, and every item is held to the end)
    "items-under-open-divs": lambda n: "x" + "<div>" * n + "<i class=h-cite></i>" * n,
    "items-under-open-divs-held": lambda n: "<div>" * n + "<i class=h-cite></i>" * n,
    # a page with a selectedcontent: items outside any open select climb no further
    "items-under-open-divs-selectedcontent-page": lambda n: (
        "<select><selectedcontent></selectedcontent></select>x" + "<div>" * n + "<i class=h-cite></i>" * n
    ),
    "items-under-open-divs-in-table": lambda n: "<table><tr><td>" + "<div>" * n + "<i class=h-cite></i>" * n,
    "items-under-open-divs-then-closed": lambda n: (
        "x" + "<div>" * n + "<i class=h-cite></i>" * n + "</div>" * n + "<p class=h-x>"
    ),
    # items between nodes the adoption agency moves (fuzz, seed 20261127): remembered
    # climbs are forgotten only below the moved nodes
    "fuzz-adoption-agency": lambda n: "</big>" + _FUZZ_AAA * n,
    # the fuzz example (seed 20261129): n items held by n nested <s><fieldset> pairs
    "fuzz-f7": lambda n: _FUZZ_F7 * n,
    "fuzz-f7-text-and-items": lambda n: "x" + (_FUZZ_F7 + "<p class=h-y>y</p>") * n,
    # each misnested </b> moves a clone of <b> one open <div> further down, above
    # the items' open <div>: remembered climbs are shared by runs of open elements
    # (a move above a run costs one run), and the held items are woken as one group
    # (twice as deep: below 16 open elements a climb needs no remembered one)
    "adoption-agency-moves-open-divs": lambda n: "x<b>" + "<div>" * (2 * n) + "</b><i class=h-x></i>" * (2 * n),
    # the same with an h-* <b>: each move takes the furthest block out of an item and
    # its children back into one (the flags below them are refreshed once the moves are done)
    "adoption-agency-moves-out-of-h-b": lambda n: "x<b class=h-x>" + "<div>" * n + "</b><i class=h-y></i>" * n,
    # the same inside an item, with a clone of <i> between (a chain of moved clones)
    "adoption-agency-moves-in-h-feed": lambda n: (
        "<div class=h-feed>x<b><i>" + "<div>" * n + "</b><i class=h-x></i>" * n
    ),
    # each misnested </b> moves the open <div>s (forgetting remembered tables), then a table
    # under all of them holds an item: with no other open table none is looked for above it
    "aaa-div-table": lambda n: "x<b>" + "<div>" * n + "</b><table><td class=h-x></table>" * n,
    # the same with another table open above: each new table looks for the nearest open
    # table above it through every open <div> (the remembered answers are forgotten at each
    # move), now through remembered climbs of their own kind (_NEAREST_TABLE). Four times
    # as many: the quadratic part is small per <div> (the pure build was 2.7x per doubling
    # from there)
    "aaa-div-table-in-table": lambda n: (
        "<table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x></table>" * (4 * n)
    ),
    "aaa-div-table-in-table-th": lambda n: (
        "<table><th>x<b>" + "<div>" * (4 * n) + "</b><table><th class=h-x></table>" * (4 * n)
    ),
    "aaa-div-table-in-caption": lambda n: (
        "<table><caption>x<b>" + "<div>" * (4 * n) + "</b><table><caption class=h-x></table>" * (4 * n)
    ),
    "aaa-div-table-in-tables-two-deep": lambda n: (
        "<table><td><table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x></table>" * (4 * n)
    ),
    # inside an h-feed the items are nested: only with stream_children are they candidates
    "aaa-div-table-in-table-in-h-feed": lambda n: (
        "<div class=h-feed><table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x></table>" * (4 * n)
    ),
    # n nested tables open above: each new table's outermost open table was found again
    # through all of them after every move (_outer_table; now remembered climbs of kind
    # _OUTER_TABLE past four tables)
    "aaa-div-table-in-nested-tables": lambda n: (
        "<table><td>" * (2 * n) + "x<b>" + "<div>" * (2 * n) + "</b><table><td class=h-x></table>" * (2 * n)
    ),
    # the same in template contents (items there are dropped, not handed over): each drop
    # forgot every remembered run of popped elements, and the next item climbed them all again
    "aaa-div-table-in-template-in-table": lambda n: (
        "<p class=h-y>y</p><table><td><template><table><td>x<b>"
        + "<div>" * (2 * n)
        + "</b><table><td class=h-x></table>" * (2 * n)
    ),
    # (a template in the head: it is open inside the tentative html, so something is open
    # inside kept content, but not inside the items dropped)
    "aaa-div-table-in-template": lambda n: (
        "<template><table><td>x<b>"
        + "<div>" * (2 * n)
        + "</b><table><td class=h-x></table>" * (2 * n)
        + "</template><p class=h-y>y</p>"
    ),
    # without </table> the tables nest (and the later </b> are ignored: <b> is out of scope)
    "aaa-div-tables-nesting": lambda n: "<table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x>" * (4 * n),
    # _hand_over: items held under reopened formatting elements inside a button
    "button-code-pre": lambda n: "<p><button>x<code><pre class=h-card>" * n,
    "button-embed": lambda n: '<p><button><U type="hidden" title=""/><EMBED class="summary h-card h-card"><big/>' * n,
}


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


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_work_grows_linearly(name: str) -> None:
    make = PATTERNS[name]
    stream_children = name in (
        "items-under-open-divs",
        "fuzz-f7",
        "button-code-pre",
        "fuzz-adoption-agency",
        "aaa-div-table-in-table-in-h-feed",
    )
    work = [
        lines_executed(partial(stream_mf2.parse, make(n), "http://example.com/", stream_children=stream_children))
        for n in (50, 100, 200)
    ]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.6 for r in ratios), f"{name}: lines executed {work}, ratios {ratios}"


#: Nested hand-over (``on_nested``), the sink alone: each of n nested items is a candidate.
NESTED_PATTERNS: dict[str, Callable[[int], str]] = {
    # _classify walked each popped item's whole subtree for open elements, _top_kept
    # climbed to the outermost item and _alone looked at every open kept element
    "nested-items": lambda n: "x" + "<div class=h-x>" * n + "<i class=h-y></i></div>" * n,
    "nested-items-in-open-feed": lambda n: (
        "x<div class=h-feed>" + "<div class=h-x>" * n + "<i class=h-y></i></div>" * n
    ),
    "nested-items-moved-by-adoption-agency": lambda n: "x<b>" + "<div class=h-x>" * n + "</b><i class=h-y></i>" * n,
    "nested-items-fostered": lambda n: "x<table>" + "<b class=h-x>" * n + "</b><i class=h-x></i>" * n,
}


def _nested_hand_over(doc: str) -> None:
    sink = bs.BoundedSink(
        KEEPS["h-class"],
        lambda el: True,
        on_nested=lambda el, top, alone: bs.NESTED_KEEP,
        watch_nested=lambda el, top: True,
    )
    build([doc], sink)


@pure_only  # counts executed Python lines
@pytest.mark.parametrize("name", sorted(NESTED_PATTERNS))
def test_nested_hand_over_work_grows_linearly(name: str) -> None:
    make = NESTED_PATTERNS[name]
    work = [lines_executed(partial(_nested_hand_over, make(n))) for n in (50, 100, 200)]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.6 for r in ratios), f"{name}: lines executed {work}, ratios {ratios}"


@pure_only  # counts executed Python lines
@pytest.mark.parametrize("action", [bs.NESTED_EMPTY, bs.NESTED_REMOVE], ids=["empty", "remove"])
def test_nested_removals_under_open_elements_grow_linearly(action: int) -> None:
    # n items under n open elements of one kept container, each emptied or removed at its
    # hand-over: forgetting every remembered _top_kept climb at each removal was quadratic
    def hand_over(doc: str) -> None:
        sink = bs.BoundedSink(
            KEEPS["h-class"],
            lambda el: True,
            on_nested=lambda el, top, alone: action,
            watch_nested=lambda el, top: True,
        )
        build([doc], sink)

    def make(n: int) -> str:
        return "x<div class=h-feed>" + "<div>" * n + "<i class=h-y><b class=h-z></b></i>" * n

    work = [lines_executed(partial(hand_over, make(n))) for n in (50, 100, 200)]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.6 for r in ratios), f"lines executed {work}, ratios {ratios}"


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
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_output_equals_full_dom_in_every_chunking(name: str, stream_children: bool) -> None:
    doc = PATTERNS[name](5)
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
    for case in CASES:
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
