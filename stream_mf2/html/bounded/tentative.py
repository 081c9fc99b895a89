"""TODO docstring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.climbs import _forget_memo, _forget_runs, _memo_changed
from stream_mf2.html.bounded.flags import _INSIDE, _KEPT, _LOST, _OPEN, _TENTATIVE, _TRACKED, _WATCH
from stream_mf2.html.bounded.mutation import _settle
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
            stack.append((el, True, watched))
            for c in el.children:
                if type(c) is Element:
                    stack.append((c, False, watched))
            contents = el.template_contents
            if contents is not None:
                for c in contents.children:
                    if type(c) is Element:
                        stack.append((c, False, False))
            continue
        if st & _WATCH and any(
            type(c) is not Element
            or not c.sink_state & _OPEN
            or id(c) in mixed
            or (c.sink_state & _KEPT and _option_lost(c))  # (an open kept child: not walked)
            for c in el.children
        ):
            mixed.add(id(el))
            if el.name == "option" and el.namespace == HTML_NS:
                el.sink_state = st = st | _LOST
        el.children = [c for c in el.children if type(c) is Element and c.parent is el]
        contents = el.template_contents
        if contents is not None:
            contents.children = [c for c in contents.children if type(c) is Element and c.parent is contents]
        if (
            el is not root
            and st == _TRACKED
            and not el.children
            and not (el.name == "head" and el.namespace == HTML_NS)
        ):
            el.parent = None
            el.sink_state = 0
            sink.tracked -= 1


def _option_lost(option: Element) -> int:
    """``_LOST`` if ``option`` (or another element) holds more than open elements."""
    stack: list[Node] = list(option.children)
    while stack:
        node = stack.pop()
        if type(node) is not Element or not node.sink_state & _OPEN:
            return _LOST
        stack.extend(node.children)
    return 0
