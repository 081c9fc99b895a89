"""Metaformats: the ``"meta-item"`` built from ``<head>``, one case per mapping rule.

The rules and where each comes from (the metaformats spec text, or the reference
JavaScript parser where the spec's table could not be checked) are listed in
``stream_mf2/mf2/metaformats.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from stream_mf2.html.dom import Element
from stream_mf2.mf2 import Options, parse_dom
from tests.support.mf2_suite import document, el

BASE = "http://example.com/a/"


def meta(
    *head: Element,
    html_attrs: dict[str, str] | None = None,
    head_attrs: dict[str, str] | None = None,
    lang: bool = False,
) -> dict[str, Any] | None:
    doc = document(el("html", html_attrs, el("head", head_attrs, *head), el("body", None, el("p", None, "x"))))
    result = parse_dom(doc, BASE, Options(metaformats=True, lang=lang))
    found: dict[str, Any] | None = result.get("meta-item")
    return found


def props(*head: Element) -> dict[str, Any]:
    item = meta(*head)
    assert item is not None
    found: dict[str, Any] = item["properties"]
    return found


def og(prop: str, content: str) -> Element:
    return el("meta", {"property": prop, "content": content})


def named(name: str, content: str) -> Element:
    return el("meta", {"name": name, "content": content})


def test_off_by_default() -> None:
    doc = document(el("html", None, el("head", None, el("title", None, "T"))))
    assert "meta-item" not in parse_dom(doc, "http://example.com/")


def test_meta_item_is_separate_from_items() -> None:
    # spec, "parse a document for microformats": a top-level "meta-item", not one of "items"
    doc = document(el("html", None, el("head", None, el("title", None, "T")), el("body", None)))
    result = parse_dom(doc, BASE, Options(metaformats=True))
    assert result["items"] == [] and result["meta-item"] == {"type": ["h-entry"], "properties": {"name": ["T"]}}


def test_title_and_description() -> None:
    assert meta(el("title", None, " Page "), named("description", "About")) == {
        "type": ["h-entry"],
        "properties": {"name": ["Page"], "summary": ["About"]},
    }


@pytest.mark.parametrize(
    ("prop", "sources"),
    [
        ("name", [(og("og:title", "OG"), "OG"), (named("twitter:title", "TW"), "TW"), (el("title", None, "T"), "T")]),
        (
            "summary",
            [
                (og("og:description", "OG"), "OG"),
                (named("twitter:description", "TW"), "TW"),
                (named("description", "D"), "D"),
            ],
        ),
        ("author", [(og("article:author", "OG"), "OG"), (named("author", "A"), "A")]),
        (
            "url",
            [
                (og("og:url", "/og"), "http://example.com/og"),
                (el("link", {"rel": "canonical", "href": "/canon"}), "http://example.com/canon"),
            ],
        ),
        ("photo", [(og("og:image", "og.png"), BASE + "og.png"), (named("twitter:image", "tw.png"), BASE + "tw.png")]),
        ("video", [(og("og:video", "og.mp4"), BASE + "og.mp4"), (named("twitter:video", "tw.mp4"), BASE + "tw.mp4")]),
        ("audio", [(og("og:audio", "og.mp3"), BASE + "og.mp3"), (named("twitter:audio", "tw.mp3"), BASE + "tw.mp3")]),
    ],
)
def test_precedence_first_source_wins(prop: str, sources: list[tuple[Element, str]]) -> None:
    # Of the sources present, the first in the rule's list wins, whatever the document order.
    for n in range(len(sources)):
        present = [element for element, _ in sources[n:]]
        assert props(*reversed(present))[prop] == [sources[n][1]], (prop, n)


def test_og_image_gives_photo_not_featured() -> None:
    # spec: og:image -> photo (the JavaScript parser's "featured" is its own documented change)
    found = props(og("og:image", "a.png"))
    assert found == {"photo": ["http://example.com/a/a.png"]}


def test_media_alt_url_keys_and_repeats() -> None:
    found = props(
        og("og:image", "a.png"),
        og("og:image:alt", "Alt A"),
        og("og:image:url", "a.png"),  # the same image again: kept once
        og("og:image:secure_url", "https://example.com/s.png"),
        og("og:image", "/b.png"),
        named("twitter:image:alt", "ignored: no twitter:image before it"),
    )
    assert found == {
        "photo": [
            {"value": "http://example.com/a/a.png", "alt": "Alt A"},
            "https://example.com/s.png",
            "http://example.com/b.png",
        ]
    }


def test_urls_resolve_against_the_base() -> None:
    found = props(
        og("og:image", "i.png"),
        og("og:video", "../v.mp4"),
        og("og:audio", "/s.mp3"),
        og("og:url", "page"),
    )
    assert found == {
        "photo": ["http://example.com/a/i.png"],
        "video": ["http://example.com/v.mp4"],
        "audio": ["http://example.com/s.mp3"],
        "url": ["http://example.com/a/page"],
    }
    # text properties are not URLs: left as written
    assert props(og("og:title", "page.html"))["name"] == ["page.html"]


def test_dates_and_publication() -> None:
    found = props(
        og("article:published_time", "2024-01-02T03:04:05Z"),
        og("article:modified_time", "2024-02-03T04:05:06Z"),
        og("og:site_name", "Site"),
    )
    assert found == {
        "published": ["2024-01-02T03:04:05Z"],
        "updated": ["2024-02-03T04:05:06Z"],
        "publication": ["Site"],
    }


def test_name_and_property_on_one_meta_count_separately() -> None:
    found = props(el("meta", {"property": "og:title", "name": "author", "content": "Jo"}))
    assert found == {"name": ["Jo"], "author": ["Jo"]}


@pytest.mark.parametrize(
    ("og_type", "item_type"),
    [
        (None, "h-entry"),
        ("article", "h-entry"),
        ("website", "h-entry"),
        ("profile", "h-card"),
        ("video.movie", "h-cite"),
        ("music.song", "h-cite"),
    ],
)
def test_type_from_og_type(og_type: str | None, item_type: str) -> None:
    head = [el("title", None, "T")]
    if og_type is not None:
        head.append(og("og:type", og_type))
    item = meta(*head)
    assert item is not None and item["type"] == [item_type]


def test_og_type_only_from_the_property_attribute() -> None:
    # spec: "if there is a meta[property=og:type]"; a name="og:type" does not set the type
    item = meta(named("og:type", "profile"), el("title", None, "T"))
    assert item is not None and item["type"] == ["h-entry"]


def test_profile_names_only_for_h_card() -> None:
    item = meta(
        og("og:type", "profile"),
        og("og:title", "Jo"),
        og("profile:first_name", "J"),
        og("profile:last_name", "O"),
        html_attrs={"lang": "en"},
        lang=True,
    )
    assert item == {
        "type": ["h-card"],
        "properties": {"name": ["Jo"], "given-name": ["J"], "family-name": ["O"]},
        "lang": "en",
    }
    entry = meta(og("og:title", "Jo"), og("profile:first_name", "J"))
    assert entry == {"type": ["h-entry"], "properties": {"name": ["Jo"]}}


def test_no_meta_item_with_a_root_class_on_html_or_head() -> None:
    # spec, "parse an element for class microformats": none found on head, none on html
    assert meta(el("title", None, "T"), html_attrs={"class": "h-entry"}) is None
    assert meta(el("title", None, "T"), head_attrs={"class": "h-card"}) is None
    # a class that is not a root class name does not count
    assert meta(el("title", None, "T"), html_attrs={"class": "no-js p-name"}) is not None


def test_no_meta_item_when_nothing_is_found() -> None:
    assert meta(named("viewport", "width=device-width")) is None
    assert meta(og("og:title", "")) is None  # an empty content is no value


@pytest.mark.parametrize("metaformats", [False, True])
def test_meta_content_in_p_and_u_parsing(metaformats: bool) -> None:
    # spec, "parsing a p- property" / "parsing a u- property": the extension inserts a
    # meta[content] step before the textContent fallback; without it a <meta> has no text.
    import stream_mf2

    doc = (
        '<div class="h-entry"><meta class="p-name" content="N"><meta class="u-url" content="x">'
        '<meta class="p-summary"><meta class="dt-published" content="2020-01-01"></div>'
    )
    for chunk in (len(doc), 1, 7):
        parser = stream_mf2.Parser(BASE, metaformats=metaformats)
        items = [item for i in range(0, len(doc), chunk) for item in parser.feed(doc[i : i + chunk])] + parser.close()
        assert items == stream_mf2.parse(doc, BASE, metaformats=metaformats)["items"]
        props = items[0]["properties"]
        assert props["name"] == (["N"] if metaformats else [""])
        assert props["url"] == ([BASE + "x"] if metaformats else [BASE])
        assert props["summary"] == [""]
