"""Unit tests for the classic-microformats (mf1) backcompat hooks and tables."""

from __future__ import annotations

import pytest

from stream_mf2.html.dom import SVG_NS, Element
from stream_mf2.mf2 import backcompat
from stream_mf2.mf2.backcompat import (
    has_mf2_root,
    nested_root_types,
    postprocess,
    property_classes,
    property_value,
    rel_tag_value,
    root_types,
)
from stream_mf2.mf2.backcompat_data import PROPERTY_CLASSES, REL_PROPERTIES, ROOT_CLASSES
from stream_mf2.mf2.classes import parse_property_class


def el(name: str = "span", **attrs: str) -> Element:
    return Element(name, attrs={k.rstrip("_"): v for k, v in attrs.items()})


# --- root classes ---------------------------------------------------------


@pytest.mark.parametrize(
    ("mf1", "mf2"),
    [
        ("vcard", "h-card"),
        ("hentry", "h-entry"),
        ("hfeed", "h-feed"),
        ("vevent", "h-event"),
        ("adr", "h-adr"),
        ("geo", "h-geo"),
        ("hproduct", "h-product"),
        ("hrecipe", "h-recipe"),
        ("hresume", "h-resume"),
        ("hreview", "h-review"),
        ("hreview-aggregate", "h-review-aggregate"),
        ("hnews", "h-news"),
    ],
)
def test_root_class_mapping(mf1: str, mf2: str) -> None:
    assert root_types([mf1]) == [mf2]


def test_vcalendar_is_not_a_backcompat_root() -> None:
    # hCalendar's container has no mf2 type; only its vevents are roots.
    assert root_types(["vcalendar"]) == []


def test_root_types_sorted_and_unique() -> None:
    assert root_types(["vevent", "x", "vcard", "vevent"]) == ["h-card", "h-event"]


def test_root_classes_case_sensitive() -> None:
    assert root_types(["VCARD", "hEntry"]) == []


def test_mf2_root_wins_over_mf1_roots() -> None:
    assert root_types(["h-card", "vcard"]) == []
    assert root_types(["vevent", "h-x-thing"]) == []
    # Invalid mf2 names are not roots, so the mf1 root stays.
    assert root_types(["h-", "h-Card", "vcard"]) == ["h-card"]
    assert has_mf2_root(["h-entry"]) and not has_mf2_root(["hentry", "h-"])


def test_every_root_type_has_a_property_table() -> None:
    for mf2_type in ROOT_CLASSES.values():
        assert mf2_type in PROPERTY_CLASSES, mf2_type


def test_table_entries_are_valid_mf2_property_classes() -> None:
    for table in (*PROPERTY_CLASSES.values(), *REL_PROPERTIES.values()):
        for mapped in table.values():
            assert mapped, "an mf1 name must map to at least one mf2 class"
            for name in mapped:
                assert parse_property_class(name) is not None, name


# --- h-item for hReview items ----------------------------------------------


def test_untyped_review_item_is_h_item() -> None:
    item = el("p", class_="item")
    assert nested_root_types(item, ["item"], ["h-review"]) == ["h-item"]
    assert nested_root_types(item, ["item"], ["h-review-aggregate"]) == ["h-item"]


def test_typed_review_item_keeps_its_own_type() -> None:
    item = el("p", class_="item vcard")
    assert nested_root_types(item, ["item", "vcard"], ["h-review"]) == ["h-card"]
    assert nested_root_types(item, ["item", "h-product"], ["h-review"]) == []


def test_item_outside_a_review_is_not_a_root() -> None:
    assert nested_root_types(el(class_="item"), ["item"], ["h-card"]) == []
    assert nested_root_types(el(class_="item"), ["item"], []) == []


def test_h_item_properties() -> None:
    assert property_classes(el(), ["fn"], ["h-item"]) == ["p-name"]
    assert property_classes(el("a"), ["url"], ["h-item"]) == ["u-url"]
    assert property_classes(el("img"), ["photo"], ["h-item"]) == ["u-photo"]


# --- property classes -------------------------------------------------------


