"""Peak RSS on pages of microdata items from 1 MB to 1 GB, and time to first entry per syntax.

Usage::

    python -m bench.syntaxes_memory                  # 1MB, 10MB, 100MB; ttfi at 10MB
    python -m bench.syntaxes_memory --large          # and 1GB (stream_mf2 only: minutes to tens of minutes)
    python -m bench.syntaxes_memory --sizes 1MB,10MB --extruct-cap 10MB --ttfi-size 2MB
    python -m bench.syntaxes_bench --memory ...      # the same, from the syntaxes benchmark

Two tables, each measurement in a fresh child process (``--child``), as ``bench.memory`` does:

* **memory**: a shop's category page (``products``: a WooCommerce-like listing of schema.org
  ``Product`` items, each with an ``Offer`` and an ``AggregateRating`` nested, about 1.2 KB a
  product, so 1 GB is some 850,000 top-level items; ``page-item``: the same inside a
  ``<body itemscope itemtype="https://schema.org/WebPage">``, the page item final only at the
  end). ``stream_mf2`` is what ``stream-mf2 --jsonl --syntaxes microdata`` does: the page fed
  in 64 KiB chunks to ``Parser(url, syntaxes={"microdata"})``, each event through
  :class:`~stream_mf2.core.syntax_results.SyntaxResults`, each entry written as its JSON
  line to a sink that counts the bytes and keeps none. ``extruct`` gets the page as one
  ``bytes`` object (its size counts towards its peak, as for any caller) and runs
  ``extruct.extract(data, base_url=url, syntaxes=["microdata"])``; it runs only up to
  ``--extruct-cap`` (default 100MB); a run whose peak, extrapolated linearly from the largest
  size measured, would pass 80 % of the memory available, or whose time, extrapolated from the
  two largest (as size ** k, k ≥ 1 fitted to them: extruct's time on the ``page-item`` shape
  grows faster than the page), would pass the child's time limit is reported as skipped.
  Each child's address space is capped (``--mem-limit``).
* **ttfi**: time to the first entry of each syntax on one page carrying them all (``mixed``:
  OpenGraph, Twitter and Dublin Core in the head, then, repeated, a microdata product, a
  JSON-LD product, an RDFa product and an ``h-product``), of ``--ttfi-size`` (default 10MB):
  the parse time until the first line of that syntax is written, next to the whole parse.
  OpenGraph and Twitter come at the end of ``<head>``, JSON-LD, microdata and mf2 as their
  elements close; RDFa and Dublin Core only at the page's end (see
  ``stream_mf2/core/syntax_results.py``: an RDFa node gathers one subject's triples from the
  whole page; Dublin Core is one object joining the head and the body). extruct gives
  everything when its whole parse ends: its row is that time, for its six syntaxes.

Times are wall time inside the parser (the page generation is not counted); peak RSS is the
child's ``VmHWM``. Results go to ``bench/results/syntaxes-memory-<UTC start>.json``; nothing
else reads them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.memory import _peak_kb, _rss_now_kb, run_json_child
from bench.run import machine_info, write_results
from bench.streams import DEFAULT_CHUNK, format_size, parse_size

URL = "https://shop.example/category/teapots/"
SHAPES = ("products", "page-item")
#: Every syntax, in the registry's order (mf2 first).
TTFI_SYNTAXES = ("mf2", "json-ld", "microdata", "rdfa", "opengraph", "twitter", "dublincore")
#: extruct's names of its six syntaxes.
EXTRUCT_ALL = ("microdata", "json-ld", "opengraph", "microformat", "rdfa", "dublincore")

HEAD = """<!DOCTYPE html>
<html lang="en-GB" prefix="og: https://ogp.me/ns# product: https://ogp.me/ns/product#">
<head>
<meta charset="utf-8">
<title>Teapots – Kettle &amp; Leaf</title>
<link rel="canonical" href="https://shop.example/category/teapots/">
<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">
<meta name="DC.title" content="Teapots">
<meta name="DC.publisher" content="Kettle &amp; Leaf">
<meta property="og:type" content="website">
<meta property="og:title" content="Teapots – Kettle &amp; Leaf">
<meta property="og:image" content="https://shop.example/media/teapots.jpg">
<meta name="twitter:card" content="summary">
<meta name="twitter:site" content="@kettleandleaf">
</head>
"""
BODY = '<body class="archive tax-product_cat woocommerce">\n'
PAGE_BODY = '<body class="archive woocommerce" itemscope itemtype="https://schema.org/WebPage">\n'
HEADER = """<header class="site-header"><a class="custom-logo-link" href="/">Kettle &amp; Leaf</a>
<nav><ul><li><a href="/category/teapots/">Teapots</a></li><li><a href="/category/cups/">Cups</a></li></ul></nav>
<h1 class="page-title">Teapots</h1></header>
<main id="main"><ul class="products columns-4">
"""


def microdata_product(i: int) -> str:
    return f"""<li class="product type-product post-{i} instock">
