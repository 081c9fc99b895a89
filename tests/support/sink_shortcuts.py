"""A white-box bounded sink that checks its shortcuts for held items against plain walks.

:class:`CheckedSink` asserts, each time the sink takes one, that ``_before_held``,
``_nested_top`` and ``_alone`` give what a walk of every pending element gives, and counts
them (``fast``, ``tops``). It reads the sink's private state, so it is used only against the
pure-Python build (``tests.support.builds.pure_only``).
"""

from __future__ import annotations

from collections.abc import Callable

from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.dom import Element, Node, ParentNode


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

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        **kw: int,
    ) -> None:
        # (with on_nested: the nested hand-over, every nested kept element watched)
        watch = None if on_nested is None else lambda el, top: True
        super().__init__(keep, lambda el: True, on_nested=on_nested, watch_nested=watch, **kw)
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
