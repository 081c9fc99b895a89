"""Microformat items from a DOM subtree, without recursion.

``<template>`` elements are skipped whole, like their (inert) contents.

One explicit stack walks an item's subtree. Entering an element classifies
it against the innermost open item (its *frame*): a nested root opens a new
frame; property classes add values to the current frame; everything else is
just descended into. Leaving a frame finishes the item (implied properties,
backcompat fix-ups) and hands it to the parent frame as a property value or
a child, or returns it as a top-level item. Each element is entered once.
Property values read text through one :class:`~.text.TextIndex` per top-level
item, shared by the items nested in it (built by one walk), so text costs the length of the values; e-* ``html``
nested inside another e-* value is bounded by
``Options.max_nested_html_chars``. The work is linear in the input plus the
output. The output of one item is bounded by ``Options.max_item_chars``: each
frame sums the sizes of its values as they are added, a nested item's finished
size once per property it is placed by; past the budget the frame is *over*
(later values emptied and not computed, nested items placed reduced), and an
over nested item makes its parent over.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, Final

from stream_mf2.html.dom import HTML_NS, Element, Node, ParentNode, Text

from . import backcompat
from .backcompat_data import ROOT_CLASSES
from .classes import (
    CLASS_INFO,
    PropertyPrefix,
    class_info,
    class_info_get,
    class_list,
    classify,
    parse_property_class,
    property_classes,
    root_types,
)
from .context import Mf2Context
from .dates import date_of
from .implied import implied_properties
from .include import INCLUDE_CLASS, expand_includes, include_references, is_marker_like
from .options import DEFAULT_MAX_ITEM_CHARS
from .properties import P_FROM_ATTRIBUTE, dt_value, e_value_scan, p_value, u_value
from .rels import add_rel_link, collect_rels_and_markers, is_rel_link
from .text import ASCII_WS, TextIndex
from .urls import resolve

Item = dict[str, Any]

# Elements whose rel attribute makes a link (HTML: a, area, link): backcompat maps rel keywords on them;
# also the elements whose u-* value is their href.
_REL_ELEMENTS: Final = frozenset({"a", "area", "link"})
# What an element that is neither a root nor a property classifies as.
_NOTHING: Final[tuple[tuple[str, ...], bool, tuple[tuple[PropertyPrefix, str], ...]]] = ((), False, ())
# no implied (name, photo, url) added (see _Walker._finish)
_NONE_IMPLIED: Final[tuple[object, object, object]] = (None, None, None)


class _LeaveE:
    """Stack marker: the walk leaves an e-* property element's subtree."""

    __slots__ = ()


_LEAVE_E = _LeaveE()


class _LeaveP:
    """Stack marker: the walk leaves a p-*, u-* or dt-* property element's subtree."""

    __slots__ = ()


_LEAVE_P = _LeaveP()


class _Frame:
    """An item being parsed."""

    __slots__ = (
        "attach",
        "backcompat",
        "child_spans",
        "children",
        "children_size",
        "e_attached",
        "element",
        "emptied",
        "first_p_name",
        "first_u_url",
        "implied_date",
        "in_props",
        "lang",
        "limit",
        "nested",
        "over",
        "prefixes",
        "props",
        "reduced",
        "size",
        "span",
        "total",
        "types",
    )

    def __init__(
        self,
        element: Element,
        types: list[str],
        is_backcompat: bool,
        attach: Sequence[tuple[PropertyPrefix, str]],
        limit: int = DEFAULT_MAX_ITEM_CHARS,
        span: int = -1,
    ) -> None:
        self.element = element
        self.types = types
        self.backcompat = is_backcompat
        # the property classes by which this item is a value of its parent item
        self.attach = attach
        self.props: dict[str, list[Any]] = {}
        self.children: list[Item] = []
        self.prefixes: set[str] = set()  # property prefixes seen (for implied properties)
        self.nested = False  # holds a nested microformat
        self.implied_date: str | None = None  # date for a later time-only dt-* value
        # The value a p-* / u-* property of the parent takes from this item:
        # its first p-name / u-url (implied ones included), not a name or url
        # given by another prefix.
        self.first_p_name: Any = None
        self.first_u_url: Any = None
        self.lang: str | None = None  # set when the lang option is on
        self.e_attached = False  # an e-* property of its parent (counts in _Walker.e_depth)
        # The output budget (Options.max_item_chars), summed bottom-up: ``size`` counts the
        # properties (nested items placed as values at every place), ``children_size`` the
        # children (each an item with its own budget), ``total`` the finished item.
        self.limit = limit
        self.size = 0
        self.children_size = 0
        self.total = 0
        self.over = False  # a value did not fit: this and later values are emptied
        self.emptied = 0  # values emptied (for the note)
        # property elements of this item the walk is inside: a child item found there is
        # repeated by their values (text, html), so it counts in this item's budget
        self.in_props = 0
        # The output allowance (Options.max_output_ratio): the element's source span (-1:
        # none recorded, no allowance) and the spans of the children that are units of
        # their own (items in ``children`` outside property elements), summed as they come.
        self.span = span
        self.child_spans = 0
        self.reduced = False  # past its allowance: every value emptied (_Walker._reduce)

    def add(self, prefix: PropertyPrefix, name: str, value: Any) -> None:
        """Add a property value, or its emptied form once the item is over its budget."""
        size = len(value) + 4 if type(value) is str else _value_size(value)
        if self.over or self.size + size > self.limit:
            self.over = True
            self.emptied += 1
            value = _emptied(prefix)
            size = 24
        # _put, inlined: this is called for most values
        values = self.props.get(name)
        if values is None:
            self.props[name] = [value]
            size += len(name) + 6
        else:
            values.append(value)
        self.size += size
        if name == "name":
            if prefix == "p" and self.first_p_name is None:
                self.first_p_name = value
        elif name == "url" and prefix == "u" and self.first_u_url is None:
            self.first_u_url = value

    def add_entry(self, prefix: PropertyPrefix, name: str, entry: Item, item_total: int, whole: bool) -> None:
        """Add a nested item placed as a property value (``entry``: its value and the item).

        ``item_total``: the finished item's size; ``whole``: it is not over its own budget.
        A nested item that does not fit (or is over) is placed reduced.
        """
        size = item_total + _value_size(entry.get("value")) + 12
        if prefix == "e":
            size += len(entry.get("html", ""))
        if not whole or self.over or self.size + size > self.limit:
            self.over = True
            self.emptied += 1
            entry = _reduced(prefix, entry)
            size = 48 + len(entry["type"]) * 16
        self._put(prefix, name, entry, size)

    def add_child(self, item: Item, item_total: int, whole: bool, span: int = -1) -> None:
        """Add a nested item that is no property value: an item with its own budget, unless
        it lies inside a property element of this item (whose value repeats it): then it
        counts in this item's budget, and is reduced when it does not fit (or is over).
        ``span``: the source span the child stands for (its own allowance covers it)."""
        if self.in_props:
            if not whole or self.over or self.size + item_total > self.limit:
                self.over = True
                self.emptied += 1
                item = {"type": item.get("type", []), "properties": {}}
                item_total = 48 + len(item["type"]) * 16
            self.size += item_total
        else:
            self.children_size += item_total
            if span > 0:
                self.child_spans += span
        self.children.append(item)

    def _put(self, prefix: PropertyPrefix, name: str, value: Any, size: int) -> None:
        values = self.props.get(name)
        if values is None:
            self.props[name] = [value]
            size += len(name) + 6
        else:
            values.append(value)
        self.size += size
        if name == "name":
            if prefix == "p" and self.first_p_name is None:
                self.first_p_name = value
        elif name == "url" and prefix == "u" and self.first_u_url is None:
            self.first_u_url = value


