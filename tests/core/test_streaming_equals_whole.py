"""The central invariant: streaming output equals whole-document output.

For every official microformats suite page and every fixture page:

* feeding the bytes in any chunking (one byte at a time, 2- and 3-way splits,
  random chunk sizes) gives exactly what ``parse()`` of the whole document gives,
  items, rels and rel-urls alike;
* the bounded tree (which drops what no item needs) gives exactly what the mf2
  functions give over the full DOM of the same document (``parse_dom``), so
  dropping never loses anything an item needs and items come out in document
  order.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stream_mf2
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support.chunking import chunkings, random_chunks
from tests.support.suites import MF2_SUITE, mf2_pages

#: Pages bigger than this are not fed one byte at a time (too slow to be useful).
ONE_BY_ONE_LIMIT = 40_000
#: Bounded number of 2-way and 3-way splits per page.
MAX_SPLITS = 24


def _stream(chunks: list[bytes], url: str, **options: Any) -> dict[str, Any]:
    parser = stream_mf2.Parser(url, **options)
    items: list[Any] = []
    for c in chunks:
        items.extend(parser.feed(c))
    items.extend(parser.close())
    out: dict[str, Any] = {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}
    if parser.meta_item is not None:
        out["meta-item"] = parser.meta_item
    return out


def _bounded_chunkings(data: bytes) -> Iterator[tuple[str, list[bytes]]]:
    if len(data) <= ONE_BY_ONE_LIMIT:
        yield from chunkings(data, splits=False)
    else:
        for k in range(3):
            yield f"random(seed={k})", random_chunks(data, k)
    n = len(data)
    step = max(1, n // MAX_SPLITS)
    for i in range(1, n, step):
        yield f"split@{i}", [data[:i], data[i:]]
        j = min(n - 1, i + max(1, step // 3))
        if j > i:
            yield f"split@{i},{j}", [data[:i], data[i:j], data[j:]]


@pytest.fixture(scope="module", autouse=True)
def _suite_present() -> None:
    from tests.support.suites import require_suite

    require_suite(MF2_SUITE)


@pytest.mark.parametrize(("path", "url"), list(mf2_pages()))
def test_streaming_equals_whole(path: Path, url: str) -> None:
    data = path.read_bytes()
    whole = stream_mf2.parse(data, url)
    for label, chunks in _bounded_chunkings(data):
        got = _stream(chunks, url)
        assert got == whole, f"{path.name}: chunking {label} differs from the whole-document parse"


@pytest.mark.parametrize(("path", "url"), list(mf2_pages()))
def test_bounded_tree_equals_full_dom(path: Path, url: str) -> None:
    data = path.read_bytes()
    for options in ({}, {"text": "normalized", "lang": True, "metaformats": True}):
        streamed = stream_mf2.parse(data, url, **options)
        parser = stream_mf2.Parser(url, **options)
        parser.feed(data)
        parser.close()
        # The full DOM of the same text (same decoded characters), parsed whole.
        document = parse_document(_decode_like(parser, data))
        full = parse_dom(document, url, Options(**options))
        assert streamed == full, f"{path.name} {options}: bounded tree and full DOM disagree"


def _decode_like(parser: stream_mf2.Parser, data: bytes) -> str:
    from stream_mf2.html.decode import Decoder

    dec = Decoder()
    text = dec.feed(data) + dec.close()
    assert dec.encoding == parser.encoding
    return text
