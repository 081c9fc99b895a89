"""Backcompat parsing: classic microformats (mf1) read as microformats2.

The mf2 parsing spec ("parsing for backcompat") says: an element with no valid
mf2 root class but with a classic root class (``vcard``, ``hentry``, ...) is a
*backcompat root*. Its type is the mapped mf2 type, its properties are found
only through the classic property class names of its vocabulary (mf2 property
classes inside it are ignored), and no properties are implied for it.

The core parser calls these hooks; they are pure functions of the element and
its class names:

``root_types(classes) -> list[str]``
    mf2 types for the mf1 root classes on an element; ``[]`` if the element
    has any mf2 root class (mf2 wins) or no mf1 root class.
``nested_root_types(element, classes, parent_types) -> list[str]``
    like ``root_types``, plus the types a backcompat parent implies from
    context: an hReview's untyped ``item`` becomes an ``h-item``.
``property_classes(element, classes, root_types) -> list[str]``
    the mf2 property class names (``p-name``, ``u-url``, ...) that an element
    carries inside a backcompat root of ``root_types``, from its classes and,
    for some vocabularies, its ``rel`` (``rel=tag``, ``rel=bookmark``).
``property_value(element, classes, property_class, root_types) -> str | None``
    a value that replaces the normal parse of that property: ``rel=tag``
    yields the last path segment of the link, not its text.
``postprocess(item, root_types) -> None``
    fix-ups of a finished backcompat item: ``u-*`` image values are plain
    URLs (no ``alt`` objects) and there is no ``"id"`` key, as the classic
    suite expects.

The data tables are in :mod:`stream_mf2.mf2.backcompat_data`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from functools import lru_cache
from typing import Final
from urllib.parse import unquote, urlsplit

from stream_mf2.html.dom import HTML_NS, Element
from stream_mf2.mf2.backcompat_data import (
    ITEM_CLASS,
    ITEM_PARENT_TYPES,
    ITEM_TYPE,
    PROPERTY_CLASSES,
    REL_PROPERTIES,
    REL_TAG_PROPERTY,
    ROOT_CLASSES,
    TEXT_UNLESS_LINKED,
)
from stream_mf2.mf2.classes import root_types as mf2_root_types

__all__ = [
    "has_mf2_root",
    "may_matter",
    "nested_root_types",
    "nested_root_types_of",
    "plain_property_classes",
    "postprocess",
    "property_classes",
    "property_value",
    "rel_tag_value",
    "root_types",
]

# Elements whose rel attribute makes a link (HTML: a, area, link).
_REL_ELEMENTS: Final = frozenset({"a", "area", "link"})

# Where a u-* property takes its URL from an attribute (mf2 "parsing a u- property").
_URL_ATTRIBUTES: Final[dict[str, tuple[str, ...]]] = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "img": ("src",),
    "audio": ("src",),
    "source": ("src",),
    "iframe": ("src",),
    "video": ("src", "poster"),
    "object": ("data",),
}

# HTML's "split on ASCII whitespace" (not str.split(), which also splits on
# Unicode spaces such as U+00A0).
_ASCII_WS: Final = re.compile(r"[\t\n\f\r ]+")


def _split_tokens(value: str) -> list[str]:
    return [token for token in _ASCII_WS.split(value) if token]


def has_mf2_root(classes: Sequence[str]) -> bool:
    """True if any class is a valid mf2 root class name (``h-card``, ``h-x-y``)."""
    return bool(mf2_root_types(list(classes)))


def root_types(classes: Sequence[str]) -> list[str]:
    """The mf2 types of the mf1 root class names in ``classes``.

    Sorted and without duplicates, like mf2 ``type`` arrays. Returns ``[]``
    when the element also has an mf2 root class: then it is an mf2 root and
    its mf1 root classes are ignored ("mf2 wins"). Class names are matched
    case-sensitively, as HTML class selectors are in no-quirks mode.
    """
    if has_mf2_root(classes):
        return []
    found = {ROOT_CLASSES[c] for c in classes if c in ROOT_CLASSES}
    return sorted(found)


def nested_root_types(element: Element, classes: Sequence[str], parent_types: Sequence[str]) -> list[str]:
    """Root types of ``element`` found inside a backcompat root of ``parent_types``.

    Like :func:`root_types`, except that the reviewed ``item`` of an hReview or
    hReview-aggregate that has no root class of its own is an ``h-item`` (the
    hReview "item info": its ``fn``, ``url`` and ``photo``).
    """
    del element  # the answer depends on the class names only
    return nested_root_types_of(classes, parent_types)


def nested_root_types_of(classes: Sequence[str], parent_types: Sequence[str]) -> list[str]:
    """:func:`nested_root_types` of an element with class names ``classes``."""
    types = root_types(classes)
    if types or has_mf2_root(classes):
        return types
    if ITEM_CLASS in classes and any(t in ITEM_PARENT_TYPES for t in parent_types):
        return [ITEM_TYPE]
    return []


@lru_cache(maxsize=4096)
def may_matter(classes: tuple[str, ...], parent_types: tuple[str, ...]) -> bool:
    """Can an element with ``classes`` and no ``rel`` attribute be a root or a property
    inside a backcompat root of ``parent_types`` (no root classes ignored)?

    ``False`` means neither: :func:`nested_root_types` and :func:`property_classes`
    give nothing for it, and the item walker only descends. Cached: most elements
    of a classic page carry the same few class lists.
    """
    if any(c in ROOT_CLASSES for c in classes) or ITEM_CLASS in classes or has_mf2_root(classes):
        return True
    for mf2_type in parent_types:
        table = PROPERTY_CLASSES.get(mf2_type)
        if table is not None and any(c in table for c in classes):
            return True
    return False


def _has_url_attribute(element: Element) -> bool:
    """Would a u-* property of ``element`` read its URL from an attribute?"""
    if element.namespace != HTML_NS:
        return False
    names = _URL_ATTRIBUTES.get(element.name, ())
    return any(name in element.attrs for name in names)


def _rels(element: Element) -> list[str]:
    """The rel keywords of a link element (lowercased: rel is case-insensitive)."""
    if element.namespace != HTML_NS or element.name not in _REL_ELEMENTS:
        return []
    rel = element.attrs.get("rel")
    if not rel:
        return []
    return _split_tokens(rel.lower())


def _mapped(classes: Sequence[str], root_types: Sequence[str], rels: Sequence[str]) -> Iterator[Sequence[str]]:
    """The property-name lists that ``classes``, then the rel keywords ``rels``, map to
    inside roots of ``root_types``, in the order they apply."""
    yield from _looked_up(PROPERTY_CLASSES, root_types, classes)
    if rels:
        yield from _looked_up(REL_PROPERTIES, root_types, rels)


def _looked_up(
    tables: Mapping[str, Mapping[str, tuple[str, ...]]], root_types: Sequence[str], keys: Sequence[str]
) -> Iterator[Sequence[str]]:
    """Per root type that has a table in ``tables``, in order: what each of ``keys`` maps to there."""
    for mf2_type in root_types:
        table = tables.get(mf2_type)
        if table is None:
            continue
        for key in keys:
            mapped = table.get(key)
            if mapped is not None:
                yield mapped


def _uses_rels(root_types: Sequence[str]) -> bool:
    return any(t in REL_PROPERTIES for t in root_types)


@lru_cache(maxsize=4096)
def plain_property_classes(
    classes: tuple[str, ...], root_types: tuple[str, ...], rel: str | None = None
) -> tuple[str, ...] | None:
    """:func:`property_classes` of an element with class names ``classes`` and, if it
    is an HTML ``a``/``area``/``link``, ``rel`` value ``rel`` (else ``None``), when
    the answer depends on nothing else (``None`` when it does: a ``key`` class maps
    by whether the element has a URL attribute). Cached: classic pages repeat the
    same few class lists and rel values.
    """
    rels = _split_tokens(rel.lower()) if rel and _uses_rels(root_types) else []
    out: list[str] = []
    for names in _mapped(classes, root_types, rels):
        for name in names:
            if name in TEXT_UNLESS_LINKED:
                return None
            if name not in out:
                out.append(name)
    return tuple(out)


def property_classes(element: Element, classes: Sequence[str], root_types: Sequence[str]) -> list[str]:
    """The mf2 property classes ``element`` carries inside a backcompat root.

    ``root_types`` are the mf2 types of the nearest enclosing backcompat root
    (all of them: ``class="vevent vcard"`` uses both vocabularies). The result
    keeps first-seen order and has no duplicates, so ``class="fn summary"``
    inside ``vevent vcard`` yields one ``p-name``. mf2 property classes already
    on the element are not returned: a backcompat root ignores them. A ``key``
    is ``u-key`` on a link or image and ``p-key`` (text as written) elsewhere.
    """
    rels = _rels(element) if _uses_rels(root_types) else []
    out: list[str] = []
    for names in _mapped(classes, root_types, rels):
        for name in names:
            if name in TEXT_UNLESS_LINKED and not _has_url_attribute(element):
                name = "p-" + name[2:]
            if name not in out:
                out.append(name)
    return out


def _class_maps_to(classes: Sequence[str], root_types: Sequence[str], property_class: str) -> bool:
    for mf2_type in root_types:
        table = PROPERTY_CLASSES.get(mf2_type)
        if table is None:
            continue
        for cls in classes:
            mapped = table.get(cls)
            if mapped is not None and property_class in mapped:
                return True
    return False


def rel_tag_value(href: str) -> str | None:
    """The tag named by a ``rel=tag`` link: the last non-empty path segment of
    ``href``, percent-decoded; ``None`` if the path has no segment.

    ``http://en.wikipedia.org/wiki/design`` -> ``design``; query and fragment
    are not part of the path.
    """
    try:
        path = urlsplit(href.strip()).path
    except ValueError:
        # urlsplit rejects some malformed inputs (e.g. a bad IPv6 literal).
        return None
    segments = [segment for segment in path.split("/") if segment]
    if not segments:
        return None
    return unquote(segments[-1])


def property_value(
    element: Element, classes: Sequence[str], property_class: str, root_types: Sequence[str]
) -> str | None:
    """A value that replaces the normal parse of a backcompat property, or ``None``.

    ``rel=tag`` gives ``p-category`` the tag from the link's last path segment.
    When a class on the same element (``class="category"``) also maps to
    ``p-category``, the element is an explicit property and its text wins, so
    ``<a rel="tag" class="category" href=".../computer">Computer</a>`` is
    ``Computer``.
    """
    if property_class != REL_TAG_PROPERTY:
        return None
    if not any(REL_PROPERTIES.get(t, {}).get("tag") for t in root_types):
        return None
    if "tag" not in _rels(element):
        return None
    if _class_maps_to(classes, root_types, property_class):
        return None
    href = element.attrs.get("href")
    if href is None:
        return None
    return rel_tag_value(href)


def _plain_url(value: object) -> object:
    """``{"value": url, "alt": text}`` -> ``url``; anything else unchanged."""
    if isinstance(value, dict) and set(value) == {"value", "alt"}:
        url = value["value"]
        if isinstance(url, str):
            return url
    return value


def postprocess(item: MutableMapping[str, object], root_types: Sequence[str]) -> None:
    """Fix up a finished backcompat item in place.

    Classic microformats have no image alternative-text objects: a ``u-*``
    property parsed from ``<img alt>`` is the plain URL (the microformats-v1
    suite expects ``"photo": ["http://..."]``), so ``{"value", "alt"}``
    objects are flattened. Backcompat items carry no ``"id"``: the item id is
    an mf2 addition, and the microformats-v1 suite (includes/hcarditemref)
    expects none on an mf1 root with an id attribute. Only this item's own
    keys are touched; nested items are postprocessed by their own call.
    """
    del root_types  # the fix-ups are the same for every classic vocabulary
    item.pop("id", None)
    properties = item.get("properties")
    if not isinstance(properties, dict):
        return
    for name, values in properties.items():
        if isinstance(values, list):
            properties[name] = [_plain_url(v) for v in values]
