"""Microdata items from kept subtrees, in extruct's shape.

The item of an element with ``itemscope`` is
``{"type": ..., "id": ..., "properties": {name: value or [values]}}``:

* ``type``: the ``itemtype`` tokens, a string when there is one, a list for
  several; ``id``: the ``itemid``, trimmed, only on an item with a type;
* ``properties``: every element with ``itemprop`` inside the item but not inside a
  nested item, in tree order, then, for each ``itemref`` id in turn, the element
  with that id (if it is itself an ``itemprop`` item) or the properties inside it
  that belong to the same scope as it; a name given once maps to its value, a
  name given more than once to the list of its values;
* an item without properties has ``value`` instead: its text.

Property values by element (the WHATWG table, as extruct applies it): ``meta``
``content``; ``audio embed iframe img source track video`` ``src``; ``a area
link`` ``href``; ``object`` ``data`` (those four resolved against the base
URL; one that cannot be parsed is given as written); ``data meter`` ``value``; ``time`` ``datetime``; an element with
``itemscope`` its item; else a non-empty ``content`` attribute (schema.org
pages use it); else, for an ``itemprop`` ending in ``-input``/``-output``
(schema.org actions), ``{"valueRequired": true, "valueName": name}`` as given;
else the element's text (:func:`stream_mf2.microdata.text.element_text`).

An item is extracted once: nested where it is first met as a property value
(depth first, in property order), and a later reference to it gives ``None``
(extruct's rule, which also ends every ``itemref`` cycle). Top-level items are
the ``itemscope`` elements no earlier item took as a value, in tree order.

Nothing here recurses: nested items are built with an explicit stack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urljoin

from stream_mf2.html.dom import Element, Node
from stream_mf2.microdata.text import Work, element_text

__all__ = ["ItemBuilder", "collapse", "item_elements", "property_value"]

#: HTML's "strip leading and trailing ASCII whitespace" (what URL attributes get).
_ASCII_WS: Final = " \t\n\r\x0c"
_SRC: Final = frozenset(("audio", "embed", "iframe", "img", "source", "track", "video"))
_HREF: Final = frozenset(("a", "area", "link"))
_VALUE: Final = frozenset(("data", "meter"))


def _url(base: str | None, value: str) -> str:
    value = value.strip(_ASCII_WS)
    if not base:
        return value
    try:
        return urljoin(base, value)
    except ValueError:  # (an unparsable URL, "http://[::1": given as written)
        return value


def property_value(element: Element, base: str | None, work: Work | None = None) -> Any:
    """The value of a property element that is not an item (see the module docstring)."""
    attrs = element.attrs
    name = element.name
    if name == "meta":
        return attrs.get("content", "")
    if name in _SRC:
        return _url(base, attrs.get("src", ""))
    if name in _HREF:
        return _url(base, attrs.get("href", ""))
    if name == "object":
        return _url(base, attrs.get("data", ""))
    if name in _VALUE:
        return attrs.get("value", "")
    if name == "time":
        return attrs.get("datetime", "")
    content = attrs.get("content")
    if content:
        return content
    itemprop = attrs.get("itemprop")
    if itemprop and (itemprop.endswith("-input") or itemprop.endswith("-output")):
        action: dict[str, Any] = {}
        if "required" in attrs:
            action["valueRequired"] = True
        value_name = attrs.get("name")
        if value_name:
            action["valueName"] = value_name
        return action
    return element_text(element, work)


def _scoped_properties(start: Element, out: list[Element], work: Work | None = None) -> None:
    """Append the ``itemprop`` elements below ``start`` that no nested item below it owns
    (charging ``work`` one step per node: an ``itemref`` target may be walked again and again)."""
    stack: list[list[Node]] = [list(reversed(start.children))]
    while stack:
        if work is not None:
            work.left -= 1
            if work.left < 0:
                work.left = 0
                work.starved += 1
                return
        top = stack[-1]
        if not top:
            stack.pop()
            continue
        node = top.pop()
        if not isinstance(node, Element):
            continue
        attrs = node.attrs
        if "itemprop" in attrs:
            out.append(node)
        if "itemscope" not in attrs and node.children:
            stack.append(list(reversed(node.children)))


def item_elements(root: Element) -> list[Element]:
    """The ``itemscope`` elements of ``root``'s subtree (``root`` included), in tree order."""
    out: list[Element] = []
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Element):
            if "itemscope" in node.attrs:
                out.append(node)
            children = node.children
            if children:
                stack.extend(reversed(children))
    return out


