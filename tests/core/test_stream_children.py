"""stream_children: children of a container item are yielded as they close.

* reassembling the streamed events gives exactly the whole-document output,
  for every official suite page and fixture, fed whole and in random chunkings;
* children are really yielded before their container ends, and their
  subtrees leave the bounded tree;
* the bounded sink's finality rules hold for children too (open table,
  adoption agency, open descendants, frameset-ok).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2 import ItemEvent, Parser, reassemble
from stream_mf2.core.events import Event
from stream_mf2.events import DocumentEnd
from stream_mf2.html.dom import Element, Text
from tests.support.chunking import RANDOM_RUNS, SEED, random_chunks
from tests.support.suites import MF2_SUITE, mf2_pages, suite_dir

#: Pages up to this size are also fed one byte at a time.
ONE_BY_ONE_LIMIT = 20_000
MODES: list[bool | frozenset[str]] = [True, frozenset({"h-feed"})]
URL = "http://example.com/"
#: Children stream as soon as they are final, even while no ``<base href>`` has been seen
#: (by default the first ``max_held_children`` stay in their container until then).
AT_ONCE: dict[str, Any] = {"max_held_children": 0}


def _at_once(mode: bool | frozenset[str]) -> dict[str, Any]:
    """Mode ``True`` streams at once (the streaming path); the other mode keeps the default hold."""
    return AT_ONCE if mode is True else {}


@pytest.fixture(scope="module", autouse=True)
def _suite_present() -> None:
    from tests.support.suites import require_suite

    require_suite(MF2_SUITE)


def _events(chunks: list[bytes] | list[str], url: str | None = URL, **options: Any) -> list[Event]:
    parser = Parser(url, **options)
    events: list[Event] = []
    for c in chunks:
        events.extend(parser.feed_events(c))
    events.extend(parser.close_events())
    return events


def _result(events: list[Event]) -> dict[str, Any]:
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    return {"items": reassemble(events), "rels": end.rels, "rel-urls": end.rel_urls}


def _chunkings(data: bytes) -> Iterator[tuple[str, list[bytes]]]:
    yield "whole", [data]
    if len(data) <= ONE_BY_ONE_LIMIT:
        yield "one-by-one", [data[i : i + 1] for i in range(len(data))]
    for k in range(RANDOM_RUNS):
        yield f"random(seed={SEED + k})", random_chunks(data, SEED + k)


STREAMED_PAGES: dict[str, int] = {}


@pytest.mark.parametrize("mode", MODES, ids=["all", "h-feed"])
@pytest.mark.parametrize(("path", "url"), list(mf2_pages()))
def test_reassembled_equals_whole(path: Path, url: str, mode: bool | frozenset[str]) -> None:
    data = path.read_bytes()
    whole = stream_mf2.parse(data, url)
    expected = orjson.dumps(whole)
    for label, chunks in _chunkings(data):
        events = _events(chunks, url, stream_children=mode, **_at_once(mode))
        got = _result(events)
        assert orjson.dumps(got) == expected, f"{path.name}: chunking {label} (stream_children={mode}) differs"
        streamed = sum(1 for e in events if isinstance(e, ItemEvent) and e.path)
        STREAMED_PAGES[f"{path}:{mode}"] = streamed
    # parse() with the option reassembles internally
    assert orjson.dumps(stream_mf2.parse(data, url, stream_children=mode)) == expected


@pytest.mark.parametrize(("path", "url"), [p for p in mf2_pages() if "h-feed" in p.values[0].name or "fixtures" in p.id])
def test_reassembled_with_options(path: Path, url: str) -> None:
    data = path.read_bytes()
    options: dict[str, Any] = {"text": "normalized", "lang": True, "metaformats": True}
    whole = stream_mf2.parse(data, url, **options)
    for k in range(RANDOM_RUNS):
        events = _events(random_chunks(data, SEED + k), url, stream_children=True, **options)
        got = _result(events)
        if whole.get("meta-item") is not None:
            got["meta-item"] = whole["meta-item"]
        assert orjson.dumps(got) == orjson.dumps(whole), f"{path.name}: random(seed={SEED + k})"


def test_suite_has_streamed_children() -> None:
    """The suite run above is not vacuous: some pages really stream children."""
    root = suite_dir(MF2_SUITE)
    assert root is not None
    html = (root / "tests" / "microformats-v2" / "h-feed" / "simple.html").read_bytes()
    events = _events([html], "http://example.com", stream_children=True, **AT_ONCE)
    assert any(isinstance(e, ItemEvent) and e.path for e in events)


# -- behaviour --------------------------------------------------------------------------------

FEED_HEAD = '<!doctype html><html><body><div class="h-feed"><h1 class="p-name">Feed</h1>'
ENTRY = '<article class="h-entry"><h2 class="p-name">Post {i}</h2><a class="u-url" href="/p/{i}">link</a></article>'


def test_children_come_before_the_container_ends() -> None:
    parser = Parser(URL, stream_children=True, **AT_ONCE)
    seen: list[ItemEvent] = []
    seen.extend(e for e in parser.feed_events(FEED_HEAD) if isinstance(e, ItemEvent))
    for i in range(3):
        seen.extend(e for e in parser.feed_events(ENTRY.format(i=i)) if isinstance(e, ItemEvent))
        assert len(seen) == i + 1, "each entry is yielded as soon as it closes"
        assert seen[-1].path == (0, i)
        assert seen[-1].item["properties"]["name"] == [f"Post {i}"]
    rest = [e for e in parser.feed_events("</div></body></html>") + parser.close_events() if isinstance(e, ItemEvent)]
    assert len(rest) == 1
    container = rest[0]
    assert container.path == () and container.children_streamed == 3
    assert "children" not in container.item
    # implied name stays suppressed: the feed has nested microformats
    assert container.item["properties"] == {"name": ["Feed"]}


def test_implied_properties_of_the_container_match() -> None:
    # no explicit name: the whole parse implies none (nested microformats); neither may the stream
    html = '<div class="h-feed"><img src="/a.png"><div class="h-entry">one</div><div class="h-entry">two</div></div>'
    events = _events([html], stream_children=True, **AT_ONCE)
    assert reassemble(events) == stream_mf2.parse(html, URL)["items"]
    container = next(e for e in events if isinstance(e, ItemEvent) and not e.path)
    assert container.item["properties"] == {}
    assert container.children_streamed == 2


def test_feed_returns_plain_items() -> None:
    parser = Parser(URL, stream_children=True, **AT_ONCE)
    items = parser.feed(FEED_HEAD + ENTRY.format(i=0) + ENTRY.format(i=1) + "</div>")
    items += parser.close()
    assert [i["type"] for i in items] == [["h-entry"], ["h-entry"], ["h-feed"]]
    orjson.dumps(items)


def test_types_select_containers() -> None:
    html = '<div class="h-entry"><p class="p-name">x</p><div class="h-cite">c</div></div>'
    only_feeds = _events([html], stream_children=frozenset({"h-feed"}), **AT_ONCE)
    assert not any(isinstance(e, ItemEvent) and e.path for e in only_feeds)
    every = _events([html], stream_children=True, **AT_ONCE)
    assert [e.path for e in every if isinstance(e, ItemEvent)] == [(0, 0), ()]
    assert reassemble(every) == reassemble(only_feeds)


def test_property_values_are_not_streamed() -> None:
    html = (
        '<div class="h-feed"><div class="p-author h-card">A</div><div class="h-entry">e</div>'
        '<div class="e-content"><span class="h-card">in content</span></div><div class="h-entry">f</div></div>'
    )
    events = _events([html], stream_children=True, **AT_ONCE)
    paths = [e.path for e in events if isinstance(e, ItemEvent)]
    # the author is a property; the h-card inside e-content is a child, but its subtree is the property's value
    assert paths == [(0, 0), (0, 2), ()]
    assert reassemble(events) == stream_mf2.parse(html, URL)["items"]


def test_second_container_path() -> None:
    html = '<div class="h-card">a</div><div class="h-feed"><div class="h-entry">x</div><div class="h-entry">y</div></div>'
    events = _events([html], stream_children=True, **AT_ONCE)
    assert [e.path for e in events if isinstance(e, ItemEvent)] == [(), (1, 0), (1, 1), ()]
    assert reassemble(events) == stream_mf2.parse(html, URL)["items"]


def test_rels_keep_document_order() -> None:
    html = (
        '<div class="h-feed"><a rel="me" href="/a">a</a><div class="h-entry"><a rel="tag" href="/t">t</a></div>'
        '<a rel="me tag" href="/b">b</a><div class="h-entry"><a rel="tag" href="/a">again</a></div></div>'
        '<a rel="next" href="/n">n</a>'
    )
    events = _events([html], stream_children=True)
    whole = stream_mf2.parse(html, URL)
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    assert orjson.dumps([end.rels, end.rel_urls]) == orjson.dumps([whole["rels"], whole["rel-urls"]])


def test_subtrees_leave_the_bounded_tree() -> None:
    parser = Parser(URL, stream_children=True, **AT_ONCE)
    parser.feed(FEED_HEAD)
    sink = parser._sink
    for i in range(200):
        parser.feed(ENTRY.format(i=i) * 1)
    # one placeholder plus the feed's own heading: nothing grows with the number of entries
    assert sink.kept_nodes < 20
    parser.feed("</div>")
    parser.close()


def test_without_option_the_container_is_kept_whole() -> None:
    parser = Parser(URL)
    parser.feed(FEED_HEAD)
    for i in range(50):
        parser.feed(ENTRY.format(i=i))
    assert parser._sink.kept_nodes >= 50 * 3  # article, h2, a per entry


# -- finality: the sink's holding rules apply to children -------------------------------------


def _streamed_before_end(html_parts: list[str]) -> list[list[tuple[int, ...]]]:
    """Paths of the events each part produced."""
    parser = Parser(URL, stream_children=True, **AT_ONCE)
    out = [[e.path for e in parser.feed_events(p) if isinstance(e, ItemEvent)] for p in html_parts]
    out.append([e.path for e in parser.close_events() if isinstance(e, ItemEvent)])
    return out


def test_child_in_open_table_waits_for_the_table() -> None:
    parts = [
        '<div class="h-feed"><table><tr><td><div class="h-entry">a</div></td></tr>',
        '<div class="h-entry">fostered</div>',  # foster-parented before the table: earlier in document order
        "</table>",
        "</div>",
    ]
    got = _streamed_before_end(parts)
    # the fostered entry precedes the held one in document order, so it may go first
    assert got[:3] == [[], [(0, 0)], [(0, 1)]]
    html = "".join(parts)
    events = _events([html], stream_children=True, **AT_ONCE)
    assert reassemble(events) == stream_mf2.parse(html, URL)["items"]


def test_child_under_formatting_element_waits() -> None:
    # the adoption agency algorithm can still move the child while <b> is open around a special ancestor
    parts = ['<b><div class="h-feed"><p><span class="h-entry">a</span>', "x</b>y", "</div>"]
    html = "".join(parts)
    events = _events([html], stream_children=True, **AT_ONCE)
    assert reassemble(events) == stream_mf2.parse(html, URL)["items"]
    for chunks in ([html[:i], html[i:]] for i in range(1, len(html))):
        assert reassemble(_events(chunks, stream_children=True, **AT_ONCE)) == stream_mf2.parse(html, URL)["items"]


def test_child_with_open_descendant_waits() -> None:
    html = '<div class="h-feed"><a class="h-entry" href="/1"><table><tr><td>x<a href="/2">y</a>z</td></tr></table>q</div>'
    whole = stream_mf2.parse(html, URL)["items"]
    for i in range(1, len(html)):
        assert reassemble(_events([html[:i], html[i:]], stream_children=True, **AT_ONCE)) == whole


def test_frameset_ok_holds_children() -> None:
    # no text and no frameset-ok-clearing element yet: a <frameset> may still replace the body
    parts = ['<div class="h-feed"><div class="h-entry"><span class="p-name"></span></div>', "<frameset></frameset>"]
    got = _streamed_before_end(parts)
    assert got[0] == []  # frameset-ok is still "ok": the body may yet be replaced
    html = "".join(parts)
    assert reassemble(_events([html], stream_children=True, **AT_ONCE)) == stream_mf2.parse(html, URL)["items"]


# -- command line ---------------------------------------------------------------------------------


def test_cli_jsonl_stream_children(tmp_path: Path) -> None:
    import io

    from stream_mf2.cli._common import UsageError
    from stream_mf2.cli.page import main as _cmd_parse

    page = tmp_path / "feed.html"
    html = '<div class="h-feed"><p class="p-name">F</p><div class="h-entry">a</div><div class="h-entry">b</div></div>'
    page.write_text(html + '<div class="h-card">c</div>', encoding="utf-8")
    out = io.BytesIO()
    assert _cmd_parse([str(page), "--jsonl", "--stream-children", "--max-held-children", "0", "--url", URL], out) == 0
    lines = [orjson.loads(line) for line in out.getvalue().splitlines()]
    assert [line.get("path") for line in lines[:2]] == [[0, 0], [0, 1]]
    assert lines[2]["children-streamed"] == 2 and "children" not in lines[2]["item"]
    assert lines[3]["item"]["type"] == ["h-card"] and "rels" in lines[4]
    assert [line["kind"] for line in lines] == ["item", "item", "item", "item", "document"]
    # Without --jsonl the option would change nothing (the whole document is one JSON value,
    # reassembled: test_reassembled_equals_whole), so the command line is refused instead.
    with pytest.raises(UsageError, match="give it with --jsonl"):
        _cmd_parse([str(page), "--stream-children", "h-feed", "--url", URL], io.BytesIO())


def test_iter_items_passes_the_option() -> None:
    html = FEED_HEAD + ENTRY.format(i=0) + ENTRY.format(i=1) + "</div>"
    items = list(stream_mf2.iter_items([html.encode()], URL, stream_children=frozenset({"h-feed"}), **AT_ONCE))
    assert [i["type"] for i in items] == [["h-entry"], ["h-entry"], ["h-feed"]]


# -- misnested markup: the children's hand-over follows the sink's finality rules ---------------

_SOUP_TAGS = [
    "a", "b", "i", "p", "div", "table", "tr", "td", "th", "tbody", "caption", "span", "li", "ul", "select",
    "option", "template", "svg", "math", "em", "font", "nobr", "button", "form", "h1", "pre", "textarea",
    "frameset", "body", "col", "hr", "br", "img", "dd", "dt", "object", "marquee", "noscript", "area", "link",
]  # fmt: skip
_SOUP_ATTRS = [
    ' class="h-feed"',
    ' class="h-entry"',
    ' class="h-card"',
    ' class="p-name"',
    ' class="e-content"',
    ' class="u-url h-card" href="/u"',
    ' class="p-author h-card"',
    ' rel="tag" href="/t"',
    ' rel="me" href="/m"',
    ' href="/h" src="/s.png"',
    ' class="h-feed" rel="me" href="/f"',
]


def _soup(rng: random.Random) -> str:
    out: list[str] = ['<div class="h-feed">'] if rng.random() < 0.7 else []
    for _ in range(rng.randint(1, 45)):
        r = rng.random()
        tag = rng.choice(_SOUP_TAGS)
        if r < 0.5:
            attrs = rng.choice(_SOUP_ATTRS) if rng.random() < 0.6 else ""
            out.append(f"<{tag}{attrs}>")
        elif r < 0.8:
            out.append(f"</{tag}>")
        else:
            out.append(rng.choice(["x", " ", "text ", "\n", "&amp;", "<!--c-->"]))
    return "".join(out)


SOUP_TARGETED = [
    '<div class="h-feed"><a class="h-entry" href="/1">x<div>y</a>z</div>',
    '<b><div class="h-feed"><p class="h-entry">..</b>more<p class="h-entry">b</div>',
    '<div class="h-feed"><font><div><div class="h-card">A</div><div class="h-card">B</div></font>C</div>',
    '<div class="h-feed"><table><tr><td><p class="h-entry">A</td></tr><span class="h-entry">B</span></table></div>',
    '<div class="h-feed"><p><a class="h-card" href="/a">Jane<p>More</a> after</div>',
    '<div class="h-feed"><template><div class="h-entry">t</div></template><div class="h-entry">d</div></div>',
    '<div class="h-feed"><a class="h-entry">aba<table><a class="h-entry">br<tr><td></td></tr>x</table>aoe</div>',
    '<div class="h-feed"><img src="/a.png"><div class="h-entry"><a rel="tag" href="/t">t</a></div></div>',
    '<a class="h-feed" rel="me" href="/f"><span class="h-entry">one</span><span class="h-entry">two</span></a>',
]


@pytest.mark.parametrize("html", SOUP_TARGETED)
def test_misnested_targeted(html: str) -> None:
    whole = orjson.dumps(stream_mf2.parse(html, URL))
    for n in range(1, len(html)):
        for mode in MODES:
            assert orjson.dumps(_result(_events([html[:n], html[n:]], stream_children=mode, **_at_once(mode)))) == whole, (n, mode)


@pytest.mark.parametrize("seed", range(SEED, SEED + 6))
def test_random_tag_soup(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        html = _soup(rng)
        whole = orjson.dumps(stream_mf2.parse(html, URL))
        chunks = random_chunks(html, rng.randint(0, 10**6))
        got = orjson.dumps(_result(_events(chunks, stream_children=True, **AT_ONCE)))
        assert got == whole, f"seed={seed} {html!r}"


# -- the sink's nested hand-over, on the html5lib tree-construction cases ------------------------


def _nested_final_check(chunks: list[str], keep: Any, fragment: str | None) -> int:
    """Every nested hand-over happens when the subtree is final: it is unchanged when its top completes."""
    from stream_mf2.html.bounded import BoundedSink
    from stream_mf2.html.bounded.sink import NESTED_KEEP
    from stream_mf2.html.testing.tree import build, context_element
    from tests.support.bounded_sink import dump_one

    seen: list[tuple[Element, Element, str]] = []
    checked = 0

    def on_nested(el: Element, top: Element, alone: bool) -> int:
        seen.append((el, top, dump_one(el)))
        return NESTED_KEEP

    def on_complete(top: Element) -> None:
        nonlocal checked
        for el, _el_top, dump in [s for s in seen if s[1] is top]:
            node = el.parent
            while node is not None and node is not top:
                node = node.parent
            assert node is top, "a handed-over nested subtree left its top"
            assert dump_one(el) == dump, "a nested subtree changed after it was handed over"
            checked += 1
        seen[:] = [s for s in seen if s[1] is not top]

    sink = BoundedSink(keep, on_complete, on_nested=on_nested, watch_nested=lambda el, top: True)
    build(chunks, sink, context_element(fragment) if fragment else None)
    return checked


def test_nested_handover_is_final_on_tree_cases() -> None:
    from stream_mf2.html.testing.tree import TreeTest
    from tests.support.bounded_sink import KEEPS
    from tests.support.tree_cases import require_cases

    checked = 0
    for case in require_cases():
        assert isinstance(case, TreeTest)
        for keep in KEEPS.values():
            for chunks in ([case.data], random_chunks(case.data, SEED)):
                checked += _nested_final_check(chunks, keep, case.fragment_context)
    assert checked > 100


def test_text_between_removed_children_does_not_pile_up() -> None:
    parser = Parser(URL, stream_children=True, **AT_ONCE)
    parser.feed(FEED_HEAD + "\n")
    for i in range(500):
        parser.feed(ENTRY.format(i=i) + "\n \n")
    top = parser._sink.open_kept()[0]
    total = sum(len(c.data) for c in top.children if isinstance(c, Text))
    assert total < 20
    assert len(parser.feed("</div>") + parser.close()) == 1
