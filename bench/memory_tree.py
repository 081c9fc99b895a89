"""Peak memory of tokenizer + tree builder + BoundedSink on generated streams.

Each stream is generated on the fly and fed in 64 KiB chunks to the bounded
pipeline in a fresh (spawned) child process, which reports its own peak RSS
(``resource.getrusage(RUSAGE_SELF).ru_maxrss`` at the end); the parent prints it
with the time. Sizes: 1 MB and
100 MB (``--gb`` adds 1 GB).

    python bench/memory_tree.py [--sizes 1,100] [--gb] [--only NAME]
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import resource
import sys
import time
from collections.abc import Iterator

CHUNK = 64 * 1024


def _repeat(unit: str, size: int, head: str = "<!doctype html><body>", tail: str = "") -> Iterator[str]:
    yield head
    n = 0
    block = unit * max(1, CHUNK // len(unit))
    while n < size:
        yield block
        n += len(block)
    if tail:
        yield tail


def flat(size: int) -> Iterator[str]:
    return _repeat(
        '<div class="h-entry"><a class="p-name u-url" href="/x">Title</a><p>Some <b>text</b></p></div>\n'
        "<p>filler paragraph with <i>inline</i> markup and &amp; entities</p>\n",
        size,
    )


def deep_and_flat(size: int) -> Iterator[str]:
    unit = "<section>" * 50 + '<div class="h-card"><span class="p-name">N</span></div>' + "</section>" * 50
    return _repeat(unit, size)


def tables(size: int) -> Iterator[str]:
    unit = "<table><tr><td><p class=h-entry>cell</p></td><td>x</td></tr><span>stray</span></table>\n"
    return _repeat(unit, size)


def misnested(size: int) -> Iterator[str]:
    unit = "<b><i><p class=h-entry>a<div>b</b>c</i>d</div></p>\n"
    return _repeat(unit, size)


def unclosed_p(size: int) -> Iterator[str]:
    # 70,000 unclosed <p> repeatedly (each <p> closes the previous one).
    return _repeat("<p>x" * 70_000, size)


def nested_div(size: int) -> Iterator[str]:
    # Up to 1,000,000 nested <div>, closed again, repeated until the size is reached.
    depth = 1_000_000
    opening = "<div>" * depth
    closing = "</div>" * depth
    unit_len = len(opening) + len(closing)
    yield "<!doctype html><body>"
    n = 0
    while n < size:
        d = min(depth, (size - n) // 11 + 1)
        for i in range(0, d * 5, CHUNK):
            yield opening[i : min(i + CHUNK, d * 5)]
        yield '<p class="h-x">deep</p>'
        for i in range(0, d * 6, CHUNK):
            yield closing[i : min(i + CHUNK, d * 6)]
        n += unit_len if d == depth else d * 11
    return


STREAMS = {
    "flat": flat,
    "deep+flat": deep_and_flat,
    "tables": tables,
    "misnested": misnested,
    "70k-unclosed-p": unclosed_p,
    "1M-nested-div": nested_div,
}


def _child(name: str, size: int, q: mp.Queue) -> None:  # type: ignore[type-arg]
    from stream_mf2.html.bounded import BoundedSink
    from stream_mf2.html.dom import Element
    from stream_mf2.html.tokenizer import Tokenizer
    from stream_mf2.html.treebuilder import TreeBuilder

    count = 0

    def keep(el: Element) -> bool:
        cls = el.attrs.get("class")
        return cls is not None and any(t.startswith("h-") for t in cls.split())

    def done(el: Element) -> None:
        nonlocal count
        count += 1

    t0 = time.perf_counter()
    tb = TreeBuilder(BoundedSink(keep, done), max_depth=1_100_000)
    tok = Tokenizer(tb)
    fed = 0
    # Re-chunk to exactly 64 KiB pieces.
    buf = ""
    for piece in itertools.chain(STREAMS[name](size), [""]):
        buf += piece
        while len(buf) >= CHUNK or (piece == "" and buf):
            tok.feed(buf[:CHUNK])
            fed += len(buf[:CHUNK])
            buf = buf[CHUNK:]
    tok.close()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # Linux: KiB
    q.put((fed, count, time.perf_counter() - t0, peak_kib))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1,100", help="MB, comma separated")
    ap.add_argument("--gb", action="store_true", help="also 1 GB")
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] + ([1000] if args.gb else [])
    ctx = mp.get_context("spawn")
    print(f"{'stream':16s} {'MB':>6s} {'items':>9s} {'sec':>7s} {'MB/s':>6s} {'peak RSS MB':>12s}")
    for name in STREAMS:
        if args.only and args.only != name:
            continue
        for mb in sizes:
            q: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
            p = ctx.Process(target=_child, args=(name, mb * 1_000_000, q))
            p.start()
            fed, count, secs, peak_kib = q.get()
            p.join()
            rss = peak_kib / 1024
            print(f"{name:16s} {fed / 1e6:6.0f} {count:9d} {secs:7.1f} {fed / 1e6 / secs:6.2f} {rss:12.1f}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
