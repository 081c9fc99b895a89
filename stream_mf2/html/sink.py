"""Tree sinks: where the tree builder's mutations go.

:class:`TreeSink` is the narrow interface between the tree builder (which owns
the parser state) and a sink (which owns the nodes). Two sinks implement it:

* :class:`DomSink` builds the complete DOM (:mod:`stream_mf2.html.dom`).
* :class:`~stream_mf2.html.bounded.sink.BoundedSink` (in :mod:`stream_mf2.html.bounded`) keeps
  only kept subtrees plus what the tree construction algorithm can still touch.
"""

from __future__ import annotations

from typing import Protocol

from stream_mf2.html.dom import (
    HTML_NS,
    Comment,
    Doctype,
    Document,
    DocumentFragment,
    Element,
    Node,
    ParentNode,
    Text,
    grow_text,
)
from stream_mf2.html.tokenizer import Tokenizer

__all__ = [
    "DomSink",
    "SelectedcontentCache",
    "SinkCalls",
    "TreeSink",
    "clone_children",
    "clone_option_into",
    "enabled_selectedcontent",
    "is_selected_option",
    "maybe_clone_option",
    "option_select",
    "selected_option",
    "selectedcontent_disabled",
]


class TreeSink(Protocol):
    """What a tree builder needs from a sink (an html5ever-like interface).

    ``document`` is the document node the sink builds under. Elements returned
    by :meth:`create_element` must expose ``name``, ``namespace``, ``attrs``
    and ``parent``; the tree builder reads them and never writes them (a later
    ``<html>``/``<body>`` tag adds attributes through :meth:`add_attrs_if_missing`).

    :meth:`pop` is the completion signal: it comes once the token that closed the
    element has been processed completely. It can come twice for ``head`` (the
    "after head" insertion mode pushes it back); sinks ignore the second call.

    Optional: a sink with an ``attach_tree_builder(builder)`` method gets the
    tree builder once, at construction, and may read (never change) its state
    (``frameset_ok``, ``open``, ``fragment_case``); :class:`BoundedSink` uses
    it to know whether ``<frameset>`` can still replace the body.

    Optional: a sink with an ``attach_tokenizer(tokenizer)`` method gets the
    tokenizer that feeds its tree builder once, when that tokenizer is made,
    and may read its markup positions (``markup_before``, ``markup_end``):
    :class:`DomSink` and :class:`BoundedSink` record elements' source spans
    from them.

    Optional: ``create_element_in(parent, name, namespace, attrs)`` does
    :meth:`create_element` then :meth:`append` to ``parent`` in one call and
    returns the element; the tree builder uses it for the common insertion (a
    new element as the current node's last child) when the sink has it.

    Optional: ``append_leaf(parent, name, namespace, attrs, text)`` does
    ``create_element_in``, then ``append_text`` of ``text`` to the new element
    when ``text`` is not empty, then ``pop`` of it: a leaf element that holds
    only text, in one call (the tree builder's ``start_text_end``, and void
    elements inserted at the current node).
    """

    document: Document

    def create_element(self, name: str, namespace: str, attrs: dict[str, str]) -> Element:
        """A new element, not yet inserted anywhere."""
        ...

    def create_comment(self, data: str) -> Comment:
        """A new comment node, not yet inserted anywhere."""
        ...

    def append(self, parent: ParentNode, node: Node) -> None:
        """Append ``node`` (new, or moved from its current parent) to ``parent``."""
        ...

    def append_text(self, parent: ParentNode, data: str) -> None:
        """Append text to ``parent``, merging with a last Text child."""
        ...

    def insert_before(self, parent: ParentNode, node: Node, ref: Node) -> None:
        """Insert ``node`` (new or moved) into ``parent`` just before ``ref``."""
        ...

    def insert_text_before(self, parent: ParentNode, data: str, ref: Node) -> None:
        """Insert text before ``ref``, merging with a Text node just before it."""
        ...

    def reparent_children(self, old: ParentNode, new: ParentNode) -> None:
        """Move every child of ``old`` to the end of ``new``, in order."""
        ...

    def remove(self, node: Node) -> None:
        """Detach ``node`` from its parent."""
        ...

    def append_doctype(self, name: str, public_id: str, system_id: str) -> None:
        """Append a DOCTYPE node to the document."""
        ...

    def set_quirks_mode(self, mode: str) -> None:
        """``"no-quirks"``, ``"quirks"`` or ``"limited-quirks"``."""
        ...

    def add_attrs_if_missing(self, element: Element, attrs: dict[str, str]) -> None:
        """Add the attributes ``element`` does not have yet (``<html>``/``<body>`` merging)."""
        ...

    def template_contents(self, element: Element) -> DocumentFragment:
        """The template contents fragment of an HTML ``template`` element."""
        ...

    def pop(self, element: Element) -> None:
        """``element`` left the stack of open elements (after the current token)."""
        ...


