"""``Awaited``: which of the elements a consumer waits for a final subtree holds."""

from __future__ import annotations

from stream_mf2.html.awaited import Awaited
from stream_mf2.html.dom import Document, DocumentFragment, Element, ParentNode


def _child(parent: ParentNode, name: str) -> Element:
    el = Element(name)
    el.parent = parent
    parent.children.append(el)
    return el


def test_the_subtree_gives_what_it_holds_in_the_order_they_were_made() -> None:
    doc = Document()
    html = _child(doc, "html")
    head = _child(html, "head")
    first, second = _child(head, "meta"), _child(head, "script")
    body = _child(html, "body")
    later = _child(body, "script")
    awaited = Awaited()
    for el in (first, second, later):
        awaited.add(el)
    assert awaited.take_inside(first) == [first]  # an element handed over alone
    assert awaited.take_inside(second.parent or head) == [second]
    assert awaited.take_inside(head) == []  # (taken already: given once)
    assert len(awaited) == 1
    assert awaited.take_inside(html) == [later]
    assert len(awaited) == 0 and awaited.out_of_document == 0


def test_a_leaf_subtree_is_not_scanned() -> None:
    doc = Document()
    kept = _child(doc, "p")
    waiting = _child(_child(doc, "template"), "meta")
    waiting.parent = None  # (would count as out of the document if the leaf were scanned)
    awaited = Awaited()
    awaited.add(waiting)
    assert awaited.take_inside(kept) == []
    assert awaited.out_of_document == 0 and len(awaited) == 1


def test_elements_out_of_the_document_are_dropped_counted_and_reported() -> None:
    doc = Document()
    body = _child(doc, "body")
    template = _child(body, "template")
    contents = DocumentFragment(template)
    hidden = _child(contents, "script")
    shown = _child(body, "script")
    dropped: list[Element] = []
    awaited = Awaited(on_dropped=dropped.append)
    awaited.add(hidden)
    awaited.add(shown)
    assert awaited.take_inside(body) == [shown]
    assert dropped == [hidden] and awaited.out_of_document == 1 and len(awaited) == 0


def test_drop_out_of_document_keeps_what_may_still_come() -> None:
    doc = Document()
    head = _child(doc, "head")
    meta = _child(head, "meta")
    removed = Element("meta")  # made, then its subtree removed (<frameset>)
    awaited = Awaited()
    awaited.add(meta)
    awaited.add(removed)
    awaited.drop_out_of_document()
    assert len(awaited) == 1 and awaited.out_of_document == 1
    assert awaited.take_inside(head) == [meta]
