"""Tentative ``html``/``body``: content stored until a merged class could make the element kept.

A second ``<html>``/``<body>`` start tag merges its attributes into the
existing element, and a ``class="h-entry"`` so merged must make it a kept
root with all its content (the package docstring, "Attribute merges"). Until
the first kept element, ``max_prefix_nodes`` or its pop, such an element is
tentative and its content is stored as if kept (:func:`_start_tentative`);
then it is demoted (:func:`_demote`: released as it would have been) or, by a
merge, promoted (:func:`_promote`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.climbs import _forget_memo, _forget_runs, _memo_changed
from stream_mf2.html.bounded.flags import _INSIDE, _KEPT, _LOST, _OPEN, _TENTATIVE, _TRACKED, _WATCH
from stream_mf2.html.bounded.mutation import _placed, _settle
from stream_mf2.html.bounded.selected import _watch
from stream_mf2.html.dom import (
    HTML_NS,
    Element,
    Node,
    is_ancestor,
)

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


def _start_tentative(sink: BoundedSink, el: Element) -> None:
    """``el`` (an html or body, not kept) is tentative: store its content for now."""
    if not sink._tentative:
        sink._prefix_base = sink._kept_nodes
        sink._prefix_chars = 0
        cap = sink._kept_nodes + sink.max_prefix_nodes
        sink._node_cap = cap if cap < sink.max_kept_nodes else sink.max_kept_nodes
    sink._tentative.append(el)


def _promote(sink: BoundedSink, element: Element) -> None:
    """A merge made the tentative ``element`` kept: it holds all its content."""
    _forget_runs(sink)
    if sink._memo:
        _memo_changed(sink, element, True)
    others = [t for t in sink._tentative if t is not element]
    # An outer tentative element (the html around this body) now holds a kept
    # element: it stops being tentative. An inner one is simply inside this root.
    outer = [t for t in others if is_ancestor(t, element)]
    for t in others:
        if t not in outer:
            t.sink_state &= ~_TENTATIVE
    element.sink_state = (element.sink_state & ~_TENTATIVE) | _KEPT
    sink._kept_open[id(element)] = element
    sink._outer = None
    kept_nodes = sink._kept_nodes
    sink._tentative = outer
    _demote(sink)
    # The promoted element's content stays counted (the demotion walk skipped it).
    sink._kept_nodes = kept_nodes
    sink._node_cap = sink.max_kept_nodes


def _demote(sink: BoundedSink) -> None:
    """End the tentative state: release what was stored outside kept subtrees."""
    if sink._alone_seen:
        sink._alone_seen = {}
    if sink._unsettled:
        _settle(sink)  # (its walk reads the INSIDE flags)
    sink._outer = None
    tentative = sink._tentative
    sink._tentative = []
    sink._node_cap = sink.max_kept_nodes
    if not tentative:
        return
    _forget_runs(sink)
    if sink._memo:
        _forget_memo(sink)
    sink._kept_nodes = sink._prefix_base if sink._prefix_base < sink._kept_nodes else sink._kept_nodes
    root = tentative[0]  # outermost first; the others are inside it
    # Post-order walk: flags are cleared going down; coming back up, a popped
    # element left without element children is released, as pop() would have,
    # and text and comments (not stored outside kept subtrees) go. An open option
    # (and the open elements inside it) is watched from now on (flag _WATCH); one that
    # held more than open elements loses that content (flag _LOST, set coming back up:
    # ``mixed`` holds the elements whose subtree held more, so nested open options
    # cost one walk in all, not one each).
    mixed: set[int] = set()
    stack: list[tuple[Element, bool, bool]] = [(root, False, False)]
    while stack:
        el, back, watched = stack.pop()
        st = el.sink_state
        if not back:
            if not st:
                el.parent = None  # an option's clone (never tracked): released with its subtree
                continue
            if st & _KEPT:
                continue  # a promoted element: its subtree stays as it is
            if st & _INSIDE:
                if st & _OPEN:
                    sink._open_inside -= 1
                    if el.name == "option" and el.namespace == HTML_NS:
                        st |= _WATCH
                        _watch(sink, el)
                        watched = True
                    elif watched:
                        st |= _WATCH
                st &= ~(_INSIDE | _TENTATIVE)
                if el.namespace == HTML_NS and (el.name == "body" or el.name == "html"):
                    sink._demoted.append(el)  # a later merge that makes it kept is noted
                el.sink_state = st
            children = el.children
            contents = el.template_contents
            if contents is None:
                for c in children:
                    if type(c) is Element:
                        break
                else:
                    # No element below (most stored elements): what coming back up does,
                    # done now, without a second visit. Its children are all text or
                    # comments, dropped; with any, a watched element held more than
                    # open elements.
                    if children:
                        if st & _WATCH:
                            mixed.add(id(el))
                            if el.name == "option" and el.namespace == HTML_NS:
                                el.sink_state = st = st | _LOST
                        el.children = []
                    if el is not root and st == _TRACKED and not (el.name == "head" and el.namespace == HTML_NS):
                        el.parent = None
                        el.sink_state = 0
                        sink.tracked -= 1
                    continue
            stack.append((el, True, watched))
            for c in children:
                if type(c) is Element:
                    stack.append((c, False, watched))
            if contents is not None:
                for c in contents.children:
                    if type(c) is Element:
                        stack.append((c, False, False))
            continue
        children = el.children
        if st & _WATCH and any(
            type(c) is not Element
            or not c.sink_state & _OPEN
            or id(c) in mixed
            or (c.sink_state & _KEPT and _option_lost(c))  # (an open kept child: not walked)
            for c in children
        ):
            mixed.add(id(el))
            if el.name == "option" and el.namespace == HTML_NS:
                el.sink_state = st = st | _LOST
        for c in children:
            if type(c) is not Element or c.parent is not el:
                # (text and comments go, and the children released on the way up)
                el.children = children = [c for c in children if type(c) is Element and c.parent is el]
                break
        contents = el.template_contents
        if contents is not None:
            contents.children = [c for c in contents.children if type(c) is Element and c.parent is contents]
        if (
            el is not root
            and st == _TRACKED
            and not children
            and not (el.name == "head" and el.namespace == HTML_NS)
        ):
            el.parent = None
            el.sink_state = 0
            sink.tracked -= 1
            if contents is not None:
                contents.host = None  # (as a released template's everywhere: a cycle otherwise)


def _option_lost(option: Element) -> int:
    """``_LOST`` if ``option`` (or another element) holds more than open elements."""
    stack: list[Node] = list(option.children)
    while stack:
        node = stack.pop()
        if type(node) is not Element or not node.sink_state & _OPEN:
            return _LOST
        stack.extend(node.children)
    return 0


def _merged_root(sink: BoundedSink, element: Element, st: int) -> None:
    """A merge (``add_attrs_if_missing``) made the keep predicate say yes for ``element``,
    which was not kept (``st``: its flags before): promote it, make it a root from
    now on, or refuse (noted) when items inside it were already decided."""
    _forget_runs(sink)
    if sink._memo:
        _memo_changed(sink, element, True)
    if st & _TENTATIVE or (sink._tentative and st & _INSIDE):
        _promote(sink, element)  # all its content is there
        return
    name = element.name
    # It can become a root if no kept element was made since it was (then no item
    # inside it has its place among the items, or a streamed child's path, decided
    # yet), or if no kept element is open or held at all (then every item so far
    # was handed over, and it is a root from now on). Neither depends on chunking
    # or on stream_children.
    # (While an element is tentative no kept element exists: the open elements
    # counted inside "kept" subtrees are then only tentative content.)
    kept_open = sink._open_inside if not sink._tentative else 0
    safe = sink._marks.get(id(element)) == sink._kept_created or not (
        kept_open or sink._n_blocked or sink._ready or sink._recheck
    )
    if not safe:
        if any(r is element for r in sink._refused):
            return  # (said once per element, however many tags repeat it)
        sink._refused.append(element)
        sink.notes.append(
            f"a later <{name}> tag gave <{name}> an item root class after items inside it"
            " had been made: the class was not applied"
        )
        return
    # A tentative element inside it (the body of this html) is now simply inside a root.
    inner = [t for t in sink._tentative if is_ancestor(element, t)]
    if inner:
        for t in inner:
            t.sink_state &= ~_TENTATIVE
        sink._tentative = [t for t in sink._tentative if t not in inner]
        if not sink._tentative:
            sink._node_cap = sink.max_kept_nodes
    # A root from now on; what it held before the merge was released.
    element.sink_state = st | _KEPT | _INSIDE
    if st & _OPEN and not st & _INSIDE:
        sink._open_inside += 1
    sink._kept_open[id(element)] = element
    sink._outer = None
    for c in list(element.children):
        _placed(sink, c, element)
    _settle(sink)
    if not st & _INSIDE and any(d is element for d in sink._demoted):
        sink.notes.append(
            f"<{element.name}> became an item root through attributes of a later"
            f" <{element.name}> tag, after its earlier content was dropped"
            f" (more than max_prefix_nodes={sink.max_prefix_nodes} nodes, or a kept element, came first)"
        )
