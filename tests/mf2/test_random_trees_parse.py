"""Property-based robustness: any tree of mf2-looking markup parses without error."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.html.dom import Element, Node, Text
from stream_mf2.mf2 import Options, parse_dom
from tests.mf2_suite import document, el

CLASSES = [
    "h-card", "h-entry", "h-x-y", "h-full", "p-name", "p-author", "u-url", "u-photo", "dt-start", "dt-end",
    "e-content", "value", "value-title", "vcard", "fn", "url", "hentry", "entry-title", "author", "vevent",
    "dtstart", "hreview", "item", "include", "adr", "geo", "category", "x",
]  # fmt: skip
NAMES = [
    "div",
    "span",
    "a",
    "img",
    "area",
    "abbr",
    "time",
    "data",
    "input",
    "object",
    "video",
    "link",
    "p",
    "template",
    "br",
]
ATTRS = {
    "href": st.sampled_from(["", "/a", "b c", "#id1", "http://[::1", "javascript:x", "//h/p", "?q"]),
    "src": st.sampled_from(["", "i.png", "http://[bad", " sp ace "]),
    "alt": st.sampled_from(["", "Alt", " A "]),
    "title": st.sampled_from(["", "T", "2000-01-01"]),
    "datetime": st.sampled_from(["", "2000-01-01", "10:00pm", "junk", "2000-01-01T10:00+01:00"]),
    "value": st.sampled_from(["", "V", "+01:00"]),
    "srcset": st.sampled_from(["", ",,", "a.png 2x, b.png", "x 1x,x 1x"]),
    "lang": st.sampled_from(["", "en", "de"]),
    "id": st.sampled_from(["id1", "id2", ""]),
    "itemref": st.sampled_from(["id1", "id2 id1", "nope"]),
    "data": st.sampled_from(["#id1", "o.swf"]),
    "rel": st.sampled_from(["me", "tag", "me tag", ""]),
}


@st.composite
def elements(draw: st.DrawFn, depth: int = 0) -> Element:
    name = draw(st.sampled_from(NAMES))
    attrs: dict[str, str] = {}
    classes = draw(st.lists(st.sampled_from(CLASSES), max_size=3))
    if classes:
        attrs["class"] = " ".join(classes)
    for key in draw(st.lists(st.sampled_from(sorted(ATTRS)), max_size=3, unique=True)):
        attrs[key] = draw(ATTRS[key])
    children: list[Node | str] = []
    if depth < 4:
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.booleans()):
                children.append(draw(st.sampled_from(["text", " ", "2000-01-01", "7pm", "\n x \n"])))
            else:
                children.append(draw(elements(depth + 1)))
    return el(name, attrs, *children)


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
