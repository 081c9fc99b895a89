"""Do two URL patterns choose a common page? A witness URL, for ``stream-mf2 wpt lint``.

Two templates whose URL patterns both match one URL both apply to that page (by design: a
page gets every template that chooses it). Whether two regular expressions share a string
is not decided here in general; :func:`shared_url` tries URLs made from each pattern (its
literal text, each capture filled with the first of a few common values its expression
takes whole: numbers, words, slugs, dates, paths) against both patterns, so every URL it
gives is a real one that both choose, and ``None`` means only that none was found.
"""

from __future__ import annotations

import itertools

from stream_mf2.wpt._compile import _regex_module, pattern_pieces
from stream_mf2.wpt._urlnorm import normalize_pattern
from stream_mf2.wpt.model import Pattern

__all__ = ["same_pattern", "sample_urls", "shared_url"]

#: Values tried for a capture, in order (the first two its expression takes are used).
SAMPLES: tuple[str, ...] = (
    "1",
    "42",
    "2026",
    "a",
    "item",
    "item-1",
    "Item_1",
    "2026-01-02",
    "2026/01/02",
    "a/b",
    "a.html",
    "?page=2",
    "",
)
#: At most this many URLs are made from one pattern.
MAX_SAMPLES = 32


def sample_urls(pattern: Pattern) -> list[str]:
    """URLs (normalised as page URLs are) that ``pattern`` matches whole, made from its text."""
    regex = _regex_module()
    choices: list[list[str]] = []
    for text, concept in pattern_pieces(normalize_pattern(pattern.source)):
        if concept is None:
            choices.append([text])
            continue
        expr = regex.compile(text, regex.DOTALL | regex.V0)
        fits = [s for s in SAMPLES if expr.fullmatch(s) is not None][:2]
        if not fits:
            return []  # no common value fills this capture
        choices.append(fits)
    urls: list[str] = []
    for parts in itertools.islice(itertools.product(*choices), MAX_SAMPLES):
        url = "".join(parts)
        if pattern.regex.fullmatch(url) is not None:
            urls.append(url)
    return urls


def same_pattern(a: Pattern, b: Pattern) -> bool:
    """Are the two URL patterns written alike (once normalised as URLs are)?"""
    return normalize_pattern(a.source) == normalize_pattern(b.source)


def shared_url(a: Pattern, b: Pattern) -> str | None:
    """A URL both patterns match whole, or ``None`` (none found among :func:`sample_urls`)."""
    for url in (*sample_urls(a), *sample_urls(b)):
        if a.regex.fullmatch(url) is not None and b.regex.fullmatch(url) is not None:
            return url
    return None