def _value_size(value: Any) -> int:
    """About the JSON characters of a property value (a string, or a flat dict such as an e-* value)."""
    if type(value) is str:
        return len(value) + 4
    if isinstance(value, dict):
        size = 2
        for key, part in value.items():
            size += len(key) + (len(part) if type(part) is str else 16) + 6
        return size
    return 8


def _emptied(prefix: PropertyPrefix) -> Any:
    """What a property value becomes past the output budget."""
    if prefix == "e":
        return {"html": "", "value": ""}
    return ""


def _reduced(prefix: PropertyPrefix, entry: Item) -> Item:
    """What a nested item placed as a property value becomes past the output budget:
    its type, with no properties, and an emptied value."""
    out: Item = {"html": "", "value": ""} if prefix == "e" else {"value": ""}
    out["type"] = entry.get("type", [])
    out["properties"] = {}
    return out


def element_root_types(
    element: Element, classes: tuple[str, ...], ctx: Mf2Context, parent: _Frame | None
) -> tuple[list[str], bool]:
    """The item types ``element`` roots and whether it is a backcompat root.

    mf2 root classes win over classic ones; inside a backcompat root the
    vocabulary may also imply a root (an hReview ``item``).
    """
    ignored = ctx.options.ignored_roots
    mf2 = root_types(classes, ignored)
    if mf2:
        return mf2, False
    if ignored and any(c in ignored for c in classes):
        # a filtered utility class must not hide a classic root on the same element
        classes = tuple(c for c in classes if c not in ignored)
    if parent is not None and parent.backcompat:
        classic = backcompat.nested_root_types(element, classes, parent.types)
    elif _has_classic_root(classes):  # cheap pre-check: most elements have none
        classic = backcompat.root_types(classes)
    else:
        classic = []
    return classic, bool(classic)


def _plain_root_types(classes: tuple[str, ...], mf2: tuple[str, ...], classic: bool) -> tuple[list[str], bool]:
    """:func:`element_root_types` from a class value's cached :data:`ClassInfo`, where no
    root names are ignored and no classic item encloses the element."""
    if mf2:
        return list(mf2), False
    types = backcompat.root_types(classes) if classic else []
    return types, bool(types)


@lru_cache(maxsize=16384)
def _has_classic_root(classes: tuple[str, ...]) -> bool:
    return any(c in ROOT_CLASSES for c in classes)


@lru_cache(maxsize=4096)
def _backcompat_classify(
    classes: tuple[str, ...], parent_types: tuple[str, ...], rel: str | None
) -> tuple[tuple[str, ...], bool, tuple[tuple[PropertyPrefix, str], ...]] | None:
    """:func:`element_root_types` and :func:`_scope_properties` of an element inside a
    backcompat item of ``parent_types``, no root classes ignored: ``(root types,
    is a backcompat root, property classes)``. ``rel``: the element's ``rel`` if it
    is an HTML link element, else ``None``. ``None`` when the answer depends on
    more than these. Cached: classic pages repeat the same few class lists.
    """
    names = backcompat.plain_property_classes(classes, parent_types, rel)
    if names is None:
        return None
    props: list[tuple[PropertyPrefix, str]] = []
    for name in names:
        parsed = parse_property_class(name)
        if parsed is not None:
            props.append(parsed)
    mf2 = root_types(classes)
    if mf2:
        return tuple(mf2), False, tuple(props)
    classic = backcompat.nested_root_types_of(classes, parent_types)
    return tuple(classic), bool(classic), tuple(props)


def is_root(element: Element, ctx: Mf2Context) -> bool:
    """Does ``element`` have an mf2 root class or a classic (mf1) root class?"""
    raw = element.attrs.get("class")
    if not raw:
        return False
    classes, mf2, classic, _props = class_info_get(raw) or class_info(raw)
    if not ctx.options.ignored_roots:
        # without an mf2 root class, any classic root class makes a backcompat root
        return bool(mf2) or classic
    return bool(classes) and bool(element_root_types(element, classes, ctx, None)[0])


def _scope_properties(
    element: Element, classes: tuple[str, ...], frame: _Frame
) -> Sequence[tuple[PropertyPrefix, str]]:
    """The property classes of ``element`` that count inside ``frame``'s item."""
    if frame.backcompat:
        out: list[tuple[PropertyPrefix, str]] = []
        for name in backcompat.property_classes(element, classes, frame.types):
            parsed = parse_property_class(name)
            if parsed is not None:
                out.append(parsed)
        return out
    return property_classes(classes)


