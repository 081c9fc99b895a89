"""More than one consumer of the bounded tree: mf2 capture, and WPT when a template is given.

The bounded sink has one keep predicate and one hand-over callback. With a
single consumer (mf2 only) the parser passes the capture's own methods, so
that path pays nothing. With more, :class:`FanOut` hands every completed
subtree to each consumer in turn: a subtree kept for one consumer may hold
what another looks for (a WPT block around an ``h-entry``, an ``h-feed``
around a WPT match), and each finds its own parts in it. The subtree may be
unlinked only when every consumer is done with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stream_mf2.html.dom import Element

__all__ = ["FanOut"]

Complete = Callable[[Element], "bool | None"]


class FanOut:
    """Hand each completed kept subtree to several consumers' ``complete`` callbacks."""

    __slots__ = ("_completes",)

    def __init__(self, completes: Sequence[Complete]) -> None:
        self._completes = tuple(completes)

    def complete(self, root: Element) -> bool:
        """Every consumer sees ``root``; ``True`` only if all are done with it."""
        done = True
        for complete in self._completes:
            if not complete(root):
                done = False
        return done