class _Frame:
    """An item being built: its dictionary, its property elements and how far it got."""

    __slots__ = ("element", "item", "names", "next", "properties", "props")

    def __init__(self, element: Element, item: dict[str, Any], props: list[Element], names: list[str]) -> None:
        self.element = element
        self.item = item
        self.props = props
        self.next = 0
        self.properties: dict[str, list[Any]] = {}
        self.names = names  # the property names this item is the value of (in its parent)


class ItemBuilder:
    """Builds the items of a set of kept subtrees (one window of the consumer).

    ``resolve(id)`` gives the element an ``itemref`` id names (``None`` if it is
    not there); ``base`` is the base URL the URL values resolve against.
    """

    __slots__ = ("base", "resolve", "seen", "work")

    def __init__(self, resolve: Callable[[str], Element | None], base: str | None, work: Work) -> None:
        self.resolve = resolve
        self.base = base
        #: The walks that build values (texts, itemref targets) share this budget.
        self.work = work
        #: The items already extracted (by identity): each element gives one item.
        self.seen: set[int] = set()

    def _frame(self, element: Element, names: list[str]) -> _Frame:
        attrs = element.attrs
        item: dict[str, Any] = {}
        types = attrs.get("itemtype", "").split()
        if types:
            item["type"] = types[0] if len(types) == 1 else types
            itemid = attrs.get("itemid")
            if itemid:
                item["id"] = itemid.strip()
        props: list[Element] = []
        _scoped_properties(element, props)
        refs = attrs.get("itemref")
        if refs:
            for ref in refs.split():
                target = self.resolve(ref)
                if target is None:
                    continue
                t_attrs = target.attrs
                if "itemprop" in t_attrs:
                    props.append(target)
                    if "itemscope" in t_attrs:
                        continue  # the whole item is the value
                # (an item that is no property: its own properties join this item's)
                _scoped_properties(target, props, self.work)
        return _Frame(element, item, props, names)

    def build(self, element: Element) -> dict[str, Any] | None:
        """The item of ``element``, or ``None`` when an earlier item took it as a value."""
        key = id(element)
        if key in self.seen:
            return None
        self.seen.add(key)
        stack = [self._frame(element, [])]
        while True:
            frame = stack[-1]
            if frame.next < len(frame.props):
                prop = frame.props[frame.next]
                frame.next += 1
                names = prop.attrs.get("itemprop", "").split()
                if "itemscope" in prop.attrs:
                    pkey = id(prop)
                    if pkey in self.seen:
                        _add(frame.properties, names, None)
                    else:
                        self.seen.add(pkey)
                        stack.append(self._frame(prop, names))
                    continue
                _add(frame.properties, names, property_value(prop, self.base, self.work))
                continue
            stack.pop()
            item = self._finish(frame)
            if not stack:
                return item
            _add(stack[-1].properties, frame.names, item)

    def value(self, element: Element) -> Any:
        """The property value of ``element``: its item (``None`` when an item took it
        already), or its table value."""
        if "itemscope" in element.attrs:
            return self.build(element)
        return property_value(element, self.base, self.work)

    def _finish(self, frame: _Frame) -> dict[str, Any]:
        item = frame.item
        if frame.properties:
            item["properties"] = collapse(frame.properties)
        else:
            # (an item's own value: its element's table value, never the item again)
            item["value"] = property_value(frame.element, self.base, self.work)
        return item


def collapse(properties: dict[str, list[Any]]) -> dict[str, Any]:
    """extruct's ``properties``: a name given once maps to its value, else to the list of values."""
    return {name: values[0] if len(values) == 1 else values for name, values in properties.items()}


def _add(properties: dict[str, list[Any]], names: list[str], value: Any) -> None:
    for name in names:
        values = properties.get(name)
        if values is None:
            properties[name] = [value]
        else:
            values.append(value)