@pytest.mark.parametrize(
    ("mf2_type", "mf1", "expected"),
    [
        ("h-card", "fn", ["p-name"]),
        ("h-card", "url", ["u-url"]),
        ("h-card", "email", ["u-email"]),
        ("h-card", "title", ["p-job-title"]),
        ("h-card", "bday", ["dt-bday"]),
        ("h-card", "adr", ["p-adr"]),
        ("h-card", "geo", ["p-geo"]),
        ("h-card", "n", []),
        ("h-event", "summary", ["p-name"]),
        ("h-event", "dtstart", ["dt-start"]),
        ("h-event", "dtend", ["dt-end"]),
        ("h-event", "duration", ["dt-duration"]),
        ("h-event", "geo", ["p-location"]),
        ("h-event", "name", []),
        ("h-entry", "entry-title", ["p-name"]),
        ("h-entry", "entry-content", ["e-content"]),
        ("h-entry", "entry-summary", ["p-summary"]),
        ("h-entry", "author", ["p-author"]),
        ("h-entry", "updated", ["dt-updated"]),
        ("h-feed", "author", ["p-author"]),
        ("h-feed", "name", []),
        ("h-news", "source-org", ["p-source-org"]),
        ("h-news", "dateline", ["p-dateline"]),
        ("h-news", "entry", ["p-entry"]),
        ("h-product", "fn", ["p-name"]),
        ("h-product", "review", ["p-review"]),
        ("h-recipe", "instructions", ["e-instructions"]),
        ("h-resume", "experience", ["p-experience"]),
        ("h-resume", "skill", ["p-skill"]),
        ("h-review", "reviewer", ["p-author"]),
        ("h-review", "description", ["e-content"]),
        ("h-review", "dtreviewed", ["dt-published"]),
        ("h-review", "reviewed", []),
        ("h-review-aggregate", "average", ["p-average"]),
        ("h-review-aggregate", "count", ["p-count"]),
        ("h-adr", "street-address", ["p-street-address"]),
        ("h-geo", "latitude", ["p-latitude"]),
    ],
)
def test_property_mapping(mf2_type: str, mf1: str, expected: list[str]) -> None:
    assert property_classes(el(), [mf1], [mf2_type]) == expected


def test_key_is_a_url_only_on_linking_elements() -> None:
    assert property_classes(el("a", href="/key.asc"), ["key"], ["h-card"]) == ["u-key"]
    assert property_classes(el("object", data="/k"), ["key"], ["h-card"]) == ["u-key"]
    assert property_classes(el("a"), ["key"], ["h-card"]) == ["p-key"]  # no href
    assert property_classes(el("span"), ["key"], ["h-card"]) == ["p-key"]
    svg_a = Element("a", SVG_NS, {"href": "/k"})
    assert property_classes(svg_a, ["key"], ["h-card"]) == ["p-key"]


def test_property_classes_union_of_vocabularies_without_duplicates() -> None:
    classes = ["fn", "summary", "org", "url"]
    assert property_classes(el("a"), classes, ["h-card", "h-event"]) == ["p-name", "p-org", "u-url"]


def test_mf2_property_classes_are_ignored_inside_backcompat_roots() -> None:
    assert property_classes(el(), ["p-country-name", "u-url"], ["h-adr"]) == []
    assert property_classes(el(), ["p-name", "locality"], ["h-adr"]) == ["p-locality"]


def test_property_classes_are_case_sensitive() -> None:
    assert property_classes(el(), ["FAMILY-NAME"], ["h-card"]) == []


def test_no_properties_outside_a_known_type() -> None:
    assert property_classes(el(), ["fn"], []) == []
    assert property_classes(el(), ["fn"], ["h-unknown"]) == []


# --- rel-based properties ---------------------------------------------------


def test_rel_bookmark_is_url_in_entries_and_reviews() -> None:
    link = el("a", rel="bookmark", href="/p/1")
    assert property_classes(link, [], ["h-entry"]) == ["u-url"]
    assert property_classes(el("a", rel="self bookmark"), [], ["h-review"]) == ["u-url"]
    assert property_classes(link, [], ["h-card"]) == []


def test_rel_tag_is_category_for_the_right_vocabularies() -> None:
    tag = el("a", rel="tag", href="/tags/x")
    for mf2_type in ("h-entry", "h-feed", "h-review", "h-product", "h-recipe"):
        assert property_classes(tag, [], [mf2_type]) == ["p-category"], mf2_type
    # hResume's skills are often rel=tag links; that is no category.
    assert property_classes(tag, ["skill"], ["h-resume"]) == ["p-skill"]
    assert property_classes(tag, [], ["h-card"]) == []


