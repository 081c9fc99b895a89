"""Does parse time grow linearly with input size? ``python -m bench.scaling``

For each shape of page, parse a generated page of size N and one of size 10N
(fed in 64 KiB chunks, as a stream would arrive) and print the time ratio. A
linear-time pipeline gives about 10x; the check flags a ratio of 20x or more,
which would mean some step does work proportional to what came before (a
quadratic in disguise). Each size is timed ``--repeat`` times and the fastest
run is kept, so that a scheduling hiccup does not look like a quadratic.

Shapes:

``flat-items``
    N sibling h-cards, each with a name, a URL and a photo.
``nested-items``
    one h-card nesting N levels of h-cards (``children``), N bounded by the
    default ``max_depth``.
``nested-properties``
    one h-entry whose ``p-author`` h-cards nest N levels deep (each level's
    ``value`` is the text of its subtree).
``nested-p-values``
    one h-card whose ``p-note`` elements nest N levels deep (N values, each the
    text of its subtree).
``nested-u-items``
    one h-entry whose ``u-x h-card`` items nest N levels deep (each level's
    value is read after the levels below it are parsed).
``nested-value-class``
    one h-entry whose ``p-x`` properties nest N levels deep, each through a
    ``value`` element (value-class pattern text at every level).
``nested-e-values``
    one h-entry whose ``e-x`` properties nest N levels deep. Each level's
    ``html`` contains every level below it, so the *output* would be quadratic
    in N; the ``html`` of values nested in another e-* value is bounded by the
    mf2 option ``max_nested_html_chars`` (past it, it is left empty and noted),
    which keeps the work linear.
``rel-links``
    N ``<a rel>`` links, half of them repeating an earlier URL (``rel-urls``
    merging).
``itemref``
    N classic vcards, each including by ``itemref`` an element by id that comes
    *after* it (the include pattern holds items until their target arrives).
``deep-markup``
    an e-* property whose content nests N plain elements (serialisation and
    text walk, no recursion).

Not a test: no assertion, just a table and an exit status (1 if a ratio is at
or over the threshold). Sizes can be changed with ``--n``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable

from stream_mf2 import Parser

BASE = "http://example.com/"
CHUNK = 65_536
THRESHOLD = 20.0
HEAD = b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>\n'


def flat_items(n: int) -> bytes:
    parts = [HEAD]
    for i in range(n):
        parts.append(
            f'<div class="h-card"><a class="p-name u-url" href="/p/{i}">Person {i}</a>'
            f'<img class="u-photo" src="/img/{i}.jpg" alt="photo {i}"></div>\n'.encode()
        )
    return b"".join(parts)


def nested_items(n: int) -> bytes:
    return HEAD + b'<div class="h-card"><span class="p-name">x</span>' * n + b"</div>" * n


def nested_properties(n: int) -> bytes:
    return HEAD + b'<div class="h-entry">' + b'<div class="p-author h-card">' * n + b"x" + b"</div>" * (n + 1)


def nested_p_values(n: int) -> bytes:
    return HEAD + b'<div class="h-card">' + b'<div class="p-note">' * n + b"x" + b"</div>" * (n + 1)


def nested_u_items(n: int) -> bytes:
    return HEAD + b'<div class="h-entry">' + b'<div class="u-x h-card">' * n + b"x" + b"</div>" * (n + 1)


def nested_value_class(n: int) -> bytes:
    return HEAD + b'<div class="h-entry">' + b'<div class="p-x"><span class="value">' * n + b"x"


def nested_e_values(n: int) -> bytes:
    return HEAD + b'<div class="h-entry">' + b'<div class="e-x">' * n + b"x" + b"</div>" * (n + 1)


def rel_links(n: int) -> bytes:
    parts = [HEAD]
    for i in range(n):
        parts.append(f'<a rel="me tag" href="/r/{i // 2}">link {i}</a>\n'.encode())
    return b"".join(parts)


def itemref(n: int) -> bytes:
    parts = [HEAD]
    for i in range(n):
        parts.append(
            f'<div class="vcard" itemref="org{i}"><span class="fn">P {i}</span></div>\n'
            f'<p id="org{i}" class="org">Org {i}</p>\n'.encode()
        )
    return b"".join(parts)


def deep_markup(n: int) -> bytes:
    return HEAD + b'<div class="h-entry"><div class="e-content">' + b"<span><b>" * n + b"t" + b"</b></span>" * n


SHAPES: dict[str, tuple[Callable[[int], bytes], int]] = {
    # shape: (page generator, default N)
    "flat-items": (flat_items, 2_000),
    "nested-items": (nested_items, 2_000),
    "nested-properties": (nested_properties, 300),
    "nested-p-values": (nested_p_values, 300),
    "nested-u-items": (nested_u_items, 300),
    "nested-value-class": (nested_value_class, 300),
    "nested-e-values": (nested_e_values, 300),
    "rel-links": (rel_links, 5_000),
    "itemref": (itemref, 2_000),
    "deep-markup": (deep_markup, 4_000),
}


def parse_time(data: bytes, repeat: int) -> float:
    """Fastest of ``repeat`` stream parses of ``data`` in 64 KiB chunks, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        parser = Parser(BASE, max_depth=1_000_000)
        for offset in range(0, len(data), CHUNK):
            parser.feed(data[offset : offset + CHUNK])
        parser.close()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    """Print one row per shape; return 1 if any ratio reaches the threshold."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--n", type=int, help="N for every shape (default: per shape)")
    ap.add_argument("--factor", type=int, default=10, help="the larger page is this many times N (default 10)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per size, fastest kept (default 3)")
    ap.add_argument("shapes", nargs="*", metavar="SHAPE", help=f"shapes to run (default: all): {', '.join(SHAPES)}")
    ns = ap.parse_args(argv)
    unknown = [s for s in ns.shapes if s not in SHAPES]
    if unknown:
        ap.error(f"unknown shape(s) {', '.join(unknown)}; choose from {', '.join(SHAPES)}")
    failed = False
    print(f"{'shape':<18} {'N':>7} {'bytes':>10} {'time':>8} {'x N':>8} {'bytes':>11} {'time':>8} {'ratio':>6}")
    for name in ns.shapes or SHAPES:
        make, default_n = SHAPES[name]
        n = ns.n or default_n
        small, large = make(n), make(n * ns.factor)
        t_small, t_large = parse_time(small, ns.repeat), parse_time(large, ns.repeat)
        ratio = t_large / t_small if t_small > 0 else float("inf")
        flag = "" if ratio < THRESHOLD * ns.factor / 10 else "  <-- superlinear"
        failed = failed or bool(flag)
        print(
            f"{name:<18} {n:>7} {len(small):>10} {t_small:>7.3f}s {n * ns.factor:>8} {len(large):>11} "
            f"{t_large:>7.3f}s {ratio:>5.1f}x{flag}"
        )
    print(f"(linear: about {ns.factor}x; flagged at {THRESHOLD * ns.factor / 10:.0f}x)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