class SinkCalls:
    """The four per-element sink calls of the tree builder, as methods of one base class.

    :class:`DomSink` and :class:`BoundedSink` derive from it, so the tree builder
    calls them through a base-class reference: a compiled build makes such a call
    a direct native call instead of a Python-level call of a bound method (which
    also parses its arguments anew each time). Any other :class:`TreeSink` is
    reached through a forwarding subclass the tree builder makes. The meaning of
    each method is that of the :class:`TreeSink` method of the same name.
    """

    __slots__ = ()

    def create_element_in(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str]) -> Element:
        """``create_element`` then ``append`` to ``parent``; returns the element."""
        raise NotImplementedError

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        """``create_element_in``, ``append_text`` of ``text`` (if any), then ``pop``."""
        raise NotImplementedError

    def append_text(self, parent: ParentNode, data: str) -> None:
        """Append text to ``parent``, merging with a last Text child."""
        raise NotImplementedError

    def pop(self, element: Element) -> None:
        """``element`` left the stack of open elements."""
        raise NotImplementedError


# ---------------------------------------------------------------- node helpers


def detach(node: Node) -> None:
    """Remove ``node`` from its parent's children, if it has a parent."""
    parent = node.parent
    if parent is None:
        return
    children = parent.children
    # Moved nodes are nearly always the last child or close to it; released ones
    # (items handed over in document order) the first.
    if children and children[0] is node:
        del children[0]
    else:
        for i in range(len(children) - 1, -1, -1):
            if children[i] is node:
                del children[i]
                break
    node.parent = None


def append_child(parent: ParentNode, node: Node) -> None:
    if node.parent is not None:
        detach(node)
    node.parent = parent
    parent.children.append(node)


def append_text_child(parent: ParentNode, data: str) -> None:
    children = parent.children
    if children:
        last = children[-1]
        if type(last) is Text:
            grow_text(last, data)
            return
    t = Text(data)
    t.parent = parent
    children.append(t)


def insert_child_before(parent: ParentNode, node: Node, ref: Node) -> None:
    if node.parent is not None:
        detach(node)
    children = parent.children
    i = _index(children, ref)
    node.parent = parent
    children.insert(i, node)


def insert_text_child_before(parent: ParentNode, data: str, ref: Node) -> None:
    children = parent.children
    i = _index(children, ref)
    if i > 0:
        prev = children[i - 1]
        if type(prev) is Text:
            grow_text(prev, data)
            return
    t = Text(data)
    t.parent = parent
    children.insert(i, t)


def _index(children: list[Node], ref: Node) -> int:
    for i in range(len(children) - 1, -1, -1):
        if children[i] is ref:
            return i
    raise ValueError("reference node is not a child of the parent")


def reparent_all(old: ParentNode, new: ParentNode) -> None:
    moved = old.children
    old.children = []
    for c in moved:
        c.parent = new
    new.children.extend(moved)


def clone_children(source: ParentNode, target: ParentNode) -> None:
    """Append deep clones of ``source``'s children to ``target`` (no recursion).

    The clones are made first and appended after, as the DOM's "clone" then
    "append" do: ``target`` may lie inside ``source``, and cloning into it
    directly would copy the copies without end.
    """
    holder = Element("#clones", HTML_NS, {})
    _clone_into(source, holder)
    reparent_all(holder, target)


