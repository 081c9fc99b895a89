"""Tokenizer throughput: MB/s of ``stream_mf2.html.tokenizer`` on the benchmark pages.

Run as ``python -m bench.bench_tokenizer [--chunk N] [--repeat N] [--no-html5lib] [files...]``.

Tokenizes every ``fixtures/bench/*.html`` (or ``fixtures/*.html`` plus a page
generated in memory when that folder is empty) with a sink that only counts
tokens. Like a tree builder, the sink switches the tokenizer to RAWTEXT, RCDATA,
script data or PLAINTEXT after the start tags that need it, so script and style
bodies are tokenized as they would be in a real parse. The same text is then
tokenized by html5lib's tokenizer (with the same state switches) for a ratio.
MB/s counts the UTF-8 size of the page's text, 10**6 bytes per MB, best of
``--repeat`` runs. Time is the process's CPU time (``time.process_time``) so
that other work on a shared machine does not skew the figures; ``--wall``
uses wall-clock time instead.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from stream_mf2.html.tokenizer import Tokenizer

REPO = Path(__file__).resolve().parent.parent

# Start tags after which a tree builder switches the tokenizer (scripting enabled).
SWITCH = {
    "script": "Script data state",
    "style": "RAWTEXT state",
    "xmp": "RAWTEXT state",
    "iframe": "RAWTEXT state",
    "noembed": "RAWTEXT state",
    "noframes": "RAWTEXT state",
    "noscript": "RAWTEXT state",
    "title": "RCDATA state",
    "textarea": "RCDATA state",
    "plaintext": "PLAINTEXT state",
}


class CountingSink:
    """Counts tokens and text, and switches states the way a tree builder would."""

    def __init__(self) -> None:
        self.tokenizer: Tokenizer | None = None
        self.tags = 0
        self.chars = 0
        self.other = 0

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        self.tags += 1
        state = SWITCH.get(name)
        if state is not None and self.tokenizer is not None:
            self.tokenizer.switch_to(state)

    def end_tag(self, name: str) -> None:
        self.tags += 1

    def characters(self, data: str) -> None:
        self.chars += len(data)

    def comment(self, data: str) -> None:
        self.other += 1

    def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
        self.other += 1

    def eof(self) -> None:
        pass

    def cdata_allowed(self) -> bool:
        return False


def tokenize(text: str, chunk: int) -> CountingSink:
    sink = CountingSink()
    tok = Tokenizer(sink)
    sink.tokenizer = tok
    if chunk <= 0:
        tok.feed(text)
    else:
        for i in range(0, len(text), chunk):
            tok.feed(text[i : i + chunk])
    tok.close()
    return sink


def tokenize_html5lib(text: str) -> int:
    from html5lib._tokenizer import HTMLTokenizer
    from html5lib.constants import tokenTypes

    start = tokenTypes["StartTag"]
    tokenizer = HTMLTokenizer(text)
    states = {
        "Script data state": tokenizer.scriptDataState,
        "RAWTEXT state": tokenizer.rawtextState,
        "RCDATA state": tokenizer.rcdataState,
        "PLAINTEXT state": tokenizer.plaintextState,
    }
    n = 0
    for token in tokenizer:
        n += 1
        if token["type"] == start:
            state = SWITCH.get(token["name"])
            if state is not None:
                tokenizer.state = states[state]
    return n


def generated_page(n_entries: int = 400, seed: int = 1) -> str:
    """A blog-like page with attributes, entities, comments, script and style."""
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "café", "naïve", "straße", "résumé", "mountain", "river", "stream", "index"]
    parts = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Generated &amp; page</title>",
        "<style>body{font:1em/1.4 sans-serif} a>b{color:red}</style>",
        "<script>var x = 1 < 2 && 3 > 2; document.write('</p>');</script></head><body>",
    ]
    for i in range(n_entries):
        text = " ".join(rng.choice(words) for _ in range(40))
        parts.append(
            f'<article class="h-entry post" id="e{i}"><h2 class="p-name"><a href="/posts/{i}?a=1&amp;b=2" '
            f'class="u-url">Entry {i} &mdash; {rng.choice(words)}</a></h2>'
            f'<time class="dt-published" datetime="2024-01-{i % 28 + 1:02d}T10:00:00Z">Jan</time>'
            f"<!-- entry {i} --><div class=e-content><p>{text} &copy; 2024</p><img src=/i/{i}.png alt=''>"
            f"<br/></div></article>\n"
        )
    parts.append("</body></html>")
    return "".join(parts)


def load_pages() -> list[tuple[str, str]]:
    files = sorted((REPO / "fixtures" / "bench").glob("*.html"))
    pages: list[tuple[str, str]] = []
    if not files:
        files = sorted((REPO / "fixtures").glob("*.html"))
        pages.append(("generated", generated_page()))
    for f in files:
        raw = f.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("windows-1252", errors="replace")
        pages.insert(len(pages), (f.name, text))
    return pages


CLOCK: Callable[[], float] = time.process_time


def best_time(fn: Callable[[], object], repeat: int, min_total: float = 0.5) -> float:
    """Best of at least ``repeat`` runs, and of enough runs to take ``min_total`` seconds."""
    best = float("inf")
    total = 0.0
    runs = 0
    while runs < repeat or total < min_total:
        t0 = CLOCK()
        fn()
        elapsed = CLOCK() - t0
        best = min(best, elapsed)
        total += elapsed
        runs += 1
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("files", nargs="*", type=Path, help="HTML files (default: fixtures/bench/*.html)")
    ap.add_argument("--chunk", type=int, default=65536, help="feed() size in characters, 0 = whole (default 65536)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per file; the best counts (default 5)")
    ap.add_argument("--no-html5lib", action="store_true", help="skip the html5lib comparison")
    ap.add_argument("--wall", action="store_true", help="measure wall-clock time instead of CPU time")
    args = ap.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    if args.files:
        pages = [(p.name, p.read_bytes().decode("utf-8", errors="replace")) for p in args.files]
    else:
        pages = load_pages()
    tokenize("<p class=x>warm-up &amp; <b>x</b></p>", 0)  # first-call costs stay out of the timing
    if not args.no_html5lib:
        tokenize_html5lib("<p class=x>warm-up</p>")
    total_mb = total_ours = total_ref = 0.0
    print(f"{'file':32} {'MB':>7} {'ours MB/s':>10} {'html5lib MB/s':>14} {'ratio':>6}")
    for name, text in pages:
        mb = len(text.encode("utf-8")) / 1e6
        ours = best_time(lambda text=text: tokenize(text, args.chunk), args.repeat)  # type: ignore[misc]
        total_mb += mb
        total_ours += ours
        if args.no_html5lib:
            print(f"{name:32} {mb:7.3f} {mb / ours:10.1f}")
            continue
        ref = best_time(lambda text=text: tokenize_html5lib(text), 2, 0.0)  # type: ignore[misc]
        total_ref += ref
        print(f"{name:32} {mb:7.3f} {mb / ours:10.1f} {mb / ref:14.1f} {ref / ours:6.1f}x")
    line = f"{'overall':32} {total_mb:7.3f} {total_mb / total_ours:10.1f}"
    if total_ref:
        line += f" {total_mb / total_ref:14.1f} {total_ref / total_ours:6.1f}x"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
