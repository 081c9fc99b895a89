"""mf2 parsing-spec corrections, each checked whole, in every chunking and against the full DOM.

* implied ``name``: the root's textContent, where an ``<img>`` counts by its ``alt``
  only (never its URL, which the p-* rule puts in place of an image without one);
* ``area.h-*``: the item gets ``shape`` and ``coords``;
* ``<template>``: neither it nor anything in its contents gives an item, a property or a rel;
* a property class repeated on one element gives one value;
* metaformats: ``meta.dt-x[content]`` is a dt-* value source.
"""

from __future__ import annotations

from typing import Any

import pytest

import stream_mf2
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support.chunking import chunkings

URL = "http://example.com/dir/page.html"
TEXT_MODES = ("spec", "normalized")


def _stream(chunks: list[bytes], **options: Any) -> dict[str, Any]:
    parser = stream_mf2.Parser(URL, **options)
    items: list[Any] = []
    for chunk in chunks:
        items.extend(parser.feed(chunk))
    items.extend(parser.close())
    return {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}


def _parse_everywhere(html: str, **options: Any) -> dict[str, Any]:
    """The result of ``html``, after checking that every chunking, ``stream_children``
    and the full-DOM parse give exactly the same."""
    data = html.encode("utf-8")
    whole = stream_mf2.parse(data, URL, **options)
    for label, chunks in chunkings(data):
        assert _stream(chunks, **options) == whole, f"chunking {label}"
    assert stream_mf2.parse(data, URL, stream_children=True, **options) == whole
    full = parse_dom(parse_document(html), URL, Options(**options))
    full.pop("meta-item", None)
    whole.pop("meta-item", None)
    assert full == whole, "bounded tree and full DOM disagree"
    return whole


def _items(html: str, **options: Any) -> list[Any]:
    found: list[Any] = _parse_everywhere(html, **options)["items"]
    return found


# -- implied name -------------------------------------------------------------------------


@pytest.mark.parametrize("text", TEXT_MODES)
def test_implied_name_leaves_out_image_url(text: str) -> None:
    items = _items('<div class="h-card"><img src="/p.png"> Tom</div>', text=text)
    assert items == [
        {"type": ["h-card"], "properties": {"name": ["Tom"], "photo": ["http://example.com/p.png"]}}
    ]


@pytest.mark.parametrize("text", TEXT_MODES)
def test_implied_name_takes_image_alt(text: str) -> None:
    # several images (no implied photo, no only-child rule): alt counts, src never does
    html = '<div class="h-card"><img src="/p.png"><img src="/q.png"> Tom <b>x<img alt="Jr." src="/r.png"></b></div>'
    # "spec" text puts the alt in place as is; "normalized" text puts spaces around it
    expected = "Tom xJr." if text == "spec" else "Tom x Jr."
    assert _items(html, text=text)[0]["properties"] == {"name": [expected]}


@pytest.mark.parametrize("text", TEXT_MODES)
def test_p_name_still_replaces_image_by_url(text: str) -> None:
    # the img rule of p-* values is unchanged: an image without alt stands for its URL
    html = '<div class="h-card"><span class="p-name"><img src="/p.png"> Tom</span></div>'
    name = _items(html, text=text)[0]["properties"]["name"][0]
    assert name.startswith("http://example.com/p.png") and name.endswith("Tom")


@pytest.mark.parametrize("text", TEXT_MODES)
def test_implied_name_of_nested_item(text: str) -> None:
    html = '<div class="h-entry"><div class="p-author h-card"><img src="a.png"><img src="b.png">Ann</div></div>'
    author = _items(html, text=text)[0]["properties"]["author"][0]
    assert author["properties"]["name"] == ["Ann"]
    assert author["value"] == "Ann"


# -- area -----------------------------------------------------------------------------------


def test_area_root_has_shape_and_coords() -> None:
    html = '<map name=m><area class="h-card" shape="rect" coords="1,2,3,4" href="/x" alt="Ann"></map>'
    assert _items(html) == [
        {
            "type": ["h-card"],
            "properties": {"name": ["Ann"], "url": ["http://example.com/x"]},
            "shape": "rect",
            "coords": "1,2,3,4",
        }
    ]


def test_area_root_without_shape_or_coords() -> None:
    assert "shape" not in _items('<map><area class="h-card" coords="0,0,1,1" alt="a"></map>')[0]
    item = _items('<map><area class="h-card" shape="default" alt="a"></map>')[0]
    assert item["shape"] == "default" and "coords" not in item


def test_nested_area_root_keeps_shape_and_coords() -> None:
    html = '<div class="h-entry"><map><area class="p-author h-card" shape="circle" coords="5,5,2" alt="Bo"></map></div>'
    author = _items(html)[0]["properties"]["author"][0]
    assert (author["value"], author["shape"], author["coords"]) == ("Bo", "circle", "5,5,2")


def test_other_elements_get_no_shape() -> None:
    assert "shape" not in _items('<div class="h-card" shape="rect" coords="1">x</div>')[0]


