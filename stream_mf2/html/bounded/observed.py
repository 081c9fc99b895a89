"""A bounded sink that also tells an observer where each element is placed.

:class:`ObservedSink` is :class:`~stream_mf2.html.bounded.sink.BoundedSink`
plus calls to an observer: ``placed(element, parent, before)`` whenever an
element is inserted or moved (creation, foster parenting, the adoption agency's
moves, ``reparent_children``), ``popped(element)`` when it leaves the stack of
open elements, ``attrs_added`` and ``removed`` for the other late changes
(attributes of a later ``<html>``/``<body>`` tag, ``<frameset>`` removing
``<body>``). ``placed`` answers whether the element (new and still empty)
should start a kept subtree, for a consumer whose choice depends on where the
element is (its position among its siblings), which the keep predicate, asked
before the element is placed, cannot know.

The parser uses it only when such a consumer is attached: the plain bounded
sink pays nothing for the hooks. The HTML engine stays ignorant of what the
observer does with them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from stream_mf2.html.bounded.flags import (
    _INSIDE,
    _KEPT,
    _OPEN,
    DEFAULT_MAX_KEPT_NODES,
    DEFAULT_MAX_PENDING_ITEMS,
    DEFAULT_MAX_PREFIX_NODES,
)
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.bounded.tentative import _demote
from stream_mf2.html.bounded.textbudget import TextBudget
from stream_mf2.html.bounded.withdraw import _keep_holding, _withdraw
from stream_mf2.html.dom import Element, Node, ParentNode

__all__ = ["ObservedSink", "PlacementObserver"]

# The base class's methods, called directly on the hot paths (no super() object per call).
_create_element_in = BoundedSink.create_element_in
_append_leaf = BoundedSink.append_leaf
_pop = BoundedSink.pop


class PlacementObserver(Protocol):
    """What :class:`ObservedSink` reports to."""

    def placed(self, element: Element, parent: ParentNode, before: Node | None = None) -> bool:
        """``element`` was inserted or moved under ``parent`` (right before ``before``, if given);
        ``True``: keep it (when it is new)."""
        ...

    def opened(self, element: Element, parent: ParentNode) -> bool:
        """A new element was created as the last child of ``parent`` (as :meth:`placed`)."""
        ...

    def leaf(self, parent: ParentNode, name: str, attrs: dict[str, str]) -> bool:
        """A leaf is about to be inserted: ``True`` to see it through :meth:`opened` and
        :meth:`popped`; ``False`` if the observer has noted it already (the sink then
        takes its fast path)."""
        ...

    def popped(self, element: Element) -> None:
        """``element`` left the stack of open elements."""
        ...

    def attrs_added(self, element: Element, names: list[str]) -> None:
        """A late ``<html>``/``<body>`` tag gave ``element`` the attributes ``names``."""
        ...

    def removed(self, element: Element) -> None:
        """``element`` was removed from the tree (``<frameset>`` replacing ``<body>``)."""
        ...


class ObservedSink(BoundedSink):
    """A :class:`BoundedSink` reporting placements and pops to ``observer``."""

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_complete: Callable[[Element], bool | None],
        observer: PlacementObserver,
        *,
        max_pending: int = DEFAULT_MAX_PENDING_ITEMS,
        max_kept_nodes: int = DEFAULT_MAX_KEPT_NODES,
        max_prefix_nodes: int = DEFAULT_MAX_PREFIX_NODES,
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        watch_nested: Callable[[Element, Element], bool] | None = None,
        text_budget: TextBudget | None = None,
        check_shortcuts: bool = False,
        bare_keeps: frozenset[str] | None = None,
    ) -> None:
        # The keywords are spelled out, not forwarded as ``**kwargs``: the compiled
        # build passes a ``**`` mapping on to a compiled base class wrongly.
        super().__init__(
            keep,
            on_complete,
            max_pending=max_pending,
            max_kept_nodes=max_kept_nodes,
            max_prefix_nodes=max_prefix_nodes,
            on_nested=on_nested,
            watch_nested=watch_nested,
            text_budget=text_budget,
            check_shortcuts=check_shortcuts,
            bare_keeps=bare_keeps,
        )
        self.observer = observer
        # Bound once: these run for nearly every element.
        self._opened = observer.opened
        self._popped = observer.popped
        self._leaf = observer.leaf

    def _make_kept(self, el: Element) -> None:
        """Mark the new, empty, open ``el`` kept, as if the keep predicate had said so."""
        st = el.sink_state
        if not st or st & _KEPT or el.children:
            return
        self._kept_created += 1
        if self._tentative:
            # The first kept element ends a tentative html/body, as a kept one
            # created by the keep predicate does (BoundedSink.create_element_in).
            _demote(self)
            st = el.sink_state
        if st & _OPEN and not st & _INSIDE:
            self._open_inside += 1
        el.sink_state = st | _KEPT | _INSIDE
        if st & _OPEN:
            # (every open kept element is tracked: the nested hand-over and the order checks)
            self._kept_open[id(el)] = el
            self._outer = None

    def keep_holding(self, element: Element) -> bool:
        """Make the new open ``element``, placed holding moved nodes (a clone of the adoption
        agency), a kept root with them (:mod:`~stream_mf2.html.bounded.withdraw`); ``False``
        if that cannot be done exactly (nothing changed then)."""
        return _keep_holding(self, element)

    def withdraw(self, element: Element) -> bool:
        """The observer no longer needs the open kept root ``element`` it asked for: it is
        stored from now on as if never kept (:mod:`~stream_mf2.html.bounded.withdraw`);
        ``False`` if that cannot be done exactly (nothing changed then)."""
        return _withdraw(self, element)

    def create_element_in(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str]) -> Element:
        el = _create_element_in(self, parent, name, namespace, attrs)
        if self._opened(el, parent):
            self._make_kept(el)
        return el

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        if (
            self._recheck
            or self._blocked
            or self._ready
            or name == "selectedcontent"
            or self._leaf(parent, name, attrs)
        ):
            # The three calls, so the observer sees the leaf placed and popped.
            el = self.create_element_in(parent, name, namespace, attrs)
            if text:
                self.append_text(el, text)
            self.pop(el)
            return
        _append_leaf(self, parent, name, namespace, attrs, text)

    def append(self, parent: ParentNode, node: Node) -> None:
        fresh = node.parent is None
        super().append(parent, node)
        if type(node) is Element and self.observer.placed(node, parent) and fresh:
            self._make_kept(node)

    def insert_before(self, parent: ParentNode, node: Node, ref: Node) -> None:
        fresh = node.parent is None
        super().insert_before(parent, node, ref)
        if type(node) is Element and self.observer.placed(node, parent, ref) and fresh:
            self._make_kept(node)

    def reparent_children(self, old: ParentNode, new: ParentNode) -> None:
        moved = [c for c in old.children if type(c) is Element]
        super().reparent_children(old, new)
        placed = self.observer.placed
        for c in moved:
            placed(c, new)

    def pop(self, element: Element) -> None:
        _pop(self, element)
        self._popped(element)

    def add_attrs_if_missing(self, element: Element, attrs: dict[str, str]) -> None:
        own = element.attrs
        added = [k for k in attrs if k not in own]
        super().add_attrs_if_missing(element, attrs)
        if added:
            self.observer.attrs_added(element, added)

    def remove(self, node: Node) -> None:
        super().remove(node)
        if type(node) is Element:
            self.observer.removed(node)
