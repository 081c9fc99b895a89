"""The syntaxes framework: the default pipeline unchanged, several syntaxes in one pass, events
in completion order, notes, typed errors for unknown names."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from stream_mf2 import (
    DocumentEnd,
    DublinCoreItem,
    ItemEvent,
    JsonLdItem,
    OpenGraphItem,
    Parser,
    SyntaxUnavailable,
    TwitterCardItem,
    UnknownSyntax,
    parse,
    reassemble,
)
from stream_mf2.core.budget import BudgetedObservedSink, BudgetedSink
from stream_mf2.core.fanout import FanOut, KeepFanOut, ObserverFanOut
from stream_mf2.core.syntaxes import DEFAULT_SYNTAXES, SYNTAXES
from stream_mf2.html.bounded import BoundedSink, ObservedSink
from stream_mf2.html.dom import Element, Node, ParentNode
from tests.support.builds import pure_only
from tests.support.work import lines_executed
from tests.syntaxes.pages import PAGES, WORDPRESS_POST

ALL_MINE = {"mf2", "json-ld", "opengraph", "twitter", "dublincore"}


def _events(html: str | bytes, **options: object) -> list[object]:
    parser = Parser("https://blog.example.com/", **options)  # type: ignore[arg-type]
    return [*parser.feed_events(html), *parser.close_events()]


def test_default_builds_the_plain_pipeline() -> None:
    # syntaxes={"mf2"} (default or spelled out) is today's pipeline: the capture's own
    # methods on a plain BoundedSink, no fan-out, no syntax consumer.
    for parser in (Parser(), Parser(syntaxes={"mf2"}), Parser(syntaxes=["mf2"])):
        sink = parser._sink
        assert type(sink) is BoundedSink
        assert sink.keep == parser._capture.keep
        assert sink.on_complete == parser._capture.complete
        assert parser._consumers == ()
        assert parser._config.consumers == ()


def test_default_output_unchanged() -> None:
    for html in PAGES.values():
        assert _events(html) == _events(html, syntaxes={"mf2"}) == _events(html, syntaxes=DEFAULT_SYNTAXES)


def test_other_syntaxes_leave_mf2_unchanged() -> None:
    for html in PAGES.values():
        plain = [e for e in _events(html) if type(e) is ItemEvent]
        together = [e for e in _events(html, syntaxes=ALL_MINE) if type(e) is ItemEvent]
        assert plain == together


def test_several_syntaxes_fan_out() -> None:
    # no consumer here observes placements; the JSON-LD consumer bounds its scripts' text
    assert type(Parser(syntaxes={"opengraph", "dublincore"})._sink) is BoundedSink
    parser = Parser(syntaxes=ALL_MINE)
    assert type(parser._sink) is BudgetedSink
    assert isinstance(parser._sink.keep.__self__, KeepFanOut)
    assert isinstance(parser._sink.on_complete.__self__, FanOut)
    events = _events(WORDPRESS_POST, syntaxes=ALL_MINE)
    kinds = [type(e).__name__ for e in events]
    # The head's metadata when <body> starts (Dublin Core first: it reads <body>'s creation),
    # the head's JSON-LD with the head, then body items in document order, the end last.
    assert kinds == [
        "DublinCoreItem",
        "JsonLdItem",
        "OpenGraphItem",
        "TwitterCardItem",
        "ItemEvent",
        "ItemEvent",
        "JsonLdItem",
        "DocumentEnd",
    ]
    # the @graph block is one item; the Organization block in the footer comes after the items
    ld = [e for e in events if type(e) is JsonLdItem]
    assert [(e.block, sorted(e.item)) for e in ld] == [
        (0, ["@context", "@graph"]),
        (1, ["@context", "@type", "logo", "name"]),
    ]
    # (a source span starts where the markup token before the element ended: text between is in it)
    start, end = ld[0].source
    assert WORDPRESS_POST[start:end].strip().startswith('<script type="application/ld+json" class="yoast')
    assert WORDPRESS_POST[start:end].endswith("]}</script>")


def test_events_in_completion_order() -> None:
    html = (
        '<div class="h-card"><p class="p-name">A</p></div>'
        '<script type="application/ld+json">{"@type": "Thing", "name": "1"}</script>'
        '<div class="h-card"><p class="p-name">B</p></div>'
        '<script type="application/ld+json">{"@type": "Thing", "name": "2"}</script>'
    )
    events = _events(html, syntaxes={"mf2", "json-ld"})
    names = [
        e.item["properties"]["name"][0] if type(e) is ItemEvent else e.item["name"]
        for e in events
        if type(e) in (ItemEvent, JsonLdItem)
    ]
    assert names == ["A", "1", "B", "2"]


def test_without_mf2_no_mf2_events() -> None:
    events = _events(WORDPRESS_POST, syntaxes={"json-ld", "opengraph"})
    assert not [e for e in events if type(e) is ItemEvent]
    end = events[-1]
    assert type(end) is DocumentEnd and end.rels == {} and end.meta_item is None
    assert [type(e) for e in events if type(e) is not JsonLdItem] == [OpenGraphItem, DocumentEnd]


def test_no_syntax_at_all() -> None:
    events = _events(WORDPRESS_POST, syntaxes=set())
    assert [type(e) for e in events] == [DocumentEnd]


def test_notes_reach_errors_and_document_end() -> None:
    html = '<script type="application/ld+json">{"a": </script>'
    parser = Parser(syntaxes={"json-ld"})
    events = [*parser.feed_events(html), *parser.close_events()]
    end = events[-1]
    assert type(end) is DocumentEnd
    assert len(end.notes) == 1 and end.notes[0].startswith("json-ld: the block at character 0 is not JSON")
    assert parser.errors == list(end.notes) == parser.notes


def test_unknown_syntax_is_a_typed_error() -> None:
    with pytest.raises(UnknownSyntax) as e:
        Parser(syntaxes={"mf2", "jsonld"})
    assert e.value.syntax == "jsonld" and isinstance(e.value, ValueError)
    with pytest.raises(UnknownSyntax):
        parse("<p>", syntaxes={"microformat"})
    with pytest.raises(TypeError):
        Parser(syntaxes="json-ld")  # a str would be read letter by letter
    with pytest.raises(TypeError):
        parse("<p>", syntaxes=[1])  # type: ignore[list-item]


@pytest.mark.parametrize("name", ["microdata", "rdfa"])
def test_missing_package_is_a_clear_error(name: str) -> None:
    if importlib.util.find_spec(f"stream_mf2.{name}") is not None:
        Parser(syntaxes={name})  # installed: it is built
        return
    with pytest.raises(SyntaxUnavailable, match=f"stream_mf2.{name}") as e:
        Parser(syntaxes={"mf2", name})
    assert e.value.syntax == name


def test_registry_names() -> None:
    assert SYNTAXES == ("mf2", "json-ld", "microdata", "rdfa", "opengraph", "twitter", "dublincore")


def test_parse_adds_each_syntax() -> None:
    result = parse(WORDPRESS_POST, "https://blog.example.com/", syntaxes={"mf2", "json-ld", "twitter"})
    assert [i["type"] for i in result["items"]] == [["h-entry"], ["h-cite"]]
    assert [i.get("@type") for i in result["json-ld"]] == [None, "Organization"]
    assert result["twitter"][0]["properties"][0] == ("twitter:card", "summary_large_image")


def test_streams_and_bytes_alike() -> None:
    from stream_mf2 import iter_events

    whole = _events(WORDPRESS_POST, syntaxes=ALL_MINE)
    chunks = [WORDPRESS_POST.encode()[i : i + 37] for i in range(0, len(WORDPRESS_POST.encode()), 37)]
    streamed = list(iter_events(iter(chunks), "https://blog.example.com/", syntaxes=ALL_MINE))
    assert [e for e in streamed if type(e) is not DocumentEnd] == [e for e in whole if type(e) is not DocumentEnd]
    kinds = {type(e) for e in streamed}
    assert {JsonLdItem, OpenGraphItem, TwitterCardItem, DublinCoreItem} <= kinds


class _Recorder:
    """A placement observer that records its calls; ``wants_leaves`` is its leaf() answer."""

    def __init__(self, wants_leaves: bool) -> None:
        self.wants_leaves = wants_leaves
        self.calls: list[tuple[str, str]] = []

    def placed(self, element: Element, parent: ParentNode, before: Node | None = None) -> bool:
        self.calls.append(("placed", element.name))
        return False

    def opened(self, element: Element, parent: ParentNode) -> bool:
        self.calls.append(("opened", element.name))
        return False

    def leaf(self, parent: ParentNode, name: str, attrs: dict[str, str]) -> bool:
        self.calls.append(("leaf", name))
        return self.wants_leaves

    def popped(self, element: Element) -> None:
        self.calls.append(("popped", element.name))

    def attrs_added(self, element: Element, names: list[str]) -> None:
        self.calls.append(("attrs_added", element.name))

    def removed(self, element: Element) -> None:
        self.calls.append(("removed", element.name))


def _observe(*observers: _Recorder) -> None:
    from stream_mf2.html.tokenizer import Tokenizer
    from stream_mf2.html.treebuilder import TreeBuilder

    fan = ObserverFanOut(observers)
    sink = ObservedSink(lambda el: False, lambda el: True, fan)
    tokenizer = Tokenizer(TreeBuilder(sink))
    tokenizer.feed("<p>a<br>b<img src=x></p><div><span>c</span></div>")
    tokenizer.close()


def test_observer_fan_out_leaves() -> None:
    # An observer that noted a leaf itself (leaf() False) is not told of it again when
    # another asks to see it opened and popped; each sees every element exactly once.
    alone_quiet, alone_loud = _Recorder(False), _Recorder(True)
    _observe(alone_quiet)
    _observe(alone_loud)
    quiet, loud = _Recorder(False), _Recorder(True)
    _observe(quiet, loud)
    assert quiet.calls == alone_quiet.calls
    assert loud.calls == alone_loud.calls
    assert ("opened", "br") in loud.calls and ("opened", "br") not in quiet.calls


def test_with_a_wpt_template() -> None:
    # WPT (a placement observer) and JSON-LD in one pass: the observed sink with the text
    # budget; the WPT matches and the mf2 items are what each gives alone.
    from stream_mf2.wpt import collect_pages, load

    root = Path(__file__).resolve().parents[2] / "fixtures" / "wpt"
    html = (
        (root / "listing.html")
        .read_text(encoding="utf-8")
        .replace("</body>", '<script type="application/ld+json">{"@type": "ItemList"}</script></body>')
    )
    wpt = load(root / "listing.xml")
    url = "https://shop.example/list/2"
    parser = Parser(url, wpt=wpt, syntaxes={"mf2", "json-ld", "opengraph"})
    assert type(parser._sink) is BudgetedObservedSink
    together = parser.feed_events(html) + parser.close_events()
    alone = Parser(url, wpt=wpt)
    expected = alone.feed_events(html) + alone.close_events()
    assert collect_pages(together) == collect_pages(expected)
    assert collect_pages(expected)[0]["blocks"][1]["matches"]  # (the rows matched)
    assert [e for e in together if type(e) is ItemEvent] == [e for e in expected if type(e) is ItemEvent]
    assert [e.item for e in together if type(e) is JsonLdItem] == [{"@type": "ItemList"}]


NEW_MODULES = (
    "/stream_mf2/core/fanout.py",
    "/stream_mf2/core/budget.py",
    "/stream_mf2/core/syntaxes.py",
    "/stream_mf2/jsonld/",
    "/stream_mf2/metadata/",
)


@pure_only
def test_default_parse_runs_none_of_the_new_code() -> None:
    # The default parse (mf2 alone) executes no line of the fan-outs, the budgets, the
    # registry or the syntax consumers: its work is today's.
    def run() -> None:
        parser = Parser("https://blog.example.com/")
        parser.feed(WORDPRESS_POST)
        parser.close()
        parse(WORDPRESS_POST)

    assert lines_executed(run, NEW_MODULES) == 0
    assert lines_executed(run) > 0


def test_stream_children_releases_children_to_every_consumer() -> None:
    # With stream_children the capture streams an h-feed's children and removes them: the
    # JSON-LD consumer sees each child's script as it is released, once.
    entries = "".join(
        f'<article class="h-entry"><h2 class="p-name">E{i}</h2>'
        f'<script type="application/ld+json">{{"@type": "BlogPosting", "headline": "E{i}"}}</script></article>'
        for i in range(5)
    )
    html = f'<body><div class="h-feed"><h1 class="p-name">Feed</h1>{entries}</div></body>'
    plain = _events(html, syntaxes={"mf2", "json-ld"})
    expected = [f"E{i}" for i in range(5)]
    assert [e.item["headline"] for e in plain if type(e) is JsonLdItem] == expected
    # (max_held_children=0: the children stream at once, no <base> can still change them)
    streamed = _events(html, syntaxes={"mf2", "json-ld"}, stream_children=True, max_held_children=0)
    kinds = [(type(e).__name__, getattr(e, "path", None)) for e in streamed]
    # each child's JSON-LD right after the child, the feed's own event last
    assert kinds == [
        ("ItemEvent", (0, i)) if k % 2 == 0 else ("JsonLdItem", None) for i in range(5) for k in (0, 1)
    ] + [
        ("ItemEvent", ()),
        ("DocumentEnd", None),
    ]
    assert [e.item["headline"] for e in streamed if type(e) is JsonLdItem] == expected
    # held back (a <base> may still come): the children stay in the feed, their JSON-LD is final
    held = _events(html, syntaxes={"mf2", "json-ld"}, stream_children=True)
    assert [type(e).__name__ for e in held] == ["JsonLdItem"] * 5 + ["ItemEvent", "DocumentEnd"]
    assert reassemble(streamed) == reassemble(held) == reassemble(plain)


def test_async_front_end() -> None:
    import asyncio

    from stream_mf2 import aiter_events

    async def chunks() -> Any:
        for i in range(0, len(WORDPRESS_POST), 100):
            yield WORDPRESS_POST[i : i + 100]

    async def run() -> list[object]:
        return [e async for e in aiter_events(chunks(), syntaxes={"json-ld", "opengraph"})]

    events = asyncio.run(run())
    assert [type(e) for e in events] == [JsonLdItem, OpenGraphItem, JsonLdItem, DocumentEnd]
