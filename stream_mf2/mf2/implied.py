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
    return _implied_name(element, ctx, is_root, _only_child(element, is_root))


def _implied_name(element: Element, ctx: Mf2Context, is_root: IsRoot, child: Element | None) -> str:
    """:func:`implied_name`, with ``element``'s :func:`_only_child` known."""
    attrs = element.attrs
    if element.name in ("img", "area") and "alt" in attrs:
        return trim(attrs["alt"])
    if element.name == "abbr" and "title" in attrs:
        return trim(attrs["title"])
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
    child = _only_child(element, is_root)
    return _implied_photo(element, ctx, is_root, child, _sole_pair(element, child))


def _sole_pair(element: Element, child: Element | None) -> tuple[dict[str, Element | None], dict[str, Element | None]]:
    """:func:`_sole_children` of ``element`` and of its only child (empty without one)."""
    return _sole_children(element), (_sole_children(child) if child is not None else {})


def _implied_photo(
    element: Element,
    ctx: Mf2Context,
    is_root: IsRoot,
    child: Element | None,
    soles: tuple[dict[str, Element | None], dict[str, Element | None]],
) -> str | dict[str, Any] | None:
    """:func:`implied_photo`, with ``element``'s only child and :func:`_sole_pair` known."""
    attrs = element.attrs
    if element.name == "img" and "src" in attrs:
        return image_value(element, ctx)
    if element.name == "object" and "data" in attrs:
        return resolve(attrs["data"], ctx.base_url)
    for sole in soles:
        if not sole:
            continue
        img = _only_of_type(sole, "img", "src", is_root)
        if img is not None:
            return image_value(img, ctx)
        obj = _only_of_type(sole, "object", "data", is_root)
        if obj is not None:
            return resolve(obj.attrs["data"], ctx.base_url)
    return None


def implied_url(element: Element, ctx: Mf2Context, is_root: IsRoot) -> str | None:
    """The implied ``url``, or ``None``."""
    child = _only_child(element, is_root)
    return _implied_url(element, ctx, is_root, _sole_pair(element, child))


def _implied_url(
    element: Element,
    ctx: Mf2Context,
    is_root: IsRoot,
    soles: tuple[dict[str, Element | None], dict[str, Element | None]],
) -> str | None:
    """:func:`implied_url`, with :func:`_sole_pair` known."""
    attrs = element.attrs
    if element.name in ("a", "area") and "href" in attrs:
        return resolve(attrs["href"], ctx.base_url)
    for sole in soles:
        if not sole:
            continue
        for name in ("a", "area"):
            link = _only_of_type(sole, name, "href", is_root)
            if link is not None:
                return resolve(link.attrs["href"], ctx.base_url)
    return None


def implied_properties(
    element: Element, ctx: Mf2Context, is_root: IsRoot, name: bool, photo: bool, url: bool
) -> tuple[str | None, str | dict[str, Any] | None, str | None]:
    """The implied ``name``, ``photo`` and ``url`` asked for (``None`` for the others),
    finding ``element``'s only child and sole children by type once for all three."""
    child = _only_child(element, is_root)
    found_name = _implied_name(element, ctx, is_root, child) if name else None
    if not photo and not url:
        return found_name, None, None
    soles = _sole_pair(element, child)
    found_photo = _implied_photo(element, ctx, is_root, child, soles) if photo else None
    found_url = _implied_url(element, ctx, is_root, soles) if url else None
    return found_name, found_photo, found_url
