"""A page of n microdata items through the line front ends holds O(1) of them, at n, 2n and 4n.

The page is a shop's category listing as WooCommerce themes write it: a header, then n
products, each a schema.org ``Product`` item with an ``Offer`` and an ``AggregateRating``
nested, and, in the second form, the whole ``<body>`` a ``WebPage`` item (the page item,
final only at the page's end) as Genesis-style themes mark it.

Held items are counted, never timed: fed chunk by chunk through the Parser and
:class:`~stream_mf2.core.syntax_results.SyntaxResults`, the entries given trail the products
whose ``</li>`` was fed by at most one after every chunk; and ``stream-mf2 --jsonl
--syntaxes microdata`` run in-process over the page on disk has the same tracemalloc peak
(within a margin far below one more item per product) at n, 2n and 4n products, where
holding the items would grow it with n.
"""

from __future__ import annotations

import io
import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stream_mf2
from bench.syntaxes_memory import microdata_product
from stream_mf2 import Parser
from stream_mf2.cli import page as page_command
from stream_mf2.core.syntax_results import SyntaxResults
from tests.support.syntax_lines import syntax_list

URL = "https://shop.example/category/teapots/"
HEAD = """<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Teapots – Kettle &amp; Leaf</title>
<link rel="canonical" href="https://shop.example/category/teapots/">
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
"""
BODY = '<body class="archive tax-product_cat woocommerce">\n'
PAGE_BODY = '<body class="archive woocommerce" itemscope itemtype="https://schema.org/WebPage">\n'
HEADER = """<header class="site-header"><a class="custom-logo-link" href="/">Kettle &amp; Leaf</a>
<nav><ul><li><a href="/category/teapots/">Teapots</a></li><li><a href="/category/cups/">Cups</a></li></ul></nav>
<h1 class="page-title" itemprop="name">Teapots</h1></header>
<main id="main"><ul class="products columns-4">
"""
FOOTER = '</ul></main>\n<footer class="site-footer"><p>© Kettle &amp; Leaf</p></footer>\n</body>\n</html>\n'


# (one product of a WooCommerce-like shop page: the memory bench builds its pages from it too)
product = microdata_product


def pieces(n: int, *, page_item: bool) -> Iterator[str]:
    yield HEAD + (PAGE_BODY if page_item else BODY) + HEADER
    for i in range(n):
        yield product(i)
    yield FOOTER


def chunks(n: int, *, page_item: bool, size: int = 997) -> Iterator[str]:
    """The page in pieces of ``size`` characters, cut anywhere (never held whole)."""
    buffer = ""
    for piece in pieces(n, page_item=page_item):
        buffer += piece
        while len(buffer) >= size:
            yield buffer[:size]
            buffer = buffer[size:]
    yield buffer


def _most_held(n: int, page_item: bool) -> tuple[int, list[tuple[int, Any]]]:
    """The most products closed but not yet given, after any chunk; and every entry given."""
    parser = Parser(URL, syntaxes={"microdata"})
    results = SyntaxResults({"microdata"})
    given: list[tuple[int, Any]] = []
    closed = 0
    most = 0
    tail = ""
    for chunk in chunks(n, page_item=page_item):
        seen = tail + chunk
        closed += seen.count("</article>")
        tail = seen[-len("</article>") + 1 :]
        for event in parser.feed_events(chunk):
            given += [(index, entry) for _name, index, entry in results.add(event)]
        most = max(most, closed - len(given))
    for event in parser.close_events():
        given += [(index, entry) for _name, index, entry in results.add(event)]
    given += [(index, entry) for _name, index, entry in results.finish()]
    return most, given


@pytest.mark.parametrize("page_item", [False, True], ids=["products", "products-in-a-body-item"])
def test_items_are_given_as_they_close(page_item: bool) -> None:
    for n in (100, 200, 400):
        most, given = _most_held(n, page_item)
        # at most the product whose end tag is in the chunk being tokenized, at any n
        assert most <= 1, (n, most)
        assert len(given) == n + page_item
        whole = "".join(pieces(n, page_item=page_item))
        expected = stream_mf2.parse(whole, URL, syntaxes={"microdata"})["microdata"]
        assert [entry for _i, entry in sorted(given, key=lambda g: g[0])] == expected
        if page_item:
            # the page item is given last, with its place: first in the list
            assert given[-1][0] == 0 and expected[0]["type"] == "https://schema.org/WebPage"
            assert [i for i, _ in given[:-1]] == list(range(1, n + 1))


class _Discard(io.RawIOBase):
    """Standard output for the in-process CLI: keeps the lines' count and nothing else."""

    def __init__(self) -> None:
        self.lines = 0
        self.last = b""

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        data = bytes(b)
        self.lines += data.count(b"\n")
        self.last = data[-200:]
        return len(data)


def _cli_peak(path: Path) -> tuple[int, int]:
    out = _Discard()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        status = page_command.main(["--jsonl", "--syntaxes", "microdata", "--url", URL, str(path)], out)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 0
    return peak, out.lines


@pytest.mark.parametrize("page_item", [False, True], ids=["products", "products-in-a-body-item"])
def test_cli_jsonl_peak_is_flat(page_item: bool, tmp_path: Path) -> None:
    n = 300
    paths = []
    for k in (n, 2 * n, 4 * n):
        path = tmp_path / f"teapots-{k}.html"
        with path.open("w", encoding="utf-8") as f:
            f.writelines(pieces(k, page_item=page_item))
        paths.append(path)
    _cli_peak(paths[0])  # (imports and first-call caches outside the measure)
    peaks = []
    for k, path in zip((n, 2 * n, 4 * n), paths, strict=True):
        peak, lines = _cli_peak(path)
        assert lines == k + page_item + 1  # an item line per product (and the page item), the document line
        peaks.append(peak)
    # One product's entry is a few KB of dicts and strings: holding 3n more of them would add
    # megabytes; the peak may move by a few hundred KB of noise (caches, the file's buffers).
    one_item = len(json.dumps(stream_mf2.parse(product(0), URL, syntaxes={"microdata"})["microdata"][0]))
    assert peaks[2] - peaks[0] < 3 * n * one_item // 4, (peaks, one_item)
    assert peaks[2] < 1.25 * peaks[0], peaks
    print(f"tracemalloc peaks at {n}, {2 * n}, {4 * n} products: {peaks}; one item's JSON: {one_item} bytes")


def test_every_syntax_is_streamed_or_held() -> None:
    """Each syntax but mf2 is in exactly one of the two sets (a new one must choose)."""
    from stream_mf2.core.syntax_results import HELD, STREAMED
    from stream_mf2.core.syntaxes import SYNTAXES

    assert set(SYNTAXES) - {"mf2"} == STREAMED | HELD
    assert not STREAMED & HELD
    assert "microdata" in STREAMED


def test_lines_read_back_in_list_order(tmp_path: Path) -> None:
    path = tmp_path / "teapots.html"
    path.write_text("".join(pieces(3, page_item=True)), encoding="utf-8")
    out = io.BytesIO()
    assert page_command.main(["--jsonl", "--syntaxes", "microdata", "--url", URL, str(path)], out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["path"] for line in lines if line["kind"] == "item"] == [[1], [2], [3], [0]]
    expected = stream_mf2.parse(path.read_bytes(), URL, syntaxes={"microdata"})["microdata"]
    assert syntax_list(lines, "microdata") == json.loads(json.dumps(expected))