# -- template ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "html",
    [
        '<template class="h-card"><span class="p-name">x</span></template>',
        '<template class="h-card">x</template><p>after</p>',
        '<template><div class="h-card">x</div></template>',
        '<template><div class="vcard"><span class="fn">x</span></div></template>',
        '<template><template class="h-card">x</template></template>',
        '<table><template class="h-card">x</template></table>',
        '<head><template class="h-card"><link rel=me href=/y></template></head>',
        '<template class="h-feed"><a rel=me href=/x>m</a><div class=h-entry>e</div></template>',
        '<template><a rel="me" href="/x">m</a><link rel=author href=/y></template>',
    ],
)
def test_template_gives_nothing(html: str) -> None:
    for text in TEXT_MODES:
        assert _parse_everywhere(html, text=text) == {"items": [], "rels": {}, "rel-urls": {}}


def test_template_inside_item_gives_no_property_child_or_rel() -> None:
    html = (
        '<div class="h-feed"><span class="p-name">F</span>'
        '<template class="p-author h-card"><a rel=me href=/x>m</a></template>'
        '<template><div class="h-entry">t</div><span class="p-summary">s</span></template>'
        '<div class="h-entry">e</div></div>'
    )
    assert _parse_everywhere(html) == {
        "items": [
            {
                "type": ["h-feed"],
                "properties": {"name": ["F"]},
                "children": [{"type": ["h-entry"], "properties": {"name": ["e"]}}],
            }
        ],
        "rels": {},
        "rel-urls": {},
    }


@pytest.mark.parametrize(
    ("html", "items"),
    [
        # only the HTML template is inert: an element named "template" in SVG or MathML is not one
        ("<svg><template><g class=h-x></g></template></svg>", [{"type": ["h-x"], "properties": {"name": [""]}}]),
        ("<math><template class=h-x>a</template></math>", [{"type": ["h-x"], "properties": {"name": ["a"]}}]),
        (
            "<div class=h-y><svg><template><g class=h-x></g></template></svg></div>",
            [{"type": ["h-y"], "properties": {}, "children": [{"type": ["h-x"], "properties": {"name": [""]}}]}],
        ),
        (
            "<div class=h-y><svg><template class=p-a>t</template></svg></div>",
            [{"type": ["h-y"], "properties": {"a": ["t"]}}],
        ),
    ],
)
def test_foreign_template_is_not_a_template(html: str, items: list[dict[str, Any]]) -> None:
    assert _parse_everywhere(html)["items"] == items


def test_template_as_property_element_is_skipped() -> None:
    html = '<div class="h-card"><template class="p-name">x</template><span class="u-url">/u</span></div>'
    assert _items(html)[0]["properties"] == {"url": ["http://example.com/u"], "name": ["/u"]}


# -- repeated property class ------------------------------------------------------------------------


@pytest.mark.parametrize("text", TEXT_MODES)
def test_repeated_property_class_gives_one_value(text: str) -> None:
    html = '<div class="h-card"><span class="p-name p-name">x</span><a class="u-url u-url  u-url" href="/a">a</a></div>'
    assert _items(html, text=text)[0]["properties"] == {"name": ["x"], "url": ["http://example.com/a"]}


def test_same_name_other_prefix_still_two_values() -> None:
    html = '<div class="h-x"><span class="p-b dt-b p-b">2000-01-01</span></div>'
    assert _items(html)[0]["properties"]["b"] == ["2000-01-01", "2000-01-01"]


def test_repeated_class_on_nested_root_gives_one_value() -> None:
    html = '<div class="h-entry"><div class="p-author h-card p-author h-card">A</div></div>'
    authors = _items(html)[0]["properties"]["author"]
    assert len(authors) == 1 and authors[0]["type"] == ["h-card"]


def test_repeated_backcompat_class_gives_one_value() -> None:
    assert _items('<div class="vcard"><span class="fn fn">x</span></div>')[0]["properties"]["name"] == ["x"]


# -- metaformats dt-* ---------------------------------------------------------------------------------


def test_meta_dt_content_is_a_value_source() -> None:
    html = (
        '<div class="h-event"><meta class="dt-start" content="2020-01-02T10:00:00+01:00">'
        '<meta class="p-name" content="Party"><meta class="u-url" content="/e"></div>'
    )
    assert _items(html, metaformats=True)[0]["properties"] == {
        "start": ["2020-01-02T10:00:00+01:00"],
        "name": ["Party"],
        "url": ["http://example.com/e"],
    }


def test_meta_dt_content_needs_metaformats() -> None:
    # without the metaformats option a <meta> has no dt-* source but its (empty) text
    html = '<div class="h-event"><meta class="dt-start" content="2020-01-02"></div>'
    assert _items(html)[0]["properties"]["start"] == [""]


def test_meta_dt_content_gives_date_to_later_time() -> None:
    html = (
        '<div class="h-event"><meta class="dt-start" content="2020-01-02">'
        '<span class="dt-end"><span class="value">18:00</span></span></div>'
    )
    props = _items(html, metaformats=True)[0]["properties"]
    assert props["start"] == ["2020-01-02"] and props["end"] == ["2020-01-02 18:00"]
