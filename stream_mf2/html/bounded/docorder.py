"""Document order: comparing two nodes' positions, and the kept order of pending items.

Invariant (checked under ``check_shortcuts``: :func:`~.reference.check_order`):
``_order``, when made, lists its pending items (flag ``_PENDING``) in document
order; items are inserted in place as they become pending (:func:`_insert`),
and the order is made again only after moves (``_order_moves``).
:func:`_open_before` finds an open outermost kept element before an element
(the adoption agency case of the package docstring).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.flags import _OPEN, _PENDING, _inside
from stream_mf2.html.dom import (
    Element,
    Node,
    ParentNode,
)

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


def _before(a: Node, b: Node) -> bool | None:
    """Is ``a`` before ``b`` in document order (an ancestor is before its descendants)?

    Climbs from both at once up to their nearest common ancestor, so the cost is
    the distance to it, not the depth. ``None``: not in one tree, or not found
    among a parent's children.
    """
    if a is b:
        return False
    from_a: dict[int, Node | None] = {id(a): None}
    from_b: dict[int, Node | None] = {id(b): None}
    x: Node | None = a
    y: Node | None = b
    common: Node
    ca: Node | None
    cb: Node | None
    while True:
        if x is not None:
            px: Node | None = x.parent
            if px is not None:
                if id(px) in from_b:
                    common, ca, cb = px, x, from_b[id(px)]
                    break
                from_a[id(px)] = x
            elif id(x) in from_b:
                common, ca, cb = x, from_a[id(x)], from_b[id(x)]
                break
            x = px
        if y is not None:
            py: Node | None = y.parent
            if py is not None:
                if id(py) in from_a:
                    common, ca, cb = py, from_a[id(py)], y
                    break
                from_b[id(py)] = y
            y = py
        if x is None and y is None:
            return None
    if ca is None:
        return True  # a is an ancestor of b
    if cb is None:
        return False
    if not isinstance(common, ParentNode):
        return None
    children = common.children
    for i in range(len(children) - 1, -1, -1):
        c = children[i]
        if c is cb:
            return True
        if c is ca:
            return False
    return None


def _in_document_order(nodes: list[Element]) -> list[Element]:
    """``nodes`` sorted in document order (ancestors first).

    Walks up from every node, in step, mark their ancestors up to where the paths
    join, one preorder walk of the marked nodes (through their children lists)
    lists them: linear in the nodes on their paths. Sorting by each node's child-index path instead (below) costs
    the depth per node, quadratic for n items held at depths up to n (nested
    tables, each holding an item). That sort stays for nodes not all in one tree
    or not found among their parent's children (its order is the reference).
    """
    # The walks go up in step, each ending on a node another one passed: they stop at the
    # top of the paths that join them, not at the document (a few ready items deep below
    # n open elements, sorted at each of n end tags, walked up n elements each time).
    on_path: set[int] = {id(n) for n in nodes}
    roots: list[Node] = []
    active: list[Node] = list(nodes)
    while len(active) > 1 or (active and roots):
        going: list[Node] = []
        for cur in active:
            parent = cur.parent
            if parent is None:
                roots.append(cur)
            elif id(parent) not in on_path:
                on_path.add(id(parent))
                going.append(parent)
        active = going
    if active:
        root: Node | None = active[0]
    elif roots:
        root = roots[0]
        if any(r is not root for r in roots):
            return sorted(nodes, key=_DocPositions().of)
    else:
        root = None
    wanted = {id(n) for n in nodes}
    out: list[Element] = []
    stack: list[Node] = [] if root is None else [root]
    while stack:
        node = stack.pop()
        if id(node) in wanted and type(node) is Element:
            out.append(node)
        if isinstance(node, ParentNode):
            stack.extend([c for c in reversed(node.children) if id(c) in on_path])
    if len(out) != len(nodes):
        return sorted(nodes, key=_DocPositions().of)
    return out


class _DocPositions:
    """:func:`_doc_position` for many nodes at once: each parent's children are indexed once.

    Many items held in one open table become ready together when it closes; with
    a search of the parent's children per item, sorting them was quadratic.
    """

    __slots__ = ("_index",)

    def __init__(self) -> None:
        self._index: dict[int, dict[int, int]] = {}

    def of(self, node: Node) -> list[int]:
        path: list[int] = []
        index = self._index
        cur: Node = node
        parent = cur.parent
        while parent is not None:
            at = index.get(id(parent))
            if at is None:
                at = index[id(parent)] = {id(c): i for i, c in enumerate(parent.children)}
            i = at.get(id(cur))
            path.append(-1 if i is None else i)
            cur = parent
            parent = cur.parent
        path.reverse()
        return path


def _doc_position(node: Node) -> list[int]:
    """Child-index path from the root: compares in document order (pruned tree is small)."""
    path: list[int] = []
    cur: Node = node
    parent = cur.parent
    while parent is not None:
        children = parent.children
        for i in range(len(children) - 1, -1, -1):
            if children[i] is cur:
                path.append(i)
                break
        cur = parent
        parent = cur.parent
    path.reverse()
    return path


def _pending(sink: BoundedSink) -> list[Element]:
    """The items in the kept order that still wait (ready or held)."""
    order = sink._order
    return [] if order is None else [el for el in order if el.sink_state & _PENDING]


def _start_order(sink: BoundedSink, items: list[Element]) -> None:
    _end_order(sink)
    order = _in_document_order(list({id(el): el for el in items if el.sink_state}.values()))
    for el in order:
        el.sink_state |= _PENDING
    sink._order = order
    sink._order_moves = sink._moves


def _end_order(sink: BoundedSink) -> None:
    order = sink._order
    if order is not None:
        for el in order:
            if el.sink_state:
                el.sink_state &= ~_PENDING
    sink._order = None


def _insert_all(sink: BoundedSink, items: list[Element]) -> bool:
    return all(_insert(sink, el) for el in items)


def _insert(sink: BoundedSink, el: Element) -> bool:
    """Put ``el`` in its place in the kept order; False if an order cannot be told.

    A new item usually comes after every other one: one comparison, which
    climbs only to the two items' nearest common ancestor.
    """
    order = sink._order
    if order is None or el.sink_state & _PENDING:
        return True
    while order and not order[-1].sink_state & _PENDING:
        order.pop()  # handed over or dropped since
    el.sink_state |= _PENDING
    if not order:
        order.append(el)
        return True
    after = _before(order[-1], el)
    if after is None:
        return False
    if after:
        order.append(el)
        return True
    lo = 0
    hi = len(order) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        first = _before(el, order[mid])
        if first is None:
            return False
        if first:
            hi = mid
        else:
            lo = mid + 1
    order.insert(lo, el)
    return True


def _outermost_open(sink: BoundedSink) -> dict[int, Element]:
    """The open kept elements that were outside kept subtrees when last looked at."""
    outer = sink._outer
    if outer is None:
        # (kept up to date as kept elements are made and popped; made again after moves)
        outer = sink._outer = {}
        for el in sink._kept_open.values():
            parent = el.parent
            if parent is None or not _inside(parent):
                outer[id(el)] = el
    return outer


def _open_before(sink: BoundedSink, el: Element) -> Element | None:
    """An open outermost kept element before the root candidate ``el`` in document order.

    Content comes after an open element only inside it, so normally there is
    none. But the adoption agency algorithm moves the furthest block (with
    ``el`` inside it) after the formatting element, whose own subtree may
    hold a kept element that the same token removes from the stack of open
    elements; the tree builder reports those pops after the moves, and a
    candidate rechecked at the first of them would be handed over before
    that kept element (which precedes it). Such a candidate is held until
    the element pops.
    """
    for k in _outermost_open(sink).values():
        if k is not el and k.sink_state & _OPEN:
            parent = k.parent
            if (parent is None or not _inside(parent)) and _before(k, el):
                return k
    return None