def element_lang(
    element: Element, ctx: Mf2Context, stop: Element | None = None, stop_lang: str | None = None
) -> str | None:
    """The language of ``element``: its own or nearest ancestor ``lang``, else the document default.

    When the walk up reaches ``stop`` (an ancestor whose language is already
    known to be ``stop_lang``), it ends there, so nested items cost time in
    proportion to their distance from the enclosing item, not their depth.
    """
    node: Node | None = element
    while node is not None:
        if node is stop:
            return stop_lang
        if isinstance(node, Element):
            lang = node.attrs.get("lang")
            if lang is not None:
                return lang or None
        node = node.parent
    return ctx.default_lang


def own_lang(element: Element, ctx: Mf2Context) -> str | None:
    """:func:`element_lang` for an item parsed on its own (top-level, folded ahead,
    the meta-item), which also counts it by language in ``ctx.lang_through_body``
    and ``ctx.lang_unset`` when it inherited the language from the document level."""
    node: Node | None = element
    through_body = False
    while node is not None:
        if isinstance(node, Element):
            lang = node.attrs.get("lang")
            if lang is not None:
                found = lang or None
                if through_body:
                    counts = ctx.lang_through_body
                    counts[found] = counts.get(found, 0) + 1
                return found
            if node.name == "body" and node.namespace == HTML_NS:
                through_body = True
        node = node.parent
    found = ctx.default_lang
    if through_body:
        counts = ctx.lang_through_body
        counts[found] = counts.get(found, 0) + 1
    counts = ctx.lang_unset
    counts[found] = counts.get(found, 0) + 1
    return found


