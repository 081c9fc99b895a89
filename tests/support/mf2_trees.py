"""A hypothesis strategy for trees of mf2-looking markup, built without an HTML parser.

:func:`elements` draws an element with random mf2 and classic-microformats classes and
attributes that the parsing rules read (URLs, dates, ids, ``itemref``, ``rel``), with
nested elements and text up to four levels deep.
"""

from __future__ import annotations

from hypothesis import strategies as st

from stream_mf2.html.dom import Element, Node
from stream_mf2.html.serialize import VOID_ELEMENTS
from tests.support.mf2_suite import el

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
    # A void element has no children in any tree the HTML parser builds (its serialisation
    # drops them, so a tree that had some would not be one a page can give).
    if depth < 4 and name not in VOID_ELEMENTS:
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.booleans()):
                children.append(draw(st.sampled_from(["text", " ", "2000-01-01", "7pm", "\n x \n"])))
            else:
                children.append(draw(elements(depth + 1)))
    return el(name, attrs, *children)
