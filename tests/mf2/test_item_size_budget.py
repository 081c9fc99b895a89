"""The output of one item is bounded by ``max_item_chars`` (a budget, not an error).

An h-* root that is the value of two properties (``class="dt-end h-x-y p-category"``)
is placed twice in its parent's JSON; nested k deep the innermost one appears
2**k times (``parse`` shares the objects, a serialiser does not). Nested ``p-*``
roots each repeat the text of everything below them, and so do property
elements around nested items, so d levels give d squared characters. The budget
counts a nested item at every place it appears, summed bottom-up as items
finish; past it the item's later values are emptied, nested items are placed
reduced (type only), and ``Parser.errors`` says so. The result is the same in
every chunking, with ``stream_children``, from ``bytes``, and from the full-DOM
parse (``mf2.parse_dom``) with the same budget.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2 import Parser
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from stream_mf2.mf2.options import DEFAULT_MAX_ITEM_CHARS
from tests.fuzz.growth import output_size
from tests.support.chunking import chunkings
from tests.support.fold import folded_parse
from tests.support.streamed import stream_events
from tests.support.suites import REPO

URL = "http://example.com/"
NOTE = "max_item_chars="


def doubling(k: int) -> str:
    """The fuzz finding: each level is the value of two properties of the one above."""
    return "<ins class=item><mo class='dt-end h-x-y p-category'>" * k + "</br>7pm<dd class='include h-adr p-a'>" * k


def doubling_p(k: int) -> str:
    """The same with p-* properties only (such nested items are folded while streaming)."""
    return "<div class=h-feed>" + "<div class='p-a p-b h-x'>x" * k + "</div>" * k + "<p class=h-entry>after</p>"


def text_below(k: int) -> str:
    """Nested p-* roots: each carries the text of everything below (value and implied name)."""
    return "<div class='p-x h-y'>" * k + "a" * (20 * k)


def text_each_level(k: int) -> str:
    return "<div class='p-x h-y'>a" * k


def property_around_child(k: int) -> str:
    """A property element around a child item: its value repeats the child's text."""
    return "<div class=h-y><div class=p-n>" * k + "a" * (20 * k)


def e_around_child(k: int) -> str:
    return "<div class=h-y><div class=e-c>" * k + "<b>a</b>" * (4 * k)


PATTERNS = [doubling, doubling_p, text_below, text_each_level, property_around_child, e_around_child]


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "stream_mf2", *args], input=stdin, capture_output=True, timeout=120, env=env, check=True
    )


def _stream(chunks: list[str] | list[bytes], **options: Any) -> tuple[dict[str, Any], list[str]]:
    return stream_events(chunks, URL, **options)


def _full_dom(doc: str, budget: int) -> dict[str, Any]:
    return parse_dom(parse_document(doc), URL, Options(max_item_chars=budget))


@pytest.mark.parametrize("pattern", PATTERNS)
def test_output_is_linear_past_the_budget(pattern: Any) -> None:
    # three input sizes, each twice the last: the output at most about doubles
    budget = 4000
    k0 = 24 if pattern in (doubling, doubling_p) else 60
    sizes = []
    for k in (k0, 2 * k0, 4 * k0):
        parser = Parser(URL, max_item_chars=budget)
        items = [*parser.feed(pattern(k)), *parser.close()]
        sizes.append(output_size(items))
        assert any(NOTE in e for e in parser.errors), (pattern.__name__, k)
    for smaller, larger in itertools.pairwise(sizes):
        assert larger <= 2.5 * smaller + 200, (pattern.__name__, sizes)


def test_json_of_the_fuzz_finding_stays_small_with_the_default() -> None:
    doc = doubling(40)  # 2**40 placements of the innermost item without the budget
    # (the output allowance relative to the input, max_output_ratio, is turned off here;
    # by default it reduces these items first: tests/mf2/test_output_allowance.py)
    parser = Parser(URL, max_output_ratio=10**9)
    items = [*parser.feed(doc), *parser.close()]
    text = json.dumps(items)
    assert len(text) <= DEFAULT_MAX_ITEM_CHARS
    notes = [e for e in parser.errors if NOTE in e]
    assert len(notes) == 1 and "h-x-y" in notes[0]
    parser = Parser(URL)
    assert len(json.dumps([*parser.feed(doc), *parser.close()])) <= DEFAULT_MAX_ITEM_CHARS
    assert any("output allowance" in e for e in parser.errors)
    # the CLI serialises it too
    assert len(run_cli("-", stdin=doc.encode()).stdout) < 10_000


