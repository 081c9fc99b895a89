"""The head metadata consumers: OpenGraph, Twitter cards and Dublin Core.

Each is a syntax consumer (the contract: :mod:`stream_mf2.core.syntaxes`).

* :class:`OpenGraphConsumer` and :class:`TwitterConsumer` keep ``<head>`` and
  read its ``<meta>`` children when it is final, which is when the mf2
  metaformats item is built too: after ``</head>``, once the body starts (a
  ``<meta>`` between ``</head>`` and ``<body>`` still goes into the head).
* :class:`DublinCoreConsumer` keeps nothing: everything it reads is in the
  attributes of ``<meta name>`` and ``<link rel>`` elements, which the keep
  question shows as they are made, wherever they are (extruct reads the whole
  document's). It emits what the document held when the ``<body>`` (or a
  ``<frameset>``) starts, and what came after at the document's end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from stream_mf2.html.dom import HTML_NS, Element, is_ancestor
from stream_mf2.metadata.events import DublinCoreItem, OpenGraphItem, TwitterCardItem
from stream_mf2.metadata.vocab import DC_ELEMENTS, DC_NAMESPACES, DC_TERMS, OG_NAMESPACES, PREFIX, dc_local_name

__all__ = ["DublinCoreConsumer", "OpenGraphConsumer", "TwitterConsumer"]

Emit = Callable[[object], object]

# HTML's ASCII whitespace, stripped from an href (as a URL parser does).
_HTML_WHITESPACE: Final = " \t\n\f\r"


def _prefixes(element: Element | None) -> dict[str, str]:
    """The ``prefix`` attribute of ``element`` as ``{prefix: IRI}``."""
    if element is None:
        return {}
    return dict(PREFIX.findall(element.attrs.get("prefix", "")))


def _head_children(head: Element) -> list[Element]:
    return [c for c in head.children if type(c) is Element and c.name == "meta" and c.namespace == HTML_NS]


class _HeadReader:
    """Keeps ``<head>`` and finds it in the subtree handed over (itself, or an outer one)."""

    observer = None

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._head: Element | None = None
        self._done = False

    def keep(self, element: Element) -> bool:
        if self._done or element.name != "head" or element.namespace != HTML_NS or self._head is not None:
            return False
        self._head = element
        return True

    def complete(self, element: Element) -> bool:
        head = self._head
        if head is None or self._done:
            return True
        if element is head or is_ancestor(element, head):
            self._done = True
            self._head = None
            self.read(head)
        return True

    def finish(self) -> list[str]:
        # (a kept head is always handed over by the document's end)
        self._head = None
        return []

    def read(self, head: Element) -> None:
        raise NotImplementedError


class OpenGraphConsumer(_HeadReader):
    """``"opengraph"``: the ``<meta property content>`` children of ``<head>`` with a known prefix."""

    def __init__(self, emit: Emit, *, base_url: str | None = None) -> None:
        del base_url  # values are given as written, as OpenGraph consumers read them
        super().__init__(emit)

    def read(self, head: Element) -> None:
        parent = head.parent
        namespace = _prefixes(parent if type(parent) is Element and parent.name == "html" else None)
        namespace.update(_prefixes(head))
        properties: list[tuple[str, str]] = []
        for meta in _head_children(head):
            attrs = meta.attrs
            prop = attrs.get("property")
            content = attrs.get("content")
            if prop is None or content is None:
                continue
            prefix = prop.partition(":")[0]
            known = OG_NAMESPACES.get(prefix)
            if known is not None:
                namespace[prefix] = known
            if prefix in namespace:
                properties.append((prop, content))
        if properties:
            self._emit(OpenGraphItem(namespace, properties))


class TwitterConsumer(_HeadReader):
    """``"twitter"``: the ``<meta>`` children of ``<head>`` whose ``name`` (or ``property``)
    starts with ``twitter:``, with their ``content`` (or ``value``, which some pages use)."""

    def __init__(self, emit: Emit, *, base_url: str | None = None) -> None:
        del base_url
        super().__init__(emit)

    def read(self, head: Element) -> None:
        properties: list[tuple[str, str]] = []
        for meta in _head_children(head):
            attrs = meta.attrs
            name = attrs.get("name")
            if name is None or name[:8].lower() != "twitter:":
                name = attrs.get("property")
                if name is None or name[:8].lower() != "twitter:":
                    continue
            content = attrs.get("content", attrs.get("value"))
            if content is not None:
                properties.append((name, content))
        if properties:
            self._emit(TwitterCardItem(properties))


class DublinCoreConsumer:
    """``"dublincore"``: Dublin Core ``<meta name>``/``<link rel>`` elements and ``schema.*`` links."""

    observer = None

    def __init__(self, emit: Emit, *, base_url: str | None = None) -> None:
        del base_url
        self._emit = emit
        self._namespaces: dict[str, str] = {}
        # (metas, links) of elements and of terms, since the last emitted part
        self._elements: tuple[list[dict[str, str]], list[dict[str, str]]] = ([], [])
        self._terms: tuple[list[dict[str, str]], list[dict[str, str]]] = ([], [])
        self._head_done = False

    def keep(self, element: Element) -> bool:
        """Read a ``meta``/``link``'s attributes; at ``<body>``, emit the head's part. Keeps nothing."""
        name = element.name
        if element.namespace != HTML_NS:
            return False
        if name == "meta":
            value = element.attrs.get("name")
            if value is not None:
                self._add(element.attrs, value, 0)
        elif name == "link":
            attrs = element.attrs
            rel = attrs.get("rel")
            if rel is not None:
                if "schema" in rel:
                    href = attrs.get("href")
                    if href is not None and href.strip(_HTML_WHITESPACE) in DC_NAMESPACES:
                        self._namespaces[rel.replace("schema.", "")] = href.strip(_HTML_WHITESPACE)
                self._add(attrs, rel, 1)
        elif (name == "body" or name == "frameset") and not self._head_done:
            self._head_done = True
            self._flush()
        return False

    def complete(self, element: Element) -> bool:
        return True

    def finish(self) -> list[str]:
        self._head_done = True
        self._flush()
        return []

    def _add(self, attrs: dict[str, str], value: str, kind: int) -> None:
        local = dc_local_name(value)
        uri = DC_ELEMENTS.get(local)
        if uri is not None:
            entry = dict(attrs)
            entry["URI"] = uri
            self._elements[kind].append(entry)
            return
        uri = DC_TERMS.get(local)
        if uri is not None:
            entry = dict(attrs)
            entry["URI"] = uri
            self._terms[kind].append(entry)

    def _flush(self) -> None:
        """Emit what was found since the last part (nothing if nothing was)."""
        (metas, links), (meta_terms, link_terms) = self._elements, self._terms
        if not (metas or links or meta_terms or link_terms or self._namespaces):
            return
        self._emit(
            DublinCoreItem(self._namespaces, metas + links, meta_terms + link_terms, len(links), len(link_terms))
        )
        self._namespaces = {}
        self._elements = ([], [])
        self._terms = ([], [])