class _Walker:
    """Parses one outermost item; see the module docstring."""

    __slots__ = (
        "ctx",
        "e_depth",
        "emptied",
        "frames",
        "html_left",
        "html_skipped",
        "markers",
        "reduced",
        "rels",
        "scope",
        "spec_text",
    )

    def __init__(self, ctx: Mf2Context, rels: bool = False) -> None:
        self.ctx = ctx
        # Also add the rel links met to ``ctx.rels`` and note include markers
        # (:func:`items_and_rels`): the kept subtree is then walked once, not twice.
        self.rels = rels
        self.markers = False
        self.spec_text = ctx.options.text != "normalized"
        self.frames: list[_Frame] = []
        # e-* values (property elements and e-* nested roots) the walk is inside:
        # an e-* value computed while this is positive repeats enclosing html.
        self.e_depth = 0
        self.html_left = ctx.options.max_nested_html_chars
        self.html_skipped = 0
        self.emptied = 0  # values emptied past Options.max_item_chars (summed as frames finish)
        self.reduced = 0  # items reduced past their allowance (Options.max_output_ratio)
        # The item whose properties bound the value-class pattern search, when
        # it is not the innermost open one: a nested root's own value is read
        # from markup that belongs to the nested item.
        self.scope: _Frame | None = None

    # -- scope predicates handed to the value-class pattern and implied rules --

    # Passed as ``self._boundary`` per value, not kept in an attribute: a bound method
    # held by the walker would make every walker a reference cycle, freed only by the
    # garbage collector (which then runs more often on item-heavy pages).
    def _boundary(self, element: Element, classes: tuple[str, ...]) -> bool:
        frame = self.scope if self.scope is not None else self.frames[-1]
        if not frame.backcompat and not self.ctx.options.ignored_roots:
            # the common case: a root or property class of any kind ends the search
            mf2, classic, props = classify(classes)
            return bool(mf2 or classic or props)
        if element_root_types(element, classes, self.ctx, frame)[0]:
            return True
        return bool(_scope_properties(element, classes, frame))

    def _is_root(self, element: Element) -> bool:
        return is_root(element, self.ctx)

    # -- values --

    def _value(
        self, prefix: PropertyPrefix, name: str, element: Element, classes: tuple[str, ...], frame: _Frame
    ) -> Any:
        if frame.backcompat:
            override = backcompat.property_value(element, classes, f"{prefix}-{name}", frame.types)
            if override is not None:
                return override
        if prefix == "p":
            children = element.children
            if (
                self.spec_text
                and len(children) == 1
                and type(children[0]) is Text
                and element.name not in P_FROM_ATTRIBUTE
            ):
                # what p_value gives for a text-only element (most p-* properties) in the
                # "spec" text mode, without its calls: the text, trimmed
                return children[0].data.strip(ASCII_WS)
            return p_value(element, self.ctx, self._boundary)
        if prefix == "u":
            href = element.attrs.get("href")
            if href is not None and element.name in _REL_ELEMENTS:
                return resolve(href, self.ctx.base_url)  # u_value's first rule: a link's href
            return u_value(element, self.ctx, self._boundary)
        if prefix == "dt":
            value = dt_value(element, self.ctx, self._boundary, frame.implied_date)
            date = date_of(value)
            if date is not None:
                frame.implied_date = date
            return value
        return self._e_value(element, frame)[0]

    def _e_value(self, element: Element, frame: _Frame) -> tuple[dict[str, Any], bool]:
        """An e-* value, and whether the subtree may matter to the walk (see :func:`e_value_scan`)."""
        lang = element_lang(element, self.ctx, frame.element, frame.lang) if self.ctx.options.lang else None
        if not self.e_depth:
            return e_value_scan(element, self.ctx, lang, links=self.rels)
        if self.html_left <= 0:
            self.html_skipped += 1
            return e_value_scan(element, self.ctx, lang, html=False)
        e_val, matters = e_value_scan(element, self.ctx, lang, links=self.rels)
        self.html_left -= len(e_val["html"])
        return e_val, matters

    def parse(self, root: Element, types: list[str], is_backcompat: bool) -> Item:
        return self.parse_frame(root, types, is_backcompat)[1]

    def parse_frame(self, root: Element, types: list[str], is_backcompat: bool) -> tuple[_Frame, Item]:
        """Parse the item rooted at ``root``; also return its finished frame."""
        ctx = self.ctx
        outer_texts = ctx.texts
        if outer_texts is None:
            # One index for an item and every item nested in it: the text of a nested
            # root (a property value of the item above) is then walked once, not once
            # per level (quadratic in the nesting).
            ctx.texts = TextIndex(ctx.base_url, ctx.options.text)
        try:
            found = self._walk(root, types, is_backcompat)
        finally:
            ctx.texts = outer_texts
        if self.html_skipped:
            ctx.notes.append(
                f"e-* html of {self.html_skipped} nested value(s) left empty "
                f"(max_nested_html_chars={ctx.options.max_nested_html_chars})"
            )
            self.html_skipped = 0
        if self.emptied:
            item = found[1]
            ctx.notes.append(
                f"{self.emptied} value(s) of item {' '.join(item.get('type', ()))} emptied past its output budget"
                f" (max_item_chars={ctx.options.max_item_chars})"
            )
            self.emptied = 0
        if self.reduced:
            options = ctx.options
            ctx.notes.append(
                f"{self.reduced} item(s) reduced past their output allowance (output_floor_chars="
                f"{options.output_floor_chars} + max_output_ratio={options.max_output_ratio} per source character)"
            )
            self.reduced = 0
        return found

    def _walk(self, root: Element, types: list[str], is_backcompat: bool) -> tuple[_Frame, Item]:
        ctx = self.ctx
        options = ctx.options
        lang_on = options.lang
        frames = self.frames
        # the frame limits: max_item_chars, and the allowance of the element's whole span
        # (computed here, not in a helper: a call per frame cost more than the arithmetic)
        max_chars = options.max_item_chars
        floor = options.output_floor_chars
        ratio = options.max_output_ratio
        start = root.source_start
        end = root.source_end
        if start >= 0 and end >= start:
            allowed = floor + ratio * (end - start)
            frame = _Frame(root, types, is_backcompat, (), allowed if allowed < max_chars else max_chars, end - start)
        else:
            frame = _Frame(root, types, is_backcompat, (), max_chars)
        root_frame = frame
        if lang_on:
            frame.lang = own_lang(root, ctx)
        frames.append(frame)
        # One iterator over child nodes per open element (the for loop over
        # children runs in C), and beside it what leaving that element does:
        # nothing, finish the nested item (a _Frame), or end an e-* value (_LEAVE_E).
        # An element holding only a text node has nothing to visit: it is not pushed.
        # The innermost element's iterator is kept in ``current``, the outer ones in
        # ``stack``: reading ``stack[-1]`` each time the loop (re)starts costs a generic
        # subscript in CPython 3.11 (a negative index is not specialised: about 140
        # instructions against 10 for a local).
        current: Iterator[Node] | None = iter(root.children)
        stack: list[Iterator[Node]] = []
        leaves: list[_Frame | _LeaveE | _LeaveP | None] = [frame]
        result: Item | None = None
        folded_items = ctx.folded
        # the common case (no ignored roots, outside backcompat items) classifies with one cached look-up
        plain = not options.ignored_roots
        info_cache = CLASS_INFO
        in_backcompat = is_backcompat  # frame.backcompat, kept in a local
        fast = plain and not in_backcompat
        backcompat_types = tuple(types)  # frame.types, hashable
        rels = self.rels
        markers = self.markers
        spec_text = self.spec_text
        while current is not None:
            for element in current:
                if type(element) is not Element:
                    continue
                attrs = element.attrs
                if attrs:
                    raw_class = attrs.get("class")
                    if rels:
                        # collect_rels_and_markers, folded into this walk (see items_and_rels);
                        # an element whose one attribute is its class (usual in items) has
                        # neither rel nor itemref nor headers
                        if raw_class is None or len(attrs) > 1:
                            if "rel" in attrs:
                                add_rel_link(element, ctx)
                            if "itemref" in attrs or "headers" in attrs:
                                markers = True
                        if raw_class and INCLUDE_CLASS in raw_class:
                            markers = True
                else:
                    raw_class = None
                if not raw_class and fast:
                    # most elements: no class, so no root, property or folded item; only descend
                    children = element.children
                    if children and (len(children) > 1 or type(children[0]) is not Text):
                        if element.name != "template" or element.namespace != HTML_NS:
                            stack.append(current)
                            current = iter(children)
                            leaves.append(None)
                            break
                        if rels:  # see the template case below
                            markers = collect_rels_and_markers(element, ctx) or markers
                    continue
                if element.name == "template" and element.namespace == HTML_NS:
                    if rels and element.children:
                        # not from the HTML parser (a template's content is its fragment), but a
                        # rel link walk enters it: so does this one, for its rels and markers
                        markers = collect_rels_and_markers(element, ctx) or markers
                    continue
                if folded_items:
                    folded = folded_items.pop(element, None)
                    if folded is not None:
                        self._use_folded(folded, frame)
                        continue
                props: Sequence[tuple[PropertyPrefix, str]]
                nested_types: list[str]
                # An element that is neither a root nor a property gets no nested types and
                # no props, and is only descended into at the end of this loop body.
                if fast:  # the common case (plain, outside backcompat items): one cached look-up classifies
                    if not raw_class:
                        nested_types, props = [], ()
                    else:
                        classes, mf2, classic, props = info_cache.get(raw_class) or class_info(raw_class)
                        if mf2 or classic:
                            nested_types, nested_bc = _plain_root_types(classes, mf2, classic)
                        else:
                            nested_types, nested_bc = [], False
                else:
                    classes = (info_cache.get(raw_class) or class_info(raw_class))[0] if raw_class else ()
                    attrs = element.attrs
                    no_rel = "rel" not in attrs
                    found = None
                    if (not classes and not in_backcompat) or (
                        # inside a backcompat item, most elements are neither roots nor properties
                        plain and no_rel and not backcompat.may_matter(classes, backcompat_types)
                    ):
                        found = _NOTHING
                    elif plain:  # here: inside a backcompat item (the other case is the branch above)
                        # rel means something only on links
                        on_link = element.name in _REL_ELEMENTS and element.namespace == HTML_NS
                        found = _backcompat_classify(
                            classes, backcompat_types, None if no_rel or not on_link else attrs["rel"]
                        )
                    if found is not None:
                        found_types, nested_bc, props = found
                        nested_types = list(found_types)  # a fresh list: it becomes the item's "type"
                    else:
                        # class-less elements matter only in backcompat items (rel=tag and the like)
                        nested_types, nested_bc = (
                            element_root_types(element, classes, ctx, frame) if classes else ([], False)
                        )
                        props = _scope_properties(element, classes, frame)
                leave: _Frame | _LeaveE | _LeaveP | None = None
                if nested_types:
                    frame.nested = True
                    start = element.source_start  # (the limits as for the root frame)
                    end = element.source_end
                    if start >= 0 and end >= start:
                        allowed = floor + ratio * (end - start)
                        nested = _Frame(
                            element,
                            nested_types,
                            nested_bc,
                            props,
                            allowed if allowed < max_chars else max_chars,
                            end - start,
                        )
                    else:
                        nested = _Frame(element, nested_types, nested_bc, props, max_chars)
                    for prefix, _name in props:
                        frame.prefixes.add(prefix)
                        if prefix == "e" and not nested.e_attached:
                            nested.e_attached = True
                            self.e_depth += 1
                    if lang_on:
                        nested.lang = element_lang(element, ctx, frame.element, frame.lang)
                    frames.append(nested)
                    frame = leave = nested
                    in_backcompat = nested_bc
                    fast = plain and not in_backcompat
                    backcompat_types = tuple(nested_types)
                elif props:
                    enter = True
                    for prefix, name in props:
                        frame.prefixes.add(prefix)
                        if frame.over:
                            # past the output budget: the value is emptied, so it is not computed
                            # (the subtree is still entered, for the items inside)
                            frame.add(prefix, name, "")
                            if prefix == "e":
                                leave = _LEAVE_E
                            continue
                        if prefix == "p" and fast and spec_text:
                            children = element.children
                            if (
                                len(children) == 1
                                and type(children[0]) is Text
                                and element.name not in P_FROM_ATTRIBUTE
                            ):
                                # _value's first case (most p-* properties), without the call
                                frame.add(prefix, name, children[0].data.strip(ASCII_WS))
                                continue
                        if prefix == "e" and fast:
                            e_val, matters = self._e_value(element, frame)
                            frame.add(prefix, name, e_val)
                            # The html walk saw every element below: when none has a class that
                            # matters, entering the subtree would find nothing (usual for content).
                            if not matters and not folded_items:
                                enter = False
                            leave = _LEAVE_E
                        else:
                            frame.add(prefix, name, self._value(prefix, name, element, classes, frame))
                            if prefix == "e":
                                leave = _LEAVE_E
                    if not enter:
                        continue
                    if leave is not None:
                        self.e_depth += 1
                        frame.in_props += 1
                    else:
                        children = element.children
                        if children and (len(children) > 1 or type(children[0]) is not Text):
                            # entered: items inside count in this item's budget (Frame.add_child)
                            frame.in_props += 1
                            stack.append(current)
                            current = iter(children)
                            leaves.append(_LEAVE_P)
                            break
                        continue
                children = element.children
                if leave is not None or (children and (len(children) > 1 or type(children[0]) is not Text)):
                    stack.append(current)
                    current = iter(children)
                    leaves.append(leave)
                    break
            else:  # the innermost open element is done
                current = stack.pop() if stack else None
                done = leaves.pop()
                if done is None:
                    continue
                if done is _LEAVE_E:
                    self.e_depth -= 1
                    frame.in_props -= 1
                    continue
                if done is _LEAVE_P:
                    frame.in_props -= 1
                    continue
                assert isinstance(done, _Frame)
                frames.pop()
                item = self._finish(done)
                if not frames:
                    result = item
                    continue
                if done.e_attached:
                    self.e_depth -= 1
                frame = frames[-1]
                in_backcompat = frame.backcompat
                fast = plain and not in_backcompat
                backcompat_types = tuple(frame.types)
                self._attach(done, item, frame)
        self.markers = markers
        assert result is not None
        return root_frame, result

    def _finish(self, frame: _Frame) -> Item:
        ctx = self.ctx
        element = frame.element
        props = frame.props
        implied = _NONE_IMPLIED  # the implied (name, photo, url) added (a reduced item has none)
        if not frame.backcompat and not frame.nested and not frame.over:  # over: no implied values
            prefixes = frame.prefixes
            need_name = "name" not in props and "p" not in prefixes and "e" not in prefixes
            no_u = "u" not in prefixes
            need_photo = no_u and "photo" not in props
            need_url = no_u and "url" not in props
            if need_name or need_photo or need_url:
                name, photo, url = implied_properties(element, ctx, self._is_root, need_name, need_photo, need_url)
                if name is not None:
                    frame.add("p", "name", name)
                if photo is not None:
                    frame.add("u", "photo", photo)
                if url is not None:
                    frame.add("u", "url", url)
                implied = (name, photo, url)
        item: Item = {"type": frame.types, "properties": props}
        element_id = element.attrs.get("id")
        if element_id:
            item["id"] = element_id
        if element.name == "area":
            # "parse an element for class microformats": an area root also gives its shape and coords
            attrs = element.attrs
            if "shape" in attrs:
                item["shape"] = attrs["shape"]
            if "coords" in attrs:
                item["coords"] = attrs["coords"]
        if frame.children:
            item["children"] = frame.children
        if frame.lang:
            item["lang"] = frame.lang
        if frame.backcompat and not ctx.options.mf2py_compat:
            backcompat.postprocess(item, frame.types)
        # the finished item's output size: its values, children, and the keys around them
        keys = 32
        for name in frame.types:
            keys += len(name) + 4
        if element_id:
            keys += len(element_id) + 10
        # Is the item's own output (without its children) past its allowance? It covers
        # the element's span less its children's (units of their own). A frame made over
        # by the whole span's allowance (its limit, checked as values came) is past it too.
        # An allowance is never below output_floor_chars: an item within it that is not
        # over is not looked at further (most are).
        if frame.span >= 0 and (frame.over or frame.size + keys > ctx.options.output_floor_chars):
            options = ctx.options
            own_span = frame.span - frame.child_spans
            if frame.size + keys > options.output_floor_chars + options.max_output_ratio * (
                own_span if own_span > 0 else 0
            ) or (frame.over and frame.limit < options.max_item_chars):
                self._reduce(frame, implied)
                self.reduced += 1
        self.emptied += frame.emptied  # (0 for a reduced item: _reduce clears it)
        frame.total = frame.size + frame.children_size + keys
        return item

    @staticmethod
    def _reduce(frame: _Frame, implied: tuple[object, object, object]) -> None:
        """Empty every value of an item past its allowance: no implied properties, nested
        items placed as values reduced to their type, ``children`` kept.

        ``implied``: the implied name, photo and url added (``None``: not implied)."""
        props = frame.props
        for name, value in zip(("name", "photo", "url"), implied, strict=True):
            if value is not None:
                props.pop(name, None)
        size = 0
        for name, values in props.items():
            size += len(name) + 6
            for i, value in enumerate(values):
                if type(value) is dict and "type" in value:
                    values[i] = _reduced("e" if "html" in value else "p", value)
                    size += 48 + len(value["type"]) * 16
                elif type(value) is dict and "html" in value:
                    values[i] = _emptied("e")
                    size += 24
                else:
                    values[i] = ""
                    size += 24
        frame.size = size
        frame.over = False  # (now small: an item it is placed in is not over for it)
        frame.emptied = 0
        frame.reduced = True
        frame.first_p_name = None
        frame.first_u_url = None

    def _use_folded(self, folded: FoldedItem, frame: _Frame) -> None:
        """What entering a nested root does, with the nested item already parsed."""
        frame.nested = True
        frame.prefixes |= folded.prefixes
        if not folded.entries:
            frame.add_child(folded.item, folded.total, not folded.over, folded.span)
            return
        whole = not folded.over
        for prefix, name, entry in folded.entries:
            frame.add_entry(prefix, name, entry, folded.total, whole)

    def _attach(self, frame: _Frame, item: Item, parent: _Frame) -> None:
        """Hand a finished nested item to its parent: as property values, or as a child."""
        if not frame.attach:
            parent.add_child(item, frame.total, not frame.over, frame.span)
            return
        whole = not frame.over
        for prefix, name, entry in self._entries(frame, item, parent):
            parent.add_entry(prefix, name, entry, frame.total, whole)

    def _entries(self, frame: _Frame, item: Item, parent: _Frame) -> list[tuple[PropertyPrefix, str, Item]]:
        """The property values a finished nested item gives its parent, one per property class."""
        out: list[tuple[PropertyPrefix, str, Item]] = []
        element = frame.element
        classes = class_list(element)
        # An over item (or one placed in an over item) is placed reduced: its value is not computed.
        skip = frame.over or frame.reduced or parent.over
        for prefix, name in frame.attach:
            value: Any = None
            if skip:
                value = ""
            elif prefix == "p":
                value = _item_value(frame.first_p_name)
            elif prefix == "u":
                value = _item_value(frame.first_u_url)
            if value is None:
                self.scope = frame
                try:
                    value = self._value(prefix, name, element, classes, parent)
                finally:
                    self.scope = None
            # "value" (and an e-* property's "html") first, as the suite writes them
            merge = prefix == "e" and isinstance(value, dict)
            entry: Item = dict(value) if merge else {"value": value}
            entry.update(item)
            if merge and "lang" in value:
                entry["lang"] = value["lang"]  # the property's language, as for any e-* value
            out.append((prefix, name, entry))
        return out