<article itemscope itemtype="https://schema.org/Product">
<a href="/product/teapot-{i}/" itemprop="url"><img src="/wp-content/uploads/teapot-{i}-300x300.jpg"
 itemprop="image" alt="Teapot no. {i}" width="300" height="300" loading="lazy"></a>
<h2 class="woocommerce-loop-product__title" itemprop="name">Cast-iron teapot no. {i}</h2>
<meta itemprop="sku" content="KL-{i:06d}">
<div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
<span class="star-rating" title="Rated {i % 5 + 1} out of 5"><span itemprop="ratingValue">{i % 5 + 1}</span>
 from <span itemprop="reviewCount">{i % 97 + 3}</span> reviews</span></div>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
<span class="price"><span class="woocommerce-Price-amount amount" itemprop="price" content="{20 + i % 50}.00">£{20 + i % 50}.00</span></span>
<meta itemprop="priceCurrency" content="GBP"><link itemprop="availability" href="https://schema.org/InStock">
<a href="/?add-to-cart={i}" class="button add_to_cart_button">Add to basket</a></div>
</article></li>
"""


def mixed_unit(i: int) -> str:
    """A microdata product, a JSON-LD one, an RDFa one and an h-product."""
    return (
        microdata_product(i)
        + f"""<li class="product"><script type="application/ld+json">{{"@context": "https://schema.org",
 "@type": "Product", "name": "Cup no. {i}", "sku": "KC-{i:06d}",
 "offers": {{"@type": "Offer", "price": "{5 + i % 20}.00", "priceCurrency": "GBP"}}}}</script>
<a href="/product/cup-{i}/">Cup no. {i}</a></li>
<li class="product" vocab="https://schema.org/" typeof="Product"><a property="url" href="/product/saucer-{i}/">
<span property="name">Saucer no. {i}</span></a><span property="offers" typeof="Offer">
<span property="price" content="{3 + i % 9}.50">£{3 + i % 9}.50</span><meta property="priceCurrency" content="GBP"></span></li>
<li class="product h-product"><a class="u-url p-name" href="/product/tray-{i}/">Tray no. {i}</a>
<data class="p-price" value="{12 + i % 30}.00">£{12 + i % 30}.00</data></li>
"""
    )


def page_chunks(shape: str, size: int, chunk_size: int = DEFAULT_CHUNK) -> Iterator[bytes]:
    """The page of ``shape``, ``size`` bytes at least (whole products), in ``chunk_size`` pieces;
    generated as it goes, never held whole."""
    unit = mixed_unit if shape == "mixed" else microdata_product
    head = HEAD + (PAGE_BODY if shape == "page-item" else BODY) + HEADER
    tail = b"</ul></main>\n<footer><p>\xc2\xa9 Kettle &amp; Leaf</p></footer>\n</body>\n</html>\n"
    buffer = bytearray(head.encode())
    made = 0
    i = 0
    while made < size:
        piece = unit(i).encode()
        i += 1
        buffer += piece
        made += len(piece)
        while len(buffer) >= chunk_size:
            yield bytes(buffer[:chunk_size])
            del buffer[:chunk_size]
    buffer += tail
    while buffer:
        yield bytes(buffer[:chunk_size])
        del buffer[:chunk_size]


class _Count:
    """Standard output that keeps nothing: the lines' count and bytes."""

    def __init__(self) -> None:
        self.lines = 0
        self.bytes = 0

    def write(self, data: bytes) -> None:
        self.lines += 1
        self.bytes += len(data)


