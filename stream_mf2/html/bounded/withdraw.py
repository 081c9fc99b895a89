"""Roots a placement observer holds for a while: a clone kept with its content, and withdrawing.

A placement observer may keep an element for a while only (the WPT consumer holds
what misnested formatting tags may still move, up to a budget:
``stream_mf2/wpt/_misnest.py``). :func:`_withdraw` makes an open, outermost kept
root as if it had never been kept: what is stored below it is released as a pop
outside kept subtrees would have released it (text, comments, popped elements
without element children), its open descendants stay tracked, and a kept element
inside it (another consumer's) becomes an outermost kept root of its own
(rechecked at the next pop, as after a move out of a kept subtree).

:func:`_keep_holding` makes a new clone that the adoption agency placed holding moved
nodes (an open formatting element outside kept subtrees) a kept root with those nodes,
when the observer asks for it (the WPT consumer holds the clones around a held
furthest block): as a merge makes a root of an element with content (``tentative.py``).

Both refuse (``False``, nothing changed) what they cannot do exactly: a root that
is nested, popped, or not kept; a subtree with ``select``/``option``/
``selectedcontent``/``template`` elements (their records and watches); while an
``html``/``body`` is tentative or with the nested hand-over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stream_mf2.html.bounded.climbs import _memo_changed
from stream_mf2.html.bounded.flags import _INSIDE, _KEPT, _OPEN, _TRACKED, _inside
from stream_mf2.html.bounded.mutation import _placed, _settle, _tree_changed
from stream_mf2.html.dom import Element, Node, Text

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink

__all__ = ["_keep_holding", "_withdraw"]

_REFUSED: Final = frozenset({"select", "option", "selectedcontent", "template", "optgroup"})


def _withdrawable(root: Element) -> bool:
    stack = [root]
    while stack:
        el = stack.pop()
        if el.name in _REFUSED or el.template_contents is not None:
            return False
        for c in el.children:
            if type(c) is Element:
                stack.append(c)
    return True


def _withdraw(sink: BoundedSink, root: Element) -> bool:
    """``root`` (an open outermost kept element) is no longer kept; ``False``: refused."""
    st = root.sink_state
    parent = root.parent
    if (
        not st & _KEPT
        or not st & _OPEN
        or parent is None
        or _inside(parent)
        or sink._tentative
        or sink.on_nested is not None
        or not _withdrawable(root)
    ):
        return False
    if sink._unsettled:
        _settle(sink)
    _tree_changed(sink, None)
    if sink._memo:
        _memo_changed(sink, root, True)
    sink._kept_open.pop(id(root), None)
    root.sink_state = st & ~(_KEPT | _INSIDE)
    sink._open_inside -= 1
    uncounted = 0
    stack: list[tuple[Element, bool]] = [(root, False)]
    while stack:
        el, back = stack.pop()
        if not back:
            if el is not root:
                est = el.sink_state
                if est & _KEPT:
                    if not est & _OPEN:
                        sink._recheck.append(el)  # outermost now: decided at the next pop
                    continue
                if not est & _INSIDE:
                    continue
                est &= ~_INSIDE
                el.sink_state = est
                uncounted += 1
                if est & _OPEN:
                    sink._open_inside -= 1
            stack.append((el, True))
            for c in el.children:
                if type(c) is Element:
                    stack.append((c, False))
            continue
        kids = el.children
        keep: list[Node] = [c for c in kids if type(c) is Element and c.parent is el] if kids else kids
        if len(keep) != len(kids):
            uncounted += sum(1 for c in kids if type(c) is not Element and type(c) is not Text)
            for c in kids:
                if type(c) is not Element:
                    c.parent = None
            el.children = keep
        if el is not root and el.sink_state == _TRACKED and not keep:
            el.parent = None  # (its parent's list is filtered coming back up there)
            el.sink_state = 0
            sink.tracked -= 1
    sink._kept_nodes = sink._kept_nodes - uncounted if sink._kept_nodes > uncounted else 0
    return True


def _keep_holding(sink: BoundedSink, el: Element) -> bool:
    """The new open ``el``, outside kept subtrees, holding nodes already (a clone of the adoption
    agency), becomes a kept root with them; ``False``: refused. (``True`` too, with nothing to do,
    if it is inside a kept subtree: stored as it is until that one is handed over.)"""
    st = el.sink_state
    if st & _INSIDE:
        return True
    parent = el.parent
    if (
        not st & _OPEN
        or st & _KEPT
        or parent is None
        or _inside(parent)
        or sink._tentative
        or sink.on_nested is not None
        or not _withdrawable(el)
    ):
        return False
    _tree_changed(sink, None)
    if sink._memo:
        _memo_changed(sink, el, True)
    sink._kept_created += 1
    el.sink_state = st | _KEPT | _INSIDE
    sink._open_inside += 1
    sink._kept_open[id(el)] = el
    for c in list(el.children):
        _placed(sink, c, el)
    _settle(sink)
    return True
