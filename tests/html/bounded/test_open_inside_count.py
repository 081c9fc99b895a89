"""BoundedSink's count of open elements inside kept subtrees, against a full count.

(Also the outermost kept ancestors ``_top_kept`` remembers, against plain climbs.)

``_classify`` skips its walk for open descendants of a popped kept element
while the sink's ``_open_inside`` count is 0. Here that count is compared,
after every pop and every hand-over, with a count over every element the sink
created; and every classification is compared with the one the full walk gives.
The short unlinking path at hand-over (taken when the count is 0) is checked
to meet no open element. Inputs: the html5lib-tests tree-construction cases and random tag soup, with
the nested hand-over on and off, and with a tiny ``max_pending`` (forced
hand-overs of subtrees that still hold open elements).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.dom import Element, Node
from stream_mf2.html.testing.tree import build, context_element
from tests.support import chunking
from tests.support.bounded_sink import KEEPS, tag_soup
from tests.support.builds import pure_only
from tests.support.tree_cases import CASES

_OPEN_INSIDE = bs._OPEN | bs._INSIDE


# White-box: a subclass reading the sink's private count (see tests/support/builds.py).
pytestmark = pure_only


class CheckedSink(BoundedSink):
    """Checks the open-inside count and the classification shortcut as it goes."""

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        **kw: int,
    ) -> None:
        self.created: list[Element] = []

        def recording_keep(el: Element) -> bool:
            # The keep predicate is asked once for every created element.
            self.created.append(el)
            return keep(el)

        # (with on_nested: the nested hand-over, every nested kept element watched)
        watch = None if on_nested is None else lambda el, top: True
        super().__init__(recording_keep, self._complete, on_nested=on_nested, watch_nested=watch, **kw)
        self.handed = 0
        self.unlinked = 0

    def _complete(self, el: Element) -> bool:
        self.handed += 1
        self.check()
        return True

    def check(self) -> None:
        # (an element whose attributes a later <html>/<body> merged is asked twice)
        unique = {id(el): el for el in self.created}.values()
        full = sum(1 for el in unique if el.sink_state & _OPEN_INSIDE == _OPEN_INSIDE)
        assert self._open_inside == full
        # The outermost kept element _top_kept remembers for an element (kept across
        # nested hand-overs that remove subtrees) equals a plain climb.
        for el, top in self._tops.values():
            plain = None
            node: object = el
            while isinstance(node, Element):
                if node.sink_state & bs._KEPT:
                    plain = node
                node = node.parent
            assert top is plain

    def pop(self, element: Element) -> None:
        super().pop(element)
        self.check()

    def _unlink(self, root: Node) -> None:
        # The short path clears every parent link: nothing below root may be open.
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, Element):
                assert not node.sink_state & bs._OPEN
                assert node.sink_state == 0 or node.sink_state & bs._INSIDE
                stack.extend(node.children)
                if node.template_contents is not None:
                    stack.extend(node.template_contents.children)
        self.unlinked += 1
        super()._unlink(root)

    def _classify(self, el: Element) -> tuple[str, int]:
        got = super()._classify(el)
        saved = self._open_inside
        self._open_inside = saved + 1  # forces the walk for open descendants
        try:
            walked = super()._classify(el)
        finally:
            self._open_inside = saved
        assert got == walked
        return got


def _run(chunks: list[str], keep_name: str, fragment: str | None, mode: int) -> CheckedSink:
    kw = {"max_pending": 1} if mode == 2 else {}
    nested: Callable[[Element, Element, bool], int] | None = None
    if mode == 1:
        answers = [bs.NESTED_KEEP, bs.NESTED_EMPTY, bs.NESTED_REMOVE]
        calls = [0]

        def on_nested(el: Element, top: Element, alone: bool) -> int:
            calls[0] += 1
            sink.check()
            return answers[calls[0] % 3]

        nested = on_nested
    sink = CheckedSink(KEEPS[keep_name], nested, **kw)
    build(chunks, sink, context_element(fragment) if fragment else None)
    sink.check()
    return sink


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["plain", "nested", "forced"])
@pytest.mark.parametrize("keep_name", list(KEEPS))
def test_counts_tree_construction(keep_name: str, mode: int) -> None:
    from stream_mf2.html.testing.tree import TreeTest

    for case in CASES:
        assert isinstance(case, TreeTest)
        _run([case.data], keep_name, case.fragment_context, mode)


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["plain", "nested", "forced"])
def test_counts_random_tag_soup(mode: int) -> None:
    rng = random.Random(chunking.SEED + mode)
    for _ in range(300):
        html = tag_soup(rng)
        chunks = chunking.random_chunks(html, rng.randint(0, 10**6))
        for keep_name in KEEPS:
            _run(chunks, keep_name, None, mode)


def test_in_order_root_needs_no_walk() -> None:
    """The common case: an outermost kept element popped after its contents."""
    sink = _run(['<div class="h-card"><p><a>x</a></p><span>y</span></div>'], "h-class", None, 0)
    assert sink.handed == 1
    assert sink.unlinked == 1
    assert sink._open_inside == 0