def test_under_the_budget_nothing_changes() -> None:
    doc = doubling(6)
    unlimited = stream_mf2.parse(doc, URL, max_item_chars=10**12)
    text = orjson.dumps(unlimited)
    assert len(text) > 5000  # 2**6 placements of the innermost item
    exact = output_size(unlimited)
    assert stream_mf2.parse(doc, URL) == unlimited
    parser = Parser(URL, max_item_chars=2 * len(text))
    assert [*parser.feed(doc), *parser.close()] == unlimited["items"]
    assert not parser.errors
    # a budget below the output empties values, and says so
    parser = Parser(URL, max_item_chars=exact // 4)
    items = [*parser.feed(doc), *parser.close()]
    assert output_size(items) < exact
    assert len([e for e in parser.errors if NOTE in e]) == 1


def test_what_an_emptied_item_looks_like() -> None:
    doc = "<div class=h-y><span class=p-a>aaaaaaaaaa</span><span class=p-b>bbbbbbbbbb</span><i class='p-c e-d h-z'>z</i>"
    full = stream_mf2.parse(doc, URL)["items"]
    assert full[0]["properties"]["b"] == ["bbbbbbbbbb"]
    # room for the first value only: the rest is emptied, the nested item reduced
    items = stream_mf2.parse(doc, URL, max_item_chars=20)["items"]
    props = items[0]["properties"]
    assert props["a"] == ["aaaaaaaaaa"]
    assert props["b"] == [""]
    assert props["c"] == [{"value": "", "type": ["h-z"], "properties": {}}]
    assert props["d"] == [{"html": "", "value": "", "type": ["h-z"], "properties": {}}]
    assert "name" not in props  # an over item gets no implied properties (it has p-* anyway)
    # budget 0: every value emptied
    items = stream_mf2.parse("<p class=h-card><a class=u-url href=/x>Tom</a></p>", URL, max_item_chars=0)["items"]
    assert items == [{"type": ["h-card"], "properties": {"url": [""]}}]


def test_children_have_their_own_budget() -> None:
    # a feed of many entries is not emptied: each child is an item with its own budget
    entry = "<article class=h-entry><p class=p-name>{}</p><div class=e-content>{}</div></article>"
    doc = "<div class=h-feed>" + "".join(entry.format(i, "w " * 200) for i in range(40)) + "</div>"
    parser = Parser(URL, max_item_chars=2000)
    items = [*parser.feed(doc), *parser.close()]
    assert not parser.errors
    assert len(items[0]["children"]) == 40
    assert items == stream_mf2.parse(doc, URL)["items"]


def test_a_note_per_top_level_item() -> None:
    bomb = "<div>" + doubling(10) + "</div>"
    doc = bomb + "<p class=h-card>plain</p>" + bomb
    parser = Parser(URL, max_item_chars=1000)
    items = [*parser.feed(doc), *parser.close()]
    assert len(items) == 3
    assert items[1] == {"type": ["h-card"], "properties": {"name": ["plain"]}}
    assert len([e for e in parser.errors if NOTE in e]) == 2


CASES = [
    (doubling(7), 600),
    (doubling_p(7), 500),
    (text_below(12), 400),
    (text_each_level(14), 300),
    (property_around_child(10), 300),
    (e_around_child(8), 300),
    # a container whose children and property items overflow (stream_children streams the children)
    ("<div class=h-feed><p class=p-name>feed</p>" + "<div class=h-entry>" + doubling_p(4) + "</div>" * 3
     + "<b class='p-author h-card'>" + "<i class='p-a p-b h-x'>y" * 5 + "</i>" * 5 + "</b><p class=p-summary>s</p></div>",
     500),
]


@pytest.mark.parametrize(("doc", "budget"), CASES)
def test_equal_in_every_chunking_and_to_the_full_dom(doc: str, budget: int) -> None:
    expected = orjson.dumps(_full_dom(doc, budget))
    whole, errors = _stream([doc], max_item_chars=budget)
    assert orjson.dumps(whole) == expected
    assert any(NOTE in e for e in errors)
    assert orjson.dumps(stream_mf2.parse(doc, URL, max_item_chars=budget)) == expected
    for label, chunks in chunkings(doc):
        assert orjson.dumps(_stream(chunks, max_item_chars=budget)[0]) == expected, label
    for label, byte_chunks in chunkings(doc.encode(), splits=False):
        assert orjson.dumps(_stream(byte_chunks, max_item_chars=budget)[0]) == expected, f"bytes {label}"


@pytest.mark.parametrize(("doc", "budget"), CASES)
@pytest.mark.parametrize("mode", [True, frozenset({"h-feed"})])
def test_stream_children_gives_the_same(doc: str, budget: int, mode: bool | frozenset[str]) -> None:
    expected = orjson.dumps(stream_mf2.parse(doc, URL, max_item_chars=budget))
    assert orjson.dumps(stream_mf2.parse(doc, URL, max_item_chars=budget, stream_children=mode)) == expected
    for label, chunks in chunkings(doc, splits=False):
        streamed, errors = _stream(chunks, max_item_chars=budget, stream_children=mode)
        assert orjson.dumps(streamed) == expected, label
        assert any(NOTE in e for e in errors), label


@pytest.mark.parametrize(("doc", "budget"), CASES)
@pytest.mark.parametrize(
    "options", [{"lang": True, "metaformats": True}, {"text": "normalized"}, {"filter_roots": True}]
)
def test_other_options_give_the_same_as_the_full_dom(doc: str, budget: int, options: dict[str, Any]) -> None:
    expected = orjson.dumps(parse_dom(parse_document(doc), URL, Options(max_item_chars=budget, **options)))
    for label, chunks in chunkings(doc, splits=False):
        assert orjson.dumps(_stream(chunks, max_item_chars=budget, **options)[0]) == expected, label
    streamed = _stream([doc], max_item_chars=budget, stream_children=True, **options)[0]
    assert orjson.dumps(streamed) == expected


FOLDED = [
    *CASES,
    # nested items that are property values, parsed ahead of their container (with their
    # size and over state), next to children and values that do or do not fit
    ("<div class=h-feed><p class=p-name>" + "n" * 40 + "</p>"
     + "<a class='p-author h-card' href=/a>" + "<b class='p-org h-card'>o</b>" * 30 + "</a>"
     + "<div class=h-entry><p class=p-name>e</p></div><p class=p-summary>late</p></div>", 400),
    ("<div class=h-feed>" + "<a class='p-author u-url h-card' href=/a><i class=p-name>" + "x" * 60
     + "</i></a><p class=p-summary>s</p></div>", 300),
]


@pytest.mark.parametrize(("doc", "budget"), FOLDED)
def test_items_parsed_ahead_of_their_container_give_the_same(doc: str, budget: int) -> None:
    options = Options(max_item_chars=budget)
    expected = parse_dom(parse_document(doc), URL, options)["items"]
    result, folded = folded_parse(parse_document(doc), URL, options)
    assert orjson.dumps(result["items"]) == orjson.dumps(expected)
    # the cases written for this test do fold (the others fold where they can)
    assert folded or (doc, budget) in CASES
    assert any(NOTE in n for n in result["notes"])


def test_option_is_checked() -> None:
    with pytest.raises(ValueError, match="max_item_chars"):
        stream_mf2.parse("<p class=h-card>x</p>", URL, max_item_chars=-1)
    with pytest.raises(TypeError, match="max_item_chars"):
        stream_mf2.parse("<p class=h-card>x</p>", URL, max_item_chars=True)
    with pytest.raises(TypeError, match="max_item_chars"):
        stream_mf2.parse("<p class=h-card>x</p>", URL, max_item_chars=1.5)  # type: ignore[arg-type]
    # Parser() itself: the compiled build's own argument check comes first and names only the type
    with pytest.raises(TypeError):
        Parser(URL, max_item_chars=1.5)  # type: ignore[arg-type]  # the wrong type is the test


def test_cli_flag(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p class=h-card><a class=u-url href=/x>Tom</a><b class=p-nickname>T</b></p>")
    out = json.loads(run_cli("--max-item-chars", "0", str(page)).stdout)
    assert out["items"][0]["properties"] == {"url": [""], "nickname": [""]}
