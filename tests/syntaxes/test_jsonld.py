"""JSON-LD: equal to extruct's JsonLdExtractor block by block, lenient where pages need it,
a note (never an exception) for a block that cannot be read, the same in every chunking."""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from extruct.jsonld import JsonLdExtractor

from stream_mf2 import DocumentEnd, JsonLdItem, Parser
from stream_mf2.jsonld.consumer import is_jsonld_type
from stream_mf2.jsonld.read import clean, read_block
from tests.support.chunking import chunkings
from tests.syntaxes.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.html"), recursive=True))


def _run(chunks: list[str] | list[bytes], **options: Any) -> tuple[list[JsonLdItem], tuple[str, ...]]:
    parser = Parser(syntaxes={"json-ld"}, **options)
    events = [e for chunk in chunks for e in parser.feed_events(chunk)]
    events += parser.close_events()
    end = events[-1]
    assert type(end) is DocumentEnd
    return [e for e in events if type(e) is JsonLdItem], end.notes


def _extruct_blocks(html: str | bytes) -> list[list[Any] | None]:
    """extruct's items per JSON-LD block (``None``: extruct raises on the block)."""
    tree = lxml.html.fromstring(html, parser=lxml.html.HTMLParser(encoding="UTF-8"))
    extractor = JsonLdExtractor()
    out: list[list[Any] | None] = []
    for node in tree.xpath('//script[@type="application/ld+json"]'):
        try:
            out.append([item for item in extractor._extract_items(node) if item])
        except ValueError:
            out.append(None)
    return out


def _ours_by_block(html: str | bytes) -> dict[int, list[Any]]:
    items, _ = _run([html])
    blocks: dict[int, list[Any]] = {}
    for e in items:
        blocks.setdefault(e.block, []).append(e.item)
    return blocks


@pytest.mark.parametrize("name", sorted(PAGES))
def test_equal_to_extruct_block_by_block(name: str) -> None:
    html = PAGES[name]
    expected = _extruct_blocks(html)
    ours = _ours_by_block(html)
    assert len(ours) <= len(expected)
    for block, items in enumerate(expected):
        if items is not None:
            assert ours.get(block, []) == items, (name, block)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: Path(p).name)
def test_fixture_pages_equal_extruct(path: str) -> None:
    data = Path(path).read_bytes()
    expected = JsonLdExtractor().extract(data)
    items, notes = _run([data], encoding="utf-8")
    assert [e.item for e in items] == expected
    assert not [n for n in notes if n.startswith("json-ld")]


def test_lenient_blocks() -> None:
    # The shop page's blocks extruct cannot read: comment-wrapped with a trailing comma,
    # CDATA behind //, and one cut short (a note).
    items, notes = _run([PAGES["shop-product"]])
    assert [(e.block, e.item["@type"]) for e in items] == [(0, "Product"), (1, "BreadcrumbList")]
    assert items[0].item["aggregateRating"]["reviewCount"] == "89"
    assert [i["position"] for i in items[1].item["itemListElement"]] == [1, 2]
    assert len(notes) == 1
    start = PAGES["shop-product"].index(
        '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Org'
    )
    assert notes[0].startswith(f"json-ld: the block at character {start - 1} is not JSON")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": 1}', {"a": 1}),
        ('\ufeff{"a": 1}', {"a": 1}),
        ('<!-- {"a": 1} -->', {"a": 1}),
        ('<![CDATA[{"a": [1, 2,]}]]>', {"a": [1, 2]}),
        (
            '/* generated */ {"a": "x // not a comment", // a comment\n "b": "/* kept */",}',
            {"a": "x // not a comment", "b": "/* kept */"},
        ),
        ('{"a": "tab\there"}', {"a": "tab\there"}),
        ('{"n": NaN}', None),
        ('{"a": "<!-- kept -->", "b": "]]>"}', {"a": "<!-- kept -->", "b": "]]>"}),
        ('{"big": 123456789012345678901234567890}', {"big": 123456789012345678901234567890}),
    ],
)
def test_read_block(text: str, value: Any) -> None:
    got, error = read_block(text)
    assert error is None
    if value is not None:
        assert got == value


def test_unreadable_is_a_message() -> None:
    for text in ('{"a": ', "<html>", '{"a": 1} trailing', "[" * 100_000):
        value, error = read_block(text)
        assert value is None and error


