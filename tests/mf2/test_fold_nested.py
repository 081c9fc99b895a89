"""fold_nested: parsing nested roots early (then dropping their subtrees) changes nothing.

The folding caller is :func:`tests.support.fold.folded_parse`; random trees come from
:func:`tests.support.mf2_trees.elements`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.html.dom import Document, Element
from stream_mf2.mf2 import document_context, fold_nested, parse_dom
from tests.support.fold import OPTIONS, folded_parse
from tests.support.mf2_suite import SUITES, base_url, document, el, iter_cases, parse_html
from tests.support.mf2_trees import elements
from tests.support.suites import suite_dir


def _compare(doc_text: str | None, doc: Document, url: str) -> int:
    expected = parse_dom(doc, url, OPTIONS)["items"]
    fresh = parse_html(doc_text) if doc_text is not None else doc
    actual, folded = folded_parse(fresh, url)
    assert orjson.dumps(actual["items"]) == orjson.dumps(expected)
    return folded


def test_fold_feed() -> None:
    html = (
        '<div class="h-feed"><h1 class="p-name">Feed</h1>'
        '<div class="h-entry"><a class="p-author h-card" href="/a"><img src="a.png" alt="A"> Ann</a>'
        '<div class="e-content"><p>x <span class="h-card">inside content</span></p></div></div>'
        '<div class="h-entry"><span class="p-name">Two</span><div class="e-comment h-cite">c</div>'
        '<time class="dt-published h-event" datetime="2020-01-01">d</time></div>'
        '<div class="hentry"><span class="entry-title">old</span><span class="author vcard"><span class="fn">V</span></span></div>'
        "</div>"
    )
    folded = _compare(html, parse_html(html), "http://example.com/")
    # the two entries, the mf1 entry and its vcard, the author card and the cite fold;
    # the card inside e-content and the dt- event do not
    assert folded == 6


def test_not_foldable() -> None:
    ctx, _ = document_context(document(), "http://example.com/", OPTIONS)
    lonely = el("div", {"class": "h-card"}, "top level")
    assert not fold_nested(lonely, ctx)
    holder = el("div", {"class": "h-entry"}, el("div", {"class": "e-content"}, el("span", {"class": "h-card"}, "x")))
    content = holder.children[0]
    assert isinstance(content, Element)
    inner = content.children[0]
    assert isinstance(inner, Element)
    assert not fold_nested(inner, ctx)
    assert not ctx.folded


def _suite_files() -> list[Any]:
    root = suite_dir("microformats-tests")
    if root is None:
        return [pytest.param(None, id="suite-missing")]
    return [pytest.param(case.html, id=case.id) for case in iter_cases(root, SUITES)]


@pytest.mark.parametrize("path", _suite_files())
def test_fold_suite_documents(path: Path | None) -> None:
    if path is None:
        pytest.skip("microformats-tests suite not found")
    text = path.read_text(encoding="utf-8")
    suite = path.parents[1].name  # tests/<suite>/<format>/<case>.html
    _compare(text, parse_html(text), base_url(suite))


@settings(max_examples=200, deadline=None)
@given(st.lists(elements(), min_size=1, max_size=4))
def test_fold_random_trees(body: list[Element]) -> None:
    doc = document(el("html", None, el("body", None, *body)))
    expected = parse_dom(doc, "http://example.com/", OPTIONS)["items"]
    actual, _ = folded_parse(doc, "http://example.com/")
    assert orjson.dumps(actual["items"]) == orjson.dumps(expected)
