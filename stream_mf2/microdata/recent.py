"""Recently built subtrees with ids, for ``itemref`` targets that come before their item.

An ``itemref`` id whose element came before the item is resolved only if that
element is still held. The subtrees the microdata consumer has built items from
(items, page-item properties, targets) are remembered after they are built, the
most recent first, up to ``max_nodes`` nodes in all (the oldest are forgotten):
a later item's ``itemref`` to an id in one of them finds it. The items in such a
subtree were all extracted already, so extruct's rule makes each of them
``None`` as a value (see :mod:`stream_mf2.microdata.items`).
"""

from __future__ import annotations

from collections import deque

from stream_mf2.html.dom import Element, Node

__all__ = ["RecentTargets"]


class RecentTargets:
    """The last built subtrees that hold ids, bounded by their node count."""

    __slots__ = ("_ids", "_max_nodes", "_nodes", "_roots")

    def __init__(self, max_nodes: int) -> None:
        self._max_nodes = max_nodes
        self._nodes = 0
        # id -> (the first element with it among the remembered subtrees, its root)
        self._ids: dict[str, tuple[Element, Element]] = {}
        # (root, node count, the ids it gave) oldest first
        self._roots: deque[tuple[Element, int, list[str]]] = deque()

    def add(self, root: Element, nodes: int) -> bool:
        """Remember ``root`` if it holds an id not remembered yet and fits; whether it is kept."""
        if nodes > self._max_nodes:
            return False
        ids: list[str] = []
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, Element):
                ident = node.attrs.get("id")
                if ident and ident not in self._ids:
                    self._ids[ident] = (node, root)
                    ids.append(ident)
                if node.children:
                    stack.extend(reversed(node.children))
        if not ids:
            return False
        self._roots.append((root, nodes, ids))
        self._nodes += nodes
        while self._nodes > self._max_nodes:
            _old, count, old_ids = self._roots.popleft()
            self._nodes -= count
            for ident in old_ids:
                del self._ids[ident]
        return True

    def get(self, ident: str) -> Element | None:
        """The remembered element with the id ``ident``, if any."""
        found = self._ids.get(ident)
        return found[0] if found is not None else None

    def clear(self) -> None:
        self._ids.clear()
        self._roots.clear()
        self._nodes = 0

    @property
    def nodes(self) -> int:
        """Nodes in the remembered subtrees."""
        return self._nodes
