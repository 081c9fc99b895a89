"""The page item: an ``<html itemscope>`` or ``<body itemscope>``, built without keeping the page.

Many sites mark the whole page as an item (``<html itemscope
itemtype="https://schema.org/WebPage">``, ``<body itemscope ...>``). Kept like
any other item, the whole page would be held until its end. Instead, such an
element is not kept: the elements with ``itemprop`` created after it are (those
outside other items are its properties), each completed subtree gives the page
item's property values at once (and its other items, as usual), and the page
item is emitted when the document ends, with the values gathered.

What differs from an item kept whole: the page item comes last in the event
stream (its properties are known only then); ``extruct_result`` puts it back
where extruct lists it (before the items that came after its element), the place
its event's ``index`` says (the items emitted after its element say one more
each, so every item's place is final when it is emitted). Its
``itemref`` is not followed, a page item without properties has the value
``""`` (extruct gives the text of the whole page), and an item a page property
reaches through an ``itemref`` to earlier markup was extracted already (``None``
there; extruct, which builds the page item first, gives it there instead).
"""

from __future__ import annotations

from typing import Any, Final

from stream_mf2.html.dom import HTML_NS, Element, Node

__all__ = ["PageItem", "is_page_element", "page_properties"]

_PAGE_NAMES: Final = frozenset(("html", "body"))


def is_page_element(element: Element) -> bool:
    """Is ``element`` an ``html`` or ``body`` item (a candidate page item)?"""
    return element.name in _PAGE_NAMES and element.namespace == HTML_NS and "itemscope" in element.attrs


class PageItem:
    """The page item being gathered: its element's attributes, name, place and values."""

    __slots__ = ("attrs", "index", "name", "values")

    def __init__(self, name: str, attrs: dict[str, str], index: int) -> None:
        self.name = name
        #: A copy of the element's attributes (the element itself is not kept).
        self.attrs = dict(attrs)
        #: How many items were emitted before its element was created (its place in the list).
        self.index = index
        #: ``(names, value)`` of each property, in document order.
        self.values: list[tuple[list[str], Any]] = []

    def owns(self, element: Element) -> bool:
        """Is ``element`` this page item's element (or a stand-in with its name)?"""
        return element.name == self.name and is_page_element(element)


def page_properties(root: Element, page: PageItem) -> list[Element]:
    """The elements with ``itemprop`` in ``root``'s subtree (``root`` included) outside every
    item but the page item, in tree order."""
    out: list[Element] = []
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, Element):
            continue
        attrs = node.attrs
        if "itemscope" in attrs and not page.owns(node):
            if "itemprop" in attrs:
                out.append(node)
            continue  # (its properties are its own)
        if "itemprop" in attrs and not page.owns(node):
            out.append(node)
        if node.children:
            stack.extend(reversed(node.children))
    return out
