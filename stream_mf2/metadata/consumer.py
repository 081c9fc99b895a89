"""The head metadata consumers: OpenGraph, Twitter cards and Dublin Core.

Each is a syntax consumer (the contract: :mod:`stream_mf2.core.syntaxes`).

* :class:`OpenGraphConsumer` and :class:`TwitterConsumer` keep the ``<meta>``
  elements they read (leaves: the head's scripts and styles are not stored)
  and emit what the ``<meta>`` children of ``<head>`` say once the head has
  ended: when ``<body>`` (or ``<frameset>``) is made, which is when the mf2
  metaformats item is built too (a ``<meta>`` between ``</head>`` and
  ``<body>`` still goes into the head).
* :class:`DublinCoreConsumer` keeps nothing: everything it reads is in the
  attributes of ``<meta name>`` and ``<link rel>`` elements, which the keep
  question shows as they are made, wherever they are (extruct reads the whole
  document's). It emits what the document held when the ``<body>`` (or a
  ``<frameset>``) starts, and what came after at the document's end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from stream_mf2.html.awaited import Awaited
from stream_mf2.html.dom import HTML_NS, Element
from stream_mf2.metadata.events import DublinCoreItem, OpenGraphItem, TwitterCardItem
from stream_mf2.metadata.vocab import DC_ELEMENTS, DC_NAMESPACES, DC_TERMS, OG_NAMESPACES, PREFIX, dc_local_name

__all__ = ["DublinCoreConsumer", "OpenGraphConsumer", "TwitterConsumer"]

Emit = Callable[[object], object]

# HTML's ASCII whitespace, stripped from an href (as a URL parser does).
_HTML_WHITESPACE: Final = " \t\n\f\r"


def _prefixes(attrs: dict[str, str]) -> dict[str, str]:
    """The ``prefix`` attribute in ``attrs`` as ``{prefix: IRI}``."""
    return dict(PREFIX.findall(attrs.get("prefix", "")))


def _is_head(node: object) -> bool:
    return type(node) is Element and node.name == "head" and node.namespace == HTML_NS


class _HeadMetas:
    """Keeps the ``<meta>`` elements a head syntax reads (leaves: nothing else is stored) and,
    once the head has ended and each has been handed over, reads those that were children of
    ``<head>``.

    The head has ended when ``<body>`` (or ``<frameset>``) is made: a ``<meta>`` between
    ``</head>`` and ``<body>`` still goes into the head, none after. A ``<meta>`` inside
    another consumer's kept subtree (an ``<html class="h-entry">``) is handed over with it:
    the syntax waits for it.
    """

    observer = None

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        # kept metas not handed over yet, in the order they were made
        self._pending = Awaited()
        # the attributes of the head's meta children handed over so far, in document order
        self._metas: list[dict[str, str]] = []
        self._head_attrs: dict[str, str] | None = None
        self._html_attrs: dict[str, str] | None = None
        self._head_ended = False
        self._done = False

    def wants(self, attrs: dict[str, str]) -> bool:
        """Does this syntax read a ``<meta>`` with ``attrs``?"""
        raise NotImplementedError

    def read(self, metas: list[dict[str, str]], head: dict[str, str], html: dict[str, str]) -> None:
        """Emit the syntax's event from the head's ``metas`` (attributes) and the ``head`` and
        ``html`` elements' attributes."""
        raise NotImplementedError

    def keep(self, element: Element) -> bool:
        if self._done or element.namespace != HTML_NS:
            return False
        name = element.name
        if name == "meta":
            if self.wants(element.attrs):
                self._pending.add(element)
                return True
        elif (name == "body" or name == "frameset") and not self._head_ended:
            self._head_ended = True
            # (metas in template contents are never handed over: not waited for)
            self._pending.drop_out_of_document()
            self._maybe_read()
        return False

    def complete(self, element: Element) -> bool:
        for meta in self._pending.take_inside(element):
            head = meta.parent
            if _is_head(head):
                assert isinstance(head, Element)
                self._metas.append(meta.attrs)
                if self._head_attrs is None:
                    self._head_attrs = head.attrs
                    html = head.parent
                    if type(html) is Element and html.name == "html":
                        self._html_attrs = html.attrs
        self._maybe_read()
        return True

    def finish(self) -> list[str]:
        self._head_ended = True
        self._pending.clear()  # (never handed over: not in the document)
        self._maybe_read()
        return []

    def _maybe_read(self) -> None:
        if self._head_ended and not self._pending and not self._done:
            self._done = True
            metas = self._metas
            self._metas = []
            if metas:
                self.read(metas, self._head_attrs or {}, self._html_attrs or {})


class OpenGraphConsumer(_HeadMetas):
    """``"opengraph"``: the ``<meta property content>`` children of ``<head>`` with a known prefix."""

    def __init__(self, emit: Emit, *, base_url: str | None = None) -> None:
        del base_url  # values are given as written, as OpenGraph consumers read them
        super().__init__(emit)

    def wants(self, attrs: dict[str, str]) -> bool:
        return "property" in attrs and "content" in attrs

    def read(self, metas: list[dict[str, str]], head: dict[str, str], html: dict[str, str]) -> None:
        namespace = _prefixes(html)
        namespace.update(_prefixes(head))
        properties: list[tuple[str, str]] = []
        for attrs in metas:
            prop = attrs["property"]
            prefix = prop.partition(":")[0]
            known = OG_NAMESPACES.get(prefix)
            if known is not None:
                namespace[prefix] = known
            if prefix in namespace:
                properties.append((prop, attrs["content"]))
        if properties:
            self._emit(OpenGraphItem(namespace, properties))


def _twitter_name(attrs: dict[str, str]) -> str | None:
    """The ``twitter:`` name of a ``<meta>``: its ``name``, else its ``property``."""
    for key in ("name", "property"):
        value = attrs.get(key)
        if value is not None and value[:8].lower() == "twitter:":
            return value
    return None


class TwitterConsumer(_HeadMetas):
    """``"twitter"``: the ``<meta>`` children of ``<head>`` whose ``name`` (or ``property``)
    starts with ``twitter:``, with their ``content`` (or ``value``, which some pages use)."""

    def __init__(self, emit: Emit, *, base_url: str | None = None) -> None:
        del base_url
        super().__init__(emit)

    def wants(self, attrs: dict[str, str]) -> bool:
        return _twitter_name(attrs) is not None and ("content" in attrs or "value" in attrs)

    def read(self, metas: list[dict[str, str]], head: dict[str, str], html: dict[str, str]) -> None:
        properties: list[tuple[str, str]] = []
        for attrs in metas:
            name = _twitter_name(attrs)
            content = attrs.get("content", attrs.get("value"))
            if name is not None and content is not None:
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
