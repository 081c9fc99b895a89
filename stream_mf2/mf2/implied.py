"""Implied properties: name, photo and url of an item that does not state them.

Each rule is a list of CSS-like sources tried in order (microformats2-parsing,
"parsing for implied properties"); ``:not[.h-*]`` excludes elements that are
microformats themselves, which ``is_root`` decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from stream_mf2.html.dom import Element

from .context import Mf2Context
from .properties import image_value
from .text import ALT_ONLY, element_text, trim
from .urls import resolve

IsRoot = Callable[[Element], bool]


def _child_elements(element: Element) -> list[Element]:
    return [c for c in element.children if isinstance(c, Element) and c.name != "template"]


def _only_child(element: Element, is_root: IsRoot) -> Element | None:
    """``element > :only-child:not[.h-*]``."""
    kids = _child_elements(element)
    if len(kids) == 1 and not is_root(kids[0]):
        return kids[0]
    return None


# The element names ``:only-of-type`` is asked about (implied photo and url).
_SOLE_NAMES: Final = frozenset({"img", "object", "a", "area"})


def _sole_children(element: Element) -> dict[str, Element | None]:
    """For each of img, object, a and area among ``element``'s child elements: the
    one child of that name, or ``None`` when there are several (absent: none).
    One pass over the children answers the four ``:only-of-type`` questions."""
    found: dict[str, Element | None] = {}
    for child in element.children:
        if isinstance(child, Element):
            name = child.name  # never "template"
            if name in _SOLE_NAMES:
                found[name] = None if name in found else child
    return found


def _only_of_type(sole: dict[str, Element | None], name: str, attr: str, is_root: IsRoot) -> Element | None:
    """``element > name[attr]:only-of-type:not[.h-*]``, from ``element``'s :func:`_sole_children`."""
    found = sole.get(name)
    if found is None or attr not in found.attrs or is_root(found):
        return None
    return found


def _name_from(element: Element) -> str | None:
    """``img:only-child[alt]:not([alt=""])``, ``area`` likewise, ``abbr[title]:not([title=""])``."""
    attrs = element.attrs
    if element.name in ("img", "area"):
        alt = attrs.get("alt")
        return trim(alt) if alt else None
    if element.name == "abbr":
        title = attrs.get("title")
        return trim(title) if title else None
    return None


def implied_name(element: Element, ctx: Mf2Context, is_root: IsRoot) -> str:
    """The implied ``name``."""
    attrs = element.attrs
    if element.name in ("img", "area") and "alt" in attrs:
        return trim(attrs["alt"])
    if element.name == "abbr" and "title" in attrs:
        return trim(attrs["title"])
    child = _only_child(element, is_root)
    if child is not None:
        found = _name_from(child)
        if found is not None:
            return found
        grandchild = _only_child(child, is_root)
        if grandchild is not None:
            found = _name_from(grandchild)
            if found is not None:
                return found
    # the root's textContent: the p-* rule that puts an image's URL in its place does not
    # apply here; an image's alt does, as the official suite expects (mf2py, mf2dom agree)
    if ctx.texts is not None:
        return ctx.texts.text(element, ALT_ONLY)
    return element_text(element, ctx.base_url, ctx.options.text, ALT_ONLY)


def implied_photo(element: Element, ctx: Mf2Context, is_root: IsRoot) -> str | dict[str, Any] | None:
    """The implied ``photo``, or ``None``."""
    attrs = element.attrs
    base = ctx.base_url
    if element.name == "img" and "src" in attrs:
        return image_value(element, ctx)
    if element.name == "object" and "data" in attrs:
        return resolve(attrs["data"], base)
    for parent in (element, _only_child(element, is_root)):
        if parent is None:
            continue
        sole = _sole_children(parent)
        if not sole:
            continue
        img = _only_of_type(sole, "img", "src", is_root)
        if img is not None:
            return image_value(img, ctx)
        obj = _only_of_type(sole, "object", "data", is_root)
        if obj is not None:
            return resolve(obj.attrs["data"], base)
    return None


def implied_url(element: Element, ctx: Mf2Context, is_root: IsRoot) -> str | None:
    """The implied ``url``, or ``None``."""
    attrs = element.attrs
    base = ctx.base_url
    if element.name in ("a", "area") and "href" in attrs:
        return resolve(attrs["href"], base)
    for parent in (element, _only_child(element, is_root)):
        if parent is None:
            continue
        sole = _sole_children(parent)
        if not sole:
            continue
        for name in ("a", "area"):
            link = _only_of_type(sole, name, "href", is_root)
            if link is not None:
                return resolve(link.attrs["href"], base)
    return None