def test_rel_is_case_insensitive_and_only_on_links() -> None:
    assert property_classes(el("a", rel="Tag", href="/t/x"), [], ["h-entry"]) == ["p-category"]
    assert property_classes(el("span", rel="tag"), [], ["h-entry"]) == []
    svg_a = Element("a", SVG_NS, {"rel": "tag", "href": "/t/x"})
    assert property_classes(svg_a, [], ["h-entry"]) == []


def test_hnews_rels() -> None:
    link = el("a", rel="principles", href="http://example.com/p")
    assert property_classes(link, [], ["h-news"]) == ["u-principles"]
    assert property_classes(el("a", rel="item-license"), [], ["h-news"]) == ["u-item-license"]


@pytest.mark.parametrize(
    ("href", "tag"),
    [
        ("http://en.wikipedia.org/wiki/design", "design"),
        ("tags/microformats", "microformats"),
        ("http://example.com/tags/web/", "web"),
        ("http://example.com/tag/caf%C3%A9?x=1#frag", "café"),
        ("/tag/a%20b", "a b"),
        ("http://example.com/", None),
        ("http://example.com", None),
        ("", None),
        ("http://[::1", None),
    ],
)
def test_rel_tag_value(href: str, tag: str | None) -> None:
    assert rel_tag_value(href) == tag


def test_rel_tag_value_replaces_text() -> None:
    link = el("a", rel="tag", href="http://en.wikipedia.org/wiki/Crepe")
    assert property_value(link, [], "p-category", ["h-review"]) == "Crepe"
    assert property_value(link, [], "u-url", ["h-review"]) is None
    # Not a vocabulary with rel=tag: no override.
    assert property_value(link, [], "p-category", ["h-card"]) is None


def test_category_class_wins_over_rel_tag_value() -> None:
    link = el("a", rel="tag", class_="category", href="http://en.wikipedia.org/wiki/computer")
    assert property_classes(link, ["category"], ["h-product"]) == ["p-category"]
    assert property_value(link, ["category"], "p-category", ["h-product"]) is None


def test_rel_tag_without_path_falls_back_to_text() -> None:
    link = el("a", rel="tag", href="http://example.com/")
    assert property_value(link, [], "p-category", ["h-entry"]) is None
    assert property_value(el("a", rel="tag"), [], "p-category", ["h-entry"]) is None


# --- postprocess --------------------------------------------------------------


def test_postprocess_flattens_img_alt_objects() -> None:
    nested = {"type": ["h-card"], "properties": {}, "value": "x"}
    item: dict[str, object] = {
        "type": ["h-card"],
        "properties": {
            "photo": [{"value": "http://example.com/a.png", "alt": "A"}],
            "note": ["text"],
            "content": [{"value": "v", "html": "<b>v</b>"}],
            "agent": [nested],
        },
    }
    postprocess(item, ["h-card"])
    props = item["properties"]
    assert isinstance(props, dict)
    assert props["photo"] == ["http://example.com/a.png"]
    assert props["note"] == ["text"]
    assert props["content"] == [{"value": "v", "html": "<b>v</b>"}]
    assert props["agent"] == [nested]


def test_postprocess_drops_the_item_id() -> None:
    item: dict[str, object] = {"type": ["h-adr"], "properties": {}, "id": "home"}
    postprocess(item, ["h-adr"])
    assert item == {"type": ["h-adr"], "properties": {}}


def test_postprocess_tolerates_items_without_properties() -> None:
    item: dict[str, object] = {"type": ["h-card"]}
    postprocess(item, ["h-card"])
    assert item == {"type": ["h-card"]}


def test_module_exports() -> None:
    for name in backcompat.__all__:
        assert callable(getattr(backcompat, name))


