"""The keep question the bounded sink skips: elements without attributes (``bare_keeps``).

The default pipeline tells the sink which attribute-less elements the capture's
keep predicate may keep (``<head>``, with metaformats); the sink asks about no
other such element. That is exact only if the capture answers every other one
``False`` and observes nothing there: both are checked here, the second by
building the same documents with and without the skipped questions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stream_mf2.core.pipeline import _HEAD, _NONE
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.dom import HTML_NS, MATHML_NS, SVG_NS, Element
from stream_mf2.html.testing.tree import build
from stream_mf2.html.tree_tables import FORMATTING, SPECIAL_HTML
from stream_mf2.mf2 import Mf2Context, Options
from stream_mf2.mf2.capture import Capture

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

NAMES = sorted(
    set(SPECIAL_HTML)
    | set(FORMATTING)
    | {"head", "html", "body", "meta", "base", "th", "td", "a", "span", "div", "p", "li", "svg", "math", "x-y"}
)

# A page with bare elements everywhere, a late <body> tag merging attributes, a header
# cell, and roots after them, so that what the capture observes matters for its items.
PAGE = (
    "<!doctype html><html><head><title>T</title><meta><base></head><body><div><p>a <b>b</b>"
    "<th>c</th><table><tr><th>h</th><td>d</td></tr></table><svg><g><title>s</title></g></svg>"
    "<math><mi>x</mi></math></p></div><body lang=en class=h-entry>"
    "<div class=h-card><span>Ann</span><a href=/ann>home</a></div><ul><li>1</li><li>2</li></ul>"
    "</body></html>"
)


def _capture(metaformats: bool) -> tuple[Capture, list[object]]:
    out: list[object] = []
    return Capture(Mf2Context("http://example.com/", Options(metaformats=metaformats)), out.append), out


@pytest.mark.parametrize("metaformats", [False, True])
def test_capture_keeps_no_other_bare_element(metaformats: bool) -> None:
    bare = _HEAD if metaformats else _NONE
    capture, _ = _capture(metaformats)
    for namespace in (HTML_NS, SVG_NS, MATHML_NS):
        for name in NAMES:
            if name in bare:
                continue
            assert capture.keep(Element(name, namespace, {})) is False, (name, namespace)
    # (the one kept: the meta item's <head>)
    assert capture.keep(Element("head", HTML_NS, {})) is metaformats


def _events(html: str, metaformats: bool, bare: frozenset[str] | None) -> list[object]:
    capture, out = _capture(metaformats)
    sink = BoundedSink(capture.keep, capture.complete, bare_keeps=bare)
    build([html], sink)
    capture.finish()
    return [*out, capture.meta_item, sorted(capture.notes)]


def _pages() -> list[str]:
    pages = [PAGE]
    pages += [p.read_text(encoding="utf-8", errors="replace") for p in sorted((FIXTURES / "realworld").glob("*.html"))]
    return pages


@pytest.mark.parametrize("metaformats", [False, True])
def test_skipped_questions_change_nothing(metaformats: bool) -> None:
    bare = _HEAD if metaformats else _NONE
    pages = _pages()
    assert len(pages) > 10
    found = 0
    for html in pages:
        skipped = _events(html, metaformats, bare)
        asked = _events(html, metaformats, None)
        assert skipped == asked
        found += len(skipped) - 2
    assert found > 10  # (items were built: the comparison is not of empty lists)
