"""Events of the head metadata consumers, and extruct's result shapes from a stream of them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DublinCoreItem",
    "OpenGraphItem",
    "TwitterCardItem",
    "dublincore_result",
    "opengraph_result",
    "twitter_result",
]


@dataclass(frozen=True, slots=True)
class OpenGraphItem:
    """The page's OpenGraph object, yielded when ``<head>`` ends.

    ``namespace`` maps each prefix to its IRI: those declared in the ``prefix``
    attribute of ``<html>`` and ``<head>``, and the OpenGraph ones (``og``,
    ``article``, ``book``, ``profile``, ``music``, ``video``, ``product``) used
    by a property. ``properties`` lists ``(property, content)`` of every
    ``<meta property content>`` child of ``<head>`` whose prefix is one of
    those, in document order; a repeated property (an OpenGraph array such as
    several ``og:image``) appears once per ``<meta>``.
    """

    namespace: dict[str, str]
    properties: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class TwitterCardItem:
    """The page's Twitter card, yielded when ``<head>`` ends: ``(name, content)`` of every
    ``<meta>`` child of ``<head>`` whose ``name`` (or ``property``) starts with ``twitter:``."""

    properties: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class DublinCoreItem:
    """Dublin Core metadata: ``<meta name>`` and ``<link rel>`` naming a DCMES element or a
    DCMI term (``DC.title``, ``dcterms.modified``, ...), and ``<link rel="schema.DC">`` prefixes.

    Yielded when ``<head>`` ends, with what the document held until then; if
    more comes later (in the body), a second one at the document's end with that
    part. :func:`dublincore_result` joins them into extruct's single object.
    ``elements`` and ``terms`` are each element's attributes plus ``"URI"``, the
    ``<meta>`` ones first, then the ``<link>`` ones (the last ``link_elements``
    and ``link_terms`` of the lists), as extruct lists them.
    """

    namespaces: dict[str, str]
    elements: list[dict[str, str]]
    terms: list[dict[str, str]]
    link_elements: int = 0
    link_terms: int = 0


def opengraph_result(events: Iterable[object]) -> list[dict[str, Any]]:
    """extruct's ``"opengraph"`` list: ``{"namespace", "properties"}`` per :class:`OpenGraphItem`."""
    return [
        {"namespace": dict(e.namespace), "properties": list(e.properties)} for e in events if type(e) is OpenGraphItem
    ]


def twitter_result(events: Iterable[object]) -> list[dict[str, Any]]:
    """``{"properties": [(name, content), ...]}`` per :class:`TwitterCardItem` (extruct has no such key)."""
    return [{"properties": list(e.properties)} for e in events if type(e) is TwitterCardItem]


def dublincore_result(events: Iterable[object]) -> list[dict[str, Any]]:
    """extruct's ``"dublincore"`` list: one object, ``{"namespaces", "elements", "terms"}``,
    joining the :class:`DublinCoreItem` events (empty lists when there are none, as extruct)."""
    parts = [e for e in events if type(e) is DublinCoreItem]
    namespaces: dict[str, str] = {}
    for part in parts:
        namespaces.update(part.namespaces)
    elements = [x for p in parts for x in p.elements[: len(p.elements) - p.link_elements]]
    elements += [x for p in parts for x in p.elements[len(p.elements) - p.link_elements :]]
    terms = [x for p in parts for x in p.terms[: len(p.terms) - p.link_terms]]
    terms += [x for p in parts for x in p.terms[len(p.terms) - p.link_terms :]]
    return [{"namespaces": namespaces, "elements": [dict(x) for x in elements], "terms": [dict(x) for x in terms]}]