def _clone_into(source: ParentNode, target: ParentNode) -> None:
    stack: list[tuple[ParentNode, ParentNode]] = [(source, target)]
    while stack:
        src, dst = stack.pop()
        for child in src.children:
            if type(child) is Text:
                append_text_child(dst, child.data)
            elif isinstance(child, Element):
                el = Element(child.name, child.namespace, dict(child.attrs))
                el.parent = dst
                dst.children.append(el)
                if child.children:
                    stack.append((child, el))
            elif isinstance(child, Comment):
                c = Comment(child.data)
                c.parent = dst
                dst.children.append(c)


def option_select(option: Element) -> Element | None:
    """HTML "option element nearest ancestor select": the ``select`` whose options ``option`` is among.

    The nearest HTML ``select`` ancestor, unless a ``datalist``, ``option`` or
    ``hr`` comes first (then None).
    """
    node: ParentNode | None = option.parent
    while isinstance(node, Element):
        if node.namespace == HTML_NS:
            if node.name == "select":
                return node
            if node.name in ("datalist", "option", "hr"):
                return None
        node = node.parent
    return None


class SelectedcontentCache:
    """What the selectedcontent look-ups found, for a sink to reuse while its tree only grows.

    ``first``: id(select) -> (select, its first selectedcontent descendant or
    None); ``disabled``: id(selectedcontent) -> (it, its disabled state). Without
    them n nested selects would each walk all the later ones at every option's
    end. The sink calls :meth:`clear` when a node moves or is removed or inserted
    before another, and :meth:`new_selectedcontent` when one is made; a clone
    clears it too (:func:`maybe_clone_option`).
    """

    __slots__ = ("disabled", "first")

    def __init__(self) -> None:
        self.first: dict[int, tuple[Element, Element | None]] = {}
        self.disabled: dict[int, tuple[Element, bool]] = {}

    def clear(self) -> None:
        """The tree changed other than by growing at its open elements: forget everything."""
        if self.first:
            self.first = {}
        if self.disabled:
            self.disabled = {}

    def new_selectedcontent(self) -> None:
        """A selectedcontent was made: a select that held none may hold one now."""
        if self.first:
            self.first = {}


def first_selectedcontent(select: Element, cache: SelectedcontentCache | None = None) -> Element | None:
    """The first HTML ``selectedcontent`` descendant of ``select`` in tree order (inside nested selects too).

    With a ``cache``, the answers for ``select`` and the selects inside it are
    remembered (one walk of each, however many times it is asked).
    """
    memo = cache.first if cache is not None else None
    if memo is not None:
        hit = memo.get(id(select))
        if hit is not None and hit[0] is select:
            return hit[1]
    # The selects the walk is inside of (``select`` first): the first selectedcontent found
    # is the first of each; one whose end marker (None) comes first holds none.
    inside: list[Element] = [select]
    stack: list[Node | None] = list(reversed(select.children))
    found: Element | None = None
    while stack:
        n = stack.pop()
        if n is None:
            done = inside.pop()
            if memo is not None:
                memo[id(done)] = (done, None)
            continue
        if isinstance(n, Element):
            if n.namespace == HTML_NS:
                if n.name == "selectedcontent":
                    found = n
                    break
                if n.name == "select" and memo is not None:
                    hit = memo.get(id(n))
                    if hit is not None and hit[0] is n:
                        if hit[1] is not None:
                            found = hit[1]
                            break
                        continue
                    inside.append(n)
                    stack.append(None)
            if n.children:
                stack.extend(reversed(n.children))
    if memo is not None:
        for el in inside:
            memo[id(el)] = (el, found)
    return found


