"""More than one consumer of the bounded tree: mf2 capture, and WPT when a template is given.

The bounded sink has one keep predicate and one hand-over callback. With a
single consumer (mf2 only) the parser passes the capture's own methods, so
that path pays nothing. With more, :class:`FanOut` hands every completed
subtree to each consumer in turn: a subtree kept for one consumer may hold
what another looks for (a WPT block around an ``h-entry``, an ``h-feed``
around a WPT match), and each finds its own parts in it. The subtree may be
unlinked only when every consumer is done with it. With the nested hand-over
(``stream_children``), mf2 capture decides; a subtree it empties or removes is
shown to the other consumers first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stream_mf2.html.bounded.sink import NESTED_KEEP
from stream_mf2.html.dom import Element

__all__ = ["FanOut"]

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
