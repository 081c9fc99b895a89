"""The value-class pattern (microformats.org/wiki/value-class-pattern).

Value elements are the descendants of a property element with class
``value`` or ``value-title`` that are not inside another property or
microformat. Elements that are themselves properties or microformats can
still be value elements; they only stop the search below them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from stream_mf2.html.dom import Element, Node, Text

from .classes import class_info, class_info_get
from .dates import DateParts, assemble, merge, parse_part
from .text import raw_text, trim

Boundary = Callable[[Element, tuple[str, ...]], bool]
"""Is this element (with these classes) a property or microformat of the current scope?"""

InnerText = Callable[[Element], str]
"""An element's trimmed text without image replacement (``TextIndex.inner_text``)."""


def value_elements(element: Element, is_boundary: Boundary) -> list[tuple[Element, bool]]:
    """The value elements of ``element`` in document order, as ``(element, is_value_title)``."""
    out: list[tuple[Element, bool]] = []
    # asked for every p-/u-/dt- property: one iterator per open element, the loop over children runs in C;
    # the innermost one in ``current`` (a local: ``stack[-1]`` is a generic subscript in CPython 3.11)
    current: Iterator[Node] | None = iter(element.children)
    stack: list[Iterator[Node]] = []
    while current is not None:
        for node in current:
            if type(node) is not Element or node.name == "template":
                continue
            raw = node.attrs.get("class")
            if raw:
                classes = (class_info_get(raw) or class_info(raw))[0]
                if "value-title" in classes:
                    out.append((node, True))
                    continue
                if "value" in classes:
                    out.append((node, False))
                    continue
                if classes and is_boundary(node, classes):
                    continue
            children = node.children
            if children and (len(children) > 1 or type(children[0]) is not Text):  # not only a text node
                stack.append(current)
                current = iter(children)
                break
        else:
            current = stack.pop() if stack else None
    return out


def plain_inner_text(element: Element) -> str:
    """``element``'s trimmed text, images not replaced (computed from scratch)."""
    return trim(raw_text(element, None, replace_images=False))


def _value_of(element: Element, is_title: bool, datetime_attr: bool, inner_text: InnerText) -> str:
    attrs = element.attrs
    if is_title:
        return attrs.get("title", "")
    name = element.name
    if name in ("img", "area"):
        return attrs.get("alt", "")
    if name == "data":
        return attrs["value"] if "value" in attrs else inner_text(element)
    if name == "abbr":
        return attrs["title"] if "title" in attrs else inner_text(element)
    if datetime_attr and name in ("time", "ins", "del"):
        return attrs["datetime"] if "datetime" in attrs else inner_text(element)
    return inner_text(element)


def text_value(element: Element, is_boundary: Boundary, inner_text: InnerText = plain_inner_text) -> str | None:
    """The pattern's value for a p-/u-/e- property, or ``None`` without value elements.

    The parts are concatenated with nothing in between.
    """
    found = value_elements(element, is_boundary)
    if not found:
        return None
    return "".join(_value_of(el, is_title, False, inner_text) for el, is_title in found)


def datetime_value(
    element: Element, is_boundary: Boundary, implied_date: str | None, inner_text: InnerText = plain_inner_text
) -> str | None:
    """The pattern's value for a dt- property, or ``None`` if no value element gives a date part.

    A single value element holding a whole datetime is kept as written; parts
    from several value elements are joined and normalised (:mod:`.dates`).
    """
    found = DateParts()
    used: list[str] = []
    for el, is_title in value_elements(element, is_boundary):
        raw = _value_of(el, is_title, True, inner_text)
        candidate = parse_part(raw)
        if merge(found, candidate):
            used.append(raw)
    if not used:
        return None
    if len(used) == 1 and found.date is not None and found.time is not None:
        return trim(used[0])
    return assemble(found, implied_date)