class FoldedItem:
    """A nested item parsed before its container completed (see :func:`fold_nested`)."""

    __slots__ = ("entries", "item", "over", "prefixes", "span", "total")

    def __init__(
        self,
        item: Item,
        entries: list[tuple[PropertyPrefix, str, Item]],
        total: int = 0,
        over: bool = False,
        span: int = -1,
    ) -> None:
        self.item = item
        self.entries = entries  # empty: the item is a child of its container
        self.prefixes = {prefix for prefix, _name, _entry in entries}
        # the item's output size and whether it is over its budget (Options.max_item_chars)
        self.total = total
        self.over = over
        # the source span the item stands for in its container (Options.max_output_ratio;
        # a streamed children's placeholder: the sum of the children's spans)
        self.span = span


# The scope of an element's ancestors, as the item walker meets them outermost first:
# (frame of the nearest enclosing root, a property lies between the outermost root and
# here, an HTML template encloses it, position of the nearest rel link or -1).
_Scope = tuple[_Frame | None, bool, bool, int]
_NO_SCOPE: Final[_Scope] = (None, False, False, -1)


class ScopeChain:
    """The scopes of the ancestors of the last element asked about, remembered.

    :func:`child_of`, :func:`fold_nested` and :meth:`in_rel_link` each need
    what the ancestors of an element make of it, outermost first. Asked about
    element after element (the nested items of a container, in document
    order), they would climb every ancestor each time: quadratic in the
    nesting. This keeps the chain of ancestors of the last element asked about
    and the scope each one gives its descendants; the next element climbs only
    to the first ancestor already on the chain.

    A chain is right only while no existing element on it has moved (the
    adoption agency algorithm) or been removed: the caller passes a version of
    the tree to :meth:`sync` that changes whenever an element moves, and the
    chain is then cut at the first element whose parent changed (``None``: the
    version is unknown, nothing is kept). The only attributes that change on an existing element
    are those a later ``<html>``/``<body>`` tag merges in; their ``class`` is
    checked at every question.
    """

    __slots__ = ("_ctx", "_index", "_merged", "_path", "_scopes", "_version")

    def __init__(self, ctx: Mf2Context) -> None:
        self._ctx = ctx
        self._path: list[Element] = []  # ancestors, outermost first
        self._scopes: list[_Scope] = []  # the scope each gives its descendants
        self._index: dict[int, int] = {}  # id(ancestor) -> position (the path keeps them alive)
        # html/body elements on the path, with the class value their scope was computed from
        self._merged: list[tuple[int, Element, str | None]] = []
        self._version: int | None = None

    def sync(self, version: int | None) -> None:
        """Keep of the chain what is still true at tree ``version`` (``None``: unknown, keep nothing)."""
        if version is None:
            self._truncate(0)
        elif version != self._version:
            # Elements moved: keep the chain down to the first one whose parent changed.
            # (Checking the links costs far less than computing the scopes again.)
            path = self._path
            keep = 0 if path and isinstance(path[0].parent, Element) else len(path)
            for i in range(1, keep):
                if path[i].parent is not path[i - 1]:
                    keep = i
                    break
            self._truncate(keep)
        self._version = version

    def scope_of(self, element: Element) -> _Scope:
        """The scope ``element``'s ancestors give it (the chain becomes its ancestors)."""
        for position, merged, value in self._merged:
            if merged.attrs.get("class") != value:
                self._truncate(position)
                break
        index = self._index
        climbed: list[Element] = []
        node: ParentNode | None = element.parent
        keep = 0
        while isinstance(node, Element):
            found = index.get(id(node))
            if found is not None:
                keep = found + 1
                break
            climbed.append(node)
            node = node.parent
        self._truncate(keep)
        for ancestor in reversed(climbed):
            self._push(ancestor)
        return self._scopes[-1] if self._scopes else _NO_SCOPE

    def in_rel_link(self, element: Element, top: Element) -> bool:
        """Is an ancestor of ``element``, up to and including ``top``, a rel link?"""
        rel = self.scope_of(element)[3]
        at = self._index.get(id(top))
        if at is None:  # (not an ancestor: every one counts)
            return rel >= 0
        return rel >= at

    def _truncate(self, keep: int) -> None:
        path = self._path
        if keep >= len(path):
            return
        index = self._index
        for node in path[keep:]:
            del index[id(node)]
        del path[keep:]
        del self._scopes[keep:]
        merged = self._merged
        while merged and merged[-1][0] >= keep:
            merged.pop()

    def _push(self, node: Element) -> None:
        scopes = self._scopes
        frame, blocked, template, rel = scopes[-1] if scopes else _NO_SCOPE
        position = len(self._path)
        classes = class_list(node)
        if frame is not None and not blocked and (classes or frame.backcompat):
            # a property of the item it is in: that value reads the whole subtree
            blocked = bool(_scope_properties(node, classes, frame))
        if classes:
            types, is_bc = element_root_types(node, classes, self._ctx, frame)
            if types:
                frame = _Frame(node, types, is_bc, ())
        if node.namespace == HTML_NS:
            name = node.name
            if name == "template":
                template = True
            elif name == "html" or name == "body":
                self._merged.append((position, node, node.attrs.get("class")))
        if is_rel_link(node):
            rel = position
        self._path.append(node)
        self._index[id(node)] = position
        scopes.append((frame, blocked, template, rel))


