"""The microdata consumer against extruct's ``MicrodataExtractor`` (the oracle).

Every page written here and every fixture page gives extruct's items, except
where this project deliberately departs from extruct; each departure is a
test of its own below, which says what differs and checks exactly that (never
a blanket skip). ``docs/guides/microdata.md`` lists the same departures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.microdata.drive import Run, extruct_items, items, microdata
from tests.microdata.pages import PAGES, page

REPO = Path(__file__).resolve().parents[2]
FIXTURES = sorted((REPO / "fixtures").rglob("*.html"))

#: Pages whose output differs from extruct's, with the reason (each has a test below).
DIFFERENCES = {
    "misnested": "WHATWG tree: a fostered element goes before its table (libxml2 keeps it inside)",
    "base": "a <base href> is the base of URL values (extruct only uses the base_url argument)",
}


@pytest.mark.parametrize("name", sorted(set(PAGES) - set(DIFFERENCES)))
def test_page_equals_extruct(name: str) -> None:
    ours = items(PAGES[name])
    assert ours, "the page has items"
    assert ours == extruct_items(PAGES[name])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(REPO)))
def test_fixture_equals_extruct(path: Path) -> None:
    data = path.read_bytes()
    assert items(data) == extruct_items(data)


def test_every_fixture_page_is_compared() -> None:
    assert len(FIXTURES) >= 10


def test_difference_base_href() -> None:
    """extruct resolves URL values against ``base_url`` only; the WHATWG base URL is the
    first ``<base href>`` resolved against the document URL. Given that base, extruct agrees."""
    ours = items(PAGES["base"])
    assert ours != extruct_items(PAGES["base"])
    assert ours == extruct_items(PAGES["base"], url="http://base.example/sub/")


def _key(item: dict[str, Any]) -> str:
    return json.dumps(item, sort_keys=True)


def test_difference_foster_parenting_order() -> None:
    """A ``div`` inside a ``table`` (outside a cell) is foster-parented: the WHATWG tree puts it
    before the table, so its item comes before the table's items; libxml2 leaves it in place.
    The same items, in another order."""
    ours = items(PAGES["misnested"])
    theirs = extruct_items(PAGES["misnested"])
    assert sorted(map(_key, ours)) == sorted(map(_key, theirs))
    fostered = {"properties": {"name": "fostered"}}
    assert ours.index(fostered) < ours.index({"type": "https://schema.org/Thing", "properties": {"name": "cell"}})
    assert theirs.index(fostered) > theirs.index({"type": "https://schema.org/Thing", "properties": {"name": "cell"}})


def test_difference_template_contents() -> None:
    """Template contents are not part of the document tree (WHATWG); libxml2 parses them as
    children, so extruct finds items in them and text in them."""
    doc = page(
        "t",
        '<div itemscope><span itemprop="a">x<template><b>hidden</b></template></span></div>'
        '<template><div itemscope><span itemprop="b">in template</span></div></template>',
    )
    assert items(doc) == [{"properties": {"a": "x"}}]
    assert extruct_items(doc) == [{"properties": {"a": "x hidden"}}, {"properties": {"b": "in template"}}]


def test_difference_itemref_target_before_the_item_outside_kept_subtrees() -> None:
    """Streaming: an ``itemref`` target that came before its item, outside every kept subtree,
    is gone when the item is built; the item has the rest, and a note says so. (A target before
    the item inside a subtree held with it, or any target after the item, is found.)"""
    doc = page(
        "t",
        '<p id="early"><span itemprop="name">Early</span></p>'
        '<div itemscope itemref="early"><span itemprop="x">1</span></div>',
    )
    run = microdata(doc)
    assert [e.item for e in run.events] == [{"properties": {"x": "1"}}]
    assert extruct_items(doc) == [{"properties": {"x": "1", "name": "Early"}}]
    assert any("#early" in n and "before the item" in n for n in run.notes)


def test_target_before_the_item_inside_an_enclosing_item_is_found() -> None:
    doc = page(
        "t",
        '<div itemscope><p id="t"><span itemprop="n">N</span></p>'
        '<div itemprop="inner" itemscope itemref="t"><span itemprop="x">1</span></div></div>',
    )
    assert items(doc) == extruct_items(doc)
    assert items(doc)[0]["properties"]["inner"]["properties"] == {"x": "1", "n": "N"}


def test_no_note_for_an_id_no_element_has() -> None:
    doc = page("t", '<div itemscope itemref="nowhere"><span itemprop="x">1</span></div>')
    run = microdata(doc)
    assert [e.item for e in run.events] == extruct_items(doc) == [{"properties": {"x": "1"}}]
    assert run.notes == []


def test_url_without_a_document_url() -> None:
    doc = page("t", '<div itemscope><a itemprop="u" href=" /x ">x</a></div>')
    assert items(doc, url=None) == extruct_items(doc, url=None) == [{"properties": {"u": "/x"}}]


def test_item_order_is_document_order_across_held_items() -> None:
    doc = page(
        "t",
        '<div itemscope itemref="t1"><span itemprop="a">1</span></div>'
        '<div itemscope><span itemprop="b">2</span></div>'
        '<div itemscope itemref="t2"><span itemprop="c">3</span></div>'
        '<p id="t2"><span itemprop="d">4</span></p><p id="t1"><span itemprop="e">5</span></p>'
        '<div itemscope><span itemprop="f">6</span></div>',
    )
    assert items(doc) == extruct_items(doc)
    assert [list(i["properties"]) for i in items(doc)] == [["a", "e"], ["b"], ["c", "d"], ["f"]]


def test_items_leave_before_the_document_ends() -> None:
    """A top-level item is emitted when its root closes (or its targets are in), not at the end."""
    run_events: list[int] = []
    run = Run()
    doc = page(
        "t",
        '<div itemscope><span itemprop="a">1</span></div><p>more</p>'
        '<div itemscope itemref="z"><span itemprop="b">2</span></div><p>gap</p><p id="z" itemprop="c">3</p><p>x</p>',
    )
    marks = ["<p>more", '<p id="z"', "<p>x"]
    cut = [doc.index(m) for m in marks]
    pieces = [doc[: cut[0]], doc[cut[0] : cut[1]], doc[cut[1] : cut[2]], doc[cut[2] :]]
    for piece in pieces:
        run.feed(piece)
        run_events.append(len(run.events))
    run.close()
    assert run_events[0] == 1, "the first item is out once its root closed"
    assert run_events[1] == 1, "the second waits for #z"
    assert run_events[2] == 2, "and leaves once #z closed"
    assert run_events[3] == 2


def test_an_unparsable_url_is_given_as_written_or_empty_in_the_whatwg_form() -> None:
    """``urljoin`` (which extruct calls) raises on ``http://[``: extruct then loses the page's
    microdata; here the extruct form gives the value as written, the WHATWG form ``""`` (the
    spec's answer for a URL that fails to parse), and a bad ``<base href>`` is ignored."""
    doc = page(
        "t",
        '<div itemscope><a itemprop="u" href="//[x">x</a><img itemprop="i" src="ok.png"></div>',
        extra='<base href="http://[::1/">',
    )
    assert items(doc) == [{"properties": {"u": "//[x", "i": "http://example.com/dir/ok.png"}}]
    whatwg = [e.item for e in microdata(doc, microdata_form="whatwg").events]
    assert whatwg == [{"properties": {"u": [""], "i": ["http://example.com/dir/ok.png"]}}]


@pytest.mark.parametrize("name", ["page-item-body", "page-item-html"])
def test_a_page_item_comes_last_and_is_put_back_in_its_place(name: str) -> None:
    """An ``<html itemscope>``/``<body itemscope>`` item is gathered without keeping the page:
    its event is the last one (its properties are known only at the end), with ``page`` saying
    where it belongs; the list (``parse()``, ``extract``) has it there, as extruct does."""
    run = microdata(PAGES[name])
    assert run.events[-1].page == 0 and all(e.page == -1 for e in run.events[:-1])
    assert [e.item for e in run.events][:-1] == extruct_items(PAGES[name])[1:]
    assert items(PAGES[name]) == extruct_items(PAGES[name])


def test_a_page_item_without_properties_has_an_empty_value() -> None:
    """extruct gives the text of the whole page; the page is not kept here."""
    doc = "<!doctype html><body itemscope itemtype='https://schema.org/WebPage'><p>Some text</p>"
    assert items(doc) == [{"type": "https://schema.org/WebPage", "value": ""}]
    assert extruct_items(doc) == [{"type": "https://schema.org/WebPage", "value": "Some text"}]


BACKWARD = {
    "plain-in-an-earlier-item": '<div itemscope><span id="a" itemprop="n">A</span></div>'
    '<div itemscope itemref="a"><b itemprop="x">1</b></div>',
    "an-earlier-item-property": '<div id="org" itemprop="publisher" itemscope itemtype="https://schema.org/Organization">'
    '<span itemprop="name">Org</span></div>'
    '<article itemscope itemtype="https://schema.org/Article" itemref="org"><b itemprop="headline">H</b></article>',
    "a-wrapper-in-an-earlier-item": '<div itemscope><p id="w"><span itemprop="n">N</span>'
    '<span itemprop="m" itemscope><i itemprop="k">K</i></span></p></div>'
    '<div itemscope itemref="w"><b itemprop="x">1</b></div>',
    "a-page-item-property": '<img id="logo" itemprop="logo" src="/l.png">'
    '<div itemscope itemtype="https://schema.org/Organization" itemref="logo"><b itemprop="name">n</b></div>',
}


@pytest.mark.parametrize("name", sorted(BACKWARD))
def test_a_target_before_its_item_in_a_built_subtree_is_found(name: str) -> None:
    """The last subtrees items were built from are remembered (``max_microdata_recent_nodes``):
    an ``itemref`` to an id in them resolves as in extruct (an item in them that was extracted
    already is ``None``, extruct's rule)."""
    body = BACKWARD[name]
    doc = (
        "<!doctype html><html><head><title>t</title></head><body itemscope>" + body
        if name == "a-page-item-property"
        else page("t", body)
    )
    run = microdata(doc)
    assert items(doc) == extruct_items(doc)
    assert run.notes == []


def test_remembered_subtrees_are_bounded_by_max_microdata_recent_nodes() -> None:
    doc = page("t", BACKWARD["plain-in-an-earlier-item"])
    forgotten = microdata(doc, max_microdata_recent_nodes=0)
    assert items(doc, max_microdata_recent_nodes=0) == [{"properties": {"n": "A"}}, {"properties": {"x": "1"}}]
    assert any("#a" in n and "before the item" in n for n in forgotten.notes)
