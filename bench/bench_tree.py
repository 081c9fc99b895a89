"""Tokenizer + tree builder throughput (MB/s of decoded text) on the bench fixtures.

Runs, in one process and on the same inputs: the tokenizer alone, tokenizer +
tree builder with the full DOM sink, with the bounded sink (mf2-like keep
predicate), ``html5lib.parse`` and ``justhtml`` (full parses). Inputs are
``fixtures/bench/*.html``; without them a page is generated in memory.

    python bench/bench_tree.py [--repeat N] [files...]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.dom import Element
from stream_mf2.html.sink import DomSink
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "bench"
CHUNK = 64 * 1024


class _NullSink:
    """Token sink that does nothing: the tokenizer's own cost."""

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        pass

    def end_tag(self, name: str) -> None:
        pass

    def characters(self, data: str) -> None:
        pass

    def comment(self, data: str) -> None:
        pass

    def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
        pass

    def eof(self) -> None:
        pass

    def cdata_allowed(self) -> bool:
        return False


def keep_mf2(el: Element) -> bool:
    """A realistic predicate: mf2 roots (``h-*`` class) and rel links."""
    cls = el.attrs.get("class")
    if cls is not None and "h-" in cls and any(t.startswith("h-") for t in cls.split()):
        return True
    return "rel" in el.attrs and el.name in ("a", "link", "area")


def _feed(tok: Tokenizer, text: str) -> None:
    for i in range(0, len(text), CHUNK):
        tok.feed(text[i : i + CHUNK])
    tok.close()


def run_tokenizer(text: str) -> None:
    _feed(Tokenizer(_NullSink()), text)


def run_dom(text: str) -> None:
    tb = TreeBuilder(DomSink())
    tok = Tokenizer(tb)
    _feed(tok, text)


def run_bounded(text: str) -> None:
    items: list[Element] = []
    tb = TreeBuilder(BoundedSink(keep_mf2, items.append))
    tok = Tokenizer(tb)
    _feed(tok, text)


def run_html5lib(text: str) -> None:
    import html5lib

    html5lib.parse(text)


def run_justhtml(text: str) -> None:
    from justhtml import JustHTML

    JustHTML(text, sanitize=False)


def generated_page() -> str:
    parts = ["<!doctype html><html lang=en><head><title>t</title></head><body>"]
    for i in range(3000):
        parts.append(
            f'<article class="h-entry"><h2 class="p-name"><a href="/p/{i}">Post {i}</a></h2>'
            f'<p class="p-summary">Some <b>bold</b> and <i>italic</i> text &amp; more {i}.</p>'
            f'<table><tr><td>cell</td><td><a class="u-url" href="/x">x</a></td></tr></table></article>\n'
        )
    return "".join(parts) + "</body></html>"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    paths = [Path(f) for f in args.files] or sorted(FIXTURES.glob("*.html"))
    inputs = [(p.name, p.read_bytes().decode("utf-8", "replace")) for p in paths]
    if not inputs:
        inputs = [("generated", generated_page())]
    total = sum(len(t) for _, t in inputs) / 1e6
    runners: list[tuple[str, Callable[[str], None]]] = [
        ("tokenizer only", run_tokenizer),
        ("tokenizer+tree, DomSink", run_dom),
        ("tokenizer+tree, BoundedSink", run_bounded),
        ("html5lib.parse", run_html5lib),
        ("justhtml", run_justhtml),
    ]
    print(f"{len(inputs)} inputs, {total:.2f} M chars, best of {args.repeat}")
    for label, fn in runners:
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            for _, text in inputs:
                fn(text)
            best = min(best, time.perf_counter() - t0)
        print(f"  {label:30s} {total / best:7.2f} MB/s  ({best:.2f} s)")


if __name__ == "__main__":
    main()
