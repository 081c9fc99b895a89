"""Parsing realistic pages leaves no cyclic garbage, in every configuration.

With the cyclic collector off, whatever a parse leaves in reference cycles stays
until ``gc.collect()``, which returns how many objects it found unreachable. The
stages break their own cycles at ``close()`` (``test_parser_release.py``); this
checks what the consumers and the sink leave behind on real pages: kept subtrees
handed over with their parent links (the nested hand-over of ``stream_children``,
the microdata consumer's held and remembered ``itemref`` subtrees), consumers and
their bound methods. Each page is parsed once first, so that caches and imports
made on first use are not counted.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.wpt import load

ROOT = Path(__file__).resolve().parents[2] / "fixtures"
# The bench pages over 1 MB are left out (the time of the test, not what they exercise:
# their markup is that of the smaller ones).
PAGES = sorted(
    p
    for folder in ("bench", "realworld", "wpt", "wpt/pages")
    for p in (ROOT / folder).glob("*.html")
    if p.stat().st_size < 800_000
)
ALL = frozenset({"mf2", "json-ld", "opengraph", "twitter", "dublincore", "microdata", "rdfa"})
CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "metaformats": {"metaformats": True},
    "stream_children": {"stream_children": True, "lang": True},
    **{f"syntaxes-{name}": {"syntaxes": {name}} for name in sorted(ALL)},
    "syntaxes-all-streamed": {"syntaxes": set(ALL), "stream_children": True, "metaformats": True},
}


def _cyclic_after(doc: bytes, options: dict[str, Any]) -> int:
    parse(doc, "https://example.com/post", **options)  # (first-use caches and imports)
    gc.collect()
    result = parse(doc, "https://example.com/post", **options)
    assert result is not None
    return gc.collect()


def test_the_pages_are_there() -> None:
    names = {p.name for p in PAGES}
    assert {"blog-home.html", "wordpress-autonomie-post.html", "readme.html", "forum-thread.html"} <= names


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_parse_leaves_no_cyclic_garbage(no_gc: None, config: str) -> None:
    left = {p.name: n for p in PAGES if (n := _cyclic_after(p.read_bytes(), CONFIGS[config]))}
    assert left == {}


@pytest.mark.parametrize("config", ["stream_children", "syntaxes-microdata", "syntaxes-all-streamed"])
def test_closed_parser_leaves_no_cyclic_garbage(no_gc: None, config: str) -> None:
    # The configurations whose subtrees used to stay in cycles, fed in pieces then closed.
    for page in PAGES:
        doc = page.read_bytes()
        parse(doc, "https://example.com/post", **CONFIGS[config])
        gc.collect()
        parser = Parser("https://example.com/post", **CONFIGS[config])
        for i in range(0, len(doc), 4096):
            parser.feed(doc[i : i + 4096])
        parser.close()
        del parser
        assert gc.collect() == 0, page.name


@pytest.mark.parametrize("syntaxes", [None, ALL], ids=["wpt", "wpt-and-all-syntaxes"])
def test_a_wpt_template_leaves_no_cyclic_garbage(no_gc: None, syntaxes: frozenset[str] | None) -> None:
    left = {}
    for template in sorted((ROOT / "wpt").glob("*.xml")):
        options: dict[str, Any] = {"wpt": load(template.read_text(encoding="utf-8"))}
        if syntaxes is not None:
            options["syntaxes"] = set(syntaxes)
        if n := _cyclic_after(template.with_suffix(".html").read_bytes(), options):
            left[template.stem] = n
    assert left == {}
