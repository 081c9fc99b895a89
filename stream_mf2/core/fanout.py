"""More than one consumer of the bounded tree: mf2 capture, WPT when a template is given, the other syntaxes.

The bounded sink has one keep predicate and one hand-over callback. With a
single consumer (mf2 only) the parser passes the capture's own methods, so
that path pays nothing. With more, :class:`FanOut` hands every completed
subtree to each consumer in turn: a subtree kept for one consumer may hold
what another looks for (a WPT block around an ``h-entry``, an ``h-feed``
around a WPT match), and each finds its own parts in it. The subtree may be
unlinked only when every consumer is done with it. With the nested hand-over
(``stream_children``), mf2 capture decides; a subtree it empties or removes is
shown to the other consumers first.

:class:`KeepFanOut` asks every consumer's keep predicate, and
:class:`ObserverFanOut` tells every placement observer (WPT's, RDFa's), for the
sink that takes one of each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stream_mf2.html.bounded.observed import PlacementObserver
from stream_mf2.html.bounded.sink import NESTED_KEEP
from stream_mf2.html.dom import Element, Node, ParentNode

__all__ = ["FanOut", "KeepFanOut", "ObserverFanOut", "keep_nothing"]

Complete = Callable[[Element], "bool | None"]
Nested = Callable[[Element, Element, bool], int]


class FanOut:
    """Hand each completed kept subtree to several consumers' ``complete`` callbacks."""

    __slots__ = ("_completes", "_held_back", "_nested", "_released")

    def __init__(
        self,
        completes: Sequence[Complete],
        nested: Nested | None = None,
        released: Sequence[Complete] = (),
        held_back: Callable[[], Element | None] | None = None,
    ) -> None:
        self._completes = tuple(completes)
        self._nested = nested
        self._released = tuple(released)
        self._held_back = held_back

    def complete(self, root: Element) -> bool:
        """Every consumer sees ``root``; ``True`` only if all are done with it."""
        done = True
        for complete in self._completes:
            if not complete(root):
                done = False
        return done

    def nested(self, element: Element, top: Element, alone: bool) -> int:
        """The nested hand-over (``stream_children``): one consumer decides what happens to
        ``element`` (final, inside the kept ``top``); if it is emptied or removed (or kept
        only as ``held_back`` says), the ``released`` consumers see it first, as a
        completed subtree of their own."""
        assert self._nested is not None
        action = self._nested(element, top, alone)
        # A child the deciding consumer keeps only while document metadata may still
        # change its item (see Capture.held_back) is final: the others take it now, in
        # document order with the children streamed after it.
        if action != NESTED_KEEP or (self._held_back is not None and self._held_back() is element):
            for complete in self._released:
                complete(element)
        return action


class KeepFanOut:
    """One keep predicate asking several consumers: every one is asked (some only observe
    document metadata there), and the element is kept if any wants it."""

    __slots__ = ("_keeps",)

    def __init__(self, keeps: Sequence[Callable[[Element], bool]]) -> None:
        self._keeps = tuple(keeps)

    def keep(self, element: Element) -> bool:
        kept = False
        for keep in self._keeps:
            if keep(element):
                kept = True
        return kept


def keep_nothing(element: Element) -> bool:
    """The keep predicate when no consumer keeps anything (a WPT template alone keeps by placement)."""
    return False


class ObserverFanOut:
    """One :class:`~stream_mf2.html.bounded.observed.PlacementObserver` telling several.

    ``placed`` and ``opened`` answer "keep it" if any observer does (every one is
    told). ``leaf`` asks whether the sink should send a leaf through ``opened`` and
    ``popped``: if any observer wants that, the sink does, and the observers that
    said they had noted the leaf already are left out of those two calls for it.
    """

    __slots__ = ("_leaf_element", "_leaf_skip", "_observers")

    def __init__(self, observers: Sequence[PlacementObserver]) -> None:
        self._observers = tuple(observers)
        # After a leaf() that some observers answered False: which to leave out of the
        # next opened() and of the popped() of the element it opened.
        self._leaf_skip: tuple[bool, ...] | None = None
        self._leaf_element: Element | None = None

    def placed(self, element: Element, parent: ParentNode, before: Node | None = None) -> bool:
        kept = False
        for observer in self._observers:
            if observer.placed(element, parent, before):
                kept = True
        return kept

    def opened(self, element: Element, parent: ParentNode) -> bool:
        skip = self._leaf_skip
        kept = False
        if skip is None:
            for observer in self._observers:
                if observer.opened(element, parent):
                    kept = True
            return kept
        self._leaf_element = element
        for observer, skipped in zip(self._observers, skip, strict=True):
            if not skipped and observer.opened(element, parent):
                kept = True
        return kept

    def leaf(self, parent: ParentNode, name: str, attrs: dict[str, str]) -> bool:
        answers = tuple([observer.leaf(parent, name, attrs) for observer in self._observers])
        if not any(answers):
            return False
        self._leaf_skip = None if all(answers) else tuple([not a for a in answers])
        self._leaf_element = None
        return True

    def popped(self, element: Element) -> None:
        skip = self._leaf_skip
        if skip is not None and element is self._leaf_element:
            self._leaf_skip = None
            self._leaf_element = None
            for observer, skipped in zip(self._observers, skip, strict=True):
                if not skipped:
                    observer.popped(element)
            return
        for observer in self._observers:
            observer.popped(element)

    def attrs_added(self, element: Element, names: list[str]) -> None:
        for observer in self._observers:
            observer.attrs_added(element, names)

    def removed(self, element: Element) -> None:
        for observer in self._observers:
            observer.removed(element)
