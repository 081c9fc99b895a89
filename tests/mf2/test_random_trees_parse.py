"""Property-based robustness: any tree of mf2-looking markup parses without error.

The trees come from the hypothesis strategy :func:`tests.support.mf2_trees.elements`.
"""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.html.dom import Element, Text
from stream_mf2.mf2 import Options, parse_dom
from tests.support.mf2_suite import document, el
from tests.support.mf2_trees import elements


@settings(max_examples=300, deadline=None)
@given(st.lists(elements(), min_size=1, max_size=4), st.booleans(), st.booleans())
def test_parse_never_fails(body: list[Element], normalized: bool, lang: bool) -> None:
    doc = document(el("html", None, el("head", None, el("title", None, "t")), el("body", None, *body)))
    options = Options(text="normalized" if normalized else "spec", lang=lang, metaformats=True, filter_roots=True)
    first: dict[str, Any] = parse_dom(doc, "http://example.com/dir/", options)
    second: dict[str, Any] = parse_dom(doc, "http://example.com/dir/", options)
    assert orjson.dumps(first) == orjson.dumps(second)  # JSON-ready and deterministic
    for item in first["items"]:
        assert item["type"] == sorted(set(item["type"]))
        assert isinstance(item["properties"], dict)


def test_text_nodes_only() -> None:
    assert parse_dom(document(Text("just text")), None) == {"items": [], "rels": {}, "rel-urls": {}}
