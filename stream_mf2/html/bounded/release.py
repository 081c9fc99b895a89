"""Dropping what no consumer needs: released popped elements, untracked and unlinked subtrees.

Invariant (the memory bound of the package docstring): a popped element
outside kept subtrees is detached as soon as it holds no element children
(``BoundedSink.pop`` inlines :func:`_release_popped`; :func:`_cascade` then
releases its emptied popped ancestors). A subtree handed over or dropped stops
being tracked (:func:`_untrack`), and with no element open inside it loses its
parent links too (:func:`_unlink`, checked under ``check_shortcuts``). What was
remembered inside a dropped subtree is forgotten with it (:func:`_forget_within`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.climbs import _forget_runs, _memo_changed
from stream_mf2.html.bounded.flags import _INSIDE, _OPEN, _TABLE, _TRACKED, _push_elements_below
from stream_mf2.html.bounded.reference import check_unlink
from stream_mf2.html.dom import (
    HTML_NS,
    Element,
    Node,
    ParentNode,
)
from stream_mf2.html.sink import (
    detach,
)

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


def _release_popped(sink: BoundedSink, element: Element) -> None:
    """Release a popped element outside kept subtrees without element children, then its emptied ancestors.

    (:meth:`pop` inlines this for nearly every element of a page, with a
    shortcut for the last child.)
    """
    parent = element.parent
    if parent is not None:
        detach(element)
    element.sink_state = 0
    sink.tracked -= 1
    contents = element.template_contents
    if contents is not None:
        # The contents' host link back to the released template is a cycle
        # (an untracked host counts as no host: _host, _inside).
        contents.host = None
    if parent is not None and type(parent) is Element and parent.sink_state == _TRACKED:
        _cascade(sink, parent)


def _forget_tops(sink: BoundedSink, root: Node) -> None:
    """Forget what :func:`_top_kept` and :func:`_hop` remembered for ``root``'s subtree (being removed)."""
    tops = sink._tops
    jumps = sink._jumps
    if not (tops or jumps) or type(root) is not Element:
        return
    stack: list[Element] = [root]
    while stack:
        node = stack.pop()
        tops.pop(id(node), None)
        jumps.pop(id(node), None)
        _push_elements_below(node, stack)


def _forget_within(sink: BoundedSink, root: Element) -> bool:
    """Forget the remembered runs, tables and tops (:func:`_forget_runs`) of the popped
    ``root``'s subtree, which is being detached; no other element's climb passes it.

    False if an open element lies inside (climbs from it would change): the
    caller then forgets everything.
    """
    jumps = sink._jumps
    above = sink._above
    tops = sink._tops
    closed = sink._closed
    if not (jumps or above or tops or closed):
        return True
    stack: list[Element] = [root]
    while stack:
        node = stack.pop()
        if node.sink_state & _OPEN:
            return False
        key = id(node)
        jumps.pop(key, None)
        above.pop(key, None)
        tops.pop(key, None)
        closed.pop(key, None)
        _push_elements_below(node, stack)
    return True


def _drop(sink: BoundedSink, el: Element) -> None:
    parent = el.parent
    # With nothing open inside ``el``, detaching it changes no climb from outside
    # it, so only what was remembered inside it goes: each of n items dropped from
    # template contents climbed the same n popped elements again after the last
    # drop forgot them all (quadratic).
    if not _forget_within(sink, el):
        _forget_runs(sink)
    if sink._memo and sink._open_inside:
        _memo_changed(sink, parent, False)
    detach(el)
    _untrack(sink, el)
    if parent is not None:
        _cascade(sink, parent)


def _untrack(sink: BoundedSink, root: Node, *, unlink: bool = False) -> None:
    """Stop tracking ``root``'s subtree; ``unlink``: also clear the parent links below ``root``.

    An element still open in the tree builder (a forced hand-over) keeps its
    link: the tree builder may still insert into it or look at its parent.
    """
    if unlink and not sink._open_inside and not sink._kept_open:
        _unlink(sink, root)
        return
    if sink._kept_open:
        sink._outer = None
    kept_open = sink._kept_open
    n = 0
    untracked = 0
    open_inside = 0
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        n += 1
        # Only elements hold children here (template contents are walked through their host).
        if type(node) is Element:
            children = node.children
            if children:
                stack.extend(children)
            st = node.sink_state
            if st:
                if st & _OPEN:
                    if st & _INSIDE:
                        open_inside += 1
                    if st & _TABLE:
                        sink._open_tables -= 1
                elif unlink:
                    node.parent = None
                node.sink_state = 0
                untracked += 1
            elif unlink:
                node.parent = None
            if kept_open:
                kept_open.pop(id(node), None)
            contents = node.template_contents
            if contents is not None:
                stack.extend(contents.children)
                if unlink and not st & _OPEN:
                    contents.host = None  # (as the parent links: a cycle otherwise)
        elif unlink:
            node.parent = None
    sink.tracked -= untracked
    sink._open_inside -= open_inside
    sink._kept_nodes = max(0, sink._kept_nodes - n)


def _unlink_unchecked(sink: BoundedSink, root: Node) -> None:
    """:func:`_untrack` with ``unlink`` when no element is open inside a kept subtree.

    The usual hand-over (the consumer is done with the subtree, nothing is
    forced): then no node below ``root`` keeps its parent link and no
    element is in ``_kept_open``, so the walk does only what every node needs.
    Nodes are counted through their parents' child lists. Only elements go on
    the walk's stack: a text or comment child is unlinked where it is met (half
    the nodes of a kept subtree are text).
    """
    n = 1
    untracked = 0
    stack: list[Node] = [root]
    pop = stack.pop
    push = stack.append
    while stack:
        node = pop()
        node.parent = None
        if type(node) is Element:
            children = node.children
            if children:
                n += len(children)
                for child in children:
                    if type(child) is Element:
                        push(child)
                    else:
                        child.parent = None
            if node.sink_state:
                node.sink_state = 0
                untracked += 1
            contents = node.template_contents
            if contents is not None:
                # Walked through their host; the fragment itself is not counted.
                n += len(contents.children)
                stack.extend(contents.children)
                contents.host = None  # (a cycle otherwise, as the parent links)
    sink.tracked -= untracked
    sink._kept_nodes = max(0, sink._kept_nodes - n)


def _cascade(sink: BoundedSink, parent: ParentNode) -> None:
    """Release ``parent`` and its ancestors while they are popped, outside kept subtrees and empty."""
    node: ParentNode | None = parent
    while type(node) is Element:
        # Tracked and neither open nor inside a kept subtree (kept implies inside).
        if node.sink_state != _TRACKED:
            return
        if node.name == "head" and node.namespace == HTML_NS:
            return
        if any(isinstance(c, Element) for c in node.children):
            return
        nxt = node.parent
        if sink._jumps or sink._above or sink._tops:
            # (no element children: only climbs from ``node`` itself pass it)
            _forget_within(sink, node)
        detach(node)
        node.sink_state = 0
        sink.tracked -= 1
        contents = node.template_contents
        if contents is not None:
            contents.host = None  # (as _release_popped: a cycle otherwise)
        node = nxt


def _unlink(sink: BoundedSink, root: Node) -> None:
    """:func:`_unlink_unchecked`, what it unlinks checked under the debug switch."""
    if sink._check:
        check_unlink(sink, root)
    _unlink_unchecked(sink, root)