def _scope_chain(element: Element, ctx: Mf2Context, scopes: ScopeChain | None) -> _Frame | None:
    """The frame of the nearest item enclosing ``element``, if ``element``'s subtree is not needed otherwise.

    ``None`` when no item encloses ``element``, or when some element between
    ``element`` and the outermost enclosing root is a property of the item it
    is in (that property's value will read ``element``'s subtree).
    """
    if scopes is None:
        scopes = ScopeChain(ctx)
    found, blocked, _template, _rel = scopes.scope_of(element)
    if found is None or blocked:
        return None
    # a frame of its own: the walker records into the frame it is given
    frame = _Frame(found.element, list(found.types), found.backcompat, ())
    if ctx.options.lang:
        frame.lang = element_lang(frame.element, ctx)
    return frame


def fold_nested(element: Element, ctx: Mf2Context, scopes: ScopeChain | None = None) -> bool:
    """Parse a completed nested root now, so that a streaming caller can drop its subtree.

    Call it when ``element`` (with its whole subtree) is final while an
    enclosing root is still open. When it returns ``True`` the item and the
    values it gives its container are stored in ``ctx``, and the caller may
    remove ``element``'s children: when the container is parsed, ``element``
    stands for the stored item. It returns ``False`` (nothing stored) when
    ``element`` is not a nested root, or when its subtree is still needed:
    an element between it and the outermost root is a property (its value
    reads the subtree), ``element`` is a dt-* property (its value may
    depend on earlier dates of the container), or the mf1 include pattern is
    used inside it. The caller must collect ``element``'s rels first. The
    container's result is the same as without folding, provided the mf1
    include pattern (``itemref``, ``headers``, ``a.include``) does not later
    copy ``element`` or an ancestor as an include target: a caller that has
    seen such references must not fold inside their targets.
    """
    classes = class_list(element)
    if not classes:
        return False
    parent = _scope_chain(element, ctx, scopes)
    if parent is None:
        return False
    types, is_bc = element_root_types(element, classes, ctx, parent)
    if not types:
        return False
    attach = _scope_properties(element, classes, parent)
    if any(prefix == "dt" for prefix, _name in attach):
        return False
    if include_references(element, in_backcompat=parent.backcompat):
        return False  # the include pattern may still change this subtree: keep it
    walker = _Walker(ctx)
    frame, item = walker.parse_frame(element, types, is_bc)
    frame.attach = attach
    entries = walker._entries(frame, item, parent) if attach else []
    ctx.folded[element] = FoldedItem(item, entries, frame.total, frame.over, frame.span)
    return True