def test_cached_classification_matches_the_element_hooks() -> None:
    """The item walker's cached look-up (class names, parent types, rel of a link) gives
    what nested_root_types and property_classes give for the element itself."""
    import random

    from stream_mf2.mf2.classes import root_types as mf2_root_types
    from stream_mf2.mf2.items import _backcompat_classify

    rng = random.Random(7)
    vocab = sorted(
        {c for table in PROPERTY_CLASSES.values() for c in table} | set(ROOT_CLASSES) | {"item", "h-card", "p-x", "x"}
    )
    rel_words = sorted({k for table in REL_PROPERTIES.values() for k in table} | {"nofollow", "TAG"})
    types = sorted(PROPERTY_CLASSES)
    answered = 0
    for _ in range(3000):
        classes = tuple(rng.sample(vocab, rng.randint(0, 3)))
        parent = tuple(sorted(rng.sample(types, rng.randint(1, 2))))
        name = rng.choice(["a", "link", "span", "img", "object"])
        attrs = {"class": " ".join(classes)}
        if rng.random() < 0.5:
            attrs["rel"] = " ".join(rng.sample(rel_words, rng.randint(1, 2)))
        if rng.random() < 0.5:
            attrs["href" if name in ("a", "link") else "src" if name == "img" else "data"] = "/x"
        element = el(name, **attrs)
        rel = attrs.get("rel") if name in ("a", "link") else None
        found = _backcompat_classify(classes, parent, rel)
        if found is None:
            continue
        answered += 1
        nested = nested_root_types(element, classes, parent)
        mf2 = mf2_root_types(classes)  # mf2 root classes win: a nested mf2 item
        expected = (tuple(mf2), False) if mf2 else (tuple(nested), bool(nested))
        props = tuple(p for p in map(parse_property_class, property_classes(element, classes, parent)) if p)
        assert found == (*expected, props), (classes, parent, attrs)
    assert answered > 2000


# --- through the mf2 parser (whole-DOM path) ----------------------------------


def _items(html: str) -> list[dict[str, object]]:
    from stream_mf2.html.testing import parse_document
    from stream_mf2.mf2 import parse_dom

    items = parse_dom(parse_document(html), "http://example.com")["items"]
    assert isinstance(items, list)
    return items


def test_parsed_mf2_root_ignores_mf1_root_and_properties() -> None:
    items = _items('<div class="h-card vcard"><span class="fn">Classic</span><span class="p-name">Modern</span></div>')
    assert items == [{"type": ["h-card"], "properties": {"name": ["Modern"]}}]


def test_parsed_mf2_properties_inside_mf1_root_are_ignored_and_nothing_is_implied() -> None:
    items = _items('<a class="vcard" href="/me"><img src="/p.png" alt="Me"><span class="p-note">n</span></a>')
    assert items == [{"type": ["h-card"], "properties": {}}]


def test_parsed_rel_tag_and_bookmark_in_hentry() -> None:
    items = _items(
        '<div class="hentry"><a class="entry-title" rel="bookmark" href="/p/1">Post</a>'
        '<a rel="tag" href="/tags/caf%C3%A9/">Coffee</a>'
        '<a rel="tag" class="category" href="/tags/x">Shown</a></div>'
    )
    assert items == [
        {
            "type": ["h-entry"],
            "properties": {
                "name": ["Post"],
                "url": ["http://example.com/p/1"],
                "category": ["café", "Shown"],
            },
        }
    ]


def test_parsed_hreview_item_key_and_no_id() -> None:
    items = _items(
        '<div class="hreview" id="r"><p class="item"><a class="fn url" href="/x">X</a></p>'
        '<span class="reviewer vcard" id="c"><span class="fn">R</span><span class="key">K/1==</span>'
        '<img class="photo" src="/r.png" alt="R"></span></div>'
    )
    assert items == [
        {
            "type": ["h-review"],
            "properties": {
                "item": [
                    {
                        "type": ["h-item"],
                        "properties": {"name": ["X"], "url": ["http://example.com/x"]},
                        "value": "X",
                    }
                ],
                "author": [
                    {
                        "type": ["h-card"],
                        "properties": {"name": ["R"], "key": ["K/1=="], "photo": ["http://example.com/r.png"]},
                        "value": "R",
                    }
                ],
            },
        }
    ]


def test_parsed_include_loop_terminates() -> None:
    items = _items(
        '<div class="vcard" id="a" itemref="b"><span class="fn">A</span>'
        '<a class="include" href="#a">self</a></div>'
        '<div id="b" itemref="a"><span class="org">B org</span></div>'
    )
    assert items == [{"type": ["h-card"], "properties": {"name": ["A"], "org": ["B org"]}}]
