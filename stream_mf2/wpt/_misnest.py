"""Misnested formatting tags: hold the paths the adoption agency may still change (issue 25, item 3).

The streaming matcher decides an element's path when it is created. The adoption
agency algorithm (HTML 13.2.6.4.7, "any other end tag" for a formatting element
``F``) changes paths later, and it changes them in one way only: the *furthest
block* ``FB`` (the first open *special* element below ``F`` on the stack of open
elements) moves out of ``F`` to ``F``'s parent, and ``FB``'s children move into a
clone of ``F`` appended to ``FB`` (with clones of the formatting elements between
them). Every node that changes ancestors is ``FB`` or inside it; without a furthest
block nothing moves. ``FB`` is an element created while ``F`` was open.

So while any formatting element is open, each special (non-void) element created
is *held*: kept as a root (:meth:`Misnest.start`), outside any held subtree,
with everything below it, and its matches are not decided from the paths seen
while streaming but worked out again from its final place once the bounded sink
hands it over (``WptConsumer._rematch``: the streaming matcher's steps run again
from its place, kept up to date through the moves, down its final subtree; a
root with no move or clone anywhere since it was held keeps its streamed matches). A held root inside a subtree already kept is
only marked. The furthest block of any later adoption is such a root or inside
one, and stays inside it (its new parent is above ``F``, so inside the root
that holds ``F``'s special ancestor, if any).

Budget: at most ``max_misnest_nodes`` elements are held at once. Past it, the
held root that grew over it is *withdrawn* (the sink's
:meth:`~stream_mf2.html.bounded.sink.BoundedSink.withdraw`: stored as if never
kept) and its matches fall back to the streaming decisions, with the ``moved``
and ``cloned`` warnings of a later change; so a hostile page (thousands of
unclosed ``<b>``, adoption churn) costs at most that many stored elements more.
Paths ending with ``@name`` are not worked out again (matched at the start tag);
with such a path in the templates the warnings of changes inside held roots stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from stream_mf2.html.dom import Element
from stream_mf2.html.serialize import VOID_ELEMENTS
from stream_mf2.html.tree_tables import FORMATTING, SPECIAL_HTML
from stream_mf2.wpt.limits import DEFAULT_MAX_MISNEST_NODES

__all__ = ["DEFAULT_MAX_MISNEST_NODES", "KIND", "Misnest"]

_VOID: Final = VOID_ELEMENTS  # (no children, so never a furthest block that holds anything)
#: 1: a formatting element; 2: a special element that can be a furthest block
KIND: Final[dict[str, int]] = {n: 1 for n in FORMATTING}
KIND.update({n: 2 for n in SPECIAL_HTML if n not in _VOID and n not in ("html", "body", "head", "template")})


class Misnest:
    """Open formatting elements and held roots of one page."""

    __slots__ = (
        "budget",
        "count",
        "fmt_open",
        "keep_holding",
        "moves",
        "region",
        "roots",
        "stamps",
        "stuck",
        "withdraw",
    )

    def __init__(self, budget: int) -> None:
        self.budget = budget
        #: the sink's withdraw (``None``: holding is off, as with the nested hand-over)
        self.withdraw: Callable[[Element], bool] | None = None
        #: the sink's keep_holding (a clone placed with moved nodes made a kept root)
        self.keep_holding: Callable[[Element], bool] | None = None
        #: open formatting elements (HTML namespace)
        self.fmt_open: set[Element] = set()
        #: open elements inside held roots -> their root
        self.region: dict[Element, Element] = {}
        #: held roots -> elements held below them (themselves included)
        self.roots: dict[Element, int] = {}
        self.count = 0
        #: moves and clones seen so far; per held root, that count when it was held (a root
        #: handed over with no move since has the matches it streamed: nothing to work out)
        self.moves = 0
        self.stamps: dict[Element, int] = {}
        #: held roots the sink could not withdraw (held until handed over)
        self.stuck: set[Element] = set()

    def start(self, element: Element) -> bool:
        """``element`` (new, special, below an open formatting element, outside held roots):
        hold it, if the budget allows."""
        if self.withdraw is None or self.count >= self.budget:
            return False
        self.roots[element] = 1
        self.stamps[element] = self.moves
        self.region[element] = element
        self.count += 1
        return True

    def grow(self, root: Element, element: Element | None) -> Element | None:
        """A new element below ``root`` (``element``, if it is open: it joins the region).
        The root to withdraw if the budget is passed."""
        n = self.roots.get(root)
        if n is None:
            return None
        self.roots[root] = n + 1
        self.count += 1
        if element is not None:
            self.region[element] = root
        return root if self.count > self.budget and root not in self.stuck else None

    def unstart(self, element: Element) -> None:
        """The sink refused to keep ``element``, just :meth:`start`-ed."""
        self.drop(element)

    def drop(self, root: Element) -> None:
        """Stop holding ``root`` (handed over, withdrawn or removed)."""
        n = self.roots.pop(root, None)
        if n is None:
            return
        del self.stamps[root]
        self.stuck.discard(root)
        self.count -= n
        region = self.region
        for el in [e for e, r in region.items() if r is root]:
            del region[el]

    def holds(self, element: Element | None) -> bool:
        """Is ``element`` a held root or inside one? (Its changes are worked out again.)"""
        roots = self.roots
        if not roots:
            return False
        node = element
        while node is not None:
            if type(node) is Element and node in roots:
                return True
            parent = node.parent
            node = parent if type(parent) is Element else None
        return False

    def clear(self) -> None:
        """The page ended: nothing is held, and holding is off.

        The sink's methods go too: the sink refers to the WPT consumer (its observer), so
        keeping them would leave a reference cycle per page for the cyclic collector.
        """
        self.fmt_open.clear()
        self.region.clear()
        self.roots.clear()
        self.stamps.clear()
        self.stuck.clear()
        self.count = 0
        self.withdraw = None
        self.keep_holding = None

    def outermost(self, element: Element) -> Element | None:
        """The outermost held root at or above ``element``, if any."""
        found: Element | None = None
        roots = self.roots
        node: Element | None = element
        while node is not None:
            if node in roots:
                found = node
            parent = node.parent
            node = parent if type(parent) is Element else None
        return found

    def whole(self, clone: Element) -> bool:
        """Is what the adoption agency moved into ``clone`` (placed holding nodes) all there?

        The clone of the formatting element took the furthest block's children (and is
        appended to it); one made in the inner loop holds a chain of clones down to the
        furthest block. Either way the nodes came from the furthest block's subtree, which
        is whole if it is held (a withdrawn or never held one lost its popped content).
        """
        parent = clone.parent
        if type(parent) is Element and self.holds(parent):
            return True
        node = clone
        while True:
            kids = [c for c in node.children if type(c) is Element]
            if len(kids) != 1:
                return False
            node = kids[0]
            if node in self.roots:
                return True