def child_stream_mf2(shape: str, size: int, chunk_size: int, syntaxes: tuple[str, ...]) -> dict[str, Any]:
    """``stream-mf2 --jsonl --syntaxes ...``: events through SyntaxResults into JSON lines."""
    from stream_mf2 import Parser
    from stream_mf2.cli._common import jsonl_item, jsonl_syntax_item
    from stream_mf2.core.syntax_results import SyntaxResults
    from stream_mf2.events import ItemEvent
    from stream_mf2.io.json_output import dumps

    parser = Parser(URL, syntaxes=set(syntaxes))
    results = SyntaxResults(syntaxes)
    out = _Count()
    first: dict[str, float] = {}
    counts: dict[str, int] = dict.fromkeys(syntaxes, 0)
    clock = time.perf_counter
    parse_s = 0.0

    def write(events: list[Any], end: bool) -> None:
        for event in events:
            if type(event) is ItemEvent:
                entries = [("mf2", 0, jsonl_item(event, syntaxes=True))]
            else:
                entries = [(n, 0, jsonl_syntax_item(n, i, e)) for n, i, e in results.add(event)]
            for name, _i, line in entries:
                out.write(dumps(line))
                counts[name] += 1
                first.setdefault(name, parse_s + (clock() - start))
        if end:
            for name, index, entry in results.finish():
                out.write(dumps(jsonl_syntax_item(name, index, entry)))
                counts[name] += 1
                first.setdefault(name, parse_s + (clock() - start))

    for chunk in page_chunks(shape, size, chunk_size):
        start = clock()
        write(parser.feed_events(chunk), False)
        parse_s += clock() - start
    start = clock()
    write(parser.close_events(), True)
    parse_s += clock() - start
    return {"parse_s": parse_s, "first_s": first, "entries": counts, "out_bytes": out.bytes}


def child_extruct(shape: str, size: int, syntaxes: tuple[str, ...]) -> dict[str, Any]:
    """extruct on the page joined into one ``bytes`` object."""
    import extruct

    data = b"".join(page_chunks(shape, size))
    start = time.perf_counter()
    result = extruct.extract(data, base_url=URL, syntaxes=list(syntaxes))
    parse_s = time.perf_counter() - start
    entries = {k: len(v) for k, v in result.items()}
    return {"parse_s": parse_s, "first_s": dict.fromkeys(entries, parse_s), "entries": entries,
            "input_resident_bytes": len(data)}


