"""Microdata items in the WHATWG JSON form (HTML, "Microdata", "Converting HTML to other formats").

With ``microdata_form="whatwg"`` the consumer gives, for each top-level microdata
item (an ``itemscope`` element without ``itemprop``), the object of the spec's
"get the object" algorithm: ``{"type": [types], "id": global identifier,
"properties": {name: [values]}}`` (``type`` and ``id`` only when present,
``properties`` always, every value list a list).

* The properties of an item are found by the spec's "crawl the properties"
  algorithm: the item's children and the first element with each ``itemref`` id,
  walked down to nested items, each element once (an element met again is a
  microdata error and skipped, which ends ``itemref`` cycles), sorted in tree order.
* Property names and item types are the ``itemprop``/``itemtype`` tokens split on
  ASCII whitespace, in order, duplicates removed.
* Values by element (HTML elements): ``meta`` ``content``; ``audio embed iframe
  img source track video`` ``src``, ``a area link`` ``href``, ``object``
  ``data``, resolved against the base URL (``""`` without the attribute);
  ``data meter`` ``value``; ``time`` its datetime value (``datetime``, else its
  child text); an ``itemscope`` element its item; anything else its
  ``textContent``. ``itemid`` is resolved as a URL too.
* A nested item already on the path from the top-level item is the string
  ``"ERROR"`` (the spec's memory); an item reached twice by other paths is
  given twice, as the spec does. That can multiply (items that ``itemref``
  each other more than once), so at most ``max_values`` values are given per
  top-level item: past it a nested item is ``"ERROR"`` too and the consumer
  records a note.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urljoin

from stream_mf2.html.dom import HTML_NS, Element, Node, Text
from stream_mf2.microdata.text import Work

__all__ = ["WhatwgBuilder", "tokens", "url_value"]

_ASCII_WS: Final = " \t\n\r\x0c"
_SRC: Final = frozenset(("audio", "embed", "iframe", "img", "source", "track", "video"))
_HREF: Final = frozenset(("a", "area", "link"))
_OUT_OF_BUDGET: Final = "ERROR"


def tokens(value: str) -> list[str]:
    """Split on ASCII whitespace, keep the first of each token (HTML's ordered set parser)."""
    out: list[str] = []
    seen: set[str] = set()
    for token in value.translate(_TO_SPACE).split(" "):
        if token and token not in seen:
            seen.add(token)
            out.append(token)
    return out


_TO_SPACE: Final = str.maketrans("\t\n\r\x0c", "    ")


def url_value(base: str | None, value: str) -> str:
    """``value`` parsed relative to ``base`` (``""`` when that fails, as the spec says)."""
    value = value.strip(_ASCII_WS)
    if not base:
        return value
    try:
        return urljoin(base, value)
    except ValueError:
        return ""


class _Frame:
    __slots__ = ("element", "names", "next", "object", "properties", "props")

    def __init__(self, element: Element, names: list[str]) -> None:
        self.element = element
        self.names = names
        self.props: list[Element] = []
        self.next = 0
        self.properties: dict[str, list[Any]] = {}
        self.object: dict[str, Any] = {}


class WhatwgBuilder:
    """Builds top-level items of one window of kept subtrees in the spec's JSON form.

    ``resolve(id)`` gives the element an ``itemref`` id names; ``order(element)`` its
    position in tree order among the window's elements (asked only for items with
    ``itemref``); ``base`` the base URL.
    """

    __slots__ = ("base", "max_values", "order", "over", "resolve", "work")

    def __init__(
        self,
        resolve: Callable[[str], Element | None],
        order: Callable[[Element], int],
        base: str | None,
        max_values: int,
        work: Work,
    ) -> None:
        self.resolve = resolve
        #: Text walks and the crawls of items with ``itemref`` share this budget.
        self.work = work
        self.order = order
        self.base = base
        self.max_values = max_values
        #: How many nested items were given as "ERROR" for the value budget.
        self.over = 0

    def _url(self, value: str | None) -> str:
        return "" if value is None else url_value(self.base, value)

    def property(self, element: Element) -> Any:
        """The property value of ``element`` (an item's object, or its table value)."""
        if "itemscope" in element.attrs:
            return self.build(element)
        return self.value(element)

    def value(self, element: Element) -> Any:
        """The property value of ``element`` (not an item)."""
        attrs = element.attrs
        if element.namespace == HTML_NS:
            name = element.name
            if name == "meta":
                return attrs.get("content", "")
            if name in _SRC:
                return self._url(attrs.get("src"))
            if name in _HREF:
                return self._url(attrs.get("href"))
            if name == "object":
                return self._url(attrs.get("data"))
            if name == "data" or name == "meter":
                return attrs.get("value", "")
            if name == "time":
                datetime = attrs.get("datetime")
                if datetime is not None:
                    return datetime
                return "".join(c.data for c in element.children if type(c) is Text)
        return self._text(element)

    def _text(self, element: Element) -> str:
        """``textContent``, charged to the work budget (``""`` past it)."""
        work = self.work
        parts: list[str] = []
        stack: list[Node] = list(reversed(element.children))
        while stack:
            work.left -= 1
            if work.left < 0:
                work.left = 0
                work.starved += 1
                return ""
            node = stack.pop()
            if type(node) is Text:
                parts.append(node.data)
            elif isinstance(node, Element) and node.children:
                stack.extend(reversed(node.children))
        return "".join(parts)

    def properties(self, root: Element) -> list[Element]:
        """The spec's "crawl the properties" of the item ``root``, in tree order."""
        results: list[Element] = []
        memory: set[int] = {id(root)}
        pending: list[Node] = list(reversed(root.children))
        refs = root.attrs.get("itemref")
        targets: list[Element] = []
        if refs:
            for ref in tokens(refs):
                target = self.resolve(ref)
                if target is not None:
                    targets.append(target)
        # Without itemref the crawl is a walk in tree order; targets are crawled after
        # and everything sorted (the tree order of the window).
        pending.extend(reversed(targets))
        work = self.work if targets else None
        while pending:
            if work is not None:
                # (a target may be crawled by many items: each crawl is charged)
                work.left -= 1
                if work.left < 0:
                    work.left = 0
                    work.starved += 1
                    break
            current = pending.pop()
            if not isinstance(current, Element):
                continue
            key = id(current)
            if key in memory:
                continue  # a microdata error: an element met twice
            memory.add(key)
            attrs = current.attrs
            if "itemscope" not in attrs and current.children:
                pending.extend(reversed(current.children))
            itemprop = attrs.get("itemprop")
            if itemprop is not None and tokens(itemprop):
                results.append(current)
        if targets:
            order = self.order
            results.sort(key=order)
        return results

    def _frame(self, element: Element, names: list[str]) -> _Frame:
        frame = _Frame(element, names)
        attrs = element.attrs
        types = tokens(attrs.get("itemtype", ""))
        if types:
            frame.object["type"] = types
        itemid = attrs.get("itemid")
        if itemid is not None:
            frame.object["id"] = self._url(itemid)
        frame.props = self.properties(element)
        return frame

    def build(self, element: Element) -> dict[str, Any]:
        """The object of the item ``element`` (the spec's "get the object")."""
        budget = self.max_values
        # The spec's memory: the items on the path from the top-level item (a copy is
        # passed down, so it is exactly the path), as a set kept in step with the stack.
        path: set[int] = {id(element)}
        stack = [self._frame(element, [])]
        while True:
            frame = stack[-1]
            if frame.next < len(frame.props):
                prop = frame.props[frame.next]
                frame.next += 1
                names = tokens(prop.attrs.get("itemprop", ""))
                budget -= len(names)
                value: Any
                if "itemscope" in prop.attrs:
                    if id(prop) in path:
                        value = "ERROR"
                    elif budget < 0:
                        self.over += 1
                        value = _OUT_OF_BUDGET
                    else:
                        path.add(id(prop))
                        stack.append(self._frame(prop, names))
                        continue
                else:
                    value = self.value(prop)
                _add(frame.properties, names, value)
                continue
            stack.pop()
            path.discard(id(frame.element))
            obj = frame.object
            obj["properties"] = frame.properties
            if not stack:
                return obj
            _add(stack[-1].properties, frame.names, obj)


def _add(properties: dict[str, list[Any]], names: list[str], value: Any) -> None:
    for name in names:
        values = properties.get(name)
        if values is None:
            properties[name] = [value]
        else:
            values.append(value)
