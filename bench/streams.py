"""Large synthetic HTML streams, produced chunk by chunk and never held whole.

:func:`stream` yields ``bytes`` chunks of a well-formed UTF-8 HTML document of
exactly ``size`` bytes, in one of three shapes:

``entries``
    a blog-like page whose body is a flat run of ``h-entry`` articles, each
    with an author ``h-card``: many small top-level items.
``feed``
    the same articles inside one ``h-feed`` that wraps the whole body: a
    single top-level item as big as the document, the hard case for a
    streaming parser (its children must be streamed out of the container).
``plain``
    a news-like page with no microformats at all: nav menus, tables, scripts,
    comments. It measures the cost of looking and finding nothing.

The byte count is exact: after the last whole unit, inter-element whitespace
pads the document to ``size`` before the closing tags. Memory use is one
chunk plus one unit, whatever ``size`` is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

SHAPES = ("entries", "feed", "plain")
SIZES = {"1MB": 10**6, "10MB": 10**7, "100MB": 10**8, "1GB": 10**9}
DEFAULT_CHUNK = 64 * 1024

_WORDS_TEXT = (
    "stream parser token element attribute feed entry card event review browser markup crawler archive "
    "mention reply bookmark photo note article garden bicycle mountain river coffee library morning "
    "café naïve résumé straße Zürich Kraków λόγος данные 東京 日本語 — “quoted” the of and to in is for"
)
_WORDS = _WORDS_TEXT.split(" ")
_N_VARIANTS = 97  # prime, so the text variant and the index cycle independently


def parse_size(text: str) -> int:
    """``"10MB"`` / ``"1GB"`` / ``"250KB"`` / ``"12345"`` -> bytes (decimal units: 1 MB = 10**6)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?\s*", text, re.IGNORECASE)
    if m is None:
        raise ValueError(f"not a size: {text!r}")
    factor = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}[(m.group(2) or "B").upper()]
    return int(float(m.group(1)) * factor)


def format_size(n: int) -> str:
    """The inverse of :func:`parse_size` for the round sizes used in reports."""
    for unit, factor in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if n >= factor and n % factor == 0:
            return f"{n // factor}{unit}"
    return f"{n}B"


def _phrase(seed: int, n: int) -> str:
    return " ".join(_WORDS[(seed * 7 + k * 13) % len(_WORDS)] for k in range(n))


def _paragraphs(variant: int) -> str:
    out = []
    for k in range(1 + variant % 3):
        s = _phrase(variant * 3 + k, 18 + (variant + k) % 23)
        out.append(f'<p>{s}. <a href="/tags/{variant % 11}">{_phrase(k, 2)}</a> &amp; <em>{_phrase(variant, 3)}</em></p>')
    if variant % 4 == 0:
        out.append(f"<ul><li>{_phrase(variant + 1, 4)}</li><li>{_phrase(variant + 2, 5)}</li></ul>")
    if variant % 5 == 0:
        out.append(f'<img src="/media/{variant}.jpg" alt="{_phrase(variant + 3, 3)}" width="640" height="360">')
    return "\n".join(out)


# Per-variant text, built once: the stream then only formats in the unit index.
_BODIES = [_paragraphs(v) for v in range(_N_VARIANTS)]
_TITLES = [_phrase(v + 5, 3 + v % 5).title() for v in range(_N_VARIANTS)]
_AUTHORS = [f"{_phrase(v, 1).title()} {_phrase(v + 9, 1).title()}" for v in range(_N_VARIANTS)]


def _entry(i: int) -> str:
    v = i % _N_VARIANTS
    return (
        f'<article class="h-entry" id="e{i}">\n<h2 class="p-name"><a class="u-url" href="/posts/{i}">{_TITLES[v]} {i}</a></h2>\n'
        f'<a class="p-author h-card" href="/people/{v}"><span class="p-name">{_AUTHORS[v]}</span></a>\n'
        f'<time class="dt-published" datetime="2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00Z">{i}</time>\n'
        f'<div class="e-content">\n{_BODIES[v]}\n</div>\n<a class="p-category" href="/tags/{v % 11}">tag{v % 11}</a>\n</article>\n'
    )


def _story(i: int) -> str:
    v = i % _N_VARIANTS
    table = ""
    if v % 3 == 0:
        table = f"<table><tr><th>Item</th><th>Value</th></tr><tr><td>{_phrase(v, 2)}</td><td>{i}</td></tr></table>\n"
    return (
        f"<!-- story {i} -->\n<div class=\"story\" data-id=\"{i}\">\n"
        f'<a class="headline" href="/news/{i}">{_TITLES[v]} {i}</a>\n<span class="byline">By {_AUTHORS[v]}</span>\n'
        f"{_BODIES[v]}\n{table}<script>window.ads=window.ads||[];ads.push({{slot:{i},ok:1<2}});</script>\n</div>\n"
    )


def _prologue(shape: str) -> str:
    head = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Synthetic {shape} stream</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="stylesheet" href="/main.css">\n<style>body{font:16px/1.5 sans-serif}.h-entry{margin:1em 0}</style>\n'
        "</head>\n<body>\n"
    )
    if shape == "entries":
        return head + '<header class="h-card"><a class="p-name u-url" href="/">Site Owner</a></header>\n<main>\n'
    if shape == "feed":
        return head + '<main class="h-feed">\n<h1 class="p-name">Everything</h1>\n'
    nav = "".join(f'<li><a href="/section/{k}">{_phrase(k, 1).title()}</a></li>' for k in range(12))
    return head + f'<header><nav><ul class="menu">{nav}</ul></nav></header>\n<main>\n'


def _epilogue(shape: str) -> str:
    return "</main>\n<footer><p>&copy; 2026</p></footer>\n</body>\n</html>\n"


def stream(shape: str, size: int, chunk_size: int = DEFAULT_CHUNK) -> Iterator[bytes]:
    """Yield chunks of a ``shape`` document of exactly ``size`` bytes.

    Chunks are about ``chunk_size`` bytes (whole units are kept together, so a
    chunk can be longer by up to one unit; the last one is shorter).
    Raises :class:`ValueError` for an unknown shape or a size too small to
    hold the document's fixed head and tail.
    """
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}; expected one of {SHAPES}")
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    prologue = _prologue(shape).encode("utf-8")
    epilogue = _epilogue(shape).encode("utf-8")
    room = size - len(prologue) - len(epilogue)
    if room < 0:
        raise ValueError(f"size {size} is below the minimum {len(prologue) + len(epilogue)} for shape {shape!r}")
    unit = _story if shape == "plain" else _entry

    pending: list[bytes] = [prologue]
    pending_len = len(prologue)
    i = 0
    while True:
        piece = unit(i).encode("utf-8")
        if len(piece) > room:
            break
        room -= len(piece)
        pending.append(piece)
        pending_len += len(piece)
        i += 1
        if pending_len >= chunk_size:
            yield b"".join(pending)
            pending, pending_len = [], 0
    # Whitespace between elements is valid anywhere in <main>: it tops the
    # document up to the exact size without changing its structure.
    padding = b"\n" * room
    tail = b"".join([*pending, padding, epilogue])
    for start in range(0, len(tail), chunk_size):
        yield tail[start : start + chunk_size]


def stream_bytes(shape: str, size: int) -> bytes:
    """The whole document at once, for parsers that cannot stream."""
    return b"".join(stream(shape, size, chunk_size=1 << 20))