def child_main(ns: argparse.Namespace) -> int:
    if ns.mem_limit:
        resource.setrlimit(resource.RLIMIT_AS, (ns.mem_limit, ns.mem_limit))
    report: dict[str, Any] = {"baseline_rss_kb": _rss_now_kb()}
    syntaxes = tuple(ns.syntaxes.split(","))
    try:
        if ns.parser == "stream_mf2":
            report.update(child_stream_mf2(ns.shape, ns.size, ns.chunk_size, syntaxes))
        else:
            report.update(child_extruct(ns.shape, ns.size, syntaxes))
    except MemoryError:
        report["error"] = f"MemoryError (address space capped at {ns.mem_limit} bytes)"
    except Exception as exc:  # reported, not raised: the parent tabulates every outcome
        report["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    report["peak_rss_kb"] = _peak_kb()
    print(json.dumps(report), flush=True)
    return 0


def _available_kb() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def _run(parser: str, shape: str, size: int, syntaxes: tuple[str, ...], ns: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "bench.syntaxes_memory", "--child", "--parser", parser, "--shape", shape,
           "--size", str(size), "--syntaxes", ",".join(syntaxes), "--chunk-size", str(ns.chunk_size),
           "--mem-limit", str(parse_size(ns.mem_limit))]
    return run_json_child(cmd, ns.timeout + size / 250_000)


def _expected_s(runs: list[tuple[int, float]], size: int) -> tuple[float, float] | None:
    """The time a run at ``size`` should take, from the two largest runs so far (the time grows
    as size ** k, k from them; 1 with one run), and k; ``None`` without a run."""
    if not runs:
        return None
    (s1, t1), (s2, t2) = runs[-2] if len(runs) > 1 else runs[-1], runs[-1]
    k = math.log(t2 / t1) / math.log(s2 / s1) if s2 > s1 and t1 > 0 and t2 > 0 else 1.0
    k = max(k, 1.0)
    return t2 * (size / s2) ** k, k


def _mb(kb: int | None) -> str:
    return "—" if kb is None else f"{kb / 1024:,.0f}"


def _s(s: float | None) -> str:
    return "—" if s is None else f"{s:,.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.syntaxes_memory",
                                 description="Peak RSS on pages of microdata items; time to first entry per syntax.")
    ap.add_argument("--sizes", default="1MB,10MB,100MB", help="page sizes (default 1MB,10MB,100MB)")
    ap.add_argument("--large", action="store_true", help="add 1GB (stream_mf2 only past --extruct-cap)")
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"from {','.join(SHAPES)}")
    ap.add_argument("--extruct-cap", default="100MB", help="largest page given to extruct (default 100MB)")
    ap.add_argument("--ttfi-size", default="10MB", help="size of the mixed page of the ttfi table (0: no table)")
    ap.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK, help="bytes per chunk fed to stream_mf2")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per child, plus 1 s per 250 KB")
    ap.add_argument("--mem-limit", default="16GB", help="address-space cap of each child (default 16GB)")
    ap.add_argument("--json", type=Path, default=None, help="results file (default bench/results/syntaxes-memory-<UTC>.json)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--parser", help=argparse.SUPPRESS)
    ap.add_argument("--shape", help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--syntaxes", default="microdata", help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.child:
        ns.mem_limit = parse_size(ns.mem_limit)
        return child_main(ns)
    started = dt.datetime.now(dt.UTC)
    sizes = [parse_size(s) for s in ns.sizes.split(",") if s.strip()]
    if ns.large and 10**9 not in sizes:
        sizes.append(10**9)
    shapes = [s.strip() for s in ns.shapes.split(",") if s.strip()]
    cap = parse_size(ns.extruct_cap)
    rows: list[dict[str, Any]] = []
    grown: dict[tuple[str, str], tuple[int, int]] = {}  # (parser, shape) -> (size, peak) of the largest run
    timed: dict[tuple[str, str], list[tuple[int, float]]] = {}  # (parser, shape) -> (size, parse s) of each run
    for size in sorted(sizes):
        for shape in shapes:
            for parser in ("stream_mf2", "extruct"):
                row: dict[str, Any] = {"table": "memory", "parser": parser, "shape": shape, "size": size}
                last = grown.get((parser, shape))
                guess = last[1] * size // last[0] if last else None
                available = _available_kb()
                expected = _expected_s(timed.get((parser, shape), []), size)
                limit = ns.timeout + size / 250_000
                if parser == "extruct" and size > cap:
                    row["error"] = f"skipped: above --extruct-cap {format_size(cap)}"
                elif guess is not None and available is not None and guess > 0.8 * available:
                    row["error"] = f"skipped: about {guess // 1024:,} MB expected, {available // 1024:,} MB available"
                elif expected is not None and expected[0] > limit:
                    row["error"] = (f"skipped: about {expected[0]:,.0f} s expected (time grew as size^{expected[1]:.1f}),"
                                    f" past the {limit:,.0f} s limit")
                else:
                    row.update(_run(parser, shape, size, ("microdata",), ns))
                    if row.get("peak_rss_kb") and not row.get("error"):
                        grown[(parser, shape)] = (size, row["peak_rss_kb"])
                        timed.setdefault((parser, shape), []).append((size, row["parse_s"]))
                rows.append(row)
                first = (row.get("first_s") or {}).get("microdata")
                print(f"  {format_size(size):>6} {shape:9} {parser:10} peak {_mb(row.get('peak_rss_kb')):>7} MB  "
                      f"parse {_s(row.get('parse_s')):>9} s  first item {_s(first):>8} s  "
                      f"items {(row.get('entries') or {}).get('microdata', '—')}  {row.get('error') or ''}", flush=True)
    ttfi_size = parse_size(ns.ttfi_size)
    if ttfi_size:
        for parser, syntaxes in (("stream_mf2", TTFI_SYNTAXES), ("extruct", EXTRUCT_ALL)):
            row = {"table": "ttfi", "parser": parser, "shape": "mixed", "size": ttfi_size}
            row.update(_run(parser, "mixed", ttfi_size, syntaxes, ns))
            rows.append(row)
            print(f"  ttfi {format_size(ttfi_size)} {parser}: {row.get('error') or ''}", flush=True)

    print("\nPeak RSS, microdata pages (stream_mf2: the --jsonl line front end; extruct: extract())")
    header = f"{'size':>6}  {'shape':9}  {'parser':10}  {'peak RSS MB':>11}  {'after imports MB':>16}  {'parse s':>9}  {'first item s':>12}  {'items':>8}  note"
    print(header + "\n" + "-" * len(header))
    for row in rows:
        if row["table"] == "memory":
            first = (row.get("first_s") or {}).get("microdata")
            print(f"{format_size(row['size']):>6}  {row['shape']:9}  {row['parser']:10}  {_mb(row.get('peak_rss_kb')):>11}  "
                  f"{_mb(row.get('baseline_rss_kb')):>16}  {_s(row.get('parse_s')):>9}  {_s(first):>12}  "
                  f"{(row.get('entries') or {}).get('microdata', '—')!s:>8}  {row.get('error') or ''}")
    ttfi = [row for row in rows if row["table"] == "ttfi"]
    if ttfi:
        print(f"\nTime to first entry per syntax, mixed page of {format_size(ttfi_size)} (s; whole parse last)")
        header = f"{'parser':10}  " + "  ".join(f"{n:>10}" for n in TTFI_SYNTAXES) + f"  {'whole':>9}  {'peak MB':>8}"
        print(header + "\n" + "-" * len(header))
        for row in ttfi:
            firsts = row.get("first_s") or {}
            if row["parser"] == "extruct":  # (extruct's names)
                firsts = {"mf2" if k == "microformat" else k: v for k, v in firsts.items()}
            print(f"{row['parser']:10}  " + "  ".join(f"{_s(firsts.get(n)):>10}" for n in TTFI_SYNTAXES)
                  + f"  {_s(row.get('parse_s')):>9}  {_mb(row.get('peak_rss_kb')):>8}  {row.get('error') or ''}")
    doc = {"started": started.isoformat(), "finished": dt.datetime.now(dt.UTC).isoformat(),
           "machine": machine_info(), "chunk_size": ns.chunk_size, "extruct_cap": cap, "rows": rows,
           "cpus": os.cpu_count()}
    path = write_results(doc, ns.json, started, "syntaxes-memory-")
    print(f"\nresults: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