def child_of(element: Element, ctx: Mf2Context, scopes: ScopeChain | None = None) -> Element | None:
    """The root element whose item will list ``element``'s item in its ``children``.

    ``None`` when ``element`` is not a nested root, or when its item becomes
    a property value (it has property classes in its parent item's scope).
    Unlike :func:`fold_nested` this does not look at what lies between the
    two: a root inside a property element of its parent is still a child.
    ``scopes``: the ancestors' scopes remembered from earlier questions.
    """
    classes = class_list(element)
    if not classes or (element.name == "template" and element.namespace == HTML_NS):
        return None
    if scopes is None:
        scopes = ScopeChain(ctx)
    frame, _blocked, template, _rel = scopes.scope_of(element)
    if template:
        return None  # the item walker never enters templates
    if frame is None:
        return None
    types, _is_bc = element_root_types(element, classes, ctx, frame)
    if not types or _scope_properties(element, classes, frame):
        return None
    return frame.element


def _expand_includes(root: Element, ctx: Mf2Context, in_backcompat: bool) -> Element:
    """``root`` with the mf1 include pattern applied (mf1 include pattern: parse a copy with the
    referenced markup in place); folded items inside follow into the copy."""
    expanded = expand_includes(root, ctx.resolve_id, in_backcompat=in_backcompat)
    if expanded is not root and ctx.folded:
        _follow_copy(root, expanded, ctx)
    return expanded


