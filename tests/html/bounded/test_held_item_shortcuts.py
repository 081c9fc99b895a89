"""The bounded sink's shortcuts for held items after moves, against plain walks.

With ``stream_children`` the adoption agency algorithm moves a clone of a
formatting element down a chain of open elements at each misnested end tag:

* a ready item before every blocker's proxy (``_before_held``) is handed over
  without a place among the held items: it must precede each of them;
* the outermost kept ancestor of a nested item is found through the remembered
  climbs (``_nested_top``): it must be the one a climb of every ancestor finds;
* ``_alone`` skips held groups of nested candidates: its answer must be the one
  a look at every pending candidate gives.

Inputs: the adoption agency growth patterns, random tag soup and the
html5lib-tests tree-construction cases, in random chunkings, with the nested
hand-over on (every kept element watched; each answer in turn).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.dom import Element, Node, ParentNode
from stream_mf2.html.testing.tree import build, context_element
from tests import chunking
from tests.builds import pure_only
from tests.test_bounded_sink import KEEPS, _tag_soup
from tests.test_nested_growth import PATTERNS as NESTED_GROWTH
from tests.test_tree_conformance import CASES

# White-box: a subclass reading the sink's private state (see tests/builds.py).
pytestmark = pure_only


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def _plain_top(el: Element) -> Element | None:
    top = None
    node: ParentNode | None = el.parent
    while isinstance(node, Element):
        if node.sink_state & bs._KEPT:
            top = node
        node = node.parent
    return top


class CheckedSink(bs.BoundedSink):
    """Checks the three shortcuts against plain walks as they are taken."""

    def __init__(self, keep: Callable[[Element], bool], **kw: int) -> None:
        super().__init__(keep, lambda el: True, **kw)
        self.fast = 0
        self.tops = 0

    def _before_held(self, ready: list[Element]) -> bool:
        got = super()._before_held(ready)
        if got:
            held = [c for c in self._held() if c.sink_state]
            for el in ready:
                root = _root(el)
                for cand in held:
                    if cand is not el and _root(cand) is root:
                        assert bs._doc_position(el) < bs._doc_position(cand), (el, cand)
            self.fast += 1
        return got

    def _nested_top(self, el: Element) -> Element | None:
        got = super()._nested_top(el)
        assert got is _plain_top(el)
        self.tops += 1
        return got

    def _alone(self, top: Element) -> bool:
        got = super()._alone(top)
        want = True
        for el in self._outermost_open().values():
            if el is not top and (el.parent is None or not self._inside(el.parent)):
                want = False
        for cand in [*self._ready, *self._recheck, *self._held(), *(self._order or ())]:
            if cand is not top and cand.sink_state and (cand.parent is None or not self._inside(cand.parent)):
                want = False
        assert got == want
        return got


def _run(chunks: list[str], keep_name: str, fragment: str | None, **kw: int) -> CheckedSink:
    sink = CheckedSink(KEEPS[keep_name], **kw)
    answers = [bs.NESTED_KEEP, bs.NESTED_EMPTY, bs.NESTED_REMOVE]
    calls = [0]

    def on_nested(el: Element, top: Element, alone: bool) -> int:
        calls[0] += 1
        return answers[calls[0] % 3]

    sink.set_nested(on_nested, lambda el, top: True)
    build(chunks, sink, context_element(fragment) if fragment else None)
    return sink


#: Adoption agency forms (the growth patterns and a few more), at a small size.
FORMS = [make(12) for make in NESTED_GROWTH.values()] + [
    f"x{pre}<{tag} class=h-x>" + "<div>" * 12 + step * 12
    for tag in ("b", "a", "nobr")
    for pre in ("", "<div class=h-feed>", "<table><td>")
    for step in (f"</{tag}><i class=h-y></i>", f"<i class=h-y></i></{tag}>t", f"</{tag}><{tag} class=h-z><p class=h-y>")
]


@pytest.mark.parametrize("max_pending", [1000, 3])
def test_forms_and_soup(max_pending: int) -> None:
    rng = random.Random(chunking.SEED + max_pending)
    fast = tops = 0
    docs = FORMS + [_tag_soup(rng) for _ in range(200)]
    for html in docs:
        for chunks in ([html], chunking.random_chunks(html, rng.randint(0, 10**6))):
            for keep_name in KEEPS:
                sink = _run(chunks, keep_name, None, max_pending=max_pending)
                fast += sink.fast
                tops += sink.tops
    assert fast > (100 if max_pending > 3 else 50) and tops > 2000, (fast, tops)


def test_tree_construction_cases() -> None:
    from stream_mf2.html.testing.tree import TreeTest

    if not CASES:
        pytest.skip("the html5lib-tests tree-construction suite was not found (STREAM_MF2_TESTSUITES)")
    tops = 0
    for case in CASES:
        assert isinstance(case, TreeTest)
        tops += _run([case.data], "b-a-div", case.fragment_context).tops
    assert tops > 100
