"""Handed-over kept subtrees are unlinked, so reference counting frees them.

A subtree with parent links is cyclic; left as it is, every kept node would
wait for (and be walked by) the cyclic garbage collector.
"""

from __future__ import annotations

import gc

import stream_mf2
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.dom import Element, Node, ParentNode, iter_descendants
from stream_mf2.html.testing.tree import build
from stream_mf2.mf2 import Mf2Context, Options
from stream_mf2.mf2.capture import Capture


def _keep_h(el: Element) -> bool:
    return el.attrs.get("class", "").startswith("h-")


def _parents(root: ParentNode) -> list[ParentNode | None]:
    return [n.parent for n in iter_descendants(root)]


def _run(html: str, answer: bool | None) -> list[Element]:
    got: list[Element] = []

    def on_complete(el: Element) -> bool | None:
        got.append(el)
        return answer

    build([html], BoundedSink(_keep_h, on_complete))
    return got


DOC = "<div class=h-card><p>a <b>b</b> <span>c</span></p><ul><li>x</li></ul></div><div class=h-entry>e</div>"


def test_released_subtree_is_unlinked() -> None:
    got = _run(DOC, True)
    assert [el.attrs["class"] for el in got] == ["h-card", "h-entry"]
    for el in got:
        assert el.parent is None
        assert iter_descendants(el)
        assert all(p is None for p in _parents(el))
        assert el.sink_state == 0


def test_subtree_kept_linked_when_not_released() -> None:
    for answer in (None, False):
        got = _run(DOC, answer)
        card = got[0]
        for node in iter_descendants(card):
            assert isinstance(node.parent, (Element, type(None)))
            assert node.parent is not None
            assert node in node.parent.children


def test_not_unlinked_while_candidates_are_held() -> None:
    # The h-entry inside the open table is held; the h-card, foster-parented
    # before the table, is handed over meanwhile and stays linked (a held
    # candidate is still placed in document order by its path).
    html = "<table><tr><td><div class=h-entry><p>x</p></div></td></tr><div class=h-card><i>y</i></div></table>"
    got = _run(html, True)
    assert [el.attrs["class"] for el in got] == ["h-card", "h-entry"]
    card, entry = got
    assert all(p is not None for p in _parents(card))
    assert all(p is None for p in _parents(entry))


def _capture_answers(html: str) -> list[tuple[str, bool]]:
    """What ``Capture.complete`` answers for each completed kept subtree, in order
    (the bounded sink is given a spy around it, as the parser gives it the method)."""
    answers: list[tuple[str, bool]] = []
    capture = Capture(Mf2Context("http://example.com/", Options()), [].append)

    def spy(element: Element) -> bool:
        released = capture.complete(element)
        answers.append((element.attrs.get("class") or element.name, released))
        return released

    build([html], BoundedSink(capture.keep, spy))
    capture.finish()
    return answers


def test_capture_keeps_what_it_still_needs() -> None:
    # A header cell is remembered for later ``headers`` references; a classic root
    # with an include reference is held for its target; both stay linked.
    html = (
        "<table><tr><th id=h1><span>Name</span></th></tr></table>"
        "<div class=vcard><a class=include href=#t>i</a></div>"
        "<p id=t class=fn>Ann</p><div class=h-card>B</div>"
    )
    out = stream_mf2.parse(html.encode(), "http://example.com/")
    assert len(out["items"]) == 2
    # (the target is held behind the vcard; the h-card after them is done with)
    assert _capture_answers(html) == [("th", False), ("vcard", False), ("fn", False), ("h-card", True)]
    html = "<div class=h-card><a class=u-url href=/a>A</a></div><a rel=me href=/me>me</a>"
    assert _capture_answers(html) == [("h-card", True), ("a", True)]


def test_parse_leaves_no_cyclic_kept_nodes() -> None:
    items = "".join(f"<div class=h-entry><p class=p-name>n{i}</p><p>t <b>{i}</b></p></div>" for i in range(200))
    html = f"<!doctype html><html><body>{items}</body></html>".encode()

    def alive() -> int:
        return sum(1 for o in gc.get_objects() if isinstance(o, Node))

    gc.collect()
    before = alive()
    enabled = gc.isenabled()
    gc.disable()
    try:
        out = stream_mf2.parse(html, "http://example.com/")
        left = alive() - before
    finally:
        if enabled:
            gc.enable()
    assert len(out["items"]) == 200
    # Only the open structure (document, html, head, body) waits for the collector.
    assert left < 20, left
