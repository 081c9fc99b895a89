"""The one place where the tree builder's moves and removals reach the sink's caches.

Tree construction changes existing nodes in few ways: the adoption agency
algorithm moves nodes (``append``/``insert_before`` of a node that has a
parent, ``reparent_children``), ``<frameset>`` removes the body (``remove``),
and a clone made by the adoption agency arrives holding nodes. Each goes
through :func:`_tree_changed` (what left which parent) and then
:func:`_placed` (the INSIDE flags below the node's new place). So every cache
that depends on the ancestors of a node is invalidated in one function: a new
cache registers there, and no call site needs to know about it. The sink's
own removals (hand-over, drops) forget through :func:`_forget_above`.

INSIDE flags: only the moved node's own flag is refreshed at once; its
descendants' wait in ``_unsettled`` until :func:`_settle`, which the next pop
(or anything that reads them) runs first. The adoption agency moves the
furthest block, then moves its children back below it: refreshing the whole
subtree at each step was quadratic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.climbs import _forget_runs, _memo_changed
from stream_mf2.html.bounded.flags import _CAPTURE_OR_WATCH, _INSIDE, _KEPT, _LEAF_SET_UP, _OPEN, _SETTLE, _inside
from stream_mf2.html.bounded.selected import _maybe_capture, _moved, _note_placed, _outside_node
from stream_mf2.html.dom import (
    Element,
    Node,
    ParentNode,
)
from stream_mf2.html.sink import insert_child_before

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


def _tree_changed(sink: BoundedSink, old: ParentNode | None) -> None:
    """The mutation hook: the tree builder moved or removed an existing element (``old``: the
    parent it left; ``None``: a new clone holding moved nodes was placed).

    Every cache that depends on elements' ancestors is made right here, and
    only here (a new such cache registers in this function):

    * the jump, table, outermost-kept and closed-subtree caches (:func:`~.climbs._forget_runs`);
    * the remembered climbs through ``old`` (:func:`~.climbs._memo_changed`);
    * ``_moves``, the stamp of the consumers' ancestor caches (``BoundedSink.moves()``),
      of the select look-ups and of the kept order (``_order_moves``);
    * ``_epoch``, the stamp of held groups' positions and of the blockers' proxies;
    * ``_alone_seen`` (groups :func:`~.handover._alone` found nested) and ``_outer``
      (the outermost open kept elements).
    """
    _forget_runs(sink)
    sink._moves += 1
    sink._epoch += 1
    if sink._alone_seen:
        sink._alone_seen = {}
    sink._outer = None
    if old is not None and sink._memo:
        _memo_changed(sink, old, False)


def _node_moved(sink: BoundedSink, node: Node, old: ParentNode, parent: ParentNode) -> None:
    """The tree builder moved ``node`` from ``old`` to ``parent`` (the adoption agency
    algorithm: ``append``, ``insert_before`` or ``reparent_children`` of a placed node)."""
    if type(node) is Element:
        _tree_changed(sink, old)
        _refresh(sink, node, _inside(parent), False)
    elif sink._memo:
        _memo_changed(sink, old, False)  # (a text node: no flags, no moves counted)
    _moved(sink, node, parent)


def _placed(sink: BoundedSink, node: Node, parent: ParentNode) -> None:
    """``node`` was (re)inserted under ``parent``: refresh INSIDE flags below it.

    Only ``node``'s own flag is refreshed at once; if it changed, its
    descendants' are refreshed by :func:`_settle`, which the sink calls once
    the tree builder's moves are done. The adoption agency algorithm moves
    the furthest block (steps 13-14: its flag can change, say out of a kept
    formatting element), then moves all its children into a new element
    and appends that to it (steps 15-17: their flags change back). Walking
    the furthest block's subtree at each step was quadratic for a chain of n
    open elements below it; by step 17 the children's flags mostly match
    again and the walk stops right there.
    """
    if not isinstance(node, Element):
        return
    _tree_changed(sink, None)
    _refresh(sink, node, _inside(parent), False)


def _inserted(sink: BoundedSink, parent: ParentNode, node: Node, ref: Node | None) -> None:
    """A new node (``node.parent`` is ``None``) goes under ``parent``, before ``ref`` or last.

    The one insertion path of ``append`` and ``insert_before`` (of new nodes:
    moves go through :func:`_node_moved`). Outside kept subtrees nothing is
    stored but elements (their parent chain) and what a ``selectedcontent``
    may copy; inside, everything is stored and counted.
    """
    if type(parent) is Element:
        pst = parent.sink_state
        inside = pst & _INSIDE
    else:
        pst = 0
        inside = _inside(parent)
    if type(node) is Element:
        if not pst & _OPEN:
            sink._open_added += 1  # (_classify: placed outside open elements, as foster parenting can)
        if ref is None:
            node.parent = parent
            parent.children.append(node)
        else:
            insert_child_before(parent, node, ref)
        if node.children:
            # A clone made by the adoption agency algorithm already holds nodes.
            if inside:
                sink._count(1)
            _placed(sink, node, parent)
            if sink._unsettled and node is sink._adopter:
                _adopted(sink)
            _moved(sink, node, parent, True)
        elif inside:
            if node.sink_state & (_OPEN | _INSIDE) == _OPEN:
                sink._open_inside += 1
            node.sink_state |= _INSIDE
            sink._count(1)
            if node.name in _LEAF_SET_UP:
                _note_placed(sink, node, parent)
        elif (
            pst & _CAPTURE_OR_WATCH
            or sink._blocked
            or node.name in _LEAF_SET_UP
            # (foster parenting: the watched option may be elsewhere on the stack)
            or (ref is not None and sink._watch_open)
        ):
            _maybe_capture(sink, node, parent)
        if sink._unsettled and node is sink._adopter:
            _adopted(sink)
    elif inside:
        if ref is None:
            node.parent = parent
            parent.children.append(node)
        else:
            insert_child_before(parent, node, ref)
        sink._count(1)
    elif pst & _CAPTURE_OR_WATCH and type(parent) is Element:
        _outside_node(sink, parent, node, ref)


def _adopted(sink: BoundedSink) -> None:
    """The element the furthest block's children went into was appended to it (adoption
    agency algorithm, step 17): the moves of this round are done."""
    sink._adopter = None
    _settle(sink)


def _settle(sink: BoundedSink) -> None:
    """Refresh the INSIDE flags below the elements :func:`_placed` left."""
    if sink._alone_seen:
        sink._alone_seen = {}
    unsettled = sink._unsettled
    recheck = sink._recheck
    if any(c is _SETTLE for c in recheck):
        sink._recheck = [c for c in recheck if c is not _SETTLE]
    while unsettled:
        el = unsettled.pop()
        st = el.sink_state
        if not st:
            continue
        inside = bool(st & _INSIDE)
        for c in el.children:
            if type(c) is Element:
                _refresh(sink, c, inside, True)
        contents = el.template_contents
        if contents is not None:
            for c in contents.children:
                if type(c) is Element:
                    _refresh(sink, c, inside, True)


def _refresh(sink: BoundedSink, node: Element, inside: bool, deep: bool) -> None:
    """Set ``node``'s INSIDE flag for a parent ``inside`` or not, and (``deep``) its descendants'."""
    stack: list[tuple[Element, bool]] = [(node, inside)]
    while stack:
        el, parent_inside = stack.pop()
        st = el.sink_state
        if not st:
            continue
        if st & _KEPT:
            if not parent_inside and not st & _OPEN:
                # A popped kept element that just became outermost. The tree is
                # mid-algorithm here; decide at the next pop (same token).
                sink._recheck.append(el)
            continue  # a kept element's own INSIDE never changes
        new = _INSIDE if parent_inside else 0
        if (st & _INSIDE) == new:
            continue
        el.sink_state = (st & ~_INSIDE) | new
        if st & _OPEN:
            sink._open_inside += 1 if new else -1
        if not deep:
            if el.children or el.template_contents is not None:
                if not sink._unsettled:
                    # (so that the next pop, which looks at _recheck first, settles)
                    sink._recheck.append(_SETTLE)
                sink._unsettled.append(el)
            continue
        for c in el.children:
            if isinstance(c, Element):
                stack.append((c, parent_inside))
        contents = el.template_contents
        if contents is not None:
            for c in contents.children:
                if isinstance(c, Element):
                    stack.append((c, parent_inside))
