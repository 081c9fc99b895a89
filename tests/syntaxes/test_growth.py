"""Linear work in the number of JSON-LD blocks and of meta tags, measured by lines executed
(pure-Python build): the keep questions and the hand-overs of every consumer cost O(1) per
element, whatever came before."""

from __future__ import annotations

import pytest

from stream_mf2 import Parser
from tests.support.builds import pure_only
from tests.support.work import ENGINE, lines_executed

MODULES = (*ENGINE, "/stream_mf2/core/", "/stream_mf2/jsonld/", "/stream_mf2/metadata/")
ALL = {"mf2", "json-ld", "opengraph", "twitter", "dublincore"}


def _jsonld_page(n: int) -> str:
    blocks = "".join(
        f'<div class="h-card"><p class="p-name">p{i}</p></div>'
        f'<script type="application/ld+json">{{"@type": "Thing", "name": "t{i}", "n": {i}}}</script>'
        for i in range(n)
    )
    return f"<!doctype html><html><head><title>t</title></head><body>{blocks}</body></html>"


def _meta_page(n: int) -> str:
    metas = "".join(
        f'<meta property="og:image" content="/i{i}.png"><meta name="DC.subject" content="s{i}">'
        f'<meta name="twitter:data{i}" content="d{i}"><link rel="DCTERMS.references" href="/r{i}">'
        for i in range(n)
    )
    return f"<!doctype html><html><head><title>t</title>{metas}</head><body><p>x</p></body></html>"


def _work(html: str) -> int:
    def run() -> None:
        parser = Parser(syntaxes=ALL)
        parser.feed(html)
        parser.close()

    return lines_executed(run, MODULES)


@pure_only
@pytest.mark.parametrize("page", [_jsonld_page, _meta_page], ids=["json-ld blocks", "meta tags"])
def test_linear(page: object) -> None:
    assert callable(page)
    n = 200
    w1, w2, w4 = (_work(page(k)) for k in (n, 2 * n, 4 * n))
    # linear: each doubling about doubles the work (quadratic would nearly quadruple it)
    assert 1.8 < w2 / w1 < 2.2, (w1, w2, w4)
    assert 1.8 < w4 / w2 < 2.2, (w1, w2, w4)


def test_events_per_block() -> None:
    parser = Parser(syntaxes=ALL)
    events = parser.feed_events(_jsonld_page(50)) + parser.close_events()
    assert sum(1 for e in events if type(e).__name__ == "JsonLdItem") == 50
    assert sum(1 for e in events if type(e).__name__ == "ItemEvent") == 50


@pure_only
def test_template_scripts_do_not_wait() -> None:
    # JSON-LD scripts inside template contents are never handed over: they must not be looked
    # at again by every later hand-over (n templates, then n items: linear, not n * n).
    def page(n: int) -> str:
        templates = '<template><script type="application/ld+json">{"a": 1}</script></template>' * n
        cards = '<p class="h-card">x</p>' * n
        return f"<body>{templates}{cards}</body>"

    w1, w2, w4 = (_work(page(k)) for k in (150, 300, 600))
    assert 1.8 < w2 / w1 < 2.2, (w1, w2, w4)
    assert 1.8 < w4 / w2 < 2.2, (w1, w2, w4)
    parser = Parser(syntaxes=ALL)
    events = parser.feed_events(page(3)) + parser.close_events()
    assert events[-1].notes == (  # type: ignore[union-attr]
        "json-ld: 3 block(s) inside template contents (or removed from the document by <frameset>) were not read",
    )