def selectedcontent_disabled(selectedcontent: Element, cache: SelectedcontentCache | None = None) -> bool:
    """The HTML ``selectedcontent`` *disabled* state, as its post-connection steps set it.

    Disabled if an ancestor is an ``option`` or a ``selectedcontent``, or if more
    than one ``select`` lies above it. The steps run whenever the element is
    inserted into the document (moves included), so in the document the state
    always follows its ancestors; this reads them. Inside template contents,
    which are not connected, the spec leaves the state as it was (false for a
    new element); the same rule applies there too, so that no clone target lies
    inside an option there either (a clone would copy the earlier clones:
    exponential work).
    """
    if cache is not None:
        hit = cache.disabled.get(id(selectedcontent))
        if hit is not None and hit[0] is selectedcontent:
            return hit[1]
    disabled = False
    seen_select = False
    node: ParentNode | None = selectedcontent.parent
    while isinstance(node, Element):
        if node.namespace == HTML_NS:
            name = node.name
            if name == "option" or name == "selectedcontent" or (name == "select" and seen_select):
                disabled = True
                break
            if name == "select":
                seen_select = True
        node = node.parent
    if cache is not None:
        cache.disabled[id(selectedcontent)] = (selectedcontent, disabled)
    return disabled


def enabled_selectedcontent(select: Element, cache: SelectedcontentCache | None = None) -> Element | None:
    """HTML "get a select's enabled selectedcontent".

    None if ``select`` has ``multiple``, has no ``selectedcontent`` descendant,
    or if its first one in tree order is disabled (a later one is not looked at).
    """
    if "multiple" in select.attrs:
        return None
    selectedcontent = first_selectedcontent(select, cache)
    if selectedcontent is None or selectedcontent_disabled(selectedcontent, cache):
        return None
    return selectedcontent


def _options(nodes: list[Node]) -> list[Element]:
    """The options among ``nodes`` and their descendants, in tree order (not inside nested selects)."""
    out: list[Element] = []
    stack: list[Node] = list(reversed(nodes))
    while stack:
        n = stack.pop()
        if isinstance(n, Element):
            if n.namespace == HTML_NS:
                if n.name == "option":
                    out.append(n)
                elif n.name == "select":
                    continue
            if n.children:
                stack.extend(reversed(n.children))
    return out


def _first_option(select: Element) -> Element | None:
    stack: list[Node] = list(reversed(select.children))
    while stack:
        n = stack.pop()
        if isinstance(n, Element):
            if n.namespace == HTML_NS:
                if n.name == "option":
                    return n
                if n.name == "select":
                    continue
            if n.children:
                stack.extend(reversed(n.children))
    return None


def selected_option(select: Element) -> Element | None:
    """The select's selected option: the last of its options with ``selected``, else the first.

    Its options are the ``option`` descendants outside nested selects.
    """
    options = _options(select.children)
    chosen = [o for o in options if "selected" in o.attrs]
    return chosen[-1] if chosen else options[0] if options else None


def is_selected_option(select: Element, option: Element) -> bool:
    """``selected_option(select) is option``, looking at no more than it needs.

    An option with ``selected`` is the selected one if no option after it has
    it (what follows the option ending now is usually little); one without, if
    it is the first and none has it (the whole walk, once per select).
    """
    if "selected" in option.attrs:
        after: list[Node] = list(option.children)
        node: Element = option
        while node is not select:
            parent = node.parent
            if not isinstance(parent, Element):
                return False  # (not inside select)
            siblings = parent.children
            for i in range(len(siblings) - 1, -1, -1):
                if siblings[i] is node:
                    after.extend(siblings[i + 1 :])
                    break
            node = parent
        return not any("selected" in o.attrs for o in _options(after))
    if _first_option(select) is not option:
        return False
    return not any("selected" in o.attrs for o in _options(select.children))


def maybe_clone_option(option: Element, cache: SelectedcontentCache | None = None) -> bool:
    """HTML "maybe clone an option into selectedcontent" (run when an option is popped).

    The option's nearest ancestor ``select`` (:func:`option_select`) decides: if
    ``option`` is its selected one and it has an enabled ``selectedcontent``
    (:func:`enabled_selectedcontent`), that element's children are replaced by
    clones of the option's (and True is returned). An enabled selectedcontent
    never lies inside an option, so the clones never hold earlier clones.
    ``cache``: see :class:`SelectedcontentCache` (cleared here after a clone).
    """
    select = option_select(option)
    if select is None or "multiple" in select.attrs or not is_selected_option(select, option):
        return False
    target = enabled_selectedcontent(select, cache)
    if target is None:
        return False
    clone_option_into(option, target)
    if cache is not None:
        cache.clear()
    return True


