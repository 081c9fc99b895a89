"""TODO docstring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.climbs import _forget_runs
from stream_mf2.html.bounded.flags import _INSIDE, _KEPT, _OPEN, _SETTLE, _inside
from stream_mf2.html.dom import (
    Element,
    Node,
    ParentNode,
)

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


def _placed(sink: BoundedSink, node: Node, parent: ParentNode) -> None:
    """``node`` was (re)inserted under ``parent``: refresh INSIDE flags below it.

    Only ``node``'s own flag is refreshed at once; if it changed, its
    descendants' are refreshed by :meth:`_settle`, which the sink calls once
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
    _forget_runs(sink)
    sink._moves += 1
    sink._epoch += 1
    if sink._alone_seen:
        sink._alone_seen = {}
    sink._outer = None
    _refresh(sink, node, _inside(parent), False)


def _adopted(sink: BoundedSink) -> None:
    """The element the furthest block's children went into was appended to it (adoption
    agency algorithm, step 17): the moves of this round are done."""
    sink._adopter = None
    _settle(sink)


def _settle(sink: BoundedSink) -> None:
    """Refresh the INSIDE flags below the elements :meth:`_placed` left."""
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
