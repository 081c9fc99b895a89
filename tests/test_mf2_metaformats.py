"""Metaformats: the ``"meta-item"`` built from ``<head>``."""

from __future__ import annotations

from typing import Any

from stream_mf2.html.dom import Element
from stream_mf2.mf2 import Options, parse_dom
from tests.mf2_suite import document, el


def meta(*head: Element, html_attrs: dict[str, str] | None = None, lang: bool = False) -> dict[str, Any] | None:
    doc = document(el("html", html_attrs, el("head", None, *head), el("body", None, el("p", None, "x"))))
    result = parse_dom(doc, "http://example.com/a/", Options(metaformats=True, lang=lang))
    found: dict[str, Any] | None = result.get("meta-item")
    return found


def test_off_by_default() -> None:
    doc = document(el("html", None, el("head", None, el("title", None, "T"))))
    assert "meta-item" not in parse_dom(doc, "http://example.com/")


def test_title_and_description() -> None:
    assert meta(el("title", None, " Page "), el("meta", {"name": "description", "content": "About"})) == {
        "type": ["h-entry"],
        "properties": {"name": ["Page"], "summary": ["About"]},
    }


def test_open_graph_wins_and_urls_resolve() -> None:
    item = meta(
        el("title", None, "Title"),
        el("meta", {"name": "twitter:title", "content": "TW"}),
        el("meta", {"property": "og:title", "content": "OG"}),
        el("meta", {"property": "og:image", "content": "a.png"}),
        el("meta", {"property": "og:image:alt", "content": "Alt A"}),
        el("meta", {"property": "og:image:url", "content": "a.png"}),
        el("meta", {"property": "og:image", "content": "/b.png"}),
        el("meta", {"name": "twitter:image", "content": "c.png"}),
        el("meta", {"property": "article:published_time", "content": "2024-01-02T03:04:05Z"}),
        el("meta", {"property": "article:author", "content": "Jo"}),
        el("link", {"rel": "canonical", "href": "/canon"}),
    )
    assert item == {
        "type": ["h-entry"],
        "properties": {
            "name": ["OG"],
            "featured": [{"value": "http://example.com/a/a.png", "alt": "Alt A"}, "http://example.com/b.png"],
            "published": ["2024-01-02T03:04:05Z"],
            "author": ["Jo"],
            "url": ["http://example.com/canon"],
        },
    }


def test_og_type_profile_and_lang() -> None:
    item = meta(
        el("meta", {"property": "og:type", "content": "profile"}),
        el("meta", {"property": "og:title", "content": "Jo"}),
        el("meta", {"property": "profile:first_name", "content": "J"}),
        html_attrs={"lang": "en"},
        lang=True,
    )
    assert item == {"type": ["h-card"], "properties": {"name": ["Jo"], "given-name": ["J"]}, "lang": "en"}
    video = meta(el("meta", {"property": "og:type", "content": "video.movie"}), el("title", None, "M"))
    assert video is not None and video["type"] == ["h-cite"]


def test_no_meta_item_with_root_class_on_html_or_nothing_found() -> None:
    assert meta(el("title", None, "T"), html_attrs={"class": "h-entry"}) is None
    assert meta(el("meta", {"name": "viewport", "content": "width=device-width"})) is None