def clone_option_into(option: Element, selectedcontent: Element) -> None:
    """HTML "clone an option into a selectedcontent": replace its children by clones of the option's.

    The option's children are cloned first, then replace all of selectedcontent's
    children (the option itself may lie inside the selectedcontent: it is removed
    with them, and its clones are those of its children as they were).
    """
    holder = Element("#clones", HTML_NS, {})
    _clone_into(option, holder)
    for c in selectedcontent.children:
        c.parent = None
    selectedcontent.children = []
    reparent_all(holder, selectedcontent)


# ---------------------------------------------------------------- DomSink


class DomSink(SinkCalls):
    """A sink that builds the complete DOM under :attr:`document`.

    Under a tokenizer (:meth:`attach_tokenizer`) every element gets its source
    span (``Element.source_start``/``source_end``).
    """

    def __init__(self) -> None:
        self.document = Document()
        self._selectedcontent = False
        self._positions: Tokenizer | None = None
        self._found = SelectedcontentCache()

    def attach_tokenizer(self, tokenizer: Tokenizer) -> None:
        """Called with the tokenizer feeding the tree builder, once, when that tokenizer is
        made (see :class:`TreeSink`): record every element's source span from its markup
        positions."""
        self._positions = tokenizer

    def create_element(self, name: str, namespace: str, attrs: dict[str, str]) -> Element:
        el = Element(name, namespace, attrs)
        if self._positions is not None:
            el.source_start = self._positions.markup_before
        if namespace == HTML_NS:
            if name == "template":
                el.template_contents = DocumentFragment()
            elif name == "selectedcontent":
                self._selectedcontent = True
                self._found.new_selectedcontent()
        return el

    def create_comment(self, data: str) -> Comment:
        return Comment(data)

    def create_element_in(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str]) -> Element:
        """:meth:`create_element`, then append the element to ``parent``."""
        el = self.create_element(name, namespace, attrs)
        el.parent = parent
        parent.children.append(el)
        return el

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        """:meth:`create_element_in`, :meth:`append_text` of ``text`` (if any), :meth:`pop`."""
        el = self.create_element_in(parent, name, namespace, attrs)
        if text:
            append_text_child(el, text)
        self.pop(el)

    def append(self, parent: ParentNode, node: Node) -> None:
        if node.parent is not None:
            self._found.clear()  # (a move)
        append_child(parent, node)

    def append_text(self, parent: ParentNode, data: str) -> None:
        append_text_child(parent, data)

    def insert_before(self, parent: ParentNode, node: Node, ref: Node) -> None:
        self._found.clear()  # (foster parenting: before nodes already there)
        insert_child_before(parent, node, ref)

    def insert_text_before(self, parent: ParentNode, data: str, ref: Node) -> None:
        insert_text_child_before(parent, data, ref)

    def reparent_children(self, old: ParentNode, new: ParentNode) -> None:
        self._found.clear()
        reparent_all(old, new)

    def remove(self, node: Node) -> None:
        self._found.clear()
        detach(node)

    def append_doctype(self, name: str, public_id: str, system_id: str) -> None:
        append_child(self.document, Doctype(name, public_id, system_id))

    def set_quirks_mode(self, mode: str) -> None:
        self.document.mode = mode

    def add_attrs_if_missing(self, element: Element, attrs: dict[str, str]) -> None:
        for k, v in attrs.items():
            if k not in element.attrs:
                element.attrs[k] = v

    def template_contents(self, element: Element) -> DocumentFragment:
        contents = element.template_contents
        if contents is None:
            contents = element.template_contents = DocumentFragment()
        return contents

    def pop(self, element: Element) -> None:
        if self._positions is not None and element.source_end < 0:  # (head can be popped twice: the first counts)
            element.source_end = self._positions.markup_end
        if self._selectedcontent and element.name == "option" and element.namespace == HTML_NS:
            maybe_clone_option(element, self._found)