def _follow_copy(original: Element, copy: Element, ctx: Mf2Context) -> None:
    """Re-key folded items found under ``original`` to their counterparts in its include copy.

    The include pattern appends included elements after an element's own
    children and replaces a marker by one element, so child ``i`` of an
    original element is child ``i`` of its copy. Where a marker was replaced
    (the folded item is gone from the copy) nothing is re-keyed.
    """
    positions: dict[int, dict[int, int]] = {}  # id(parent) -> {id(child): index}, built once per parent
    for element in list(ctx.folded):
        path: list[int] = []
        node: Node = element
        while node is not original:
            parent = node.parent
            if parent is None:
                break
            where = positions.get(id(parent))
            if where is None:
                where = positions[id(parent)] = {id(c): i for i, c in enumerate(parent.children)}
            found = where.get(id(node))
            if found is None:
                break  # detached from its former parent: not under this root
            path.append(found)
            node = parent
        if node is not original:
            continue  # not under this root
        target: Node | None = copy
        for index in reversed(path):
            kids = target.children if isinstance(target, ParentNode) else []
            target = kids[index] if index < len(kids) else None
        # a marker replaced by its target (even the root itself) has no counterpart
        if isinstance(target, Element) and target.name == element.name and target.attrs == element.attrs:
            ctx.folded[target] = ctx.folded.pop(element)


def _item_value(value: Any) -> Any:
    """A nested item's name/url as a plain value: a nested item gives its own ``value``."""
    if isinstance(value, dict) and "type" in value:
        return value.get("value")
    return value


def parse_item(element: Element, types: list[str], is_backcompat: bool, ctx: Mf2Context) -> Item:
    """Parse the microformat rooted at ``element``."""
    return _Walker(ctx).parse(element, types, is_backcompat)


def items_from_subtree(element: ParentNode, ctx: Mf2Context, *, includes: bool = True) -> list[Item]:
    """The top-level items rooted at ``element`` or inside it (outermost roots only).

    ``element`` may also be a document or fragment: then its descendants are searched.
    ``includes=False`` skips the mf1 include pattern's look for markers in each
    root: a caller that has just found ``include_references(element)`` empty
    knows there are none, and saves a walk of the subtree.
    """
    return _items(element, ctx, includes, False)[0]


def items_and_rels(element: Element, ctx: Mf2Context) -> tuple[list[Item], bool]:
    """``items_from_subtree(element, ctx, includes=False)`` and
    :func:`~.rels.collect_rels_and_markers` of ``element``, in one walk.

    Returns the items and whether an element of the subtree looks like an mf1
    include marker. The rels are added in tree order, as the separate walk adds
    them. When the marker flag is ``True`` and ``include_references(element)``
    is not empty, the items are not the right ones (they were built without
    the include pattern): the caller builds them again later, and must not
    collect the rels again. Call it only while ``ctx.folded`` is empty (a
    folded item's subtree is gone, and its rels were taken when it was folded).
    """
    return _items(element, ctx, False, True)


def _items(element: ParentNode, ctx: Mf2Context, includes: bool, rels: bool) -> tuple[list[Item], bool]:
    out: list[Item] = []
    plain = not ctx.options.ignored_roots
    info_cache = CLASS_INFO
    markers = False
    # one iterator over child nodes per open element: the loop over children runs in C
    stack: list[Iterator[Node]] = [iter((element,) if type(element) is Element else element.children)]
    while stack:
        for node in stack[-1]:
            if type(node) is not Element:
                continue
            attrs = node.attrs
            if rels and attrs:
                # collect_rels_and_markers, folded into this walk
                if "rel" in attrs:
                    add_rel_link(node, ctx)
                if not markers and is_marker_like(node):
                    markers = True
            if node.name == "template" and node.namespace == HTML_NS:
                # templates are inert: neither they nor their contents give items
                if rels and node.children:  # see _Walker._walk
                    markers = collect_rels_and_markers(node, ctx) or markers
                continue
            raw_class = attrs.get("class")
            if raw_class:
                classes, mf2, classic, _props = info_cache.get(raw_class) or class_info(raw_class)
                if not plain:
                    types, is_bc = element_root_types(node, classes, ctx, None) if classes else ([], False)
                elif mf2 or classic:
                    types, is_bc = _plain_root_types(classes, mf2, classic)
                else:
                    types, is_bc = [], False
                if types:
                    root = _expand_includes(node, ctx, False) if includes else node
                    if rels:
                        walker = _Walker(ctx, True)
                        out.append(walker.parse(root, types, is_bc))
                        markers = markers or walker.markers
                    else:
                        out.append(parse_item(root, types, is_bc, ctx))
                    continue
            children = node.children
            if children and (len(children) > 1 or type(children[0]) is not Text):  # not only a text node
                stack.append(iter(children))
                break
        else:
            stack.pop()
    return out, markers