def test_clean_keeps_strings() -> None:
    assert clean('{"u": "http://x/y", "c": "a,}"}') == '{"u": "http://x/y", "c": "a,}"}'


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("application/ld+json", True),
        ("Application/LD+JSON", True),
        (" application/ld+json ", True),
        ("application/ld+json; charset=utf-8", True),
        ('application/ld+json;profile="http://www.w3.org/ns/json-ld#compacted"', True),
        ("application/json", False),
        ("text/ld+json", False),
        ("application/ld+jsonx", False),
        ("", False),
    ],
)
def test_type(value: str, expected: bool) -> None:
    assert is_jsonld_type(value) is expected


def test_not_json_ld_scripts_ignored() -> None:
    html = (
        '<script>{"a": 1}</script><script type="application/json">{"b": 2}</script>'
        '<svg><script type="application/ld+json">{"c": 3}</script></svg>'
        '<script type="application/ld+json">"a string"</script>'
    )
    items, notes = _run([html])
    assert items == []
    assert notes == ("json-ld: the block at character 137 holds no object or array: skipped",)
    assert html[137:].startswith('<script type="application/ld+json">"a string"')


def test_max_jsonld_chars_is_a_budget() -> None:
    block = '{"@type": "Thing", "name": "' + "x" * 1000 + '"}'
    html = f'<script type="application/ld+json">{block}</script><script type="application/ld+json">{{"a": 1}}</script>'
    items, notes = _run([html], max_jsonld_chars=500)
    assert [e.item for e in items] == [{"a": 1}]
    assert notes == (
        f"json-ld: the block at character 0 holds {len(block)} characters, more than max_jsonld_chars=500: not read",
    )
    items, notes = _run([html], max_jsonld_chars=len(block))
    assert len(items) == 2 and notes == ()


def test_template_contents_are_not_read() -> None:
    html = '<template><script type="application/ld+json">{"a": 1}</script></template>'
    items, notes = _run([html])
    assert items == [] and len(notes) == 1 and "template contents" in notes[0]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_chunking(name: str) -> None:
    html = PAGES[name]
    whole = _run([html])
    for label, chunks in chunkings(html, splits=False):
        assert _run(chunks) == whole, label
    data = html.encode()
    for label, byte_chunks in chunkings(data, splits=False):
        assert _run(byte_chunks, encoding="utf-8") == whole, label


def test_two_and_three_way_splits() -> None:
    html = PAGES["shop-product"][-700:]
    whole = _run([html])
    assert whole[0]
    for label, chunks in chunkings(html):
        assert _run(chunks) == whole, label


def test_huge_block_is_not_stored() -> None:
    # The sink stores at most max_jsonld_chars of a JSON-LD script's text, however it is fed.
    from stream_mf2.core.budget import BudgetedSink

    budget = 1000
    parser = Parser(syntaxes={"json-ld"}, max_jsonld_chars=budget)
    assert type(parser._sink) is BudgetedSink
    parser.feed('<script type="application/ld+json">{"name": "')
    stored: list[int] = []
    for _ in range(200):
        parser.feed("x" * 500)
        script = next(iter(parser._consumers[0].watching))
        stored.append(sum(len(t.data) for t in script.children))  # type: ignore[attr-defined]
    assert max(stored) == budget
    events = parser.feed_events('"}</script><script type="application/ld+json">{"a": 1}</script>')
    events += parser.close_events()
    assert [e.item for e in events if type(e) is JsonLdItem] == [{"a": 1}]
    end = events[-1]
    assert type(end) is DocumentEnd
    total = len('{"name": "') + 200 * 500 + 2
    assert end.notes == (
        f"json-ld: the block at character 0 holds {total} characters, more than max_jsonld_chars={budget}: not read",
    )


def test_huge_block_in_one_chunk() -> None:
    # the whole script in one feed (the sink's fused leaf call) is bounded the same way
    block = '{"name": "' + "y" * 5000 + '"}'
    html = f'<p>a</p><script type="application/ld+json">{block}</script>'
    for chunks in ([html], [html[:20], html[20:]], [html[i : i + 7] for i in range(0, len(html), 7)]):
        items, notes = _run(chunks, max_jsonld_chars=100)
        assert items == [] and notes == (
            f"json-ld: the block at character 8 holds {len(block)} characters, more than max_jsonld_chars=100: not read",
        )
